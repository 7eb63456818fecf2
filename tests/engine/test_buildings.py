"""Houses and hotels: the whole group, building and selling evenly, the bank's stock."""

from __future__ import annotations

from bot.engine.buildings import shortage_rivals
from bot.engine.legal import legal_actions, waiting_for
from tests.engine.conftest import (
    BADSTRASSE,
    BROWN,
    DARK_BLUE,
    HOTEL,
    LIGHT_BLUE,
    PARKSTRASSE,
    POSTSTRASSE,
    SCHLOSSALLEE,
    SUEDBAHNHOF,
    TURMSTRASSE,
    act,
    cash,
    game,
    of_type,
    owned,
    payments,
    refuse,
)

# -- who may build where -------------------------------------------------------------------


def test_a_house_costs_the_printed_price() -> None:
    """000: "Der Preis für jedes Haus steht auf der Besitzrechtkarte der Straße."."""
    state = game([{}, {}], lots=owned(0, *BROWN))
    events = act(state, "build", 0, square=TURMSTRASSE)
    assert payments(events) == [(0, -1, 50, "build")]
    assert of_type(events, "built") == [
        {"type": "built", "player": 0, "square": TURMSTRASSE, "building": "house"}
    ]
    assert state.houses[TURMSTRASSE] == 1
    assert state.bank_houses == 31
    assert cash(state) == [1450, 1500]


def test_building_needs_the_whole_group() -> None:
    """000: "Ein Spieler kann nur dann Häuser an Straßen bauen, wenn er alle Straßen
    dieser Farbgruppe besitzt."
    """
    state = game([{}, {}], lots={**owned(0, TURMSTRASSE), **owned(1, BADSTRASSE)})
    refuse(state, "build", 0, "group_incomplete", square=TURMSTRASSE)
    state = game([{}, {}], lots=owned(0, PARKSTRASSE))
    refuse(state, "build", 0, "group_incomplete", square=PARKSTRASSE)


def test_no_building_with_a_mortgaged_lot_in_the_group() -> None:
    """000: "Ist ein Grundstück einer Farbgruppe mit einer Hypothek beliehen, darf auf
    der ganzen Farbgruppe nicht gebaut werden."
    """
    state = game(
        [{}, {}], lots={BADSTRASSE: {"owner": 0, "mortgaged": True}, TURMSTRASSE: {"owner": 0}}
    )
    refuse(state, "build", 0, "group_mortgaged", square=TURMSTRASSE)


def test_building_again_after_lifting_the_mortgage() -> None:
    """000: "Um wieder ein Haus auf einem hypothekarisch belasteten Grundstück aufstellen
    zu können, muss der Eigentümer den Wert der Hypothek und 10 % Zinsen an die Bank
    zurückzahlen und das Haus von der Bank zum vollen Preis zurückkaufen."
    """
    state = game(
        [{}, {}], lots={BADSTRASSE: {"owner": 0, "mortgaged": True}, TURMSTRASSE: {"owner": 0}}
    )
    act(state, "unmortgage", 0, square=BADSTRASSE)
    events = act(state, "build", 0, square=BADSTRASSE)
    assert payments(events) == [(0, -1, 50, "build")]
    assert cash(state) == [1500 - 33 - 50, 1500]


def test_only_streets_take_buildings() -> None:
    state = game([{}, {}], lots=owned(0, SUEDBAHNHOF, 15, 25, 35))
    refuse(state, "build", 0, "not_a_street", square=SUEDBAHNHOF)
    refuse(state, "build", 0, "not_a_property", square=0)
    refuse(state, "build", 0, "not_your_property", square=BADSTRASSE)


def test_building_needs_the_cash() -> None:
    state = game([{"cash": 49}, {}], lots=owned(0, *BROWN))
    error = refuse(state, "build", 0, "insufficient_funds", square=BADSTRASSE)
    assert error.params == {"needed": 50}


def test_build_evenly() -> None:
    """000: "Kauft er ein zweites Haus, muss er es an einer noch unbebauten Straße dieser
    Gruppe bauen ..."
    """
    state = game([{}, {}], lots=owned(0, *LIGHT_BLUE))
    act(state, "build", 0, square=POSTSTRASSE)
    refuse(state, "build", 0, "build_evenly", square=POSTSTRASSE)
    act(state, "build", 0, square=6)
    refuse(state, "build", 0, "build_evenly", square=6)
    act(state, "build", 0, square=8)
    act(state, "build", 0, square=POSTSTRASSE)
    assert [state.houses[i] for i in LIGHT_BLUE] == [1, 1, 2]


def test_four_houses_then_a_hotel_that_returns_the_houses() -> None:
    """000: "Wenn ein Spieler an allen Straßen einer Farbgruppe 4 Häuser gebaut hat, kann
    er von der Bank ein Hotel kaufen. Ein Hotel kostet 4 Häuser (die gibt er sofort an
    die Bank zurück) plus den Preis für ein weiteres Haus".
    """
    state = game([{}, {}], lots=owned(0, *BROWN))
    for _ in range(4):
        for square in BROWN:
            act(state, "build", 0, square=square)
    assert [state.houses[i] for i in BROWN] == [4, 4]
    assert state.bank_houses == 24
    events = act(state, "build", 0, square=TURMSTRASSE)
    assert of_type(events, "built")[0]["building"] == "hotel"
    assert payments(events) == [(0, -1, 50, "build")]
    assert state.houses[TURMSTRASSE] == HOTEL
    assert state.bank_houses == 28
    assert state.bank_hotels == 11
    assert cash(state) == [1500 - 9 * 50, 1500]
    refuse(state, "build", 0, "fully_built", square=TURMSTRASSE)
    act(state, "build", 0, square=BADSTRASSE)
    assert state.bank_houses == 32
    assert state.bank_hotels == 10


def test_no_hotel_before_every_street_has_four_houses() -> None:
    state = game(
        [{}, {}],
        lots={BADSTRASSE: {"owner": 0, "houses": 3}, TURMSTRASSE: {"owner": 0, "houses": 4}},
    )
    refuse(state, "build", 0, "build_evenly", square=TURMSTRASSE)


def test_building_between_other_players_turns() -> None:
    """000: "Häuser können zu jeder Zeit des Spiels gebaut werden - während des eigenen
    Zuges und zwischen den Zügen anderer Spieler - jedoch immer nur, bevor der nächste
    Spieler gewürfelt hat."
    """
    state = game([{}, {}], lots=owned(1, *BROWN))
    assert state.phase == "roll"
    act(state, "build", 1, square=BADSTRASSE)
    act(state, "roll", 0, dice=[2, 3])  # Südbahnhof, unowned
    assert state.phase == "buy"
    act(state, "build", 1, square=TURMSTRASSE)
    act(state, "buy", 0)
    assert state.phase == "end"
    act(state, "build", 1, square=TURMSTRASSE)
    assert [state.houses[i] for i in BROWN] == [1, 2]


def test_no_building_while_in_debt() -> None:
    state = game(
        [{"cash": 100, "position": 33}, {}],
        lots={**owned(1, *DARK_BLUE, houses=1), **owned(0, *BROWN)},
    )
    act(state, "roll", 0, dice=[1, 3])
    assert state.phase == "debt"
    refuse(state, "build", 0, "in_debt", square=BADSTRASSE)
    act(state, "build", 1, square=PARKSTRASSE)  # the creditor may build meanwhile


# -- selling ---------------------------------------------------------------------------------


def test_selling_a_house_pays_half_its_price() -> None:
    """000: "Häuser und Hotels dürfen jederzeit, aber nur an die Bank, verkauft werden, -
    die Bank zahlt nur den halben Preis".
    """
    state = game([{}, {}], lots=owned(0, *DARK_BLUE, houses=2))
    events = act(state, "sell_building", 0, square=SCHLOSSALLEE)
    assert payments(events) == [(-1, 0, 100, "sell_building")]
    assert state.houses[SCHLOSSALLEE] == 1
    assert state.bank_houses == 32 - 3


def test_sell_evenly() -> None:
    """000: "... es kann nicht an einer Straße nur noch 1 Haus stehen, wenn an einer
    anderen Straße der gleichen Farbgruppe beispielsweise noch 4 Häuser stehen."
    """
    state = game(
        [{}, {}],
        lots={BADSTRASSE: {"owner": 0, "houses": 1}, TURMSTRASSE: {"owner": 0, "houses": 2}},
    )
    refuse(state, "sell_building", 0, "sell_evenly", square=BADSTRASSE)
    act(state, "sell_building", 0, square=TURMSTRASSE)
    act(state, "sell_building", 0, square=BADSTRASSE)
    assert [state.houses[i] for i in BROWN] == [0, 1]
    refuse(state, "sell_building", 0, "no_buildings", square=BADSTRASSE)
    act(state, "sell_building", 0, square=TURMSTRASSE)
    assert [state.houses[i] for i in BROWN] == [0, 0]


def test_selling_a_hotel_gives_back_four_houses_and_half_the_price() -> None:
    """000: "Das Hotel wird an die Bank zurückgegeben, - der Spieler erhält dafür 4 Häuser
    plus den halben Kaufpreis des Hotels."
    """
    state = game(
        [{}, {}],
        lots={BADSTRASSE: {"owner": 0, "houses": 4}, TURMSTRASSE: {"owner": 0, "hotel": True}},
    )
    assert (state.bank_houses, state.bank_hotels) == (28, 11)
    events = act(state, "sell_building", 0, square=TURMSTRASSE)
    assert payments(events) == [(-1, 0, 25, "sell_building")]
    assert of_type(events, "sold_building")[0]["building"] == "hotel"
    assert state.houses[TURMSTRASSE] == 4
    assert (state.bank_houses, state.bank_hotels) == (24, 12)


def test_hotel_must_go_before_the_houses_of_the_group() -> None:
    state = game(
        [{}, {}],
        lots={BADSTRASSE: {"owner": 0, "houses": 4}, TURMSTRASSE: {"owner": 0, "hotel": True}},
    )
    refuse(state, "sell_building", 0, "sell_evenly", square=BADSTRASSE)


def test_no_hotel_break_down_without_four_houses_in_stock() -> None:
    """000: "Ebenso gilt, dass ein Spieler kein Hotel an die Bank zurückverkaufen kann,
    wenn nicht genügend Häuser vorhanden sind, die das Hotel ersetzen sollen."
    """
    lots = owned(0, *BROWN, hotel=True)
    state = game([{}, {}], lots=lots, bank={"houses": 3, "hotels": 10})
    error = refuse(state, "sell_building", 0, "no_houses_to_replace_hotel", square=TURMSTRASSE)
    assert error.params == {"needed": 4}
    assert {"type": "sell_building", "player": 0, "square": TURMSTRASSE} not in legal_actions(
        state, 0
    )
    state = game([{}, {}], lots=lots, bank={"houses": 4, "hotels": 10})
    act(state, "sell_building", 0, square=TURMSTRASSE)
    assert state.bank_houses == 0


def test_selling_in_other_players_turns_and_in_jail() -> None:
    state = game([{}, {"position": 10, "in_jail": True}], lots=owned(1, *BROWN, houses=1))
    events = act(state, "sell_building", 1, square=BADSTRASSE)
    assert payments(events) == [(-1, 1, 25, "sell_building")]


def test_only_the_owner_sells() -> None:
    state = game([{}, {}], lots=owned(1, *BROWN, houses=1))
    refuse(state, "sell_building", 0, "not_your_property", square=BADSTRASSE)


# -- the bank's stock --------------------------------------------------------------------------


def test_no_houses_left() -> None:
    """000: "Wenn die Bank keine Gebäude mehr zu verkaufen hat, müssen die bauwilligen
    Spieler warten, bis ein anderer Spieler Gebäude an die Bank zurückgibt oder verkauft."
    """
    state = game([{}, {}], lots=owned(0, *BROWN), bank={"houses": 0})
    refuse(state, "build", 0, "no_houses_left", square=BADSTRASSE)
    assert not [a for a in legal_actions(state, 0) if a["type"] == "build"]


def test_no_hotels_left() -> None:
    state = game([{}, {}], lots=owned(0, *BROWN, houses=4), bank={"hotels": 0})
    refuse(state, "build", 0, "no_hotels_left", square=BADSTRASSE)


def test_houses_come_back_to_the_stock_when_sold() -> None:
    state = game(
        [{"cash": 0}, {}],
        lots={**owned(0, *BROWN, houses=1), **owned(1, *DARK_BLUE)},
        bank={"houses": 0},
    )
    refuse(state, "build", 1, "no_houses_left", square=PARKSTRASSE)
    act(state, "sell_building", 0, square=BADSTRASSE)
    assert state.bank_houses == 1
    act(state, "build", 1, square=PARKSTRASSE)
    assert state.bank_houses == 0


# -- the shortage auction ----------------------------------------------------------------------

SHORT = {"houses": 1}


def shortage_game(**extra):
    """Player 0 owns brown (50 a house), player 1 dark blue (200); the bank has 1 house."""
    lots = {**owned(0, *BROWN), **owned(1, *DARK_BLUE)}
    lots.update(extra.pop("lots", {}))
    return game(extra.pop("players", [{}, {}]), lots=lots, bank=extra.pop("bank", SHORT), **extra)


def test_scarce_houses_are_auctioned_between_the_builders() -> None:
    """000: "Wollen zwei oder mehr Spieler eine höhere Anzahl Gebäude kaufen als die Bank
    zur Verfügung hat, werden die vorhandenen Gebäude einzeln an den Meistbietenden
    versteigert. Als Mindestgebot gilt der niedrigste, gedruckte Preis auf einer der
    entsprechenden Besitzrechtkarten."
    """
    state = shortage_game()
    assert shortage_rivals(state, 0, "house") == [1]
    events = act(state, "build", 0, square=BADSTRASSE)
    assert payments(events) == []
    assert of_type(events, "auction_started") == [
        {"type": "auction_started", "kind": "house", "requested_by": 0, "min": 50}
    ]
    assert state.phase == "auction"
    assert state.auction["bidders"] == [0, 1]
    refuse(state, "bid", 0, "bid_too_low", amount=49)
    act(state, "bid", 0, amount=50)
    events = act(state, "auction_pass", 1)
    assert payments(events) == [(0, -1, 50, "auction")]
    assert state.phase == "place_building"
    assert waiting_for(state) == [0]
    places = [a for a in legal_actions(state, 0) if a["type"] == "build"]
    assert places == [
        {"type": "build", "player": 0, "square": BADSTRASSE},
        {"type": "build", "player": 0, "square": TURMSTRASSE},
    ]
    events = act(state, "build", 0, square=TURMSTRASSE)
    assert payments(events) == []
    assert state.houses[TURMSTRASSE] == 1
    assert state.bank_houses == 0
    assert state.phase == "roll"
    assert cash(state) == [1450, 1500]


def test_the_rival_may_win_the_scarce_house() -> None:
    state = shortage_game()
    act(state, "build", 0, square=BADSTRASSE)
    act(state, "bid", 1, amount=250)
    act(state, "auction_pass", 0)
    assert state.pending_building == {"player": 1, "kind": "house", "price": 250}
    refuse(state, "build", 0, "not_your_building", square=BADSTRASSE)
    refuse(state, "roll", 0, "wrong_phase")
    act(state, "build", 1, square=SCHLOSSALLEE)
    assert state.houses[SCHLOSSALLEE] == 1
    assert cash(state) == [1500, 1250]
    assert state.houses[BADSTRASSE] == 0


def test_a_won_house_must_be_placed_evenly() -> None:
    state = shortage_game(lots={BADSTRASSE: {"owner": 0, "houses": 1}}, bank={"houses": 1})
    act(state, "build", 0, square=TURMSTRASSE)
    act(state, "bid", 0, amount=50)
    act(state, "auction_pass", 1)
    refuse(state, "build", 0, "build_evenly", square=BADSTRASSE)
    act(state, "build", 0, square=TURMSTRASSE)


def test_only_players_who_could_build_bid_for_a_scarce_house() -> None:
    state = shortage_game(players=[{}, {}, {}])
    assert state.bank_houses == 1
    act(state, "build", 0, square=BADSTRASSE)
    assert state.auction["bidders"] == [0, 1]
    refuse(state, "bid", 2, "not_a_bidder", amount=500)


def test_no_auction_when_no_rival_could_build() -> None:
    state = shortage_game(players=[{}, {"cash": 199}])
    assert shortage_rivals(state, 0, "house") == []
    events = act(state, "build", 0, square=BADSTRASSE)
    assert payments(events) == [(0, -1, 50, "build")]
    assert state.bank_houses == 0


def test_no_auction_while_the_stock_is_enough_for_everyone() -> None:
    state = shortage_game(bank={"houses": 2})
    events = act(state, "build", 0, square=BADSTRASSE)
    assert payments(events) == [(0, -1, 50, "build")]


def test_setting_without_shortage_auctions() -> None:
    state = shortage_game(rules={"building_shortage_auction": False})
    act(state, "build", 0, square=BADSTRASSE)
    assert state.bank_houses == 0
    assert state.auction is None


def test_scarce_hotels_are_auctioned_too() -> None:
    state = shortage_game(
        lots={**owned(0, *BROWN, houses=4), **owned(1, *DARK_BLUE, houses=4)},
        bank={"hotels": 1},
    )
    act(state, "build", 0, square=BADSTRASSE)
    assert state.auction["kind"] == "hotel"
    assert state.auction["min"] == 50
    act(state, "bid", 1, amount=300)
    act(state, "auction_pass", 0)
    act(state, "build", 1, square=PARKSTRASSE)
    assert state.houses[PARKSTRASSE] == HOTEL
    assert state.bank_hotels == 0
    assert cash(state) == [1500, 1200]


def test_when_every_builder_passes_nothing_is_sold() -> None:
    state = shortage_game()
    act(state, "build", 0, square=BADSTRASSE)
    act(state, "auction_pass", 0)
    events = act(state, "auction_pass", 1)
    assert of_type(events, "auction_unsold") == [{"type": "auction_unsold", "kind": "house"}]
    assert state.bank_houses == 1
    assert state.phase == "roll"


def test_a_won_building_that_can_no_longer_be_placed_is_refunded() -> None:
    state = shortage_game()
    act(state, "build", 0, square=BADSTRASSE)
    act(state, "bid", 1, amount=250)
    act(state, "mortgage", 1, square=PARKSTRASSE)  # no building on dark blue any more
    events = act(state, "auction_pass", 0)
    assert payments(events) == [(1, -1, 250, "auction"), (-1, 1, 250, "building_refund")]
    assert state.pending_building is None
    assert state.bank_houses == 1
    assert cash(state) == [1500, 1500 + 175]
