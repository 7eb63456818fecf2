"""The SQLite driver of the game store, on aiosqlite.

(One long module: every method of the :class:`~bot.store.base.GameStore` contract for one
database, sharing its connection, transaction and shielding helpers.)

One connection serves the whole bot (aiosqlite runs it in its own thread); the
database is in WAL mode, so readers never block the writer and a commit is one
append to the write-ahead log.

Durability: an action is reported as done only after its transaction committed.
With ``journal_mode=WAL`` a committed transaction survives the bot process being
killed at any moment, with either ``synchronous`` setting, because the WAL lives in
the operating system's page cache and SQLite recovers from it on the next open.
``synchronous=NORMAL`` (the default) skips the ``fsync`` at each commit, so a power
cut or kernel crash may lose the last few commits (never corrupt the database);
``synchronous=FULL`` also survives that but costs one ``fsync`` per action, which
measured about 4 ms on the development VM's disk against about 0.02 ms, i.e. more
than the whole 2 ms budget of an action. Choose FULL where the disk's fsync is cheap
or power is unreliable.

Applying an action is :class:`~bot.store.sql.SqlGameStore`'s loop (cache, stale read,
guarded write, one retry), shared with the PostgreSQL driver; this module supplies its
primitives. Every write is one ``BEGIN IMMEDIATE`` transaction, so writers of several
processes on one file are serialised by SQLite's write lock, and a read-modify-write
inside one (the settings, say) is atomic.

Timers (for :mod:`bot.scheduler`) live in the same file. A timer is leased by an
``UPDATE`` that names it as still pending and not leased (or its lease over), so of
several claimants (tasks or processes) exactly one wins; the timer is marked fired
only once its handler finished (at least once, see :mod:`bot.scheduler`). Triggers
of the schema (migration 0003) keep pending timers to open games: a game that ends
cancels its pending timers in the same transaction, whichever code ended it.
"""

from __future__ import annotations

import asyncio
import json
import logging
import sqlite3
from collections.abc import AsyncIterator, Callable, Mapping, Sequence
from contextlib import asynccontextmanager
from datetime import UTC, datetime, timedelta
from os import PathLike
from pathlib import Path
from typing import Any

import aiosqlite

from bot.engine.record import GameRecord
from bot.store.base import (
    DEFAULT_LEASE,
    OPEN_STATUSES,
    BrokenGameHook,
    GameInfo,
    GameRow,
    GameStatus,
    Shards,
    Timer,
)
from bot.store.errors import (
    ChannelBusy,
    GameBroken,
    GameNotFound,
    GameNotRunning,
    InvalidRecord,
    SettingsConflict,
    StoreError,
)
from bot.store.kinds import AnyState, replay
from bot.store.migrate import migrate
from bot.store.sql import (
    DEFAULT_CACHE_SIZE,
    EPOCH,
    FINISHED_BY_ENGINE,
    INFO_COLUMNS,
    OPEN_SQL,
    STATE_INDEX,
    SqlGameStore,
    Unreadable,
    canonical_json,
    check_game_id,
    check_id,
    check_json_object,
    check_kind,
    check_shards,
    check_state,
    check_text,
    check_version,
    parse_settings,
    readable_rows,
    utc_now,
)

log = logging.getLogger(__name__)

BUSY_TIMEOUT_MS = 5000  # another process (a CLI export, a backup) may hold the lock briefly
SYNCHRONOUS_MODES = ("NORMAL", "FULL", "EXTRA")

_TIMER_COLUMNS = "id, game_id, kind, due_at, payload_json, key, created_at, attempts, leased_until"
_PENDING = "fired_at IS NULL AND cancelled_at IS NULL"
# Free to take at the time bound to the parameter: no lease, or one that has run out.
_UNLEASED = "(leased_until IS NULL OR leased_until <= ?)"


def _shard_filter(shards: Shards | None) -> tuple[str, tuple[int, ...]]:
    """The SQL condition (to append with AND) and parameters of a timer query's shards.

    Discord's formula, ``(guild_id >> 22) % shard_count``, on the timer's game.
    """
    chosen = check_shards(shards)
    if chosen is None:
        return "", ()
    count, ids = chosen
    marks = ", ".join("?" * len(ids))
    return (
        f" AND game_id IN (SELECT id FROM games WHERE ((guild_id >> 22) % ?) IN ({marks}))",
        (count, *ids),
    )


def _utc_text(moment: datetime, what: str) -> str:
    """``moment`` as ISO 8601 text in UTC, the form of every time the store writes.

    Texts of this one form sort in time order, which lets SQL compare them as text.
    """
    if moment.tzinfo is None:
        raise ValueError(f"{what} must be a timezone-aware datetime")
    return moment.astimezone(UTC).isoformat()


def _timer(row: sqlite3.Row | tuple[Any, ...]) -> Timer:
    """A row of ``_TIMER_COLUMNS`` as :class:`Timer` (the schema checks its form)."""
    return Timer(
        id=row[0],
        game_id=row[1],
        kind=row[2],
        due_at=datetime.fromisoformat(row[3]),
        payload=json.loads(row[4]),
        key=row[5],
        created_at=datetime.fromisoformat(row[6]),
        attempts=row[7],
        leased_until=None if row[8] is None else datetime.fromisoformat(row[8]),
    )


def _info(row: sqlite3.Row | tuple[Any, ...], *, strict: bool = True) -> GameInfo:
    """A game's row as :class:`GameInfo`.

    A damaged settings or time column raises :class:`~bot.store.sql.Unreadable` when
    ``strict`` (the game is then set aside like one with a damaged state); otherwise it
    is replaced by an empty value, so that listing a guild's games never fails.
    """
    try:
        settings = parse_settings(row[8])
        created_at = datetime.fromisoformat(row[6])
        updated_at = datetime.fromisoformat(row[7])
    except (TypeError, ValueError, Unreadable) as error:
        if strict:
            raise Unreadable(f"{type(error).__name__}: {error}") from error
        settings, created_at, updated_at = {}, EPOCH, EPOCH
    return GameInfo(
        id=row[0],
        guild_id=row[1],
        channel_id=row[2],
        status=GameStatus(row[3]),
        seq=row[4],
        created_by=row[5],
        created_at=created_at,
        updated_at=updated_at,
        settings=settings,
        finished_reason=row[9],
        broken_error=row[10],
        settings_version=row[11],
    )


def _loads_object(raw: object) -> dict[str, Any]:
    """A stored JSON object, read as bytes; ValueError if the row is damaged.

    Preferences, finished states and server files are read as bytes (``CAST(... AS
    BLOB)``) and decoded here, so a row whose bytes are not UTF-8 is one damaged row that
    is left out, not an error of the whole query (sqlite3 cannot decode it into a str).
    """
    if not isinstance(raw, bytes):
        raise ValueError("not stored as text")
    try:
        value = json.loads(raw.decode("utf-8"))
    except RecursionError as error:  # nested deeper than Python reads
        raise ValueError("nested too deeply") from error
    if not isinstance(value, dict):
        raise ValueError("not a JSON object")
    return value


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

    ``now`` is the clock (it must return timezone-aware datetimes); ``cache_size``
    is how many games' committed state JSON is kept in memory (about 3 KB each);
    ``synchronous`` is SQLite's setting (see the module docstring); ``on_broken`` is
    called with each game set aside because its state cannot be read.
    """

    def __init__(
        self,
        path: str | PathLike[str],
        *,
        now: Callable[[], datetime] = utc_now,
        cache_size: int = DEFAULT_CACHE_SIZE,
        synchronous: str = "NORMAL",
        on_broken: BrokenGameHook | None = None,
    ) -> None:
        if synchronous.upper() not in SYNCHRONOUS_MODES:
            raise ValueError(f"synchronous must be one of {SYNCHRONOUS_MODES}")
        super().__init__(now=now, cache_size=cache_size, on_broken=on_broken)
        self.path = Path(path)
        self.synchronous = synchronous.upper()
        self._conn: aiosqlite.Connection | None = None
        # Every use of the one connection holds this lock, so no statement of one
        # coroutine lands inside another coroutine's open transaction.
        self._db_lock = asyncio.Lock()

    # -- connection -------------------------------------------------------------------

    async def open(self) -> None:
        """Open the file (creating its directory), set WAL mode and migrate the schema."""
        if self._conn is not None:
            return
        self.path.parent.mkdir(parents=True, exist_ok=True)
        conn = await aiosqlite.connect(self.path, isolation_level=None)
        try:
            await conn.execute(f"PRAGMA busy_timeout = {BUSY_TIMEOUT_MS}")
            mode = await _enable_wal(conn)
            if mode != "wal":
                log.warning("SQLite refused WAL mode for %s (mode %s)", self.path, mode)
            await conn.execute(f"PRAGMA synchronous = {self.synchronous}")
            await migrate(conn, now=self._now)
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
    async def _transaction(self) -> AsyncIterator[aiosqlite.Connection]:
        """One write transaction; rolled back if the block raises."""
        conn = self._connection()
        async with self._db_lock:
            # IMMEDIATE takes the write lock now, so another process writing cannot
            # make this transaction fail half-way with SQLITE_BUSY.
            await conn.execute("BEGIN IMMEDIATE")
            try:
                yield conn
                await conn.commit()
            except BaseException:
                await conn.rollback()
                raise

    async def _fetchall(self, sql: str, params: tuple[Any, ...] = ()) -> list[Any]:
        conn = self._connection()
        async with self._db_lock:
            return list(await conn.execute_fetchall(sql, params))

    async def _query(self, sql: str) -> list[Any]:
        """The rows of a statement without parameters."""
        return await self._fetchall(sql)

    def _info_of(self, row: Any, *, strict: bool = True) -> GameInfo:
        """A row of ``INFO_COLUMNS`` as :class:`GameInfo` (see :func:`_info`)."""
        return _info(row, strict=strict)

    def _stamp(self) -> str:
        """The clock's time as ISO 8601 text in UTC (so text order is time order)."""
        return _utc_text(self._now(), "the store's clock time")

    # -- reading ----------------------------------------------------------------------

    async def _select(self, game_id: int, *, strict: bool = True) -> tuple[GameInfo, str | None]:
        """The game's row and state JSON; a damaged row is set aside (GameBroken)."""
        rows = await self._fetchall(
            f"SELECT {INFO_COLUMNS}, state_json FROM games WHERE id = ?", (game_id,)
        )
        if not rows:
            raise GameNotFound(game_id)
        try:
            return _info(rows[0], strict=strict), rows[0][STATE_INDEX]
        except Unreadable as error:
            info = _info(rows[0], strict=False)
            if info.status in OPEN_STATUSES:
                await self._mark_broken(info, str(error))
            raise GameBroken(game_id, str(error)) from error

    async def game_in_channel(self, channel_id: int) -> GameRow | None:
        """The lobby or running game in the channel, if any (raises GameBroken)."""
        channel_id = check_id(channel_id, "channel_id")
        rows = await self._fetchall(
            f"SELECT id FROM games WHERE channel_id = ? AND status IN {OPEN_SQL}", (channel_id,)
        )
        return await self.load(rows[0][0]) if rows else None

    async def list_games(self, guild_id: int, *, include_finished: bool = False) -> list[GameInfo]:
        """The guild's games, oldest first (lobby, running and broken; finished if asked)."""
        guild_id = check_id(guild_id, "guild_id")
        where = "" if include_finished else " AND status != 'finished'"
        rows = await self._fetchall(
            f"SELECT {INFO_COLUMNS} FROM games WHERE guild_id = ?{where} ORDER BY id",
            (guild_id,),
        )
        return [_info(row, strict=False) for row in rows]

    async def finished_since(self, since: datetime) -> list[GameRow]:
        """Finished games that started play and changed since ``since``, with their state."""
        rows = await self._fetchall(
            f"SELECT {INFO_COLUMNS}, state_json FROM games WHERE status = 'finished'"
            " AND state_json IS NOT NULL AND updated_at >= ? ORDER BY id",
            (_utc_text(since, "since"),),
        )
        return readable_rows(rows, _info, STATE_INDEX)  # a damaged one has no end left to show

    async def record(self, game_id: int) -> GameRecord:
        """The game's record: start state and every action with its dice, in order."""
        game_id = check_game_id(game_id)
        conn = self._connection()
        async with self._db_lock:
            games = await conn.execute_fetchall(
                "SELECT status, start_json FROM games WHERE id = ?", (game_id,)
            )
            actions = await conn.execute_fetchall(
                "SELECT action_json, dice_json FROM actions WHERE game_id = ? ORDER BY seq",
                (game_id,),
            )
        games = list(games)
        if not games:
            raise GameNotFound(game_id)
        status, start_json = games[0]
        if start_json is None:
            raise GameNotRunning(game_id, status)
        try:
            return GameRecord(
                start=json.loads(start_json),
                actions=[{"action": json.loads(a), "dice": json.loads(d)} for a, d in actions],
            )
        except ValueError as error:
            raise InvalidRecord(
                f"the stored log of game {game_id} is unreadable: {error}"
            ) from error

    # -- writing ----------------------------------------------------------------------

    async def _insert_game(
        self,
        guild_id: int,
        channel_id: int,
        *,
        created_by: int | None,
        status: GameStatus,
        seq: int,
        state_json: str | None,
        start_json: str | None,
        settings_json: str,
        actions: Sequence[tuple[int, str, str, str]] = (),
        finished_reason: str | None = None,
    ) -> int:
        at = self._stamp()
        async with self._transaction() as conn:
            try:
                cursor = await conn.execute(
                    "INSERT INTO games (guild_id, channel_id, created_by, status, created_at,"
                    " updated_at, seq, state_json, start_json, settings_json, finished_reason)"
                    " VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)",
                    (
                        guild_id,
                        channel_id,
                        created_by,
                        str(status),
                        at,
                        at,
                        seq,
                        state_json,
                        start_json,
                        settings_json,
                        finished_reason,
                    ),
                )
            except sqlite3.IntegrityError:
                await self._raise_if_busy(conn, channel_id)
                raise
            game_id = cursor.lastrowid
            assert game_id is not None
            await conn.executemany(
                "INSERT INTO actions (game_id, seq, action_json, dice_json, events_json, at)"
                " VALUES (?, ?, ?, ?, ?, ?)",
                [(game_id, s, a, d, e, at) for s, a, d, e in actions],
            )
        return game_id

    @staticmethod
    async def _raise_if_busy(conn: aiosqlite.Connection, channel_id: int) -> None:
        rows = list(
            await conn.execute_fetchall(
                f"SELECT id FROM games WHERE channel_id = ? AND status IN {OPEN_SQL}", (channel_id,)
            )
        )
        if rows:
            raise ChannelBusy(channel_id, rows[0][0])

    async def start_game(
        self, game_id: int, state: AnyState, *, expected_settings_version: int | None = None
    ) -> GameRow:
        """Turn a lobby into a running game starting at ``state`` (if its settings are
        still at ``expected_settings_version``, when given)."""
        game_id = check_game_id(game_id)
        state_json = check_state(state)
        version = check_version(expected_settings_version, "expected_settings_version")

        async def work() -> None:
            async with self._transaction() as conn:
                cursor = await conn.execute(
                    "UPDATE games SET status = 'running', state_json = ?, start_json = ?,"
                    " seq = ?, updated_at = ? WHERE id = ? AND status = 'lobby'"
                    " AND (? IS NULL OR settings_version = ?)",
                    (state_json, state_json, state.seq, self._stamp(), game_id, version, version),
                )
                if cursor.rowcount != 1:
                    await self._raise_status(conn, game_id, version)

        await self._locked(game_id, work)
        return await self.load(game_id)

    @staticmethod
    async def _raise_status(
        conn: aiosqlite.Connection, game_id: int, settings_version: int | None = None
    ) -> None:
        """Raise the error explaining why a guarded UPDATE of ``game_id`` found no row."""
        rows = list(
            await conn.execute_fetchall(
                "SELECT status, settings_version FROM games WHERE id = ?", (game_id,)
            )
        )
        if not rows:
            raise GameNotFound(game_id)
        status, current = rows[0]
        if status == GameStatus.LOBBY and settings_version is not None:
            raise SettingsConflict(game_id, settings_version, current)
        raise GameNotRunning(game_id, status)

    async def _stored_seq(self, game_id: int) -> int | None:
        rows = await self._fetchall("SELECT seq FROM games WHERE id = ?", (game_id,))
        return rows[0][0] if rows else None

    async def _write_action(
        self,
        game_id: int,
        read_seq: int,
        seq: int,
        state_json: str,
        over: bool,
        action_json: str,
        events_json: str,
        dice_json: str,
    ) -> bool:
        """Store the new state and append the action in one transaction.

        Returns False (writing nothing) if the row is no longer at ``read_seq``.
        """
        at = self._stamp()
        async with self._transaction() as conn:
            cursor = await conn.execute(
                "UPDATE games SET state_json = ?, seq = ?, updated_at = ?, status = ?,"
                " finished_reason = ? WHERE id = ? AND seq = ? AND status = 'running'",
                (
                    state_json,
                    seq,
                    at,
                    GameStatus.FINISHED if over else GameStatus.RUNNING,
                    FINISHED_BY_ENGINE if over else None,
                    game_id,
                    read_seq,
                ),
            )
            if cursor.rowcount != 1:
                return False
            await conn.execute(
                "INSERT INTO actions (game_id, seq, action_json, dice_json, events_json, at)"
                " VALUES (?, ?, ?, ?, ?, ?)",
                (game_id, seq, action_json, dice_json, events_json, at),
            )
        return True

    async def finish(self, game_id: int, reason: str) -> GameInfo:
        """End a game; it stays readable (state, record) for history and statistics.

        Its pending timers are cancelled with it (by the schema's trigger).
        """
        game_id = check_game_id(game_id)
        reason = check_text(reason, "reason")

        async def work() -> None:
            async with self._transaction() as conn:
                cursor = await conn.execute(
                    "UPDATE games SET status = 'finished', finished_reason = ?, updated_at = ?"
                    " WHERE id = ? AND status != 'finished'",
                    (reason, self._stamp(), game_id),
                )
                if cursor.rowcount != 1:
                    await self._raise_status(conn, game_id)
            self._cache.drop(game_id)

        await self._locked(game_id, work)
        info, _ = await self._select(game_id, strict=False)
        return info

    async def _write_settings(
        self, game_id: int, make: Callable[[str], str], expected_version: int | None
    ) -> None:
        """Rewrite the settings in one transaction (SQLite's write lock holds the row)."""
        async with self._transaction() as conn:
            rows = list(
                await conn.execute_fetchall(
                    "SELECT settings_json, settings_version FROM games WHERE id = ?", (game_id,)
                )
            )
            if not rows:
                raise GameNotFound(game_id)
            current, version = rows[0]
            if expected_version is not None and expected_version != version:
                raise SettingsConflict(game_id, expected_version, version)
            await conn.execute(
                "UPDATE games SET settings_json = ?, settings_version = settings_version + 1,"
                " updated_at = ? WHERE id = ?",
                (make(current), self._stamp(), game_id),
            )

    async def _mark_broken(self, info: GameInfo, error: str) -> None:
        """Set an open game aside (caller holds its lock), log it and tell the hook."""
        async with self._transaction() as conn:
            await conn.execute(
                "UPDATE games SET status = 'broken', broken_error = ?, updated_at = ?"
                f" WHERE id = ? AND status IN {OPEN_SQL}",
                (error, self._stamp(), info.id),
            )
        await self._report_broken(info, error)

    async def rebuild_from_log(self, game_id: int) -> GameRow:
        """Recompute the state from start + log; the game runs again (or is finished)."""
        game_id = check_game_id(game_id)

        async def work() -> None:
            info, _ = await self._select(game_id, strict=False)
            if info.status not in (GameStatus.RUNNING, GameStatus.BROKEN):
                raise GameNotRunning(game_id, info.status)
            record = await self.record(game_id)
            try:
                state = replay(record)
            except Exception as error:
                raise InvalidRecord(f"{type(error).__name__}: {error}") from error
            over = state.phase == "over"
            async with self._transaction() as conn:
                try:
                    await conn.execute(
                        "UPDATE games SET state_json = ?, seq = ?, status = ?, broken_error = NULL,"
                        " finished_reason = ?, updated_at = ? WHERE id = ?",
                        (
                            state.to_json(),
                            state.seq,
                            GameStatus.FINISHED if over else GameStatus.RUNNING,
                            FINISHED_BY_ENGINE if over else None,
                            self._stamp(),
                            game_id,
                        ),
                    )
                except sqlite3.IntegrityError:
                    await self._raise_if_busy(conn, info.channel_id)
                    raise
            self._cache.drop(game_id)
            log.info("Game %d rebuilt from its log at seq %d", game_id, state.seq)

        await self._locked(game_id, work)
        return await self.load(game_id)

    # -- timers -----------------------------------------------------------------------

    async def add_timer(
        self,
        game_id: int,
        kind: str,
        due_at: datetime,
        payload: Mapping[str, Any] | None = None,
        *,
        key: str | None = None,
    ) -> Timer:
        """Schedule a timer; a pending one of the game with the same ``key`` is replaced."""
        due_text = _utc_text(due_at, "due_at")
        payload_json = canonical_json(dict(payload or {}))

        async def work() -> Timer:
            created = self._stamp()
            async with self._transaction() as conn:
                rows = list(
                    await conn.execute_fetchall("SELECT status FROM games WHERE id = ?", (game_id,))
                )
                if not rows:
                    raise GameNotFound(game_id)
                if rows[0][0] not in OPEN_STATUSES:
                    raise GameNotRunning(game_id, rows[0][0])
                if key is not None:
                    # Same transaction as the insert: there is never a moment with
                    # both timers pending, or with neither.
                    await conn.execute(
                        f"UPDATE timers SET cancelled_at = ? WHERE game_id = ? AND key = ?"
                        f" AND {_PENDING}",
                        (created, game_id, key),
                    )
                cursor = await conn.execute(
                    "INSERT INTO timers (game_id, kind, due_at, payload_json, key, created_at)"
                    " VALUES (?, ?, ?, ?, ?, ?)",
                    (game_id, kind, due_text, payload_json, key, created),
                )
                timer_id = cursor.lastrowid
                assert timer_id is not None
            return _timer((timer_id, game_id, kind, due_text, payload_json, key, created, 0, None))

        return await self._shielded(work())

    async def cancel_timers(
        self, game_id: int, *, kind: str | None = None, key: str | None = None
    ) -> int:
        """Cancel the game's pending timers (of ``kind`` and ``key`` if given); how many."""
        where = f"game_id = ? AND {_PENDING}"
        params: list[Any] = [game_id]
        if kind is not None:
            where += " AND kind = ?"
            params.append(kind)
        if key is not None:
            where += " AND key = ?"
            params.append(key)

        async def work() -> int:
            async with self._transaction() as conn:
                cursor = await conn.execute(
                    f"UPDATE timers SET cancelled_at = ? WHERE {where}", (self._stamp(), *params)
                )
                return cursor.rowcount

        return await self._shielded(work())

    async def next_due_at(self, *, shards: Shards | None = None) -> datetime | None:
        """The earliest moment a pending timer can be taken (due, and its lease over)."""
        where, params = _shard_filter(shards)
        # Two-argument max() is SQLite's scalar max; the times are of one text form,
        # so text order is time order.
        rows = await self._fetchall(
            "SELECT min(max(due_at, coalesce(leased_until, due_at))) FROM timers"
            f" WHERE {_PENDING}{where}",
            params,
        )
        return datetime.fromisoformat(rows[0][0]) if rows and rows[0][0] is not None else None

    async def due_timers(
        self, now: datetime, limit: int = 100, *, shards: Shards | None = None
    ) -> list[Timer]:
        """Pending, unleased timers due at ``now`` or earlier, earliest first (ties: oldest)."""
        if limit < 1:
            raise ValueError("limit must be at least 1")
        now_text = _utc_text(now, "now")
        where, params = _shard_filter(shards)
        rows = await self._fetchall(
            f"SELECT {_TIMER_COLUMNS} FROM timers WHERE {_PENDING} AND due_at <= ?"
            f" AND {_UNLEASED}{where} ORDER BY due_at, id LIMIT ?",
            (now_text, now_text, *params, limit),
        )
        return [_timer(row) for row in rows]

    async def claim_timer(
        self,
        timer_id: int,
        *,
        now: datetime | None = None,
        lease_seconds: float = DEFAULT_LEASE,
    ) -> bool:
        """Lease the timer until ``now + lease_seconds`` if it is free; True if this call did."""
        if not lease_seconds > 0:
            raise ValueError("lease_seconds must be positive")
        moment = self._now() if now is None else now
        now_text = _utc_text(moment, "now")
        until_text = _utc_text(moment + timedelta(seconds=lease_seconds), "the lease's end")

        async def work() -> bool:
            async with self._transaction() as conn:
                # One statement tests and takes: of concurrent claimants (this
                # connection's tasks are serialised by _db_lock, other processes by
                # SQLite's write lock) only the first finds the lease free.
                cursor = await conn.execute(
                    "UPDATE timers SET leased_until = ?, attempts = attempts + 1"
                    f" WHERE id = ? AND {_PENDING} AND {_UNLEASED}",
                    (until_text, timer_id, now_text),
                )
                return cursor.rowcount == 1

        return await self._shielded(work())

    async def complete_timer(self, timer_id: int) -> bool:
        """Mark the timer fired (cancelled ones too); True if this call did."""

        async def work() -> bool:
            async with self._transaction() as conn:
                cursor = await conn.execute(
                    "UPDATE timers SET fired_at = ? WHERE id = ? AND fired_at IS NULL",
                    (self._stamp(), timer_id),
                )
                return cursor.rowcount == 1

        return await self._shielded(work())

    async def retry_timer(self, timer_id: int, at: datetime) -> None:
        """Keep the timer pending, free to take again from ``at`` on (a back-off)."""
        at_text = _utc_text(at, "at")

        async def work() -> None:
            async with self._transaction() as conn:
                await conn.execute(
                    f"UPDATE timers SET leased_until = ? WHERE id = ? AND {_PENDING}",
                    (at_text, timer_id),
                )

        await self._shielded(work())

    async def renew_lease(self, timer_id: int, until: datetime) -> bool:
        """Extend the lease of a pending timer to ``until``; False if it is not pending."""
        until_text = _utc_text(until, "until")

        async def work() -> bool:
            async with self._transaction() as conn:
                cursor = await conn.execute(
                    f"UPDATE timers SET leased_until = ? WHERE id = ? AND {_PENDING}",
                    (until_text, timer_id),
                )
                return cursor.rowcount == 1

        return await self._shielded(work())

    async def pending_timers(self, game_id: int) -> list[Timer]:
        """The game's pending timers, earliest first."""
        rows = await self._fetchall(
            f"SELECT {_TIMER_COLUMNS} FROM timers WHERE game_id = ? AND {_PENDING}"
            " ORDER BY due_at, id",
            (game_id,),
        )
        return [_timer(row) for row in rows]

    # -- users --------------------------------------------------------------------------

    async def user_prefs(self, user_id: int) -> dict[str, Any]:
        """A user's preferences (a JSON object; empty if they never set any)."""
        user_id = check_id(user_id, "user_id")
        rows = await self._fetchall(
            "SELECT CAST(prefs_json AS BLOB) FROM user_prefs WHERE user_id = ?", (user_id,)
        )
        if not rows:
            return {}
        try:
            return _loads_object(rows[0][0])
        except ValueError:
            return {}  # a damaged row counts as "nothing chosen"

    async def set_user_prefs(self, user_id: int, prefs: Mapping[str, Any]) -> None:
        """Replace a user's preferences with ``prefs`` (a JSON object)."""
        user_id = check_id(user_id, "user_id")
        prefs_json = check_json_object(prefs, "prefs")

        async def work() -> None:
            async with self._transaction() as conn:
                await conn.execute(
                    "INSERT INTO user_prefs (user_id, prefs_json, updated_at) VALUES (?, ?, ?)"
                    " ON CONFLICT (user_id) DO UPDATE SET prefs_json = excluded.prefs_json,"
                    " updated_at = excluded.updated_at",
                    (user_id, prefs_json, self._stamp()),
                )

        await self._shielded(work())

    # -- servers ------------------------------------------------------------------------

    async def finished_states(self, guild_id: int) -> list[dict[str, Any]]:
        """The final states (canonical JSON objects) of the server's finished games, oldest
        first; unreadable ones are left out."""
        guild_id = check_id(guild_id, "guild_id")
        rows = await self._fetchall(
            "SELECT CAST(state_json AS BLOB) FROM games WHERE guild_id = ?"
            " AND status = 'finished' AND state_json IS NOT NULL ORDER BY id",
            (guild_id,),
        )
        found = []
        for (raw,) in rows:
            try:
                found.append(_loads_object(raw))
            except ValueError:
                continue  # a damaged finished game only drops out of the statistics
        return found

    async def guild_files(self, guild_id: int, kind: str) -> dict[str, dict[str, Any]]:
        """A server's uploaded files of ``kind`` (``theme`` or ``board``) by id, sorted by id.

        A damaged file (not a JSON object, not UTF-8) is left out with a warning in the
        log: one bad upload must not break every lobby of the server.
        """
        guild_id, kind = check_id(guild_id, "guild_id"), check_kind(kind)
        rows = await self._fetchall(
            "SELECT CAST(item_id AS BLOB), CAST(data_json AS BLOB) FROM guild_files"
            " WHERE guild_id = ? AND kind = ? ORDER BY item_id",
            (guild_id, kind),
        )
        found = {}
        for raw_id, raw_data in rows:
            try:
                item_id = raw_id.decode("utf-8")
                found[item_id] = _loads_object(raw_data)
            except ValueError as error:
                log.warning(
                    "Guild %d: the stored %s file %r is damaged and left out (%s)",
                    guild_id,
                    kind,
                    raw_id.decode("utf-8", "replace"),
                    error,
                )
        return found

    async def save_guild_file(
        self, guild_id: int, kind: str, item_id: str, data: Mapping[str, Any], uploaded_by: int
    ) -> bool:
        """Store a server's file; True if it replaced one of that kind with the same id."""
        key = (check_id(guild_id, "guild_id"), check_kind(kind), check_text(item_id, "item_id"))
        data_json = check_json_object(data, "data")
        uploaded_by = check_id(uploaded_by, "uploaded_by")

        async def work() -> bool:
            async with self._transaction() as conn:
                cursor = await conn.execute(
                    "SELECT 1 FROM guild_files WHERE guild_id = ? AND kind = ? AND item_id = ?",
                    key,
                )
                existed = await cursor.fetchone() is not None
                await conn.execute(
                    "INSERT INTO guild_files"
                    " (guild_id, kind, item_id, data_json, uploaded_by, uploaded_at)"
                    " VALUES (?, ?, ?, ?, ?, ?) ON CONFLICT (guild_id, kind, item_id) DO UPDATE"
                    " SET data_json = excluded.data_json, uploaded_by = excluded.uploaded_by,"
                    " uploaded_at = excluded.uploaded_at",
                    (*key, data_json, uploaded_by, self._stamp()),
                )
                return existed

        return await self._shielded(work())

    async def delete_guild_file(self, guild_id: int, kind: str, item_id: str) -> bool:
        """Remove a server's file; False if there was none of that kind with that id."""
        key = (check_id(guild_id, "guild_id"), check_kind(kind), check_text(item_id, "item_id"))

        async def work() -> bool:
            async with self._transaction() as conn:
                cursor = await conn.execute(
                    "DELETE FROM guild_files WHERE guild_id = ? AND kind = ? AND item_id = ?",
                    key,
                )
                return cursor.rowcount > 0

        return await self._shielded(work())

    # -- the bot's own records ----------------------------------------------------------

    async def meta(self, key: str) -> str | None:
        """The bot's own record under ``key``; None if unset or damaged (not UTF-8)."""
        key = check_text(key, "key")
        # Read as bytes, like preferences and server files: a value whose bytes are not
        # UTF-8 is one damaged record to make again, not an error of the query.
        rows = await self._fetchall(
            "SELECT CAST(value AS BLOB) FROM bot_meta WHERE key = ?", (key,)
        )
        if not rows:
            return None
        raw = rows[0][0]
        try:
            return raw.decode("utf-8") if isinstance(raw, bytes) else None
        except UnicodeDecodeError:
            log.warning("The bot's record %r is damaged and counts as unset", key)
            return None

    async def set_meta(self, key: str, value: str) -> None:
        """Store ``value`` under ``key``, replacing what was there; both are text."""
        key, value = check_text(key, "key"), check_text(value, "value")

        async def work() -> None:
            async with self._transaction() as conn:
                await conn.execute(
                    "INSERT INTO bot_meta (key, value, updated_at) VALUES (?, ?, ?)"
                    " ON CONFLICT (key) DO UPDATE SET value = excluded.value,"
                    " updated_at = excluded.updated_at",
                    (key, value, self._stamp()),
                )

        await self._shielded(work())
