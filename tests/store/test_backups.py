"""Backups and restores of the store (``monopoly-bot backup`` / ``restore``) and the backup
``run`` takes before it migrates: real SQLite files, and a real PostgreSQL database with
pg_dump and pg_restore where the binaries are here."""

from __future__ import annotations

import asyncio
import json
import os
import sqlite3
import subprocess
import sys
import time
from datetime import UTC, datetime
from pathlib import Path

import pytest

from bot.config import Settings
from bot.store import SqliteGameStore, StoreError, store_for
from bot.store.backups import (
    BackupProblem,
    backup_before_migration,
    backup_sqlite,
    default_backup_path,
    pg_backup_hint,
    restore_sqlite,
)
from bot.store.drivers.postgres.server import find_bindir
from bot.store.drivers.sqlite import migrate
from bot.store.migrate import head_version
from tests.pg import PgCluster, skip_or_fail
from tests.store.conftest import GUILD, advance, make_state

ROOT = Path(__file__).resolve().parents[2]
NOW = datetime(2026, 11, 28, 21, 30, tzinfo=UTC)
SECRET = "s3cr3t-pw"


async def _games(path: Path, count: int) -> list[int]:
    """``count`` running games in a new store file, a few actions each; their ids."""
    async with SqliteGameStore(path) as store:
        ids = []
        for number in range(count):
            row = await store.create_game(GUILD, 100 + number, make_state(number))
            await advance(store, row.id, 3)
            ids.append(row.id)
    return ids


async def test_a_backup_taken_while_the_bot_writes_is_whole(tmp_path: Path) -> None:
    """SQLite's online backup while a store keeps applying actions: the backup opens as a
    store, passes integrity_check and holds every game at some consistent seq."""
    path = tmp_path / "data" / "monopoly.db"
    ids = await _games(path, 6)
    target = tmp_path / "copy.db"
    async with SqliteGameStore(path) as store:
        stop = asyncio.Event()

        async def keep_writing() -> int:
            done = 0
            while not stop.is_set():
                await advance(store, ids[done % len(ids)], 1)
                done += 1
            return done

        writer = asyncio.create_task(keep_writing())
        await asyncio.sleep(0.05)
        report = await asyncio.to_thread(backup_sqlite, path, target)
        stop.set()
        written = await writer
    assert written > 0
    assert report.path == target and report.games == 6
    assert report.schema_version == head_version("sqlite")
    conn = sqlite3.connect(target)
    assert conn.execute("PRAGMA integrity_check").fetchone()[0] == "ok"
    conn.close()
    async with SqliteGameStore(target) as copy:
        for game_id in ids:
            row = await copy.load(game_id)
            assert row.state is not None and row.state.seq == row.seq
            assert len((await copy.record(game_id)).actions) == row.seq
    assert not list(tmp_path.glob(".*.partial"))  # no half-written file stays


async def test_a_backup_does_not_overwrite_without_force(tmp_path: Path) -> None:
    path = tmp_path / "monopoly.db"
    await _games(path, 1)
    target = tmp_path / "b.db"
    target.write_text("keep me")
    with pytest.raises(BackupProblem, match="exists already"):
        backup_sqlite(path, target)
    assert target.read_text() == "keep me"
    assert backup_sqlite(path, target, force=True).games == 1
    with pytest.raises(BackupProblem, match="no database file"):
        backup_sqlite(tmp_path / "missing.db", tmp_path / "c.db")


async def test_restore_checks_the_backup_and_keeps_the_replaced_file(tmp_path: Path) -> None:
    """A file that is no database, a database of something else and one of a newer bot
    are refused; a running bot and games without --force too; with --force the current
    file is moved aside and the backup's games load."""
    db = tmp_path / "data" / "monopoly.db"
    await _games(db, 2)
    backup = tmp_path / "good.db"
    backup_sqlite(db, backup)
    async with SqliteGameStore(db) as store:
        await store.create_game(GUILD, 999, make_state(9))  # after the backup

    not_db = tmp_path / "notes.db"
    not_db.write_text("hello")
    other = tmp_path / "other.db"
    sqlite3.connect(other).execute("CREATE TABLE x (a)").connection.commit()
    newer = tmp_path / "newer.db"
    backup_sqlite(db, newer)
    conn = sqlite3.connect(newer)
    conn.execute(
        "INSERT INTO schema_version VALUES (?, 'future', '2030-01-01T00:00:00+00:00')",
        (head_version("sqlite") + 1,),
    )
    conn.commit()
    conn.close()
    before = db.read_bytes()
    for bad, message in (
        (not_db, "cannot be read as a database"),
        (other, "not a database of this bot"),
        (newer, "newer than this bot's"),
        (tmp_path / "missing.db", "no backup file"),
    ):
        with pytest.raises(BackupProblem, match=message):
            restore_sqlite(bad, db, force=True, now=NOW)
    with pytest.raises(BackupProblem, match="a bot is running"):
        restore_sqlite(backup, db, force=True, now=NOW, bot_running=lambda: "heartbeat 3 s old")
    with pytest.raises(BackupProblem, match="holds 3 games; add --force"):
        restore_sqlite(backup, db, force=False, now=NOW)
    assert db.read_bytes() == before  # every refusal left the file as it was

    report = restore_sqlite(backup, db, force=True, now=NOW)
    assert report.games == 2
    assert report.moved_aside == db.with_name("monopoly.db.before-restore-20261128T213000Z")
    async with SqliteGameStore(db) as store:
        assert len(await store.list_games(GUILD)) == 2
    async with SqliteGameStore(report.moved_aside) as kept:
        assert len(await kept.list_games(GUILD)) == 3  # the restore can be undone


async def test_the_bot_backs_the_file_up_before_it_migrates(tmp_path: Path) -> None:
    """A file of an older schema is backed up to backups/ before the store migrates it,
    and the backup is still at the old version (what an older bot can open); a new file
    and one at the head get no backup."""
    db = tmp_path / "data" / "monopoly.db"
    db.parent.mkdir(parents=True)
    import aiosqlite

    async with aiosqlite.connect(db, isolation_level=None) as conn:
        await migrate(conn, now=lambda: NOW, target=5)
    settings = Settings(discord_token=None, db_path=db, log_level="INFO", dev_guild_id=None)
    async with store_for(settings):
        pass
    made = list((db.parent / "backups").glob("monopoly-v5-*.db"))
    assert len(made) == 1
    conn2 = sqlite3.connect(made[0])
    assert conn2.execute("SELECT max(version) FROM schema_version").fetchone()[0] == 5
    conn2.close()
    async with store_for(settings):  # at the head now: nothing to back up
        pass
    assert len(list((db.parent / "backups").iterdir())) == 1
    fresh = tmp_path / "fresh" / "monopoly.db"
    assert backup_before_migration(fresh, 0, head_version(), NOW) is None
    assert default_backup_path(db, NOW, 5).name == "monopoly-v5-20261128T213000Z.db"


async def test_a_failed_backup_stops_the_migration(tmp_path: Path) -> None:
    """If the backup cannot be written, the store does not migrate (it could not be
    rolled back): a StoreError, and the file stays at its old version."""
    db = tmp_path / "monopoly.db"
    import aiosqlite

    async with aiosqlite.connect(db, isolation_level=None) as conn:
        await migrate(conn, now=lambda: NOW, target=6)
    (tmp_path / "backups").write_text("a file where the folder would go")
    settings = Settings(discord_token=None, db_path=db, log_level="INFO", dev_guild_id=None)
    with pytest.raises(StoreError, match="no backup before migrating schema v6"):
        await store_for(settings).open()
    conn2 = sqlite3.connect(db)
    assert conn2.execute("SELECT max(version) FROM schema_version").fetchone()[0] == 6
    conn2.close()


def _env(tmp_path: Path, **extra: str) -> dict[str, str]:
    env = {
        key: value
        for key, value in os.environ.items()
        if not key.startswith(("MONOPOLY_", "DISCORD_"))
    }
    env.update(
        PYTHONPATH=str(ROOT),
        MONOPOLY_DB_PATH=str(tmp_path / "data" / "monopoly.db"),
        MONOPOLY_HEARTBEAT_FILE=str(tmp_path / "heartbeat"),
        **extra,
    )
    return env


def _run(tmp_path: Path, *args: str, **extra: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [sys.executable, "-m", "bot", *args],
        cwd=tmp_path,
        env=_env(tmp_path, **extra),
        capture_output=True,
        text=True,
        timeout=120,
    )


async def test_the_command_line_backs_up_and_restores(tmp_path: Path) -> None:
    """``monopoly-bot backup`` and ``restore`` end to end: one line each, exit codes 0, 2
    for a refusal (nothing changed); a fresh heartbeat counts as a running bot."""
    db = tmp_path / "data" / "monopoly.db"
    await _games(db, 2)
    done = _run(tmp_path, "backup", "--to", str(tmp_path / "b.db"))
    assert done.returncode == 0, done.stderr
    assert done.stdout.count("\n") == 1 and "backed up 2 games" in done.stdout
    again = _run(tmp_path, "backup", "--to", str(tmp_path / "b.db"))
    assert again.returncode == 2 and again.stderr.count("\n") == 1
    assert "Traceback" not in again.stderr
    default = _run(tmp_path, "backup")
    assert default.returncode == 0 and "data/backups/monopoly-v" in default.stdout

    (tmp_path / "heartbeat").write_text(json.dumps({"unix": time.time()}))
    busy = _run(tmp_path, "restore", str(tmp_path / "b.db"), "--force")
    assert busy.returncode == 2 and "a bot is running" in busy.stderr
    (tmp_path / "heartbeat").unlink()
    refused = _run(tmp_path, "restore", str(tmp_path / "b.db"))
    assert refused.returncode == 2 and "add --force" in refused.stderr
    restored = _run(tmp_path, "restore", str(tmp_path / "b.db"), "--force")
    assert restored.returncode == 0, restored.stderr
    assert "restored 2 games" in restored.stdout and ".before-restore-" in restored.stdout


def test_the_postgresql_hint_never_shows_the_password() -> None:
    hint = pg_backup_hint(f"postgresql://bot:{SECRET}@db.example:5432/monopoly")
    assert SECRET not in hint
    assert "PGPASSWORD=*** pg_dump" in hint and "postgresql://bot@db.example:5432/monopoly" in hint


async def test_postgresql_backup_and_restore_with_pg_dump(
    pg_cluster: PgCluster, tmp_path: Path
) -> None:
    """With pg_dump and pg_restore on PATH: ``backup`` dumps the database, ``restore
    --force`` puts it back after a change; the password in the URL shows nowhere."""
    bindir, found = find_bindir()
    if bindir is None:
        skip_or_fail(f"PostgreSQL binaries not found ({found})")
    url, _name = await pg_cluster.create_database()
    secret_url = url.replace("postgresql://postgres@", f"postgresql://postgres:{SECRET}@", 1)
    assert SECRET in secret_url
    from bot.store import PostgresGameStore

    async with PostgresGameStore(url) as store:
        await store.create_game(GUILD, 10, make_state())
    path = f"{bindir}{os.pathsep}{os.environ.get('PATH', '')}"
    dump = tmp_path / "pg.dump"
    done = _run(tmp_path, "backup", "--to", str(dump), MONOPOLY_DATABASE_URL=secret_url, PATH=path)
    assert done.returncode == 0, done.stderr
    assert dump.stat().st_size > 0
    async with PostgresGameStore(url) as store:
        await store.create_game(GUILD, 11, make_state(1))
        assert len(await store.list_games(GUILD)) == 2
    restored = _run(
        tmp_path, "restore", str(dump), "--force", MONOPOLY_DATABASE_URL=secret_url, PATH=path
    )
    assert restored.returncode == 0, restored.stderr
    async with PostgresGameStore(url) as store:
        assert len(await store.list_games(GUILD)) == 1
    missing = _run(
        tmp_path,
        "backup",
        "--to",
        str(tmp_path / "x.dump"),
        MONOPOLY_DATABASE_URL=secret_url,
        PATH="/nonexistent",
    )
    assert missing.returncode == 2 and "pg_dump is not installed here; run:" in missing.stderr
    for run in (done, restored, missing):
        assert SECRET not in run.stdout + run.stderr
