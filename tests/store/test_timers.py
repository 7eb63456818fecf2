"""Durable timers in the store: scheduling, replacing by key, due order, leases, shards.

Every test runs on both drivers (``store_factory``), except the ones about SQLite's own
checks on the text form of times.
"""

from __future__ import annotations

import asyncio
import sqlite3
from collections.abc import AsyncIterator
from datetime import UTC, datetime, timedelta, timezone
from pathlib import Path

import asyncpg
import pytest

from bot.store import GameNotFound, GameNotRunning, GameStore, SqliteGameStore, Timer
from bot.store.base import DEFAULT_LEASE
from bot.store.sql import SqlGameStore
from tests.store.backends import PostgresBackend, StoreFactory
from tests.store.conftest import GUILD, ManualClock, make_state


@pytest.fixture
def manual() -> ManualClock:
    """A clock that moves only when the test says so."""
    return ManualClock()


@pytest.fixture
async def tstore(store_factory: StoreFactory, manual: ManualClock) -> AsyncIterator[SqlGameStore]:
    """An open store on this test's fresh database, on the manual clock."""
    async with store_factory(now=manual) as store:
        yield store


async def _game(store: GameStore, channel: int = 10, guild: int = GUILD) -> int:
    return (await store.create_game(guild, channel, make_state())).id


def _in(clock: ManualClock, seconds: float) -> datetime:
    return clock() + timedelta(seconds=seconds)


async def test_add_timer_returns_and_keeps_it(tstore: SqlGameStore, manual: ManualClock) -> None:
    """A timer comes back as given (times in UTC, its own payload copy) and is pending."""
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


async def test_add_timer_refuses_bad_input(tstore: SqlGameStore, manual: ManualClock) -> None:
    """Naive times, payloads that are not JSON and unknown games are refused; nothing is added."""
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


async def test_a_lobby_may_have_timers(tstore: SqlGameStore, manual: ManualClock) -> None:
    """A lobby (an open game without a state) may have timers."""
    lobby = await tstore.create_game(GUILD, 10, None)
    timer = await tstore.add_timer(lobby.id, "lobby_expires", _in(manual, 600))
    assert await tstore.pending_timers(lobby.id) == [timer]


async def test_same_key_replaces_the_pending_timer(
    tstore: SqlGameStore, manual: ManualClock
) -> None:
    """Scheduling a key again replaces the game's pending timer of that key; keyless timers never
    replace."""
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
    tstore: SqlGameStore, manual: ManualClock
) -> None:
    """A handler that schedules its own key again replaces the leased timer, which it then completes
    harmlessly."""
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


async def test_cancel_timers(tstore: SqlGameStore, manual: ManualClock) -> None:
    """cancel_timers cancels the game's pending timers (by kind and key if given) and
    counts them."""
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


async def test_next_due_and_due_order(tstore: SqlGameStore, manual: ManualClock) -> None:
    """due_timers lists due timers earliest first (ties: oldest); next_due_at names the earliest."""
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
    tstore: SqlGameStore, manual: ManualClock
) -> None:
    """While its lease lasts a timer is pending but not due; then it is due again."""
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


async def test_claim_refuses_bad_input(tstore: SqlGameStore, manual: ManualClock) -> None:
    """A lease of no length and naive times are refused; no attempt is counted."""
    game = await _game(tstore)
    timer = await tstore.add_timer(game, "t", manual())
    with pytest.raises(ValueError):
        await tstore.claim_timer(timer.id, lease_seconds=0)
    with pytest.raises(ValueError, match="timezone-aware"):
        await tstore.claim_timer(timer.id, now=datetime(2026, 5, 1, 12, 0))  # noqa: DTZ001
    with pytest.raises(ValueError, match="timezone-aware"):
        await tstore.retry_timer(timer.id, datetime(2026, 5, 1, 12, 0))  # noqa: DTZ001
    assert [t.attempts for t in await tstore.pending_timers(game)] == [0]


async def test_claim_with_the_callers_clock(tstore: SqlGameStore, manual: ManualClock) -> None:
    """claim_timer takes the caller's clock for the lease."""
    game = await _game(tstore)
    timer = await tstore.add_timer(game, "t", manual())
    later = _in(manual, 50)
    assert await tstore.claim_timer(timer.id, now=later, lease_seconds=30)
    [leased] = await tstore.pending_timers(game)
    assert leased.leased_until == later + timedelta(seconds=30)
    assert not await tstore.claim_timer(timer.id, now=_in(manual, 79))
    assert await tstore.claim_timer(timer.id, now=_in(manual, 80))


async def test_a_failed_timer_waits_for_its_back_off(
    tstore: SqlGameStore, manual: ManualClock
) -> None:
    """retry_timer keeps a timer pending until its back-off ends."""
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


async def test_a_lease_can_be_renewed(tstore: SqlGameStore, manual: ManualClock) -> None:
    """A pending timer's lease can be renewed; a completed one's not."""
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
    tstore: SqlGameStore, manual: ManualClock
) -> None:
    """Of ten claims at once exactly one gets the lease, again after it ran out."""
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
    store_factory: StoreFactory, manual: ManualClock
) -> None:
    """Two stores on one database claim the same due timers: each timer goes to exactly
    one of them; once the leases ran out, again exactly one each."""
    # Two stores on one database are two connections (pools), as two bot processes have.
    async with (
        store_factory(now=manual) as first,
        store_factory(now=manual) as second,
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
    tstore: SqlGameStore, manual: ManualClock
) -> None:
    """Finishing a game cancels its pending timers; none can be added afterwards."""
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
    tstore: SqlGameStore, manual: ManualClock
) -> None:
    """Setting a game aside cancels its timers; rebuilding it does not bring them back."""
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
    """SQLite: the triggers and checks hold for any writer (plain sqlite3 here)."""
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


async def test_timers_survive_a_restart(store_factory: StoreFactory, manual: ManualClock) -> None:
    """A timer outlives its process; one leased by a process that died waits for its lease."""
    async with store_factory(now=manual) as store:
        game = await _game(store)
        timer = await store.add_timer(game, "turn_deadline", _in(manual, 60), {"seq": 3}, key="t")
    manual.advance(3600)  # the bot was down for an hour
    async with store_factory(now=manual) as store:
        assert await store.due_timers(manual()) == [timer]
        assert await store.claim_timer(timer.id)
    # The process died holding the lease: the timer is not lost, it waits for the end.
    async with store_factory(now=manual) as store:
        assert await store.due_timers(manual()) == []
        assert await store.next_due_at() == _in(manual, DEFAULT_LEASE)
        manual.advance(DEFAULT_LEASE)
        assert [t.id for t in await store.due_timers(manual())] == [timer.id]
        assert await store.claim_timer(timer.id)
        assert await store.complete_timer(timer.id)
    async with store_factory(now=manual) as store:
        assert await store.due_timers(manual() + timedelta(days=1)) == []
        assert await store.next_due_at() is None


async def test_the_database_keeps_timers_to_open_games_postgres(
    pg_backend: PostgresBackend, manual: ManualClock
) -> None:
    """PostgreSQL: the PL/pgSQL triggers of migration 0003 hold for any writer (raw SQL):
    a game that ends cancels its pending timers in the same statement, and no pending
    timer can be added to a game that is not open (or does not exist)."""
    async with pg_backend.store(now=manual) as store:
        game = await _game(store)
        other = await _game(store, 11)
        await store.add_timer(game, "t", manual())
        kept = await store.add_timer(other, "t", manual())
    await pg_backend.execute("UPDATE games SET status = 'finished' WHERE id = ?", game)
    pending = await pg_backend.fetch("SELECT id FROM timers WHERE cancelled_at IS NULL")
    assert pending == [(kept.id,)]
    await pg_backend.execute("UPDATE games SET status = 'broken' WHERE id = ?", other)
    assert await pg_backend.fetch("SELECT id FROM timers WHERE cancelled_at IS NULL") == []
    insert = (
        "INSERT INTO timers (game_id, kind, due_at, payload_json, created_at)"
        " VALUES (?, 't', now(), ?, now())"
    )
    for game_id, payload in ((game, "{}"), (game + 100, "{}")):
        with pytest.raises(asyncpg.PostgresError, match="only for lobbies and running games"):
            await pg_backend.execute(insert, game_id, payload)
    await pg_backend.execute(
        "INSERT INTO games (guild_id, channel_id, status, created_at, updated_at)"
        " VALUES (1, 2, 'lobby', now(), now())"
    )
    [(lobby,)] = await pg_backend.fetch("SELECT max(id) FROM games")
    for payload in ("[]", "{oops", "1"):
        with pytest.raises(asyncpg.PostgresError):
            await pg_backend.execute(insert, lobby, payload)
    await pg_backend.execute(insert, lobby, "{}")
    [(timer,)] = await pg_backend.fetch("SELECT max(id) FROM timers")
    with pytest.raises(asyncpg.CheckViolationError):
        await pg_backend.execute("UPDATE timers SET attempts = -1 WHERE id = ?", timer)
    # A fired or cancelled timer is history: it may name any game.
    await pg_backend.execute(
        "INSERT INTO timers (game_id, kind, due_at, created_at, fired_at)"
        " VALUES (?, 't', now(), now(), now())",
        game,
    )


async def test_a_game_ending_while_a_timer_is_added_keeps_no_pending_timer(
    pg_backend: PostgresBackend, manual: ManualClock
) -> None:
    """PostgreSQL runs writers side by side: a game that ends while another process adds
    its timers is left with no pending timer, whichever commits first (the insert locks
    the game's row, so the ending waits for it and cancels it, or the insert fails)."""
    async with (
        pg_backend.store(now=manual) as first,
        pg_backend.store(now=manual) as second,
    ):
        for round_ in range(20):
            game = await _game(first, 100 + round_)
            outcomes = await asyncio.gather(
                *(second.add_timer(game, "t", manual(), key=f"k{n}") for n in range(3)),
                first.finish(game, "ended"),
                return_exceptions=True,
            )
            assert all(o is None or isinstance(o, Timer | GameNotRunning) for o in outcomes[:3])
            assert not isinstance(outcomes[3], BaseException)
            assert await first.pending_timers(game) == []


async def test_adding_one_key_from_two_processes_keeps_one_pending(
    store_factory: StoreFactory, manual: ManualClock
) -> None:
    """Two processes scheduling the same key of a game at once: one replaces the other,
    neither fails, and exactly one timer of that key is pending."""
    async with store_factory(now=manual) as first, store_factory(now=manual) as second:
        game = await _game(first)
        timers = await asyncio.gather(
            *(
                store.add_timer(game, "deadline", _in(manual, n), {"n": n}, key="turn")
                for n in range(10)
                for store in (first, second)
            )
        )
        pending = await first.pending_timers(game)
        assert len(pending) == 1 and pending[0].id in {t.id for t in timers}


async def test_due_timers_by_shard(tstore: SqlGameStore, manual: ManualClock) -> None:
    """With ``shards`` a process lists only the timers of its guilds, by Discord's formula
    ``(guild_id >> 22) % shard_count``; next_due_at too."""
    # Guild snowflakes whose shard of 3 is known: shard = (guild >> 22) % 3.
    guilds = {shard: (1_000 * 3 + shard) << 22 for shard in range(3)}
    assert all((g >> 22) % 3 == shard for shard, g in guilds.items())
    games = {shard: await _game(tstore, 10 + shard, guild) for shard, guild in guilds.items()}
    timers = {
        shard: await tstore.add_timer(game, "t", _in(manual, -shard - 1))
        for shard, game in games.items()
    }
    late = await tstore.add_timer(games[1], "t", _in(manual, 100))
    now = manual()

    async def due(*shards: int) -> list[int]:
        found = await tstore.due_timers(now, shards=(3, frozenset(shards)))
        return [t.id for t in found]

    assert await due(0) == [timers[0].id]
    assert await due(1, 2) == [timers[2].id, timers[1].id]  # earliest due first
    assert await due(0, 1, 2) == [t.id for t in await tstore.due_timers(now)]
    assert await due() == []
    assert await tstore.next_due_at(shards=(3, frozenset({1}))) == timers[1].due_at
    assert await tstore.next_due_at(shards=(3, frozenset())) is None
    assert await tstore.next_due_at(shards=(1, frozenset({0}))) == timers[2].due_at
    for shard in (0, 1, 2):
        assert await tstore.claim_timer(timers[shard].id)
        assert await tstore.complete_timer(timers[shard].id)
    assert await tstore.next_due_at(shards=(3, frozenset({1}))) == late.due_at
    assert await tstore.next_due_at(shards=(3, frozenset({0, 2}))) is None
    for bad in ((0, frozenset()), (3, frozenset({3})), (3, frozenset({-1})), (3, "0"), (3,)):
        with pytest.raises(ValueError):
            await tstore.due_timers(now, shards=bad)  # type: ignore[arg-type]
        with pytest.raises(ValueError):
            await tstore.next_due_at(shards=bad)  # type: ignore[arg-type]


async def test_a_lease_that_runs_out_is_taken_over_by_the_other_process(
    store_factory: StoreFactory, manual: ManualClock
) -> None:
    """Process A takes a timer and dies; B cannot take it while the lease lasts, and takes
    it over once the lease has run out (A, were it alive, then could not complete it
    twice)."""
    async with store_factory(now=manual) as first, store_factory(now=manual) as second:
        game = await _game(first)
        timer = await first.add_timer(game, "t", manual())
        assert await first.claim_timer(timer.id, lease_seconds=30)
        assert await second.due_timers(manual()) == []
        assert not await second.claim_timer(timer.id)
        manual.advance(29)
        assert not await second.claim_timer(timer.id)
        manual.advance(1)
        assert [t.id for t in await second.due_timers(manual())] == [timer.id]
        assert await second.claim_timer(timer.id)
        assert not await first.claim_timer(timer.id)
        [taken] = await second.pending_timers(game)
        assert taken.attempts == 2
        assert await second.complete_timer(timer.id)
        assert not await first.complete_timer(timer.id)  # fired once
        assert await first.pending_timers(game) == []
