"""How fast the board image renders: cold and warm cache, next to a bare PNG encode.

``monopoly-bot bench --render`` prints :meth:`RenderBench.line`. The state is a
mid-game position reached by the engine's simple players, so it has owners,
buildings and mortgages like a real game. With ``--recap`` it also prints
:meth:`RecapBench.line`: the end-of-game recap (computed from a whole game's record,
then drawn) next to the board image of the same game's end.
"""

from __future__ import annotations

import statistics
import time
from collections.abc import Callable
from dataclasses import dataclass
from io import BytesIO

from PIL import Image

from bot.engine.game import apply_action, new_game
from bot.engine.record import GameRecord
from bot.engine.rules import Rules
from bot.engine.simple_players import SimplePlayer, next_simple_action
from bot.engine.simulate import SimulationResult, play_game
from bot.engine.state import GameState
from bot.recap import board_recap
from render.board import DEFAULT_SIZE, _draw_full, clear_cache, render_board
from render.compact import render_compact
from render.png import encode_png, limit_colours
from render.recap import DEFAULT_WIDTH, RecapTexts, render_board_recap

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
    """Median times in milliseconds and the PNG sizes of one board image."""

    size: int
    repeats: int
    turn: int
    players: int
    cold_ms: float
    warm_ms: float
    limit_ms: float  # limit_colours: the drawing's last step, to at most 256 colours
    encode_ms: float  # encode_png of the finished picture: an exact palette PNG
    rgb_encode_ms: float  # a lossless RGB PNG of the full-colour picture, for reference
    png_bytes: int  # what render_board returns
    rgb_png_bytes: int  # the lossless RGB PNG of the full-colour picture
    compact_bytes: int  # render_compact of the same state

    def line(self) -> str:
        """One line for the command line."""
        return (
            f"monopoly-render: {self.size} px board, turn {self.turn}, {self.players} players, "
            f"median of {self.repeats}: cold {self.cold_ms:.0f} ms, warm {self.warm_ms:.0f} ms "
            f"(of which colour limit {self.limit_ms:.0f} ms + PNG encode "
            f"{self.encode_ms:.0f} ms; plain RGB PNG {self.rgb_encode_ms:.0f} ms); "
            f"PNG {self.png_bytes / 1024:.0f} KB (RGB {self.rgb_png_bytes / 1024:.0f} KB), "
            f"compact board {self.compact_bytes / 1024:.0f} KB"
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
    loaded, as in a running bot); warm renders again with everything cached. Of the
    warm render, the colour limit (:func:`limit_colours`) and the PNG encoding
    (:func:`encode_png` of the limited picture, the renderer's own encoder) are timed
    apart, next to a plain lossless RGB PNG of the full-colour picture.
    """
    state = sample_state(players, seed, rules)
    move = (state.players[state.current].position - 7) % 40, state.players[state.current].position

    def render() -> bytes:
        return render_board(state, theme=theme, size=size, highlight_move=move)

    full = _draw_full(state, theme=theme, size=size, highlight_move=move)
    limited = limit_colours(full)
    cold, warm, limit, encode, rgb = [], [], [], [], []
    # Interleaved, so that a busy machine slows all five measures alike.
    for _ in range(repeats):
        clear_cache()
        cold.append(_ms(render))
        warm.append(_ms(render))
        limit.append(_ms(lambda: limit_colours(full)))
        encode.append(_ms(lambda: encode_png(limited)))
        rgb.append(_ms(lambda: encode_png(full, palette=False)))
    return RenderBench(
        size=size,
        repeats=repeats,
        turn=state.turn,
        players=players,
        cold_ms=statistics.median(cold),
        warm_ms=statistics.median(warm),
        limit_ms=statistics.median(limit),
        encode_ms=statistics.median(encode),
        rgb_encode_ms=statistics.median(rgb),
        png_bytes=len(render()),
        rgb_png_bytes=len(encode_png(full, palette=False)),
        compact_bytes=len(render_compact(state, theme=theme)),
    )


# -- the recap ------------------------------------------------------------------------------


def sample_record(
    players: int = 4, seed: int = 0, rules: Rules | None = None, turns: int = 1000
) -> tuple[GameRecord, GameState]:
    """A whole game of simple players (or its first ``turns`` turns): its record and end."""
    rules = rules or Rules.from_preset("classic")
    seats = [(f"p{i}", f"Player {i + 1}") for i in range(players)]
    state = new_game(seats, seed=seed, rules=rules)
    record = GameRecord.begin(state)
    bots = [SimplePlayer() for _ in range(players)]
    while state.phase != "over" and state.turn <= turns:
        action = next_simple_action(state, bots)
        assert action is not None
        record.add(action, apply_action(state, action))
    return record, state


# Words of about the length the bot puts on the image (the renderer draws given strings).
SAMPLE_TEXTS = RecapTexts(
    title="Net worth over the game",
    subtitle="Winner: Player 3 · 242 turns · 5 trades",
    x_label="Turn",
    y_label="Net worth",
    bankrupt_key="bankrupt",
    group_key="colour group completed (in its colour)",
    notes=(
        "bankrupt in turn 170",
        "bankrupt in turn 242",
        "winner · $9,120",
        "bankrupt in turn 197",
    ),
    moments_title="Moments",
    moments=(
        "Biggest rent: Player 2 paid Player 3 $1,700 for Boardwalk (turn 242)",
        "Most expensive purchase: Player 4 bought Boardwalk for $400 (turn 25)",
        "Most expensive auction: Player 2 won Park Place for $350 (turn 28)",
        "Longest stay in jail: Player 4, 3 turns (from turn 13)",
        "5 trades; the biggest: Player 1 gave Baltic Avenue + $200, Player 2 gave "
        "Mediterranean Avenue (turn 40)",
        "Built first: Player 2, a house on Mediterranean Avenue (turn 63)",
    ),
)


@dataclass(frozen=True)
class RecapBench:
    """Median times in milliseconds of the recap of one whole game, next to its board."""

    turns: int
    actions: int
    players: int
    repeats: int
    compute_ms: float  # bot.recap.board_recap: one replay of the record
    draw_ms: float  # render_board_recap: drawing and PNG encoding
    png_bytes: int
    width: int
    height: int
    board_cold_ms: float  # render_board of the game's last state, static layer not cached
    board_warm_ms: float

    @property
    def total_ms(self) -> float:
        """What the bot spends on the recap: compute and draw."""
        return self.compute_ms + self.draw_ms

    def line(self) -> str:
        """One line for the command line."""
        return (
            f"monopoly-recap: {self.turns}-turn game ({self.actions} actions), "
            f"{self.players} players, median of {self.repeats}: compute {self.compute_ms:.1f} ms "
            f"+ draw {self.draw_ms:.0f} ms = {self.total_ms:.0f} ms for a "
            f"{self.width}x{self.height} PNG of {self.png_bytes / 1024:.0f} KB; board image "
            f"cold {self.board_cold_ms:.0f} ms, warm {self.board_warm_ms:.0f} ms "
            f"(recap/warm board {self.total_ms / self.board_warm_ms:.2f})"
        )


def bench_recap(
    *,
    players: int = 4,
    seed: int = 0,
    rules: Rules | None = None,
    repeats: int = 15,
    width: int = DEFAULT_WIDTH,
    turns: int = 1000,
) -> RecapBench:
    """Time the recap of a whole game of simple players against its board image.

    Interleaved like :func:`bench_render`, so that a busy machine slows all alike.
    """
    record, state = sample_record(players, seed, rules, turns)

    def draw() -> bytes:
        return render_board_recap(recap, lang="en", texts=SAMPLE_TEXTS, width=width)

    def board() -> bytes:
        return render_board(state)

    recap = board_recap(record)
    png = draw()
    compute, drawing, cold, warm = [], [], [], []
    for _ in range(repeats):
        compute.append(_ms(lambda: board_recap(record)))
        drawing.append(_ms(draw))
        clear_cache()
        cold.append(_ms(board))
        warm.append(_ms(board))
    with Image.open(BytesIO(png)) as image:
        size = image.size
    return RecapBench(
        turns=recap.turns,
        actions=recap.actions,
        players=players,
        repeats=repeats,
        compute_ms=statistics.median(compute),
        draw_ms=statistics.median(drawing),
        png_bytes=len(png),
        width=size[0],
        height=size[1],
        board_cold_ms=statistics.median(cold),
        board_warm_ms=statistics.median(warm),
    )
