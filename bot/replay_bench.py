"""``monopoly-bot bench --viewer``: what one step of the replay viewer costs.

A whole game of simple players is recorded; the viewer is opened on it (the record replayed
once into a timeline, :class:`~bot.replay_cache.ReplayCache`) and then stepped the way a
player browses: +1 turns, +10 turns, −1 and −10, and jumps to turns far apart (a fresh
viewer, or a game whose snapshots were pushed out of the cache). Each step is the frame
(replayed from the nearest snapshot) plus its board image at the viewer's size, and is set
against one board image of the turn message (1400 px, warm), the time the issue allows.
"""

from __future__ import annotations

import random
import statistics
import time
from collections.abc import Callable
from dataclasses import dataclass

from bot.engine.rules import Rules
from bot.replay_cache import VIEWER_SIZE, ReplayCache
from render.bench import sample_record
from render.board import render_board


@dataclass(frozen=True)
class ViewerBench:
    """Medians (and the slowest) in milliseconds; ``turns`` of the game stepped through."""

    turns: int
    actions: int
    players: int
    steps: int
    open_ms: float
    frame_ms: float
    step_ms: float
    slowest_step_ms: float
    jump_ms: float
    board_ms: float

    def line(self) -> str:
        """One line for the command line."""
        return (
            f"monopoly-viewer: {self.turns}-turn game ({self.actions} actions), "
            f"{self.players} players: open {self.open_ms:.0f} ms (replays the record once); "
            f"median of {self.steps} steps {self.step_ms:.0f} ms (frame {self.frame_ms:.1f} ms "
            f"+ {VIEWER_SIZE} px board), slowest {self.slowest_step_ms:.0f} ms, a jump far "
            f"away {self.jump_ms:.0f} ms; one 1400 px board {self.board_ms:.0f} ms "
            f"(step/board {self.step_ms / self.board_ms:.2f})"
        )


def _ms(action: Callable[[], object]) -> float:
    started = time.perf_counter()
    action()
    return (time.perf_counter() - started) * 1000


def browse_path(first: int, last: int, seed: int) -> list[int]:
    """The turns a player steps to: +1 a few times, +10 to the end, −10 and −1 back,
    then random far jumps; every turn within ``first``..``last``."""
    path = [min(first + n, last) for n in range(1, 6)]
    while path[-1] + 10 <= last:
        path.append(path[-1] + 10)
    while path[-1] - 10 >= first:
        path.append(path[-1] - 10)
    path += [max(first, path[-1] - n) for n in range(1, 4)]
    generator = random.Random(seed)
    path += [generator.randint(first, last) for _ in range(10)]
    return path


def bench_viewer(
    *, players: int = 4, seed: int = 0, rules: Rules | None = None, turns: int = 1000
) -> ViewerBench:
    """Step the viewer through a whole game of simple players (see the module docstring)."""
    record, end = sample_record(players, seed, rules, turns)
    cache = ReplayCache()
    opened = _ms(lambda: cache.turns("bench", record))
    first, last = cache.turns("bench")
    render_board(end, size=VIEWER_SIZE)  # a running bot has drawn boards before: warm
    frames, steps = [], []
    for number in browse_path(first, last, seed):
        started = time.perf_counter()
        frame = cache.frame("bench", number)
        frames.append((time.perf_counter() - started) * 1000)
        render_board(frame.state, size=VIEWER_SIZE)  # type: ignore[arg-type]
        steps.append((time.perf_counter() - started) * 1000)
    jumps = []
    for number in browse_path(first, last, seed + 1)[-10:]:
        cold = ReplayCache()  # a viewer opened on a game no longer in the cache
        cold.turns("bench", record)
        started = time.perf_counter()
        render_board(cold.frame("bench", number).state, size=VIEWER_SIZE)  # type: ignore[arg-type]
        jumps.append((time.perf_counter() - started) * 1000)
    render_board(end)
    board = statistics.median(_ms(lambda: render_board(end)) for _ in range(9))
    return ViewerBench(
        turns=last,
        actions=len(record.actions),
        players=players,
        steps=len(steps),
        open_ms=opened,
        frame_ms=statistics.median(frames),
        step_ms=statistics.median(steps),
        slowest_step_ms=max(steps),
        jump_ms=statistics.median(jumps),
        board_ms=board,
    )
