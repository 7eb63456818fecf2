"""Built-in simple players: sensible, fast, deterministic.

They buy what they can afford with a reserve, bid up to a lot's price (in a
sealed auction they submit that limit once and never revise it), build
evenly when cash allows, pay bail or wait in jail by strategy, raise money by
selling the dearest buildings and mortgaging the cheapest lots, now and then
offer cash for the last lot of a group, and go bankrupt when they must. They
exist for simulations and benchmarks; the computer opponents for real games
come later and will be stronger.
"""

from __future__ import annotations

from itertools import compress
from typing import Any

from bot.engine import auctions, buildings, trades
from bot.engine.defaults import lift_within, place_won_building, raise_cash
from bot.engine.errors import IllegalAction
from bot.engine.game import MANAGE_PHASES, check_pay_bail
from bot.engine.legal import waiting_for
from bot.engine.state import BANK, HOTEL, GameState

try:
    from mypy_extensions import mypyc_attr
except ImportError:  # mypy's: the pure engine runs without it (mypyc_attr does nothing)
    from bot.engine.compiled import mypyc_attr

Action = dict[str, Any]
RESERVE = 100
TRADE_EVERY = 7  # consider a trade offer on every 7th turn of the game


# Subclassed in Python (the easy computer player, tests), also when compiled with mypyc.
@mypyc_attr(allow_interpreted_subclasses=True)
class SimplePlayer:
    """A rule-following player for simulations; ``jail`` is ``"leave"`` or ``"stay"``."""

    __slots__ = ("jail",)

    def __init__(self, jail: str = "leave") -> None:
        self.jail = jail

    def decide(self, state: GameState, seat: int) -> Action:
        """The next action for ``seat``, which the game is waiting on."""
        phase = state.phase
        # Every turn ends with "end" and starts with "roll": ask about those first.
        if phase == "end":
            return self._manage(state, seat) or {"type": "end_turn", "player": seat}
        if phase == "roll":
            player = state.players[seat]
            if player.in_jail and self.jail == "leave":
                if player.jail_cards:
                    return {"type": "use_jail_card", "player": seat, "deck": player.jail_cards[0]}
                if _legal(check_pay_bail, state, seat):
                    return {"type": "pay_bail", "player": seat}
            return {"type": "roll", "player": seat}
        if phase == "buy":
            price = state.board.squares[state.pending_buy].price  # type: ignore[index]
            kind = "buy" if state.players[seat].cash - price >= RESERVE else "decline"
            return {"type": kind, "player": seat}
        if phase == "debt":
            return self._raise_cash(state, seat)
        if phase == "auction":
            return self._bid(state, seat)
        if phase == "place_building":
            return self._place(state, seat)
        if phase == "mortgage_choice":
            return self._lift_received(state, seat)
        if phase == "choice":
            amount = state.pending_choice["amount"]  # type: ignore[index]
            option = "pay" if state.players[seat].cash >= amount + RESERVE else "draw"
            return {"type": "choose", "player": seat, "option": option}
        # Any other phase: manage, then end the turn.
        return self._manage(state, seat) or {"type": "end_turn", "player": seat}

    def respond_to_offers(self, state: GameState, seat: int) -> Action | None:
        """Accept or decline a trade or a lot offer addressed to ``seat``, if any."""
        offer = state.lot_offer
        if offer is not None and offer["creditor"] == seat:
            worth = sum(_lot_worth(state, i) for i in offer["lots"])
            if worth >= offer["value"] and _legal(trades.check_accept_lots, state, seat):
                return {"type": "accept_lots", "player": seat}
            return {"type": "decline_lots", "player": seat}
        for trade in state.trades:
            if trade["to"] != seat:
                continue
            if state.phase not in MANAGE_PHASES:
                continue  # trades are answered once the auction or choice is over
            if self.likes(state, seat, trade) and _legal(trades.check_trade, state, trade):
                return {"type": "accept_trade", "player": seat, "trade": trade["id"]}
            return {"type": "decline_trade", "player": seat, "trade": trade["id"]}
        return None

    # -- decisions ---------------------------------------------------------------------

    def _bid(self, state: GameState, seat: int) -> Action:
        auction = state.auction
        assert auction is not None
        cash = state.players[seat].cash
        if auction["kind"] == "lot":
            value = state.board.squares[auction["square"]].price
        else:
            value = auction["min"] * 3 // 2
        limit = min(value, cash - RESERVE // 2)
        if auctions.is_sealed(auction):
            # The game waits only on bidders without a sealed bid, so this is asked once:
            # submit the most it would pay live, and never revise.
            if limit < auction["min"]:
                return {"type": "auction_pass", "player": seat}
            return {"type": "sealed_bid", "player": seat, "amount": limit}
        lowest = auctions.next_minimum(state)
        if lowest > limit:
            return {"type": "auction_pass", "player": seat}
        if auction["leader"] is None:
            amount = max(lowest, value // 2)
        else:
            amount = auction["high"] + max(10, value // 10)
        return {"type": "bid", "player": seat, "amount": max(lowest, min(amount, limit))}

    def _lift_received(self, state: GameState, seat: int) -> Action:
        """Lift received mortgages while cash stays comfortably above the reserve."""
        return lift_within(state, seat, state.players[seat].cash - 2 * RESERVE)

    def _place(self, state: GameState, seat: int) -> Action:
        return {**place_won_building(state, seat), "player": seat}

    def _raise_cash(self, state: GameState, seat: int) -> Action:
        return {**raise_cash(state, seat), "player": seat}

    def _manage(self, state: GameState, seat: int) -> Action | None:
        cash = state.players[seat].cash
        owner = state.owner
        mortgaged = state.mortgaged
        if cash >= 4 * RESERVE and True in mortgaged:
            # ``compress`` yields the mortgaged squares in board order (late in a game
            # most lots are mortgaged by someone, and this runs at the end of every turn).
            for square in compress(range(40), mortgaged):
                if (
                    owner[square] == seat
                    and cash - buildings.unmortgage_cost(state, square) >= 4 * RESERVE
                ):
                    return {"type": "unmortgage", "player": seat, "square": square}
        squares = state.board.squares
        houses = state.houses
        for group in state.board.street_groups:
            if owner[group[0]] != seat or cash - squares[group[0]].house_cost < 2 * RESERVE:
                continue
            for i in group:  # (a plain loop: ``any`` with a generator costs more here)
                if owner[i] != seat or mortgaged[i]:
                    break
            else:
                # Even building: only a street with the fewest buildings can take the next
                # one, so ask the rules about that street alone - unless it has a hotel
                # already, when the whole group is fully built (late in a game, common).
                square = min(group, key=houses.__getitem__)
                if houses[square] != HOTEL and buildings.build_problem(state, seat, square) is None:
                    return {"type": "build", "player": seat, "square": square}
        if (
            state.turn % TRADE_EVERY == 0
            and state.proposed_on_turn[seat] != state.turn
            and not any(t["from"] == seat for t in state.trades)
        ):
            return self._propose(state, seat)
        return None

    def _propose(self, state: GameState, seat: int) -> Action | None:
        """Offer cash for the one missing lot of a colour group."""
        cash = state.players[seat].cash
        owner = state.owner
        houses = state.houses
        squares = state.board.squares
        for group in state.board.street_groups:
            missing = [i for i in group if owner[i] != seat]
            if len(missing) != 1:
                continue
            square = missing[0]
            other = owner[square]
            if other == BANK or any(houses[i] for i in group):
                continue
            price = squares[square].price * 3 // 2
            if cash - price < 2 * RESERVE:
                continue
            action = {
                "type": "propose_trade",
                "player": seat,
                "to": other,
                "give": {"cash": price},
                "get": {"lots": [square]},
            }
            try:
                trades.build_trade(state, seat, action)
            except IllegalAction:
                continue
            return action
        return None

    def likes(self, state: GameState, seat: int, trade: dict[str, Any]) -> bool:
        """True if ``seat`` accepts ``trade`` by printed prices (a premium for a group)."""
        give, get = trade["give"], trade["get"]  # from the proposer's side
        offered = give["cash"] + sum(_lot_worth(state, i) for i in give["lots"])
        asked = get["cash"] + sum(_lot_worth(state, i) for i in get["lots"])
        # Handing over the last lot of a group asks for a premium.
        if any(_completes_group(state, trade["from"], i) for i in get["lots"]):
            asked = asked * 3 // 2
        return offered >= asked


def _lot_worth(state: GameState, square: int) -> int:
    price = state.board.squares[square].price
    return price // 2 if state.mortgaged[square] else price


def _completes_group(state: GameState, seat: int, square: int) -> bool:
    return all(state.owner[i] == seat for i in state.board.group_of[square] if i != square)


def _legal(check: Any, *args: Any) -> bool:
    try:
        check(*args)
    except IllegalAction:
        return False
    return True


def next_simple_action(
    state: GameState, players: SimplePlayer | list[SimplePlayer] | None = None
) -> Action | None:
    """The action the simple players take next in ``state``; None once the game is over.

    Open trade and lot offers are answered first (in seat order, to stay
    deterministic), then whoever the game waits on decides. ``players`` is one
    player for every seat, or one per seat.
    """
    if state.phase == "over":
        return None
    if players is None:
        players = _DEFAULT
    if state.trades or state.lot_offer is not None:
        seats = {t["to"] for t in state.trades}
        if state.lot_offer is not None:
            seats.add(state.lot_offer["creditor"])
        for seat in sorted(seats):
            player = players[seat] if isinstance(players, list) else players
            reply = player.respond_to_offers(state, seat)
            if reply is not None:
                return reply
    seat = state.current if state.phase in _CURRENT_PLAYER_PHASES else waiting_for(state)[0]
    player = players[seat] if isinstance(players, list) else players
    return player.decide(state, seat)


_DEFAULT = SimplePlayer()
# Phases in which the game waits on the current player (see legal.waiting_for).
_CURRENT_PLAYER_PHASES = frozenset({"roll", "buy", "choice", "end"})
