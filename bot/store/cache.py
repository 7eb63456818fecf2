"""Per-game locks and a small cache of live game states, for any store driver."""

from __future__ import annotations

import asyncio
import weakref
from collections import OrderedDict

from bot.engine.state import GameState


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
    """The live :class:`GameState` of recently used games, least recently used out.

    An entry always equals the committed state of its game whenever the game's lock
    is free: the store puts a state back only after its write committed and drops
    it on any failure.
    """

    def __init__(self, capacity: int) -> None:
        self.capacity = capacity
        self._states: OrderedDict[int, GameState] = OrderedDict()
        self.hits = 0
        self.misses = 0

    def get(self, game_id: int) -> GameState | None:
        """The cached state of ``game_id`` (now the most recently used), or None."""
        state = self._states.get(game_id)
        if state is None:
            self.misses += 1
            return None
        self.hits += 1
        self._states.move_to_end(game_id)
        return state

    def put(self, game_id: int, state: GameState) -> None:
        """Cache ``state`` as the committed state of ``game_id``."""
        if self.capacity <= 0:
            return
        self._states[game_id] = state
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
