"""A finished (or running) game at any of its turns, replayed from its record, quickly.

Pure: no Discord, no database, no clock. The replay viewer (``cogs/history.py``) hands in
a game's :class:`~bot.engine.record.GameRecord` and asks for one turn; it gets a
:class:`Frame`: the state at the end of that turn and the events of that turn.

**Turns.** A board game's actions are numbered by the turn they were made in (the state's
``turn`` before the action); the card game's by its round. The turns (or rounds) a game
has are the numbers its actions were made in, plus the number of its latest state (the
turn in progress of a running game, which may have no action yet). Numbers the game
skipped (a player gone bankrupt on their own turn passes it on at once) are not turns of
the viewer; asking for one shows the nearest turn before it.

**The state shown** for turn ``T`` is the state after the last action made in ``T`` —
except in the board game when that action did nothing but pass the turn on (``end_turn``:
its only event is ``turn``): then it is the state just before, so the board reads "turn T"
and still shows the turn's throw. Everything of turn ``T`` is on the board either way.

**The cache.** Building a game's :class:`Timeline` (where each turn starts in the record)
replays the record once; on the way a snapshot of the state (canonical JSON) is kept at
the start of every :data:`SNAPSHOT_EVERY`-th turn. A frame then replays only from the
nearest snapshot at or before its turn: at most ``SNAPSHOT_EVERY`` turns' actions, however
long the game. Snapshots and timelines sit in bounded least-recently-used caches. A
running game's record only grows, so its timeline is extended from its last state when
the record is longer than the timeline; a record that does not continue the timeline
(another start, fewer actions, other actions) replaces it.

A record that does not replay (the engine refuses an action, or a board game throws other
dice than the record says) raises :class:`~bot.store.errors.InvalidRecord`; a turn the game
does not have raises ``IllegalAction("turn_out_of_range")`` with ``first`` and ``last``.
"""

from __future__ import annotations

import bisect
import json
from collections import OrderedDict
from collections.abc import Hashable
from dataclasses import dataclass, field
from typing import Any

from bot.cardgame.state import CardState
from bot.engine.errors import IllegalAction
from bot.engine.record import GameRecord, dice_of
from bot.engine.state import GameState
from bot.store.errors import InvalidRecord
from bot.store.kinds import AnyState, apply, state_from_dict, state_from_json

#: Pixels of the viewer's board image (the turn message's is 1400): about half the
#: drawing time, still readable in Discord's preview. Kept here, next to the frames it
#: draws, for the viewer (``cogs/ui/viewer.py``) and its bench (``bot/replay_bench.py``).
VIEWER_SIZE = 1000
#: Turns between two snapshots: a frame replays at most this many turns' actions.
SNAPSHOT_EVERY = 10
#: Snapshots kept over all games (a snapshot is a state's JSON, a few kilobytes).
SNAPSHOTS_KEPT = 1024
#: Games whose timeline is kept (a timeline holds the record's actions).
TIMELINES_KEPT = 32


@dataclass(frozen=True)
class Frame:
    """One step of the viewer: the game at the end of turn (or round) ``number``.

    ``state`` is the caller's own copy; ``events`` are the events of every action of the
    turn, in order; ``first`` and ``last`` are the first and last turn the game has,
    ``before`` and ``after`` the neighbouring turns (None at the ends); ``replayed`` is how
    many actions were applied to build the frame (for the benches and tests).
    """

    number: int
    first: int
    last: int
    before: int | None
    after: int | None
    state: AnyState
    events: list[dict[str, Any]]
    replayed: int

    @property
    def unit(self) -> str:
        """``"turn"`` for the board game, ``"round"`` for the card game."""
        return "round" if isinstance(self.state, CardState) else "turn"


def number_of(state: AnyState) -> int:
    """The turn (board game) or round (card game) ``state`` is in."""
    return state.round if isinstance(state, CardState) else state.turn


def _start_key(record: GameRecord) -> str:
    """The record's start as canonical text: two records continue each other only if equal."""
    return json.dumps(record.start, sort_keys=True, separators=(",", ":"), ensure_ascii=False)


def apply_entry(state: AnyState, entry: dict[str, Any], index: int) -> list[dict[str, Any]]:
    """Apply the record's ``index``-th entry (``action`` and ``dice``) to ``state``, checking a
    board game's dice; its events. Raises ``InvalidRecord`` if it does not replay."""
    try:
        events = apply(state, entry["action"])
    except (IllegalAction, LookupError, TypeError, ValueError, AttributeError) as error:
        # The engine took this action once; refusing it now means the record (or the
        # engine) changed since: the game can no longer be replayed.
        raise InvalidRecord(f"action {index} does not replay: {error}") from error
    if isinstance(state, GameState) and dice_of(events) != entry.get("dice", []):
        raise InvalidRecord(
            f"action {index}: recorded dice {entry.get('dice')} but threw {dice_of(events)}"
        )
    return events


@dataclass
class Timeline:
    """Where each turn of one game starts in its record (see the module docstring).

    ``numbers`` are the game's turns in order; ``starts[i]`` is the index of the first
    action of ``numbers[i]`` in ``actions`` (for a turn without actions yet: the number of
    actions). ``end`` is the canonical JSON of the state after every action, from which a
    longer record of the same game is continued.
    """

    start: str
    actions: list[dict[str, Any]]
    numbers: list[int] = field(default_factory=list)
    starts: list[int] = field(default_factory=list)
    end: str = ""
    end_seq: int = 0

    def index_of(self, number: int) -> int:
        """The index in :attr:`numbers` of turn ``number``, or of the nearest turn before it.

        Raises ``IllegalAction("turn_out_of_range")`` for a number before the first turn or
        after the last.
        """
        if not self.numbers or not self.numbers[0] <= number <= self.numbers[-1]:
            first = self.numbers[0] if self.numbers else 0
            last = self.numbers[-1] if self.numbers else 0
            raise IllegalAction("turn_out_of_range", first=first, last=last)
        return bisect.bisect_right(self.numbers, number) - 1

    def span(self, index: int) -> tuple[int, int]:
        """The actions of the turn at ``index``: ``(first, end)`` indices (end exclusive)."""
        end = self.starts[index + 1] if index + 1 < len(self.starts) else len(self.actions)
        return self.starts[index], end

    def _note(self, number: int, action: int) -> None:
        """Turn ``number`` has an action at index ``action`` (or is the latest state's)."""
        if not self.numbers or number > self.numbers[-1]:
            self.numbers.append(number)
            self.starts.append(action)


class ReplayCache:
    """Timelines and snapshots of recently viewed games, least recently used out.

    ``key`` names a game for the cache (the viewer uses the game's id; one cache per store,
    as ids are only unique within one). Not thread-safe: use it from one thread (the
    viewer's event loop; a frame replays at most :data:`SNAPSHOT_EVERY` turns).
    """

    def __init__(
        self,
        *,
        every: int = SNAPSHOT_EVERY,
        snapshots: int = SNAPSHOTS_KEPT,
        timelines: int = TIMELINES_KEPT,
    ) -> None:
        self.every = max(1, every)
        self.snapshot_capacity = snapshots
        self.timeline_capacity = timelines
        self._snapshots: OrderedDict[tuple[Hashable, int], str] = OrderedDict()
        self._timelines: OrderedDict[Hashable, Timeline] = OrderedDict()
        self.builds = 0  # full replays made to build a timeline (for tests)

    # -- timelines ---------------------------------------------------------------------

    def current(self, key: Hashable, seq: int) -> bool:
        """Whether the cached timeline of ``key`` ends at state version ``seq`` (so a frame
        needs no record: a finished game's, or a running game's that has not moved)."""
        timeline = self._timelines.get(key)
        return timeline is not None and timeline.end_seq == seq

    def timeline(self, key: Hashable, record: GameRecord | None = None) -> Timeline:
        """The timeline of ``key`` for ``record`` (built, extended or reused).

        Without a record the cached timeline is used as it is (see :meth:`current`).
        """
        cached = self._timelines.get(key)
        if record is None:
            if cached is None:
                raise KeyError(key)
            self._timelines.move_to_end(key)
            return cached
        if cached is not None and self._continues(cached, record):
            if len(record.actions) > len(cached.actions):
                self._guarded(key, cached, record.actions[len(cached.actions) :])
            self._timelines.move_to_end(key)
            return cached
        self.forget(key)
        timeline = Timeline(start=_start_key(record), actions=[])
        state = self._start_state(record)
        timeline.end = state.to_json()
        timeline.end_seq = state.seq
        timeline._note(number_of(state), 0)
        self._put(key, 0, timeline.end)
        self._guarded(key, timeline, record.actions)
        self.builds += 1
        self._timelines[key] = timeline
        self._timelines.move_to_end(key)
        while len(self._timelines) > self.timeline_capacity:
            old, _ = self._timelines.popitem(last=False)
            self._drop_snapshots(old)
        return timeline

    def turns(self, key: Hashable, record: GameRecord | None = None) -> tuple[int, int]:
        """The first and the last turn (or round) of ``key``'s game (see :meth:`timeline`)."""
        numbers = self.timeline(key, record).numbers
        return numbers[0], numbers[-1]

    def forget(self, key: Hashable) -> None:
        """Drop ``key``'s timeline and snapshots (the next frame replays its record anew)."""
        self._timelines.pop(key, None)
        self._drop_snapshots(key)

    def _guarded(self, key: Hashable, timeline: Timeline, entries: list[dict[str, Any]]) -> None:
        """:meth:`_extend`, forgetting the game if its record fails half-way (a timeline
        cut off in the middle of an action would not match its snapshots)."""
        try:
            self._extend(key, timeline, entries)
        except InvalidRecord:
            self.forget(key)
            raise

    @staticmethod
    def _start_state(record: GameRecord) -> AnyState:
        try:
            return state_from_dict(record.start)
        except (KeyError, TypeError, ValueError) as error:
            raise InvalidRecord(f"the start state does not load: {error}") from error

    @staticmethod
    def _continues(timeline: Timeline, record: GameRecord) -> bool:
        """Whether ``record`` is the timeline's record, perhaps with more actions."""
        known = len(timeline.actions)
        if len(record.actions) < known or timeline.start != _start_key(record):
            return False
        return known == 0 or record.actions[known - 1] == timeline.actions[known - 1]

    def _extend(self, key: Hashable, timeline: Timeline, entries: list[dict[str, Any]]) -> None:
        """Replay ``entries`` after the timeline's end, noting turns and taking snapshots."""
        if not entries:
            return
        state = state_from_json(timeline.end)
        for entry in entries:
            index = len(timeline.actions)
            timeline._note(number_of(state), index)
            self._maybe_snapshot(key, timeline, index, state)
            apply_entry(state, entry, index)
            timeline.actions.append(entry)
        # The latest state's turn is a turn too (a running game's turn in progress).
        timeline._note(number_of(state), len(timeline.actions))
        timeline.end = state.to_json()
        timeline.end_seq = state.seq

    # -- snapshots ---------------------------------------------------------------------

    def _put(self, key: Hashable, action: int, state_json: str) -> None:
        if self.snapshot_capacity <= 0:
            return
        self._snapshots[(key, action)] = state_json
        self._snapshots.move_to_end((key, action))
        while len(self._snapshots) > self.snapshot_capacity:
            self._snapshots.popitem(last=False)

    def _drop_snapshots(self, key: Hashable) -> None:
        for found in [k for k in self._snapshots if k[0] == key]:
            del self._snapshots[found]

    def _nearest(self, key: Hashable, timeline: Timeline, index: int) -> tuple[int, str]:
        """The latest snapshot at or before turn ``numbers[index]``: ``(action, json)``.

        A snapshot evicted meanwhile is looked for further back; the start of the record
        is always there (kept as the snapshot at action 0, or replayed from the start).
        """
        wanted = (index // self.every) * self.every
        while wanted >= 0:
            action = timeline.starts[wanted]
            found = self._snapshots.get((key, action))
            if found is not None:
                self._snapshots.move_to_end((key, action))
                return action, found
            wanted -= self.every
        start = state_from_dict(json.loads(timeline.start)).to_json()
        self._put(key, 0, start)
        return 0, start

    # -- frames ------------------------------------------------------------------------

    def frame(self, key: Hashable, number: int, record: GameRecord | None = None) -> Frame:
        """The game at the end of turn (or round) ``number`` (see the module docstring).

        ``record`` may be left out while :meth:`current` says the cached timeline is up to
        date. Raises ``IllegalAction("turn_out_of_range")`` or ``InvalidRecord``.
        """
        timeline = self.timeline(key, record)
        index = timeline.index_of(number)
        first, end = timeline.span(index)
        if first == end:  # a turn without actions: the latest state, nothing happened yet
            state = state_from_json(timeline.end)
            return self._frame(timeline, index, state, [], 0)
        origin, origin_json = self._nearest(key, timeline, index)
        state = state_from_json(origin_json)
        replayed = 0
        for action in range(origin, first):
            self._maybe_snapshot(key, timeline, action, state)
            apply_entry(state, timeline.actions[action], action)
            replayed += 1
        events: list[dict[str, Any]] = []
        before_last = ""
        last_events: list[dict[str, Any]] = []
        for action in range(first, end):
            self._maybe_snapshot(key, timeline, action, state)
            if action == end - 1 and isinstance(state, GameState):
                before_last = state.to_json()
            last_events = apply_entry(state, timeline.actions[action], action)
            events += last_events
            replayed += 1
        passing_only = bool(last_events) and all(e["type"] == "turn" for e in last_events)
        if before_last and passing_only and state.phase != "over":
            state = state_from_json(before_last)
        return self._frame(timeline, index, state, events, replayed)

    def _maybe_snapshot(
        self, key: Hashable, timeline: Timeline, action: int, state: AnyState
    ) -> None:
        """Keep the state before ``action`` as a snapshot if ``action`` begins a turn whose
        place among the turns is a multiple of :attr:`every` (and it is not kept already:
        while building, or to put back one evicted meanwhile)."""
        index = bisect.bisect_left(timeline.starts, action)
        if (
            index < len(timeline.starts)
            and timeline.starts[index] == action
            and index % self.every == 0
            and (key, action) not in self._snapshots
        ):
            self._put(key, action, state.to_json())

    @staticmethod
    def _frame(
        timeline: Timeline,
        index: int,
        state: AnyState,
        events: list[dict[str, Any]],
        replayed: int,
    ) -> Frame:
        numbers = timeline.numbers
        return Frame(
            number=numbers[index],
            first=numbers[0],
            last=numbers[-1],
            before=numbers[index - 1] if index > 0 else None,
            after=numbers[index + 1] if index + 1 < len(numbers) else None,
            state=state,
            events=events,
            replayed=replayed,
        )

    def __len__(self) -> int:
        """How many snapshots are kept now."""
        return len(self._snapshots)
