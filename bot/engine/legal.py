"""The actions each player may take at this moment.

Every listed action can be passed to :func:`~bot.engine.game.apply_action` as it
is. Actions that need free parameters are listed once with a sensible value:
``bid`` (or ``sealed_bid`` in a sealed auction) with the lowest allowed amount
(see :func:`bid_range` for the range).
Trade proposals and part-payment offers are open-ended and not listed; use
:func:`may_propose_trade` and :func:`may_offer_lots`.
"""

from __future__ import annotations

from typing import Any

from bot.engine import auctions, buildings, trades
from bot.engine.errors import IllegalAction
from bot.engine.game import (
    MANAGE_PHASES,
    RAISE_CASH_PHASES,
    check_bankruptcy,
    check_decide_mortgages,
    check_pay_bail,
)
from bot.engine.state import GameState

Action = dict[str, Any]


def _passes(check: Any, *args: Any, **kwargs: Any) -> bool:
    try:
        check(*args, **kwargs)
    except IllegalAction:
        return False
    return True


def bid_range(state: GameState, seat: int) -> tuple[int, int] | None:
    """The lowest and highest bid ``seat`` may make now, or ``None``.

    In a sealed auction this is the range of a (revised) sealed bid: from the
    opening minimum, whatever the others have bid, which nobody can see.
    """
    auction = state.auction
    if auction is None or not _passes(auctions.check_pass, state, seat):
        return None
    lowest = auction["min"] if auctions.is_sealed(auction) else auctions.next_minimum(state)
    highest = state.players[seat].cash if state.rules.auction_bid_covered_by_cash else 10**9
    return (lowest, highest) if lowest <= highest else None


def may_propose_trade(state: GameState, seat: int) -> bool:
    """True if ``seat`` may propose a trade now."""
    return state.phase in MANAGE_PHASES and not state.players[seat].bankrupt


def may_offer_lots(state: GameState, seat: int) -> bool:
    """True if ``seat`` is a debtor who may offer lots to a player creditor."""
    return (
        state.rules.part_payment_in_lots
        and bool(state.debts)
        and state.debts[0]["debtor"] == seat
        and state.debts[0]["creditor"] >= 0
        and state.lot_offer is None
    )


def legal_actions(state: GameState, seat: int) -> list[Action]:
    """Every concrete action ``seat`` may take now (see the module docstring)."""
    if state.phase == "over" or state.players[seat].bankrupt:
        return []
    found: list[Action] = []

    def add(kind: str, **params: Any) -> None:
        found.append({"type": kind, "player": seat, **params})

    player = state.players[seat]
    phase = state.phase
    mine = seat == state.current
    if mine and phase == "roll":
        add("roll")
        if player.in_jail:
            for deck in sorted(set(player.jail_cards)):
                add("use_jail_card", deck=deck)
    if _passes(check_pay_bail, state, seat):
        add("pay_bail")
    if mine and phase == "buy":
        assert state.pending_buy is not None
        if player.cash >= state.board.squares[state.pending_buy].price:
            add("buy")
        add("decline")
    if mine and phase == "choice":
        add("choose", option="pay")
        add("choose", option="draw")
    if mine and phase == "end":
        add("end_turn")
    if phase == "auction":
        assert state.auction is not None
        span = bid_range(state, seat)
        if span is not None:
            # A sealed bidder who has bid may still revise (or withdraw by passing).
            add("sealed_bid" if auctions.is_sealed(state.auction) else "bid", amount=span[0])
        if _passes(auctions.check_pass, state, seat):
            add("auction_pass")
    owned = [i for i, owner in enumerate(state.owner) if owner == seat]
    in_debt = any(d["debtor"] == seat for d in state.debts)
    pending = state.pending_building
    if phase == "place_building" and pending is not None and pending["player"] == seat:
        for square in owned:
            if (
                state.board.squares[square].kind == "street"
                and buildings.can_build(state, seat, square, placing=True)
                and buildings.next_building(state, square) == pending["kind"]
            ):
                add("build", square=square)
    if phase in MANAGE_PHASES and not in_debt:
        for square in owned:
            if state.board.squares[square].kind == "street" and buildings.can_build(
                state, seat, square
            ):
                add("build", square=square)
    if phase in RAISE_CASH_PHASES:
        for square in owned:
            if buildings.sell_problem(state, seat, square) is None:
                add("sell_building", square=square)
            if buildings.mortgage_problem(state, seat, square) is None:
                add("mortgage", square=square)
    if phase in MANAGE_PHASES and not in_debt:
        for square in owned:
            if _passes(buildings.check_unmortgage, state, seat, square):
                add("unmortgage", square=square)
    for trade in state.trades:
        if (
            trade["to"] == seat
            and phase in MANAGE_PHASES
            and _passes(trades.check_trade, state, trade)
        ):
            add("accept_trade", trade=trade["id"])
        if seat in (trade["to"], trade["from"]):
            add("decline_trade", trade=trade["id"])
    offer = state.lot_offer
    if offer is not None:
        if _passes(trades.check_accept_lots, state, seat):
            add("accept_lots")
        if seat in (offer["creditor"], offer["debtor"]):
            add("decline_lots")
    choices = state.mortgage_choices
    if phase == "mortgage_choice" and choices[0]["player"] == seat:
        offered = choices[0]["squares"]
        options = [[], *([s] for s in offered)] + ([offered] if len(offered) > 1 else [])
        for lift in options:
            if _passes(check_decide_mortgages, state, seat, list(lift)):
                add("decide_mortgages", lift=list(lift))
    if _passes(check_bankruptcy, state, seat):
        add("declare_bankruptcy")
    for claim in state.claims:
        if claim["owner"] == seat:
            add("claim_rent", square=claim["square"])
    return found


def waiting_for(state: GameState) -> list[int]:
    """The seats the game is waiting on to move on (whom to remind)."""
    phase = state.phase
    if phase == "over":
        return []
    if phase == "debt":
        debtor = state.debts[0]["debtor"]
        offer = state.lot_offer
        return [offer["creditor"]] if offer is not None else [debtor]
    if phase == "auction":
        auction = state.auction
        assert auction is not None
        if auctions.is_sealed(auction):
            # Whoever has a sealed bid in has done their part (revising is optional).
            bidding = {b["player"] for b in auction["bids"]}
            return [
                b for b in auction["bidders"] if b not in auction["passed"] and b not in bidding
            ]
        return [
            b for b in auction["bidders"] if b not in auction["passed"] and b != auction["leader"]
        ]
    if phase == "place_building":
        assert state.pending_building is not None
        return [state.pending_building["player"]]
    if phase == "mortgage_choice":
        return [state.mortgage_choices[0]["player"]]
    return [state.current]
