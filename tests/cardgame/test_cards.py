"""The deck: 60 cards as the book lists them, values as data, shipped with the package."""

from __future__ import annotations

import json
from collections import Counter
from importlib import resources

import pytest

from bot.cardgame.cards import (
    GO,
    HOTEL,
    HOUSE,
    MR_MONOPOLY,
    PROPERTY,
    TOKEN,
    WILD,
    available_decks,
    deck_from_dict,
    load_deck,
)


def test_sixty_cards_in_the_books_composition() -> None:
    """ "60 Spielkarten, davon 28 Grundbesitzkarten (22 Straßen, 4 Bahnhöfe, Wasser- und
    Elektrizitätswerk), 14 HAUS-Karten (5x1., 4x2., 3x3., 2.x4.), 2 HOTEL-Karten und
    16 Bonuskarten"."""
    deck = load_deck("de")
    kinds = Counter(c.kind for c in deck.cards)
    assert len(deck.cards) == 60
    assert len(set(deck.ids)) == 60
    assert kinds == {PROPERTY: 28, HOUSE: 14, HOTEL: 2, TOKEN: 6, GO: 4, MR_MONOPOLY: 4, WILD: 2}
    houses = Counter(c.number for c in deck.cards if c.kind == HOUSE)
    assert houses == {1: 5, 2: 4, 3: 3, 4: 2}


def test_groups() -> None:
    """22 streets in 8 colour groups of 2 or 3, 4 railroads, 2 utilities."""
    deck = load_deck()
    streets = [g for g in deck.groups if g.kind == "street"]
    assert len(streets) == 8
    assert sum(len(g.cards) for g in streets) == 22
    assert {len(g.cards) for g in streets} == {2, 3}
    assert len(deck.group("railroad").cards) == 4
    assert deck.group("railroad").sizes == (2, 3, 4)
    assert deck.group("utility").sizes == (2,)
    for g in deck.groups:
        for card in g.cards:
            assert deck.card(card).group == g.id


def test_group_values() -> None:
    """ "Der Wert eines kompletten Straßenzuges ist auf den Karten angegeben (von 50 Euro
    bis 400 Euro)"; the worked example fixes yellow at 300. Two railroads are "weniger
    wert als eine Gruppe mit 3 oder 4 Bahnhöfen"."""
    deck = load_deck()
    streets = [g.base(g.sizes[0]) for g in deck.groups if g.kind == "street"]
    assert min(streets) == 50 and max(streets) == 400
    assert streets == sorted(streets)
    assert deck.group("yellow").base(3) == 300
    railroad = deck.group("railroad")
    assert railroad.base(2) < railroad.base(3) < railroad.base(4)
    assert deck.hotel_value == 500
    assert deck.go_value == 200
    assert deck.mr_monopoly_bonus == 1000


def test_buildings_only_on_streets() -> None:
    """ "An Bahnhöfe oder die Versorgungsbetriebe kann natürlich kein Haus angebaut werden." """
    deck = load_deck()
    assert not deck.group("railroad").takes_buildings
    assert not deck.group("utility").takes_buildings
    assert all(g.takes_buildings for g in deck.groups if g.kind == "street")


def test_data_ships_with_the_package() -> None:
    """The deck is read from the package, never from the shared research folder."""
    assert available_decks() == ["de"]
    path = resources.files("bot.cardgame") / "data" / "cards_de.json"
    assert "shared" not in str(path)
    with pytest.raises(KeyError):
        load_deck("xx")


def test_bad_data_is_refused() -> None:
    """Values that do not rise with the number of railroads are refused."""
    path = resources.files("bot.cardgame") / "data" / "cards_de.json"
    raw = json.loads(path.read_text(encoding="utf-8"))
    rail = next(g for g in raw["groups"] if g["id"] == "railroad")
    rail["values_by_count"] = {"2": 300, "3": 200, "4": 400}
    with pytest.raises(ValueError, match="rise"):
        deck_from_dict(raw)


def test_sort_is_deck_order() -> None:
    deck = load_deck()
    assert deck.sort(["wild-1", "badstrasse", "house1-1"]) == ["badstrasse", "house1-1", "wild-1"]
