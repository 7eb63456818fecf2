"""The board game's recap image: every player's net worth per turn as a line chart.

A cross marks where a player went bankrupt, a dot in the group's colour on the owner's
line where a colour group was completed; under the chart the legend, the key to the
markers and the game's moments (:func:`render_board_recap`).
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence

from PIL import ImageDraw

from bot.recap import BoardRecap
from render.assets import RGB, font, labels
from render.recap.chart import _Chart, _compose, _defaults, _png_renderer
from render.recap.marks import _cross, _dot
from render.recap.sizes import DEFAULT_WIDTH, _x_ticks, digits, text_sizes
from render.recap.texts import Drawing, RecapTexts
from render.text import text_width


def line_points(recap: BoardRecap, seat: int) -> list[tuple[int, int]]:
    """The corners of ``seat``'s line: ``(turn, net worth)`` from the start to its end.

    Inside a run of turns with the same net worth only the run's ends are kept: they
    draw the same line, and a long game has many such runs (a player's money often rests
    while the others move), which halves the points to draw.
    """
    values = [recap.start_worth[seat]]
    for value in recap.worth[seat]:
        if value is None:
            break
        values.append(value)
    last = len(values) - 1
    return [
        (turn, value)
        for turn, value in enumerate(values)
        if turn in (0, last) or not values[turn - 1] == value == values[turn + 1]
    ]


def draw_board_recap(
    recap: BoardRecap,
    names: Sequence[str] | None = None,
    colours: Sequence[RGB] | None = None,
    lang: str = "de",
    *,
    texts: RecapTexts | None = None,
    theme: str = "light",
    group_colours: Mapping[str, RGB] | None = None,
    terms: Mapping[str, str] | None = None,
    currency: str | None = None,
    width: int = DEFAULT_WIDTH,
) -> Drawing:
    """The net-worth chart of ``recap`` as a :class:`Drawing` (see :func:`render_board_recap`)."""
    texts, names, colours, pal = _defaults(recap.players, names, colours, texts, theme)
    group_colours = dict(group_colours or {})
    lab = labels(lang).with_terms(terms or {})
    money_code = currency or recap.currency
    turns = max(1, recap.turns)
    values = [v for series in recap.worth for v in series if v is not None] + list(
        recap.start_worth
    )
    low = min([0, *values])
    high = max([1, *values])
    sizes = text_sizes(width)
    tick_font = font("condensed", sizes["small"])
    label_w = text_width(tick_font, digits(turns, lang))
    plot_w = width - 2 * round(width * 0.032) - 4 * sizes["small"]
    x_ticks = [(t, digits(t, lang)) for t in _x_ticks(0, turns, plot_w, label_w)]

    def y_format(value: int) -> str:
        return lab.figure(value, money_code)

    # Bankrupt players first, the winner last: the lines that matter most lie on top.
    def order(seat: int) -> tuple[int, int]:
        return (recap.bankrupt_turn(seat) is None, seat == recap.winner)

    def plot(
        draw: ImageDraw.ImageDraw, to_xy: Callable[[float, float], tuple[float, float]], ss: int
    ) -> None:
        line_w = max(2, round(width * 0.0045)) * ss
        marker = sizes["small"] * 0.95 * ss
        for seat in sorted(range(len(names)), key=order):
            points = [to_xy(x, v) for x, v in line_points(recap, seat)]
            colour = colours[seat]
            if len(points) > 1:
                draw.line(points, fill=colour, width=line_w, joint="curve")
            end = points[-1]
            r = line_w * 0.9
            draw.ellipse((end[0] - r, end[1] - r, end[0] + r, end[1] + r), fill=colour)
        # Markers over every line: group completions (stacked where they coincide) …
        stacked: dict[tuple[int, int], int] = {}
        top, bottom = to_xy(0, high)[1], to_xy(0, low)[1]
        for done in recap.groups:
            value = recap.worth_at(done.player, done.turn)
            if value is None:
                continue
            key = (done.player, done.turn)
            k = stacked.get(key, 0)
            stacked[key] = k + 1
            x, y = to_xy(done.turn, value)
            # Groups completed at once (a trade, a bankrupt's lots) stand in a column,
            # alternately above and below the point, as far as the chart has room.
            step = marker * 0.85
            spots = [
                y - shift * step
                for n in range(2 * len(recap.groups) + 1)
                if top - step / 2
                <= y - (shift := (n + 1) // 2 * (1 if n % 2 else -1)) * step
                <= bottom + step / 2
            ]
            y = spots[k] if k < len(spots) else spots[-1]
            colour = group_colours.get(done.group) or pal.group(done.group)
            _dot(draw, (x, y), marker, colour, pal["line"])
        # … and bankruptcies.
        for gone in recap.bankruptcies:
            value = recap.worth_at(gone.player, gone.turn)
            x, y = to_xy(gone.turn, value or 0)
            _cross(draw, (x, y), marker * 1.1, colours[gone.player], pal["line"])

    chart = _Chart(
        y_values=(low, high),
        x_ticks=x_ticks,
        x_range=(0, turns),
        y_format=y_format,
        plot=plot,
        with_key=bool(texts.bankrupt_key or texts.group_key),
    )
    return _compose(chart, texts, names, colours, width=width, theme=theme)


render_board_recap = _png_renderer(
    draw_board_recap,
    "render_board_recap",
    """The board game's recap as PNG bytes.

    A line per player: net worth (y, in the board's currency, or only figures with a
    theme's ``terms["currency"]``, which the caller's ``texts.y_label`` then names) at
    the start and the end of every turn (x). A line ends where its player went
    bankrupt, marked with a cross in the player's colour; a dot in a group's colour
    sits on the line of the player who completed that colour group, at that turn.
    ``names`` default to the recap's, ``colours`` to the board's token colours of
    ``theme`` (:func:`player_colours`), ``group_colours`` to the board's bar colours.
    """,
)
