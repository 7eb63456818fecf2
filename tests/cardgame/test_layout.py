"""Valid lay-outs and what they are worth (004, "Karten auslegen", "Wertung der Runde")."""

from __future__ import annotations

from typing import Any

import pytest

from bot.cardgame.cards import load_deck
from bot.cardgame.layout import score_layout, validate_layout
from bot.engine.errors import IllegalAction
from tests.cardgame.conftest import WORKED_EXAMPLE, YELLOW, group, layout

DECK = load_deck()
EXAMPLE_LAYOUT = layout(
    group(
        "yellow", YELLOW, houses=["house1-1", "house2-1", "house3-1"], tokens=["token-1", "token-2"]
    ),
    bonus=["mrm-1", "mrm-2"],
)


def check(lay: Any, hand: list[str], *, wilds: bool = True, exact: int | None = None, **kw: Any):
    return validate_layout(DECK, lay, hand, wilds=wilds, exact=exact, **kw)


def error(lay: Any, hand: list[str], **kw: Any) -> IllegalAction:
    with pytest.raises(IllegalAction) as caught:
        check(lay, hand, **kw)
    return caught.value


def test_worked_example_lay_out_is_worth_3600_before_mr_monopoly() -> None:
    """ "Der Wert des gelben Straßenzugs ist 300 Euro. Jedes Haus ist ebenfalls 300 Euro
    wert ... Der Straßenzug ist also insgesamt 1200 Euro wert. Weiterhin zählt jede
    Spielfiguren-Karte soviel wie der Straßenzug, also je 1200 Euro, macht zusammen
    3600 Euro." (The 1 000 for the most Mr. Monopoly cards is in test_rounds.)"""
    valid = check(EXAMPLE_LAYOUT, WORKED_EXAMPLE, exact=10)
    worth = score_layout(DECK, valid, token_includes_hotel=True)
    assert worth["groups"] == [{"group": "yellow", "value": 1200, "tokens": 2, "token_value": 1200}]
    assert worth["mr_monopoly"] == 2
    assert worth["total"] == 3600


def test_canonical_order() -> None:
    shuffled = layout(
        group("utility", ["wasserwerk", "elektrizitaetswerk"]),
        group("brown", ["turmstrasse", "badstrasse"], tokens=["token-3", "token-1"]),
        bonus=["mrm-1", "go-1"],
    )
    hand = [
        "wasserwerk",
        "elektrizitaetswerk",
        "turmstrasse",
        "badstrasse",
        "token-3",
        "token-1",
        "mrm-1",
        "go-1",
    ]
    valid = check(shuffled, hand)
    assert [g["group"] for g in valid["groups"]] == ["brown", "utility"]
    assert valid["groups"][0]["cards"] == ["badstrasse", "turmstrasse"]
    assert valid["groups"][0]["tokens"] == ["token-1", "token-3"]
    assert valid["bonus"] == ["go-1", "mrm-1"]
    assert valid["groups"][0]["houses"] == [] and valid["groups"][0]["hotel"] is None


def test_values_of_every_part() -> None:
    """LOS 200 each; hotel 500 after four houses; railroads by count; tokens per group."""
    deck_houses = ["house1-1", "house2-1", "house3-1", "house4-1"]
    lay = layout(
        group(
            "dark_blue",
            ["parkstrasse", "schlossallee"],
            houses=deck_houses,
            hotel="hotel-1",
            tokens=["token-1"],
        ),
        group("railroad", ["suedbahnhof", "westbahnhof", "nordbahnhof"], tokens=["token-2"]),
        bonus=["go-1", "go-2"],
    )
    hand = [
        "parkstrasse",
        "schlossallee",
        *deck_houses,
        "hotel-1",
        "token-1",
        "suedbahnhof",
        "westbahnhof",
        "nordbahnhof",
        "token-2",
        "go-1",
        "go-2",
    ]
    worth = score_layout(DECK, check(lay, hand), token_includes_hotel=True)
    # dark blue 400 x 5 + hotel 500 = 2 500; its token 2 500; 3 railroads 200, token 200.
    assert worth["total"] == 2500 + 2500 + 200 + 200 + 400
    without = score_layout(DECK, check(lay, hand), token_includes_hotel=False)
    assert without["total"] == worth["total"] - 500


def test_railroads_two_three_four() -> None:
    """ "2 davon sind ebenfalls schon eine vollständige Gruppe, aber weniger wert als eine
    Gruppe mit 3 oder 4 Bahnhöfen." """
    rails = ["suedbahnhof", "westbahnhof", "nordbahnhof", "hauptbahnhof"]
    values = [
        score_layout(DECK, check(layout(group("railroad", rails[:n])), rails), True)["total"]
        for n in (2, 3, 4)
    ]
    assert values == [100, 200, 400]
    err = error(layout(group("railroad", rails[:1])), rails)
    assert err.code == "layout_incomplete_group"
    assert err.params["need"] == 2


@pytest.mark.parametrize(
    ("lay", "hand", "code", "params"),
    [
        (
            layout(group("yellow", YELLOW[:2])),
            YELLOW,
            "layout_incomplete_group",
            {"group": "yellow", "missing": ["goethestrasse"], "need": 3, "have": 2},
        ),
        (
            layout(group("yellow", YELLOW, houses=["house1-1", "house2-1", "house4-1"])),
            [*YELLOW, "house1-1", "house2-1", "house4-1"],
            "house_out_of_order",
            {"group": "yellow", "card": "house4-1", "number": 4, "needs": 3},
        ),
        (
            layout(group("yellow", YELLOW, houses=["house2-1"])),
            [*YELLOW, "house2-1"],
            "house_out_of_order",
            {"group": "yellow", "card": "house2-1", "number": 2, "needs": 1},
        ),
        (
            layout(
                group(
                    "yellow", YELLOW, houses=["house1-1", "house2-1", "house3-1"], hotel="hotel-1"
                )
            ),
            [*YELLOW, "house1-1", "house2-1", "house3-1", "hotel-1"],
            "hotel_without_fourth_house",
            {"group": "yellow", "houses": 3},
        ),
        (
            layout(group("yellow", YELLOW), bonus=["token-1"]),
            [*YELLOW, "token-1"],
            "token_without_group",
            {"card": "token-1"},
        ),
        (layout(bonus=["go-1"]), ["go-1"], "no_complete_group", {}),
        (
            layout(group("railroad", ["suedbahnhof", "westbahnhof"], houses=["house1-1"])),
            ["suedbahnhof", "westbahnhof", "house1-1"],
            "no_buildings_here",
            {"group": "railroad"},
        ),
        (
            layout(group("yellow", [*YELLOW[:2], "wild-1"])),
            [*YELLOW[:2], "wild-1"],
            "wild_not_allowed",
            {"card": "wild-1"},
        ),
        (
            layout(group("yellow", YELLOW), bonus=["badstrasse"]),
            [*YELLOW, "badstrasse"],
            "layout_incomplete_group",
            {"group": "brown", "missing": ["turmstrasse"], "need": 2, "have": 1},
        ),
        (
            layout(group("yellow", YELLOW), bonus=["house1-1"]),
            [*YELLOW, "house1-1"],
            "house_without_group",
            {"card": "house1-1", "number": 1},
        ),
        (
            layout(group("yellow", YELLOW), bonus=["hotel-1"]),
            [*YELLOW, "hotel-1"],
            "hotel_without_group",
            {"card": "hotel-1"},
        ),
        (
            layout(group("yellow", [*YELLOW, "badstrasse"])),
            [*YELLOW, "badstrasse"],
            "wrong_group_card",
            {"card": "badstrasse", "group": "yellow", "card_group": "brown"},
        ),
        (
            layout(group("yellow", YELLOW), group("yellow", YELLOW)),
            YELLOW,
            "card_twice",
            {"card": "lessingstrasse"},
        ),
        (
            layout(group("yellow", YELLOW)),
            YELLOW[:2],
            "card_not_available",
            {"card": "goethestrasse"},
        ),
        (
            layout(group("pink", YELLOW)),
            YELLOW,
            "wrong_group_card",
            {"card": "lessingstrasse", "group": "pink", "card_group": "yellow"},
        ),
        (layout(group("violet", YELLOW)), YELLOW, "unknown_group", {"group": "violet"}),
        (layout(group("yellow", ["gold"])), YELLOW, "unknown_card", {"card": "gold"}),
        (
            layout(group("yellow", YELLOW, houses=["token-1"])),
            [*YELLOW, "token-1"],
            "not_a_house",
            {"card": "token-1", "group": "yellow"},
        ),
        (
            layout(group("yellow", YELLOW, tokens=["go-1"])),
            [*YELLOW, "go-1"],
            "not_a_token",
            {"card": "go-1", "group": "yellow"},
        ),
    ],
)
def test_invalid_lay_outs_name_the_problem(lay, hand, code, params) -> None:
    err = error(lay, hand, wilds=False)
    assert err.code == code
    assert err.params == params


@pytest.mark.parametrize(
    "bad",
    [
        None,
        [],
        {"groups": []},
        {"groups": [], "bonus": "x"},
        {"groups": [1], "bonus": []},
        {"groups": [{"group": "yellow"}], "bonus": []},
        {"groups": [{"group": "yellow", "cards": [1]}], "bonus": []},
        {"groups": [{"group": "yellow", "cards": [], "extra": 1}], "bonus": []},
        {"groups": [{"group": "yellow", "cards": [], "hotel": 5}], "bonus": []},
        {"groups": [], "bonus": [], "more": 1},
    ],
)
def test_malformed(bad) -> None:
    assert error(bad, YELLOW).code == "layout_malformed"


def test_wild_card_replaces_property_house_and_hotel() -> None:
    """ "Die EREIGNISKARTEN (2) können als Joker jede Grundbesitz-, Haus- und Hotel-Karte
    ersetzen, die für eine vollständige Gruppe noch fehlt." The book's picture: a street
    replaced by a wild card, and the 3rd house replaced so that the 4th house fits."""
    hand = [
        "lessingstrasse",
        "schillerstrasse",
        "wild-1",
        "house1-1",
        "house2-1",
        "wild-2",
        "house4-1",
        "token-1",
        "mrm-1",
        "go-1",
    ]
    lay = layout(
        group(
            "yellow",
            ["lessingstrasse", "schillerstrasse", "wild-1"],
            houses=["house1-1", "house2-1", "wild-2", "house4-1"],
            tokens=["token-1"],
        ),
        bonus=["mrm-1", "go-1"],
    )
    valid = check(lay, hand, exact=10)
    # yellow 300 x 5 = 1 500, token 1 500, LOS 200
    assert score_layout(DECK, valid, True)["total"] == 3200
    hotel = layout(
        group(
            "dark_blue",
            ["parkstrasse", "schlossallee"],
            houses=["house1-1", "house2-1", "house3-1", "house4-1"],
            hotel="wild-1",
        )
    )
    hand = ["parkstrasse", "schlossallee", "house1-1", "house2-1", "house3-1", "house4-1", "wild-1"]
    assert score_layout(DECK, check(hotel, hand), True)["total"] == 2500


def test_wild_card_only_for_the_ender() -> None:
    """ "DAS GILT ABER NUR FÜR DEN, DER DIE RUNDE BEENDET" """
    lay = layout(group("brown", ["badstrasse", "wild-1"]))
    assert check(lay, ["badstrasse", "wild-1"], wilds=True)
    assert error(lay, ["badstrasse", "wild-1"], wilds=False).code == "wild_not_allowed"


def test_unused_wild_card_is_a_bonus_card_for_the_ender() -> None:
    """Ereigniskarten are Bonuskarten; a hand may hold "neben den vollständigen Gruppen nur
    noch Bonuskarten"; one that replaces nothing is worth nothing."""
    lay = layout(group("brown", ["badstrasse", "turmstrasse"]), bonus=["wild-1"])
    valid = check(lay, ["badstrasse", "turmstrasse", "wild-1"], exact=3)
    assert score_layout(DECK, valid, True)["total"] == 50


def test_group_of_wild_cards_only_is_a_setting() -> None:
    lay = layout(
        group("brown", ["wild-1", "wild-2"]), group("utility", ["wasserwerk", "elektrizitaetswerk"])
    )
    hand = ["wild-1", "wild-2", "wasserwerk", "elektrizitaetswerk"]
    assert error(lay, hand).code == "wild_group_only"
    assert check(lay, hand, wild_only_groups=True)


def test_too_many_cards_and_houses() -> None:
    rails = ["suedbahnhof", "westbahnhof", "nordbahnhof", "hauptbahnhof"]
    err = error(layout(group("railroad", [*rails, "wild-1"])), [*rails, "wild-1"])
    assert (err.code, err.params) == ("too_many_cards", {"group": "railroad", "most": 4})
    houses = ["house1-1", "house2-1", "house3-1", "house4-1", "wild-1"]
    err = error(layout(group("yellow", YELLOW, houses=houses)), [*YELLOW, *houses])
    assert err.code == "too_many_houses"


def test_whole_hand_must_go_down() -> None:
    """ "Der Spieler darf nur dann auslegen, wenn seine 10 Karten nur vollständige Gruppen
    ... [und] nur noch Bonuskarten enthalten": a card left out is named with its reason."""
    hand = [*YELLOW, "badstrasse", "house1-1", "house2-1", "mrm-2", "token-1", "go-1", "mrm-1"]
    lay = layout(
        group("yellow", YELLOW, houses=["house1-1", "house2-1"], tokens=["token-1"]),
        bonus=["go-1", "mrm-1", "mrm-2"],
    )
    err = error(lay, hand, exact=10)
    assert err.code == "layout_incomplete_group"
    assert err.params == {"group": "brown", "missing": ["turmstrasse"], "need": 2, "have": 1}
    hand[3] = "house3-1"
    err = error(lay, hand, exact=10)
    assert (err.code, err.params) == ("house_not_placed", {"card": "house3-1", "number": 3})
    hand[3] = "go-2"
    err = error(lay, hand, exact=10)
    assert (err.code, err.params) == ("card_not_laid_out", {"card": "go-2"})


def test_surplus_hand_lays_out_exactly_ten() -> None:
    """ "Die Runde wird beendet, indem ein Spieler 10 Karten vor sich auslegt. Überzählige
    Karten, die er vorher durch Tauschen erhalten hat, werden beiseite gelegt." """
    hand = [*WORKED_EXAMPLE, "badstrasse", "go-1"]
    assert check(EXAMPLE_LAYOUT, hand, exact=10)
    smaller = layout(group("yellow", YELLOW))
    err = error(smaller, hand, exact=10)
    assert (err.code, err.params) == ("layout_wrong_size", {"need": 10, "got": 3})


def test_required_cards_stay() -> None:
    err = error(layout(group("yellow", YELLOW)), [*YELLOW, "go-1"], required=["go-1"])
    assert (err.code, err.params) == ("missing_laid_card", {"card": "go-1"})
