"""Text that always fits its box: shrink, wrap (with hyphens at compound joints), then ellipsis.

Square names are long and squares are small ("Gemeinschaftsfeld", "North Carolina
Avenue"), so every name goes through :func:`fit_text`, which picks the largest size at
which the name wraps into the box, never smaller than ``min_size``; only a name that
cannot fit even then is cut with an ellipsis.
"""

from __future__ import annotations

import math
from dataclasses import dataclass

from PIL import ImageDraw, ImageFont

from render.assets import RGB, font, hyphenation_suffixes

ELLIPSIS = "…"
LINE_PITCH = 1.08  # line distance as a multiple of the size: compact but with clear gaps
GENTLE_SHRINK = 0.8  # how far a name may shrink to avoid splitting a word twice


@dataclass(frozen=True, slots=True)
class Fitted:
    """A text laid out for a box: its lines, the face and size, and its extent."""

    lines: tuple[str, ...]
    face: str
    size: int
    pitch: int  # distance between the tops of consecutive lines
    width: int  # advance width of the widest line
    height: int  # from the top of the first line's ascender to the last line's descender
    truncated: bool  # an ellipsis had to be used

    @property
    def font(self) -> ImageFont.FreeTypeFont:
        """The font to draw the lines with."""
        return font(self.face, self.size)


def text_width(face_font: ImageFont.FreeTypeFont, text: str) -> int:
    """Width of ``text`` including glyph overhangs past the advance (italic-like edges)."""
    if not text:
        return 0
    left, _, right, _ = face_font.getbbox(text, anchor="la")
    return math.ceil(max(face_font.getlength(text), right) - min(0, left))


def _break_points(word: str, generic: bool) -> list[int]:
    """Positions where ``word`` may be split; a hyphen is added unless it ends in one."""
    points = [i + 1 for i, ch in enumerate(word[:-1]) if ch in "-/" and i > 0]
    # Strip known endings from the back, one after the other: "Gemein|schafts|feld".
    lower = word.lower()  # not casefold(): "ß" must keep its length
    end = len(word)
    while True:
        for suffix in hyphenation_suffixes():
            cut = end - len(suffix)
            if cut >= 3 and lower.endswith(suffix, 0, end):
                points.append(cut)
                end = cut
                break
        else:
            break
    if generic:
        points.extend(range(3, len(word) - 2))
    return sorted(set(points))


def _split_word(
    word: str, face_font: ImageFont.FreeTypeFont, width: int, generic: bool
) -> tuple[str, str] | None:
    """The longest head of ``word`` (with its hyphen) that fits ``width``, and the rest.

    A break at a natural point (hyphen, compound ending) wins over a longer arbitrary one.
    """
    natural = set(_break_points(word, generic=False))
    best = None
    best_natural = None
    for cut in _break_points(word, generic):
        head = word[:cut] if word[cut - 1] in "-/" else word[:cut] + "-"
        if text_width(face_font, head) <= width:
            best = (head, word[cut:])
            if cut in natural:
                best_natural = best
    return best_natural or best


def wrap(
    text: str,
    face_font: ImageFont.FreeTypeFont,
    width: int,
    *,
    generic: bool = False,
    max_splits: int | None = None,
) -> list[str] | None:
    """Greedy word wrap of ``text`` into lines no wider than ``width``.

    Words move whole to the next line; a word wider than a line is split at a hyphen,
    a slash or a known compound ending ("Gemeinschafts-feld"), and with ``generic`` at
    any letter. Returns ``None`` if some piece still cannot fit, or if a word would need
    more than ``max_splits`` splits.
    """
    words = text.split()
    # A lone slash or dash belongs to the word before it ("Gefängnis /").
    merged: list[str] = []
    for word in words:
        if merged and word in ("/", "-", "–", "&"):
            merged[-1] = f"{merged[-1]} {word}"
        else:
            merged.append(word)
    lines: list[str] = []
    current = ""
    for word in merged:
        candidate = f"{current} {word}" if current else word
        if text_width(face_font, candidate) <= width:
            current = candidate
            continue
        if current:
            lines.append(current)
            current = ""
        splits = 0
        while text_width(face_font, word) > width:
            split = _split_word(word, face_font, width, generic)
            splits += 1
            if split is None or (max_splits is not None and splits > max_splits):
                return None
            head, word = split
            lines.append(head)
        current = word
    if current:
        lines.append(current)
    return lines


def _measure(lines: list[str], face: str, size: int, truncated: bool) -> Fitted:
    f = font(face, size)
    ascent, descent = f.getmetrics()
    pitch = round(size * LINE_PITCH)
    height = (len(lines) - 1) * pitch + ascent + descent if lines else 0
    width = max((text_width(f, line) for line in lines), default=0)
    return Fitted(tuple(lines), face, size, pitch, width, height, truncated)


def _lines_allowed(face: str, size: int, height: int, max_lines: int) -> int:
    ascent, descent = font(face, size).getmetrics()
    pitch = round(size * LINE_PITCH)
    if ascent + descent > height:
        return 0
    return min(max_lines, 1 + (height - ascent - descent) // pitch)


def ellipsize(
    text: str, face_font: ImageFont.FreeTypeFont, width: int, *, force: bool = False
) -> str:
    """``text`` cut at the end with "…" so that it is no wider than ``width``.

    Unchanged if it fits, unless ``force`` asks for the ellipsis anyway (text was dropped).
    """
    if not force and text_width(face_font, text) <= width:
        return text
    while text and text_width(face_font, text.rstrip() + ELLIPSIS) > width:
        text = text[:-1]
    return text.rstrip() + ELLIPSIS if text else ""


def fit_text(
    text: str,
    width: int,
    height: int,
    *,
    face: str = "condensed",
    max_size: int,
    min_size: int,
    max_lines: int = 3,
) -> Fitted:
    """Lay ``text`` out in a ``width`` x ``height`` box as large as possible.

    Tries sizes from ``max_size`` down to ``min_size`` with natural breaks (spaces,
    hyphens, compound endings), then ``min_size`` breaking anywhere, and as a last resort
    cuts the last line with an ellipsis. The result never exceeds the box.
    """
    # One pixel of slack: centred text may start on a half pixel.
    width -= 1
    # First, slightly smaller type rather than a word in three pieces ("Einkommen-steuer"
    # beats "Ein-kommen-steuer"); then any natural breaks at any size.
    gentle = max(min_size, round(max_size * GENTLE_SHRINK))
    for sizes, max_splits in (
        (range(max_size, gentle - 1, -1), 1),
        (range(max_size, min_size - 1, -1), None),
    ):
        for size in sizes:
            allowed = _lines_allowed(face, size, height, max_lines)
            if allowed == 0:
                continue
            lines = wrap(text, font(face, size), width, max_splits=max_splits)
            if lines is not None and len(lines) <= allowed:
                return _measure(lines, face, size, truncated=False)
    size = min_size
    allowed = max(1, _lines_allowed(face, size, height, max_lines))
    f = font(face, size)
    lines = wrap(text, f, width, generic=True)
    if lines is not None and len(lines) <= allowed:
        return _measure(lines, face, size, truncated=False)
    # Keep what fits and mark the cut: the first lines as wrapped, the rest squeezed
    # into the last line behind an ellipsis.
    lines = lines or [text]
    kept = lines[: allowed - 1]
    kept.append(ellipsize(" ".join(lines[allowed - 1 :]), f, width, force=True))
    return _measure(kept, face, size, truncated=True)


def draw_fitted(
    draw: ImageDraw.ImageDraw,
    fitted: Fitted,
    box: tuple[int, int, int, int],
    fill: RGB,
    *,
    align: str = "center",
    valign: str = "middle",
) -> None:
    """Draw ``fitted`` into ``box`` (x0, y0, x1, y1), centred unless told otherwise."""
    x0, y0, x1, y1 = box
    f = fitted.font
    if valign == "top":
        top = y0
    elif valign == "bottom":
        top = y1 - fitted.height
    else:
        top = y0 + (y1 - y0 - fitted.height) // 2
    for i, line in enumerate(fitted.lines):
        y = top + i * fitted.pitch
        if align == "left":
            draw.text((x0, y), line, font=f, fill=fill, anchor="la")
        elif align == "right":
            draw.text((x1, y), line, font=f, fill=fill, anchor="ra")
        else:
            draw.text(((x0 + x1) / 2, y), line, font=f, fill=fill, anchor="ma")
