"""Backups of the store and restoring one: ``monopoly-bot backup`` and ``restore``, and the
backup ``run`` takes before it migrates a database.

**SQLite.** A backup is SQLite's online backup (``sqlite3.Connection.backup``): a
consistent copy page by page, safe while the bot runs and writes (WAL mode: the bot is
never blocked; a page the bot changes during the copy makes SQLite copy it again). The
copy is written to a temporary file next to the target and renamed into place only when it
is complete, so a file under the final name is always a whole backup. A restore checks the
backup (a database of this bot, ``integrity_check`` ok, a schema no newer than this code),
refuses while a bot is running on the file (its heartbeat is fresh, or any connection has
the file open), refuses to replace a database holding games without ``--force``, moves
the current file aside (``<name>.before-restore-<time>``, so a restore can itself be
undone) and copies the backup in the same way.

**PostgreSQL.** The backup is ``pg_dump --format=custom``, the restore ``pg_restore
--clean --if-exists --no-owner``; both are run when they are on ``PATH``, else the command
to run is printed. The password never appears on a command line or in output: it goes to
the child in ``PGPASSWORD``.

Before a migration (:func:`backup_before_migration`) the bot backs a SQLite file up to
``<folder of the file>/backups/<name>-v<schema>-<UTC time>.db``: an older bot refuses a
migrated database, so restoring that file (with the older bot installed) is how an
upgrade is rolled back (README, "Upgrade and backup").
"""

from __future__ import annotations

import logging
import os
import shutil
import sqlite3
import subprocess
from collections.abc import Callable
from dataclasses import dataclass
from datetime import UTC, datetime
from pathlib import Path
from urllib.parse import parse_qsl, unquote, urlencode, urlsplit, urlunsplit

from bot.store.drivers.postgres.urls import describe_url
from bot.store.migrate import head_version

log = logging.getLogger(__name__)

#: Seconds a backup or restore waits for a bot's brief write lock.
BUSY_TIMEOUT = 10.0
#: Seconds a restore waits for the file it replaces to be free: a running bot holds its
#: connection (and so its lock) for as long as it runs, so waiting longer would not help.
IN_USE_TIMEOUT = 1.0
#: The tables a database of this bot has (beside ``schema_version``).
BOT_TABLES = frozenset({"games", "actions", "timers"})


class BackupProblem(Exception):
    """A backup or restore that did not happen; the message is one line. ``code`` is the
    exit code: 2 for a refusal (nothing changed), 1 for a failure."""

    def __init__(self, message: str, code: int = 2) -> None:
        super().__init__(message)
        self.code = code


@dataclass(frozen=True)
class BackupReport:
    """What a backup wrote: where, how big, at which schema version, how many games."""

    path: Path
    size: int
    schema_version: int
    games: int

    def line(self) -> str:
        """One line for the command line and the log."""
        return (
            f"backed up {_games(self.games)} (schema v{self.schema_version}, "
            f"{self.size / 1024:.0f} KiB) to {self.path}"
        )


def _games(count: int) -> str:
    """``1 game``, ``3 games``."""
    return f"{count} game" if count == 1 else f"{count} games"


def utc_stamp(now: datetime) -> str:
    """``now`` as ``20261128T213000Z``, for file names (sorts in time order)."""
    return now.astimezone(UTC).strftime("%Y%m%dT%H%M%SZ")


def default_backup_path(db_path: Path, now: datetime, schema_version: int) -> Path:
    """``<folder of db_path>/backups/<stem>-v<schema>-<UTC time>.db``."""
    return db_path.parent / "backups" / f"{db_path.stem}-v{schema_version}-{utc_stamp(now)}.db"


def _connect(path: Path, *, readonly: bool) -> sqlite3.Connection:
    """A plain sqlite3 connection (``readonly``: SQLite refuses every write)."""
    if readonly:
        uri = f"{path.resolve().as_uri()}?mode=ro"
        return sqlite3.connect(uri, uri=True, timeout=BUSY_TIMEOUT)
    return sqlite3.connect(path, timeout=BUSY_TIMEOUT)


def describe_database(conn: sqlite3.Connection, what: str) -> tuple[int, int]:
    """The schema version and number of games of a database of this bot; BackupProblem
    (naming ``what``) if it is not one, is damaged or is newer than this code."""
    try:
        tables = {row[0] for row in conn.execute("SELECT name FROM sqlite_master")}
        if not tables >= BOT_TABLES or "schema_version" not in tables:
            raise BackupProblem(f"{what} is not a database of this bot (it has no games table)")
        problems = [row[0] for row in conn.execute("PRAGMA integrity_check")]
        if problems != ["ok"]:
            raise BackupProblem(f"{what} is damaged: {'; '.join(problems[:3])}")
        version = int(
            conn.execute("SELECT coalesce(max(version), 0) FROM schema_version").fetchone()[0]
        )
        games = int(conn.execute("SELECT count(*) FROM games").fetchone()[0])
    except sqlite3.DatabaseError as error:
        raise BackupProblem(f"{what} cannot be read as a database ({error})") from error
    if version > head_version("sqlite"):
        raise BackupProblem(
            f"{what} has schema version {version}, newer than this bot's "
            f"{head_version('sqlite')}; restore it with the newer bot installed"
        )
    return version, games


def _copy_into(source: sqlite3.Connection, target: Path) -> None:
    """SQLite's online backup of ``source`` into a new file ``target``, written under a
    temporary name next to it and renamed into place once complete."""
    target.parent.mkdir(parents=True, exist_ok=True)
    partial = target.with_name(f".{target.name}.partial")
    partial.unlink(missing_ok=True)
    try:
        destination = sqlite3.connect(partial)
        try:
            source.backup(destination)
            destination.execute("PRAGMA journal_mode = WAL")  # as the bot keeps its file
        finally:
            destination.close()
        os.replace(partial, target)
    except BaseException:
        partial.unlink(missing_ok=True)
        raise


def backup_sqlite(source: Path, target: Path, *, force: bool = False) -> BackupReport:
    """Back the SQLite file ``source`` up into ``target`` (see the module docstring)."""
    if not source.is_file():
        raise BackupProblem(f"there is no database file at {source}")
    if target.exists() and not force:
        raise BackupProblem(f"{target} exists already; give another --to or add --force")
    if target.resolve() == source.resolve():
        raise BackupProblem("the backup cannot be the database itself")
    try:
        conn = _connect(source, readonly=False)
    except sqlite3.Error as error:
        raise BackupProblem(f"cannot open {source}: {error}") from error
    try:
        version, games = describe_database(conn, str(source))
        try:
            _copy_into(conn, target)
        except (OSError, sqlite3.Error) as error:
            raise BackupProblem(f"the backup to {target} failed: {error}", code=1) from error
    finally:
        conn.close()
    return BackupReport(target, target.stat().st_size, version, games)


@dataclass(frozen=True)
class RestoreReport:
    """What a restore did: the backup it put in place and where the old file went."""

    backup: Path
    path: Path
    moved_aside: Path | None
    schema_version: int
    games: int

    def line(self) -> str:
        """One line for the command line."""
        aside = (
            f"; the database it replaced is {self.moved_aside}"
            if self.moved_aside is not None
            else ""
        )
        return (
            f"restored {_games(self.games)} (schema v{self.schema_version}) from "
            f"{self.backup} into {self.path}{aside}"
        )


def restore_sqlite(
    backup: Path,
    db_path: Path,
    *,
    force: bool,
    now: datetime,
    bot_running: Callable[[], str | None] = lambda: None,
) -> RestoreReport:
    """Put the SQLite backup ``backup`` in place of ``db_path`` (module docstring).

    ``bot_running`` says why a bot seems to run on the file (None if none does).
    """
    if not backup.is_file():
        raise BackupProblem(f"there is no backup file at {backup}")
    if backup.resolve() == db_path.resolve():
        raise BackupProblem("the backup is the database itself")
    try:
        source = _connect(backup, readonly=True)
    except sqlite3.Error as error:
        raise BackupProblem(f"cannot open {backup}: {error}") from error
    try:
        version, games = describe_database(source, str(backup))
        running = bot_running()
        if running is not None:
            raise BackupProblem(f"a bot is running on {db_path} ({running}); stop it first")
        moved = _move_aside(db_path, now, force=force) if db_path.exists() else None
        try:
            _copy_into(source, db_path)
        except (OSError, sqlite3.Error) as error:
            raise BackupProblem(
                f"the restore into {db_path} failed: {error}"
                + (f"; the previous database is {moved}" if moved else ""),
                code=1,
            ) from error
    finally:
        source.close()
    return RestoreReport(backup, db_path, moved, version, games)


def _move_aside(db_path: Path, now: datetime, *, force: bool) -> Path:
    """Move the database (checkpointed, so its WAL is in the file) to
    ``<name>.before-restore-<time>``; refuses one holding games unless ``force``, and
    one that another connection (a running bot) has open."""
    try:
        conn = sqlite3.connect(db_path, timeout=IN_USE_TIMEOUT, isolation_level=None)
    except sqlite3.Error as error:
        raise BackupProblem(f"cannot open {db_path}: {error}") from error
    try:
        games = _hold_alone(conn, db_path)
    finally:
        conn.close()
    if games and not force:
        raise BackupProblem(
            f"{db_path} holds {_games(games)}; add --force to replace it (it is kept as "
            f"{db_path.name}.before-restore-<time>)"
        )
    aside = db_path.with_name(f"{db_path.name}.before-restore-{utc_stamp(now)}")
    os.replace(db_path, aside)
    # Safe only because _hold_alone saw every frame of the WAL copied into the file.
    for suffix in ("-wal", "-shm"):
        db_path.with_name(db_path.name + suffix).unlink(missing_ok=True)
    return aside


def _hold_alone(conn: sqlite3.Connection, db_path: Path) -> int:
    """Take the file for ``conn`` alone, copy its WAL into it; its number of games (0 if
    it is no database of this bot). BackupProblem if another connection has it open.

    The heartbeat misses a bot that is not connected to Discord (or writes it elsewhere),
    so the file itself is asked: in WAL mode every open connection holds a shared lock for
    its whole life, which an exclusive lock cannot get past. Moving a file that a bot
    still writes would lose its last writes, and deleting a WAL that could not be copied
    in would leave a damaged file behind.
    """
    try:
        conn.execute("PRAGMA locking_mode = EXCLUSIVE")  # keep the lock after COMMIT
        conn.execute("BEGIN EXCLUSIVE")
        conn.execute("SELECT count(*) FROM sqlite_master").fetchone()
        conn.execute("COMMIT")
    except sqlite3.OperationalError as error:
        if getattr(error, "sqlite_errorcode", None) in (sqlite3.SQLITE_BUSY, sqlite3.SQLITE_LOCKED):
            raise BackupProblem(
                f"{db_path} is in use (is the bot still running?); stop it first"
            ) from error
        return 0  # not a database at all: nothing to lose by moving it
    except sqlite3.DatabaseError:
        return 0
    try:
        busy, frames, copied = conn.execute("PRAGMA wal_checkpoint(TRUNCATE)").fetchone()
    except sqlite3.DatabaseError:
        return 0  # damaged: moved aside as it is
    if busy or frames != copied:
        raise BackupProblem(
            f"{db_path} is in use (its WAL could not be copied in); stop the bot first"
        )
    try:
        return int(conn.execute("SELECT count(*) FROM games").fetchone()[0])
    except sqlite3.DatabaseError:
        return 0  # not a database of this bot (or damaged): nothing to lose by moving it


def backup_before_migration(
    db_path: Path, current_version: int, head: int, now: datetime
) -> Path | None:
    """Back the file up before the bot migrates it from ``current_version`` to ``head``;
    the backup's path (None for a new database, which needs none)."""
    if not 0 < current_version < head:
        return None
    target = default_backup_path(db_path, now, current_version)
    report = backup_sqlite(db_path, target)
    log.info(
        "Backed up %s before migrating schema v%d to v%d: %s (restore it with "
        "`monopoly-bot restore` to roll the upgrade back)",
        db_path,
        current_version,
        head,
        report.path,
    )
    return report.path


# -- PostgreSQL ---------------------------------------------------------------------------------


def _without_password(url: str) -> tuple[str, str | None]:
    """``url`` without its password, and the password (for PGPASSWORD). libpq takes one
    in ``user:password@`` and in a ``password=`` query parameter; both are taken out."""
    parts = urlsplit(url)
    password = unquote(parts.password) if parts.password is not None else None
    query = parse_qsl(parts.query, keep_blank_values=True)
    kept = [(key, value) for key, value in query if key != "password"]
    if len(kept) != len(query):
        password = next(value for key, value in reversed(query) if key == "password")
        parts = parts._replace(query=urlencode(kept))
    if parts.password is not None:
        host = parts.hostname or ""
        if ":" in host:
            host = f"[{host}]"
        user = parts.username or ""
        netloc = f"{user}@{host}" if user else host
        if parts.port is not None:
            netloc += f":{parts.port}"
        parts = parts._replace(netloc=netloc)
    return urlunsplit(parts), password


def pg_command(tool: str, url: str, *args: str) -> tuple[list[str], dict[str, str]]:
    """The command line of ``pg_dump``/``pg_restore`` on ``url`` (without its password)
    and the environment that carries the password."""
    bare, password = _without_password(url)
    env = dict(os.environ)
    if password is not None:
        env["PGPASSWORD"] = password
    return [tool, *args, f"--dbname={bare}"], env


def shown(command: list[str], url: str) -> str:
    """A command for messages: the URL without its password (``PGPASSWORD=*** …``)."""
    _bare, password = _without_password(url)
    prefix = "PGPASSWORD=*** " if password is not None else ""
    return prefix + " ".join(command)


def pg_backup_hint(url: str) -> str:
    """The line to log before a PostgreSQL database is migrated: how to back it up."""
    command, _env = pg_command(
        "pg_dump", url, "--format=custom", "--file=monopoly-before-upgrade.dump"
    )
    return (
        f"PostgreSQL {describe_url(url)} is about to be migrated; back it up first with: "
        f"{shown(command, url)}"
    )


def run_pg_tool(tool: str, url: str, *args: str) -> str:
    """Run ``pg_dump``/``pg_restore`` (BackupProblem with the command to run by hand if it
    is not installed, or the tool's last line of error if it fails); its output."""
    command, env = pg_command(tool, url, *args)
    if shutil.which(tool) is None:
        raise BackupProblem(f"{tool} is not installed here; run: {shown(command, url)}")
    done = subprocess.run(command, env=env, capture_output=True, text=True, check=False)
    if done.returncode != 0:
        lines = [line for line in done.stderr.splitlines() if line.strip()]
        reason = lines[-1] if lines else f"exit code {done.returncode}"
        raise BackupProblem(f"{tool} failed: {reason}", code=1)
    return done.stdout
