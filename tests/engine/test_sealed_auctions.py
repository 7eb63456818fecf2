"""Sealed-bid auctions (house rule ``sealed_auctions``) and the closing time of any auction.

The rulebooks only describe live auctions (000: "Die Versteigerung beginnt mit dem
(beliebigen) Betrag, den irgendein Spieler zu zahlen bereit ist. Der Meistbietende
zahlt dann den zuletzt genannten Betrag bar an die Bank"; 001/003 likewise). Sealed
bids are a documented house rule (docs/rules.md, "Sealed-bid auctions") for tables
spread over time zones: each bidder submits one private maximum before the closing
time; the highest wins and pays the second-highest plus ``auction_min_raise`` (never
more than its own maximum), ties go to the earlier bid, a single bid pays the minimum.

``close_auction`` is a system action the bot sends when an auction's closing time
has passed (the engine never reads a clock).
"""

from __future__ import annotations

from typing import Any

import pytest

from bot.engine import GameState, apply_action
from bot.engine.auctions import sealed_bid_of
from bot.engine.defaults import default_action
from bot.engine.legal import bid_range, legal_actions, waiting_for
from bot.engine.rules import Rules
from bot.engine.simple_players import SimplePlayer, next_simple_action
from bot.engine.simulate import simulate
from tests.engine.conftest import (
    BADSTRASSE,
    BROWN,
    DARK_BLUE,
    PARKSTRASSE,
    SCHLOSSALLEE,
    TURMSTRASSE,
    act,
    cash,
    game,
    of_type,
    owned,
    payments,
    refuse,
    refuse_raw,
)

SEALED = {"sealed_auctions": True}


def declined(players: int | list[dict[str, Any]] = 3, **rules: Any) -> GameState:
    """Player 0 has declined the unowned Turmstraße (price 60): a sealed auction runs."""
    people = [{} for _ in range(players)] if isinstance(players, int) else players
    state = game(people, rules={**SEALED, **rules})
    act(state, "roll", 0, dice=[1, 2])
    act(state, "decline", 0)
    assert state.phase == "auction"
    return state


def close(state: GameState) -> list[dict[str, Any]]:
    """The system action: the auction's closing time has passed."""
    return apply_action(state, {"type": "close_auction"})


def won(events: list[dict[str, Any]]) -> dict[str, Any]:
    (event,) = of_type(events, "auction_won")
    return event


# -- opening -----------------------------------------------------------------------------------


def test_the_setting_is_off_in_every_preset() -> None:
    """Live bidding is what the books describe; sealed bids are opt-in."""
    from bot.engine.rules import available_presets

    assert not any(Rules.from_preset(p).sealed_auctions for p in available_presets())
    state = game([{}, {}])
    act(state, "roll", 0, dice=[1, 2])
    act(state, "decline", 0)
    assert "sealed" not in state.auction and "bids" not in state.auction


def test_a_sealed_auction_opens_with_an_empty_list_of_bids() -> None:
    state = game([{}, {}, {}], rules=SEALED)
    act(state, "roll", 0, dice=[1, 2])
    events = act(state, "decline", 0)
    assert of_type(events, "auction_started") == [
        {"type": "auction_started", "kind": "lot", "square": TURMSTRASSE, "min": 1, "sealed": True}
    ]
    assert state.auction == {
        "kind": "lot",
        "square": TURMSTRASSE,
        "min": 1,
        "high": 0,
        "leader": None,
        "bidders": [0, 1, 2],
        "passed": [],
        "sealed": True,
        "bids": [],
    }


# -- resolution --------------------------------------------------------------------------------


def test_the_highest_bid_wins_at_the_second_price_plus_the_raise() -> None:
    state = declined()
    act(state, "sealed_bid", 0, amount=80)
    act(state, "sealed_bid", 1, amount=120)
    assert state.phase == "auction"
    events = act(state, "sealed_bid", 2, amount=50)
    assert state.auction is None
    assert payments(events) == [(1, -1, 81, "auction")]
    assert won(events) == {
        "type": "auction_won",
        "kind": "lot",
        "square": TURMSTRASSE,
        "player": 1,
        "amount": 81,
        "bids": [
            {"player": 1, "amount": 120},
            {"player": 0, "amount": 80},
            {"player": 2, "amount": 50},
        ],
    }
    assert state.owner[TURMSTRASSE] == 1
    assert cash(state) == [1500, 1419, 1500]
    assert state.phase == "end"


def test_the_raise_is_added_but_never_beyond_the_winners_own_bid() -> None:
    state = declined(auction_min_raise=10)
    act(state, "sealed_bid", 0, amount=100)
    act(state, "sealed_bid", 1, amount=150)
    events = act(state, "auction_pass", 2)
    assert won(events)["amount"] == 110

    state = declined(auction_min_raise=10)
    act(state, "sealed_bid", 0, amount=145)
    act(state, "sealed_bid", 1, amount=150)
    events = act(state, "auction_pass", 2)
    assert won(events)["player"] == 1
    assert payments(events) == [(1, -1, 150, "auction")]


def test_a_tie_goes_to_the_earlier_bid_at_that_amount() -> None:
    state = declined()
    act(state, "sealed_bid", 2, amount=90)
    act(state, "sealed_bid", 0, amount=90)
    events = act(state, "sealed_bid", 1, amount=40)
    assert won(events)["player"] == 2
    assert payments(events) == [(2, -1, 90, "auction")]
    assert won(events)["bids"] == [
        {"player": 2, "amount": 90},
        {"player": 0, "amount": 90},
        {"player": 1, "amount": 40},
    ]


def test_revising_replaces_the_amount_and_counts_as_a_later_bid() -> None:
    state = declined()
    act(state, "sealed_bid", 1, amount=70)
    first = state.auction["bids"][0]["order"]
    act(state, "sealed_bid", 2, amount=100)
    act(state, "sealed_bid", 1, amount=100)  # revised: now equal, but later than seat 2
    assert state.auction["bids"] == [
        {"player": 1, "amount": 100, "order": state.seq - 1},
        {"player": 2, "amount": 100, "order": first + 1},
    ]
    assert sealed_bid_of(state.auction, 1) == 100
    assert sealed_bid_of(state.auction, 0) is None
    events = act(state, "auction_pass", 0)
    assert won(events)["player"] == 2
    assert won(events)["amount"] == 100


def test_a_revision_may_also_lower_the_bid() -> None:
    state = declined()
    act(state, "sealed_bid", 1, amount=300)
    act(state, "sealed_bid", 1, amount=20)
    act(state, "sealed_bid", 2, amount=30)
    events = act(state, "auction_pass", 0)
    assert won(events)["player"] == 2
    assert payments(events) == [(2, -1, 21, "auction")]


def test_a_single_bid_pays_the_minimum() -> None:
    state = declined(auction_min_bid=10)
    act(state, "auction_pass", 0)
    act(state, "sealed_bid", 1, amount=500)
    events = act(state, "auction_pass", 2)
    assert payments(events) == [(1, -1, 10, "auction")]
    assert won(events)["bids"] == [{"player": 1, "amount": 500}]
    assert state.owner[TURMSTRASSE] == 1


def test_no_bids_leave_the_lot_unsold_and_unmortgaged_with_the_bank() -> None:
    """Open question 4 applies unchanged. A bankrupt's mortgaged lot (here kept mortgaged,
    ``bank_auction_mortgaged_free: false``) stays with the bank free of its mortgage.
    """
    state = game(
        [{"cash": 10, "position": 36}, {}, {}],
        lots={SCHLOSSALLEE: {"owner": 0, "mortgaged": True}},
        rules={**SEALED, "bank_auction_mortgaged_free": False},
    )
    act(state, "roll", 0, dice=[1, 1])  # Zusatzsteuer 100
    act(state, "declare_bankruptcy", 0)
    assert state.auction["square"] == SCHLOSSALLEE and state.auction["sealed"]
    assert state.mortgaged[SCHLOSSALLEE]
    act(state, "auction_pass", 1)
    events = act(state, "auction_pass", 2)
    assert of_type(events, "auction_unsold") == [
        {"type": "auction_unsold", "kind": "lot", "square": SCHLOSSALLEE}
    ]
    assert payments(events) == []
    assert state.owner[SCHLOSSALLEE] == -1
    assert not state.mortgaged[SCHLOSSALLEE]
    assert state.auction is None


def test_a_won_mortgaged_lot_brings_the_mortgage_choice() -> None:
    """Same as live: whoever receives a mortgaged lot lifts it or pays the 10 % now."""
    state = game(
        [{"cash": 10, "position": 36}, {}, {}],
        lots={SCHLOSSALLEE: {"owner": 0, "mortgaged": True}},
        rules={**SEALED, "bank_auction_mortgaged_free": False},
    )
    act(state, "roll", 0, dice=[1, 1])
    act(state, "declare_bankruptcy", 0)
    act(state, "sealed_bid", 1, amount=250)
    events = act(state, "sealed_bid", 2, amount=100)
    assert payments(events) == [(1, -1, 101, "auction")]
    assert state.owner[SCHLOSSALLEE] == 1
    assert state.mortgage_choices == [{"player": 1, "squares": [SCHLOSSALLEE]}]
    assert state.phase == "mortgage_choice"


def test_the_bank_sells_a_bankrupts_lots_one_sealed_auction_after_another() -> None:
    state = game(
        [{"cash": 10, "position": 36}, {}, {}],
        lots=owned(0, BADSTRASSE, TURMSTRASSE),
        rules=SEALED,
    )
    act(state, "roll", 0, dice=[1, 1])
    act(state, "declare_bankruptcy", 0)
    assert state.auction["square"] == BADSTRASSE
    assert state.auction_queue == [TURMSTRASSE]
    act(state, "sealed_bid", 1, amount=40)
    act(state, "sealed_bid", 2, amount=30)
    assert state.owner[BADSTRASSE] == 1
    assert state.auction["square"] == TURMSTRASSE and state.auction["sealed"]
    assert state.auction["bids"] == []
    assert waiting_for(state) == [1, 2]


def test_bids_need_not_be_covered_by_cash_under_that_setting() -> None:
    state = declined([{}, {"cash": 30}, {}], auction_bid_covered_by_cash=False)
    act(state, "sealed_bid", 1, amount=100)
    act(state, "sealed_bid", 2, amount=60)
    events = act(state, "auction_pass", 0)
    assert won(events)["amount"] == 61
    assert state.phase == "debt"
    assert state.debts == [{"debtor": 1, "creditor": -1, "amount": 61, "reason": "auction"}]


# -- refused bids ------------------------------------------------------------------------------


def test_a_bid_above_cash_is_refused() -> None:
    state = declined([{}, {"cash": 30}, {}])
    error = refuse(state, "sealed_bid", 1, "bid_above_cash", amount=31)
    assert error.params == {"cash": 30}
    act(state, "sealed_bid", 1, amount=30)


def test_a_bid_below_the_minimum_is_refused() -> None:
    state = declined(auction_min_bid=20)
    error = refuse(state, "sealed_bid", 1, "bid_too_low", amount=19)
    assert error.params == {"minimum": 20}
    refuse(state, "sealed_bid", 1, "bid_too_low", amount=-5)
    # Other sealed bids do not raise the minimum: nobody can see them.
    act(state, "sealed_bid", 2, amount=300)
    act(state, "sealed_bid", 1, amount=20)


@pytest.mark.parametrize("amount", ["10", 10.0, True, False, None, [10], {"amount": 10}])
def test_a_bid_that_is_no_whole_number_is_refused(amount: Any) -> None:
    refuse(declined(), "sealed_bid", 1, "bad_amount", amount=amount)


def test_a_missing_amount_is_refused() -> None:
    refuse_raw(declined(), {"type": "sealed_bid", "player": 1}, "bad_amount")


def test_live_bids_are_refused_in_a_sealed_auction_and_vice_versa() -> None:
    state = declined()
    refuse(state, "bid", 1, "sealed_auction", amount=10)
    live = game([{}, {}])
    act(live, "roll", 0, dice=[1, 2])
    act(live, "decline", 0)
    refuse(live, "sealed_bid", 1, "live_auction", amount=10)


def test_no_sealed_bid_without_an_auction() -> None:
    state = game([{}, {}], rules=SEALED)
    refuse(state, "sealed_bid", 0, "no_auction", amount=5)
    refuse(state, "auction_pass", 0, "no_auction")


def test_a_pass_withdraws_the_bid_and_is_final() -> None:
    state = declined()
    act(state, "sealed_bid", 1, amount=200)
    act(state, "auction_pass", 1)
    assert state.auction["bids"] == []
    assert state.auction["passed"] == [1]
    refuse(state, "sealed_bid", 1, "already_passed", amount=5)
    refuse(state, "auction_pass", 1, "already_passed")
    act(state, "sealed_bid", 0, amount=10)
    events = act(state, "sealed_bid", 2, amount=5)
    assert won(events)["player"] == 0
    assert won(events)["amount"] == 6
    assert won(events)["bids"] == [{"player": 0, "amount": 10}, {"player": 2, "amount": 5}]


# -- secrecy -----------------------------------------------------------------------------------


def test_no_event_shows_a_sealed_amount_before_the_close() -> None:
    state = declined()
    seen = [
        *act(state, "sealed_bid", 0, amount=77),
        *act(state, "sealed_bid", 1, amount=123),
        *act(state, "sealed_bid", 1, amount=131),
    ]
    assert seen == [
        {"type": "sealed_bid", "player": 0},
        {"type": "sealed_bid", "player": 1},
        {"type": "sealed_bid", "player": 1},
    ]
    events = act(state, "sealed_bid", 2, amount=99)
    assert of_type(events, "sealed_bid") == [{"type": "sealed_bid", "player": 2}]
    # Once it is over, the table sees every bid.
    assert won(events)["bids"] == [
        {"player": 1, "amount": 131},
        {"player": 2, "amount": 99},
        {"player": 0, "amount": 77},
    ]


# -- the closing time --------------------------------------------------------------------------


def test_closing_a_sealed_auction_counts_the_silent_bidders_as_passed() -> None:
    state = declined()
    act(state, "sealed_bid", 2, amount=40)
    events = close(state)
    assert [e["type"] for e in events[:3]] == ["auction_closed", "auction_pass", "auction_pass"]
    assert events[0] == {"type": "auction_closed", "kind": "lot", "square": TURMSTRASSE}
    assert [e["player"] for e in of_type(events, "auction_pass")] == [0, 1]
    assert payments(events) == [(2, -1, 1, "auction")]
    assert won(events)["bids"] == [{"player": 2, "amount": 40}]
    assert state.owner[TURMSTRASSE] == 2
    assert state.auction is None
    assert state.phase == "end"


def test_closing_a_sealed_auction_with_two_bids_uses_the_second_price() -> None:
    state = declined(players=4)
    act(state, "sealed_bid", 3, amount=90)
    act(state, "sealed_bid", 1, amount=60)
    events = close(state)
    assert [e["player"] for e in of_type(events, "auction_pass")] == [0, 2]
    assert payments(events) == [(3, -1, 61, "auction")]


def test_closing_a_sealed_auction_without_bids_leaves_it_unsold() -> None:
    state = declined()
    act(state, "auction_pass", 1)
    events = close(state)
    assert [e["type"] for e in events] == [
        "auction_closed",
        "auction_pass",
        "auction_pass",
        "auction_unsold",
    ]
    assert state.owner[TURMSTRASSE] == -1
    assert state.phase == "end"


def test_closing_a_live_auction_gives_the_lot_to_the_leader_at_the_bid() -> None:
    state = game([{}, {}, {}])
    act(state, "roll", 0, dice=[1, 2])
    act(state, "decline", 0)
    act(state, "bid", 1, amount=10)
    act(state, "bid", 2, amount=25)
    events = close(state)
    assert events[0] == {"type": "auction_closed", "kind": "lot", "square": TURMSTRASSE}
    assert [e["player"] for e in of_type(events, "auction_pass")] == [0, 1]
    assert payments(events) == [(2, -1, 25, "auction")]
    assert won(events) == {
        "type": "auction_won",
        "kind": "lot",
        "square": TURMSTRASSE,
        "player": 2,
        "amount": 25,
    }
    assert state.phase == "end"


def test_closing_a_live_auction_without_a_bid_leaves_it_unsold() -> None:
    state = game([{}, {}, {}])
    act(state, "roll", 0, dice=[1, 2])
    act(state, "decline", 0)
    act(state, "auction_pass", 2)
    events = close(state)
    assert [e["type"] for e in events] == [
        "auction_closed",
        "auction_pass",
        "auction_pass",
        "auction_unsold",
    ]
    assert state.owner[TURMSTRASSE] == -1


def test_closing_starts_the_next_queued_auction() -> None:
    state = game(
        [{"cash": 10, "position": 36}, {}, {}],
        lots=owned(0, BADSTRASSE, TURMSTRASSE),
    )
    act(state, "roll", 0, dice=[1, 1])
    act(state, "declare_bankruptcy", 0)
    act(state, "bid", 2, amount=15)
    events = close(state)
    assert state.owner[BADSTRASSE] == 2
    assert of_type(events, "auction_started") == [
        {"type": "auction_started", "kind": "lot", "square": TURMSTRASSE, "min": 1}
    ]
    assert state.phase == "auction"
    close(state)
    assert state.owner[TURMSTRASSE] == -1
    assert state.phase == "roll" and state.current == 1


def test_close_auction_without_an_auction_is_refused() -> None:
    state = game([{}, {}], rules=SEALED)
    refuse_raw(state, {"type": "close_auction"}, "no_auction")


def test_close_auction_after_the_game_is_over_is_refused() -> None:
    state = game([{"cash": 0, "position": 36}, {}])
    act(state, "roll", 0, dice=[1, 1])
    act(state, "declare_bankruptcy", 0)
    refuse_raw(state, {"type": "close_auction"}, "game_over")


# -- the building shortage auction -------------------------------------------------------------


def shortage_game(**extra: Any) -> GameState:
    """Player 0 owns brown (50 a house), player 1 dark blue (200); the bank has 1 house."""
    lots = {**owned(0, *BROWN), **owned(1, *DARK_BLUE)}
    players = extra.pop("players", [{}, {}])
    return game(players, lots=lots, bank={"houses": 1}, rules=SEALED, **extra)


def test_a_scarce_house_is_auctioned_with_sealed_bids() -> None:
    """000: "... werden die vorhandenen Gebäude einzeln an den Meistbietenden versteigert.
    Als Mindestgebot gilt der niedrigste, gedruckte Preis" - held sealed under the house rule.
    """
    state = shortage_game()
    events = act(state, "build", 0, square=BADSTRASSE)
    assert of_type(events, "auction_started") == [
        {"type": "auction_started", "kind": "house", "requested_by": 0, "min": 50, "sealed": True}
    ]
    refuse(state, "sealed_bid", 0, "bid_too_low", amount=49)
    act(state, "sealed_bid", 0, amount=60)
    events = act(state, "sealed_bid", 1, amount=250)
    assert payments(events) == [(1, -1, 61, "auction")]
    assert won(events) == {
        "type": "auction_won",
        "kind": "house",
        "player": 1,
        "amount": 61,
        "bids": [{"player": 1, "amount": 250}, {"player": 0, "amount": 60}],
    }
    assert state.pending_building == {"player": 1, "kind": "house", "price": 61}
    assert state.phase == "place_building"
    act(state, "build", 1, square=PARKSTRASSE)
    assert state.houses[PARKSTRASSE] == 1
    assert cash(state) == [1500, 1439]


def test_only_the_builders_bid_sealed_for_a_scarce_house() -> None:
    state = shortage_game(players=[{}, {}, {}])
    act(state, "build", 0, square=BADSTRASSE)
    assert state.auction["bidders"] == [0, 1]
    refuse(state, "sealed_bid", 2, "not_a_bidder", amount=500)
    assert waiting_for(state) == [0, 1]
    events = close(state)
    assert of_type(events, "auction_unsold") == [{"type": "auction_unsold", "kind": "house"}]
    assert state.bank_houses == 1


def test_a_won_house_that_cannot_be_placed_is_refunded_at_the_price_paid() -> None:
    state = shortage_game()
    act(state, "build", 0, square=BADSTRASSE)
    act(state, "sealed_bid", 1, amount=250)
    act(state, "mortgage", 1, square=SCHLOSSALLEE)  # no building on dark blue any more
    events = act(state, "sealed_bid", 0, amount=70)
    assert payments(events) == [(1, -1, 71, "auction"), (-1, 1, 71, "building_refund")]
    assert state.pending_building is None


# -- who is waited on, and what they may do ----------------------------------------------------


def test_waiting_for_and_legal_actions_in_a_sealed_auction() -> None:
    state = declined([{}, {"cash": 0}, {}])
    assert waiting_for(state) == [0, 1, 2]
    assert [a for a in legal_actions(state, 0) if a["type"] in ("sealed_bid", "auction_pass")] == [
        {"type": "sealed_bid", "player": 0, "amount": 1},
        {"type": "auction_pass", "player": 0},
    ]
    assert not any(a["type"] == "bid" for a in legal_actions(state, 0))
    # Seat 1 cannot afford the minimum but may pass.
    assert [a["type"] for a in legal_actions(state, 1)] == ["auction_pass"]
    assert bid_range(state, 1) is None
    assert bid_range(state, 0) == (1, 1500)
    act(state, "sealed_bid", 0, amount=300)
    # A bid in: no longer waited on, but may still revise or withdraw.
    assert waiting_for(state) == [1, 2]
    assert {"type": "sealed_bid", "player": 0, "amount": 1} in legal_actions(state, 0)
    assert {"type": "auction_pass", "player": 0} in legal_actions(state, 0)
    assert bid_range(state, 0) == (1, 1500)
    # Others' bids never raise the range.
    assert bid_range(state, 2) == (1, 1500)
    act(state, "auction_pass", 1)
    assert waiting_for(state) == [2]
    assert legal_actions(state, 1) == []


def test_bid_range_without_the_cash_rule() -> None:
    state = declined([{}, {"cash": 0}, {}], auction_bid_covered_by_cash=False, auction_min_bid=5)
    assert bid_range(state, 1) == (5, 10**9)


def test_the_default_at_a_deadline_is_to_pass_and_a_bid_in_stands() -> None:
    state = declined()
    act(state, "sealed_bid", 0, amount=50)
    assert default_action(state, 0) is None
    assert default_action(state) == {"type": "auction_pass", "player": 1}
    act(state, "auction_pass", 1)
    act(state, "auction_pass", 2)
    assert state.owner[TURMSTRASSE] == 0


# -- the simple players ------------------------------------------------------------------------


def test_simple_players_submit_their_limit_once() -> None:
    state = declined([{}, {"cash": 40}, {}])
    bot = SimplePlayer()
    # The lot's price (60), capped by the cash above half the reserve.
    assert bot.decide(state, 0) == {"type": "sealed_bid", "player": 0, "amount": 60}
    assert next_simple_action(state) == {"type": "sealed_bid", "player": 0, "amount": 60}
    apply_action(state, next_simple_action(state))  # type: ignore[arg-type]
    # Seat 1 cannot spare even the minimum: it passes.
    assert next_simple_action(state) == {"type": "auction_pass", "player": 1}
    apply_action(state, next_simple_action(state))  # type: ignore[arg-type]
    assert next_simple_action(state) == {"type": "sealed_bid", "player": 2, "amount": 60}
    events = apply_action(state, next_simple_action(state))  # type: ignore[arg-type]
    assert won(events)["player"] == 0
    assert won(events)["amount"] == 60
    assert state.phase == "end"


def test_simulated_games_with_sealed_auctions_end() -> None:
    result = simulate(4, 3, seed=5, rules=Rules.from_preset("classic", sealed_auctions=True))
    assert result.games == 4
    assert "turn_cap" not in result.endings


# -- old saved games ---------------------------------------------------------------------------


def test_a_game_saved_before_sealed_auctions_continues_live() -> None:
    state = game([{}, {}, {}])
    act(state, "roll", 0, dice=[1, 2])
    act(state, "decline", 0)
    raw = state.to_dict()
    del raw["rules"]["sealed_auctions"]
    old = GameState.from_dict(raw)
    assert old.rules.sealed_auctions is False
    assert waiting_for(old) == [0, 1, 2]
    assert {"type": "bid", "player": 1, "amount": 1} in legal_actions(old, 1)
    act(old, "bid", 1, amount=30)
    act(old, "auction_pass", 0)
    act(old, "auction_pass", 2)
    assert old.owner[TURMSTRASSE] == 1


def test_a_sealed_auction_round_trips_through_json() -> None:
    state = declined()
    act(state, "sealed_bid", 2, amount=40)
    again = GameState.from_json(state.to_json())
    assert again.to_json() == state.to_json()
    act(again, "sealed_bid", 0, amount=30)
    events = act(again, "auction_pass", 1)
    assert payments(events) == [(2, -1, 31, "auction")]


# -- a bidder who leaves the game --------------------------------------------------------------


def test_a_bidder_who_goes_bankrupt_during_the_auction_takes_the_bid_along() -> None:
    """Rent claimed during the auction (``rent_must_be_claimed``) drives a bidder into a
    debt it cannot pay; its sealed bid leaves with it.
    """
    state = game(
        [{"cash": 5, "position": 35}, {}, {}],
        lots=owned(1, *DARK_BLUE, hotel=True),
        rules={**SEALED, "rent_must_be_claimed": True},
    )
    act(state, "roll", 0, dice=[2, 2])  # Schlossallee with a hotel: a claim opens
    act(state, "roll", 0, dice=[1, 3])  # over LOS (+200) to the unowned Turmstraße
    act(state, "decline", 0)
    act(state, "sealed_bid", 0, amount=200)
    act(state, "sealed_bid", 2, amount=50)
    act(state, "claim_rent", 1, square=SCHLOSSALLEE)
    assert state.phase == "debt"
    act(state, "declare_bankruptcy", 0)
    assert state.players[0].bankrupt
    assert state.phase == "auction"
    assert state.auction["bidders"] == [1, 2]
    assert state.auction["bids"] == [{"player": 2, "amount": 50, "order": 4}]
    assert waiting_for(state) == [1]
    events = act(state, "auction_pass", 1)
    assert won(events)["bids"] == [{"player": 2, "amount": 50}]
    assert payments(events) == [(2, -1, 1, "auction")]
