"""Shapes with smooth edges: the players' tokens and the markers of bankruptcy and groups.

Pillow draws shapes without anti-aliasing, so they are drawn larger and scaled down
(:func:`_smooth`).
"""

from __future__ import annotations

from collections.abc import Callable

from PIL import Image, ImageDraw

from render import sprites
from render.assets import RGB, font
from render.recap.sizes import SUPERSAMPLE, Box
from render.text import ellipsize

#: Draws with smooth edges: ``paint(draw, at, ss)`` (see :func:`_smooth`).
Painter = Callable[[ImageDraw.ImageDraw, Callable[[float, float], tuple[float, float]], int], None]


def _smooth(image: Image.Image, box: Box, paint: Painter, *, background: RGB | None = None) -> None:
    """Let ``paint`` draw into ``box`` of ``image`` with smooth edges.

    Pillow draws shapes without anti-aliasing, so ``paint(draw, at, ss)`` draws at
    ``ss`` (:data:`SUPERSAMPLE`) times the size, ``at(x, y)`` mapping image pixels to
    the large ones, which are then averaged back and pasted over the box. The large
    picture starts as plain ``background`` (the box must be that colour and empty), or
    else as the box's own pixels enlarged without smoothing (so they come back
    unchanged). Either is several times cheaper than a transparent layer, and cheaper
    than the board's 4x token sprites when those are not cached.
    """
    ss = SUPERSAMPLE
    x0, y0, x1, y1 = box
    size = ((x1 - x0) * ss, (y1 - y0) * ss)
    if background is not None:
        layer = Image.new("RGB", size, background)
    else:
        layer = image.crop(box).resize(size, Image.Resampling.NEAREST)

    def at(x: float, y: float) -> tuple[float, float]:
        return (x - x0) * ss, (y - y0) * ss

    paint(ImageDraw.Draw(layer), at, ss)
    image.paste(layer.reduce(ss), (x0, y0))


def _token(
    draw: ImageDraw.ImageDraw,
    centre: tuple[float, float],
    diameter: float,
    colour: RGB,
    initials: str,
    shadow: RGB,
    size: int,
) -> None:
    """A player's token as the board draws it (:func:`render.sprites.token`): a coloured
    disc with a white rim, a dark edge, a shadow and the initials (font ``size``)."""
    x, y = centre
    r = diameter / 2
    drop = max(1.0, diameter / 18)
    draw.ellipse((x - r + drop, y - r + drop, x + r + drop, y + r + drop), fill=shadow)
    draw.ellipse((x - r, y - r, x + r, y + r), fill=(25, 28, 30))
    rim = r - max(1.0, diameter / 22)
    draw.ellipse((x - rim, y - rim, x + rim, y + rim), fill=(255, 255, 255))
    inner = rim - max(1.0, diameter / 12)
    draw.ellipse((x - inner, y - inner, x + inner, y + inner), fill=colour)
    f = font("bold", size)
    text = ellipsize(initials, f, round(2 * inner))
    draw.text((x, y), text, font=f, fill=sprites.contrast_text(colour), anchor="mm")


def _cross(
    draw: ImageDraw.ImageDraw, centre: tuple[float, float], size: float, colour: RGB, edge: RGB
) -> None:
    """The bankruptcy marker: a cross in the player's colour with a dark edge."""
    x, y = centre
    h = size / 2
    for width, ink in ((size * 0.42, edge), (size * 0.24, colour)):
        w = max(1, round(width))
        draw.line((x - h, y - h, x + h, y + h), fill=ink, width=w)
        draw.line((x - h, y + h, x + h, y - h), fill=ink, width=w)


def _dot(
    draw: ImageDraw.ImageDraw, centre: tuple[float, float], size: float, colour: RGB, edge: RGB
) -> None:
    """The group marker: a disc in the group's colour with a white ring and a dark edge."""
    x, y = centre
    r = size / 2
    draw.ellipse((x - r, y - r, x + r, y + r), fill=edge)
    r2 = r * 0.84
    draw.ellipse((x - r2, y - r2, x + r2, y + r2), fill=(255, 255, 255))
    r3 = r * 0.64
    draw.ellipse((x - r3, y - r3, x + r3, y + r3), fill=colour)
