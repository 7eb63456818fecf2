"""The 60 cards of MONOPOLY Das Kartenspiel, read from ``data/cards_<deck>.json``.

Property cards keep the id printed in the data file (``"badstrasse"``); the other
cards have generated ids: ``house1-1`` … ``house1-5`` (the five "1." house
cards), ``house2-1`` …, ``hotel-1``, ``hotel-2``, ``token-1`` … ``token-6``,
``go-1`` … ``go-4``, ``mrm-1`` … ``mrm-4`` and ``wild-1``, ``wild-2``.
"""

from __future__ import annotations

import json
from dataclasses import dataclass
from functools import cache
from importlib import resources
from typing import Any

# Card kinds. "property" cards belong to a group; "house" cards carry a number.
PROPERTY = "property"
HOUSE = "house"
HOTEL = "hotel"
TOKEN = "token"  # Spielfiguren-Karte
GO = "go"  # LOS-Karte
MR_MONOPOLY = "mr_monopoly"
WILD = "wild"  # Ereigniskarte (joker)
BONUS_KINDS = (TOKEN, GO, MR_MONOPOLY, WILD)
KINDS = (PROPERTY, HOUSE, HOTEL, *BONUS_KINDS)

# Group kinds: only streets take houses and hotels ("An Bahnhöfe oder die
# Versorgungsbetriebe kann natürlich kein Haus angebaut werden").
STREET = "street"
RAILROAD = "railroad"
UTILITY = "utility"
HOUSE_NUMBERS = (1, 2, 3, 4)
_ID_PREFIX = {HOTEL: "hotel", TOKEN: "token", GO: "go", MR_MONOPOLY: "mrm", WILD: "wild"}


@dataclass(frozen=True, slots=True)
class Card:
    """One card: its id, kind, printed name, group (property cards) and house number."""

    id: str
    kind: str
    name: str
    group: str | None = None
    number: int | None = None
    order: int = 0  # position in the deck's canonical order (for sorting hands)


@dataclass(frozen=True, slots=True)
class Group:
    """A colour group, the railroads or the utilities.

    ``values`` maps the number of property cards laid out to the group's base
    value: one entry for streets and utilities (their size), 2, 3 and 4 for the
    railroads ("2 davon sind ebenfalls schon eine vollständige Gruppe, aber
    weniger wert als eine Gruppe mit 3 oder 4 Bahnhöfen").
    """

    id: str
    name: str
    name_en: str
    kind: str
    cards: tuple[str, ...]
    values: dict[int, int]

    @property
    def sizes(self) -> tuple[int, ...]:
        """The card counts that make this group complete, smallest first."""
        return tuple(sorted(self.values))

    @property
    def takes_buildings(self) -> bool:
        """True for colour groups (streets), which take houses and a hotel."""
        return self.kind == STREET

    def base(self, count: int) -> int:
        """The group's printed value when laid out with ``count`` cards."""
        return self.values[count]


@dataclass(frozen=True)
class Deck:
    """The whole deck: cards in canonical order, groups and printed values."""

    id: str
    name: str
    currency: str
    cards: tuple[Card, ...]
    groups: tuple[Group, ...]
    hotel_value: int
    go_value: int
    mr_monopoly_bonus: int
    names_en: dict[str, str]

    def __post_init__(self) -> None:
        # Lookup tables; the dataclass is frozen, so set them through object.__setattr__.
        object.__setattr__(self, "_by_id", {c.id: c for c in self.cards})
        object.__setattr__(self, "_groups", {g.id: g for g in self.groups})

    @property
    def ids(self) -> tuple[str, ...]:
        """Every card id in canonical order."""
        return tuple(c.id for c in self.cards)

    def card(self, card_id: str) -> Card:
        """The card with id ``card_id`` (KeyError if there is none)."""
        return self._by_id[card_id]  # type: ignore[attr-defined]

    def has(self, card_id: object) -> bool:
        """True if ``card_id`` is the id of a card of this deck."""
        return isinstance(card_id, str) and card_id in self._by_id  # type: ignore[attr-defined]

    def group(self, group_id: str) -> Group:
        """The group with id ``group_id`` (KeyError if there is none)."""
        return self._groups[group_id]  # type: ignore[attr-defined]

    def has_group(self, group_id: object) -> bool:
        """True if ``group_id`` names a group of this deck."""
        return isinstance(group_id, str) and group_id in self._groups  # type: ignore[attr-defined]

    def kind(self, card_id: str) -> str:
        """The kind of card ``card_id``."""
        return self.card(card_id).kind

    def sort(self, card_ids: list[str]) -> list[str]:
        """``card_ids`` in canonical deck order (a new list)."""
        by_id = self._by_id  # type: ignore[attr-defined]
        return sorted(card_ids, key=lambda c: by_id[c].order)


def deck_from_dict(raw: dict[str, Any]) -> Deck:
    """Build a :class:`Deck` from the JSON structure of ``data/cards_*.json``."""
    cards: list[Card] = []
    groups: list[Group] = []

    def add(card_id: str, kind: str, name: str, **extra: Any) -> None:
        cards.append(Card(card_id, kind, name, order=len(cards), **extra))

    for g in raw["groups"]:
        ids = tuple(c["id"] for c in g["cards"])
        if g["kind"] == RAILROAD:
            values = {int(k): int(v) for k, v in g["values_by_count"].items()}
        else:
            values = {len(ids): int(g["value"])}
        groups.append(Group(g["id"], g["name"], g["name_en"], g["kind"], ids, values))
        for c in g["cards"]:
            add(c["id"], PROPERTY, c["name"], group=g["id"])
    for h in raw["houses"]:
        for i in range(1, h["count"] + 1):
            add(f"house{h['number']}-{i}", HOUSE, h["name"], number=h["number"])
    hotel = raw["hotel"]
    for i in range(1, hotel["count"] + 1):
        add(f"hotel-{i}", HOTEL, hotel["name"])
    bonus = raw["bonus"]
    for kind in BONUS_KINDS:
        for i in range(1, bonus[kind]["count"] + 1):
            add(f"{_ID_PREFIX[kind]}-{i}", kind, bonus[kind]["name"])
    deck = Deck(
        id=raw["id"],
        name=raw["name"],
        currency=raw["currency"],
        cards=tuple(cards),
        groups=tuple(groups),
        hotel_value=int(hotel["value"]),
        go_value=int(bonus[GO]["value"]),
        mr_monopoly_bonus=int(bonus[MR_MONOPOLY]["bonus"]),
        names_en={kind: bonus[kind]["name_en"] for kind in BONUS_KINDS},
    )
    _check(deck)
    return deck


def _check(deck: Deck) -> None:
    """Refuse a data file that breaks the book's rules of the deck."""
    ids = deck.ids
    if len(set(ids)) != len(ids):
        raise ValueError(f"deck {deck.id!r} has duplicate card ids")
    for g in deck.groups:
        if g.kind not in (STREET, RAILROAD, UTILITY):
            raise ValueError(f"group {g.id!r} has unknown kind {g.kind!r}")
        counts = g.sizes
        if counts[-1] != len(g.cards):
            raise ValueError(f"group {g.id!r}: its largest size must be its card count")
        values = [g.values[c] for c in counts]
        # "2 davon sind ... schon eine vollständige Gruppe, aber weniger wert als eine
        # Gruppe mit 3 oder 4 Bahnhöfen": more cards of a group are worth more.
        if any(v <= 0 for v in values) or values != sorted(set(values)):
            raise ValueError(f"group {g.id!r}: values must be positive and rise with the count")


def available_decks() -> list[str]:
    """Ids of the decks shipped with the card game (``"de"``)."""
    folder = resources.files("bot.cardgame") / "data"
    return sorted(
        p.name.removeprefix("cards_").removesuffix(".json")
        for p in folder.iterdir()
        if p.name.startswith("cards_") and p.name.endswith(".json")
    )


@cache
def load_deck(deck_id: str = "de") -> Deck:
    """Load a shipped deck by id; cached."""
    if deck_id not in available_decks():
        raise KeyError(f"unknown deck {deck_id!r}; known: {', '.join(available_decks())}")
    path = resources.files("bot.cardgame") / "data" / f"cards_{deck_id}.json"
    return deck_from_dict(json.loads(path.read_text(encoding="utf-8")))
