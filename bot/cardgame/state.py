"""The card game's state and its canonical JSON form.

Everything a game needs to continue lives here, the shuffling generator too, so
``CardState.from_dict(state.to_dict())`` continues with the same future. Players
are referred to by seat index; cards by their id (see :mod:`bot.cardgame.cards`).

Lists of cards run bottom to top: the top of a face-up pile and of the stock is
the **last** element. Hands are kept in the deck's canonical order. Hands are
private in the UI, but like everything else they are part of the state.
"""

from __future__ import annotations

import json
from typing import Any

from bot.cardgame.cards import Deck, load_deck
from bot.cardgame.rules import CardRules, Table, table_for
from bot.engine.rng import SplitMix64

STATE_FORMAT = "monopoly-cards-state/1"


class CardPlayer:
    """One seat: who sits there, the score so far and the hand."""

    __slots__ = ("id", "name", "score", "hand")

    def __init__(
        self,
        id: str,  # noqa: A002 - the natural name of the field
        name: str,
        score: int = 0,
        hand: list[str] | None = None,
    ) -> None:
        self.id = id
        self.name = name
        self.score = score
        self.hand: list[str] = hand if hand is not None else []

    def to_dict(self) -> dict[str, Any]:
        """Canonical dict of this player (its own copy of the hand)."""
        return {"id": self.id, "name": self.name, "score": self.score, "hand": list(self.hand)}

    @classmethod
    def from_dict(cls, raw: dict[str, Any]) -> CardPlayer:
        """Inverse of :meth:`to_dict`."""
        return cls(raw["id"], raw["name"], raw["score"], list(raw["hand"]))


class CardState:
    """A whole card game: players, the cards on the table, the round and the turn.

    ``phase`` says what the game waits for:

    - ``turn``: the current player draws, swaps or lays out;
    - ``discard``: the seats with ``owe[seat] > 0`` discard that many cards;
    - ``pass`` (5-6 players): every seat chooses a card for its left neighbour
      (``passing``); the current player may still lay out instead;
    - ``bonus``: the ender arranges the final lay-out with ``bonus_cards``;
    - ``over``: the game has ended (``winners``).
    """

    __slots__ = (
        "rules",
        "deck",
        "table",
        "players",
        "rng",
        "round",
        "dealer",
        "current",
        "phase",
        "turn",
        "round_turn",
        "seq",
        "stock",
        "piles",
        "extra_piles",
        "owe",
        "passing",
        "ender",
        "laid",
        "laid_cards",
        "bonus_cards",
        "aside",
        "round_scores",
        "last_round",
        "winners",
        "events",
    )

    def __init__(self, rules: CardRules, players: list[CardPlayer], seed: int) -> None:
        self.rules = rules
        self.deck: Deck = load_deck(rules.deck)
        self.table: Table = table_for(len(players))
        self.players = players
        self.rng = SplitMix64(seed)
        self.round = 0
        self.dealer = 0
        self.current = 0
        self.phase = "turn"
        self.turn = 0  # turns played in the whole game
        self.round_turn = 0  # turns played in this round
        self.seq = 0
        self.stock: list[str] = []
        self.piles: list[list[str]] = [[] for _ in players]
        self.extra_piles: list[list[str]] = []
        self.owe = [0] * len(players)  # cards each seat must still discard
        self.passing: list[str | None] = [None] * len(players)  # 5-6 players
        # The round's ender, the lay-out they ended with, its cards, and the cards
        # they may add (the top of the stock, or every face-up card with 5-6 players).
        self.ender: int | None = None
        self.laid: dict[str, Any] | None = None
        self.laid_cards: list[str] = []
        self.bonus_cards: list[str] = []
        self.aside: list[str] = []  # cards put aside this round (surplus, unused bonus)
        self.round_scores: list[list[int]] = []  # per round, per seat
        self.last_round: dict[str, Any] | None = None  # the result of the last round
        self.winners: list[int] = []
        # Not part of the saved game: the events of the action being applied.
        self.events: list[dict[str, Any]] = []

    # -- helpers ----------------------------------------------------------------------

    def emit(self, event_type: str, /, **data: Any) -> None:
        """Record an event of the action being applied."""
        data["type"] = event_type
        self.events.append(data)

    def sort_hand(self, seat: int) -> None:
        """Put ``seat``'s hand back into canonical deck order."""
        self.players[seat].hand = self.deck.sort(self.players[seat].hand)

    def all_cards(self) -> list[str]:
        """Every card of the round in play (hands, piles, stock, lay-out, bonus, aside)."""
        found: list[str] = []
        for p in self.players:
            found.extend(p.hand)
        for pile in (*self.piles, *self.extra_piles):
            found.extend(pile)
        found.extend(self.stock)
        found.extend(self.laid_cards)
        found.extend(self.bonus_cards)
        found.extend(self.aside)
        return found

    # -- canonical JSON -----------------------------------------------------------------

    def to_dict(self) -> dict[str, Any]:
        """The canonical dict of the game (a deep copy); round-trips via :meth:`from_dict`."""
        return json.loads(self.to_json())

    def _fields(self) -> dict[str, Any]:
        # Shares lists with the live state: only for immediate serialisation.
        return {
            "format": STATE_FORMAT,
            "rules": self.rules.to_dict(),
            "players": [p.to_dict() for p in self.players],
            "rng": self.rng.state,
            "round": self.round,
            "dealer": self.dealer,
            "current": self.current,
            "phase": self.phase,
            "turn": self.turn,
            "round_turn": self.round_turn,
            "seq": self.seq,
            "stock": self.stock,
            "piles": self.piles,
            "extra_piles": self.extra_piles,
            "owe": self.owe,
            "passing": self.passing,
            "ender": self.ender,
            "laid": self.laid,
            "laid_cards": self.laid_cards,
            "bonus_cards": self.bonus_cards,
            "aside": self.aside,
            "round_scores": self.round_scores,
            "last_round": self.last_round,
            "winners": self.winners,
        }

    def to_json(self) -> str:
        """Canonical JSON text: sorted keys, no spaces, UTF-8 names kept readable."""
        return json.dumps(self._fields(), sort_keys=True, separators=(",", ":"), ensure_ascii=False)

    @classmethod
    def from_dict(cls, raw: dict[str, Any]) -> CardState:
        """Rebuild a game from its canonical dict (a deep copy is taken)."""
        return cls._from_owned(json.loads(json.dumps(raw)))

    @classmethod
    def from_json(cls, text: str) -> CardState:
        """Rebuild a game from canonical JSON text."""
        return cls._from_owned(json.loads(text))

    @classmethod
    def _from_owned(cls, raw: dict[str, Any]) -> CardState:
        if raw.get("format") != STATE_FORMAT:
            raise ValueError(f"not a {STATE_FORMAT} document")
        rules = CardRules.from_dict(raw["rules"])
        players = [CardPlayer.from_dict(p) for p in raw["players"]]
        state = cls(rules, players, seed=0)
        for key in cls.__slots__:
            if key in ("rules", "deck", "table", "players", "rng", "events"):
                continue
            if key in raw:
                setattr(state, key, raw[key])
        state.rng = SplitMix64(raw["rng"])
        return state

    def copy(self) -> CardState:
        """An independent copy of this game."""
        return CardState.from_json(self.to_json())
