"""The best lay-out of a hand: the ender's, after the bonus, and the other players'."""

from __future__ import annotations

import itertools

from hypothesis import given, settings
from hypothesis import strategies as st

from bot.cardgame.cards import HOTEL, HOUSE, PROPERTY, TOKEN, load_deck
from bot.cardgame.layout import layout_cards, score_layout, validate_layout
from bot.cardgame.search import best_layout_of
from tests.cardgame.conftest import WORKED_EXAMPLE, YELLOW

DECK = load_deck()


def best(cards, **kw):
    return best_layout_of(DECK, cards, **{"wilds": True, **kw})


def test_worked_example() -> None:
    found = best(WORKED_EXAMPLE, exact=10)
    assert found is not None
    lay, value = found
    assert value == 3600
    assert lay["groups"][0]["houses"] == ["house1-1", "house2-1", "house3-1"]
    assert lay["groups"][0]["tokens"] == ["token-1", "token-2"]
    assert lay["bonus"] == ["mrm-1", "mrm-2"]


def test_no_lay_out_when_a_card_does_not_fit() -> None:
    hand = [*WORKED_EXAMPLE[:-1], "badstrasse"]
    assert best(hand, exact=10) is None
    hand = [*WORKED_EXAMPLE[:-1], "house4-1"]  # a 4th house without a 3rd... there is one
    assert best(hand, exact=10) is not None
    hand = [*YELLOW, "house1-1", "house2-1", "house4-1", "token-1", "token-2", "mrm-1", "mrm-2"]
    assert best(hand, exact=10) is None


def test_wild_cards_fill_what_is_missing() -> None:
    """The book's picture: a wild card for a street, another for the 3rd house."""
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
    lay, value = best(hand, exact=10)
    assert value == 1500 + 1500 + 200
    yellow = lay["groups"][0]
    assert yellow["cards"] == ["lessingstrasse", "schillerstrasse", "wild-1"]
    assert yellow["houses"] == ["house1-1", "house2-1", "wild-2", "house4-1"]
    assert best(hand, exact=10, wilds=False) is None


def test_houses_go_to_the_dearer_group() -> None:
    hand = [*YELLOW, "badstrasse", "turmstrasse", "house1-1", "house2-1"]
    lay, value = best(hand)
    assert value == 900 + 50
    assert [g["houses"] for g in lay["groups"]] == [[], ["house1-1", "house2-1"]]
    # Two first houses: one on each group.
    hand = [*YELLOW, "badstrasse", "turmstrasse", "house1-1", "house1-2"]
    lay, value = best(hand)
    assert value == 600 + 100


def test_tokens_go_to_the_group_worth_most() -> None:
    hand = ["badstrasse", "turmstrasse", "parkstrasse", "schlossallee", "token-1", "token-2"]
    lay, value = best(hand)
    assert value == 50 + 400 + 2 * 400
    assert lay["groups"][1]["tokens"] == ["token-1", "token-2"]


def test_surplus_cards_chooses_the_best_ten() -> None:
    hand = [*WORKED_EXAMPLE, "go-1", "badstrasse"]  # 12 cards
    lay, value = best(hand, exact=10)
    assert len(layout_cards(lay)) == 10
    assert "badstrasse" not in layout_cards(lay)
    # The lay-out's value decides (Mr. Monopoly cards only break ties): the LOS card
    # stays and one Mr. Monopoly card goes aside.
    assert value == 3800
    assert sum(c.startswith("mrm") for c in layout_cards(lay)) == 1
    assert best(hand[:3] + ["badstrasse"], exact=10) is None


def test_final_lay_out_keeps_required_cards() -> None:
    laid = [*YELLOW, "house1-1", "house2-1", "house3-1", "token-1", "mrm-1", "go-1", "go-2"]
    bonus = ["house4-1", "hotel-1", "token-2", "badstrasse", "wild-1"]
    lay, value = best(laid + bonus, required=laid)
    assert set(laid) <= set(layout_cards(lay))
    # yellow with 4 houses and hotel: 1 500 + 500 = 2 000; two tokens 4 000; LOS 400;
    # the wild card completes brown (50, no token is better there).
    assert value == 2000 + 4000 + 400 + 50
    assert "badstrasse" in layout_cards(lay)


def test_others_without_wild_cards_and_a_limit() -> None:
    hand = [
        *YELLOW,
        "badstrasse",
        "turmstrasse",
        "go-1",
        "go-2",
        "mrm-1",
        "token-1",
        "house1-1",
        "house2-1",
        "elisenstrasse",
    ]
    lay, value = best(hand, wilds=False)
    assert value == (900 + 900) + 50 + 400
    assert len(layout_cards(lay)) == 11  # everything but the lone Elisenstraße
    lay, value = best(hand, wilds=False, limit=10)
    assert len(layout_cards(lay)) == 10
    assert value == (900 + 900) + 50 + 400  # the Mr. Monopoly card goes aside


def test_wild_only_group_needs_the_setting() -> None:
    hand = ["wild-1", "wild-2", *YELLOW]
    lay, _ = best(hand)
    assert all(c in YELLOW for c in lay["groups"][0]["cards"])
    lay, value = best(hand, wild_only_groups=True)
    # Both wild cards form dark blue (400) rather than two houses on yellow (600)?
    # Two houses on yellow add 600; dark blue adds 400: houses win.
    assert value == 900


# -- cross-check against brute force -----------------------------------------------------

POOL = [c.id for c in DECK.cards if c.kind != "wild"]
STREET_HEAVY = [
    c for c in POOL if DECK.card(c).group in ("brown", "dark_blue", "yellow", "railroad")
]
BUILDINGS = [c.id for c in DECK.cards if c.kind in (HOUSE, HOTEL)]


def brute_force(cards: list[str]) -> int | None:
    """The best value without wild cards, trying every placement of every building."""
    groups = []
    for g in DECK.groups:
        held = [c for c in cards if DECK.card(c).group == g.id]
        if len(held) >= g.sizes[0]:
            groups.append((g, len(held)))
    if not groups:
        return None
    streets = [g for g, _ in groups if g.takes_buildings]
    buildings = [c for c in cards if DECK.card(c).kind in (HOUSE, HOTEL)]
    best_value = -1
    for placement in itertools.product([None, *range(len(streets))], repeat=len(buildings)):
        houses = {i: [] for i in range(len(streets))}
        hotels = {i: 0 for i in range(len(streets))}
        for card, where in zip(buildings, placement, strict=True):
            if where is None:
                continue
            info = DECK.card(card)
            if info.kind == HOUSE:
                houses[where].append(info.number)
            else:
                hotels[where] += 1
        ok = all(sorted(h) == list(range(1, len(h) + 1)) for h in houses.values()) and all(
            n == 0 or (n == 1 and len(houses[i]) == 4) for i, n in hotels.items()
        )
        if not ok:
            continue
        values = []
        for g, count in groups:
            i = streets.index(g) if g in streets else None
            level = len(houses[i]) if i is not None else 0
            hotel = 500 if i is not None and hotels[i] else 0
            values.append(g.base(min(count, g.sizes[-1])) * (1 + level) + hotel)
        tokens = sum(1 for c in cards if DECK.card(c).kind == TOKEN)
        gos = sum(1 for c in cards if DECK.card(c).kind == "go")
        best_value = max(best_value, sum(values) + tokens * max(values) + gos * 200)
    return best_value


@settings(max_examples=150, deadline=None, derandomize=True)
@given(
    st.lists(st.sampled_from(STREET_HEAVY), max_size=8, unique=True),
    st.lists(st.sampled_from(BUILDINGS), max_size=5, unique=True),
    st.lists(
        st.sampled_from([c for c in POOL if DECK.card(c).kind not in (PROPERTY, HOUSE, HOTEL)]),
        max_size=3,
        unique=True,
    ),
)
def test_matches_brute_force(props: list[str], buildings: list[str], bonus: list[str]) -> None:
    cards = props + buildings + bonus
    found = best_layout_of(DECK, cards, wilds=False)
    expected = brute_force(cards)
    if expected is None:
        assert found is None
        return
    assert found is not None
    lay, value = found
    assert value == expected
    valid = validate_layout(DECK, lay, cards, wilds=False)
    assert score_layout(DECK, valid, True)["total"] == value


@settings(max_examples=80, deadline=None, derandomize=True)
@given(
    st.lists(st.sampled_from(list(DECK.ids)), min_size=9, max_size=14, unique=True),
    st.sampled_from([9, 10, 11]),
)
def test_exact_lay_outs_are_valid(cards: list[str], exact: int) -> None:
    found = best_layout_of(DECK, cards, wilds=True, exact=exact)
    if found is None:
        return
    lay, value = found
    valid = validate_layout(DECK, lay, cards, wilds=True, exact=exact)
    assert score_layout(DECK, valid, True)["total"] == value


@settings(max_examples=80, deadline=None, derandomize=True)
@given(st.lists(st.sampled_from(list(DECK.ids)), min_size=6, max_size=16, unique=True))
def test_a_laid_out_set_can_go_down_whole(cards: list[str]) -> None:
    """Whatever the best free lay-out uses can be laid out exactly, for the same value."""
    found = best_layout_of(DECK, cards, wilds=True)
    if found is None:
        return
    lay, value = found
    used = layout_cards(lay)
    again = best_layout_of(DECK, used, wilds=True, exact=len(used))
    assert again is not None
    assert again[1] == value
    validate_layout(DECK, again[0], used, wilds=True, exact=len(used))
