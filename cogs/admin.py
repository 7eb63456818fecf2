"""Running a server's games: its own themes and boards, and the host's ``end`` and ``kick``.

``/monopoly theme upload file:`` and ``/monopoly edition upload file:`` (members who may
manage the server) check a JSON file strictly — :func:`bot.engine.themes.parse_theme_file`,
:func:`~bot.engine.themes.parse_board_file`, which also plays a few seeded games on a
board — draw a board once, and name the first problem; ``list`` shows what lobbies can use,
``remove`` deletes a file (games keep their copy, see ``bot/server_files.py``).
"""

from __future__ import annotations

import asyncio
from typing import Any

import discord
from discord import app_commands

from bot.engine.board import Board
from bot.engine.errors import IllegalAction
from bot.engine.game import new_game
from bot.engine.rules import Rules
from bot.engine.state import GameState
from bot.engine.themes import (
    MAX_BOARD_BYTES,
    MAX_THEME_BYTES,
    InvalidData,
    available_themes,
    parse_board_file,
    parse_theme_file,
    theme_to_dict,
)
from bot.i18n import t
from bot.server_files import BOARD, THEME, catalog, display_name, raw_name, suggest
from bot.settings import GameSettings
from cogs.core.click import Click
from cogs.core.dispatch import may_host
from cogs.core.services import FeatureCog
from cogs.ui.fairness import closed_text
from cogs.ui.text import user_lang
from render.board import render_board

LIMITS = {THEME: MAX_THEME_BYTES, BOARD: MAX_BOARD_BYTES}


def explain_file_problem(lang: str, error: InvalidData, kind: str) -> str:
    """The first problem of an uploaded theme or board file, in words, with where it is."""
    problem = t(lang, f"theme_file.{error.code}", **error.params)
    return t(lang, f"{kind}.file_refused", where=error.where, problem=problem)


def check_file(kind: str, data: bytes) -> tuple[str, dict[str, str], dict[str, Any]]:
    """The id, names by language and stored JSON of a checked file (InvalidData if not)."""
    if kind == THEME:
        theme = parse_theme_file(data, reserved=set(available_themes()))
        return theme.id, theme.name, theme_to_dict(theme)
    board = parse_board_file(data)
    assert board.source is not None
    _try_drawing(board)
    return board.id, {"de": board.name}, board.source


def _try_drawing(board: Board) -> None:
    """Draw the board once, as every turn will: a board the image cannot show is refused."""
    rules = Rules.from_preset("classic", board=board.id)
    state = new_game([("1", "A"), ("2", "B")], seed=0, rules=rules, board=board)
    try:
        render_board(state, size=700)
    except Exception as error:  # noqa: BLE001 - any failure makes the board unusable here
        detail = f"{type(error).__name__}: {error}"[:120]
        raise InvalidData("unplayable", "board", seed=0, detail=detail) from error


class AdminCog(FeatureCog, name="Admin"):
    """Server themes and boards; ending a game and removing a player."""

    theme_group = app_commands.Group(name="theme", description="Board themes of this server")
    edition_group = app_commands.Group(
        name="edition", description="This server's own boards (editions)"
    )

    # -- uploads ----------------------------------------------------------------------------

    async def _upload(self, interaction: discord.Interaction, file: Any, kind: str) -> None:
        click = self.core.dispatcher.command(interaction)
        lang = click.lang
        if interaction.guild_id is None or not interaction.permissions.manage_guild:
            await click.reply(t(lang, f"{kind}.admin_only"))
            return
        if file.size > LIMITS[kind]:  # refused before downloading it
            error = InvalidData("file_too_large", "file", maximum=LIMITS[kind], size=file.size)
            await click.reply(explain_file_problem(lang, error, kind))
            return
        await click.defer(private=True)
        data = await file.read()
        try:
            # A board is tried out in a few games: off the event loop.
            item_id, names, raw = await asyncio.to_thread(check_file, kind, data)
        except InvalidData as error:
            await click.reply(explain_file_problem(lang, error, kind))
            return
        replaced = await self.core.store.save_guild_file(
            interaction.guild_id, kind, item_id, raw, interaction.user.id
        )
        key = f"{kind}.replaced" if replaced else f"{kind}.saved"
        await click.reply(t(lang, key, name=display_name(names, lang), id=item_id))

    async def _list(self, interaction: discord.Interaction, kind: str) -> None:
        click = self.core.dispatcher.command(interaction)
        lang = click.lang
        lines = [t(lang, f"{kind}.list_title")]
        found = await catalog(self.core.store, interaction.guild_id or 0, kind, lang)
        own = await self.core.store.guild_files(interaction.guild_id or 0, kind)
        for name, item_id in found:
            if item_id not in own:
                lines.append(t(lang, "theme.list_builtin", name=name, id=item_id))
        for item_id, raw in own.items():
            lines.append(t(lang, f"{kind}.list_own", name=raw_name(raw, lang), id=item_id))
        if not own:
            lines.append(t(lang, f"{kind}.list_none_own"))
        await click.reply("\n".join(lines)[:1900])

    async def _remove(self, interaction: discord.Interaction, item_id: str, kind: str) -> None:
        click = self.core.dispatcher.command(interaction)
        lang = click.lang
        if interaction.guild_id is None or not interaction.permissions.manage_guild:
            await click.reply(t(lang, f"{kind}.admin_only"))
            return
        shown = item_id[:100]
        if await self.core.store.delete_guild_file(interaction.guild_id, kind, item_id):
            await click.reply(t(lang, f"{kind}.removed", id=shown))
        else:
            await click.reply(t(lang, f"{kind}.not_found", id=shown))

    async def _own(
        self, interaction: discord.Interaction, current: str, kind: str
    ) -> list[app_commands.Choice[str]]:
        lang = user_lang(interaction)
        guild = interaction.guild_id or 0
        found = await suggest(self.core.store, guild, kind, lang, current, own_only=True)
        return [app_commands.Choice(name=label, value=value) for label, value in found]

    @theme_group.command(name="upload", description="Add a theme from a JSON file (admins)")
    @app_commands.describe(file="The theme as a JSON file (see docs/presets.md)")
    async def theme_upload(
        self, interaction: discord.Interaction, file: discord.Attachment
    ) -> None:
        """Check a theme file and keep it for this server."""
        await self._upload(interaction, file, THEME)

    @theme_group.command(name="list", description="The themes lobbies of this server can use")
    async def theme_list(self, interaction: discord.Interaction) -> None:
        """The shipped themes and this server's own."""
        await self._list(interaction, THEME)

    @theme_group.command(name="remove", description="Remove one of this server's themes (admins)")
    @app_commands.describe(theme="The theme's id")
    async def theme_remove(self, interaction: discord.Interaction, theme: str) -> None:
        """Delete a server theme; games using it keep their copy."""
        await self._remove(interaction, theme, THEME)

    @theme_remove.autocomplete("theme")
    async def _own_themes(
        self, interaction: discord.Interaction, current: str
    ) -> list[app_commands.Choice[str]]:
        return await self._own(interaction, current, THEME)

    @edition_group.command(name="upload", description="Add a whole board from a JSON file")
    @app_commands.describe(file="The board as a JSON file (see docs/presets.md)")
    async def edition_upload(
        self, interaction: discord.Interaction, file: discord.Attachment
    ) -> None:
        """Check a board file, try it out and keep it for this server."""
        await self._upload(interaction, file, BOARD)

    @edition_group.command(name="list", description="This server's own boards")
    async def edition_list(self, interaction: discord.Interaction) -> None:
        """The boards this server uploaded."""
        await self._list(interaction, BOARD)

    @edition_group.command(name="remove", description="Remove one of this server's boards")
    @app_commands.describe(edition="The board's id")
    async def edition_remove(self, interaction: discord.Interaction, edition: str) -> None:
        """Delete a server board; games on it keep their copy."""
        await self._remove(interaction, edition, BOARD)

    @edition_remove.autocomplete("edition")
    async def _own_editions(
        self, interaction: discord.Interaction, current: str
    ) -> list[app_commands.Choice[str]]:
        return await self._own(interaction, current, BOARD)

    # -- end and kick ------------------------------------------------------------------------

    async def _hosted(self, click: Click) -> Any:
        row = await self.core.store.game_in_channel(click.interaction.channel_id or 0)
        if row is None:
            raise IllegalAction("no_game_here")
        click.row = row
        if not may_host(click.interaction, GameSettings.of(row)):
            raise IllegalAction("host_only")
        return row

    @app_commands.command(name="end", description="End the game in this channel (host)")
    @app_commands.choices(
        mode=[
            app_commands.Choice(name="richest wins", value="wealth"),
            app_commands.Choice(name="abandon", value="abandon"),
        ]
    )
    async def end(self, interaction: discord.Interaction, mode: str = "wealth") -> None:
        """The host (or a member with Manage Server) ends the game."""
        click = self.core.dispatcher.command(interaction)
        row = await self._hosted(click)
        if row.state is None:  # a lobby
            await self.core.store.finish(row.id, "abandoned")
            message_id = GameSettings.of(row).records.lobby_message
            if message_id is not None:
                await self.core.publisher.edit(
                    row.id, click.channel, message_id, "lobby", view=None
                )
            # A closed lobby reveals its secret (docs/fair-dice.md): an operator who drops
            # lobbies whose secret they dislike shows up here and in /monopoly history.
            revealed = closed_text(row.id, GameSettings.of(row))
            text = revealed if revealed is not None else t(click.lang, "lobby.closed")
            await click.reply(text, private=False)
            return
        if not isinstance(row.state, GameState):  # the card game has no end by wealth
            await click.defer(private=True)
            await self.core.store.finish(row.id, "abandoned")
            # The end in public: that it was ended, the seed and the recap.
            await self.core.publisher.ended(row.id, click.channel)
            await click.reply(t(click.lang, "manage.done"))
            return
        await click.defer(private=True)
        await click.act_as_host({"type": "end_game", "mode": mode})
        await click.reply(t(click.lang, "manage.done"))

    @app_commands.command(name="kick", description="Remove a player; their assets go to the bank")
    async def kick(self, interaction: discord.Interaction, member: discord.Member) -> None:
        """The host removes a player from the running game."""
        click = self.core.dispatcher.command(interaction)
        row = await self._hosted(click)
        if row.state is None:
            raise IllegalAction("not_started")
        if not isinstance(row.state, GameState):
            raise IllegalAction("board_only")
        seat = click.service.seat_of(row.state, member.id)
        if seat is None:
            raise IllegalAction("not_a_player")
        await click.defer(private=True)
        await click.act_as_host({"type": "remove_player", "target": seat})
        await click.reply(t(click.lang, "manage.done"))
