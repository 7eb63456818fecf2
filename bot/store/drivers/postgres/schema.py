"""PostgreSQL's way of applying the migrations (``migrations/NNNN_name.sql`` next to this
file).

The whole run holds a session advisory lock (:data:`MIGRATION_LOCK`), so of processes
starting together one migrates while the others wait, then find the database at the head
and apply nothing. Each migration is one transaction with its ``schema_version`` row
(PostgreSQL's DDL is transactional).
"""

from __future__ import annotations

import logging
from collections.abc import Awaitable, Callable
from datetime import datetime
from typing import Any

import asyncpg

from bot.store import migrate as migrations
from bot.store.errors import SchemaError

log = logging.getLogger(__name__)

CREATE_SCHEMA_VERSION = """
CREATE TABLE IF NOT EXISTS schema_version (
    version    INTEGER PRIMARY KEY,
    name       TEXT NOT NULL,
    applied_at TIMESTAMPTZ NOT NULL
)
"""

#: The key of the advisory lock held while migrating ("monopoly" in ASCII). Advisory
#: locks belong to one database, so databases of one server do not wait on each other.
MIGRATION_LOCK = 0x6D6F6E6F706F6C79


async def schema_version(conn: Any) -> int:
    """A PostgreSQL database's schema version; 0 if it has none (nothing is created)."""
    if await conn.fetchval("SELECT to_regclass('schema_version')") is None:
        return 0
    return int(await conn.fetchval("SELECT coalesce(max(version), 0) FROM schema_version"))


async def migrate(
    conn: Any,
    *,
    now: Callable[[], datetime],
    target: int | None = None,
    before_migrating: Callable[[int, int], Awaitable[None]] | None = None,
) -> list[int]:
    """Apply the migrations the database lacks, up to ``target`` (default: all).

    ``conn`` is an :mod:`asyncpg` connection outside a transaction.
    ``before_migrating(current, head)`` runs (under the lock) first when a database with
    a schema is about to change. Returns the versions applied. Raises
    :class:`~bot.store.errors.SchemaError` if the database is newer than this code
    (before changing anything) or a migration fails (that migration is rolled back).
    """
    known = migrations.load_migrations("postgres")
    head = len(known)
    target = head if target is None else target
    await conn.execute("SELECT pg_advisory_lock($1)", MIGRATION_LOCK)
    try:
        # Read under the lock: another process may have migrated while we waited.
        current = await schema_version(conn)
        migrations.refuse_newer(current, head)
        if before_migrating is not None and 0 < current < target:
            await before_migrating(current, target)
        applied = []
        for migration in known[current:target]:
            try:
                async with conn.transaction():
                    await conn.execute(CREATE_SCHEMA_VERSION)
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
                raise SchemaError(f"migration {migration.label} failed: {error}") from error
            log.info("Applied database migration %s (PostgreSQL)", migration.label)
            applied.append(migration.version)
        return applied
    finally:
        if not conn.is_closed():
            await conn.execute("SELECT pg_advisory_unlock($1)", MIGRATION_LOCK)
