"""Mortgages: the printed value, lifting with 10 % interest, and what a mortgage blocks.

000: "Der Hypothekenwert ist auf der Rückseite jeder Besitzrechtkarte aufgedruckt. Der
Zinssatz beträgt 10 % vom Hypothekenwert; er ist zahlbar, wenn die Hypothek
zurückgezahlt wird."
"""

from __future__ import annotations

import pytest

from bot.engine import Rules
from bot.engine.legal import legal_actions
from tests.engine.conftest import (
    BADSTRASSE,
    BROWN,
    ELEKTRIZITAETSWERK,
    PARKSTRASSE,
    SCHLOSSALLEE,
    SUEDBAHNHOF,
    TURMSTRASSE,
    WASSERWERK,
    act,
    cash,
    game,
    of_type,
    owned,
    payments,
    refuse,
)


@pytest.mark.parametrize(
    ("square", "value"),
    [
        (BADSTRASSE, 30),
        (SUEDBAHNHOF, 100),
        (ELEKTRIZITAETSWERK, 75),
        (PARKSTRASSE, 175),
        (SCHLOSSALLEE, 200),
    ],
)
def test_mortgage_pays_the_printed_value(square: int, value: int) -> None:
    state = game([{}, {}], lots=owned(0, square))
    events = act(state, "mortgage", 0, square=square)
    assert payments(events) == [(-1, 0, value, "mortgage")]
    assert of_type(events, "mortgaged") == [{"type": "mortgaged", "player": 0, "square": square}]
    assert state.mortgaged[square]
    assert state.owner[square] == 0
    assert cash(state) == [1500 + value, 1500]


@pytest.mark.parametrize(
    ("square", "cost"),
    [
        (BADSTRASSE, 33),
        (SUEDBAHNHOF, 110),
        (WASSERWERK, 83),
        (PARKSTRASSE, 193),
        (SCHLOSSALLEE, 220),
    ],
)
def test_lifting_costs_the_value_plus_ten_percent(square: int, cost: int) -> None:
    """Open question 2: 10 % of 75 and of 175 round up (7.5 -> 8, 17.5 -> 18)."""
    state = game([{}, {}], lots={square: {"owner": 0, "mortgaged": True}})
    events = act(state, "unmortgage", 0, square=square)
    assert payments(events) == [(0, -1, cost, "unmortgage")]
    assert not state.mortgaged[square]
    assert cash(state) == [1500 - cost, 1500]


@pytest.mark.parametrize(
    ("rounding", "wasserwerk", "parkstrasse"),
    [("up", 83, 193), ("down", 82, 192), ("half_even", 83, 193)],
)
def test_interest_rounding_setting(rounding: str, wasserwerk: int, parkstrasse: int) -> None:
    lots = {
        WASSERWERK: {"owner": 0, "mortgaged": True},
        PARKSTRASSE: {"owner": 0, "mortgaged": True},
    }
    state = game([{}, {}], lots=lots, rules={"interest_rounding": rounding})
    assert payments(act(state, "unmortgage", 0, square=WASSERWERK)) == [
        (0, -1, wasserwerk, "unmortgage")
    ]
    assert payments(act(state, "unmortgage", 0, square=PARKSTRASSE)) == [
        (0, -1, parkstrasse, "unmortgage")
    ]


@pytest.mark.parametrize(
    ("value", "up", "down", "half_even"),
    [(30, 3, 3, 3), (75, 8, 7, 8), (175, 18, 17, 18), (25, 3, 2, 2), (35, 4, 3, 4), (45, 5, 4, 4)],
)
def test_rules_interest(value: int, up: int, down: int, half_even: int) -> None:
    for rounding, expected in (("up", up), ("down", down), ("half_even", half_even)):
        rules = Rules.from_preset("classic", interest_rounding=rounding)
        assert rules.interest(value) == expected


def test_interest_percent_setting() -> None:
    assert Rules.from_preset("classic", interest_percent=0).interest(200) == 0
    assert Rules.from_preset("classic", interest_percent=20).interest(75) == 15


def test_mortgage_only_without_buildings_on_the_lot() -> None:
    """000: "Alle Gebäude auf einem Grundstück müssen an die Bank zurückverkauft werden,
    ehe dieses Grundstück hypothekarisch belastet werden darf."
    """
    state = game([{}, {}], lots=owned(0, *BROWN, houses=1))
    refuse(state, "mortgage", 0, "sell_buildings_first", square=TURMSTRASSE)
    act(state, "sell_building", 0, square=TURMSTRASSE)
    act(state, "mortgage", 0, square=TURMSTRASSE)
    assert state.mortgaged[TURMSTRASSE]


def test_bare_street_of_a_built_group_may_be_mortgaged() -> None:
    """Open question 13: 000 speaks of the lot's own buildings only."""
    state = game([{}, {}], lots={BADSTRASSE: {"owner": 0}, TURMSTRASSE: {"owner": 0, "houses": 1}})
    act(state, "mortgage", 0, square=BADSTRASSE)
    assert state.mortgaged[BADSTRASSE]


def test_setting_requires_the_whole_group_bare() -> None:
    """001/003 require the whole group bare (``mortgage_requires_bare_group``)."""
    state = game(
        [{}, {}],
        lots={BADSTRASSE: {"owner": 0}, TURMSTRASSE: {"owner": 0, "houses": 1}},
        rules={"mortgage_requires_bare_group": True},
    )
    refuse(state, "mortgage", 0, "sell_group_buildings_first", square=BADSTRASSE)


def test_mortgage_refusals() -> None:
    state = game(
        [{"cash": 10}, {}],
        lots={BADSTRASSE: {"owner": 0, "mortgaged": True}, TURMSTRASSE: {"owner": 1}},
    )
    refuse(state, "mortgage", 0, "already_mortgaged", square=BADSTRASSE)
    refuse(state, "mortgage", 0, "not_your_property", square=TURMSTRASSE)
    refuse(state, "mortgage", 0, "not_a_property", square=4)
    refuse(state, "unmortgage", 1, "not_mortgaged", square=TURMSTRASSE)
    error = refuse(state, "unmortgage", 0, "insufficient_funds", square=BADSTRASSE)
    assert error.params == {"needed": 33}


def test_nobody_else_can_lift_a_mortgage() -> None:
    """000: "Kein anderer Spieler kann sich ein solches Grundstück aneignen, indem er
    einfach die Hypothek bezahlt."
    """
    state = game([{}, {}], lots={BADSTRASSE: {"owner": 0, "mortgaged": True}})
    refuse(state, "unmortgage", 1, "not_your_property", square=BADSTRASSE)


def test_mortgaging_in_other_players_turns() -> None:
    state = game([{}, {}], lots=owned(1, BADSTRASSE))
    act(state, "mortgage", 1, square=BADSTRASSE)
    act(state, "unmortgage", 1, square=BADSTRASSE)
    assert cash(state) == [1500, 1497]


def test_lifting_is_refused_while_in_debt() -> None:
    state = game(
        [{"cash": 100, "position": 33}, {}],
        lots={
            **owned(1, PARKSTRASSE, SCHLOSSALLEE, houses=1),
            BADSTRASSE: {"owner": 0, "mortgaged": True},
        },
    )
    act(state, "roll", 0, dice=[1, 3])
    assert state.phase == "debt"
    refuse(state, "unmortgage", 0, "in_debt", square=BADSTRASSE)


def test_legal_actions_list_mortgaging_and_lifting() -> None:
    state = game(
        [{}, {}], lots={BADSTRASSE: {"owner": 0, "mortgaged": True}, TURMSTRASSE: {"owner": 0}}
    )
    actions = legal_actions(state, 0)
    assert {"type": "unmortgage", "player": 0, "square": BADSTRASSE} in actions
    assert {"type": "mortgage", "player": 0, "square": TURMSTRASSE} in actions
    assert {"type": "mortgage", "player": 0, "square": BADSTRASSE} not in actions
