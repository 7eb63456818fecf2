"""A compact board for the lobby and game summaries: who owns what, at a glance.

No square names: each square is a small cell showing its colour group (a strip on the
inner edge), its owner (the player's badge, see :mod:`render.badges`), buildings (houses
and hotels on the strip, as on the big board) and mortgages (hatched round the badge).
The players' pieces are pins pointing at their cells from just inside the ring (in the
corners, inside); the centre lists the players by net worth. It stays readable as a
thumbnail (about 560 px).
"""

from __future__ import annotations

import threading
from collections import defaultdict
from collections.abc import Mapping
from typing import Any

from PIL import Image, ImageDraw

from bot.engine.board import Board
from bot.engine.state import BANK, HOTEL, GameState
from bot.engine.wealth import standings
from render import sprites
from render.assets import Labels, Palette, colours_key, currency_symbol, font, labels, palette
from render.badges import draw_player_badge
from render.board import (
    hatch_mask,
    icon_kind,
    place_pins,
    place_tokens,
    player_initials,
    printable,
    short_board_name,
)
from render.layout import Box
from render.png import encode_png, limit_colours
from render.text import draw_fitted, ellipsize, fit_text

DEFAULT_COMPACT_SIZE = 560
STRIP = 0.3  # depth of a cell's colour strip, as a share of the cell

_cache: dict[tuple[Any, ...], Image.Image] = {}
_lock = threading.Lock()


def cell_box(index: int, size: int) -> Box:
    """The cell of square ``index`` on an 11 x 11 grid (GO at the bottom right)."""
    c = size / 11
    side, k = divmod(index, 10)
    if side == 0:
        col, row = 10 - k, 10
    elif side == 1:
        col, row = 0, 10 - k
    elif side == 2:
        col, row = k, 0
    else:
        col, row = 10, k
    return round(col * c), round(row * c), round((col + 1) * c), round((row + 1) * c)


def _static(board: Board, pal: Palette, size: int, key: tuple[Any, ...]) -> Image.Image:
    with _lock:
        if key in _cache:
            return _cache[key]
    image = Image.new("RGB", (size, size), pal["centre"])
    draw = ImageDraw.Draw(image)
    c = size / 11
    strip = round(c * STRIP)
    for index in range(40):
        x0, y0, x1, y1 = cell_box(index, size)
        draw.rectangle((x0, y0, x1, y1), fill=pal["square"], outline=pal["line"])
        square = board.squares[index]
        if square.kind == "street":
            # The group colour on the cell's inner edge, as on the big board.
            side = index // 10
            bar = {
                0: (x0, y0, x1, y0 + strip),
                1: (x1 - strip, y0, x1, y1),
                2: (x0, y1 - strip, x1, y1),
                3: (x0, y0, x0 + strip, y1),
            }[side]
            draw.rectangle(bar, fill=pal.group(square.group), outline=pal["line"])
        kind = icon_kind(board, index) or {
            "go": "go",
            "go_to_jail": "police",
            "free_parking": "parking",
        }.get(square.kind)
        if kind:
            colour = pal[sprites.ICON_COLOURS.get(kind, "go_arrow")]
            if kind == "police":
                colour = pal["icon_police"]
            s = round(c * 0.56)
            sprite = sprites.icon(kind, s, s, colour, pal["line"], currency_symbol(board.currency))
            image.paste(sprite, (round((x0 + x1 - s) / 2), round((y0 + y1 - s) / 2)), sprite)
        elif square.kind == "jail":
            inset = round(c * 0.22)
            cell = (x0 + inset, y0, x1, y1 - inset)
            draw.rectangle(cell, fill=pal["jail_cell"], outline=pal["line"])
            for k in range(1, 4):
                x = cell[0] + (cell[2] - cell[0]) * k / 4
                draw.line(
                    (x, cell[1], x, cell[3]), fill=pal["jail_bars"], width=max(1, size // 280)
                )
    with _lock:
        _cache[key] = image
        if len(_cache) > 8:
            _cache.pop(next(iter(_cache)))
    return image


def _body(index: int, size: int) -> Box:
    """The part of cell ``index`` that is not its colour strip (the strip is on the inner edge)."""
    x0, y0, x1, y1 = cell_box(index, size)
    strip = round(size / 11 * STRIP)
    return {
        0: (x0, y0 + strip, x1, y1),
        1: (x0, y0, x1 - strip, y1),
        2: (x0, y0, x1, y1 - strip),
        3: (x0 + strip, y0, x1, y1),
    }[index // 10]


def _strip(index: int, size: int) -> Box:
    """The colour strip of cell ``index``, on its inner edge."""
    x0, y0, x1, y1 = cell_box(index, size)
    strip = round(size / 11 * STRIP)
    return {
        0: (x0, y0, x1, y0 + strip),
        1: (x1 - strip, y0, x1, y1),
        2: (x0, y1 - strip, x1, y1),
        3: (x0, y0, x0 + strip, y1),
    }[index // 10]


def draw_compact(
    state: GameState,
    *,
    theme: str = "light",
    lang: str = "de",
    colors: Mapping[str, Any] | None = None,
    size: int = DEFAULT_COMPACT_SIZE,
) -> Image.Image:
    """The compact board of ``state`` as an RGB Pillow image (see :func:`render_compact`).

    Exactly the pixels of :func:`render_compact`'s PNG (at most 256 colours, see
    :func:`render.png.limit_colours`).
    """
    return limit_colours(_draw_full(state, theme, lang, colors, size)).convert("RGB")


def _draw_full(
    state: GameState,
    theme: str,
    lang: str,
    colors: Mapping[str, Any] | None,
    size: int,
) -> Image.Image:
    """The compact board in full colour, before :func:`limit_colours`."""
    board = state.board
    pal = palette(theme, colours_key(colors))
    lab = labels(lang)
    key = (board.id, theme, colours_key(colors), size)
    image = _static(board, pal, size, key).copy()
    draw = ImageDraw.Draw(image)
    c = size / 11
    initials = player_initials([p.name for p in state.players])
    badge = round(c * 0.5)
    for index, owner in enumerate(state.owner):
        if owner == BANK:
            continue
        x0, y0, x1, y1 = cell = cell_box(index, size)
        street = board.squares[index].kind == "street"
        if not street:
            # The pictogram moves to the inner edge (where a street has its colour) to make
            # room for the owner's badge.
            draw.rectangle(cell, fill=pal["square"], outline=pal["line"])
            kind = icon_kind(board, index)
            if kind:
                sx0, sy0, sx1, sy1 = _strip(index, size)
                s = min(sx1 - sx0, sy1 - sy0) - 2
                sprite = sprites.icon(
                    kind,
                    s,
                    s,
                    pal[sprites.ICON_COLOURS[kind]],
                    pal["line"],
                    currency_symbol(board.currency),
                )
                image.paste(
                    sprite, (round((sx0 + sx1 - s) / 2), round((sy0 + sy1 - s) / 2)), sprite
                )
        bx0, by0, bx1, by1 = body = _body(index, size)
        if state.mortgaged[index]:
            # Hatched, but the badge keeps a solid disc of ground around it.
            image.paste(pal["mortgage_hatch"], body, hatch_mask(size).crop(body))
            cx, cy = (bx0 + bx1) / 2, (by0 + by1) / 2
            r = badge / 2 + max(2, round(c * 0.06))
            draw.ellipse((cx - r, cy - r, cx + r, cy + r), fill=pal["square"])
            draw.rectangle(cell, outline=pal["line"])
        draw_player_badge(
            image,
            ((bx0 + bx1) / 2, (by0 + by1) / 2),
            badge,
            pal.player(owner),
            initials[owner],
            ring=pal["badge_ring"],
        )
    _buildings(image, state, pal, size)
    _pins(image, state, pal, initials, size)
    _centre(image, draw, state, pal, lab, initials, size)
    return image


def _buildings(image: Image.Image, state: GameState, pal: Palette, size: int) -> None:
    """Houses in a row on the colour strip, a hotel in its middle, as on the big board."""
    for index, count in enumerate(state.houses):
        if not count:
            continue
        x0, y0, x1, y1 = _strip(index, size)
        along_x = index // 10 in (0, 2)
        cx, cy = (x0 + x1) / 2, (y0 + y1) / 2
        depth = (y1 - y0) if along_x else (x1 - x0)
        length = (x1 - x0) if along_x else (y1 - y0)
        house_size = max(6, round(min(depth * 0.95, length / 4.2)))
        if count == HOTEL:
            sprite = sprites.hotel(pal["hotel"], pal["building_outline"], house_size)
            image.paste(
                sprite, (round(cx - sprite.width / 2), round(cy - sprite.height / 2)), sprite
            )
            continue
        sprite = sprites.house(pal["house"], pal["building_outline"], house_size)
        step = length / 4
        start = (length - step * count) / 2 + step / 2
        for k in range(count):
            offset = start + k * step
            px, py = (x0 + offset, cy) if along_x else (cx, y0 + offset)
            image.paste(
                sprite, (round(px - sprite.width / 2), round(py - sprite.height / 2)), sprite
            )


# Where the pieces of a side stand: just inside the board's ring, pointing at their cell.
_POINT_TO_CELL = {0: "down", 1: "left", 2: "up", 3: "right"}


def _pins(
    image: Image.Image, state: GameState, pal: Palette, initials: list[str], size: int
) -> None:
    """The players' pieces: pins in the corners, and beside (pointing at) the other cells.

    A cell is too small for both a badge and pieces, so a piece stands in the gap between
    the ring of cells and the centre, its point on the cell's inner edge.
    """
    groups: dict[int, list[int]] = defaultdict(list)
    for seat, player in enumerate(state.players):
        if not player.bankrupt:
            groups[player.position].append(seat)
    c = size / 11
    d = round(c * 0.42)
    tail = round(d * sprites.PIN_TAIL)
    for position, seats in groups.items():
        x0, y0, x1, y1 = cell_box(position, size)
        side = position // 10
        if position % 10 == 0:
            diameter, heads = place_pins(len(seats), (x0 + 2, y0 + 2, x1 - 2, y1 - 2), d, d // 2)
            point = "down"
        else:
            point = _POINT_TO_CELL[side]
            # Heads in a row along the inner edge, a tail's length off the cell.
            reach = tail + d / 2 - round(c * 0.1)
            if side in (0, 2):
                y = y0 - reach if side == 0 else y1 + reach
                box = (x0 + 1, round(y - d / 2), x1 - 1, round(y + d / 2))
            else:
                x = x1 + reach if side == 1 else x0 - reach
                box = (round(x - d / 2), y0 + 1, round(x + d / 2), y1 - 1)
            # A crowd overlaps rather than shrinks: the heads stay legible.
            diameter, heads = place_tokens(len(seats), box, d, round(d * 0.8))
        order = sorted(range(len(seats)), key=lambda k: seats[k] == state.current)
        for k in order:
            seat = seats[k]
            halo = pal["highlight"] if seat == state.current and state.phase != "over" else None
            sprite = sprites.pin(
                pal.player(seat), initials[seat], diameter, halo, point, pal["badge_ring"]
            )
            sprites.paste_pin(image, sprite, heads[k])


def _centre(
    image: Image.Image,
    draw: ImageDraw.ImageDraw,
    state: GameState,
    pal: Palette,
    lab: Labels,
    initials: list[str],
    size: int,
) -> None:
    c = size / 11
    # Half a cell of room round the text for the pieces standing at the cells' inner edges.
    x0, y0, x1, y1 = round(c * 1.55), round(c * 1.5), round(c * 9.45), round(c * 9.5)
    title = f"{short_board_name(state.board)} · {lab.text('turn', n=state.turn)}"
    fitted = fit_text(
        title,
        x1 - x0,
        round(c * 0.6),
        face="bold",
        max_size=round(c * 0.36),
        min_size=8,
        max_lines=1,
    )
    draw_fitted(draw, fitted, (x0, y0, x1, y0 + round(c * 0.6)), pal["title"], align="left")
    rows = standings(state) + [(seat, 0) for seat, p in enumerate(state.players) if p.bankrupt]
    top = y0 + round(c * 0.9)
    row_h = min(round(c * 0.8), (y1 - top) // max(1, len(rows)))
    name_font = font("bold", max(8, round(row_h * 0.42)))
    d = round(row_h * 0.75)
    for k, (seat, worth) in enumerate(rows):
        player = state.players[seat]
        cy = top + k * row_h + row_h / 2
        draw_player_badge(
            image, (x0 + d / 2, cy), d, pal.player(seat), initials[seat], ring=pal["badge_ring"]
        )
        value = lab["bankrupt"] if player.bankrupt else lab.money(worth, state.board.currency)
        value_w = round(name_font.getlength(value))
        colour = pal["text_muted"] if player.bankrupt else pal["text"]
        name = ellipsize(printable(player.name), name_font, x1 - x0 - d - value_w - round(c * 0.5))
        draw.text((x0 + d + round(c * 0.2), cy), name, font=name_font, fill=colour, anchor="lm")
        draw.text((x1, cy), value, font=name_font, fill=colour, anchor="rm")


def render_compact(
    state: GameState,
    *,
    theme: str = "light",
    lang: str = "de",
    colors: Mapping[str, Any] | None = None,
    size: int = DEFAULT_COMPACT_SIZE,
) -> bytes:
    """The compact board of ``state`` as PNG bytes (players in the centre, richest first)."""
    return encode_png(limit_colours(_draw_full(state, theme, lang, colors, size)))
