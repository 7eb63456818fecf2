"""Board data: squares, colour groups, rent tables and card decks, read from JSON."""

from __future__ import annotations

import json
from dataclasses import dataclass, field, replace
from functools import cache, lru_cache
from importlib import resources
from typing import Any

PROPERTY_KINDS = frozenset({"street", "railroad", "utility"})


@dataclass(frozen=True, slots=True)
class Square:
    """One square of the board, as printed."""

    index: int
    name: str
    kind: str
    group: str | None = None
    price: int = 0
    rents: tuple[int, ...] = ()
    house_cost: int = 0
    mortgage: int = 0
    amount: int = 0
    multipliers: tuple[int, ...] = ()

    @property
    def is_property(self) -> bool:
        """True for squares that can be owned (streets, railroads, utilities)."""
        return self.kind in PROPERTY_KINDS


@dataclass(frozen=True, slots=True)
class Card:
    """One Ereignis- or Gemeinschaftskarte: its printed text and its effect."""

    deck: str
    id: int
    text: str
    effect: dict[str, Any]


@dataclass(frozen=True)
class Board:
    """A complete board: 40 squares, the groups and both decks.

    ``groups`` maps a group name to the indices of its squares in board order.
    ``group_of`` gives, per square index, the tuple of indices of its group
    (empty for squares that cannot be owned), which keeps the hot paths cheap.
    """

    id: str
    name: str
    currency: str
    start_money: int
    salary: int
    jail_fine: int
    squares: tuple[Square, ...]
    decks: dict[str, tuple[Card, ...]]
    deck_names: dict[str, str]
    railroad_rents: tuple[int, ...]
    utility_multipliers: tuple[int, ...]
    houses_total: int
    hotels_total: int
    groups: dict[str, tuple[int, ...]] = field(default_factory=dict)
    group_of: tuple[tuple[int, ...], ...] = ()
    street_groups: tuple[tuple[int, ...], ...] = ()
    jail_index: int = 10
    go_index: int = 0
    # A board a server supplied: its JSON, which a game on it carries in its own JSON
    # (``board_data``), so the game never depends on the server keeping the file.
    source: dict[str, Any] | None = field(default=None, compare=False, repr=False)

    def card(self, deck: str, card_id: int) -> Card:
        """Return the card ``card_id`` of ``deck``."""
        return self.decks[deck][card_id - 1]

    def square_by_name(self, name: str) -> Square:
        """Return the square whose name matches ``name`` (case-insensitive)."""
        wanted = name.casefold()
        for square in self.squares:
            if square.name.casefold() == wanted:
                return square
        raise KeyError(name)

    @property
    def property_indices(self) -> tuple[int, ...]:
        """Indices of every ownable square in board order."""
        return tuple(s.index for s in self.squares if s.is_property)


def _square(raw: dict[str, Any]) -> Square:
    return Square(
        index=raw["index"],
        name=raw["name"],
        kind=raw["kind"],
        group=raw.get("group"),
        price=raw.get("price") or 0,
        rents=tuple(raw.get("rents") or ()),
        house_cost=raw.get("house_cost") or 0,
        mortgage=raw.get("mortgage") or 0,
        amount=raw.get("amount") or 0,
        multipliers=tuple(raw.get("multipliers") or ()),
    )


def board_from_dict(raw: dict[str, Any]) -> Board:
    """Build a :class:`Board` from the JSON structure of ``data/boards/*.json``."""
    squares = tuple(_square(s) for s in raw["squares"])
    if len(squares) != 40 or any(s.index != i for i, s in enumerate(squares)):
        raise ValueError(f"board {raw.get('id')!r} must list 40 squares in order")
    groups: dict[str, list[int]] = {}
    for s in squares:
        if s.is_property and s.group:
            groups.setdefault(s.group, []).append(s.index)
    group_of = tuple(tuple(groups[s.group]) if s.is_property and s.group else () for s in squares)
    decks = {
        deck: tuple(Card(deck, c["id"], c["text"], c["effect"]) for c in raw[deck])
        for deck in ("chance", "community")
    }
    for deck, cards in decks.items():
        if [c.id for c in cards] != list(range(1, len(cards) + 1)):
            raise ValueError(f"deck {deck} must number its cards 1..n")
    rules = raw.get("rules", {})
    multipliers = rules.get("utility_dice_multipliers", {"one_owned": 4, "both_owned": 10})
    return Board(
        id=raw["id"],
        name=raw["name"],
        currency=raw["currency"],
        start_money=raw["start_money"],
        salary=raw["salary"],
        jail_fine=raw["jail_fine"],
        squares=squares,
        decks=decks,
        deck_names=dict(raw.get("deck_names", {})),
        railroad_rents=tuple(rules.get("railroad_rents_by_count", (25, 50, 100, 200))),
        utility_multipliers=(multipliers["one_owned"], multipliers["both_owned"]),
        houses_total=rules.get("houses_total", 32),
        hotels_total=rules.get("hotels_total", 12),
        groups={k: tuple(v) for k, v in groups.items()},
        group_of=group_of,
        street_groups=tuple(tuple(v) for v in groups.values() if squares[v[0]].kind == "street"),
        jail_index=next(s.index for s in squares if s.kind == "jail"),
        go_index=next(s.index for s in squares if s.kind == "go"),
    )


def available_boards() -> list[str]:
    """Ids of the boards shipped with the engine."""
    folder = resources.files("bot.engine") / "data" / "boards"
    return sorted(
        p.name.removesuffix(".json") for p in folder.iterdir() if p.name.endswith(".json")
    )


def custom_board(raw: dict[str, Any]) -> Board:
    """A board a server supplied (already checked by ``themes.validate_board``); cached
    by content, so the many copies of a game's state share one :class:`Board`."""
    return _custom_board(json.dumps(raw, sort_keys=True, ensure_ascii=False))


@lru_cache(maxsize=32)
def _custom_board(text: str) -> Board:
    raw = json.loads(text)
    return replace(board_from_dict(raw), source=raw)


@cache
def load_board(board_id: str) -> Board:
    """Load a shipped board by id (e.g. ``"de_euro"``); cached."""
    if board_id not in available_boards():
        raise KeyError(f"unknown board {board_id!r}; known: {', '.join(available_boards())}")
    path = resources.files("bot.engine") / "data" / "boards" / f"{board_id}.json"
    return board_from_dict(json.loads(path.read_text(encoding="utf-8")))
