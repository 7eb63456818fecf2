"""The colours of a recap image: the players' token colours and text that reads on them."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from render.assets import RGB, colours_key, palette
from render.badges import contrast_ratio, luminance


def player_colours(
    count: int, theme: str = "light", colors: Mapping[str, Any] | None = None
) -> list[RGB]:
    """The token colours of ``count`` seats, exactly as the board image draws them."""
    pal = palette(theme, colours_key(colors))
    return [pal.player(seat) for seat in range(count)]


def contrast(a: RGB, b: RGB) -> float:
    """The WCAG contrast ratio of two colours (1 to 21), as the badges judge it."""
    return contrast_ratio(a, b)


def readable(colour: RGB, background: RGB, ratio: float = 4.5) -> RGB:
    """``colour`` darkened (or lightened on a dark background) until text in it reads."""
    dark_background = luminance(background) < 0.2
    for _ in range(20):
        if contrast(colour, background) >= ratio:
            break
        if dark_background:
            colour = tuple(round(c + (255 - c) * 0.2) for c in colour)  # type: ignore[assignment]
        else:
            colour = tuple(round(c * 0.82) for c in colour)  # type: ignore[assignment]
    return colour
