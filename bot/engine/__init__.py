"""The pure MONOPOLY rules engine.

No Discord, database, image, clock or global randomness lives here: a game is a
:class:`~bot.engine.state.GameState` plus a seeded generator inside it, and
:func:`~bot.engine.game.apply_action` turns one action into events.

With ``MONOPOLY_ENGINE=compiled`` the same modules run compiled with mypyc, if
``monopoly-bot build-engine`` built them from the current sources
(:mod:`bot.engine.compiled`); :func:`compiled_engine_active` tells which runs.
"""

# Before any other module of the engine is imported: they may come from a build.
from bot.engine.compiled import activate_from_environment, compiled_engine_active

activate_from_environment()

from bot.engine.board import Board, load_board  # noqa: E402 - after the switch above
from bot.engine.errors import IllegalAction  # noqa: E402 - after the switch above
from bot.engine.game import apply_action, new_game  # noqa: E402 - after the switch above
from bot.engine.legal import legal_actions  # noqa: E402 - after the switch above
from bot.engine.rules import Rules  # noqa: E402 - after the switch above
from bot.engine.state import GameState  # noqa: E402 - after the switch above

__all__ = [
    "Board",
    "GameState",
    "IllegalAction",
    "Rules",
    "apply_action",
    "compiled_engine_active",
    "legal_actions",
    "load_board",
    "new_game",
]
