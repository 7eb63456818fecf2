"""PNG encoding: exactly the drawn pixels, as a palette PNG wherever 256 colours suffice."""

from __future__ import annotations

import random
from io import BytesIO

import pytest
from PIL import Image, ImageDraw

from render.board import draw_board, render_board
from render.compact import draw_compact, render_compact
from render.png import encode_png, limit_colours
from tests.render.states import crowded_state, late_game_state, mid_game_state


def _decode(data: bytes) -> Image.Image:
    assert data.startswith(b"\x89PNG\r\n\x1a\n")
    image = Image.open(BytesIO(data))
    image.load()
    return image


def _random_image(colours: list[tuple[int, ...]], mode: str, size: int = 64) -> Image.Image:
    rng = random.Random(len(colours))
    image = Image.new(mode, (size, size))
    image.putdata([rng.choice(colours) for _ in range(size * size)])
    return image


def _near_duplicates(count: int) -> list[tuple[int, int, int]]:
    """Colours that differ in the lowest bits only: they share Pillow's palette cache cells."""
    rng = random.Random(count)
    base = [(rng.randrange(256), rng.randrange(256), rng.randrange(256)) for _ in range(count // 4)]
    out = {(min(255, r + k), g, max(0, b - k)) for r, g, b in base for k in range(4)}
    return sorted(out)[:count]


@pytest.mark.parametrize("count", [1, 2, 15, 16, 17, 200, 256])
def test_few_colours_become_an_exact_palette_png(count: int) -> None:
    rng = random.Random(count)
    colours = [(rng.randrange(256), rng.randrange(256), rng.randrange(256)) for _ in range(count)]
    image = _random_image(colours, "RGB")
    decoded = _decode(encode_png(image))
    assert decoded.mode == "P"
    assert decoded.convert("RGB").tobytes() == image.tobytes()


def test_near_identical_colours_stay_exact() -> None:
    """Colours one step apart collide in Pillow's mapping cache: still exact."""
    image = _random_image(_near_duplicates(240), "RGB")
    decoded = _decode(encode_png(image))
    assert decoded.mode == "P"
    assert decoded.convert("RGB").tobytes() == image.tobytes()


def test_transparency_is_kept_exactly() -> None:
    rng = random.Random(1)
    rgba = [
        (rng.randrange(256), rng.randrange(256), rng.randrange(256), a) for a in range(0, 256, 4)
    ]
    image = _random_image(rgba, "RGBA")
    decoded = _decode(encode_png(image))
    assert decoded.mode == "P"  # with a tRNS chunk
    assert decoded.convert("RGBA").tobytes() == image.tobytes()
    # One colour with two alphas cannot be a palette entry: stored as RGBA, still exact.
    image = _random_image([(10, 20, 30, 255), (10, 20, 30, 0), (200, 0, 0, 128)], "RGBA")
    decoded = _decode(encode_png(image))
    assert decoded.convert("RGBA").tobytes() == image.tobytes()
    # Opaque RGBA is stored as a palette of its colours.
    image = _random_image([(1, 2, 3, 255), (4, 5, 6, 255)], "RGBA")
    decoded = _decode(encode_png(image))
    assert decoded.mode == "P" and decoded.convert("RGBA").tobytes() == image.tobytes()


def test_grey_and_palette_images_are_stored_as_they_are() -> None:
    grey = Image.linear_gradient("L").resize((64, 64))
    assert _decode(encode_png(grey)).tobytes() == grey.tobytes()
    indexed = _random_image([(1, 2, 3), (250, 0, 9)], "RGB").quantize(2)
    decoded = _decode(encode_png(indexed))
    assert decoded.convert("RGB").tobytes() == indexed.convert("RGB").tobytes()


def test_many_colours_lossless_without_palette() -> None:
    image = Image.radial_gradient("L").resize((128, 128)).convert("RGB")
    image = Image.merge(
        "RGB",
        (image.getchannel(0), Image.linear_gradient("L").resize((128, 128)), image.getchannel(2)),
    )
    assert image.getcolors(256) is None
    decoded = _decode(encode_png(image, palette=False))
    assert decoded.mode == "RGB" and decoded.tobytes() == image.tobytes()


def test_limit_colours_keeps_flat_colours_exact() -> None:
    """Large fills keep their exact colour; only rare edge colours move, and not far."""
    image = Image.new("RGB", (400, 300), (255, 253, 246))
    draw = ImageDraw.Draw(image)
    fills = [(96, 16, 200), (48, 120, 104), (0, 0, 24), (221, 42, 47), (255, 255, 255)]
    for k, colour in enumerate(fills):
        draw.rectangle((10 + 75 * k, 10, 70 + 75 * k, 120), fill=colour)
    # Soft edges: a smooth ramp of a few thousand colours under the fills.
    ramp = Image.linear_gradient("L").resize((400, 150))
    image.paste(
        Image.merge("RGB", (ramp, ramp.rotate(90).resize((400, 150)), ramp.transpose(0))), (0, 150)
    )
    assert image.getcolors(256) is None
    limited = limit_colours(image)
    assert limited.mode == "P" and len(limited.getcolors(256) or []) <= 256
    out = limited.convert("RGB")
    for k, colour in enumerate(fills):
        assert out.getpixel((40 + 75 * k, 60)) == colour
    assert out.getpixel((5, 5)) == (255, 253, 246)
    worst = max(
        max(abs(a - b) for a, b in zip(p, q, strict=True))
        for p, q in zip(
            image.crop((0, 150, 400, 300)).get_flattened_data(),
            out.crop((0, 150, 400, 300)).get_flattened_data(),
            strict=True,
        )
    )
    assert worst <= 40
    # Already few colours: the very same pixels.
    small = _random_image(_near_duplicates(100), "RGB")
    assert limit_colours(small).convert("RGB").tobytes() == small.tobytes()


@pytest.mark.parametrize(
    ("build", "options"),
    [
        (mid_game_state, {"highlight_move": (19, 24)}),
        (late_game_state, {"theme": "dark", "lang": "en", "highlight_move": (20, 27)}),
        (crowded_state, {}),
    ],
    ids=["mid", "late-dark", "crowded"],
)
def test_board_png_has_exactly_the_drawn_pixels(build, options) -> None:  # noqa: ANN001
    state = build()
    decoded = _decode(render_board(state, **options))
    assert decoded.mode == "P"
    assert decoded.convert("RGB").tobytes() == draw_board(build(), **options).tobytes()


def test_compact_png_has_exactly_the_drawn_pixels() -> None:
    decoded = _decode(render_compact(late_game_state(), lang="en"))
    assert decoded.mode == "P"
    assert decoded.convert("RGB").tobytes() == draw_compact(late_game_state(), lang="en").tobytes()


def test_a_drawn_board_encodes_to_the_same_pixels_again() -> None:
    """The RGB picture ``draw_board`` returns goes through ``encode_png`` unchanged (the
    exact palette path, not a second colour limit)."""
    image = draw_board(late_game_state())
    assert image.getcolors(256) is not None
    assert _decode(encode_png(image)).convert("RGB").tobytes() == image.tobytes()
