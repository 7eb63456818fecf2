"""The board image posted after each turn: a pure function from game state to PNG bytes.

(One long module: the drawing steps share the layout's geometry and the cached static
layer; split, they would pass a dozen arguments around.)

The picture has two layers. The *static* layer (squares, colour bars, icons, names and
prices) depends only on the board, theme, language, size and display names; it is drawn
once and cached. Each render copies it and draws the *state* on top: owners, mortgages,
houses and hotels, tokens, the move just made and the centre panel (players, bank, dice,
turn, deadline). Last, the picture is limited to 256 colours (:mod:`render.png`), which
the PNG then stores exactly.

A player has one mark, the badge (:mod:`render.badges`, a ringed disc with the initial):
on the lots they own and in the players' list. A colour group's mark is a bar, so the
two never look alike. The pieces on the board are the same disc on a point (a pin,
:func:`sprites.pin`), so a piece never looks like an owner either.
"""

from __future__ import annotations

import re
import threading
from collections import OrderedDict, defaultdict
from collections.abc import Mapping, Sequence
from datetime import datetime
from functools import lru_cache
from typing import Any

from PIL import Image, ImageDraw, ImageFont

from bot.engine.board import Board
from bot.engine.state import BANK, HOTEL, GameState
from bot.engine.wealth import wealth
from render import sprites
from render.assets import (
    RGB,
    Labels,
    Palette,
    colours_key,
    currency_symbol,
    font,
    labels,
    palette,
)
from render.badges import draw_player_badge, player_badge
from render.layout import Box, Layout, SquareGeometry, board_layout
from render.png import encode_png, limit_colours
from render.text import Fitted, draw_fitted, ellipsize, fit_text, text_width

DEFAULT_SIZE = 1400
STATIC_CACHE_SIZE = 8

_static_cache: OrderedDict[tuple[Any, ...], Image.Image] = OrderedDict()
_static_lock = threading.Lock()  # the bot may render in worker threads


# -- names and small helpers ---------------------------------------------------------


def display_names(board: Board, names: Mapping[int, str] | None = None) -> list[str]:
    """The name shown on each square: the theme's name if given, else the board's."""
    names = names or {}
    return [names.get(s.index, s.name) for s in board.squares]


def _names_key(names: Mapping[int, str] | None) -> tuple[tuple[int, str], ...]:
    return tuple(sorted((int(k), str(v)) for k, v in (names or {}).items()))


def jail_labels(name: str, lab: Labels) -> tuple[str, str]:
    """The jail corner's two texts: the cell's and the visitors' ("Gefängnis", "Nur zu Besuch").

    A name written as "In Jail / Just Visiting" gives both; otherwise the visitors' label
    comes from the language.
    """
    if "/" in name:
        cell, visiting = (part.strip() for part in name.split("/", 1))
        if cell and visiting:
            return cell, visiting
    return name, lab["visiting"]


_EMOJI = re.compile("[\U0001f000-\U0001faff\u2600-\u27bf\ufe0f\u200d]")


def printable(name: str) -> str:
    """``name`` without emoji, which the bundled font cannot draw."""
    return _EMOJI.sub("", name).strip() or "?"


def player_initials(names: Sequence[str]) -> list[str]:
    """Short, distinct token labels: one letter; two where letters clash; else letter + seat.

    Decided per clashing group, so players who share a letter are labelled alike
    ("An", "Ch" or "A1", "A2"), never a mix.
    """
    clean = [printable(n) for n in names]

    def first(name: str) -> str:
        return next((ch for ch in name if ch.isalnum()), "?").upper()

    def two(name: str) -> str:
        words = [w for w in name.split() if any(ch.isalnum() for ch in w)]
        if len(words) >= 2:
            return first(words[0]) + first(words[1])
        letters = [ch for ch in name if ch.isalnum()]
        return first(name) + (letters[1].lower() if len(letters) > 1 else "")

    result = [first(n) for n in clean]
    for letter in set(result):
        group = [i for i, label in enumerate(result) if label == letter]
        if len(group) < 2:
            continue
        pairs = [two(clean[i]) for i in group]
        unique = len(set(pairs)) == len(pairs) and all(len(p) == 2 for p in pairs)
        for i, pair in zip(group, pairs, strict=True):
            result[i] = pair if unique else f"{letter}{i + 1}"
    return result


def short_board_name(board: Board) -> str:
    """The board's name without its edition notes: the part before any bracket."""
    return board.name.split("(", 1)[0].strip(" ,–-") or board.id


def format_deadline(when: datetime, lab: Labels) -> str:
    """A deadline as players read it: ``"Mo 14. Okt 18:00 UTC"`` / ``"Mon 14 Oct 18:00 UTC"``."""
    text = lab["date_format"].format(
        wd=lab["weekdays"][when.weekday()],
        d=when.day,
        mon=lab["months"][when.month - 1],
        H=when.hour,
        M=when.minute,
    )
    zone = when.tzname()
    return f"{text} {zone}" if zone else text


# -- sizes -----------------------------------------------------------------------------


def _name_sizes(size: int) -> tuple[int, int]:
    """Largest and smallest font size of square names at image size ``size``."""
    return max(9, round(size * 0.0136)), max(7, round(size * 0.0093))


def _line_width(size: int) -> int:
    return max(1, round(size / 900))


# -- the static layer ------------------------------------------------------------------


def fitted_names(
    board: Board,
    *,
    lang: str = "de",
    names: Mapping[int, str] | None = None,
    size: int = DEFAULT_SIZE,
) -> list[tuple[int, str, Fitted, Box]]:
    """Every text of the static layer as laid out: ``(square, text, fitted, box)``.

    The static layer draws exactly these, so a test can check that every name fits.
    """
    layout = board_layout(size)
    lab = labels(lang)
    shown = display_names(board, names)
    max_size, min_size = _name_sizes(size)
    corner_max = round(layout.corner * 0.13)
    result: list[tuple[int, str, Fitted, Box]] = []

    def add(index: int, text: str, box: Box, **kwargs: Any) -> None:
        kwargs.setdefault("max_size", max_size)
        kwargs.setdefault("min_size", min_size)
        w, h = box[2] - box[0], box[3] - box[1]
        result.append((index, text, fit_text(text, w, h, **kwargs), box))

    for geo in layout.squares:
        text = shown[geo.index]
        if geo.index == board.jail_index and geo.side == "corner":
            cell, visiting = jail_labels(text, lab)
            add(geo.index, cell, geo.name, max_size=corner_max, max_lines=1)
            add(geo.index, visiting, geo.extra, max_size=corner_max, max_lines=2)
        elif geo.side == "corner":
            big = board.squares[geo.index].kind == "go"
            add(
                geo.index,
                text,
                geo.name,
                face="bold" if big else "condensed",
                max_size=round(layout.corner * (0.22 if big else 0.13)),
                max_lines=1 if big else 3,
            )
        else:
            add(geo.index, text, geo.name)
    return result


def static_layer(
    board: Board,
    *,
    theme: str = "light",
    lang: str = "de",
    names: Mapping[int, str] | None = None,
    colors: Mapping[str, Any] | None = None,
    size: int = DEFAULT_SIZE,
    salary: int | None = None,
) -> Image.Image:
    """The cached picture of the empty board. Do not draw on it: copy it first."""
    salary = board.salary if salary is None else salary
    key = (board.id, theme, lang, size, _names_key(names), colours_key(colors), salary)
    with _static_lock:
        cached = _static_cache.get(key)
        if cached is not None:
            _static_cache.move_to_end(key)
            return cached
    image = _draw_static(board, theme, lang, names, colors, size, salary)
    with _static_lock:
        _static_cache[key] = image
        while len(_static_cache) > STATIC_CACHE_SIZE:
            _static_cache.popitem(last=False)
    return image


def clear_cache() -> None:
    """Forget the cached static layers (benchmarks measure a cold render this way)."""
    with _static_lock:
        _static_cache.clear()
    sprites.token.cache_clear()
    sprites.pin.cache_clear()
    player_badge.cache_clear()
    sprites.house.cache_clear()
    sprites.hotel.cache_clear()
    sprites.die.cache_clear()
    sprites.icon.cache_clear()
    sprites.stamp.cache_clear()
    hatch_mask.cache_clear()


def _paste_centred(image: Image.Image, sprite: Image.Image, centre: tuple[float, float]) -> None:
    x = round(centre[0] - sprite.width / 2)
    y = round(centre[1] - sprite.height / 2)
    image.paste(sprite, (x, y), sprite)


def icon_kind(board: Board, index: int) -> str | None:
    """The pictogram of a square that has no colour bar (see :func:`sprites.icon`)."""
    square = board.squares[index]
    if square.kind == "utility":
        # Which utility is which: the first one on the board is the power station.
        first = min(board.groups.get(square.group or "", (index,)))
        return "power" if index == first else "water"
    return {
        "railroad": "railroad",
        "chance": "chance",
        "community": "community",
        "tax": "tax",
    }.get(square.kind)


def _draw_static(
    board: Board,
    theme: str,
    lang: str,
    names: Mapping[int, str] | None,
    colors: Mapping[str, Any] | None,
    size: int,
    salary: int,
) -> Image.Image:
    layout = board_layout(size)
    pal = palette(theme, colours_key(colors))
    lab = labels(lang)
    image = Image.new("RGB", (size, size), pal["frame"])
    draw = ImageDraw.Draw(image)
    lw = _line_width(size)
    draw.rectangle(layout.centre, fill=pal["centre"])
    cx0, cy0, cx1, cy1 = layout.centre
    draw.rectangle((cx0, cy0, cx1 - 1, cy1 - 1), outline=pal["line"], width=lw)

    for geo in layout.squares:
        square = board.squares[geo.index]
        draw.rectangle(geo.rect, fill=pal["square"])
        if geo.side == "corner":
            _draw_corner_static(image, draw, board, geo, layout, pal, lab, salary)
            continue
        if square.kind == "street":
            draw.rectangle(_inclusive(geo.strip), fill=pal.group(square.group))
        else:
            kind = icon_kind(board, geo.index)
            if kind:
                sx0, sy0, sx1, sy1 = geo.strip
                inset = max(2, layout.strip // 10)
                colour = pal[sprites.ICON_COLOURS[kind]]
                sprite = sprites.icon(
                    kind,
                    sx1 - sx0 - 2 * inset,
                    sy1 - sy0 - 2 * inset,
                    colour,
                    pal["line"],
                    currency_symbol(board.currency),
                )
                image.paste(sprite, (sx0 + inset, sy0 + inset), sprite)
        amount = square.price if square.is_property else square.amount
        draw.rectangle(_inclusive(geo.band), fill=pal["square_alt"])
        if amount:
            bx0, by0, bx1, by1 = geo.band
            text = lab.money(amount, board.currency)
            # The side squares' tags are narrower than the bands: long prices shrink.
            price_size = max(8, round(layout.band * 0.62))
            while (
                price_size > 8 and text_width(font("condensed", price_size), text) > bx1 - bx0 - 4
            ):
                price_size -= 1
            draw.text(
                ((bx0 + bx1) / 2, (by0 + by1) / 2),
                text,
                font=font("condensed", price_size),
                fill=pal["text"],
                anchor="mm",
            )

    for index, _text, fitted, box in fitted_names(board, lang=lang, names=names, size=size):
        geo = layout.squares[index]
        colour = pal["text"]
        draw_fitted(draw, fitted, box, colour, valign="top" if geo.side != "corner" else "middle")

    # Grid lines last, so bars and fills never cover them.
    for geo in layout.squares:
        draw.rectangle(geo.rect, outline=pal["line"], width=lw)
        if geo.side != "corner":
            if board.squares[geo.index].kind == "street":
                draw.rectangle(geo.strip, outline=pal["line"], width=lw)
            for edge in _band_edges(geo):
                draw.line(edge, fill=pal["line"], width=max(1, lw // 2))
    return image


def _inclusive(box: Box) -> Box:
    return box[0], box[1], box[2] - 1, box[3] - 1


def _band_edges(geo: SquareGeometry) -> list[tuple[int, int, int, int]]:
    """The band's edges inside the square: towards the name, and a side tag's inner side."""
    x0, y0, x1, y1 = geo.band
    y = y1 if geo.side == "top" else y0
    edges = [(x0, y, x1, y)]
    if geo.side in ("left", "right"):
        x = x1 if geo.side == "left" else x0
        edges.append((x, y0, x, y1))
    return edges


def _draw_corner_static(
    image: Image.Image,
    draw: ImageDraw.ImageDraw,
    board: Board,
    geo: SquareGeometry,
    layout: Layout,
    pal: Palette,
    lab: Labels,
    salary: int,
) -> None:
    kind = board.squares[geo.index].kind
    ix0, iy0, ix1, iy1 = geo.strip
    if kind == "go":
        hint = lab.text("go_hint", salary=lab.money(salary, board.currency))
        w, h = geo.extra[2] - geo.extra[0], geo.extra[3] - geo.extra[1]
        fitted = fit_text(hint, w, h, face="regular", max_size=round(h * 0.7), min_size=7)
        draw_fitted(draw, fitted, geo.extra, pal["text_muted"])
        sprite = sprites.icon("go", ix1 - ix0, iy1 - iy0, pal["go_arrow"], pal["line"])
        image.paste(sprite, (ix0, iy0), sprite)
    elif kind == "jail":
        draw.rectangle(_inclusive(geo.cell), fill=pal["jail_cell"])
        draw.rectangle(geo.cell, outline=pal["line"], width=_line_width(layout.size))
    elif kind in ("free_parking", "go_to_jail"):
        which = "parking" if kind == "free_parking" else "police"
        colour = pal["icon_parking" if which == "parking" else "icon_police"]
        sprite = sprites.icon(which, ix1 - ix0, iy1 - iy0, colour, pal["line"])
        image.paste(sprite, (ix0, iy0), sprite)


# -- the state layer -------------------------------------------------------------------


def draw_board(
    state: GameState,
    *,
    theme: str = "light",
    lang: str = "de",
    names: Mapping[int, str] | None = None,
    colors: Mapping[str, Any] | None = None,
    size: int = DEFAULT_SIZE,
    deadline: datetime | None = None,
    preset_label: str | None = None,
    highlight_move: tuple[int, int] | None = None,
    mover: int | None = None,
    terms: Mapping[str, str] | None = None,
) -> Image.Image:
    """The board image of ``state`` as an RGB Pillow image (see :func:`render_board`).

    Exactly the pixels of :func:`render_board`'s PNG: at most 256 colours, every flat
    colour exact, anti-aliased edges on their nearest (:func:`render.png.limit_colours`).
    """
    full = _draw_full(
        state,
        theme=theme,
        lang=lang,
        names=names,
        colors=colors,
        size=size,
        deadline=deadline,
        preset_label=preset_label,
        highlight_move=highlight_move,
        mover=mover,
        terms=terms,
    )
    return limit_colours(full).convert("RGB")


def _draw_full(
    state: GameState,
    *,
    theme: str = "light",
    lang: str = "de",
    names: Mapping[int, str] | None = None,
    colors: Mapping[str, Any] | None = None,
    size: int = DEFAULT_SIZE,
    deadline: datetime | None = None,
    preset_label: str | None = None,
    highlight_move: tuple[int, int] | None = None,
    mover: int | None = None,
    terms: Mapping[str, str] | None = None,
) -> Image.Image:
    """The board drawn in full colour, before :func:`limit_colours` (see :func:`draw_board`)."""
    board = state.board
    salary = state.rules.salary if state.rules.salary is not None else board.salary
    base = static_layer(
        board, theme=theme, lang=lang, names=names, colors=colors, size=size, salary=salary
    )
    image = base.copy()
    draw = ImageDraw.Draw(image)
    layout = board_layout(size)
    pal = palette(theme, colours_key(colors))
    # The theme's words reach the centre panel; prices on the squares keep the symbol.
    lab = labels(lang).with_terms(terms or {})
    initials = player_initials([p.name for p in state.players])
    _draw_ownership(image, draw, state, layout, pal, lab, initials)
    _draw_buildings(image, state, layout, pal)
    if highlight_move is not None:
        _draw_move(draw, state, layout, pal, highlight_move, mover)
    # Bars first: tokens in front stay readable, and the cell still says "jail".
    _draw_jail_bars(draw, layout, pal, board.jail_index)
    _draw_tokens(image, state, layout, pal, initials)
    _draw_panel(image, draw, state, layout, pal, lab, initials, deadline, preset_label)
    return image


def render_board(
    state: GameState,
    *,
    theme: str = "light",
    lang: str = "de",
    names: Mapping[int, str] | None = None,
    colors: Mapping[str, Any] | None = None,
    size: int = DEFAULT_SIZE,
    deadline: datetime | None = None,
    preset_label: str | None = None,
    highlight_move: tuple[int, int] | None = None,
    mover: int | None = None,
    terms: Mapping[str, str] | None = None,
) -> bytes:
    """The board image of ``state`` as PNG bytes.

    ``theme`` picks the palette ("light" or "dark") and ``colors`` overrides any of its
    keys (``{"groups": {"red": "#aa0000"}}``, ``{"players": [...]}``); ``names`` maps
    square indices to a theme's names; ``lang`` ("de", "en") picks the small labels.
    ``highlight_move=(from, to)`` draws the move just made (forward, or backward for a
    step back of up to three squares; a trip to jail is only marked at the jail), in the
    colour of ``mover`` (by default the player standing on ``to``). ``deadline`` and
    ``preset_label`` appear in the centre panel; ``terms`` are a theme's words for the
    bank, houses, hotels and the currency there.
    """
    return encode_png(
        limit_colours(
            _draw_full(
                state,
                theme=theme,
                lang=lang,
                names=names,
                colors=colors,
                size=size,
                deadline=deadline,
                preset_label=preset_label,
                highlight_move=highlight_move,
                mover=mover,
                terms=terms,
            )
        )
    )


@lru_cache(maxsize=4)
def hatch_mask(size: int) -> Image.Image:
    """Diagonal hatching over the whole image, as a mask to cut per mortgaged lot."""
    mask = Image.new("L", (size, size), 0)
    draw = ImageDraw.Draw(mask)
    step = max(5, round(size / 150))
    width = max(1, round(size / 700))
    for c in range(-size, size, step):
        draw.line((c, 0, c + size, size), fill=150, width=width)
    return mask


def owner_badge_diameter(layout: Layout) -> int:
    """Diameter of the owner's badge in a square's band (a little taller than the band)."""
    return max(10, round(layout.band * 1.12))


def owner_badge_centre(geo: SquareGeometry, layout: Layout) -> tuple[float, float]:
    """Where the owner's badge of a square sits: in the band, flush with its outer edge.

    A badge taller than the band reaches into the token area (pieces are drawn later, on
    top), never over the board's frame or the next square.
    """
    bx0, by0, bx1, by1 = geo.band
    d = owner_badge_diameter(layout)
    inset = _line_width(layout.size) + 1
    cy = by0 + inset + d / 2 if geo.side == "top" else by1 - inset - d / 2
    return (bx0 + bx1) / 2, cy


def _draw_ownership(
    image: Image.Image,
    draw: ImageDraw.ImageDraw,
    state: GameState,
    layout: Layout,
    pal: Palette,
    lab: Labels,
    initials: list[str],
) -> None:
    """The owner's badge on each owned lot's band; mortgaged lots faded, hatched, stamped.

    The owner is a badge (a ringed disc with the initial), never a coloured bar: bars are
    the colour groups' mark. The band under the badge stays solid, so on a mortgaged lot
    the hatching covers the square but never the owner.
    """
    hatch = hatch_mask(layout.size)
    d = owner_badge_diameter(layout)
    for index, owner in enumerate(state.owner):
        if owner == BANK:
            continue
        geo = layout.squares[index]
        centre = owner_badge_centre(geo, layout)
        if state.mortgaged[index]:
            x0, y0, x1, y1 = geo.rect
            region = image.crop(geo.rect)
            faded = Image.blend(region, Image.new("RGB", region.size, pal["square"]), 0.45)
            image.paste(faded, (x0, y0))
            # Hatch all but the name, the band and the badge: they stay on solid ground.
            mask = hatch.crop(geo.rect)
            r = d / 2 + 2
            around = (centre[0] - r, centre[1] - r, centre[0] + r, centre[1] + r)
            for kx0, ky0, kx1, ky1 in (geo.name, geo.band, around):
                mask.paste(0, (round(kx0) - x0, round(ky0) - y0, round(kx1) - x0, round(ky1) - y0))
            image.paste(pal["mortgage_hatch"], geo.rect, mask)
            tx0, ty0, tx1, ty1 = geo.tokens
            sprite = sprites.stamp(
                lab["mortgaged"], tx1 - tx0, ty1 - ty0, pal["stamp"], pal["square"]
            )
            _paste_centred(image, sprite, ((tx0 + tx1) / 2, (ty0 + ty1) / 2))
        # The price gives way to the owner.
        draw.rectangle(_inclusive(geo.band), fill=pal["square_alt"])
        for edge in _band_edges(geo):
            draw.line(edge, fill=pal["line"], width=max(1, _line_width(layout.size) // 2))
        draw_player_badge(
            image,
            centre,
            d,
            pal.player(owner),
            initials[owner],
            ring=pal["badge_ring"],
        )
        draw.rectangle(geo.rect, outline=pal["line"], width=_line_width(layout.size))


def _draw_buildings(image: Image.Image, state: GameState, layout: Layout, pal: Palette) -> None:
    """Houses (up to four, in a row along the bar) and hotels on the colour bars."""
    size = layout.house_size
    for index, count in enumerate(state.houses):
        if not count:
            continue
        geo = layout.squares[index]
        x0, y0, x1, y1 = geo.strip
        along_x = geo.side in ("bottom", "top")
        cx, cy = (x0 + x1) / 2, (y0 + y1) / 2
        if count == HOTEL:
            _paste_centred(
                image, sprites.hotel(pal["hotel"], pal["building_outline"], size), (cx, cy)
            )
            continue
        sprite = sprites.house(pal["house"], pal["building_outline"], size)
        length = (x1 - x0) if along_x else (y1 - y0)
        step = length / 4
        start = (length - step * count) / 2 + step / 2
        for k in range(count):
            offset = start + k * step
            centre = (x0 + offset, cy) if along_x else (cx, y0 + offset)
            _paste_centred(image, sprite, centre)


def _steps(start: int, end: int) -> list[int] | None:
    """Squares passed from ``start`` to ``end``: forward, or back for a short step back."""
    forward = (end - start) % 40
    backward = (start - end) % 40
    if forward > 12 and backward <= 3:
        return [(start - k) % 40 for k in range(backward + 1)]
    return [(start + k) % 40 for k in range(forward + 1)]


def _draw_move(
    draw: ImageDraw.ImageDraw,
    state: GameState,
    layout: Layout,
    pal: Palette,
    move: tuple[int, int],
    mover: int | None,
) -> None:
    """The move just made: a path along the inner edge and a frame round the target."""
    start, end = (int(v) % 40 for v in move)
    if mover is None:
        here = [s for s, p in enumerate(state.players) if p.position == end and not p.bankrupt]
        mover = state.current if state.current in here else (here[0] if here else None)
    colour = pal.player(mover) if mover is not None else pal["highlight"]
    width = max(3, round(layout.width * 0.06))
    jailed = mover is not None and end == state.board.jail_index and state.players[mover].in_jail
    if start != end and not jailed:
        path = [layout.squares[i].anchor for i in _steps(start, end) or []]
        if len(path) > 1:
            draw.line(path, fill=colour, width=width, joint="curve")
            r = width
            sx, sy = path[0]
            draw.ellipse((sx - r, sy - r, sx + r, sy + r), fill=colour)
            _arrow_head(draw, path[-2], path[-1], colour, width * 3)
    x0, y0, x1, y1 = layout.squares[end].rect
    frame = max(3, round(layout.width * 0.045))
    draw.rectangle((x0, y0, x1, y1), outline=colour, width=frame)
    draw.rectangle(
        (x0 + frame, y0 + frame, x1 - frame, y1 - frame), outline=(255, 255, 255), width=1
    )


def _arrow_head(
    draw: ImageDraw.ImageDraw,
    tail: tuple[int, int],
    tip: tuple[int, int],
    colour: RGB,
    length: int,
) -> None:
    dx, dy = tip[0] - tail[0], tip[1] - tail[1]
    norm = max(1e-6, (dx * dx + dy * dy) ** 0.5)
    ux, uy = dx / norm, dy / norm
    bx, by = tip[0] - ux * length, tip[1] - uy * length
    half = length * 0.6
    draw.polygon(
        [tip, (bx - uy * half, by + ux * half), (bx + uy * half, by - ux * half)], fill=colour
    )


def place_tokens(
    count: int, box: Box, largest: int, smallest: int
) -> tuple[int, list[tuple[float, float]]]:
    """Diameter and centres of ``count`` tokens in ``box``: a grid, overlapping if crowded."""
    x0, y0, x1, y1 = box
    w, h = x1 - x0, y1 - y0
    gap = 0.12
    for d in range(largest, smallest - 1, -1):
        pitch = d * (1 + gap)
        cols = max(1, int((w + d * gap) // pitch))
        rows = max(1, int((h + d * gap) // pitch))
        if cols * rows >= count and d <= h and d <= w:
            break
    d = min(d, w, h)
    pitch = d * (1 + gap)
    rows = max(1, min(int((h + d * gap) // pitch), count))
    cols = -(-count // rows)
    rows = -(-count // cols)
    step_x = min(pitch, (w - d) / (cols - 1)) if cols > 1 else 0
    step_y = min(pitch, (h - d) / (rows - 1)) if rows > 1 else 0
    total_w = step_x * (cols - 1) + d
    total_h = step_y * (rows - 1) + d
    left = x0 + (w - total_w) / 2 + d / 2
    top = y0 + (h - total_h) / 2 + d / 2
    centres = []
    for k in range(count):
        row, col = divmod(k, cols)
        in_row = min(cols, count - row * cols)
        # Centre a short last row under the full ones.
        shift = (cols - in_row) * step_x / 2
        centres.append((left + shift + col * step_x, top + row * step_y))
    return d, centres


def place_pins(
    count: int, box: Box, largest: int, smallest: int
) -> tuple[int, list[tuple[float, float]]]:
    """Head diameter and head centres of ``count`` pins (:func:`sprites.pin`) in ``box``.

    Like :func:`place_tokens`, with room under the lowest row for the points (a row's
    points may reach into the heads below: the heads are what must not overlap).
    """
    x0, y0, x1, y1 = box
    w, h = x1 - x0, y1 - y0
    gap = 0.12
    for d in range(largest, smallest - 1, -1):
        tail = round(d * sprites.PIN_TAIL)
        cols = max(1, int((w + d * gap) // (d * (1 + gap))))
        rows = -(-count // cols)
        if d <= w and rows * d + (rows - 1) * d * gap + tail <= h:
            break
    else:
        # Too crowded: the smallest heads, overlapping in as many rows as fit.
        d = max(1, min(smallest, w, h))
        tail = round(d * sprites.PIN_TAIL)
        rows = max(1, min(count, int((h - tail + d * gap) // (d * (1 + gap)))))
        cols = -(-count // rows)
    rows = -(-count // cols)
    step_x = min(d * (1 + gap), (w - d) / (cols - 1)) if cols > 1 else 0
    step_y = min(d * (1 + gap), (h - d - tail) / (rows - 1)) if rows > 1 else 0
    total_w = step_x * (cols - 1) + d
    total_h = step_y * (rows - 1) + d + tail
    left = x0 + (w - total_w) / 2 + d / 2
    top = y0 + (h - total_h) / 2 + d / 2
    centres = []
    for k in range(count):
        row, col = divmod(k, cols)
        in_row = min(cols, count - row * cols)
        shift = (cols - in_row) * step_x / 2  # a short last row sits centred
        centres.append((left + shift + col * step_x, top + row * step_y))
    return d, centres


def _draw_tokens(
    image: Image.Image, state: GameState, layout: Layout, pal: Palette, initials: list[str]
) -> None:
    """Every player still in the game on their square, as a pin; the jailed inside the cell."""
    groups: dict[tuple[int, str], list[int]] = defaultdict(list)
    jail = state.board.jail_index
    for seat, player in enumerate(state.players):
        if player.bankrupt:
            continue
        where = "cell" if player.position == jail and player.in_jail else "square"
        groups[(player.position, where)].append(seat)
    largest = layout.token_diameter
    smallest = max(8, round(largest * 0.6))
    for (position, where), seats in groups.items():
        geo = layout.squares[position]
        box = geo.strip if where == "cell" else geo.tokens
        d, centres = place_pins(len(seats), box, largest, smallest)
        # The player to move is drawn last, on top of any crowd.
        order = sorted(range(len(seats)), key=lambda k: seats[k] == state.current)
        for k in order:
            seat = seats[k]
            halo = pal["highlight"] if seat == state.current and state.phase != "over" else None
            sprite = sprites.pin(pal.player(seat), initials[seat], d, halo, edge=pal["badge_ring"])
            sprites.paste_pin(image, sprite, centres[k])


def _draw_jail_bars(draw: ImageDraw.ImageDraw, layout: Layout, pal: Palette, jail: int) -> None:
    """Bars across the cell (behind the jailed tokens, so their initials stay readable)."""
    geo = layout.squares[jail]
    x0, _, x1, y1 = geo.cell
    top = geo.name[3]
    width = max(2, round(layout.size / 450))
    count = 5
    for k in range(1, count + 1):
        x = x0 + (x1 - x0) * k / (count + 1)
        draw.line((x, top, x, y1 - width), fill=pal["jail_bars"], width=width)
    draw.line((x0, top, x1, top), fill=pal["jail_bars"], width=width)


def _draw_panel(
    image: Image.Image,
    draw: ImageDraw.ImageDraw,
    state: GameState,
    layout: Layout,
    pal: Palette,
    lab: Labels,
    initials: list[str],
    deadline: datetime | None,
    preset_label: str | None,
) -> None:
    """The centre: title and turn, whose move it is, the players, dice, bank and deadline."""
    cx0, cy0, cx1, cy1 = layout.centre
    p = cx1 - cx0
    pad = round(p * 0.065)
    left, right = cx0 + pad, cx1 - pad
    y = cy0 + pad

    # Title and turn number.
    turn_font = font("bold", round(p * 0.03))
    turn_text = lab.text("turn", n=state.turn)
    turn_w = round(turn_font.getlength(turn_text))
    title = printable(preset_label) if preset_label else short_board_name(state.board)
    title_h = round(p * 0.05)
    fitted = fit_text(
        title,
        right - left - turn_w - round(p * 0.04),
        title_h,
        face="bold",
        max_size=round(p * 0.042),
        min_size=max(8, round(p * 0.022)),
        max_lines=1,
    )
    draw_fitted(draw, fitted, (left, y, right, y + title_h), pal["title"], align="left")
    draw.text(
        (right, y + title_h / 2), turn_text, font=turn_font, fill=pal["text_muted"], anchor="rm"
    )
    y += title_h + round(p * 0.02)

    # Whose turn it is (or who won).
    line_h = round(p * 0.055)
    status_font = font("bold", round(p * 0.032))
    phase_font = font("regular", round(p * 0.026))
    x = left
    if state.phase == "over":
        text = (
            lab.text("winner", name=printable(state.players[state.winner].name))
            if state.winner is not None
            else lab["game_over"]
        )
        mover = state.winner
        phase = ""
    else:
        mover = state.current
        text = lab.text("to_move", name=printable(state.players[mover].name))
        phase = lab["phase"].get(state.phase, state.phase)
    if mover is not None:
        d = round(line_h * 0.8)
        # The mover's piece as on the board, its head level with the text.
        sprite = sprites.pin(
            pal.player(mover), initials[mover], d, pal["highlight"], edge=pal["badge_ring"]
        )
        sprites.paste_pin(image, sprite, (x + sprite.width / 2, y + line_h / 2))
        x += sprite.width + round(p * 0.012)
    text = ellipsize(text, status_font, right - x)
    draw.text((x, y + line_h / 2), text, font=status_font, fill=pal["text"], anchor="lm")
    x += round(status_font.getlength(text))
    if phase and x < right:
        phase_text = ellipsize(f"  · {phase}", phase_font, right - x)
        draw.text(
            (x, y + line_h / 2), phase_text, font=phase_font, fill=pal["text_muted"], anchor="lm"
        )
    y += line_h + round(p * 0.025)

    # The bottom block (dice, bank, deadline) is laid out from the bottom up.
    bottom = cy1 - pad
    small_font = font("regular", round(p * 0.024))
    if deadline is not None:
        deadline_font = font("bold", round(p * 0.027))
        text = ellipsize(
            lab.text("deadline", when=format_deadline(deadline, lab)), deadline_font, right - left
        )
        draw.text(
            ((left + right) / 2, bottom), text, font=deadline_font, fill=pal["accent"], anchor="md"
        )
        bottom -= round(p * 0.045)
    dice_size = round(p * 0.072)
    block_top = bottom - dice_size
    _draw_dice(image, draw, state, pal, lab, (left, block_top, right, bottom), dice_size)
    _draw_bank(image, draw, state, layout, pal, lab, (left, block_top, right, bottom), small_font)

    # Players table in a card between.
    card = (left, y, right, block_top - round(p * 0.03))
    _draw_players(image, draw, state, pal, lab, initials, card, p)


def _draw_dice(
    image: Image.Image,
    draw: ImageDraw.ImageDraw,
    state: GameState,
    pal: Palette,
    lab: Labels,
    box: Box,
    size: int,
) -> None:
    dice = state.last_dice
    if not dice:
        return
    x0, y0, _, y1 = box
    x = x0
    for value in dice:
        sprite = sprites.die(int(value), size, pal["die"], pal["die_pip"], pal["line"])
        image.paste(sprite, (x, y0), sprite)
        x += size + size // 5
    total_font = font("bold", round(size * 0.5))
    text = f"= {sum(dice)}"
    draw.text((x, (y0 + y1) / 2), text, font=total_font, fill=pal["text"], anchor="lm")
    x += round(total_font.getlength(text)) + size // 4
    if len(dice) == 2 and dice[0] == dice[1]:
        draw.text(
            (x, (y0 + y1) / 2),
            lab["doubles"],
            font=font("bold", round(size * 0.36)),
            fill=pal["accent"],
            anchor="lm",
        )


def _draw_bank(
    image: Image.Image,
    draw: ImageDraw.ImageDraw,
    state: GameState,
    layout: Layout,
    pal: Palette,
    lab: Labels,
    box: Box,
    text_font: ImageFont.FreeTypeFont,
) -> None:
    """The bank's houses and hotels, right-aligned: icons with counts, then the words."""
    _, y0, x1, y1 = box
    cy = (y0 + y1) / 2
    houses = lab.count("house", state.bank_houses)
    hotels = lab.count("hotel", state.bank_hotels)
    big = font("bold", round((y1 - y0) * 0.42))
    icon = round((y1 - y0) * 0.5)
    gap = round(icon * 0.35)
    house_sprite = sprites.house(pal["house"], pal["building_outline"], icon)
    hotel_sprite = sprites.hotel(pal["hotel"], pal["building_outline"], icon)
    words = f"{lab['bank']}: {houses}, {hotels}"
    label_y = y1
    draw.text((x1, label_y), words, font=text_font, fill=pal["text_muted"], anchor="rd")
    row = cy - (y1 - y0) * 0.18
    x = x1
    for sprite, count in ((hotel_sprite, state.bank_hotels), (house_sprite, state.bank_houses)):
        text = str(count)
        draw.text((x, row), text, font=big, fill=pal["text"], anchor="rm")
        x -= round(big.getlength(text)) + gap // 2
        _paste_centred(image, sprite, (x - sprite.width / 2, row))
        x -= sprite.width + gap * 2


def _draw_players(
    image: Image.Image,
    draw: ImageDraw.ImageDraw,
    state: GameState,
    pal: Palette,
    lab: Labels,
    initials: list[str],
    card: Box,
    p: int,
) -> None:
    """One row per player: token, name and status, cash and net worth; the mover stands out."""
    x0, y0, x1, y1 = card
    radius = round(p * 0.02)
    inner = round(p * 0.025)
    head_font = font("regular", round(p * 0.022))
    head_h = round(p * 0.045)
    n = max(1, len(state.players))
    row_h = min(round(p * 0.095), (y1 - y0 - head_h - 2 * inner) // n)
    # The card hugs its rows, so few players do not leave a large empty card.
    y1 = min(y1, y0 + 2 * inner + head_h + n * row_h)
    draw.rounded_rectangle(
        (x0, y0, x1, y1), radius, fill=pal["centre_card"], outline=pal["centre_line"], width=2
    )
    money_font = font("bold", max(8, min(round(p * 0.03), round(row_h * 0.46))))
    name_font = font("bold", max(8, min(round(p * 0.03), round(row_h * 0.44))))
    status_font = font("regular", max(7, min(round(p * 0.021), round(row_h * 0.3))))
    currency = state.board.currency
    cash_texts = [lab.figure(pl.cash, currency) for pl in state.players]
    worth_texts = [lab.figure(wealth(state, seat), currency) for seat in range(n)]
    gap = round(p * 0.04)

    def widest(texts: list[str], heading: str) -> int:
        return max(
            [round(money_font.getlength(t)) for t in texts] + [round(head_font.getlength(heading))]
        )

    # Columns as wide as their longest figure, so large sums (DM editions) never touch.
    col_worth = x1 - inner
    col_cash = col_worth - max(round(p * 0.2), widest(worth_texts, lab["worth"]) + gap)
    head_y = y0 + inner + head_h / 2
    draw.text((col_cash, head_y), lab["cash"], font=head_font, fill=pal["text_muted"], anchor="rm")
    draw.text(
        (col_worth, head_y), lab["worth"], font=head_font, fill=pal["text_muted"], anchor="rm"
    )
    top = y0 + inner + head_h
    name_left = x0 + inner + round(row_h * 0.95)
    name_right = col_cash - max(round(p * 0.17), widest(cash_texts, lab["cash"]) + gap)
    for seat, player in enumerate(state.players):
        ry0 = top + seat * row_h
        cy = ry0 + row_h / 2
        current = seat == state.current and state.phase != "over"
        if current:
            draw.rounded_rectangle(
                (x0 + inner // 2, ry0 + 2, x1 - inner // 2, ry0 + row_h - 2),
                radius // 2,
                fill=pal["row_current"],
            )
        elif seat:
            draw.line((x0 + inner, ry0, x1 - inner, ry0), fill=pal["centre_line"], width=1)
        # The same badge that marks the player's lots: this row is its key.
        d = round(row_h * 0.66)
        draw_player_badge(
            image,
            (x0 + inner + round(row_h * 0.36), cy),
            d,
            pal.player(seat),
            initials[seat],
            ring=pal["badge_ring"],
        )
        muted = player.bankrupt
        colour = pal["text_muted"] if muted else pal["text"]
        name = ellipsize(printable(player.name), name_font, name_right - name_left)
        status = []
        if player.bankrupt:
            status.append(lab["bankrupt"])
        elif player.in_jail:
            status.append(lab["in_jail"])
        if status:
            draw.text((name_left, cy), name, font=name_font, fill=colour, anchor="ls")
            draw.text(
                (name_left, cy + row_h * 0.06),
                " · ".join(status),
                font=status_font,
                fill=pal["accent"] if player.in_jail and not muted else pal["text_muted"],
                anchor="la",
            )
        else:
            draw.text((name_left, cy), name, font=name_font, fill=colour, anchor="lm")
        if player.bankrupt:
            width = round(name_font.getlength(name))
            draw.line(
                (name_left, cy - row_h * 0.14, name_left + width, cy - row_h * 0.14),
                fill=pal["text_muted"],
                width=2,
            )
            continue
        draw.text((col_cash, cy), cash_texts[seat], font=money_font, fill=colour, anchor="rm")
        draw.text(
            (col_worth, cy), worth_texts[seat], font=money_font, fill=pal["text_muted"], anchor="rm"
        )
