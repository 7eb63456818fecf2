"""Trades judged by the chance to win (:mod:`.winmodel`), not by money.

Between strong players a game is decided by the first complete colour group that can be
built on, and only swaps make groups. The expert therefore asks of a trade: does it
raise my chance to win? (:func:`chance_gain`). And it looks for the trade that raises it
most among those its partner would accept (:func:`best_proposal`): every swap of one lot
for one lot, or cash for a lot, with the cash found by bisection as the least the partner
accepts — judged as the strong player judges (the partner model; a human decides for
themselves, the offer is fair by that measure).

It never offers a trade that completes a group for the partner unless the trade completes
one for itself too.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from bot.engine import trades
from bot.engine.computer.valuation import completes_group, opponents, tradeable
from bot.engine.computer.winmodel import chances
from bot.engine.errors import IllegalAction
from bot.engine.state import GameState

Action = dict[str, Any]
Trade = dict[str, Any]
#: Structures whose best case is checked against the partner (the rest are pruned).
SHORTLIST = 12
#: Steps of the bisection for the partner's least acceptable cash.
BISECTION_STEPS = 9


def after_trade(state: GameState, trade: Trade) -> tuple[list[int | None], list[int]]:
    """The owners and everyone's cash after ``trade`` (interest on mortgaged lots paid)."""
    giver, taker = trade["from"], trade["to"]
    give, get = trade["give"], trade["get"]
    owner: list[int | None] = list(state.owner)
    cash = [p.cash for p in state.players]
    for square in give["lots"]:
        owner[square] = taker
    for square in get["lots"]:
        owner[square] = giver
    moved = give["cash"] - get["cash"]
    cash[giver] -= moved + trades.interest_due(state, list(get["lots"]))
    cash[taker] += moved - trades.interest_due(state, list(give["lots"]))
    return owner, cash


def chance_gain(state: GameState, seat: int, trade: Trade, before: float | None = None) -> float:
    """How much ``trade`` raises the chance of ``seat`` to win (negative: lowers it).

    ``before`` is the chance now, if known (it is the same for every candidate trade).
    """
    if before is None:
        before = chances(state)[seat]
    owner, cash = after_trade(state, trade)
    return chances(state, owner, cash)[seat] - before


def _offer(seat: int, partner: int, give_lot: int | None, want: int, cash: int) -> Action:
    """``seat`` gives ``give_lot`` (or nothing) and ``cash`` (negative: asks it) for ``want``."""
    return {
        "type": "propose_trade",
        "player": seat,
        "to": partner,
        "give": {"cash": max(0, cash), "lots": [] if give_lot is None else [give_lot]},
        "get": {"cash": max(0, -cash), "lots": [want]},
    }


def _as_trade(action: Action) -> Trade:
    return {
        "from": action["player"],
        "to": action["to"],
        "give": {"jail_cards": [], **action["give"]},
        "get": {"jail_cards": [], **action["get"]},
    }


def best_proposal(
    state: GameState,
    seat: int,
    partner_accepts: Callable[[GameState, int, Trade], bool],
    budget: int,
    threshold: float,
    opening: Callable[[GameState, int, Trade], bool] | None = None,
) -> Action | None:
    """The acceptable offer that raises ``seat``'s chance to win most, if by ``threshold``.

    ``partner_accepts(state, partner, trade)`` models the partner's answer: the trade
    must raise the chance by ``threshold`` at the least cash it accepts. ``opening`` is a
    less demanding partner (one who goes by printed prices): the offer opens at the least
    cash that one accepts, if lower; a partner who wants more counters. ``budget`` is the
    most cash ``seat`` gives away.
    """
    now = chances(state)[seat]
    mine = [i for i in state.board.property_indices if state.owner[i] == seat]
    mine = [i for i in mine if tradeable(state, i)]
    shapes: list[tuple[float, int, int | None, int]] = []
    for partner in opponents(state, seat):
        theirs = [
            i
            for i in state.board.property_indices
            if state.owner[i] == partner and tradeable(state, i)
        ]
        for want in theirs:
            for give_lot in [None, *mine]:
                given = [] if give_lot is None else [give_lot]
                # A group for the partner only in a swap that completes one of ours.
                if (
                    given
                    and completes_group(state, partner, given)
                    and not completes_group(state, seat, [want])
                ):
                    continue
                best_case = _offer(seat, partner, give_lot, want, 0 if given else 1)
                gain = chance_gain(state, seat, _as_trade(best_case), now)
                if gain > threshold:
                    shapes.append((gain, partner, give_lot, want))
    shapes.sort(key=lambda s: (-s[0], s[1], -1 if s[2] is None else s[2], s[3]))
    best: tuple[float, Action] | None = None
    for _, partner, give_lot, want in shapes[:SHORTLIST]:
        low = 1 if give_lot is None else -state.players[partner].cash
        cash = _least_accepted(state, seat, partner, give_lot, want, low, budget, partner_accepts)
        if cash is None:
            continue
        action = _offer(seat, partner, give_lot, want, cash)
        gain = chance_gain(state, seat, _as_trade(action), now)
        if gain <= threshold or (best is not None and gain <= best[0]):
            continue
        if opening is not None:
            cheaper = _least_accepted(state, seat, partner, give_lot, want, low, cash, opening)
            if cheaper is not None and cheaper < cash:
                action = _offer(seat, partner, give_lot, want, cheaper)
        try:
            trades.build_trade(state, seat, action)
        except IllegalAction:
            continue
        best = (gain, action)
    return None if best is None else best[1]


def _least_accepted(
    state: GameState,
    seat: int,
    partner: int,
    give_lot: int | None,
    want: int,
    low: int,
    high: int,
    partner_accepts: Callable[[GameState, int, Trade], bool],
) -> int | None:
    """The least cash (from ``low`` to ``high``) for which the partner accepts, or None."""

    def accepted(cash: int) -> bool:
        offer = _offer(seat, partner, give_lot, want, cash)
        return partner_accepts(state, partner, _as_trade(offer))

    if high < low or not accepted(high):
        return None
    if accepted(low):
        return low
    for _ in range(BISECTION_STEPS):
        if high - low <= 5:
            break
        middle = (low + high) // 2
        if accepted(middle):
            high = middle
        else:
            low = middle
    return high
