"""The title-deed card of one lot (for ``/monopoly property``), as PNG bytes.

Shows the printed facts of a street, railroad or utility (rents, building costs,
mortgage value); given a game state it also shows the owner, marks the rent that
applies now and stamps a mortgaged lot.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from PIL import Image, ImageDraw

from bot.engine.board import Board, Square
from bot.engine.rent import count_owned, owns_whole_group
from bot.engine.state import BANK, HOTEL, GameState
from render import sprites
from render.assets import Labels, Palette, colours_key, font, labels, palette
from render.board import display_names, icon_kind, player_initials, printable
from render.png import encode_png
from render.text import draw_fitted, ellipsize, fit_text

DEFAULT_WIDTH = 600

Row = tuple[str, str]  # label, amount


def _rows(board: Board, square: Square, lab: Labels, multiplier: int) -> list[Row]:
    money = lab.money
    if square.kind == "street":
        rents = square.rents
        rows = [
            (lab["rent"], money(rents[0], board.currency)),
            (lab["rent_group"], money(rents[0] * multiplier, board.currency)),
        ]
        one, many = lab["with_houses"]
        for n in range(1, 5):
            rows.append(((one if n == 1 else many).format(n=n), money(rents[n], board.currency)))
        rows.append((lab["with_hotel"], money(rents[5], board.currency)))
        return rows
    if square.kind == "railroad":
        rents = square.rents or board.railroad_rents
        one, many = lab["railroads_owned"]
        return [
            ((one if n == 1 else many).format(n=n), money(rent, board.currency))
            for n, rent in enumerate(rents, start=1)
        ]
    one, both = square.multipliers or board.utility_multipliers
    return [(lab.text("utility_one", n=one), ""), (lab.text("utility_both", n=both), "")]


def _notes(board: Board, square: Square, lab: Labels, hotel_houses: int) -> list[str]:
    money = lab.money
    notes = [lab.text("price", amount=money(square.price, board.currency))]
    if square.kind == "street":
        notes.append(lab.text("house_cost", amount=money(square.house_cost, board.currency)))
        notes.append(
            lab.text("hotel_cost", amount=money(square.house_cost, board.currency), n=hotel_houses)
        )
    notes.append(lab.text("mortgage_value", amount=money(square.mortgage, board.currency)))
    return notes


def _current_row(state: GameState, square: Square) -> int | None:
    """Which rent row applies now (``None`` if nobody owns the lot or it is mortgaged)."""
    index = square.index
    owner = state.owner[index]
    if owner == BANK or state.mortgaged[index]:
        return None
    if square.kind == "street":
        houses = state.houses[index]
        if houses == HOTEL:
            return 6
        if houses:
            return 1 + houses
        return 1 if owns_whole_group(state, owner, index) else 0
    count = count_owned(state, owner, index)
    if square.kind == "utility":
        return min(count, 2) - 1
    return count - 1


def draw_deed(
    board: Board,
    square: int | Square,
    state: GameState | None = None,
    *,
    theme: str = "light",
    lang: str = "de",
    names: Mapping[int, str] | None = None,
    colors: Mapping[str, Any] | None = None,
    width: int = DEFAULT_WIDTH,
) -> Image.Image:
    """The deed card as a Pillow image (see :func:`render_deed`)."""
    info = board.squares[square] if isinstance(square, int) else square
    if not info.is_property:
        raise ValueError(f"square {info.index} ({info.name}) has no title deed")
    pal = palette(theme, colours_key(colors))
    lab = labels(lang)
    name = display_names(board, names)[info.index]
    s = width / 600
    multiplier = state.rules.unbuilt_group_rent_multiplier if state is not None else 2
    hotel_houses = state.rules.hotel_requires_houses if state is not None else 4
    rows = _rows(board, info, lab, multiplier)
    notes = _notes(board, info, lab, hotel_houses)
    # The card is as tall as its content: header, rows, rule, notes, owner line.
    content = 150 + 22 + 38 * len(rows) + 24 + 30 * len(notes) + (64 if state is not None else 0)
    height = round((content + 2 * 16 + 2 * 22 + 6) * s)
    image = Image.new("RGB", (width, height), pal["centre"])
    draw = ImageDraw.Draw(image)
    m = round(16 * s)
    card = (m, m, width - m, height - m)
    draw.rounded_rectangle(
        card, round(14 * s), fill=pal["square"], outline=pal["line"], width=max(1, round(2 * s))
    )
    inner = round(22 * s)
    left, right = card[0] + inner, card[2] - inner

    # Header: the group colour with the name for streets, an icon for the others.
    top = card[1] + inner
    header_h = round(150 * s)
    header = (left, top, right, top + header_h)
    if info.kind == "street":
        colour = pal.group(info.group)
        draw.rectangle(header, fill=colour, outline=pal["line"], width=max(1, round(2 * s)))
        ink = sprites.contrast_text(colour)
        title_box = (left, top + round(12 * s), right, top + round(40 * s))
        name_box = (
            left + inner,
            top + round(44 * s),
            right - inner,
            top + header_h - round(10 * s),
        )
    else:
        ink = pal["text"]
        kind = icon_kind(board, info.index) or "railroad"
        icon_size = round(64 * s)
        colour = pal[{"railroad": "icon_rail", "power": "icon_power"}.get(kind, "icon_water")]
        sprite = sprites.icon(kind, icon_size, icon_size, colour, pal["line"])
        image.paste(sprite, ((left + right - icon_size) // 2, top), sprite)
        title_box = (left, top + icon_size, right, top + icon_size + round(26 * s))
        name_box = (left + inner, title_box[3], right - inner, top + header_h)
    title_font = font("bold", round(17 * s))
    draw.text(
        ((left + right) / 2, (title_box[1] + title_box[3]) / 2),
        lab["deed_title"].upper(),
        font=title_font,
        fill=ink,
        anchor="mm",
    )
    fitted = fit_text(
        name,
        name_box[2] - name_box[0],
        name_box[3] - name_box[1],
        face="bold",
        max_size=round(38 * s),
        min_size=max(8, round(18 * s)),
        max_lines=2,
    )
    draw_fitted(draw, fitted, name_box, ink)

    # Rent rows, the one that applies now highlighted.
    current = _current_row(state, info) if state is not None else None
    y = header[3] + round(22 * s)
    row_h = round(38 * s)
    label_font = font("regular", round(22 * s))
    amount_font = font("bold", round(23 * s))
    for k, (label, amount) in enumerate(rows):
        cy = y + row_h / 2
        if k == current:
            draw.rounded_rectangle(
                (left - round(8 * s), y + 2, right + round(8 * s), y + row_h - 2),
                round(8 * s),
                fill=pal["row_current"],
                outline=pal["highlight"],
                width=max(1, round(2 * s)),
            )
        use_font = font("bold", round(22 * s)) if k == current else label_font
        amount_w = round(amount_font.getlength(amount)) if amount else 0
        text = ellipsize(label, use_font, right - left - amount_w - round(12 * s))
        draw.text((left, cy), text, font=use_font, fill=pal["text"], anchor="lm")
        if amount:
            draw.text((right, cy), amount, font=amount_font, fill=pal["text"], anchor="rm")
        y += row_h
    y += round(10 * s)
    draw.line((left, y, right, y), fill=pal["line"], width=max(1, round(s)))
    y += round(14 * s)

    note_font = font("regular", round(20 * s))
    for note in notes:
        draw.text(
            ((left + right) / 2, y),
            ellipsize(note, note_font, right - left),
            font=note_font,
            fill=pal["text_muted"],
            anchor="ma",
        )
        y += round(30 * s)

    if state is not None:
        _draw_owner(image, draw, state, info, pal, lab, (left, card[3] - inner, right), s)
        if state.mortgaged[info.index]:
            # The stamp goes across the rents: a mortgaged lot collects none.
            rows_mid = header[3] + round(22 * s) + row_h * len(rows) / 2
            w = right - left
            stamp = sprites.stamp(
                lab["mortgaged"], round(w * 0.8), round(w * 0.3), pal["stamp"], pal["square"]
            )
            image.paste(
                stamp,
                (round((left + right - stamp.width) / 2), round(rows_mid - stamp.height / 2)),
                stamp,
            )
    return image


def _draw_owner(
    image: Image.Image,
    draw: ImageDraw.ImageDraw,
    state: GameState,
    info: Square,
    pal: Palette,
    lab: Labels,
    where: tuple[int, int, int],
    s: float,
) -> None:
    """The owner (token and name) at the bottom of the card."""
    left, bottom, right = where
    owner = state.owner[info.index]
    line_font = font("bold", round(22 * s))
    cy = bottom - round(22 * s)
    if owner == BANK:
        draw.text(
            ((left + right) / 2, cy),
            lab["bank_owned"],
            font=line_font,
            fill=pal["text_muted"],
            anchor="mm",
        )
        return
    initials = player_initials([p.name for p in state.players])
    d = round(36 * s)
    sprite = sprites.token(pal.player(owner), initials[owner], d)
    text = lab.text("owner", name=printable(state.players[owner].name))
    text = ellipsize(text, line_font, right - left - d - round(12 * s))
    total = sprite.width + round(10 * s) + round(line_font.getlength(text))
    x = (left + right - total) / 2
    image.paste(sprite, (round(x), round(cy - sprite.height / 2)), sprite)
    draw.text(
        (x + sprite.width + round(10 * s), cy), text, font=line_font, fill=pal["text"], anchor="lm"
    )


def render_deed(
    board: Board,
    square: int | Square,
    state: GameState | None = None,
    *,
    theme: str = "light",
    lang: str = "de",
    names: Mapping[int, str] | None = None,
    colors: Mapping[str, Any] | None = None,
    width: int = DEFAULT_WIDTH,
) -> bytes:
    """The title deed of ``square`` (an index or a :class:`Square`) as PNG bytes.

    Raises ``ValueError`` for squares that cannot be owned. With ``state`` the card
    shows the owner, highlights the rent that applies now and stamps a mortgage.
    """
    image = draw_deed(
        board, square, state, theme=theme, lang=lang, names=names, colors=colors, width=width
    )
    return encode_png(image)
