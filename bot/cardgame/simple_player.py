"""A simple, deterministic computer player for the card game.

It lays out as soon as its hand allows (with the best lay-out), and otherwise
compares drawing with every swap it could make by a quick estimate of what a
hand is worth (:func:`hand_value`): complete groups with the houses that fit,
part of the value of groups under way, tokens on the best group, LOS and
Mr. Monopoly cards, and a penalty for every card that keeps the hand from being
laid out. It discards and passes the card whose loss hurts that estimate least,
and takes the best final lay-out after the bonus. Greedy players can lock a
round up (each keeps what the others need), so after a while a player far from
ending gives LOS and Mr. Monopoly cards away, and later passes cards picked by
the turn number (:func:`_gift`). It is meant for simulations and as a stand-in
for an absent player, not as a strong opponent.
"""

from __future__ import annotations

from collections import Counter
from typing import Any

from bot.cardgame.cards import GO, HOTEL, HOUSE, MR_MONOPOLY, PROPERTY, TOKEN, WILD, Deck
from bot.cardgame.legal import best_layout, waiting_for
from bot.cardgame.rounds import ender_layout
from bot.cardgame.state import CardState

Action = dict[str, Any]

DEADWOOD = 60  # what a card that fits no plan costs the estimate
PLANNED = 30  # what a card of a group under way costs (it cannot be laid out yet)
PARTIAL = 0.5  # share of a group's value counted per card already held
MR_MONOPOLY_GUESS = 250  # a Mr. Monopoly card's share of the 1 000 bonus, roughly
DRAW_HOPE = 25  # what an unseen card from the stock is expected to add
MAX_SWAP = 3  # swaps of more cards than this are not considered
STALL_TURNS = 3  # after this many rounds of turns, far-off players give cards away
CHURN_TURNS = 8  # after this many, they pass a card picked by the turn number


def hand_value(deck: Deck, cards: list[str], size: int) -> float:
    """A quick estimate of what ``cards`` are worth towards a lay-out of ``size`` cards."""
    estimate, planned, junk = assess(deck, cards, size)
    return estimate - junk * DEADWOOD - planned * PLANNED


def assess(deck: Deck, cards: list[str], size: int) -> tuple[float, int, int]:
    """Estimate ``cards``: ``(value, planned, junk)``.

    ``value`` counts complete groups with the houses that fit, tokens, LOS and
    Mr. Monopoly cards, and part of the groups under way that still fit into a
    hand of ``size`` cards. ``planned`` counts the cards of those groups (and the
    buildings waiting for them), ``junk`` the cards that fit no plan. A hand can
    be laid out when both are 0.
    """
    kinds: Counter[str] = Counter()
    props: Counter[str] = Counter()
    houses: Counter[int] = Counter()
    for card in cards:
        info = deck.card(card)
        kinds[info.kind] += 1
        if info.kind == PROPERTY:
            props[info.group] += 1  # type: ignore[index]
        elif info.kind == HOUSE:
            houses[info.number] += 1  # type: ignore[index]
    wilds = kinds[WILD]
    complete: list[tuple[int, bool, int]] = []  # (base value, takes houses, cards)
    gaps: list[tuple[int, int, int, bool]] = []  # (missing, -base, held, takes houses)
    for group in deck.groups:
        held = props[group.id]
        if not held:
            continue
        smallest = group.sizes[0]
        if held >= smallest:
            count = min(held, group.sizes[-1])
            complete.append((group.base(count), group.takes_buildings, count))
        else:
            gaps.append((smallest - held, -group.base(smallest), held, group.takes_buildings))
    gaps.sort()
    # Wild cards close the nearest gaps (they help only the player who ends the round).
    open_gaps = []
    for gap in gaps:
        missing, neg_base, held, builds = gap
        if missing <= wilds:
            wilds -= missing
            complete.append((-neg_base, builds, held + missing))
        else:
            open_gaps.append(gap)
    complete.sort(reverse=True)
    supply = [houses[n] for n in (1, 2, 3, 4)]
    hotels = kinds[HOTEL]
    estimate = 0.0
    best_group = 0
    fitting = 0
    for base, builds, count in complete:
        level = 0
        if builds:
            while level < 4 and (supply[level] > 0 or wilds > 0):
                if supply[level] > 0:
                    supply[level] -= 1
                else:
                    wilds -= 1
                level += 1
        value = base * (1 + level)
        fitting += count + level
        if level == 4 and hotels:
            hotels -= 1
            fitting += 1
            value += deck.hotel_value
        estimate += value
        best_group = max(best_group, value)
    fitting += kinds[GO] + kinds[MR_MONOPOLY] + wilds
    if complete:
        estimate += kinds[TOKEN] * best_group
        fitting += kinds[TOKEN]
    # Groups under way count only while there is room in the hand to complete them.
    room = size - fitting
    planned = junk = 0
    street_planned = False
    for missing, neg_base, held, builds in open_gaps:
        if held + missing <= room:
            room -= held + missing
            estimate += -neg_base * PARTIAL * held / (held + missing)
            planned += held
            street_planned = street_planned or builds
        else:
            junk += held
    # Buildings left over wait for a street group under way; tokens for any group.
    waiting = [(sum(supply) + hotels, street_planned)]
    if not complete:
        waiting.append((kinds[TOKEN], planned > 0))
    for count, has_home in waiting:
        if has_home:
            estimate += count * 20
            planned += count
        else:
            junk += count
    estimate += kinds[GO] * deck.go_value + kinds[MR_MONOPOLY] * MR_MONOPOLY_GUESS
    return estimate, planned, junk


def keep_best(deck: Deck, cards: list[str], size: int) -> tuple[float, list[str]]:
    """Drop cards one by one, always the least useful, until ``size`` remain.

    Returns the estimate of what is kept and the dropped cards in order.
    """
    kept = list(cards)
    dropped: list[str] = []
    while len(kept) > size:
        best_value, best_index = None, 0
        for i in range(len(kept)):
            value = hand_value(deck, kept[:i] + kept[i + 1 :], size)
            if best_value is None or value > best_value:
                best_value, best_index = value, i
        dropped.append(kept.pop(best_index))
    return hand_value(deck, kept, size), dropped


class SimpleCardPlayer:
    """Rule-following play for simulations and absent players (deterministic).

    ``unlock`` lets it give cards away when a round has locked up (see
    :func:`_gift`); an absent human's stand-in keeps it off and plays greedily.
    """

    __slots__ = ("unlock",)

    def __init__(self, unlock: bool = True) -> None:
        self.unlock = unlock

    def decide(self, state: CardState, seat: int) -> Action:
        """The next action for ``seat``, which the game is waiting on."""
        phase = state.phase
        if phase == "bonus":
            layout = best_layout(state, seat)
            return {"type": "arrange", "player": seat, "layout": layout}
        hand = state.players[seat].hand
        if phase == "discard":
            owed = state.owe[seat]
            # Only a swap's other player gives away (5-6 players): the player whose
            # turn it is chose the swap for the cards it brings.
            swap_partner = owed == 1 and seat != state.current
            gift = _gift(state, seat) if self.unlock and swap_partner else None
            if gift is not None:
                return {"type": "discard", "player": seat, "cards": [gift]}
            _value, dropped = keep_best(state.deck, hand, len(hand) - owed)
            return {"type": "discard", "player": seat, "cards": dropped}
        if phase in ("turn", "pass") and seat == state.current:
            found = ender_layout(state, seat)
            if found is not None:
                return {"type": "lay_out", "player": seat, "layout": found[0]}
        if phase == "pass":
            gift = _gift(state, seat) if self.unlock else None
            if gift is None:
                _value, dropped = keep_best(state.deck, hand, len(hand) - 1)
                gift = dropped[0]
            return {"type": "pass_card", "player": seat, "card": gift}
        return self._turn(state, seat)

    def _turn(self, state: CardState, seat: int) -> Action:
        """Draw, or take the swap that improves the hand most."""
        options = turn_options(state, seat)
        if not options:
            # Only possible with an empty stock and no pile to swap with; the engine
            # ends such a round itself, so this is never reached in play.
            raise RuntimeError("no turn action available")
        return options[0]


def turn_options(state: CardState, seat: int) -> list[Action]:
    """The turn actions of ``seat`` (draw, swaps), best first by the hand's estimate.

    On a tie, drawing comes before swapping, fewer cards before more.
    """
    deck = state.deck
    hand = state.players[seat].hand
    size = state.table.hand_size
    options: list[tuple[float, int, Action]] = []
    if state.stock and not state.table.swap_only:
        value, _ = keep_best(deck, hand, size)
        options.append((value + DRAW_HOPE, 0, {"type": "draw", "player": seat}))
    own = len(state.piles[seat])
    first: str | None = None
    base = hand
    if own == 0:
        # Nothing to offer: lay the least useful card on the pile first.
        _value, dropped = keep_best(deck, hand, len(hand) - 1)
        first = dropped[0]
        base = [c for c in hand if c != first]
        own = 1
    extra_args = {} if first is None else {"first_discard": first}
    for target, pile in enumerate(state.piles):
        if target == seat or not pile:
            continue
        most = 1 if state.table.swap_only else min(own, len(pile), MAX_SWAP)
        for count in range(1, most + 1):
            taken = pile[len(pile) - count :]
            value, _ = keep_best(deck, base + taken, size)
            action = {"type": "swap", "player": seat, "target": target, "count": count}
            options.append((value, 1, {**action, **extra_args}))
    for index, pile in enumerate(state.extra_piles):
        if not pile:
            continue
        value, _ = keep_best(deck, base + pile[-1:], size)
        action = {"type": "swap_extra", "player": seat, "pile": index, "stock": False}
        options.append((value, 2, {**action, **extra_args}))
        if state.stock and own >= 2:
            options.append((value + DRAW_HOPE / 2, 3, {**action, "stock": True, **extra_args}))
    # Highest estimate first; on a tie, drawing before swapping, fewer cards first.
    options.sort(key=lambda o: (-o[0], o[1]))
    return [option[2] for option in options]


def _gift(state: CardState, seat: int) -> str | None:
    """A LOS or Mr. Monopoly card to give away when the round has stalled, or None.

    Greedy players can lock a round: each holds one card too many that nobody
    else gives up. A player far from ending (two or more cards that cannot be
    laid out) then passes or discards a card that fits every hand, which lets a
    player one card short end the round.
    """
    if state.round_turn < STALL_TURNS * len(state.players):
        return None
    hand = state.players[seat].hand
    _value, planned, junk = assess(state.deck, hand, state.table.hand_size)
    if planned + junk < 2:
        return None
    for kind in (GO, MR_MONOPOLY):
        for card in hand:
            if state.deck.kind(card) == kind:
                return card
    if state.round_turn >= CHURN_TURNS * len(state.players):
        # Still locked (the cards everybody shuns keep going round): stir the hands with
        # a card picked by the turn number, so the same cards do not circle for ever.
        return hand[(state.turn * 7 + seat * 13) % len(hand)]
    return None


def next_simple_action(state: CardState, players: list[SimpleCardPlayer]) -> Action | None:
    """The action of the first seat the game waits on, as its simple player decides."""
    waiting = waiting_for(state)
    if not waiting:
        return None
    # The current player first: with 5-6 players they may still end the round
    # while the others choose the cards to pass.
    seat = state.current if state.current in waiting else waiting[0]
    return players[seat].decide(state, seat)


def default_action(state: CardState, seat: int | None = None) -> Action | None:
    """What the game does for an absent player at a deadline: the simple player's move.

    Returns None when the game is over or does not wait on ``seat``.
    """
    waiting = waiting_for(state)
    if not waiting:
        return None
    if seat is None:
        seat = waiting[0]
    if seat not in waiting:
        return None
    return SimpleCardPlayer(unlock=False).decide(state, seat)
