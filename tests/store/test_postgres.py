"""What only the PostgreSQL driver has: its URL, reaching the server, its migrations.

Bad configuration stops the bot at start with one clear line naming the setting and
changes nothing: a URL of another scheme (ValueError), a server that cannot be reached
(StoreUnavailable), a database migrated by a newer version of the bot (SchemaError).
Migrations run under an advisory lock, so processes starting together do not race.
"""

from __future__ import annotations

import asyncio
import fnmatch
import json
import tomllib
from collections.abc import AsyncIterator
from datetime import UTC, datetime, timedelta
from pathlib import Path
from types import SimpleNamespace

import asyncpg
import pytest

from bot.engine.game import apply_action
from bot.engine.record import dice_of
from bot.store import (
    ChannelBusy,
    GameStatus,
    PostgresGameStore,
    SchemaError,
    StoreUnavailable,
    store_for,
)
from bot.store import migrate as migrate_module
from bot.store.bench import next_simple_action
from bot.store.drivers.postgres import check_url, describe_url
from bot.store.drivers.postgres import migrate as migrate_postgres
from bot.store.drivers.postgres import schema as pg_schema
from bot.store.migrate import Migration, head_version, load_migrations
from tests.pg import PgCluster
from tests.store.backends import PostgresBackend
from tests.store.conftest import GUILD, FakeClock, advance, make_state

ROOT = Path(__file__).resolve().parents[2]
SECRET = "s3cret-pw"


@pytest.fixture
async def empty_db(pg_cluster: PgCluster) -> AsyncIterator[PostgresBackend]:
    """An empty PostgreSQL database (no schema at all), dropped after the test."""
    url, name = await pg_cluster.create_database(migrated=False)
    backend = PostgresBackend(pg_cluster, url, name)
    try:
        yield backend
    finally:
        await backend.cleanup()
        await pg_cluster.drop_database(name)


async def _versions(backend: PostgresBackend) -> list[int]:
    rows = await backend.fetch(
        "SELECT version FROM schema_version ORDER BY version"
        if await backend.fetch("SELECT to_regclass('schema_version')") != [(None,)]
        else "SELECT 1 WHERE false"
    )
    return [row[0] for row in rows]


# -- the URL and the server ------------------------------------------------------------------


@pytest.mark.parametrize(
    "url",
    [
        f"mysql://bot:{SECRET}@db/monopoly",
        "sqlite:///data/monopoly.db",
        "data/monopoly.db",
        f"http://bot:{SECRET}@db:5432/monopoly",
        f"postgresql://bot:{SECRET}@db:port/monopoly",
        "",
    ],
)
def test_a_url_that_is_not_postgresql_is_refused(url: str) -> None:
    """Another scheme (or none, or a port that is no number): ValueError naming
    MONOPOLY_DATABASE_URL, from store_for and the driver alike, without the password."""
    for make in (
        lambda: PostgresGameStore(url),
        lambda: store_for(SimpleNamespace(database_url=url or "x:", db_path=Path("m.db"))),
    ):
        with pytest.raises(ValueError) as caught:
            make()
        message = str(caught.value)
        assert "MONOPOLY_DATABASE_URL" in message and SECRET not in message
        assert "\n" not in message


def test_both_schemes_and_libpq_forms_are_taken() -> None:
    """postgresql:// and postgres://, with a host and port or a socket folder."""
    for url in (
        "postgresql://bot@db/monopoly",
        "postgres://bot:pw@db:5433/monopoly",
        "postgresql://bot@/monopoly?host=/run/postgresql",
        "POSTGRESQL://bot@db/monopoly",
    ):
        assert check_url(url) == url
    assert describe_url(f"postgresql://bot:{SECRET}@db.example:5433/games") == (
        "db.example:5433, database 'games'"
    )
    assert describe_url("postgresql://bot@/games?host=/run/pg&port=6000") == (
        "socket /run/pg/.s.PGSQL.6000, database 'games'"
    )


@pytest.mark.parametrize(
    "url",
    [
        f"postgresql://bot:{SECRET}@127.0.0.1:1/monopoly",  # nothing listens on port 1
        f"postgresql://bot:{SECRET}@/monopoly?host=/nonexistent/folder",
    ],
)
async def test_an_unreachable_server_stops_the_start_with_one_line(url: str) -> None:
    """open() raises StoreUnavailable: one line naming MONOPOLY_DATABASE_URL and where it
    looked (host and port, or the socket), never the password."""
    store = PostgresGameStore(url, connect_timeout=5)
    with pytest.raises(StoreUnavailable) as caught:
        await store.open()
    message = str(caught.value)
    assert caught.value.code == "store_unavailable"
    assert "MONOPOLY_DATABASE_URL" in message and SECRET not in message
    assert "\n" not in message
    assert ("127.0.0.1:1" in message) or ("/nonexistent/folder" in message)
    await store.close()  # closing a store that never opened is harmless


async def test_a_database_that_does_not_exist_is_unavailable(pg_cluster: PgCluster) -> None:
    """The server is there but the database is not: StoreUnavailable naming it; nothing
    is created."""
    url = pg_cluster.url("no_such_database")
    with pytest.raises(StoreUnavailable, match="no_such_database"):
        await PostgresGameStore(url).open()
    admin = await asyncpg.connect(pg_cluster.url("postgres"))
    try:
        names = await admin.fetch("SELECT datname FROM pg_database")
    finally:
        await admin.close()
    assert "no_such_database" not in {row[0] for row in names}


# -- migrations ------------------------------------------------------------------------------


def test_both_dialects_have_the_same_migrations() -> None:
    """Every SQLite migration has its PostgreSQL file with the same number and name."""
    sqlite = [(m.version, m.name) for m in load_migrations("sqlite")]
    postgres = [(m.version, m.name) for m in load_migrations("postgres")]
    assert sqlite == postgres
    assert head_version("postgres") == head_version() >= 8


@pytest.mark.parametrize("driver", ["sqlite", "postgres"])
def test_each_drivers_migrations_ship_in_the_wheel(driver: str) -> None:
    """pyproject's package data names each driver's migrations, so a wheel carries them."""
    config = tomllib.loads((ROOT / "pyproject.toml").read_text(encoding="utf-8"))
    patterns = config["tool"]["setuptools"]["package-data"][f"bot.store.drivers.{driver}"]
    folder = ROOT / "bot" / "store" / "drivers" / driver
    files = [p.relative_to(folder).as_posix() for p in folder.glob("migrations/*.sql")]
    assert len(files) == head_version(driver)
    for name in files:
        assert any(fnmatch.fnmatch(name, pattern) for pattern in patterns), name


async def test_from_an_empty_database(empty_db: PostgresBackend, clock: FakeClock) -> None:
    """The store migrates an empty database to the head at open; opening again applies
    nothing."""
    async with empty_db.store(now=clock) as store:
        await store.create_game(GUILD, 10, make_state())
    assert await _versions(empty_db) == list(range(1, head_version("postgres") + 1))
    tables = {row[0] for row in await empty_db.fetch("SELECT tablename FROM pg_tables")}
    assert {"games", "actions", "timers", "user_prefs", "guild_files", "bot_meta"} <= tables
    async with empty_db.store(now=clock):
        pass
    assert await _versions(empty_db) == list(range(1, head_version("postgres") + 1))


async def _insert_v1_games(backend: PostgresBackend) -> dict[int, str]:
    """Games written as code at schema 1 would have written them; their final states."""
    finals = {}
    at = datetime(2026, 1, 1, tzinfo=UTC)
    for n, status in enumerate(("running", "finished", "lobby")):
        state = make_state(20 + n)
        start = state.to_json()
        log = []
        if status != "lobby":
            for _ in range(12):
                action = next_simple_action(state)
                assert action is not None
                log.append((state.seq + 1, action, apply_action(state, action)))
        await backend.execute(
            "INSERT INTO games (guild_id, channel_id, created_by, status, created_at,"
            " updated_at, seq, state_json, start_json, settings_json, finished_reason)"
            " VALUES (?, ?, 5, ?, ?, ?, ?, ?, ?, '{\"n\": 1}', ?)",
            GUILD,
            30 + n,
            status,
            at,
            at,
            state.seq if status != "lobby" else 0,
            state.to_json() if status != "lobby" else None,
            start if status != "lobby" else None,
            "abandoned" if status == "finished" else None,
        )
        [(game_id,)] = await backend.fetch("SELECT max(id) FROM games")
        for seq, action, events in log:
            await backend.execute(
                "INSERT INTO actions VALUES (?, ?, ?, ?, ?, ?)",
                game_id,
                seq,
                json.dumps(action),
                json.dumps(dice_of(events)),
                json.dumps(events),
                at,
            )
        finals[game_id] = state.to_json()
    return finals


@pytest.mark.parametrize("version", range(0, head_version("postgres")))
async def test_from_every_earlier_version(
    empty_db: PostgresBackend, clock: FakeClock, version: int
) -> None:
    """A database left at any earlier version is migrated to the head at open; what was
    written at the old version is all there and usable with every newer feature."""
    conn = await asyncpg.connect(empty_db.url)
    try:
        await migrate_postgres(conn, now=clock, target=version)
    finally:
        await conn.close()
    assert await _versions(empty_db) == list(range(1, version + 1))
    finals = await _insert_v1_games(empty_db) if version >= 1 else {}
    async with empty_db.store(now=clock) as store:
        assert await _versions(empty_db) == list(range(1, head_version("postgres") + 1))
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
        fresh = await store.create_game(GUILD, 99, make_state())
        assert all(fresh.id > g.id for g in games)  # ids are not reused
        with pytest.raises(ChannelBusy):
            await store.create_game(GUILD, 99, make_state())
        due = clock() + timedelta(minutes=5)
        for info in running:
            await store.add_timer(info.id, "turn_deadline", due, {"seq": 5}, key="turn")
            timer = await store.add_timer(info.id, "turn_deadline", due, {"seq": 6}, key="turn")
            assert await store.pending_timers(info.id) == [timer]
            assert await store.claim_timer(timer.id)
            assert not await store.claim_timer(timer.id)
            assert await store.complete_timer(timer.id)
        await store.add_timer(fresh.id, "reminder", due)
        await store.set_aside(fresh.id, "test")
        assert [g.id for g in await store.broken_games()] == [fresh.id]
        assert await store.next_due_at() is None
        await store.set_meta("commands:global", "f" * 64)
        assert await store.meta("commands:global") == "f" * 64
        lobby = await store.create_game(GUILD, 98, None, settings={"a": 1})
        assert (await store.patch_settings(lobby.id, {"b": 2}, expected_version=0)).settings == {
            "a": 1,
            "b": 2,
        }


async def test_a_newer_database_is_refused_and_left_alone(
    pg_cluster: PgCluster, clock: FakeClock
) -> None:
    """A database migrated by a newer bot: SchemaError saying so, at open; not a row, a
    table or a version changes."""
    url, name = await pg_cluster.create_database()
    backend = PostgresBackend(pg_cluster, url, name)
    try:
        async with backend.store(now=clock) as store:
            await store.create_game(GUILD, 10, make_state())
        await backend.execute(
            "INSERT INTO schema_version VALUES (999, 'future', '2030-01-01T00:00:00+00:00')"
        )
        before = await backend.snapshot()
        store = backend.store(now=clock)
        with pytest.raises(SchemaError, match="newer") as caught:
            await store.open()
        assert "999" in str(caught.value) and "\n" not in str(caught.value)
        assert await backend.snapshot() == before
    finally:
        await backend.cleanup()
        await pg_cluster.drop_database(name)


async def test_a_newer_empty_schema_table_is_not_created(empty_db: PostgresBackend) -> None:
    """Checking the version of an empty database creates nothing (it only looks)."""
    conn = await asyncpg.connect(empty_db.url)
    try:
        assert await pg_schema.schema_version(conn) == 0
    finally:
        await conn.close()
    assert await empty_db.fetch("SELECT to_regclass('schema_version')") == [(None,)]


async def test_a_failing_migration_changes_nothing(
    pg_cluster: PgCluster, clock: FakeClock, monkeypatch: pytest.MonkeyPatch
) -> None:
    """A migration that fails is rolled back whole (PostgreSQL's DDL is transactional):
    SchemaError naming it, the version and the tables as before; the bot starts once
    the migration is fixed."""
    url, name = await pg_cluster.create_database()
    backend = PostgresBackend(pg_cluster, url, name)
    try:
        async with backend.store(now=clock) as store:
            await store.create_game(GUILD, 10, make_state())
        head = head_version("postgres")
        broken = Migration(
            head + 1, "broken", "CREATE TABLE extra (a INTEGER);\nSELECT * FROM nowhere;\n"
        )
        original = load_migrations

        def with_broken(dialect: str = "sqlite") -> tuple[Migration, ...]:
            return (*original(dialect), broken)

        monkeypatch.setattr(migrate_module, "load_migrations", with_broken)
        with pytest.raises(SchemaError, match="broken"):
            await backend.store(now=clock).open()
        assert await _versions(backend) == list(range(1, head + 1))
        assert await backend.fetch("SELECT to_regclass('extra')") == [(None,)]
        monkeypatch.undo()
        async with backend.store(now=clock) as store:
            assert len(await store.unfinished_games()) == 1
    finally:
        await backend.cleanup()
        await pg_cluster.drop_database(name)


async def test_processes_starting_together_migrate_once(
    empty_db: PostgresBackend, clock: FakeClock
) -> None:
    """Four stores open an empty database at the same moment: the advisory lock lets one
    migrate while the others wait; every migration is applied exactly once and every
    store works."""
    stores = [empty_db.store(now=clock) for _ in range(4)]
    await asyncio.gather(*(store.open() for store in stores))
    try:
        assert await _versions(empty_db) == list(range(1, head_version("postgres") + 1))
        row = await stores[0].create_game(GUILD, 10, make_state())
        for store in stores[1:]:
            assert (await store.load(row.id)).seq == 0
    finally:
        for store in stores:
            await store.close()


async def test_the_migration_lock_is_held_while_migrating(
    empty_db: PostgresBackend, clock: FakeClock
) -> None:
    """While another session holds the migration lock, a store's open waits for it (and
    migrates once it is free): the lock, not luck, keeps two starts apart."""
    holder = await asyncpg.connect(empty_db.url)
    try:
        await holder.execute("SELECT pg_advisory_lock($1)", pg_schema.MIGRATION_LOCK)
        store = empty_db.store(now=clock)
        opening = asyncio.ensure_future(store.open())
        await asyncio.sleep(0.3)
        assert not opening.done()
        assert await _versions(empty_db) == []
        await holder.execute("SELECT pg_advisory_unlock($1)", pg_schema.MIGRATION_LOCK)
        await asyncio.wait_for(opening, 10)
        assert await _versions(empty_db) == list(range(1, head_version("postgres") + 1))
        await store.close()
    finally:
        await holder.close()
