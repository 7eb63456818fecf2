"""``monopoly-bot backup`` and ``monopoly-bot restore``: the store saved to a file, and put
back (bot/store/backups.py does the work). One line per outcome; exit code 0, 1 (failed)
or 2 (refused: nothing changed)."""

from __future__ import annotations

import argparse
import sys
from datetime import UTC, datetime
from pathlib import Path

from bot.cli.common import settings_from_env

#: How old the running bot's heartbeat may be for the file to count as in use.
IN_USE_HEARTBEAT = 120.0


def cmd_backup(args: argparse.Namespace) -> int:
    """``monopoly-bot backup [--to FILE] [--force]``: back the store up, also while the bot
    runs (SQLite's online backup; PostgreSQL's pg_dump)."""
    from bot.store.backups import BackupProblem, backup_sqlite, default_backup_path, run_pg_tool

    settings = settings_from_env("monopoly-bot backup")
    if settings is None:
        return 2
    now = datetime.now(UTC)
    try:
        if settings.database_url:
            target = Path(args.to) if args.to else _pg_default(settings.db_path, now)
            if target.exists() and not args.force:
                raise BackupProblem(f"{target} exists already; give another --to or add --force")
            target.parent.mkdir(parents=True, exist_ok=True)
            run_pg_tool("pg_dump", settings.database_url, "--format=custom", f"--file={target}")
            print(f"monopoly-bot: backed up the PostgreSQL database to {target} (pg_dump)")
            return 0
        source = Path(settings.db_path)
        target = Path(args.to) if args.to else default_backup_path(source, now, _version(source))
        report = backup_sqlite(source, target, force=args.force)
    except BackupProblem as error:
        print(f"monopoly-bot backup: {error}", file=sys.stderr)
        return error.code
    except OSError as error:
        print(f"monopoly-bot backup: {error}", file=sys.stderr)
        return 1
    print(f"monopoly-bot: {report.line()}")
    return 0


def cmd_restore(args: argparse.Namespace) -> int:
    """``monopoly-bot restore FILE [--force]``: put a backup in place of the store; the bot
    must be stopped (the file it replaces is kept beside it)."""
    from bot.heartbeat import check_heartbeat
    from bot.store.backups import BackupProblem, restore_sqlite, run_pg_tool

    settings = settings_from_env("monopoly-bot restore")
    if settings is None:
        return 2

    def bot_running() -> str | None:
        health = check_heartbeat(settings.heartbeat_file, max_age=IN_USE_HEARTBEAT)
        return health.line if health.healthy else None

    backup = Path(args.file)
    try:
        if settings.database_url:
            if not backup.is_file():
                raise BackupProblem(f"there is no backup file at {backup}")
            if not args.force:
                raise BackupProblem(
                    "restoring replaces every table of the PostgreSQL database; stop the "
                    "bots and add --force"
                )
            if (running := bot_running()) is not None:
                raise BackupProblem(f"a bot is running ({running}); stop it first")
            run_pg_tool(
                "pg_restore",
                settings.database_url,
                "--clean",
                "--if-exists",
                "--no-owner",
                str(backup),
            )
            print(f"monopoly-bot: restored the PostgreSQL database from {backup} (pg_restore)")
            return 0
        report = restore_sqlite(
            backup,
            Path(settings.db_path),
            force=args.force,
            now=datetime.now(UTC),
            bot_running=bot_running,
        )
    except BackupProblem as error:
        print(f"monopoly-bot restore: {error}", file=sys.stderr)
        return error.code
    except OSError as error:
        print(f"monopoly-bot restore: {error}", file=sys.stderr)
        return 1
    print(f"monopoly-bot: {report.line()}")
    return 0


def _version(path: Path) -> int:
    """The schema version of the SQLite file (0 if it cannot be read: the backup will say
    why)."""
    import sqlite3

    try:
        conn = sqlite3.connect(f"{path.resolve().as_uri()}?mode=ro", uri=True)
        try:
            row = conn.execute("SELECT coalesce(max(version), 0) FROM schema_version").fetchone()
            return int(row[0])
        finally:
            conn.close()
    except sqlite3.Error:
        return 0


def _pg_default(db_path: Path, now: datetime) -> Path:
    """Where a PostgreSQL backup goes by default: ``<data folder>/backups/``."""
    from bot.store.backups import utc_stamp

    return Path(db_path).parent / "backups" / f"postgres-{utc_stamp(now)}.dump"
