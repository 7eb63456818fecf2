"""A finished game told in numbers: net worth over the turns and the game's moments.

Pure: the recap is read from a game's record (start state and actions) by replaying it
once, action by action, with the engine; nothing here draws or talks to Discord.
Because only the record is read, it works for every stored game, also those played
before the recap existed.

- :func:`board_recap`: every player's net worth (:func:`bot.engine.wealth.wealth`) at the
  end of each turn (``state.turn``), the turn each player went bankrupt, the turn each
  colour group first came into one owner's hands, and the moments: the biggest rent,
  the most expensive purchase and auction, the longest stay in jail, the trades (how
  many, and the biggest by value) and who built first.
- :func:`card_recap`: the card game's points of every round per player, the running
  scores and the winners.
- :func:`recap_of`: either, by the format of the record's start state.

Every recap is a dataclass of plain values (``to_dict`` gives JSON-ready data,
``from_dict`` reads it back), so it can be cached or sent as it is.

The package: :mod:`~bot.recap.moments` (the board game's recap as data),
:mod:`~bot.recap.board` (its replay) and :mod:`~bot.recap.cards` (the card game's);
their public names are re-exported here.
"""

from __future__ import annotations

from bot.engine.record import GameRecord
from bot.recap.board import board_recap
from bot.recap.cards import CardRecap, CardRound, card_recap, is_card_record
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


def recap_of(record: GameRecord) -> BoardRecap | CardRecap:
    """The recap of either game, by the format of the record's start state."""
    return card_recap(record) if is_card_record(record) else board_recap(record)


__all__ = [
    "AuctionWin",
    "Bankruptcy",
    "BoardRecap",
    "Building",
    "CardRecap",
    "CardRound",
    "GroupCompletion",
    "JailStay",
    "Purchase",
    "Rent",
    "Trade",
    "TradeSide",
    "board_recap",
    "card_recap",
    "is_card_record",
    "recap_of",
]
