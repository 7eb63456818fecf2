"""Computer players: ``easy``, ``simple`` (the built-in one), ``strong`` and ``expert``
(the strong one looking ahead by simulated futures).

Every player has ``decide(state, seat)`` (the game waits on ``seat``) and
``respond_to_offers(state, seat)`` (a trade or lot offer to ``seat``, or None);
:func:`next_action` asks the right one. All are pure and deterministic.
"""

from __future__ import annotations

from typing import Any, Protocol

from bot.engine.computer.easy import EasyPlayer
from bot.engine.computer.lookahead import LookaheadPlayer
from bot.engine.computer.strong import StrongPlayer
from bot.engine.legal import waiting_for
from bot.engine.simple_players import SimplePlayer
from bot.engine.state import GameState

Action = dict[str, Any]


class ComputerPlayer(Protocol):
    """What the engine asks a computer player."""

    def decide(self, state: GameState, seat: int) -> Action:
        """The next action of ``seat``, which the game waits on."""

    def respond_to_offers(self, state: GameState, seat: int) -> Action | None:
        """An answer to an offer addressed to ``seat``, or None."""


#: The strengths a host can choose, weakest first.
LEVELS = ("easy", "simple", "strong", "expert")


def make_player(level: str) -> ComputerPlayer:
    """A computer player of ``level`` (one of :data:`LEVELS`)."""
    if level == "easy":
        return EasyPlayer()
    if level == "simple":
        return SimplePlayer()
    if level == "strong":
        return StrongPlayer()
    if level == "expert":
        return LookaheadPlayer()
    raise ValueError(f"unknown computer level {level!r}; known: {', '.join(LEVELS)}")


def next_action(state: GameState, players: dict[int, ComputerPlayer]) -> Action | None:
    """What one of the computer ``players`` (by seat) does next, or None if none acts.

    Open offers to a computer seat are answered first (in seat order), then the
    computer seat the game waits on moves.
    """
    if state.phase == "over":
        return None
    for seat in sorted(players):
        if not state.players[seat].bankrupt:
            answer = players[seat].respond_to_offers(state, seat)
            if answer is not None:
                return answer
    for seat in waiting_for(state):
        if seat in players:
            return players[seat].decide(state, seat)
    return None
