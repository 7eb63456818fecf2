"""The strong computer player: decisions from the value of positions.

(Longer than ~400 lines: buying, bidding, building, jail, debts and trading all weigh the
same valuation and share its helpers.)

It weighs every choice with :mod:`.valuation` (rent income from the board's landing
frequencies and rent tables) instead of fixed rules of thumb:

* **Buying and bidding** — a lot is worth its value to the player plus what it
  denies an opponent who would complete a group with it; the player pays up to that,
  keeping a reserve for the rents it may face next (:func:`~.valuation.danger`).
  In sealed auctions it bids its true limit (the best strategy at a second price).
* **Building** — on complete groups, evenly, where a house adds the most rent per
  euro, towards three houses first, never below the reserve. When the cash falls
  short of the next house, it mortgages a lot outside its complete groups if the
  house brings clearly more rent than that lot (and the 10 % to lift it) costs.
* **Jail** — out quickly while lots are still for sale; later it stays in and
  collects rent when the board is dangerous.
* **Debts** — mortgage lots that bring little first, sell houses evenly from the
  group that earns least, and go bankrupt only when nothing is left.
* **Trades** — accepted only if they improve its own value by more than they
  improve the partner's, and never when they hand the partner a complete group
  without at least as much in return; a refused offer is answered with the nearest
  counter-offer it would accept (:mod:`.counter`), at most twice in a chain;
  proposed to complete its own groups (cash, or a swap that completes a group on
  both sides).

Pure and deterministic; a decision takes well under a millisecond (see
``monopoly-bot tournament``, which prints decision times).
"""

from __future__ import annotations

from typing import Any

from bot.engine import auctions, buildings, trades
from bot.engine.computer.counter import counter_offer
from bot.engine.computer.frequencies import landing_frequencies
from bot.engine.computer.valuation import (
    HORIZON,
    completes_group,
    danger,
    lot_value,
    opponents,
    position_value,
    rent_if,
    unowned_share,
)
from bot.engine.defaults import lift_within, place_won_building
from bot.engine.errors import IllegalAction
from bot.engine.game import MANAGE_PHASES, check_bankruptcy, check_pay_bail
from bot.engine.state import GameState

Action = dict[str, Any]
#: Cash the player keeps beyond the rent it may face.
BASE_RESERVE = 75
#: Offer a trade at most every this many turns (so a human is not flooded).
PROPOSE_EVERY = 4
#: How much more a trade must bring than it gives the partner (in money).
TRADE_MARGIN = 25
#: From this turn on a game where nobody owns a whole colour group counts as stalled.
STALLED_TURN = 60
#: In a swap that completes a group for both, the share of the partner's gain ours must reach.
MUTUAL_SHARE = 0.85


def _legal(check: Any, *args: Any) -> bool:
    try:
        check(*args)
    except IllegalAction:
        return False
    return True


class StrongPlayer:
    """Plays for the value of its position (see the module docstring)."""

    __slots__ = ()

    name = "strong"

    # -- the engine asks --------------------------------------------------------------

    def decide(self, state: GameState, seat: int) -> Action:
        """The next action for ``seat``, which the game is waiting on."""
        phase = state.phase
        if phase == "debt":
            return self._raise_cash(state, seat)
        if phase == "auction":
            return self._bid(state, seat)
        if phase == "place_building":
            return {**place_won_building(state, seat), "player": seat}
        if phase == "mortgage_choice":
            return self._lift_received(state, seat)
        if phase == "roll":
            return self._roll_or_leave(state, seat)
        if phase == "buy":
            return self._buy(state, seat)
        if phase == "choice":
            amount = state.pending_choice["amount"]  # type: ignore[index]
            safe = state.players[seat].cash - amount >= self.reserve(state, seat)
            return {"type": "choose", "player": seat, "option": "pay" if safe else "draw"}
        return self._manage(state, seat) or {"type": "end_turn", "player": seat}

    def respond_to_offers(self, state: GameState, seat: int) -> Action | None:
        """Accept or decline a trade or lot offer addressed to ``seat``, if any."""
        offer = state.lot_offer
        if offer is not None and offer["creditor"] == seat:
            worth = sum(lot_value(state, seat, i) for i in offer["lots"])
            if worth >= offer["value"] and _legal(trades.check_accept_lots, state, seat):
                return {"type": "accept_lots", "player": seat}
            return {"type": "decline_lots", "player": seat}
        for trade in state.trades:
            if trade["to"] != seat or state.phase not in MANAGE_PHASES:
                continue
            if self.likes(state, seat, trade) and _legal(trades.check_trade, state, trade):
                return {"type": "accept_trade", "player": seat, "trade": trade["id"]}
            # Rather than a plain no, the nearest offer it would accept (see .counter).
            counter = counter_offer(self, state, seat, trade)
            if counter is not None:
                return counter
            return {"type": "decline_trade", "player": seat, "trade": trade["id"]}
        return None

    # -- money ------------------------------------------------------------------------

    def reserve(self, state: GameState, seat: int) -> float:
        """Cash to keep: the rent the next throw may cost, and a little more."""
        return BASE_RESERVE * _scale(state) + danger(state, seat)

    def margin(self, state: GameState) -> float:
        """How much a trade must bring beyond what it gives the partner (board money)."""
        return TRADE_MARGIN * _scale(state)

    # -- buying and auctions ----------------------------------------------------------

    def worth(self, state: GameState, seat: int, square: int) -> float:
        """What getting ``square`` (from the bank) is worth to ``seat``.

        Its value to ``seat`` plus the value it denies the opponent who would
        complete a group with it (that opponent might win it otherwise).
        """
        owner = list(state.owner)
        before = position_value(state, seat, owner)
        owner[square] = seat
        gain = position_value(state, seat, owner) - before
        denied = 0.0
        for other in opponents(state, seat):
            if completes_group(state, other, [square]):
                owner_other = list(state.owner)
                owner_other[square] = other
                theirs = position_value(state, other, owner_other) - position_value(state, other)
                denied = max(denied, theirs * 0.7)
        return gain + denied

    def _buy(self, state: GameState, seat: int) -> Action:
        square = state.pending_buy
        assert square is not None
        price = state.board.squares[square].price
        cash = state.players[seat].cash
        value = self.worth(state, seat, square)
        reserve = self.reserve(state, seat)
        # Early on every lot is an investment; later only the good ones.
        keen = unowned_share(state) > 0.3 or value >= price
        important = completes_group(state, seat, [square]) or value >= 1.5 * price
        room = cash - price - (reserve / 2 if important else reserve)
        kind = "buy" if keen and room >= 0 else "decline"
        return {"type": kind, "player": seat}

    def bid_limit(self, state: GameState, seat: int) -> int:
        """The most ``seat`` pays in the running auction."""
        auction = state.auction
        assert auction is not None
        cash = state.players[seat].cash
        if auction["kind"] == "lot":
            square = auction["square"]
            value = self.worth(state, seat, square)
            price = state.board.squares[square].price
            if state.mortgaged[square]:
                value -= state.board.squares[square].mortgage * 0.1
            value = min(value, 3 * price)
        else:
            # A scarce building: worth its price, a bit more if it blocks a rival.
            value = auction["min"] * 1.3
        return int(min(value, cash - self.reserve(state, seat) / 2))

    def _bid(self, state: GameState, seat: int) -> Action:
        auction = state.auction
        assert auction is not None
        limit = self.bid_limit(state, seat)
        if auctions.is_sealed(auction):
            if limit < auction["min"]:
                return {"type": "auction_pass", "player": seat}
            return {"type": "sealed_bid", "player": seat, "amount": limit}
        lowest = auctions.next_minimum(state)
        if lowest > limit:
            return {"type": "auction_pass", "player": seat}
        # Raise in steps of a tenth of the price: the others reveal their limits, we never
        # overpay by much, and an auction takes a handful of bids, not hundreds.
        if auction["kind"] == "lot":
            step = state.board.squares[auction["square"]].price // 10
        else:
            step = auction["min"] // 5
        amount = max(lowest, min(limit, lowest + step - state.rules.auction_min_raise))
        return {"type": "bid", "player": seat, "amount": amount}

    def _lift_received(self, state: GameState, seat: int) -> Action:
        return lift_within(state, seat, state.players[seat].cash - self.reserve(state, seat))

    # -- jail ---------------------------------------------------------------------------

    def _roll_or_leave(self, state: GameState, seat: int) -> Action:
        player = state.players[seat]
        if player.in_jail and unowned_share(state) > 0.25:
            # Lots are still for sale: get out and buy.
            if player.jail_cards:
                return {"type": "use_jail_card", "player": seat, "deck": player.jail_cards[0]}
            if _legal(check_pay_bail, state, seat) and player.cash > self.reserve(state, seat) * 2:
                return {"type": "pay_bail", "player": seat}
        # Later the jail is the safest square on a built-up board.
        return {"type": "roll", "player": seat}

    # -- building and mortgages -----------------------------------------------------------

    def _manage(self, state: GameState, seat: int) -> Action | None:
        cash = state.players[seat].cash
        reserve = self.reserve(state, seat)
        build = self._best_build(state, seat, cash - reserve)
        if build is not None:
            return {"type": "build", "player": seat, "square": build}
        pledge = self._mortgage_to_build(state, seat, cash - reserve)
        if pledge is not None:
            return {"type": "mortgage", "player": seat, "square": pledge}
        lift = self._best_lift(state, seat, cash - reserve * 2)
        if lift is not None:
            return {"type": "unmortgage", "player": seat, "square": lift}
        last = state.proposed_on_turn[seat]
        if (last == 0 or state.turn - last >= PROPOSE_EVERY) and not any(
            t["from"] == seat for t in state.trades
        ):
            return self.propose(state, seat)
        return None

    def _best_build(self, state: GameState, seat: int, budget: float) -> int | None:
        """The street where the next house adds most rent per euro, within ``budget``."""
        frequency = landing_frequencies(state.board)
        best, best_gain = None, 0.0
        for group in state.board.street_groups:
            if state.owner[group[0]] != seat:
                continue
            for square in group:
                info = state.board.squares[square]
                houses = state.houses[square]
                if houses >= 5 or info.house_cost > budget:
                    continue
                # The budget stands for the cash (it may count a mortgage not yet taken).
                if buildings.build_problem(state, seat, square, placing=True) is not None:
                    continue
                gain = frequency[square] * (info.rents[houses + 1] - info.rents[houses])
                # Three houses first: the steepest step of every rent table.
                gain *= 1.5 if houses < 3 else 1.0
                gain /= info.house_cost
                if gain > best_gain:
                    best, best_gain = square, gain
        return best

    def _mortgage_to_build(self, state: GameState, seat: int, budget: float) -> int | None:
        """A lot to mortgage so the next house can be built, or None.

        Only lots outside complete groups (those keep their double rent and may be
        built on) and only when the house's extra rent over the horizon beats the
        lot's lost rent, the 10 % interest and the trade margin.
        """
        frequency = landing_frequencies(state.board)
        squares = state.board.squares
        throws = HORIZON * max(1, len(opponents(state, seat)))
        candidates = []
        for square in state.board.property_indices:
            if state.owner[square] != seat or state.mortgaged[square]:
                continue
            if squares[square].kind == "street" and _owns_group(state, seat, square):
                continue
            if buildings.mortgage_problem(state, seat, square) is not None:
                continue
            income = frequency[square] * rent_if(state, square, state.owner, 0) * throws
            candidates.append((income + squares[square].mortgage * 0.1, square))
        for loss, square in sorted(candidates):
            build = self._best_build(state, seat, budget + squares[square].mortgage)
            if build is None:
                continue
            info = squares[build]
            houses = state.houses[build]
            gain = frequency[build] * (info.rents[houses + 1] - info.rents[houses]) * throws
            if gain - info.house_cost / 2 > loss + self.margin(state):
                return square
            return None  # the cheapest loss does not pay: dearer ones will not either
        return None

    def _best_lift(self, state: GameState, seat: int, budget: float) -> int | None:
        best, best_value = None, -1.0
        for square in state.board.property_indices:
            if state.owner[square] != seat or not state.mortgaged[square]:
                continue
            cost = buildings.unmortgage_cost(state, square)
            if cost > budget:
                continue
            value = lot_value(state, seat, square) / cost
            if value > best_value:
                best, best_value = square, value
        return best

    # -- debts --------------------------------------------------------------------------

    def _raise_cash(self, state: GameState, seat: int) -> Action:
        """Mortgage what earns little, then sell houses evenly, then the rest; else bankrupt."""
        owned = [i for i in state.board.property_indices if state.owner[i] == seat]
        squares = state.board.squares
        by_value = sorted(
            owned, key=lambda i: (lot_value(state, seat, i) / max(1, squares[i].mortgage), i)
        )
        for square in by_value:
            group = state.board.group_of[square]
            if squares[square].kind == "street" and all(state.owner[i] == seat for i in group):
                continue  # a complete group keeps its double rent and its houses
            if buildings.mortgage_problem(state, seat, square) is None:
                return {"type": "mortgage", "player": seat, "square": square}
        built = sorted(
            (i for i in owned if state.houses[i]),
            key=lambda i: (lot_value(state, seat, i), -state.houses[i], i),
        )
        for square in built:
            if buildings.sell_problem(state, seat, square) is None:
                return {"type": "sell_building", "player": seat, "square": square}
        for square in by_value:
            if buildings.mortgage_problem(state, seat, square) is None:
                return {"type": "mortgage", "player": seat, "square": square}
        check_bankruptcy(state, seat)
        return {"type": "declare_bankruptcy", "player": seat}

    # -- trades -------------------------------------------------------------------------

    def trade_gains(self, state: GameState, trade: dict[str, Any]) -> tuple[float, float]:
        """How much the proposer and the partner each gain by ``trade`` (in money)."""
        giver, taker = trade["from"], trade["to"]
        give, get = trade["give"], trade["get"]
        owner = list(state.owner)
        for square in give["lots"]:
            owner[square] = taker
        for square in get["lots"]:
            owner[square] = giver
        cash = give["cash"] - get["cash"]
        cards = state.board.jail_fine * (
            len(give.get("jail_cards", [])) - len(get.get("jail_cards", []))
        )
        interest_giver = sum(
            state.board.squares[i].mortgage // 10 for i in get["lots"] if state.mortgaged[i]
        )
        interest_taker = sum(
            state.board.squares[i].mortgage // 10 for i in give["lots"] if state.mortgaged[i]
        )
        giver_gain = position_value(state, giver, owner) - position_value(state, giver)
        taker_gain = position_value(state, taker, owner) - position_value(state, taker)
        # position_value counts cash from the state, so the cash moved is added here.
        giver_gain += -cash - cards - interest_giver
        taker_gain += cash + cards - interest_taker
        return giver_gain, taker_gain

    def likes(self, state: GameState, seat: int, trade: dict[str, Any]) -> bool:
        """Accept ``trade`` (offered to ``seat``) only if it pays more than it helps the partner."""
        partner_gain, my_gain = self.trade_gains(state, trade)
        if my_gain < self.margin(state):
            return False
        if completes_group(state, trade["from"], trade["get"]["lots"]):
            # Never a complete group for the partner without at least as much for us —
            # unless we complete one too: a fair swap of groups gets the game moving.
            if completes_group(state, seat, trade["give"]["lots"]):
                return my_gain >= max(self.margin(state), partner_gain * MUTUAL_SHARE)
            return my_gain >= partner_gain + self.margin(state)
        return my_gain - self._rival_weight(state, seat) * partner_gain >= self.margin(state)

    @staticmethod
    def _rival_weight(state: GameState, seat: int) -> float:
        """How much a partner's gain counts against ours in a trade.

        Fully with a single opponent; less with more opponents (they lose too). In a
        stalled game — far in and nobody has a complete group, so nobody can build —
        less as well: a trade that lets someone build is what ends such a game.
        """
        stalled = state.turn >= STALLED_TURN and not any(
            _has_group(state, s) for s in range(len(state.players))
        )
        if stalled:
            return 0.5
        return 1.0 if len(opponents(state, seat)) == 1 else 0.6

    def propose(self, state: GameState, seat: int) -> Action | None:
        """A trade that completes one of ``seat``'s groups, if one looks acceptable."""
        for group in state.board.street_groups:
            mine = [i for i in group if state.owner[i] == seat]
            missing = [i for i in group if state.owner[i] != seat]
            if not mine or not missing or any(state.houses[i] for i in group):
                continue
            holders = {state.owner[i] for i in missing}
            if len(holders) != 1:
                continue
            partner = holders.pop()
            if partner is None or partner < 0 or state.players[partner].bankrupt:
                continue
            offer = self._offer_for(state, seat, partner, missing)
            if offer is not None:
                return offer
        return None

    @staticmethod
    def _trade_action(seat: int, partner: int, give: dict[str, Any], wanted: list[int]) -> Action:
        return {
            "type": "propose_trade",
            "player": seat,
            "to": partner,
            "give": {"cash": give["cash"], "lots": list(give["lots"]), "jail_cards": []},
            "get": {"cash": 0, "lots": list(wanted), "jail_cards": []},
        }

    @staticmethod
    def _as_trade(action: Action) -> dict[str, Any]:
        return {
            "from": action["player"],
            "to": action["to"],
            "give": action["give"],
            "get": action["get"],
        }

    def _offer_for(
        self, state: GameState, seat: int, partner: int, wanted: list[int]
    ) -> Action | None:
        """Cash (or a lot the partner needs, plus cash) for ``wanted``, if it pays for us."""
        cash = state.players[seat].cash - self.reserve(state, seat)
        price = sum(state.board.squares[i].price for i in wanted)
        candidates: list[dict[str, Any]] = []
        # A swap that completes a group for both is the classic good deal.
        for lot in state.board.property_indices:
            spare = state.owner[lot] == seat and state.houses[lot] == 0 and lot not in wanted
            if spare and completes_group(state, partner, [lot]):
                candidates.append({"cash": 0, "lots": [lot]})
        # The least cash a player valuing like us accepts: their gain must pass ours.
        base_mine, base_theirs = self.trade_gains(
            state,
            self._as_trade(self._trade_action(seat, partner, {"cash": 0, "lots": []}, wanted)),
        )
        least = int((base_mine - base_theirs + self.margin(state)) / 2) + 1
        # That amount first; smaller ones for partners who value lots by their price.
        amounts = [least] + sorted({int(price * f) for f in (1.5, 2.0, 2.5)} - {least})
        candidates += [{"cash": a, "lots": []} for a in amounts if 0 < a <= cash]
        for give in candidates:
            action = self._trade_action(seat, partner, give, wanted)
            my_gain, partner_gain = self.trade_gains(state, self._as_trade(action))
            if give["lots"]:
                # A swap of groups: even it out with cash so both sides gain alike.
                extra = int((my_gain - partner_gain) / 2)
                if 0 < extra <= cash:
                    action = self._trade_action(seat, partner, {**give, "cash": extra}, wanted)
                    my_gain, partner_gain = self.trade_gains(state, self._as_trade(action))
                fair = min(my_gain, partner_gain) >= MUTUAL_SHARE * max(my_gain, partner_gain)
                if not fair or min(my_gain, partner_gain) < self.margin(state):
                    continue
            else:
                weight = self._rival_weight(state, seat)
                if my_gain - weight * partner_gain < self.margin(state) or partner_gain <= 0:
                    continue
            try:
                trades.build_trade(state, seat, action)
            except IllegalAction:
                continue
            return action
        return None


def _scale(state: GameState) -> float:
    """Money on this board relative to the euro board (1.0; 20.0 on the Mark board)."""
    return state.board.start_money / 1500


def _has_group(state: GameState, seat: int) -> bool:
    """True if ``seat`` owns a whole colour group of streets."""
    owner = state.owner
    return any(all(owner[i] == seat for i in group) for group in state.board.street_groups)


def _owns_group(state: GameState, seat: int, square: int) -> bool:
    return all(state.owner[i] == seat for i in state.board.group_of[square])
