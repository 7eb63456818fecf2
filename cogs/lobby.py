"""Opening a game: ``/monopoly start``, the lobby's buttons (join, leave, rules, start), its
computer players and the host's house rules (changeable only before the game starts).

(Longer than ~400 lines: ``/monopoly start`` with its options, boards and permission
checks, and the lobby's buttons work on one lobby record.)

``/monopoly start`` first checks the bot's own permissions in the channel and refuses,
naming what is missing, before anything is created. Every change of a lobby goes through
the game service (``bot/service.py``), which checks it under the game's lock.
"""

from __future__ import annotations

import logging
from typing import Any

import discord
from discord import app_commands

from bot.engine.board import load_board
from bot.engine.errors import IllegalAction
from bot.engine.rules import Rules, available_presets
from bot.engine.themes import available_themes
from bot.fairness import WORDS_MAX, clean_words
from bot.i18n import t
from bot.permissions import CHANNEL_PERMISSIONS, THREAD_PERMISSIONS
from bot.rules_summary import describe_rules
from bot.server_files import BOARD, THEME, resolve, suggest
from bot.service import LobbyPlayer
from bot.settings import GameSettings
from bot.store import ChannelBusy, GameRow, GameStatus
from bot.text_input import parse_amount
from cogs.core.click import Click
from cogs.core.services import FeatureCog
from cogs.ui.house_rules import (
    AMOUNTS,
    CHOICES,
    FIXED_FREE_PARKING,
    TOGGLES,
    AmountsForm,
    house_rules_panel,
)
from cogs.ui.lobby import REMOVE_COMPUTER, WordsForm, lobby_message
from cogs.ui.text import board_of, theme_of, user_lang

log = logging.getLogger(__name__)

#: Turn deadlines offered by ``/monopoly start`` (the full list is in ``/monopoly settings``).
START_DEADLINES = ("off", "5m", "1h", "12h", "24h", "48h")
# What the bot needs where a game is played (CHANNEL_PERMISSIONS, THREAD_PERMISSIONS) is
# bot/permissions.py's, shared with the publisher and the invite link.
#: The shipped boards ``/monopoly start`` offers, with the English names of its choices
#: (``choice.<name>`` in the catalogs); a server's own board comes with ``edition``.
BOARD_CHOICES = {
    "de_euro": "German board (euro)",
    "de_mark": "German board (Mark)",
    "us_classic": "US board (dollars)",
}
#: The board of the standard presets, and what an English game plays instead.
STANDARD_BOARD, ENGLISH_BOARD = "de_euro", "us_classic"
#: Amounts a preset may give itself (else the board's printed ones); 0 and 1 (the least
#: step) mean the same on every board.
PRESET_AMOUNTS = (
    "start_money",
    "salary",
    "jail_fine",
    "free_parking_amount",
    "auction_min_bid",
    "auction_min_raise",
)


def _money_scale(board_id: str) -> tuple[int, int, int]:
    board = load_board(board_id)
    return board.start_money, board.salary, board.jail_fine


def board_money_fits(preset: str, board_id: str) -> bool:
    """Whether ``preset`` can be played on ``board_id`` with its money consistent.

    A preset's own amounts are meant for its own board; on a board whose amounts are of
    another size (the Mark board's are twenty times the euro board's) they would be
    wrong, so such a combination is refused. Amounts a preset leaves to the board follow
    the board chosen; none of the shipped presets gives its own amounts yet.
    """
    rules = Rules.from_preset(preset)
    if _money_scale(rules.board) == _money_scale(board_id):
        return True
    return all(getattr(rules, name) in (None, 0, 1) for name in PRESET_AMOUNTS)


def board_for(
    preset: str, lang: str, chosen: str | None, theme_board: str | None
) -> tuple[str | None, IllegalAction | None]:
    """The shipped board a new lobby plays on, or why the choice cannot be played.

    ``chosen`` is the ``board`` option (None: by default), ``theme_board`` the board a
    chosen theme is made for. By default a German game plays its preset's board (the
    euro board, or the Mark board for the Mark preset) and an English game the US board
    – except with the Mark preset, which is the German Mark edition in either language.
    A theme renames one board: without a choice the game plays that board if it is the
    default or the preset's own; a chosen board must be the theme's.
    """
    own = Rules.from_preset(preset).board
    if chosen is not None:
        if chosen not in BOARD_CHOICES:
            return None, IllegalAction("bad_option", option=chosen[:100])
        if theme_board is not None and theme_board != chosen:
            return None, IllegalAction("theme_other_board", board=theme_board, chosen=chosen)
        if not board_money_fits(preset, chosen):
            return None, IllegalAction("board_money", preset=preset, board=chosen)
        return chosen, None
    default = ENGLISH_BOARD if lang == "en" and own == STANDARD_BOARD else own
    if theme_board is None or theme_board == default:
        return default, None
    if theme_board == own:
        return own, None
    return None, IllegalAction("theme_board", board=theme_board, preset=preset)


def missing_permissions(interaction: discord.Interaction, thread: bool) -> list[str]:
    """The permissions the bot lacks in the interaction's channel for a new game there."""
    perms = interaction.app_permissions
    needed = list(CHANNEL_PERMISSIONS)
    if thread or isinstance(interaction.channel, discord.Thread):
        needed.append("send_messages_in_threads")
    if thread:
        needed.append("create_public_threads")
    return [name for name in needed if not getattr(perms, name, False)]


class LobbyCog(FeatureCog, name="Lobby"):
    """``/monopoly start`` and everything a lobby offers until the game starts."""

    @app_commands.command(name="start", description="Open a MONOPOLY lobby in this channel")
    @app_commands.describe(
        preset="Rules to play by",
        language="Language of the game",
        theme="Names on the board",
        max_players="Most players allowed",
        deadline="Time each player has for a move before the bot plays it safe",
        game="MONOPOLY or MONOPOLY The Card Game",
        where="Play in this channel or in a new thread of it",
        edition="A board of this server's own (see /monopoly edition)",
        board="Board to play on (by default the one for the game's language)",
    )
    @app_commands.choices(
        board=[app_commands.Choice(name=name, value=key) for key, name in BOARD_CHOICES.items()],
        where=[
            app_commands.Choice(name="in this channel", value="here"),
            app_commands.Choice(name="in a new thread", value="thread"),
        ],
        game=[
            app_commands.Choice(name="MONOPOLY", value="board"),
            app_commands.Choice(name="MONOPOLY card game", value="cards"),
        ],
        deadline=[app_commands.Choice(name=key, value=key) for key in START_DEADLINES],
        preset=[app_commands.Choice(name=p, value=p) for p in available_presets()],
        language=[
            app_commands.Choice(name="Deutsch", value="de"),
            app_commands.Choice(name="English", value="en"),
        ],
    )
    async def start(
        self,
        interaction: discord.Interaction,
        preset: str = "classic",
        language: str | None = None,
        theme: str | None = None,
        max_players: app_commands.Range[int, 2, 10] | None = None,
        deadline: str = "off",
        game: str = "board",
        where: str = "here",
        edition: str | None = None,
        board: str | None = None,
    ) -> None:
        """Open a lobby: players join with a button, the host starts the game.

        With ``where`` "thread" the lobby and the whole game go to a new public thread of
        the channel (one game per thread), and the channel gets a link to it; inside a
        thread the game simply opens there. The board is ``board``, else the one for the
        game's language (see :func:`board_for`); a server's own ``edition`` wins over it.
        """
        click = self.core.dispatcher.command(interaction)
        lang = language or click.lang
        new_thread = where == "thread" and not isinstance(interaction.channel, discord.Thread)
        missing = missing_permissions(interaction, new_thread)
        if missing:
            if new_thread and set(missing) <= set(THREAD_PERMISSIONS):
                raise IllegalAction("thread_forbidden")
            names = ", ".join(t(click.lang, f"permission.{name}") for name in missing)
            raise IllegalAction("missing_permissions", permissions=names)
        host = LobbyPlayer(interaction.user.id, interaction.user.display_name)
        board_game = game == "board"  # the card game has neither themes nor boards
        guild = interaction.guild_id or 0
        shipped = None
        if board_game and not edition:
            chosen = await self._theme(guild, theme)
            found = theme_of(chosen)
            shipped, problem = board_for(
                preset, lang, board, found.base_board if found is not None else None
            )
            if problem is not None:
                raise self._named(problem, click.lang, theme)
        else:  # a server's own board (the theme must be made for it), or the card game
            chosen = await resolve(
                self.core.store,
                guild,
                preset,
                theme if board_game else None,
                edition if board_game else None,
            )
        thread = None
        if new_thread:
            thread = await self._new_thread(click, host, lang, game)
            if thread is None:
                return
        try:
            row = await click.service.open_lobby(
                interaction.guild_id or 0,
                thread.id if thread is not None else interaction.channel_id or 0,
                host,
                preset=preset,
                lang=lang,
                theme=chosen.lobby.theme,
                theme_data=chosen.lobby.theme_data,
                board_data=chosen.lobby.board_data,
                board=shipped,
                max_players=max_players,
                deadline=deadline,
                game=game,
            )
        except ChannelBusy:  # never for a new thread
            await click.reply(await self._busy_text(interaction, click.lang))
            return
        lobby = lobby_message(row.id, GameSettings.of(row))
        if thread is None:
            await interaction.response.send_message(**lobby)
            message = await interaction.original_response()
        else:
            # Answer first: Discord allows three seconds, and the thread took one request.
            text = t(lang, "thread.opened", host=interaction.user.mention, thread=thread.mention)
            await interaction.response.send_message(text)
            message = await self.core.publisher.send(row.id, thread, "lobby", **lobby)
            if message is None:
                return  # the reconciler posts the lobby once it can
        shown = GameSettings()
        shown.records.lobby_message = message.id
        await self.core.store.patch_settings(row.id, shown.to_stored())

    async def _theme(self, guild: int, theme: str | None) -> GameSettings:
        """A lobby's settings for ``theme`` (lobby keys only): a shipped theme's id, or a
        server's own theme with its data (``unknown_theme`` if there is none of that id)."""
        chosen = GameSettings()
        chosen.lobby.theme = theme or None
        if not theme or theme in available_themes():
            return chosen
        own = await self.core.store.guild_files(guild, THEME)
        if theme not in own:
            raise IllegalAction("unknown_theme", theme=theme[:100])
        chosen.lobby.theme_data = own[theme]
        return chosen

    @staticmethod
    def _named(problem: IllegalAction, lang: str, theme: str | None) -> IllegalAction:
        """``problem`` with the boards (and the preset) named in the user's language
        (``theme_board`` names them by id, as for a server's own board)."""
        params = dict(problem.params)
        if problem.code != "theme_board":
            for key in ("board", "chosen"):
                if key in params:
                    params[key] = t(lang, f"board.{params[key]}")
            if "preset" in params:
                params["preset"] = t(lang, f"preset.{params['preset']}")
        if theme:
            params["theme"] = theme[:100]
        return IllegalAction(problem.code, **params)

    async def _suggest(
        self, interaction: discord.Interaction, current: str, kind: str, own_only: bool = False
    ) -> list[app_commands.Choice[str]]:
        lang = user_lang(interaction)
        guild = interaction.guild_id or 0
        found = await suggest(self.core.store, guild, kind, lang, current, own_only=own_only)
        return [app_commands.Choice(name=label, value=value) for label, value in found]

    @start.autocomplete("theme")
    async def _theme_choices(
        self, interaction: discord.Interaction, current: str
    ) -> list[app_commands.Choice[str]]:
        return await self._suggest(interaction, current, THEME)

    @start.autocomplete("edition")
    async def _edition_choices(
        self, interaction: discord.Interaction, current: str
    ) -> list[app_commands.Choice[str]]:
        return await self._suggest(interaction, current, BOARD)

    async def _new_thread(
        self, click: Click, host: LobbyPlayer, lang: str, game: str
    ) -> discord.Thread | None:
        """A new public thread of the channel for the game, or None (the user is told why)."""
        channel = click.interaction.channel
        if not isinstance(channel, discord.TextChannel):
            raise IllegalAction("no_thread_here")
        title = t(lang, "thread.name_cards" if game == "cards" else "thread.name")
        try:
            return await channel.create_thread(
                name=f"{title} – {host.name}"[:100],
                type=discord.ChannelType.public_thread,
                # A week: the longest Discord allows, for games that pause for days.
                auto_archive_duration=10080,
                reason=f"/monopoly start by {host.name}",
            )
        except discord.HTTPException as error:
            log.warning("Could not open a thread in channel %s: %s", channel.id, error)
            await click.reply(t(click.lang, "error.thread_forbidden"))
            return None

    async def _busy_text(self, interaction: discord.Interaction, lang: str) -> str:
        """'A game runs here', with a link to its current message when there is one."""
        row = await self.core.store.game_in_channel(interaction.channel_id or 0)
        message_id = None
        if row is not None:
            records = GameSettings.of(row).records
            message_id = records.turn_message or records.table_message or records.lobby_message
        if message_id is None or interaction.guild_id is None:
            return t(lang, "error.channel_busy")
        link = (
            f"https://discord.com/channels/{interaction.guild_id}/"
            f"{interaction.channel_id}/{message_id}"
        )
        return t(lang, "error.channel_busy_link", link=link)

    # -- the lobby's buttons ----------------------------------------------------------------

    async def join_or_leave(self, click: Click) -> None:
        """Join or leave the lobby; the lobby message shows the players."""
        assert click.ref is not None
        user = LobbyPlayer(click.user_id, click.interaction.user.display_name)
        if click.ref.action == "join":
            settings = await click.service.join(click.game, user)
        else:
            settings = await click.service.leave(click.game, user.id)
        await click.edit(**lobby_message(click.game, settings))

    # -- the players' words (docs/fair-dice.md) ---------------------------------------------

    @staticmethod
    def _may_set_words(row: GameRow, user_id: int) -> None:
        """Refuse (IllegalAction) unless ``row`` is an open lobby with ``user_id`` in it."""
        if row.status != GameStatus.LOBBY:
            raise IllegalAction("words_started")
        if not any(p["id"] == user_id for p in GameSettings.of(row).lobby.players):
            raise IllegalAction("words_not_joined")

    async def words_form(self, click: Click) -> None:
        """ "🍀 Glücksformel": the form for the player's words, with the ones they set (a
        form must be the first answer; someone not in the lobby is told so instead)."""
        row = await click.load()
        self._may_set_words(row, click.user_id)
        typed = GameSettings.of(row).fair.lobby_words or {}
        await click.form(WordsForm(click.game, click.lang, typed.get(str(click.user_id), "")))

    async def words(self, click: Click) -> None:
        """The submitted words: kept (stripped, NFC), or removed if empty; the lobby shows
        who has set words. Checked again here: the form may come after the start, from
        someone who left meanwhile, or longer than the form allows."""
        try:
            words = clean_words(click.fields.get("words", ""))
        except ValueError as error:
            typed = click.fields.get("words", "").strip()
            if str(error) == "too_long":
                raise IllegalAction(
                    "words_too_long", maximum=WORDS_MAX, length=len(typed)
                ) from None
            raise IllegalAction("words_bad_character") from None
        user = str(click.user_id)

        def change(row: GameRow, settings: GameSettings) -> bool:
            self._may_set_words(row, click.user_id)
            typed = dict(settings.fair.lobby_words or {})
            had = user in typed
            if words:
                typed[user] = words
            else:
                typed.pop(user, None)
            settings.fair.lobby_words = typed
            return had

        had = await click.service.edit_settings(click.game, change)
        if words:
            shown = discord.utils.escape_mentions(discord.utils.escape_markdown(words))
            await click.reply(t(click.lang, "fair.words.saved", words=shown))
        else:
            await click.reply(
                t(click.lang, "fair.words.removed" if had else "fair.words.unchanged")
            )
        row = await click.load()
        settings = GameSettings.of(row)
        message_id = settings.records.lobby_message
        if message_id is not None and row.status == GameStatus.LOBBY:
            # If the edit fails the lobby shows the words with its next update.
            await self.core.publisher.edit(
                click.game,
                click.channel,
                message_id,
                "lobby",
                **lobby_message(click.game, settings),
            )

    async def show_rules(self, click: Click) -> None:
        """The lobby's rules, privately."""
        row = await click.load()
        settings = GameSettings.of(row)
        rules = settings.lobby.rules()
        text = "\n".join(describe_rules(rules, click.lang, board_of(settings)))
        await click.reply(text[:1900])

    async def start_game(self, click: Click) -> None:
        """The host starts the game: seats in joining order, a fresh seed, the first message."""
        await click.defer()
        row = await click.service.start(click.game, click.user_id)
        message = click.interaction.message
        if message is not None:
            # The lobby now shows the players' words the seed was derived from.
            shown = {**lobby_message(row.id, GameSettings.of(row)), "view": None}
            await self.core.publisher.edit(row.id, click.channel, message.id, "lobby", **shown)
        await self.core.publisher.started(row.id, click.channel)

    async def computers(self, click: Click) -> None:
        """The host seats a computer player of a strength, or takes the last one out."""
        choice = click.values[0] if click.values else ""
        if choice == REMOVE_COMPUTER:
            settings = await click.service.remove_computer(click.game, click.user_id)
        else:
            settings = await click.service.add_computer(click.game, click.user_id, choice)
        await click.edit(**lobby_message(click.game, settings))

    # -- house rules ------------------------------------------------------------------------

    async def house_rules(self, click: Click) -> None:
        """The host opens the house rules panel (others are told it is the host's job)."""
        await click.reply(**house_rules_panel(click.game, click.settings, click.lang))

    async def _change(self, click: Click, changes: dict[str, Any]) -> GameSettings:
        overrides = {**click.settings.lobby.overrides, **changes}
        settings = await click.service.update_lobby(click.game, click.user_id, overrides=overrides)
        message_id = settings.records.lobby_message
        if message_id is not None:
            # If the edit fails the lobby shows the change with its next update.
            await self.core.publisher.edit(
                click.game,
                click.channel,
                message_id,
                "lobby",
                **lobby_message(click.game, settings),
            )
        return settings

    async def rule_choice(self, click: Click) -> None:
        """A choice of one of the house rules' selects."""
        name = click.arg or ""
        value = click.values[0] if click.values else ""
        if name not in CHOICES or not (value.isascii() and value.isdigit()):
            raise IllegalAction("unknown_button")
        choices = CHOICES[name]
        if int(value) >= len(choices):
            raise IllegalAction("unknown_button")
        changes: dict[str, Any] = {name: choices[int(value)]}
        if name == "free_parking" and choices[int(value)] == "fixed":
            changes["free_parking_amount"] = FIXED_FREE_PARKING
        settings = await self._change(click, changes)
        await click.edit(**house_rules_panel(click.game, settings, click.lang))

    async def rule_toggle(self, click: Click) -> None:
        """A yes/no house rule switched."""
        name = click.arg or ""
        if name not in TOGGLES:
            raise IllegalAction("unknown_button")
        rules = click.settings.lobby.rules()
        settings = await self._change(click, {name: not getattr(rules, name)})
        await click.edit(**house_rules_panel(click.game, settings, click.lang))

    async def amounts_form(self, click: Click) -> None:
        """The form for one group of amounts (a form must be the first answer)."""
        index = int(click.arg) if click.arg and click.arg.isascii() and click.arg.isdigit() else 0
        if index >= len(AMOUNTS):
            raise IllegalAction("unknown_button")
        await click.form(AmountsForm(click.game, click.lang, index))

    async def amounts(self, click: Click) -> None:
        """Check every typed number, then change them together."""
        index = int(click.arg) if click.arg and click.arg.isascii() and click.arg.isdigit() else 0
        if index >= len(AMOUNTS):
            raise IllegalAction("unknown_button")
        names = AMOUNTS[list(AMOUNTS)[index]]
        changes: dict[str, Any] = {}
        for name in names:
            text = click.fields.get(name, "").strip()
            if not text:
                continue
            amount = parse_amount(text)
            if amount is None:
                await click.reply(t(click.lang, "error.bad_number", text=text[:40]))
                return
            changes[name] = amount
        await self._change(click, changes)
        await click.reply(t(click.lang, "manage.done"))
