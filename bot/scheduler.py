"""The durable scheduler: fires the store's timers when they come due.

Timers (turn deadlines, reminders, auction and trade closing times, the end of a
time-limited game) are rows of the game store, so they survive restarts. One loop
fires every timer that is due, then sleeps until the earliest pending one, at most
``max_sleep`` seconds, or until :meth:`Scheduler.wake` says an earlier timer was
added. On start-up the loop's first round fires every timer that came due while
the bot was down.

**At most once.** Each timer is claimed in the store (``fired_at`` is set, see
:meth:`~bot.store.GameStore.claim_timer`) *before* its handler runs, so a timer
never fires twice: not after a restart, not when two schedulers share a database.
The price is that a crash (or a failing handler) between the claim and the end of
the handler loses that one firing. That is the right way round here: a missed
reminder or a deadline that the next deadline catches is harmless, but a deadline's
default action applied twice would make a player's move for them twice. (The game
actions themselves are guarded by the store's ``seq`` as well: a handler should
apply its action with the ``expected_seq`` it was scheduled for, so an action for a
state that has moved on is refused as stale rather than applied to the new one.)

The clock is injected (``now``, a timezone-aware datetime such as
``discord.utils.utcnow``) and so is ``sleep``, so tests can move time by hand.
Timers added by another process are noticed at the latest after ``max_sleep``;
this process calls :meth:`Scheduler.wake` after adding one.
"""

from __future__ import annotations

import asyncio
import logging
from collections.abc import Awaitable, Callable
from datetime import datetime

from bot.store import GameStore, Timer

log = logging.getLogger(__name__)

#: Seconds to wait before trying again after the store failed (capped by max_sleep).
RETRY_DELAY = 5.0
#: Seconds :meth:`Scheduler.stop` lets a running handler finish before cancelling it.
STOP_GRACE = 5.0
#: Timers fetched from the store per query.
BATCH = 100

TimerHandler = Callable[[Timer], Awaitable[None]]


class Scheduler:
    """Fires the timers of ``store`` with ``handler``, one at a time, earliest first.

    ``now`` is the clock (timezone-aware datetimes); ``sleep`` waits a number of
    seconds (``asyncio.sleep`` unless a test moves time itself); ``max_sleep`` caps
    each wait, which bounds how late a timer added by another process, or one due
    after a jump of the wall clock, can fire.

    Handlers run one after another, so a game's timers fire in order; a handler
    should therefore be quick (apply an action, post a message), not wait for
    players. An exception in a handler is logged and does not stop the loop; the
    timer is not fired again (see the module docstring).
    """

    def __init__(
        self,
        store: GameStore,
        handler: TimerHandler,
        *,
        now: Callable[[], datetime],
        sleep: Callable[[float], Awaitable[None]] = asyncio.sleep,
        max_sleep: float = 300.0,
    ) -> None:
        if max_sleep <= 0:
            raise ValueError("max_sleep must be positive")
        self.store = store
        self.handler = handler
        self.max_sleep = max_sleep
        self._now = now
        self._sleep = sleep
        self._wake = asyncio.Event()
        self._sleeper: asyncio.Future[None] | None = None
        self._task: asyncio.Task[None] | None = None
        self._stopping = False
        self._handling = False

    @property
    def running(self) -> bool:
        """Whether the loop is running."""
        return self._task is not None and not self._task.done()

    def start(self) -> None:
        """Start the loop (in the running event loop); it first fires what is overdue."""
        if self.running:
            return
        self._stopping = False
        self._task = asyncio.get_running_loop().create_task(self._run(), name="timer-scheduler")

    async def stop(self, *, grace: float = STOP_GRACE) -> None:
        """Stop the loop and wait until it has ended.

        A sleeping loop stops at once. A handler under way gets ``grace`` seconds to
        finish (its timer is already claimed, so cutting it short would lose that
        firing); then it is cancelled.
        """
        task, self._task = self._task, None
        if task is None or task.done():
            return
        self._stopping = True
        self._wake.set()
        if self._handling:
            # Wait for the handler without letting a timeout cancel the loop for us;
            # the loop ends by itself after the handler, since _stopping is set.
            await asyncio.wait({task}, timeout=grace)
        task.cancel()
        await asyncio.gather(task, return_exceptions=True)
        self._stopping = False  # run_due() works again, e.g. for a last round by hand

    def wake(self) -> None:
        """Make the loop look at the store again now, e.g. after adding a timer.

        Call this after adding a timer that may be due before the one the loop
        sleeps for; it is cheap, so calling it after every added timer is fine.
        """
        self._wake.set()
        if self._sleeper is not None:
            self._sleeper.cancel()

    async def run_due(self) -> int:
        """Fire every timer due now, earliest first; how many fired.

        A timer counts as fired once claimed, whether its handler succeeded or not.
        Safe to run alongside the loop or another scheduler: each timer fires once.
        """
        now = self._now()  # fixed, so handlers that add timers due "now" cannot starve us
        fired = 0
        while not self._stopping:
            timers = await self.store.due_timers(now, limit=BATCH)
            for timer in timers:
                if self._stopping:
                    break
                # From the claim to the handler's end counts as handling, so stop()
                # does not cancel us between the two and lose the firing.
                self._handling = True
                try:
                    if await self.store.claim_timer(timer.id):
                        fired += 1
                        await self._fire(timer)
                finally:
                    self._handling = False
            if len(timers) < BATCH:
                break
        return fired

    async def _fire(self, timer: Timer) -> None:
        """Run the handler for a claimed timer; its failure is logged, not raised."""
        try:
            await self.handler(timer)
        except asyncio.CancelledError:
            task = asyncio.current_task()
            if task is not None and task.cancelling():
                raise  # we are being stopped
            # A CancelledError of the handler's own making (a request it awaited was
            # cancelled) is a failure of this timer, not a reason to stop the loop.
            self._log_failure(timer)
        except Exception:
            self._log_failure(timer)

    @staticmethod
    def _log_failure(timer: Timer) -> None:
        log.exception(
            "Timer %d (%s of game %d, due %s, payload %s) failed; it will not fire again",
            timer.id,
            timer.kind,
            timer.game_id,
            timer.due_at.isoformat(),
            timer.payload,
        )

    async def _delay(self) -> float:
        """Seconds until the earliest pending timer, between 0 and ``max_sleep``."""
        due = await self.store.next_due_at()
        if due is None:
            return self.max_sleep
        seconds = (due - self._now()).total_seconds()
        return min(max(seconds, 0.0), self.max_sleep)

    async def _run(self) -> None:
        log.info("Timer scheduler started")
        try:
            while not self._stopping:
                # Cleared before looking at the store, so a wake() that comes while
                # we look is not lost: the pause below then returns at once.
                self._wake.clear()
                try:
                    await self.run_due()
                    delay = await self._delay()
                except Exception:
                    # The store may be briefly unusable (locked by another process,
                    # a full disk); the timers stay pending, so try again later.
                    delay = min(RETRY_DELAY, self.max_sleep)
                    log.exception("The timer scheduler failed; trying again in %.0f s", delay)
                if self._stopping:
                    break
                await self._pause(delay)
        finally:
            log.info("Timer scheduler stopped")

    async def _pause(self, delay: float) -> None:
        """Sleep ``delay`` seconds with the injected sleep, or until woken.

        The sleep is a plain timer that :meth:`wake` cancels (rather than a wait on
        an event), so test harnesses with virtual time see an ordinary sleep.
        """
        if self._wake.is_set():
            return
        sleeper = self._sleeper = asyncio.ensure_future(self._sleep(delay))
        try:
            await sleeper
        except asyncio.CancelledError:
            task = asyncio.current_task()
            if task is not None and task.cancelling():
                raise  # the loop itself is being stopped
            # else: wake() cut the sleep short
        finally:
            self._sleeper = None
