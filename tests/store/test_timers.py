"""Durable timers in the store: scheduling, replacing by key, due order, leases."""

from __future__ import annotations

import asyncio
import sqlite3
from collections.abc import AsyncIterator
from datetime import UTC, datetime, timedelta, timezone
from pathlib import Path

import pytest

from bot.store import GameNotFound, GameNotRunning, SqliteGameStore, Timer
from bot.store.base import DEFAULT_LEASE
from tests.store.conftest import GUILD, ManualClock, make_state


@pytest.fixture
def manual() -> ManualClock:
    """A clock that moves only when the test says so."""
    return ManualClock()


@pytest.fixture
async def tstore(db_path: Path, manual: ManualClock) -> AsyncIterator[SqliteGameStore]:
    """An open store on a fresh file, on the manual clock."""
    async with SqliteGameStore(db_path, now=manual) as store:
        yield store


async def _game(store: SqliteGameStore, channel: int = 10) -> int:
    return (await store.create_game(GUILD, channel, make_state())).id


def _in(clock: ManualClock, seconds: float) -> datetime:
    return clock() + timedelta(seconds=seconds)


async def test_add_timer_returns_and_keeps_it(tstore: SqliteGameStore, manual: ManualClock) -> None:
    game = await _game(tstore)
    payload = {"seq": 4, "seat": 1}
    berlin = timezone(timedelta(hours=2))
    due = datetime(2026, 5, 1, 14, 30, tzinfo=berlin)  # 12:30 UTC
    timer = await tstore.add_timer(game, "turn_deadline", due, payload, key="turn:4")
    payload["seq"] = 99  # the stored payload is a copy
    assert isinstance(timer, Timer)
    assert timer.game_id == game and timer.kind == "turn_deadline" and timer.key == "turn:4"
    assert timer.due_at == due and timer.due_at.tzinfo == UTC
    assert timer.payload == {"seq": 4, "seat": 1}
    assert timer.created_at == manual()
    assert timer.attempts == 0 and timer.leased_until is None
    assert await tstore.pending_timers(game) == [timer]
    plain = await tstore.add_timer(game, "reminder", _in(manual, 5))
    assert plain.payload == {} and plain.key is None


async def test_add_timer_refuses_bad_input(tstore: SqliteGameStore, manual: ManualClock) -> None:
    game = await _game(tstore)
    with pytest.raises(ValueError, match="timezone-aware"):
        await tstore.add_timer(game, "x", datetime(2026, 5, 1, 12, 0))  # noqa: DTZ001
    with pytest.raises(TypeError):
        await tstore.add_timer(game, "x", manual(), {"bad": object()})
    with pytest.raises(GameNotFound):
        await tstore.add_timer(game + 100, "x", manual())
    with pytest.raises(ValueError):
        await tstore.due_timers(datetime(2026, 5, 1, 12, 0))  # noqa: DTZ001
    assert await tstore.pending_timers(game) == []


async def test_a_lobby_may_have_timers(tstore: SqliteGameStore, manual: ManualClock) -> None:
    lobby = await tstore.create_game(GUILD, 10, None)
    timer = await tstore.add_timer(lobby.id, "lobby_expires", _in(manual, 600))
    assert await tstore.pending_timers(lobby.id) == [timer]


async def test_same_key_replaces_the_pending_timer(
    tstore: SqliteGameStore, manual: ManualClock
) -> None:
    game, other = await _game(tstore, 10), await _game(tstore, 11)
    first = await tstore.add_timer(game, "turn_deadline", _in(manual, 60), key="turn:1")
    again = await tstore.add_timer(game, "turn_deadline", _in(manual, 90), key="turn:1")
    elsewhere = await tstore.add_timer(other, "turn_deadline", _in(manual, 60), key="turn:1")
    unkeyed = [await tstore.add_timer(game, "reminder", _in(manual, 30)) for _ in range(2)]
    assert await tstore.pending_timers(game) == [*unkeyed, again]  # keyless never replace
    assert await tstore.pending_timers(other) == [elsewhere]  # keys are per game
    assert first.id not in {t.id for t in await tstore.due_timers(_in(manual, 3600))}
    # A fired key can be scheduled again.
    manual.advance(100)
    assert await tstore.claim_timer(again.id)
    assert await tstore.complete_timer(again.id)
    later = await tstore.add_timer(game, "turn_deadline", _in(manual, 60), key="turn:1")
    assert await tstore.pending_timers(game) == [*unkeyed, later]


async def test_scheduling_a_leased_key_again_replaces_it(
    tstore: SqliteGameStore, manual: ManualClock
) -> None:
    # A deadline's handler schedules the next deadline under the same key while it
    # holds the lease on the old one: the old one is cancelled, the new one pending.
    game = await _game(tstore)
    old = await tstore.add_timer(game, "deadline", manual(), {"seq": 1}, key="deadline")
    assert await tstore.claim_timer(old.id)
    new = await tstore.add_timer(game, "deadline", _in(manual, 60), {"seq": 2}, key="deadline")
    assert await tstore.pending_timers(game) == [new]
    # The handler then completes its timer: harmless, it stays out of the way.
    assert await tstore.complete_timer(old.id)
    assert not await tstore.claim_timer(old.id, now=_in(manual, 3600))
    assert await tstore.pending_timers(game) == [new]
    assert await tstore.next_due_at() == new.due_at


async def test_cancel_timers(tstore: SqliteGameStore, manual: ManualClock) -> None:
    game, other = await _game(tstore, 10), await _game(tstore, 11)
    a = await tstore.add_timer(game, "reminder", _in(manual, 10), key="r:1")
    b = await tstore.add_timer(game, "reminder", _in(manual, 20), key="r:2")
    c = await tstore.add_timer(game, "auction_close", _in(manual, 30), key="auction")
    d = await tstore.add_timer(game, "trade_close", _in(manual, 40))
    e = await tstore.add_timer(other, "reminder", _in(manual, 10))
    assert await tstore.cancel_timers(game, key="r:1") == 1
    assert await tstore.cancel_timers(game, key="r:1") == 0  # only pending ones count
    assert [t.id for t in await tstore.pending_timers(game)] == [b.id, c.id, d.id]
    assert await tstore.cancel_timers(game, kind="reminder") == 1
    assert await tstore.cancel_timers(game, kind="auction_close", key="other") == 0
    assert await tstore.cancel_timers(game) == 2
    assert await tstore.pending_timers(game) == []
    assert await tstore.pending_timers(other) == [e]
    assert not await tstore.claim_timer(a.id)  # a cancelled timer never fires
    # Leased timers are pending too, so cancelling takes them as well.
    assert await tstore.claim_timer(e.id)
    assert await tstore.cancel_timers(other) == 1
    assert await tstore.pending_timers(other) == []
    assert await tstore.cancel_timers(game + 100) == 0


async def test_next_due_and_due_order(tstore: SqliteGameStore, manual: ManualClock) -> None:
    assert await tstore.next_due_at() is None
    game, other = await _game(tstore, 10), await _game(tstore, 11)
    start = manual()
    late = await tstore.add_timer(game, "t", start + timedelta(seconds=30))
    tie_1 = await tstore.add_timer(other, "t", start + timedelta(seconds=10))
    # Sub-second due times sort correctly against whole seconds.
    frac = await tstore.add_timer(game, "t", start + timedelta(seconds=9, microseconds=500))
    tie_2 = await tstore.add_timer(game, "t", start + timedelta(seconds=10))
    future = await tstore.add_timer(game, "t", start + timedelta(hours=1))
    assert await tstore.next_due_at() == frac.due_at
    assert await tstore.due_timers(start) == []
    due = await tstore.due_timers(start + timedelta(seconds=30))
    assert [t.id for t in due] == [frac.id, tie_1.id, tie_2.id, late.id]  # ties: oldest first
    assert [t.id for t in await tstore.due_timers(start + timedelta(seconds=30), limit=2)] == [
        frac.id,
        tie_1.id,
    ]
    with pytest.raises(ValueError):
        await tstore.due_timers(start, limit=0)
    for timer in due:
        assert await tstore.claim_timer(timer.id)
        assert await tstore.complete_timer(timer.id)
    assert await tstore.next_due_at() == future.due_at
    assert await tstore.due_timers(start + timedelta(minutes=59)) == []


async def test_a_lease_keeps_a_timer_until_it_runs_out(
    tstore: SqliteGameStore, manual: ManualClock
) -> None:
    game = await _game(tstore)
    timer = await tstore.add_timer(game, "t", manual())
    assert await tstore.claim_timer(timer.id) is True
    assert await tstore.claim_timer(timer.id) is False  # leased
    assert await tstore.claim_timer(timer.id + 100) is False
    lease_end = manual() + timedelta(seconds=DEFAULT_LEASE)
    # Still pending (it has not fired), but not due while the lease lasts.
    [leased] = await tstore.pending_timers(game)
    assert leased.id == timer.id and leased.attempts == 1 and leased.leased_until == lease_end
    assert await tstore.due_timers(manual()) == []
    assert await tstore.next_due_at() == lease_end  # the scheduler wakes for its end
    manual.advance(DEFAULT_LEASE - 1)
    assert await tstore.due_timers(manual()) == []
    assert not await tstore.claim_timer(timer.id)
    # The claimant died: once the lease has run out, the timer is due again.
    manual.advance(1)
    assert [t.id for t in await tstore.due_timers(manual())] == [timer.id]
    assert await tstore.claim_timer(timer.id, lease_seconds=10)
    [leased] = await tstore.pending_timers(game)
    assert leased.attempts == 2 and leased.leased_until == _in(manual, 10)
    # Completed: fired, and never taken again.
    assert await tstore.complete_timer(timer.id) is True
    assert await tstore.complete_timer(timer.id) is False
    manual.advance(3600)
    assert not await tstore.claim_timer(timer.id)
    assert await tstore.pending_timers(game) == []
    assert await tstore.due_timers(manual()) == []
    assert await tstore.next_due_at() is None


async def test_claim_refuses_bad_input(tstore: SqliteGameStore, manual: ManualClock) -> None:
    game = await _game(tstore)
    timer = await tstore.add_timer(game, "t", manual())
    with pytest.raises(ValueError):
        await tstore.claim_timer(timer.id, lease_seconds=0)
    with pytest.raises(ValueError, match="timezone-aware"):
        await tstore.claim_timer(timer.id, now=datetime(2026, 5, 1, 12, 0))  # noqa: DTZ001
    with pytest.raises(ValueError, match="timezone-aware"):
        await tstore.retry_timer(timer.id, datetime(2026, 5, 1, 12, 0))  # noqa: DTZ001
    assert [t.attempts for t in await tstore.pending_timers(game)] == [0]


async def test_claim_with_the_callers_clock(tstore: SqliteGameStore, manual: ManualClock) -> None:
    game = await _game(tstore)
    timer = await tstore.add_timer(game, "t", manual())
    later = _in(manual, 50)
    assert await tstore.claim_timer(timer.id, now=later, lease_seconds=30)
    [leased] = await tstore.pending_timers(game)
    assert leased.leased_until == later + timedelta(seconds=30)
    assert not await tstore.claim_timer(timer.id, now=_in(manual, 79))
    assert await tstore.claim_timer(timer.id, now=_in(manual, 80))


async def test_a_failed_timer_waits_for_its_back_off(
    tstore: SqliteGameStore, manual: ManualClock
) -> None:
    game = await _game(tstore)
    timer = await tstore.add_timer(game, "t", _in(manual, -5), {"seq": 3})
    assert await tstore.claim_timer(timer.id)
    await tstore.retry_timer(timer.id, _in(manual, 30))
    [waiting] = await tstore.pending_timers(game)
    assert waiting.attempts == 1 and waiting.leased_until == _in(manual, 30)
    assert await tstore.due_timers(_in(manual, 29)) == []
    assert await tstore.next_due_at() == _in(manual, 30)
    assert [t.id for t in await tstore.due_timers(_in(manual, 30))] == [timer.id]
    manual.advance(30)
    assert await tstore.claim_timer(timer.id)
    assert [t.attempts for t in await tstore.pending_timers(game)] == [2]
    # Giving back a timer that is no longer pending changes nothing.
    assert await tstore.complete_timer(timer.id)
    await tstore.retry_timer(timer.id, _in(manual, 30))
    assert await tstore.pending_timers(game) == []


async def test_a_lease_can_be_renewed(tstore: SqliteGameStore, manual: ManualClock) -> None:
    game = await _game(tstore)
    timer = await tstore.add_timer(game, "t", manual())
    assert await tstore.claim_timer(timer.id, lease_seconds=10)
    manual.advance(8)
    assert await tstore.renew_lease(timer.id, _in(manual, 10))
    manual.advance(8)  # past the first lease's end, within the renewed one
    assert await tstore.due_timers(manual()) == []
    assert not await tstore.claim_timer(timer.id)
    assert await tstore.next_due_at() == _in(manual, 2)
    assert await tstore.complete_timer(timer.id)
    assert not await tstore.renew_lease(timer.id, _in(manual, 10))  # no longer pending
    assert not await tstore.renew_lease(timer.id + 100, _in(manual, 10))


async def test_concurrent_claims_exactly_one_wins(
    tstore: SqliteGameStore, manual: ManualClock
) -> None:
    game = await _game(tstore)
    timer = await tstore.add_timer(game, "t", manual())
    outcomes = await asyncio.gather(*(tstore.claim_timer(timer.id) for _ in range(10)))
    assert outcomes.count(True) == 1
    # Again once the lease has run out: still exactly one.
    manual.advance(DEFAULT_LEASE)
    outcomes = await asyncio.gather(*(tstore.claim_timer(timer.id) for _ in range(10)))
    assert outcomes.count(True) == 1
    assert [t.attempts for t in await tstore.pending_timers(game)] == [2]


async def test_claims_from_two_processes_exactly_one_wins(
    db_path: Path, manual: ManualClock
) -> None:
    # Two stores on one file are two connections, as two bot processes would have.
    async with (
        SqliteGameStore(db_path, now=manual) as first,
        SqliteGameStore(db_path, now=manual) as second,
    ):
        game = await _game(first)
        timers = [await first.add_timer(game, "t", manual()) for _ in range(20)]
        outcomes = await asyncio.gather(
            *(store.claim_timer(t.id) for t in timers for store in (first, second))
        )
        assert outcomes.count(True) == len(timers)
        assert all(outcomes[2 * i] != outcomes[2 * i + 1] for i in range(len(timers)))
        # The claimants died; their leases ran out; both processes try again.
        manual.advance(DEFAULT_LEASE)
        outcomes = await asyncio.gather(
            *(store.claim_timer(t.id) for t in timers for store in (second, first))
        )
        assert outcomes.count(True) == len(timers)
        assert all(t.attempts == 2 for t in await first.pending_timers(game))


async def test_finishing_a_game_cancels_its_timers(
    tstore: SqliteGameStore, manual: ManualClock
) -> None:
    game, other = await _game(tstore, 10), await _game(tstore, 11)
    due = [await tstore.add_timer(game, "t", _in(manual, s)) for s in (0, 10, 20)]
    kept = await tstore.add_timer(other, "t", _in(manual, 5))
    await tstore.finish(game, "abandoned")
    manual.advance(60)
    assert await tstore.pending_timers(game) == []
    assert await tstore.due_timers(manual()) == [kept]
    assert not any([await tstore.claim_timer(t.id) for t in due])
    with pytest.raises(GameNotRunning):
        await tstore.add_timer(game, "t", manual())


async def test_setting_a_game_aside_cancels_its_timers(
    tstore: SqliteGameStore, manual: ManualClock
) -> None:
    game = await _game(tstore)
    await tstore.add_timer(game, "t", manual())
    await tstore.set_aside(game, "test")
    assert await tstore.pending_timers(game) == []
    assert await tstore.next_due_at() is None
    with pytest.raises(GameNotRunning):
        await tstore.add_timer(game, "t", manual())
    # Repairing the game does not bring old deadlines back; the bot schedules anew.
    await tstore.rebuild_from_log(game)
    assert await tstore.pending_timers(game) == []


async def test_the_database_keeps_timers_to_open_games(db_path: Path, manual: ManualClock) -> None:
    async with SqliteGameStore(db_path, now=manual) as store:
        game = await _game(store)
        await store.add_timer(game, "t", manual())
    # Another writer ending the game by hand (or the rules ending it) also cancels.
    conn = sqlite3.connect(db_path)
    with conn:
        conn.execute("UPDATE games SET status = 'finished' WHERE id = ?", (game,))
    assert conn.execute("SELECT count(*) FROM timers WHERE cancelled_at IS NULL").fetchone() == (0,)
    bad_rows = [
        (game, "2026-05-01T12:00:00+00:00", "{}"),  # a finished game
        (game + 100, "2026-05-01T12:00:00+00:00", "{}"),  # no such game
    ]
    conn.execute(
        "INSERT INTO games (guild_id, channel_id, status, created_at, updated_at)"
        " VALUES (1, 2, 'lobby', 'x', 'x')"
    )
    lobby = conn.execute("SELECT max(id) FROM games").fetchone()[0]
    conn.execute("PRAGMA foreign_keys = ON")
    bad_rows += [
        (lobby, "2026-05-01T12:00:00", "{}"),  # not UTC: text order would be wrong
        (lobby, "2026-05-01 12:00:00+00:00", "{}"),
        (lobby, "2026-05-01T12:00:00+00:00", "[]"),  # not an object
        (lobby, "2026-05-01T12:00:00+00:00", "{oops"),
    ]
    with conn:
        conn.execute(
            "INSERT INTO timers (game_id, kind, due_at, created_at)"
            " VALUES (?, 't', '2026-05-01T12:00:00+00:00', 'x')",
            (lobby,),
        )
    timer = conn.execute("SELECT max(id) FROM timers").fetchone()[0]
    # Lease ends are compared as text with due times, so they must have the same form.
    for bad_lease in ("2026-05-01T12:00:00", "2026-05-01 12:00:00+00:00", "soon"):
        with pytest.raises(sqlite3.IntegrityError), conn:
            conn.execute("UPDATE timers SET leased_until = ? WHERE id = ?", (bad_lease, timer))
    with pytest.raises(sqlite3.IntegrityError), conn:
        conn.execute("UPDATE timers SET attempts = -1 WHERE id = ?", (timer,))
    for game_id, due_at, payload in bad_rows:
        with pytest.raises(sqlite3.Error), conn:
            conn.execute(
                "INSERT INTO timers (game_id, kind, due_at, payload_json, created_at)"
                " VALUES (?, 't', ?, ?, 'x')",
                (game_id, due_at, payload),
            )
    conn.close()


async def test_timers_survive_a_restart(db_path: Path, manual: ManualClock) -> None:
    async with SqliteGameStore(db_path, now=manual) as store:
        game = await _game(store)
        timer = await store.add_timer(game, "turn_deadline", _in(manual, 60), {"seq": 3}, key="t")
    manual.advance(3600)  # the bot was down for an hour
    async with SqliteGameStore(db_path, now=manual) as store:
        assert await store.due_timers(manual()) == [timer]
        assert await store.claim_timer(timer.id)
    # The process died holding the lease: the timer is not lost, it waits for the end.
    async with SqliteGameStore(db_path, now=manual) as store:
        assert await store.due_timers(manual()) == []
        assert await store.next_due_at() == _in(manual, DEFAULT_LEASE)
        manual.advance(DEFAULT_LEASE)
        assert [t.id for t in await store.due_timers(manual())] == [timer.id]
        assert await store.claim_timer(timer.id)
        assert await store.complete_timer(timer.id)
    async with SqliteGameStore(db_path, now=manual) as store:
        assert await store.due_timers(manual() + timedelta(days=1)) == []
        assert await store.next_due_at() is None
