"""Trades between players: cash, lots and jail cards; mortgaged lots change hands.

000: "Unbebaute Straßen, das Elektrizitäts- und das Wasserwerk sowie Bahnhöfe können
jederzeit unter den Spielern zu einem frei vereinbarten Preis gehandelt werden ... Es
kann jedoch keine Straße an einen anderen Spieler verkauft werden, wenn an irgendeiner
Straße dieser Farbgruppe Gebäude gebaut sind."
"""

from __future__ import annotations

from typing import Any

import pytest

from bot.engine import GameState, IllegalAction
from bot.engine.legal import legal_actions, waiting_for
from tests.engine.conftest import (
    BADSTRASSE,
    BROWN,
    ELEKTRIZITAETSWERK,
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


def propose(state: GameState, seat: int, to: int, give: Any = None, get: Any = None) -> int:
    """Propose a trade and return its id."""
    events = act(state, "propose_trade", seat, to=to, give=give or {}, get=get or {})
    return of_type(events, "trade_proposed")[0]["trade"]


# -- simple trades ---------------------------------------------------------------------------


def test_lot_for_cash() -> None:
    state = game([{}, {}], lots=owned(0, BADSTRASSE))
    trade = propose(state, 0, 1, give={"lots": [BADSTRASSE]}, get={"cash": 100})
    assert trade == 1
    assert state.trades[0]["give"] == {"cash": 0, "lots": [BADSTRASSE], "jail_cards": []}
    assert state.owner[BADSTRASSE] == 0  # nothing moves before the other side accepts
    assert {"type": "accept_trade", "player": 1, "trade": 1} in legal_actions(state, 1)
    events = act(state, "accept_trade", 1, trade=1)
    assert payments(events) == [(1, 0, 100, "trade")]
    assert of_type(events, "trade_done") == [{"type": "trade_done", "trade": 1, "from": 0, "to": 1}]
    assert state.owner[BADSTRASSE] == 1
    assert cash(state) == [1600, 1400]
    assert state.trades == []
    assert state.phase == "roll"


def test_lots_and_jail_cards_both_ways() -> None:
    state = game(
        [{"jail_cards": ["chance"]}, {"jail_cards": ["community"]}],
        lots={**owned(0, SUEDBAHNHOF), **owned(1, ELEKTRIZITAETSWERK, WASSERWERK)},
    )
    propose(
        state,
        0,
        1,
        give={"lots": [SUEDBAHNHOF], "jail_cards": ["chance"], "cash": 20},
        get={"lots": [ELEKTRIZITAETSWERK, WASSERWERK], "jail_cards": ["community"]},
    )
    act(state, "accept_trade", 1, trade=1)
    assert state.owner[SUEDBAHNHOF] == 1
    assert state.owner[ELEKTRIZITAETSWERK] == state.owner[WASSERWERK] == 0
    assert state.players[0].jail_cards == ["community"]
    assert state.players[1].jail_cards == ["chance"]
    assert cash(state) == [1480, 1520]


def test_trades_between_players_whose_turn_it_is_not() -> None:
    """000: "Handeln ist jederzeit erlaubt"."""
    state = game([{}, {}, {}], lots=owned(1, BADSTRASSE))
    propose(state, 1, 2, give={"lots": [BADSTRASSE]}, get={"cash": 70})
    act(state, "accept_trade", 2, trade=1)
    assert state.owner[BADSTRASSE] == 2
    assert state.current == 0


def test_trade_ids_count_up() -> None:
    state = game([{}, {}], lots=owned(0, BADSTRASSE, TURMSTRASSE))
    assert propose(state, 0, 1, give={"lots": [BADSTRASSE]}) == 1
    assert propose(state, 0, 1, give={"lots": [TURMSTRASSE]}) == 2
    assert [t["id"] for t in state.trades] == [1, 2]


# -- what may be traded ------------------------------------------------------------------------


def test_no_street_of_a_group_with_buildings() -> None:
    """000: "Diese Gebäude müssen erst an die Bank verkauft werden, ehe der Besitzer eine
    Straße aus dieser Farbgruppe verkaufen darf."
    """
    state = game([{}, {}], lots={BADSTRASSE: {"owner": 0}, TURMSTRASSE: {"owner": 0, "houses": 1}})
    refuse(state, "propose_trade", 0, "group_has_buildings", to=1, give={"lots": [BADSTRASSE]})
    refuse(state, "propose_trade", 0, "group_has_buildings", to=1, give={"lots": [TURMSTRASSE]})
    act(state, "sell_building", 0, square=TURMSTRASSE)
    propose(state, 0, 1, give={"lots": [BADSTRASSE]})


def test_only_what_one_holds() -> None:
    """000: "Den Spielern ist das Verleihen von Geld oder Besitzrechten untereinander nicht
    gestattet."
    """
    state = game([{"cash": 50}, {}], lots=owned(1, BADSTRASSE))
    refuse(state, "propose_trade", 0, "insufficient_funds", to=1, give={"cash": 51})
    refuse(state, "propose_trade", 0, "not_their_property", to=1, give={"lots": [BADSTRASSE]})
    refuse(state, "propose_trade", 0, "not_their_property", to=1, give={"lots": [TURMSTRASSE]})
    refuse(state, "propose_trade", 0, "not_their_property", to=1, give={"lots": [40]})
    refuse(state, "propose_trade", 0, "no_jail_card", to=1, give={"jail_cards": ["chance"]})
    refuse(state, "propose_trade", 0, "insufficient_funds", to=1, get={"cash": 1501})


@pytest.mark.parametrize(
    ("action", "code"),
    [
        ({"to": 0}, "bad_trade_partner"),
        ({"to": 2}, "bad_trade_partner"),
        ({"to": "1"}, "bad_trade_partner"),
        ({"to": 1}, "empty_trade"),
        ({"to": 1, "give": {"cash": 5}, "get": {"cash": 5}}, "cash_both_ways"),
        ({"to": 1, "give": {"cash": -5}}, "bad_amount"),
        ({"to": 1, "give": {"cash": "5"}}, "bad_amount"),
        ({"to": 1, "give": {"cash": True}}, "bad_amount"),
        ({"to": 1, "give": {"cash": 5.0}}, "bad_amount"),
        ({"to": 1, "give": {"money": 5}}, "bad_trade"),
        ({"to": 1, "give": [5]}, "bad_trade"),
        ({"to": 1, "give": {"lots": 1}}, "bad_trade"),
        ({"to": 1, "give": {"lots": [1, 1]}}, "bad_trade"),
        ({"to": 1, "give": {"lots": ["Badstraße"]}}, "bad_trade"),
        ({"to": 1, "give": {"jail_cards": ["joker"]}}, "bad_trade"),
    ],
)
def test_malformed_proposals(action: dict[str, Any], code: str) -> None:
    state = game([{}, {}], lots=owned(0, BADSTRASSE))
    refuse(state, "propose_trade", 0, code, **action)


@pytest.mark.parametrize(
    ("action", "code"),
    [
        ({"to": True, "give": {"cash": 5}}, "bad_trade_partner"),
        ({"to": 1, "give": {"lots": [True]}}, "bad_trade"),
    ],
)
def test_bools_are_not_seats_or_squares_in_trades(action: dict[str, Any], code: str) -> None:
    """Like ``"player": True`` (refused as ``unknown_player``), a bool is no seat or lot."""
    state = game([{}, {}], lots=owned(0, BADSTRASSE))
    refuse(state, "propose_trade", 0, code, **action)


# -- answering a proposal ------------------------------------------------------------------------


def test_only_the_addressee_accepts() -> None:
    state = game([{}, {}, {}], lots=owned(0, BADSTRASSE))
    propose(state, 0, 1, give={"lots": [BADSTRASSE]})
    refuse(state, "accept_trade", 0, "not_your_trade", trade=1)
    refuse(state, "accept_trade", 2, "not_your_trade", trade=1)
    refuse(state, "decline_trade", 2, "not_your_trade", trade=1)


def test_declining_and_cancelling() -> None:
    state = game([{}, {}], lots=owned(0, BADSTRASSE, TURMSTRASSE))
    propose(state, 0, 1, give={"lots": [BADSTRASSE]})
    propose(state, 0, 1, give={"lots": [TURMSTRASSE]})
    events = act(state, "decline_trade", 1, trade=1)
    assert of_type(events, "trade_declined") == [
        {"type": "trade_declined", "trade": 1, "player": 1}
    ]
    events = act(state, "decline_trade", 0, trade=2)
    assert of_type(events, "trade_cancelled") == [
        {"type": "trade_cancelled", "trade": 2, "player": 0}
    ]
    assert state.trades == []
    refuse(state, "accept_trade", 1, "no_such_trade", trade=1)
    assert state.owner[BADSTRASSE] == 0


def test_a_trade_is_done_only_once() -> None:
    state = game([{}, {}], lots=owned(0, BADSTRASSE))
    propose(state, 0, 1, give={"lots": [BADSTRASSE]}, get={"cash": 10})
    act(state, "accept_trade", 1, trade=1)
    refuse(state, "accept_trade", 1, "no_such_trade", trade=1)
    refuse(state, "decline_trade", 1, "no_such_trade", trade=1)


def test_stale_trade_lot_no_longer_held() -> None:
    state = game([{}, {}, {}], lots=owned(0, BADSTRASSE))
    propose(state, 0, 1, give={"lots": [BADSTRASSE]}, get={"cash": 100})
    propose(state, 0, 2, give={"lots": [BADSTRASSE]}, get={"cash": 90})
    act(state, "accept_trade", 2, trade=2)
    refuse(state, "accept_trade", 1, "not_their_property", trade=1)
    assert {"type": "accept_trade", "player": 1, "trade": 1} not in legal_actions(state, 1)
    assert {"type": "decline_trade", "player": 1, "trade": 1} in legal_actions(state, 1)


def test_stale_trade_cash_spent() -> None:
    state = game([{"cash": 150}, {}], lots=owned(1, BADSTRASSE))
    propose(state, 0, 1, give={"cash": 100}, get={"lots": [BADSTRASSE]})
    act(state, "roll", 0, dice=[1, 2])
    act(state, "buy", 0)  # Turmstraße for 60 leaves 90
    error = refuse(state, "accept_trade", 1, "insufficient_funds", trade=1)
    assert error.params == {"needed": 100, "player": 0}


def test_stale_trade_group_built_since() -> None:
    state = game([{}, {}], lots={**owned(0, *BROWN), **owned(1, SUEDBAHNHOF)})
    propose(state, 0, 1, give={"lots": [BADSTRASSE]}, get={"lots": [SUEDBAHNHOF]})
    act(state, "build", 0, square=TURMSTRASSE)
    refuse(state, "accept_trade", 1, "group_has_buildings", trade=1)


def test_no_trading_during_an_auction() -> None:
    state = game([{}, {}], lots=owned(1, SCHLOSSALLEE))
    act(state, "roll", 0, dice=[1, 2])
    propose(state, 1, 0, give={"lots": [SCHLOSSALLEE]}, get={"cash": 300})
    act(state, "decline", 0)
    refuse(state, "propose_trade", 1, "wrong_phase", to=0, give={"cash": 1})
    refuse(state, "accept_trade", 0, "wrong_phase", trade=1)


# -- mortgaged lots ------------------------------------------------------------------------------


def mortgaged_deal(receiver_cash: int = 1500) -> GameState:
    """Player 0 has sold the mortgaged Wasserwerk (value 75) to player 1 for 50."""
    state = game([{}, {"cash": receiver_cash}], lots={WASSERWERK: {"owner": 0, "mortgaged": True}})
    propose(state, 0, 1, give={"lots": [WASSERWERK]}, get={"cash": 50})
    act(state, "accept_trade", 1, trade=1)
    return state


def test_receiving_a_mortgaged_lot_asks_to_lift_or_pay_interest() -> None:
    """000: "Wenn ein Besitztum übertragen wird, das hypothekarisch belastet ist, kann der
    neue Inhaber die Hypothek sofort zurückzahlen. Er muss in diesem Falle außer der
    Hypothek auch die nun fälligen 10 % Zinsen bezahlen. Kündigt er bei Erhalt der
    Besitzrechtkarten die Hypothek nicht, muss er trotzdem die fälligen 10 % Zinsen
    bezahlen."
    """
    state = mortgaged_deal()
    assert state.owner[WASSERWERK] == 1
    assert state.mortgaged[WASSERWERK]
    assert state.phase == "mortgage_choice"
    assert waiting_for(state) == [1]
    choices = [a for a in legal_actions(state, 1) if a["type"] == "decide_mortgages"]
    assert choices == [
        {"type": "decide_mortgages", "player": 1, "lift": []},
        {"type": "decide_mortgages", "player": 1, "lift": [WASSERWERK]},
    ]
    refuse(state, "roll", 0, "wrong_phase")


def test_keeping_the_mortgage_pays_ten_percent_now_and_again_when_lifted() -> None:
    """000: "Hebt er die Hypothek später auf, zahlt er weitere 10 % zusätzlich zur
    Hypothekensumme." (10 % of 75 = 7.5, rounded up to 8)
    """
    state = mortgaged_deal()
    events = act(state, "decide_mortgages", 1, lift=[])
    assert payments(events) == [(1, -1, 8, "transfer_interest")]
    assert state.mortgaged[WASSERWERK]
    assert state.phase == "roll"
    events = act(state, "unmortgage", 1, square=WASSERWERK)
    assert payments(events) == [(1, -1, 83, "unmortgage")]
    assert cash(state) == [1550, 1500 - 50 - 8 - 83]


def test_lifting_at_once_costs_value_and_ten_percent_only_once() -> None:
    state = mortgaged_deal()
    events = act(state, "decide_mortgages", 1, lift=[WASSERWERK])
    assert payments(events) == [(1, -1, 83, "unmortgage")]
    assert not state.mortgaged[WASSERWERK]
    assert cash(state) == [1550, 1500 - 50 - 83]


def test_lifting_at_once_needs_the_cash() -> None:
    state = mortgaged_deal(receiver_cash=100)
    refuse(state, "decide_mortgages", 1, "insufficient_funds", lift=[WASSERWERK])
    refuse(state, "decide_mortgages", 1, "bad_square", lift=[BADSTRASSE])
    refuse(state, "decide_mortgages", 1, "bad_square", lift=WASSERWERK)
    refuse(state, "decide_mortgages", 0, "no_mortgage_choice", lift=[])
    act(state, "decide_mortgages", 1, lift=[])
    assert cash(state) == [1550, 42]


def test_the_interest_must_be_affordable_to_accept() -> None:
    state = game([{}, {"cash": 7}], lots={WASSERWERK: {"owner": 0, "mortgaged": True}})
    refuse(state, "propose_trade", 0, "cannot_pay_interest", to=1, give={"lots": [WASSERWERK]})
    propose(state, 0, 1, give={"lots": [WASSERWERK], "cash": 1})
    act(state, "accept_trade", 1, trade=1)
    act(state, "decide_mortgages", 1, lift=[])
    assert cash(state) == [1499, 0]


def test_mortgaged_lots_both_ways_ask_each_receiver_in_turn() -> None:
    state = game(
        [{}, {}],
        lots={
            WASSERWERK: {"owner": 0, "mortgaged": True},
            SCHLOSSALLEE: {"owner": 1, "mortgaged": True},
        },
    )
    propose(state, 0, 1, give={"lots": [WASSERWERK]}, get={"lots": [SCHLOSSALLEE]})
    act(state, "accept_trade", 1, trade=1)
    assert waiting_for(state) == [1]
    act(state, "decide_mortgages", 1, lift=[])
    assert waiting_for(state) == [0]
    events = act(state, "decide_mortgages", 0, lift=[SCHLOSSALLEE])
    assert payments(events) == [(0, -1, 220, "unmortgage")]
    assert cash(state) == [1280, 1492]
    assert state.phase == "roll"


def test_several_mortgaged_lots_lift_some_keep_others() -> None:
    state = game(
        [{}, {}],
        lots={
            BADSTRASSE: {"owner": 0, "mortgaged": True},
            TURMSTRASSE: {"owner": 0, "mortgaged": True},
        },
    )
    propose(state, 0, 1, give={"lots": [BADSTRASSE, TURMSTRASSE]})
    act(state, "accept_trade", 1, trade=1)
    events = act(state, "decide_mortgages", 1, lift=[TURMSTRASSE])
    assert sorted(payments(events)) == [(1, -1, 3, "transfer_interest"), (1, -1, 33, "unmortgage")]
    assert state.mortgaged[BADSTRASSE] and not state.mortgaged[TURMSTRASSE]


def test_lifting_one_received_lot_and_keeping_another_never_leaves_cash_below_zero() -> None:
    state = game(
        [{}, {"cash": 85}],
        lots={
            BADSTRASSE: {"owner": 0, "mortgaged": True},
            WASSERWERK: {"owner": 0, "mortgaged": True},
        },
    )
    propose(state, 0, 1, give={"lots": [BADSTRASSE, WASSERWERK]})
    act(state, "accept_trade", 1, trade=1)
    # Lifting Wasserwerk costs 83 <= 85, but keeping Badstraße costs 3 more.
    try:
        act(state, "decide_mortgages", 1, lift=[WASSERWERK])
    except IllegalAction:
        return  # refusing the choice is a correct answer too
    assert min(cash(state)) >= 0
