"""How fast the board image renders: cold and warm cache, next to a bare PNG encode.

``monopoly-bot bench --render`` prints :meth:`RenderBench.line`. The state is a
mid-game position reached by the engine's simple players, so it has owners,
buildings and mortgages like a real game.
"""

from __future__ import annotations

import statistics
import time
from collections.abc import Callable
from dataclasses import dataclass

from bot.engine.game import new_game
from bot.engine.rules import Rules
from bot.engine.simple_players import SimplePlayer
from bot.engine.simulate import SimulationResult, play_game
from bot.engine.state import GameState
from render.board import DEFAULT_SIZE, clear_cache, draw_board, render_board
from render.png import encode_png

MID_GAME_TURN = 100


def sample_state(
    players: int = 4, seed: int = 0, rules: Rules | None = None, turns: int = MID_GAME_TURN
) -> GameState:
    """A game played by simple players up to turn ``turns`` (or its end, if sooner)."""
    rules = rules or Rules.from_preset("classic")
    seats = [(f"p{i}", f"Player {i + 1}") for i in range(players)]
    state = new_game(seats, seed=seed, rules=rules)
    play_game(state, [SimplePlayer() for _ in range(players)], SimulationResult(), turns)
    return state


@dataclass(frozen=True)
class RenderBench:
    """Median times in milliseconds and the PNG size of one board image."""

    size: int
    repeats: int
    turn: int
    players: int
    cold_ms: float
    warm_ms: float
    encode_ms: float  # encode_png of the finished image (palette + zlib), as the renderer does
    rgb_encode_ms: float  # a plain RGB PNG of the same image, for reference
    png_bytes: int

    def line(self) -> str:
        """One line for the command line."""
        return (
            f"monopoly-render: {self.size} px board, turn {self.turn}, {self.players} players, "
            f"median of {self.repeats}: cold {self.cold_ms:.0f} ms, warm {self.warm_ms:.0f} ms, "
            f"bare PNG encode {self.encode_ms:.0f} ms "
            f"(warm/encode {self.warm_ms / self.encode_ms:.2f}; "
            f"plain RGB PNG {self.rgb_encode_ms:.0f} ms); PNG {self.png_bytes / 1024:.0f} KB"
        )


def _ms(action: Callable[[], object]) -> float:
    started = time.perf_counter()
    action()
    return (time.perf_counter() - started) * 1000


def bench_render(
    *,
    players: int = 4,
    seed: int = 0,
    rules: Rules | None = None,
    size: int = DEFAULT_SIZE,
    repeats: int = 15,
    theme: str = "light",
) -> RenderBench:
    """Time ``render_board`` on a mid-game state with a cold and a warm static layer.

    Cold clears the static layer and sprite caches before the render (fonts stay
    loaded, as in a running bot); warm renders again with everything cached. The bare
    encode is :func:`encode_png` of the same finished image, the renderer's own encoder.
    """
    state = sample_state(players, seed, rules)
    move = (state.players[state.current].position - 7) % 40, state.players[state.current].position

    def render() -> bytes:
        return render_board(state, theme=theme, size=size, highlight_move=move)

    image = draw_board(state, theme=theme, size=size, highlight_move=move)
    cold, warm, encode, rgb = [], [], [], []
    # Interleaved, so that a busy machine slows all four measures alike.
    for _ in range(repeats):
        clear_cache()
        cold.append(_ms(render))
        warm.append(_ms(render))
        encode.append(_ms(lambda: encode_png(image)))
        rgb.append(_ms(lambda: encode_png(image, palette=False)))
    return RenderBench(
        size=size,
        repeats=repeats,
        turn=state.turn,
        players=players,
        cold_ms=statistics.median(cold),
        warm_ms=statistics.median(warm),
        encode_ms=statistics.median(encode),
        rgb_encode_ms=statistics.median(rgb),
        png_bytes=len(render()),
    )
