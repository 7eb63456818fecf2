"""The game record: the starting state plus every action, with a check of each deal.

Replaying a record from its starting state gives the identical game, because
the shuffling generator is part of the state; each round's deal fingerprint is
stored with the action that dealt it and checked on replay, so a record that no
longer matches the engine is caught.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from bot.cardgame.game import apply_action
from bot.cardgame.state import CardState

RECORD_FORMAT = "monopoly-cards-record/1"


class ReplayMismatch(Exception):
    """A record's deals differ from what the engine deals on replay."""


def deals_of(events: list[dict[str, Any]]) -> list[str]:
    """The deal fingerprints of the rounds started during one action, in order."""
    return [e["deal"] for e in events if e["type"] == "round_started"]


@dataclass
class CardRecord:
    """A card game's starting state and its actions (each with the deals it caused)."""

    start: dict[str, Any]
    actions: list[dict[str, Any]] = field(default_factory=list)

    @classmethod
    def begin(cls, state: CardState) -> CardRecord:
        """Start a record at ``state`` (usually right after :func:`new_game`)."""
        return cls(start=state.to_dict())

    def add(self, action: dict[str, Any], events: list[dict[str, Any]]) -> None:
        """Append an applied action and the deals it caused."""
        self.actions.append({"action": action, "deals": deals_of(events)})

    def to_dict(self) -> dict[str, Any]:
        """The record as JSON-ready data."""
        return {"format": RECORD_FORMAT, "start": self.start, "actions": self.actions}

    @classmethod
    def from_dict(cls, raw: dict[str, Any]) -> CardRecord:
        """Inverse of :meth:`to_dict`."""
        if raw.get("format") != RECORD_FORMAT:
            raise ValueError(f"not a {RECORD_FORMAT} document")
        return cls(start=raw["start"], actions=list(raw["actions"]))

    def replay(self) -> CardState:
        """Rebuild the game by applying every action to the starting state."""
        state = CardState.from_dict(self.start)
        for number, entry in enumerate(self.actions):
            events = apply_action(state, entry["action"])
            if deals_of(events) != entry["deals"]:
                raise ReplayMismatch(
                    f"action {number}: recorded deals {entry['deals']} but dealt {deals_of(events)}"
                )
        return state
