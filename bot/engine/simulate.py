"""Play complete games between the built-in simple players (simulate and bench)."""

from __future__ import annotations

import time
from collections import Counter
from dataclasses import dataclass, field
from typing import Any

from bot.engine.game import apply_action, new_game
from bot.engine.rules import Rules
from bot.engine.simple_players import SimplePlayer, next_simple_action
from bot.engine.state import GameState

JAIL_SLOT = 40  # in ``landings``: the token ended the throw in jail
DEFAULT_TURN_CAP = 1000
DEFAULT_DEADLINE_TURN = 150  # when the agreed time "strikes" in presets with a deadline


@dataclass
class SimulationResult:
    """Totals over the games played."""

    games: int = 0
    turns: int = 0
    throws: int = 0
    actions: int = 0
    seconds: float = 0.0
    endings: Counter = field(default_factory=Counter)
    landings: list[int] = field(default_factory=lambda: [0] * 41)
    winners: Counter = field(default_factory=Counter)

    def to_dict(self) -> dict[str, Any]:
        """The result as the JSON object ``monopoly-bot simulate --json`` prints."""
        return {
            "games": self.games,
            "turns": self.turns,
            "throws": self.throws,
            "actions": self.actions,
            "seconds": round(self.seconds, 3),
            "endings": dict(sorted(self.endings.items())),
            "landings": self.landings,
            "winners_by_seat": {str(k): v for k, v in sorted(self.winners.items())},
        }


def play_game(
    state: GameState,
    players: list[SimplePlayer],
    result: SimulationResult,
    turn_cap: int = DEFAULT_TURN_CAP,
    deadline_turn: int = DEFAULT_DEADLINE_TURN,
) -> GameState:
    """Play ``state`` to its end (or ``turn_cap`` turns), adding to ``result``.

    In presets that end at an agreed time, the time is up at turn ``deadline_turn``.
    """
    landings = result.landings
    throws = actions = 0
    thrower: int | None = None
    deadline = deadline_turn if state.rules.end_at_deadline else None
    while state.phase != "over" and state.turn <= turn_cap:
        if deadline is not None and state.turn >= deadline and not state.time_up:
            apply_action(state, {"type": "time_up"})
            continue
        action = next_simple_action(state, players)
        assert action is not None
        apply_action(state, action)
        actions += 1
        if action["type"] == "roll":
            throws += 1
            thrower = action["player"]
        if thrower is not None and state.phase not in ("choice", "debt"):
            player = state.players[thrower]
            if not player.bankrupt:
                landings[JAIL_SLOT if player.in_jail else player.position] += 1
            thrower = None
    result.games += 1
    result.turns += state.turn
    result.throws += throws
    result.actions += actions
    if state.phase == "over":
        result.endings[state.end_reason or "over"] += 1
        result.winners[state.winner] += 1
    else:
        result.endings["turn_cap"] += 1
    return state


def simulate(
    games: int,
    players: int,
    seed: int,
    *,
    rules: Rules | None = None,
    jail_strategy: str = "leave",
    turn_cap: int = DEFAULT_TURN_CAP,
    deadline_turn: int = DEFAULT_DEADLINE_TURN,
) -> SimulationResult:
    """Play ``games`` seeded games of ``players`` simple players and total them up."""
    rules = rules or Rules.from_preset("classic")
    result = SimulationResult()
    bots = [SimplePlayer(jail_strategy) for _ in range(players)]
    seats = [(f"p{i}", f"Player {i + 1}") for i in range(players)]
    started = time.perf_counter()
    for game in range(games):
        state = new_game(seats, seed=seed * 1_000_003 + game, rules=rules)
        state.record_events = False  # nobody reads them here: the totals need none
        play_game(state, bots, result, turn_cap, deadline_turn)
    result.seconds = time.perf_counter() - started
    return result
