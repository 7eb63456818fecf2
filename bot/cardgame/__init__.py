"""MONOPOLY Das Kartenspiel: the pure rules engine of the card game.

No Discord, database, image, clock or global randomness lives here: a game is a
:class:`~bot.cardgame.state.CardState` with a seeded generator inside it, and
:func:`~bot.cardgame.game.apply_action` turns one action into events. The rules
as implemented are in ``docs/cardgame.md``.
"""

from bot.cardgame.cards import Deck, load_deck
from bot.cardgame.game import apply_action, new_game
from bot.cardgame.legal import best_layout, legal_actions, waiting_for
from bot.cardgame.record import CardRecord
from bot.cardgame.rules import CardRules
from bot.cardgame.simple_player import SimpleCardPlayer, default_action
from bot.cardgame.state import CardState
from bot.engine.errors import IllegalAction

__all__ = [
    "CardRecord",
    "CardRules",
    "CardState",
    "Deck",
    "IllegalAction",
    "SimpleCardPlayer",
    "apply_action",
    "best_layout",
    "default_action",
    "legal_actions",
    "load_deck",
    "new_game",
    "waiting_for",
]
