"""Which durable timers a game needs now: deadlines, reminders, computer moves, closing times.

Games run for days, so the bot keeps them moving with timers kept in the store and fired by
:class:`bot.scheduler.Scheduler`:

* ``deadline`` / ``reminder`` / ``reminder_soon`` — planned anew after every action
  (:meth:`TimerPlanner.reschedule`, keyed, so planning twice is harmless). At the deadline
  the engine's safe default acts for the absent players; reminders nudge them.
* ``auto`` — a computer seat moves a moment after the game starts waiting on it.
* ``order`` — a player's standing order (``bot/asyncplay/orders.py``) acts at once.
* ``auction_close`` / ``trade_close`` — an auction or a trade offer ends at its closing time.
* ``time_up`` — the agreed end of a time-limited game (preset ``time_limit``).
* ``digest`` — once a day, the standings.
* ``dm`` — a direct message that waits for the end of its member's quiet hours.

Every turn timer carries the ``seq`` it was planned for, so a timer for a state that has
moved on does nothing, and firing one twice moves a game once. A paused game has no timers:
:meth:`TimerPlanner.pause` remembers what the lasting ones had left. The planner writes
what the messages show (``deadline_at``, ``ends_at``, ``auction_closes_at``) and the seq it
planned for (``planned_seq``, checked by the reconciliation) into the settings it is given;
the caller saves them. No Discord here; the clock is injected.
"""

from __future__ import annotations

from collections.abc import Callable
from datetime import datetime, timedelta
from typing import Any

from bot.asyncplay import absence, orders, quiet
from bot.asyncplay.timing import DURATIONS, next_digest, soon_before
from bot.engine.state import GameState
from bot.settings import GameSettings
from bot.store import GameNotRunning, GameStore
from bot.store.kinds import AnyState, waiting_for

#: Seconds a computer seat waits before each move, so the table can follow.
AUTO_DELAY = 2.0
#: Timers that belong to the state of the moment and are planned anew after each action.
TURN_TIMERS = ("deadline", "reminder", "reminder_soon", "auto", "order")
#: What a card game uses (no auctions, trades or time limit there).
CARD_TIMERS = ("deadline", "reminder", "reminder_soon", "auto", "digest", "dm")


class TimerPlanner:
    """Plans the timers of every game in ``store``; ``now`` is the clock.

    ``wake`` is called after a timer was added (so the scheduler looks again), and
    ``auto_delay`` is how long a computer seat waits before each move.
    """

    def __init__(
        self,
        store: GameStore,
        now: Callable[[], datetime],
        wake: Callable[[], None] = lambda: None,
        *,
        auto_delay: float = AUTO_DELAY,
    ) -> None:
        self.store = store
        self.now = now
        self.wake = wake
        self.auto_delay = auto_delay

    async def reschedule(self, game: int, state: AnyState, settings: GameSettings) -> None:
        """Plan the turn timers for the game as it is now (after every action).

        Records the move's deadline in ``settings.play.deadline_at`` (a Unix time, for the
        turn message), or removes it when there is none, and ``planned_seq``.
        """
        play = settings.play
        del play.deadline_at
        del play.deadline_quiet
        play.planned_seq = state.seq
        if state.phase == "over" or play.paused:
            for key in TURN_TIMERS:
                await self.store.cancel_timers(game, key=key)
            return
        now = self.now()
        computer = absence.computer_seats(settings)
        humans = [seat for seat in waiting_for(state) if seat not in computer]
        if absence.computer_acts(state, settings):
            due = now + timedelta(seconds=self.auto_delay)
            await self._add(game, "auto", due, {"seq": state.seq})
        else:
            await self.store.cancel_timers(game, key="auto")
        if isinstance(state, GameState) and orders.next_order(state, settings, computer):
            # A standing order acts the moment the game waits on its player.
            await self._add(game, "order", now, {"seq": state.seq})
        else:
            await self.store.cancel_timers(game, key="order")
        seconds = settings.timing.deadline_seconds
        if seconds is None or not humans:
            for key in ("deadline", "reminder", "reminder_soon"):
                await self.store.cancel_timers(game, key=key)
            return
        await self.plan_deadline(game, state, settings, humans, now + timedelta(seconds=seconds))

    async def plan_deadline(
        self,
        game: int,
        state: AnyState,
        settings: GameSettings,
        humans: list[int],
        deadline: datetime,
    ) -> datetime:
        """Set the move's deadline (moved out of the waiting players' quiet hours) and its
        reminders; returns the deadline as set.

        Records ``deadline_at`` (the real end, for the turn message) and, if quiet hours
        moved it, ``deadline_quiet`` (the seats whose quiet hours did).
        """
        now = self.now()
        prefs = await self.member_prefs(state, humans)
        planned = deadline
        timing, play = settings.timing, settings.play
        del play.deadline_quiet
        if timing.quiet_hours and prefs:
            longest = DURATIONS.get(timing.quiet_max)
            grace = soon_before((deadline - now).total_seconds())
            planned = quiet.moved_deadline(deadline, prefs.values(), longest, grace=grace)
            if planned != deadline:
                play.deadline_quiet = [
                    seat for seat, p in prefs.items() if quiet.is_quiet(p, deadline)
                ]
        play.deadline_at = int(planned.timestamp())
        payload = {"seq": state.seq, "deadline_at": int(planned.timestamp()), "players": humans}
        await self._add(game, "deadline", planned, payload)
        if not timing.reminders:
            await self.store.cancel_timers(game, key="reminder")
            await self.store.cancel_timers(game, key="reminder_soon")
            return planned
        span = max(0.0, (planned - now).total_seconds())
        times = {
            "reminder": now + timedelta(seconds=span / 2),
            "reminder_soon": planned - timedelta(seconds=soon_before(span)),
        }
        for kind, due in times.items():
            if timing.quiet_hours and prefs:
                due = quiet.awake_at(prefs.values(), due)  # a mention waits for the morning
            if due < planned:
                await self._add(game, kind, due, payload)
            else:
                await self.store.cancel_timers(game, key=kind)
        return planned

    async def member_prefs(self, state: AnyState, seats: list[int]) -> dict[int, dict[str, Any]]:
        """The preferences of the members in ``seats`` that have quiet hours set."""
        found: dict[int, dict[str, Any]] = {}
        for seat in seats:
            member = state.players[seat].id
            if not member.isdigit():
                continue  # a computer seat sleeps never
            prefs = await self.store.user_prefs(int(member))
            if quiet.window(prefs) is not None:
                found[seat] = prefs
        return found

    async def game_started(self, game: int, state: AnyState, settings: GameSettings) -> None:
        """Set the timers that run for the whole game: the agreed end and the digest.

        A time-limited game records its start and end (Unix times) in ``settings``
        (``started_at``, ``ends_at``) for the messages and for a later change of length.
        """
        if getattr(state.rules, "end_at_deadline", False):
            settings.play.started_at = int(self.now().timestamp())
            await self._plan_end(game, settings)
        await self.plan_digest(game, settings)

    @staticmethod
    def _ends_at(settings: GameSettings) -> int:
        """The agreed end of a time-limited game: its start and the length chosen."""
        started = settings.play.started_at
        assert started is not None  # only time-limited games have an end
        return started + DURATIONS[settings.timing.time_limit]

    async def _plan_end(self, game: int, settings: GameSettings) -> None:
        ends = self._ends_at(settings)
        settings.play.ends_at = ends
        due = max(datetime.fromtimestamp(ends, self.now().tzinfo), self.now())
        await self._add(game, "time_up", due, {})

    async def plan_digest(self, game: int, settings: GameSettings) -> None:
        """Schedule the next daily digest, or cancel it if the digest is off."""
        hour = settings.timing.digest
        if hour == "off":
            await self.store.cancel_timers(game, key="digest")
            return
        due = next_digest(self.now(), int(hour))
        await self._add(game, "digest", due, {"day": due.date().isoformat()})

    async def time_limit_changed(self, game: int, settings: GameSettings) -> None:
        """The host changed the game's length: the end moves, counted from the start.

        While the game is paused the new end waits among the paused timers.
        """
        play = settings.play
        if not play.time_limited:
            return  # not a time-limited game
        if not play.paused:
            await self._plan_end(game, settings)
            return
        ends = self._ends_at(settings)
        play.ends_at = ends
        paused_at = play.paused_at
        assert paused_at is not None  # recorded with the pause
        left = max(0, ends - paused_at)
        saved = [s for s in play.paused_timers if s["kind"] != "time_up"]
        saved.append({"kind": "time_up", "left": left, "payload": {}, "key": "time_up"})
        play.paused_timers = saved

    def auction_opened(self, settings: GameSettings) -> datetime | None:
        """A new auction's closing time (None if ``auction_time`` is off).

        Recorded in ``settings.play.auction_closes_at`` for the auction message; the timer
        itself is set with :meth:`auction_close_at` once the message exists.
        """
        seconds = settings.timing.auction_seconds
        if seconds is None:
            del settings.play.auction_closes_at
            return None
        closes = self.now() + timedelta(seconds=seconds)
        settings.play.auction_closes_at = int(closes.timestamp())
        return closes

    async def auction_close_at(self, game: int, closes: datetime | None, message_id: int) -> None:
        """Close the auction shown in ``message_id`` at ``closes`` (if it has a closing time)."""
        if closes is not None:
            await self._add(game, "auction_close", closes, {"message": message_id})

    async def auction_closed(self, game: int, settings: GameSettings) -> None:
        """The auction is over: its closing time and timer go."""
        del settings.play.auction_closes_at
        await self.store.cancel_timers(game, key="auction_close")

    async def trade_offered(self, game: int, settings: GameSettings, trade_id: int) -> None:
        """Give a new trade offer its closing time (``settings.play.trade_closes``), if any."""
        seconds = settings.timing.trade_seconds
        if seconds is None:
            return
        closes = self.now() + timedelta(seconds=seconds)
        await self._add(game, "trade_close", closes, {"trade": trade_id}, key=f"trade:{trade_id}")
        settings.play.trade_closes = {
            **settings.play.trade_closes,
            str(trade_id): int(closes.timestamp()),
        }

    async def pause(self, game: int, settings: GameSettings) -> None:
        """Cancel every timer of the game, remembering what the lasting ones had left."""
        await self.remember_timers(game, settings)
        await self.store.cancel_timers(game)

    async def remember_timers(self, game: int, settings: GameSettings) -> None:
        """Record in ``settings.play.paused_timers`` what the game's lasting timers have left
        (reads only: safe to do again; the caller cancels the timers once it is saved)."""
        now = self.now()
        kept = []
        for timer in await self.store.pending_timers(game):
            if timer.kind in TURN_TIMERS:
                continue  # planned afresh, with a whole deadline, on resume
            left = max(0.0, (timer.due_at - now).total_seconds())
            kept.append(
                {"kind": timer.kind, "left": left, "payload": timer.payload, "key": timer.key}
            )
        settings.play.paused_timers = kept

    async def resume(self, game: int, state: AnyState, settings: GameSettings) -> None:
        """Set the timers of a paused game again: closing times keep what they had left."""
        now = self.now()
        play = settings.play
        paused_timers = play.paused_timers
        del play.paused_timers
        for saved in paused_timers:
            due = now + timedelta(seconds=saved["left"])
            if saved["kind"] == "time_up":
                play.ends_at = int(due.timestamp())
            if saved["kind"] == "auction_close":
                play.auction_closes_at = int(due.timestamp())
            if saved["kind"] == "digest":
                due = next_digest(now, int(settings.timing.digest))
            await self.store.add_timer(game, saved["kind"], due, saved["payload"], key=saved["key"])
        await self.reschedule(game, state, settings)

    async def _add(
        self,
        game: int,
        kind: str,
        due: datetime,
        payload: dict[str, Any],
        *,
        key: str | None = None,
    ) -> None:
        try:
            await self.store.add_timer(game, kind, due, payload, key=key or kind)
        except GameNotRunning:
            return  # the game ended meanwhile: nothing to plan
        self.wake()
