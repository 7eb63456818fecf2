"""The two store drivers as test fixtures: every store test runs on SQLite and PostgreSQL.

A :class:`Backend` is one test's database (a SQLite file in ``tmp_path``, or a fresh
database on this test process's PostgreSQL cluster, see ``tests/pg.py``) with what tests
need besides the store itself: more stores on the same database (each one is what a
second bot process would be), another empty database, raw SQL behind the store's back (to
damage rows as a bad disk or a bad hand would) and a snapshot of every row (to show that a
refused call changed nothing).

Fixtures: ``driver`` (``"sqlite"`` or ``"postgres"``, parametrized, so a test that uses it
runs once per driver), ``backend`` and ``store_factory`` (a function making unopened stores
on the backend's database). ``tests/store/conftest.py`` adds ``store`` on top.
"""

from __future__ import annotations

import abc
import re
import sqlite3
from collections.abc import AsyncIterator, Callable
from pathlib import Path
from typing import Any

import asyncpg
import pytest

from bot.store import PostgresGameStore, SqliteGameStore
from bot.store.sql import SqlGameStore
from tests.pg import PgCluster

#: The drivers every parametrized test runs on.
DRIVERS = ("sqlite", "postgres")
#: Tables of the schema, in an order a snapshot lists them.
TABLES = ("games", "actions", "timers", "user_prefs", "guild_files", "bot_meta", "schema_version")

StoreFactory = Callable[..., SqlGameStore]


class Backend(abc.ABC):
    """One test's database on one driver."""

    name: str

    @abc.abstractmethod
    def store(self, **options: Any) -> SqlGameStore:
        """A new store (not opened) on this database: another "process" on it."""

    @abc.abstractmethod
    async def other(self) -> Backend:
        """Another, empty database of the same driver (e.g. to import a game into)."""

    @abc.abstractmethod
    async def execute(self, sql: str, *params: Any) -> None:
        """Run ``sql`` (``?`` placeholders) behind the store's back, committed."""

    @abc.abstractmethod
    async def fetch(self, sql: str, *params: Any) -> list[tuple[Any, ...]]:
        """The rows of a query (``?`` placeholders) read behind the store's back."""

    @abc.abstractmethod
    async def snapshot(self) -> list[str]:
        """Every row of the database as text, sequences (next ids) included."""

    @abc.abstractmethod
    async def cleanup(self) -> None:
        """Remove what :meth:`other` made."""


class SqliteBackend(Backend):
    """A SQLite file."""

    name = "sqlite"

    def __init__(self, path: Path) -> None:
        self.path = path
        self._others = 0

    def store(self, **options: Any) -> SqliteGameStore:
        """A new store on the file."""
        return SqliteGameStore(self.path, **options)

    async def cleanup(self) -> None:
        """Nothing to do: the files are in ``tmp_path``."""

    async def other(self) -> SqliteBackend:
        """Another file next to this one."""
        self._others += 1
        return SqliteBackend(self.path.with_name(f"other-{self._others}.db"))

    def _connect(self) -> sqlite3.Connection:
        self.path.parent.mkdir(parents=True, exist_ok=True)
        return sqlite3.connect(self.path)

    async def execute(self, sql: str, *params: Any) -> None:
        """Run ``sql`` through a second connection, committed."""
        conn = self._connect()
        try:
            with conn:
                conn.execute(sql, params)
        finally:
            conn.close()

    async def fetch(self, sql: str, *params: Any) -> list[tuple[Any, ...]]:
        """Rows through a second connection (WAL included)."""
        conn = self._connect()
        try:
            return [tuple(row) for row in conn.execute(sql, params)]
        finally:
            conn.close()

    async def snapshot(self) -> list[str]:
        """Every row as SQL, read through a second connection (WAL included)."""
        conn = self._connect()
        try:
            return list(conn.iterdump())
        finally:
            conn.close()


def _dollars(sql: str) -> str:
    """``?`` placeholders as PostgreSQL's ``$1``, ``$2``, ... (test SQL has no ``?`` else)."""
    numbers = iter(range(1, 1000))
    return re.sub(r"\?", lambda _match: f"${next(numbers)}", sql)


class PostgresBackend(Backend):
    """A database on this test process's PostgreSQL cluster."""

    name = "postgres"

    def __init__(self, cluster: PgCluster, url: str, name: str) -> None:
        self.cluster = cluster
        self.url = url
        self.database = name
        self._others: list[PostgresBackend] = []
        # One connection for the test's raw SQL and snapshots (opened on first use,
        # closed by cleanup), and the snapshot's query, made once per test.
        self._conn: asyncpg.Connection | None = None
        self._snapshot_sql: str | None = None

    def store(self, **options: Any) -> PostgresGameStore:
        """A new store with its own pool on the database."""
        options.setdefault("max_size", 4)  # tests open several pools at once
        return PostgresGameStore(self.url, **options)

    async def other(self) -> PostgresBackend:
        """Another migrated database on the cluster (dropped with this one)."""
        url, name = await self.cluster.create_database()
        other = PostgresBackend(self.cluster, url, name)
        self._others.append(other)
        return other

    async def cleanup(self) -> None:
        """Close the test's connection; give the other databases back (emptied)."""
        if self._conn is not None:
            conn, self._conn = self._conn, None
            await conn.close()
        for other in self._others:
            await other.cleanup()
            await self.cluster.release_database(other.database)

    async def _connection(self) -> asyncpg.Connection:
        if self._conn is None or self._conn.is_closed():
            self._conn = await asyncpg.connect(self.url)
        return self._conn

    async def execute(self, sql: str, *params: Any) -> None:
        """Run ``sql`` on the test's own connection (autocommit: each statement commits)."""
        conn = await self._connection()
        await conn.execute(_dollars(sql), *params)

    async def fetch(self, sql: str, *params: Any) -> list[tuple[Any, ...]]:
        """Rows read on the test's own connection."""
        conn = await self._connection()
        return [tuple(row) for row in await conn.fetch(_dollars(sql), *params)]

    async def snapshot(self) -> list[str]:
        """Every row of every table, and where each id sequence stands (one query)."""
        conn = await self._connection()
        if self._snapshot_sql is None:
            tables = await conn.fetch(
                "SELECT tablename FROM pg_tables WHERE schemaname = 'public' ORDER BY 1"
            )
            sequences = await conn.fetch(
                "SELECT sequencename FROM pg_sequences WHERE schemaname = 'public' ORDER BY 1"
            )
            parts = [
                f"SELECT '{table}: ' || row_to_json(t)::text AS line FROM {table} AS t"
                for (table,) in tables
            ] + [
                f"SELECT '{sequence}: ' || last_value || ' ' || is_called FROM {sequence}"
                for (sequence,) in sequences
            ]
            self._snapshot_sql = " UNION ALL ".join(parts) + " ORDER BY line"
        return [row[0] for row in await conn.fetch(self._snapshot_sql)]


@pytest.fixture(params=DRIVERS)
def driver(request: pytest.FixtureRequest) -> str:
    """The store driver of this run of the test (``sqlite`` or ``postgres``)."""
    if request.param == "postgres":
        request.getfixturevalue("pg_cluster")  # skips here if PostgreSQL is missing
    return str(request.param)


@pytest.fixture
async def backend(
    driver: str, tmp_path: Path, request: pytest.FixtureRequest
) -> AsyncIterator[Backend]:
    """This test's database on the driver: a new SQLite file or PostgreSQL database."""
    if driver == "sqlite":
        yield SqliteBackend(tmp_path / "data" / "games.db")
        return
    cluster: PgCluster = request.getfixturevalue("pg_cluster")
    url, name = await cluster.create_database()
    backend = PostgresBackend(cluster, url, name)
    try:
        yield backend
    finally:
        await backend.cleanup()
        await cluster.release_database(name)


@pytest.fixture
def store_factory(backend: Backend) -> StoreFactory:
    """Makes stores (not opened) on this test's database, with the options given."""
    return backend.store


@pytest.fixture
async def pg_backend(pg_cluster: PgCluster) -> AsyncIterator[PostgresBackend]:
    """A fresh migrated PostgreSQL database, for the tests of what only PostgreSQL has."""
    url, name = await pg_cluster.create_database()
    backend = PostgresBackend(pg_cluster, url, name)
    try:
        yield backend
    finally:
        await backend.cleanup()
        await pg_cluster.release_database(name)
