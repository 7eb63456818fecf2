"""The durable scheduler on a real store, with a clock and a sleep the test moves.

Every test that takes ``store`` (or ``store_factory``) runs on both drivers: a SQLite
file and a PostgreSQL database (``tests/store/backends.py``); two stores on one database
are two bot processes.

No test measures how long something took: concurrency is shown with events that a
handler can only get past if another one ran meanwhile.
"""

from __future__ import annotations

import asyncio
import logging
from collections.abc import AsyncIterator, Callable
from datetime import datetime, timedelta
from pathlib import Path

import pytest

from bot import scheduler as scheduler_module
from bot.scheduler import LEASE_SECONDS, MAX_ATTEMPTS, RETRY_BACKOFF, Scheduler
from bot.store import SqliteGameStore, Timer
from bot.store.sql import SqlGameStore
from tests.store.backends import StoreFactory
from tests.store.conftest import GUILD, ManualClock, make_state

MAX_SLEEP = 300.0


async def eventually(condition: Callable[[], bool], timeout: float = 5.0) -> None:
    """Wait (in real time) until ``condition()`` holds."""
    deadline = asyncio.get_running_loop().time() + timeout
    while not condition():
        if asyncio.get_running_loop().time() > deadline:
            raise AssertionError("the condition did not come true in time")
        await asyncio.sleep(0.001)


class ManualSleep:
    """The scheduler's sleep, run by the test: it notes how long the scheduler wants
    to sleep and returns only when the test lets that time pass on the clock."""

    def __init__(self, clock: ManualClock) -> None:
        self.clock = clock
        self.delays: list[float] = []
        self._seen = 0
        self._wakeup: asyncio.Future[None] | None = None

    async def __call__(self, delay: float) -> None:
        self.delays.append(delay)
        self._wakeup = asyncio.get_running_loop().create_future()
        await self._wakeup

    def _sleeping(self) -> bool:
        return (
            len(self.delays) > self._seen and self._wakeup is not None and not self._wakeup.done()
        )

    async def asleep(self) -> float:
        """Wait until the scheduler sleeps again (a sleep not yet seen); how long for."""
        await eventually(self._sleeping)
        self._seen = len(self.delays)
        return self.delays[-1]

    def elapse(self) -> None:
        """Let the time asked for pass: the clock moves on and the sleep ends."""
        assert self._wakeup is not None and not self._wakeup.done()
        self.clock.advance(self.delays[-1])
        self._wakeup.set_result(None)


class Recorder:
    """A timer handler that notes each timer; kinds in ``fail`` raise instead."""

    def __init__(self, fail: dict[str, BaseException] | None = None) -> None:
        self.fired: list[Timer] = []
        self.fail = fail or {}

    async def __call__(self, timer: Timer) -> None:
        self.fired.append(timer)
        if timer.kind in self.fail:
            raise self.fail[timer.kind]

    @property
    def ids(self) -> list[int]:
        """The ids of the timers fired, in order."""
        return [t.id for t in self.fired]


@pytest.fixture
def db_path(tmp_path: Path) -> Path:
    """A database file in a fresh directory."""
    return tmp_path / "data" / "games.db"


@pytest.fixture
def clock() -> ManualClock:
    """The one clock of the store and the scheduler."""
    return ManualClock()


@pytest.fixture
async def store(store_factory: StoreFactory, clock: ManualClock) -> AsyncIterator[SqlGameStore]:
    """An open store on this test's fresh database (each driver in turn)."""
    async with store_factory(now=clock) as store:
        yield store


@pytest.fixture
def sleep(clock: ManualClock) -> ManualSleep:
    """The scheduler's sleep, moved by the test."""
    return ManualSleep(clock)


@pytest.fixture
def recorder() -> Recorder:
    """The handler: records what fired."""
    return Recorder()


@pytest.fixture
async def scheduler(
    store: SqlGameStore, recorder: Recorder, clock: ManualClock, sleep: ManualSleep
) -> AsyncIterator[Scheduler]:
    """A scheduler (not started) that is stopped after the test."""
    scheduler = Scheduler(store, recorder, now=clock, sleep=sleep, max_sleep=MAX_SLEEP)
    try:
        yield scheduler
    finally:
        await scheduler.stop()


async def _game(store: SqlGameStore, channel: int = 10) -> int:
    return (await store.create_game(GUILD, channel, make_state())).id


def _in(clock: ManualClock, seconds: float) -> datetime:
    return clock() + timedelta(seconds=seconds)


async def test_sleeps_until_the_next_timer_then_fires_it(
    store: SqlGameStore,
    scheduler: Scheduler,
    recorder: Recorder,
    clock: ManualClock,
    sleep: ManualSleep,
) -> None:
    """The loop sleeps until the next timer, fires it, and sleeps until the next."""
    game = await _game(store)
    first = await store.add_timer(game, "reminder", _in(clock, 60), {"seat": 2})
    second = await store.add_timer(game, "turn_deadline", _in(clock, 90), key="turn:1")
    far = await store.add_timer(game, "game_end", _in(clock, 3600))
    scheduler.start()
    assert await sleep.asleep() == 60.0
    assert recorder.fired == []
    sleep.elapse()
    assert await sleep.asleep() == 30.0
    assert recorder.ids == [first.id]
    sleep.elapse()
    assert await sleep.asleep() == MAX_SLEEP  # the next one is an hour away
    assert recorder.ids == [first.id, second.id]
    await store.cancel_timers(game, kind="game_end")
    sleep.elapse()
    assert await sleep.asleep() == MAX_SLEEP  # nothing pending at all
    assert recorder.ids == [first.id, second.id]
    assert far.id not in recorder.ids


async def test_overdue_timers_fire_once_after_downtime(
    store_factory: StoreFactory, clock: ManualClock
) -> None:
    """Timers that came due while the bot was down fire once at the next start, in due
    order, and never again at the start after."""
    async with store_factory(now=clock) as store:
        game = await _game(store)
        reminder = await store.add_timer(game, "reminder", _in(clock, 10))
        deadline = await store.add_timer(game, "turn_deadline", _in(clock, 20), key="turn:5")
        later = await store.add_timer(game, "game_end", _in(clock, 2 * 3600))
    clock.advance(3600)  # the bot was down for an hour; two timers came due meanwhile

    for _restart in range(2):
        recorder, sleep = Recorder(), ManualSleep(clock)
        async with store_factory(now=clock) as store:
            scheduler = Scheduler(store, recorder, now=clock, sleep=sleep, max_sleep=MAX_SLEEP)
            scheduler.start()
            assert await sleep.asleep() == MAX_SLEEP
            await scheduler.stop()
            assert await store.pending_timers(game) == [later]
        if _restart == 0:
            assert recorder.ids == [reminder.id, deadline.id]  # once, in due order
        else:
            assert recorder.fired == []  # and never again


async def test_run_due_fires_everything_due_and_counts(
    store: SqlGameStore,
    scheduler: Scheduler,
    recorder: Recorder,
    clock: ManualClock,
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """run_due fires every due timer over several fetches and counts them."""
    monkeypatch.setattr(scheduler_module, "BATCH", 3)  # several rounds of fetching
    game = await _game(store)
    timers = [await store.add_timer(game, "t", _in(clock, -s)) for s in range(8)]
    future = await store.add_timer(game, "t", _in(clock, 1))
    assert await scheduler.run_due() == 8
    assert recorder.ids == [t.id for t in reversed(timers)]
    assert await scheduler.run_due() == 0
    assert await store.pending_timers(game) == [future]


async def test_wake_fires_an_earlier_timer_without_waiting(
    store: SqlGameStore,
    scheduler: Scheduler,
    recorder: Recorder,
    clock: ManualClock,
    sleep: ManualSleep,
) -> None:
    """wake() cuts the sleep short for a timer added earlier than the one slept for."""
    game = await _game(store)
    await store.add_timer(game, "turn_deadline", _in(clock, 200))
    scheduler.start()
    assert await sleep.asleep() == 200.0
    start = clock()
    reminder = await store.add_timer(game, "reminder", _in(clock, 10))
    scheduler.wake()
    assert await sleep.asleep() == 10.0  # re-computed at once: the old sleep was cut
    assert clock() == start and sleep.delays == [200.0, 10.0]
    sleep.elapse()
    assert await sleep.asleep() == 190.0
    assert recorder.ids == [reminder.id]


async def test_a_timer_already_due_on_wake_fires_at_once(
    store: SqlGameStore,
    scheduler: Scheduler,
    recorder: Recorder,
    clock: ManualClock,
    sleep: ManualSleep,
) -> None:
    """A timer already due when woken fires at once."""
    scheduler.start()
    assert await sleep.asleep() == MAX_SLEEP
    game = await _game(store)
    now = await store.add_timer(game, "auction_close", clock())
    scheduler.wake()
    assert await sleep.asleep() == MAX_SLEEP
    assert recorder.ids == [now.id]


async def test_a_failing_handler_is_retried_then_given_up(
    store: SqlGameStore,
    clock: ManualClock,
    sleep: ManualSleep,
    caplog: pytest.LogCaptureFixture,
) -> None:
    """A failing handler is retried with a growing back-off, then given up and logged."""
    runs: list[tuple[int, int]] = []  # (timer id, attempt) of every run

    async def handler(timer: Timer) -> None:
        runs.append((timer.id, timer.attempts))
        if timer.kind == "boom":
            raise RuntimeError("handler bug")
        if timer.kind == "cut" and timer.attempts == 1:
            # A request the handler awaited was cancelled: a failure, not a stop.
            raise asyncio.CancelledError()

    scheduler = Scheduler(store, handler, now=clock, sleep=sleep, max_sleep=MAX_SLEEP)
    game = await _game(store)
    boom = await store.add_timer(game, "boom", _in(clock, 1), {"seq": 7})
    cut = await store.add_timer(game, "cut", _in(clock, 2))
    fine = await store.add_timer(game, "reminder", _in(clock, 3))
    clock.advance(5)
    with caplog.at_level(logging.WARNING, logger="bot.scheduler"):
        scheduler.start()
        try:
            # A failing timer does not hold up its game's later ones.
            assert await sleep.asleep() == RETRY_BACKOFF
            assert runs == [(boom.id, 1), (cut.id, 1), (fine.id, 1)]
            pending = {t.id: t for t in await store.pending_timers(game)}
            assert set(pending) == {boom.id, cut.id}  # fine is done; the others wait
            assert pending[boom.id].leased_until == _in(clock, RETRY_BACKOFF)
            sleep.elapse()
            # The back-off grows with the attempts.
            assert await sleep.asleep() == 2 * RETRY_BACKOFF
            assert runs[3:] == [(boom.id, 2), (cut.id, 2)]  # cut succeeds this time
            for attempt in range(3, MAX_ATTEMPTS):
                sleep.elapse()
                assert await sleep.asleep() == attempt * RETRY_BACKOFF
            sleep.elapse()
            assert await sleep.asleep() == MAX_SLEEP  # given up: nothing pending
        finally:
            await scheduler.stop()
    assert [run for run in runs if run[0] == boom.id] == [
        (boom.id, n) for n in range(1, MAX_ATTEMPTS + 1)
    ]
    assert await store.pending_timers(game) == []
    assert await scheduler.run_due() == 0  # and it is not tried again
    records = [r for r in caplog.records if r.name == "bot.scheduler" and r.exc_info]
    warnings = [r for r in records if r.levelno == logging.WARNING]
    errors = [r for r in records if r.levelno == logging.ERROR]
    assert len(warnings) == MAX_ATTEMPTS - 1 + 1  # boom's retries and cut's one
    assert f"Timer {cut.id} (cut of game {game}" in warnings[1].getMessage()
    assert "attempt 1 of" in warnings[0].getMessage()
    assert len(errors) == 1
    message = errors[0].getMessage()
    assert f"Timer {boom.id} (boom of game {game}" in message
    assert f"failed {MAX_ATTEMPTS} times" in message and "'seq': 7" in message
    assert "handler bug" in caplog.text


async def test_a_failing_store_is_retried(
    store: SqlGameStore,
    scheduler: Scheduler,
    recorder: Recorder,
    clock: ManualClock,
    sleep: ManualSleep,
    monkeypatch: pytest.MonkeyPatch,
    caplog: pytest.LogCaptureFixture,
) -> None:
    """A store that fails is tried again after RETRY_DELAY."""
    game = await _game(store)
    timer = await store.add_timer(game, "reminder", clock())
    real = store.due_timers
    calls = []

    async def flaky(now: datetime, limit: int = 100, **options: object) -> list[Timer]:
        calls.append(now)
        if len(calls) == 1:
            raise OSError("disk trouble")
        return await real(now, limit, **options)  # type: ignore[arg-type]

    monkeypatch.setattr(store, "due_timers", flaky)
    with caplog.at_level(logging.ERROR, logger="bot.scheduler"):
        scheduler.start()
        assert await sleep.asleep() == scheduler_module.RETRY_DELAY
    assert "trying again" in caplog.text and "disk trouble" in caplog.text
    assert recorder.fired == []
    sleep.elapse()
    assert await sleep.asleep() == MAX_SLEEP
    assert recorder.ids == [timer.id]


async def test_timers_of_ended_games_never_fire(
    store: SqlGameStore,
    scheduler: Scheduler,
    recorder: Recorder,
    clock: ManualClock,
    sleep: ManualSleep,
) -> None:
    """Timers of games that ended while the loop slept never fire."""
    finished, broken, running = [await _game(store, c) for c in (10, 11, 12)]
    for game in (finished, broken, running):
        await store.add_timer(game, "turn_deadline", _in(clock, 10), key="turn")
    scheduler.start()
    assert await sleep.asleep() == 10.0
    # The games end while the scheduler sleeps towards their deadlines.
    await store.finish(finished, "ended by a player")
    await store.set_aside(broken, "test")
    sleep.elapse()
    assert await sleep.asleep() == MAX_SLEEP
    assert [t.game_id for t in recorder.fired] == [running]
    clock.advance(3600)
    assert await scheduler.run_due() == 0


async def test_two_schedulers_on_one_database_fire_each_timer_once(
    store_factory: StoreFactory, clock: ManualClock
) -> None:
    """Two processes' schedulers on one database fire every due timer, none twice."""
    async with (
        store_factory(now=clock) as first,
        store_factory(now=clock) as second,
    ):
        games = [await _game(first, channel) for channel in (10, 11, 12)]
        timers = [
            await first.add_timer(games[n % 3], "t", _in(clock, n % 7 - 10)) for n in range(60)
        ]
        recorders = [Recorder(), Recorder()]
        schedulers = [
            Scheduler(store, rec, now=clock, max_sleep=MAX_SLEEP)
            for store, rec in zip((first, second), recorders, strict=True)
        ]
        counts = await asyncio.gather(*(s.run_due() for s in schedulers))
    fired = recorders[0].ids + recorders[1].ids
    assert sum(counts) == len(timers)
    assert sorted(fired) == sorted(t.id for t in timers)  # every one, none twice


async def test_a_lease_that_ran_out_fires_again_a_completed_timer_never(
    store_factory: StoreFactory, clock: ManualClock
) -> None:
    """A timer whose process died holding its lease fires again once the lease ran out;
    a completed timer never does."""
    # At least once: a bot that died between taking a timer and completing it left
    # the lease behind; the timer fires again once the lease has run out.
    async with store_factory(now=clock) as store:
        game = await _game(store)
        lost = await store.add_timer(game, "turn_deadline", clock())
        done = await store.add_timer(game, "reminder", clock())
        kept = await store.add_timer(game, "reminder", clock())
        assert await store.claim_timer(lost.id)  # ... and then the process died
        assert await store.claim_timer(done.id)
        assert await store.complete_timer(done.id)  # this one had finished
    recorder, sleep = Recorder(), ManualSleep(clock)
    async with store_factory(now=clock) as store:
        scheduler = Scheduler(store, recorder, now=clock, sleep=sleep, max_sleep=MAX_SLEEP)
        scheduler.start()
        try:
            assert await sleep.asleep() == LEASE_SECONDS  # it wakes for the lease's end
            assert recorder.ids == [kept.id]
            sleep.elapse()
            assert await sleep.asleep() == MAX_SLEEP
        finally:
            await scheduler.stop()
        assert recorder.ids == [kept.id, lost.id]
        assert recorder.fired[1].attempts == 2
        assert await store.pending_timers(game) == []
        clock.advance(3600)
        assert await scheduler.run_due() == 0
    assert done.id not in recorder.ids


async def test_a_handler_that_schedules_its_own_key_again(
    store: SqlGameStore, clock: ManualClock, sleep: ManualSleep
) -> None:
    """A handler that schedules its own key again makes a chain that fires once each."""
    # Like a turn deadline whose default move plans the next deadline: the new timer
    # replaces the one being handled, which is then completed, and fires once.
    fired: list[Timer] = []

    async def handler(timer: Timer) -> None:
        fired.append(timer)
        if timer.payload["round"] < 3:
            due = clock() + timedelta(seconds=60)
            await store.add_timer(
                timer.game_id, "deadline", due, {"round": timer.payload["round"] + 1}, key="d"
            )

    game = await _game(store)
    await store.add_timer(game, "deadline", clock(), {"round": 1}, key="d")
    scheduler = Scheduler(store, handler, now=clock, sleep=sleep, max_sleep=MAX_SLEEP)
    scheduler.start()
    try:
        assert await sleep.asleep() == 60.0
        sleep.elapse()
        assert await sleep.asleep() == 60.0
        sleep.elapse()
        assert await sleep.asleep() == MAX_SLEEP
    finally:
        await scheduler.stop()
    assert [t.payload["round"] for t in fired] == [1, 2, 3]
    assert all(t.attempts == 1 for t in fired)
    assert await store.pending_timers(game) == []


async def test_games_run_concurrently(store: SqlGameStore, clock: ManualClock) -> None:
    """A slow game does not hold up the others; its own timers keep their order."""
    # Game 1's first timer hangs (a slow Discord call); game 2's timers still fire,
    # and so does nothing of game 1 after it: a game's timers keep their order.
    release, others_done = asyncio.Event(), asyncio.Event()
    done: list[int] = []
    slow_game, fast_game = await _game(store, 10), await _game(store, 11)

    async def handler(timer: Timer) -> None:
        if timer.id == slow.id:
            await release.wait()
        done.append(timer.id)
        if set(done) >= {fast_1.id, fast_2.id}:
            others_done.set()

    slow = await store.add_timer(slow_game, "t", _in(clock, -3))
    after_slow = await store.add_timer(slow_game, "t", _in(clock, -2))
    fast_1 = await store.add_timer(fast_game, "t", _in(clock, -2))
    fast_2 = await store.add_timer(fast_game, "t", _in(clock, -1))
    scheduler = Scheduler(store, handler, now=clock, max_sleep=MAX_SLEEP)
    round_ = asyncio.ensure_future(scheduler.run_due())
    await asyncio.wait_for(others_done.wait(), 5)
    assert done == [fast_1.id, fast_2.id]
    assert not round_.done()  # run_due() returns when every handler has ended
    release.set()
    assert await asyncio.wait_for(round_, 5) == 4
    assert done == [fast_1.id, fast_2.id, slow.id, after_slow.id]


async def test_one_game_in_order_many_games_at_once(
    store: SqlGameStore, clock: ManualClock, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Games' timers run side by side, each game's in due order and one at a time."""
    monkeypatch.setattr(scheduler_module, "BATCH", 4)  # lanes fed over several fetches
    games = [await _game(store, 10 + n) for n in range(5)]
    timers = [
        await store.add_timer(games[n % 5], "t", _in(clock, -100 + n), {"n": n}) for n in range(30)
    ]
    running: dict[int, int] = dict.fromkeys(games, 0)
    order: dict[int, list[int]] = {game: [] for game in games}
    overlap = []
    pair = asyncio.Event()  # set once two games' handlers ran at the same time
    active = 0

    async def handler(timer: Timer) -> None:
        nonlocal active
        running[timer.game_id] += 1
        active += 1
        if running[timer.game_id] > 1:
            overlap.append(timer.id)
        if active > 1:
            pair.set()
        order[timer.game_id].append(timer.id)
        # The first handler waits for a second one to run alongside it: if games
        # did not run concurrently this would hang (and wait_for below fail).
        await pair.wait()
        # Take a moment, as a real handler's requests would, so that a second handler
        # of this game, were one started, would overlap with this one.
        await asyncio.sleep(0.005)
        running[timer.game_id] -= 1
        active -= 1

    scheduler = Scheduler(store, handler, now=clock, max_sleep=MAX_SLEEP)
    assert await asyncio.wait_for(scheduler.run_due(), 10) == 30
    assert overlap == []  # never two handlers of one game at once
    for game in games:
        assert order[game] == [t.id for t in timers if t.game_id == game]  # due order
    assert await scheduler.run_due() == 0


async def test_concurrency_is_capped(store: SqlGameStore, clock: ManualClock) -> None:
    """No more handlers run at once than the scheduler allows."""
    games = [await _game(store, 10 + n) for n in range(6)]
    for game in games:
        await store.add_timer(game, "t", clock())
    active, peak = 0, 0
    pair = asyncio.Event()

    async def handler(timer: Timer) -> None:
        nonlocal active, peak
        active += 1
        peak = max(peak, active)
        if active >= 2:
            pair.set()
        await pair.wait()  # hangs unless two run at once
        for _ in range(3):
            await asyncio.sleep(0)
        active -= 1

    scheduler = Scheduler(store, handler, now=clock, max_sleep=MAX_SLEEP, concurrency=2)
    assert await asyncio.wait_for(scheduler.run_due(), 10) == len(games)
    assert peak == 2


async def test_a_long_handler_keeps_its_lease(store: SqlGameStore, clock: ManualClock) -> None:
    """A handler that runs long keeps renewing its lease, so nobody else takes the timer."""
    lease = 0.03  # renewed every 10 ms of real time while the handler runs
    entered, release = asyncio.Event(), asyncio.Event()

    async def slow(timer: Timer) -> None:
        entered.set()
        await release.wait()

    game = await _game(store)
    timer = await store.add_timer(game, "t", clock())
    scheduler = Scheduler(store, slow, now=clock, max_sleep=MAX_SLEEP, lease_seconds=lease)
    round_ = asyncio.ensure_future(scheduler.run_due())
    await asyncio.wait_for(entered.wait(), 5)
    clock.advance(3600)  # far past the first lease's end
    renewed = clock() + timedelta(seconds=lease)

    async def lease_end() -> datetime | None:
        return (await store.pending_timers(game))[0].leased_until

    for _ in range(500):
        if await lease_end() == renewed:
            break
        await asyncio.sleep(0.01)
    assert await lease_end() == renewed
    # So another scheduler does not take it while the handler is still at work.
    assert await store.due_timers(clock()) == []
    assert not await store.claim_timer(timer.id, now=clock())
    release.set()
    assert await asyncio.wait_for(round_, 5) == 1
    assert await store.pending_timers(game) == []


async def test_stop_while_sleeping_is_prompt(store: SqlGameStore, clock: ManualClock) -> None:
    """A sleeping loop stops at once; run_due still works after."""
    recorder = Recorder()
    scheduler = Scheduler(store, recorder, now=clock, max_sleep=MAX_SLEEP)  # real sleep
    await scheduler.stop()  # not started: nothing to do
    scheduler.start()
    task = scheduler._task
    scheduler.start()  # already running: still one loop
    assert scheduler._task is task and scheduler.running
    await asyncio.sleep(0.05)
    await asyncio.wait_for(scheduler.stop(), timeout=1.0)
    assert not scheduler.running and task is not None and task.done()
    await scheduler.stop()
    # After stopping, a round by hand still works.
    game = await _game(store)
    await store.add_timer(game, "t", clock())
    assert await scheduler.run_due() == 1


async def test_stop_lets_a_running_handler_finish(
    store: SqlGameStore, clock: ManualClock, sleep: ManualSleep
) -> None:
    """stop() lets a running handler finish and starts no new one."""
    entered, release, finished = asyncio.Event(), asyncio.Event(), []

    async def slow(timer: Timer) -> None:
        entered.set()
        await release.wait()
        finished.append(timer.id)

    game = await _game(store)
    first = await store.add_timer(game, "t", clock())
    second = await store.add_timer(game, "t", clock())
    scheduler = Scheduler(store, slow, now=clock, sleep=sleep, max_sleep=MAX_SLEEP)
    scheduler.start()
    await asyncio.wait_for(entered.wait(), 5)
    stopping = asyncio.ensure_future(scheduler.stop())
    await asyncio.sleep(0.05)
    assert not stopping.done()  # waits for the handler (its timer is leased)
    release.set()
    await asyncio.wait_for(stopping, 5)
    assert finished == [first.id]
    assert await store.pending_timers(game) == [second]  # not claimed; fires next start


async def test_stop_cancels_a_handler_that_outstays_its_grace(
    store: SqlGameStore, clock: ManualClock, sleep: ManualSleep
) -> None:
    """A handler past the grace is cancelled; its timer keeps its lease and fires later."""
    entered, cancelled = asyncio.Event(), []

    async def stuck(timer: Timer) -> None:
        entered.set()
        try:
            await asyncio.Event().wait()
        except asyncio.CancelledError:
            cancelled.append(timer.id)
            raise

    game = await _game(store)
    timer = await store.add_timer(game, "t", clock())
    scheduler = Scheduler(store, stuck, now=clock, sleep=sleep, max_sleep=MAX_SLEEP)
    scheduler.start()
    await asyncio.wait_for(entered.wait(), 5)
    await asyncio.wait_for(scheduler.stop(grace=0.05), 5)
    assert cancelled == [timer.id] and not scheduler.running
    # The cut-off timer keeps its lease: not lost, not fired; due when the lease ends.
    [leased] = await store.pending_timers(game)
    assert leased.attempts == 1 and leased.leased_until == _in(clock, LEASE_SECONDS)
    assert await store.due_timers(clock()) == []
    recorder = Recorder()
    again = Scheduler(store, recorder, now=clock, max_sleep=MAX_SLEEP)
    assert await again.run_due() == 0
    clock.advance(LEASE_SECONDS)
    assert await again.run_due() == 1
    assert recorder.ids == [timer.id] and recorder.fired[0].attempts == 2
    assert await store.pending_timers(game) == []


async def test_stop_lets_handlers_of_several_games_finish(
    store: SqlGameStore, clock: ManualClock, sleep: ManualSleep
) -> None:
    """stop() lets the handlers of several games finish."""
    release, finished = asyncio.Event(), []
    games = [await _game(store, 10 + n) for n in range(3)]
    timers = [await store.add_timer(game, "t", clock()) for game in games]
    both_in = asyncio.Event()

    async def slow(timer: Timer) -> None:
        if timer.game_id != games[2]:
            if timer.game_id == games[1]:
                both_in.set()
            await release.wait()
        finished.append(timer.id)

    scheduler = Scheduler(store, slow, now=clock, sleep=sleep, max_sleep=MAX_SLEEP)
    scheduler.start()
    await asyncio.wait_for(both_in.wait(), 5)
    stopping = asyncio.ensure_future(scheduler.stop())
    release.set()
    await asyncio.wait_for(stopping, 5)
    assert sorted(finished) == sorted(t.id for t in timers)
    for game in games:
        assert await store.pending_timers(game) == []


def test_max_sleep_must_be_positive(tmp_path: Path) -> None:
    """Settings that make no sense are refused."""
    store = SqliteGameStore(tmp_path / "x.db")
    with pytest.raises(ValueError):
        Scheduler(store, Recorder(), now=ManualClock(), max_sleep=0)
    with pytest.raises(ValueError):
        Scheduler(store, Recorder(), now=ManualClock(), lease_seconds=0)
    with pytest.raises(ValueError):
        Scheduler(store, Recorder(), now=ManualClock(), concurrency=0)


# -- a process of a sharded fleet -------------------------------------------------------------

#: A guild on shard 1 of 2 (Discord's formula: (guild_id >> 22) % shard_count); GUILD
#: (a small number) is on shard 0 of any count.
GUILD_ON_SHARD_1 = (1 << 22) | 5


async def test_a_sharded_scheduler_fires_only_its_guilds_timers(
    store: SqlGameStore, clock: ManualClock
) -> None:
    """Holding shard 0 of 2: the due timers of shard 0's guild fire, shard 1's wait for
    their own process (and then fire there, once)."""
    mine = await _game(store)
    theirs = (await store.create_game(GUILD_ON_SHARD_1, 20, make_state())).id
    own = [await store.add_timer(mine, kind, clock()) for kind in ("deadline", "digest")]
    other = await store.add_timer(theirs, "reminder", clock())
    recorder = Recorder()
    shard_0 = Scheduler(store, recorder, now=clock, max_sleep=MAX_SLEEP, shards=(2, frozenset({0})))
    assert await shard_0.run_due() == 2
    assert sorted(recorder.ids) == sorted(t.id for t in own)
    assert [t.id for t in await store.pending_timers(theirs)] == [other.id]
    shard_1 = Scheduler(store, recorder, now=clock, max_sleep=MAX_SLEEP, shards=(2, frozenset({1})))
    assert await shard_1.run_due() == 1
    assert await shard_0.run_due() == 0 and await shard_1.run_due() == 0
    assert sorted(recorder.ids) == sorted([other.id, *(t.id for t in own)])


async def test_a_sharded_scheduler_sleeps_until_its_own_next_timer(
    store: SqlGameStore, recorder: Recorder, clock: ManualClock, sleep: ManualSleep
) -> None:
    """Another shard's earlier timer does not wake this process's loop."""
    mine = await _game(store)
    theirs = (await store.create_game(GUILD_ON_SHARD_1, 20, make_state())).id
    await store.add_timer(theirs, "deadline", _in(clock, 10))
    timer = await store.add_timer(mine, "deadline", _in(clock, 60))
    scheduler = Scheduler(
        store, recorder, now=clock, sleep=sleep, max_sleep=MAX_SLEEP, shards=(2, frozenset({0}))
    )
    scheduler.start()
    try:
        assert await sleep.asleep() == 60
        sleep.elapse()
        await eventually(lambda: recorder.ids == [timer.id])
        assert await sleep.asleep() == MAX_SLEEP  # nothing of its own is left
    finally:
        await scheduler.stop()
    assert len(await store.pending_timers(theirs)) == 1
