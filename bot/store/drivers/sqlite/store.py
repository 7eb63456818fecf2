"""The SQLite driver of the game store, on aiosqlite: only what differs from the shared SQL.

One connection serves the whole bot (aiosqlite runs it in its own thread); the database is
in WAL mode, so readers never block the writer and a commit is one append to the
write-ahead log. Every write is one ``BEGIN IMMEDIATE`` transaction, so writers of several
processes on one file are serialised by SQLite's write lock, and a read-modify-write
inside one (the settings, say) is atomic; that lock also holds a game's row for the whole
transaction, so :attr:`~bot.store.sql_base.SqlBase.row_lock` is empty here.

Durability: an action is reported as done only after its transaction committed. With
``journal_mode=WAL`` a committed transaction survives the bot process being killed at any
moment, with either ``synchronous`` setting, because the WAL lives in the operating
system's page cache and SQLite recovers from it on the next open. ``synchronous=NORMAL``
(the default) skips the ``fsync`` at each commit, so a power cut or kernel crash may lose
the last few commits (never corrupt the database); ``synchronous=FULL`` also survives that
but costs one ``fsync`` per action, which measured about 4 ms on the development VM's disk
against about 0.02 ms, i.e. more than the whole 2 ms budget of an action. Choose FULL where
the disk's fsync is cheap or power is unreliable.

Codecs: times are ISO 8601 text in UTC (one form, so text order is time order and SQL
compares them as text); text that may be damaged is read as bytes (``CAST(… AS BLOB)``) and
decoded here, so a row whose bytes are not UTF-8 is one damaged row, not an error of the
whole query (sqlite3 cannot decode it into a str).
"""

from __future__ import annotations

import asyncio
import logging
import sqlite3
from collections.abc import AsyncIterator, Callable, Iterable, Sequence
from contextlib import asynccontextmanager
from datetime import UTC, datetime
from os import PathLike
from pathlib import Path
from typing import Any

import aiosqlite

from bot.store.base import BrokenGameHook
from bot.store.drivers.sqlite.schema import BeforeMigrating, migrate
from bot.store.errors import StoreError
from bot.store.sql import DEFAULT_CACHE_SIZE, SqlGameStore, utc_now

log = logging.getLogger(__name__)

BUSY_TIMEOUT_MS = 5000  # another process (a CLI export, a backup) may hold the lock briefly
SYNCHRONOUS_MODES = ("NORMAL", "FULL", "EXTRA")
#: SQLite 3.35 brought ``RETURNING``, which the shared SQL uses.
MIN_SQLITE = (3, 35, 0)


class SqliteSession:
    """The shared SQL on one aiosqlite connection (SQLite speaks ``?`` itself)."""

    def __init__(self, conn: aiosqlite.Connection) -> None:
        self.conn = conn

    async def fetch(self, sql: str, *params: Any) -> Sequence[Sequence[Any]]:
        """Every row of a query."""
        return list(await self.conn.execute_fetchall(sql, params))

    async def fetchrow(self, sql: str, *params: Any) -> Sequence[Any] | None:
        """The first row of a query, or None."""
        async with self.conn.execute(sql, params) as cursor:
            return await cursor.fetchone()

    async def execute(self, sql: str, *params: Any) -> int:
        """Run a statement; the number of rows it changed."""
        async with self.conn.execute(sql, params) as cursor:
            return cursor.rowcount

    async def executemany(self, sql: str, rows: Iterable[Sequence[Any]]) -> None:
        """Run a statement once per row of parameters."""
        await self.conn.executemany(sql, rows)


async def _enable_wal(conn: aiosqlite.Connection) -> str:
    """Switch the file to WAL mode (it stays so); the journal mode now in force."""
    deadline = asyncio.get_running_loop().time() + BUSY_TIMEOUT_MS / 1000
    while True:
        try:
            async with conn.execute("PRAGMA journal_mode = WAL") as cursor:
                row = await cursor.fetchone()
            return str(row[0]).lower() if row is not None else "unknown"
        except sqlite3.OperationalError as error:
            # Changing the journal mode needs the file to itself, and SQLite does not
            # wait for that (no busy handler), e.g. when two processes open a new file
            # at once; so wait here, like busy_timeout would.
            if "locked" not in str(error) or asyncio.get_running_loop().time() > deadline:
                raise
            await asyncio.sleep(0.02)


class SqliteGameStore(SqlGameStore):
    """Games in one SQLite file; see the module docstring for the guarantees.

    ``now`` is the clock (it must return timezone-aware datetimes); ``cache_size`` is how
    many games' committed state JSON is kept in memory (about 3 KB each); ``synchronous``
    is SQLite's setting (see the module docstring); ``on_broken`` is called with each game
    set aside because its state cannot be read; ``before_migrating(current, head)`` runs
    before a file with a schema is migrated (the bot takes a backup there).
    """

    dialect = "sqlite"
    raw_text = "CAST({} AS BLOB)"

    def __init__(
        self,
        path: str | PathLike[str],
        *,
        now: Callable[[], datetime] = utc_now,
        cache_size: int = DEFAULT_CACHE_SIZE,
        synchronous: str = "NORMAL",
        on_broken: BrokenGameHook | None = None,
        before_migrating: BeforeMigrating | None = None,
    ) -> None:
        if synchronous.upper() not in SYNCHRONOUS_MODES:
            raise ValueError(f"synchronous must be one of {SYNCHRONOUS_MODES}")
        super().__init__(now=now, cache_size=cache_size, on_broken=on_broken)
        self.path = Path(path)
        self.synchronous = synchronous.upper()
        self.before_migrating = before_migrating
        self._conn: aiosqlite.Connection | None = None
        # Every use of the one connection holds this lock, so no statement of one
        # coroutine lands inside another coroutine's open transaction.
        self._db_lock = asyncio.Lock()

    @property
    def where(self) -> str:
        """Where the store's database is, for messages and logs."""
        return str(self.path)

    # -- connection -------------------------------------------------------------------

    async def open(self) -> None:
        """Open the file (creating its directory), set WAL mode and migrate the schema."""
        if self._conn is not None:
            return
        if sqlite3.sqlite_version_info < MIN_SQLITE:
            raise StoreError(
                f"SQLite {sqlite3.sqlite_version} is too old: the store needs "
                f"{'.'.join(map(str, MIN_SQLITE))} or newer"
            )
        self.path.parent.mkdir(parents=True, exist_ok=True)
        conn = await aiosqlite.connect(self.path, isolation_level=None)
        try:
            await conn.execute(f"PRAGMA busy_timeout = {BUSY_TIMEOUT_MS}")
            mode = await _enable_wal(conn)
            if mode != "wal":
                log.warning("SQLite refused WAL mode for %s (mode %s)", self.path, mode)
            await conn.execute(f"PRAGMA synchronous = {self.synchronous}")
            await migrate(conn, now=self._now, before_migrating=self.before_migrating)
            await conn.execute("PRAGMA foreign_keys = ON")
        except BaseException:
            await conn.close()
            raise
        self._conn = conn
        log.info("Game store open: %s", self.path)

    async def close(self) -> None:
        """Wait for the writes under way, then close the connection."""
        await self._finish_tasks()
        if self._conn is not None:
            conn, self._conn = self._conn, None
            await conn.close()
        self._cache.clear()

    def _connection(self) -> aiosqlite.Connection:
        if self._conn is None:
            raise StoreError("the game store is not open")
        return self._conn

    @asynccontextmanager
    async def _transaction(self) -> AsyncIterator[SqliteSession]:
        """One write transaction; rolled back if the block raises."""
        conn = self._connection()
        async with self._db_lock:
            # IMMEDIATE takes the write lock now, so another process writing cannot
            # make this transaction fail half-way with SQLITE_BUSY.
            await conn.execute("BEGIN IMMEDIATE")
            try:
                yield SqliteSession(conn)
                await conn.commit()
            except BaseException:
                await conn.rollback()
                raise

    @asynccontextmanager
    async def _reading(self) -> AsyncIterator[SqliteSession]:
        """The connection, held: reads of one statement each."""
        conn = self._connection()
        async with self._db_lock:
            yield SqliteSession(conn)

    @asynccontextmanager
    async def _snapshot(self) -> AsyncIterator[SqliteSession]:
        """A read transaction: its reads see one state of the file (WAL snapshot)."""
        conn = self._connection()
        async with self._db_lock:
            await conn.execute("BEGIN")
            try:
                yield SqliteSession(conn)
            finally:
                await conn.rollback()

    # -- codecs -----------------------------------------------------------------------

    def _time_param(self, moment: datetime) -> str:
        """ISO 8601 text in UTC, the one form of every stored time."""
        return moment.astimezone(UTC).isoformat()

    def _time_of(self, raw: Any) -> datetime:
        """A stored time; TypeError or ValueError if it is not the text of one."""
        if not isinstance(raw, str):
            raise TypeError("a stored time is not text")
        moment = datetime.fromisoformat(raw)
        # Every time the store writes has its zone; one without is read as UTC.
        return moment.replace(tzinfo=UTC) if moment.tzinfo is None else moment

    def _text_of(self, raw: Any) -> str:
        """Text read as bytes; ValueError if it is not UTF-8."""
        if not isinstance(raw, bytes):
            raise ValueError("not stored as text")
        return raw.decode("utf-8")

    def _is_channel_conflict(self, error: BaseException) -> bool:
        """The unique index ``games_open_channel`` refused the row."""
        return isinstance(error, sqlite3.IntegrityError) and "channel_id" in str(error)
