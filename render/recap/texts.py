"""The words on a recap image: those the caller gives, those drawn, and their wrapping.

:class:`RecapTexts` are every word of an image, already translated; :class:`_Painter`
draws text and keeps each :class:`DrawnText` in the :class:`Drawing` (for the tests of
readability); :func:`wrap_lines` wraps the long lines.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field

from PIL import Image, ImageDraw, ImageFont

from render.assets import RGB, font
from render.recap.sizes import Box
from render.text import text_width, wrap


@dataclass(frozen=True)
class RecapTexts:
    """Every word on a recap image, already in the game's language.

    ``notes`` go after each player's name in the legend (by seat: the final net worth,
    "bankrupt in turn 87" …); ``moments`` are the lines under the chart.
    ``bankrupt_key`` and ``group_key`` explain the two markers (left out if empty).
    """

    title: str = ""
    subtitle: str = ""
    x_label: str = ""
    y_label: str = ""
    bankrupt_key: str = ""
    group_key: str = ""
    notes: Sequence[str] = ()
    moments_title: str = ""
    moments: Sequence[str] = ()


@dataclass(frozen=True)
class DrawnText:
    """A text as drawn: its face, size in pixels and where (for the tests)."""

    text: str
    face: str
    size: int
    xy: tuple[float, float]
    anchor: str
    role: str
    fixed_box: Box | None = None  # for texts drawn elsewhere (a token's initials)

    @property
    def box(self) -> Box:
        """Where the text's ink landed: (x0, y0, x1, y1). Measured only when asked."""
        if self.fixed_box is not None:
            return self.fixed_box
        x0, y0, x1, y1 = font(self.face, self.size).getbbox(self.text, anchor=self.anchor)
        x, y = self.xy
        return round(x + x0), round(y + y0), round(x + x1), round(y + y1)


@dataclass
class Drawing:
    """A recap image with every text drawn on it."""

    image: Image.Image
    texts: list[DrawnText] = field(default_factory=list)
    legend: Box = (0, 0, 0, 0)  # the legend and the key under the chart
    plot: Box = (0, 0, 0, 0)  # the chart's data area


class _Painter:
    """Draws text and remembers what it drew (size and box), for the readability tests."""

    def __init__(self, image: Image.Image) -> None:
        self.image = image
        self.draw = ImageDraw.Draw(image)
        self.texts: list[DrawnText] = []

    def text(
        self,
        xy: tuple[float, float],
        text: str,
        face: str,
        size: int,
        fill: RGB,
        *,
        anchor: str = "la",
        role: str = "text",
    ) -> int:
        """Draw ``text``; its advance width."""
        if not text:
            return 0
        f = font(face, size)
        self.draw.text(xy, text, font=f, fill=fill, anchor=anchor)
        self.texts.append(DrawnText(text, face, size, xy, anchor, role))
        return round(f.getlength(text))


def wrap_lines(text: str, face_font: ImageFont.FreeTypeFont, width: int) -> list[str]:
    """Greedy word wrap measuring each word once (the moments are long lines).

    :func:`render.text.wrap` measures every growing line again, which made wrapping the
    moments a third of the drawing time; a line found here is measured once more as a
    whole, and the exact wrap is used if it does not fit (or a word is too long).
    """
    words = text.split()
    if not words:
        return []
    space = face_font.getlength(" ")
    lines: list[str] = []
    current: list[str] = []
    used = 0.0
    for word in words:
        w = face_font.getlength(word)
        if w > width:
            return wrap(text, face_font, width, generic=True) or [text]
        extra = w if not current else used + space + w
        if current and extra > width:
            lines.append(" ".join(current))
            current, used = [word], w
        else:
            current.append(word)
            used = extra
    lines.append(" ".join(current))
    if any(text_width(face_font, line) > width for line in lines):
        return wrap(text, face_font, width, generic=True) or [text]
    return lines
