"""What the game waits for next, and passing the turn on."""

from __future__ import annotations

from bot.engine.auctions import close_if_decided, start_next_queued_auction
from bot.engine.buildings import settle_won_building
from bot.engine.money import end_by_wealth, settle_debts
from bot.engine.state import GameState
from bot.engine.turns import move_by


def settle(state: GameState) -> None:
    """Resolve what resolves by itself and set ``state.phase`` to what comes next.

    Order matters: debts first (a jail fine is paid before the move it allows),
    then auctions, a won building to place, a purchase decision, a card choice,
    a pending move, and finally the turn itself.
    """
    while True:
        if state.debts:
            settle_debts(state)
        if state.end_reason is not None:
            state.phase = "over"
            return
        if state.debts:
            state.phase = "debt"
            return
        if state.mortgage_choices:
            state.phase = "mortgage_choice"
            return
        if state.auction is not None:
            close_if_decided(state)  # a bidder may have left the game meanwhile
        if state.auction is not None:
            state.phase = "auction"
            return
        if state.auction_queue:
            start_next_queued_auction(state)
            state.phase = "auction"
            return
        # (Not a second look at state.pending_building after the call: mypy would still
        # take it for not None, and the engine compiled with mypyc would fail on None.)
        if state.pending_building is not None and settle_won_building(state):
            state.phase = "place_building"
            return
        if state.pending_buy is not None:
            state.phase = "buy"
            return
        if state.pending_choice is not None:
            state.phase = "choice"
            return
        if state.pending_move is not None:
            steps = state.pending_move
            state.pending_move = None
            move_by(state, state.current, steps, steps)
            continue
        if state.players[state.current].bankrupt:
            next_turn(state)
            continue
        state.phase = "roll" if state.may_roll else "end"
        return


def next_turn(state: GameState) -> None:
    """Give the turn to the next player still in the game, clockwise.

    When the agreed time is up the game ends here instead, by counting wealth.
    """
    if state.time_up:
        end_by_wealth(state, "time_limit")
        return
    count = len(state.players)
    seat = state.current
    for _ in range(count):
        seat = (seat + 1) % count
        if not state.players[seat].bankrupt:
            break
    state.current = seat
    state.turn += 1
    state.doubles = 0
    state.may_roll = True
    if state.record_events:
        state.events.append({"type": "turn", "player": seat, "turn": state.turn})
