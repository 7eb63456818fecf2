"""Refused actions: each has a stable code and leaves the game exactly as it was."""

from __future__ import annotations

from typing import Any

import pytest

from bot.engine import GameState, IllegalAction, apply_action
from bot.engine.game import HANDLERS
from tests.engine.conftest import (
    BADSTRASSE,
    BROWN,
    TURMSTRASSE,
    WASSERWERK,
    act,
    game,
    owned,
    refuse,
    refuse_raw,
)


def test_illegal_action_carries_code_and_params() -> None:
    state = game([{}, {}])
    error = refuse(state, "roll", 1, "not_your_turn")
    assert error.params == {"current": 0}
    assert str(error) == "not_your_turn(current=0)"
    assert isinstance(error, Exception)


@pytest.mark.parametrize("action", [None, "roll", ["roll", 0], 42])
def test_an_action_must_be_a_dict(action: Any) -> None:
    refuse_raw(game([{}, {}]), action, "bad_action")


@pytest.mark.parametrize("kind", ["jump", None, "", "ROLL", "apply_action"])
def test_unknown_action(kind: Any) -> None:
    refuse_raw(game([{}, {}]), {"type": kind, "player": 0}, "unknown_action")


def test_missing_type_is_unknown() -> None:
    refuse_raw(game([{}, {}]), {"player": 0}, "unknown_action")


@pytest.mark.parametrize("player", [None, "0", 0.0, True, False, -1, 2, [0]])
def test_unknown_player(player: Any) -> None:
    refuse_raw(game([{}, {}]), {"type": "roll", "player": player}, "unknown_player")


def test_missing_player() -> None:
    refuse_raw(game([{}, {}]), {"type": "roll"}, "unknown_player")


def test_wrong_player() -> None:
    state = game([{}, {}])
    refuse(state, "roll", 1, "not_your_turn")
    act(state, "roll", 0, dice=[1, 2])
    refuse(state, "buy", 1, "not_your_turn")
    refuse(state, "decline", 1, "not_your_turn")


@pytest.mark.parametrize(
    ("kind", "params"),
    [
        ("buy", {}),
        ("decline", {}),
        ("end_turn", {}),
        ("choose", {"option": "pay"}),
    ],
)
def test_wrong_phase_at_the_start_of_a_turn(kind: str, params: dict[str, Any]) -> None:
    refuse(game([{}, {}]), kind, 0, "wrong_phase", **params)


def test_wrong_phase_after_the_throws() -> None:
    state = game([{"position": 17}, {}])
    act(state, "roll", 0, dice=[1, 2])
    assert state.phase == "end"
    refuse(state, "roll", 0, "wrong_phase")
    refuse(state, "buy", 0, "wrong_phase")


@pytest.mark.parametrize("trade", [99, "1", None, 1.5, [1]])
def test_stale_or_unknown_trade_id(trade: Any) -> None:
    state = game([{}, {}], lots=owned(0, BADSTRASSE))
    act(state, "propose_trade", 0, to=1, give={"lots": [BADSTRASSE]})
    refuse(state, "accept_trade", 1, "no_such_trade", trade=trade)
    refuse(state, "decline_trade", 1, "no_such_trade", trade=trade)


@pytest.mark.parametrize("square", ["1", 1.0, True, None, -1, 40, [1]])
@pytest.mark.parametrize("kind", ["build", "sell_building", "mortgage", "unmortgage"])
def test_bad_square(kind: str, square: Any) -> None:
    state = game([{}, {}], lots=owned(0, *BROWN, houses=1))
    refuse(state, kind, 0, "bad_square", square=square)


@pytest.mark.parametrize("amount", ["10", "ten", 10.5, True, False, None, [10], {"a": 1}])
def test_bad_bid_amount(amount: Any) -> None:
    state = game([{}, {}])
    act(state, "roll", 0, dice=[1, 2])
    act(state, "decline", 0)
    refuse(state, "bid", 1, "bad_amount", amount=amount)


@pytest.mark.parametrize("amount", [-1, -100, 0])
def test_negative_or_zero_bid(amount: int) -> None:
    state = game([{}, {}])
    act(state, "roll", 0, dice=[1, 2])
    act(state, "decline", 0)
    refuse(state, "bid", 1, "bid_too_low", amount=amount)


@pytest.mark.parametrize("cash", [-1, "100", True, 1.0, None])
def test_bad_trade_cash(cash: Any) -> None:
    state = game([{}, {}], lots=owned(0, BADSTRASSE))
    refuse(
        state,
        "propose_trade",
        0,
        "bad_amount",
        to=1,
        give={"lots": [BADSTRASSE]},
        get={"cash": cash},
    )


def test_after_the_game_is_over() -> None:
    state = game([{"cash": 0, "position": 36}, {}])
    act(state, "roll", 0, dice=[1, 1])
    act(state, "declare_bankruptcy", 0)
    assert state.phase == "over"
    refuse(state, "roll", 1, "game_over")
    refuse(state, "end_turn", 1, "game_over")


def test_bankrupt_player() -> None:
    state = game([{}, {}, {}])
    state.players[2].bankrupt = True
    refuse(state, "build", 2, "player_not_in_game", square=BADSTRASSE)


# -- no malformed input gets past the checks --------------------------------------------------

ODD_VALUES: list[Any] = [None, True, -1, 0, 1, 39, 99, "1", "x", 1.5, [], [1], {}, {"cash": 5}]
PARAMS = (
    "square",
    "amount",
    "option",
    "deck",
    "to",
    "give",
    "get",
    "trade",
    "lots",
    "value",
    "lift",
)

# The parameters each action reads (an action not named here is tried with all of them).
PARAMS_OF: dict[str, tuple[str, ...]] = {
    "use_jail_card": ("deck",),
    "choose": ("option",),
    "bid": ("amount",),
    "build": ("square",),
    "sell_building": ("square",),
    "mortgage": ("square",),
    "unmortgage": ("square",),
    "claim_rent": ("square",),
    "propose_trade": ("to", "give", "get", "counter_of"),
    "accept_trade": ("trade",),
    "decline_trade": ("trade",),
    "offer_lots": ("lots", "value"),
    "decide_mortgages": ("lift",),
    **{
        kind: ("unused",)
        for kind in (
            "roll",
            "pay_bail",
            "buy",
            "decline",
            "end_turn",
            "auction_pass",
            "accept_lots",
            "decline_lots",
            "declare_bankruptcy",
            "resign",
        )
    },
}


def _positions() -> list[GameState]:
    rolling = game(
        [{"jail_cards": ["chance"]}, {"position": 10, "in_jail": True}],
        lots={**owned(0, *BROWN, houses=1), WASSERWERK: {"owner": 1, "mortgaged": True}},
    )
    buying = game([{}, {}])
    act(buying, "roll", 0, dice=[1, 2])
    auction = game([{}, {}])
    act(auction, "roll", 0, dice=[1, 2])
    act(auction, "decline", 0)
    debt = game([{"cash": 0, "position": 1}, {}], lots={**owned(1, TURMSTRASSE), **owned(0, 6)})
    act(debt, "roll", 0, dice=[1, 1])
    choice = game([{"position": 14}, {}], decks={"community": [16, *range(1, 16)]})
    act(choice, "roll", 0, dice=[1, 2])
    assert [s.phase for s in (rolling, buying, auction, debt, choice)] == [
        "roll",
        "buy",
        "auction",
        "debt",
        "choice",
    ]
    return [rolling, buying, auction, debt, choice]


def test_odd_parameters_are_refused_cleanly_or_accepted() -> None:
    """Every action with odd parameter values either applies or raises IllegalAction
    without touching the state; nothing else may escape.
    """
    for position in _positions():
        saved = position.to_json()
        state = GameState.from_json(saved)
        for kind in HANDLERS:
            for seat in (0, 1):
                for name in PARAMS_OF.get(kind, PARAMS):
                    for value in ODD_VALUES:
                        try:
                            apply_action(state, {"type": kind, "player": seat, name: value})
                        except IllegalAction:
                            assert state.to_json() == saved, (kind, seat, name, value)
                        else:
                            state = GameState.from_json(saved)
