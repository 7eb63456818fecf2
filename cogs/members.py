"""A member's view across games: ``/monopoly me games``, following a game, "last one" votes.

``/monopoly me games [page]`` ("my games"; under ``/monopoly me`` because Discord allows a
group at most 25 commands) lists, privately and paged, every game of the member on every
server: the running games that wait on them first (with the time left), then their other
running games, then the lobbies they joined (``cogs/ui/mine.py``). The rows come from the
shared store (``unfinished_games``), so any process of a fleet answers it; the
**📋 Meine Spiele** button of the reminder and turn DMs opens the same list, also in a
direct message, where there is no server.

🔔 on the live turn message, the card game's table and ``/monopoly history``'s answer for
a running game toggles following it (``settings.records.followers``, written with
``GameService.edit_settings``); a seated player is told politely that they hear of
everything anyway. The summaries themselves go out from ``cogs/core/followers.py``.

"You're the last one" for votes: the vote's handler (``cogs/asyncplay.py``) only records
a ballot and edits the vote's message; this cog sees that edit (and the vote's first
post) as a gateway event and asks ``cogs/core/pings.py`` whether one voter is left.

Refused privately, changing nothing: a page button of a malformed id, following a game
that does not run (any more), following a game one plays in, too many followers.
"""

from __future__ import annotations

import logging
import re
from collections.abc import Iterable
from typing import Any

import discord
from discord import app_commands
from discord.ext import commands

from bot.asyncplay import absence
from bot.cardgame import CardState
from bot.engine.errors import IllegalAction
from bot.i18n import t
from bot.settings import GameSettings
from bot.store import GameNotFound, GameRow, GameStatus
from bot.store.kinds import waiting_for
from cogs.core import pings
from cogs.core.click import Click
from cogs.core.followers import FOLLOWERS_MAX, followers_of
from cogs.core.notify import game_link
from cogs.core.services import FeatureCog
from cogs.ui.mine import LOBBY, RUNNING, YOUR_MOVE, MineEntry, mine_message, page_arg

log = logging.getLogger(__name__)

#: The custom id of a vote's button (``cogs/ui/vote.py``): which game it belongs to.
VOTE_ID = re.compile(r"m:([0-9]+):[0-9]+:vote:")


def entry_of(row: GameRow, user_id: int, server: str | None) -> MineEntry | None:
    """What ``/monopoly me games`` says about ``row`` for the member ``user_id`` (None: not
    their game — not in the lobby, no seat, or out of the game)."""
    settings = GameSettings.of(row)
    kind = "cards" if settings.lobby.is_cards else "board"
    base = f"https://discord.com/channels/{row.guild_id}/{row.channel_id}"
    if row.status == GameStatus.LOBBY or row.state is None:
        players = [p for p in settings.lobby.players if isinstance(p, dict)]
        if not any(str(p.get("id")) == str(user_id) for p in players):
            return None
        lobby = settings.records.lobby_message
        link = f"{base}/{lobby}" if lobby else base
        return MineEntry(row.id, kind, LOBBY, server, row.channel_id, link, players=len(players))
    state = row.state
    kind = "cards" if isinstance(state, CardState) else "board"
    seat = next((s for s, p in enumerate(state.players) if p.id == str(user_id)), None)
    if seat is None or absence.is_out(state.players[seat]) or state.phase == "over":
        return None
    paused = settings.play.paused
    mine = (
        not paused and seat in waiting_for(state) and seat not in absence.computer_seats(settings)
    )
    deadline = settings.play.deadline_at if mine else None
    return MineEntry(
        row.id,
        kind,
        YOUR_MOVE if mine else RUNNING,
        server,
        row.channel_id,
        game_link(row),
        deadline_at=int(deadline) if isinstance(deadline, int | float) else None,
        paused=paused,
    )


def vote_games(components: Iterable[Any]) -> set[int]:
    """The games whose vote buttons are among a message's ``components`` (raw dicts of an
    edit event, or discord.py's action rows)."""
    found: set[int] = set()
    for row in components:
        children = row.get("components", []) if isinstance(row, dict) else row.children
        for child in children:
            custom = child.get("custom_id") if isinstance(child, dict) else child.custom_id
            match = VOTE_ID.match(str(custom or ""))
            if match:
                found.add(int(match[1]))
    return found


class MembersCog(FeatureCog, name="Members"):
    """``/monopoly me games``, following a game, and telling the last voter."""

    personal = ("games",)

    # -- my games --------------------------------------------------------------------

    @app_commands.command(
        name="games", description="All your games on every server, those waiting on you first"
    )
    @app_commands.describe(page="Which page of the list (ten games a page)")
    async def mine(
        self, interaction: discord.Interaction, page: app_commands.Range[int, 1, 9999] = 1
    ) -> None:
        """Every game of yours, privately: your move first, then running games, lobbies."""
        click = self.core.dispatcher.command(interaction)
        await click.defer(private=True)
        await click.reply(**await self._mine(click, page))

    async def _mine(self, click: Click, page: int) -> dict[str, Any]:
        """The message of list page ``page`` for the clicking member (clamped)."""
        bot = self.core.bot
        entries = []
        for row in await self.core.store.unfinished_games():
            guild = bot.get_guild(row.guild_id)
            entry = entry_of(row, click.user_id, guild.name if guild is not None else None)
            if entry is not None:
                entries.append(entry)
        return mine_message(entries, page, click.lang)

    async def open_mine(self, click: Click) -> None:
        """**📋 Meine Spiele** (in a DM, say): the list's first page, privately."""
        if page_arg(click.arg) is None:
            raise IllegalAction("unknown_button")
        await click.reply(**await self._mine(click, 1))

    async def mine_page(self, click: Click) -> None:
        """◀ / ▶ of the list: the page its custom id names, in the same message."""
        number = page_arg(click.arg)
        if number is None:
            raise IllegalAction("unknown_button")
        # A list that has become empty is text alone: its embed and buttons go.
        await click.edit(**{"embed": None, "view": None, **await self._mine(click, number)})

    # -- following ---------------------------------------------------------------------

    async def follow(self, click: Click) -> None:
        """🔔: follow the game, or stop following it (``:off`` under a summary: only stop)."""
        if click.arg not in (None, "off"):
            raise IllegalAction("unknown_button")
        only_stop = click.arg == "off"
        user = click.user_id

        def change(fresh: GameRow, settings: GameSettings) -> bool:
            click.row = fresh
            following = user in followers_of(settings)
            running = fresh.status == GameStatus.RUNNING and fresh.state is not None
            if only_stop and not following:
                return False  # already stopped (or the game is over): nothing to change
            if not running or fresh.state.phase == "over":  # type: ignore[union-attr]
                if following:
                    del settings.records.followers  # over: nobody follows it any more
                    return False
                raise IllegalAction("follow_not_running", game=fresh.id)
            seat = click.seat_of(fresh.state)  # type: ignore[arg-type]
            players = fresh.state.players  # type: ignore[union-attr]
            if not following and seat is not None and not absence.is_out(players[seat]):
                raise IllegalAction("follow_seated")
            people = [u for u in followers_of(settings) if u != user]
            if not following:
                if len(people) >= FOLLOWERS_MAX:
                    raise IllegalAction("follow_full", count=FOLLOWERS_MAX)
                people.append(user)
            if people:
                settings.records.followers = people
            else:
                del settings.records.followers
            return not following

        try:
            now_following = await click.service.edit_settings(click.game, change)
        except GameNotFound:
            raise IllegalAction("follow_not_running", game=click.game) from None
        key = "follow.on" if now_following else "follow.off"
        await click.reply(t(click.lang, key, game=click.game, channel=self._channel(click)))

    @staticmethod
    def _channel(click: Click) -> str:
        row = click.row
        return f"<#{row.channel_id}>" if row is not None else "–"

    # -- the last voter ----------------------------------------------------------------

    @commands.Cog.listener()
    async def on_message(self, message: discord.Message) -> None:
        """A vote the bot just posted may wait on one voter from the start."""
        me = self.core.bot.user
        if me is None or message.author.id != me.id or not message.components:
            return
        await self._votes_changed(vote_games(message.components))

    @commands.Cog.listener()
    async def on_raw_message_edit(self, payload: discord.RawMessageUpdateEvent) -> None:
        """A vote's message was edited (a ballot was cast): one voter may be left."""
        data: dict[str, Any] = dict(payload.data)  # type: ignore[arg-type]
        me = self.core.bot.user
        author = data.get("author") or {}
        if me is None or str(author.get("id")) != str(me.id):
            return
        await self._votes_changed(vote_games(data.get("components") or []))

    async def _votes_changed(self, games: set[int]) -> None:
        for game in sorted(games):
            try:
                await pings.tell_last_voters(self.core, game)
            except Exception:  # noqa: BLE001 - a ping is a bonus; the vote goes on
                log.exception("Game %s: telling the last voter failed", game)
