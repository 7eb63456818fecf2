"""The durable scheduler on a real SQLite file, with a clock and a sleep the test moves."""

from __future__ import annotations

import asyncio
import logging
from collections.abc import AsyncIterator, Callable
from datetime import datetime, timedelta
from pathlib import Path

import pytest

from bot import scheduler as scheduler_module
from bot.scheduler import Scheduler
from bot.store import SqliteGameStore, Timer
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
async def store(db_path: Path, clock: ManualClock) -> AsyncIterator[SqliteGameStore]:
    """An open store on a fresh file."""
    async with SqliteGameStore(db_path, now=clock) as store:
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
    store: SqliteGameStore, recorder: Recorder, clock: ManualClock, sleep: ManualSleep
) -> AsyncIterator[Scheduler]:
    """A scheduler (not started) that is stopped after the test."""
    scheduler = Scheduler(store, recorder, now=clock, sleep=sleep, max_sleep=MAX_SLEEP)
    try:
        yield scheduler
    finally:
        await scheduler.stop()


async def _game(store: SqliteGameStore, channel: int = 10) -> int:
    return (await store.create_game(GUILD, channel, make_state())).id


def _in(clock: ManualClock, seconds: float) -> datetime:
    return clock() + timedelta(seconds=seconds)


async def test_sleeps_until_the_next_timer_then_fires_it(
    store: SqliteGameStore,
    scheduler: Scheduler,
    recorder: Recorder,
    clock: ManualClock,
    sleep: ManualSleep,
) -> None:
    game = await _game(store)
    first = await store.add_timer(game, "reminder", _in(clock, 60), {"seat": 2})
    second = await store.add_timer(game, "turn_deadline", _in(clock, 90), key="turn:1")
    far = await store.add_timer(game, "game_end", _in(clock, 3600))
    scheduler.start()
    assert await sleep.asleep() == 60.0
    assert recorder.fired == []
    sleep.elapse()
    assert await sleep.asleep() == 30.0
    assert recorder.fired == [first]
    sleep.elapse()
    assert await sleep.asleep() == MAX_SLEEP  # the next one is an hour away
    assert recorder.ids == [first.id, second.id]
    await store.cancel_timers(game, kind="game_end")
    sleep.elapse()
    assert await sleep.asleep() == MAX_SLEEP  # nothing pending at all
    assert recorder.ids == [first.id, second.id]
    assert far.id not in recorder.ids


async def test_overdue_timers_fire_once_after_downtime(db_path: Path, clock: ManualClock) -> None:
    async with SqliteGameStore(db_path, now=clock) as store:
        game = await _game(store)
        reminder = await store.add_timer(game, "reminder", _in(clock, 10))
        deadline = await store.add_timer(game, "turn_deadline", _in(clock, 20), key="turn:5")
        later = await store.add_timer(game, "game_end", _in(clock, 2 * 3600))
    clock.advance(3600)  # the bot was down for an hour; two timers came due meanwhile

    for _restart in range(2):
        recorder, sleep = Recorder(), ManualSleep(clock)
        async with SqliteGameStore(db_path, now=clock) as store:
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
    store: SqliteGameStore,
    scheduler: Scheduler,
    recorder: Recorder,
    clock: ManualClock,
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    monkeypatch.setattr(scheduler_module, "BATCH", 3)  # several rounds of fetching
    game = await _game(store)
    timers = [await store.add_timer(game, "t", _in(clock, -s)) for s in range(8)]
    future = await store.add_timer(game, "t", _in(clock, 1))
    assert await scheduler.run_due() == 8
    assert recorder.ids == [t.id for t in reversed(timers)]
    assert await scheduler.run_due() == 0
    assert await store.pending_timers(game) == [future]


async def test_wake_fires_an_earlier_timer_without_waiting(
    store: SqliteGameStore,
    scheduler: Scheduler,
    recorder: Recorder,
    clock: ManualClock,
    sleep: ManualSleep,
) -> None:
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
    assert recorder.fired == [reminder]


async def test_a_timer_already_due_on_wake_fires_at_once(
    store: SqliteGameStore,
    scheduler: Scheduler,
    recorder: Recorder,
    clock: ManualClock,
    sleep: ManualSleep,
) -> None:
    scheduler.start()
    assert await sleep.asleep() == MAX_SLEEP
    game = await _game(store)
    now = await store.add_timer(game, "auction_close", clock())
    scheduler.wake()
    assert await sleep.asleep() == MAX_SLEEP
    assert recorder.fired == [now]


async def test_a_failing_handler_is_logged_and_the_loop_goes_on(
    store: SqliteGameStore,
    clock: ManualClock,
    sleep: ManualSleep,
    caplog: pytest.LogCaptureFixture,
) -> None:
    recorder = Recorder(fail={"boom": RuntimeError("handler bug"), "cut": asyncio.CancelledError()})
    scheduler = Scheduler(store, recorder, now=clock, sleep=sleep, max_sleep=MAX_SLEEP)
    game = await _game(store)
    boom = await store.add_timer(game, "boom", _in(clock, 1), {"seq": 7})
    cut = await store.add_timer(game, "cut", _in(clock, 2))
    fine = await store.add_timer(game, "reminder", _in(clock, 3))
    clock.advance(5)
    with caplog.at_level(logging.ERROR, logger="bot.scheduler"):
        scheduler.start()
        try:
            assert await sleep.asleep() == MAX_SLEEP
            assert recorder.ids == [boom.id, cut.id, fine.id]
            later = await store.add_timer(game, "reminder", _in(clock, 30))
            scheduler.wake()
            assert await sleep.asleep() == 30.0
            sleep.elapse()
            assert await sleep.asleep() == MAX_SLEEP
        finally:
            await scheduler.stop()
    # The failed timers were not fired again; the loop kept firing the others.
    assert recorder.ids == [boom.id, cut.id, fine.id, later.id]
    failures = [r for r in caplog.records if r.name == "bot.scheduler"]
    assert len(failures) == 2
    assert f"Timer {boom.id} (boom of game {game}" in failures[0].getMessage()
    assert "'seq': 7" in failures[0].getMessage()
    assert failures[0].exc_info is not None and "handler bug" in caplog.text
    assert f"Timer {cut.id} (cut of game {game}" in failures[1].getMessage()
    assert await store.pending_timers(game) == []


async def test_a_failing_store_is_retried(
    store: SqliteGameStore,
    scheduler: Scheduler,
    recorder: Recorder,
    clock: ManualClock,
    sleep: ManualSleep,
    monkeypatch: pytest.MonkeyPatch,
    caplog: pytest.LogCaptureFixture,
) -> None:
    game = await _game(store)
    timer = await store.add_timer(game, "reminder", clock())
    real = store.due_timers
    calls = []

    async def flaky(now: datetime, limit: int = 100) -> list[Timer]:
        calls.append(now)
        if len(calls) == 1:
            raise OSError("disk trouble")
        return await real(now, limit)

    monkeypatch.setattr(store, "due_timers", flaky)
    with caplog.at_level(logging.ERROR, logger="bot.scheduler"):
        scheduler.start()
        assert await sleep.asleep() == scheduler_module.RETRY_DELAY
    assert "trying again" in caplog.text and "disk trouble" in caplog.text
    assert recorder.fired == []
    sleep.elapse()
    assert await sleep.asleep() == MAX_SLEEP
    assert recorder.fired == [timer]


async def test_timers_of_ended_games_never_fire(
    store: SqliteGameStore,
    scheduler: Scheduler,
    recorder: Recorder,
    clock: ManualClock,
    sleep: ManualSleep,
) -> None:
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
    db_path: Path, clock: ManualClock
) -> None:
    async with (
        SqliteGameStore(db_path, now=clock) as first,
        SqliteGameStore(db_path, now=clock) as second,
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


async def test_a_claim_without_its_handler_is_not_repeated(
    db_path: Path, clock: ManualClock
) -> None:
    # At most once: a bot that dies between claiming a timer and handling it loses
    # that firing rather than risking a second default action after the restart.
    async with SqliteGameStore(db_path, now=clock) as store:
        game = await _game(store)
        lost = await store.add_timer(game, "turn_deadline", clock())
        kept = await store.add_timer(game, "reminder", clock())
        assert await store.claim_timer(lost.id)
    recorder = Recorder()
    async with SqliteGameStore(db_path, now=clock) as store:
        assert await Scheduler(store, recorder, now=clock).run_due() == 1
    assert recorder.fired == [kept]


async def test_stop_while_sleeping_is_prompt(store: SqliteGameStore, clock: ManualClock) -> None:
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
    store: SqliteGameStore, clock: ManualClock, sleep: ManualSleep
) -> None:
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
    assert not stopping.done()  # waits for the handler (its timer is claimed)
    release.set()
    await asyncio.wait_for(stopping, 5)
    assert finished == [first.id]
    assert await store.pending_timers(game) == [second]  # not claimed; fires next start


async def test_stop_cancels_a_handler_that_outstays_its_grace(
    store: SqliteGameStore, clock: ManualClock, sleep: ManualSleep
) -> None:
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


def test_max_sleep_must_be_positive(tmp_path: Path) -> None:
    with pytest.raises(ValueError):
        Scheduler(SqliteGameStore(tmp_path / "x.db"), Recorder(), now=ManualClock(), max_sleep=0)
