"""Play complete card games between simple players and total them up.

Run ``python -m bot.cardgame.simulate --games 20 --players 4 --seed 1`` to print
the totals as one JSON object.
"""

from __future__ import annotations

import argparse
import json
import sys
import time
from collections import Counter
from dataclasses import dataclass, field
from typing import Any

from bot.cardgame.game import apply_action, new_game
from bot.cardgame.rules import CardRules
from bot.cardgame.simple_player import SimpleCardPlayer, next_simple_action
from bot.cardgame.state import CardState

DEFAULT_ACTION_CAP = 100_000


@dataclass
class CardSimulationResult:
    """Totals over the games played."""

    players: int = 0
    games: int = 0
    rounds: int = 0
    turns: int = 0
    actions: int = 0
    seconds: float = 0.0
    unfinished: int = 0
    round_endings: Counter = field(default_factory=Counter)
    winners: Counter = field(default_factory=Counter)
    points: int = 0
    best_round: int = 0

    def to_dict(self) -> dict[str, Any]:
        """The totals as a JSON-ready dict."""
        per_player_round = self.points / self.rounds / max(1, self.players) if self.rounds else 0
        return {
            "players": self.players,
            "games": self.games,
            "rounds": self.rounds,
            "turns": self.turns,
            "actions": self.actions,
            "seconds": round(self.seconds, 3),
            "unfinished": self.unfinished,
            "round_endings": dict(sorted(self.round_endings.items())),
            "winners_by_seat": {str(k): v for k, v in sorted(self.winners.items())},
            "points_per_round_and_player": round(per_player_round, 1),
            "best_round": self.best_round,
        }


def play_game(
    state: CardState,
    players: list[SimpleCardPlayer],
    result: CardSimulationResult,
    action_cap: int = DEFAULT_ACTION_CAP,
) -> CardState:
    """Play ``state`` to its end (or ``action_cap`` actions), adding to ``result``."""
    actions = 0
    while state.phase != "over" and actions < action_cap:
        action = next_simple_action(state, players)
        assert action is not None
        for event in apply_action(state, action):
            if event["type"] == "round_scored":
                result.rounds += 1
                result.round_endings[event["reason"]] += 1
                result.points += sum(event["points"])
                result.best_round = max(result.best_round, *event["points"])
        actions += 1
    result.games += 1
    result.turns += state.turn
    result.actions += actions
    if state.phase == "over":
        for seat in state.winners:
            result.winners[seat] += 1
    else:
        result.unfinished += 1
    return state


def game_seed(seed: int, game: int) -> int:
    """The seed of game number ``game`` in a run seeded with ``seed``."""
    return seed * 1_000_003 + game


def simulate(
    games: int,
    players: int,
    seed: int,
    *,
    settings: CardRules | None = None,
    action_cap: int = DEFAULT_ACTION_CAP,
) -> CardSimulationResult:
    """Play ``games`` seeded games of ``players`` simple players and total them up."""
    result = CardSimulationResult(players=players)
    bots = [SimpleCardPlayer() for _ in range(players)]
    seats = [(f"p{i}", f"Player {i + 1}") for i in range(players)]
    started = time.perf_counter()
    for game in range(games):
        state = new_game(seats, game_seed(seed, game), settings)
        play_game(state, bots, result, action_cap)
    result.seconds = time.perf_counter() - started
    return result


def main(argv: list[str] | None = None) -> int:
    """Command line: simulate and print the totals as JSON."""
    parser = argparse.ArgumentParser(description="Simulate MONOPOLY card games.")
    parser.add_argument("--games", type=int, default=10)
    parser.add_argument("--players", type=int, default=4)
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument("--settings", default="{}", help="card game settings as a JSON object")
    args = parser.parse_args(argv)
    settings = CardRules.from_dict(json.loads(args.settings))
    result = simulate(args.games, args.players, args.seed, settings=settings)
    sys.stdout.write(json.dumps(result.to_dict(), sort_keys=True) + "\n")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
