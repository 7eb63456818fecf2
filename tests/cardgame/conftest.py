"""Shared helpers for the card game tests.

Positions are built by dealing a real game and then putting chosen cards where
a test needs them: :func:`arrange` takes the hands, piles and top of the stock a
test names, and fills the rest with the remaining cards in deck order, so the
60 cards stay accounted for. The rulebook quoted in docstrings is ``004``
(``/work/shared/rules/004_8b0dd3e894b19cee.txt``, MONOPOLY Das Kartenspiel).
"""

from __future__ import annotations

from collections import Counter
from typing import Any

import pytest

from bot.cardgame.game import apply_action, new_game
from bot.cardgame.rules import CardRules
from bot.cardgame.state import CardState
from bot.engine.errors import IllegalAction

# The book's worked example: "die 3 gelben Straßen ..., dazu ein 1., 2. und 3. Haus
# sowie 2 Spielfiguren- und 2 Mr. Monopoly-Karten", plus one LOS card to make ten.
YELLOW = ["lessingstrasse", "schillerstrasse", "goethestrasse"]
WORKED_EXAMPLE = [
    *YELLOW,
    "house1-1",
    "house2-1",
    "house3-1",
    "token-1",
    "token-2",
    "mrm-1",
    "mrm-2",
]


def game(players: int = 4, seed: int = 1, **settings: Any) -> CardState:
    """A new game of ``players`` players; seat 0 deals (so seat 1 starts)."""
    rules = CardRules(**{"first_dealer": "seat0", **settings})
    return new_game([(f"p{i}", f"Player {i}") for i in range(players)], seed, rules)


def arrange(
    state: CardState,
    hands: dict[int, list[str]] | None = None,
    piles: dict[int, list[str]] | None = None,
    extra: list[list[str]] | None = None,
    stock_top: list[str] | None = None,
    stock_size: int | None = None,
) -> CardState:
    """Put the named cards in place and deal the rest in deck order.

    Hands not named are filled up to the hand size; piles not named get one
    card; ``extra`` replaces the piles of nobody; ``stock_top`` lists the top of
    the stock, top card first. With ``stock_size`` the stock holds only that many
    cards and the rest goes aside (as if put aside earlier in the round).
    """
    hands = hands or {}
    piles = piles or {}
    named = [c for cards in hands.values() for c in cards]
    named += [c for cards in piles.values() for c in cards]
    named += [c for pile in extra or [] for c in pile]
    named += list(stock_top or [])
    doubled = [c for c, n in Counter(named).items() if n > 1]
    assert not doubled, f"cards named twice: {doubled}"
    rest = [c for c in state.deck.ids if c not in set(named)]
    count = len(state.players)
    for seat in range(count):
        if seat in hands:
            state.players[seat].hand = list(hands[seat])
        else:
            state.players[seat].hand = [rest.pop(0) for _ in range(state.table.hand_size)]
        state.sort_hand(seat)
    for seat in range(count):
        state.piles[seat] = list(piles[seat]) if seat in piles else [rest.pop(0)]
    if extra is not None:
        state.extra_piles = [list(p) for p in extra]
    else:
        state.extra_piles = [[rest.pop(0)] for _ in range(state.table.extra_piles)]
    top = list(reversed(stock_top or []))
    state.aside = []
    if stock_size is not None:
        keep = stock_size - len(top)
        state.aside = rest[keep:]
        rest = rest[:keep]
    state.stock = rest + top
    assert sorted(state.all_cards()) == sorted(state.deck.ids)
    return state


def act(state: CardState, kind: str, player: int, **params: Any) -> list[dict[str, Any]]:
    """Apply one action and return its events."""
    return apply_action(state, {"type": kind, "player": player, **params})


def refused(state: CardState, kind: str, player: int, **params: Any) -> IllegalAction:
    """Assert that the action is refused without any change; return the error."""
    before = state.to_json()
    with pytest.raises(IllegalAction) as caught:
        act(state, kind, player, **params)
    assert state.to_json() == before
    return caught.value


def events_of(events: list[dict[str, Any]], kind: str) -> list[dict[str, Any]]:
    """The events of one type."""
    return [e for e in events if e["type"] == kind]


def group(name: str, cards: list[str], **parts: Any) -> dict[str, Any]:
    """One group entry of a lay-out."""
    return {"group": name, "cards": cards, **parts}


def layout(*groups: dict[str, Any], bonus: list[str] | None = None) -> dict[str, Any]:
    """A lay-out from group entries and bonus cards."""
    return {"groups": list(groups), "bonus": list(bonus or [])}
