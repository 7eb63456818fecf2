"""The PostgreSQL driver of the game store, on asyncpg: only what differs from the shared SQL.

For a bot run as several processes, on several machines, that share one database
(``MONOPOLY_DATABASE_URL=postgresql://…``). The guarantees of the shared SQL
(:mod:`bot.store.sql`) hold across processes because the database enforces them:

* **Actions.** The write's ``UPDATE`` names the ``seq`` it read (and ``status =
  'running'``); PostgreSQL re-checks that condition on the newest version of the row when
  another transaction changed it meanwhile, so of two processes applying to one game at
  once exactly one write lands. The log's primary key ``(game_id, seq)`` would refuse a
  second entry anyway.
* **Row locks.** A transaction that must hold a game's row (settings, a new timer, a
  rebuild) reads it ``FOR NO KEY UPDATE``: as strong as an ``UPDATE`` of the row and no
  stronger, so inserting the game's timers (a key-share lock) need not wait for it.
* **Timers.** The lease's ``UPDATE … WHERE pending AND (no lease or lease over)`` is atomic:
  of any number of processes exactly one gets the row. Triggers in PL/pgSQL (migration
  0003) keep pending timers to open games, as SQLite's do.
* **Durability.** An action is reported as done only after its transaction committed
  (PostgreSQL's ``synchronous_commit``, on by default, decides how durable a commit is).

Codecs: JSON is kept as text, exactly as given (not jsonb, which re-renders numbers and
refuses ``\\u0000``); times are ``timestamptz``. The shared SQL's ``?`` placeholders become
``$1, $2, …`` (:func:`numbered`).
"""

from __future__ import annotations

import logging
from collections.abc import AsyncIterator, Callable, Iterable, Sequence
from contextlib import asynccontextmanager
from datetime import UTC, datetime
from functools import lru_cache
from typing import Any

import asyncpg

from bot.store.base import BrokenGameHook
from bot.store.drivers.postgres.schema import migrate
from bot.store.drivers.postgres.urls import CONNECT_TIMEOUT, URL_SETTING, check_url, describe_url
from bot.store.errors import StoreError, StoreUnavailable
from bot.store.sql import DEFAULT_CACHE_SIZE, SqlGameStore, utc_now

log = logging.getLogger(__name__)


@lru_cache(maxsize=512)
def numbered(sql: str) -> str:
    """``sql`` with its ``?`` placeholders numbered as PostgreSQL wants them (``$1``…).

    A ``?`` inside a quoted literal or identifier is left alone.
    """
    out: list[str] = []
    quote = ""
    number = 0
    for char in sql:
        if quote:
            quote = "" if char == quote else quote
        elif char in "'\"":
            quote = char
        elif char == "?":
            number += 1
            out.append(f"${number}")
            continue
        out.append(char)
    return "".join(out)


def _count(status: str) -> int:
    """The row count of a command status such as ``UPDATE 1`` or ``INSERT 0 1``."""
    try:
        return int(status.rsplit(" ", 1)[-1])
    except ValueError:
        return 0


class PostgresSession:
    """The shared SQL on one asyncpg connection."""

    def __init__(self, conn: asyncpg.Connection) -> None:
        self.conn = conn

    async def fetch(self, sql: str, *params: Any) -> Sequence[Sequence[Any]]:
        """Every row of a query."""
        rows: list[asyncpg.Record] = await self.conn.fetch(numbered(sql), *params)
        return rows

    async def fetchrow(self, sql: str, *params: Any) -> Sequence[Any] | None:
        """The first row of a query, or None."""
        row: asyncpg.Record | None = await self.conn.fetchrow(numbered(sql), *params)
        return row

    async def execute(self, sql: str, *params: Any) -> int:
        """Run a statement; the number of rows it changed."""
        return _count(await self.conn.execute(numbered(sql), *params))

    async def executemany(self, sql: str, rows: Iterable[Sequence[Any]]) -> None:
        """Run a statement once per row of parameters."""
        await self.conn.executemany(numbered(sql), rows)


class PostgresGameStore(SqlGameStore):
    """Games in a PostgreSQL database; see the module docstring for the guarantees.

    ``url`` is a ``postgresql://`` URL (libpq's form; a socket folder goes in
    ``?host=/path``); anything else raises ValueError naming ``MONOPOLY_DATABASE_URL``.
    ``now``, ``cache_size``, ``on_broken`` and ``before_migrating`` are as for the SQLite
    store. Pool options: ``min_size`` and ``max_size`` connections, ``connect_timeout``
    seconds to reach the server at :meth:`open`, ``command_timeout`` seconds for one
    statement (None: no limit).
    """

    dialect = "postgres"
    row_lock = " FOR NO KEY UPDATE"

    def __init__(
        self,
        url: str,
        *,
        now: Callable[[], datetime] = utc_now,
        cache_size: int = DEFAULT_CACHE_SIZE,
        on_broken: BrokenGameHook | None = None,
        before_migrating: Callable[[int, int], Any] | None = None,
        min_size: int = 1,
        max_size: int = 10,
        connect_timeout: float = CONNECT_TIMEOUT,
        command_timeout: float | None = 60.0,
    ) -> None:
        super().__init__(now=now, cache_size=cache_size, on_broken=on_broken)
        self.url = check_url(url)
        if not 0 <= min_size <= max_size or max_size < 1:
            raise ValueError("the pool needs 0 <= min_size <= max_size and max_size >= 1")
        self.min_size = min_size
        self.max_size = max_size
        self.connect_timeout = connect_timeout
        self.command_timeout = command_timeout
        self.before_migrating = before_migrating
        self._pool: asyncpg.Pool | None = None

    @property
    def where(self) -> str:
        """Where the store's database is (no password), for messages and logs."""
        return describe_url(self.url)

    # -- connection -------------------------------------------------------------------

    async def open(self) -> None:
        """Connect the pool and bring the schema up to date (under the migration lock).

        Raises :class:`~bot.store.errors.StoreUnavailable` (one line naming the
        setting and the server, not the password) if the database cannot be reached,
        and :class:`~bot.store.errors.SchemaError` if it is newer than this code; in
        both cases nothing in the database has changed.
        """
        if self._pool is not None:
            return
        try:
            pool = await asyncpg.create_pool(
                self.url,
                min_size=max(self.min_size, 1),  # connect now: a bad URL fails at start
                max_size=self.max_size,
                timeout=self.connect_timeout,
                command_timeout=self.command_timeout,
                server_settings={"application_name": "monopoly-bot"},
            )
        except (OSError, TimeoutError, asyncpg.PostgresError, asyncpg.InterfaceError) as error:
            reason = " ".join(f"{type(error).__name__}: {error}".split())  # one line
            raise StoreUnavailable(
                f"cannot open the PostgreSQL database of {URL_SETTING} ({self.where}): {reason}",
                where=self.where,
            ) from error
        try:
            async with pool.acquire() as conn:
                await migrate(
                    conn, now=self._migration_time, before_migrating=self.before_migrating
                )
        except BaseException:
            await pool.close()
            raise
        self._pool = pool
        log.info("Game store open: PostgreSQL at %s", self.where)

    def _migration_time(self) -> datetime:
        """When a migration was applied: the store's clock, read as UTC if it is naive
        (a naive clock is refused at the first write, as in the SQLite store)."""
        moment = self._now()
        return moment if moment.tzinfo is not None else moment.replace(tzinfo=UTC)

    async def close(self) -> None:
        """Wait for the writes under way, then close the pool."""
        await self._finish_tasks()
        if self._pool is not None:
            pool, self._pool = self._pool, None
            await pool.close()
        self._cache.clear()

    def _connection_pool(self) -> asyncpg.Pool:
        if self._pool is None:
            raise StoreError("the game store is not open")
        return self._pool

    @asynccontextmanager
    async def _transaction(self) -> AsyncIterator[PostgresSession]:
        """One transaction on a connection of the pool; rolled back if the block raises."""
        async with self._connection_pool().acquire() as conn, conn.transaction():
            yield PostgresSession(conn)

    @asynccontextmanager
    async def _reading(self) -> AsyncIterator[PostgresSession]:
        """A connection of the pool, outside a transaction."""
        async with self._connection_pool().acquire() as conn:
            yield PostgresSession(conn)

    @asynccontextmanager
    async def _snapshot(self) -> AsyncIterator[PostgresSession]:
        """A read-only transaction that sees one snapshot (``REPEATABLE READ``)."""
        async with (
            self._connection_pool().acquire() as conn,
            conn.transaction(isolation="repeatable_read", readonly=True),
        ):
            yield PostgresSession(conn)

    # -- codecs -----------------------------------------------------------------------

    def _time_param(self, moment: datetime) -> datetime:
        """``timestamptz`` takes aware datetimes as they are."""
        return moment

    def _time_of(self, raw: Any) -> datetime:
        """A ``timestamptz`` in UTC."""
        if not isinstance(raw, datetime):
            raise TypeError("a stored time is not a timestamp")
        return raw.astimezone(UTC)

    def _is_channel_conflict(self, error: BaseException) -> bool:
        """The unique index ``games_open_channel`` refused the row."""
        return (
            isinstance(error, asyncpg.UniqueViolationError)
            and error.constraint_name == "games_open_channel"
        )
