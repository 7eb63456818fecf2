"""``GameState.copy``: a structural copy equal to the JSON round trip, and independent."""

from __future__ import annotations

from bot.engine.game import apply_action, new_game
from bot.engine.rules import Rules
from bot.engine.simple_players import next_simple_action
from bot.engine.state import GAME_FIELDS, GameState

SEATS = [("a", "A"), ("b", "B"), ("c", "C"), ("d", "D")]


def _states(preset: str, seed: int, every: int = 7) -> list[GameState]:
    """Snapshots (by the JSON round trip) of one simple-player game, every few actions."""
    state = new_game(SEATS, seed=seed, rules=Rules.from_preset(preset))
    snapshots = []
    actions = 0
    while state.phase != "over" and state.turn <= 300:
        action = next_simple_action(state)
        assert action is not None
        apply_action(state, action)
        actions += 1
        if actions % every == 0:
            snapshots.append(GameState.from_dict(state.to_dict()))
    return snapshots


def _play_on(state: GameState, actions: int) -> list[dict]:
    """Play ``actions`` more simple-player actions; every action's events."""
    events = []
    for _ in range(actions):
        action = next_simple_action(state)
        if action is None:
            break
        events.append(apply_action(state, action))
    return events


def test_copy_equals_round_trip_in_every_phase() -> None:
    """Every phase the games pass through: same canonical JSON, same future."""
    phases = set()
    for preset in ("classic", "modern", "fast"):
        for state in _states(preset, seed=11):
            phases.add(state.phase)
            copy = state.copy()
            slow = GameState.from_dict(state.to_dict())
            assert copy.to_dict() == state.to_dict()
            assert copy.events == [] and copy.dice_queue == []
            assert _play_on(copy, 40) == _play_on(slow, 40)
            assert copy.to_json() == slow.to_json()
    assert {"roll", "end", "buy"} <= phases


def test_copy_is_independent() -> None:
    """Playing on (or mutating) the copy leaves the original untouched, and back."""
    for state in _states("classic", seed=5, every=25):
        before = state.to_json()
        copy = state.copy()
        _play_on(copy, 30)
        copy.players[0].jail_cards.append("chance")
        copy.owner[1] = 3
        copy.decks["chance"].reverse()
        copy.trades.append({"id": 99, "give": {"lots": []}})
        copy.debts.append({"debtor": 0})
        assert state.to_json() == before
        again = state.copy()
        _play_on(state, 30)
        state.players[1].cash += 1
        assert again.to_json() == before


def test_copy_sets_every_field() -> None:
    """A field added to ``GameState`` must be added to ``copy`` too."""
    state = _states("classic", seed=3, every=40)[-1]
    copy = state.copy()
    for name in GAME_FIELDS:  # GameState.__slots__ (none when compiled with mypyc)
        assert hasattr(copy, name), f"GameState.copy does not set {name}"
