"""SQLite's schema migrations: from an empty file and from every earlier version to the head.

(PostgreSQL's are tested in ``test_postgres.py``.)
"""

from __future__ import annotations

import asyncio
import json
import sqlite3
from datetime import timedelta
from pathlib import Path

import aiosqlite
import pytest

from bot.engine.game import apply_action
from bot.engine.record import dice_of
from bot.store import ChannelBusy, GameNotRunning, GameStatus, SchemaError, SqliteGameStore
from bot.store import migrate as migrate_module
from bot.store.bench import next_simple_action
from bot.store.drivers.sqlite import migrate
from bot.store.migrate import Migration, head_version, load_migrations
from tests.store.conftest import GUILD, FakeClock, advance, make_state


def _tables(path: Path) -> dict[str, str]:
    conn = sqlite3.connect(path)
    found = dict(conn.execute("SELECT name, type FROM sqlite_master WHERE name NOT LIKE 'sqlite%'"))
    conn.close()
    return found


def _versions(path: Path) -> list[int]:
    conn = sqlite3.connect(path)
    found = [r[0] for r in conn.execute("SELECT version FROM schema_version ORDER BY version")]
    conn.close()
    return found


def test_migrations_ship_with_the_package() -> None:
    """The migration files are found, numbered 1, 2, 3, ... and not empty."""
    migrations = load_migrations()
    assert [m.version for m in migrations] == list(range(1, head_version() + 1))
    assert head_version() >= 2
    assert all(m.statements() for m in migrations)


def test_statements_keep_triggers_and_strings_whole() -> None:
    """Splitting a file keeps triggers and quoted ';' whole, and refuses unterminated SQL."""
    migration = Migration(
        9,
        "x",
        "-- a comment; with a semicolon\n"
        "CREATE TABLE t (a TEXT DEFAULT 'x;y');\n"
        "CREATE TRIGGER g BEFORE DELETE ON t\nBEGIN\n    SELECT RAISE(ABORT, 'no;');\nEND;\n"
        "-- trailing comment\n",
    )
    statements = migration.statements()
    assert len(statements) == 2
    assert statements[1].startswith("CREATE TRIGGER") and statements[1].endswith("END;")
    with pytest.raises(SchemaError):
        Migration(9, "x", "CREATE TABLE t (a)").statements()


async def test_from_an_empty_database(db_path: Path, clock: FakeClock) -> None:
    """An empty file is migrated to the head; opening again applies nothing."""
    async with SqliteGameStore(db_path, now=clock) as store:
        await store.create_game(GUILD, 10, make_state())
    assert _versions(db_path) == list(range(1, head_version() + 1))
    tables = _tables(db_path)
    for name in (
        "games",
        "actions",
        "schema_version",
        "games_open_channel",
        "timers",
        "timers_pending",
        "timers_pending_key",
        "games_end_cancels_timers",
        "bot_meta",  # 0007
    ):
        assert name in tables
    conn = sqlite3.connect(db_path)
    columns = {row[1] for row in conn.execute("PRAGMA table_info(timers)")}
    game_columns = {row[1] for row in conn.execute("PRAGMA table_info(games)")}
    conn.close()
    assert {"leased_until", "attempts"} <= columns  # 0006
    assert "settings_version" in game_columns  # 0008
    # Opening again applies nothing.
    async with SqliteGameStore(db_path, now=clock):
        pass
    assert _versions(db_path) == list(range(1, head_version() + 1))


async def _database_at(path: Path, version: int, clock: FakeClock) -> None:
    path.parent.mkdir(parents=True, exist_ok=True)
    async with aiosqlite.connect(path, isolation_level=None) as conn:
        await migrate(conn, now=clock, target=version)


def _insert_v1_games(path: Path) -> dict[int, str]:
    """Games written as code at schema 1 would have written them; their final states."""
    conn = sqlite3.connect(path)
    finals = {}
    at = "2026-01-01T00:00:00+00:00"
    with conn:
        for n, status in enumerate(("running", "finished", "lobby")):
            state = make_state(20 + n)
            start = state.to_json()
            log = []
            if status != "lobby":
                for _ in range(12):
                    action = next_simple_action(state)
                    assert action is not None
                    log.append((state.seq + 1, action, apply_action(state, action)))
            cursor = conn.execute(
                "INSERT INTO games (guild_id, channel_id, created_by, status, created_at,"
                " updated_at, seq, state_json, start_json, settings_json, finished_reason)"
                " VALUES (?, ?, 5, ?, ?, ?, ?, ?, ?, '{\"n\": 1}', ?)",
                (
                    GUILD,
                    30 + n,
                    status,
                    at,
                    at,
                    state.seq if status != "lobby" else 0,
                    state.to_json() if status != "lobby" else None,
                    start if status != "lobby" else None,
                    "abandoned" if status == "finished" else None,
                ),
            )
            game_id = cursor.lastrowid
            assert game_id is not None
            conn.executemany(
                "INSERT INTO actions VALUES (?, ?, ?, ?, ?, ?)",
                [
                    (
                        game_id,
                        seq,
                        json.dumps(action),
                        json.dumps(dice_of(events)),
                        json.dumps(events),
                        at,
                    )
                    for seq, action, events in log
                ],
            )
            finals[game_id] = state.to_json()
    conn.close()
    return finals


@pytest.mark.parametrize("version", range(0, head_version()))
async def test_from_every_earlier_version(db_path: Path, clock: FakeClock, version: int) -> None:
    """A file left at any earlier version is migrated to the head with its data usable."""
    await _database_at(db_path, version, clock)
    assert _versions(db_path) == list(range(1, version + 1))
    finals = _insert_v1_games(db_path) if version >= 1 else {}

    async with SqliteGameStore(db_path, now=clock) as store:
        assert _versions(db_path) == list(range(1, head_version() + 1))
        # Data written at the old version is all there and usable.
        games = await store.list_games(GUILD, include_finished=True)
        assert len(games) == len(finals)
        for info in games:
            assert info.settings == {"n": 1} and info.created_by == 5
            assert info.settings_version == 0  # 0008: old games start at version 0
            row = await store.load(info.id)
            if info.status == GameStatus.LOBBY:
                assert row.state is None
                continue
            assert row.state is not None and row.state.to_json() == finals[info.id]
            assert (await store.record(info.id)).replay().to_json() == finals[info.id]
        running = [g for g in games if g.status == GameStatus.RUNNING]
        for info in running:
            await advance(store, info.id, 5)
        # The new schema's features work on the migrated file.
        fresh = await store.create_game(GUILD, 99, make_state())
        assert all(fresh.id > g.id for g in games)  # ids are not reused
        with pytest.raises(ChannelBusy):
            await store.create_game(GUILD, 99, make_state())
        # Timers (0003) work for the old games: scheduled, replaced, leased (0006),
        # fired, cancelled.
        due = clock() + timedelta(minutes=5)
        for info in running:
            await store.add_timer(info.id, "turn_deadline", due, {"seq": 5}, key="turn")
            timer = await store.add_timer(info.id, "turn_deadline", due, {"seq": 6}, key="turn")
            assert await store.pending_timers(info.id) == [timer]
            assert await store.claim_timer(timer.id)
            assert not await store.claim_timer(timer.id)
            assert await store.complete_timer(timer.id)
        for info in games:
            if info.status == GameStatus.FINISHED:
                with pytest.raises(GameNotRunning):
                    await store.add_timer(info.id, "reminder", due)
        await store.add_timer(fresh.id, "reminder", due)
        assert await store.next_due_at() == due
        await store.set_aside(fresh.id, "test")
        assert [g.id for g in await store.broken_games()] == [fresh.id]
        assert await store.next_due_at() is None  # setting aside cancelled it
        # The bot's own records (0007).
        assert await store.meta("commands:global") is None
        await store.set_meta("commands:global", "f" * 64)
        assert await store.meta("commands:global") == "f" * 64
        # Versioned settings (0008).
        lobby = await store.create_game(GUILD, 98, None, settings={"a": 1})
        patched = await store.patch_settings(lobby.id, {"b": 2}, expected_version=0)
        assert (patched.settings, patched.settings_version) == ({"a": 1, "b": 2}, 1)
    conn = sqlite3.connect(db_path)
    assert conn.execute("PRAGMA integrity_check").fetchone()[0] == "ok"
    assert conn.execute("PRAGMA foreign_key_check").fetchall() == []
    conn.close()


async def test_timers_pending_before_0006_stay_pending(db_path: Path, clock: FakeClock) -> None:
    """Timers pending before the leases came stay pending and unleased."""
    # A database at 0005 with timers of every kind of history: the lease columns come
    # with "nobody holds it", so a pending timer is due as before and nothing else is.
    await _database_at(db_path, 5, clock)
    at = "2026-05-01T12:00:00+00:00"
    conn = sqlite3.connect(db_path)
    with conn:
        conn.execute(
            "INSERT INTO games (guild_id, channel_id, status, created_at, updated_at)"
            " VALUES (?, 10, 'lobby', ?, ?)",
            (GUILD, at, at),
        )
        game = conn.execute("SELECT max(id) FROM games").fetchone()[0]
        conn.executemany(
            "INSERT INTO timers (game_id, kind, due_at, key, created_at, fired_at, cancelled_at)"
            " VALUES (?, ?, ?, ?, ?, ?, ?)",
            [
                (game, "pending", at, "turn", at, None, None),
                (game, "fired", at, None, at, at, None),
                (game, "cancelled", at, "turn", at, None, at),
            ],
        )
    conn.close()
    async with SqliteGameStore(db_path, now=clock) as store:
        [pending] = await store.pending_timers(game)
        assert pending.kind == "pending" and pending.attempts == 0
        assert pending.leased_until is None
        assert await store.next_due_at() == pending.due_at
        assert [t.id for t in await store.due_timers(clock())] == [pending.id]
        assert await store.claim_timer(pending.id)
        # The key still replaces the pending timer, leased or not (0003's index).
        again = await store.add_timer(game, "pending", clock(), key="turn")
        assert await store.pending_timers(game) == [again]


async def test_a_newer_database_is_refused(db_path: Path, clock: FakeClock) -> None:
    """A file migrated by a newer bot is refused with SchemaError."""
    async with SqliteGameStore(db_path, now=clock):
        pass
    conn = sqlite3.connect(db_path)
    with conn:
        conn.execute(
            "INSERT INTO schema_version VALUES (999, 'future', '2030-01-01T00:00:00+00:00')"
        )
    conn.close()
    with pytest.raises(SchemaError, match="newer"):
        await SqliteGameStore(db_path, now=clock).open()


async def test_a_failing_migration_changes_nothing(
    db_path: Path, clock: FakeClock, monkeypatch: pytest.MonkeyPatch
) -> None:
    """A failing migration is rolled back whole."""
    async with SqliteGameStore(db_path, now=clock) as store:
        await store.create_game(GUILD, 10, make_state())
    head = head_version()
    broken = Migration(
        head + 1, "broken", "CREATE TABLE extra (a INTEGER);\nSELECT * FROM nowhere;\n"
    )
    monkeypatch.setattr(
        migrate_module,
        "load_migrations",
        lambda dialect="sqlite": (*load_migrations(dialect), broken),
    )
    with pytest.raises(SchemaError, match="broken"):
        await SqliteGameStore(db_path, now=clock).open()
    assert _versions(db_path) == list(range(1, head + 1))
    assert "extra" not in _tables(db_path)
    monkeypatch.undo()
    async with SqliteGameStore(db_path, now=clock) as store:
        assert len(await store.unfinished_games()) == 1


async def test_two_processes_migrating_at_once(db_path: Path, clock: FakeClock) -> None:
    """Two stores opening a new file at once migrate it once."""
    first, second = SqliteGameStore(db_path, now=clock), SqliteGameStore(db_path, now=clock)
    await asyncio.gather(first.open(), second.open())
    try:
        assert _versions(db_path) == list(range(1, head_version() + 1))
        row = await first.create_game(GUILD, 10, make_state())
        assert (await second.load(row.id)).seq == 0
    finally:
        await first.close()
        await second.close()
