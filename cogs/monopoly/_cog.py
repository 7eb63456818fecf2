"""The ``/monopoly`` commands and every button of a game."""

from __future__ import annotations

import asyncio
import logging
import re
from typing import Any

import discord
from discord import app_commands
from discord.ext import commands

from bot.cardgame import CardState
from bot.engine.auctions import next_minimum
from bot.engine.errors import IllegalAction
from bot.engine.rules import Rules, available_presets
from bot.engine.state import GameState
from bot.i18n import normalise_language, t
from bot.rules_summary import describe_rules
from bot.service import GameService, LobbyPlayer
from bot.stats import leaderboard, result_of
from bot.store import ApplyResult, ChannelBusy, GameRow, GameStatus, StoreError
from cogs.monopoly import _absence, _cards, _controls, _house_rules, _manage, _trade, _uploads
from cogs.monopoly import _panels as panels
from cogs.monopoly._deadlines import DEADLINES, Deadlines
from cogs.monopoly._panels import leaderboard_text
from cogs.monopoly._text import Narrator, board_of, mentions, theme_of
from cogs.monopoly._timing import (
    DEADLINE_CHOICES,
    DIGEST_CHOICES,
    GAME_LENGTH_CHOICES,
    MISSED_LIMIT_MAX,
    OFFER_CHOICES,
)
from cogs.monopoly._widgets import BUTTON_ROUTES, explain

log = logging.getLogger(__name__)

# Buttons that map straight to an engine action of the clicking player.
SIMPLE_ACTIONS: dict[str, dict[str, Any]] = {
    "roll": {"type": "roll"},
    "pay_bail": {"type": "pay_bail"},
    "use_jail_card": {"type": "use_jail_card"},
    "buy": {"type": "buy"},
    "decline": {"type": "decline"},
    "choose_pay": {"type": "choose", "option": "pay"},
    "choose_draw": {"type": "choose", "option": "draw"},
    "keep_mortgages": {"type": "decide_mortgages", "lift": []},
    "end_turn": {"type": "end_turn"},
    "declare_bankruptcy": {"type": "declare_bankruptcy"},
    "auction_pass": {"type": "auction_pass"},
    "resign_confirm": {"type": "resign"},
}
# Buttons whose argument is a square.
SQUARE_ACTIONS = ("build", "sell_building", "mortgage", "unmortgage", "claim_rent")


def _choices(values: tuple[str, ...], **names: str) -> list[app_commands.Choice[str]]:
    """Slash-command choices named by :data:`CHOICE_NAMES` or ``names`` (German names come
    from the catalog, ``choice.<name>``)."""
    return [
        app_commands.Choice(name=names.get(value, CHOICE_NAMES[value]), value=value)
        for value in values
    ]


#: English names of the time choices (German ones come from the catalog).
CHOICE_NAMES = {
    "off": "off",
    "auto": "as long as the turn deadline",
    "1m": "1 minute",
    "5m": "5 minutes",
    "15m": "15 minutes",
    "1h": "1 hour",
    "2h": "2 hours",
    "4h": "4 hours",
    "12h": "12 hours",
    "24h": "24 hours",
    "48h": "48 hours",
    "72h": "72 hours",
    "7d": "7 days",
    "6": "06:00 UTC",
    "8": "08:00 UTC",
    "12": "12:00 UTC",
    "18": "18:00 UTC",
    "20": "20:00 UTC",
}


def user_lang(interaction: discord.Interaction) -> str:
    """German or English for ephemeral replies, from the clicking user's locale."""
    return normalise_language(str(interaction.locale))


class BidModal(discord.ui.Modal):
    """Asks for an exact bid, or (``sealed``) for a sealed maximum."""

    def __init__(
        self, cog: MonopolyCog, game: int, seq: int, lang: str, *, sealed: bool = False
    ) -> None:
        kind = "sealed" if sealed else "bid"
        super().__init__(
            title=t(lang, f"modal.{kind}_title"), custom_id=f"{kind}modal:{game}:{seq}"
        )
        self.cog, self.game, self.seq, self.lang, self.sealed = cog, game, seq, lang, sealed
        self.amount = discord.ui.TextInput(label=t(lang, f"modal.{kind}_label"), max_length=9)
        self.add_item(self.amount)

    async def on_submit(self, interaction: discord.Interaction) -> None:
        """Parse the amount and bid it."""
        # Amounts as players write them: "1.500", "1,500", "80 €", "€80".
        text = re.sub(r"[\s.,€$]", "", self.amount.value)
        if not text.isdigit():
            await interaction.response.send_message(
                t(self.lang, "error.bad_number", text=self.amount.value), ephemeral=True
            )
            return
        amount = int(text)
        if not self.sealed:
            await self.cog.run_action(
                interaction, self.game, {"type": "bid", "amount": amount}, expected_seq=None
            )
            return
        # Only the bidder learns the amount; the table sees that a bid came in.
        row = await self.cog.service.store.load(self.game)
        shown = Narrator(row.state, self.lang).money(amount) if row.state else str(amount)
        await self.cog.run_action(
            interaction,
            self.game,
            {"type": "sealed_bid", "amount": amount},
            expected_seq=None,
            confirm=t(self.lang, "auction.sealed_confirm", amount=shown),
        )


class MonopolyCog(commands.GroupCog, name="Monopoly", group_name="monopoly"):
    """MONOPOLY games in channels: lobby, turns, auctions, management."""

    def __init__(self, bot: commands.Bot, service: GameService) -> None:
        self.bot = bot
        self.service = service
        # What users are putting together in private menus (trade offers, choices of
        # lots), by (kind, game, user): short-lived, so kept in memory only.
        self.drafts: dict[tuple[str, int, int], Any] = {}
        self.deadlines = Deadlines(
            self, service.store, now=discord.utils.utcnow, wake=self._wake_scheduler
        )
        super().__init__()

    def _wake_scheduler(self) -> None:
        scheduler = getattr(self.bot, "scheduler", None)
        if scheduler is None:
            return
        if scheduler.running:
            scheduler.wake()
        else:
            scheduler.start()

    # -- helpers ------------------------------------------------------------------------

    def _lock(self, game_id: int) -> asyncio.Lock:
        # One lock per game for every writer of its settings (see GameService.lock).
        return self.service.lock(game_id)

    async def _reply(
        self, interaction: discord.Interaction, text: str, *, ephemeral: bool = True
    ) -> None:
        if interaction.response.is_done():
            await interaction.followup.send(text, ephemeral=ephemeral)
        else:
            await interaction.response.send_message(text, ephemeral=ephemeral)

    async def _game_here(self, interaction: discord.Interaction) -> GameRow | None:
        row = await self.service.store.game_in_channel(interaction.channel_id or 0)
        if row is None:
            await self._reply(interaction, t(user_lang(interaction), "error.no_game_here"))
        return row

    async def _running_here(
        self, interaction: discord.Interaction, *, cards: bool = False
    ) -> GameRow | None:
        """The running game of the channel (a card game only if ``cards``), or a reply why not."""
        row = await self._game_here(interaction)
        if row is not None and row.state is None:
            await self._reply(interaction, t(user_lang(interaction), "error.not_started"))
            return None
        if row is not None and not cards and isinstance(row.state, CardState):
            # The board game's commands; the card game is played from its table message.
            await self._reply(interaction, t(user_lang(interaction), "error.board_only"))
            return None
        return row

    # -- commands -----------------------------------------------------------------------

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
    )
    @app_commands.choices(
        where=[
            app_commands.Choice(name="in this channel", value="here"),
            app_commands.Choice(name="in a new thread", value="thread"),
        ],
        game=[
            app_commands.Choice(name="MONOPOLY", value="board"),
            app_commands.Choice(name="MONOPOLY card game", value="cards"),
        ],
        deadline=[app_commands.Choice(name=key, value=key) for key in DEADLINES],
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
    ) -> None:
        """Open a lobby: players join with a button, the host starts the game.

        With ``where`` "thread" the lobby and the whole game go to a new public thread of
        the channel (one game per thread), and the channel gets a link to it; inside a
        thread the game simply opens there.
        """
        lang = language or user_lang(interaction)
        host = LobbyPlayer(interaction.user.id, interaction.user.display_name)
        try:
            board_game = game == "board"  # the card game has neither themes nor boards
            chosen = await _uploads.resolve(
                self,
                interaction.guild_id or 0,
                preset,
                theme if board_game else None,
                edition if board_game else None,
            )
        except IllegalAction as error:
            await self._reply(interaction, explain(user_lang(interaction), error))
            return
        thread = None
        if where == "thread" and not isinstance(interaction.channel, discord.Thread):
            thread = await self._new_thread(interaction, host, lang, game)
            if thread is None:
                return
        try:
            row = await self.service.open_lobby(
                interaction.guild_id or 0,
                thread.id if thread is not None else interaction.channel_id or 0,
                host,
                preset=preset,
                lang=lang,
                theme=chosen["theme"],
                theme_data=chosen.get("theme_data"),
                board_data=chosen.get("board_data"),
                max_players=max_players,
                deadline=deadline,
                game=game,
            )
        except ChannelBusy:  # never for a new thread
            await self._reply(interaction, await self._busy_text(interaction))
            return
        lobby = panels.lobby_message(row.id, row.settings)
        if thread is None:
            await interaction.response.send_message(**lobby)
            message = await interaction.original_response()
        else:
            # Answer first: Discord allows three seconds, and the thread took one request.
            await interaction.response.send_message(
                t(lang, "thread.opened", host=interaction.user.mention, thread=thread.mention)
            )
            message = await thread.send(**lobby)
        await self.service.store.set_settings(row.id, {**row.settings, "lobby_message": message.id})

    @start.autocomplete("theme")
    async def _theme_choices(
        self, interaction: discord.Interaction, current: str
    ) -> list[app_commands.Choice[str]]:
        return await _uploads.suggestions(self, interaction, current, _uploads.THEME)

    @start.autocomplete("edition")
    async def _edition_choices(
        self, interaction: discord.Interaction, current: str
    ) -> list[app_commands.Choice[str]]:
        return await _uploads.suggestions(self, interaction, current, _uploads.BOARD)

    theme_group = app_commands.Group(name="theme", description="Board themes of this server")

    @theme_group.command(name="upload", description="Add a theme from a JSON file (admins)")
    @app_commands.describe(file="The theme as a JSON file (see docs/presets.md)")
    async def theme_upload(
        self, interaction: discord.Interaction, file: discord.Attachment
    ) -> None:
        """Check a theme file and keep it for this server."""
        await _uploads.upload(self, interaction, file, _uploads.THEME)

    @theme_group.command(name="list", description="The themes lobbies of this server can use")
    async def theme_list(self, interaction: discord.Interaction) -> None:
        """The shipped themes and this server's own."""
        await _uploads.list_files(self, interaction, _uploads.THEME)

    @theme_group.command(name="remove", description="Remove one of this server's themes (admins)")
    @app_commands.describe(theme="The theme's id")
    async def theme_remove(self, interaction: discord.Interaction, theme: str) -> None:
        """Delete a server theme; games using it keep their copy."""
        await _uploads.remove(self, interaction, theme, _uploads.THEME)

    @theme_remove.autocomplete("theme")
    async def _own_theme_choices(
        self, interaction: discord.Interaction, current: str
    ) -> list[app_commands.Choice[str]]:
        return await _uploads.suggestions(self, interaction, current, _uploads.THEME, own_only=True)

    edition_group = app_commands.Group(
        name="edition", description="This server's own boards (editions)"
    )

    @edition_group.command(name="upload", description="Add a whole board from a JSON file")
    @app_commands.describe(file="The board as a JSON file (see docs/presets.md)")
    async def edition_upload(
        self, interaction: discord.Interaction, file: discord.Attachment
    ) -> None:
        """Check a board file, try it out and keep it for this server."""
        await _uploads.upload(self, interaction, file, _uploads.BOARD)

    @edition_group.command(name="list", description="This server's own boards")
    async def edition_list(self, interaction: discord.Interaction) -> None:
        """The boards this server uploaded."""
        await _uploads.list_files(self, interaction, _uploads.BOARD)

    @edition_group.command(name="remove", description="Remove one of this server's boards")
    @app_commands.describe(edition="The board's id")
    async def edition_remove(self, interaction: discord.Interaction, edition: str) -> None:
        """Delete a server board; games on it keep their copy."""
        await _uploads.remove(self, interaction, edition, _uploads.BOARD)

    @edition_remove.autocomplete("edition")
    async def _own_edition_choices(
        self, interaction: discord.Interaction, current: str
    ) -> list[app_commands.Choice[str]]:
        return await _uploads.suggestions(self, interaction, current, _uploads.BOARD)

    async def _new_thread(
        self, interaction: discord.Interaction, host: LobbyPlayer, lang: str, game: str
    ) -> discord.Thread | None:
        """A new public thread of the channel for the game, or None (the user is told why)."""
        channel = interaction.channel
        if not isinstance(channel, discord.TextChannel):
            await self._reply(interaction, t(user_lang(interaction), "error.no_thread_here"))
            return None
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
            await self._reply(interaction, t(user_lang(interaction), "error.thread_forbidden"))
            return None

    async def _busy_text(self, interaction: discord.Interaction) -> str:
        """'A game runs here', with a link to its current message when there is one."""
        lang = user_lang(interaction)
        row = await self.service.store.game_in_channel(interaction.channel_id or 0)
        message_id = None
        if row is not None:
            message_id = row.settings.get("turn_message") or row.settings.get("lobby_message")
        if message_id is None or interaction.guild_id is None:
            return t(lang, "error.channel_busy")
        link = (
            f"https://discord.com/channels/{interaction.guild_id}/"
            f"{interaction.channel_id}/{message_id}"
        )
        return t(lang, "error.channel_busy_link", link=link)

    @app_commands.command(name="status", description="Your cash, lots and cards (only you see it)")
    async def status(self, interaction: discord.Interaction) -> None:
        """Show the caller's own position, privately."""
        row = await self._running_here(interaction)
        if row is None:
            return
        state = row.state
        assert state is not None
        lang = user_lang(interaction)
        seat = self.service.seat_of(state, interaction.user.id)
        if seat is None:
            await self._reply(interaction, t(lang, "error.not_a_player"))
            return
        narrator = Narrator(state, lang, theme_of(row.settings))
        player = state.players[seat]
        lots = [
            narrator.square(i)
            + (" (H)" if state.mortgaged[i] else "")
            + (f" 🏠×{state.houses[i]}" if 0 < state.houses[i] < 5 else "")
            + (" 🏨" if state.houses[i] == 5 else "")
            for i, owner in enumerate(state.owner)
            if owner == seat
        ]
        debts = [narrator.money(d["amount"]) for d in state.debts if d["debtor"] == seat]
        text = t(
            lang,
            "status.text",
            cash=narrator.money(player.cash),
            square=narrator.square(player.position),
            lots=", ".join(lots) or "–",
            cards=len(player.jail_cards),
            debts=", ".join(debts) or "–",
        )
        await self._reply(interaction, text)

    @app_commands.command(name="board", description="Post the current board")
    async def board(self, interaction: discord.Interaction) -> None:
        """Post the board image."""
        row = await self._running_here(interaction)
        if row is None:
            return
        await interaction.response.defer()
        file = await panels.board_file(row.state, row.settings)  # type: ignore[arg-type]
        await interaction.followup.send(file=file)

    @app_commands.command(name="players", description="Cash and net worth of every player")
    async def players(self, interaction: discord.Interaction) -> None:
        """The net-worth table."""
        row = await self._running_here(interaction)
        if row is None:
            return
        await self._reply(
            interaction,
            panels.wealth_table(
                row.state,
                {
                    **row.settings,  # type: ignore[arg-type]
                    "lang": user_lang(interaction),
                },
            ),
        )

    @app_commands.command(name="rules", description="The rules of this game")
    async def rules(self, interaction: discord.Interaction) -> None:
        """The active preset and settings."""
        row = await self._game_here(interaction)
        if row is None:
            return
        lang = user_lang(interaction)
        if row.state is not None:
            rules, board = row.state.rules, row.state.board
        else:
            rules = Rules.from_preset(row.settings["preset"], **row.settings.get("overrides", {}))
            board = board_of(row.settings)
        await self._reply(interaction, "\n".join(describe_rules(rules, lang, board))[:1900])

    @app_commands.command(name="games", description="The open games of this server")
    async def games(self, interaction: discord.Interaction) -> None:
        """Every lobby and running game of the server: where, which game, whose move."""
        lang = user_lang(interaction)
        store = self.service.store
        rows = []
        for info in await store.list_games(interaction.guild_id or 0):
            if info.status in (GameStatus.LOBBY, GameStatus.RUNNING):
                rows.append(await store.load(info.id))
        await self._reply(interaction, panels.games_text(rows, lang))

    @app_commands.command(name="stats", description="Who has won most games on this server")
    @app_commands.describe(game="Only MONOPOLY or only the card game (default: both)")
    @app_commands.choices(
        game=[
            app_commands.Choice(name="MONOPOLY", value="board"),
            app_commands.Choice(name="MONOPOLY card game", value="cards"),
        ]
    )
    async def stats(self, interaction: discord.Interaction, game: str | None = None) -> None:
        """The server's leaderboard of finished games, posted in the channel."""
        lang = user_lang(interaction)
        states = await self.service.store.finished_states(interaction.guild_id or 0)
        results = [r for state in states if (r := result_of(state)) is not None]
        standings = leaderboard(results, kind=game)
        await interaction.response.send_message(
            leaderboard_text(standings, lang, game, interaction.user.id),
            allowed_mentions=discord.AllowedMentions.none(),
        )

    @app_commands.command(name="help", description="How to play with this bot")
    async def help(self, interaction: discord.Interaction) -> None:
        """A short guide."""
        await self._reply(interaction, t(user_lang(interaction), "help.text"))

    @app_commands.command(name="end", description="End the game in this channel (host)")
    @app_commands.choices(
        mode=[
            app_commands.Choice(name="richest wins", value="wealth"),
            app_commands.Choice(name="abandon", value="abandon"),
        ]
    )
    async def end(self, interaction: discord.Interaction, mode: str = "wealth") -> None:
        """The host (or a member with Manage Server) ends the game."""
        row = await self._game_here(interaction)
        if row is None:
            return
        lang = user_lang(interaction)
        if not self._may_host(interaction, row):
            await self._reply(interaction, t(lang, "error.host_only"))
            return
        if row.state is None or isinstance(row.state, CardState):
            await self.service.store.finish(row.id, "abandoned")
            await self._close_lobby_message(interaction, row)
            closed = "cards.ended" if row.state is not None else "lobby.closed"
            await self._reply(interaction, t(lang, closed), ephemeral=False)
            return
        await self._host_action(interaction, row, {"type": "end_game", "mode": mode})

    @app_commands.command(name="kick", description="Remove a player; their assets go to the bank")
    async def kick(self, interaction: discord.Interaction, member: discord.Member) -> None:
        """The host removes a player from the running game."""
        row = await self._running_here(interaction)
        if row is None:
            return
        lang = user_lang(interaction)
        if not self._may_host(interaction, row):
            await self._reply(interaction, t(lang, "error.host_only"))
            return
        seat = self.service.seat_of(row.state, member.id)  # type: ignore[arg-type]
        if seat is None:
            await self._reply(interaction, t(lang, "error.not_a_player"))
            return
        await self._host_action(interaction, row, {"type": "remove_player", "target": seat})

    @app_commands.command(name="trade", description="Offer a player a trade")
    @app_commands.describe(member="Who to trade with")
    async def trade(self, interaction: discord.Interaction, member: discord.Member) -> None:
        """Open a private offer builder for a trade with ``member``."""
        await _trade.start_trade(self, interaction, member)

    @app_commands.command(name="property", description="The title deed of a lot")
    @app_commands.describe(name="Name of the lot")
    async def property_card(self, interaction: discord.Interaction, name: str) -> None:
        """Show a lot's title deed with its owner, buildings and mortgage (only you see it)."""
        await _manage.show_property(self, interaction, name)

    @property_card.autocomplete("name")
    async def _property_names(
        self, interaction: discord.Interaction, current: str
    ) -> list[app_commands.Choice[str]]:
        return await _manage.property_choices(self, interaction, current)

    @app_commands.command(name="log", description="The latest events of the game")
    async def show_log(self, interaction: discord.Interaction) -> None:
        """The last lines of the turn message (only you see it)."""
        await _manage.show_log(self, interaction)

    @app_commands.command(
        name="settings", description="Time settings of the game; the host changes them"
    )
    @app_commands.describe(
        deadline="Time each player has for a move before the bot plays it safe",
        reminders="Remind at half time and shortly before the deadline",
        auction_time="How long an auction stays open",
        trade_time="How long a trade offer stays open",
        missed_limit="Missed deadlines in a row before the others vote (0: never)",
        digest="A daily summary of the game at this hour (UTC)",
        time_limit="How long a game with a time limit lasts",
        auction_mode="Live bidding or sealed bids (before the start only)",
    )
    @app_commands.choices(
        deadline=_choices(DEADLINE_CHOICES),
        auction_time=_choices(OFFER_CHOICES),
        trade_time=_choices(OFFER_CHOICES),
        digest=_choices(DIGEST_CHOICES, off="no digest"),
        time_limit=_choices(GAME_LENGTH_CHOICES),
        auction_mode=[
            app_commands.Choice(name="live bidding", value="live"),
            app_commands.Choice(name="sealed bids", value="sealed"),
        ],
    )
    async def settings(
        self,
        interaction: discord.Interaction,
        deadline: str | None = None,
        reminders: bool | None = None,
        auction_time: str | None = None,
        trade_time: str | None = None,
        missed_limit: app_commands.Range[int, 0, MISSED_LIMIT_MAX] | None = None,
        digest: str | None = None,
        time_limit: str | None = None,
        auction_mode: str | None = None,
    ) -> None:
        """Show the time settings; the host changes them (in the lobby or during the game)."""
        given = {
            "deadline": deadline,
            "reminders": reminders,
            "auction_time": auction_time,
            "trade_time": trade_time,
            "missed_limit": missed_limit,
            "digest": digest,
            "time_limit": time_limit,
            "auction_mode": auction_mode,
        }
        changes = {k: v for k, v in given.items() if v is not None}
        await _controls.change_settings(self, interaction, changes)

    @app_commands.command(name="pause", description="Pause the game: no deadlines, no moves (host)")
    async def pause(self, interaction: discord.Interaction) -> None:
        """The host pauses the game."""
        await _controls.pause(self, interaction, True)

    @app_commands.command(name="resume", description="Go on with a paused game (host)")
    async def resume(self, interaction: discord.Interaction) -> None:
        """The host resumes the game; deadlines start afresh."""
        await _controls.pause(self, interaction, False)

    @app_commands.command(
        name="vacation", description="Let the computer play for you until you are back"
    )
    @app_commands.describe(away="On: the computer plays your seat; off: you play again")
    async def vacation(self, interaction: discord.Interaction, away: bool = True) -> None:
        """Hand one's seat to the computer, or take it back."""
        await _absence.set_vacation(self, interaction, away)

    @app_commands.command(name="remind", description="Nudge the player the game is waiting for")
    async def remind(self, interaction: discord.Interaction) -> None:
        """Mention (and DM, if they opted in) the players the game waits on."""
        await _controls.remind(self, interaction)

    @app_commands.command(name="notify", description="Reminders by direct message, on or off")
    @app_commands.describe(
        enabled="On: the bot reminds you by direct message as well",
        turns="On: a direct message also whenever it becomes your turn",
    )
    async def notify(
        self, interaction: discord.Interaction, enabled: bool = True, turns: bool | None = None
    ) -> None:
        """Opt in to (or out of) reminders, and turn messages, by direct message."""
        await _controls.notify(self, interaction, enabled, turns)

    async def _host_action(
        self, interaction: discord.Interaction, row: GameRow, action: dict[str, Any]
    ) -> None:
        """Apply a host action; the host is answered privately, the table by the game."""
        lang = user_lang(interaction)
        await interaction.response.defer(ephemeral=True, thinking=True)
        try:
            result = await self.service.act_as_host(row.id, action)
        except (IllegalAction, StoreError) as error:
            await interaction.followup.send(
                explain(lang, error, row.state, row.settings), ephemeral=True
            )
            return
        await interaction.followup.send(t(lang, "manage.done"), ephemeral=True)
        await self.publish(interaction.channel, row.id, result)  # type: ignore[arg-type]

    async def _close_lobby_message(self, interaction: discord.Interaction, row: GameRow) -> None:
        """Take the buttons off a closed lobby's message."""
        message_id = row.settings.get("lobby_message")
        channel = interaction.channel
        if message_id is None or channel is None:
            return
        try:
            await channel.get_partial_message(message_id).edit(view=None)  # type: ignore[union-attr]
        except discord.HTTPException:
            log.warning("Could not close lobby message %s", message_id)

    def _may_host(self, interaction: discord.Interaction, row: GameRow) -> bool:
        perms = getattr(interaction.user, "guild_permissions", None)
        return interaction.user.id == row.settings.get("host") or bool(perms and perms.manage_guild)

    # -- buttons ------------------------------------------------------------------------

    async def on_button(
        self,
        interaction: discord.Interaction,
        game: int,
        seq: int | str,
        act: str,
        arg: str | None,
    ) -> None:
        """Every click on a game button lands here."""
        lang = user_lang(interaction)
        if seq == "L":
            await self.on_lobby_button(interaction, game, act)
            return
        assert isinstance(seq, int)
        route = BUTTON_ROUTES.get(act)
        if route is not None:
            # Trades, lot offers, debts, received mortgages, rent claims (_trade, _manage).
            await route(self, interaction, game, seq, arg)
            return
        if act in ("bid_modal", "sealed_modal"):
            # A modal must be the first response: open it before touching the store.
            sealed = act == "sealed_modal"
            await interaction.response.send_modal(BidModal(self, game, seq, lang, sealed=sealed))
            return
        if act == "resign":
            view = discord.ui.View(timeout=None)
            from cogs.monopoly._ids import GameButton

            view.add_item(
                GameButton(
                    game,
                    seq,
                    "resign_confirm",
                    label=t(lang, "button.resign_confirm"),
                    style=discord.ButtonStyle.danger,
                )
            )
            await interaction.response.send_message(
                t(lang, "resign.confirm"), view=view, ephemeral=True
            )
            return
        if act == "manage":
            await self.open_manage_menu(interaction, game)
            return
        if act == "trade_menu":
            await self._reply(interaction, t(lang, "trade.use_command"))
            return
        if act in SIMPLE_ACTIONS:
            # Giving up is confirmed privately and stays valid while others play on.
            expected = None if act == "resign_confirm" else seq
            await self.run_action(
                interaction, game, dict(SIMPLE_ACTIONS[act]), expected_seq=expected
            )
            return
        if act == "lift_mortgages":
            row = await self.service.store.load(game)
            lift = (
                row.state.mortgage_choices[0]["squares"]
                if row.state and row.state.mortgage_choices
                else []
            )  # noqa: E501
            await self.run_action(
                interaction, game, {"type": "decide_mortgages", "lift": lift}, expected_seq=seq
            )
            return
        if act == "raise":
            row = await self.service.store.load(game)
            state = row.state
            if state is None or state.auction is None:
                await self._reply(interaction, t(lang, "error.no_auction"))
                return
            base = state.auction["high"] if state.auction["leader"] is not None else 0
            amount = max(base + int(arg or 1), next_minimum(state))
            await self.run_action(
                interaction, game, {"type": "bid", "amount": amount}, expected_seq=seq
            )
            return
        if act in SQUARE_ACTIONS and arg is not None and arg.isdigit():
            await self.run_action(
                interaction,
                game,
                {"type": act, "square": int(arg)},
                expected_seq=None,
                ephemeral_origin=True,
            )
            return
        await self._reply(interaction, t(lang, "error.unknown_button"))

    async def run_action(
        self,
        interaction: discord.Interaction,
        game: int,
        action: dict[str, Any],
        *,
        expected_seq: int | None,
        ephemeral_origin: bool = False,
        confirm: str | None = None,
    ) -> None:
        """Apply the clicking user's action, then update the game's messages.

        ``confirm`` is told the user privately once the action is accepted.
        """
        lang = user_lang(interaction)
        if not interaction.response.is_done():
            await interaction.response.defer(ephemeral=ephemeral_origin, thinking=False)
        try:
            result = await self.service.act(
                game, interaction.user.id, action, expected_seq=expected_seq
            )
        except (IllegalAction, StoreError) as error:
            state = settings = None
            try:
                row = await self.service.store.load(game)
                state, settings = row.state, row.settings
            except StoreError:
                pass  # the refusal is still explained, only without names
            await interaction.followup.send(explain(lang, error, state, settings), ephemeral=True)
            return
        if ephemeral_origin or confirm:
            await interaction.followup.send(confirm or t(lang, "manage.done"), ephemeral=True)
        channel = interaction.channel
        await self.publish(channel, game, result)  # type: ignore[arg-type]

    async def open_manage_menu(self, interaction: discord.Interaction, game: int) -> None:
        """The private management menu: building per colour group, mortgages (_manage)."""
        await _manage.open_manage(self, interaction, game)

    async def on_lobby_button(self, interaction: discord.Interaction, game: int, act: str) -> None:
        """Join, leave, show rules or start a lobby."""
        lang = user_lang(interaction)
        user = LobbyPlayer(interaction.user.id, interaction.user.display_name)
        try:
            if act == "house_rules":
                await _house_rules.open_panel(self, interaction, game)
                return
            if act == "rules":
                row = await self.service.store.load(game)
                rules = Rules.from_preset(
                    row.settings["preset"], **row.settings.get("overrides", {})
                )
                text = "\n".join(describe_rules(rules, lang, board_of(row.settings)))
                await self._reply(interaction, text[:1900])
                return
            if act == "join":
                settings = await self.service.join(game, user)
            elif act == "leave":
                settings = await self.service.leave(game, user.id)
            elif act == "start":
                await interaction.response.defer()
                row = await self.service.start(game, user.id)
                state = row.state
                assert state is not None
                settings = dict(row.settings)
                await interaction.message.edit(view=None)  # type: ignore[union-attr]
                if isinstance(state, CardState):
                    await _cards.post_table(self, interaction.channel, row.id, state, settings)  # type: ignore[arg-type]
                    return
                await self.deadlines.game_started(row.id, state, settings)
                lines = Narrator(state, settings["lang"], theme_of(settings)).lines(state.events)
                await self.post_turn_message(
                    interaction.channel,
                    row.id,
                    state,
                    settings,
                    lines,  # type: ignore[arg-type]
                )
                return
            else:
                await self._reply(interaction, t(lang, "error.unknown_button"))
                return
        except (IllegalAction, StoreError) as error:
            await self._reply(interaction, explain(lang, error))
            return
        await interaction.response.edit_message(**panels.lobby_message(game, settings))

    # -- publishing ---------------------------------------------------------------------

    async def post_turn_message(
        self,
        channel: discord.abc.Messageable,
        game: int,
        state: GameState,
        settings: dict[str, Any],
        lines: list[str],
    ) -> None:
        """Post a new turn message with the board and remember it."""
        # Timers first, so the message can show the move's deadline.
        await self.deadlines.reschedule(game, state, settings)
        mention = mentions(state, _waiting(state))
        message = await channel.send(
            content=mention or None,
            embed=panels.turn_embed(state, settings, lines),
            view=panels.turn_view(game, state, settings),
            file=await panels.board_file(state, settings),
        )
        settings["turn_message"] = message.id
        await self.deadlines.tell_turn(game, state, settings, message.jump_url)
        settings["turn_lines"] = lines[-panels.MAX_LINES :]
        await self.service.store.set_settings(game, settings)

    async def publish(
        self, channel: discord.abc.Messageable, game: int, result: ApplyResult
    ) -> None:
        """Show what an action did: edit the turn message, or start a new one."""
        async with self._lock(game):
            row = await self.service.store.load(game)
            state = row.state
            assert state is not None
            settings = dict(row.settings)
            lang = settings["lang"]
            narrator = Narrator(state, lang, theme_of(settings))
            before: list[str] = []
            after: list[str] = []
            new_turn = False
            for event in result.events:
                if event["type"] == "turn":
                    new_turn = True
                line = narrator.line(event)
                if line:
                    (after if new_turn else before).append(line)
            if result.actor is not None and _absence.player_acted(settings, result.actor):
                before.append(t(lang, "vacation.back", player=state.players[result.actor].name))
            lines = list(settings.get("turn_lines", [])) + before
            await self._update_auction(channel, game, state, settings, result.events)
            await _trade.close_offer_messages(channel, state, settings, result.events)
            await _trade.post_new_offers(self, channel, game, state, settings, result.events)
            old_id = settings.get("turn_message")
            if state.phase == "over":
                await self._edit_turn_message(
                    channel, game, old_id, state, settings, lines, final=True
                )
                await channel.send(
                    embed=panels.final_embed(state, settings),
                    file=await panels.board_file(state, settings),
                )
                settings["turn_lines"] = []
                await self.service.store.set_settings(game, settings)
                await self.deadlines.reschedule(game, state, settings)
                return
            if new_turn or old_id is None:
                await self._edit_turn_message(
                    channel, game, old_id, state, settings, lines, final=True
                )
                await self.post_turn_message(channel, game, state, settings, after)
                return
            settings["turn_lines"] = lines[-panels.MAX_LINES :]
            await self.deadlines.reschedule(game, state, settings)
            await self._edit_turn_message(
                channel, game, old_id, state, settings, lines, final=False
            )
            await self.service.store.set_settings(game, settings)

    async def _edit_turn_message(
        self,
        channel: discord.abc.Messageable,
        game: int,
        message_id: int | None,
        state: GameState,
        settings: dict[str, Any],
        lines: list[str],
        *,
        final: bool,
    ) -> None:
        if message_id is None:
            return
        message = channel.get_partial_message(message_id)  # type: ignore[attr-defined]
        embed = panels.turn_embed(state, settings, lines)
        view = None if final else panels.turn_view(game, state, settings)
        try:
            await message.edit(embed=embed, view=view)
        except discord.HTTPException:
            log.warning("Could not edit turn message %s", message_id, exc_info=True)

    async def _update_auction(
        self,
        channel: discord.abc.Messageable,
        game: int,
        state: GameState,
        settings: dict[str, Any],
        events: list[dict[str, Any]],
    ) -> None:
        message_id = settings.get("auction_message")
        closed = [e for e in events if e["type"] in ("auction_won", "auction_unsold")]
        if message_id is not None and (closed or state.auction is None):
            narrator = Narrator(state, settings["lang"], theme_of(settings))
            text = "\n".join(narrator.lines(closed)) or t(settings["lang"], "auction.closed")
            try:
                await channel.get_partial_message(message_id).edit(  # type: ignore[attr-defined]
                    content=text, embed=None, view=None
                )
            except discord.HTTPException:
                log.warning("Could not close auction message %s", message_id, exc_info=True)
            settings.pop("auction_message", None)
            settings.pop("auction_closes_at", None)
            await self.service.store.cancel_timers(game, key="auction_close")
            message_id = None
        if state.auction is None:
            return
        if message_id is None:
            # The closing time is set first, so the new message can show it.
            closes = await self.deadlines.auction_opened(game, settings)
            message = await channel.send(**panels.auction_message(game, state, settings))
            settings["auction_message"] = message.id
            await self.deadlines.auction_close_at(game, closes, message.id)
            return
        payload = panels.auction_message(game, state, settings)
        await channel.get_partial_message(message_id).edit(**payload)  # type: ignore[attr-defined]


def _waiting(state: GameState) -> list[int]:
    from bot.engine.legal import waiting_for

    return waiting_for(state) if state.phase != "over" else []
