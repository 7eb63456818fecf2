"""A throwaway PostgreSQL server for the tests: one per test process, a database per test.

The store's, the scheduler's and the service's tests run against SQLite and against a real
PostgreSQL server. This module starts that server for them (fixtures below, imported by the
conftests):

* :func:`pg_cluster` (session scope) makes a cluster in a new temporary folder with
  ``initdb`` and runs ``postgres`` on a unix socket in that folder only (no TCP port), with
  everything that makes it durable turned off (``fsync``, ``synchronous_commit``,
  ``full_page_writes``): a test database is thrown away anyway. Each pytest-xdist worker is
  its own process and so gets its own cluster, folder and socket. PostgreSQL refuses to run
  as root, so when the tests run as root the server runs as the ``postgres`` system user
  (the folder is handed to it). The server is stopped (``pg_ctl stop -m immediate``) and the
  folder removed at the end of the session, by ``atexit`` as well (Ctrl-C), and the server
  gets SIGQUIT (PostgreSQL's immediate shutdown) if the test process itself is killed.
  (The server's machinery is :class:`bot.store.drivers.postgres.server.PgServer`, which
  ``monopoly-bot bench --store`` uses too; :class:`PgCluster` adds the test databases.)
* :meth:`PgCluster.create_database` gives one test a database of its own: migrated to
  the head (a copy of a template database migrated once per cluster: ``CREATE DATABASE …
  TEMPLATE`` copies its files, faster than migrating again), or empty for the migration
  tests. :meth:`PgCluster.release_database` empties a migrated one after the test (every
  row deleted, ids restarted, other connections ended: about 15 ms, where a new copy
  takes 100 to 250 ms) so the next test gets it as new; :meth:`PgCluster.drop_database`
  removes one whose schema a test changed.

Without the PostgreSQL binaries (``initdb``, ``pg_ctl``, ``postgres``, version 13 or newer,
looked for on ``PATH``, in ``/usr/local/bin`` and in ``/usr/lib/postgresql/*/bin``, or only
in the folder ``MONOPOLY_POSTGRES_BIN`` names) the PostgreSQL half is skipped with the
reason "PostgreSQL 15 binaries not found (…)"; with ``MONOPOLY_REQUIRE_POSTGRES=1`` in the
environment (CI sets it) it fails instead.
"""

from __future__ import annotations

import itertools
import os
from collections.abc import Iterator
from datetime import UTC, datetime
from pathlib import Path

import asyncpg
import pytest

from bot.store.drivers.postgres import migrate as migrate_postgres

# The server itself is bot/store/drivers/postgres/server.py, shared with the store bench
# (the command line must not import the tests); find_bindir is re-exported from here.
from bot.store.drivers.postgres.server import (
    BIN_ENV,
    SOCKET_PORT,
    PgServer,
    find_bindir,
    search_path,
)
from bot.store.migrate import head_version

#: Set to 1 (CI does) to fail, not skip, when PostgreSQL cannot be started.
REQUIRE_ENV = "MONOPOLY_REQUIRE_POSTGRES"
#: The template database that holds the migrated schema.
TEMPLATE = "monopoly_template"
#: The port only names the socket file (``.s.PGSQL.<port>``); there is no TCP listener.
PORT = SOCKET_PORT

__all__ = ["PgCluster", "find_bindir", "pg_cluster", "skip_or_fail"]


def _not_found(reason: str) -> str:
    where = ", ".join(search_path())
    return (
        f"PostgreSQL 15 binaries not found ({reason}; looked in {where}); the PostgreSQL "
        f"half of the store tests needs initdb, pg_ctl and postgres (or {BIN_ENV}=folder; "
        f"{REQUIRE_ENV}=1 makes this a failure)"
    )


def skip_or_fail(reason: str) -> None:
    """Skip the calling test with ``reason``, or fail it if PostgreSQL is required."""
    if os.environ.get(REQUIRE_ENV, "").strip() not in ("", "0"):
        pytest.fail(f"{REQUIRE_ENV} is set, but: {reason}", pytrace=False)
    pytest.skip(reason)


class PgCluster(PgServer):
    """A PostgreSQL cluster in a temporary folder, for one test process: a
    :class:`~bot.store.drivers.postgres.server.PgServer` on a unix socket only, durability off, with
    databases for the tests."""

    def __init__(self, bindir: Path) -> None:
        super().__init__(
            bindir,
            port=PORT,
            durable=False,
            settings={"max_connections": "200", "shared_buffers": "32MB"},
        )
        self._numbers = itertools.count(1)
        self._template_ready = False
        # Migrated databases emptied after their test, ready for the next one.
        self._idle: list[str] = []
        self._reset_sql = ""

    async def _admin(self) -> asyncpg.Connection:
        return await asyncpg.connect(self.url("postgres"))

    async def create_database(self, *, migrated: bool = True) -> tuple[str, str]:
        """A database for one test: ``(url, name)``; migrated to the head, or empty.

        A migrated one may be one an earlier test used, emptied by
        :meth:`release_database`: no row, ids start at 1 again.
        """
        if migrated and self._idle:
            name = self._idle.pop()
            return self.url(name), name
        name = f"t_{os.getpid()}_{next(self._numbers)}"
        admin = await self._admin()
        try:
            if migrated and not self._template_ready:
                await admin.execute(f"CREATE DATABASE {TEMPLATE}")
                template = await asyncpg.connect(self.url(TEMPLATE))
                try:
                    await migrate_postgres(template, now=_utc_now)
                    self._reset_sql = await _reset_sql(template)
                finally:
                    await template.close()
                self._template_ready = True
            # FILE_COPY copies the template's files (PostgreSQL 15's default, WAL_LOG,
            # writes them through the log: slower for many small databases).
            strategy = " STRATEGY FILE_COPY" if await _major(admin) >= 15 else ""
            source = TEMPLATE if migrated else "template0"
            await admin.execute(f"CREATE DATABASE {name} TEMPLATE {source}{strategy}")
        finally:
            await admin.close()
        return self.url(name), name

    async def release_database(self, name: str) -> None:
        """A test is done with a migrated database: empty it for the next test.

        Ends the connections the test left open, deletes every row (with triggers and
        foreign keys off for this session: the action log is append-only otherwise) and
        restarts the ids. A database whose schema is no longer at the head (a test
        migrated or damaged it) is dropped instead.
        """
        try:
            conn = await asyncpg.connect(self.url(name))
            try:
                await conn.execute(
                    "SELECT pg_terminate_backend(pid) FROM pg_stat_activity"
                    " WHERE datname = current_database() AND pid <> pg_backend_pid()"
                )
                version = await conn.fetchval("SELECT max(version) FROM schema_version")
                if version != head_version("postgres"):
                    raise RuntimeError(f"schema version {version}")
                await conn.execute(self._reset_sql)
            finally:
                await conn.close()
        except (OSError, asyncpg.PostgresError, RuntimeError):
            await self.drop_database(name)
            return
        self._idle.append(name)

    async def drop_database(self, name: str) -> None:
        """Remove a test's database, closing connections a test left open."""
        admin = await self._admin()
        try:
            await admin.execute(f"DROP DATABASE IF EXISTS {name} WITH (FORCE)")
        finally:
            await admin.close()


def _utc_now() -> datetime:
    return datetime.now(UTC)


async def _reset_sql(conn: asyncpg.Connection) -> str:
    """The statements that empty a database of the migrated schema (see
    :meth:`PgCluster.release_database`); ``schema_version`` stays."""
    tables = [
        row[0]
        for row in await conn.fetch(
            "SELECT tablename FROM pg_tables WHERE schemaname = 'public'"
            " AND tablename <> 'schema_version' ORDER BY 1"
        )
    ]
    identities = await conn.fetch(
        "SELECT table_name, column_name FROM information_schema.columns"
        " WHERE table_schema = 'public' AND is_identity = 'YES' ORDER BY 1"
    )
    return "; ".join(
        [
            # Replica mode: no triggers, no foreign key checks (superuser only).
            "SET session_replication_role = replica",
            *(f"DELETE FROM {table}" for table in tables),
            *(f"ALTER TABLE {table} ALTER COLUMN {column} RESTART" for table, column in identities),
        ]
    )


async def _major(conn: asyncpg.Connection) -> int:
    return int(await conn.fetchval("SHOW server_version_num")) // 10000


@pytest.fixture(scope="session")
def pg_cluster() -> Iterator[PgCluster]:
    """This test process's PostgreSQL cluster (started on first use, removed at the end).

    Skips the test (or fails it, with ``MONOPOLY_REQUIRE_POSTGRES=1``) if PostgreSQL is
    not installed or cannot run here.
    """
    bindir, found = find_bindir()
    if bindir is None:
        skip_or_fail(_not_found(found))
    assert bindir is not None
    try:
        cluster = PgCluster(bindir)
    except KeyError:
        skip_or_fail("PostgreSQL cannot run as root and there is no 'postgres' user to run it as")
    cluster.start()
    try:
        yield cluster
    finally:
        cluster.stop()
