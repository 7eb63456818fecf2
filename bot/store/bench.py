"""Measure the store: how long one applied action takes on a file database.

Games are driven by the engine's simple players
(:func:`bot.engine.simple_players.next_simple_action`, re-exported here for the
store's tests and crash child).
"""

from __future__ import annotations

import random
import statistics
import time
from os import PathLike
from typing import Any

from bot.engine.game import new_game
from bot.engine.rules import Rules
from bot.engine.simple_players import next_simple_action
from bot.engine.state import GameState
from bot.store.sqlite import SqliteGameStore

BENCH_GUILD = 1
__all__ = ["bench_store", "next_simple_action"]


def _percentile(sorted_values: list[float], fraction: float) -> float:
    """The nearest-rank percentile of already sorted values."""
    rank = max(0, min(len(sorted_values) - 1, round(fraction * len(sorted_values)) - 1))
    return sorted_values[rank]


async def bench_store(
    path: str | PathLike[str],
    games: int = 1000,
    actions: int = 2000,
    seed: int = 0,
    *,
    players: int = 4,
    warmup_actions: int = 8,
    synchronous: str = "NORMAL",
    rules: Rules | None = None,
) -> dict[str, Any]:
    """Time ``actions`` single applies on random games of a file with ``games`` games.

    The file at ``path`` gets ``games`` new games of ``players`` players (``rules``,
    default classic), each advanced by up to ``warmup_actions`` actions; then
    ``actions`` applies on randomly chosen games are timed one by one (the whole
    :meth:`SqliteGameStore.apply`, including the commit). Returns the figures in
    milliseconds and the cache's hit rate during the timed applies.
    """
    rng = random.Random(seed)
    seats = [(f"p{i}", f"Player {i + 1}") for i in range(players)]
    store = SqliteGameStore(path, synchronous=synchronous)
    await store.open()
    try:
        states: dict[int, GameState] = {}
        for number in range(games):
            state = new_game(seats, seed=seed * 1_000_003 + number, rules=rules)
            row = await store.create_game(BENCH_GUILD, 10_000 + number, state, created_by=1)
            states[row.id] = state
            for _ in range(rng.randrange(warmup_actions + 1)):
                action = next_simple_action(states[row.id])
                if action is None:
                    break
                states[row.id] = (await store.apply(row.id, action)).state
        ids = list(states)
        store.cache.hits = store.cache.misses = 0
        timings: list[float] = []
        while len(timings) < actions and ids:
            game_id = rng.choice(ids)
            state = states[game_id]
            action = next_simple_action(state)
            if action is None:
                ids.remove(game_id)
                continue
            started = time.perf_counter()
            result = await store.apply(game_id, action, expected_seq=state.seq)
            timings.append(time.perf_counter() - started)
            states[game_id] = result.state
        cache = store.cache
        hit_rate = cache.hits / max(1, cache.hits + cache.misses)
    finally:
        await store.close()
    timings.sort()
    return {
        "games": games,
        "actions": len(timings),
        "median_ms": statistics.median(timings) * 1000 if timings else 0.0,
        "p99_ms": _percentile(timings, 0.99) * 1000 if timings else 0.0,
        "mean_ms": statistics.fmean(timings) * 1000 if timings else 0.0,
        "max_ms": timings[-1] * 1000 if timings else 0.0,
        "cache_hit_rate": hit_rate,
        "synchronous": synchronous,
    }
