"""The game store's games, written once for every SQL driver: the apply loop and every
reader and writer of a game's row and log.

(Longer than ~400 lines: the games' half of the contract, each method once, for every
driver; the timers are :mod:`bot.store.sql_timers`, the small tables
:mod:`bot.store.sql_tables`, what a driver must say :mod:`bot.store.sql_base`.)

**Applying an action** (:meth:`SqlGameStore.apply`), the same on every driver: under the
game's own in-process lock, take the committed state from a small LRU cache of state JSON
(or read it from the database when there is none, or when the caller's ``expected_seq``
differs from the cached ``seq``: another process may have moved the game on), parse it, let
the engine apply the action to that fresh copy (which then goes to the caller), then write
the new state and append the action to the log in one transaction whose ``UPDATE`` names
the ``seq`` it read (:meth:`SqlGameStore._write_action`). A write based on a stale read
changes nothing; the cache is then dropped and the action judged once more against the
stored state, so of two processes applying to one game at once exactly one action lands
and the other is judged against its result (``StaleAction`` if it named the old ``seq``).
The in-process lock only spares the database needless conflicts; the ``seq`` guard in the
database is what serialises writers across processes (SQLite's write lock; PostgreSQL
re-checks the ``WHERE`` on the row another transaction just wrote).

**Settings** are one transaction that holds the game's row (the driver's
:attr:`~bot.store.sql_base.SqlBase.row_lock`), checks ``settings_version`` if the caller
named one, writes and adds one to the version: writers of different keys
(``patch_settings``) both keep their change, a writer naming an old version gets
``SettingsConflict``.

The work after taking the lock runs in a shielded task: a caller that is cancelled
half-way (the bot shutting down) cannot leave a transaction open or the cache out of step.
"""

from __future__ import annotations

import inspect
import json
import logging
from collections.abc import Callable, Iterable, Mapping, Sequence
from dataclasses import replace
from datetime import datetime
from functools import partial
from typing import Any

from bot.engine.errors import IllegalAction
from bot.engine.record import GameRecord, dice_of
from bot.store.base import OPEN_STATUSES, ApplyResult, GameInfo, GameRow, GameStatus
from bot.store.checks import (
    EPOCH,
    FINISHED_BY_ENGINE,
    INFO_COLUMNS,
    OPEN_SQL,
    STATE_INDEX,
    Unreadable,
    canonical_json,
    check_action,
    check_expected_seq,
    check_game_id,
    check_id,
    check_json_object,
    check_new_game,
    check_patch,
    check_state,
    check_text,
    check_version,
    parse_settings,
    parse_state,
    patched_settings,
    replay_for_store,
    row_of,
    utc_now,
)
from bot.store.errors import (
    ChannelBusy,
    GameBroken,
    GameNotFound,
    GameNotRunning,
    InvalidRecord,
    SettingsConflict,
    StaleAction,
)
from bot.store.kinds import AnyState, replay, state_from_json
from bot.store.kinds import apply as apply_to_state
from bot.store.sql_base import DEFAULT_CACHE_SIZE, Session, SqlBase
from bot.store.sql_tables import TableRows
from bot.store.sql_timers import TimerRows

log = logging.getLogger(__name__)

#: How often an action is judged: once, and once more after the row changed under it.
APPLY_ATTEMPTS = 2
#: How often a new game is tried when its channel's open game ended in between.
INSERT_ATTEMPTS = 3

__all__ = ["DEFAULT_CACHE_SIZE", "SqlGameStore", "utc_now"]


class SqlGameStore(TimerRows, TableRows, SqlBase):
    """The whole :class:`~bot.store.base.GameStore` contract on the shared SQL; a driver
    adds its sessions, codecs, connections and migrations (:mod:`bot.store.sql_base`)."""

    # -- reading a game's row -------------------------------------------------------------

    def _info_of(self, row: Sequence[Any], *, strict: bool = True) -> GameInfo:
        """A row of ``INFO_COLUMNS`` as :class:`GameInfo`.

        Damaged settings or times raise :class:`Unreadable` when ``strict`` (the game is
        then set aside like one with a damaged state); otherwise they are replaced by
        empty values, so that listing a guild's games never fails.
        """
        try:
            settings = parse_settings(row[8])
            created_at = self._time_of(row[6])
            updated_at = self._time_of(row[7])
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

    def _readable_rows(self, rows: Iterable[Sequence[Any]]) -> list[GameRow]:
        """The rows (info columns, then the state) that parse as games; the others are
        left out (for finished games, which nothing sets aside)."""
        found = []
        for raw in rows:
            try:
                info = self._info_of(raw)
                found.append(row_of(info, parse_state(info, raw[STATE_INDEX])))
            except Unreadable:
                continue
        return found

    async def _select(self, game_id: int, *, strict: bool = True) -> tuple[GameInfo, str | None]:
        """The game's row and state JSON (GameNotFound if there is none).

        A row whose settings or times are damaged is set aside (GameBroken) when
        ``strict``; otherwise the damaged values are replaced by empty ones.
        """
        row = await self._fetchrow(
            f"SELECT {INFO_COLUMNS}, state_json FROM games WHERE id = ?", game_id
        )
        if row is None:
            raise GameNotFound(game_id)
        try:
            return self._info_of(row, strict=strict), row[STATE_INDEX]
        except Unreadable as error:
            info = self._info_of(row, strict=False)
            if info.status in OPEN_STATUSES:
                await self._mark_broken(info, str(error))
            raise GameBroken(game_id, str(error)) from error

    async def _stored_seq(self, game_id: int) -> int | None:
        """The game's ``seq`` as stored now (None if there is no such game)."""
        row = await self._fetchrow("SELECT seq FROM games WHERE id = ?", game_id)
        return None if row is None else row[0]

    async def _readable(self, info: GameInfo, state_json: str | None) -> AnyState:
        """Parse a stored state; set an open game aside if it cannot be read."""
        try:
            return parse_state(info, state_json)
        except Unreadable as error:
            if info.status in (GameStatus.LOBBY, GameStatus.RUNNING):
                await self._mark_broken(info, str(error))
            raise GameBroken(info.id, str(error)) from error

    async def load(self, game_id: int) -> GameRow:
        """The game with its own copy of the state; see :meth:`GameStore.load`."""
        game_id = check_game_id(game_id)
        info, state_json = await self._select(game_id)
        if info.status == GameStatus.BROKEN:
            raise GameBroken(game_id, info.broken_error or "unknown")
        if info.status == GameStatus.LOBBY or state_json is None:
            return row_of(info, None)  # a lobby, or a lobby that was closed unstarted
        return row_of(info, await self._readable(info, state_json))

    async def game_in_channel(self, channel_id: int) -> GameRow | None:
        """The lobby or running game in the channel, if any (raises GameBroken)."""
        channel_id = check_id(channel_id, "channel_id")
        row = await self._fetchrow(
            f"SELECT id FROM games WHERE channel_id = ? AND status IN {OPEN_SQL}", channel_id
        )
        return None if row is None else await self.load(row[0])

    async def list_games(self, guild_id: int, *, include_finished: bool = False) -> list[GameInfo]:
        """The guild's games, oldest first (lobby, running and broken; finished if asked)."""
        guild_id = check_id(guild_id, "guild_id")
        where = "" if include_finished else " AND status != 'finished'"
        rows = await self._fetch(
            f"SELECT {INFO_COLUMNS} FROM games WHERE guild_id = ?{where} ORDER BY id", guild_id
        )
        return [self._info_of(row, strict=False) for row in rows]

    async def finished_since(self, since: datetime) -> list[GameRow]:
        """Finished games that started play and changed since ``since``, with their state."""
        rows = await self._fetch(
            f"SELECT {INFO_COLUMNS}, state_json FROM games WHERE status = 'finished'"
            " AND state_json IS NOT NULL AND updated_at >= ? ORDER BY id",
            self._time(since, "since"),
        )
        return self._readable_rows(rows)  # a damaged one has no end left to show

    async def unfinished_games(self) -> list[GameRow]:
        """Every lobby and running game; unreadable ones are set aside and left out."""
        rows = await self._fetch(
            f"SELECT {INFO_COLUMNS}, state_json FROM games WHERE status IN {OPEN_SQL} ORDER BY id"
        )
        found = []
        for raw in rows:
            try:
                info = self._info_of(raw)
                lobby = info.status == GameStatus.LOBBY
                found.append(row_of(info, None if lobby else parse_state(info, raw[STATE_INDEX])))
            except Unreadable as error:
                await self._locked(
                    raw[0], partial(self._mark_broken, self._info_of(raw, strict=False), str(error))
                )
        return found

    async def broken_games(self) -> list[GameInfo]:
        """Games set aside because their state could not be read, oldest first."""
        rows = await self._fetch(
            f"SELECT {INFO_COLUMNS} FROM games WHERE status = 'broken' ORDER BY id"
        )
        return [self._info_of(row, strict=False) for row in rows]

    async def record(self, game_id: int) -> GameRecord:
        """The game's record: start state and every action with its dice, in order."""
        game_id = check_game_id(game_id)
        # One snapshot for the row and the log, so they belong together.
        async with self._snapshot() as session:
            return await self._record(session, game_id)

    @staticmethod
    async def _record(session: Session, game_id: int) -> GameRecord:
        game = await session.fetchrow("SELECT status, start_json FROM games WHERE id = ?", game_id)
        if game is None:
            raise GameNotFound(game_id)
        status, start_json = game
        if start_json is None:
            raise GameNotRunning(game_id, status)
        actions = await session.fetch(
            "SELECT action_json, dice_json FROM actions WHERE game_id = ? ORDER BY seq", game_id
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

    # -- new games ------------------------------------------------------------------------

    async def create_game(
        self,
        guild_id: int,
        channel_id: int,
        state: AnyState | None,
        *,
        created_by: int | None = None,
        settings: Mapping[str, Any] | None = None,
    ) -> GameRow:
        """Create a running game (or a lobby if ``state`` is None) in the channel."""
        guild_id, channel_id, created_by, settings_json = check_new_game(
            guild_id, channel_id, created_by, settings
        )
        state_json = check_state(state) if state is not None else None
        status = GameStatus.RUNNING if state is not None else GameStatus.LOBBY
        game_id = await self._shielded(
            self._insert_game(
                guild_id,
                channel_id,
                created_by=created_by,
                status=status,
                seq=state.seq if state is not None else 0,
                state_json=state_json,
                start_json=state_json,
                settings_json=settings_json,
            )
        )
        return await self.load(game_id)

    async def import_game(
        self,
        guild_id: int,
        channel_id: int,
        record: Mapping[str, Any],
        *,
        created_by: int | None = None,
        settings: Mapping[str, Any] | None = None,
    ) -> GameRow:
        """Create a game from a record after replaying it; its log is the record's."""
        guild_id, channel_id, created_by, settings_json = check_new_game(
            guild_id, channel_id, created_by, settings
        )
        start, state, entries = replay_for_store(record)
        over = state.phase == "over"
        game_id = await self._shielded(
            self._insert_game(
                guild_id,
                channel_id,
                created_by=created_by,
                status=GameStatus.FINISHED if over else GameStatus.RUNNING,
                seq=state.seq,
                state_json=state.to_json(),
                start_json=start,
                settings_json=settings_json,
                actions=entries,
                finished_reason=FINISHED_BY_ENGINE if over else None,
            )
        )
        return await self.load(game_id)

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
        """Insert a game (with the log ``actions`` of an imported record) in one
        transaction; its id. ChannelBusy if the channel has an open game."""
        at = self._stamp()
        # A game in the channel that finished between the refused insert and the look
        # for it leaves nothing to name: try again.
        for _attempt in range(INSERT_ATTEMPTS):
            try:
                async with self._transaction() as session:
                    row = await session.fetchrow(
                        "INSERT INTO games (guild_id, channel_id, created_by, status, created_at,"
                        " updated_at, seq, state_json, start_json, settings_json,"
                        " finished_reason) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?) RETURNING id",
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
                    )
                    assert row is not None
                    game_id = int(row[0])
                    if actions:
                        await session.executemany(
                            "INSERT INTO actions"
                            " (game_id, seq, action_json, dice_json, events_json, at)"
                            " VALUES (?, ?, ?, ?, ?, ?)",
                            [(game_id, s, a, d, e, at) for s, a, d, e in actions],
                        )
                return game_id
            except Exception as error:
                if not self._is_channel_conflict(error):
                    raise
                await self._raise_if_busy(channel_id, error)
        raise ChannelBusy(channel_id, 0)  # pragma: no cover - a channel freed three times

    async def _raise_if_busy(self, channel_id: int, error: BaseException) -> None:
        """Raise ChannelBusy naming the open game of the channel, if it has one."""
        row = await self._fetchrow(
            f"SELECT id FROM games WHERE channel_id = ? AND status IN {OPEN_SQL}", channel_id
        )
        if row is not None:
            raise ChannelBusy(channel_id, row[0]) from error

    # -- changing a game ------------------------------------------------------------------

    async def start_game(
        self, game_id: int, state: AnyState, *, expected_settings_version: int | None = None
    ) -> GameRow:
        """Turn a lobby into a running game starting at ``state`` (if its settings are
        still at ``expected_settings_version``, when given)."""
        game_id = check_game_id(game_id)
        state_json = check_state(state)
        version = check_version(expected_settings_version, "expected_settings_version")
        guard = "" if version is None else " AND settings_version = ?"
        guard_params = () if version is None else (version,)

        async def work() -> None:
            async with self._transaction() as session:
                started = await session.execute(
                    "UPDATE games SET status = 'running', state_json = ?, start_json = ?,"
                    f" seq = ?, updated_at = ? WHERE id = ? AND status = 'lobby'{guard}",
                    state_json,
                    state_json,
                    state.seq,
                    self._stamp(),
                    game_id,
                    *guard_params,
                )
                if started != 1:
                    await self._raise_status(session, game_id, version)

        await self._locked(game_id, work)
        return await self.load(game_id)

    @staticmethod
    async def _raise_status(
        session: Session, game_id: int, settings_version: int | None = None
    ) -> None:
        """Raise the error explaining why a guarded UPDATE of ``game_id`` found no row."""
        row = await session.fetchrow(
            "SELECT status, settings_version FROM games WHERE id = ?", game_id
        )
        if row is None:
            raise GameNotFound(game_id)
        status, current = row
        if status == GameStatus.LOBBY and settings_version is not None:
            raise SettingsConflict(game_id, settings_version, current)
        raise GameNotRunning(game_id, status)

    async def apply(
        self, game_id: int, action: dict[str, Any], *, expected_seq: int | None = None
    ) -> ApplyResult:
        """Apply one action; see :meth:`GameStore.apply` and the module docstring."""
        game_id = check_game_id(game_id)
        # The engine sees exactly the JSON the log keeps, so replaying the log
        # gives the stored state by construction.
        action_json = check_action(action)
        expected_seq = check_expected_seq(expected_seq)
        return await self._locked(
            game_id, lambda: self._apply_locked(game_id, action_json, expected_seq)
        )

    async def _apply_locked(
        self, game_id: int, action_json: str, expected_seq: int | None
    ) -> ApplyResult:
        read_seq = -1
        for _attempt in range(APPLY_ATTEMPTS):
            cached = self._cache.get(game_id)
            state = state_from_json(cached) if cached is not None else None
            if state is None or (expected_seq is not None and expected_seq != state.seq):
                # On a mismatch the database decides: the cache may be behind a
                # write by another process.
                state, cached = await self._state_for_apply(game_id), None
            if expected_seq is not None and expected_seq != state.seq:
                raise StaleAction(game_id, expected_seq, state.seq)
            read_seq = state.seq
            try:
                # A refused action raises here; the parsed state is thrown away and
                # the cache, which holds text, is untouched either way.
                events = apply_to_state(state, json.loads(action_json))
            except IllegalAction:
                if cached is not None and await self._stored_seq(game_id) != read_seq:
                    # Judged against a cache that another process has overtaken.
                    self._cache.drop(game_id)
                    continue
                raise
            state_json = state.to_json()
            over = state.phase == "over"
            try:
                written = await self._write_action(
                    game_id,
                    read_seq,
                    state.seq,
                    state_json,
                    over,
                    action_json,
                    canonical_json(events),
                    canonical_json(dice_of(events)),
                )
            except BaseException:
                # Whether the write failed cleanly or not, the database is the truth.
                self._cache.drop(game_id)
                raise
            if not written:
                # Someone else (another process) wrote this game since we read it:
                # read it again and judge the action against the new state.
                self._cache.drop(game_id)
                log.info("Game %d changed under the cache; reading it again", game_id)
                continue
            if over:
                self._cache.drop(game_id)
            else:
                self._cache.put(game_id, state_json)
            # The parsed state was made for this call alone, so it is the caller's copy.
            return ApplyResult(state=state, events=events, seq=state.seq)
        current = await self._stored_seq(game_id)
        raise StaleAction(game_id, read_seq, read_seq if current is None else current)

    async def _state_for_apply(self, game_id: int) -> AnyState:
        info, state_json = await self._select(game_id)
        if info.status == GameStatus.BROKEN:
            raise GameBroken(game_id, info.broken_error or "unknown")
        if info.status != GameStatus.RUNNING:
            raise GameNotRunning(game_id, info.status)
        return await self._readable(info, state_json)

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
        """Store the new state and append the action to the log in one transaction.

        The game's row is written only if it is still running at ``read_seq``; returns
        False (writing nothing) otherwise. ``over``: the rules ended the game, so it is
        finished (reason :data:`FINISHED_BY_ENGINE`) in the same transaction.
        """
        at = self._stamp()
        async with self._transaction() as session:
            written = await session.execute(
                "UPDATE games SET state_json = ?, seq = ?, updated_at = ?, status = ?,"
                " finished_reason = ? WHERE id = ? AND seq = ? AND status = 'running'",
                state_json,
                seq,
                at,
                str(GameStatus.FINISHED if over else GameStatus.RUNNING),
                FINISHED_BY_ENGINE if over else None,
                game_id,
                read_seq,
            )
            if written != 1:
                return False
            await session.execute(
                "INSERT INTO actions (game_id, seq, action_json, dice_json, events_json, at)"
                " VALUES (?, ?, ?, ?, ?, ?)",
                game_id,
                seq,
                action_json,
                dice_json,
                events_json,
                at,
            )
        return True

    async def finish(self, game_id: int, reason: str) -> GameInfo:
        """End a game; it stays readable (state, record) for history and statistics.

        Its pending timers are cancelled with it (by the schema's trigger).
        """
        game_id = check_game_id(game_id)
        reason = check_text(reason, "reason")

        async def work() -> None:
            async with self._transaction() as session:
                ended = await session.execute(
                    "UPDATE games SET status = 'finished', finished_reason = ?, updated_at = ?"
                    " WHERE id = ? AND status != 'finished'",
                    reason,
                    self._stamp(),
                    game_id,
                )
                if ended != 1:
                    await self._raise_status(session, game_id)
            self._cache.drop(game_id)

        await self._locked(game_id, work)
        info, _ = await self._select(game_id, strict=False)
        return info

    # -- settings -------------------------------------------------------------------------

    async def set_settings(
        self,
        game_id: int,
        settings: Mapping[str, Any],
        *,
        expected_version: int | None = None,
    ) -> GameInfo:
        """Replace the game's settings with ``settings`` (a JSON object); version + 1."""
        game_id = check_game_id(game_id)
        settings_json = check_json_object(settings, "settings")
        expected_version = check_version(expected_version)
        await self._locked(
            game_id,
            lambda: self._write_settings(game_id, lambda _old: settings_json, expected_version),
        )
        info, _ = await self._select(game_id, strict=False)
        return info

    async def patch_settings(
        self,
        game_id: int,
        set: Mapping[str, Any],
        remove: Iterable[str] = (),
        *,
        expected_version: int | None = None,
    ) -> GameInfo:
        """Set and remove top-level keys of the settings atomically; version + 1."""
        game_id = check_game_id(game_id)
        values, removed = check_patch(set, remove)
        expected_version = check_version(expected_version)

        def make(current: str) -> str:
            return patched_settings(current, values, removed)

        try:
            await self._locked(
                game_id, lambda: self._write_settings(game_id, make, expected_version)
            )
        except Unreadable as error:
            # Keys cannot be merged into damaged settings; the game is read (and set
            # aside) by the next load, as any damaged row is.
            raise GameBroken(game_id, str(error)) from error
        info, _ = await self._select(game_id, strict=False)
        return info

    async def _write_settings(
        self, game_id: int, make: Callable[[str], str], expected_version: int | None
    ) -> None:
        """Rewrite the settings in one transaction that holds the game's row.

        ``make`` gets the stored settings JSON and returns the new one; the version goes
        up by one. GameNotFound, or SettingsConflict if ``expected_version`` is given and
        differs from the stored version (nothing is written then).
        """
        async with self._transaction() as session:
            row = await session.fetchrow(
                f"SELECT settings_json, settings_version FROM games WHERE id = ?{self.row_lock}",
                game_id,
            )
            if row is None:
                raise GameNotFound(game_id)
            current, version = row
            if expected_version is not None and expected_version != version:
                raise SettingsConflict(game_id, expected_version, version)
            await session.execute(
                "UPDATE games SET settings_json = ?, settings_version = settings_version + 1,"
                " updated_at = ? WHERE id = ?",
                make(current),
                self._stamp(),
                game_id,
            )

    # -- damaged games --------------------------------------------------------------------

    async def set_aside(self, game_id: int, error: str) -> GameInfo:
        """Mark a lobby or running game as broken with ``error``; cancels its timers."""
        game_id = check_game_id(game_id)
        error = check_text(error, "error")

        async def work() -> None:
            info, _ = await self._select(game_id, strict=False)
            if info.status not in OPEN_STATUSES:
                raise GameNotRunning(game_id, info.status)
            await self._mark_broken(info, error)

        await self._locked(game_id, work)
        info, _ = await self._select(game_id, strict=False)
        return info

    async def _mark_broken(self, info: GameInfo, error: str) -> None:
        """Set an open game aside (the caller holds its lock): write it, log it and tell
        the broken-game hook."""
        # An error text from a parser may quote the damaged text, NUL included.
        error = error.replace("\x00", "\\x00")
        async with self._transaction() as session:
            await session.execute(
                "UPDATE games SET status = 'broken', broken_error = ?, updated_at = ?"
                f" WHERE id = ? AND status IN {OPEN_SQL}",
                error,
                self._stamp(),
                info.id,
            )
        await self._report_broken(info, error)

    async def _report_broken(self, info: GameInfo, error: str) -> None:
        """Log a game just set aside and tell the broken-game hook (which may fail)."""
        self._cache.drop(info.id)
        log.error(
            "Game %d (guild %d, channel %d) set aside: its stored state cannot be read (%s). "
            "The other games keep running; an admin can repair it from its log "
            "(rebuild_from_log) or finish it.",
            info.id,
            info.guild_id,
            info.channel_id,
            error,
        )
        if self.on_broken is not None:
            broken = replace(info, status=GameStatus.BROKEN, broken_error=error)
            try:
                result = self.on_broken(broken)
                if inspect.isawaitable(result):
                    await result
            except Exception:
                # Telling the admins must not stop the store from working.
                log.exception("The broken-game hook failed for game %d", info.id)

    async def rebuild_from_log(self, game_id: int) -> GameRow:
        """Recompute the state from start + log; the game runs again (or is finished)."""
        game_id = check_game_id(game_id)

        async def work() -> None:
            channel_id = 0
            try:
                async with self._transaction() as session:
                    # The row stays held from reading the log to writing the state, so
                    # no process can append an action the replay would miss.
                    row = await session.fetchrow(
                        f"SELECT status, channel_id FROM games WHERE id = ?{self.row_lock}",
                        game_id,
                    )
                    if row is None:
                        raise GameNotFound(game_id)
                    status, channel_id = row
                    if status not in (GameStatus.RUNNING, GameStatus.BROKEN):
                        raise GameNotRunning(game_id, status)
                    record = await self._record(session, game_id)
                    try:
                        state = replay(record)
                    except Exception as error:
                        raise InvalidRecord(f"{type(error).__name__}: {error}") from error
                    over = state.phase == "over"
                    await session.execute(
                        "UPDATE games SET state_json = ?, seq = ?, status = ?,"
                        " broken_error = NULL, finished_reason = ?, updated_at = ?"
                        " WHERE id = ?",
                        state.to_json(),
                        state.seq,
                        str(GameStatus.FINISHED if over else GameStatus.RUNNING),
                        FINISHED_BY_ENGINE if over else None,
                        self._stamp(),
                        game_id,
                    )
            except Exception as error:
                if not self._is_channel_conflict(error):
                    raise
                await self._raise_if_busy(channel_id, error)
                raise
            self._cache.drop(game_id)
            log.info("Game %d rebuilt from its log at seq %d", game_id, state.seq)

        await self._locked(game_id, work)
        return await self.load(game_id)
