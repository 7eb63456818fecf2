"""The durable scheduler: fires the store's timers when they come due.

(Longer than most modules: leases, retries, per-game lanes and stopping are one loop whose
parts only make sense together.)

Timers (turn deadlines, reminders, computer moves, auction and trade closing times,
the end of a time-limited game) are rows of the game store, so they survive
restarts. One loop fires every timer that is due, then sleeps until the earliest
pending one, at most ``max_sleep`` seconds, or until :meth:`Scheduler.wake` says an
earlier timer was added. On start-up the loop's first round fires every timer that
came due while the bot was down.

**At least once.** For each due timer the scheduler first takes a *lease* in the
store (:meth:`~bot.store.GameStore.claim_timer`): for :data:`LEASE_SECONDS` nobody
else takes that timer. Then it runs the handler, renewing the lease while the
handler runs longer than a third of it, and only when the handler has finished
does it mark the timer fired (:meth:`~bot.store.GameStore.complete_timer`). So:

* A process that dies while a handler runs (or a scheduler stopped before its
  handler finished) leaves the lease behind; once the lease has run out the timer
  is due again and fires again, after a restart or in another scheduler on the
  same database. A firing is never lost: a lost turn deadline or computer move
  would be a game that stops for good.
* A handler that raises is tried again after a back-off (:data:`RETRY_BACKOFF`
  seconds times the attempts so far, at most :data:`MAX_BACKOFF`). After
  :data:`MAX_ATTEMPTS` attempts the scheduler gives up on the timer: it is marked
  fired and an error names it.
* Two schedulers sharing a database never run one timer at the same time (while
  its lease lasts).

**Handlers must be idempotent.** The price of never losing a firing is that a
handler may run twice for one timer: after a crash or a stop between its effect and
the completion, or after it failed half-way. A handler must therefore be safe to
run again. Game actions are: a timer carries the game's ``seq`` it was made for and
the handler applies its action with that ``expected_seq``, so the second run is
refused as stale (:class:`~bot.store.StaleAction`) instead of acting twice; a
handler that finds the game has moved on does nothing. A message sent by the first
run may be sent a second time; that is the accepted cost.

**Games run concurrently.** Timers of different games run side by side (at most
:data:`CONCURRENCY` handlers at once), so one slow Discord call does not hold up
every other game. The timers of one game run one after another, in due order. That
order holds within a round of one scheduler: a timer whose lease or back-off has not
run out yet does not hold up its game's later timers, so after a crash or a failure
a later timer of a game can fire before the retry of an earlier one (one more reason
for handlers to check the ``seq``).

**Sharded fleets.** A bot run as several processes, each holding some shards of the
Discord gateway (``MONOPOLY_SHARD_COUNT``/``MONOPOLY_SHARD_IDS``), shares one store. Each
process's scheduler is given ``shards=(shard_count, shard ids)`` and fires only the timers
of games whose guild its shards hold (``(guild_id >> 22) % shard_count``, Discord's
formula): the store filters ``due_timers`` and ``next_due_at`` by it. So every game has
one process that plays its deadlines, the one that also gets the game's clicks. DMs
(reminders by DM, turn DMs sent at a deadline) and the daily digest are timers of a game
too, so they have one owner as well: nobody is reminded twice by two processes. The
leases stay the guard against two schedulers running one timer (after a change of the
shard count, say, or a process started twice with the same shards). Without ``shards``
(an unsharded bot) the scheduler fires every timer and calls the store exactly as before.

The clock is injected (``now``, a timezone-aware datetime such as
``discord.utils.utcnow``) and so is ``sleep``, so tests can move time by hand.
Timers added by another process are noticed at the latest after ``max_sleep``;
this process calls :meth:`Scheduler.wake` after adding one.
"""

from __future__ import annotations

import asyncio
import logging
from collections import deque
from collections.abc import Awaitable, Callable
from dataclasses import replace
from datetime import datetime, timedelta

from bot.config import ShardFilter
from bot.store import GameStore, Timer
from bot.store.base import DEFAULT_LEASE

log = logging.getLogger(__name__)

#: Seconds to wait before trying again after the store failed (capped by max_sleep).
RETRY_DELAY = 5.0
#: Seconds :meth:`Scheduler.stop` lets running handlers finish before cancelling them.
STOP_GRACE = 5.0
#: Timers fetched from the store per query.
BATCH = 100
#: Seconds a timer's lease lasts; renewed every third of it while its handler runs.
LEASE_SECONDS = DEFAULT_LEASE
#: Attempts (leases taken, crashed runs included) after whose failure a timer is given up.
MAX_ATTEMPTS = 5
#: Seconds before a failed timer is tried again, times the attempts so far ...
RETRY_BACKOFF = 30.0
#: ... but never more than this.
MAX_BACKOFF = 600.0
#: Handlers that run at the same time (each for a different game).
CONCURRENCY = 16

TimerHandler = Callable[[Timer], Awaitable[None]]


class Scheduler:
    """Fires the timers of ``store`` with ``handler``: games side by side, each in order.

    ``now`` is the clock (timezone-aware datetimes); ``sleep`` waits a number of
    seconds (``asyncio.sleep`` unless a test moves time itself); ``max_sleep`` caps
    each wait, which bounds how late a timer added by another process, or one due
    after a jump of the wall clock, can fire. ``lease_seconds`` is how long a timer
    is held for its handler (renewed while it runs); ``concurrency`` caps how many
    handlers run at once. ``shards``, ``(shard_count, shard ids)``, limits the
    scheduler to the timers of games whose guild those shards hold (see the module
    docstring); None fires every timer.

    A handler should be quick (apply an action, post a message), not wait for
    players, and it must be safe to run twice for one timer (see the module
    docstring). An exception in a handler is logged and does not stop the loop; the
    timer is tried again after a back-off, up to :data:`MAX_ATTEMPTS` attempts.
    """

    def __init__(
        self,
        store: GameStore,
        handler: TimerHandler,
        *,
        now: Callable[[], datetime],
        sleep: Callable[[float], Awaitable[None]] = asyncio.sleep,
        max_sleep: float = 300.0,
        lease_seconds: float = LEASE_SECONDS,
        concurrency: int = CONCURRENCY,
        shards: ShardFilter | None = None,
    ) -> None:
        if max_sleep <= 0:
            raise ValueError("max_sleep must be positive")
        if lease_seconds <= 0:
            raise ValueError("lease_seconds must be positive")
        if concurrency < 1:
            raise ValueError("concurrency must be at least 1")
        if shards is not None:
            count, ids = shards
            if count < 1 or not ids or any(not 0 <= shard < count for shard in ids):
                raise ValueError(f"shards must be (count, ids in 0..count-1), not {shards!r}")
            shards = (count, frozenset(ids))
        self.store = store
        self.handler = handler
        self.shards = shards
        self.max_sleep = max_sleep
        self.lease_seconds = lease_seconds
        self._now = now
        self._sleep = sleep
        self._slots = asyncio.Semaphore(concurrency)
        self._wake = asyncio.Event()
        self._sleeper: asyncio.Future[None] | None = None
        self._task: asyncio.Task[None] | None = None
        self._stopping = False
        # Timers between their claim and their completion (or back-off), so stop()
        # knows whether there is work to let finish.
        self._active = 0

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

        A sleeping loop stops at once. Handlers under way get ``grace`` seconds to
        finish (no new ones start); then they are cancelled. A cancelled handler's
        timer keeps its lease and fires again once the lease has run out.
        """
        task, self._task = self._task, None
        if task is None or task.done():
            return
        self._stopping = True
        self._wake.set()
        if self._active:
            # Wait for the handlers without letting a timeout cancel the loop for us;
            # the loop ends by itself after them, since _stopping is set.
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

    async def next_due_at(self) -> datetime | None:
        """The earliest moment one of this scheduler's timers can be taken; None if none.

        With ``shards``, only timers of the guilds those shards hold count.
        """
        if self.shards is None:
            # The unsharded call, exactly as before: a driver without the shard
            # filter keeps working for the one-process bot.
            return await self.store.next_due_at()
        return await self.store.next_due_at(shards=self.shards)

    async def due_timers(self, now: datetime, limit: int) -> list[Timer]:
        """Up to ``limit`` of this scheduler's timers that can be taken at ``now``."""
        if self.shards is None:
            return await self.store.due_timers(now, limit=limit)
        return await self.store.due_timers(now, limit=limit, shards=self.shards)

    async def run_due(self) -> int:
        """Fire every timer due now; how many handlers ran, once they have all ended.

        Games run side by side, each game's timers in due order. A handler that
        failed counts too (its timer is tried again later). Safe to run alongside
        the loop or another scheduler: the leases keep a timer to one handler.
        """
        # Fixed for the round, so handlers that add timers due "now" cannot starve us.
        return await _Round(self, self._now()).run()

    async def _take(self, timer: Timer) -> bool:
        """Lease ``timer``, run its handler and settle it; False if it was not free.

        Raises only if the store fails (the timer then keeps whatever lease it got).
        """
        async with self._slots:
            if self._stopping:
                return False
            # From the claim to the settling counts as active, so stop() gives this
            # timer its grace instead of cutting it off right after the claim.
            self._active += 1
            try:
                start = self._now()
                if not await self.store.claim_timer(
                    timer.id, now=start, lease_seconds=self.lease_seconds
                ):
                    return False  # another scheduler has it, or it was cancelled
                leased = replace(
                    timer,
                    attempts=timer.attempts + 1,
                    leased_until=start + timedelta(seconds=self.lease_seconds),
                )
                failure = await self._fire(leased)
                await self._settle(leased, failure)
                return True
            finally:
                self._active -= 1

    async def _fire(self, timer: Timer) -> BaseException | None:
        """Run the handler for a leased timer, renewing the lease; its failure, if any.

        Raises CancelledError only when this task itself is being cancelled (a stop).
        """
        keeper = asyncio.ensure_future(self._keep_lease(timer.id))
        try:
            await self.handler(timer)
        except asyncio.CancelledError as error:
            task = asyncio.current_task()
            if task is not None and task.cancelling():
                raise  # we are being stopped; the timer keeps its lease
            # A CancelledError of the handler's own making (a request it awaited was
            # cancelled) is a failure of this timer, not a reason to stop.
            return error
        except Exception as error:
            return error
        finally:
            keeper.cancel()
            # Wait until the keeper has ended, so that no renewal of its lands after
            # the completion or back-off written next. (A renewal already handed to
            # the store was queued first, and the store's writes keep their order.)
            await asyncio.wait({keeper})
        return None

    async def _keep_lease(self, timer_id: int) -> None:
        """Renew the timer's lease every third of its length, until cancelled."""
        while True:
            # Real (event-loop) time, not the injected sleep: that one is the loop's
            # pause, which tests drive by hand, and a lease only has to outlast the
            # handler in the time that passes for other processes.
            await asyncio.sleep(self.lease_seconds / 3)
            until = self._now() + timedelta(seconds=self.lease_seconds)
            try:
                if not await self.store.renew_lease(timer_id, until):
                    return  # cancelled meanwhile (e.g. its key scheduled again)
            except Exception:
                log.warning(
                    "Could not renew the lease of timer %d; if it runs out the timer "
                    "may fire again",
                    timer_id,
                    exc_info=True,
                )

    async def _settle(self, timer: Timer, failure: BaseException | None) -> None:
        """Complete the timer, or give it back with a back-off, or give up on it."""
        if failure is None:
            await self.store.complete_timer(timer.id)
            return
        if timer.attempts >= MAX_ATTEMPTS:
            await self.store.complete_timer(timer.id)
            log.error(
                "Timer %d (%s of game %d, due %s, payload %s) failed %d times; giving up on it",
                timer.id,
                timer.kind,
                timer.game_id,
                timer.due_at.isoformat(),
                timer.payload,
                timer.attempts,
                exc_info=failure,
            )
            return
        delay = min(RETRY_BACKOFF * timer.attempts, MAX_BACKOFF)
        await self.store.retry_timer(timer.id, self._now() + timedelta(seconds=delay))
        log.warning(
            "Timer %d (%s of game %d, due %s, payload %s) failed (attempt %d of %d); "
            "trying again in %.0f s",
            timer.id,
            timer.kind,
            timer.game_id,
            timer.due_at.isoformat(),
            timer.payload,
            timer.attempts,
            MAX_ATTEMPTS,
            delay,
            exc_info=failure,
        )

    async def _delay(self) -> float:
        """Seconds until a pending timer can be taken, between 0 and ``max_sleep``."""
        due = await self.next_due_at()
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


class _Round:
    """One :meth:`Scheduler.run_due`: the due timers in lanes, one task per game.

    A lane runs its game's timers one after another; lanes run side by side, as
    many handlers at once as the scheduler's slots allow. More due timers are
    fetched while the lanes work, so a slow game does not hold up the next batch.
    """

    def __init__(self, scheduler: Scheduler, now: datetime) -> None:
        self.scheduler = scheduler
        self.now = now
        self.queues: dict[int, deque[Timer]] = {}
        self.lanes: dict[int, asyncio.Task[None]] = {}
        self.seen: set[int] = set()
        self.fired = 0
        self.error: Exception | None = None
        self.progress = asyncio.Event()

    @property
    def ending(self) -> bool:
        """Whether no more timers should start: a stop, or the store failed."""
        return self.scheduler._stopping or self.error is not None

    async def run(self) -> int:
        """Run the round to its end; how many handlers ran. Raises the store's error."""
        exhausted = False
        try:
            while True:
                # Cleared before fetching, so a lane's news during the fetch is kept.
                self.progress.clear()
                waiting = sum(len(queue) for queue in self.queues.values())
                if not (exhausted or self.ending) and waiting <= BATCH // 2:
                    try:
                        exhausted = await self._fetch(waiting)
                    except Exception as error:
                        self.error = error  # let the handlers under way finish first
                if not self.lanes:
                    break
                await self.progress.wait()
        except BaseException:
            # Cancelled (a stop past its grace): cancel the handlers too. Their timers
            # keep their leases and fire again once these have run out.
            lanes = list(self.lanes.values())
            for lane in lanes:
                lane.cancel()
            await asyncio.gather(*lanes, return_exceptions=True)
            raise
        if self.error is not None:
            raise self.error
        return self.fired

    async def _fetch(self, waiting: int) -> bool:
        """Queue the next due timers in their games' lanes; True if that was all of them.

        The timers still waiting in lanes are listed again (they are not leased
        yet), so the query asks for that many more to bring a full batch of new ones.
        """
        limit = BATCH + waiting
        timers = await self.scheduler.due_timers(self.now, limit=limit)
        for timer in timers:
            if timer.id in self.seen:
                continue
            self.seen.add(timer.id)
            queue = self.queues.get(timer.game_id)
            if queue is None:
                queue = self.queues[timer.game_id] = deque()
                self.lanes[timer.game_id] = asyncio.ensure_future(self._lane(timer.game_id))
            queue.append(timer)
        return len(timers) < limit

    async def _lane(self, game_id: int) -> None:
        """Run the game's queued timers in order until none is left (or the round ends)."""
        queue = self.queues[game_id]
        try:
            while queue and not self.ending:
                timer = queue.popleft()
                try:
                    if await self.scheduler._take(timer):
                        self.fired += 1
                except Exception as error:
                    # The store failed. The game's later timers must not overtake this
                    # one, and the store is likely failing for the others too: end
                    # the round; the loop tries again after RETRY_DELAY.
                    if self.error is None:
                        self.error = error
                self.progress.set()
        finally:
            # No await between the lane's last look at its queue and leaving: a timer
            # the round queues for this game meanwhile gets a new lane.
            del self.lanes[game_id]
            del self.queues[game_id]
            self.progress.set()
