"""The game store's interface and the records it hands out.

(Longer than most modules: it is the whole contract of a store driver, one documented
abstract method per operation, which a new driver implements from this file alone.)

Cogs talk only to :class:`GameStore`, so the database drivers (SQLite, PostgreSQL; their
shared part is :mod:`bot.store.sql`) are chosen without touching them. A game lives in
one channel or thread; its current state is kept as the engine's canonical JSON, and
every accepted action is appended to the game's log together with its dice and events,
so the log replays to the stored state (see :class:`~bot.engine.record.GameRecord`).
"""

from __future__ import annotations

import abc
from collections.abc import Awaitable, Callable, Iterable, Mapping
from dataclasses import dataclass, field
from datetime import datetime
from enum import StrEnum
from types import TracebackType
from typing import Any, Self

from bot.engine.record import GameRecord
from bot.store.kinds import AnyState


class GameStatus(StrEnum):
    """Where a game is in its life.

    ``lobby``: the channel is claimed, players are gathering, there is no state yet.
    ``running``: actions are accepted. ``finished``: over or ended by someone, kept
    for history. ``broken``: the stored state could not be read; set aside for an
    admin, the channel is free again.
    """

    LOBBY = "lobby"
    RUNNING = "running"
    FINISHED = "finished"
    BROKEN = "broken"


#: Statuses of games that still occupy their channel.
OPEN_STATUSES = (GameStatus.LOBBY, GameStatus.RUNNING)

#: Seconds a timer's lease lasts unless the claimant asks for another length.
DEFAULT_LEASE = 120.0

#: Which games' timers a scheduler takes: ``(shard_count, shard_ids)``, Discord's sharding
#: formula: a game belongs to shard ``(guild_id >> 22) % shard_count``.
Shards = tuple[int, frozenset[int]]


@dataclass(frozen=True)
class GameInfo:
    """A game's row without its state: enough to list games or address them.

    ``seq`` is the game's version: the number of actions applied since the engine's
    start (``GameState.seq``). ``settings_version`` is the version of ``settings``: every
    settings write adds one, so a writer that names the version it read
    (``expected_version``) never overwrites a change it has not seen. Times are
    timezone-aware UTC.
    """

    id: int
    guild_id: int
    channel_id: int
    status: GameStatus
    seq: int
    created_by: int | None
    created_at: datetime
    updated_at: datetime
    settings: dict[str, Any]
    finished_reason: str | None
    broken_error: str | None
    # Keyword-only, so GameRow can add its state after it without a default.
    settings_version: int = field(default=0, kw_only=True)


@dataclass(frozen=True)
class GameRow(GameInfo):
    """A game's row with its state (``None`` while the game is a lobby).

    The state is the caller's own copy: changing it does not change the stored game.
    """

    state: AnyState | None


@dataclass(frozen=True)
class ApplyResult:
    """What an applied action did: the new state (the caller's own copy), its events,
    and the game's new ``seq`` (buttons made for this state carry it)."""

    state: AnyState
    events: list[dict[str, Any]]
    seq: int
    #: The seat whose player made the action themselves (set by the game service);
    #: None for actions of the host, of the bot at a deadline or of a computer seat.
    actor: int | None = None
    #: What acted for a seat when not the player's own click: ``"order"`` for a standing
    #: order (the log marks its line), None otherwise.
    via: str | None = None


@dataclass(frozen=True)
class Timer:
    """A durable timer of a game: a turn deadline, a reminder, a closing time, ...

    ``kind`` says what to do when it fires and ``payload`` (a JSON object, the
    caller's own copy) what with; ``key``, if set, names the timer within its game
    (e.g. ``"turn:17"``), so scheduling it again replaces it. Times are
    timezone-aware UTC.

    ``attempts`` is how many times the timer was taken (leases granted, see
    :meth:`GameStore.claim_timer`), and ``leased_until`` when the current lease or
    back-off ends (None: nobody holds it). Both are as of when the record was read.
    """

    id: int
    game_id: int
    kind: str
    due_at: datetime
    payload: dict[str, Any]
    key: str | None
    created_at: datetime
    attempts: int = 0
    leased_until: datetime | None = None


#: Called when a game is set aside because its state cannot be read, so the bot can
#: tell the server's admins (the store itself knows nothing about Discord).
BrokenGameHook = Callable[[GameInfo], Awaitable[None] | None]


class GameStore(abc.ABC):
    """Where games live; every method is safe to call concurrently, also from several
    processes sharing one database (the guarantees are kept by the database, not by
    in-process locks).

    Errors are the typed ones of :mod:`bot.store.errors`; an action the rules refuse
    raises the engine's :class:`~bot.engine.errors.IllegalAction` unchanged.

    Arguments are checked before the database is touched, so a malformed one raises
    and changes nothing: a game id that is not an int in SQLite's 64-bit range (bools
    are not ints here) raises :class:`~bot.store.errors.GameNotFound`, as no game can
    have it; any other id that is not such an int, text with lone surrogates, an unknown
    kind of server file, and settings, preferences or files that are not plain JSON
    objects (NaN, infinities, keys that are not text) raise
    :class:`~bot.store.errors.BadData`.
    """

    @abc.abstractmethod
    async def open(self) -> None:
        """Connect, bring the schema up to date and get ready for work."""

    @abc.abstractmethod
    async def close(self) -> None:
        """Finish the writes under way and disconnect."""

    async def __aenter__(self) -> Self:
        """Open the store for an ``async with`` block."""
        await self.open()
        return self

    async def __aexit__(
        self,
        exc_type: type[BaseException] | None,
        exc: BaseException | None,
        tb: TracebackType | None,
    ) -> None:
        """Close the store at the end of an ``async with`` block."""
        await self.close()

    @abc.abstractmethod
    async def create_game(
        self,
        guild_id: int,
        channel_id: int,
        state: AnyState | None,
        *,
        created_by: int | None = None,
        settings: Mapping[str, Any] | None = None,
    ) -> GameRow:
        """Create a game in ``channel_id``: running with ``state``, or a lobby if None.

        Raises :class:`~bot.store.errors.ChannelBusy` if the channel already has an
        unfinished game.
        """

    @abc.abstractmethod
    async def start_game(
        self, game_id: int, state: AnyState, *, expected_settings_version: int | None = None
    ) -> GameRow:
        """Turn a lobby into a running game starting at ``state``.

        With ``expected_settings_version`` (the settings version ``state`` was made
        from, e.g. the lobby's players), raises :class:`~bot.store.errors.SettingsConflict`
        and starts nothing if the settings changed since: a player who joined meanwhile
        (in another process, say) is not left out of the game.
        """

    @abc.abstractmethod
    async def load(self, game_id: int) -> GameRow:
        """The game with its current state (finished games too).

        Raises :class:`~bot.store.errors.GameNotFound`, or
        :class:`~bot.store.errors.GameBroken` for a game set aside (now or before).
        """

    @abc.abstractmethod
    async def game_in_channel(self, channel_id: int) -> GameRow | None:
        """The lobby or running game in the channel, if there is one."""

    @abc.abstractmethod
    async def apply(
        self, game_id: int, action: dict[str, Any], *, expected_seq: int | None = None
    ) -> ApplyResult:
        """Apply one action atomically and durably, then report what it did.

        When this returns, the new state and the action are stored. With
        ``expected_seq`` (the ``seq`` of the state the button was made for), an
        action for an older state raises :class:`~bot.store.errors.StaleAction`.
        Raises the engine's ``IllegalAction`` if the rules refuse the action, and
        :class:`~bot.store.errors.GameNotRunning` for lobbies and ended games. An
        action that is not a dict with a text ``type`` and plain JSON values, or an
        ``expected_seq`` that is not None or a non-negative int, raises
        ``IllegalAction("bad_action")`` before the game is read.
        """

    @abc.abstractmethod
    async def list_games(self, guild_id: int, *, include_finished: bool = False) -> list[GameInfo]:
        """The guild's games, oldest first; finished ones only if asked for."""

    @abc.abstractmethod
    async def finish(self, game_id: int, reason: str) -> GameInfo:
        """End a game (any status but finished); it stays readable for history.

        Its pending timers are cancelled.
        """

    @abc.abstractmethod
    async def set_settings(
        self,
        game_id: int,
        settings: Mapping[str, Any],
        *,
        expected_version: int | None = None,
    ) -> GameInfo:
        """Replace the game's settings (lobby options, deadlines, ...): a JSON object.

        Adds one to ``settings_version``. With ``expected_version`` (the version the
        caller read), raises :class:`~bot.store.errors.SettingsConflict` and changes
        nothing if the stored version differs. Without it the write replaces whatever
        is stored: only for a caller that owns every key (prefer :meth:`patch_settings`).
        """

    @abc.abstractmethod
    async def patch_settings(
        self,
        game_id: int,
        set: Mapping[str, Any],
        remove: Iterable[str] = (),
        *,
        expected_version: int | None = None,
    ) -> GameInfo:
        """Replace the top-level keys ``set`` and remove the keys ``remove`` of the settings.

        Atomic: the stored settings are read and written back in one transaction that
        holds the row, so two writers of different keys (in one process or two) both
        keep their change; the other keys stay as stored. A key both set and removed is
        set. Adds one to ``settings_version``, like :meth:`set_settings`, and checks
        ``expected_version`` the same way (:class:`~bot.store.errors.SettingsConflict`).
        Values must be plain JSON (:class:`~bot.store.errors.BadData` otherwise).
        """

    @abc.abstractmethod
    async def record(self, game_id: int) -> GameRecord:
        """The game's record: its start and every action with its dice."""

    async def export(self, game_id: int) -> dict[str, Any]:
        """The game as a JSON-ready record (``monopoly-record/1``), e.g. for a bug report."""
        return (await self.record(game_id)).to_dict()

    @abc.abstractmethod
    async def import_game(
        self,
        guild_id: int,
        channel_id: int,
        record: Mapping[str, Any],
        *,
        created_by: int | None = None,
        settings: Mapping[str, Any] | None = None,
    ) -> GameRow:
        """Create a game from an exported record, after checking that it replays.

        Raises :class:`~bot.store.errors.InvalidRecord` or
        :class:`~bot.store.errors.ChannelBusy`.
        """

    @abc.abstractmethod
    async def unfinished_games(self) -> list[GameRow]:
        """Every lobby and running game, with its state, for picking up after a start.

        A game whose state cannot be read is set aside (logged, reported to the
        broken-game hook) and left out; the others are returned.
        """

    @abc.abstractmethod
    async def finished_since(self, since: datetime) -> list[GameRow]:
        """Finished games that started play and changed at or after ``since``, with their
        state, oldest first (the reconciler looks there for ends never shown). A game
        whose state cannot be read is left out (it is finished: nothing is set aside).
        """

    @abc.abstractmethod
    async def broken_games(self) -> list[GameInfo]:
        """Games set aside because their state could not be read, with the error."""

    @abc.abstractmethod
    async def set_aside(self, game_id: int, error: str) -> GameInfo:
        """Mark a game as broken with ``error``; it frees its channel.

        Its pending timers are cancelled (repairing it does not bring them back).
        """

    # -- timers ---------------------------------------------------------------------
    # A timer is pending until it is completed (it fired) or cancelled. Only lobbies and
    # running games have pending timers: a game that ends, by ``finish``, by the rules
    # or by being set aside, cancels its pending timers in the same transaction.
    #
    # Firing is at least once: a scheduler takes a *lease* on a due timer
    # (:meth:`claim_timer`), runs its handler, then marks it fired
    # (:meth:`complete_timer`). While the lease lasts nobody else takes the timer; a
    # scheduler that dies leaves the lease to run out, and then the timer is due again.
    # A failed handler gives the timer back with a back-off (:meth:`retry_timer`).

    @abc.abstractmethod
    async def add_timer(
        self,
        game_id: int,
        kind: str,
        due_at: datetime,
        payload: Mapping[str, Any] | None = None,
        *,
        key: str | None = None,
    ) -> Timer:
        """Schedule a timer of ``kind`` for ``due_at`` (timezone-aware) in a game.

        A pending timer of the game with the same ``key`` is cancelled in the same
        transaction, so scheduling a keyed timer again (a turn deadline, say) just
        moves it. ``payload`` must be a JSON object. Raises
        :class:`~bot.store.errors.GameNotFound`, or
        :class:`~bot.store.errors.GameNotRunning` for finished and broken games.
        """

    @abc.abstractmethod
    async def cancel_timers(
        self, game_id: int, *, kind: str | None = None, key: str | None = None
    ) -> int:
        """Cancel the game's pending timers (only those of ``kind``/``key`` if given).

        Returns how many were cancelled.
        """

    @abc.abstractmethod
    async def next_due_at(self, *, shards: Shards | None = None) -> datetime | None:
        """The earliest moment a pending timer of any game can be taken; None if none.

        That is the later of its due time and the end of its lease or back-off, so a
        scheduler sleeping until then wakes for a lease that runs out, too. With
        ``shards`` only the timers of those shards' games count (see :meth:`due_timers`).
        """

    @abc.abstractmethod
    async def due_timers(
        self, now: datetime, limit: int = 100, *, shards: Shards | None = None
    ) -> list[Timer]:
        """Up to ``limit`` pending timers that can be taken at ``now``, earliest due first.

        That is: due at ``now`` or earlier, and not leased (no lease, or one that ended
        at ``now`` or earlier). Listing does not take them: run one only after
        :meth:`claim_timer` says so.

        ``shards`` = ``(shard_count, shard_ids)`` lists only the timers of games whose
        guild is on one of ``shard_ids`` by Discord's formula ``(guild_id >> 22) %
        shard_count``, for a process that runs some shards of the bot. ``shard_count``
        must be at least 1 and every shard id in ``range(shard_count)`` (ValueError).
        """

    @abc.abstractmethod
    async def claim_timer(
        self,
        timer_id: int,
        *,
        now: datetime | None = None,
        lease_seconds: float = DEFAULT_LEASE,
    ) -> bool:
        """Take a lease on a pending timer until ``now + lease_seconds``; True if taken.

        Atomic: of any number of callers (in this process or another) at most one
        gets True while the lease lasts, and nobody ever does for a timer completed or
        cancelled. Counts an attempt. ``now`` defaults to the store's clock; a
        scheduler passes its own, the clock it compares due times with.
        """

    @abc.abstractmethod
    async def complete_timer(self, timer_id: int) -> bool:
        """Mark a timer as fired, after its handler finished; True if this call did.

        Also completes a timer cancelled while its handler ran (e.g. the handler
        scheduled its own key again); that changes nothing but its history.
        """

    @abc.abstractmethod
    async def retry_timer(self, timer_id: int, at: datetime) -> None:
        """Its handler failed: the timer stays pending and can be taken again at ``at``.

        Does nothing to a timer that is no longer pending.
        """

    @abc.abstractmethod
    async def renew_lease(self, timer_id: int, until: datetime) -> bool:
        """Extend the lease of a pending timer to ``until`` (for a long handler).

        False if the timer is no longer pending (completed or cancelled).
        """

    @abc.abstractmethod
    async def pending_timers(self, game_id: int) -> list[Timer]:
        """The game's pending timers, earliest first."""

    # -- users ----------------------------------------------------------------------

    @abc.abstractmethod
    async def user_prefs(self, user_id: int) -> dict[str, Any]:
        """A user's preferences (a JSON object; empty if they never set any)."""

    @abc.abstractmethod
    async def set_user_prefs(self, user_id: int, prefs: Mapping[str, Any]) -> None:
        """Replace a user's preferences with ``prefs`` (a JSON object)."""

    # -- servers ------------------------------------------------------------------------

    @abc.abstractmethod
    async def finished_states(self, guild_id: int) -> list[dict[str, Any]]:
        """The final states (canonical JSON objects) of the server's finished games, oldest
        first; unreadable ones are left out."""

    @abc.abstractmethod
    async def guild_files(self, guild_id: int, kind: str) -> dict[str, dict[str, Any]]:
        """A server's uploaded files of ``kind`` (``theme`` or ``board``) by id, sorted by id.

        A stored file that is damaged (not a JSON object) is left out and logged, so one
        bad upload does not break every lobby of the server.
        """

    @abc.abstractmethod
    async def save_guild_file(
        self, guild_id: int, kind: str, item_id: str, data: Mapping[str, Any], uploaded_by: int
    ) -> bool:
        """Store a server's file; True if it replaced one of that kind with the same id."""

    @abc.abstractmethod
    async def delete_guild_file(self, guild_id: int, kind: str, item_id: str) -> bool:
        """Remove a server's file; False if there was none of that kind with that id."""

    @abc.abstractmethod
    async def rebuild_from_log(self, game_id: int) -> GameRow:
        """Recompute a game's state by replaying its log, e.g. to repair a broken game.

        The game runs again (or is finished, if the replay ends the game). Raises
        :class:`~bot.store.errors.InvalidRecord` if the log does not replay and
        :class:`~bot.store.errors.ChannelBusy` if its channel has a new game.
        """

    # -- the bot's own records ----------------------------------------------------------

    @abc.abstractmethod
    async def meta(self, key: str) -> str | None:
        """The bot's own record under ``key`` (e.g. ``commands:global``); None if unset.

        A damaged value (not UTF-8) counts as unset: these records can always be made
        again (a command fingerprint costs one extra sync).
        """

    @abc.abstractmethod
    async def set_meta(self, key: str, value: str) -> None:
        """Store ``value`` under ``key``, replacing what was there; both are text."""
