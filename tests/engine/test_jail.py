"""Jail: getting in, getting out, and what a prisoner may still do.

000: "Man kommt aus dem Gefängnis frei, wenn man im nächsten oder übernächsten Zug:
eine Geldbuße von € 50 zahlt, bevor man würfelt, - oder einen Pasch würfelt. Man zieht
sofort um die Summe der Würfelaugen weiter. Noch einmal würfeln darf man dann
allerdings nicht, - oder die Karte 'Du kommst aus dem Gefängnis frei' benutzt".
"""

from __future__ import annotations

from typing import Any

from bot.engine import GameState
from bot.engine.legal import legal_actions
from tests.engine.conftest import (
    BROWN,
    JAIL,
    MUENCHNER_STRASSE,
    SEESTRASSE,
    TURMSTRASSE,
    act,
    cash,
    game,
    of_type,
    owned,
    payments,
    refuse,
)


def jailed(turns: int = 0, cash_: int = 1500, **extra: Any) -> GameState:
    """Player 0 sits in jail at the start of a turn, after ``turns`` failed attempts."""
    player = {"position": JAIL, "in_jail": True, "jail_turns": turns, "cash": cash_}
    player.update(extra.pop("player", {}))
    return game([player, {}], **extra)


def test_go_to_jail_square() -> None:
    """000: "Man landet im Gefängnis, wenn man auf das Feld 'Gehe in das Gefängnis'
    kommt"."""
    state = game([{"position": 27}, {}])
    act(state, "roll", 0, dice=[1, 2])
    player = state.players[0]
    assert (player.position, player.in_jail, player.jail_turns) == (JAIL, True, 0)
    assert state.phase == "end"


def test_three_doubles_then_bail_in_the_next_turn() -> None:
    state = game([{"position": 10}, {"position": 17}], lots=owned(0, 12, 16))
    act(state, "roll", 0, dice=[1, 1])
    act(state, "roll", 0, dice=[2, 2])
    act(state, "roll", 0, dice=[3, 3])
    assert state.players[0].in_jail
    refuse(state, "pay_bail", 0, "wrong_phase")
    act(state, "end_turn", 0)
    act(state, "roll", 1, dice=[1, 2])
    act(state, "end_turn", 1)
    events = act(state, "pay_bail", 0)
    assert payments(events) == [(0, -1, 50, "bail")]
    assert not state.players[0].in_jail


def test_no_bail_in_the_turn_of_going_to_jail() -> None:
    """The fine is paid "im nächsten oder übernächsten Zug", not in the jailing turn."""
    state = game([{"position": 27}, {}])
    act(state, "roll", 0, dice=[1, 2])
    refuse(state, "pay_bail", 0, "wrong_phase")


def test_pay_bail_before_throwing_in_the_next_turn() -> None:
    state = jailed(turns=0)
    events = act(state, "pay_bail", 0)
    assert payments(events) == [(0, -1, 50, "bail")]
    assert of_type(events, "left_jail")[0]["how"] == "bail"
    assert not state.players[0].in_jail
    assert state.phase == "roll"
    act(state, "roll", 0, dice=[2, 4])
    assert state.players[0].position == MUENCHNER_STRASSE
    assert cash(state) == [1450, 1500]


def test_pay_bail_in_the_second_next_turn() -> None:
    state = jailed(turns=1)
    act(state, "pay_bail", 0)
    assert not state.players[0].in_jail


def test_no_bail_before_the_third_throw() -> None:
    """Only "im nächsten oder übernächsten Zug"; the third turn must throw."""
    state = jailed(turns=2)
    refuse(state, "pay_bail", 0, "must_roll_in_jail")
    assert {"type": "pay_bail", "player": 0} not in legal_actions(state, 0)


def test_no_bail_after_a_failed_throw_in_the_same_turn() -> None:
    """Open question 12: the fine is paid "bevor man würfelt" (classic)."""
    state = jailed(turns=0)
    act(state, "roll", 0, dice=[1, 2])
    assert state.phase == "end"
    refuse(state, "pay_bail", 0, "wrong_phase")


def test_setting_allows_bail_after_a_failed_throw() -> None:
    state = jailed(turns=0, rules={"jail_pay_after_failed_roll": True})
    act(state, "roll", 0, dice=[1, 2])
    events = act(state, "pay_bail", 0)
    assert payments(events) == [(0, -1, 50, "bail")]
    assert not state.players[0].in_jail
    assert state.players[0].position == JAIL
    assert state.phase == "end"


def test_bail_needs_the_cash() -> None:
    state = jailed(turns=0, cash_=49)
    refuse(state, "pay_bail", 0, "insufficient_funds")


def test_only_prisoners_pay_bail_and_only_in_their_turn() -> None:
    state = jailed(turns=0)
    refuse(state, "pay_bail", 1, "not_in_jail")
    state = game([{}, {"position": JAIL, "in_jail": True}])
    refuse(state, "pay_bail", 1, "not_your_turn")


def test_failed_throw_stays_in_jail() -> None:
    state = jailed(turns=0)
    events = act(state, "roll", 0, dice=[1, 2])
    player = state.players[0]
    assert (player.position, player.in_jail, player.jail_turns) == (JAIL, True, 1)
    assert of_type(events, "jail_stay")[0]["attempts"] == 1
    assert payments(events) == []
    assert state.phase == "end"


def test_doubles_leave_jail_and_move_without_another_throw() -> None:
    """000: "einen Pasch würfelt. Man zieht sofort um die Summe der Würfelaugen weiter.
    Noch einmal würfeln darf man dann allerdings nicht"."""
    state = jailed(turns=1, lots=owned(1, MUENCHNER_STRASSE))
    events = act(state, "roll", 0, dice=[3, 3])
    player = state.players[0]
    assert not player.in_jail
    assert player.position == MUENCHNER_STRASSE
    assert of_type(events, "left_jail")[0]["how"] == "doubles"
    assert payments(events) == [(0, 1, 14, "rent")]
    assert state.phase == "end"
    refuse(state, "roll", 0, "wrong_phase")


def test_doubles_on_the_third_throw_cost_no_fine() -> None:
    """The fine is due only if "der Spieler mit dem dritten Wurf noch keinen Pasch" has."""
    state = jailed(turns=2, lots=owned(0, SEESTRASSE))
    events = act(state, "roll", 0, dice=[2, 2])
    assert not state.players[0].in_jail
    assert payments(events) == []
    assert state.players[0].position == 14
    assert state.phase == "buy"


def test_third_failed_throw_pays_the_fine_and_moves_by_that_throw() -> None:
    """000: "Hat der Spieler mit dem dritten Wurf noch keinen Pasch, muss er € 50
    Geldbuße zahlen und zieht dann sofort mit der Summe der Augen seines dritten Wurfes
    weiter."
    """
    state = jailed(turns=2, lots=owned(1, MUENCHNER_STRASSE))
    events = act(state, "roll", 0, dice=[2, 4])
    assert of_type(events, "left_jail")[0]["how"] == "fine"
    assert payments(events) == [(0, -1, 50, "jail_fine"), (0, 1, 14, "rent")]
    assert state.players[0].position == MUENCHNER_STRASSE
    assert not state.players[0].in_jail
    assert cash(state) == [1436, 1514]
    assert state.phase == "end"


def test_three_failed_turns_in_a_row() -> None:
    state = jailed(turns=0, lots=owned(1, 23))
    state.players[1].position = 17
    for attempt in (1, 2):
        act(state, "roll", 0, dice=[1, 2])
        assert state.players[0].jail_turns == attempt
        assert state.players[0].in_jail
        act(state, "end_turn", 0)
        act(state, "roll", 1, dice=[1, 2])  # Frei Parken, then its own Museumstraße
        act(state, "end_turn", 1)
    events = act(state, "roll", 0, dice=[1, 2])
    assert of_type(events, "left_jail")[0]["how"] == "fine"
    assert state.players[0].position == 13
    assert cash(state) == [1450, 1500]
    assert state.phase == "buy"


def test_third_failed_throw_without_the_cash_moves_after_the_debt_is_paid() -> None:
    state = jailed(turns=2, cash_=20, lots=owned(0, TURMSTRASSE))
    act(state, "roll", 0, dice=[1, 2])
    assert state.phase == "debt"
    assert state.debts == [{"debtor": 0, "creditor": -1, "amount": 50, "reason": "jail_fine"}]
    assert state.players[0].position == JAIL
    assert not state.players[0].in_jail
    events = act(state, "mortgage", 0, square=TURMSTRASSE)
    assert payments(events) == [(-1, 0, 30, "mortgage"), (0, -1, 50, "jail_fine")]
    assert state.players[0].position == 13
    assert state.phase == "buy"


def test_jail_card_frees_before_throwing() -> None:
    state = jailed(turns=1, player={"jail_cards": ["community"]})
    assert 5 not in state.decks["community"]
    events = act(state, "use_jail_card", 0, deck="community")
    assert of_type(events, "left_jail")[0]["how"] == "card"
    assert payments(events) == []
    assert state.players[0].jail_cards == []
    assert state.decks["community"][-1] == 5
    assert state.phase == "roll"
    act(state, "roll", 0, dice=[2, 4])
    assert state.players[0].position == MUENCHNER_STRASSE


def test_jail_card_without_naming_the_deck() -> None:
    state = jailed(player={"jail_cards": ["chance"]})
    act(state, "use_jail_card", 0)
    assert state.decks["chance"][-1] == 8


def test_jail_card_refusals() -> None:
    state = jailed(player={"jail_cards": ["chance"]})
    refuse(state, "use_jail_card", 0, "no_jail_card", deck="community")
    refuse(state, "use_jail_card", 1, "not_your_turn", deck="chance")
    act(state, "roll", 0, dice=[1, 2])
    refuse(state, "use_jail_card", 0, "wrong_phase", deck="chance")
    state = game([{"jail_cards": ["chance"]}, {}])
    refuse(state, "use_jail_card", 0, "not_in_jail", deck="chance")


def test_legal_actions_in_jail() -> None:
    state = jailed(turns=0, player={"jail_cards": ["chance"]})
    kinds = {a["type"] for a in legal_actions(state, 0)}
    assert {"roll", "pay_bail", "use_jail_card"} <= kinds


# -- what a prisoner may still do ------------------------------------------------------------

PRISONER: dict[str, Any] = {"position": JAIL, "in_jail": True, "jail_turns": 1}


def test_prisoner_collects_rent() -> None:
    """000: "Ein Spieler, der im Gefängnis sitzt, kann Miete kassieren ..."."""
    state = game([{}, PRISONER], lots=owned(1, TURMSTRASSE))
    events = act(state, "roll", 0, dice=[1, 2])
    assert payments(events) == [(0, 1, 4, "rent")]


def test_prisoner_builds_and_sells() -> None:
    """000: "... und Grundstücke erwerben und verkaufen, sowie Häuser und/oder Hotels
    bauen."
    """
    state = game([{}, PRISONER], lots=owned(1, *BROWN))
    act(state, "build", 1, square=TURMSTRASSE)
    assert state.houses[TURMSTRASSE] == 1
    act(state, "sell_building", 1, square=TURMSTRASSE)
    assert state.houses[TURMSTRASSE] == 0
    assert cash(state) == [1500, 1475]


def test_prisoner_trades() -> None:
    state = game([{}, PRISONER], lots=owned(1, TURMSTRASSE))
    act(state, "propose_trade", 1, to=0, give={"lots": [TURMSTRASSE]}, get={"cash": 100})
    act(state, "accept_trade", 0, trade=1)
    assert state.owner[TURMSTRASSE] == 0
    assert cash(state) == [1400, 1600]


def test_prisoner_bids_in_auctions() -> None:
    state = game([{}, PRISONER])
    act(state, "roll", 0, dice=[1, 2])
    act(state, "decline", 0)
    act(state, "bid", 1, amount=10)
    act(state, "auction_pass", 0)
    assert state.owner[TURMSTRASSE] == 1
    assert cash(state) == [1500, 1490]
