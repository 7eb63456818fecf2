"""Deterministic game states for the board image tests and golden images.

Built with ``new_game`` and then set field by field (owners, houses, mortgages,
positions, jail), so they do not change when the simple players' strategy does.
"""

from __future__ import annotations

from collections.abc import Callable
from datetime import UTC, datetime
from typing import Any

from bot.engine.game import new_game
from bot.engine.rules import Rules
from bot.engine.state import HOTEL, GameState


def _game(names: list[str], board: str = "de_euro", seed: int = 7) -> GameState:
    rules = Rules.from_preset("classic", board=board)
    return new_game([(f"p{i}", name) for i, name in enumerate(names)], seed=seed, rules=rules)


def _build(state: GameState, square: int, owner: int, houses: int = 0) -> None:
    state.owner[square] = owner
    state.houses[square] = houses
    if houses == HOTEL:
        state.bank_hotels -= 1
    else:
        state.bank_houses -= houses


def empty_state() -> GameState:
    """A new game of four on the German board: everyone on LOS, nothing owned."""
    return _game(["Anna", "Bernd", "Clara", "Jörg"])


def mid_game_state() -> GameState:
    """Turn 37 on the German board: houses, a hotel, mortgages, one jailed, one visiting."""
    state = _game(["Anna", "Bernd", "Clara", "Jörg"])
    for square, houses in ((6, 3), (8, 3), (9, 2)):  # Anna: light blue with houses
        _build(state, square, 0, houses)
    for square, houses in ((16, HOTEL), (18, 4), (19, 4)):  # Bernd: orange, hotel
        _build(state, square, 1, houses)
    for square in (1, 3, 5, 15, 12):
        _build(state, square, 2)
    state.mortgaged[3] = state.mortgaged[15] = True  # Clara needed cash
    for square in (21, 24, 25, 28, 37):
        _build(state, square, 3)
    state.mortgaged[37] = True
    positions = {0: 24, 1: 10, 2: 19, 3: 10}
    for seat, square in positions.items():
        state.players[seat].position = square
    state.players[3].in_jail = True
    state.players[3].jail_turns = 1
    cash = {0: 412, 1: 1085, 2: 96, 3: 730}
    for seat, amount in cash.items():
        state.players[seat].cash = amount
    state.current = 0
    state.turn = 37
    state.phase = "end"
    state.last_dice = [3, 2]
    return state


def late_game_state() -> GameState:
    """Turn 143 on the US board with six players: two bankrupt, hotels, a crowded square."""
    state = _game(
        ["Maximilian-Alexander von Hohenzollern", "Ben", "Chloé", "Dmitri 🎲", "Eve", "Bea"],
        board="us_classic",
        seed=11,
    )
    state.players[4].bankrupt = True
    state.players[5].bankrupt = True
    for square in (1, 3):
        _build(state, square, 0, HOTEL)
    for square in (6, 8, 9):
        _build(state, square, 1, 4)
    for square in (11, 13, 14):
        _build(state, square, 2, HOTEL)
    for square in (16, 18, 19):
        _build(state, square, 3, 3)
    for square in (21, 23, 24):
        _build(state, square, 0, 2)
    for square in (26, 27, 29, 31, 32, 34, 37, 39):
        _build(state, square, 1 + square % 3)
    for square in (26, 32, 34, 39):
        state.mortgaged[square] = True
    for square in (5, 15, 25, 35, 12, 28):
        _build(state, square, square % 4)
    state.mortgaged[28] = True
    for seat, square in {0: 27, 1: 27, 2: 27, 3: 10}.items():
        state.players[seat].position = square
    for seat, amount in {0: 2875, 1: 64, 2: 1310, 3: 455}.items():
        state.players[seat].cash = amount
    for seat in (4, 5):
        state.players[seat].cash = 0
    state.current = 1
    state.turn = 143
    state.phase = "roll"
    state.last_dice = [6, 6]
    return state


def crowded_state() -> GameState:
    """Ten players (the most a game allows), everyone still on GO."""
    names = ["Anna", "Andreas", "Bea", "Bernd", "Clara", "Chris", "Dana", "Emil", "Fritz", "Gül"]
    return _game(names)


STATES = {
    "empty": empty_state,
    "mid_game": mid_game_state,
    "late_game": late_game_state,
    "crowded": crowded_state,
}


# Golden images: name -> (what to draw, state builder, options). Shared by the tests
# and by make_golden.py, which writes tests/render/golden/<name>.png.
DEADLINE = datetime(2025, 3, 14, 18, 0, tzinfo=UTC)
GOLDEN_CASES: dict[str, tuple[str, Callable[[], GameState], dict[str, Any]]] = {
    "board_empty_light_de": ("board", empty_state, {}),
    "board_mid_game_light_de": (
        "board",
        mid_game_state,
        {"highlight_move": (19, 24), "deadline": DEADLINE, "preset_label": "Klassisch (2001)"},
    ),
    "board_late_game_dark_en": (
        "board",
        late_game_state,
        {"theme": "dark", "lang": "en", "highlight_move": (20, 27)},
    ),
    "board_crowded_light_de": ("board", crowded_state, {}),
    "deed_street_mid_game_de": ("deed", mid_game_state, {"square": 6}),
    "compact_late_game_light_en": ("compact", late_game_state, {"lang": "en"}),
}


def render_case(name: str) -> bytes:
    """The PNG bytes of golden case ``name``, drawn by the current code."""
    from render.board import render_board
    from render.compact import render_compact
    from render.deed import render_deed

    kind, build, options = GOLDEN_CASES[name]
    state = build()
    if kind == "board":
        return render_board(state, **options)
    if kind == "deed":
        options = dict(options)
        return render_deed(state.board, options.pop("square"), state, **options)
    return render_compact(state, **options)
