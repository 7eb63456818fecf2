"""The board game's recap, read from its record by one replay (:func:`board_recap`).

A watcher (:class:`_BoardCollector`) takes in the state and the events after every
action: net worth (:func:`bot.engine.wealth.wealth`) at the end of each turn
(``state.turn``), bankruptcies, completed colour groups and the moments; what it finds
is a :class:`~bot.recap.moments.BoardRecap`.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from bot.engine.game import apply_action
from bot.engine.record import GameRecord, ReplayMismatch, dice_of
from bot.engine.rent import owns_whole_group
from bot.engine.state import BANK, HOTEL, GameState
from bot.engine.wealth import wealth
from bot.recap.moments import (
    AuctionWin,
    Bankruptcy,
    BoardRecap,
    Building,
    GroupCompletion,
    JailStay,
    Purchase,
    Rent,
    Trade,
    TradeSide,
)

# Events after which lots may have changed hands (the only moments a colour group can
# become complete); checking the groups after other actions would find nothing new.
_OWNERSHIP_EVENTS = frozenset({"bought", "auction_won", "trade_done", "lots_accepted", "bankrupt"})
# How the group's last lot came, by the event that brought it (GroupCompletion.how).
_HOW = {
    "auction_won": "auction",
    "trade_done": "trade",
    "lots_accepted": "lots",
    "bankrupt": "bankruptcy",
}
# Events that change what a player's lots and buildings are worth. Between them only cash
# moves, so the lots' share of net worth is kept and only the cash read again.
_ASSET_EVENTS = _OWNERSHIP_EVENTS | {
    "built",
    "sold_building",
    "mortgaged",
    "unmortgaged",
    "deed_dealt",
    "removed",
    "resigned",
}


def _street_groups(state: GameState) -> list[tuple[str, tuple[int, ...]]]:
    """The colour groups of the board (streets only), in board order."""
    squares = state.board.squares
    return [
        (name, members)
        for name, members in state.board.groups.items()
        if members and all(squares[i].kind == "street" for i in members)
    ]


def _side(state: GameState, raw: dict[str, Any]) -> tuple[TradeSide, int]:
    """One side of a stored trade and its value (cash + lots as net worth counts them)."""
    squares = state.board.squares
    lots = list(raw.get("lots", []))
    value = int(raw.get("cash", 0))
    for square in lots:
        price = squares[square].price
        value += price // 2 if state.mortgaged[square] else price
    return TradeSide(int(raw.get("cash", 0)), lots, len(raw.get("jail_cards", []))), value


class _BoardCollector:
    """Watches one replay: the state after each action and the events it caused."""

    def __init__(self, state: GameState) -> None:
        self.state = state
        seats = range(len(state.players))
        self.groups = _street_groups(state)
        self.done_groups: set[str] = set()
        self.completions: list[GroupCompletion] = []
        squares = state.board.squares
        self.lots = [s.index for s in squares if s.is_property]
        self.prices = [s.price for s in squares]
        self.house_costs = [s.house_cost for s in squares]
        self.hotel_units = state.rules.hotel_requires_houses + 1
        self.assets: list[int] | None = None  # lots and buildings per seat; None: stale
        self.start_worth = [wealth(state, seat) for seat in seats]
        self.worth: list[list[int | None]] = [[] for _ in seats]
        self.bankrupt: dict[int, Bankruptcy] = {}
        self.sampled = 0  # turns whose net worth is recorded
        self.last_to: dict[int, int] = {}  # the square each player's token last moved to
        self.open_stays: dict[int, JailStay] = {}
        self.longest: JailStay | None = None
        self.rent: Rent | None = None
        self.purchase: Purchase | None = None
        self.auction: AuctionWin | None = None
        self.trades = 0
        self.trade: Trade | None = None
        self.build: Building | None = None
        self.turn = state.turn  # the turn the event being read happened in
        self.pending_trades: dict[int, Trade] | None = None
        self.handlers: dict[str, Callable[[dict[str, Any], list[dict[str, Any]], int], None]] = {
            kind: self._on_other for kind in _ASSET_EVENTS
        }
        self.handlers.update(
            turn=self._on_turn,
            moved=self._on_moved,
            rent_claimed=self._on_rent_claimed,
            payment=self._on_payment,
            debt=self._on_debt,
            bought=self._on_bought,
            auction_won=self._on_auction_won,
            trade_done=self._on_trade_done,
            built=self._on_built,
            jailed=self._on_jailed,
            left_jail=self._on_left_jail,
            bankrupt=self._on_bankrupt,
        )
        self._check_groups(0, "dealt")  # presets that deal title deeds can start with a group

    # -- per action -----------------------------------------------------------------

    def before(self, action: dict[str, Any]) -> dict[int, Trade] | None:
        """What must be read before the action changes it: a trade about to be accepted."""
        if action.get("type") != "accept_trade":
            return None
        for raw in self.state.trades:
            if raw["id"] == action.get("trade"):
                give, give_value = _side(self.state, raw["give"])
                get, get_value = _side(self.state, raw["get"])
                trade = Trade(raw["from"], raw["to"], give, get, give_value + get_value, 0)
                return {raw["id"]: trade}
        return None

    def after(
        self, turn_before: int, events: list[dict[str, Any]], trades: dict[int, Trade] | None
    ) -> None:
        """Take in the events of one action (applied in ``turn_before``)."""
        self.turn = turn_before
        self.pending_trades = trades
        handlers = self.handlers
        for index, event in enumerate(events):
            kind = event["type"]
            handler = handlers.get(kind)
            if handler is None:
                continue  # most events (throws, most payments) tell the recap nothing
            handler(event, events, index)
            if kind in _ASSET_EVENTS:
                self.assets = None
            if kind in _OWNERSHIP_EVENTS:
                self._check_groups(self.turn, kind)
        # Turns that ended during this action: everyone's net worth at their end.
        while self.sampled < self.state.turn - 1:
            self._sample()

    # -- the events, one handler each (``after`` looks them up by type) ----------------

    def _on_turn(self, event: dict[str, Any], events: list[dict[str, Any]], index: int) -> None:
        self.turn = event["turn"]
        stay = self.open_stays.get(event["player"])
        if stay is not None:  # a turn begins in the cell
            stay.turns += 1
            self._consider_stay(stay)

    def _on_moved(self, event: dict[str, Any], events: list[dict[str, Any]], index: int) -> None:
        self.last_to[event["player"]] = event["to"]

    def _on_rent_claimed(
        self, event: dict[str, Any], events: list[dict[str, Any]], index: int
    ) -> None:
        # A claimed rent is charged for the claimed square, not where the payer is now.
        self.last_to[event["payer"]] = event["square"]

    def _on_payment(self, event: dict[str, Any], events: list[dict[str, Any]], index: int) -> None:
        if event["reason"] != "rent":
            return
        following = events[index + 1] if index + 1 < len(events) else None
        if (
            following is not None
            and following["type"] == "debt_paid"
            and following["debtor"] == event["from"]
        ):
            return  # a queued rent being paid: it was counted when it fell due
        self._rent(event["from"], event["to"], event["amount"])

    def _on_debt(self, event: dict[str, Any], events: list[dict[str, Any]], index: int) -> None:
        if event["reason"] == "rent":
            self._rent(event["debtor"], event["creditor"], event["amount"])

    def _on_bought(self, event: dict[str, Any], events: list[dict[str, Any]], index: int) -> None:
        if self.purchase is None or event["price"] > self.purchase.price:
            self.purchase = Purchase(event["player"], event["square"], event["price"], self.turn)

    def _on_auction_won(
        self, event: dict[str, Any], events: list[dict[str, Any]], index: int
    ) -> None:
        if self.auction is None or event["amount"] > self.auction.amount:
            self.auction = AuctionWin(
                event["player"],
                event.get("kind", "lot"),
                event.get("square"),
                event["amount"],
                self.turn,
            )

    def _on_trade_done(
        self, event: dict[str, Any], events: list[dict[str, Any]], index: int
    ) -> None:
        self.trades += 1
        trade = (self.pending_trades or {}).get(event["trade"])
        if trade is not None:
            trade.turn = self.turn
            if self.trade is None or trade.value > self.trade.value:
                self.trade = trade

    def _on_built(self, event: dict[str, Any], events: list[dict[str, Any]], index: int) -> None:
        if self.build is None:
            self.build = Building(event["player"], event["square"], event["building"], self.turn)

    def _on_jailed(self, event: dict[str, Any], events: list[dict[str, Any]], index: int) -> None:
        seat = event["player"]
        self.open_stays[seat] = JailStay(seat, 0, self.turn, None)

    def _on_left_jail(
        self, event: dict[str, Any], events: list[dict[str, Any]], index: int
    ) -> None:
        stay = self.open_stays.pop(event["player"], None)
        if stay is not None:
            stay.end = self.turn
            self._consider_stay(stay)

    def _on_bankrupt(self, event: dict[str, Any], events: list[dict[str, Any]], index: int) -> None:
        seat = event["player"]
        self.bankrupt[seat] = Bankruptcy(seat, self.turn, event["creditor"])
        self.open_stays.pop(seat, None)

    def _on_other(self, event: dict[str, Any], events: list[dict[str, Any]], index: int) -> None:
        """Events that only change net worth or ownership (handled in ``after``)."""

    def finish(self) -> None:
        """The record's end: the last turn's net worth (also of a game still running)."""
        while self.sampled < self.state.turn:
            self._sample()
        for stay in self.open_stays.values():
            self._consider_stay(stay)

    # -- helpers ---------------------------------------------------------------------

    def worth_now(self) -> list[int]:
        """Every seat's :func:`~bot.engine.wealth.wealth`: cash plus :meth:`assets_now`."""
        if self.assets is None:
            self.assets = self.assets_now()
        return [p.cash + a for p, a in zip(self.state.players, self.assets, strict=True)]

    def assets_now(self) -> list[int]:
        """Every seat's lots and buildings as :func:`~bot.engine.wealth.wealth` counts them.

        The same sum (lots at their price or half if mortgaged, buildings at what they
        cost, a hotel with its houses) for all seats in one pass over the lots, and only
        after an event that changed them: calling ``wealth`` per seat and turn walked
        the board once per seat, which made up most of the recap's time. A test checks
        that both agree at every turn.
        """
        state = self.state
        totals = [0] * len(state.players)
        owner, houses, mortgaged = state.owner, state.houses, state.mortgaged
        prices, house_costs = self.prices, self.house_costs
        for square in self.lots:
            seat = owner[square]
            if seat < 0:
                continue
            price = prices[square]
            count = houses[square]
            units = self.hotel_units if count == HOTEL else count
            totals[seat] += (price // 2 if mortgaged[square] else price) + units * house_costs[
                square
            ]
        return totals

    def _sample(self) -> None:
        self.sampled += 1
        turn = self.sampled
        now = self.worth_now()
        for seat, series in enumerate(self.worth):
            gone = self.bankrupt.get(seat)
            if gone is not None and gone.turn < turn:
                series.append(None)  # the line ends at the bankruptcy
            else:
                series.append(now[seat])

    def _rent(self, payer: int, owner: int, amount: int) -> None:
        if self.rent is not None and amount <= self.rent.amount:
            return
        square = self.last_to.get(payer, self.state.players[payer].position)
        self.rent = Rent(payer, owner, square, amount, self.turn)

    def _consider_stay(self, stay: JailStay) -> None:
        longest = self.longest
        if longest is None or stay.turns > longest.turns:
            self.longest = stay

    def _check_groups(self, turn: int, how: str) -> None:
        owner = self.state.owner
        for name, members in self.groups:
            if name in self.done_groups:
                continue
            first = owner[members[0]]
            if first != BANK and owns_whole_group(self.state, first, members[0]):
                self.done_groups.add(name)
                self.completions.append(
                    GroupCompletion(name, first, turn, list(members), _HOW.get(how, how))
                )


def board_recap(record: GameRecord) -> BoardRecap:
    """Replay ``record`` (a board game's) once and collect its recap.

    The dice stored with each action are checked as :meth:`GameRecord.replay` does;
    a record that no longer matches the engine raises :class:`ReplayMismatch`.
    """
    state = GameState.from_dict(record.start)
    collector = _BoardCollector(state)
    for number, entry in enumerate(record.actions):
        action = entry["action"]
        trades = collector.before(action)
        turn = state.turn
        events = apply_action(state, action)
        if dice_of(events) != entry["dice"]:
            raise ReplayMismatch(
                f"action {number}: recorded dice {entry['dice']} but threw {dice_of(events)}"
            )
        collector.after(turn, events, trades)
    collector.finish()
    longest = collector.longest
    return BoardRecap(
        players=[p.name for p in state.players],
        currency=state.board.currency,
        turns=state.turn,
        actions=len(record.actions),
        start_worth=collector.start_worth,
        worth=collector.worth,
        bankruptcies=sorted(collector.bankrupt.values(), key=lambda b: (b.turn, b.player)),
        groups=collector.completions,
        biggest_rent=collector.rent,
        biggest_purchase=collector.purchase,
        biggest_auction=collector.auction,
        longest_jail=longest if longest is not None and longest.turns > 0 else None,
        trades=collector.trades,
        biggest_trade=collector.trade,
        first_build=collector.build,
        winner=state.winner,
        end_reason=state.end_reason,
        over=state.phase == "over",
    )
