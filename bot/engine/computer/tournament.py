"""Tournaments between computer players: win rates with confidence intervals.

``lineup`` names one level per seat (e.g. ``strong, simple, simple, simple``).
Game ``g`` is seeded with ``seed`` and ``g`` and rotates the lineup by ``g`` seats,
so every level plays from every seat equally often (the first player has a small
edge). A game still running after ``turn_cap`` turns is ended as a host would:
the richest wins. Time-limited presets end at ``deadline_turn`` as in
:mod:`bot.engine.simulate`.
"""

from __future__ import annotations

import math
import time
from collections import defaultdict
from dataclasses import dataclass, field
from typing import Any

from bot.engine.computer import ComputerPlayer, make_player, next_action
from bot.engine.game import apply_action, new_game
from bot.engine.rules import Rules
from bot.engine.simulate import DEFAULT_DEADLINE_TURN

DEFAULT_TURN_CAP = 500
#: z for a 95 % confidence interval.
Z95 = 1.959964


def wilson_interval(wins: int, games: int, z: float = Z95) -> tuple[float, float]:
    """The Wilson score interval of a win rate (good also near 0 and 1)."""
    if games == 0:
        return (0.0, 1.0)
    rate = wins / games
    denominator = 1 + z * z / games
    centre = (rate + z * z / (2 * games)) / denominator
    spread = z * math.sqrt(rate * (1 - rate) / games + z * z / (4 * games * games)) / denominator
    return (max(0.0, centre - spread), min(1.0, centre + spread))


@dataclass
class LevelResult:
    """How one level did over the tournament (all its seats together)."""

    seats_played: int = 0
    wins: int = 0
    decisions: list[float] = field(default_factory=list)

    def to_dict(self) -> dict[str, Any]:
        """Win rate with its 95 % interval, and decision times in milliseconds."""
        low, high = wilson_interval(self.wins, self.seats_played)
        times = sorted(self.decisions)

        def quantile(q: float) -> float:
            return round(times[min(len(times) - 1, int(q * len(times)))] * 1000, 3) if times else 0

        return {
            "seats_played": self.seats_played,
            "wins": self.wins,
            "win_rate": round(self.wins / self.seats_played, 4) if self.seats_played else 0.0,
            "ci95": [round(low, 4), round(high, 4)],
            "decision_ms": {"p50": quantile(0.5), "p99": quantile(0.99), "max": quantile(1.0)},
        }


@dataclass
class TournamentResult:
    """Totals of a tournament."""

    games: int = 0
    turns: int = 0
    capped: int = 0
    levels: dict[str, LevelResult] = field(default_factory=lambda: defaultdict(LevelResult))

    def merge(self, other: TournamentResult) -> None:
        """Add the games of ``other`` (another process's share) to these totals."""
        self.games += other.games
        self.turns += other.turns
        self.capped += other.capped
        for name, level in other.levels.items():
            mine = self.levels[name]
            mine.seats_played += level.seats_played
            mine.wins += level.wins
            mine.decisions.extend(level.decisions)

    def to_dict(self) -> dict[str, Any]:
        """The result as ``monopoly-bot tournament --json`` prints it."""
        return {
            "games": self.games,
            "mean_turns": round(self.turns / self.games, 1) if self.games else 0.0,
            "ended_at_turn_cap": self.capped,
            "levels": {name: result.to_dict() for name, result in sorted(self.levels.items())},
        }


def play_one(
    lineup: list[str],
    seed: int,
    rules: Rules,
    result: TournamentResult,
    *,
    turn_cap: int = DEFAULT_TURN_CAP,
    deadline_turn: int = DEFAULT_DEADLINE_TURN,
) -> None:
    """Play one game with ``lineup`` (a level per seat) and add it to ``result``."""
    seats = [(f"p{i}", f"{level} {i + 1}") for i, level in enumerate(lineup)]
    state = new_game(seats, seed=seed, rules=rules)
    players: dict[int, ComputerPlayer] = {i: make_player(level) for i, level in enumerate(lineup)}
    decisions: dict[int, list[float]] = defaultdict(list)
    deadline = deadline_turn if rules.end_at_deadline else None
    while state.phase != "over":
        if state.turn > turn_cap:
            apply_action(state, {"type": "end_game", "mode": "wealth"})
            result.capped += 1
            break
        if deadline is not None and state.turn >= deadline and not state.time_up:
            apply_action(state, {"type": "time_up"})
            continue
        started = time.perf_counter()
        action = next_action(state, players)
        elapsed = time.perf_counter() - started
        assert action is not None, "every seat is a computer player"
        decisions[action["player"]].append(elapsed)
        apply_action(state, action)
    result.games += 1
    result.turns += state.turn
    for seat, level in enumerate(lineup):
        entry = result.levels[level]
        entry.seats_played += 1
        entry.wins += int(state.winner == seat)
        entry.decisions.extend(decisions[seat])


def tournament(
    lineup: list[str],
    games: int,
    seed: int,
    *,
    rules: Rules | None = None,
    turn_cap: int = DEFAULT_TURN_CAP,
    jobs: int = 1,
) -> TournamentResult:
    """Play ``games`` seeded games of ``lineup``, rotating seats; the totals.

    ``jobs`` > 1 plays the games in that many processes (one core each); the totals are
    the same as in one process, as every game is seeded on its own.
    """
    rules = rules or Rules.from_preset("classic")
    if jobs <= 1 or games < 2:
        return _play_games(lineup, range(games), seed, rules, turn_cap)
    from concurrent.futures import ProcessPoolExecutor

    chunks = [range(start, games, jobs) for start in range(jobs)]
    result = TournamentResult()
    with ProcessPoolExecutor(max_workers=jobs) as pool:
        parts = pool.map(
            _play_games,
            [lineup] * jobs,
            chunks,
            [seed] * jobs,
            [rules] * jobs,
            [turn_cap] * jobs,
        )
        for part in parts:
            result.merge(part)
    return result


def _play_games(
    lineup: list[str], numbers: range, seed: int, rules: Rules, turn_cap: int
) -> TournamentResult:
    """Play the games numbered ``numbers`` of a tournament (a process's share)."""
    result = TournamentResult()
    for game in numbers:
        shift = game % len(lineup)
        rotated = lineup[shift:] + lineup[:shift]
        play_one(rotated, seed * 1_000_003 + game, rules, result, turn_cap=turn_cap)
    return result
