"""Where the parts of a recap image go, measured at its width before anything is drawn."""

from __future__ import annotations

import math
from dataclasses import dataclass

from render.assets import font
from render.board import printable
from render.recap.sizes import (
    CHART_SHARE,
    MAX_WIDTH,
    MIN_WIDTH,
    MOMENT_PITCH,
    text_sizes,
    token_diameter,
)
from render.recap.texts import RecapTexts, wrap_lines


@dataclass(frozen=True)
class _Frame:
    """The parts of a recap image, measured before anything is drawn."""

    width: int
    pad: int
    sizes: dict[str, int]
    title_lines: tuple[str, ...]
    subtitle_lines: tuple[str, ...]
    chart_top: int
    chart_height: int
    legend_top: int
    legend_rows: int
    legend_columns: int
    legend_row_height: int
    key_top: int
    key_height: int
    moments_top: int
    moment_lines: tuple[tuple[str, bool], ...]  # (line, starts a new moment)
    height: int


def _frame(width: int, texts: RecapTexts, players: int, with_key: bool) -> _Frame:
    """Measure where everything goes at ``width`` (the height follows from the texts)."""
    sizes = text_sizes(width)
    pad = round(width * 0.032)
    inner = width - 2 * pad
    title_font = font("bold", sizes["title"])
    body_font = font("regular", sizes["body"])
    small_font = font("regular", sizes["small"])
    y = pad
    title_lines = tuple(wrap_lines(printable(texts.title), title_font, inner))
    y += len(title_lines) * round(sizes["title"] * 1.2) if texts.title else 0
    subtitle_lines: tuple[str, ...] = ()
    if texts.subtitle:
        subtitle_lines = tuple(wrap_lines(printable(texts.subtitle), body_font, inner))
        y += len(subtitle_lines) * round(sizes["body"] * 1.25)
    y += round(pad * 0.5)
    chart_top = y
    chart_height = round(width * CHART_SHARE)
    y += chart_height + round(pad * 0.8)
    legend_top = y
    columns = 1 if players <= 1 or width < 700 else 2
    rows = math.ceil(players / columns)
    row_height = max(token_diameter(width) + round(pad * 0.35), sizes["name"] + sizes["small"] * 2)
    y += rows * row_height
    key_top = y
    key_height = round(sizes["small"] * 1.8) if with_key else 0
    y += key_height + round(pad * 0.6)
    moments_top = y
    lines: list[tuple[str, bool]] = []
    if texts.moments:
        if texts.moments_title:
            y += round(sizes["body"] * 1.5)
        bullet = round(sizes["body"] * 1.1)
        for moment in texts.moments:
            wrapped = wrap_lines(printable(moment), body_font, inner - bullet)
            lines.extend((line, k == 0) for k, line in enumerate(wrapped))
        y += len(lines) * round(sizes["body"] * MOMENT_PITCH)
    del small_font
    return _Frame(
        width=width,
        pad=pad,
        sizes=sizes,
        title_lines=title_lines if texts.title else (),
        subtitle_lines=subtitle_lines,
        chart_top=chart_top,
        chart_height=chart_height,
        legend_top=legend_top,
        legend_rows=rows,
        legend_columns=columns,
        legend_row_height=row_height,
        key_top=key_top,
        key_height=key_height,
        moments_top=moments_top,
        moment_lines=tuple(lines),
        height=y + pad,
    )


def _check_width(width: int) -> int:
    if not MIN_WIDTH <= width <= MAX_WIDTH:
        raise ValueError(f"width must be {MIN_WIDTH} to {MAX_WIDTH} pixels, not {width}")
    return width
