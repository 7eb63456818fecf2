"""The card game's settings and the table layout the book prescribes per player count.

Every point where the rulebook is silent and players could disagree is a field
of :class:`CardRules`; ``docs/cardgame.md`` quotes the book behind each default.
"""

from __future__ import annotations

from dataclasses import dataclass, fields
from typing import Any

MIN_PLAYERS = 2
MAX_PLAYERS = 6

FINAL_TIE = ("play_on", "shared")
MR_MONOPOLY_TIE = ("nobody", "all", "split")
EMPTY_STOCK = ("swap_only", "score")
FIRST_DEALER = ("random", "seat0")
LAY_OUT_SIZE = ("hand", "ten")

# Bounds of the numeric settings (``None`` means "the book's value for the player count").
BOUNDS: tuple[tuple[str, int, int], ...] = (("target", 500, 1_000_000),)


@dataclass(frozen=True, slots=True)
class CardRules:
    """The settings a card game is played by (defaults follow the book)."""

    deck: str = "de"
    # The score that ends the game; None: 10 000 with 2-4 players, 7 000 with 5-6.
    target: int | None = None
    # True: reaching the target ends the game ("10.000 Euro erreicht"); False: it must
    # be passed ("mehr als 10.000 Euro eingenommen").
    target_inclusive: bool = True
    # Several players reach the target with the same highest score: play another
    # round ("play_on") or all of them win ("shared").
    final_tie: str = "play_on"
    # Several players hold the most Mr. Monopoly cards: nobody gets the 1 000, all of
    # them get it, or they split it (rounded down to the 50 of the smallest note).
    mr_monopoly_tie: str = "nobody"
    # Whether the Mr. Monopoly cards of a player whose hand is worthless (a wild card)
    # still count when finding who has the most.
    wild_holder_mr_monopoly: bool = False
    # Whether a token card on a group with a hotel counts the hotel's 500 too.
    token_includes_hotel: bool = True
    # The stock runs out (2-4 players): play on with swaps only ("swap_only"), or end
    # the round after that turn and score everyone as a non-ender ("score").
    empty_stock: str = "swap_only"
    # Whether the other players may lay out only as many cards as the ender must
    # (10; see lay_out_size for 5-6 players) when someone's swaps left them more.
    others_limited: bool = False
    # Whether the ender may lay out a group made of wild cards only (no real card).
    wild_only_groups: bool = False
    # Who deals the first round: drawn with the game's generator, or the first seat.
    first_dealer: str = "random"
    # How many cards the ender lays out with 5-6 players: the whole hand (11 or 9,
    # "hand"), or 10 as the book's general rule says ("ten": with 5 players the 11th
    # card goes aside; with 6 players a hand of 9 goes down whole).
    lay_out_size: str = "hand"

    def __post_init__(self) -> None:
        for name, choices in (
            ("final_tie", FINAL_TIE),
            ("mr_monopoly_tie", MR_MONOPOLY_TIE),
            ("empty_stock", EMPTY_STOCK),
            ("first_dealer", FIRST_DEALER),
            ("lay_out_size", LAY_OUT_SIZE),
        ):
            if getattr(self, name) not in choices:
                raise ValueError(f"{name} must be one of {choices}")
        for name, low, high in BOUNDS:
            value = getattr(self, name)
            if value is not None and (type(value) is not int or not low <= value <= high):
                raise ValueError(f"{name} must be an integer between {low} and {high}")
        for f in fields(self):
            if f.type == "bool" and type(getattr(self, f.name)) is not bool:
                raise ValueError(f"{f.name} must be true or false")
        if not isinstance(self.deck, str):
            raise ValueError("deck must be a deck id")

    def target_for(self, players: int) -> int:
        """The score that ends the game with ``players`` players.

        "bis ein Spieler mehr als 10.000 Euro eingenommen hat"; with 5 and 6
        players: "Es gewinnt, wer zuerst 7.000 Euro erreicht."
        """
        if self.target is not None:
            return self.target
        return 7_000 if players >= 5 else 10_000

    def reached(self, score: int, players: int) -> bool:
        """True if ``score`` ends the game (reached, or passed if not inclusive)."""
        target = self.target_for(players)
        return score >= target if self.target_inclusive else score > target

    def cards_to_lay_out(self, table: Table) -> int:
        """How many cards the ender lays out ("indem ein Spieler 10 Karten vor sich auslegt").

        With 2-4 players that is the hand, 10 cards. With 5-6 players the book
        gives no number: the whole hand (11/9) by default — "Wer zuerst nur noch
        vollständige Gruppen und Bonuskarten auf der Hand hat, kann auslegen" —
        or at most 10 with ``lay_out_size: "ten"``.
        """
        if self.lay_out_size == "ten":
            return min(10, table.hand_size)
        return table.hand_size

    def to_dict(self) -> dict[str, Any]:
        """The settings as a plain dict (canonical JSON)."""
        return {f.name: getattr(self, f.name) for f in fields(self)}

    @classmethod
    def from_dict(cls, raw: dict[str, Any]) -> CardRules:
        """Settings from a dict; unknown keys are an error, missing ones take the default."""
        names = {f.name for f in fields(cls)}
        unknown = set(raw) - names
        if unknown:
            raise ValueError(f"unknown card game settings: {', '.join(sorted(unknown))}")
        return cls(**raw)


@dataclass(frozen=True, slots=True)
class Table:
    """What the book prescribes for a player count: hand size, piles, stock."""

    players: int
    hand_size: int  # cards in a hand after every turn, and cards laid out to end
    extra_piles: int  # face-up piles that belong to nobody (3 players: 1, 2 players: 2)
    has_stock: bool
    swap_only: bool  # 5-6 players: "Es kann nur getauscht werden."
    passes: bool  # 5-6 players: one card face-down to the left after every turn
    bonus_cards: int | None  # cards the ender takes from the stock; None: every face-up card


def table_for(players: int) -> Table:
    """The table for ``players`` players (2 to 6).

    4 players: 10 cards each and one face-up card each, the rest is the stock.
    3 players: "noch eine 4. Karte offen als Tauschkarte"; 2 players: "mit einer
    3. und 4. Tauschkarte". 5 and 6 players: "Es werden alle Karten ausgeteilt ...
    Bei 5 Spielern erhält jeder 11 Karten, bei 6 Spielern jeder 9."
    """
    if not MIN_PLAYERS <= players <= MAX_PLAYERS:
        raise ValueError(f"the card game is for {MIN_PLAYERS} to {MAX_PLAYERS} players")
    if players >= 5:
        return Table(players, 11 if players == 5 else 9, 0, False, True, True, None)
    return Table(players, 10, {2: 2, 3: 1}.get(players, 0), True, False, False, 5)
