"""Under the chart: the legend (each player's token, name and note) and the markers' key."""

from __future__ import annotations

import math
from collections.abc import Callable, Sequence

from PIL import Image, ImageDraw

from render.assets import RGB, Palette, font
from render.board import player_initials, printable
from render.recap.colours import readable
from render.recap.frame import _Frame
from render.recap.marks import _cross, _dot, _smooth, _token
from render.recap.sizes import TOKEN_SHARE, token_diameter
from render.recap.texts import DrawnText, RecapTexts, _Painter
from render.text import ellipsize, text_width


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
