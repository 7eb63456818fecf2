"""What the SQL drivers of the game store share: the apply loop, the cache and the checks.

(Longer than ~400 lines: the apply loop and every shared reader and writer of the
contract, written once for both drivers.)

:class:`SqlGameStore` sits between the contract (:class:`~bot.store.base.GameStore`) and the
drivers (:mod:`bot.store.sqlite`, :mod:`bot.store.postgres`). It is its own module rather
than part of ``base`` so that the contract stays free of the cache and the engine (the
import contract ``store-layers`` keeps ``base`` and ``cache`` apart), and a driver that is
not SQL could still implement ``GameStore`` from ``base`` alone.

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
database is what serialises writers across processes.

The work after taking the lock runs in a shielded task: a caller that is cancelled
half-way (the bot shutting down) cannot leave a transaction open or the cache out of step.

The drivers implement four primitives: :meth:`~SqlGameStore._select` (a game's row and
state JSON), :meth:`~SqlGameStore._stored_seq`, :meth:`~SqlGameStore._write_action` (the
guarded write) and :meth:`~SqlGameStore._write_settings` (a versioned read-modify-write of
the settings), plus :meth:`~SqlGameStore._mark_broken`, :meth:`~SqlGameStore._insert_game`
(a new or imported game in one transaction), and the small ``_query`` / ``_info_of`` /
``_text`` through which ``create_game``, ``import_game``, ``unfinished_games``,
``broken_games`` and ``set_aside`` are written once here.

The argument checks here (``check_*``) are the contract's "arguments are checked before the
database is touched", shared so both drivers refuse exactly the same input.
"""

from __future__ import annotations

import abc
import asyncio
import inspect
import json
import logging
from collections.abc import Awaitable, Callable, Iterable, Mapping, Sequence
from dataclasses import fields, replace
from datetime import UTC, datetime
from functools import partial
from typing import Any, TypeVar

from bot.engine.errors import IllegalAction
from bot.engine.record import GameRecord, dice_of
from bot.store.base import (
    OPEN_STATUSES,
    ApplyResult,
    BrokenGameHook,
    GameInfo,
    GameRow,
    GameStatus,
    GameStore,
)
from bot.store.cache import GameLocks, StateCache
from bot.store.errors import (
    BadData,
    GameBroken,
    GameNotFound,
    GameNotRunning,
    InvalidRecord,
    StaleAction,
)
from bot.store.kinds import AnyState, state_from_dict, state_from_json
from bot.store.kinds import apply as apply_to_state
from bot.text_input import is_sqlite_int, json_problem

log = logging.getLogger(__name__)

T = TypeVar("T")

DEFAULT_CACHE_SIZE = 256
FINISHED_BY_ENGINE = "over"  # finished_reason of a game the rules ended
#: The columns of a game's row that make its :class:`GameInfo` (both drivers' schema),
#: the index of ``state_json`` when it follows them, and the statuses of open games.
INFO_COLUMNS = (
    "id, guild_id, channel_id, status, seq, created_by, created_at, updated_at, "
    "settings_json, finished_reason, broken_error, settings_version"
)
STATE_INDEX = 12
OPEN_SQL = "('lobby', 'running')"
#: How often an action is judged: once, and once more after the row changed under it.
APPLY_ATTEMPTS = 2
#: The kinds of a server's files (the schema's CHECK on ``guild_files.kind``).
GUILD_FILE_KINDS = ("theme", "board")
#: A time that stands in for a damaged one when listing games (never stored).
EPOCH = datetime(1970, 1, 1, tzinfo=UTC)


def canonical_json(value: Any) -> str:
    """Canonical JSON, the same shape as ``GameState.to_json``.

    NaN and infinities raise ValueError: Python would write them as ``NaN``, which is
    not JSON (SQLite's ``json_valid``, PostgreSQL's ``json`` and other readers refuse it).
    Control characters, NUL included, are written as ``\\u0000`` escapes, so the text
    never holds a NUL itself (PostgreSQL's ``text`` could not keep it).
    """
    return json.dumps(
        value, sort_keys=True, separators=(",", ":"), ensure_ascii=False, allow_nan=False
    )


def utc_now() -> datetime:
    """The default clock of the stores."""
    return datetime.now(UTC)


def aware(moment: datetime, what: str) -> datetime:
    """``moment`` in UTC; ValueError if it is naive (a time without a zone is ambiguous)."""
    if moment.tzinfo is None:
        raise ValueError(f"{what} must be a timezone-aware datetime")
    return moment.astimezone(UTC)


class Unreadable(Exception):
    """A stored state or row that does not parse into a game."""


def parse_state(info: GameInfo, state_json: str | None) -> AnyState:
    """The game's state; raises :class:`Unreadable` for anything that is not one."""
    try:
        if state_json is None:
            raise ValueError("the state is missing")
        state = state_from_json(state_json)
        if state.seq != info.seq:
            raise ValueError(f"the state's seq {state.seq} differs from the row's {info.seq}")
    except Exception as error:  # any failure to rebuild the game means: unreadable
        raise Unreadable(f"{type(error).__name__}: {error}") from error
    return state


def parse_settings(text: object) -> dict[str, Any]:
    """Stored settings JSON as a dict; :class:`Unreadable` if it is not a JSON object."""
    try:
        if not isinstance(text, str):
            raise ValueError("the settings are not text")
        settings = json.loads(text)
        if not isinstance(settings, dict):
            raise ValueError("the settings are not a JSON object")
    except (ValueError, RecursionError) as error:
        raise Unreadable(f"{type(error).__name__}: {error}") from error
    return settings


def row_of(info: GameInfo, state: AnyState | None) -> GameRow:
    """``info`` with its state."""
    return GameRow(**{f.name: getattr(info, f.name) for f in fields(GameInfo)}, state=state)


def readable_rows(
    raws: Sequence[Any], info_of: Callable[[Any], GameInfo], state_at: int
) -> list[GameRow]:
    """The rows (info columns, then the state at index ``state_at``) that parse as games;
    the others are left out (for finished games, which nothing sets aside)."""
    found = []
    for raw in raws:
        try:
            info = info_of(raw)
            found.append(row_of(info, parse_state(info, raw[state_at])))
        except Unreadable:
            continue
    return found


# -- checking arguments ---------------------------------------------------------------------
# Every public method checks its arguments before it touches the database, so a malformed
# one raises a typed error and changes nothing, where the database library would raise
# OverflowError (an int beyond 64 bits), UnicodeEncodeError (a lone surrogate) or its own
# error at the statement.


def check_game_id(game_id: object) -> int:
    """``game_id`` if a game can have it; otherwise GameNotFound, as no such game exists."""
    if not is_sqlite_int(game_id):
        raise GameNotFound(game_id)
    return game_id


def check_id(value: object, what: str) -> int:
    """Another id (guild, channel, user): BadData unless it is an int of at most 64 bits."""
    if not is_sqlite_int(value):
        raise BadData(what, "not an integer of at most 64 bits")
    return value


def check_optional_id(value: object, what: str) -> int | None:
    """Like :func:`check_id`, but None is allowed."""
    return None if value is None else check_id(value, what)


def check_text(value: object, what: str) -> str:
    """Text the database can keep (valid Unicode); BadData otherwise."""
    if not isinstance(value, str):
        raise BadData(what, "not text")
    problem = json_problem(value)
    if problem is not None:
        raise BadData(what, problem)
    return value


def check_new_game(
    guild_id: object, channel_id: object, created_by: object, settings: object
) -> tuple[int, int, int | None, str]:
    """The checked ids of a new game and its settings as JSON (``{}`` for None)."""
    return (
        check_id(guild_id, "guild_id"),
        check_id(channel_id, "channel_id"),
        check_optional_id(created_by, "created_by"),
        check_json_object({} if settings is None else settings, "settings"),
    )


def check_kind(kind: object) -> str:
    """The kind of a server's file; BadData unless it is one of GUILD_FILE_KINDS."""
    if not isinstance(kind, str) or kind not in GUILD_FILE_KINDS:
        raise BadData("kind", f"not one of {', '.join(GUILD_FILE_KINDS)}")
    return kind


def check_json_object(value: object, what: str) -> str:
    """The canonical JSON text of a plain JSON object; BadData for anything else."""
    if not isinstance(value, Mapping):
        raise BadData(what, "not a JSON object")
    problem = json_problem(value)
    if problem is not None:
        raise BadData(what, problem)
    try:
        return canonical_json(dict(value))
    except (TypeError, ValueError, RecursionError) as error:  # e.g. an int of 5000 digits
        raise BadData(what, f"{type(error).__name__}: {error}") from error


def check_action(action: object) -> str:
    """The canonical JSON of an action; IllegalAction ``bad_action`` if it is not one.

    An action is a dict whose ``type`` is text, holding plain JSON only: the log keeps it
    and replays it, so NaN, lone surrogates and keys that are not text must not get in.
    """
    if not isinstance(action, dict) or not isinstance(action.get("type"), str):
        raise IllegalAction("bad_action")
    problem = json_problem(action)
    if problem is not None:
        raise IllegalAction("bad_action", detail=problem)
    try:
        return canonical_json(action)
    except (TypeError, ValueError, RecursionError) as error:  # e.g. an int of 5000 digits
        raise IllegalAction("bad_action", detail=f"{type(error).__name__}: {error}") from error


def check_expected_seq(expected_seq: object) -> int | None:
    """None or a version a game can be at; IllegalAction ``bad_action`` otherwise."""
    if expected_seq is None:
        return None
    if not is_sqlite_int(expected_seq) or expected_seq < 0:
        raise IllegalAction("bad_action", detail="expected_seq")
    return expected_seq


def check_version(version: object, what: str = "expected_version") -> int | None:
    """None or a settings version (a non-negative int of 64 bits); BadData otherwise."""
    if version is None:
        return None
    if not is_sqlite_int(version) or version < 0:
        raise BadData(what, "not a non-negative integer of at most 64 bits")
    return version


def check_state(state: object) -> str:
    """A game state's canonical JSON, checked to be storable; BadData otherwise."""
    if not isinstance(state, AnyState):
        raise BadData("state", "not a game state")
    text = state.to_json()
    problem = json_problem(text)
    if problem is not None:  # e.g. a player's name with a lone surrogate
        raise BadData("state", problem)
    return text


def check_patch(set_: object, remove: object) -> tuple[dict[str, Any], list[str]]:
    """The keys to set (plain JSON, as a copy) and to remove of a settings patch.

    BadData (``set`` or ``remove``) for anything else; a key in both is only set.
    """
    check_json_object(set_, "set")
    assert isinstance(set_, Mapping)
    if isinstance(remove, str | bytes) or not isinstance(remove, Iterable):
        raise BadData("remove", "not a collection of keys")
    keys = list(remove)
    for key in keys:
        check_text(key, "remove")
    # A deep copy through JSON: the caller's objects stay theirs.
    values: dict[str, Any] = json.loads(canonical_json(dict(set_)))
    return values, [key for key in dict.fromkeys(keys) if key not in values]


def patched_settings(current: str, values: Mapping[str, Any], remove: Iterable[str]) -> str:
    """The settings JSON ``current`` with the keys ``values`` set and ``remove`` removed.

    Raises :class:`Unreadable` if the stored settings are damaged (not a JSON object).
    """
    settings = parse_settings(current)
    for key in remove:
        settings.pop(key, None)
    settings.update(values)
    return canonical_json(settings)


def check_shards(shards: object) -> tuple[int, list[int]] | None:
    """``(shard_count, sorted shard ids)`` of a timer query's shard filter; None for none.

    ValueError unless ``shard_count`` is an int of at least 1 and each id is in
    ``range(shard_count)``.
    """
    if shards is None:
        return None
    if not isinstance(shards, tuple) or len(shards) != 2:
        raise ValueError("shards must be (shard_count, shard_ids)")
    count, ids = shards
    if not is_sqlite_int(count) or count < 1:
        raise ValueError("shard_count must be an integer of at least 1")
    if isinstance(ids, str | bytes) or not isinstance(ids, Iterable):
        raise ValueError("shard_ids must be a set of shard numbers")
    chosen = sorted(set(ids))
    if not all(is_sqlite_int(i) and 0 <= i < count for i in chosen):
        raise ValueError(f"every shard id must be in range({count})")
    return count, chosen


def replay_for_store(
    record: Mapping[str, Any],
) -> tuple[str, AnyState, list[tuple[int, str, str, str]]]:
    """Check a record by replaying it; return the start JSON, final state and log rows."""
    try:
        parsed = GameRecord.from_dict(dict(record))
        state = state_from_dict(parsed.start)
        start = state.to_json()
        entries = []
        for number, entry in enumerate(parsed.actions):
            action_json = check_action(entry["action"])
            events = apply_to_state(state, json.loads(action_json))
            if dice_of(events) != entry["dice"]:
                raise ValueError(
                    f"action {number}: recorded dice {entry['dice']} but threw {dice_of(events)}"
                )
            entries.append(
                (state.seq, action_json, canonical_json(dice_of(events)), canonical_json(events))
            )
        for text in (start, state.to_json()):
            text.encode("utf-8")  # a lone surrogate (in a name, say) cannot be stored
    except Exception as error:  # whatever is wrong with it, the record is not importable
        raise InvalidRecord(f"{type(error).__name__}: {error}") from error
    return start, state, entries


class SqlGameStore(GameStore):
    """The part of a SQL driver that does not depend on the database (module docstring).

    ``now`` is the clock (timezone-aware datetimes); ``cache_size`` how many games'
    committed state JSON is kept in memory (about 3 KB each); ``on_broken`` is called
    with each game set aside because its state cannot be read.
    """

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

    def _clock(self) -> datetime:
        """The clock's time in UTC (ValueError for a clock without a time zone)."""
        return aware(self._now(), "the store's clock time")

    async def _finish_tasks(self) -> None:
        """Wait for the shielded writes under way (at close)."""
        if self._tasks:
            await asyncio.gather(*self._tasks, return_exceptions=True)

    # -- running work to completion -----------------------------------------------------

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

    # -- the driver's primitives ----------------------------------------------------------

    @abc.abstractmethod
    async def _select(self, game_id: int, *, strict: bool = True) -> tuple[GameInfo, str | None]:
        """The game's row and state JSON (GameNotFound if there is none).

        A row whose settings or times are damaged is set aside (GameBroken) when
        ``strict``; otherwise the damaged values are replaced by empty ones.
        """

    @abc.abstractmethod
    async def _stored_seq(self, game_id: int) -> int | None:
        """The game's ``seq`` as stored now (None if there is no such game)."""

    @abc.abstractmethod
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

    @abc.abstractmethod
    async def _write_settings(
        self, game_id: int, make: Callable[[str], str], expected_version: int | None
    ) -> None:
        """Rewrite the settings in one transaction that holds the game's row.

        ``make`` gets the stored settings JSON and returns the new one; the version goes
        up by one. GameNotFound, or SettingsConflict if ``expected_version`` is given and
        differs from the stored version (nothing is written then).
        """

    @abc.abstractmethod
    async def _mark_broken(self, info: GameInfo, error: str) -> None:
        """Set an open game aside (the caller holds its lock): write it, then
        :meth:`_report_broken`."""

    @abc.abstractmethod
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

    @abc.abstractmethod
    async def _query(self, sql: str) -> list[Any]:
        """The rows of a statement without parameters."""

    @abc.abstractmethod
    def _info_of(self, row: Any, *, strict: bool = True) -> GameInfo:
        """A row of :data:`INFO_COLUMNS` as :class:`GameInfo` (Unreadable if damaged and
        ``strict``; otherwise damaged values are replaced by empty ones)."""

    def _text(self, value: object, what: str) -> str:
        """Text the database can keep (BadData otherwise)."""
        return check_text(value, what)

    # -- shared behaviour -----------------------------------------------------------------

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

    # -- shared by the drivers ------------------------------------------------------

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

    async def unfinished_games(self) -> list[GameRow]:
        """Every lobby and running game; unreadable ones are set aside and left out."""
        rows = await self._query(
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
        rows = await self._query(
            f"SELECT {INFO_COLUMNS} FROM games WHERE status = 'broken' ORDER BY id"
        )
        return [self._info_of(row, strict=False) for row in rows]

    async def set_aside(self, game_id: int, error: str) -> GameInfo:
        """Mark a lobby or running game as broken with ``error``; cancels its timers."""
        game_id = check_game_id(game_id)
        error = self._text(error, "error")

        async def work() -> None:
            info, _ = await self._select(game_id, strict=False)
            if info.status not in OPEN_STATUSES:
                raise GameNotRunning(game_id, info.status)
            await self._mark_broken(info, error)

        await self._locked(game_id, work)
        info, _ = await self._select(game_id, strict=False)
        return info
