"""Painting the turn's picture from its plan: the header, the stretch, the standings.

Everything is placed and sized by :mod:`render.turn_view.layout`; the painters only paint.
"""

from __future__ import annotations

from PIL import Image

from render.turn_view.panels import Panels
from render.turn_view.tiles import Tiles


class Painter(Tiles, Panels):
    """Paints one whole picture."""

    def paint(self) -> Image.Image:
        """The whole picture."""
        self.header()
        self.stretch()
        self.standings()
        return self.image
