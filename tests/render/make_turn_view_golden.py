"""Write the golden images of the turn's picture (tests/render/golden/turn_view_*.png).

Run after an intended change to the picture, look at every image, then commit them:

    python -m tests.render.make_turn_view_golden            # all cases
    python -m tests.render.make_turn_view_golden NAME ...   # some cases

The cases live here, and tests/render/test_turn_view.py compares against them.
"""

from __future__ import annotations

import sys
from collections.abc import Callable
from pathlib import Path
from typing import Any

if __package__ in (None, ""):  # run as a file: make the repository importable
    sys.path.insert(0, str(Path(__file__).resolve().parents[2]))

from bot.engine.state import GameState  # noqa: E402
from render.turn_view import TurnFocus, render_turn_view  # noqa: E402
from tests.render.make_golden import write_golden  # noqa: E402
from tests.render.states import late_game_state, mid_game_state  # noqa: E402


def _mid_game_rent() -> GameState:
    """Anna walks from Poststraße past the jail onto Bernd's hotel in Münchner Straße."""
    state = mid_game_state()
    state.players[0].position = 16
    return state


# name -> (state builder, focus, options)
CASES: dict[str, tuple[Callable[[], GameState], TurnFocus, dict[str, Any]]] = {
    "turn_view_mid_game_light_de": (
        _mid_game_rent,
        TurnFocus(mover=0, turn=37, start=9, moves=((9, 16, "forward"),), dice=((4, 3),)),
        {},
    ),
    "turn_view_late_game_dark_en": (
        late_game_state,
        TurnFocus(mover=1, turn=143, start=20, moves=((20, 27, "forward"),), dice=((6, 1),)),
        {"theme": "dark", "lang": "en"},
    ),
}


def render_case(name: str) -> bytes:
    """The PNG bytes of golden case ``name``, drawn by the current code."""
    build, focus, options = CASES[name]
    return render_turn_view(build(), focus, **options)


def main(names: list[str]) -> int:
    """Render the named cases (all if none) into the golden folder."""
    return write_golden(names, CASES, render_case)


if __name__ == "__main__":
    raise SystemExit(main(sys.argv[1:]))
