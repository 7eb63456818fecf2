"""What ``store copy`` (:mod:`bot.store.copy`) needs of a driver, and what it shares.

A driver's part of a copy is a :class:`CopySide` in its folder (``transfer.py``): one
database on a connection of the copy's own, read as a source or written (and read back)
as the target, in that database's SQL (its catalog, its id counters, its bulk insert).
Everything else (the tables and their order, the driver-neutral rows, dumping a store
game by game, the checks of a row) is here, once.

Between the drivers a row is a dict of its columns (the same names in every schema):
ints, text (JSON as its stored text, unparsed), None, and times as timezone-aware UTC
datetimes. Items are ``(table, row)``.
"""

from __future__ import annotations

import abc
from collections.abc import AsyncGenerator, AsyncIterator
from contextlib import AbstractAsyncContextManager, aclosing, nullcontext
from dataclasses import dataclass
from datetime import UTC, datetime
from pathlib import Path
from typing import Any, ClassVar

from bot.config import one_line

#: Rows written to the target per statement, and read from a cursor per fetch.
BATCH = 500
#: Seconds the load waits for the target's tables (a bot writing to it) before it gives up.
LOCK_TIMEOUT = 10
#: The last item of a dump: the ids the next game and timer would get.
NEXT_IDS = "next_ids"
#: The item of an export that holds a game's record (``GameStore.export``).
RECORD = "record"

#: A row between the drivers: column -> int, str, None or an aware UTC datetime.
Row = dict[str, Any]
#: One item of a dump or an export: ``(table, row)``.
Item = tuple[str, Row]


@dataclass(frozen=True)
class Table:
    """One table the copy moves: its columns (the same in both schemas), which of them
    hold times, and the columns it is read in order of (``True``: a text column, sorted
    byte by byte on both databases)."""

    name: str
    columns: tuple[str, ...]
    times: frozenset[str]
    order: tuple[tuple[str, bool], ...]


GAMES = Table(
    "games",
    (
        "id",
        "guild_id",
        "channel_id",
        "created_by",
        "status",
        "created_at",
        "updated_at",
        "seq",
        "state_json",
        "start_json",
        "settings_json",
        "finished_reason",
        "broken_error",
        "settings_version",
    ),
    frozenset({"created_at", "updated_at"}),
    (("id", False),),
)
ACTIONS = Table(
    "actions",
    ("game_id", "seq", "action_json", "dice_json", "events_json", "at"),
    frozenset({"at"}),
    (("game_id", False), ("seq", False)),
)
TIMERS = Table(
    "timers",
    (
        "id",
        "game_id",
        "kind",
        "due_at",
        "payload_json",
        "key",
        "created_at",
        "fired_at",
        "cancelled_at",
        "leased_until",
        "attempts",
    ),
    frozenset({"due_at", "created_at", "fired_at", "cancelled_at", "leased_until"}),
    (("game_id", False), ("id", False)),
)
USER_PREFS = Table(
    "user_prefs",
    ("user_id", "prefs_json", "updated_at"),
    frozenset({"updated_at"}),
    (("user_id", False),),
)
GUILD_FILES = Table(
    "guild_files",
    ("guild_id", "kind", "item_id", "data_json", "uploaded_by", "uploaded_at"),
    frozenset({"uploaded_at"}),
    (("guild_id", False), ("kind", True), ("item_id", True)),
)
BOT_META = Table(
    "bot_meta",
    ("key", "value", "updated_at"),
    frozenset({"updated_at"}),
    (("key", True),),
)
#: Every table of the bot's data, in the order they are written (games before the rows
#: that refer to them). ``schema_version`` is the target's own.
TABLES = (GAMES, ACTIONS, TIMERS, USER_PREFS, GUILD_FILES, BOT_META)
_BY_NAME = {table.name: table for table in TABLES}
#: Tables whose rows someone made (a target holding any is not empty), and what a row is.
USER_TABLES = {
    "games": ("game", "games"),
    "timers": ("timer", "timers"),
    "user_prefs": ("user's preferences", "users' preferences"),
    "guild_files": ("server file", "server files"),
}
#: The tables whose ids count up (AUTOINCREMENT, identity columns).
COUNTED = ("games", "timers")


class CopyProblem(Exception):
    """The copy did not happen; the message is one line naming ``--from`` or ``--to``."""


class CopyRefused(CopyProblem):
    """The copy was refused before anything was written (exit code 2)."""


class CopyFailed(CopyProblem):
    """The copy failed while loading or checking; the target's transaction was rolled
    back (exit code 1)."""


class CopyMismatch(CopyFailed):
    """The target, read back, differs from the source; rolled back."""


# -- where ----------------------------------------------------------------------------------


@dataclass(frozen=True)
class StoreLocation:
    """A store named on the command line: a SQLite file or a PostgreSQL URL.

    ``option`` is the argument it came from (``--from``, ``--to``), for messages.
    """

    driver: str
    option: str
    path: Path | None = None
    url: str | None = None
    #: Where it is, without a password (``PostgreSQL host:5432, database 'x'``).
    where: str = ""

    def describe(self) -> str:
        """Where it is, without a password."""
        return self.where or (f"SQLite {self.path}" if self.path is not None else "a database")

    @property
    def label(self) -> str:
        """The option and where it points, to begin a message with."""
        return f"{self.option} ({self.describe()})"


# -- one database of a copy ------------------------------------------------------------------


class CopySide(abc.ABC):
    """One database of a copy, on a connection of its own: read as a source, or written
    (and read back) as the target."""

    def __init__(self, location: StoreLocation) -> None:
        self.location = location
        self.label = location.label
        self._writing = False

    #: The schema version this bot's code has for the dialect.
    head: int
    #: What the driver's database library raises for a database that refuses or fails.
    errors: ClassVar[tuple[type[BaseException], ...]] = (OSError,)

    @abc.abstractmethod
    async def version(self) -> int:
        """The schema version, read without creating anything (0: none)."""

    @abc.abstractmethod
    async def tables(self) -> set[str]:
        """The tables the database has."""

    @abc.abstractmethod
    async def columns(self, table: str) -> set[str]:
        """The columns of ``table``."""

    @abc.abstractmethod
    async def count(self, table: str) -> int:
        """How many rows ``table`` has."""

    @abc.abstractmethod
    def snapshot(self) -> AbstractAsyncContextManager[None]:
        """A read-only transaction: one consistent view for a whole dump."""

    @abc.abstractmethod
    def write(self) -> AbstractAsyncContextManager[None]:
        """The load's one transaction, holding the tables against other writers."""

    @abc.abstractmethod
    def rows(self, table: Table) -> AsyncGenerator[Row, None]:
        """Every row of ``table`` in its order, as driver-neutral dicts."""

    @abc.abstractmethod
    async def next_ids(self) -> Row:
        """The ids the next game and timer would get, by the database's counters."""

    @abc.abstractmethod
    async def insert(self, table: Table, rows: list[Row]) -> None:
        """Write ``rows`` (driver-neutral) into ``table``; CopyFailed if refused."""

    @abc.abstractmethod
    async def set_next_ids(self, next_ids: Row) -> None:
        """Make the id counters continue at ``next_ids``."""

    @abc.abstractmethod
    async def clear_meta(self) -> None:
        """Remove the bot's records (the source's replace them)."""

    async def check_schema(self) -> None:
        """Refuse a source that is not at this bot's schema, or has columns the copy does
        not know (it would leave them behind)."""
        version, head = await self.version(), self.head
        if version < head:
            raise CopyRefused(
                f"{self.label}: the database has schema version {version}, older than this "
                f"bot's {head}; start this bot once on it (that migrates it), then copy"
            )
        if version > head:
            raise CopyRefused(
                f"{self.label}: the database has schema version {version}, newer than this "
                f"bot's {head}; update the bot"
            )
        for table in TABLES:
            found = await self.columns(table.name)
            if found != set(table.columns):
                raise CopyRefused(
                    f"{self.label}: the columns of {table.name} are not the ones this copy "
                    f"knows (unknown: {sorted(found - set(table.columns))}, missing: "
                    f"{sorted(set(table.columns) - found)})"
                )

    async def user_rows(self) -> dict[str, int]:
        """Rows someone made, per table (0 for a table the database does not have yet)."""
        present = await self.tables()
        return {table: await self.count(table) if table in present else 0 for table in USER_TABLES}

    async def dump(self) -> AsyncGenerator[Item, None]:
        """Every row, each game followed by its actions and timers, then the other tables
        and the next ids (module docstring), in one snapshot (the load's own transaction
        when writing)."""
        try:
            context = nullcontext() if self._writing else self.snapshot()
            async with context:
                games, actions, timers = self.rows(GAMES), self.rows(ACTIONS), self.rows(TIMERS)
                async with aclosing(games), aclosing(actions), aclosing(timers):
                    async for item in self._interleave(games, actions, timers):
                        yield item
                for table in (USER_PREFS, GUILD_FILES, BOT_META):
                    async with aclosing(self.rows(table)) as rows:
                        async for row in rows:
                            yield table.name, row
                yield NEXT_IDS, await self.next_ids()
        except self.errors as error:
            raise CopyFailed(
                f"{self.label}: cannot read the database: {one_line(error)}"
            ) from error

    async def _interleave(
        self, games: AsyncIterator[Row], actions: AsyncIterator[Row], timers: AsyncIterator[Row]
    ) -> AsyncIterator[Item]:
        """Each game followed by its actions and timers (all three are read by game id)."""
        action, timer = await anext(actions, None), await anext(timers, None)
        async for game in games:
            yield GAMES.name, game
            while action is not None and action["game_id"] <= game["id"]:
                self._belongs(action, game, "an action")
                yield ACTIONS.name, action
                action = await anext(actions, None)
            while timer is not None and timer["game_id"] <= game["id"]:
                self._belongs(timer, game, "a timer")
                yield TIMERS.name, timer
                timer = await anext(timers, None)
        for row, what in ((action, "an action"), (timer, "a timer")):
            if row is not None:
                self._belongs(row, None, what)

    def _belongs(self, row: Row, game: Row | None, what: str) -> None:
        """Refuse an action or timer whose game does not exist (the copy would drop it)."""
        if game is None or row["game_id"] != game["id"]:
            raise CopyFailed(f"{self.label}: {what} of game {row['game_id']}, which does not exist")

    def _time(self, table: Table, row: Row, column: str, value: object) -> datetime:
        """A stored time as an aware UTC datetime; CopyFailed naming the row if it is none."""
        try:
            if isinstance(value, datetime):
                moment = value
            elif isinstance(value, str):
                moment = datetime.fromisoformat(value)
            else:
                raise ValueError("not text")
            if moment.tzinfo is None:
                raise ValueError("no time zone")
        except ValueError as error:
            raise CopyFailed(
                f"{self.label}: a row of {table.name} ({key_of(table, row)}) has {column} "
                f"{short(value)}, which is not a time ({error})"
            ) from error
        return moment.astimezone(UTC)


def key_of(table: Table, row: Row) -> str:
    """The key columns of a row, for messages."""
    keys = [column for column, _text in table.order]
    if "id" in table.columns:
        keys = ["id"]
    return ", ".join(f"{key} {row.get(key)!r}" for key in keys)


def short(value: object) -> str:
    """A value for a message, cut short (a state's JSON runs to kilobytes)."""
    text = repr(value)
    return text if len(text) <= 60 else f"{text[:57]}..."
