"""The card game's recap, read from its record by one replay (:func:`card_recap`).

:class:`CardRecap`: the points of every round per player, the running scores and the
winners. :func:`is_card_record` tells a card game's record by its start state's format.
"""

from __future__ import annotations

import dataclasses
from dataclasses import dataclass
from typing import Any

from bot.cardgame.game import apply_action as apply_card_action
from bot.cardgame.state import STATE_FORMAT as CARD_STATE_FORMAT
from bot.cardgame.state import CardState
from bot.engine.record import GameRecord


@dataclass
class CardRound:
    """One scored round: the points each seat made and the scores after it."""

    number: int
    ender: int | None
    reason: str  # "ended", "stock_empty" or "stalled"
    points: list[int]
    scores: list[int]


@dataclass
class CardRecap:
    """The card game in numbers: every round's points per seat, the target and winners."""

    players: list[str]
    currency: str
    target: int
    rounds: list[CardRound]
    winners: list[int]
    over: bool
    kind: str = "cards"

    def to_dict(self) -> dict[str, Any]:
        """The recap as JSON-ready data."""
        return dataclasses.asdict(self)

    @classmethod
    def from_dict(cls, raw: dict[str, Any]) -> CardRecap:
        """Inverse of :meth:`to_dict`."""
        data = dict(raw)
        data["rounds"] = [CardRound(**r) for r in raw.get("rounds", [])]
        return cls(**data)

    def totals(self) -> list[int]:
        """Every seat's score after the last round (0 before any)."""
        return list(self.rounds[-1].scores) if self.rounds else [0] * len(self.players)


def card_recap(record: GameRecord) -> CardRecap:
    """Replay ``record`` (a card game's) once and collect the points of every round."""
    state = CardState.from_dict(record.start)
    rounds: list[CardRound] = []
    for entry in record.actions:
        for event in apply_card_action(state, entry["action"]):
            if event["type"] == "round_scored":
                rounds.append(
                    CardRound(
                        number=event["round"],
                        ender=event.get("ender"),
                        reason=event.get("reason", "ended"),
                        points=list(event["points"]),
                        scores=list(event["scores"]),
                    )
                )
    return CardRecap(
        players=[p.name for p in state.players],
        currency=state.deck.currency,
        target=state.rules.target_for(len(state.players)),
        rounds=rounds,
        winners=list(state.winners),
        over=state.phase == "over",
    )


def is_card_record(record: GameRecord) -> bool:
    """True if ``record`` is a card game's (by its start state's format)."""
    return record.start.get("format") == CARD_STATE_FORMAT
