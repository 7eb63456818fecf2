"""Fitting the win model (:mod:`.winmodel`) on seeded games between computer players.

:func:`train` plays the games, samples every few turns the features of every seat still
in the game and who won in the end, fits the conditional logit model by Newton's method
and returns the model with the held-out games' log-likelihood and how often the
favourite won; ``monopoly-bot train-win-model`` writes it to
``bot/engine/data/win_model.json``. Deterministic for a seed: the same games, the same
weights.
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from typing import Any

from bot.engine.computer import ComputerPlayer, make_player, next_action
from bot.engine.computer.winmodel import FEATURES, features, utilities
from bot.engine.game import apply_action, new_game
from bot.engine.rules import Rules

#: A sample: the feature rows of the seats still in the game and the winner's index among them.
Sample = tuple[list[list[float]], int]
SAMPLE_EVERY = 4
TURN_CAP = 500
#: Tables the shipped model learnt from: the strong player's own, with weaker players, and
#: the expert's own (the model is refitted on the games its trades lead to).
LINEUPS = (
    "strong,strong,strong,strong",
    "strong,strong,simple,simple",
    "strong,simple,simple,simple",
    "simple,simple,simple,simple",
    "expert,strong,strong,strong",
    "expert,strong,simple,simple",
    "expert,simple,simple,simple",
)


def play_and_sample(lineup: Sequence[str], seed: int, rules: Rules) -> list[Sample]:
    """Play one game of ``lineup`` and return its sampled positions with the winner."""
    seats = [(f"p{i}", level) for i, level in enumerate(lineup)]
    state = new_game(seats, seed=seed, rules=rules)
    state.record_events = False
    players: dict[int, ComputerPlayer] = {i: make_player(level) for i, level in enumerate(lineup)}
    taken: list[list[list[float] | None]] = []
    sampled_turn = -1
    while state.phase != "over":
        if state.turn > TURN_CAP:
            apply_action(state, {"type": "end_game", "mode": "wealth"})
            break
        if state.phase == "roll" and state.turn != sampled_turn and state.turn % SAMPLE_EVERY == 0:
            sampled_turn = state.turn
            taken.append(features(state))
        action = next_action(state, players)
        assert action is not None
        apply_action(state, action)
    samples: list[Sample] = []
    for rows in taken:
        if rows[state.winner] is None:  # type: ignore[index]
            continue
        alive = [s for s, row in enumerate(rows) if row is not None]
        if len(alive) < 2:
            continue
        samples.append(([rows[s] for s in alive], alive.index(state.winner)))  # type: ignore[misc, arg-type]
    return samples


def _collect(lineup: Sequence[str], numbers: range, seed: int, rules: Rules) -> list[Sample]:
    samples: list[Sample] = []
    for game in numbers:
        shift = game % len(lineup)
        rotated = list(lineup[shift:]) + list(lineup[:shift])
        samples.extend(play_and_sample(rotated, seed * 1_000_003 + game, rules))
    return samples


def collect(
    lineup: Sequence[str], games: range, seed: int, rules: Rules, jobs: int = 1
) -> list[Sample]:
    """The samples of ``games`` (numbers) of ``lineup``, in ``jobs`` processes."""
    if jobs <= 1:
        return _collect(lineup, games, seed, rules)
    from concurrent.futures import ProcessPoolExecutor

    chunks = [games[start::jobs] for start in range(jobs)]
    with ProcessPoolExecutor(max_workers=jobs) as pool:
        parts = pool.map(_collect, [lineup] * jobs, chunks, [seed] * jobs, [rules] * jobs)
        return [sample for part in parts for sample in part]


def log_likelihood(samples: Sequence[Sample], w: Sequence[float]) -> float:
    """The mean log-probability the model gives the actual winner."""
    total = 0.0
    for rows, winner in samples:
        scores = [u for u in utilities(rows, w) if u is not None]  # every row is a seat in
        top = max(scores)
        norm = top + math.log(sum(math.exp(u - top) for u in scores))
        total += scores[winner] - norm
    return total / len(samples)


def favourite_won(samples: Sequence[Sample], w: Sequence[float]) -> float:
    """How often the seat the model rates highest went on to win."""
    hits = 0
    for rows, winner in samples:
        scores = utilities(rows, w)
        hits += int(max(range(len(scores)), key=scores.__getitem__) == winner)  # type: ignore[arg-type]
    return hits / len(samples)


def fit(samples: Sequence[Sample], iterations: int = 25, ridge: float = 1e-3) -> list[float]:
    """Maximum-likelihood weights of the conditional logit model (Newton's method)."""
    k = len(FEATURES)
    w = [0.0] * k
    for _ in range(iterations):
        gradient = [0.0] * k
        hessian = [[ridge * len(samples) if i == j else 0.0 for j in range(k)] for i in range(k)]
        for rows, winner in samples:
            scores = [sum(a * b for a, b in zip(w, row, strict=True)) for row in rows]
            top = max(scores)
            exp = [math.exp(u - top) for u in scores]
            total = sum(exp)
            p = [e / total for e in exp]
            mean = [sum(p[s] * rows[s][i] for s in range(len(rows))) for i in range(k)]
            for i in range(k):
                gradient[i] += rows[winner][i] - mean[i]
            for s, row in enumerate(rows):
                ps = p[s]
                for i in range(k):
                    di = row[i] - mean[i]
                    if di == 0.0:
                        continue
                    hi = hessian[i]
                    for j in range(i, k):
                        hi[j] += ps * di * (row[j] - mean[j])
        for i in range(k):
            gradient[i] -= ridge * len(samples) * w[i]
            for j in range(i):
                hessian[i][j] = hessian[j][i]
        step = _solve(hessian, gradient)
        w = [a + b for a, b in zip(w, step, strict=True)]
        if max(abs(s) for s in step) < 1e-6:
            break
    return w


def _solve(matrix: list[list[float]], vector: list[float]) -> list[float]:
    """Solve ``matrix · x = vector`` (Gaussian elimination with partial pivoting)."""
    n = len(vector)
    a = [row[:] + [vector[i]] for i, row in enumerate(matrix)]
    for col in range(n):
        pivot = max(range(col, n), key=lambda r: abs(a[r][col]))
        a[col], a[pivot] = a[pivot], a[col]
        for r in range(col + 1, n):
            factor = a[r][col] / a[col][col]
            for c in range(col, n + 1):
                a[r][c] -= factor * a[col][c]
    x = [0.0] * n
    for r in range(n - 1, -1, -1):
        x[r] = (a[r][n] - sum(a[r][c] * x[c] for c in range(r + 1, n))) / a[r][r]
    return x


def train(
    lineups: Sequence[Sequence[str]], games: int, seed: int, rules: Rules, jobs: int = 1
) -> dict[str, Any]:
    """Play ``games`` split evenly among ``lineups``, fit on four fifths of each lineup's
    games and judge the fit on the rest: the model as ``win_model.json`` holds it."""
    per_lineup = games // len(lineups)
    held_out = max(1, per_lineup // 5)
    train_set: list[Sample] = []
    test_set: list[Sample] = []
    for number, lineup in enumerate(lineups):
        lineup_seed = seed * 1009 + number
        train_set += collect(lineup, range(per_lineup - held_out), lineup_seed, rules, jobs)
        test_set += collect(
            lineup, range(per_lineup - held_out, per_lineup), lineup_seed, rules, jobs
        )
    w = fit(train_set)
    return {
        "features": list(FEATURES),
        "weights": [round(x, 6) for x in w],
        "trained_on": {
            "lineups": [",".join(lineup) for lineup in lineups],
            "preset": rules.preset,
            "games": (per_lineup - held_out) * len(lineups),
            "seed": seed,
            "samples": len(train_set),
            "sample_every_turns": SAMPLE_EVERY,
        },
        "held_out": {
            "games": held_out * len(lineups),
            "samples": len(test_set),
            "log_likelihood": round(log_likelihood(test_set, w), 4),
            "log_likelihood_uniform": round(
                sum(-math.log(len(rows)) for rows, _ in test_set) / len(test_set), 4
            ),
            "favourite_won": round(favourite_won(test_set, w), 4),
        },
    }
