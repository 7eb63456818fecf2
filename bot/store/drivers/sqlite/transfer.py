"""SQLite's part of ``store copy`` (:mod:`bot.store.copy`): a file read or written in its
own SQL (``sqlite_master``, ``sqlite_sequence``, ``executemany``)."""

from __future__ import annotations

import sqlite3
from collections.abc import AsyncGenerator, AsyncIterator
from contextlib import asynccontextmanager
from datetime import UTC

import aiosqlite

from bot.config import one_line
from bot.store.drivers.sqlite.store import BUSY_TIMEOUT_MS
from bot.store.migrate import head_version
from bot.store.transfer import (
    BATCH,
    COUNTED,
    CopyFailed,
    CopyRefused,
    CopySide,
    Row,
    StoreLocation,
    Table,
)


class SqliteSide(CopySide):
    """A SQLite file, on one aiosqlite connection in autocommit mode."""

    errors = (sqlite3.Error, OSError)

    def __init__(self, location: StoreLocation, conn: aiosqlite.Connection) -> None:
        super().__init__(location)
        self.conn = conn
        self.head = head_version("sqlite")

    async def tables(self) -> set[str]:
        """The tables of the file."""
        rows = await self.conn.execute_fetchall(
            "SELECT name FROM sqlite_master WHERE type = 'table'"
        )
        return {row[0] for row in rows}

    async def columns(self, table: str) -> set[str]:
        """The columns of ``table``."""
        return {row[1] for row in await self.conn.execute_fetchall(f"PRAGMA table_info({table})")}

    async def count(self, table: str) -> int:
        """How many rows ``table`` has."""
        rows = list(await self.conn.execute_fetchall(f"SELECT count(*) FROM {table}"))
        return int(rows[0][0])

    async def version(self) -> int:
        """The schema version, read without creating anything (0: none); the same reading
        as :func:`bot.store.migrate.schema_version` without its CREATE TABLE."""
        if "schema_version" not in await self.tables():
            return 0
        rows = list(
            await self.conn.execute_fetchall("SELECT coalesce(max(version), 0) FROM schema_version")
        )
        return int(rows[0][0])

    @asynccontextmanager
    async def snapshot(self) -> AsyncIterator[None]:
        """A read transaction: in WAL mode it sees one moment of the file throughout."""
        await self.conn.execute("BEGIN")
        try:
            yield
        finally:
            await self.conn.rollback()

    @asynccontextmanager
    async def write(self) -> AsyncIterator[None]:
        """``BEGIN IMMEDIATE``: SQLite's write lock, so no bot writes until the commit."""
        try:
            await self.conn.execute("BEGIN IMMEDIATE")
        except sqlite3.OperationalError as error:
            raise CopyRefused(
                f"{self.label} is in use ({one_line(error)}); stop the bot on it and copy again"
            ) from error
        self._writing = True
        try:
            yield
            await self.conn.commit()
        except BaseException:
            await self.conn.rollback()
            raise
        finally:
            self._writing = False

    async def rows(self, table: Table) -> AsyncGenerator[Row, None]:
        """The rows of ``table``, times parsed from their ISO text."""
        order = ", ".join(column for column, _text in table.order)
        cursor = await self.conn.execute(
            f"SELECT {', '.join(table.columns)} FROM {table.name} ORDER BY {order}"
        )
        try:
            while batch := await cursor.fetchmany(BATCH):
                for raw in batch:
                    row = dict(zip(table.columns, raw, strict=True))
                    for column in table.times:
                        if row[column] is not None:
                            row[column] = self._time(table, row, column, row[column])
                    yield row
        finally:
            await cursor.close()

    async def next_ids(self) -> Row:
        """The ids SQLite gives next: above its AUTOINCREMENT counter and every id."""
        found = {}
        for table in COUNTED:
            rows = list(
                await self.conn.execute_fetchall(
                    "SELECT max(coalesce((SELECT seq FROM sqlite_sequence WHERE name = ?), 0),"
                    f" coalesce((SELECT max(id) FROM {table}), 0)) + 1",
                    (table,),
                )
            )
            found[table] = int(rows[0][0])
        return found

    async def insert(self, table: Table, rows: list[Row]) -> None:
        """Insert with the rows' own ids; times as the store writes them (ISO, UTC)."""
        marks = ", ".join("?" * len(table.columns))
        values = [
            tuple(
                row[column].astimezone(UTC).isoformat()
                if column in table.times and row[column] is not None
                else row[column]
                for column in table.columns
            )
            for row in rows
        ]
        try:
            await self.conn.executemany(
                f"INSERT INTO {table.name} ({', '.join(table.columns)}) VALUES ({marks})", values
            )
        except sqlite3.Error as error:
            raise CopyFailed(
                f"{self.label} refused a row of {table.name}: {one_line(error)}"
            ) from error

    async def set_next_ids(self, next_ids: Row) -> None:
        """Set SQLite's AUTOINCREMENT counters (it keeps the last id given)."""
        for table in COUNTED:
            last = int(next_ids[table]) - 1
            cursor = await self.conn.execute(
                "UPDATE sqlite_sequence SET seq = ? WHERE name = ?", (last, table)
            )
            if cursor.rowcount == 0:
                await self.conn.execute(
                    "INSERT INTO sqlite_sequence (name, seq) VALUES (?, ?)", (table, last)
                )

    async def clear_meta(self) -> None:
        """Remove the bot's records."""
        await self.conn.execute("DELETE FROM bot_meta")


@asynccontextmanager
async def connect(location: StoreLocation, *, readonly: bool) -> AsyncIterator[SqliteSide]:
    """A connection of its own to the file; ``readonly``: one that cannot write."""
    assert location.path is not None
    if readonly and not location.path.is_file():
        raise CopyRefused(f"{location.label}: there is no database file")
    try:
        if readonly:
            # mode=ro: SQLite itself refuses every write; the URI needs the path
            # percent-encoded, which as_uri() does.
            uri = f"{location.path.resolve().as_uri()}?mode=ro"
            conn = await aiosqlite.connect(uri, uri=True, isolation_level=None)
        else:
            conn = await aiosqlite.connect(location.path, isolation_level=None)
    except (OSError, sqlite3.Error) as error:
        raise CopyRefused(
            f"{location.label}: cannot open the database: {one_line(error)}"
        ) from error
    try:
        await conn.execute(f"PRAGMA busy_timeout = {BUSY_TIMEOUT_MS}")
        if not readonly:
            await conn.execute("PRAGMA foreign_keys = ON")
        side = SqliteSide(location, conn)
        try:
            await side.tables()  # a file that is not a database fails here
        except sqlite3.Error as error:
            raise CopyRefused(
                f"{location.label}: cannot read the database: {one_line(error)}"
            ) from error
        yield side
    finally:
        await conn.close()
