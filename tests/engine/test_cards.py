"""Ereigniskarten (chance) and Gemeinschaftskarten (community chest) of the de_euro decks.

000: "Landet man mit seiner Spielfigur auf einem dieser Felder, zieht man die oberste
Karte von dem entsprechenden Stapel ... Dann wird die Karte mit dem Text nach unten
wieder unter den Stapel geschoben."
"""

from __future__ import annotations

from typing import Any

import pytest

from bot.engine import GameState
from bot.engine.legal import legal_actions, waiting_for
from tests.engine.conftest import (
    BADSTRASSE,
    BROWN,
    CHANCE_7,
    CHANCE_22,
    CHANCE_36,
    COMMUNITY_2,
    COMMUNITY_17,
    COMMUNITY_33,
    DARK_BLUE,
    HAUPTBAHNHOF,
    INCOME_TAX,
    JAIL,
    LOS,
    NORDBAHNHOF,
    OPERNPLATZ,
    SCHLOSSALLEE,
    SEESTRASSE,
    SUEDBAHNHOF,
    WESTBAHNHOF,
    act,
    cash,
    game,
    of_type,
    owned,
    payments,
    refuse,
)

# Where a token starts and what it throws to reach each card square (no doubles
# except for square 2, which cannot be reached from LOS otherwise without passing it).
REACH = {
    CHANCE_7: (0, [3, 4]),
    CHANCE_22: (19, [1, 2]),
    CHANCE_36: (33, [1, 2]),
    COMMUNITY_2: (0, [1, 1]),
    COMMUNITY_17: (14, [1, 2]),
    COMMUNITY_33: (29, [1, 3]),
}
DECK_OF = {
    CHANCE_7: "chance",
    CHANCE_22: "chance",
    CHANCE_36: "chance",
    COMMUNITY_2: "community",
    COMMUNITY_17: "community",
    COMMUNITY_33: "community",
}


def draw(
    square: int,
    card: int,
    players: int | list[dict[str, Any]] = 2,
    lots: dict | None = None,
    second: tuple[str, int] | None = None,
) -> tuple[GameState, list[dict[str, Any]]]:
    """Player 0 throws onto ``square`` and draws ``card`` from its deck.

    ``second`` puts a card on top of the other deck too (for cards that lead there).
    """
    start, dice = REACH[square]
    if isinstance(players, int):
        players = [{} for _ in range(players)]
    players = [{**players[0], "position": start}, *players[1:]]
    deck = DECK_OF[square]
    decks = {deck: _order(card)}
    if second is not None:
        decks[second[0]] = _order(second[1])
    state = game(players, lots=lots, decks=decks)
    events = act(state, "roll", 0, dice=dice)
    drawn = of_type(events, "card")
    assert drawn[0] == {"type": "card", "player": 0, "deck": deck, "card": card}
    return state, events


def _order(top: int) -> list[int]:
    return [top, *[c for c in range(1, 17) if c != top]]


def text(state: GameState, deck: str, card: int) -> str:
    return state.board.card(deck, card).text


# -- cards that pay or collect ------------------------------------------------------------

MONEY_CARDS = [
    ("chance", 9, "Dividende", 50),
    ("chance", 10, "Anleihezinsen", 150),
    ("chance", 11, "Kreuzworträtsel", 100),
    ("chance", 15, "zu schnelles Fahren", -15),
    ("chance", 16, "Schulgeld", -150),
    ("community", 6, "Bank-Irrtum", 200),
    ("community", 7, "Jahresrente", 100),
    ("community", 8, "erbst", 100),
    ("community", 9, "Lagerverkäufen", 50),
    ("community", 10, "Vorzugs-Aktien", 25),
    ("community", 11, "Einkommensteuer-Rückzahlung", 20),
    ("community", 12, "Schönheitskonkurrenz", 10),
    ("community", 14, "Arzt-Kosten", -50),
    ("community", 15, "Krankenhaus", -100),
]


@pytest.mark.parametrize(("deck", "card", "words", "delta"), MONEY_CARDS)
def test_cards_paying_or_collecting_from_the_bank(
    deck: str, card: int, words: str, delta: int
) -> None:
    square = CHANCE_22 if deck == "chance" else COMMUNITY_17
    state, events = draw(square, card)
    assert words in text(state, deck, card)
    expected = (-1, 0, delta, "card") if delta > 0 else (0, -1, -delta, "card")
    assert payments(events) == [expected]
    assert cash(state) == [1500 + delta, 1500]
    assert state.players[0].position == square
    assert state.phase == "end"


def test_a_drawn_card_goes_under_its_deck() -> None:
    """000: "Dann wird die Karte mit dem Text nach unten wieder unter den Stapel
    geschoben."
    """
    state, _ = draw(CHANCE_22, 9)
    assert state.decks["chance"] == [*range(1, 9), *range(10, 17), 9]
    assert state.decks["community"] == list(range(1, 17))


def test_the_next_player_draws_the_next_card() -> None:
    state, _ = draw(CHANCE_22, 9, players=[{}, {"position": 19}])
    act(state, "end_turn", 0)
    events = act(state, "roll", 1, dice=[1, 2])
    assert of_type(events, "card")[0]["card"] == 1  # card 9 went under; 1 is next
    assert of_type(events, "moved")[-1]["to"] == LOS


def test_card_payment_above_cash_becomes_a_debt_to_the_bank() -> None:
    state, events = draw(CHANCE_22, 16, players=[{"cash": 100}, {}])
    assert state.phase == "debt"
    assert state.debts == [{"debtor": 0, "creditor": -1, "amount": 150, "reason": "card"}]


# -- cards that move the token --------------------------------------------------------------


def test_advance_to_los_pays_the_salary() -> None:
    """000: "Kommen Sie dabei über 'LOS', ziehen Sie Ihr Gehalt ein."."""
    for deck, square in (("chance", CHANCE_22), ("community", COMMUNITY_17)):
        state, events = draw(square, 1)
        assert text(state, deck, 1) == "Rücke vor bis auf Los."
        assert state.players[0].position == LOS
        assert payments(events) == [(-1, 0, 200, "salary")]


def test_advance_to_schlossallee_without_passing_los() -> None:
    state, events = draw(CHANCE_22, 2)
    assert "Schlossallee" in text(state, "chance", 2)
    assert state.players[0].position == SCHLOSSALLEE
    assert payments(events) == []
    assert state.phase == "buy"
    assert state.pending_buy == SCHLOSSALLEE


def test_advance_to_schlossallee_pays_the_owner_double_rent_of_the_group() -> None:
    state, events = draw(CHANCE_36, 2, lots=owned(1, *DARK_BLUE))
    assert payments(events) == [(0, 1, 100, "rent")]


@pytest.mark.parametrize(
    ("card", "target", "words"),
    [(3, OPERNPLATZ, "Opernplatz"), (4, SEESTRASSE, "Seestraße"), (5, SUEDBAHNHOF, "Südbahnhof")],
)
@pytest.mark.parametrize("square", [CHANCE_7, CHANCE_22, CHANCE_36])
def test_advance_cards_pay_the_salary_only_when_passing_los(
    card: int, target: int, words: str, square: int
) -> None:
    """e.g. "Rücke vor bis zur Seestraße. Wenn du über Los kommst, ziehe 200 € ein."."""
    state, events = draw(square, card)
    assert words in text(state, "chance", card)
    assert state.players[0].position == target
    passes = target < square
    assert payments(events) == ([(-1, 0, 200, "salary")] if passes else [])
    assert state.phase == "buy"


def test_trip_to_suedbahnhof_pays_normal_railroad_rent() -> None:
    state, events = draw(CHANCE_7, 5, lots=owned(1, SUEDBAHNHOF, WESTBAHNHOF))
    assert payments(events) == [(-1, 0, 200, "salary"), (0, 1, 50, "rent")]


@pytest.mark.parametrize("square", [COMMUNITY_17, COMMUNITY_33])
def test_go_back_to_badstrasse_collects_no_salary(square: int) -> None:
    """'Gehe zurück zur Badstraße.' moves backwards: LOS is not passed in its direction."""
    state, events = draw(square, 2, lots=owned(1, BADSTRASSE))
    assert text(state, "community", 2) == "Gehe zurück zur Badstraße."
    assert state.players[0].position == BADSTRASSE
    moved = of_type(events, "moved")[-1]
    assert moved["to"] == BADSTRASSE
    assert payments(events) == [(0, 1, 2, "rent")]
    assert cash(state) == [1498, 1502]


def test_go_back_to_an_unowned_badstrasse_offers_it() -> None:
    state, events = draw(COMMUNITY_33, 2)
    assert state.phase == "buy"
    assert state.pending_buy == BADSTRASSE
    assert payments(events) == []


@pytest.mark.parametrize(
    ("square", "railroad"),
    [(COMMUNITY_2, SUEDBAHNHOF), (COMMUNITY_17, NORDBAHNHOF), (COMMUNITY_33, HAUPTBAHNHOF)],
)
def test_nearest_railroad_pays_double_rent(square: int, railroad: int) -> None:
    """'Rücke vor bis zum nächsten Bahnhof. Der Eigentümer erhält das Doppelte der
    normalen Miete.'
    """
    state, events = draw(square, 3, lots=owned(1, railroad))
    assert "nächsten Bahnhof" in text(state, "community", 3)
    assert state.players[0].position == railroad
    assert payments(events) == [(0, 1, 50, "rent")]


def test_nearest_railroad_doubles_the_rent_for_the_owners_count() -> None:
    state, events = draw(COMMUNITY_17, 3, lots=owned(1, SUEDBAHNHOF, WESTBAHNHOF, NORDBAHNHOF))
    assert payments(events) == [(0, 1, 200, "rent")]


def test_nearest_railroad_unowned_may_be_bought() -> None:
    """'Hat noch kein Spieler einen Besitzanspruch auf diesen Bahnhof, so kannst du ihn
    von der Bank kaufen.'
    """
    state, events = draw(COMMUNITY_33, 3)
    assert state.phase == "buy"
    assert state.pending_buy == HAUPTBAHNHOF
    act(state, "buy", 0)
    assert state.owner[HAUPTBAHNHOF] == 0
    assert cash(state) == [1300, 1500]


def test_nearest_railroad_mortgaged_pays_nothing() -> None:
    state, events = draw(COMMUNITY_17, 3, lots={NORDBAHNHOF: {"owner": 1, "mortgaged": True}})
    assert payments(events) == []


def test_go_back_three_onto_income_tax() -> None:
    state, events = draw(CHANCE_7, 6)
    assert text(state, "chance", 6) == "Gehe 3 Felder zurück."
    assert state.players[0].position == INCOME_TAX
    assert payments(events) == [(0, -1, 200, "tax")]


def test_go_back_three_onto_a_street() -> None:
    state, events = draw(CHANCE_22, 6)
    assert state.players[0].position == 19
    assert state.phase == "buy"


def test_go_back_three_onto_community_chest_draws_there() -> None:
    state, events = draw(CHANCE_36, 6, second=("community", 6))
    assert state.players[0].position == COMMUNITY_33
    assert [(e["deck"], e["card"]) for e in of_type(events, "card")] == [
        ("chance", 6),
        ("community", 6),
    ]
    assert payments(events) == [(-1, 0, 200, "card")]
    assert state.decks["chance"][-1] == 6
    assert state.decks["community"][-1] == 6


# -- jail cards -------------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("deck", "card", "square"), [("chance", 7, CHANCE_36), ("community", 4, COMMUNITY_33)]
)
def test_go_to_jail_card_collects_no_salary(deck: str, card: int, square: int) -> None:
    """000: "Aber: Sie erhalten kein Gehalt, wenn Sie in das Gefängnis geschickt werden!"."""
    state, events = draw(square, card)
    assert text(state, deck, card).startswith("Gehe in das Gefängnis!")
    assert state.players[0].position == JAIL
    assert state.players[0].in_jail
    assert of_type(events, "jailed")[0]["reason"] == "card"
    assert payments(events) == []
    assert state.phase == "end"


def test_go_to_jail_card_after_doubles_ends_the_turn() -> None:
    state, events = draw(COMMUNITY_2, 4)
    assert state.players[0].in_jail
    assert state.phase == "end"


@pytest.mark.parametrize(
    ("deck", "card", "square"), [("chance", 8, CHANCE_22), ("community", 5, COMMUNITY_17)]
)
def test_get_out_of_jail_card_is_kept(deck: str, card: int, square: int) -> None:
    """000: "Der Spieler, der die Karte 'Du kommst aus dem Gefängnis frei' zieht, behält
    diese zurück, um sie bei Bedarf einzusetzen"."""
    state, events = draw(square, card)
    assert text(state, deck, card).startswith("Du kommst aus dem Gefängnis frei.")
    assert state.players[0].jail_cards == [deck]
    assert card not in state.decks[deck]
    assert len(state.decks[deck]) == 15
    assert payments(events) == []


def test_used_jail_card_goes_back_under_its_deck() -> None:
    """Open question 19: a used card goes back under its deck (as 001/002/003 say)."""
    state, _ = draw(CHANCE_22, 8)
    state.players[0].position = JAIL
    state.players[0].in_jail = True
    act(state, "end_turn", 0)
    state.players[1].position = 17
    act(state, "roll", 1, dice=[1, 2])
    act(state, "end_turn", 1)
    events = act(state, "use_jail_card", 0, deck="chance")
    assert of_type(events, "left_jail")[0]["how"] == "card"
    assert state.players[0].jail_cards == []
    assert not state.players[0].in_jail
    assert state.decks["chance"][-1] == 8
    assert len(state.decks["chance"]) == 16


def test_jail_card_can_be_sold_and_used_by_the_buyer() -> None:
    """000: "... oder er kann diese Karte im Spielverlauf an irgendeinen Spieler zu einem
    frei vereinbarten Preis verkaufen." and "die Karte ... von einem anderen Spieler
    kauft und benutzt."
    """
    state, _ = draw(COMMUNITY_17, 5, players=[{}, {"position": JAIL, "in_jail": True}])
    act(state, "propose_trade", 0, to=1, give={"jail_cards": ["community"]}, get={"cash": 30})
    act(state, "accept_trade", 1, trade=1)
    assert state.players[0].jail_cards == []
    assert state.players[1].jail_cards == ["community"]
    assert cash(state) == [1530, 1470]
    act(state, "end_turn", 0)
    act(state, "use_jail_card", 1, deck="community")
    assert not state.players[1].in_jail
    assert state.decks["community"][-1] == 5


# -- repairs and payments between players ------------------------------------------------------


@pytest.mark.parametrize(
    ("card", "per_house", "per_hotel"),
    [(13, 25, 100), (14, 40, 115)],
)
def test_repairs_per_house_and_hotel(card: int, per_house: int, per_hotel: int) -> None:
    lots = {**owned(0, *BROWN, houses=3), **owned(0, *DARK_BLUE, hotel=True)}
    state, events = draw(CHANCE_22, card, lots=lots)
    amount = 6 * per_house + 2 * per_hotel
    assert payments(events) == [(0, -1, amount, "repairs")]
    assert cash(state) == [1500 - amount, 1500]


def test_repairs_without_buildings_cost_nothing() -> None:
    state, events = draw(CHANCE_22, 13, lots=owned(0, *BROWN))
    assert payments(events) == []
    assert state.phase == "end"


def test_repairs_count_only_own_buildings() -> None:
    state, events = draw(CHANCE_22, 14, lots=owned(1, *BROWN, houses=4))
    assert payments(events) == []


def test_pay_each_player() -> None:
    """'Du bist zum Vorstand gewählt worden. Zahle jedem Spieler 50 €.'."""
    state, events = draw(CHANCE_22, 12, players=3)
    assert payments(events) == [(0, 1, 50, "card"), (0, 2, 50, "card")]
    assert cash(state) == [1400, 1550, 1550]


def test_pay_each_player_skips_bankrupt_players() -> None:
    state = game([{"position": 19}, {}, {}], decks={"chance": _order(12)})
    state.players[1].bankrupt = True
    events = act(state, "roll", 0, dice=[1, 2])
    assert payments(events) == [(0, 2, 50, "card")]


def test_pay_each_player_above_cash_becomes_debts() -> None:
    state, events = draw(CHANCE_22, 12, players=[{"cash": 70}, {}, {}])
    assert payments(events) == [(0, 1, 50, "card")]
    assert state.debts == [{"debtor": 0, "creditor": 2, "amount": 50, "reason": "card"}]
    assert state.phase == "debt"
    assert cash(state) == [20, 1550, 1500]


def test_birthday_collects_from_each_player() -> None:
    """'Es ist dein Geburtstag. Ziehe von jedem Spieler 10 € ein.'."""
    state, events = draw(COMMUNITY_17, 13, players=3)
    assert payments(events) == [(1, 0, 10, "card"), (2, 0, 10, "card")]
    assert cash(state) == [1520, 1490, 1490]


def test_birthday_from_a_player_without_cash_waits_for_that_player() -> None:
    state, events = draw(COMMUNITY_17, 13, players=[{}, {"cash": 5}, {}])
    assert payments(events) == [(2, 0, 10, "card")]
    assert state.phase == "debt"
    assert state.debts == [{"debtor": 1, "creditor": 0, "amount": 10, "reason": "card"}]
    assert waiting_for(state) == [1]


# -- fine or chance card ------------------------------------------------------------------------


def test_fine_or_chance_is_a_choice() -> None:
    """'Zahle eine Strafe von 10 € oder nimm eine Ereigniskarte.'."""
    state, events = draw(COMMUNITY_17, 16)
    assert (
        text(state, "community", 16) == "Zahle eine Strafe von 10 € oder nimm eine Ereigniskarte."
    )
    assert state.phase == "choice"
    assert payments(events) == []
    assert waiting_for(state) == [0]
    assert {"type": "choose", "player": 0, "option": "pay"} in legal_actions(state, 0)
    assert {"type": "choose", "player": 0, "option": "draw"} in legal_actions(state, 0)
    refuse(state, "end_turn", 0, "wrong_phase")
    refuse(state, "choose", 1, "not_your_turn", option="pay")
    refuse(state, "choose", 0, "bad_option", option="both")


def test_fine_or_chance_paying_the_fine() -> None:
    state, _ = draw(COMMUNITY_17, 16)
    events = act(state, "choose", 0, option="pay")
    assert payments(events) == [(0, -1, 10, "card")]
    assert state.phase == "end"
    assert state.decks["community"][-1] == 16


def test_fine_or_chance_drawing_a_chance_card() -> None:
    state, _ = draw(COMMUNITY_17, 16, second=("chance", 11))
    events = act(state, "choose", 0, option="draw")
    assert of_type(events, "card") == [{"type": "card", "player": 0, "deck": "chance", "card": 11}]
    assert payments(events) == [(-1, 0, 100, "card")]
    assert state.decks["chance"][-1] == 11
    assert state.phase == "end"


def test_fine_or_chance_after_doubles_then_roll_again() -> None:
    state, _ = draw(COMMUNITY_2, 16)
    act(state, "choose", 0, option="pay")
    assert state.phase == "roll"
    assert state.current == 0


# -- every card is covered ----------------------------------------------------------------------


def test_every_card_of_both_decks_has_a_test_here() -> None:
    covered = {
        "chance": {9, 10, 11, 15, 16, 1, 2, 3, 4, 5, 6, 7, 8, 12, 13, 14},
        "community": {6, 7, 8, 9, 10, 11, 12, 14, 15, 1, 2, 3, 4, 5, 13, 16},
    }
    state = game(2)
    for deck, ids in covered.items():
        assert ids == {c.id for c in state.board.decks[deck]}
