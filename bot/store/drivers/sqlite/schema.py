"""SQLite's way of applying the migrations (``migrations/NNNN_name.sql`` next to this file).

Two processes starting together on one file do not race: each migration takes the write
lock (``BEGIN IMMEDIATE``) and looks at the version again under it, so one process
migrates while the other waits, then finds the database at the head and applies nothing.
"""

from __future__ import annotations

import logging
import sqlite3
from collections.abc import Awaitable, Callable
from datetime import datetime

import aiosqlite

from bot.store import migrate as migrations
from bot.store.errors import SchemaError

log = logging.getLogger(__name__)

CREATE_SCHEMA_VERSION = """
CREATE TABLE IF NOT EXISTS schema_version (
    version    INTEGER PRIMARY KEY,
    name       TEXT NOT NULL,
    applied_at TEXT NOT NULL
)
"""

#: Called before the first migration is applied to a database that has a schema
#: already, with its version and the head (a backup is taken there).
BeforeMigrating = Callable[[int, int], Awaitable[None]]


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
    before_migrating: BeforeMigrating | None = None,
) -> list[int]:
    """Apply the migrations the database lacks, up to ``target`` (default: all).

    ``conn`` must be in autocommit mode (``isolation_level=None``). Foreign keys are
    switched off while migrating, because rebuilding a referenced table (SQLite's
    way to change a constraint) would otherwise fail; they are checked before each
    commit instead. ``before_migrating(current, head)`` runs first when a database with
    a schema is about to change. Returns the versions applied. Raises
    :class:`~bot.store.errors.SchemaError` if the database is newer than this code
    or a migration fails (that migration is rolled back entirely).
    """
    known = migrations.load_migrations("sqlite")
    head = len(known)
    target = head if target is None else target
    current = await schema_version(conn)
    migrations.refuse_newer(current, head)
    if before_migrating is not None and 0 < current < target:
        await before_migrating(current, target)
    await conn.execute("PRAGMA foreign_keys = OFF")
    applied = []
    for migration in known[current:target]:
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
                problems = list(await cur.fetchall())
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
                raise SchemaError(f"migration {migration.label} failed: {error}") from error
            raise
        log.info("Applied database migration %s", migration.label)
        applied.append(migration.version)
    return applied
