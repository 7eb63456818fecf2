"""Standing orders: decisions a player makes in advance, so a game need not wait for them.

Set privately with ``/monopoly orders``, kept per game and seat in the game's settings
(``orders``: ``{seat: order}``), shown on request and revocable at any time. An order is
a JSON object with any of:

* ``buy``: ``{"keep": X}`` — buy a lot the bank offers when its price leaves at least
  ``X`` in cash; ``"never"`` — decline every purchase at once (the lot goes to auction).
* ``bids``: a list of ``{"target": T, "limit": X}`` — in an auction of a lot, bid up to
  ``X`` (``None``: up to the lot's list price); ``T`` is ``"any"``, ``"group:<name>"`` or
  ``"lot:<square>"``, the most specific target counts.
* ``jail``: ``"pay"`` (pay the bail at once), ``"card"`` (use a jail card) or ``"roll"``.
* ``decline_trades``: decline every trade offer made to the player.
* ``auto_end``: end the turn when nothing but ending it is left to do.

:func:`order_action` says what an order does *now*: it acts the moment the game waits
on the player (the bot plans an ``order`` timer due at once, and applies the action like
a click), never at the deadline. An order that would be illegal now is skipped: it
yields nothing and the player decides. An order never builds, trades or mortgages; it
only does what the player set.

Pure: no Discord, no store, no clock.
"""

from __future__ import annotations

from typing import Any

from bot.engine import auctions
from bot.engine.legal import legal_actions, waiting_for
from bot.engine.state import GameState
from bot.settings import GameSettings

Action = dict[str, Any]
Order = dict[str, Any]
#: The most bid orders a player may keep in one game.
MAX_BIDS = 10
#: The largest amount an order may name (more than any board's money).
MAX_AMOUNT = 1_000_000
JAIL_CHOICES = ("pay", "card", "roll")


def order_of(settings: GameSettings, seat: int) -> Order:
    """The standing order of ``seat`` (empty if none)."""
    order = settings.play.orders.get(str(seat))
    return dict(order) if isinstance(order, dict) else {}


def set_order(settings: GameSettings, seat: int, order: Order) -> None:
    """Store ``seat``'s order (an empty order removes it); ``settings`` changed in place."""
    orders = {k: v for k, v in settings.play.orders.items() if k != str(seat)}
    if order:
        orders[str(seat)] = order
    if orders:
        settings.play.orders = orders
    else:
        del settings.play.orders


def with_bid(order: Order, target: str, limit: int | None) -> Order:
    """``order`` with a bid order on ``target`` (replacing one on the same target)."""
    bids = [b for b in order.get("bids", []) if b.get("target") != target]
    bids.append({"target": target, "limit": limit})
    return {**order, "bids": bids[-MAX_BIDS:]}


def bid_limit(state: GameState, order: Order, square: int) -> int | None:
    """The most ``order`` bids on the lot ``square`` (None: no bid order covers it)."""
    group = state.board.squares[square].group
    wanted = {f"lot:{square}": 0, f"group:{group}": 1, "any": 2}
    matching = sorted(
        (wanted[b["target"]], b.get("limit"))
        for b in order.get("bids", [])
        if isinstance(b, dict) and b.get("target") in wanted
    )
    if not matching:
        return None
    _, limit = matching[0]
    return int(limit) if isinstance(limit, int) else state.board.squares[square].price


def order_action(state: GameState, settings: GameSettings, seat: int) -> Action | None:
    """What ``seat``'s standing order does now, if anything (always a legal action)."""
    order = order_of(settings, seat)
    if not order or state.phase == "over" or state.players[seat].bankrupt:
        return None
    legal = legal_actions(state, seat)
    action = _trade_answer(state, order, seat, legal)
    if action is None and seat in waiting_for(state):
        action = _decision(state, order, seat, legal)
    return action


def next_order(state: GameState, settings: GameSettings, skip: set[int]) -> Action | None:
    """The first action a standing order takes now, for a seat not in ``skip`` (the
    computer's seats), or None."""
    for key in sorted(settings.play.orders, key=int):
        seat = int(key)
        if seat in skip or not 0 <= seat < len(state.players):
            continue
        action = order_action(state, settings, seat)
        if action is not None:
            return action
    return None


def _find(legal: list[Action], kind: str, **params: Any) -> Action | None:
    return next(
        (a for a in legal if a["type"] == kind and all(a.get(k) == v for k, v in params.items())),
        None,
    )


def _trade_answer(state: GameState, order: Order, seat: int, legal: list[Action]) -> Action | None:
    if not order.get("decline_trades"):
        return None
    for trade in state.trades:
        if trade["to"] == seat:
            found = _find(legal, "decline_trade", trade=trade["id"])
            if found is not None:
                return found
    return None


def _decision(state: GameState, order: Order, seat: int, legal: list[Action]) -> Action | None:
    phase, player = state.phase, state.players[seat]
    if phase == "buy" and state.pending_buy is not None:
        return _purchase(state, order, player.cash, legal)
    if phase == "auction" and state.auction is not None:
        return _bid(state, order, seat, legal)
    if phase == "roll" and player.in_jail:
        return _jail(order, legal)
    if phase == "end" and order.get("auto_end"):
        return _find(legal, "end_turn")
    return None


def _purchase(state: GameState, order: Order, cash: int, legal: list[Action]) -> Action | None:
    rule = order.get("buy")
    if rule == "never":
        return _find(legal, "decline")
    if isinstance(rule, dict) and isinstance(rule.get("keep"), int):
        assert state.pending_buy is not None
        price = state.board.squares[state.pending_buy].price
        if cash - price >= rule["keep"]:
            return _find(legal, "buy")
    return None


def _bid(state: GameState, order: Order, seat: int, legal: list[Action]) -> Action | None:
    auction = state.auction
    assert auction is not None
    if auction.get("kind") != "lot":
        return None  # buildings in short supply are the player's own decision
    limit = bid_limit(state, order, int(auction["square"]))
    if limit is None:
        return None
    cash = state.players[seat].cash
    if auctions.is_sealed(auction):
        if auctions.sealed_bid_of(auction, seat) is not None:
            return None  # the player's own sealed bid stands
        amount = min(limit, cash) if state.rules.auction_bid_covered_by_cash else limit
        if amount >= auction["min"] and _find(legal, "sealed_bid") is not None:
            return {"type": "sealed_bid", "player": seat, "amount": amount}
        return _find(legal, "auction_pass")
    bid = _find(legal, "bid")
    if bid is not None and bid["amount"] <= limit:
        return bid
    return _find(legal, "auction_pass")


def _jail(order: Order, legal: list[Action]) -> Action | None:
    choice = order.get("jail")
    if choice == "pay":
        return _find(legal, "pay_bail")
    if choice == "card":
        return _find(legal, "use_jail_card")
    if choice == "roll":
        return _find(legal, "roll")
    return None
