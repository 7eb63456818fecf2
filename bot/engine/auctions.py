"""Auctions: a declined lot, the bank's sale of a bankrupt's lots, and scarce buildings.

Live procedure (the rulebooks leave it open, see docs/rules.md): every active
player may bid at any time, any amount above the current bid (the first bid at
least ``auction_min_bid``) and, by default, no more than their cash; a pass is
final for that auction; the auction closes when everyone but the leader has
passed, or when everyone has passed without a bid (the lot stays with the bank).

Sealed procedure (house rule ``sealed_auctions``; the rulebooks only describe
live auctions): each bidder submits one private maximum, which they may revise
or withdraw (by passing) until the close. The auction closes when every bidder
has bid or passed, or at its closing time (:func:`close_now`). The highest
maximum wins (ties: the earlier bid) and pays the second-highest maximum plus
``auction_min_raise``, never more than its own maximum; a single bid pays the
minimum.

Either way the auction can be closed early at its closing time (the system
action ``close_auction``): whoever has not acted by then counts as passed.
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

    Everyone still in the game may bid unless ``bidders`` names who may. With the
    rule ``sealed_auctions`` the auction takes sealed bids.
    """
    auction: dict[str, Any] = {
        **item,
        "min": minimum,
        "high": 0,
        "leader": None,
        "bidders": state.active_players() if bidders is None else sorted(bidders),
        "passed": [],
    }
    sealed = state.rules.sealed_auctions
    if sealed:
        # "high" and "leader" stay 0 / None: a sealed auction has no public leader.
        auction["sealed"] = True
        auction["bids"] = []
    state.auction = auction
    if sealed:
        state.emit("auction_started", **item, min=minimum, sealed=True)
    else:
        state.emit("auction_started", **item, min=minimum)


def start_next_queued_auction(state: GameState) -> None:
    """Start the bank's auction of the next lot taken from a bankrupt player."""
    square = state.auction_queue.pop(0)
    start_auction(state, {"kind": "lot", "square": square}, state.rules.auction_min_bid)


def is_sealed(auction: dict[str, Any]) -> bool:
    """True if ``auction`` takes sealed bids (games saved before the rule are live)."""
    return bool(auction.get("sealed", False))


def sealed_bid_of(auction: dict[str, Any], seat: int) -> int | None:
    """The sealed maximum ``seat`` has submitted in ``auction``, or ``None``."""
    for entry in auction.get("bids", ()):
        if entry["player"] == seat:
            return entry["amount"]
    return None


def next_minimum(state: GameState) -> int:
    """The lowest bid allowed now: the opening minimum, or the current bid plus the raise.

    In a sealed auction every bid is measured against the opening minimum only.
    """
    auction = state.auction
    assert auction is not None
    if auction["leader"] is None:
        return auction["min"]
    return auction["high"] + state.rules.auction_min_raise


def _check_bidder(state: GameState, seat: int, sealed: bool | None) -> dict[str, Any]:
    """The running auction, if ``seat`` may still act in it (``sealed``: the mode required)."""
    auction = state.auction
    if auction is None:
        raise IllegalAction("no_auction")
    if sealed is not None and is_sealed(auction) != sealed:
        raise IllegalAction("live_auction" if sealed else "sealed_auction")
    if seat not in auction["bidders"]:
        raise IllegalAction("not_a_bidder")
    if seat in auction["passed"]:
        raise IllegalAction("already_passed")
    return auction


def _check_amount(state: GameState, seat: int, amount: Any, lowest: int) -> None:
    if not isinstance(amount, int) or isinstance(amount, bool):
        raise IllegalAction("bad_amount")
    if amount < lowest:
        raise IllegalAction("bid_too_low", minimum=lowest)
    if state.rules.auction_bid_covered_by_cash and amount > state.players[seat].cash:
        raise IllegalAction("bid_above_cash", cash=state.players[seat].cash)


def check_bid(state: GameState, seat: int, amount: Any) -> None:
    """Raise :class:`IllegalAction` unless ``seat`` may bid ``amount`` now (live auction)."""
    auction = _check_bidder(state, seat, sealed=False)
    if seat == auction["leader"]:
        raise IllegalAction("already_leading", amount=auction["high"])
    _check_amount(state, seat, amount, next_minimum(state))


def bid(state: GameState, seat: int, amount: int) -> None:
    """Record a valid bid (see :func:`check_bid`) and close the auction if it is won."""
    auction = state.auction
    assert auction is not None
    auction["high"] = amount
    auction["leader"] = seat
    state.emit("bid", player=seat, amount=amount)
    close_if_decided(state)


def check_sealed_bid(state: GameState, seat: int, amount: Any) -> None:
    """Raise :class:`IllegalAction` unless ``seat`` may submit (or revise) ``amount`` now."""
    auction = _check_bidder(state, seat, sealed=True)
    _check_amount(state, seat, amount, auction["min"])


def sealed_bid(state: GameState, seat: int, amount: int) -> None:
    """Record a valid sealed bid (see :func:`check_sealed_bid`), replacing an earlier one.

    ``order`` is the action's sequence number, so a revised bid counts as a later
    bid when maxima tie. The event names the bidder only: events are public and
    the amount stays secret until the close.
    """
    auction = state.auction
    assert auction is not None
    bids = [entry for entry in auction["bids"] if entry["player"] != seat]
    bids.append({"player": seat, "amount": amount, "order": state.seq})
    bids.sort(key=lambda entry: entry["player"])
    auction["bids"] = bids
    state.emit("sealed_bid", player=seat)
    close_if_decided(state)


def check_pass(state: GameState, seat: int) -> None:
    """Raise :class:`IllegalAction` unless ``seat`` may pass now."""
    auction = _check_bidder(state, seat, sealed=None)
    if seat == auction["leader"]:
        raise IllegalAction("already_leading", amount=auction["high"])


def pass_bid(state: GameState, seat: int) -> None:
    """Record a final pass (withdrawing a sealed bid) and close the auction if decided."""
    auction = state.auction
    assert auction is not None
    auction["passed"].append(seat)
    if is_sealed(auction):
        auction["bids"] = [entry for entry in auction["bids"] if entry["player"] != seat]
    state.emit("auction_pass", player=seat)
    close_if_decided(state)


def close_if_decided(state: GameState) -> None:
    """Close the auction when it is decided.

    Live: everyone but the leader has passed (or all passed). Sealed: every bidder
    has either a sealed bid or has passed.
    """
    auction = state.auction
    assert auction is not None
    if is_sealed(auction):
        # A bidder who left the game meanwhile (money.declare_bankrupt drops them from
        # the bidders) takes their sealed bid with them.
        auction["bids"] = [b for b in auction["bids"] if b["player"] in auction["bidders"]]
        bidding = {b["player"] for b in auction["bids"]}
        if all(b in auction["passed"] or b in bidding for b in auction["bidders"]):
            _resolve_sealed(state)
        return
    still_in = [b for b in auction["bidders"] if b not in auction["passed"]]
    leader = auction["leader"]
    if leader is not None and still_in != [leader]:
        return
    if leader is None and still_in:
        return
    _finish(state, leader, auction["high"])


def close_now(state: GameState) -> None:
    """Close the running auction at its closing time (system action ``close_auction``).

    Everyone still in who has not committed counts as passed - in a live auction
    every bidder but the leader, in a sealed one every bidder without a sealed bid -
    and the auction is then decided as usual.
    """
    auction = state.auction
    assert auction is not None
    state.emit("auction_closed", **_item(auction))
    if is_sealed(auction):
        committed = {b["player"] for b in auction["bids"]}
    else:
        committed = {auction["leader"]}
    for seat in auction["bidders"]:
        if seat not in auction["passed"] and seat not in committed:
            auction["passed"].append(seat)
            state.emit("auction_pass", player=seat)
    close_if_decided(state)
    assert state.auction is None, "a closed auction is always decided"


def _resolve_sealed(state: GameState) -> None:
    """Decide a sealed auction: the highest maximum wins at a second-price."""
    auction = state.auction
    assert auction is not None
    # Highest first; equal maxima go to the earlier bid (lower ``order``).
    ranked = sorted(auction["bids"], key=lambda b: (-b["amount"], b["order"]))
    if not ranked:
        _finish(state, None, 0)
        return
    best = ranked[0]
    if len(ranked) == 1:
        price = auction["min"]
    else:
        price = min(best["amount"], ranked[1]["amount"] + state.rules.auction_min_raise)
    revealed = [{"player": b["player"], "amount": b["amount"]} for b in ranked]
    _finish(state, best["player"], price, bids=revealed)


def _item(auction: dict[str, Any]) -> dict[str, Any]:
    return {k: auction[k] for k in ("kind", "square") if k in auction}


def _finish(state: GameState, winner: int | None, price: int, **details: Any) -> None:
    """End the running auction: award it to ``winner`` at ``price``, or leave it unsold.

    Shared by live and sealed auctions; ``details`` go into the ``auction_won`` event.
    """
    auction = state.auction
    assert auction is not None
    state.auction = None
    item = _item(auction)
    if winner is None:
        if auction["kind"] == "lot":
            # A lot the bank keeps is never mortgaged (its mortgage died with its owner).
            state.mortgaged[auction["square"]] = False
        state.emit("auction_unsold", **item)
        return
    # With bids covered by cash this is always paid at once; without, it may be a debt.
    charge(state, winner, BANK, price, "auction")
    state.emit("auction_won", **item, player=winner, amount=price, **details)
    if auction["kind"] == "lot":
        square = auction["square"]
        state.owner[square] = winner
        if state.mortgaged[square]:
            receive_mortgaged(state, winner, square)
    else:
        state.pending_building = {"player": winner, "kind": auction["kind"], "price": price}
