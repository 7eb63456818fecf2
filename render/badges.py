"""The player badge: a round disc in the player's colour, ringed, with the player's initial.

It is the one mark of a player in every image: who owns a lot (full and compact board),
who is who in the players' list, whose turn it is. Its shape is what tells it from a
colour group, whose mark is always a bar: a disc never reads as a group, whatever its
colour. The ring sets the disc off from any background (dark ring on light images, light
ring on dark ones: ``Palette["badge_ring"]``).

Use :func:`draw_player_badge` to put one on an image; :func:`player_badge` gives the
cached sprite itself.
"""

from __future__ import annotations

from functools import lru_cache

from PIL import Image, ImageDraw

from render.assets import RGB, font
from render.text import ellipsize

SS = 4  # supersampling factor: Pillow's shapes are not anti-aliased
DARK_RING: RGB = (28, 31, 34)
DARK_TEXT: RGB = (20, 22, 24)
WHITE: RGB = (255, 255, 255)


def luminance(colour: RGB) -> float:
    """The relative luminance of a colour (WCAG 2), 0 (black) to 1 (white)."""

    def channel(c: int) -> float:
        v = c / 255
        return v / 12.92 if v <= 0.04045 else ((v + 0.055) / 1.055) ** 2.4

    r, g, b = (channel(c) for c in colour)
    return 0.2126 * r + 0.7152 * g + 0.0722 * b


def contrast_ratio(a: RGB, b: RGB) -> float:
    """WCAG contrast ratio of two colours, 1 (none) to 21 (black on white)."""
    high, low = sorted((luminance(a), luminance(b)), reverse=True)
    return (high + 0.05) / (low + 0.05)


def initial_colour(colour: RGB) -> RGB:
    """White or near-black, whichever contrasts more with ``colour`` (WCAG ratio)."""
    return (
        WHITE if contrast_ratio(colour, WHITE) >= contrast_ratio(colour, DARK_TEXT) else DARK_TEXT
    )


def ring_width(diameter: int) -> float:
    """Width of the ring of a badge of ``diameter`` pixels (at least one pixel)."""
    return max(1.0, diameter * 0.085)


@lru_cache(maxsize=512)
def player_badge(colour: RGB, initial: str, diameter: int, ring: RGB = DARK_RING) -> Image.Image:
    """The badge sprite: ``diameter`` x ``diameter`` RGBA, transparent outside the disc."""
    diameter = max(4, int(diameter))
    big = Image.new("RGBA", (diameter * SS, diameter * SS), (0, 0, 0, 0))
    draw = ImageDraw.Draw(big)
    d = diameter * SS
    draw.ellipse((0, 0, d - 1, d - 1), fill=(*ring, 255))
    w = ring_width(diameter) * SS
    draw.ellipse((w, w, d - 1 - w, d - 1 - w), fill=(*colour, 255))
    text = initial.strip() or "?"
    # Two letters ("A1", "Ch") need a smaller size than one to stay inside the ring.
    size = round(d * (0.56 if len(text) <= 1 else 0.42))
    face = font("bold", size)
    text = ellipsize(text, face, round(d - 2.6 * w))
    draw.text((d / 2, d / 2), text, font=face, fill=(*initial_colour(colour), 255), anchor="mm")
    # A box filter is the exact average of the supersampled pixels: no ringing halo.
    return big.reduce(SS)


def draw_player_badge(
    image: Image.Image,
    centre: tuple[float, float],
    diameter: int,
    colour: RGB,
    initial: str,
    *,
    ring: RGB = DARK_RING,
) -> None:
    """Draw a player's badge on ``image``, centred on ``centre``.

    ``colour`` is the player's (``Palette.player(seat)``), ``initial`` their label
    (``render.board.player_initials``: one letter, two where letters clash), ``ring`` the
    edge colour (``Palette["badge_ring"]``: dark on the light theme, light on the dark).
    """
    # tuple(): colours may come in as lists, and the sprite cache needs hashable keys.
    sprite = player_badge(tuple(colour), initial, int(diameter), tuple(ring))
    x = round(centre[0] - sprite.width / 2)
    y = round(centre[1] - sprite.height / 2)
    image.paste(sprite, (x, y), sprite)
