"""``monopoly-bot backup`` and ``restore`` through :func:`bot.cli.main` (real SQLite files,
the environment as ``run`` reads it): one line per outcome, exit codes 0, 1 and 2, a file a
running bot has open is never replaced, and a PostgreSQL password is never printed. The
store-level tests (a backup while the bot writes, pg_dump and pg_restore on a real server)
are in ``tests/store/test_backups.py``."""

from __future__ import annotations

import logging
import sqlite3
import subprocess
import sys
from datetime import UTC, datetime
from pathlib import Path

import aiosqlite
import pytest

from bot import cli
from bot.store import SqliteGameStore
from bot.store.backups import backup_before_migration, pg_backup_hint
from bot.store.drivers.sqlite import migrate
from bot.store.migrate import head_version
from tests.store.conftest import GUILD, make_state

ROOT = Path(__file__).resolve().parents[1]
NOW = datetime(2026, 11, 28, 21, 30, tzinfo=UTC)
HEAD = head_version("sqlite")
SECRET = "hunter2-secret"


@pytest.fixture
def db(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    """The bot's SQLite file ``data/monopoly.db`` in a folder without ``.env``, set as
    ``MONOPOLY_DB_PATH``; no other bot settings, no heartbeat (no bot seems to run)."""
    monkeypatch.chdir(tmp_path)
    for name in (
        "DISCORD_TOKEN",
        "MONOPOLY_DATABASE_URL",
        "MONOPOLY_SHARD_COUNT",
        "MONOPOLY_SHARD_IDS",
        "MONOPOLY_DEV_GUILD_ID",
    ):
        monkeypatch.delenv(name, raising=False)
    path = tmp_path / "data" / "monopoly.db"
    monkeypatch.setenv("MONOPOLY_DB_PATH", str(path))
    monkeypatch.setenv("MONOPOLY_HEARTBEAT_FILE", str(tmp_path / "no-heartbeat"))
    return path


async def add_games(path: Path, count: int) -> None:
    """``count`` running games more in the store file ``path``."""
    async with SqliteGameStore(path) as store:
        first = len(await store.list_games(GUILD))
        for number in range(first, first + count):  # one channel per game
            await store.create_game(GUILD, 1000 + number, make_state(number))


async def count_games(path: Path) -> int:
    """How many games the store file ``path`` holds, opened as the bot opens it."""
    async with SqliteGameStore(path) as store:
        return len(await store.list_games(GUILD))


def one_line(text: str) -> str:
    """``text``, asserted to be exactly one line without a traceback."""
    assert text.count("\n") == 1 and text.endswith("\n"), text
    assert "Traceback" not in text
    return text


async def test_backup_then_restore_with_force_keeps_the_replaced_file(
    db: Path, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    await add_games(db, 2)
    backup = tmp_path / "saved.db"
    assert cli.main(["backup", "--to", str(backup)]) == 0
    out, err = capsys.readouterr()
    assert "backed up 2 games" in one_line(out) and str(backup) in out and err == ""

    # An existing file is never overwritten without --force.
    assert cli.main(["backup", "--to", str(backup)]) == 2
    out, err = capsys.readouterr()
    assert "exists already" in one_line(err) and "--force" in err and out == ""
    assert cli.main(["backup", "--to", str(backup), "--force"]) == 0
    capsys.readouterr()

    await add_games(db, 1)  # a game the backup does not have
    assert cli.main(["restore", str(backup)]) == 2
    out, err = capsys.readouterr()
    assert "holds 3 games; add --force" in one_line(err)
    assert await count_games(db) == 3

    assert cli.main(["restore", str(backup), "--force"]) == 0
    out, err = capsys.readouterr()
    assert "restored 2 games" in one_line(out) and err == ""
    aside = db.with_name("monopoly.db.before-restore-" + out.rsplit("before-restore-")[1].strip())
    assert await count_games(db) == 2
    assert await count_games(aside) == 3  # the restore itself can be undone


async def test_the_default_backup_is_named_by_schema_and_time(
    db: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    await add_games(db, 1)
    assert cli.main(["backup"]) == 0
    out, _err = capsys.readouterr()
    made = list((db.parent / "backups").iterdir())
    assert len(made) == 1 and str(made[0]) in one_line(out)
    assert made[0].name.startswith(f"monopoly-v{HEAD}-") and made[0].name.endswith("Z.db")
    conn = sqlite3.connect(made[0])
    assert conn.execute("PRAGMA integrity_check").fetchone()[0] == "ok"
    conn.close()


async def test_restore_refuses_a_file_the_bot_has_open(
    db: Path, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """No heartbeat (a bot not connected to Discord writes none), but the file is open:
    the restore refuses and the file keeps every game."""
    await add_games(db, 2)
    backup = tmp_path / "saved.db"
    assert cli.main(["backup", "--to", str(backup)]) == 0
    capsys.readouterr()
    async with SqliteGameStore(db) as running:
        await running.create_game(GUILD, 99, make_state(9))
        assert cli.main(["restore", str(backup), "--force"]) == 2
        _out, err = capsys.readouterr()
        assert "is in use" in one_line(err) and "stop it first" in err
        assert len(await running.list_games(GUILD)) == 3
    assert not list(db.parent.glob("*.before-restore-*"))
    assert await count_games(db) == 3


@pytest.mark.parametrize(
    ("kind", "message"),
    [
        ("text", "cannot be read as a database"),
        ("foreign", "not a database of this bot"),
        ("newer", "newer than this bot's"),
        ("missing", "no backup file"),
    ],
)
async def test_restore_refuses_what_is_no_backup_of_this_bot(
    db: Path, tmp_path: Path, capsys: pytest.CaptureFixture[str], kind: str, message: str
) -> None:
    await add_games(db, 1)
    bad = tmp_path / f"{kind}.db"
    if kind == "text":
        bad.write_text("not a database\n")
    elif kind == "foreign":
        conn = sqlite3.connect(bad)
        conn.execute("CREATE TABLE games (id INTEGER)")
        conn.commit()
        conn.close()
    elif kind == "newer":
        assert cli.main(["backup", "--to", str(bad)]) == 0
        conn = sqlite3.connect(bad)
        conn.execute(
            "INSERT INTO schema_version VALUES (?, 'future', '2030-01-01T00:00:00+00:00')",
            (HEAD + 1,),
        )
        conn.commit()
        conn.close()
    capsys.readouterr()
    before = db.read_bytes()
    assert cli.main(["restore", str(bad), "--force"]) == 2
    out, err = capsys.readouterr()
    assert message in one_line(err) and out == ""
    assert db.read_bytes() == before
    assert not list(db.parent.glob("*.before-restore-*"))


def test_usage_and_configuration_problems_exit_2_in_one_line(
    db: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    with pytest.raises(SystemExit) as usage:
        cli.main(["restore"])
    assert usage.value.code == 2
    capsys.readouterr()

    assert cli.main(["backup"]) == 2  # no database yet
    _out, err = capsys.readouterr()
    assert "no database file" in one_line(err)

    monkeypatch.setenv("MONOPOLY_DB_PATH", f"postgresql://bot:{SECRET}@db/monopoly")
    for argv in (["backup"], ["restore", "x.db"]):
        assert cli.main(argv) == 2
        out, err = capsys.readouterr()
        one_line(err)
        assert SECRET not in out + err


def test_postgresql_without_its_tools_prints_the_command_never_the_password(
    db: Path, tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    """pg_dump and pg_restore not on PATH: the command to run, with the password as
    PGPASSWORD=*** (from ``user:password@`` or from ``?password=``)."""
    monkeypatch.setenv("PATH", str(tmp_path / "empty-bin"))
    dump = tmp_path / "pg.dump"
    dump.write_bytes(b"PGDMP")
    for url in (
        f"postgresql://bot:{SECRET}@db.example:5432/monopoly",
        f"postgresql://bot@db.example:5432/monopoly?sslmode=require&password={SECRET}",
    ):
        monkeypatch.setenv("MONOPOLY_DATABASE_URL", url)
        assert cli.main(["backup", "--to", str(tmp_path / "new.dump")]) == 2
        out, err = capsys.readouterr()
        assert "PGPASSWORD=*** pg_dump --format=custom" in one_line(err)
        assert "postgresql://bot@db.example:5432/monopoly" in err
        assert cli.main(["restore", str(dump), "--force"]) == 2
        out2, err2 = capsys.readouterr()
        assert "PGPASSWORD=*** pg_restore --clean --if-exists --no-owner" in one_line(err2)
        hint = pg_backup_hint(url)
        assert "PGPASSWORD=*** pg_dump" in hint
        assert SECRET not in out + err + out2 + err2 + hint


@pytest.mark.parametrize(
    ("current", "head", "made"),
    [(0, HEAD, False), (3, HEAD, True), (HEAD, HEAD, False), (HEAD + 1, HEAD, False)],
)
async def test_backup_before_migration_only_between_one_and_head(
    tmp_path: Path, caplog: pytest.LogCaptureFixture, current: int, head: int, made: bool
) -> None:
    path = tmp_path / "monopoly.db"
    async with aiosqlite.connect(path, isolation_level=None) as conn:
        await migrate(conn, now=lambda: NOW, target=min(max(current, 1), HEAD))
    with caplog.at_level(logging.INFO, logger="bot.store.backups"):
        result = backup_before_migration(path, current, head, NOW)
    if not made:
        assert result is None and not (tmp_path / "backups").exists()
        return
    assert result == tmp_path / "backups" / "monopoly-v3-20261128T213000Z.db"
    conn2 = sqlite3.connect(result)
    assert conn2.execute("SELECT max(version) FROM schema_version").fetchone()[0] == 3
    conn2.close()
    lines = [r.getMessage() for r in caplog.records if r.name == "bot.store.backups"]
    assert len(lines) == 1 and lines[0].startswith(f"Backed up {path} before migrating")
    assert f"schema v3 to v{HEAD}" in lines[0]


async def test_the_installed_command_exits_with_one_line(tmp_path: Path) -> None:
    """``python -m bot backup`` as a shell runs it: exit code 0 and one line, then 2 and
    one line for a backup that exists already."""
    path = tmp_path / "data" / "monopoly.db"
    await add_games(path, 1)
    env = {
        "PATH": "/usr/bin:/bin",
        "PYTHONPATH": str(ROOT),
        "MONOPOLY_DB_PATH": str(path),
        "MONOPOLY_HEARTBEAT_FILE": str(tmp_path / "no-heartbeat"),
    }
    command = [sys.executable, "-m", "bot", "backup", "--to", str(tmp_path / "b.db")]
    first = subprocess.run(
        command, cwd=tmp_path, env=env, capture_output=True, text=True, timeout=120
    )
    assert first.returncode == 0, first.stderr
    assert "backed up 1 game " in one_line(first.stdout)
    second = subprocess.run(
        command, cwd=tmp_path, env=env, capture_output=True, text=True, timeout=120
    )
    assert second.returncode == 2 and second.stdout == ""
    assert "exists already" in one_line(second.stderr)
