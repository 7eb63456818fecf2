"""The highest-scoring valid lay-out of a set of cards.

The search enumerates which groups are formed (with how many cards, and how
many wild cards fill them) and how many houses each street group gets. Cards of
one kind are interchangeable for the score (any "1." house is as good as
another), and the book's limits on houses are the same for every group, so the
best way to share the house cards gives the dearer group at least as many
houses as a cheaper one: levels are enumerated as non-increasing sequences over
the groups sorted by value, which keeps the search small. Token cards all go to
the group that makes them worth most.

Three uses, by the book:

- the ender's lay-out: exactly ``exact`` cards (10, or 11/9), wild cards allowed,
  every card of the hand used when the hand has no more than that;
- the ender's final lay-out after the bonus: every card of ``required`` kept;
- the other players: any of their cards, no wild cards (their hand is worth 0
  when they hold one), at most ``limit`` cards if the setting says so.
"""

from __future__ import annotations

from collections.abc import Collection, Iterator
from dataclasses import dataclass
from typing import Any

from bot.cardgame.cards import (
    GO,
    HOTEL,
    HOUSE,
    HOUSE_NUMBERS,
    MR_MONOPOLY,
    PROPERTY,
    TOKEN,
    WILD,
    Deck,
    Group,
)
from bot.cardgame.layout import Layout, group_worth

_HOTEL_LEVEL = 5  # a group's "level" 5 means four houses and a hotel


@dataclass(frozen=True, slots=True)
class _Formed:
    """A group chosen to be formed: its cards, real ones used and wild cards filling it."""

    group: Group
    count: int
    real: int
    wilds: int


@dataclass(slots=True)
class _Hand:
    """The cards sorted by kind, each list in deck order with required cards first."""

    props: dict[str, list[str]]
    houses: dict[int, list[str]]
    hotels: list[str]
    tokens: list[str]
    gos: list[str]
    mrms: list[str]
    wilds: list[str]


def _sorted_hand(deck: Deck, cards: Collection[str], required: frozenset[str]) -> _Hand:
    hand = _Hand(
        {g.id: [] for g in deck.groups}, {n: [] for n in HOUSE_NUMBERS}, [], [], [], [], []
    )
    simple = {HOTEL: hand.hotels, TOKEN: hand.tokens, GO: hand.gos, MR_MONOPOLY: hand.mrms}
    simple[WILD] = hand.wilds
    # Required cards first, so that whatever is used of a kind includes them.
    for card in sorted(deck.sort(list(cards)), key=lambda c: c not in required):
        info = deck.card(card)
        if info.kind == PROPERTY:
            hand.props[info.group].append(card)  # type: ignore[index]
        elif info.kind == HOUSE:
            hand.houses[info.number].append(card)  # type: ignore[index]
        else:
            simple[info.kind].append(card)
    return hand


def _group_options(
    group: Group, real: list[str], required: frozenset[str], wilds: int, wild_only: bool
) -> list[_Formed | None]:
    """How ``group`` may figure in a lay-out: not at all (None) or formed in some way."""
    needed = sum(1 for c in real if c in required)
    options: list[_Formed | None] = [] if needed else [None]
    for count in group.sizes:
        use = min(len(real), count)
        fill = count - use
        if use < needed or fill > wilds or (use == 0 and not wild_only):
            continue
        options.append(_Formed(group, count, use, fill))
    return options


def _prune_dominated(options: list[_Formed | None]) -> list[_Formed | None]:
    """Without a card limit, forming a group from real cards beats leaving it out.

    Laid-out cards only add value, so the largest wild-free way to form a group
    beats not forming it and beats every smaller wild-free way.
    """
    plain = [o for o in options if o is not None and o.wilds == 0]
    if not plain:
        return options
    best = max(plain, key=lambda o: o.count)
    better: list[_Formed | None] = [
        o for o in options if o is not None and o.wilds > 0 and o.count > best.count
    ]
    return [best, *better]


def best_layout_of(
    deck: Deck,
    cards: Collection[str],
    *,
    wilds: bool,
    exact: int | None = None,
    limit: int | None = None,
    required: Collection[str] = (),
    wild_only_groups: bool = False,
    token_includes_hotel: bool = True,
) -> tuple[Layout, int] | None:
    """The best valid lay-out of ``cards`` and its value (without Mr. Monopoly), or None.

    ``exact``: lay out exactly that many cards; ``limit``: at most that many;
    ``required``: cards that must be in it; ``wilds``: wild cards may stand in
    for missing cards (else they are left out). Ties go to the lay-out with more
    Mr. Monopoly cards, then to the first one found (the search is deterministic).
    """
    req = frozenset(required)
    hand = _sorted_hand(deck, cards, req)
    total = len(cards)
    wild_pool = len(hand.wilds) if wilds else 0
    if not wilds and any(c in req for c in hand.wilds):
        return None
    # How many cards may be left out of the lay-out altogether.
    spare = total - exact if exact is not None else total
    if spare < 0:
        return None
    options: list[tuple[Group, list[_Formed | None]]] = []
    for group in deck.groups:
        real = hand.props[group.id]
        found = _group_options(group, real, req, wild_pool, wild_only_groups)
        if not found:
            return None  # a required card's group cannot be formed
        if exact is None and limit is None:
            found = _prune_dominated(found)
        if real or len(found) > 1 or found[0] is not None:
            options.append((group, found))
    search = _Search(deck, hand, wild_pool, exact, limit, req, token_includes_hotel)
    for formed, wilds_used in _combinations(options, wild_pool, spare, hand.props):
        search.try_groups(formed, wilds_used)
    return search.result()


def _combinations(
    options: list[tuple[Group, list[_Formed | None]]],
    wild_pool: int,
    spare: int,
    props: dict[str, list[str]],
) -> Iterator[tuple[list[_Formed], int]]:
    """Every choice of formed groups within the wild cards and the cards that may be left out."""
    chosen: list[_Formed] = []

    def walk(index: int, wilds: int, dropped: int) -> Iterator[tuple[list[_Formed], int]]:
        if index == len(options):
            yield list(chosen), wilds
            return
        group, found = options[index]
        real = len(props[group.id])
        for option in found:
            if option is None:
                left_out, fill = real, 0
            else:
                left_out, fill = real - option.real, option.wilds
            if wilds + fill > wild_pool or dropped + left_out > spare:
                continue
            if option is not None:
                chosen.append(option)
            yield from walk(index + 1, wilds + fill, dropped + left_out)
            if option is not None:
                chosen.pop()

    yield from walk(0, 0, 0)


class _Search:
    """Evaluates every house distribution for a choice of groups; keeps the best."""

    def __init__(
        self,
        deck: Deck,
        hand: _Hand,
        wild_pool: int,
        exact: int | None,
        limit: int | None,
        required: frozenset[str],
        token_includes_hotel: bool,
    ) -> None:
        self.deck = deck
        self.hand = hand
        self.wild_pool = wild_pool
        self.exact = exact
        self.limit = limit
        self.required = required
        self.token_includes_hotel = token_includes_hotel
        self.supply = [len(hand.houses[n]) for n in HOUSE_NUMBERS]
        self.need_houses = [sum(c in required for c in hand.houses[n]) for n in HOUSE_NUMBERS]
        self.need_hotels = sum(c in required for c in hand.hotels)
        self.need_wilds = sum(c in required for c in hand.wilds)
        self.best: tuple[int, int] | None = None
        self.best_plan: tuple[list[_Formed], list[int], list[int]] | None = None

    def try_groups(self, formed: list[_Formed], wilds_used: int) -> None:
        """Try every non-increasing house level sequence over the formed street groups."""
        if not formed:
            return
        streets = sorted(
            (f for f in formed if f.group.takes_buildings),
            key=lambda f: -f.group.base(f.count),
        )
        others = [f for f in formed if not f.group.takes_buildings]
        levels = [0] * len(streets)

        def walk(index: int, top: int) -> None:
            if index == len(streets):
                self._evaluate(streets + others, levels + [0] * len(others), wilds_used)
                return
            for level in range(top, -1, -1):
                levels[index] = level
                if self._shortfall(levels[: index + 1]) + wilds_used <= self.wild_pool:
                    walk(index + 1, level)
            levels[index] = 0

        walk(0, _HOTEL_LEVEL)

    def _shortfall(self, levels: list[int]) -> int:
        """Wild cards needed for missing house and hotel cards at these levels."""
        short = 0
        for i, have in enumerate(self.supply):
            short += max(0, sum(1 for lv in levels if lv > i) - have)
        hotels = sum(1 for lv in levels if lv == _HOTEL_LEVEL)
        return short + max(0, hotels - len(self.hand.hotels))

    def _evaluate(self, formed: list[_Formed], levels: list[int], wilds_used: int) -> None:
        """Score one choice of groups and levels, adding the best fillers; keep it if best.

        Every card is either structural (in a group, or a house or hotel on one),
        a filler (token, LOS, Mr. Monopoly, unused wild card) or left out; the
        count rules decide how many fillers go down.
        """
        hand = self.hand
        structural = sum(f.count for f in formed)
        for i, have in enumerate(self.supply):
            demand = sum(1 for lv in levels if lv > i)
            if min(demand, have) < self.need_houses[i]:
                return
            structural += demand
        hotel_demand = sum(1 for lv in levels if lv == _HOTEL_LEVEL)
        if min(hotel_demand, len(hand.hotels)) < self.need_hotels:
            return
        structural += hotel_demand
        wilds_used += self._shortfall(levels)
        value = 0
        token_value = 0
        for f, level in zip(formed, levels, strict=True):
            worth, per_token = self._worth(f, level)
            value += worth
            token_value = max(token_value, per_token)
        spare_wilds = self.wild_pool - wilds_used
        # (required, value) per filler, in the order tokens, LOS, Mr. Monopoly, wild cards.
        fillers = (
            [(c in self.required, token_value) for c in hand.tokens]
            + [(c in self.required, self.deck.go_value) for c in hand.gos]
            + [(c in self.required, 0) for c in hand.mrms]
            + [(False, 0)] * spare_wilds
        )
        if self.exact is not None:
            take = self.exact - structural
        elif self.limit is not None:
            take = min(len(fillers), self.limit - structural)
        else:
            take = len(fillers)
        if not 0 <= take <= len(fillers):
            return
        # Required fillers first, then by value; the sort is stable, so Mr. Monopoly
        # cards go before unused wild cards of the same (zero) value.
        chosen = sorted(range(len(fillers)), key=lambda i: (not fillers[i][0], -fillers[i][1]))
        chosen = chosen[:take]
        if sum(1 for i in chosen if fillers[i][0]) < sum(1 for f in fillers if f[0]):
            return
        first_wild = len(fillers) - spare_wilds
        if wilds_used + sum(1 for i in chosen if i >= first_wild) < self.need_wilds:
            return
        value += sum(fillers[i][1] for i in chosen)
        first_mrm = len(hand.tokens) + len(hand.gos)
        mrms = sum(1 for i in chosen if first_mrm <= i < first_wild)
        key = (value, mrms)
        if self.best is None or key > self.best:
            self.best = key
            self.best_plan = (list(formed), list(levels), chosen)

    def _worth(self, f: _Formed, level: int) -> tuple[int, int]:
        return group_worth(
            self.deck,
            f.group.id,
            f.count,
            min(level, 4),
            level == _HOTEL_LEVEL,
            self.token_includes_hotel,
        )

    def result(self) -> tuple[Layout, int] | None:
        """The best lay-out found, as JSON, and its value."""
        if self.best is None or self.best_plan is None:
            return None
        formed, levels, chosen = self.best_plan
        return self._build(formed, levels, chosen), self.best[0]

    def _build(self, formed: list[_Formed], levels: list[int], chosen: list[int]) -> Layout:
        """Turn the best plan into concrete card ids (required and real cards first)."""
        deck, hand = self.deck, self.hand
        wild_left = list(hand.wilds) if self.wild_pool else []
        house_left = {n: list(hand.houses[n]) for n in HOUSE_NUMBERS}
        hotel_left = list(hand.hotels)
        order = {g.id: i for i, g in enumerate(deck.groups)}
        entries: dict[str, dict[str, Any]] = {}
        token_home: tuple[int, int, str] | None = None  # (token value, -order, group)
        for f, level in zip(formed, levels, strict=True):
            cards = hand.props[f.group.id][: f.real] + [wild_left.pop(0) for _ in range(f.wilds)]
            houses = [
                house_left[n].pop(0) if house_left[n] else wild_left.pop(0)
                for n in HOUSE_NUMBERS[: min(level, 4)]
            ]
            hotel = None
            if level == _HOTEL_LEVEL:
                hotel = hotel_left.pop(0) if hotel_left else wild_left.pop(0)
            entries[f.group.id] = {
                "group": f.group.id,
                "cards": deck.sort(cards),
                "houses": houses,
                "hotel": hotel,
                "tokens": [],
            }
            candidate = (self._worth(f, level)[1], -order[f.group.id], f.group.id)
            if token_home is None or candidate > token_home:
                token_home = candidate
        first_go = len(hand.tokens)
        first_mrm = first_go + len(hand.gos)
        first_wild = first_mrm + len(hand.mrms)
        bonus: list[str] = []
        for i in sorted(chosen):
            if i < first_go:
                assert token_home is not None
                entries[token_home[2]]["tokens"].append(hand.tokens[i])
            elif i < first_mrm:
                bonus.append(hand.gos[i - first_go])
            elif i < first_wild:
                bonus.append(hand.mrms[i - first_mrm])
            else:
                bonus.append(wild_left.pop(0))
        groups = [entries[gid] for gid in sorted(entries, key=order.__getitem__)]
        for entry in groups:
            entry["tokens"] = deck.sort(entry["tokens"])
        return {"groups": groups, "bonus": deck.sort(bonus)}
