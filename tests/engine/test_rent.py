"""Rent: streets, full groups, houses and hotels, railroads, utilities, mortgages, claims."""

from __future__ import annotations

import pytest

from bot.engine import turns
from bot.engine.legal import legal_actions
from tests.engine.conftest import (
    BADSTRASSE,
    BROWN,
    ELEKTRIZITAETSWERK,
    HAUPTBAHNHOF,
    JAIL,
    NORDBAHNHOF,
    PARKSTRASSE,
    RAILROADS,
    SCHLOSSALLEE,
    SUEDBAHNHOF,
    TURMSTRASSE,
    WASSERWERK,
    WESTBAHNHOF,
    act,
    cash,
    game,
    of_type,
    owned,
    payments,
    refuse,
)

# -- streets -----------------------------------------------------------------------------


def test_street_rent_as_printed() -> None:
    """000: "Die Höhe der Miete ist auf jeder Karte aufgedruckt"."""
    state = game([{}, {}], lots=owned(1, TURMSTRASSE))
    events = act(state, "roll", 0, dice=[1, 2])
    assert payments(events) == [(0, 1, 4, "rent")]
    assert cash(state) == [1496, 1504]
    assert state.phase == "end"


def test_full_group_doubles_unbuilt_rent() -> None:
    """000: "Die Miete bei Straßen verdoppelt sich, wenn ein Spieler alle Straßen einer
    Farbe besitzt."
    """
    state = game([{}, {}], lots=owned(1, *BROWN))
    events = act(state, "roll", 0, dice=[1, 2])
    assert payments(events) == [(0, 1, 8, "rent")]


def test_group_split_between_players_is_not_doubled() -> None:
    state = game([{}, {}, {}], lots={**owned(1, TURMSTRASSE), **owned(2, BADSTRASSE)})
    events = act(state, "roll", 0, dice=[1, 2])
    assert payments(events) == [(0, 1, 4, "rent")]


def test_full_group_doubles_even_with_a_mortgaged_street() -> None:
    """000: "Dies gilt auch, wenn andere Straßen dieser Farbgruppe mit Hypotheken
    belastet sind."
    """
    state = game(
        [{}, {}],
        lots={BADSTRASSE: {"owner": 1, "mortgaged": True}, TURMSTRASSE: {"owner": 1}},
    )
    events = act(state, "roll", 0, dice=[1, 2])
    assert payments(events) == [(0, 1, 8, "rent")]


def test_setting_stops_doubling_with_a_mortgaged_street() -> None:
    """Modern books (001/003) double only if no street of the group is mortgaged:
    ``double_rent_with_mortgaged_in_group=False``.
    """
    state = game(
        [{}, {}],
        lots={BADSTRASSE: {"owner": 1, "mortgaged": True}, TURMSTRASSE: {"owner": 1}},
        rules={"double_rent_with_mortgaged_in_group": False},
    )
    events = act(state, "roll", 0, dice=[1, 2])
    assert payments(events) == [(0, 1, 4, "rent")]


@pytest.mark.parametrize(("houses", "rent"), [(1, 20), (2, 60), (3, 180), (4, 320), ("hotel", 450)])
def test_rent_with_houses_and_hotel(houses: int | str, rent: int) -> None:
    """000: "Durch den Bau von Häusern oder einem Hotel erhöht sich die Miete für eine
    Straße ganz erheblich." (Turmstraße: 20 / 60 / 180 / 320 / 450).
    """
    built = {"hotel": True} if houses == "hotel" else {"houses": houses}
    state = game([{}, {}], lots=owned(1, *BROWN, **built))
    events = act(state, "roll", 0, dice=[1, 2])
    assert payments(events) == [(0, 1, rent, "rent")]
    assert cash(state) == [1500 - rent, 1500 + rent]


def test_built_street_rent_is_not_doubled() -> None:
    state = game([{"position": 35}, {}], lots=owned(1, *BROWN, houses=1))
    events = act(state, "roll", 0, dice=[3, 3])  # 41 -> 1, Badstraße with 1 house
    assert payments(events, "rent") == [(0, 1, 10, "rent")]


def test_schlossallee_with_hotel() -> None:
    state = game(
        [{"cash": 2500, "position": 30 + 3}, {}],
        lots=owned(1, PARKSTRASSE, SCHLOSSALLEE, hotel=True),
    )
    events = act(state, "roll", 0, dice=[2, 4])
    assert payments(events) == [(0, 1, 2000, "rent")]
    assert cash(state) == [500, 3500]


def test_landing_on_own_street_costs_nothing() -> None:
    state = game([{}, {}], lots=owned(0, TURMSTRASSE))
    events = act(state, "roll", 0, dice=[1, 2])
    assert payments(events) == []
    assert state.phase == "end"


def test_no_rent_on_a_mortgaged_street() -> None:
    """000: "Sollte das Grundstück zwar verkauft, aber mit einer Hypothek belastet sein,
    darf keine Miete verlangt werden."
    """
    state = game([{}, {}], lots={TURMSTRASSE: {"owner": 1, "mortgaged": True}})
    events = act(state, "roll", 0, dice=[1, 2])
    assert payments(events) == []
    assert of_type(events, "no_rent")[0]["why"] == "mortgaged"
    assert state.phase == "end"


def test_rent_of_other_streets_in_a_group_with_a_mortgaged_street() -> None:
    """000: "Für ein belastetes Grundstück kann keine Miete verlangt werden, - Miete für
    andere Grundstücke der gleichen Farbgruppe kann dagegen verlangt werden."
    """
    state = game(
        [{}, {}],
        lots={BADSTRASSE: {"owner": 1}, TURMSTRASSE: {"owner": 1, "mortgaged": True}},
    )
    events = act(state, "roll", 0, dice=[1, 2])
    assert payments(events) == []
    act(state, "end_turn", 0)
    state.players[1].position = 20
    act(state, "roll", 1, dice=[1, 2])
    act(state, "decline", 1)
    act(state, "auction_pass", 0)
    act(state, "auction_pass", 1)
    act(state, "end_turn", 1)
    state.players[0].position = 38
    events = act(state, "roll", 0, dice=[1, 2])  # 41 -> 1 Badstraße
    assert payments(events, "rent") == [(0, 1, 4, "rent")]


# -- railroads ---------------------------------------------------------------------------


@pytest.mark.parametrize(("count", "rent"), [(1, 25), (2, 50), (3, 100), (4, 200)])
def test_railroad_rent_by_number_owned(count: int, rent: int) -> None:
    """000: "Die Höhe der Miete ... hängt davon ab, wie viele Bahnhöfe der Eigentümer
    besitzt." (25 / 50 / 100 / 200).
    """
    owned_roads = (SUEDBAHNHOF, *[r for r in RAILROADS if r != SUEDBAHNHOF][: count - 1])
    state = game([{}, {}], lots=owned(1, *owned_roads))
    events = act(state, "roll", 0, dice=[2, 3])
    assert payments(events) == [(0, 1, rent, "rent")]


def test_mortgaged_railroads_still_count_for_rent() -> None:
    """Open question 1: mortgaged railroads still count (``mortgaged_count_for_rent``)."""
    lots = {
        SUEDBAHNHOF: {"owner": 1},
        WESTBAHNHOF: {"owner": 1, "mortgaged": True},
        NORDBAHNHOF: {"owner": 1, "mortgaged": True},
    }
    state = game([{}, {}], lots=lots)
    events = act(state, "roll", 0, dice=[2, 3])
    assert payments(events) == [(0, 1, 100, "rent")]

    state = game([{}, {}], lots=lots, rules={"mortgaged_count_for_rent": False})
    events = act(state, "roll", 0, dice=[2, 3])
    assert payments(events) == [(0, 1, 25, "rent")]


def test_no_rent_on_a_mortgaged_railroad() -> None:
    state = game([{}, {}], lots={SUEDBAHNHOF: {"owner": 1, "mortgaged": True}})
    events = act(state, "roll", 0, dice=[2, 3])
    assert payments(events) == []


def test_railroads_of_different_owners_count_separately() -> None:
    state = game(
        [{}, {}, {}],
        lots={**owned(1, SUEDBAHNHOF, HAUPTBAHNHOF), **owned(2, WESTBAHNHOF, NORDBAHNHOF)},
    )
    events = act(state, "roll", 0, dice=[2, 3])
    assert payments(events) == [(0, 1, 50, "rent")]


# -- utilities ---------------------------------------------------------------------------


def test_one_utility_is_four_times_the_dice() -> None:
    """000: "Besitzt der Eigentümer nur eines der Werke, ist die Miete 4-mal so hoch, wie
    die Augen auf beiden Würfeln." (the throw that moved the token there).
    """
    state = game([{"position": 5}, {}], lots=owned(1, ELEKTRIZITAETSWERK))
    events = act(state, "roll", 0, dice=[3, 4])
    assert payments(events) == [(0, 1, 28, "rent")]


def test_both_utilities_are_ten_times_the_dice() -> None:
    """000: "Besitzt der Eigentümer beide Werke, so ist die Miete 10-mal so hoch."."""
    state = game([{"position": 22}, {}], lots=owned(1, ELEKTRIZITAETSWERK, WASSERWERK))
    events = act(state, "roll", 0, dice=[2, 4])
    assert state.players[0].position == WASSERWERK
    assert payments(events) == [(0, 1, 60, "rent")]


def test_mortgaged_second_utility_still_counts() -> None:
    state = game(
        [{"position": 5}, {}],
        lots={ELEKTRIZITAETSWERK: {"owner": 1}, WASSERWERK: {"owner": 1, "mortgaged": True}},
    )
    events = act(state, "roll", 0, dice=[3, 4])
    assert payments(events) == [(0, 1, 70, "rent")]


def test_utility_rent_uses_the_doubles_that_moved_there() -> None:
    state = game([{"position": 6}, {}], lots=owned(1, ELEKTRIZITAETSWERK))
    events = act(state, "roll", 0, dice=[3, 3])
    assert payments(events) == [(0, 1, 24, "rent")]
    assert state.phase == "roll"


def test_sent_to_a_utility_by_a_card_the_player_throws_for_the_rent() -> None:
    """000: "Wurde ein Spieler durch eine Ereignis- oder Gemeinschaftskarte hierher
    geschickt, so muss er beide Würfel werfen, um die Höhe der Miete zu bestimmen."

    No card of the de_euro decks leads to a utility, so the card move is made directly.
    """
    state = game([{"position": 7}, {}], lots=owned(1, ELEKTRIZITAETSWERK))
    state.last_dice = [1, 2]
    state.dice_queue = [5, 6]
    state.events = []
    turns.move_to(state, 0, ELEKTRIZITAETSWERK, True, {"type": "move_to", "target": 12})
    assert state.dice_queue == []
    assert of_type(state.events, "rolled")[0]["dice"] == [5, 6]
    assert payments(state.events) == [(0, 1, 44, "rent")]


# -- the owner -----------------------------------------------------------------------------


def test_rent_goes_to_a_jailed_owner() -> None:
    """000: "Ein Spieler, der im Gefängnis sitzt, kann Miete kassieren"."""
    state = game(
        [{}, {"position": JAIL, "in_jail": True, "jail_turns": 1}], lots=owned(1, TURMSTRASSE)
    )
    events = act(state, "roll", 0, dice=[1, 2])
    assert payments(events) == [(0, 1, 4, "rent")]


def test_house_rule_no_rent_to_a_jailed_owner() -> None:
    state = game(
        [{}, {"position": JAIL, "in_jail": True}],
        lots=owned(1, TURMSTRASSE),
        rules={"rent_while_in_jail": False},
    )
    events = act(state, "roll", 0, dice=[1, 2])
    assert payments(events) == []
    assert of_type(events, "no_rent")[0]["why"] == "owner_in_jail"


def test_rent_while_doubles_then_roll_again() -> None:
    state = game([{"position": 35}, {}], lots=owned(1, BADSTRASSE))
    events = act(state, "roll", 0, dice=[3, 3])
    assert payments(events) == [(-1, 0, 200, "salary"), (0, 1, 2, "rent")]
    assert state.phase == "roll"


def test_rent_above_cash_becomes_a_debt() -> None:
    state = game(
        [{"cash": 100, "position": 33}, {}], lots=owned(1, *[PARKSTRASSE, SCHLOSSALLEE], houses=1)
    )
    events = act(state, "roll", 0, dice=[1, 3])
    assert payments(events) == []
    assert state.phase == "debt"
    assert state.debts == [{"debtor": 0, "creditor": 1, "amount": 175, "reason": "rent"}]


# -- rent must be claimed (setting) ----------------------------------------------------------

CLAIM = {"rent_must_be_claimed": True}


def test_claimed_rent_is_paid_only_when_claimed() -> None:
    """000: "Der Spieler, dem das Grundstück gehört, muss die Miete verlangen - und zwar
    bevor der nächste Spieler gewürfelt hat."
    """
    state = game([{}, {}], lots=owned(1, TURMSTRASSE), rules=CLAIM)
    events = act(state, "roll", 0, dice=[1, 2])
    assert payments(events) == []
    assert of_type(events, "rent_due") == [
        {"type": "rent_due", "player": 0, "owner": 1, "square": TURMSTRASSE, "amount": 4}
    ]
    assert {"type": "claim_rent", "player": 1, "square": TURMSTRASSE} in legal_actions(state, 1)
    events = act(state, "claim_rent", 1, square=TURMSTRASSE)
    assert payments(events) == [(0, 1, 4, "rent")]
    refuse(state, "claim_rent", 1, "no_rent_to_claim", square=TURMSTRASSE)


def test_rent_may_be_claimed_after_the_turn_ends_until_the_next_roll() -> None:
    state = game([{}, {"position": 17}], lots=owned(1, TURMSTRASSE), rules=CLAIM)
    act(state, "roll", 0, dice=[1, 2])
    act(state, "end_turn", 0)
    assert state.current == 1
    events = act(state, "claim_rent", 1, square=TURMSTRASSE)
    assert payments(events) == [(0, 1, 4, "rent")]


def test_unclaimed_rent_lapses_when_the_next_player_rolls() -> None:
    state = game([{}, {"position": 17}], lots=owned(1, TURMSTRASSE), rules=CLAIM)
    act(state, "roll", 0, dice=[1, 2])
    act(state, "end_turn", 0)
    act(state, "roll", 1, dice=[1, 2])  # Frei Parken
    refuse(state, "claim_rent", 1, "no_rent_to_claim", square=TURMSTRASSE)
    assert cash(state) == [1500, 1500]


def test_claim_survives_the_payers_own_doubles_rethrow() -> None:
    """The next player has not thrown yet while the payer throws again after doubles."""
    state = game([{"position": 35}, {}], lots=owned(1, BADSTRASSE), rules=CLAIM)
    act(state, "roll", 0, dice=[3, 3])  # Badstraße
    act(state, "roll", 0, dice=[1, 2])  # 4, Einkommensteuer
    events = act(state, "claim_rent", 1, square=BADSTRASSE)
    assert payments(events) == [(0, 1, 2, "rent")]


def test_only_the_owner_may_claim() -> None:
    state = game([{}, {}, {}], lots=owned(1, TURMSTRASSE), rules=CLAIM)
    act(state, "roll", 0, dice=[1, 2])
    refuse(state, "claim_rent", 2, "no_rent_to_claim", square=TURMSTRASSE)
    refuse(state, "claim_rent", 1, "no_rent_to_claim", square=BADSTRASSE)


def test_claimed_rent_above_cash_becomes_a_debt() -> None:
    state = game(
        [{"cash": 100, "position": 33}, {}],
        lots=owned(1, PARKSTRASSE, SCHLOSSALLEE, houses=1),
        rules=CLAIM,
    )
    act(state, "roll", 0, dice=[1, 3])
    assert state.phase == "end"
    act(state, "claim_rent", 1, square=PARKSTRASSE)
    assert state.phase == "debt"
    assert state.debts == [{"debtor": 0, "creditor": 1, "amount": 175, "reason": "rent"}]


def test_claim_during_an_auction_never_drives_cash_below_zero() -> None:
    """Rent may be claimed until the next player throws, also while an auction runs;
    a leader who paid rent meanwhile owes the rest of the won bid as a debt.
    """
    state = game([{"cash": 300, "position": 8}, {}], lots=owned(1, ELEKTRIZITAETSWERK), rules=CLAIM)
    act(state, "roll", 0, dice=[2, 2])  # Elektrizitätswerk: 16 € due
    act(state, "roll", 0, dice=[1, 3])  # Münchner Straße, unowned
    act(state, "decline", 0)
    act(state, "bid", 0, amount=300)
    act(state, "claim_rent", 1, square=ELEKTRIZITAETSWERK)
    assert cash(state) == [284, 1516]
    act(state, "auction_pass", 1)
    assert min(cash(state)) >= 0
    assert state.owner[16] == 0
    assert state.phase == "debt"
    assert state.debts == [{"debtor": 0, "creditor": -1, "amount": 300, "reason": "auction"}]
