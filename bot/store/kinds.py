"""The kinds of game the store keeps, told apart by the format of their state.

The board game (``monopoly-state/1``, :mod:`bot.engine`) and the card game
(``monopoly-cards-state/1``, :mod:`bot.cardgame`) share every table of the store:
a game's state JSON says which engine reads it and applies its actions.
"""

from __future__ import annotations

import json
from typing import Any

from bot.cardgame.game import apply_action as apply_card_action
from bot.cardgame.legal import waiting_for as card_waiting_for
from bot.cardgame.state import STATE_FORMAT as CARD_STATE_FORMAT
from bot.cardgame.state import CardState
from bot.engine.game import apply_action as apply_board_action
from bot.engine.legal import waiting_for as board_waiting_for
from bot.engine.record import GameRecord
from bot.engine.state import GameState

#: A stored game's state, whichever game it is.
AnyState = GameState | CardState

# Canonical JSON has no spaces, so the card game's format appears exactly like this.
_CARD_MARK = f'"format":"{CARD_STATE_FORMAT}"'


def state_from_json(text: str) -> AnyState:
    """The state in canonical JSON ``text``, by the engine its format names."""
    if _CARD_MARK in text:
        return CardState.from_json(text)
    return GameState.from_json(text)


def state_from_dict(raw: dict[str, Any]) -> AnyState:
    """The state in ``raw`` (a canonical dict), by the engine its format names."""
    return state_from_json(json.dumps(raw, sort_keys=True, separators=(",", ":")))


def apply(state: AnyState, action: dict[str, Any]) -> list[dict[str, Any]]:
    """Apply ``action`` with the engine of ``state``; its events."""
    if isinstance(state, CardState):
        return apply_card_action(state, action)
    return apply_board_action(state, action)


def replay(record: GameRecord) -> AnyState:
    """Rebuild a stored game from its record (start state and actions), either game.

    The board game's record also checks every throw of the dice against the log.
    """
    state = state_from_dict(record.start)
    if isinstance(state, GameState):
        return record.replay()
    for entry in record.actions:
        apply_card_action(state, entry["action"])
    return state


def waiting_for(state: AnyState) -> list[int]:
    """The seats the game waits on now, board game or card game (none once it is over)."""
    if isinstance(state, CardState):
        return card_waiting_for(state)
    return board_waiting_for(state) if state.phase != "over" else []
