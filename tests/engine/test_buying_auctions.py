"""Buying unowned lots, and the auction of a declined lot.

000: "Wenn der Spieler das Grundstück nicht kauft, versteigert der Bankhalter die
Karte. Jeder kann mitsteigern - auch der, der den normalen Kauf abgelehnt hat. Die
Versteigerung beginnt mit dem (beliebigen) Betrag, den irgendein Spieler zu zahlen
bereit ist. Der Meistbietende zahlt dann den zuletzt genannten Betrag bar an die Bank
und erhält die Besitzrechtkarte."
"""

from __future__ import annotations

from bot.engine import GameState
from bot.engine.legal import bid_range, legal_actions, waiting_for
from tests.engine.conftest import (
    SUEDBAHNHOF,
    TURMSTRASSE,
    act,
    cash,
    game,
    of_type,
    payments,
    refuse,
)


def at_turmstrasse(players: int = 3, **extra) -> GameState:
    """Player 0 has just thrown onto the unowned Turmstraße (price 60)."""
    people = extra.pop("people", [{} for _ in range(players)])
    state = game(people, **extra)
    act(state, "roll", 0, dice=[1, 2])
    assert state.phase == "buy"
    return state


def declined(players: int = 3, **extra) -> GameState:
    state = at_turmstrasse(players, **extra)
    act(state, "decline", 0)
    return state


# -- buying ------------------------------------------------------------------------------


def test_landing_on_an_unowned_lot_offers_it_to_the_player() -> None:
    """000: "so hat er die erste Chance, das Grundstück zu kaufen"."""
    state = at_turmstrasse()
    assert state.pending_buy == TURMSTRASSE
    assert waiting_for(state) == [0]
    kinds = [a["type"] for a in legal_actions(state, 0)]
    assert "buy" in kinds and "decline" in kinds


def test_buying_pays_the_printed_price() -> None:
    """000: "Will der Spieler kaufen, so zahlt er den auf der Karte aufgedruckten Preis an
    die Bank."
    """
    state = at_turmstrasse()
    events = act(state, "buy", 0)
    assert payments(events) == [(0, -1, 60, "buy")]
    assert state.owner[TURMSTRASSE] == 0
    assert cash(state) == [1440, 1500, 1500]
    assert state.phase == "end"


def test_buying_a_railroad() -> None:
    state = game([{}, {}])
    act(state, "roll", 0, dice=[2, 3])
    events = act(state, "buy", 0)
    assert payments(events) == [(0, -1, 200, "buy")]
    assert state.owner[SUEDBAHNHOF] == 0


def test_buying_needs_the_cash() -> None:
    state = at_turmstrasse(people=[{"cash": 59}, {}])
    refuse(state, "buy", 0, "insufficient_funds")
    assert [a["type"] for a in legal_actions(state, 0)].count("buy") == 0


def test_a_mortgage_can_raise_the_price_before_buying() -> None:
    state = at_turmstrasse(people=[{"cash": 50}, {}], lots={39: {"owner": 0}})
    act(state, "mortgage", 0, square=39)
    act(state, "buy", 0)
    assert state.owner[TURMSTRASSE] == 0
    assert cash(state) == [190, 1500]


def test_only_the_player_on_the_lot_buys() -> None:
    state = at_turmstrasse()
    refuse(state, "buy", 1, "not_your_turn")
    refuse(state, "decline", 1, "not_your_turn")
    refuse(state, "end_turn", 0, "wrong_phase")
    refuse(state, "roll", 0, "wrong_phase")


def test_buy_outside_the_buy_phase() -> None:
    state = game([{}, {}])
    refuse(state, "buy", 0, "wrong_phase")
    refuse(state, "decline", 0, "wrong_phase")


# -- the auction of a declined lot -----------------------------------------------------------


def test_declining_starts_an_auction_open_to_everyone_including_the_decliner() -> None:
    state = at_turmstrasse()
    events = act(state, "decline", 0)
    assert of_type(events, "auction_started") == [
        {"type": "auction_started", "kind": "lot", "square": TURMSTRASSE, "min": 1}
    ]
    assert state.phase == "auction"
    assert state.auction["bidders"] == [0, 1, 2]
    assert waiting_for(state) == [0, 1, 2]
    for seat in (0, 1, 2):
        assert {"type": "bid", "player": seat, "amount": 1} in legal_actions(state, seat)
        assert {"type": "auction_pass", "player": seat} in legal_actions(state, seat)


def test_the_decliner_may_win_the_auction_below_the_price() -> None:
    state = declined()
    act(state, "bid", 0, amount=5)
    act(state, "auction_pass", 1)
    events = act(state, "auction_pass", 2)
    assert payments(events) == [(0, -1, 5, "auction")]
    assert of_type(events, "auction_won")[0]["amount"] == 5
    assert state.owner[TURMSTRASSE] == 0
    assert cash(state) == [1495, 1500, 1500]
    assert state.phase == "end"


def test_highest_bidder_wins_and_pays_the_last_bid() -> None:
    state = declined()
    act(state, "bid", 1, amount=10)
    act(state, "bid", 2, amount=11)
    act(state, "bid", 1, amount=40)
    act(state, "auction_pass", 0)
    assert state.phase == "auction"
    assert waiting_for(state) == [2]
    events = act(state, "auction_pass", 2)
    assert payments(events) == [(1, -1, 40, "auction")]
    assert state.owner[TURMSTRASSE] == 1
    assert cash(state) == [1500, 1460, 1500]


def test_the_opening_bid_is_at_least_one() -> None:
    """Open question 3: 0 is not a bid; any amount from 1 opens (``auction_min_bid``)."""
    state = declined()
    error = refuse(state, "bid", 1, "bid_too_low", amount=0)
    assert error.params == {"minimum": 1}
    act(state, "bid", 1, amount=1)
    assert state.auction["high"] == 1


def test_a_bid_must_beat_the_current_one() -> None:
    state = declined()
    act(state, "bid", 1, amount=20)
    error = refuse(state, "bid", 2, "bid_too_low", amount=20)
    assert error.params == {"minimum": 21}
    act(state, "bid", 2, amount=21)
    assert bid_range(state, 1) == (22, 1500)


def test_a_bid_must_be_covered_by_cash() -> None:
    """Open question 3 (001/003: a bid must be covered by cash)."""
    state = declined(people=[{}, {"cash": 30}, {}])
    error = refuse(state, "bid", 1, "bid_above_cash", amount=31)
    assert error.params == {"cash": 30}
    act(state, "bid", 1, amount=30)


def test_setting_bids_above_cash_leave_the_winner_in_debt() -> None:
    """With ``auction_bid_covered_by_cash=False`` a won bid the winner cannot pay is a
    debt to the bank; cash never goes below zero.
    """
    state = declined(people=[{}, {"cash": 30}, {}], rules={"auction_bid_covered_by_cash": False})
    act(state, "bid", 1, amount=100)
    act(state, "auction_pass", 0)
    act(state, "auction_pass", 2)
    assert state.owner[TURMSTRASSE] == 1
    assert cash(state) == [1500, 30, 1500]
    assert state.phase == "debt"
    assert state.debts == [{"debtor": 1, "creditor": -1, "amount": 100, "reason": "auction"}]


def test_a_bid_may_be_raised_by_selling_or_mortgaging_during_the_auction() -> None:
    state = declined(people=[{}, {"cash": 30}, {}], lots={39: {"owner": 1}})
    act(state, "mortgage", 1, square=39)
    act(state, "bid", 1, amount=230)
    assert state.auction["leader"] == 1


def test_a_pass_is_final() -> None:
    """Open question 5: a pass is final for that auction."""
    state = declined()
    act(state, "auction_pass", 1)
    refuse(state, "bid", 1, "already_passed", amount=5)
    refuse(state, "auction_pass", 1, "already_passed")
    assert waiting_for(state) == [0, 2]


def test_the_leader_can_neither_pass_nor_raise_the_own_bid() -> None:
    state = declined()
    act(state, "bid", 1, amount=10)
    refuse(state, "auction_pass", 1, "already_leading")
    refuse(state, "bid", 1, "already_leading", amount=20)
    assert waiting_for(state) == [0, 2]
    assert [a["type"] for a in legal_actions(state, 1)].count("bid") == 0


def test_an_outbid_leader_may_bid_again() -> None:
    state = declined()
    act(state, "bid", 1, amount=10)
    act(state, "bid", 2, amount=15)
    act(state, "bid", 1, amount=16)
    assert state.auction["leader"] == 1


def test_bad_bid_amounts() -> None:
    state = declined()
    for amount in ("10", 10.0, True, None, [10]):
        refuse(state, "bid", 1, "bad_amount", amount=amount)
    refuse(state, "bid", 1, "bid_too_low", amount=-5)


def test_nobody_bids_and_the_lot_stays_with_the_bank() -> None:
    """Open question 4: when every player passes without a bid the lot stays unsold."""
    state = declined()
    act(state, "auction_pass", 0)
    act(state, "auction_pass", 1)
    events = act(state, "auction_pass", 2)
    assert of_type(events, "auction_unsold") == [
        {"type": "auction_unsold", "kind": "lot", "square": TURMSTRASSE}
    ]
    assert payments(events) == []
    assert state.owner[TURMSTRASSE] == -1
    assert state.auction is None
    assert state.phase == "end"


def test_no_auction_actions_without_an_auction() -> None:
    state = game([{}, {}])
    refuse(state, "bid", 0, "no_auction", amount=5)
    refuse(state, "auction_pass", 0, "no_auction")


def test_management_during_an_auction_is_limited_to_raising_cash() -> None:
    state = declined(lots={1: {"owner": 1}, 39: {"owner": 1, "mortgaged": True}})
    refuse(state, "unmortgage", 1, "wrong_phase", square=39)
    refuse(state, "end_turn", 0, "wrong_phase")
    refuse(state, "propose_trade", 1, "wrong_phase", to=2, give={"cash": 5})


def test_auction_then_the_doubles_rethrow() -> None:
    state = game([{"position": 35}, {}])
    act(state, "roll", 0, dice=[1, 1])  # Parkstraße
    act(state, "decline", 0)
    act(state, "bid", 1, amount=100)
    act(state, "auction_pass", 0)
    assert state.owner[37] == 1
    assert state.phase == "roll"
    assert state.current == 0


def test_setting_without_auctions_leaves_a_declined_lot_with_the_bank() -> None:
    state = declined(rules={"auction_declined_lots": False})
    assert state.auction is None
    assert state.owner[TURMSTRASSE] == -1
    assert state.phase == "end"


def test_bankrupt_players_do_not_bid() -> None:
    state = game([{}, {}, {}])
    state.players[2].bankrupt = True
    act(state, "roll", 0, dice=[1, 2])
    act(state, "decline", 0)
    assert state.auction["bidders"] == [0, 1]
    refuse(state, "bid", 2, "player_not_in_game", amount=5)
    act(state, "bid", 1, amount=5)
    act(state, "auction_pass", 0)
    assert state.owner[TURMSTRASSE] == 1
