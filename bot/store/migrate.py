"""Versioned schema migrations: plain SQL files applied in order at start-up.

``bot/store/migrations/NNNN_name.sql`` holds migration ``NNNN``; numbers start at 1
and have no gaps. Each migration runs in its own transaction together with its row
in ``schema_version``, so a database is always at exactly one version, even if the
process dies half-way. Files are read with :mod:`importlib.resources`, so they ship
inside the wheel.
"""

from __future__ import annotations

import logging
import re
import sqlite3
from collections.abc import Callable
from dataclasses import dataclass
from datetime import datetime
from functools import cache
from importlib import resources

import aiosqlite

from bot.store.errors import SchemaError

log = logging.getLogger(__name__)

_FILE_NAME = re.compile(r"^(\d{4})_([a-z0-9_]+)\.sql$")

CREATE_SCHEMA_VERSION = """
CREATE TABLE IF NOT EXISTS schema_version (
    version    INTEGER PRIMARY KEY,
    name       TEXT NOT NULL,
    applied_at TEXT NOT NULL
)
"""


@dataclass(frozen=True)
class Migration:
    """One migration file: its version, name and SQL text."""

    version: int
    name: str
    sql: str

    def statements(self) -> list[str]:
        """The file's SQL statements, one string each (triggers stay whole)."""
        found: list[str] = []
        pending = ""
        for line in self.sql.splitlines(keepends=True):
            pending += line
            # complete_statement knows about string literals and BEGIN ... END of
            # triggers, so a ';' inside them does not cut a statement short.
            if sqlite3.complete_statement(pending):
                found.append(pending.strip())
                pending = ""
        rest = [ln for ln in pending.splitlines() if ln.strip() and not ln.strip().startswith("--")]
        if rest:
            raise SchemaError(f"migration {self.version:04d}_{self.name}: unterminated SQL")
        return found


@cache
def load_migrations() -> tuple[Migration, ...]:
    """Every migration shipped with the bot, in version order."""
    folder = resources.files("bot.store").joinpath("migrations")
    found = []
    for entry in folder.iterdir():
        match = _FILE_NAME.match(entry.name)
        if match:
            found.append(
                Migration(int(match[1]), match[2], entry.read_text(encoding="utf-8")),
            )
    found.sort(key=lambda m: m.version)
    if [m.version for m in found] != list(range(1, len(found) + 1)):
        raise SchemaError(f"migration numbers must be 1, 2, 3, ...: {[m.version for m in found]}")
    return tuple(found)


def head_version() -> int:
    """The schema version this code works with (the newest migration)."""
    return len(load_migrations())


async def schema_version(conn: aiosqlite.Connection) -> int:
    """The database's schema version; 0 for an empty database."""
    await conn.execute(CREATE_SCHEMA_VERSION)
    async with conn.execute("SELECT coalesce(max(version), 0) FROM schema_version") as cursor:
        row = await cursor.fetchone()
    assert row is not None
    return int(row[0])


async def migrate(
    conn: aiosqlite.Connection,
    *,
    now: Callable[[], datetime],
    target: int | None = None,
) -> list[int]:
    """Apply the migrations the database lacks, up to ``target`` (default: all).

    ``conn`` must be in autocommit mode (``isolation_level=None``). Foreign keys are
    switched off while migrating, because rebuilding a referenced table (SQLite's
    way to change a constraint) would otherwise fail; they are checked before each
    commit instead. Returns the versions applied. Raises
    :class:`~bot.store.errors.SchemaError` if the database is newer than this code
    or a migration fails (that migration is rolled back entirely).
    """
    migrations = load_migrations()
    head = len(migrations)
    target = head if target is None else target
    current = await schema_version(conn)
    if current > head:
        raise SchemaError(
            f"the database has schema version {current}, newer than this bot's {head}; "
            "update the bot",
        )
    await conn.execute("PRAGMA foreign_keys = OFF")
    applied = []
    for migration in migrations[current:target]:
        label = f"{migration.version:04d}_{migration.name}"
        await conn.execute("BEGIN IMMEDIATE")
        try:
            # Another process may have migrated since we looked; re-read under the lock.
            async with conn.execute("SELECT coalesce(max(version), 0) FROM schema_version") as cur:
                row = await cur.fetchone()
            if row is not None and row[0] >= migration.version:
                await conn.rollback()
                continue
            for statement in migration.statements():
                await conn.execute(statement)
            async with conn.execute("PRAGMA foreign_key_check") as cur:
                problems = await cur.fetchall()
            if problems:
                raise SchemaError(f"foreign keys broken: {[tuple(p) for p in problems[:5]]}")
            await conn.execute(
                "INSERT INTO schema_version (version, name, applied_at) VALUES (?, ?, ?)",
                (migration.version, migration.name, now().isoformat()),
            )
            await conn.commit()
        except BaseException as error:
            await conn.rollback()
            if isinstance(error, sqlite3.Error):
                raise SchemaError(f"migration {label} failed: {error}") from error
            raise
        log.info("Applied database migration %s", label)
        applied.append(migration.version)
    return applied
