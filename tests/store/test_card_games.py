"""The card game in the store: the same tables, told apart by the state's format.

On both drivers: a card game is created, played action by action, read back after the
cache is emptied and after a restart, refused actions change nothing, and the log
replays to the stored state.
"""

from __future__ import annotations

import pytest

from bot.cardgame import CardState, SimpleCardPlayer, new_game
from bot.cardgame.simple_player import next_simple_action
from bot.engine.errors import IllegalAction
from bot.store import StaleAction
from bot.store.sql import SqlGameStore
from tests.store.backends import Backend
from tests.store.conftest import GUILD, USER, FakeClock

SEATS = [("u1", "Anna"), ("u2", "Ben"), ("u3", "Cem")]


async def play_stored(store: SqlGameStore, game_id: int, count: int) -> CardState:
    """Apply ``count`` simple-player actions through the store; the last state."""
    players = [SimpleCardPlayer() for _ in SEATS]
    state = (await store.load(game_id)).state
    assert isinstance(state, CardState)
    for _ in range(count):
        action = next_simple_action(state, players)
        if action is None:
            break
        state = (await store.apply(game_id, action, expected_seq=state.seq)).state
    assert isinstance(state, CardState)
    return state


async def test_a_card_game_is_stored_played_and_read_back(
    store: SqlGameStore, backend: Backend
) -> None:
    """A card game lives in the same tables: played, read back, reopened, rebuilt."""
    start = new_game(SEATS, seed=11)
    row = await store.create_game(GUILD, 5, start, created_by=USER, settings={"game": "cards"})
    assert isinstance(row.state, CardState) and row.state.to_json() == start.to_json()

    state = await play_stored(store, row.id, 60)
    assert state.seq > 0
    store.cache.clear()
    again = (await store.load(row.id)).state
    assert isinstance(again, CardState) and again.to_json() == state.to_json()

    await store.close()
    reopened = backend.store(now=FakeClock())
    await reopened.open()
    try:
        loaded = (await reopened.load(row.id)).state
        assert isinstance(loaded, CardState) and loaded.to_json() == state.to_json()
        rebuilt = (await reopened.rebuild_from_log(row.id)).state
        assert rebuilt is not None and rebuilt.to_json() == state.to_json()
    finally:
        await reopened.close()


async def test_a_refused_card_action_changes_nothing(store: SqlGameStore) -> None:
    """An illegal or stale card action leaves the stored game as it was."""
    row = await store.create_game(GUILD, 6, new_game(SEATS, seed=3), created_by=USER)
    state = row.state
    assert isinstance(state, CardState)
    idle = next(seat for seat in range(len(SEATS)) if seat != state.current)
    before = state.to_json()
    with pytest.raises(IllegalAction) as refused:
        await store.apply(row.id, {"type": "draw", "player": idle})
    assert refused.value.code == "not_your_turn"
    with pytest.raises(StaleAction):
        await store.apply(row.id, {"type": "draw", "player": state.current}, expected_seq=99)
    assert (await store.load(row.id)).state.to_json() == before  # type: ignore[union-attr]
