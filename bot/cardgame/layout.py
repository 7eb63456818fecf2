"""Lay-outs: checking one against the book, and what it is worth.

A lay-out is JSON::

    {"groups": [{"group": "yellow",
                 "cards": ["lessingstrasse", "schillerstrasse", "goethestrasse"],
                 "houses": ["house1-2", "house2-1", "wild-1"],
                 "hotel": null,
                 "tokens": ["token-1", "token-2"]}],
     "bonus": ["mrm-1", "mrm-3", "go-2"]}

``cards`` are the group's property cards, ``houses[i]`` is its (i+1)-th house,
``hotel`` its hotel; a wild card (Ereigniskarte) in any of these places stands
for the card missing there. ``tokens`` are the token cards assigned to the
group. ``bonus`` holds LOS and Mr. Monopoly cards, and (for the ender) wild
cards that replace nothing. ``houses``, ``hotel`` and ``tokens`` may be left out.
"""

from __future__ import annotations

from collections.abc import Collection, Iterable
from typing import Any

from bot.cardgame.cards import (
    GO,
    HOTEL,
    HOUSE,
    MR_MONOPOLY,
    PROPERTY,
    TOKEN,
    WILD,
    Deck,
)
from bot.engine.errors import IllegalAction

Layout = dict[str, Any]
_GROUP_KEYS = frozenset({"group", "cards", "houses", "hotel", "tokens"})


def empty_layout() -> Layout:
    """The lay-out of a hand that scores nothing."""
    return {"groups": [], "bonus": []}


def layout_cards(layout: Layout) -> list[str]:
    """Every card id of a (well-formed) lay-out, groups first."""
    found: list[str] = []
    for entry in layout["groups"]:
        found.extend(entry["cards"])
        found.extend(entry.get("houses", []))
        if entry.get("hotel") is not None:
            found.append(entry["hotel"])
        found.extend(entry.get("tokens", []))
    found.extend(layout["bonus"])
    return found


def _id_list(value: Any) -> list[str]:
    if type(value) is not list or any(type(v) is not str for v in value):
        raise IllegalAction("layout_malformed")
    return value


def _shape(layout: Any) -> Layout:
    """A canonical copy of ``layout`` if its shape is right (types only)."""
    if type(layout) is not dict or set(layout) != {"groups", "bonus"}:
        raise IllegalAction("layout_malformed")
    groups = layout["groups"]
    if type(groups) is not list:
        raise IllegalAction("layout_malformed")
    shaped = []
    for entry in groups:
        if type(entry) is not dict or not {"group", "cards"} <= set(entry) <= _GROUP_KEYS:
            raise IllegalAction("layout_malformed")
        hotel = entry.get("hotel")
        if hotel is not None and type(hotel) is not str:
            raise IllegalAction("layout_malformed")
        if type(entry["group"]) is not str:
            raise IllegalAction("layout_malformed")
        shaped.append(
            {
                "group": entry["group"],
                "cards": list(_id_list(entry["cards"])),
                "houses": list(_id_list(entry.get("houses", []))),
                "hotel": hotel,
                "tokens": list(_id_list(entry.get("tokens", []))),
            }
        )
    return {"groups": shaped, "bonus": list(_id_list(layout["bonus"]))}


def validate_layout(
    deck: Deck,
    layout: Any,
    available: Iterable[str],
    *,
    wilds: bool,
    exact: int | None = None,
    required: Collection[str] = (),
    wild_only_groups: bool = False,
) -> Layout:
    """Check ``layout`` by the book and return its canonical copy.

    ``available`` are the cards the player may use (their hand, plus the bonus
    cards when the ender re-arranges); ``wilds`` says whether wild cards may
    stand in for missing cards (only for the ender: "DAS GILT ABER NUR FÜR DEN,
    DER DIE RUNDE BEENDET"); ``exact`` is the number of cards that must be laid
    out ("indem ein Spieler 10 Karten vor sich auslegt"); every card of
    ``required`` must be in the lay-out (the ender's original cards after the
    bonus). Raises :class:`IllegalAction` naming the first problem found.
    """
    shaped = _shape(layout)
    pool = list(available)
    free = set(pool)
    seen: set[str] = set()
    for card in layout_cards(shaped):
        if not deck.has(card):
            raise IllegalAction("unknown_card", card=card)
        if card in seen:
            raise IllegalAction("card_twice", card=card)
        if card not in free:
            raise IllegalAction("card_not_available", card=card)
        seen.add(card)
        if deck.kind(card) == WILD and not wilds:
            raise IllegalAction("wild_not_allowed", card=card)
    groups_seen: set[str] = set()
    for entry in shaped["groups"]:
        _check_group(deck, entry, groups_seen, wild_only_groups)
    for card in shaped["bonus"]:
        _check_bonus_card(deck, card, seen)
    if not shaped["groups"]:
        # "nur vollständige Gruppen (mindestens eine) enthalten"
        raise IllegalAction("no_complete_group")
    for card in required:
        if card not in seen:
            raise IllegalAction("missing_laid_card", card=card)
    if exact is not None:
        if len(pool) == exact:
            # The whole hand must go down: name the first card left out, and why.
            for card in deck.sort([c for c in pool if c not in seen]):
                _left_out(deck, card, pool)
        if len(seen) != exact:
            raise IllegalAction("layout_wrong_size", need=exact, got=len(seen))
    return _canonical(deck, shaped)


def _check_group(deck: Deck, entry: Layout, groups_seen: set[str], wild_only: bool) -> None:
    gid = entry["group"]
    if not deck.has_group(gid):
        raise IllegalAction("unknown_group", group=gid)
    if gid in groups_seen:
        raise IllegalAction("group_twice", group=gid)
    groups_seen.add(gid)
    group = deck.group(gid)
    real = []
    for card in entry["cards"]:
        info = deck.card(card)
        if info.kind == PROPERTY and info.group == gid:
            real.append(card)
        elif info.kind != WILD:
            raise IllegalAction("wrong_group_card", card=card, group=gid, card_group=info.group)
    count = len(entry["cards"])
    if count < group.sizes[0]:
        # "Jeweils 2 oder 3 Straßen gehören zu einem Straßenzug ... und bilden zusammen
        # eine vollständige Gruppe"; railroads: 2, 3 or 4.
        missing = [c for c in group.cards if c not in real]
        raise IllegalAction(
            "layout_incomplete_group", group=gid, missing=missing, need=group.sizes[0], have=count
        )
    if count > group.sizes[-1]:
        raise IllegalAction("too_many_cards", group=gid, most=group.sizes[-1])
    if not real and not wild_only:
        raise IllegalAction("wild_group_only", group=gid)
    houses, hotel = entry["houses"], entry["hotel"]
    if (houses or hotel is not None) and not group.takes_buildings:
        raise IllegalAction("no_buildings_here", group=gid)
    if len(houses) > 4:
        raise IllegalAction("too_many_houses", group=gid)
    for position, card in enumerate(houses, start=1):
        info = deck.card(card)
        if info.kind == WILD:
            continue
        if info.kind != HOUSE:
            raise IllegalAction("not_a_house", card=card, group=gid)
        if info.number != position:
            # "man muss erst ein 1. Haus haben, bevor man ein 2. Haus anbauen kann"
            raise IllegalAction(
                "house_out_of_order", group=gid, card=card, number=info.number, needs=position
            )
    if hotel is not None:
        if deck.kind(hotel) not in (HOTEL, WILD):
            raise IllegalAction("not_a_hotel", card=hotel, group=gid)
        if len(houses) < 4:
            # "Nur wenn man alle 4 Häuser in der richtigen Reihenfolge ... angebaut hat"
            raise IllegalAction("hotel_without_fourth_house", group=gid, houses=len(houses))
    for card in entry["tokens"]:
        if deck.kind(card) != TOKEN:
            raise IllegalAction("not_a_token", card=card, group=gid)


def _check_bonus_card(deck: Deck, card: str, seen: set[str]) -> None:
    info = deck.card(card)
    if info.kind in (GO, MR_MONOPOLY, WILD):
        return
    if info.kind == TOKEN:
        # "Die SPIELFIGUREN-Karten müssen einer Gruppe zugeordnet werden."
        raise IllegalAction("token_without_group", card=card)
    if info.kind == PROPERTY:
        group = deck.group(info.group)  # type: ignore[arg-type]
        missing = [c for c in group.cards if c not in seen]
        raise IllegalAction(
            "layout_incomplete_group",
            group=group.id,
            missing=missing,
            need=group.sizes[0],
            have=len(group.cards) - len(missing),
        )
    if info.kind == HOUSE:
        raise IllegalAction("house_without_group", card=card, number=info.number)
    raise IllegalAction("hotel_without_group", card=card)


def _left_out(deck: Deck, card: str, pool: list[str]) -> None:
    """Raise the reason why ``card`` of a hand that must go down whole was left out."""
    info = deck.card(card)
    if info.kind == PROPERTY:
        group = deck.group(info.group)  # type: ignore[arg-type]
        have = [c for c in group.cards if c in pool]
        missing = [c for c in group.cards if c not in pool]
        raise IllegalAction(
            "layout_incomplete_group",
            group=group.id,
            missing=missing,
            need=group.sizes[0],
            have=len(have),
        )
    if info.kind == HOUSE:
        raise IllegalAction("house_not_placed", card=card, number=info.number)
    if info.kind == HOTEL:
        raise IllegalAction("hotel_not_placed", card=card)
    if info.kind == TOKEN:
        raise IllegalAction("token_without_group", card=card)
    raise IllegalAction("card_not_laid_out", card=card)


def _canonical(deck: Deck, shaped: Layout) -> Layout:
    """Groups in deck order, cards in deck order (wild cards last), bonus sorted."""
    order = {g.id: i for i, g in enumerate(deck.groups)}
    groups = []
    for entry in sorted(shaped["groups"], key=lambda e: order[e["group"]]):
        groups.append(
            {
                "group": entry["group"],
                "cards": deck.sort(entry["cards"]),
                "houses": list(entry["houses"]),
                "hotel": entry["hotel"],
                "tokens": deck.sort(entry["tokens"]),
            }
        )
    return {"groups": groups, "bonus": deck.sort(shaped["bonus"])}


# -- worth ----------------------------------------------------------------------------


def group_worth(
    deck: Deck, group_id: str, cards: int, houses: int, hotel: bool, token_includes_hotel: bool
) -> tuple[int, int]:
    """``(value, token_value)`` of a laid-out group.

    "Jedes Haus ist soviel wert, wie der ... Wert des Straßenzugs"; "Die
    Hotelkarten zählen dann 500 Euro"; a token card is "jeweils soviel wert wie
    die Gruppe selbst" — the worked example counts the houses in (yellow 300 with
    three houses is 1 200, and each token 1 200). Whether the hotel counts for a
    token is the setting ``token_includes_hotel``.
    """
    base = deck.group(group_id).base(cards)
    built = base * (1 + houses)
    hotel_value = deck.hotel_value if hotel else 0
    return built + hotel_value, built + (hotel_value if token_includes_hotel else 0)


def score_layout(deck: Deck, layout: Layout, token_includes_hotel: bool) -> dict[str, Any]:
    """What a valid lay-out is worth, before the Mr. Monopoly bonus, with the details.

    Returns ``{"groups": [{"group", "value", "tokens", "token_value"}], "go",
    "mr_monopoly", "total"}``: ``go`` and ``mr_monopoly`` count those cards,
    ``total`` is the lay-out's value without the Mr. Monopoly bonus.
    """
    rows = []
    total = 0
    for entry in layout["groups"]:
        value, token_value = group_worth(
            deck,
            entry["group"],
            len(entry["cards"]),
            len(entry.get("houses", [])),
            entry.get("hotel") is not None,
            token_includes_hotel,
        )
        tokens = len(entry.get("tokens", []))
        rows.append(
            {"group": entry["group"], "value": value, "tokens": tokens, "token_value": token_value}
        )
        total += value + tokens * token_value
    kinds = [deck.kind(c) for c in layout["bonus"]]
    go = kinds.count(GO)
    total += go * deck.go_value
    return {"groups": rows, "go": go, "mr_monopoly": kinds.count(MR_MONOPOLY), "total": total}
