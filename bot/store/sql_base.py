"""What a SQL driver of the game store must say, and the plumbing every driver shares.

The contract (:class:`~bot.store.base.GameStore`) is written once, in SQL that every
driver runs: ``?`` placeholders, standard ``INSERT … RETURNING``, ``ON CONFLICT``, ``CASE``
and ``IN (…)`` lists (:mod:`bot.store.sql`, :mod:`bot.store.sql_timers`,
:mod:`bot.store.sql_tables`). A driver (a folder under :mod:`bot.store.drivers`) is a
subclass of :class:`SqlBase` that says only what differs:

* **Sessions.** :meth:`SqlBase._transaction` (one write transaction; rolled back if the
  block raises), :meth:`SqlBase._reading` (single reads) and :meth:`SqlBase._snapshot`
  (several reads that must see one state of the database) each yield a :class:`Session`,
  which runs the shared SQL in the driver's own placeholder style.
* **Codecs.** How a time is stored (:meth:`SqlBase._time_param`, :meth:`SqlBase._time_of`)
  and how text that may be damaged is read (:attr:`SqlBase.raw_text` and
  :meth:`SqlBase._text_of`).
* **Row locks.** :attr:`SqlBase.row_lock`, appended to a ``SELECT`` that reads a game's
  row in a write transaction which must keep it until the commit (PostgreSQL's ``FOR NO
  KEY UPDATE``; SQLite's write transaction already holds the whole file).
* **Conflicts.** :meth:`SqlBase._is_channel_conflict`: the error the database raises
  when a second open game would be written into one channel.
* **Connections and schema.** ``open`` (connect, migrate with the driver's migration
  files) and ``close``.

The plumbing here (the clock, shielding work from cancellation, the per-game locks, the
state cache) is the same for all drivers.
"""

from __future__ import annotations

import abc
import asyncio
import logging
from collections.abc import Awaitable, Callable, Iterable, Sequence
from contextlib import AbstractAsyncContextManager
from datetime import datetime
from typing import Any, ClassVar, Protocol, TypeVar

from bot.store.base import BrokenGameHook, GameStore
from bot.store.cache import GameLocks, StateCache
from bot.store.checks import aware, utc_now

log = logging.getLogger(__name__)

T = TypeVar("T")

DEFAULT_CACHE_SIZE = 256


class Session(Protocol):
    """One connection of a driver, in or out of a transaction, speaking the shared SQL.

    Statements use ``?`` placeholders; a driver whose database numbers them (``$1``)
    rewrites them. Rows are sequences indexed by column position.
    """

    async def fetch(self, sql: str, *params: Any) -> Sequence[Sequence[Any]]:
        """Every row of a query."""
        ...

    async def fetchrow(self, sql: str, *params: Any) -> Sequence[Any] | None:
        """The first row of a query, or None."""
        ...

    async def execute(self, sql: str, *params: Any) -> int:
        """Run a statement; the number of rows it changed."""
        ...

    async def executemany(self, sql: str, rows: Iterable[Sequence[Any]]) -> None:
        """Run a statement once per row of parameters."""
        ...


class SqlBase(GameStore):
    """The part of every SQL driver that does not depend on the database.

    ``now`` is the clock (timezone-aware datetimes); ``cache_size`` how many games'
    committed state JSON is kept in memory (about 3 KB each); ``on_broken`` is called
    with each game set aside because its state cannot be read.
    """

    #: The driver's name: the folder under ``bot/store/drivers`` and its migrations.
    dialect: ClassVar[str]
    #: Appended to a ``SELECT`` of a game's row that the transaction must hold.
    row_lock: ClassVar[str] = ""
    #: The SQL that reads a text column as the driver can read damaged text (``{}`` is
    #: the column); its value goes through :meth:`_text_of`.
    raw_text: ClassVar[str] = "{}"

    def __init__(
        self,
        *,
        now: Callable[[], datetime] = utc_now,
        cache_size: int = DEFAULT_CACHE_SIZE,
        on_broken: BrokenGameHook | None = None,
    ) -> None:
        self.on_broken = on_broken
        self._now = now
        self._locks = GameLocks()
        self._cache = StateCache(cache_size)
        self._tasks: set[asyncio.Task[Any]] = set()

    @property
    def cache(self) -> StateCache:
        """The cache of committed states (for statistics and tests)."""
        return self._cache

    # -- what a driver says ---------------------------------------------------------------

    @abc.abstractmethod
    def _transaction(self) -> AbstractAsyncContextManager[Session]:
        """One write transaction; committed at the end of the block, rolled back if it
        raises. Writers of other processes are serialised by the database."""

    @abc.abstractmethod
    def _reading(self) -> AbstractAsyncContextManager[Session]:
        """A session for single reads outside any transaction."""

    @abc.abstractmethod
    def _snapshot(self) -> AbstractAsyncContextManager[Session]:
        """A session whose reads all see one committed state of the database."""

    @abc.abstractmethod
    def _time_param(self, moment: datetime) -> Any:
        """A UTC time as the driver stores it (stored times must compare in time order)."""

    @abc.abstractmethod
    def _time_of(self, raw: Any) -> datetime:
        """A stored time as an aware UTC datetime; TypeError or ValueError if damaged."""

    def _text_of(self, raw: Any) -> str:
        """A value read through :attr:`raw_text` as text; ValueError if damaged."""
        if not isinstance(raw, str):
            raise ValueError("not stored as text")
        return raw

    @abc.abstractmethod
    def _is_channel_conflict(self, error: BaseException) -> bool:
        """Whether ``error`` is the database refusing a second open game in a channel."""

    # -- shared plumbing ------------------------------------------------------------------

    def _clock(self) -> datetime:
        """The clock's time in UTC (ValueError for a clock without a time zone)."""
        return aware(self._now(), "the store's clock time")

    def _stamp(self) -> Any:
        """The clock's time as the driver stores it."""
        return self._time_param(self._clock())

    def _time(self, moment: datetime, what: str) -> Any:
        """An argument's time as the driver stores it (ValueError if it is naive)."""
        return self._time_param(aware(moment, what))

    async def _fetch(self, sql: str, *params: Any) -> Sequence[Sequence[Any]]:
        """Every row of one query."""
        async with self._reading() as session:
            return await session.fetch(sql, *params)

    async def _fetchrow(self, sql: str, *params: Any) -> Sequence[Any] | None:
        """The first row of one query, or None."""
        async with self._reading() as session:
            return await session.fetchrow(sql, *params)

    async def _write(self, sql: str, *params: Any) -> int:
        """One statement in its own transaction, shielded; the rows it changed."""

        async def work() -> int:
            async with self._transaction() as session:
                return await session.execute(sql, *params)

        return await self._shielded(work())

    async def _finish_tasks(self) -> None:
        """Wait for the shielded writes under way (at close)."""
        if self._tasks:
            await asyncio.gather(*self._tasks, return_exceptions=True)

    async def _shielded(self, work: Awaitable[T]) -> T:
        """Run ``work`` to its end even if the caller is cancelled meanwhile."""
        task = asyncio.ensure_future(work)
        self._tasks.add(task)
        task.add_done_callback(self._task_done)
        return await asyncio.shield(task)

    def _task_done(self, task: asyncio.Task[Any]) -> None:
        self._tasks.discard(task)
        # Fetch the outcome so a task whose caller was cancelled does not warn
        # "exception was never retrieved"; the caller (if any) still gets it.
        if not task.cancelled() and task.exception() is not None:
            log.debug("store task ended with %r", task.exception())

    async def _locked(self, game_id: int, work: Callable[[], Awaitable[T]]) -> T:
        """Run ``work()`` holding the game's lock, shielded once the lock is taken."""
        lock = self._locks(game_id)
        await lock.acquire()
        try:
            task = asyncio.ensure_future(work())
        except BaseException:
            lock.release()
            raise
        task.add_done_callback(lambda _task: lock.release())
        return await self._shielded(task)
