"""Small marks of the turn's picture, drawn once per colour and size and cached.

A padlock (in jail), the arrows of a jump and of a step back, and the hatching of a
mortgaged lot. Drawn at four times their size and scaled down, like :mod:`render.sprites`,
for smooth edges. Players' badges are the shared ones of :mod:`render.badges`.
"""

from __future__ import annotations

from functools import lru_cache

from PIL import Image, ImageDraw, ImageOps

from render import badges
from render.assets import RGB
from render.sprites import SS


def badge_text_size(initial: str, diameter: int) -> float:
    """The size (px, as drawn) of the initials on a :func:`render.badges.player_badge`.

    Mirrors its rule (a share of the diameter, smaller for two letters, at four times
    the size), so the readability test sees the size players see.
    """
    share = 0.56 if len(initial.strip()) <= 1 else 0.42
    return round(diameter * badges.SS * share) / badges.SS


def _square_sprite(side: int, paint) -> Image.Image:  # noqa: ANN001 - a drawing callback
    big = Image.new("RGBA", (side * SS, side * SS), (0, 0, 0, 0))
    paint(ImageDraw.Draw(big), side * SS)
    return big.resize((side, side), Image.Resampling.LANCZOS)


@lru_cache(maxsize=32)
def padlock(size: int, colour: RGB) -> Image.Image:
    """A closed padlock (in jail), ``size`` pixels square."""

    def paint(draw: ImageDraw.ImageDraw, s: int) -> None:
        fill = (*colour, 255)
        width = max(SS, round(s * 0.11))
        draw.arc((s * 0.24, s * 0.04, s * 0.76, s * 0.62), 180, 360, fill=fill, width=width)
        draw.line((s * 0.24 + width / 2, s * 0.33, s * 0.24 + width / 2, s * 0.5), fill, width)
        draw.line((s * 0.76 - width / 2, s * 0.33, s * 0.76 - width / 2, s * 0.5), fill, width)
        draw.rounded_rectangle((s * 0.12, s * 0.42, s * 0.88, s * 0.98), s * 0.1, fill=fill)
        hole = (255, 255, 255, 230)
        draw.ellipse((s * 0.43, s * 0.56, s * 0.57, s * 0.70), fill=hole)
        draw.rectangle((s * 0.47, s * 0.64, s * 0.53, s * 0.84), fill=hole)

    return _square_sprite(size, paint)


@lru_cache(maxsize=32)
def curved_arrow(size: int, colour: RGB, backwards: bool) -> Image.Image:
    """An arc with its head pointing down at the right: over the squares between (a jump);
    mirrored (``backwards``), a card's step back."""

    def paint(draw: ImageDraw.ImageDraw, s: int) -> None:
        fill = (*colour, 255)
        width = max(SS, round(s * 0.11))
        # The upper half of an ellipse from the left edge to the head's position.
        draw.arc((s * 0.06, s * 0.22, s * 0.8, s * 1.1), 180, 360, fill=fill, width=width)
        tip_x = s * 0.8 - width / 2
        draw.polygon(
            [(tip_x, s * 0.98), (tip_x - s * 0.17, s * 0.62), (tip_x + s * 0.17, s * 0.62)],
            fill=fill,
        )

    sprite = _square_sprite(size, paint)
    return ImageOps.mirror(sprite) if backwards else sprite


@lru_cache(maxsize=16)
def hatch(width: int, height: int, step: int, line: int) -> Image.Image:
    """A mask of diagonal lines over ``width`` x ``height`` (a mortgaged lot)."""
    mask = Image.new("L", (width, height), 0)
    draw = ImageDraw.Draw(mask)
    for c in range(-height, width, step):
        draw.line((c, height, c + height, 0), fill=255, width=line)
    return mask
