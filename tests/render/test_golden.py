"""Golden images: the pictures match the reviewed ones in tests/render/golden/.

The comparison tolerates what differs between machines (font hinting and rasterising
move glyph edges by a pixel) but not a missing or moved token, house, band or text:
the mean absolute difference must stay tiny, and so must every 8 x 8 block's average,
where a pixel-wide shift of an edge averages out but a missing object does not.
"""

from __future__ import annotations

from io import BytesIO
from pathlib import Path

import pytest
from PIL import Image, ImageChops, ImageStat

from tests.render.states import GOLDEN_CASES, render_case

GOLDEN_DIR = Path(__file__).resolve().parent / "golden"
MEAN_LIMIT = 3.0  # mean absolute difference per channel, 0..255
BLOCK = 8
BLOCK_LIMIT = 48  # largest difference of an 8 x 8 block's average, 0..255


def _rgb(data: bytes) -> Image.Image:
    return Image.open(BytesIO(data)).convert("RGB")


def compare(actual: Image.Image, expected: Image.Image) -> tuple[float, int]:
    """Mean absolute difference and the largest block-average difference."""
    assert actual.size == expected.size
    diff = ImageChops.difference(actual, expected)
    mean = max(ImageStat.Stat(diff).mean)
    small = (actual.width // BLOCK, actual.height // BLOCK)
    a = actual.resize(small, Image.Resampling.BOX)
    e = expected.resize(small, Image.Resampling.BOX)
    block = max(high for _, high in ImageChops.difference(a, e).getextrema())
    return mean, block


@pytest.mark.parametrize("name", sorted(GOLDEN_CASES))
def test_matches_golden_image(name: str) -> None:
    path = GOLDEN_DIR / f"{name}.png"
    assert path.exists(), f"missing {path}: run python -m tests.render.make_golden {name}"
    actual = _rgb(render_case(name))
    expected = _rgb(path.read_bytes())
    assert actual.size == expected.size
    mean, block = compare(actual, expected)
    assert mean < MEAN_LIMIT and block < BLOCK_LIMIT, (
        f"{name} differs from its golden image (mean {mean:.2f}, block {block}); "
        "if the change is intended, look at the new image and run "
        f"python -m tests.render.make_golden {name}"
    )


def test_comparison_catches_small_changes() -> None:
    """The tolerance is loose for hinting but sees a token move, a house go, cash change."""
    from render.board import draw_board
    from tests.render.states import mid_game_state

    reference = draw_board(mid_game_state())
    changes = {
        "token moved": lambda s: setattr(s.players[0], "position", 25),
        "house sold": lambda s: s.houses.__setitem__(6, 2),
        "cash changed": lambda s: setattr(s.players[1], "cash", s.players[1].cash + 10),
    }
    for what, change in changes.items():
        state = mid_game_state()
        change(state)
        mean, block = compare(reference, draw_board(state))
        assert block >= BLOCK_LIMIT, what


def test_comparison_tolerates_edges_moved_by_a_pixel() -> None:
    """Shifting the whole picture by a pixel (worse than any hinting change) stays under
    the block limit; only the mean, which measures widespread change, would object."""
    from render.board import draw_board
    from tests.render.states import mid_game_state

    image = draw_board(mid_game_state())
    for dx, dy in ((1, 0), (0, 1)):
        _, block = compare(image, ImageChops.offset(image, dx, dy))
        assert block < BLOCK_LIMIT
