"""``monopoly-bot status`` on a real SQLite file and ``monopoly-bot health`` on a real
heartbeat file; nothing logs in to Discord."""

from __future__ import annotations

import asyncio
import json
import time
from datetime import UTC, datetime, timedelta
from pathlib import Path
from typing import Any

import aiosqlite
import asyncpg
import pytest

from bot import cli
from bot.app import check_store
from bot.cli import _store_rows, status_lines, store_status
from bot.config import Settings, shard_of
from bot.heartbeat import heartbeat_payload, write_heartbeat
from bot.store import GameStore, PostgresGameStore, SqliteGameStore
from bot.store.drivers.sqlite import migrate
from bot.store.errors import StoreError
from bot.store.migrate import head_version
from tests.pg import PgCluster
from tests.pg import pg_cluster as pg_cluster_fixture  # noqa: F401 - provides pg_cluster
from tests.store.conftest import ManualClock, make_state

NOW = datetime(2026, 5, 1, 12, 0, tzinfo=UTC)
HEAD = head_version()


def guild_on(shard: int, count: int, n: int = 0) -> int:
    """A guild snowflake on ``shard`` of ``count`` (``n`` tells several apart)."""
    guild = ((10_000 * count + shard) << 22) | (n + 1)
    assert shard_of(guild, count) == shard
    return guild


#: Three guilds on shards 0, 1 and 2 of 3.
GUILDS = [guild_on(shard, 3) for shard in range(3)]


async def fill(store: GameStore, clock: ManualClock) -> dict[str, int]:
    """Fill ``store`` (whose clock is ``clock``) with 2 lobbies, 3 running games, 1 broken
    and 1 finished game, and timers: 3 due (one of them leased, so not due), 3 later; the
    ids by name."""
    ids: dict[str, int] = {}
    async with store:
        ids["lobby0"] = (await store.create_game(GUILDS[0], 1, None)).id
        ids["lobby2"] = (await store.create_game(GUILDS[2], 2, None)).id
        ids["run0"] = (await store.create_game(GUILDS[0], 3, make_state())).id
        ids["run1"] = (await store.create_game(GUILDS[1], 4, make_state())).id
        ids["run1b"] = (await store.create_game(GUILDS[1], 5, make_state())).id
        broken = (await store.create_game(GUILDS[2], 6, make_state())).id
        await store.set_aside(broken, "unreadable state")
        done = (await store.create_game(GUILDS[2], 7, make_state())).id
        await store.add_timer(done, "deadline", clock() - timedelta(hours=1))
        await store.finish(done, "ended")  # its timer is cancelled: not pending
        past, later = clock() - timedelta(minutes=5), clock() + timedelta(hours=1)
        await store.add_timer(ids["run0"], "deadline", past)
        await store.add_timer(ids["run1"], "reminder", past)
        leased = await store.add_timer(ids["run1b"], "digest", past)
        assert await store.claim_timer(leased.id, now=clock(), lease_seconds=3600)
        await store.add_timer(ids["run0"], "reminder", later)
        await store.add_timer(ids["lobby2"], "lobby", later + timedelta(hours=1))
        await store.add_timer(ids["run1"], "deadline", later + timedelta(hours=2))
    return ids


def make_settings(db_path: Path, **overrides: Any) -> Settings:
    """Settings on ``db_path`` with ``overrides``."""
    values: dict[str, Any] = {
        "discord_token": None,
        "db_path": db_path,
        "log_level": "INFO",
        "dev_guild_id": None,
    }
    values.update(overrides)
    return Settings(**values)


@pytest.fixture
def db_path(tmp_path: Path) -> Path:
    """A filled database file (see :func:`fill`), its clock at :data:`NOW`."""
    path = tmp_path / "data" / "games.db"
    clock = ManualClock(NOW)
    asyncio.run(fill(SqliteGameStore(path, now=clock), clock))
    return path


@pytest.fixture
def cli_env(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    """A directory without .env and no bot settings in the environment; the directory."""
    monkeypatch.chdir(tmp_path)
    for name in (
        "DISCORD_TOKEN",
        "MONOPOLY_DB_PATH",
        "MONOPOLY_DATABASE_URL",
        "MONOPOLY_SHARD_COUNT",
        "MONOPOLY_SHARD_IDS",
        "MONOPOLY_DEV_GUILD_ID",
        "MONOPOLY_HEARTBEAT_FILE",
    ):
        monkeypatch.delenv(name, raising=False)
    return tmp_path


# -- status -----------------------------------------------------------------------------------


async def test_status_counts_games_and_timers(db_path: Path) -> None:
    """Open games by kind, broken ones, pending and due timers and the next due time."""
    report = await store_status(make_settings(db_path), now=NOW)
    assert report["store"] == {"driver": "sqlite", "path": str(db_path)}
    assert report["schema"] == {"database": HEAD, "code": HEAD}
    assert report["games"] == {"open": 5, "lobbies": 2, "running": 3, "broken": 1}
    # The leased timer (its lease runs for an hour) is pending but not due.
    assert report["timers"] == {
        "pending": 6,
        "due": 2,
        "next_due_at": (NOW - timedelta(minutes=5)).isoformat(),
    }
    assert report["shards"] is None
    assert report["now"] == NOW.isoformat()


async def test_status_text(db_path: Path) -> None:
    """The lines ``status`` prints, unsharded."""
    report = await store_status(make_settings(db_path), now=NOW)
    assert status_lines(report) == [
        f"store:   sqlite {db_path}",
        f"schema:  version {HEAD} (this bot: {HEAD})",
        "games:   5 open (2 lobbies, 3 running), 1 broken",
        "timers:  6 pending, 2 due now; next 2026-05-01T11:55:00+00:00 "
        "(now 2026-05-01T12:00:00+00:00)",
    ]


async def test_status_per_shard(db_path: Path) -> None:
    """With shard settings: every shard of the fleet, those of these settings marked."""
    report = await store_status(make_settings(db_path, shard_count=3, shard_ids=(1, 2)), now=NOW)
    shards = report["shards"]
    assert shards["count"] == 3 and shards["held"] == [1, 2]
    rows = {row["shard"]: row for row in shards["per_shard"]}
    assert rows[0] == {
        "shard": 0,
        "held": False,
        "open_games": 2,
        "lobbies": 1,
        "running": 1,
        "pending_timers": 2,
        "due_timers": 1,
        "next_due_at": (NOW - timedelta(minutes=5)).isoformat(),
    }
    assert (rows[1]["open_games"], rows[1]["pending_timers"], rows[1]["due_timers"]) == (2, 3, 1)
    assert (rows[2]["open_games"], rows[2]["pending_timers"], rows[2]["due_timers"]) == (1, 1, 0)
    assert rows[2]["held"] and rows[1]["held"]
    assert status_lines(report)[4:] == [
        "shards:  3 in the fleet; these settings hold 1,2 (marked *)",
        "    shard 0: 2 open (1 lobby, 1 running), timers 2 pending, 1 due now",
        "  * shard 1: 2 open (0 lobbies, 2 running), timers 3 pending, 1 due now",
        "  * shard 2: 1 open (1 lobby, 0 running), timers 1 pending, 0 due now",
    ]


async def test_the_store_interface_counts_the_same(db_path: Path) -> None:
    """The path for other drivers (through the GameStore interface) sees the same rows as
    the read-only SQLite path."""
    settings = make_settings(db_path)
    from_file = await cli._sqlite_rows(settings)
    through_store = await _store_rows(SqliteGameStore(db_path), settings)
    assert sorted(through_store["games"]) == sorted(from_file["games"])
    assert sorted(map(repr, through_store["timers"])) == sorted(map(repr, from_file["timers"]))


def test_cli_status_prints_text_and_json(
    db_path: Path, cli_env: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture
) -> None:
    """``status`` and ``status --json`` from the environment's settings; exit 0."""
    monkeypatch.setenv("MONOPOLY_DB_PATH", str(db_path))
    monkeypatch.setenv("MONOPOLY_SHARD_COUNT", "3")
    assert cli.main(["status"]) == 0
    out = capsys.readouterr().out.splitlines()
    assert out[0] == f"store:   sqlite {db_path}"
    assert out[2] == "games:   5 open (2 lobbies, 3 running), 1 broken"
    assert out[4] == "shards:  3 in the fleet; these settings hold 0,1,2 (marked *)"
    assert cli.main(["status", "--json"]) == 0
    report = json.loads(capsys.readouterr().out)
    assert report["games"] == {"open": 5, "lobbies": 2, "running": 3, "broken": 1}
    assert report["timers"]["pending"] == 6
    assert [row["open_games"] for row in report["shards"]["per_shard"]] == [2, 2, 1]


def test_status_changes_nothing(
    db_path: Path, cli_env: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture
) -> None:
    """Looking is read-only: the file is byte for byte the same, leases and all."""
    monkeypatch.setenv("MONOPOLY_DB_PATH", str(db_path))
    before = db_path.read_bytes()
    assert cli.main(["status"]) == 0
    assert db_path.read_bytes() == before


async def test_an_older_database_is_shown_not_migrated(tmp_path: Path) -> None:
    """A database a few migrations behind: its level, no counts, and it stays behind."""
    db_path = tmp_path / "old.db"
    async with aiosqlite.connect(db_path, isolation_level=None) as conn:
        await migrate(conn, now=lambda: NOW, target=3)
    report = await store_status(make_settings(db_path), now=NOW)
    assert report["schema"] == {"database": 3, "code": HEAD}
    assert report["games"] is None and report["timers"] is None
    assert status_lines(report)[2] == (
        f"games:   not counted: {HEAD - 3} migration(s) to apply, which the bot does at its "
        "next start"
    )
    async with aiosqlite.connect(db_path) as conn:
        rows = await conn.execute_fetchall("SELECT max(version) FROM schema_version")
    assert list(rows) == [(3,)]


def test_status_of_a_newer_database_exits_2(
    db_path: Path, cli_env: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture
) -> None:
    """A database of a newer bot: exit 2, one line naming MONOPOLY_DB_PATH."""

    async def newer() -> None:
        """Note a schema version beyond this code's in the file."""
        async with aiosqlite.connect(db_path) as conn:
            await conn.execute(
                "INSERT INTO schema_version (version, name, applied_at) VALUES (?, 'x', 'y')",
                (HEAD + 1,),
            )
            await conn.commit()

    asyncio.run(newer())
    monkeypatch.setenv("MONOPOLY_DB_PATH", str(db_path))
    assert cli.main(["status"]) == 2
    captured = capsys.readouterr()
    assert captured.out == ""
    assert captured.err == (
        f"monopoly-bot status: MONOPOLY_DB_PATH ({db_path}): the database has schema version "
        f"{HEAD + 1}, newer than this bot's {HEAD}; update the bot (or restore the backup "
        "taken before the upgrade, see README 'Upgrade and backup')\n"
    )


def test_status_without_a_database_file_exits_2(
    cli_env: Path, capsys: pytest.CaptureFixture
) -> None:
    """No file at MONOPOLY_DB_PATH: exit 2 with one line, and no file is created."""
    assert cli.main(["status"]) == 2
    captured = capsys.readouterr()
    assert captured.err == (
        "monopoly-bot status: MONOPOLY_DB_PATH (data/monopoly.db): there is no database file "
        "(the bot creates it at its first start)\n"
    )
    assert not (cli_env / "data").exists()


def test_status_of_a_file_that_is_no_database_exits_2(
    cli_env: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture
) -> None:
    """A file that is not SQLite: exit 2, one line naming the setting."""
    bad = cli_env / "notes.db"
    bad.write_text("not a database at all, " * 100, encoding="utf-8")
    monkeypatch.setenv("MONOPOLY_DB_PATH", str(bad))
    assert cli.main(["status"]) == 2
    err = capsys.readouterr().err
    assert err.startswith(f"monopoly-bot status: MONOPOLY_DB_PATH ({bad}): cannot read")
    assert err.count("\n") == 1


def test_status_with_bad_shard_settings_exits_2(
    cli_env: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture
) -> None:
    """Bad configuration is the same one line as for ``run``."""
    monkeypatch.setenv("MONOPOLY_SHARD_COUNT", "0")
    assert cli.main(["status"]) == 2
    assert capsys.readouterr().err == (
        "monopoly-bot status: MONOPOLY_SHARD_COUNT must be at least 1, got 0\n"
    )


class UnreachableStore:
    """A PostgreSQL store whose server does not answer."""

    async def open(self) -> None:
        """Fail as the driver does for an unreachable server."""
        error = StoreError("cannot connect to db:5432 (connection refused)")
        error.code = "store_unavailable"
        raise error

    async def close(self) -> None:
        """Nothing to close."""


def test_status_of_an_unreachable_store_exits_2(
    cli_env: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture
) -> None:
    """The database server cannot be reached: exit 2, one line, no password shown."""
    monkeypatch.setenv("MONOPOLY_DATABASE_URL", "postgresql://bot:hunter2@db:5432/monopoly")
    monkeypatch.setattr("bot.store.store_for", lambda settings: UnreachableStore())
    assert cli.main(["status"]) == 2
    assert capsys.readouterr().err == (
        "monopoly-bot status: MONOPOLY_DATABASE_URL (postgresql://bot:***@db:5432/monopoly): "
        "cannot connect to db:5432 (connection refused)\n"
    )


def test_status_of_a_refused_url_exits_2(
    cli_env: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture
) -> None:
    """What store_for refuses (a wrong scheme) is the one line."""

    def refuse(settings: Settings) -> None:
        """Refuse the URL like store_for does."""
        raise ValueError("MONOPOLY_DATABASE_URL must be a postgresql:// URL, got 'mysql://…'")

    monkeypatch.setenv("MONOPOLY_DATABASE_URL", "mysql://bot:pw@db/monopoly")
    monkeypatch.setattr("bot.store.store_for", refuse)
    assert cli.main(["status"]) == 2
    assert capsys.readouterr().err == (
        "monopoly-bot status: MONOPOLY_DATABASE_URL must be a postgresql:// URL, got 'mysql://…'\n"
    )


class VersionedStore(SqliteGameStore):
    """A store of another driver (as far as ``status`` can tell) with version methods."""

    async def schema_version(self) -> int:
        """The database's migration level."""
        return 12

    def head_version(self) -> int:
        """The level this code's driver migrates to."""
        return 12


async def test_status_of_another_driver_uses_the_store_interface(
    db_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """A driver ``status`` does not know: its URL (no password), its own schema levels if
    it has them, and the counts through the store's interface."""
    monkeypatch.setattr("bot.store.store_for", lambda settings: VersionedStore(db_path))
    settings = make_settings(
        db_path, database_url="postgresql://bot:hunter2@db.internal:6543/monopoly"
    )
    report = await store_status(settings, now=NOW)
    assert report["store"] == {
        "driver": "VersionedStore",
        "url": "postgresql://bot:***@db.internal:6543/monopoly",
    }
    assert report["schema"] == {"database": 12, "code": 12}
    assert report["games"] == {"open": 5, "lobbies": 2, "running": 3, "broken": 1}
    assert report["timers"]["pending"] == 6 and report["timers"]["due"] == 2
    lines = status_lines(report)
    assert lines[0] == "store:   VersionedStore postgresql://bot:***@db.internal:6543/monopoly"
    assert "hunter2" not in json.dumps(report)


# -- status of a PostgreSQL database -----------------------------------------------------------


def test_status_of_an_unreachable_postgresql_server_exits_2(
    cli_env: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture
) -> None:
    """The real driver, no server at the socket folder: exit 2, one line, no password."""
    url = f"postgresql://bot:hunter2@/monopoly?host={cli_env}&port=5432"
    monkeypatch.setenv("MONOPOLY_DATABASE_URL", url)
    assert cli.main(["status"]) == 2
    err = capsys.readouterr().err
    assert err.startswith("monopoly-bot status: MONOPOLY_DATABASE_URL (postgresql://bot:***@")
    assert "cannot reach the database" in err and "hunter2" not in err
    assert err.count("\n") == 1


async def test_status_of_a_postgresql_database(pg_cluster: PgCluster, tmp_path: Path) -> None:
    """The same counts as on SQLite, read in a read-only transaction; per shard too."""
    url, name = await pg_cluster.create_database()
    try:
        clock = ManualClock(NOW)
        await fill(PostgresGameStore(url, now=clock), clock)
        settings = make_settings(
            tmp_path / "unused.db", database_url=url, shard_count=3, shard_ids=(0,)
        )
        report = await store_status(settings, now=NOW)
        assert report["store"]["driver"] == "postgresql"
        assert report["schema"] == {"database": head_version("postgres")} | {
            "code": head_version("postgres")
        }
        assert report["games"] == {"open": 5, "lobbies": 2, "running": 3, "broken": 1}
        assert report["timers"] == {
            "pending": 6,
            "due": 2,
            "next_due_at": (NOW - timedelta(minutes=5)).isoformat(),
        }
        rows = report["shards"]["per_shard"]
        assert [(r["open_games"], r["pending_timers"], r["due_timers"]) for r in rows] == [
            (2, 2, 1),
            (2, 3, 1),
            (1, 1, 0),
        ]
        assert status_lines(report)[0] == f"store:   postgresql {report['store']['where']}"
        assert not (tmp_path / "unused.db").exists()
    finally:
        await pg_cluster.drop_database(name)


async def test_status_of_an_older_postgresql_database_is_not_migrated(
    pg_cluster: PgCluster, tmp_path: Path
) -> None:
    """An empty database (schema 0): shown as behind, and still empty afterwards."""
    url, name = await pg_cluster.create_database(migrated=False)
    try:
        settings = make_settings(tmp_path / "unused.db", database_url=url)
        report = await store_status(settings, now=NOW)
        assert report["schema"] == {"database": 0, "code": head_version("postgres")}
        assert report["games"] is None
        conn = await asyncpg.connect(url)
        try:
            assert await conn.fetchval("SELECT to_regclass('schema_version')") is None
        finally:
            await conn.close()
    finally:
        await pg_cluster.drop_database(name)


async def test_a_newer_postgresql_database_stops_status_and_run(
    pg_cluster: PgCluster, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """A database migrated by a newer bot: status refuses with one line, and so does the
    bot's start check, which changes nothing (the schema stays as it was)."""
    url, name = await pg_cluster.create_database()
    try:
        conn = await asyncpg.connect(url)
        try:
            newer = head_version("postgres") + 1
            await conn.execute(
                "INSERT INTO schema_version (version, name, applied_at) VALUES ($1, 'x', now())",
                newer,
            )
        finally:
            await conn.close()
        settings = make_settings(tmp_path / "unused.db", database_url=url)
        with pytest.raises(cli.StatusProblem) as caught:
            await store_status(settings, now=NOW)
        assert str(caught.value) == (
            f"{settings.store_setting}: the database has schema version {newer}, newer than "
            f"this bot's {head_version('postgres')}; update the bot (or restore the backup "
            "taken before the upgrade, see README 'Upgrade and backup')"
        )
        assert await check_store(settings) == str(caught.value)
        conn = await asyncpg.connect(url)
        try:
            assert await conn.fetchval("SELECT max(version) FROM schema_version") == newer
        finally:
            await conn.close()
    finally:
        await pg_cluster.drop_database(name)


# -- health -----------------------------------------------------------------------------------


def beat_at(path: Path, seconds_ago: float) -> None:
    """A heartbeat written ``seconds_ago`` by a bot holding shards 0 and 1."""
    payload = heartbeat_payload((0, 1), [(0, 0.041), (1, 0.052)], now=time.time() - seconds_ago)
    write_heartbeat(path, payload)


def test_health_of_a_fresh_heartbeat(
    cli_env: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture
) -> None:
    """A heartbeat 5 s old: exit 0, a line with the shards and latencies."""
    beat = cli_env / "beat"
    monkeypatch.setenv("MONOPOLY_HEARTBEAT_FILE", str(beat))
    beat_at(beat, 5)
    assert cli.main(["health"]) == 0
    captured = capsys.readouterr()
    assert captured.out.startswith("healthy: heartbeat ")
    assert "shards 0,1; gateway latency shard 0 41 ms, shard 1 52 ms" in captured.out


def test_health_of_a_stale_heartbeat(
    cli_env: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture
) -> None:
    """Older than --max-age (default 120 s): exit 1 with the age."""
    beat = cli_env / "beat"
    monkeypatch.setenv("MONOPOLY_HEARTBEAT_FILE", str(beat))
    beat_at(beat, 300)
    assert cli.main(["health"]) == 1
    err = capsys.readouterr().err
    assert err.startswith("unhealthy: the last heartbeat is 300 s old (more than 120 s)")
    assert cli.main(["health", "--max-age", "600"]) == 0
    assert cli.main(["health", "--max-age", "60", "--file", str(beat)]) == 1


def test_health_without_a_heartbeat(cli_env: Path, capsys: pytest.CaptureFixture) -> None:
    """No file (not connected yet, or another path): exit 1 saying so."""
    missing = cli_env / "nothing-here"
    assert cli.main(["health", "--file", str(missing)]) == 1
    assert capsys.readouterr().err.startswith(f"unhealthy: no heartbeat file at {missing}")


def test_health_of_a_file_that_is_no_heartbeat(
    cli_env: Path, capsys: pytest.CaptureFixture
) -> None:
    """A file that is not a heartbeat: exit 1."""
    junk = cli_env / "junk"
    junk.write_text('{"time": "yesterday"}', encoding="utf-8")
    assert cli.main(["health", "--file", str(junk)]) == 1
    assert "is not a heartbeat" in capsys.readouterr().err


def test_health_with_bad_settings_is_unhealthy_not_2(
    cli_env: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture
) -> None:
    """Docker reserves exit code 2: bad settings make ``health`` exit 1."""
    monkeypatch.setenv("MONOPOLY_SHARD_IDS", "0")
    assert cli.main(["health"]) == 1
    assert capsys.readouterr().err.startswith("unhealthy: MONOPOLY_SHARD_IDS needs")


def test_health_refuses_a_max_age_that_is_not_positive(capsys: pytest.CaptureFixture) -> None:
    """``--max-age`` is a positive number of seconds."""
    with pytest.raises(SystemExit):
        cli.main(["health", "--max-age", "0"])
    assert "not a positive number of seconds" in capsys.readouterr().err
