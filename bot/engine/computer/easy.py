"""The easy computer player: a timid version of the built-in simple player.

It keeps a large cash reserve, bids at most 70 % of a lot's price, always waits in
jail for doubles, builds only with plenty of cash and never offers trades — a
gentle opponent for new players.
"""

from __future__ import annotations

from typing import Any

from bot.engine import auctions
from bot.engine.simple_players import SimplePlayer
from bot.engine.state import GameState

Action = dict[str, Any]
RESERVE = 250


class EasyPlayer(SimplePlayer):
    """Plays safe and small (see the module docstring)."""

    __slots__ = ()

    name = "easy"

    def __init__(self) -> None:
        super().__init__(jail="stay")

    def decide(self, state: GameState, seat: int) -> Action:
        """Like the simple player, but with a larger reserve when buying."""
        if state.phase == "buy":
            price = state.board.squares[state.pending_buy].price  # type: ignore[index]
            kind = "buy" if state.players[seat].cash - price >= RESERVE else "decline"
            return {"type": kind, "player": seat}
        return super().decide(state, seat)

    def _bid(self, state: GameState, seat: int) -> Action:
        auction = state.auction
        assert auction is not None
        if auction["kind"] != "lot":
            return {"type": "auction_pass", "player": seat}
        limit = min(
            state.board.squares[auction["square"]].price * 7 // 10,
            state.players[seat].cash - RESERVE,
        )
        if auctions.is_sealed(auction):
            if limit < auction["min"]:
                return {"type": "auction_pass", "player": seat}
            return {"type": "sealed_bid", "player": seat, "amount": limit}
        lowest = auctions.next_minimum(state)
        if lowest > limit:
            return {"type": "auction_pass", "player": seat}
        return {"type": "bid", "player": seat, "amount": lowest}

    def _manage(self, state: GameState, seat: int) -> Action | None:
        if state.players[seat].cash < 3 * RESERVE:
            return None  # builds only when rich, and never proposes a trade
        action = super()._manage(state, seat)
        if action is not None and action["type"] == "propose_trade":
            return None
        return action
