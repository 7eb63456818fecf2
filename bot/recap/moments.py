"""The board game's recap as data: net worth over the turns and the game's moments.

:class:`BoardRecap` holds every player's net worth at the end of each turn, the turn each
player went bankrupt (:class:`Bankruptcy`), the turn each colour group first came into
one owner's hands (:class:`GroupCompletion`), and the moments: the biggest rent, the
most expensive purchase and auction, the longest stay in jail, the trades (how many, and
the biggest by value) and who built first, a small dataclass each. They are plain values
(``to_dict`` gives JSON-ready data, ``from_dict`` reads it back); the replay that finds
them is :func:`bot.recap.board.board_recap`.
"""

from __future__ import annotations

import dataclasses
from dataclasses import dataclass, field
from typing import Any


@dataclass
class Bankruptcy:
    """A player left the game in ``turn`` (to ``creditor``: a seat, or -1 for the bank)."""

    player: int
    turn: int
    creditor: int


@dataclass
class GroupCompletion:
    """A colour group first came into one owner's hands in ``turn`` (0: dealt at the start).

    ``how`` the last lot came: ``"bought"``, ``"auction"``, ``"trade"``, ``"lots"`` (part
    payment of a debt), ``"bankruptcy"`` (a bankrupt's lots to the creditor) or
    ``"dealt"`` (title deeds dealt at the start).
    """

    group: str
    player: int
    turn: int
    squares: list[int]
    how: str = "bought"


@dataclass
class Rent:
    """A rent charged: ``payer`` owed ``owner`` ``amount`` for ``square``.

    Counted when it fell due (paid at once, or queued as a debt the payer then paid or
    went bankrupt over), each rent once.
    """

    payer: int
    owner: int
    square: int
    amount: int
    turn: int


@dataclass
class Purchase:
    """A lot bought from the bank at its printed price."""

    player: int
    square: int
    price: int
    turn: int


@dataclass
class AuctionWin:
    """An auction won: a lot (``square``) or, in a shortage, a house or hotel (no square)."""

    player: int
    kind: str  # "lot", "house" or "hotel"
    square: int | None
    amount: int
    turn: int


@dataclass
class JailStay:
    """A stay in jail: ``turns`` of the player's own turns began in the cell.

    From ``start`` (the turn they were sent there) to ``end`` (the turn they left;
    None if they never did: bankrupt or the game ended while inside).
    """

    player: int
    turns: int
    start: int
    end: int | None


@dataclass
class TradeSide:
    """What one side of a trade gave."""

    cash: int = 0
    lots: list[int] = field(default_factory=list)
    jail_cards: int = 0


@dataclass
class Trade:
    """A trade carried out: ``proposer`` gave ``give``, ``partner`` gave ``get``.

    ``value`` is everything that changed hands, both ways: cash plus the lots at their
    price (mortgaged lots at half), as net worth counts them.
    """

    proposer: int
    partner: int
    give: TradeSide
    get: TradeSide
    value: int
    turn: int


@dataclass
class Building:
    """A house or hotel placed."""

    player: int
    square: int
    building: str  # "house" or "hotel"
    turn: int


@dataclass
class BoardRecap:
    """The board game in numbers (see the module docstring).

    ``worth[seat][t - 1]`` is the seat's net worth at the end of turn ``t`` (the last
    turn: when the record ends); ``None`` after the turn the seat went bankrupt.
    ``start_worth`` is everyone's net worth before the first throw.
    """

    players: list[str]
    currency: str
    turns: int
    actions: int
    start_worth: list[int]
    worth: list[list[int | None]]
    bankruptcies: list[Bankruptcy] = field(default_factory=list)
    groups: list[GroupCompletion] = field(default_factory=list)
    biggest_rent: Rent | None = None
    biggest_purchase: Purchase | None = None
    biggest_auction: AuctionWin | None = None
    longest_jail: JailStay | None = None
    trades: int = 0
    biggest_trade: Trade | None = None
    first_build: Building | None = None
    winner: int | None = None
    end_reason: str | None = None
    over: bool = False
    kind: str = "board"

    def to_dict(self) -> dict[str, Any]:
        """The recap as JSON-ready data."""
        return dataclasses.asdict(self)

    @classmethod
    def from_dict(cls, raw: dict[str, Any]) -> BoardRecap:
        """Inverse of :meth:`to_dict`."""
        data = dict(raw)

        def one(kind: type, value: Any) -> Any:
            return None if value is None else kind(**value)

        data["bankruptcies"] = [Bankruptcy(**b) for b in raw.get("bankruptcies", [])]
        data["groups"] = [GroupCompletion(**g) for g in raw.get("groups", [])]
        data["biggest_rent"] = one(Rent, raw.get("biggest_rent"))
        data["biggest_purchase"] = one(Purchase, raw.get("biggest_purchase"))
        data["biggest_auction"] = one(AuctionWin, raw.get("biggest_auction"))
        data["longest_jail"] = one(JailStay, raw.get("longest_jail"))
        data["first_build"] = one(Building, raw.get("first_build"))
        trade = raw.get("biggest_trade")
        if trade is not None:
            trade = dict(trade)
            trade["give"] = TradeSide(**trade["give"])
            trade["get"] = TradeSide(**trade["get"])
            trade = Trade(**trade)
        data["biggest_trade"] = trade
        return cls(**data)

    def bankrupt_turn(self, seat: int) -> int | None:
        """The turn ``seat`` went bankrupt, or None."""
        return next((b.turn for b in self.bankruptcies if b.player == seat), None)

    def worth_at(self, seat: int, turn: int) -> int | None:
        """``seat``'s net worth at the end of ``turn`` (0: the start)."""
        return self.start_worth[seat] if turn <= 0 else self.worth[seat][turn - 1]
