"""Copy a whole store into another database: ``monopoly-bot store copy --from URL --to URL``.

(One long module: reading, loading and comparing every table of both databases in each
one's SQL belong together; the driver classes stay the small store contract.)

For moving a bot from its SQLite file to PostgreSQL (to run it as a fleet) and back, or
from one database to another of the same kind. Every row the bot keeps is copied as it
is stored, with its id: games (lobbies, running, finished and broken ones, with status,
settings and their version, state, start state, ``seq``, finishing reason, error, times),
the action log (action, dice, events, time), timers in every state (pending, leased or
backing off, fired, cancelled, with their times and attempts), user preferences, the
servers' files and the bot's own records (``bot_meta``).

Decisions, and why:

* **URLs.** ``sqlite:///path.db`` (the rest after three slashes is the path as written:
  relative to the working directory, or absolute as ``sqlite:////abs/path.db``) and
  ``postgresql://…`` / ``postgres://…`` (libpq's form, as ``MONOPOLY_DATABASE_URL``).
  Anything else raises ValueError naming the option; no message shows a password.
* **The source is only read.** It must exist and be at this bot's schema version: it is
  opened read-only (SQLite ``mode=ro``; PostgreSQL ``default_transaction_read_only``),
  never created or migrated. An older source is refused with a hint to start this bot
  once on it (which migrates it) and copy then, a newer one with a hint to update.
* **The target must hold no games, timers, preferences or files** (a database a bot has
  started on once is fine); anything else is refused before it is touched, not even
  migrated. It is then created if need be and migrated to the head, as a bot's start
  would, and loaded in **one transaction** that also locks its tables against a bot
  writing meanwhile: a copy either lands whole or not at all.
* **Ids are kept**, of games (so buttons ``m:{game}:…`` and links keep working after the
  move) and of timers (so the copy is the same store, row for row), and each id counter
  of the target continues where the source's stood (at least above every copied id), so
  ids are never given twice.
* **The bot's records are copied** and replace the target's: they hold the fingerprint of
  the slash commands last synced, which is right for the same Discord application (a
  target that serves another application needs one ``monopoly-bot sync``).
* **Checked before it commits.** Still inside the load's transaction, the source is read
  again (a second snapshot) and compared with the target, item by item: every row in
  the driver-neutral form below, every game's record as ``GameStore.export`` gives it
  (start and every action with its dice), and the next ids. The first difference raises
  :class:`CopyMismatch` and the transaction is rolled back. A source that changed during
  the copy (a bot still running on it) shows as such a difference: stop the bots first.

The copy works on its own connections with each dialect's SQL (this module sits above
the drivers, like ``bench``), so the :class:`~bot.store.base.GameStore` contract the cogs
use does not grow. Rows stream in batches: memory stays bounded by one game's log.

Between the drivers a row is a dict of its columns (the same names in both schemas):
ints, text (JSON as its stored text, unparsed), None, and times as timezone-aware UTC
datetimes. Items are ``(table, row)`` in a fixed order: each game followed by its actions
and its timers, games by id; then preferences, files and records; last ``("next_ids",
{"games": n, "timers": m})``, the ids the next new game and timer would get.

Errors: :class:`CopyRefused` (nothing was changed: a bad or unreachable database, a
source of another schema version, a target that is not empty or in use) and
:class:`CopyFailed` (the load or its check failed; rolled back). Messages are one line
naming ``--from`` or ``--to``.
"""

from __future__ import annotations

import abc
import json
import logging
import sqlite3
import time
from collections.abc import AsyncIterator, Callable
from contextlib import AbstractAsyncContextManager, aclosing, asynccontextmanager, nullcontext
from dataclasses import dataclass
from datetime import UTC, datetime
from pathlib import Path
from typing import Any
from urllib.parse import urlsplit

import aiosqlite
import asyncpg

from bot.config import one_line, redact_url
from bot.engine.record import GameRecord
from bot.store.errors import SchemaError
from bot.store.migrate import head_version, migrate_postgres, pg_schema_version
from bot.store.postgres import CONNECT_TIMEOUT, SCHEMES, describe_url
from bot.store.sql import utc_now
from bot.store.sqlite import BUSY_TIMEOUT_MS, SqliteGameStore

log = logging.getLogger(__name__)

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


#: What the database libraries raise for a database that refuses or fails.
DATABASE_ERRORS = (sqlite3.Error, asyncpg.PostgresError, asyncpg.InterfaceError, OSError)


class CopyProblem(Exception):
    """The copy did not happen; the message is one line naming ``--from`` or ``--to``."""


class CopyRefused(CopyProblem):
    """The copy was refused before anything was written (exit code 2)."""


class CopyFailed(CopyProblem):
    """The copy failed while loading or checking; the target's transaction was rolled
    back (exit code 1)."""


class CopyMismatch(CopyFailed):
    """The target, read back, differs from the source; rolled back."""


# -- where: URLs ------------------------------------------------------------------------------


@dataclass(frozen=True)
class StoreLocation:
    """A store named on the command line: a SQLite file or a PostgreSQL URL.

    ``option`` is the argument it came from (``--from``, ``--to``), for messages.
    """

    driver: str
    option: str
    path: Path | None = None
    url: str | None = None

    def describe(self) -> str:
        """Where it is, without a password."""
        if self.path is not None:
            return f"SQLite {self.path}"
        assert self.url is not None
        return f"PostgreSQL {describe_url(self.url)}"

    @property
    def label(self) -> str:
        """The option and where it points, to begin a message with."""
        return f"{self.option} ({self.describe()})"


SQLITE_PREFIX = "sqlite:///"


def parse_store_url(text: str, option: str) -> StoreLocation:
    """The store ``text`` names: ``sqlite:///path.db`` or ``postgresql://…``.

    Raises ValueError with one line naming ``option`` for anything else (the message
    shows the URL without its password).
    """
    raw = text.strip()
    scheme = raw.partition(":")[0].lower() if "://" in raw else ""
    if scheme == "sqlite":
        if raw[: len(SQLITE_PREFIX)].lower() != SQLITE_PREFIX:
            raise ValueError(
                f"{option}: a SQLite URL has three slashes before the path: "
                f"sqlite:///relative/path.db or sqlite:////absolute/path.db, not {raw!r}"
            )
        path = raw[len(SQLITE_PREFIX) :]
        if not path or path == ":memory:" or "?" in path:
            raise ValueError(f"{option}: {raw!r} names no database file (sqlite:///path.db)")
        return StoreLocation("sqlite", option, path=Path(path))
    if scheme in SCHEMES:
        try:
            urlsplit(raw).port  # noqa: B018 - reading it checks the port
        except ValueError as error:
            raise ValueError(f"{option} is not a valid URL ({error})") from None
        return StoreLocation("postgres", option, url=raw)
    shown = redact_url(raw) if scheme else raw
    raise ValueError(
        f"{option}: {shown!r} is not a store URL; use sqlite:///path.db or "
        "postgresql://user:password@host:5432/database"
    )


def _same_database(source: StoreLocation, target: StoreLocation) -> bool:
    """Whether both name one database (the same file, or server and database)."""
    if source.path is not None and target.path is not None:
        return source.path.resolve() == target.path.resolve()
    if source.url is not None and target.url is not None:
        return describe_url(source.url) == describe_url(target.url)
    return False


# -- the copy ---------------------------------------------------------------------------------


@dataclass(frozen=True)
class CopyReport:
    """What a copy moved: rows per table, from where to where, in how many seconds."""

    source: str
    target: str
    counts: dict[str, int]
    seconds: float

    def line(self) -> str:
        """One line for the command line."""
        c = self.counts
        return (
            f"{c['games']} games, {c['actions']} actions, {c['timers']} timers, "
            f"{c['user_prefs']} prefs, {c['guild_files']} files, {c['bot_meta']} bot records "
            f"copied from {self.source} to {self.target} in {self.seconds:.2f} s; "
            "both exports are equal"
        )


async def copy_store(
    source: StoreLocation, target: StoreLocation, *, now: Callable[[], datetime] = utc_now
) -> CopyReport:
    """Copy every row of ``source`` into ``target`` and check it (module docstring).

    ``now`` is the clock of the target's migrations. Raises :class:`CopyRefused` (nothing
    changed, except that an empty target may have been created and migrated) or
    :class:`CopyFailed` (rolled back).
    """
    started = time.perf_counter()
    if _same_database(source, target):
        raise CopyRefused(f"--from and --to name the same database ({source.describe()})")
    async with _open_source(source) as reader, _open_target(target, now) as writer:
        try:
            async with writer.write():
                found = await writer.user_rows()
                if any(found.values()):
                    raise CopyRefused(_not_empty(writer, found))
                await writer.clear_meta()
                counts = await _load(writer, reader.dump())
                log.info("Copied %s; checking", counts)
                await _compare(
                    _export(reader.dump(), source=True), _export(writer.dump(), source=False)
                )
        except DATABASE_ERRORS as error:
            # What the sides did not put in words already (a row's error names it).
            raise CopyFailed(
                f"{target.label}: the copy failed and was rolled back: {one_line(error)}"
            ) from error
    return CopyReport(source.describe(), target.describe(), counts, time.perf_counter() - started)


async def read_export(location: StoreLocation) -> list[Item]:
    """The export a copy compares, of the store at ``location``, as one list (for tests
    and small stores); read-only, as a copy's source is read."""
    async with (
        _open_source(location) as reader,
        aclosing(_export(reader.dump(), source=False)) as items,
    ):
        return [item async for item in items]


def _not_empty(side: _Side, found: dict[str, int]) -> str:
    """The refusal of a target that holds rows someone made, counted."""
    held = ", ".join(
        f"{count} {USER_TABLES[table][count != 1]}" for table, count in found.items() if count
    )
    return (
        f"{side.label} is not empty: it holds {held}; copy only into a new database "
        "(nothing was changed)"
    )


async def _load(writer: _Side, items: AsyncIterator[Item]) -> dict[str, int]:
    """Write the dump ``items`` into ``writer`` (inside its write transaction); the rows
    per table."""
    counts = {table.name: 0 for table in TABLES}
    pending: dict[str, list[Row]] = {table.name: [] for table in TABLES}
    top = _TopIds()
    next_ids: Row = dict.fromkeys(COUNTED, 1)

    async def flush() -> None:
        # In table order: a batch of actions or timers may refer to games in this batch.
        for table in TABLES:
            rows = pending[table.name]
            if rows:
                await writer.insert(table, rows)
                pending[table.name] = []

    async with aclosing(items) as dump:
        async for name, row in dump:
            if name == NEXT_IDS:
                next_ids = row
                continue
            top.see(name, row)
            pending[name].append(row)
            counts[name] += 1
            if len(pending[name]) >= BATCH:
                await flush()
    await flush()
    await writer.set_next_ids(top.above(next_ids))
    return counts


class _TopIds:
    """The highest game and timer ids of a dump, seen as it streams by."""

    def __init__(self) -> None:
        self.top = dict.fromkeys(COUNTED, 0)

    def see(self, name: str, row: Row) -> None:
        """Note the id of a row of ``name``."""
        if name in self.top:
            self.top[name] = max(self.top[name], row["id"])

    def above(self, next_ids: Row) -> Row:
        """The ids a copy's counters must continue at: the source's, and above every id
        (a PostgreSQL sequence set back by hand would hand out a copied id again)."""
        return {name: max(int(next_ids[name]), top + 1) for name, top in self.top.items()}


async def _export(items: AsyncIterator[Item], *, source: bool) -> AsyncIterator[Item]:
    """The items a copy compares: every dumped row (times as ISO text), and after each
    game's last action and timer its record as ``GameStore.export`` gives it (None for a
    lobby, ``{"unreadable": …}`` for a log that does not parse). The next ids are the
    counters as they stand; of a ``source``, where a copy's must stand (above every id)."""
    top = _TopIds()
    game: Row | None = None
    entries: list[dict[str, Any]] = []
    problem: str | None = None

    def record() -> Item:
        assert game is not None
        if game["start_json"] is None:
            value: Any = None
        elif problem is not None:
            value = {"unreadable": problem}
        else:
            try:
                start = json.loads(game["start_json"])
                value = GameRecord(start=start, actions=entries).to_dict()
            except (ValueError, RecursionError) as error:
                value = {"unreadable": f"start: {error}"}
        return RECORD, {"game_id": game["id"], "record": value}

    async with aclosing(items) as dump:
        async for name, row in dump:
            if name == ACTIONS.name and game is not None and problem is None:
                try:
                    entries.append(
                        {
                            "action": json.loads(row["action_json"]),
                            "dice": json.loads(row["dice_json"]),
                        }
                    )
                except (TypeError, ValueError, RecursionError) as error:
                    problem = f"action {row['seq']}: {error}"
            elif name not in (ACTIONS.name, TIMERS.name) and game is not None:
                yield record()
                game, entries, problem = None, [], None
            if name == GAMES.name:
                game = row
            top.see(name, row)
            if name == NEXT_IDS and source:
                row = top.above(row)
            yield (
                name,
                {
                    column: value.isoformat() if isinstance(value, datetime) else value
                    for column, value in row.items()
                },
            )
    if game is not None:
        yield record()


async def _compare(source: AsyncIterator[Item], target: AsyncIterator[Item]) -> None:
    """Raise :class:`CopyMismatch` at the first item that differs between the exports."""
    async with aclosing(source) as ours, aclosing(target) as theirs:
        while True:
            mine, copied = await anext(ours, None), await anext(theirs, None)
            if mine is None and copied is None:
                return
            if mine != copied:
                raise CopyMismatch(
                    f"the copy differs from the source, so nothing was written: "
                    f"{_difference(mine, copied)}"
                )


def _item_name(item: Item | None) -> str:
    """What an export item is, for a message."""
    if item is None:
        return "nothing"
    name, row = item
    if name == GAMES.name:
        return f"game {row['id']}"
    if name == ACTIONS.name:
        return f"action {row['seq']} of game {row['game_id']}"
    if name == TIMERS.name:
        return f"timer {row['id']} of game {row['game_id']}"
    if name == USER_PREFS.name:
        return f"the preferences of user {row['user_id']}"
    if name == GUILD_FILES.name:
        return f"the {row['kind']} file {row['item_id']!r} of server {row['guild_id']}"
    if name == BOT_META.name:
        return f"the bot's record {row['key']!r}"
    if name == RECORD:
        return f"the record of game {row['game_id']}"
    return "the next game and timer ids"


def _difference(source: Item | None, target: Item | None) -> str:
    """The first difference of two export items, in words."""
    if source is None or target is None or _item_name(source) != _item_name(target):
        return f"the source has {_item_name(source)} where the target has {_item_name(target)}"
    mine, copied = source[1], target[1]
    column = next(
        key for key in sorted(set(mine) | set(copied)) if mine.get(key) != copied.get(key)
    )
    return (
        f"{_item_name(source)}: {column} is {_short(mine.get(column))} in the source, "
        f"{_short(copied.get(column))} in the target"
    )


def _short(value: object) -> str:
    """A value for a message, cut short (a state's JSON runs to kilobytes)."""
    text = repr(value)
    return text if len(text) <= 60 else f"{text[:57]}..."


# -- the two dialects -------------------------------------------------------------------------


class _Side(abc.ABC):
    """One database of a copy, on a connection of its own: read as a source, or written
    (and read back) as the target."""

    def __init__(self, location: StoreLocation) -> None:
        self.location = location
        self.label = location.label
        self._writing = False

    #: The schema version this bot's code has for the dialect.
    head: int

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
    def rows(self, table: Table) -> AsyncIterator[Row]:
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

    async def dump(self) -> AsyncIterator[Item]:
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
        except DATABASE_ERRORS as error:
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
                f"{self.label}: a row of {table.name} ({_key_of(table, row)}) has {column} "
                f"{_short(value)}, which is not a time ({error})"
            ) from error
        return moment.astimezone(UTC)


def _key_of(table: Table, row: Row) -> str:
    """The key columns of a row, for messages."""
    keys = [column for column, _text in table.order]
    if "id" in table.columns:
        keys = ["id"]
    return ", ".join(f"{key} {row.get(key)!r}" for key in keys)


class _SqliteSide(_Side):
    """A SQLite file, on one aiosqlite connection in autocommit mode."""

    def __init__(self, location: StoreLocation, conn: aiosqlite.Connection) -> None:
        super().__init__(location)
        self.conn = conn
        self.head = head_version()

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

    async def rows(self, table: Table) -> AsyncIterator[Row]:
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


class _PostgresSide(_Side):
    """A PostgreSQL database, on one asyncpg connection."""

    def __init__(self, location: StoreLocation, conn: asyncpg.Connection) -> None:
        super().__init__(location)
        self.conn = conn
        self.head = head_version("postgres")

    async def version(self) -> int:
        """The schema version (0: none; nothing is created)."""
        return await pg_schema_version(self.conn)

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

    async def rows(self, table: Table) -> AsyncIterator[Row]:
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
                        f"({_key_of(table, row)}): its {column} holds a NUL character, "
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


# -- opening --------------------------------------------------------------------------------


@asynccontextmanager
async def _open_source(location: StoreLocation) -> AsyncIterator[_Side]:
    """The source, read-only and checked to be at this bot's schema."""
    async with _connect(location, readonly=True) as side:
        try:
            await side.check_schema()
        except DATABASE_ERRORS as error:
            raise CopyRefused(
                f"{side.label}: cannot read the database: {one_line(error)}"
            ) from error
        yield side


@asynccontextmanager
async def _open_target(
    location: StoreLocation, now: Callable[[], datetime]
) -> AsyncIterator[_Side]:
    """The target: looked at before anything changes (refused unless empty), then created
    if need be and migrated to the head, as a bot's start would."""
    if location.path is None or location.path.exists():
        async with _connect(location, readonly=True) as side:
            await _refuse_unless_empty(side)
    try:
        if location.path is not None:
            # The store's own start: creates the folder and file, WAL mode, migrations.
            store = SqliteGameStore(location.path, now=now)
            await store.open()
            await store.close()
        else:
            async with _connect(location, readonly=False) as side:
                assert isinstance(side, _PostgresSide)
                await migrate_postgres(side.conn, now=now)
    except SchemaError as error:
        raise CopyRefused(f"{location.label}: {one_line(error)}") from error
    except DATABASE_ERRORS as error:
        raise CopyRefused(
            f"{location.label}: cannot open the database: {one_line(error)}"
        ) from error
    async with _connect(location, readonly=False) as side:
        yield side


async def _refuse_unless_empty(side: _Side) -> None:
    """CopyRefused if the database holds games, timers, preferences or files."""
    try:
        found = await side.user_rows()
    except DATABASE_ERRORS as error:
        raise CopyRefused(f"{side.label}: cannot read the database: {one_line(error)}") from error
    if any(found.values()):
        raise CopyRefused(_not_empty(side, found))


def _connect(location: StoreLocation, *, readonly: bool) -> AbstractAsyncContextManager[_Side]:
    """A connection of the copy's own to the database of ``location``."""
    if location.path is not None:
        return _sqlite(location, readonly=readonly)
    return _postgres(location, readonly=readonly)


@asynccontextmanager
async def _sqlite(location: StoreLocation, *, readonly: bool) -> AsyncIterator[_SqliteSide]:
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
        side = _SqliteSide(location, conn)
        try:
            await side.tables()  # a file that is not a database fails here
        except sqlite3.Error as error:
            raise CopyRefused(
                f"{location.label}: cannot read the database: {one_line(error)}"
            ) from error
        yield side
    finally:
        await conn.close()


@asynccontextmanager
async def _postgres(location: StoreLocation, *, readonly: bool) -> AsyncIterator[_PostgresSide]:
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
        yield _PostgresSide(location, conn)
    finally:
        await conn.close()
