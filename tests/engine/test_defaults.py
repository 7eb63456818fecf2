"""The safe default action for a player who lets a deadline pass."""

from __future__ import annotations

import random

import pytest

from bot.engine import Rules, apply_action, new_game
from bot.engine.defaults import declines_for, default_action
from bot.engine.legal import waiting_for
from bot.engine.scenario import setup
from bot.engine.simple_players import next_simple_action


@pytest.mark.parametrize("preset", ["classic", "modern", "short", "fast", "mark"])
def test_default_actions_are_always_legal_and_games_end(preset: str) -> None:
    """Mixing defaults with ordinary play never hits a refused action, and games end."""
    for seed in range(15):
        state = new_game(
            [(str(i), f"P{i}") for i in range(4)], seed=seed, rules=Rules.from_preset(preset)
        )
        chooser = random.Random(seed)
        for _ in range(5000):
            if state.phase == "over":
                break
            action = default_action(state) if chooser.random() < 0.5 else next_simple_action(state)
            apply_action(state, action)
        assert state.phase == "over" or state.rules.end_at_deadline


def test_default_declines_a_purchase_so_the_lot_is_auctioned() -> None:
    """An absent player does not spend money: the lot goes to auction (000: versteigert)."""
    state = setup({"format": "monopoly-scenario/1", "players": [{"position": 37}, {}]})
    state.dice_queue = [1, 1]
    apply_action(state, {"type": "roll", "player": 0})
    state.dice_queue = []
    assert state.phase == "buy"
    assert default_action(state) == {"type": "decline", "player": 0}
    apply_action(state, default_action(state))
    assert state.phase == "auction"
    assert default_action(state, 1) == {"type": "auction_pass", "player": 1}


def test_default_in_debt_sells_the_dearest_building_first() -> None:
    """Raising money evenly: the dearest group's houses go first, mortgages after."""
    state = setup(
        {
            "format": "monopoly-scenario/1",
            "players": [{"cash": 0, "position": 30}, {}],
            "lots": {
                "1": {"owner": 0, "houses": 1},
                "3": {"owner": 0, "houses": 1},
                "37": {"owner": 0, "houses": 1},
                "39": {"owner": 0, "houses": 1},
                "5": {"owner": 0},
            },
            "current": 0,
        }
    )
    state.debts = [{"debtor": 0, "creditor": -1, "amount": 120, "reason": "tax"}]
    state.phase = "debt"
    assert default_action(state) == {"type": "sell_building", "player": 0, "square": 39}


def test_default_only_for_the_player_the_game_waits_on() -> None:
    state = new_game([("a", "A"), ("b", "B")], seed=1)
    other = 1 - waiting_for(state)[0]
    assert default_action(state, other) is None
    assert default_action(state)["type"] == "roll"


def test_declines_for_lists_every_offer_to_the_player() -> None:
    state = setup(
        {
            "format": "monopoly-scenario/1",
            "players": [{}, {}],
            "lots": {"1": {"owner": 0}},
        }
    )
    apply_action(
        state,
        {"type": "propose_trade", "player": 1, "to": 0, "give": {"cash": 10}, "get": {"lots": [1]}},
    )
    assert declines_for(state, 0) == [{"type": "decline_trade", "player": 0, "trade": 1}]
    for action in declines_for(state, 0):
        apply_action(state, action)
    assert state.trades == []
