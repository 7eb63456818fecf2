"""``legal_actions`` lists only actions that apply, and ``waiting_for`` names who must act."""

from __future__ import annotations

import random
from collections.abc import Callable

import pytest

from bot.engine import GameState, IllegalAction, apply_action, legal_actions, new_game
from bot.engine.legal import waiting_for
from bot.engine.state import HOTEL
from tests.engine.conftest import (
    BADSTRASSE,
    BROWN,
    CHAUSSEESTRASSE,
    DARK_BLUE,
    JAIL,
    PARKSTRASSE,
    THEATERSTRASSE,
    TURMSTRASSE,
    WASSERWERK,
    act,
    game,
    owned,
)


def start() -> GameState:
    return game(
        [{"jail_cards": ["community"]}, {}, {}],
        lots={
            **owned(0, *BROWN, houses=1),
            **owned(1, *DARK_BLUE),
            WASSERWERK: {"owner": 2, "mortgaged": True},
        },
    )


def buy_phase() -> GameState:
    state = game([{}, {}], lots=owned(1, THEATERSTRASSE))
    act(state, "roll", 0, dice=[1, 2])
    return state


def auction() -> GameState:
    state = game([{}, {"cash": 30}, {}], lots=owned(2, THEATERSTRASSE))
    act(state, "roll", 0, dice=[1, 2])
    act(state, "decline", 0)
    act(state, "bid", 2, amount=10)
    return state


def debt_with_offer() -> GameState:
    state = game(
        [{"cash": 100, "position": 33}, {}],
        lots={**owned(1, *DARK_BLUE, houses=1), **owned(0, THEATERSTRASSE, 23)},
    )
    act(state, "roll", 0, dice=[1, 3])
    act(state, "offer_lots", 0, lots=[THEATERSTRASSE], value=100)
    return state


def debt_of_a_bankrupt_to_be() -> GameState:
    state = game([{"cash": 0, "position": 33}, {}, {}], lots=owned(1, *DARK_BLUE, houses=1))
    act(state, "roll", 0, dice=[1, 3])
    return state


def jailed() -> GameState:
    return game(
        [{"position": JAIL, "in_jail": True, "jail_cards": ["chance", "community"]}, {}],
    )


def place_building() -> GameState:
    state = game([{}, {}], lots={**owned(0, *BROWN), **owned(1, *DARK_BLUE)}, bank={"houses": 1})
    act(state, "build", 0, square=BADSTRASSE)
    act(state, "bid", 1, amount=200)
    act(state, "auction_pass", 0)
    return state


def choice() -> GameState:
    state = game([{"position": 14}, {}], decks={"community": [16, *range(1, 16)]})
    act(state, "roll", 0, dice=[1, 2])
    return state


def end_with_trades() -> GameState:
    state = game(
        [{"position": 18}, {}, {}],
        lots={**owned(0, *BROWN), **owned(1, THEATERSTRASSE), **owned(2, CHAUSSEESTRASSE)},
        rules={"rent_must_be_claimed": True},
    )
    act(state, "propose_trade", 0, to=1, give={"cash": 100}, get={"lots": [THEATERSTRASSE]})
    act(state, "propose_trade", 2, to=0, give={"lots": [CHAUSSEESTRASSE]}, get={"cash": 10})
    act(state, "roll", 0, dice=[1, 2])  # Theaterstraße: rent due to player 1
    return state


def mortgage_choice() -> GameState:
    state = game([{}, {}], lots={WASSERWERK: {"owner": 0, "mortgaged": True}})
    act(state, "propose_trade", 0, to=1, give={"lots": [WASSERWERK]})
    act(state, "accept_trade", 1, trade=1)
    return state


POSITIONS: dict[str, Callable[[], GameState]] = {
    "start": start,
    "buy": buy_phase,
    "auction": auction,
    "debt_with_offer": debt_with_offer,
    "debt_bankrupt": debt_of_a_bankrupt_to_be,
    "jailed": jailed,
    "place_building": place_building,
    "choice": choice,
    "end_with_trades": end_with_trades,
    "mortgage_choice": mortgage_choice,
}


@pytest.mark.parametrize("name", sorted(POSITIONS))
def test_every_listed_action_applies(name: str) -> None:
    state = POSITIONS[name]()
    for seat in range(len(state.players)):
        for action in legal_actions(state, seat):
            trial = state.copy()
            trial.dice_queue = [1, 2]  # a throw, if the action throws, without doubles
            apply_action(trial, action)


@pytest.mark.parametrize("name", sorted(POSITIONS))
def test_the_players_waited_for_have_something_to_do(name: str) -> None:
    state = POSITIONS[name]()
    for seat in waiting_for(state):
        assert legal_actions(state, seat), (name, seat)


@pytest.mark.parametrize(
    ("name", "phase", "waiting"),
    [
        ("start", "roll", [0]),
        ("buy", "buy", [0]),
        ("auction", "auction", [0, 1]),
        ("debt_with_offer", "debt", [1]),
        ("debt_bankrupt", "debt", [0]),
        ("jailed", "roll", [0]),
        ("place_building", "place_building", [1]),
        ("choice", "choice", [0]),
        ("end_with_trades", "end", [0]),
        ("mortgage_choice", "mortgage_choice", [1]),
    ],
)
def test_waiting_for(name: str, phase: str, waiting: list[int]) -> None:
    state = POSITIONS[name]()
    assert state.phase == phase
    assert waiting_for(state) == waiting


def test_legal_actions_at_the_start() -> None:
    state = start()
    assert legal_actions(state, 0) == [
        {"type": "roll", "player": 0},
        {"type": "build", "player": 0, "square": BADSTRASSE},
        {"type": "build", "player": 0, "square": TURMSTRASSE},
        {"type": "sell_building", "player": 0, "square": BADSTRASSE},
        {"type": "sell_building", "player": 0, "square": TURMSTRASSE},
    ]
    assert legal_actions(state, 1) == [
        {"type": "build", "player": 1, "square": PARKSTRASSE},
        {"type": "build", "player": 1, "square": 39},
        {"type": "mortgage", "player": 1, "square": PARKSTRASSE},
        {"type": "mortgage", "player": 1, "square": 39},
    ]
    assert legal_actions(state, 2) == [{"type": "unmortgage", "player": 2, "square": WASSERWERK}]


def test_legal_actions_in_jail() -> None:
    actions = legal_actions(jailed(), 0)
    assert actions == [
        {"type": "roll", "player": 0},
        {"type": "use_jail_card", "player": 0, "deck": "chance"},
        {"type": "use_jail_card", "player": 0, "deck": "community"},
        {"type": "pay_bail", "player": 0},
    ]


def test_legal_actions_in_the_auction() -> None:
    state = auction()
    assert legal_actions(state, 1) == [
        {"type": "bid", "player": 1, "amount": 11},
        {"type": "auction_pass", "player": 1},
    ]
    assert legal_actions(state, 2) == [{"type": "mortgage", "player": 2, "square": THEATERSTRASSE}]


def test_legal_actions_for_a_player_who_must_go_bankrupt() -> None:
    assert legal_actions(debt_of_a_bankrupt_to_be(), 0) == [
        {"type": "declare_bankruptcy", "player": 0}
    ]


def test_legal_actions_with_rent_to_claim_and_trades() -> None:
    state = end_with_trades()
    one = legal_actions(state, 1)
    assert {"type": "claim_rent", "player": 1, "square": THEATERSTRASSE} in one
    assert {"type": "accept_trade", "player": 1, "trade": 1} in one
    zero = legal_actions(state, 0)
    assert {"type": "accept_trade", "player": 0, "trade": 2} in zero
    assert {"type": "decline_trade", "player": 0, "trade": 1} in zero
    assert {"type": "end_turn", "player": 0} in zero


def _invariants(state: GameState) -> None:
    assert all(p.cash >= 0 for p in state.players)
    built = sum(h for h in state.houses if h != HOTEL)
    hotels = sum(1 for h in state.houses if h == HOTEL)
    assert built + state.bank_houses == 32
    assert hotels + state.bank_hotels == 12
    for deck in ("chance", "community"):
        held = sum(p.jail_cards.count(deck) for p in state.players)
        assert len(state.decks[deck]) + held == 16
    if state.phase != "over":
        assert any(legal_actions(state, seat) for seat in waiting_for(state))


@pytest.mark.parametrize("seed", [1, 2, 3, 4, 5])
def test_random_legal_play_never_fails(seed: int) -> None:
    """Random legal actions of random players: every one applies, the invariants hold."""
    rng = random.Random(seed)
    state = new_game([(f"p{i}", f"P{i}") for i in range(3)], seed=seed)
    for _ in range(1500):
        if state.phase == "over":
            break
        seats = waiting_for(state) if rng.random() < 0.8 else range(3)
        options = [a for s in seats for a in legal_actions(state, s)]
        if not options:
            continue
        action = rng.choice(options)
        try:
            apply_action(state, action)
        except IllegalAction as error:  # pragma: no cover - the failure message
            pytest.fail(f"listed action {action} refused: {error}")
        _invariants(state)
