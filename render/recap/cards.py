"""The card game's recap image: every round's points per player as grouped bars."""

from __future__ import annotations

import math
from collections.abc import Callable, Sequence

from PIL import ImageDraw

from bot.recap import CardRecap
from render.assets import RGB
from render.recap.chart import _Chart, _compose, _defaults, _png_renderer
from render.recap.sizes import DEFAULT_WIDTH, digits
from render.recap.texts import Drawing, RecapTexts


def draw_card_recap(
    recap: CardRecap,
    names: Sequence[str] | None = None,
    colours: Sequence[RGB] | None = None,
    lang: str = "de",
    *,
    texts: RecapTexts | None = None,
    theme: str = "light",
    width: int = DEFAULT_WIDTH,
) -> Drawing:
    """The card game's points per round as a :class:`Drawing` (see :func:`render_card_recap`)."""
    texts, names, colours, pal = _defaults(recap.players, names, colours, texts, theme)
    rounds = recap.rounds
    points = [p for r in rounds for p in r.points]
    low = min([0, *points])
    high = max([1, *points])
    count = max(1, len(rounds))
    x_ticks = [(i + 0.5, digits(r.number, lang)) for i, r in enumerate(rounds)]
    if len(x_ticks) > 12:  # many rounds: label every few
        every = math.ceil(len(x_ticks) / 12)
        x_ticks = x_ticks[::every]

    def plot(
        draw: ImageDraw.ImageDraw, to_xy: Callable[[float, float], tuple[float, float]], ss: int
    ) -> None:
        seats = len(names)
        group = 0.78  # share of a round's width the bars take
        bar = group / max(1, seats)
        edge = pal["line"]
        for i, entry in enumerate(rounds):
            for seat in range(seats):
                x0 = i + (1 - group) / 2 + seat * bar
                value = entry.points[seat] if seat < len(entry.points) else 0
                left, top = to_xy(x0, max(0, value))
                right, bottom = to_xy(x0 + bar, min(0, value))
                if bottom - top < ss:  # a round without points still shows a sliver
                    top = bottom - ss
                draw.rectangle(
                    (left + ss, top, right - ss, bottom),
                    fill=colours[seat],
                    outline=edge,
                    width=ss,
                )

    chart = _Chart(
        y_values=(low, high),
        x_ticks=x_ticks,
        x_range=(0, count),
        y_format=lambda value: digits(value, lang),
        plot=plot,
        x_grid=False,  # the rounds' bars stand in groups; lines through them would cut them
    )
    return _compose(chart, texts, names, colours, width=width, theme=theme)


render_card_recap = _png_renderer(
    draw_card_recap,
    "render_card_recap",
    """The card game's recap as PNG bytes: per round (x) a bar per player of its points (y).

    The bars are in the players' token colours (as on the table image), in seat order
    within each round; ``texts.notes`` can carry each player's total for the legend.
    """,
)
