"""The PostgreSQL driver of the game store, on asyncpg (a pool of connections).

(One long module, like the SQLite driver: every method of the
:class:`~bot.store.base.GameStore` contract for one database.)

For a bot run as several processes, on several machines, that share one database
(``MONOPOLY_DATABASE_URL=postgresql://…``). The guarantees are the SQLite driver's, and
they hold across processes because the database enforces them, not the in-process locks:

* **Actions.** The apply loop is :class:`~bot.store.sql.SqlGameStore`'s: the write is one
  transaction whose ``UPDATE`` names the ``seq`` it read (and ``status = 'running'``).
  PostgreSQL re-checks that condition on the newest version of the row when another
  transaction changed it meanwhile, so of two processes applying to one game at once
  exactly one write lands; the other finds no row, drops its cache, reads the game again
  and is judged against the new state (``StaleAction`` if it named the old ``seq``). The
  log's primary key ``(game_id, seq)`` would refuse a second entry anyway.
* **Settings.** Every settings write is one transaction that locks the game's row
  (``FOR NO KEY UPDATE``), checks ``settings_version`` if the caller named one, writes and
  adds one to the version: writers of different keys (``patch_settings``) both keep
  their change, and a writer naming an old version gets ``SettingsConflict``.
* **Timers.** A lease is taken by one atomic ``UPDATE … WHERE pending AND (no lease or
  lease over) RETURNING id``: of any number of processes exactly one gets the row, and a
  lease that runs out is taken over by whoever asks next. Triggers in PL/pgSQL (migration
  0003) keep pending timers to open games, as SQLite's do: a game that ends cancels its
  pending timers in the same transaction, and adding a timer to a game that is not open
  fails. Adding a timer locks its game's row first, so a game ending at the same moment
  either waits for the new timer (and cancels it too) or refuses it.
* **Durability.** An action is reported as done only after its transaction committed
  (PostgreSQL's ``synchronous_commit``, on by default, decides how durable a commit is).

Schema: ``migrations/postgres/NNNN_*.sql``, the same numbers and meaning as SQLite's,
applied at :meth:`PostgresGameStore.open` under an advisory lock (:mod:`bot.store.migrate`).
JSON is kept as text, exactly as given (not jsonb, which re-renders numbers and refuses
``\\u0000``); times are ``timestamptz``. PostgreSQL's ``text`` cannot hold the NUL
character, so plain text arguments (a finishing reason, a file id, a record's key) with
one are refused as :class:`~bot.store.errors.BadData`; inside JSON a NUL is written as the
escape ``\\u0000`` and kept.
"""

from __future__ import annotations

import json
import logging
import os
from collections.abc import AsyncIterator, Callable, Mapping, Sequence
from contextlib import asynccontextmanager
from datetime import UTC, datetime, timedelta
from typing import Any
from urllib.parse import parse_qsl, unquote, urlsplit

import asyncpg

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
    BadData,
    ChannelBusy,
    GameBroken,
    GameNotFound,
    GameNotRunning,
    InvalidRecord,
    SettingsConflict,
    StoreError,
    StoreUnavailable,
)
from bot.store.kinds import AnyState, replay
from bot.store.migrate import migrate_postgres
from bot.store.sql import (
    DEFAULT_CACHE_SIZE,
    FINISHED_BY_ENGINE,
    INFO_COLUMNS,
    OPEN_SQL,
    STATE_INDEX,
    SqlGameStore,
    Unreadable,
    aware,
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
from bot.text_input import is_sqlite_int

log = logging.getLogger(__name__)

#: The setting that names the database, for error messages.
URL_SETTING = "MONOPOLY_DATABASE_URL"
#: The URL schemes this driver serves (libpq accepts both).
SCHEMES = ("postgresql", "postgres")
#: Seconds to wait for the server when the store opens.
CONNECT_TIMEOUT = 10.0

_TIMER_COLUMNS = "id, game_id, kind, due_at, payload_json, key, created_at, attempts, leased_until"
_PENDING = "fired_at IS NULL AND cancelled_at IS NULL"


def check_url(url: object) -> str:
    """``url`` if it is a PostgreSQL URL; ValueError naming ``MONOPOLY_DATABASE_URL``.

    The message never repeats the URL, which may hold a password.
    """
    if not isinstance(url, str) or not url.strip():
        raise ValueError(f"{URL_SETTING} must be a postgresql:// URL")
    try:
        parts = urlsplit(url.strip())
        parts.port  # noqa: B018 - reading it checks the port (ValueError if not a number)
    except ValueError as error:
        raise ValueError(f"{URL_SETTING} is not a valid URL ({error})") from None
    if parts.scheme.lower() not in SCHEMES:
        shown = parts.scheme or "none"
        raise ValueError(
            f"{URL_SETTING} must start with postgresql:// (or postgres://), "
            f"not {shown}:// (leave it empty to use the SQLite file MONOPOLY_DB_PATH)"
        )
    return url.strip()


def describe_url(url: str) -> str:
    """Where ``url`` points, for messages: host and port (or socket folder) and database.

    Never the password.
    """
    parts = urlsplit(url)
    query = dict(parse_qsl(parts.query))
    host = query.get("host") or unquote(parts.hostname or "") or os.environ.get("PGHOST", "")
    port = query.get("port") or parts.port or os.environ.get("PGPORT") or 5432
    database = (
        unquote(parts.path.lstrip("/"))
        or query.get("dbname")
        or query.get("database")
        or os.environ.get("PGDATABASE", "")
        or unquote(parts.username or "")
        or "postgres"
    )
    if host.startswith("/"):
        return f"socket {host}/.s.PGSQL.{port}, database {database!r}"
    return f"{host or 'localhost'}:{port}, database {database!r}"


def _count(status: str) -> int:
    """The row count of a command status such as ``UPDATE 1``."""
    try:
        return int(status.rsplit(" ", 1)[-1])
    except ValueError:
        return 0


def _pg_text(value: object, what: str) -> str:
    """Text PostgreSQL can keep: valid Unicode without NUL; BadData otherwise."""
    text = check_text(value, what)
    if "\x00" in text:
        raise BadData(what, "a NUL character, which PostgreSQL cannot keep in text")
    return text


def _optional_pg_text(value: object, what: str) -> str | None:
    """Like :func:`_pg_text`, but None is allowed."""
    return None if value is None else _pg_text(value, what)


def _info(row: asyncpg.Record | Sequence[Any], *, strict: bool = True) -> GameInfo:
    """A game's row as :class:`GameInfo`.

    Damaged settings raise :class:`~bot.store.sql.Unreadable` when ``strict`` (the game
    is then set aside like one with a damaged state); otherwise they are read as empty,
    so that listing a guild's games never fails. (The times are ``timestamptz`` and
    cannot be damaged.)
    """
    try:
        settings = parse_settings(row[8])
    except Unreadable:
        if strict:
            raise
        settings = {}
    return GameInfo(
        id=row[0],
        guild_id=row[1],
        channel_id=row[2],
        status=GameStatus(row[3]),
        seq=row[4],
        created_by=row[5],
        created_at=row[6],
        updated_at=row[7],
        settings=settings,
        finished_reason=row[9],
        broken_error=row[10],
        settings_version=row[11],
    )


def _timer(row: asyncpg.Record | Sequence[Any]) -> Timer:
    """A row of ``_TIMER_COLUMNS`` as :class:`Timer` (times in UTC)."""
    return Timer(
        id=row[0],
        game_id=row[1],
        kind=row[2],
        due_at=row[3].astimezone(UTC),
        payload=json.loads(row[4]),
        key=row[5],
        created_at=row[6].astimezone(UTC),
        attempts=row[7],
        leased_until=None if row[8] is None else row[8].astimezone(UTC),
    )


def _loads_object(text: object) -> dict[str, Any]:
    """A stored JSON object; ValueError if the row is damaged (not an object)."""
    if not isinstance(text, str):
        raise ValueError("not stored as text")
    try:
        value = json.loads(text)
    except RecursionError as error:  # nested deeper than Python reads
        raise ValueError("nested too deeply") from error
    if not isinstance(value, dict):
        raise ValueError("not a JSON object")
    return value


def _shard_filter(shards: Shards | None, first: int) -> tuple[str, tuple[Any, ...]]:
    """The SQL condition (to append with AND) and parameters of a timer query's shards.

    Discord's formula, ``(guild_id >> 22) % shard_count``, on the timer's game; ``first``
    is the number of the first parameter it uses (``$first``).
    """
    chosen = check_shards(shards)
    if chosen is None:
        return "", ()
    count, ids = chosen
    return (
        f" AND game_id IN (SELECT id FROM games"
        f" WHERE ((guild_id >> 22) % ${first}) = ANY(${first + 1}::bigint[]))",
        (count, ids),
    )


class PostgresGameStore(SqlGameStore):
    """Games in a PostgreSQL database; see the module docstring for the guarantees.

    ``url`` is a ``postgresql://`` URL (libpq's form; a socket folder goes in
    ``?host=/path``); anything else raises ValueError naming ``MONOPOLY_DATABASE_URL``.
    ``now``, ``cache_size`` and ``on_broken`` are as for the SQLite store. Pool options:
    ``min_size`` and ``max_size`` connections, ``connect_timeout`` seconds to reach the
    server at :meth:`open`, ``command_timeout`` seconds for one statement (None: no
    limit).
    """

    def __init__(
        self,
        url: str,
        *,
        now: Callable[[], datetime] = utc_now,
        cache_size: int = DEFAULT_CACHE_SIZE,
        on_broken: BrokenGameHook | None = None,
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
                await migrate_postgres(conn, now=self._migration_time)
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
    async def _transaction(self) -> AsyncIterator[asyncpg.Connection]:
        """One transaction on a connection of the pool; rolled back if the block raises."""
        async with self._connection_pool().acquire() as conn, conn.transaction():
            yield conn

    async def _fetch(self, sql: str, *params: Any) -> list[asyncpg.Record]:
        return await self._connection_pool().fetch(sql, *params)

    async def _query(self, sql: str) -> list[Any]:
        """The rows of a statement without parameters."""
        return await self._fetch(sql)

    def _info_of(self, row: Any, *, strict: bool = True) -> GameInfo:
        """A row of ``INFO_COLUMNS`` as :class:`GameInfo` (see :func:`_info`)."""
        return _info(row, strict=strict)

    def _text(self, value: object, what: str) -> str:
        """Text PostgreSQL can keep: no NUL (see :func:`_pg_text`)."""
        return _pg_text(value, what)

    async def _fetchrow(self, sql: str, *params: Any) -> asyncpg.Record | None:
        return await self._connection_pool().fetchrow(sql, *params)

    # -- reading ----------------------------------------------------------------------

    async def _select(self, game_id: int, *, strict: bool = True) -> tuple[GameInfo, str | None]:
        """The game's row and state JSON; a damaged row is set aside (GameBroken)."""
        row = await self._fetchrow(
            f"SELECT {INFO_COLUMNS}, state_json FROM games WHERE id = $1", game_id
        )
        if row is None:
            raise GameNotFound(game_id)
        try:
            return _info(row, strict=strict), row[STATE_INDEX]
        except Unreadable as error:
            info = _info(row, strict=False)
            if info.status in OPEN_STATUSES:
                await self._mark_broken(info, str(error))
            raise GameBroken(game_id, str(error)) from error

    async def game_in_channel(self, channel_id: int) -> GameRow | None:
        """The lobby or running game in the channel, if any (raises GameBroken)."""
        channel_id = check_id(channel_id, "channel_id")
        row = await self._fetchrow(
            f"SELECT id FROM games WHERE channel_id = $1 AND status IN {OPEN_SQL}", channel_id
        )
        return await self.load(row[0]) if row is not None else None

    async def list_games(self, guild_id: int, *, include_finished: bool = False) -> list[GameInfo]:
        """The guild's games, oldest first (lobby, running and broken; finished if asked)."""
        guild_id = check_id(guild_id, "guild_id")
        where = "" if include_finished else " AND status != 'finished'"
        rows = await self._fetch(
            f"SELECT {INFO_COLUMNS} FROM games WHERE guild_id = $1{where} ORDER BY id", guild_id
        )
        return [_info(row, strict=False) for row in rows]

    async def finished_since(self, since: datetime) -> list[GameRow]:
        """Finished games that started play and changed since ``since``, with their state."""
        rows = await self._fetch(
            f"SELECT {INFO_COLUMNS}, state_json FROM games WHERE status = 'finished'"
            " AND state_json IS NOT NULL AND updated_at >= $1 ORDER BY id",
            aware(since, "since"),
        )
        return readable_rows(rows, _info, STATE_INDEX)  # a damaged one has no end left to show

    async def record(self, game_id: int) -> GameRecord:
        """The game's record: start state and every action with its dice, in order."""
        game_id = check_game_id(game_id)
        # One snapshot for the row and the log, so they belong together.
        async with (
            self._connection_pool().acquire() as conn,
            conn.transaction(isolation="repeatable_read", readonly=True),
        ):
            return await self._record(conn, game_id)

    @staticmethod
    async def _record(conn: asyncpg.Connection, game_id: int) -> GameRecord:
        game = await conn.fetchrow("SELECT status, start_json FROM games WHERE id = $1", game_id)
        if game is None:
            raise GameNotFound(game_id)
        status, start_json = game
        if start_json is None:
            raise GameNotRunning(game_id, status)
        actions = await conn.fetch(
            "SELECT action_json, dice_json FROM actions WHERE game_id = $1 ORDER BY seq", game_id
        )
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
        at = self._clock()
        # A game in the channel that finished between the refused insert and the look
        # for it leaves nothing to name: try once more.
        for _attempt in range(3):
            try:
                async with self._transaction() as conn:
                    game_id = await conn.fetchval(
                        "INSERT INTO games (guild_id, channel_id, created_by, status, created_at,"
                        " updated_at, seq, state_json, start_json, settings_json,"
                        " finished_reason) VALUES ($1, $2, $3, $4, $5, $5, $6, $7, $8, $9, $10)"
                        " RETURNING id",
                        guild_id,
                        channel_id,
                        created_by,
                        str(status),
                        at,
                        seq,
                        state_json,
                        start_json,
                        settings_json,
                        finished_reason,
                    )
                    if actions:
                        await conn.executemany(
                            "INSERT INTO actions"
                            " (game_id, seq, action_json, dice_json, events_json, at)"
                            " VALUES ($1, $2, $3, $4, $5, $6)",
                            [(game_id, s, a, d, e, at) for s, a, d, e in actions],
                        )
                return int(game_id)
            except asyncpg.UniqueViolationError as error:
                if error.constraint_name != "games_open_channel":
                    raise
                await self._raise_if_busy(channel_id, error)
        raise ChannelBusy(channel_id, 0)  # pragma: no cover - a channel freed three times

    async def _raise_if_busy(self, channel_id: int, error: Exception) -> None:
        """Raise ChannelBusy naming the open game of the channel, if it has one."""
        row = await self._fetchrow(
            f"SELECT id FROM games WHERE channel_id = $1 AND status IN {OPEN_SQL}", channel_id
        )
        if row is not None:
            raise ChannelBusy(channel_id, row[0]) from error

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
                status = await conn.execute(
                    "UPDATE games SET status = 'running', state_json = $1, start_json = $1,"
                    " seq = $2, updated_at = $3 WHERE id = $4 AND status = 'lobby'"
                    " AND ($5::bigint IS NULL OR settings_version = $5)",
                    state_json,
                    state.seq,
                    self._clock(),
                    game_id,
                    version,
                )
                if _count(status) != 1:
                    await self._raise_status(conn, game_id, version)

        await self._locked(game_id, work)
        return await self.load(game_id)

    @staticmethod
    async def _raise_status(
        conn: asyncpg.Connection, game_id: int, settings_version: int | None = None
    ) -> None:
        """Raise the error explaining why a guarded UPDATE of ``game_id`` found no row."""
        row = await conn.fetchrow(
            "SELECT status, settings_version FROM games WHERE id = $1", game_id
        )
        if row is None:
            raise GameNotFound(game_id)
        status, current = row
        if status == GameStatus.LOBBY and settings_version is not None:
            raise SettingsConflict(game_id, settings_version, current)
        raise GameNotRunning(game_id, status)

    async def _stored_seq(self, game_id: int) -> int | None:
        row = await self._fetchrow("SELECT seq FROM games WHERE id = $1", game_id)
        return row[0] if row is not None else None

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

        Returns False (writing nothing) if the row is no longer running at ``read_seq``:
        PostgreSQL checks the condition again on the row another transaction just wrote.
        """
        at = self._clock()
        async with self._transaction() as conn:
            status = await conn.execute(
                "UPDATE games SET state_json = $1, seq = $2, updated_at = $3, status = $4,"
                " finished_reason = $5 WHERE id = $6 AND seq = $7 AND status = 'running'",
                state_json,
                seq,
                at,
                str(GameStatus.FINISHED if over else GameStatus.RUNNING),
                FINISHED_BY_ENGINE if over else None,
                game_id,
                read_seq,
            )
            if _count(status) != 1:
                return False
            await conn.execute(
                "INSERT INTO actions (game_id, seq, action_json, dice_json, events_json, at)"
                " VALUES ($1, $2, $3, $4, $5, $6)",
                game_id,
                seq,
                action_json,
                dice_json,
                events_json,
                at,
            )
        return True

    async def _write_settings(
        self, game_id: int, make: Callable[[str], str], expected_version: int | None
    ) -> None:
        """Rewrite the settings in one transaction holding the game's row."""
        async with self._transaction() as conn:
            # NO KEY UPDATE: as strong as an UPDATE of the row, and no stronger, so
            # inserting the game's timers (a key-share lock) need not wait for it.
            row = await conn.fetchrow(
                "SELECT settings_json, settings_version FROM games WHERE id = $1 FOR NO KEY UPDATE",
                game_id,
            )
            if row is None:
                raise GameNotFound(game_id)
            current, version = row
            if expected_version is not None and expected_version != version:
                raise SettingsConflict(game_id, expected_version, version)
            await conn.execute(
                "UPDATE games SET settings_json = $1, settings_version = settings_version + 1,"
                " updated_at = $2 WHERE id = $3",
                make(current),
                self._clock(),
                game_id,
            )

    async def finish(self, game_id: int, reason: str) -> GameInfo:
        """End a game; it stays readable for history. Its timers are cancelled (trigger)."""
        game_id = check_game_id(game_id)
        reason = _pg_text(reason, "reason")

        async def work() -> None:
            async with self._transaction() as conn:
                status = await conn.execute(
                    "UPDATE games SET status = 'finished', finished_reason = $1, updated_at = $2"
                    " WHERE id = $3 AND status != 'finished'",
                    reason,
                    self._clock(),
                    game_id,
                )
                if _count(status) != 1:
                    await self._raise_status(conn, game_id)
            self._cache.drop(game_id)

        await self._locked(game_id, work)
        info, _ = await self._select(game_id, strict=False)
        return info

    async def _mark_broken(self, info: GameInfo, error: str) -> None:
        """Set an open game aside (caller holds its lock), log it and tell the hook."""
        # An error text from a parser may hold a NUL (quoting the damaged text).
        error = error.replace("\x00", "\\x00")
        async with self._transaction() as conn:
            await conn.execute(
                "UPDATE games SET status = 'broken', broken_error = $1, updated_at = $2"
                f" WHERE id = $3 AND status IN {OPEN_SQL}",
                error,
                self._clock(),
                info.id,
            )
        await self._report_broken(info, error)

    async def rebuild_from_log(self, game_id: int) -> GameRow:
        """Recompute the state from start + log; the game runs again (or is finished)."""
        game_id = check_game_id(game_id)

        async def work() -> None:
            channel_id = 0
            try:
                async with self._transaction() as conn:
                    # The row stays locked from reading the log to writing the state,
                    # so no process can append an action the replay would miss.
                    row = await conn.fetchrow(
                        "SELECT status, channel_id FROM games WHERE id = $1 FOR NO KEY UPDATE",
                        game_id,
                    )
                    if row is None:
                        raise GameNotFound(game_id)
                    status, channel_id = row
                    if status not in (GameStatus.RUNNING, GameStatus.BROKEN):
                        raise GameNotRunning(game_id, status)
                    record = await self._record(conn, game_id)
                    try:
                        state = replay(record)
                    except Exception as error:
                        raise InvalidRecord(f"{type(error).__name__}: {error}") from error
                    over = state.phase == "over"
                    await conn.execute(
                        "UPDATE games SET state_json = $1, seq = $2, status = $3,"
                        " broken_error = NULL, finished_reason = $4, updated_at = $5"
                        " WHERE id = $6",
                        state.to_json(),
                        state.seq,
                        str(GameStatus.FINISHED if over else GameStatus.RUNNING),
                        FINISHED_BY_ENGINE if over else None,
                        self._clock(),
                        game_id,
                    )
            except asyncpg.UniqueViolationError as error:
                if error.constraint_name != "games_open_channel":
                    raise
                await self._raise_if_busy(channel_id, error)
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
        due = aware(due_at, "due_at")
        payload_json = canonical_json(dict(payload or {}))
        kind = _pg_text(kind, "kind")
        key = _optional_pg_text(key, "key")

        async def work() -> Timer:
            created = self._clock()
            async with self._transaction() as conn:
                # The game's row first, locked against other timer writers of the game
                # and against its ending: the same order as a game that ends (row, then
                # its timers), so the two cannot deadlock, and a second add_timer of the
                # same key waits instead of failing on the unique index.
                row = await conn.fetchrow(
                    "SELECT status FROM games WHERE id = $1 FOR NO KEY UPDATE", game_id
                )
                if row is None:
                    raise GameNotFound(game_id)
                if row[0] not in OPEN_STATUSES:
                    raise GameNotRunning(game_id, row[0])
                if key is not None:
                    # Same transaction as the insert: there is never a moment with
                    # both timers pending, or with neither.
                    await conn.execute(
                        f"UPDATE timers SET cancelled_at = $1 WHERE game_id = $2 AND key = $3"
                        f" AND {_PENDING}",
                        created,
                        game_id,
                        key,
                    )
                timer_id = await conn.fetchval(
                    "INSERT INTO timers (game_id, kind, due_at, payload_json, key, created_at)"
                    " VALUES ($1, $2, $3, $4, $5, $6) RETURNING id",
                    game_id,
                    kind,
                    due,
                    payload_json,
                    key,
                    created,
                )
            return Timer(
                id=timer_id,
                game_id=game_id,
                kind=kind,
                due_at=due,
                payload=json.loads(payload_json),
                key=key,
                created_at=created,
            )

        if not is_sqlite_int(game_id):
            raise GameNotFound(game_id)
        return await self._shielded(work())

    async def cancel_timers(
        self, game_id: int, *, kind: str | None = None, key: str | None = None
    ) -> int:
        """Cancel the game's pending timers (of ``kind`` and ``key`` if given); how many."""
        if not is_sqlite_int(game_id):
            return 0  # no game can have that id, so it has no timers
        where = f"game_id = $2 AND {_PENDING}"
        params: list[Any] = [game_id]
        if kind is not None:
            params.append(_pg_text(kind, "kind"))
            where += f" AND kind = ${len(params) + 1}"
        if key is not None:
            params.append(_pg_text(key, "key"))
            where += f" AND key = ${len(params) + 1}"

        async def work() -> int:
            async with self._transaction() as conn:
                status = await conn.execute(
                    f"UPDATE timers SET cancelled_at = $1 WHERE {where}", self._clock(), *params
                )
                return _count(status)

        return await self._shielded(work())

    async def next_due_at(self, *, shards: Shards | None = None) -> datetime | None:
        """The earliest moment a pending timer can be taken (due, and its lease over)."""
        where, params = _shard_filter(shards, 1)
        row = await self._fetchrow(
            "SELECT min(greatest(due_at, coalesce(leased_until, due_at))) FROM timers"
            f" WHERE {_PENDING}{where}",
            *params,
        )
        return None if row is None or row[0] is None else row[0].astimezone(UTC)

    async def due_timers(
        self, now: datetime, limit: int = 100, *, shards: Shards | None = None
    ) -> list[Timer]:
        """Pending, unleased timers due at ``now`` or earlier, earliest first (ties: oldest)."""
        if limit < 1:
            raise ValueError("limit must be at least 1")
        moment = aware(now, "now")
        where, params = _shard_filter(shards, 3)
        rows = await self._fetch(
            f"SELECT {_TIMER_COLUMNS} FROM timers WHERE {_PENDING} AND due_at <= $1"
            f" AND (leased_until IS NULL OR leased_until <= $1){where}"
            " ORDER BY due_at, id LIMIT $2",
            moment,
            limit,
            *params,
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
        moment = aware(self._now() if now is None else now, "now")
        until = moment + timedelta(seconds=lease_seconds)
        if not is_sqlite_int(timer_id):
            return False

        async def work() -> bool:
            async with self._transaction() as conn:
                # One statement tests and takes: of concurrent claimants (in this
                # process or another) the first takes the row's lock and the lease;
                # the others then find the condition false on the row it wrote.
                taken = await conn.fetchval(
                    "UPDATE timers SET leased_until = $1, attempts = attempts + 1"
                    f" WHERE id = $2 AND {_PENDING}"
                    " AND (leased_until IS NULL OR leased_until <= $3) RETURNING id",
                    until,
                    timer_id,
                    moment,
                )
                return taken is not None

        return await self._shielded(work())

    async def complete_timer(self, timer_id: int) -> bool:
        """Mark the timer fired (cancelled ones too); True if this call did."""
        if not is_sqlite_int(timer_id):
            return False

        async def work() -> bool:
            async with self._transaction() as conn:
                status = await conn.execute(
                    "UPDATE timers SET fired_at = $1 WHERE id = $2 AND fired_at IS NULL",
                    self._clock(),
                    timer_id,
                )
                return _count(status) == 1

        return await self._shielded(work())

    async def retry_timer(self, timer_id: int, at: datetime) -> None:
        """Keep the timer pending, free to take again from ``at`` on (a back-off)."""
        moment = aware(at, "at")
        if not is_sqlite_int(timer_id):
            return

        async def work() -> None:
            async with self._transaction() as conn:
                await conn.execute(
                    f"UPDATE timers SET leased_until = $1 WHERE id = $2 AND {_PENDING}",
                    moment,
                    timer_id,
                )

        await self._shielded(work())

    async def renew_lease(self, timer_id: int, until: datetime) -> bool:
        """Extend the lease of a pending timer to ``until``; False if it is not pending."""
        moment = aware(until, "until")
        if not is_sqlite_int(timer_id):
            return False

        async def work() -> bool:
            async with self._transaction() as conn:
                status = await conn.execute(
                    f"UPDATE timers SET leased_until = $1 WHERE id = $2 AND {_PENDING}",
                    moment,
                    timer_id,
                )
                return _count(status) == 1

        return await self._shielded(work())

    async def pending_timers(self, game_id: int) -> list[Timer]:
        """The game's pending timers, earliest first."""
        if not is_sqlite_int(game_id):
            return []
        rows = await self._fetch(
            f"SELECT {_TIMER_COLUMNS} FROM timers WHERE game_id = $1 AND {_PENDING}"
            " ORDER BY due_at, id",
            game_id,
        )
        return [_timer(row) for row in rows]

    # -- users --------------------------------------------------------------------------

    async def user_prefs(self, user_id: int) -> dict[str, Any]:
        """A user's preferences (a JSON object; empty if they never set any)."""
        user_id = check_id(user_id, "user_id")
        row = await self._fetchrow("SELECT prefs_json FROM user_prefs WHERE user_id = $1", user_id)
        if row is None:
            return {}
        try:
            return _loads_object(row[0])
        except ValueError:
            return {}  # a damaged row counts as "nothing chosen"

    async def set_user_prefs(self, user_id: int, prefs: Mapping[str, Any]) -> None:
        """Replace a user's preferences with ``prefs`` (a JSON object)."""
        user_id = check_id(user_id, "user_id")
        prefs_json = check_json_object(prefs, "prefs")

        async def work() -> None:
            async with self._transaction() as conn:
                await conn.execute(
                    "INSERT INTO user_prefs (user_id, prefs_json, updated_at) VALUES ($1, $2, $3)"
                    " ON CONFLICT (user_id) DO UPDATE SET prefs_json = excluded.prefs_json,"
                    " updated_at = excluded.updated_at",
                    user_id,
                    prefs_json,
                    self._clock(),
                )

        await self._shielded(work())

    # -- servers ------------------------------------------------------------------------

    async def finished_states(self, guild_id: int) -> list[dict[str, Any]]:
        """The final states (canonical JSON objects) of the server's finished games, oldest
        first; unreadable ones are left out."""
        guild_id = check_id(guild_id, "guild_id")
        rows = await self._fetch(
            "SELECT state_json FROM games WHERE guild_id = $1"
            " AND status = 'finished' AND state_json IS NOT NULL ORDER BY id",
            guild_id,
        )
        found = []
        for (text,) in rows:
            try:
                found.append(_loads_object(text))
            except ValueError:
                continue  # a damaged finished game only drops out of the statistics
        return found

    async def guild_files(self, guild_id: int, kind: str) -> dict[str, dict[str, Any]]:
        """A server's uploaded files of ``kind`` (``theme`` or ``board``) by id, sorted by id.

        A damaged file (not a JSON object) is left out with a warning in the log: one
        bad upload must not break every lobby of the server. Ids sort byte by byte
        (``COLLATE "C"``), as in SQLite.
        """
        guild_id, kind = check_id(guild_id, "guild_id"), check_kind(kind)
        rows = await self._fetch(
            "SELECT item_id, data_json FROM guild_files WHERE guild_id = $1 AND kind = $2"
            " ORDER BY item_id",
            guild_id,
            kind,
        )
        found = {}
        for item_id, data in rows:
            try:
                found[item_id] = _loads_object(data)
            except ValueError as error:
                log.warning(
                    "Guild %d: the stored %s file %r is damaged and left out (%s)",
                    guild_id,
                    kind,
                    item_id,
                    error,
                )
        return found

    async def save_guild_file(
        self, guild_id: int, kind: str, item_id: str, data: Mapping[str, Any], uploaded_by: int
    ) -> bool:
        """Store a server's file; True if it replaced one of that kind with the same id."""
        key = (check_id(guild_id, "guild_id"), check_kind(kind), _pg_text(item_id, "item_id"))
        data_json = check_json_object(data, "data")
        uploaded_by = check_id(uploaded_by, "uploaded_by")

        async def work() -> bool:
            async with self._transaction() as conn:
                # xmax is 0 on a row this statement inserted, and set on one it updated:
                # one statement tells "replaced" from "added", also when two uploads race.
                inserted = await conn.fetchval(
                    "INSERT INTO guild_files"
                    " (guild_id, kind, item_id, data_json, uploaded_by, uploaded_at)"
                    " VALUES ($1, $2, $3, $4, $5, $6) ON CONFLICT (guild_id, kind, item_id)"
                    " DO UPDATE SET data_json = excluded.data_json,"
                    " uploaded_by = excluded.uploaded_by, uploaded_at = excluded.uploaded_at"
                    " RETURNING xmax = 0",
                    *key,
                    data_json,
                    uploaded_by,
                    self._clock(),
                )
                return not inserted

        return await self._shielded(work())

    async def delete_guild_file(self, guild_id: int, kind: str, item_id: str) -> bool:
        """Remove a server's file; False if there was none of that kind with that id."""
        key = (check_id(guild_id, "guild_id"), check_kind(kind), _pg_text(item_id, "item_id"))

        async def work() -> bool:
            async with self._transaction() as conn:
                status = await conn.execute(
                    "DELETE FROM guild_files WHERE guild_id = $1 AND kind = $2 AND item_id = $3",
                    *key,
                )
                return _count(status) > 0

        return await self._shielded(work())

    # -- the bot's own records ----------------------------------------------------------

    async def meta(self, key: str) -> str | None:
        """The bot's own record under ``key``; None if unset."""
        key = _pg_text(key, "key")
        row = await self._fetchrow("SELECT value FROM bot_meta WHERE key = $1", key)
        return None if row is None else row[0]

    async def set_meta(self, key: str, value: str) -> None:
        """Store ``value`` under ``key``, replacing what was there; both are text."""
        key, value = _pg_text(key, "key"), _pg_text(value, "value")

        async def work() -> None:
            async with self._transaction() as conn:
                await conn.execute(
                    "INSERT INTO bot_meta (key, value, updated_at) VALUES ($1, $2, $3)"
                    " ON CONFLICT (key) DO UPDATE SET value = excluded.value,"
                    " updated_at = excluded.updated_at",
                    key,
                    value,
                    self._clock(),
                )

        await self._shielded(work())
