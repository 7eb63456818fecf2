"""What the game does for a player who lets a deadline pass: the safe default.

Asynchronous games cannot wait forever for an absent player. At a deadline the
bot applies :func:`default_action` for the player the game waits on: throw and
move; decline a purchase (the lot goes to auction); pass in an auction (in a
sealed auction the game waits only on bidders without a sealed bid, so a bid
already in stands); keep received mortgages (the cheaper choice now); pay a
card's fine if the cash allows, else draw; place a won building on the first
street that takes it; in debt, raise the money by the least damaging means
(sell buildings evenly, dearest first, then mortgage the cheapest lots outside
complete groups) or go bankrupt when nothing is left; and end the turn. It never
builds, buys or trades.
"""

from __future__ import annotations

from typing import Any

from bot.engine import buildings
from bot.engine.errors import IllegalAction
from bot.engine.game import check_bankruptcy
from bot.engine.legal import waiting_for
from bot.engine.rent import owns_whole_group
from bot.engine.state import GameState

Action = dict[str, Any]


def default_action(state: GameState, seat: int | None = None) -> Action | None:
    """The safe action for ``seat`` (default: the first player the game waits on).

    Returns None when the game is over or does not wait on ``seat``.
    """
    if state.phase == "over":
        return None
    waiting = waiting_for(state)
    if seat is None:
        seat = waiting[0]
    if seat not in waiting:
        return None
    phase = state.phase
    act: Action
    if phase == "roll":
        act = {"type": "roll"}
    elif phase == "buy":
        act = {"type": "decline"}
    elif phase == "auction":
        act = {"type": "auction_pass"}
    elif phase == "choice":
        amount = state.pending_choice["amount"]  # type: ignore[index]
        act = {"type": "choose", "option": "pay" if state.players[seat].cash >= amount else "draw"}
    elif phase == "mortgage_choice":
        act = {"type": "decide_mortgages", "lift": []}
    elif phase == "place_building":
        act = place_won_building(state, seat)
    elif phase == "debt":
        act = raise_cash(state, seat) if state.lot_offer is None else {"type": "decline_lots"}
    else:
        act = {"type": "end_turn"}
    return {**act, "player": seat}


def declines_for(state: GameState, seat: int) -> list[Action]:
    """Decline every open trade offered to ``seat`` (a deadline on trade offers)."""
    return [
        {"type": "decline_trade", "player": seat, "trade": trade["id"]}
        for trade in state.trades
        if trade["to"] == seat
    ]


def lift_within(state: GameState, seat: int, budget: float) -> Action:
    """Decide on received mortgaged lots: lift them in order while ``budget`` lasts."""
    lift = []
    for square in state.mortgage_choices[0]["squares"]:
        cost = buildings.unmortgage_cost(state, square)
        if cost <= budget:
            lift.append(square)
            budget -= cost
    return {"type": "decide_mortgages", "player": seat, "lift": lift}


def place_won_building(state: GameState, seat: int) -> Action:
    """Place a won building on the first street that takes it."""
    pending = state.pending_building
    assert pending is not None
    for square in range(40):
        if (
            state.owner[square] == seat
            and buildings.build_problem(state, seat, square, placing=True) is None
            and buildings.next_building(state, square) == pending["kind"]
        ):
            return {"type": "build", "square": square}
    raise AssertionError("a won building always has a place")


def raise_cash(state: GameState, seat: int) -> Action:
    """The least damaging way for a debtor to raise money now, or bankruptcy."""
    squares = state.board.squares
    houses = state.houses
    mortgaged = state.mortgaged
    owned = [i for i, owner in enumerate(state.owner) if owner == seat]
    # Dearest group first: its houses bring the most back per sale (then the later
    # street). The lists hold their sort keys, ending in the square: no key function.
    built = sorted((-squares[i].house_cost, -i) for i in owned if houses[i])
    for _, minus_square in built:
        if buildings.sell_problem(state, seat, -minus_square) is None:
            return {"type": "sell_building", "square": -minus_square}
    # Keep complete groups rentable as long as possible; cheapest lots first.
    bare = sorted(
        (owns_whole_group(state, seat, i), squares[i].mortgage, i)
        for i in owned
        if not mortgaged[i]
    )
    for _, _, square in bare:
        if buildings.mortgage_problem(state, seat, square) is None:
            return {"type": "mortgage", "square": square}
    try:
        check_bankruptcy(state, seat)
    except IllegalAction as error:  # pragma: no cover - the engine guarantees a way out
        raise AssertionError("a debtor can always raise cash or go bankrupt") from error
    return {"type": "declare_bankruptcy"}
