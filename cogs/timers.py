"""What the game's timers do when they fire (planned by ``bot/asyncplay/planner.py``).

The scheduler (``bot/scheduler.py``) runs each due timer at least once: a process that dies
while a timer runs leaves it leased, and it fires again when the lease expires. So every
handler here is idempotent: turn timers carry the ``seq`` they were planned for and act
with it as the expected state (a second firing finds the game moved on), closing times
check that their auction or offer is still open, and reminders, missed deadlines and the
digest record what they did in the game's settings before they do it again.
"""

from __future__ import annotations

import asyncio
import logging
from collections.abc import Awaitable, Callable
from dataclasses import replace
from datetime import UTC, datetime, timedelta
from typing import Any

from bot.asyncplay import absence, orders
from bot.asyncplay.planner import CARD_TIMERS
from bot.cardgame import CardState
from bot.cardgame import default_action as card_default_action
from bot.engine.defaults import default_action as board_default_action
from bot.engine.errors import IllegalAction
from bot.engine.state import GameState
from bot.i18n import t
from bot.settings import AsyncPlay, GameSettings
from bot.settings.keys import Key
from bot.store import GameRow, StaleAction, StoreError, Timer
from bot.store.kinds import AnyState, waiting_for
from cogs.core.notify import buttons_view, direct_message, remind
from cogs.core.services import FeatureCog
from cogs.ui.cards_table import table_file, table_message
from cogs.ui.listings import digest_embed
from cogs.ui.turn import board_file
from cogs.ui.vote import vote_message

log = logging.getLogger(__name__)

#: Most default actions one deadline may take (a whole turn needs only a few).
MAX_DEFAULT_STEPS = 30

Handler = Callable[[GameRow, Timer, Any], Awaitable[None]]


def default_action(state: AnyState, seat: int) -> dict[str, Any] | None:
    """The safe move for an absent player, board game or card game."""
    if isinstance(state, CardState):
        return card_default_action(state, seat)
    return board_default_action(state, seat)


class TimersCog(FeatureCog, name="Timers"):
    """Fires the timers of every game (the bot's scheduler calls :meth:`fire`)."""

    def handlers(self) -> dict[str, Handler]:
        """What each kind of timer does."""
        return {
            "reminder": self._remind,
            "reminder_soon": self._remind,
            "deadline": self._deadline,
            "auto": self._auto,
            "order": self._order,
            "auction_close": self._auction_close,
            "trade_close": self._trade_close,
            "time_up": self._time_up,
            "digest": self._digest,
            "dm": self._dm,
        }

    async def fire(self, timer: Timer) -> None:
        """Handle a due timer; paused, finished and unknown games fire nothing."""
        handler = self.handlers().get(timer.kind)
        if handler is None:
            log.warning("Unknown timer kind %r of game %s", timer.kind, timer.game_id)
            return
        try:
            row = await self.core.store.load(timer.game_id)
        except StoreError as error:  # gone or set aside: trying again will not help
            log.info("Timer %s of game %s: %s", timer.kind, timer.game_id, error)
            return
        state = row.state
        if state is None or state.phase == "over" or GameSettings.of(row).play.paused:
            return
        if isinstance(state, CardState) and timer.kind not in CARD_TIMERS:
            return
        channel = await self.core.publisher.channel(row.channel_id)
        if channel is None:
            return  # the channel is gone: nothing to show, nobody to wait for
        await handler(row, timer, channel)

    async def _once(self, game: int, key: Key[str | None], value: str) -> bool:
        """Record ``value`` under ``key``; False if it was recorded already (a re-fire)."""

        def change(row: GameRow, settings: GameSettings) -> bool:
            return settings.play.first_time(key, value)

        return await self.core.service.edit_settings(game, change)

    async def _remind(self, row: GameRow, timer: Timer, channel: Any) -> None:
        state = row.state
        assert state is not None
        if state.seq != timer.payload.get("seq"):
            return  # the game moved on since the timer was set
        seats = [s for s in waiting_for(state) if s in timer.payload.get("players", [])]
        if not seats or not await self._once(
            row.id,
            AsyncPlay.reminded,
            f"{timer.kind}:{state.seq}:{timer.payload.get('deadline_at')}",
        ):
            return
        due = f"<t:{timer.payload.get('deadline_at', 0)}:R>"
        await remind(self.core, row, channel, seats, "deadline.reminder", due=due)

    async def _deadline(self, row: GameRow, timer: Timer, channel: Any) -> None:
        state = row.state
        assert state is not None
        if state.seq != timer.payload.get("seq"):
            return
        players = timer.payload.get("players", waiting_for(state))
        absent = sorted(set(waiting_for(state)) & set(players))
        if not absent:
            return

        seconds = GameSettings.of(row).timing.deadline_seconds
        # One decision per deadline (a seq may see several: each joker extends it), kept
        # in the settings so that a re-fire does what the first firing decided.
        key = f"{state.seq}:{timer.payload.get('deadline_at')}"

        async def decide(fresh: GameRow, settings: GameSettings) -> tuple[list[int], list[int]]:
            play = settings.play
            done = play.deadline_done or {}
            if done.get("key") == key:
                return list(done["excused"]), list(done["defaulted"])
            excused, defaulted = absence.spend_jokers(settings, absent)
            if defaulted and play.missed_seq != state.seq:
                play.missed_seq = state.seq
                absence.count_missed(settings, defaulted)
            play.deadline_done = {"key": key, "excused": excused, "defaulted": defaulted}
            if excused and not defaulted and seconds is not None and fresh.state is not None:
                # The whole table waits on excused players: the deadline moves on by a
                # deadline's length (keyed: planning it again is harmless).
                before = datetime.fromtimestamp(timer.payload.get("deadline_at", 0), UTC)
                extended = max(before, self.core.planner.now()) + timedelta(seconds=seconds)
                humans = list(timer.payload.get("players", absent))
                await self.core.planner.plan_deadline(
                    row.id, fresh.state, settings, humans, extended
                )
            return excused, defaulted

        excused, defaulted = await self.core.service.edit_settings(row.id, decide)
        lang = GameSettings.of(row).lobby.lang
        if excused:
            fresh = GameSettings.of(await self.core.store.load(row.id))
            lines = [
                t(
                    lang,
                    "joker.spent",
                    player=state.players[seat].name,
                    left=absence.jokers_left(fresh, seat),
                )
                for seat in excused
            ]
            if not defaulted and fresh.play.deadline_at:
                lines.append(t(lang, "joker.new_deadline", at=fresh.play.deadline_at))
            await self.core.publisher.send(row.id, channel, "deadline", content="\n".join(lines))
            if not defaulted:
                await self.core.publisher.refresh(row.id, channel)
        if not defaulted:
            return
        names = ", ".join(state.players[s].name for s in defaulted)
        await self.core.publisher.send(
            row.id, channel, "deadline", content=t(lang, "deadline.passed", players=names)
        )
        await self.play_for(row.id, state, set(defaulted), default_action, channel)
        await self._call_votes(row.id, channel)

    async def play_for(
        self,
        game: int,
        state: AnyState,
        seats: set[int],
        decide: Callable[[Any, int], dict[str, Any] | None],
        channel: Any,
    ) -> None:
        """Let ``decide`` act for ``seats`` while the game waits on one of them."""
        store = self.core.store
        for _ in range(MAX_DEFAULT_STEPS):
            waiting = [s for s in waiting_for(state) if s in seats]
            if not waiting:
                return
            action = decide(state, waiting[0])
            if action is None:
                return
            try:
                result = await store.apply(game, action, expected_seq=state.seq)
            except StaleAction:
                return  # a player acted meanwhile
            except (IllegalAction, StoreError):
                log.warning("Deadline action refused in game %s", game, exc_info=True)
                return
            state = result.state
            await self.core.publisher.publish(game, result, channel)

    async def _call_votes(self, game: int, channel: Any) -> None:
        """Open a vote on every seat that has missed ``missed_limit`` deadlines in a row.

        The vote messages are posted first and recorded after; a seat whose vote another
        run recorded meanwhile (a re-fire) keeps that one, and the extra message is closed.
        """
        row = await self.core.store.load(game)
        state = row.state
        if state is None or state.phase == "over":
            return
        to_vote, decided = absence.votes_due(state, GameSettings.of(row))
        posted: dict[int, int] = {}
        for seat in to_vote:
            payload = vote_message(game, state, GameSettings.of(row), seat, {})
            message = await self.core.publisher.send(game, channel, "vote", **payload)
            if message is not None:
                posted[seat] = message.id

        async def record(fresh: GameRow, settings: GameSettings) -> tuple[list[int], list[int]]:
            votes = settings.play.votes
            extra = [m for seat, m in posted.items() if str(seat) in votes]
            for seat, message_id in posted.items():
                if str(seat) not in votes:
                    absence.open_vote(settings, seat, message_id)
            handed = [s for s in decided if str(s) not in settings.play.computer]
            for seat in handed:
                absence.hand_to_computer(settings, seat, "vote")
            if handed and fresh.state is not None:
                await self.core.planner.reschedule(game, fresh.state, settings)  # keyed
            return extra, handed

        extra, handed = await self.core.service.edit_settings(game, record)
        lang = GameSettings.of(row).lobby.lang
        for message_id in extra:
            text = t(lang, "error.vote_closed")
            await self.core.publisher.edit(
                game, channel, message_id, "vote", content=text, view=None
            )
        for seat in handed:
            text = t(lang, "vote.computer", player=state.players[seat].name)
            await self.core.publisher.send(game, channel, "vote", content=text)

    async def _auto(self, row: GameRow, timer: Timer, channel: Any) -> None:
        """One move of a computer seat; publishing it plans the next one."""
        state = row.state
        assert state is not None
        if state.seq != timer.payload.get("seq"):
            return
        # In a worker thread: the expert plays futures to decide (up to ~150 ms), and the
        # bot answers clicks meanwhile. The state is this timer's own copy.
        action = await asyncio.to_thread(absence.next_computer_action, state, GameSettings.of(row))
        if action is None:
            return
        store = self.core.store
        try:
            result = await store.apply(row.id, action, expected_seq=state.seq)
        except StaleAction:
            return  # a player was quicker; the next plan starts from their move
        except IllegalAction:
            # The computer is not meant to err; if it does, the safe default stands in.
            log.warning("Computer action %s refused in game %s", action, row.id, exc_info=True)
            fallback = default_action(state, action["player"])
            if fallback is None:
                return
            try:
                result = await store.apply(row.id, fallback, expected_seq=state.seq)
            except (IllegalAction, StoreError):
                log.warning("Default action refused in game %s", row.id, exc_info=True)
                return
        await self.core.publisher.publish(row.id, result, channel)

    async def _order(self, row: GameRow, timer: Timer, channel: Any) -> None:
        """A standing order acts, like the player's click (logged as the order's)."""
        state = row.state
        if not isinstance(state, GameState) or state.seq != timer.payload.get("seq"):
            return
        settings = GameSettings.of(row)
        action = orders.next_order(state, settings, absence.computer_seats(settings))
        if action is None:
            return  # the order no longer applies (changed, revoked, or the game moved)
        try:
            result = await self.core.store.apply(row.id, action, expected_seq=state.seq)
        except StaleAction:
            return  # the player was quicker
        except IllegalAction as error:  # skipped, never an error: the player decides
            log.info("Order %s skipped in game %s: %s", action, row.id, error)
            return
        except StoreError:
            log.warning("Order %s refused in game %s", action, row.id, exc_info=True)
            return
        await self.core.publisher.publish(row.id, replace(result, via="order"), channel)

    async def _auction_close(self, row: GameRow, timer: Timer, channel: Any) -> None:
        state = row.state
        settings = GameSettings.of(row)
        same = settings.records.auction_message == timer.payload.get("message")
        if not isinstance(state, GameState) or state.auction is None or not same:
            return  # that auction is over
        if await self._system_action(row, {"type": "close_auction"}, channel):
            lang = settings.lobby.lang
            await self.core.publisher.send(
                row.id, channel, "auction closed", content=t(lang, "auction.time_up")
            )

    async def _trade_close(self, row: GameRow, timer: Timer, channel: Any) -> None:
        state = row.state
        assert isinstance(state, GameState)
        trade_id = timer.payload.get("trade")
        trade = next((tr for tr in state.trades if tr["id"] == trade_id), None)
        if trade is None:
            return
        action = {"type": "decline_trade", "player": trade["to"], "trade": trade["id"]}
        if await self._system_action(row, action, channel):
            lang = GameSettings.of(row).lobby.lang
            text = t(lang, "trade.timed_out", player=state.players[trade["to"]].name)
            await self.core.publisher.send(row.id, channel, "trade closed", content=text)

    async def _time_up(self, row: GameRow, timer: Timer, channel: Any) -> None:
        await self._system_action(row, {"type": "time_up"}, channel)

    async def _system_action(self, row: GameRow, action: dict[str, Any], channel: Any) -> bool:
        """Apply a timed action of the bot's own; True if it was applied."""
        try:
            result = await self.core.store.apply(row.id, action)
        except StoreError:
            log.warning("Timed action %s refused in game %s", action, row.id, exc_info=True)
            return False
        except IllegalAction as error:  # the game no longer allows it
            log.info("Timed action %s not possible in game %s: %s", action, row.id, error)
            return False
        await self.core.publisher.publish(row.id, result, channel)
        return True

    async def _dm(self, row: GameRow, timer: Timer, channel: Any) -> None:
        """A direct message that waited for the end of its member's quiet hours."""
        user, text = timer.payload.get("user"), timer.payload.get("text")
        if isinstance(user, int) and isinstance(text, str):
            view = buttons_view(timer.payload.get("buttons"))
            await direct_message(self.core, user, text, view=view)
            if view is not None:
                view.stop()  # the persistent items behind its custom ids answer clicks

    async def _digest(self, row: GameRow, timer: Timer, channel: Any) -> None:
        day = timer.payload.get("day") or timer.due_at.date().isoformat()
        if await self._once(row.id, AsyncPlay.digest_day, day):
            state = row.state
            settings = GameSettings.of(row)
            if isinstance(state, CardState):
                lang = settings.lobby.lang
                payload = table_message(row.id, state, settings)
                payload["embed"].title = t(lang, "cards.digest", round=state.round)
                await self.core.publisher.send(
                    row.id,
                    channel,
                    "digest",
                    embed=payload["embed"],
                    content=payload["content"],
                    file=await table_file(state, lang),
                )
            else:
                await self.core.publisher.send(
                    row.id,
                    channel,
                    "digest",
                    embed=digest_embed(row),
                    file=await board_file(state, settings),  # type: ignore[arg-type]
                )

        async def plan(fresh: GameRow, settings: GameSettings) -> None:
            await self.core.planner.plan_digest(row.id, settings)  # keyed: safe twice

        await self.core.service.edit_settings(row.id, plan)
