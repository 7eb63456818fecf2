"""Shared helpers for the game store tests, on both drivers.

``store`` is an open store on this test's database: a real SQLite file in ``tmp_path``
or a fresh database on a throwaway PostgreSQL server (the fixtures ``driver``, ``backend``
and ``store_factory`` of ``tests/store/backends.py``), so a test that takes it runs once
per driver. Tests of what only SQLite has (WAL, PRAGMAs, damage by plain sqlite3) use
``db_path`` and :class:`SqliteGameStore` directly.
"""

from __future__ import annotations

from collections.abc import AsyncIterator
from datetime import UTC, datetime, timedelta
from pathlib import Path
from typing import Any

import pytest

from bot.engine.game import apply_action, new_game
from bot.engine.state import GameState
from bot.store import GameStore
from bot.store.bench import next_simple_action
from bot.store.sql import SqlGameStore
from tests.store.backends import StoreFactory

GUILD = 111
OTHER_GUILD = 222
USER = 999
SEATS = [("u1", "Anna"), ("u2", "Ben"), ("u3", "Cem"), ("u4", "Dana")]


class FakeClock:
    """A clock that moves one second per reading, from a fixed UTC moment."""

    def __init__(self) -> None:
        self.moment = datetime(2026, 5, 1, 12, 0, tzinfo=UTC)

    def __call__(self) -> datetime:
        self.moment += timedelta(seconds=1)
        return self.moment


class ManualClock:
    """A clock that stands still until the test moves it (for timers and the scheduler)."""

    def __init__(self, moment: datetime = datetime(2026, 5, 1, 12, 0, tzinfo=UTC)) -> None:
        self.moment = moment

    def __call__(self) -> datetime:
        return self.moment

    def advance(self, seconds: float = 0, **delta: float) -> datetime:
        """Move the clock on by ``seconds`` (and any ``timedelta`` keywords); the new time."""
        self.moment += timedelta(seconds=seconds, **delta)
        return self.moment


def make_state(seed: int = 7, players: int = 4) -> GameState:
    """A new game of ``players`` seats."""
    return new_game(SEATS[:players], seed=seed)


def play(state: GameState, count: int) -> list[list[dict[str, Any]]]:
    """Advance ``state`` in place by ``count`` simple-player actions; their events."""
    events = []
    for _ in range(count):
        action = next_simple_action(state)
        assert action is not None
        events.append(apply_action(state, action))
    return events


async def advance(store: GameStore, game_id: int, count: int) -> GameState:
    """Apply ``count`` simple-player actions through the store; the last state."""
    row = await store.load(game_id)
    state = row.state
    assert state is not None
    for _ in range(count):
        action = next_simple_action(state)
        assert action is not None
        state = (await store.apply(game_id, action, expected_seq=state.seq)).state
    return state


@pytest.fixture
def db_path(tmp_path: Path) -> Path:
    """A database file in a directory that does not exist yet."""
    return tmp_path / "data" / "games.db"


@pytest.fixture
def clock() -> FakeClock:
    """The injected clock."""
    return FakeClock()


@pytest.fixture
async def store(store_factory: StoreFactory, clock: FakeClock) -> AsyncIterator[SqlGameStore]:
    """An open store on this test's fresh database (each driver in turn)."""
    store = store_factory(now=clock)
    await store.open()
    try:
        yield store
    finally:
        await store.close()
