"""What each viewer may see: the public table, one player's hand, and redacted events.

Hands, the card a player draws, the stock card of a swap with a pile of nobody,
passed cards and the ender's bonus cards are private; everything else (the
face-up piles in order, swaps between piles, lay-outs, scores) is public.
"""

from __future__ import annotations

import copy
from typing import Any

from bot.cardgame.cards import PROPERTY, Deck
from bot.cardgame.layout import score_layout
from bot.cardgame.legal import best_layout, waiting_for
from bot.cardgame.state import CardState

# Per event type: the private field and who may see it (the seats named by those keys).
PRIVATE_FIELDS: dict[str, tuple[str, tuple[str, ...]]] = {
    "drew": ("card", ("player",)),
    "swapped_extra": ("stock_card", ("player",)),
    "passed": ("card", ("player", "to")),
    "bonus_revealed": ("cards", ("player",)),
}


def visible_events(events: list[dict[str, Any]], viewer: int | None) -> list[dict[str, Any]]:
    """Copies of ``events`` with what ``viewer`` may not see set to None.

    ``viewer`` is a seat, or None for the public channel (sees no private field).
    """
    shown = []
    for event in events:
        event = copy.deepcopy(event)
        private = PRIVATE_FIELDS.get(event["type"])
        if private is not None:
            key, owners = private
            if viewer is None or viewer not in [event.get(o) for o in owners]:
                event[key] = None
        shown.append(event)
    return shown


def card_info(deck: Deck, card_id: str) -> dict[str, Any]:
    """What a UI needs to show one card: id, kind, name, group and its names, house number."""
    card = deck.card(card_id)
    group = deck.group(card.group) if card.group else None
    return {
        "id": card.id,
        "kind": card.kind,
        "name": card.name,
        "group": card.group,
        "group_name": group.name if group else None,
        "group_name_en": group.name_en if group else None,
        "number": card.number,
    }


def table_view(state: CardState) -> dict[str, Any]:
    """The public table: piles (every card, bottom to top), stock size, hand sizes, scores."""
    return {
        "round": state.round,
        "dealer": state.dealer,
        "current": state.current,
        "phase": state.phase,
        "waiting_for": waiting_for(state),
        "piles": [list(p) for p in state.piles],
        "extra_piles": [list(p) for p in state.extra_piles],
        "stock": len(state.stock),
        "hand_sizes": [len(p.hand) for p in state.players],
        "owe": list(state.owe),
        "passed": [card is not None for card in state.passing],
        "scores": [p.score for p in state.players],
        "round_scores": [list(r) for r in state.round_scores],
        "target": state.rules.target_for(len(state.players)),
        "ender": state.ender,
        "laid": copy.deepcopy(state.laid),
        "bonus_cards": len(state.bonus_cards),
        "last_round": copy.deepcopy(state.last_round),
        "winners": list(state.winners),
    }


def hand_view(state: CardState, seat: int) -> dict[str, Any]:
    """One player's private view: the hand by group, what is missing, a lay-out suggestion.

    ``groups`` lists every group of which the hand holds a property card, with
    the cards held and the cards missing; ``suggestion`` is the best lay-out the
    player could submit now (``lay_out`` on their turn, ``arrange`` after the
    bonus), with ``suggestion_value`` its value before the Mr. Monopoly bonus.
    """
    deck = state.deck
    hand = state.players[seat].hand
    groups = []
    for group in deck.groups:
        held = [c for c in hand if deck.card(c).kind == PROPERTY and deck.card(c).group == group.id]
        if held:
            groups.append(
                {
                    "group": group.id,
                    "held": held,
                    "missing": [c for c in group.cards if c not in held],
                    "complete": len(held) >= group.sizes[0],
                }
            )
    suggestion = best_layout(state, seat)
    value = None
    if suggestion is not None:
        value = score_layout(deck, suggestion, state.rules.token_includes_hotel)["total"]
    return {
        "seat": seat,
        "hand": list(hand),
        "cards": [card_info(deck, c) for c in hand],
        "groups": groups,
        "pile": list(state.piles[seat]),
        "must_discard": state.owe[seat],
        "pass_chosen": state.passing[seat],
        "bonus_cards": list(state.bonus_cards) if seat == state.ender else [],
        "suggestion": suggestion,
        "suggestion_value": value,
    }
