"""Copy a whole store into another database: ``monopoly-bot store copy --from URL --to URL``.

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

The copy works on its own connections (this module sits above the drivers, like
``bench``), so the :class:`~bot.store.base.GameStore` contract the cogs use does not grow.
What is the same for every driver is here and in :mod:`bot.store.transfer`; each driver's
own SQL (its catalog, id counters, bulk insert, table locks) is the
:class:`~bot.store.transfer.CopySide` in its folder (``drivers/<name>/transfer.py``). Rows
stream in batches: memory stays bounded by one game's log.

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

import json
import logging
import time
from collections.abc import AsyncGenerator, AsyncIterator, Callable
from contextlib import AbstractAsyncContextManager, aclosing, asynccontextmanager
from dataclasses import dataclass
from datetime import datetime
from pathlib import Path
from types import ModuleType
from typing import Any
from urllib.parse import urlsplit

from bot.config import one_line, redact_url
from bot.engine.record import GameRecord
from bot.store.drivers.postgres import PostgresGameStore
from bot.store.drivers.postgres import transfer as postgres_transfer
from bot.store.drivers.postgres.urls import SCHEMES, describe_url
from bot.store.drivers.sqlite import SqliteGameStore
from bot.store.drivers.sqlite import transfer as sqlite_transfer
from bot.store.errors import SchemaError, StoreUnavailable
from bot.store.sql import SqlGameStore, utc_now
from bot.store.transfer import (
    ACTIONS,
    BATCH,
    BOT_META,
    COUNTED,
    GAMES,
    GUILD_FILES,
    NEXT_IDS,
    RECORD,
    TABLES,
    TIMERS,
    USER_PREFS,
    USER_TABLES,
    CopyFailed,
    CopyMismatch,
    CopyRefused,
    CopySide,
    Item,
    Row,
    StoreLocation,
    Table,
    short,
)

log = logging.getLogger(__name__)

#: Each driver's part of a copy (``transfer.py`` in its folder) and its store.
_SIDES: dict[str, ModuleType] = {"sqlite": sqlite_transfer, "postgres": postgres_transfer}
#: What the database libraries raise for a database that refuses or fails.
DATABASE_ERRORS = (
    *sqlite_transfer.SqliteSide.errors,
    *postgres_transfer.PostgresSide.errors,
)

__all__ = [
    "TABLES",
    "CopyFailed",
    "CopyMismatch",
    "CopyRefused",
    "StoreLocation",
    "Table",
    "copy_store",
    "parse_store_url",
    "read_export",
]


# -- where: URLs ------------------------------------------------------------------------------


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
        return StoreLocation("sqlite", option, path=Path(path), where=f"SQLite {path}")
    if scheme in SCHEMES:
        try:
            urlsplit(raw).port  # noqa: B018 - reading it checks the port
        except ValueError as error:
            raise ValueError(f"{option} is not a valid URL ({error})") from None
        return StoreLocation("postgres", option, url=raw, where=f"PostgreSQL {describe_url(raw)}")
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


def _not_empty(side: CopySide, found: dict[str, int]) -> str:
    """The refusal of a target that holds rows someone made, counted."""
    held = ", ".join(
        f"{count} {USER_TABLES[table][count != 1]}" for table, count in found.items() if count
    )
    return (
        f"{side.label} is not empty: it holds {held}; copy only into a new database "
        "(nothing was changed)"
    )


async def _load(writer: CopySide, items: AsyncGenerator[Item, None]) -> dict[str, int]:
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


async def _export(items: AsyncGenerator[Item, None], *, source: bool) -> AsyncGenerator[Item, None]:
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


async def _compare(source: AsyncGenerator[Item, None], target: AsyncGenerator[Item, None]) -> None:
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
        f"{_item_name(source)}: {column} is {short(mine.get(column))} in the source, "
        f"{short(copied.get(column))} in the target"
    )


# -- opening --------------------------------------------------------------------------------


@asynccontextmanager
async def _open_source(location: StoreLocation) -> AsyncIterator[CopySide]:
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
) -> AsyncIterator[CopySide]:
    """The target: looked at before anything changes (refused unless empty), then created
    if need be and migrated to the head, as a bot's start would."""
    if location.path is None or location.path.exists():
        async with _connect(location, readonly=True) as side:
            await _refuse_unless_empty(side)
    try:
        # The store's own start: creates the file (and its folder) or the schema, and
        # migrates it.
        store = _store(location, now)
        await store.open()
        await store.close()
    except (SchemaError, StoreUnavailable) as error:
        raise CopyRefused(f"{location.label}: {one_line(error)}") from error
    except DATABASE_ERRORS as error:
        raise CopyRefused(
            f"{location.label}: cannot open the database: {one_line(error)}"
        ) from error
    async with _connect(location, readonly=False) as side:
        yield side


async def _refuse_unless_empty(side: CopySide) -> None:
    """CopyRefused if the database holds games, timers, preferences or files."""
    try:
        found = await side.user_rows()
    except DATABASE_ERRORS as error:
        raise CopyRefused(f"{side.label}: cannot read the database: {one_line(error)}") from error
    if any(found.values()):
        raise CopyRefused(_not_empty(side, found))


def _connect(location: StoreLocation, *, readonly: bool) -> AbstractAsyncContextManager[CopySide]:
    """A connection of the copy's own to the database of ``location``, by its driver."""
    connect: Callable[..., AbstractAsyncContextManager[CopySide]] = _SIDES[location.driver].connect
    return connect(location, readonly=readonly)


def _store(location: StoreLocation, now: Callable[[], datetime]) -> SqlGameStore:
    """The store at ``location`` (not opened), as a bot would open it."""
    if location.path is not None:
        return SqliteGameStore(location.path, now=now)
    assert location.url is not None
    return PostgresGameStore(location.url, now=now, min_size=1, max_size=1)
