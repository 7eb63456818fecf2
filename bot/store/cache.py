"""Per-game locks and a small cache of committed game states, for any store driver."""

from __future__ import annotations

import asyncio
import weakref
from collections import OrderedDict


class GameLocks:
    """One :class:`asyncio.Lock` per game, made on first use.

    Locks live in a weak dictionary: a lock that nobody holds or waits for is
    dropped, so a bot running for months does not keep one per game ever played,
    and a new lock is only ever made when no one can be holding the old one.
    """

    def __init__(self) -> None:
        self._locks: weakref.WeakValueDictionary[int, asyncio.Lock] = weakref.WeakValueDictionary()

    def __call__(self, game_id: int) -> asyncio.Lock:
        """The lock of ``game_id``."""
        lock = self._locks.get(game_id)
        if lock is None:
            lock = asyncio.Lock()
            self._locks[game_id] = lock
        return lock


class StateCache:
    """The committed state JSON of recently used games, least recently used out.

    The cache holds the canonical JSON text rather than live ``GameState`` objects:
    text cannot be changed by accident, each action is applied to a freshly parsed
    state that then belongs to the caller, and a failed action leaves nothing to
    clean up. Parsing costs about as much as the copy a live object would need for
    the caller. An entry is put only after its write committed.
    """

    def __init__(self, capacity: int) -> None:
        self.capacity = capacity
        self._states: OrderedDict[int, str] = OrderedDict()
        self.hits = 0
        self.misses = 0

    def get(self, game_id: int) -> str | None:
        """The cached state JSON of ``game_id`` (now the most recently used), or None."""
        state_json = self._states.get(game_id)
        if state_json is None:
            self.misses += 1
            return None
        self.hits += 1
        self._states.move_to_end(game_id)
        return state_json

    def put(self, game_id: int, state_json: str) -> None:
        """Cache ``state_json`` as the committed state of ``game_id``."""
        if self.capacity <= 0:
            return
        self._states[game_id] = state_json
        self._states.move_to_end(game_id)
        while len(self._states) > self.capacity:
            self._states.popitem(last=False)

    def drop(self, game_id: int) -> None:
        """Forget ``game_id``; the next use reads it from the database."""
        self._states.pop(game_id, None)

    def clear(self) -> None:
        """Forget every game."""
        self._states.clear()

    def __len__(self) -> int:
        return len(self._states)
