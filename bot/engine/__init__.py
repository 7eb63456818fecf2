"""The pure MONOPOLY rules engine.

No Discord, database, image, clock or global randomness lives here: a game is a
:class:`~bot.engine.state.GameState` plus a seeded generator inside it, and
:func:`~bot.engine.game.apply_action` turns one action into events.
"""

from bot.engine.board import Board, load_board
from bot.engine.errors import IllegalAction
from bot.engine.game import apply_action, new_game
from bot.engine.legal import legal_actions
from bot.engine.rules import Rules
from bot.engine.state import GameState

__all__ = [
    "Board",
    "GameState",
    "IllegalAction",
    "Rules",
    "apply_action",
    "legal_actions",
    "load_board",
    "new_game",
]
