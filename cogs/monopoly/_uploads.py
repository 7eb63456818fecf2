"""A server's own files: board themes and whole boards ("editions") uploaded by admins.

``/monopoly theme upload file:`` and ``/monopoly edition upload file:`` (members with
*Manage Server*) check a JSON file strictly — :func:`bot.engine.themes.parse_theme_file`,
:func:`~bot.engine.themes.parse_board_file`, which also plays a few seeded games on a
board — and name the first problem; ``list`` shows what lobbies can use, ``remove``
deletes a file. ``/monopoly start theme: edition:`` complete from them. A lobby copies
what it uses into its settings (``theme_data``, ``board_data``) and a game carries its
board in its own state, so removing or replacing a file never changes a game.
"""

from __future__ import annotations

import asyncio
from typing import TYPE_CHECKING, Any

import discord
from discord import app_commands

from bot.engine.board import Board, load_board
from bot.engine.errors import IllegalAction
from bot.engine.game import new_game
from bot.engine.rules import Rules
from bot.engine.themes import (
    MAX_BOARD_BYTES,
    MAX_THEME_BYTES,
    InvalidData,
    available_themes,
    load_theme,
    parse_board_file,
    parse_theme_file,
    theme_from_dict,
    theme_to_dict,
)
from bot.i18n import t
from cogs.monopoly._widgets import lang_of, reply
from render.board import render_board

if TYPE_CHECKING:
    from cogs.monopoly._cog import MonopolyCog

THEME, BOARD = "theme", "board"
AUTOCOMPLETE_MAX = 25  # Discord's limit of suggestions
LIMITS = {THEME: MAX_THEME_BYTES, BOARD: MAX_BOARD_BYTES}


def _may_manage(interaction: discord.Interaction) -> bool:
    return interaction.guild_id is not None and interaction.permissions.manage_guild


def explain_file_problem(lang: str, error: InvalidData, kind: str) -> str:
    """The first problem of an uploaded theme or board file, in words, with where it is."""
    problem = t(lang, f"theme_file.{error.code}", **error.params)
    return t(lang, f"{kind}.file_refused", where=error.where, problem=problem)


def _parse(kind: str, data: bytes) -> tuple[str, dict[str, str], dict[str, Any]]:
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


async def upload(cog: MonopolyCog, interaction: discord.Interaction, file: Any, kind: str) -> None:
    """Check an uploaded theme or board file and keep it for the server (admins only)."""
    lang = lang_of(interaction)
    if not _may_manage(interaction):
        await reply(interaction, t(lang, f"{kind}.admin_only"))
        return
    if file.size > LIMITS[kind]:  # refused before downloading it
        error = InvalidData("file_too_large", "file", maximum=LIMITS[kind], size=file.size)
        await reply(interaction, explain_file_problem(lang, error, kind))
        return
    await interaction.response.defer(ephemeral=True, thinking=True)
    data = await file.read()
    try:
        # A board is tried out in a few games: off the event loop.
        item_id, names, raw = await asyncio.to_thread(_parse, kind, data)
    except InvalidData as error:
        await reply(interaction, explain_file_problem(lang, error, kind))
        return
    replaced = await cog.service.store.save_guild_file(
        interaction.guild_id or 0, kind, item_id, raw, interaction.user.id
    )
    key = f"{kind}.replaced" if replaced else f"{kind}.saved"
    await reply(interaction, t(lang, key, name=_name(names, lang), id=item_id))


async def list_files(cog: MonopolyCog, interaction: discord.Interaction, kind: str) -> None:
    """Every theme (or board) a lobby of this server can use, the server's own marked."""
    lang = lang_of(interaction)
    lines = [t(lang, f"{kind}.list_title")]
    if kind == THEME:
        for theme_id in available_themes():
            name = _name(load_theme(theme_id).name, lang)
            lines.append(t(lang, "theme.list_builtin", name=name, id=theme_id))
    own = await cog.service.store.guild_files(interaction.guild_id or 0, kind)
    for item_id, raw in own.items():
        lines.append(t(lang, f"{kind}.list_own", name=_raw_name(raw, lang), id=item_id))
    if not own:
        lines.append(t(lang, f"{kind}.list_none_own"))
    await reply(interaction, "\n".join(lines)[:1900])


async def remove(
    cog: MonopolyCog, interaction: discord.Interaction, item_id: str, kind: str
) -> None:
    """Delete one of the server's files (admins only); games using it keep their copy."""
    lang = lang_of(interaction)
    if not _may_manage(interaction):
        await reply(interaction, t(lang, f"{kind}.admin_only"))
        return
    if await cog.service.store.delete_guild_file(interaction.guild_id or 0, kind, item_id):
        await reply(interaction, t(lang, f"{kind}.removed", id=item_id))
    else:
        await reply(interaction, t(lang, f"{kind}.not_found", id=item_id))


async def suggestions(
    cog: MonopolyCog,
    interaction: discord.Interaction,
    current: str,
    kind: str,
    *,
    own_only: bool = False,
) -> list[app_commands.Choice[str]]:
    """Autocomplete: the shipped themes (not for boards) and the server's own files."""
    lang = lang_of(interaction)
    found: list[tuple[str, str]] = []
    if kind == THEME and not own_only:
        found += [(_name(load_theme(i).name, lang), i) for i in available_themes()]
    own = await cog.service.store.guild_files(interaction.guild_id or 0, kind)
    found += [(_raw_name(raw, lang), i) for i, raw in own.items()]
    needle = current.casefold()
    return [
        app_commands.Choice(name=f"{name} ({item_id})"[:100], value=item_id)
        for name, item_id in found
        if needle in item_id or needle in name.casefold()
    ][:AUTOCOMPLETE_MAX]


async def resolve(
    cog: MonopolyCog, guild_id: int, preset: str, theme_id: str | None, edition: str | None
) -> dict[str, Any]:
    """What a new lobby's settings get for the chosen theme and board.

    ``theme`` (and ``theme_data`` for a server theme), ``board_data`` and the rules
    override ``board`` for a server's board. Raises :class:`IllegalAction` for an unknown
    theme or board, or a theme made for another board than the game's.
    """
    settings: dict[str, Any] = {"theme": None}
    board_id = Rules.from_preset(preset).board
    if edition:
        boards = await cog.service.store.guild_files(guild_id, BOARD)
        if edition not in boards:
            raise IllegalAction("unknown_edition", edition=edition)
        settings["board_data"] = boards[edition]
        board_id = edition
    if not theme_id:
        return settings
    if theme_id in available_themes():
        theme = load_theme(theme_id)
        settings["theme"] = theme_id
    else:
        own = await cog.service.store.guild_files(guild_id, THEME)
        if theme_id not in own:
            raise IllegalAction("unknown_theme", theme=theme_id)
        raw = own[theme_id]
        theme = theme_from_dict(raw, load_board(raw["base_board"]))
        settings.update(theme=theme_id, theme_data=raw)
    if theme.base_board != board_id:
        raise IllegalAction("theme_board", theme=theme_id, board=theme.base_board, preset=preset)
    return settings


def _name(names: dict[str, str], lang: str) -> str:
    return names.get(lang) or next(iter(names.values()))


def _raw_name(raw: dict[str, Any], lang: str) -> str:
    name = raw.get("name")
    return _name(name, lang) if isinstance(name, dict) else str(name)
