"""PostgreSQL's part of ``store copy`` (:mod:`bot.store.copy`): a database read or written
in its own SQL (``information_schema``, identity columns, ``COPY``, table locks)."""

from __future__ import annotations

from collections.abc import AsyncGenerator, AsyncIterator
from contextlib import asynccontextmanager
from datetime import UTC

import asyncpg

from bot.config import one_line
from bot.store.drivers.postgres.schema import schema_version
from bot.store.drivers.postgres.urls import CONNECT_TIMEOUT
from bot.store.migrate import head_version
from bot.store.transfer import (
    BATCH,
    COUNTED,
    LOCK_TIMEOUT,
    TABLES,
    CopyFailed,
    CopyRefused,
    CopySide,
    Row,
    StoreLocation,
    Table,
    key_of,
)


class PostgresSide(CopySide):
    """A PostgreSQL database, on one asyncpg connection."""

    errors = (asyncpg.PostgresError, asyncpg.InterfaceError, OSError)

    def __init__(self, location: StoreLocation, conn: asyncpg.Connection) -> None:
        super().__init__(location)
        self.conn = conn
        self.head = head_version("postgres")

    async def version(self) -> int:
        """The schema version (0: none; nothing is created)."""
        return await schema_version(self.conn)

    async def tables(self) -> set[str]:
        """The tables of the connection's schema."""
        rows = await self.conn.fetch(
            "SELECT table_name FROM information_schema.tables WHERE table_schema = current_schema()"
        )
        return {row[0] for row in rows}

    async def columns(self, table: str) -> set[str]:
        """The columns of ``table``."""
        rows = await self.conn.fetch(
            "SELECT column_name FROM information_schema.columns"
            " WHERE table_schema = current_schema() AND table_name = $1",
            table,
        )
        return {row[0] for row in rows}

    async def count(self, table: str) -> int:
        """How many rows ``table`` has."""
        return int(await self.conn.fetchval(f"SELECT count(*) FROM {table}"))

    @asynccontextmanager
    async def snapshot(self) -> AsyncIterator[None]:
        """A read-only transaction that sees one moment of the database throughout."""
        async with self.conn.transaction(isolation="repeatable_read", readonly=True):
            yield

    @asynccontextmanager
    async def write(self) -> AsyncIterator[None]:
        """One transaction; the tables are locked against other writers (readers go on)."""
        async with self.conn.transaction():
            try:
                await self.conn.execute(f"SET LOCAL lock_timeout = '{LOCK_TIMEOUT}s'")
                await self.conn.execute(
                    f"LOCK TABLE {', '.join(t.name for t in TABLES)} IN SHARE ROW EXCLUSIVE MODE"
                )
            except asyncpg.LockNotAvailableError as error:
                raise CopyRefused(
                    f"{self.label} is in use (no lock within {LOCK_TIMEOUT} s); stop the bots "
                    "on it and copy again"
                ) from error
            self._writing = True
            try:
                yield
            finally:
                self._writing = False

    async def rows(self, table: Table) -> AsyncGenerator[Row, None]:
        """The rows of ``table`` (text keys in byte order, as SQLite sorts them)."""
        order = ", ".join(
            f'{column} COLLATE "C"' if text else column for column, text in table.order
        )
        query = f"SELECT {', '.join(table.columns)} FROM {table.name} ORDER BY {order}"
        async for record in self.conn.cursor(query, prefetch=BATCH):
            row = dict(zip(table.columns, record, strict=True))
            for column in table.times:
                if row[column] is not None:
                    row[column] = row[column].astimezone(UTC)
            yield row

    async def next_ids(self) -> Row:
        """The ids the identity sequences give next (as they stand, even if below a
        stored id: the check compares them with where they must stand)."""
        found = {}
        for table in COUNTED:
            sequence = await self.conn.fetchval("SELECT pg_get_serial_sequence($1, 'id')", table)
            last, called = await self.conn.fetchrow(f"SELECT last_value, is_called FROM {sequence}")
            found[table] = last + 1 if called else last
        return found

    async def insert(self, table: Table, rows: list[Row]) -> None:
        """COPY the rows in (identity columns take the given ids, triggers run)."""
        for row in rows:
            for column in table.columns:
                value = row[column]
                if isinstance(value, str) and "\x00" in value:
                    raise CopyFailed(
                        f"{self.label} cannot keep a row of {table.name} "
                        f"({key_of(table, row)}): its {column} holds a NUL character, "
                        "which PostgreSQL's text cannot"
                    )
        try:
            await self.conn.copy_records_to_table(
                table.name,
                records=[tuple(row[column] for column in table.columns) for row in rows],
                columns=list(table.columns),
            )
        except (asyncpg.PostgresError, asyncpg.InterfaceError, ValueError, TypeError) as error:
            raise CopyFailed(
                f"{self.label} refused a row of {table.name}: {type(error).__name__}: "
                f"{one_line(error)}"
            ) from error

    async def set_next_ids(self, next_ids: Row) -> None:
        """Restart the identity columns (transactional, unlike setval)."""
        for table in COUNTED:
            start = int(next_ids[table])
            await self.conn.execute(f"ALTER TABLE {table} ALTER COLUMN id RESTART WITH {start}")

    async def clear_meta(self) -> None:
        """Remove the bot's records."""
        await self.conn.execute("DELETE FROM bot_meta")


@asynccontextmanager
async def connect(location: StoreLocation, *, readonly: bool) -> AsyncIterator[PostgresSide]:
    """A connection of its own to the database; ``readonly``: every transaction is."""
    assert location.url is not None
    settings = {"application_name": "monopoly-bot store copy"}
    if readonly:
        settings["default_transaction_read_only"] = "on"
    try:
        conn = await asyncpg.connect(
            location.url, timeout=CONNECT_TIMEOUT, server_settings=settings
        )
    except (
        OSError,
        TimeoutError,
        ValueError,
        asyncpg.PostgresError,
        asyncpg.InterfaceError,
    ) as error:
        raise CopyRefused(
            f"{location.label}: cannot reach the database: {type(error).__name__}: "
            f"{one_line(error)}"
        ) from None
    try:
        yield PostgresSide(location, conn)
    finally:
        await conn.close()
