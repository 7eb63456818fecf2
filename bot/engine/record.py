"""The game record: the starting state plus every action with the dice it used.

Replaying a record from its starting state gives the identical game, because
the dice generator is part of the state; the dice stored with each action are
checked on the way, so a record that no longer matches the engine is caught.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from bot.engine.game import apply_action
from bot.engine.state import GameState

RECORD_FORMAT = "monopoly-record/1"


class ReplayMismatch(Exception):
    """A record's dice differ from what the engine throws on replay."""


def dice_of(events: list[dict[str, Any]]) -> list[list[int]]:
    """The dice thrown during one action, in order."""
    return [e["dice"] for e in events if e["type"] == "rolled"]


@dataclass
class GameRecord:
    """A game's starting state and its actions (each with the dice it threw)."""

    start: dict[str, Any]
    actions: list[dict[str, Any]] = field(default_factory=list)

    @classmethod
    def begin(cls, state: GameState) -> GameRecord:
        """Start a record at ``state`` (usually right after :func:`new_game`)."""
        return cls(start=state.to_dict())

    def add(self, action: dict[str, Any], events: list[dict[str, Any]]) -> None:
        """Append an applied action and the dice it threw."""
        self.actions.append({"action": action, "dice": dice_of(events)})

    def to_dict(self) -> dict[str, Any]:
        """The record as JSON-ready data."""
        return {"format": RECORD_FORMAT, "start": self.start, "actions": self.actions}

    @classmethod
    def from_dict(cls, raw: dict[str, Any]) -> GameRecord:
        """Inverse of :meth:`to_dict`."""
        if raw.get("format") != RECORD_FORMAT:
            raise ValueError(f"not a {RECORD_FORMAT} document")
        return cls(start=raw["start"], actions=list(raw["actions"]))

    def replay(self) -> GameState:
        """Rebuild the game by applying every action to the starting state."""
        state = GameState.from_dict(self.start)
        for number, entry in enumerate(self.actions):
            events = apply_action(state, entry["action"])
            if dice_of(events) != entry["dice"]:
                raise ReplayMismatch(
                    f"action {number}: recorded dice {entry['dice']} but threw {dice_of(events)}"
                )
        return state
