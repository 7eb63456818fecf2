"""The expert computer player: the strong player, but trades are judged by the chance to
win, and some choices can be settled by short simulated futures.

It plays like :class:`~.strong.StrongPlayer` (its valuation, reserve and habits). Where
the game is decided between good players — who completes a colour group first and can
build on it, which only trades bring about — it asks a learned model of the chance to win
(:mod:`.winmodel`, fitted on seeded games) instead of the money valuation:

* **Trades proposed** (look ``"offers"``) — every swap of one lot for one lot and every
  cash offer for a lot, with the least cash a partner judging like the strong player
  accepts (the partner model); the one that raises its chance to win most, if by
  :data:`PROPOSE_EDGE` (:func:`~.deals.best_proposal`). Never a group for the partner
  unless the swap completes one for the expert too.
* **Opening low** (look ``"open_low"``) — the offer opens at the price a partner who goes
  by printed prices accepts, if that is lower; a partner who wants more counters.
* **Trades offered** (look ``"answers"``) — accepted when they raise its chance to win by
  :data:`ACCEPT_EDGE`, but never a trade that hands the partner a complete group without
  at least as much in return by the valuation (the strong player's rule, kept as a floor:
  a human must not get a monopoly cheaply). A refused offer gets the nearest counter-offer
  that passes this test (:mod:`.counter`).

Measured (``monopoly-bot tournament --suite expert``, see docs/computer-players.md):
these trades lift it from on par with the strong player to well above it.

The futures (:mod:`.playouts`: each option played forward a few rounds on the pure engine
with the simple players, the same seeded futures for every option) can settle other
choices; each is a look, off by default because measured it did not win more:

* ``"buy"`` — buy, or let the lot go to auction;
* ``"auction"`` — the most it bids for a lot (measured worse: 18.7 % against 24.3 %);
* ``"jail"`` — leave now (card or bail) or throw for doubles;
* ``"build"`` — a house below the strong player's reserve, or keep the cash;
* ``"accept"`` — accept or decline a trade by its futures (the win model replaced it).

Decisions the looks do not change (rolling, paying a debt, placing a building) are the
strong player's. Deterministic for a given game; the work per decision is bounded by a
fixed number of candidates and simulated turns, never by the clock.
"""

from __future__ import annotations

from typing import Any

from bot.engine import auctions, buildings
from bot.engine.computer.deals import best_proposal, chance_gain
from bot.engine.computer.playouts import Budget, act, compare
from bot.engine.computer.strong import StrongPlayer, _legal, _scale
from bot.engine.computer.valuation import completes_group, opponents
from bot.engine.game import apply_action, check_pay_bail
from bot.engine.simple_players import SimplePlayer
from bot.engine.state import GameState

Action = dict[str, Any]
#: The price-minded partner offers open with.
_SIMPLE = SimplePlayer()
#: How much better (in money) an option's futures must score to beat the default.
EDGE = 10
#: How much a trade must raise the chance to win (by the win model) to be offered.
PROPOSE_EDGE = 0.01
#: How much a trade offered to it must raise its chance to win to be accepted.
ACCEPT_EDGE = 0.005
#: The least cash kept when building below the strong player's reserve (euro board).
BOLD_RESERVE = 20
#: The futures of a trade: fewer, but long enough for houses to be built and paid for.
TRADE_BUDGET = Budget(playouts=32, rounds=8)
#: Salts that keep the futures of different kinds of decisions apart.
_SALT_BUY, _SALT_AUCTION, _SALT_JAIL, _SALT_BUILD, _SALT_TRADE = range(1, 6)


#: The decisions the expert makes its own way by default (the rest are the strong player's):
#: trades offered and answered by the win model, offers opened at a price-minded partner's
#: price. The futures' looks ("buy", "auction", "jail", "build", "accept") are there but off:
#: measured, they did not win more (see the module docstring).
LOOKS = frozenset({"offers", "open_low", "answers"})


class LookaheadPlayer(StrongPlayer):
    """Trades by the win model; other choices optionally by futures (see the module docstring)."""

    __slots__ = ("budget", "looks", "trade_budget", "_limits")

    name = "expert"

    def __init__(
        self,
        budget: Budget | None = None,
        looks: frozenset[str] = LOOKS,
        trade_budget: Budget | None = None,
    ) -> None:
        self.budget = budget or Budget()
        # Trades are rare and shape the whole game: their futures are longer.
        self.trade_budget = trade_budget or TRADE_BUDGET
        self.looks = looks
        # Bid limits per auction (the futures are played once, not at every raise).
        self._limits: dict[tuple[int, int, int, int], int] = {}

    # -- buying -------------------------------------------------------------------------

    def _buy(self, state: GameState, seat: int) -> Action:
        square = state.pending_buy
        assert square is not None
        price = state.board.squares[square].price
        if "buy" not in self.looks:
            return super()._buy(state, seat)
        if state.players[seat].cash < price:
            return {"type": "decline", "player": seat}
        buy = {"type": "buy", "player": seat}
        decline = {"type": "decline", "player": seat}
        bought, declined = compare(
            state, seat, [act(buy), act(decline)], self.budget, _SALT_BUY * 41 + square
        )
        return buy if bought >= declined - EDGE else decline

    # -- auctions -----------------------------------------------------------------------

    def bid_limit(self, state: GameState, seat: int) -> int:
        """The most ``seat`` pays in the running auction (lots: from the futures)."""
        auction = state.auction
        assert auction is not None
        if auction["kind"] != "lot" or "auction" not in self.looks:
            return super().bid_limit(state, seat)
        square = auction["square"]
        key = (state.rng.state, state.turn, seat, square)
        limit = self._limits.get(key)
        if limit is None:
            limit = self._lot_limit(state, seat, square)
            if len(self._limits) > 64:
                self._limits.clear()
            self._limits[key] = limit
        cash = state.players[seat].cash
        return int(min(limit, cash - self.reserve(state, seat) / 2))

    def _lot_limit(self, state: GameState, seat: int, square: int) -> int:
        """What owning ``square`` is worth against the rival who would get it instead."""
        rivals = opponents(state, seat)
        if not rivals:
            return state.board.squares[square].price
        # The rival who gains most from it (completes a group), else the next in turn.
        rival = next((r for r in rivals if completes_group(state, r, [square])), rivals[0])

        def owned_by(holder: int) -> Any:
            def choice(future: GameState) -> None:
                _settle_auction(future, holder)

            return choice

        mine, theirs = compare(
            state,
            seat,
            [owned_by(seat), owned_by(rival)],
            self.budget,
            _SALT_AUCTION * 41 + square,
        )
        # Paying p lowers our score by p; the rival paying p raises it by p / rivals.
        worth = (mine - theirs) / (1 + 1 / len(rivals))
        price = state.board.squares[square].price
        return int(max(0.0, min(worth, 3 * price)))

    # -- jail ---------------------------------------------------------------------------

    def _roll_or_leave(self, state: GameState, seat: int) -> Action:
        player = state.players[seat]
        roll = {"type": "roll", "player": seat}
        if "jail" not in self.looks:
            return super()._roll_or_leave(state, seat)
        if not player.in_jail:
            return roll
        if player.jail_cards:
            leave = {"type": "use_jail_card", "player": seat, "deck": player.jail_cards[0]}
        elif _legal(check_pay_bail, state, seat):
            leave = {"type": "pay_bail", "player": seat}
        else:
            return roll
        left, stayed = compare(state, seat, [act(leave), act(roll)], self.budget, _SALT_JAIL)
        return leave if left > stayed + EDGE else roll

    # -- building -----------------------------------------------------------------------

    def _manage(self, state: GameState, seat: int) -> Action | None:
        action = super()._manage(state, seat)
        if "build" not in self.looks:
            return action
        if action is not None and action["type"] != "build":
            return action
        if action is None:
            # The strong player keeps its reserve; the futures say when a house is worth
            # going below it (a complete group earns most with three houses, early).
            cash = state.players[seat].cash
            square = self._best_build(state, seat, cash - BOLD_RESERVE * _scale(state))
            if square is None or _auctioned(state, seat, square):
                # A scarce building goes to auction, where it bids only above its reserve:
                # asking for one it would not bid on would ask again and again.
                return None
            bold = {"type": "build", "player": seat, "square": square}
            end = {"type": "end_turn", "player": seat}
            built, kept = compare(
                state, seat, [act(bold), act(end)], self.budget, _SALT_BUILD * 41 + square
            )
            return bold if built > kept + EDGE else None
        return action

    # -- trades -------------------------------------------------------------------------

    def propose(self, state: GameState, seat: int) -> Action | None:
        """The offer that raises the chance to win most (by the win model), if any."""
        if "offers" not in self.looks:
            return super().propose(state, seat)
        budget = int(state.players[seat].cash - self.reserve(state, seat))
        opening = self._cheap_partner_accepts if "open_low" in self.looks else None
        return best_proposal(
            state, seat, self._partner_accepts, budget, PROPOSE_EDGE, opening=opening
        )

    def _partner_accepts(self, state: GameState, partner: int, trade: dict[str, Any]) -> bool:
        """The partner model: it judges as the strong player does."""
        return StrongPlayer.likes(self, state, partner, trade)

    @staticmethod
    def _cheap_partner_accepts(state: GameState, partner: int, trade: dict[str, Any]) -> bool:
        """A partner who goes by printed prices (the simple player): where offers open."""
        return _SIMPLE.likes(state, partner, trade)

    def likes(self, state: GameState, seat: int, trade: dict[str, Any]) -> bool:
        """Accept ``trade`` if it raises the chance to win by :data:`ACCEPT_EDGE` (look
        ``"answers"``), or if its futures beat declining by the trade margin (look ``"accept"``).

        Never a trade that hands the partner a complete group without at least as much in
        return by the valuation (the strong player's rule, kept as a floor); with the futures,
        never one far off by the valuation either (the futures are not played for it).
        """
        if "answers" in self.looks:
            if completes_group(state, trade["from"], trade["get"]["lots"]) and not super().likes(
                state, seat, trade
            ):
                return False
            return chance_gain(state, seat, trade) > ACCEPT_EDGE
        if "accept" not in self.looks:
            return super().likes(state, seat, trade)
        if completes_group(state, trade["from"], trade["get"]["lots"]):
            if not super().likes(state, seat, trade):
                return False
        elif self.trade_gains(state, trade)[1] < -self.margin(state) * 8:
            return False
        if "id" not in trade or trade not in state.trades:
            return super().likes(state, seat, trade)  # a trade not on the table (a draft)
        accept = {"type": "accept_trade", "player": seat, "trade": trade["id"]}
        decline = {"type": "decline_trade", "player": seat, "trade": trade["id"]}
        accepted, declined = compare(
            state,
            seat,
            [act(accept), act(decline)],
            self.trade_budget,
            _SALT_TRADE * 997 + trade["id"],
        )
        return accepted > declined + self.margin(state)


def _auctioned(state: GameState, seat: int, square: int) -> bool:
    """True if building on ``square`` now starts an auction (the bank is short)."""
    kind = buildings.check_build(state, seat, square)
    return bool(buildings.shortage_rivals(state, seat, kind))


def _settle_auction(state: GameState, winner: int) -> None:
    """End the running auction of a copied game with ``winner`` taking it at the minimum."""
    auction = state.auction
    assert auction is not None
    sealed = auctions.is_sealed(auction)
    for _ in range(4 * len(state.players)):  # every round someone passes or bids
        if state.auction is not auction:
            return
        for seat in auction["bidders"]:
            if state.auction is not auction:
                break
            if seat in auction["passed"]:
                continue
            if seat != winner:
                apply_action(state, {"type": "auction_pass", "player": seat})
            elif sealed and auctions.sealed_bid_of(auction, seat) is None:
                bid = {"type": "sealed_bid", "player": seat, "amount": auction["min"]}
                apply_action(state, bid)
            elif not sealed and auction["leader"] != seat:
                amount = auctions.next_minimum(state)
                apply_action(state, {"type": "bid", "player": seat, "amount": amount})
