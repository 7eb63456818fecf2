"""Listings: the server's open games, its leaderboard of finished games, one member's
record there, and the help text."""

from __future__ import annotations

import asyncio
import logging
from collections import OrderedDict

import discord
from discord import app_commands

from bot.engine.record import GameRecord
from bot.i18n import t
from bot.settings import GameSettings, LobbySettings
from bot.stats import GameSummary, leaderboard, player_record, result_of, summarize
from bot.store import GameInfo, GameStatus, StoreError
from cogs.core.click import Click
from cogs.core.services import Core, FeatureCog
from cogs.ui.listings import games_text, leaderboard_text, player_record_text

log = logging.getLogger(__name__)

#: Summaries of finished games kept per bot (finished games never change; a summary is
#: a few hundred bytes, and making one replays the game's record).
SUMMARIES_KEPT = 4096


def played_in(info: GameInfo, user_id: int) -> bool | None:
    """Whether ``user_id`` sat at the game by its lobby's players; None if the settings do
    not say (a game imported or made without a lobby: its record tells)."""
    lobby = GameSettings.of(info).lobby
    players = lobby.players
    if not lobby.has(LobbySettings.players) or not isinstance(players, list):
        return None
    return any(isinstance(p, dict) and str(p.get("id")) == str(user_id) for p in players)


class StatsCog(FeatureCog, name="Stats"):
    """``/monopoly games``, ``/monopoly stats`` and ``/monopoly help``."""

    def __init__(self, core: Core) -> None:
        super().__init__(core)
        # Per bot, as game ids are only unique within one store; None: no winner.
        self._summaries: OrderedDict[int, GameSummary | None] = OrderedDict()

    @app_commands.command(name="games", description="The open games of this server")
    async def games(self, interaction: discord.Interaction) -> None:
        """Every lobby and running game of the server: where, which game, whose move."""
        click = self.core.dispatcher.command(interaction)
        store = self.core.store
        rows = []
        for info in await store.list_games(interaction.guild_id or 0):
            if info.status in (GameStatus.LOBBY, GameStatus.RUNNING):
                try:
                    rows.append(await store.load(info.id))
                except StoreError:
                    continue  # set aside meanwhile: not an open game any more
        await click.reply(games_text(rows, click.lang))

    @app_commands.command(name="stats", description="Who has won most games on this server")
    @app_commands.describe(
        game="Only MONOPOLY or only the card game (default: both)",
        player="One member's record instead: games, wins, average place, favourite group",
    )
    @app_commands.choices(
        game=[
            app_commands.Choice(name="MONOPOLY", value="board"),
            app_commands.Choice(name="MONOPOLY card game", value="cards"),
        ]
    )
    async def stats(
        self,
        interaction: discord.Interaction,
        game: str | None = None,
        player: discord.Member | None = None,
    ) -> None:
        """The server's leaderboard of finished games (or one member's record), posted in
        the channel."""
        click = self.core.dispatcher.command(interaction)
        if player is not None:
            await self._player(click, player, game)
            return
        states = await self.core.store.finished_states(interaction.guild_id or 0)
        results = [r for state in states if (r := result_of(state)) is not None]
        standings = leaderboard(results, kind=game)
        await click.reply(
            leaderboard_text(standings, click.lang, game, interaction.user.id),
            private=False,
            allowed_mentions=discord.AllowedMentions.none(),
        )

    async def _player(self, click: Click, member: discord.Member, game: str | None) -> None:
        """One member's record on this server, posted in the channel."""
        await click.defer()  # reading and replaying the member's games may take a moment
        summaries = await self.summaries(click.interaction.guild_id or 0, member.id)
        record = player_record(summaries, member.id, kind=game)
        await click.reply(
            player_record_text(record, click.lang, game, member.display_name),
            private=False,
            allowed_mentions=discord.AllowedMentions.none(),
        )

    async def summaries(self, guild_id: int, user_id: int) -> list[GameSummary]:
        """The summaries of the server's finished games ``user_id`` played, oldest first.

        A game the cache does not know yet is summarised from its record (replayed in a
        worker thread); one whose record cannot be read or replayed is left out.
        """
        store = self.core.store
        infos = await store.list_games(guild_id, include_finished=True)
        wanted = [
            i
            for i in infos
            if i.status == GameStatus.FINISHED and played_in(i, user_id) is not False
        ]
        missing: list[tuple[int, GameRecord]] = []
        for info in wanted:
            if info.id in self._summaries:
                continue
            try:
                missing.append((info.id, await store.record(info.id)))
            except StoreError:
                self._keep(info.id, None)  # a lobby closed, or a log that cannot be read
        if missing:
            for game, summary in await asyncio.to_thread(_summarize_all, missing):
                self._keep(game, summary)
        found = []
        for info in wanted:
            summary = self._summaries.get(info.id)
            if summary is not None and summary.seat_of(user_id) is not None:
                self._summaries.move_to_end(info.id)
                found.append(summary)
        return found

    def _keep(self, game: int, summary: GameSummary | None) -> None:
        self._summaries[game] = summary
        self._summaries.move_to_end(game)
        while len(self._summaries) > SUMMARIES_KEPT:
            self._summaries.popitem(last=False)

    @app_commands.command(name="help", description="How to play with this bot")
    async def help(self, interaction: discord.Interaction) -> None:
        """A short guide."""
        click = self.core.dispatcher.command(interaction)
        await click.reply(t(click.lang, "help.text"))


def _summarize_all(records: list[tuple[int, GameRecord]]) -> list[tuple[int, GameSummary | None]]:
    """Summaries of finished games by id (None: no winner, or a record that does not
    replay, which is logged)."""
    found: list[tuple[int, GameSummary | None]] = []
    for game, record in records:
        try:
            found.append((game, summarize(record, game)))
        except (StoreError, KeyError, TypeError, ValueError):
            log.warning("Finished game %s does not replay; left out of the statistics", game)
            found.append((game, None))
    return found
