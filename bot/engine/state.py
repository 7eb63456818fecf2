"""The game state and its canonical JSON form.

Everything a game needs to continue lives here, including the generator that
throws the dice, so ``GameState.from_dict(state.to_dict())`` continues with the
same future. Players are referred to by their seat index everywhere.
"""

from __future__ import annotations

import json
from typing import Any

from bot.engine.board import Board, custom_board, load_board
from bot.engine.rng import SplitMix64
from bot.engine.rules import Rules

STATE_FORMAT = "monopoly-state/1"
BANK = -1
POT = -2  # the Free Parking pot (house rule), a payee like the bank
HOTEL = 5  # ``houses[i] == HOTEL`` means a hotel stands on square i

#: The fields of a :class:`Player`, in the order of its canonical dict. (A module
#: constant, not read back from ``__slots__``: compiled with mypyc, the engine's classes
#: have none.)
PLAYER_FIELDS: tuple[str, ...] = (
    "id",
    "name",
    "cash",
    "position",
    "in_jail",
    "jail_turns",
    "jail_cards",
    "bankrupt",
)

#: The fields of a :class:`GameState` (its ``__slots__``).
GAME_FIELDS: tuple[str, ...] = (
    "rules",
    "board",
    "players",
    "owner",
    "houses",
    "mortgaged",
    "mortgage_choices",
    "bank_houses",
    "bank_hotels",
    "decks",
    "rng",
    "current",
    "phase",
    "turn",
    "seq",
    "doubles",
    "may_roll",
    "last_dice",
    "pending_buy",
    "pending_move",
    "pending_choice",
    "pending_building",
    "auction",
    "auction_queue",
    "debts",
    "lot_offer",
    "trades",
    "next_trade_id",
    "proposed_on_turn",
    "claims",
    "winner",
    "end_reason",
    "standings",
    "pot",
    "time_up",
    "dice_queue",
    "events",
    "record_events",
)


class Player:
    """One seat at the table."""

    __slots__ = PLAYER_FIELDS

    def __init__(
        self,
        id: str,  # noqa: A002 - the natural name of the field
        name: str,
        cash: int,
        position: int = 0,
        in_jail: bool = False,
        jail_turns: int = 0,
        jail_cards: list[str] | None = None,
        bankrupt: bool = False,
    ) -> None:
        self.id = id
        self.name = name
        self.cash = cash
        self.position = position
        self.in_jail = in_jail
        self.jail_turns = jail_turns
        self.jail_cards: list[str] = jail_cards if jail_cards is not None else []
        self.bankrupt = bankrupt

    def to_dict(self) -> dict[str, Any]:
        """Canonical dict of this player (its own copy of the jail-free cards)."""
        raw = {name: getattr(self, name) for name in PLAYER_FIELDS}
        raw["jail_cards"] = list(self.jail_cards)
        return raw

    @classmethod
    def from_dict(cls, raw: dict[str, Any]) -> Player:
        """Inverse of :meth:`to_dict`."""
        return cls(**{**raw, "jail_cards": list(raw["jail_cards"])})


class GameState:
    """A whole game: players, ownership, buildings, decks, the bank and the turn.

    ``phase`` says what the game waits for: ``roll``, ``buy``, ``auction``,
    ``debt``, ``choice``, ``place_building``, ``end`` (the current player may
    still manage, then ends the turn) or ``over``.
    """

    __slots__ = GAME_FIELDS

    def __init__(self, rules: Rules, board: Board, players: list[Player], seed: int) -> None:
        self.rules = rules
        self.board = board
        self.players = players
        self.owner = [BANK] * 40
        self.houses = [0] * 40
        self.mortgaged = [False] * 40
        # Mortgaged lots just received, per receiver, who must choose for each: lift it
        # now (value + 10 %) or keep it mortgaged and pay the 10 % now.
        self.mortgage_choices: list[dict[str, Any]] = []
        self.bank_houses = (
            rules.houses_total if rules.houses_total is not None else board.houses_total
        )
        self.bank_hotels = (
            rules.hotels_total if rules.hotels_total is not None else board.hotels_total
        )
        self.decks: dict[str, list[int]] = {
            d: [c.id for c in cards] for d, cards in board.decks.items()
        }
        self.rng = SplitMix64(seed)
        self.current = 0
        self.phase = "roll"
        self.turn = 1
        self.seq = 0
        self.doubles = 0
        self.may_roll = True
        self.last_dice: list[int] | None = None
        self.pending_buy: int | None = None
        self.pending_move: int | None = None
        self.pending_choice: dict[str, Any] | None = None
        self.pending_building: dict[str, Any] | None = None
        self.auction: dict[str, Any] | None = None
        self.auction_queue: list[int] = []
        self.debts: list[dict[str, Any]] = []
        self.lot_offer: dict[str, Any] | None = None
        self.trades: list[dict[str, Any]] = []
        self.next_trade_id = 1
        # The turn on which each seat last proposed a trade (0: never), so computer
        # players can keep from repeating an offer that was just declined.
        self.proposed_on_turn = [0] * len(players)
        self.claims: list[dict[str, Any]] = []
        self.winner: int | None = None
        self.end_reason: str | None = None
        # Final ``[seat, wealth]`` rows, richest first, when wealth decided the game.
        self.standings: list[list[int]] | None = None
        self.pot = 0
        # The agreed end time has passed: the game ends when the turn in progress does.
        self.time_up = False
        # Not part of the saved game: dice forced by a scenario, and the events
        # of the action being applied.
        self.dice_queue: list[int] = []
        self.events: list[dict[str, Any]] = []
        # False in simulations that never read the events: nothing is recorded then,
        # which saves building a dict for every payment, move and throw.
        self.record_events = True

    # -- helpers used everywhere -------------------------------------------------

    def active_players(self) -> list[int]:
        """Seats of players still in the game, in seat order."""
        return [i for i, p in enumerate(self.players) if not p.bankrupt]

    def emit(self, event_type: str, /, **data: Any) -> None:
        """Record an event of the action being applied."""
        if self.record_events:
            data["type"] = event_type
            self.events.append(data)

    def die(self) -> int:
        """One die: forced by a scenario if queued, else from the game's generator."""
        if self.dice_queue:
            return self.dice_queue.pop(0)
        return self.rng.die()

    # -- canonical JSON -----------------------------------------------------------

    def to_dict(self) -> dict[str, Any]:
        """The canonical dict of the game (a deep copy); round-trips via :meth:`from_dict`."""
        return json.loads(self.to_json())

    def _fields(self) -> dict[str, Any]:
        # Shares lists and dicts with the live state: only for immediate serialisation.
        return {
            "format": STATE_FORMAT,
            "rules": self.rules.to_dict(),
            "board": self.board.id,
            **({"board_data": self.board.source} if self.board.source is not None else {}),
            "players": [p.to_dict() for p in self.players],
            "owner": list(self.owner),
            "houses": list(self.houses),
            "mortgaged": list(self.mortgaged),
            "mortgage_choices": self.mortgage_choices,
            "bank_houses": self.bank_houses,
            "bank_hotels": self.bank_hotels,
            "decks": {k: list(v) for k, v in self.decks.items()},
            "rng": self.rng.state,
            "current": self.current,
            "phase": self.phase,
            "turn": self.turn,
            "seq": self.seq,
            "doubles": self.doubles,
            "may_roll": self.may_roll,
            "last_dice": self.last_dice,
            "pending_buy": self.pending_buy,
            "pending_move": self.pending_move,
            "pending_choice": self.pending_choice,
            "pending_building": self.pending_building,
            "auction": self.auction,
            "auction_queue": list(self.auction_queue),
            "debts": self.debts,
            "lot_offer": self.lot_offer,
            "trades": self.trades,
            "next_trade_id": self.next_trade_id,
            "proposed_on_turn": list(self.proposed_on_turn),
            "claims": self.claims,
            "winner": self.winner,
            "end_reason": self.end_reason,
            "standings": self.standings,
            "pot": self.pot,
            "time_up": self.time_up,
        }

    def to_json(self) -> str:
        """Canonical JSON text: sorted keys, no spaces, UTF-8 names kept readable."""
        return json.dumps(self._fields(), sort_keys=True, separators=(",", ":"), ensure_ascii=False)

    @classmethod
    def from_dict(cls, raw: dict[str, Any]) -> GameState:
        """Rebuild a game from its canonical dict (a deep copy is taken).

        A field the saved game does not have (it was saved before the field
        existed) takes the value a new game starts with, so engine updates never
        strand stored games.
        """
        return cls._from_owned_dict(json.loads(json.dumps(raw)))

    @classmethod
    def _from_owned_dict(cls, raw: dict[str, Any]) -> GameState:
        if raw.get("format") != STATE_FORMAT:
            raise ValueError(f"not a {STATE_FORMAT} document")
        rules = Rules.from_dict(raw["rules"])
        custom = raw.get("board_data")
        board = custom_board(custom) if custom is not None else load_board(raw["board"])
        players = [Player.from_dict(p) for p in raw["players"]]
        state = cls(rules, board, players, seed=0)
        for key in GAME_FIELDS:
            if key in ("rules", "board", "players", "rng", "dice_queue", "events", "record_events"):
                continue
            if key in raw:
                setattr(state, key, raw[key])
        state.rng = SplitMix64(raw["rng"])
        return state

    @classmethod
    def from_json(cls, text: str) -> GameState:
        """Rebuild a game from canonical JSON text."""
        return cls._from_owned_dict(json.loads(text))

    def copy(self) -> GameState:
        """An independent copy of this game, equal to ``from_dict(to_dict())``.

        A structural copy rather than a JSON round trip (look-ahead players copy
        states hundreds of times per decision): the immutable ``rules`` and ``board``
        are shared, every list and dict is copied. Like the round trip, the copy
        starts without forced dice or events.
        """
        players = [
            Player(
                p.id,
                p.name,
                p.cash,
                p.position,
                p.in_jail,
                p.jail_turns,
                list(p.jail_cards),
                p.bankrupt,
            )
            for p in self.players
        ]
        if _BLANK_BY_NEW:
            new = GameState.__new__(GameState)
            new.rules = self.rules
            new.board = self.board
            new.players = players
        else:
            # Compiled with mypyc, GameState.__new__ cannot make a blank one: through
            # __init__ then, every field of which is replaced below.
            new = GameState(self.rules, self.board, players, 0)
        new.owner = list(self.owner)
        new.houses = list(self.houses)
        new.mortgaged = list(self.mortgaged)
        new.mortgage_choices = _copy_json(self.mortgage_choices)
        new.bank_houses = self.bank_houses
        new.bank_hotels = self.bank_hotels
        new.decks = {deck: list(cards) for deck, cards in self.decks.items()}
        new.rng = SplitMix64(self.rng.state)
        new.current = self.current
        new.phase = self.phase
        new.turn = self.turn
        new.seq = self.seq
        new.doubles = self.doubles
        new.may_roll = self.may_roll
        new.last_dice = _copy_json(self.last_dice)
        new.pending_buy = self.pending_buy
        new.pending_move = self.pending_move
        new.pending_choice = _copy_json(self.pending_choice)
        new.pending_building = _copy_json(self.pending_building)
        new.auction = _copy_json(self.auction)
        new.auction_queue = _copy_json(self.auction_queue)
        new.debts = _copy_json(self.debts)
        new.lot_offer = _copy_json(self.lot_offer)
        new.trades = _copy_json(self.trades)
        new.next_trade_id = self.next_trade_id
        new.proposed_on_turn = list(self.proposed_on_turn)
        new.claims = _copy_json(self.claims)
        new.winner = self.winner
        new.end_reason = self.end_reason
        new.standings = _copy_json(self.standings)
        new.pot = self.pot
        new.time_up = self.time_up
        new.dice_queue = []
        new.events = []
        new.record_events = True
        return new


#: Whether :meth:`GameState.copy` can start from a blank object (``GameState.__new__``,
#: as a plain Python class can; cheaper than ``__init__``), not when compiled with mypyc.
_BLANK_BY_NEW: bool = GameState.__new__ is object.__new__


def _copy_json(value: Any) -> Any:
    """A deep copy of a JSON-like value, exactly as a JSON round trip would return it.

    Tuples become lists; a dict with a key that is not a string (JSON would turn it
    into one) takes the slow round trip so the copy stays identical to it.
    """
    kind = type(value)
    if kind is list or kind is tuple:
        return [_copy_json(item) for item in value]
    if kind is dict:
        if all(type(key) is str for key in value):
            return {key: _copy_json(item) for key, item in value.items()}
        return json.loads(json.dumps(value))
    return value
