"""The picture both recaps share: title, chart card, axes and grid, legend and moments.

:func:`_compose` draws it around a recap's own :class:`_Chart` (its axes and data),
with the names and colours :func:`_defaults` fills in; :func:`_png_renderer` turns a
recap's ``draw_*`` function into its ``render_*`` one.
"""

from __future__ import annotations

import math
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import ParamSpec

from PIL import Image, ImageDraw

from render.assets import RGB, Palette, font, palette
from render.board import printable
from render.png import encode_png
from render.recap.colours import player_colours
from render.recap.frame import _check_width, _frame
from render.recap.legend import _key, _legend
from render.recap.marks import Painter, _smooth
from render.recap.sizes import MOMENT_PITCH, nice_step
from render.recap.texts import Drawing, RecapTexts, _Painter
from render.text import text_width

P = ParamSpec("P")


@dataclass(frozen=True)
class _Chart:
    """A recap's own part of the picture: its axes and how its data is drawn.

    ``plot(draw, to_xy, scale)`` draws the data on a transparent layer ``scale`` times
    the size of the image (for smooth edges); ``to_xy(x, y)`` maps data to its pixels.
    ``with_key`` adds the key to the markers under the legend; ``x_grid`` draws grid
    lines at the x ticks.
    """

    y_values: tuple[int, int]
    x_ticks: Sequence[tuple[float, str]]
    x_range: tuple[float, float]
    y_format: Callable[[int], str]
    plot: Painter
    with_key: bool = False
    x_grid: bool = True


def _defaults(
    players: Sequence[str],
    names: Sequence[str] | None,
    colours: Sequence[RGB] | None,
    texts: RecapTexts | None,
    theme: str,
) -> tuple[RecapTexts, list[str], list[RGB], Palette]:
    """A recap's texts, names (the ``players``' by default), colours (the board's token
    colours of ``theme`` by default) and the palette of ``theme``."""
    names = list(names if names is not None else players)
    colours = list(colours if colours is not None else player_colours(len(names), theme))
    return texts or RecapTexts(), names, colours, palette(theme)


def _compose(
    spec: _Chart,
    texts: RecapTexts,
    names: Sequence[str],
    colours: Sequence[RGB],
    *,
    width: int,
    theme: str,
) -> Drawing:
    """The common picture: title, axes and grid, the plot (drawn by ``spec.plot``), legend,
    lines."""
    width = _check_width(width)
    pal = palette(theme)
    frame = _frame(width, texts, len(names), spec.with_key)
    sizes, pad = frame.sizes, frame.pad
    image = Image.new("RGB", (width, frame.height), pal["centre"])
    painter = _Painter(image)
    draw = painter.draw

    # Title and subtitle.
    y = pad
    for line in frame.title_lines:
        painter.text((pad, y), line, "bold", sizes["title"], pal["title"], role="title")
        y += round(sizes["title"] * 1.2)
    for line in frame.subtitle_lines:
        painter.text((pad, y), line, "regular", sizes["body"], pal["text_muted"], role="subtitle")
        y += round(sizes["body"] * 1.25)

    # The chart: a white card, the y axis' labels left of the data, the x axis' below.
    low, high = spec.y_values
    x_ticks, y_format = spec.x_ticks, spec.y_format
    y_step = nice_step(high - low, 5)
    y_low = math.floor(low / y_step) * y_step
    y_high = max(y_low + y_step, math.ceil(high / y_step) * y_step)
    y_ticks = list(range(y_low, y_high + 1, y_step))
    tick_font = font("condensed", sizes["small"])
    label_width = max(text_width(tick_font, y_format(v)) for v in y_ticks)
    chart = (pad, frame.chart_top, width - pad, frame.chart_top + frame.chart_height)
    draw.rounded_rectangle(
        chart, round(pad * 0.4), fill=pal["centre_card"], outline=pal["centre_line"], width=2
    )
    inset = round(pad * 0.5)
    heading_h = round(sizes["small"] * 1.6) if texts.y_label else round(sizes["small"] * 0.6)
    plot_box = (
        chart[0] + inset + label_width + round(sizes["small"] * 0.5),
        chart[1] + inset + heading_h,
        chart[2] - inset - round(sizes["small"] * 0.6),
        chart[3]
        - inset
        - round(sizes["small"] * 1.5)
        - (round(sizes["small"] * 1.3) if texts.x_label else 0),
    )
    px0, py0, px1, py1 = plot_box
    x_low, x_high = spec.x_range
    x_span = max(1e-9, x_high - x_low)

    def to_xy(x: float, value: float) -> tuple[float, float]:
        return (
            px0 + (x - x_low) / x_span * (px1 - px0),
            py1 - (value - y_low) / (y_high - y_low) * (py1 - py0),
        )

    # The grid and the data, with smooth edges (see _smooth); the margin leaves room for
    # markers at the plot's edges. The labels come after: nothing drawn covers them.
    margin = round(pad * 0.5)
    grid_y = [round(to_xy(x_low, value)[1]) for value in y_ticks]
    grid_x = [round(to_xy(x, y_low)[0]) for x, _ in x_ticks] if spec.x_grid else []

    def grid_and_data(
        layer: ImageDraw.ImageDraw, at: Callable[[float, float], tuple[float, float]], ss: int
    ) -> None:
        # Grid lines as whole large pixels, so they come back sharp, one pixel wide.
        for ty, value in zip(grid_y, y_ticks, strict=True):
            (lx0, ly), (lx1, _) = at(px0, ty), at(px1, ty)
            thick = ss * (2 if value == 0 else 1)
            layer.rectangle((lx0, ly, lx1, ly + thick - 1), fill=pal["centre_line"])
        for tx in grid_x:
            (lx, ly0), (_, ly1) = at(tx, py0), at(tx, py1)
            layer.rectangle((lx, ly0, lx + ss - 1, ly1), fill=pal["centre_line"])
        spec.plot(layer, lambda x, v: at(*to_xy(x, v)), ss)

    _smooth(
        image,
        (px0 - margin, py0 - margin, px1 + margin, py1 + margin),
        grid_and_data,
        background=pal["centre_card"],
    )
    draw.line((px0, py0, px0, py1), fill=pal["line"], width=2)
    if texts.y_label:
        painter.text(
            (chart[0] + inset, chart[1] + inset),
            texts.y_label,
            "bold",
            sizes["small"],
            pal["text_muted"],
            role="axis",
        )
    for ty, value in zip(grid_y, y_ticks, strict=True):
        painter.text(
            (px0 - round(sizes["small"] * 0.4), ty),
            y_format(value),
            "condensed",
            sizes["small"],
            pal["text_muted"],
            anchor="rm",
            role="tick",
        )
    for x, label in x_ticks:
        tx, _ = to_xy(x, y_low)
        painter.text(
            (tx, py1 + round(sizes["small"] * 0.3)),
            label,
            "condensed",
            sizes["small"],
            pal["text_muted"],
            anchor="ma",
            role="tick",
        )
    if texts.x_label:
        painter.text(
            (px1, chart[3] - inset),
            texts.x_label,
            "bold",
            sizes["small"],
            pal["text_muted"],
            anchor="rd",
            role="axis",
        )

    # The legend: each player's token, name (in their colour) and note.
    _legend(image, painter, frame, texts, names, colours, pal)
    if spec.with_key:
        _key(image, painter, frame, texts, pal)

    # The moments.
    y = frame.moments_top
    if texts.moments:
        if texts.moments_title:
            painter.text(
                (pad, y),
                printable(texts.moments_title),
                "bold",
                sizes["body"],
                pal["title"],
                role="moments",
            )
            y += round(sizes["body"] * 1.5)
        bullet = round(sizes["body"] * 1.1)
        for line, first in frame.moment_lines:
            if first:
                r = max(3, round(sizes["body"] * 0.14))
                cy = y + sizes["body"] * 0.55
                draw.ellipse((pad + r, cy - r, pad + 3 * r, cy + r), fill=pal["accent"])
            painter.text(
                (pad + bullet, y), line, "regular", sizes["body"], pal["text"], role="moment"
            )
            y += round(sizes["body"] * MOMENT_PITCH)
    legend_box = (pad, frame.legend_top, width - pad, frame.key_top + frame.key_height)
    return Drawing(image, painter.texts, legend_box, plot_box)


def _png_renderer(draw: Callable[P, Drawing], name: str, doc: str) -> Callable[P, bytes]:
    """``draw`` as a function of the same arguments giving its image as PNG bytes.

    Each recap's ``render_*`` is made so from its ``draw_*``, named ``name`` with the
    docstring ``doc``: the arguments are written (and type-checked) once.
    """

    def render(*args: P.args, **kwargs: P.kwargs) -> bytes:
        return encode_png(draw(*args, **kwargs).image)

    render.__name__ = render.__qualname__ = name
    render.__module__ = draw.__module__
    render.__doc__ = doc
    return render
