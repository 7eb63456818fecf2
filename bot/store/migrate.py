"""Versioned schema migrations: plain SQL files applied in order at start-up.

``bot/store/migrations/NNNN_name.sql`` holds migration ``NNNN`` of SQLite, and
``bot/store/migrations/postgres/NNNN_name.sql`` the same migration in PostgreSQL's
dialect: the same numbers with the same meaning, so a version says the same about a
database of either kind. Numbers start at 1 and have no gaps. Each migration runs in its
own transaction together with its row in ``schema_version``, so a database is always at
exactly one version, even if the process dies half-way. Files are read with
:mod:`importlib.resources`, so they ship inside the wheel.

Two processes starting together on one database do not race: SQLite's migrations take
the write lock (``BEGIN IMMEDIATE``) and look at the version again under it; PostgreSQL's
run under a session advisory lock (:data:`PG_MIGRATION_LOCK`), so one process migrates
while the other waits, then finds the database at the head and applies nothing.
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
from typing import Any

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

CREATE_SCHEMA_VERSION_PG = """
CREATE TABLE IF NOT EXISTS schema_version (
    version    INTEGER PRIMARY KEY,
    name       TEXT NOT NULL,
    applied_at TIMESTAMPTZ NOT NULL
)
"""

#: The dialects with migration files, and their folder under ``bot/store/migrations``.
DIALECTS = {"sqlite": (), "postgres": ("postgres",)}

#: The key of the PostgreSQL advisory lock held while migrating ("monopoly" in ASCII).
#: Advisory locks belong to one database, so databases of one server do not wait on
#: each other.
PG_MIGRATION_LOCK = 0x6D6F6E6F706F6C79


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
def load_migrations(dialect: str = "sqlite") -> tuple[Migration, ...]:
    """Every migration shipped with the bot for ``dialect`` (``sqlite``, ``postgres``),
    in version order."""
    folder = resources.files("bot.store").joinpath("migrations", *DIALECTS[dialect])
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


def head_version(dialect: str = "sqlite") -> int:
    """The schema version this code works with (the newest migration)."""
    return len(load_migrations(dialect))


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


async def pg_schema_version(conn: Any) -> int:
    """A PostgreSQL database's schema version; 0 if it has none (nothing is created)."""
    if await conn.fetchval("SELECT to_regclass('schema_version')") is None:
        return 0
    return int(await conn.fetchval("SELECT coalesce(max(version), 0) FROM schema_version"))


async def migrate_postgres(
    conn: Any,
    *,
    now: Callable[[], datetime],
    target: int | None = None,
) -> list[int]:
    """Apply the PostgreSQL migrations the database lacks, up to ``target`` (default: all).

    ``conn`` is an :mod:`asyncpg` connection outside a transaction. The whole run holds
    the advisory lock :data:`PG_MIGRATION_LOCK`, so of processes starting together one
    migrates and the others wait, then find nothing left to do. Each migration is one
    transaction with its ``schema_version`` row (PostgreSQL's DDL is transactional).
    Returns the versions applied. Raises :class:`~bot.store.errors.SchemaError` if the
    database is newer than this code (before changing anything) or a migration fails
    (that migration is rolled back entirely).
    """
    import asyncpg  # only a PostgreSQL store gets here; SQLite alone does not need it

    migrations = load_migrations("postgres")
    head = len(migrations)
    target = head if target is None else target
    await conn.execute("SELECT pg_advisory_lock($1)", PG_MIGRATION_LOCK)
    try:
        # Read under the lock: another process may have migrated while we waited.
        current = await pg_schema_version(conn)
        if current > head:
            raise SchemaError(
                f"the database has schema version {current}, newer than this bot's {head}; "
                "update the bot",
            )
        applied = []
        for migration in migrations[current:target]:
            label = f"{migration.version:04d}_{migration.name}"
            try:
                async with conn.transaction():
                    await conn.execute(CREATE_SCHEMA_VERSION_PG)
                    # One call runs the whole file (asyncpg's simple query protocol), so
                    # PL/pgSQL bodies with ';' inside need no splitting.
                    await conn.execute(migration.sql)
                    await conn.execute(
                        "INSERT INTO schema_version (version, name, applied_at)"
                        " VALUES ($1, $2, $3)",
                        migration.version,
                        migration.name,
                        now(),
                    )
            except asyncpg.PostgresError as error:
                raise SchemaError(f"migration {label} failed: {error}") from error
            log.info("Applied database migration %s (PostgreSQL)", label)
            applied.append(migration.version)
        return applied
    finally:
        if not conn.is_closed():
            await conn.execute("SELECT pg_advisory_unlock($1)", PG_MIGRATION_LOCK)
