"""The recap images of a finished game: net worth over the turns, the card game's rounds.

Pure functions from a recap (:mod:`bot.recap`) to PNG bytes, in the board's style: the
same bundled fonts, the palette of the board image (so a player's line has the colour of
their token on the board, and a colour group's marker the colour of its bar) and the
board's tokens in the legend.

- :func:`render_board_recap`: a line chart of every player's net worth per turn, with a
  cross where a player went bankrupt and a dot in the group's colour on the owner's
  line where a colour group was completed; under it the legend (token, name, a note
  per player), the key to the markers and the game's moments as short lines.
- :func:`render_card_recap`: the card game's points per round as grouped bars, one bar
  per player, with the same legend and lines.

Every word on the images comes from the caller, already translated
(:class:`RecapTexts`); the renderer only formats numbers (``lang`` picks the digit
grouping). Sizes scale with the width, and no text is smaller than
:data:`MIN_PHONE_TEXT` pixels once the image is shown :data:`PHONE_WIDTH` pixels wide,
as on a phone (:func:`text_sizes`; the tests check every drawn text).
"""

from __future__ import annotations

import math
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any

from PIL import Image, ImageDraw, ImageFont

from bot.recap import BoardRecap, CardRecap
from render import sprites
from render.assets import RGB, Palette, colours_key, font, labels, palette
from render.board import player_initials, printable
from render.png import encode_png
from render.text import ellipsize, text_width, wrap

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


# -- sizes ---------------------------------------------------------------------------------


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


def player_colours(
    count: int, theme: str = "light", colors: Mapping[str, Any] | None = None
) -> list[RGB]:
    """The token colours of ``count`` seats, exactly as the board image draws them."""
    pal = palette(theme, colours_key(colors))
    return [pal.player(seat) for seat in range(count)]


# -- numbers -------------------------------------------------------------------------------


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


def _luminance(colour: RGB) -> float:
    def channel(c: int) -> float:
        v = c / 255
        return v / 12.92 if v <= 0.03928 else ((v + 0.055) / 1.055) ** 2.4

    r, g, b = (channel(c) for c in colour)
    return 0.2126 * r + 0.7152 * g + 0.0722 * b


def contrast(a: RGB, b: RGB) -> float:
    """The WCAG contrast ratio of two colours (1 to 21)."""
    la, lb = sorted((_luminance(a), _luminance(b)), reverse=True)
    return (la + 0.05) / (lb + 0.05)


def readable(colour: RGB, background: RGB, ratio: float = 4.5) -> RGB:
    """``colour`` darkened (or lightened on a dark background) until text in it reads."""
    dark_background = _luminance(background) < 0.2
    for _ in range(20):
        if contrast(colour, background) >= ratio:
            break
        if dark_background:
            colour = tuple(round(c + (255 - c) * 0.2) for c in colour)  # type: ignore[assignment]
        else:
            colour = tuple(round(c * 0.82) for c in colour)  # type: ignore[assignment]
    return colour


# -- drawing -------------------------------------------------------------------------------


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


def _check_width(width: int) -> int:
    if not MIN_WIDTH <= width <= MAX_WIDTH:
        raise ValueError(f"width must be {MIN_WIDTH} to {MAX_WIDTH} pixels, not {width}")
    return width


def _compose(
    texts: RecapTexts,
    names: Sequence[str],
    colours: Sequence[RGB],
    lang: str,
    *,
    width: int,
    theme: str,
    y_values: tuple[int, int],
    x_ticks: Sequence[tuple[float, str]],
    x_range: tuple[float, float],
    y_format: Callable[[int], str],
    plot: Callable[[ImageDraw.ImageDraw, Callable[[float, float], tuple[float, float]], int], None],
    with_key: bool,
    x_grid: bool = True,
) -> Drawing:
    """The common picture: title, axes and grid, the plot (drawn by ``plot``), legend, lines.

    ``plot(draw, to_xy, scale)`` draws the data on a transparent layer ``scale`` times
    the size of the image (for smooth edges); ``to_xy(x, y)`` maps data to its pixels.
    """
    width = _check_width(width)
    pal = palette(theme)
    frame = _frame(width, texts, len(names), with_key)
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
    low, high = y_values
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
    x_low, x_high = x_range
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
    grid_x = [round(to_xy(x, y_low)[0]) for x, _ in x_ticks] if x_grid else []

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
        plot(layer, lambda x, v: at(*to_xy(x, v)), ss)

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
    if with_key:
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


#: Draws with smooth edges: ``paint(draw, at, ss)`` (see :func:`_smooth`).
Painter = Callable[[ImageDraw.ImageDraw, Callable[[float, float], tuple[float, float]], int], None]


def _smooth(image: Image.Image, box: Box, paint: Painter, *, background: RGB | None = None) -> None:
    """Let ``paint`` draw into ``box`` of ``image`` with smooth edges.

    Pillow draws shapes without anti-aliasing, so ``paint(draw, at, ss)`` draws at
    ``ss`` (:data:`SUPERSAMPLE`) times the size, ``at(x, y)`` mapping image pixels to
    the large ones, which are then averaged back and pasted over the box. The large
    picture starts as plain ``background`` (the box must be that colour and empty), or
    else as the box's own pixels enlarged without smoothing (so they come back
    unchanged). Either is several times cheaper than a transparent layer, and cheaper
    than the board's 4x token sprites when those are not cached.
    """
    ss = SUPERSAMPLE
    x0, y0, x1, y1 = box
    size = ((x1 - x0) * ss, (y1 - y0) * ss)
    if background is not None:
        layer = Image.new("RGB", size, background)
    else:
        layer = image.crop(box).resize(size, Image.Resampling.NEAREST)

    def at(x: float, y: float) -> tuple[float, float]:
        return (x - x0) * ss, (y - y0) * ss

    paint(ImageDraw.Draw(layer), at, ss)
    image.paste(layer.reduce(ss), (x0, y0))


def _token(
    draw: ImageDraw.ImageDraw,
    centre: tuple[float, float],
    diameter: float,
    colour: RGB,
    initials: str,
    shadow: RGB,
    size: int,
) -> None:
    """A player's token as the board draws it (:func:`render.sprites.token`): a coloured
    disc with a white rim, a dark edge, a shadow and the initials (font ``size``)."""
    x, y = centre
    r = diameter / 2
    drop = max(1.0, diameter / 18)
    draw.ellipse((x - r + drop, y - r + drop, x + r + drop, y + r + drop), fill=shadow)
    draw.ellipse((x - r, y - r, x + r, y + r), fill=(25, 28, 30))
    rim = r - max(1.0, diameter / 22)
    draw.ellipse((x - rim, y - rim, x + rim, y + rim), fill=(255, 255, 255))
    inner = rim - max(1.0, diameter / 12)
    draw.ellipse((x - inner, y - inner, x + inner, y + inner), fill=colour)
    f = font("bold", size)
    text = ellipsize(initials, f, round(2 * inner))
    draw.text((x, y), text, font=f, fill=sprites.contrast_text(colour), anchor="mm")


def _legend(
    image: Image.Image,
    painter: _Painter,
    frame: _Frame,
    texts: RecapTexts,
    names: Sequence[str],
    colours: Sequence[RGB],
    pal: Palette,
) -> None:
    """Per player: the token, the name in the player's colour (darkened to read) and a note."""
    sizes, pad = frame.sizes, frame.pad
    column_w = (frame.width - 2 * pad) // frame.legend_columns
    d = token_diameter(frame.width)
    initials = player_initials(list(names))
    initial_size = math.floor(d * (0.5 if max(map(len, initials), default=1) <= 1 else TOKEN_SHARE))
    name_font = font("bold", sizes["name"])
    note_font = font("regular", sizes["small"])
    gap = round(sizes["small"] * 0.5)
    places = []
    for seat in range(len(names)):
        row, column = divmod(seat, frame.legend_columns)
        x0 = pad + column * column_w
        cy = frame.legend_top + row * frame.legend_row_height + frame.legend_row_height / 2
        places.append((x0, cy))
    shadow = tuple(round(c * 0.62) for c in pal["centre"])

    def tokens(draw: ImageDraw.ImageDraw, at: Callable[..., tuple[float, float]], ss: int) -> None:
        for seat, (x0, cy) in enumerate(places):
            _token(
                draw,
                at(x0 + d / 2 + 1, cy),
                d * ss,
                colours[seat],
                initials[seat],
                shadow,  # type: ignore[arg-type]
                initial_size * ss,
            )

    bottom = frame.legend_top + frame.legend_rows * frame.legend_row_height
    _smooth(
        image, (pad, frame.legend_top, frame.width - pad, bottom), tokens, background=pal["centre"]
    )
    for seat, name in enumerate(names):
        x0, cy = places[seat]
        painter.texts.append(
            DrawnText(
                initials[seat],
                "bold",
                initial_size,
                (x0, cy),
                "lm",
                "token",
                fixed_box=(x0, round(cy - d / 2), x0 + d, round(cy + d / 2)),
            )
        )
        tx = x0 + d + 2 * gap
        room = x0 + column_w - tx - gap
        note = texts.notes[seat] if seat < len(texts.notes) else ""
        shown = ellipsize(printable(name), name_font, room)
        ink = readable(colours[seat], pal["centre"])
        if note:
            painter.text(
                (tx, cy - sizes["small"] * 0.1),
                shown,
                "bold",
                sizes["name"],
                ink,
                anchor="ls",
                role="name",
            )
            painter.text(
                (tx, cy + sizes["small"] * 0.25),
                ellipsize(printable(note), note_font, room),
                "regular",
                sizes["small"],
                pal["text_muted"],
                anchor="la",
                role="note",
            )
        else:
            painter.text((tx, cy), shown, "bold", sizes["name"], ink, anchor="lm", role="name")


def _cross(
    draw: ImageDraw.ImageDraw, centre: tuple[float, float], size: float, colour: RGB, edge: RGB
) -> None:
    """The bankruptcy marker: a cross in the player's colour with a dark edge."""
    x, y = centre
    h = size / 2
    for width, ink in ((size * 0.42, edge), (size * 0.24, colour)):
        w = max(1, round(width))
        draw.line((x - h, y - h, x + h, y + h), fill=ink, width=w)
        draw.line((x - h, y + h, x + h, y - h), fill=ink, width=w)


def _dot(
    draw: ImageDraw.ImageDraw, centre: tuple[float, float], size: float, colour: RGB, edge: RGB
) -> None:
    """The group marker: a disc in the group's colour with a white ring and a dark edge."""
    x, y = centre
    r = size / 2
    draw.ellipse((x - r, y - r, x + r, y + r), fill=edge)
    r2 = r * 0.84
    draw.ellipse((x - r2, y - r2, x + r2, y + r2), fill=(255, 255, 255))
    r3 = r * 0.64
    draw.ellipse((x - r3, y - r3, x + r3, y + r3), fill=colour)


def _key(
    image: Image.Image, painter: _Painter, frame: _Frame, texts: RecapTexts, pal: Palette
) -> None:
    """What the two markers mean: each marker once (in a neutral colour), then its words."""
    sizes, pad = frame.sizes, frame.pad
    size = sizes["small"] * 0.9
    cy = frame.key_top + frame.key_height / 2
    small = font("regular", sizes["small"])
    entries = []
    x = pad
    for kind, text in (("cross", texts.bankrupt_key), ("dot", texts.group_key)):
        if not text:
            continue
        side = math.ceil(size * 1.4)
        entries.append((kind, x + side / 2, x + side + round(sizes["small"] * 0.4), text))
        x += side + round(sizes["small"] * 0.4) + text_width(small, printable(text))
        x += round(sizes["small"] * 1.5)

    def marks(draw: ImageDraw.ImageDraw, at: Callable[..., tuple[float, float]], ss: int) -> None:
        for kind, mx, _, _ in entries:
            if kind == "cross":
                _cross(draw, at(mx, cy), size * ss, pal["text_muted"], pal["line"])
            else:
                _dot(draw, at(mx, cy), size * ss, pal.group("orange"), pal["line"])

    key_box = (pad, frame.key_top, frame.width - pad, frame.key_top + frame.key_height)
    _smooth(image, key_box, marks, background=pal["centre"])
    for _, _, tx, text in entries:
        painter.text(
            (tx, cy),
            printable(text),
            "regular",
            sizes["small"],
            pal["text_muted"],
            anchor="lm",
            role="key",
        )


def _x_ticks(low: int, high: int, plot_width: int, label_width: int, start: int = 0) -> list[int]:
    """Round tick values between ``low`` and ``high`` whose labels do not touch."""
    room = max(1, plot_width // max(1, label_width * 2))
    step = nice_step(high - low, min(8, room))
    first = math.ceil(max(low, start) / step) * step
    return list(range(first, high + 1, step))


# -- the board game ------------------------------------------------------------------------


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
    texts = texts or RecapTexts()
    names = list(names if names is not None else recap.players)
    pal = palette(theme)
    colours = list(colours if colours is not None else player_colours(len(names), theme))
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

    return _compose(
        texts,
        names,
        colours,
        lang,
        width=width,
        theme=theme,
        y_values=(low, high),
        x_ticks=x_ticks,
        x_range=(0, turns),
        y_format=y_format,
        plot=plot,
        with_key=bool(texts.bankrupt_key or texts.group_key),
    )


def render_board_recap(
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
) -> bytes:
    """The board game's recap as PNG bytes.

    A line per player: net worth (y, in the board's currency, or only figures with a
    theme's ``terms["currency"]``, which the caller's ``texts.y_label`` then names) at
    the start and the end of every turn (x). A line ends where its player went
    bankrupt, marked with a cross in the player's colour; a dot in a group's colour
    sits on the line of the player who completed that colour group, at that turn.
    ``names`` default to the recap's, ``colours`` to the board's token colours of
    ``theme`` (:func:`player_colours`), ``group_colours`` to the board's bar colours.
    """
    drawing = draw_board_recap(
        recap,
        names,
        colours,
        lang,
        texts=texts,
        theme=theme,
        group_colours=group_colours,
        terms=terms,
        currency=currency,
        width=width,
    )
    return encode_png(drawing.image)


# -- the card game -------------------------------------------------------------------------


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
    texts = texts or RecapTexts()
    names = list(names if names is not None else recap.players)
    pal = palette(theme)
    colours = list(colours if colours is not None else player_colours(len(names), theme))
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

    return _compose(
        texts,
        names,
        colours,
        lang,
        width=width,
        theme=theme,
        y_values=(low, high),
        x_ticks=x_ticks,
        x_range=(0, count),
        y_format=lambda value: digits(value, lang),
        plot=plot,
        with_key=False,
        x_grid=False,  # the rounds' bars stand in groups; lines through them would cut them
    )


def render_card_recap(
    recap: CardRecap,
    names: Sequence[str] | None = None,
    colours: Sequence[RGB] | None = None,
    lang: str = "de",
    *,
    texts: RecapTexts | None = None,
    theme: str = "light",
    width: int = DEFAULT_WIDTH,
) -> bytes:
    """The card game's recap as PNG bytes: per round (x) a bar per player of its points (y).

    The bars are in the players' token colours (as on the table image), in seat order
    within each round; ``texts.notes`` can carry each player's total for the legend.
    """
    drawing = draw_card_recap(recap, names, colours, lang, texts=texts, theme=theme, width=width)
    return encode_png(drawing.image)
