"""A compact board for the lobby and game summaries: who owns what, at a glance.

No square names: each square is a small cell showing its colour group, its owner
(filled in the owner's colour), buildings (a number, "H" for a hotel) and mortgages
(hatched); tokens sit on their cells and the centre lists the players by net worth.
It stays readable as a thumbnail (about 560 px).
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
from render.board import (
    hatch_mask,
    icon_kind,
    place_tokens,
    player_initials,
    printable,
    short_board_name,
)
from render.layout import Box
from render.png import encode_png
from render.text import draw_fitted, ellipsize, fit_text

DEFAULT_COMPACT_SIZE = 560
_ICON_COLOURS = {
    "railroad": "icon_rail",
    "power": "icon_power",
    "water": "icon_water",
    "chance": "icon_chance",
    "community": "icon_community",
    "tax": "icon_tax",
}

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
    strip = round(c * 0.3)
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
            colour = pal[
                _ICON_COLOURS.get(kind, "icon_parking" if kind == "parking" else "go_arrow")
            ]
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


def draw_compact(
    state: GameState,
    *,
    theme: str = "light",
    lang: str = "de",
    colors: Mapping[str, Any] | None = None,
    size: int = DEFAULT_COMPACT_SIZE,
) -> Image.Image:
    """The compact board of ``state`` as a Pillow image (see :func:`render_compact`)."""
    board = state.board
    pal = palette(theme, colours_key(colors))
    lab = labels(lang)
    key = (board.id, theme, colours_key(colors), size)
    image = _static(board, pal, size, key).copy()
    draw = ImageDraw.Draw(image)
    c = size / 11
    initials = player_initials([p.name for p in state.players])
    strip = round(c * 0.3)
    count_font = font("bold", round(c * 0.4))
    for index, owner in enumerate(state.owner):
        if owner == BANK:
            continue
        x0, y0, x1, y1 = cell_box(index, size)
        side = index // 10
        body = {
            0: (x0, y0 + strip, x1, y1),
            1: (x0, y0, x1 - strip, y1),
            2: (x0, y0, x1, y1 - strip),
            3: (x0 + strip, y0, x1, y1),
        }[side]
        if board.squares[index].kind != "street":
            body = (x0, y0, x1, y1)
        colour = pal.player(owner)
        draw.rectangle(body, fill=colour, outline=pal["line"])
        houses = state.houses[index]
        text = "H" if houses == HOTEL else (str(houses) if houses else initials[owner])
        cx, cy = (body[0] + body[2]) / 2, (body[1] + body[3]) / 2
        if board.squares[index].kind != "street":
            # Keep the pictogram visible on owned railroads and utilities.
            kind = icon_kind(board, index)
            if kind:
                s = round(c * 0.5)
                sprite = sprites.icon(kind, s, s, sprites.contrast_text(colour), colour)
                image.paste(sprite, (round(cx - s / 2), round(cy - s / 2)), sprite)
                text = ""
        if text:
            fill = sprites.contrast_text(colour)
            if houses:
                fill = (255, 255, 255) if houses != HOTEL else (255, 235, 120)
                r = c * 0.24
                draw.ellipse(
                    (cx - r, cy - r, cx + r, cy + r),
                    fill=pal["hotel"] if houses == HOTEL else pal["house"],
                    outline=(255, 255, 255),
                )
            draw.text((cx, cy), text, font=count_font, fill=fill, anchor="mm")
        if state.mortgaged[index]:
            cell = (x0, y0, x1, y1)
            image.paste(pal["mortgage_hatch"], cell, hatch_mask(size).crop(cell))
            draw.rectangle(cell, outline=pal["line"])
    _tokens(image, state, pal, initials, size)
    _centre(image, draw, state, pal, lab, initials, size)
    return image


def _tokens(
    image: Image.Image, state: GameState, pal: Palette, initials: list[str], size: int
) -> None:
    groups: dict[int, list[int]] = defaultdict(list)
    for seat, player in enumerate(state.players):
        if not player.bankrupt:
            groups[player.position].append(seat)
    d = round(size / 11 * 0.5)
    for position, seats in groups.items():
        x0, y0, x1, y1 = cell_box(position, size)
        diameter, centres = place_tokens(len(seats), (x0 + 2, y0 + 2, x1 - 2, y1 - 2), d, d // 2)
        for seat, centre in zip(seats, centres, strict=True):
            halo = pal["highlight"] if seat == state.current and state.phase != "over" else None
            sprite = sprites.token(pal.player(seat), initials[seat], diameter, halo)
            image.paste(
                sprite,
                (round(centre[0] - sprite.width / 2), round(centre[1] - sprite.height / 2)),
                sprite,
            )


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
    x0, y0, x1, y1 = round(c * 1.35), round(c * 1.3), round(c * 9.65), round(c * 9.7)
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
        sprite = sprites.token(pal.player(seat), initials[seat], d)
        image.paste(sprite, (x0, round(cy - sprite.height / 2)), sprite)
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
    return encode_png(draw_compact(state, theme=theme, lang=lang, colors=colors, size=size))
