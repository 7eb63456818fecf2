"""Sizes and numbers of a recap image: its widths, font sizes, axis steps and digits.

Sizes scale with the width, and no text is smaller than :data:`MIN_PHONE_TEXT` pixels
once the image is shown :data:`PHONE_WIDTH` pixels wide, as on a phone
(:func:`text_sizes`).
"""

from __future__ import annotations

import math

DEFAULT_WIDTH = 1000  # Discord shows it whole on a desktop; a phone scales it down
PHONE_WIDTH = 400  # the narrowest an image is shown on a phone, in pixels
MIN_PHONE_TEXT = 9  # no text smaller than this (font size in pixels) at PHONE_WIDTH
MIN_WIDTH = 400
MAX_WIDTH = 2400
SUPERSAMPLE = 2  # the plot's lines and markers are drawn at twice the size, then scaled down
TOKEN_SHARE = 0.4  # the board's token prints two initials at 0.4 of its diameter
CHART_SHARE = 0.5  # the chart's height as a share of the width
MOMENT_PITCH = 1.25  # line distance of the moments, as a multiple of their size

Box = tuple[int, int, int, int]


def text_sizes(width: int) -> dict[str, int]:
    """Font sizes (pixels) at image ``width``: the smallest is readable at PHONE_WIDTH.

    ``small`` (ticks, notes, the key) is the smallest text; the others are in proportion.
    """
    least = MIN_PHONE_TEXT * width / PHONE_WIDTH
    small = math.ceil(least * 1.04)
    return {
        "small": small,
        "body": math.ceil(least * 1.18),
        "name": math.ceil(least * 1.18),
        "title": math.ceil(least * 1.6),
    }


def token_diameter(width: int) -> int:
    """The legend's token: large enough that its initials are as big as the smallest text."""
    return math.ceil(text_sizes(width)["small"] / TOKEN_SHARE)


def nice_step(span: float, ticks: int) -> int:
    """A round step (1, 2, 2.5 or 5 times a power of ten, at least 1) for about ``ticks``."""
    raw = max(span, 1) / max(1, ticks)
    power = 10 ** math.floor(math.log10(raw))
    for factor in (1, 2, 2.5, 5, 10):
        step = factor * power
        if step >= raw and float(step).is_integer():
            return max(1, int(step))
    return max(1, int(10 * power))


def digits(amount: int, lang: str) -> str:
    """A number with the language's grouping: ``12.500`` / ``12,500``."""
    text = f"{amount:,}"
    return text.replace(",", ".") if lang == "de" else text


def _x_ticks(low: int, high: int, plot_width: int, label_width: int, start: int = 0) -> list[int]:
    """Round tick values between ``low`` and ``high`` whose labels do not touch."""
    room = max(1, plot_width // max(1, label_width * 2))
    step = nice_step(high - low, min(8, room))
    first = math.ceil(max(low, start) / step) * step
    return list(range(first, high + 1, step))
