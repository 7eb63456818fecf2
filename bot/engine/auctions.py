"""Auctions: a declined lot, the bank's sale of a bankrupt's lots, and scarce buildings.

Procedure (the rulebooks leave it open, see docs/rules.md): every active player
may bid at any time, any amount above the current bid (the first bid at least
``auction_min_bid``) and, by default, no more than their cash; a pass is final
for that auction; the auction closes when everyone but the leader has passed,
or when everyone has passed without a bid (the lot stays with the bank).
"""

from __future__ import annotations

from typing import Any

from bot.engine.errors import IllegalAction
from bot.engine.money import charge, receive_mortgaged
from bot.engine.state import BANK, GameState


def start_auction(
    state: GameState, item: dict[str, Any], minimum: int, bidders: list[int] | None = None
) -> None:
    """Open an auction of ``item`` (``{"kind": "lot", "square": i}`` or a building).

    Everyone still in the game may bid unless ``bidders`` names who may.
    """
    state.auction = {
        **item,
        "min": minimum,
        "high": 0,
        "leader": None,
        "bidders": state.active_players() if bidders is None else sorted(bidders),
        "passed": [],
    }
    state.emit("auction_started", **item, min=minimum)


def start_next_queued_auction(state: GameState) -> None:
    """Start the bank's auction of the next lot taken from a bankrupt player."""
    square = state.auction_queue.pop(0)
    start_auction(state, {"kind": "lot", "square": square}, state.rules.auction_min_bid)


def next_minimum(state: GameState) -> int:
    """The lowest bid allowed now: the opening minimum, or the current bid plus the raise."""
    auction = state.auction
    assert auction is not None
    if auction["leader"] is None:
        return auction["min"]
    return auction["high"] + state.rules.auction_min_raise


def check_bid(state: GameState, seat: int, amount: Any) -> None:
    """Raise :class:`IllegalAction` unless ``seat`` may bid ``amount`` now."""
    auction = state.auction
    if auction is None:
        raise IllegalAction("no_auction")
    if seat not in auction["bidders"]:
        raise IllegalAction("not_a_bidder")
    if seat in auction["passed"]:
        raise IllegalAction("already_passed")
    if seat == auction["leader"]:
        raise IllegalAction("already_leading", amount=auction["high"])
    if not isinstance(amount, int) or isinstance(amount, bool):
        raise IllegalAction("bad_amount")
    lowest = next_minimum(state)
    if amount < lowest:
        raise IllegalAction("bid_too_low", minimum=lowest)
    if state.rules.auction_bid_covered_by_cash and amount > state.players[seat].cash:
        raise IllegalAction("bid_above_cash", cash=state.players[seat].cash)


def bid(state: GameState, seat: int, amount: int) -> None:
    """Record a valid bid (see :func:`check_bid`) and close the auction if it is won."""
    auction = state.auction
    assert auction is not None
    auction["high"] = amount
    auction["leader"] = seat
    state.emit("bid", player=seat, amount=amount)
    close_if_decided(state)


def check_pass(state: GameState, seat: int) -> None:
    """Raise :class:`IllegalAction` unless ``seat`` may pass now."""
    auction = state.auction
    if auction is None:
        raise IllegalAction("no_auction")
    if seat not in auction["bidders"]:
        raise IllegalAction("not_a_bidder")
    if seat in auction["passed"]:
        raise IllegalAction("already_passed")
    if seat == auction["leader"]:
        raise IllegalAction("already_leading", amount=auction["high"])


def pass_bid(state: GameState, seat: int) -> None:
    """Record a final pass and close the auction if it is decided."""
    auction = state.auction
    assert auction is not None
    auction["passed"].append(seat)
    state.emit("auction_pass", player=seat)
    close_if_decided(state)


def close_if_decided(state: GameState) -> None:
    """Close the auction when everyone but the leader has passed (or all passed)."""
    auction = state.auction
    assert auction is not None
    still_in = [b for b in auction["bidders"] if b not in auction["passed"]]
    leader = auction["leader"]
    if leader is not None and still_in != [leader]:
        return
    if leader is None and still_in:
        return
    state.auction = None
    item = {k: auction[k] for k in ("kind", "square") if k in auction}
    if leader is None:
        if auction["kind"] == "lot":
            # A lot the bank keeps is never mortgaged (its mortgage died with its owner).
            state.mortgaged[auction["square"]] = False
        state.emit("auction_unsold", **item)
        return
    # With bids covered by cash this is always paid at once; without, it may be a debt.
    charge(state, leader, BANK, auction["high"], "auction")
    state.emit("auction_won", **item, player=leader, amount=auction["high"])
    if auction["kind"] == "lot":
        square = auction["square"]
        state.owner[square] = leader
        if state.mortgaged[square]:
            receive_mortgaged(state, leader, square)
    else:
        state.pending_building = {
            "player": leader,
            "kind": auction["kind"],
            "price": auction["high"],
        }
