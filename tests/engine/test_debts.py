"""Debts, raising money, part payment in lots, bankruptcy and the end of the game.

000: "Ein Spieler, der die Zahlungen einstellt, d.h. einer, der mehr schuldet als er
bezahlen kann, muss dem Gläubiger alles, was er an Werten hat, übergeben und darf nicht
mehr weiterspielen."
"""

from __future__ import annotations

from typing import Any

import pytest

from bot.engine import GameState, IllegalAction
from bot.engine.legal import legal_actions, waiting_for
from tests.engine.conftest import (
    BADSTRASSE,
    BROWN,
    DARK_BLUE,
    MUSEUMSTRASSE,
    PARKSTRASSE,
    SCHLOSSALLEE,
    THEATERSTRASSE,
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

RENT_175 = owned(1, *DARK_BLUE, houses=1)  # Parkstraße with a house: 175


def in_debt(
    cash_: int = 100, players: int = 2, lots: dict | None = None, **extra: Any
) -> GameState:
    """Player 0 (``cash_``) has thrown onto player 1's Parkstraße with a house (175)."""
    people = [{"cash": cash_, "position": 33}, *({} for _ in range(players - 1))]
    people[0].update(extra.pop("player", {}))
    state = game(people, lots={**RENT_175, **(lots or {})}, **extra)
    act(state, "roll", 0, dice=[1, 3])
    assert state.phase == "debt"
    return state


# -- the debt phase ------------------------------------------------------------------------------


def test_a_payment_above_cash_becomes_a_debt() -> None:
    state = in_debt(lots=owned(0, THEATERSTRASSE))
    assert state.debts == [{"debtor": 0, "creditor": 1, "amount": 175, "reason": "rent"}]
    assert cash(state) == [100, 1500]
    assert waiting_for(state) == [0]
    refuse(state, "end_turn", 0, "wrong_phase")
    refuse(state, "roll", 0, "wrong_phase")
    kinds = {a["type"] for a in legal_actions(state, 0)}
    assert "mortgage" in kinds
    assert "declare_bankruptcy" not in kinds
    assert "end_turn" not in kinds


def test_raising_the_money_settles_the_debt_by_itself() -> None:
    state = in_debt(lots=owned(0, THEATERSTRASSE, MUSEUMSTRASSE))
    events = act(state, "mortgage", 0, square=THEATERSTRASSE)
    assert payments(events) == [(-1, 0, 110, "mortgage"), (0, 1, 175, "rent")]
    assert of_type(events, "debt_paid") == [
        {"type": "debt_paid", "debtor": 0, "creditor": 1, "amount": 175}
    ]
    assert state.debts == []
    assert cash(state) == [35, 1675]
    assert state.phase == "end"


def test_raising_money_step_by_step() -> None:
    state = in_debt(cash_=0, lots={**owned(0, *BROWN, houses=1)})
    act(state, "sell_building", 0, square=BADSTRASSE)
    act(state, "sell_building", 0, square=TURMSTRASSE)
    assert cash(state)[0] == 50
    assert state.phase == "debt"
    act(state, "mortgage", 0, square=BADSTRASSE)
    act(state, "mortgage", 0, square=TURMSTRASSE)
    assert cash(state)[0] == 110
    assert state.phase == "debt"
    assert state.debts[0]["amount"] == 175


def test_raising_money_by_a_trade() -> None:
    state = in_debt(players=3, lots=owned(0, THEATERSTRASSE))
    act(state, "propose_trade", 0, to=2, give={"lots": [THEATERSTRASSE]}, get={"cash": 200})
    act(state, "accept_trade", 2, trade=1)
    assert state.debts == []
    assert cash(state) == [125, 1675, 1300]


def test_the_debtor_may_not_build_or_lift_mortgages() -> None:
    state = in_debt(lots={**owned(0, *BROWN), WASSERWERK: {"owner": 0, "mortgaged": True}})
    refuse(state, "build", 0, "in_debt", square=BADSTRASSE)
    refuse(state, "unmortgage", 0, "in_debt", square=WASSERWERK)


def test_debts_to_several_players_are_paid_in_order() -> None:
    state = game(
        [{"position": 19, "cash": 60}, {}, {}],
        lots=owned(0, THEATERSTRASSE),
        decks={"chance": [12, *range(1, 12), *range(13, 17)]},
    )
    act(state, "roll", 0, dice=[1, 2])  # "Zahle jedem Spieler 50 €"
    assert state.debts == [{"debtor": 0, "creditor": 2, "amount": 50, "reason": "card"}]
    events = act(state, "mortgage", 0, square=THEATERSTRASSE)
    assert payments(events) == [(-1, 0, 110, "mortgage"), (0, 2, 50, "card")]
    assert cash(state) == [70, 1550, 1550]


def test_a_debt_of_another_player_holds_up_the_turn() -> None:
    state = game(
        [{"position": 14}, {"cash": 5}],
        lots=owned(1, BADSTRASSE),
        decks={"community": [13, *range(1, 13), 14, 15, 16]},
    )
    act(state, "roll", 0, dice=[1, 2])  # birthday: 10 from player 1
    assert state.phase == "debt"
    assert waiting_for(state) == [1]
    refuse(state, "end_turn", 0, "wrong_phase")
    act(state, "mortgage", 1, square=BADSTRASSE)
    assert cash(state) == [1510, 25]
    assert state.phase == "end"


def test_a_debtor_cannot_give_cash_away_to_a_third_player() -> None:
    """000: a bankrupt "muss dem Gläubiger alles, was er an Werten hat, übergeben"; and
    "Den Spielern ist das Verleihen von Geld ... untereinander nicht gestattet."
    Paying a third player first would take those values from the creditor.
    """
    state = in_debt(cash_=100, players=3)
    with pytest.raises(IllegalAction):
        act(state, "propose_trade", 0, to=2, give={"cash": 100})


# -- part payment in lots -------------------------------------------------------------------------


def test_part_payment_in_lots_accepted() -> None:
    """000 (Tipps): "MUSS ein Spieler mehr Miete zahlen, als er Bargeld besitzt, so kann er
    anbieten, einen Teil in bar zu bezahlen und einen Teil in Grundstücken ... Der Spieler,
    dem er die Summe schuldet, kann wählen, ob er das akzeptiert."
    """
    state = in_debt(lots=owned(0, THEATERSTRASSE))
    events = act(state, "offer_lots", 0, lots=[THEATERSTRASSE], value=150)
    assert of_type(events, "lots_offered") == [
        {"type": "lots_offered", "debtor": 0, "creditor": 1, "lots": [THEATERSTRASSE], "value": 150}
    ]
    assert waiting_for(state) == [1]
    assert {"type": "accept_lots", "player": 1} in legal_actions(state, 1)
    events = act(state, "accept_lots", 1)
    assert state.owner[THEATERSTRASSE] == 1
    assert payments(events) == [(0, 1, 25, "rent")]
    assert state.debts == []
    assert state.lot_offer is None
    assert cash(state) == [75, 1525]
    assert state.phase == "end"


def test_part_payment_covering_the_whole_debt() -> None:
    state = in_debt(cash_=0, lots=owned(0, THEATERSTRASSE))
    events = act(state, "offer_lots", 0, lots=[THEATERSTRASSE], value=175)
    events = act(state, "accept_lots", 1)
    assert payments(events) == []
    assert state.debts == []
    assert cash(state) == [0, 1500]


def test_part_payment_declined_by_the_creditor_or_withdrawn() -> None:
    state = in_debt(lots=owned(0, THEATERSTRASSE, MUSEUMSTRASSE))
    act(state, "offer_lots", 0, lots=[THEATERSTRASSE], value=150)
    refuse(state, "offer_lots", 0, "offer_pending", lots=[MUSEUMSTRASSE], value=100)
    events = act(state, "decline_lots", 1)
    assert of_type(events, "lots_declined") == [{"type": "lots_declined", "player": 1}]
    assert state.owner[THEATERSTRASSE] == 0
    assert waiting_for(state) == [0]
    act(state, "offer_lots", 0, lots=[MUSEUMSTRASSE], value=100)
    act(state, "decline_lots", 0)
    assert state.lot_offer is None
    refuse(state, "accept_lots", 1, "no_offer")
    refuse(state, "decline_lots", 1, "no_offer")


@pytest.mark.parametrize(
    ("lots", "value", "code"),
    [
        ([THEATERSTRASSE], 0, "bad_offer_value"),
        ([THEATERSTRASSE], 176, "bad_offer_value"),
        ([THEATERSTRASSE], "100", "bad_offer_value"),
        ([THEATERSTRASSE], True, "bad_offer_value"),
        ([], 100, "bad_trade"),
        ("Theaterstraße", 100, "bad_trade"),
        ([SCHLOSSALLEE], 100, "not_their_property"),
        ([BADSTRASSE], 100, "group_has_buildings"),
    ],
)
def test_bad_lot_offers(lots: Any, value: Any, code: str) -> None:
    state = in_debt(lots={**owned(0, THEATERSTRASSE), **owned(0, *BROWN, houses=1)})
    refuse(state, "offer_lots", 0, code, lots=lots, value=value)


def test_lot_offers_only_by_a_debtor_to_a_player() -> None:
    state = in_debt(lots=owned(0, THEATERSTRASSE))
    refuse(state, "offer_lots", 1, "not_in_debt", lots=[PARKSTRASSE], value=10)
    refuse(state, "accept_lots", 1, "no_offer")
    state = game([{"cash": 50, "position": 36}, {}], lots=owned(0, THEATERSTRASSE))
    act(state, "roll", 0, dice=[1, 1])  # Zusatzsteuer 100
    assert state.debts[0]["creditor"] == -1
    refuse(state, "offer_lots", 0, "creditor_is_bank", lots=[THEATERSTRASSE], value=50)


def test_setting_without_part_payment() -> None:
    state = in_debt(lots=owned(0, THEATERSTRASSE), rules={"part_payment_in_lots": False})
    refuse(state, "offer_lots", 0, "part_payment_off", lots=[THEATERSTRASSE], value=50)


def test_a_mortgaged_lot_taken_as_part_payment_asks_the_creditor_to_lift_or_pay() -> None:
    """Open question 17: a mortgaged lot taken this way carries the 10 % as any transfer."""
    state = in_debt(lots={WASSERWERK: {"owner": 0, "mortgaged": True}})
    act(state, "offer_lots", 0, lots=[WASSERWERK], value=100)
    events = act(state, "accept_lots", 1)
    assert payments(events) == [(0, 1, 75, "rent")]
    assert state.phase == "mortgage_choice"
    assert waiting_for(state) == [1]
    events = act(state, "decide_mortgages", 1, lift=[])
    assert payments(events) == [(1, -1, 8, "transfer_interest")]
    assert cash(state) == [25, 1567]


def test_a_lot_offer_lapses_when_the_debt_is_paid_otherwise() -> None:
    state = in_debt(lots=owned(0, THEATERSTRASSE, MUSEUMSTRASSE))
    act(state, "offer_lots", 0, lots=[THEATERSTRASSE], value=50)
    act(state, "mortgage", 0, square=MUSEUMSTRASSE)  # 110 more: the debt is paid in cash
    assert state.debts == []
    assert {"type": "accept_lots", "player": 1} not in legal_actions(state, 1)
    refuse(state, "accept_lots", 1, "no_offer")


# -- bankruptcy ----------------------------------------------------------------------------------


def test_no_bankruptcy_while_the_assets_cover_the_debt() -> None:
    """Only "einer, der mehr schuldet als er bezahlen kann" is bankrupt."""
    state = in_debt(lots=owned(0, THEATERSTRASSE))  # 100 cash + 110 mortgage >= 175
    error = refuse(state, "declare_bankruptcy", 0, "can_still_pay")
    assert error.params == {"value": 210}
    refuse(state, "declare_bankruptcy", 1, "not_in_debt")


def test_bankruptcy_when_buildings_cannot_be_sold_for_want_of_houses() -> None:
    """Hotels cannot be sold without 4 houses in the bank; nothing else can be raised."""
    state = in_debt(
        cash_=0, players=3, lots=owned(0, *BROWN, hotel=True), bank={"houses": 0, "hotels": 8}
    )
    assert {"type": "declare_bankruptcy", "player": 0} in legal_actions(state, 0)
    events = act(state, "declare_bankruptcy", 0)
    assert state.players[0].bankrupt
    # Open question 16: a hotel counts as 5 houses, each at half its price (2 x 5 x 25).
    assert payments(events) == [(-1, 1, 250, "bankruptcy_buildings")]
    assert (state.bank_houses, state.bank_hotels) == (0, 10)


def bankrupt_to_player() -> tuple[GameState, list[dict[str, Any]]]:
    """Player 0 owes player 1 175 with 0 cash, 4 houses (100 at half) and 60 in mortgages."""
    state = in_debt(
        cash_=0,
        players=3,
        lots={
            **owned(0, *BROWN, houses=2),
            WASSERWERK: {"owner": 0, "mortgaged": True},
            THEATERSTRASSE: {"owner": 0, "mortgaged": True},
        },
        player={"jail_cards": ["chance"]},
    )
    assert state.bank_houses == 32 - 4 - 2
    events = act(state, "declare_bankruptcy", 0)
    return state, events


def test_bankruptcy_to_a_player_hands_over_everything() -> None:
    """000: "Häuser und Hotels müssen auch in diesem Fall zum halben Wert an die Bank
    verkauft werden, die das Geld an den Gläubiger zahlt. Wenn ein zahlungsunfähiger
    Spieler ein hypothekarisch belastetes Besitztum übergibt, muss der neue Besitzer
    sofort 10 % Zinsen an die Bank zahlen, - er kann gleichzeitig die Hypothek
    zurückzahlen."
    """
    state, events = bankrupt_to_player()
    assert of_type(events, "bankrupt")[0]["creditor"] == 1
    assert state.players[0].bankrupt
    assert payments(events) == [(-1, 1, 100, "bankruptcy_buildings")]
    for square in (*BROWN, WASSERWERK, THEATERSTRASSE):
        assert state.owner[square] == 1
    assert [state.houses[i] for i in BROWN] == [0, 0]
    assert state.bank_houses == 32 - 2  # only player 1's dark blue houses remain built
    assert state.players[1].jail_cards == ["chance"]
    assert state.players[0].jail_cards == []
    assert state.debts == []
    assert state.phase == "mortgage_choice"
    assert waiting_for(state) == [1]
    events = act(state, "decide_mortgages", 1, lift=[WASSERWERK])
    assert sorted(payments(events)) == [(1, -1, 11, "transfer_interest"), (1, -1, 83, "unmortgage")]
    assert cash(state) == [0, 1500 + 100 - 83 - 11, 1500]
    assert state.current == 1
    assert state.phase == "roll"


def test_bankrupt_players_cash_goes_to_the_creditor() -> None:
    state = in_debt(cash_=100, players=3)
    events = act(state, "declare_bankruptcy", 0)
    assert payments(events) == [(0, 1, 100, "bankruptcy")]
    assert cash(state) == [0, 1600, 1500]
    assert state.current == 1


def test_bankruptcy_to_the_bank_auctions_every_lot() -> None:
    """000: "Wenn ein Spieler nicht genügend Geld aufbringt, um seine Steuern und Strafen
    zu zahlen ... übernimmt die Bank sein Hab und Gut und versteigert alles an den
    Meistbietenden. Häuser und Hotels dürfen nicht mitversteigert werden. Karten 'Du
    kommst aus dem Gefängnis frei' werden unter den entsprechenden Stapel zurückgeschoben."
    """
    state = game(
        [{"cash": 10, "position": 36, "jail_cards": ["community"]}, {}, {}],
        lots={
            BADSTRASSE: {"owner": 0},
            TURMSTRASSE: {"owner": 0, "mortgaged": True},
            SCHLOSSALLEE: {"owner": 0, "mortgaged": True},
        },
    )
    act(state, "roll", 0, dice=[1, 1])  # Zusatzsteuer 100; 10 cash + 30 mortgage < 100
    events = act(state, "declare_bankruptcy", 0)
    assert of_type(events, "bankrupt")[0]["creditor"] == -1
    assert payments(events) == [(0, -1, 10, "bankruptcy")]
    assert state.players[0].jail_cards == []
    assert state.decks["community"][-1] == 5
    assert len(state.decks["community"]) == 16
    assert [state.owner[i] for i in (BADSTRASSE, TURMSTRASSE, SCHLOSSALLEE)] == [-1, -1, -1]
    # Open question 14: auctioned one by one in board order, free of mortgage.
    assert not any(state.mortgaged[i] for i in (BADSTRASSE, TURMSTRASSE, SCHLOSSALLEE))
    assert state.phase == "auction"
    assert state.auction["square"] == BADSTRASSE
    assert state.auction["bidders"] == [1, 2]
    act(state, "bid", 1, amount=20)
    act(state, "auction_pass", 2)
    assert state.owner[BADSTRASSE] == 1
    assert state.auction["square"] == TURMSTRASSE
    act(state, "auction_pass", 1)
    act(state, "auction_pass", 2)
    assert state.owner[TURMSTRASSE] == -1
    assert state.auction["square"] == SCHLOSSALLEE
    act(state, "bid", 2, amount=300)
    events = act(state, "auction_pass", 1)
    assert state.owner[SCHLOSSALLEE] == 2
    assert not state.mortgaged[SCHLOSSALLEE]
    assert payments(events) == [(2, -1, 300, "auction")]
    assert cash(state) == [0, 1480, 1200]
    assert state.current == 1
    assert state.phase == "roll"


def test_buildings_of_a_bankrupt_to_the_bank_go_back_to_the_stock() -> None:
    state = game(
        [{"cash": 0, "position": 36}, {}, {}],
        lots=owned(0, *BROWN, hotel=True),
        bank={"houses": 0, "hotels": 10},
    )
    act(state, "roll", 0, dice=[1, 1])
    act(state, "declare_bankruptcy", 0)
    assert (state.bank_houses, state.bank_hotels) == (0, 12)
    assert [state.houses[i] for i in BROWN] == [0, 0]


def test_bankrupt_players_open_trades_are_dropped() -> None:
    state = in_debt(cash_=0, players=3, lots=owned(2, THEATERSTRASSE))
    act(state, "propose_trade", 2, to=0, give={"lots": [THEATERSTRASSE]})
    act(state, "declare_bankruptcy", 0)
    assert state.trades == []


def test_the_game_ends_when_one_player_is_left() -> None:
    """000: "Das Spiel endet, wenn nur noch ein Spieler übrig ist. Er gewinnt das Spiel"."""
    state = in_debt(cash_=100)
    events = act(state, "declare_bankruptcy", 0)
    over = of_type(events, "game_over")
    assert over[0]["winner"] == 1
    assert over[0]["reason"] == "last_player"
    assert state.phase == "over"
    assert state.winner == 1
    assert legal_actions(state, 1) == []
    assert waiting_for(state) == []
    refuse(state, "roll", 1, "game_over")


def test_a_bankrupt_player_may_no_longer_act() -> None:
    state = in_debt(cash_=0, players=3)
    act(state, "declare_bankruptcy", 0)
    refuse(state, "roll", 0, "player_not_in_game")
    assert legal_actions(state, 0) == []


def test_bankruptcy_outside_the_own_turn() -> None:
    state = game(
        [{"position": 14}, {"cash": 5}, {}],
        decks={"community": [13, *range(1, 13), 14, 15, 16]},
    )
    act(state, "roll", 0, dice=[1, 2])  # birthday: player 1 cannot pay 10
    events = act(state, "declare_bankruptcy", 1)
    assert payments(events) == [(1, 0, 5, "bankruptcy")]
    assert cash(state) == [1515, 0, 1490]
    assert state.current == 0
    assert state.phase == "end"
    act(state, "end_turn", 0)
    assert state.current == 2
