"""Who is winning: a learned estimate of each player's chance to win from a position.

The strong player's valuation (:mod:`.valuation`) counts money: cash, lots and the rent
they bring over a horizon. Between strong players a game is decided by who completes a
colour group first and can build on it, and what that is worth in money the valuation
cannot say. So this module estimates it from games: a conditional logit model over the
seats still in the game, ``P(seat wins) = exp(u_seat) / sum(exp(u_other))``, where
``u = weights · features(seat)`` and the features say what a position has (cash, lots,
rent now, rent the complete groups could bring with three houses, how much of that the
cash can pay for, ...). The weights are fitted on seeded games between strong players
(:mod:`.winmodel_training`) and shipped as data (``bot/engine/data/win_model.json``).

The expert player (:mod:`.lookahead`) compares trades with it: a trade is good when it
raises its own chance to win, whatever it does to the money. Pure and cheap (a few
dozen arithmetic operations per lot).
"""

from __future__ import annotations

import json
import math
from collections.abc import Sequence
from functools import cache
from importlib import resources

from bot.engine.computer.frequencies import landing_frequencies
from bot.engine.computer.valuation import rent_if
from bot.engine.state import GameState

#: The names of the features, in the order of the weights.
FEATURES = (
    "cash",  # cash, in start moneys
    "lots",  # printed prices of unmortgaged lots plus mortgage values of mortgaged ones
    "buildings",  # what the houses and hotels cost
    "income",  # the rent expected from ten rounds of the opponents' throws, as built now
    "upside",  # what three houses on every complete group would add to that income
    "reach",  # the part of the upside the cash can pay for now
    "groups",  # complete colour groups of streets
    "near",  # colour groups missing one lot (what trades are made of)
    "railroads",  # railroads owned
    "cash_low",  # cash up to a fifth of the start money (little cash is worse than linear)
    "exposure",  # the rent the others' lots are expected to take from it in ten own throws
)
#: The cash below which ``cash_low`` counts (in start moneys).
LOW_CASH = 0.2
#: Rounds of opponents' throws the income features count.
ROUNDS = 10


@cache
def weights() -> tuple[float, ...]:
    """The shipped weights, one per feature in :data:`FEATURES`."""
    raw = json.loads((resources.files("bot.engine") / "data" / "win_model.json").read_text("utf-8"))
    if tuple(raw["features"]) != FEATURES:
        raise ValueError("win_model.json was fitted on other features: retrain it")
    return tuple(float(w) for w in raw["weights"])


def features(
    state: GameState,
    owner: Sequence[int | None] | None = None,
    cash: Sequence[int] | None = None,
) -> list[list[float] | None]:
    """The features of every seat (None for a bankrupt one), after an optional change.

    ``owner`` and ``cash`` replace the state's owners and the players' cash: a trade or
    a purchase is valued without playing it. Money is counted in start moneys, so the
    same weights fit boards with other money.
    """
    board = state.board
    owner = state.owner if owner is None else owner
    players = state.players
    cash = [p.cash for p in players] if cash is None else cash
    scale = float(board.start_money)
    frequency = landing_frequencies(board)
    squares = board.squares
    houses = state.houses
    mortgaged = state.mortgaged
    alive = [not p.bankrupt for p in players]
    opponents = max(1, sum(alive) - 1)
    throws = ROUNDS * opponents
    rows: list[list[float] | None] = [
        [cash[s] / scale, *[0.0] * 8, min(cash[s] / scale, LOW_CASH), 0.0] if alive[s] else None
        for s in range(len(players))
    ]
    double = state.rules.unbuilt_group_rent_multiplier
    for group in board.street_groups:
        holders = [owner[i] for i in group]
        first = holders[0]
        complete = first is not None and first >= 0 and all(h == first for h in holders)
        if complete:
            row = rows[first]  # type: ignore[index]
            if row is None:
                continue
            row[6] += 1
            upside = cost = 0.0
            for i in group:
                info = squares[i]
                built = houses[i]
                if built < 3:
                    rent_now = info.rents[built] * (double if built == 0 else 1)
                    upside += frequency[i] * (info.rents[3] - rent_now) * throws
                    cost += (3 - built) * info.house_cost
                if mortgaged[i]:
                    cost += info.mortgage * 1.1
            row[4] += upside / scale
            if cost > 0:
                money = max(0.0, cash[first])  # type: ignore[index]  # (first is a seat here)
                row[5] += upside / scale * min(1.0, money / cost)
            continue
        counts: dict[int, int] = {}
        for h in holders:
            if h is not None and h >= 0:
                counts[h] = counts.get(h, 0) + 1
        for seat, count in counts.items():
            row = rows[seat]
            if row is not None and count == len(group) - 1:
                row[7] += 1
    railroad_counts: dict[int, int] = {}
    for i in board.property_indices:
        holder = owner[i]
        if holder is None or holder < 0:
            continue
        seat = holder
        row = rows[seat]
        if row is None:
            continue
        info = squares[i]
        row[1] += (info.mortgage if mortgaged[i] else info.price) / scale
        row[2] += houses[i] * info.house_cost / scale
        if info.kind == "railroad":
            railroad_counts[seat] = railroad_counts.get(seat, 0) + 1
        if not mortgaged[i]:
            rent = frequency[i] * rent_if(state, i, owner, houses[i]) / scale
            row[3] += rent * throws
            for other, other_row in enumerate(rows):
                if other != seat and other_row is not None:
                    other_row[10] += rent * ROUNDS
    for seat, count in railroad_counts.items():
        rows[seat][8] = count  # type: ignore[index]
    return rows


def utilities(rows: Sequence[Sequence[float] | None], w: Sequence[float]) -> list[float | None]:
    """``weights · features`` per seat (None for a bankrupt one)."""
    return [
        None if row is None else sum(a * b for a, b in zip(w, row, strict=True)) for row in rows
    ]


def chances(
    state: GameState,
    owner: Sequence[int | None] | None = None,
    cash: Sequence[int] | None = None,
    w: Sequence[float] | None = None,
) -> list[float]:
    """Every seat's estimated chance to win (0 for a bankrupt one); they sum to 1."""
    scores = utilities(features(state, owner, cash), weights() if w is None else w)
    top = max(u for u in scores if u is not None)
    raw = [0.0 if u is None else math.exp(u - top) for u in scores]
    total = sum(raw)
    return [r / total for r in raw]
