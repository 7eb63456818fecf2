"""The stretch of the turn's picture: a tile per square the mover crossed, in order.

Each tile shows the square's band (colour group or pictogram, with houses or a hotel),
its name, its price or its owner's badge and rent now (a mortgage hatched and stamped,
the badge left whole), and the players standing there. The start is faded, the landing
square framed in the mover's colour and saying what is due; markers fold crossed squares
("+3 Felder", with the salary if GO was passed) or show a jump or a step back.
"""

from __future__ import annotations

from PIL import Image

import render.turn_view.layout as L
from bot.engine.state import BANK, HOTEL, GameState
from render import sprites
from render.assets import RGB, currency_symbol, font
from render.board import icon_kind, place_tokens
from render.text import draw_fitted, ellipsize, fit_text, text_width
from render.turn_view.canvas import Box, Canvas, mix, paste_centred
from render.turn_view.layout import Tile, marker_texts
from render.turn_view.marks import curved_arrow, hatch, padlock
from render.turn_view.words import due_at, due_lines, lot_rent, player_name


class Tiles(Canvas):
    """Paints the stretch."""

    def stretch(self) -> None:
        """The tiles of the squares and the markers, with arrows between them."""
        tiles = self.plan.tiles
        rolled = self.focus.rolled
        arrow = self.mover_colour if rolled else self.pal["text_muted"]
        for k, tile in enumerate(tiles):
            if tile.item.kind == "square":
                self.square(tile)
            else:
                self.marker(tile)
            walked = ("square", "skip")  # jumps and steps back draw their own arrows
            if k and tiles[k - 1].item.kind in walked and tile.item.kind in walked:
                # Clear of the landing square's frame, which stands out into the gap.
                shift = self.px(3) if tile.item.role == "landing" else 0
                self.chevron(tiles[k - 1].x1 - shift, tile.x0 - shift, arrow)

    def chevron(self, left: int, right: int, colour: RGB) -> None:
        """A small arrow in the gap between two tiles: the way goes on to the right."""
        px = self.px
        cx = (left + right) / 2
        cy = self.plan.tile_top + px(L.BAND_H) + px(60)
        w, h = px(5), px(9)
        self.draw.polygon([(cx - w, cy - h), (cx + w, cy), (cx - w, cy + h)], fill=colour)

    def square(self, tile: Tile) -> None:
        """One square's tile: band, name, price or owner and rent, tokens, its role."""
        px, pal, draw, state = self.px, self.pal, self.draw, self.state
        item = tile.item
        index = item.square
        info = state.board.squares[index]
        landing = item.role == "landing"
        x0, x1, y0, y1 = tile.x0, tile.x1, self.plan.tile_top, self.plan.tile_bottom
        radius = px(8)
        line = max(1, px(2))
        owner = state.owner[index] if info.is_property else BANK
        mortgaged = owner != BANK and state.mortgaged[index]
        draw.rounded_rectangle((x0, y0, x1 - 1, y1 - 1), radius, fill=pal["square"])

        # The band: a street's colour, or the pictogram of any other square.
        band = (x0, y0, x1 - 1, y0 + px(L.BAND_H))
        if info.kind == "street":
            colour = pal.group(info.group)
            if mortgaged:
                colour = mix(colour, pal["square"], 0.45)
        else:
            colour = pal["square_alt"]
        draw.rounded_rectangle(band, radius, fill=colour)
        draw.rectangle((x0, band[3] - radius, x1 - 1, band[3]), fill=colour)
        draw.line((x0, band[3], x1 - 1, band[3]), fill=pal["line"], width=line)
        kind = _pictogram(state, index)
        if kind:
            side = px(L.BAND_H) - px(8)
            sprite = sprites.icon(
                kind,
                side * 2,
                side,
                pal[sprites.ICON_COLOURS[kind]],
                pal["line"],
                currency_symbol(state.board.currency),
            )
            paste_centred(self.image, sprite, ((x0 + x1) / 2, (band[1] + band[3]) / 2))
        elif info.kind == "jail":
            self.bars(band)

        floor_top = y1 - px(46)
        if mortgaged:
            self.hatched((x0 + line, y0 + line, x1 - line, floor_top))
        self.buildings(index, band)

        # The name.
        top, bottom = L.name_box(self.plan, landing=landing)
        pad = px(L.TILE_PAD)
        assert tile.name is not None
        draw_fitted(draw, tile.name, (x0 + pad, top, x1 - pad, bottom), pal["text"], valign="top")
        name_end = top + tile.name.height

        # Price, owner and rent; on the landing square what is due there.
        if landing:
            self.due(tile, name_end, floor_top)
        else:
            self.lot(tile, max(name_end, bottom - px(4)), floor_top, owner, mortgaged)

        # The floor: who stands here.
        draw.rectangle((x0, floor_top, x1 - 1, y1 - 1 - radius), fill=pal["square_alt"])
        draw.rounded_rectangle((x0, floor_top, x1 - 1, y1 - 1), radius, fill=pal["square_alt"])
        draw.line((x0, floor_top, x1 - 1, floor_top), fill=pal["centre_line"], width=1)
        self.tokens(tile, (x0 + pad, floor_top + px(3), x1 - pad, y1 - px(3)))

        draw.rounded_rectangle((x0, y0, x1 - 1, y1 - 1), radius, outline=pal["line"], width=line)
        if item.role == "start":
            # Where the turn began: faded, it is history.
            box = (x0, y0, x1, y1)
            faded = Image.blend(
                self.image.crop(box), Image.new("RGB", (x1 - x0, y1 - y0), pal["centre"]), 0.4
            )
            self.image.paste(faded, box[:2])
        if landing:
            frame = px(5)
            draw.rounded_rectangle(
                (x0 - frame + 1, y0 - frame + 1, x1 + frame - 2, y1 + frame - 2),
                radius + frame,
                outline=self.mover_colour,
                width=frame,
            )
        elif item.role in ("stop", "here"):
            draw.rounded_rectangle(
                (x0, y0, x1 - 1, y1 - 1), radius, outline=self.mover_colour, width=px(3)
            )
        self.caption(tile)

    def caption(self, tile: Tile) -> None:
        """The word over a tile: where the turn began, or how far ahead a square lies."""
        item = tile.item
        lab = self.words.lab
        text = {"start": lab["tv_start"], "here": lab["tv_here"]}.get(item.role, "")
        if item.role == "ahead":
            text = f"+{item.count}"
        if not text:
            return
        f = font("bold", self.px(L.CAPTION))
        text = ellipsize(text, f, tile.x1 - tile.x0)
        colour = self.mover_colour if item.role == "here" else self.pal["text_muted"]
        y = self.plan.tile_top - self.px(8)
        self.draw.text(((tile.x0 + tile.x1) / 2, y), text, font=f, fill=colour, anchor="md")

    def bars(self, band: Box) -> None:
        """The jail's band: a cell window with bars."""
        px, draw = self.px, self.draw
        x0, y0, x1, y1 = band
        cx = (x0 + x1) / 2
        w = px(44)
        top, bottom = y0 + px(6), y1 - px(6)
        draw.rectangle((cx - w / 2, top, cx + w / 2, bottom), fill=self.pal["jail_cell"])
        for k in range(5):
            x = cx - w / 2 + w * k / 4
            draw.line((x, top, x, bottom), fill=self.pal["jail_bars"], width=px(3))
        draw.rectangle(
            (cx - w / 2, top, cx + w / 2, bottom), outline=self.pal["jail_bars"], width=px(2)
        )

    def hatched(self, box: Box) -> None:
        """Diagonal lines over a mortgaged lot, light enough to read names through."""
        x0, y0, x1, y1 = box
        mask = hatch(x1 - x0, y1 - y0, self.px(11), max(1, self.px(2)))
        faint = mask.point(lambda v: v * 45 // 100)
        self.image.paste(self.pal["mortgage_hatch"], (x0, y0, x1, y1), faint)

    def buildings(self, index: int, band: Box) -> None:
        """Houses in a row, or a hotel, on the street's band (as on the board)."""
        count = self.state.houses[index]
        if not count:
            return
        pal, px = self.pal, self.px
        x0, y0, x1, y1 = band
        cy = (y0 + y1) / 2
        size = px(L.BAND_H) - px(6)
        if count == HOTEL:
            sprite = sprites.hotel(pal["hotel"], pal["building_outline"], size)
            paste_centred(self.image, sprite, ((x0 + x1) / 2, cy))
            return
        sprite = sprites.house(pal["house"], pal["building_outline"], size)
        step = min(size + px(2), (x1 - x0 - px(8) - size) / max(1, count - 1))
        left = (x0 + x1) / 2 - step * (count - 1) / 2
        for k in range(count):
            paste_centred(self.image, sprite, (left + k * step, cy))

    def lot(self, tile: Tile, top: int, bottom: int, owner: int, mortgaged: bool) -> None:
        """A square's price (still the bank's), or its owner's badge and rent now."""
        px, pal, draw, state, words = self.px, self.pal, self.draw, self.state, self.words
        info = state.board.squares[tile.item.square]
        cx = (tile.x0 + tile.x1) / 2
        money_font = font("condensed", px(L.MONEY))
        if owner == BANK:
            amount = info.price if info.is_property else info.amount
            if info.kind == "go":
                text = self.salary_text
            elif amount:
                text = words.tile_money(amount)
            else:
                return
            colour = pal["text"] if info.is_property else pal["text_muted"]
            if info.kind == "go" and tile.item.salary:
                colour = pal["house"]  # passed on this turn: the salary was paid
            draw.text((cx, (top + bottom) / 2), text, font=money_font, fill=colour, anchor="mm")
            return
        size = self.plan.badge
        gap = px(4)
        block = size + gap + px(L.MONEY + 2)
        y = top + max(0, (bottom - top - block) // 2)
        self.badge(owner, (cx, y + size / 2), size)
        text_y = y + size + gap + px(L.MONEY + 2) / 2
        if mortgaged:
            self.stamp(cx, text_y, tile.x1 - tile.x0 - 2 * px(L.TILE_PAD))
            return
        rent, factor = lot_rent(state, tile.item.square)
        text = words.tile_money(rent) if rent is not None else f"{factor} ×"
        draw.text((cx, text_y), text, font=money_font, fill=pal["text"], anchor="mm")

    def stamp(self, cx: float, cy: float, room: int) -> None:
        """The mortgage mark: the word in a red frame, where the rent would be."""
        px, pal, lab = self.px, self.pal, self.words.lab
        f = font("condensed", px(L.MONEY - 2))
        text = lab["mortgaged"]
        if text_width(f, text) + px(10) > room:
            text = lab["mortgaged_short"]
        w = text_width(f, text) + px(10)
        h = px(L.MONEY + 4)
        self.draw.rounded_rectangle(
            (cx - w / 2, cy - h / 2, cx + w / 2, cy + h / 2),
            px(4),
            fill=pal["square"],
            outline=pal["stamp"],
            width=px(2),
        )
        self.draw.text((cx, cy), text, font=f, fill=pal["stamp"], anchor="mm")

    def due(self, tile: Tile, top: int, bottom: int) -> None:
        """What the landing square means for the mover: rent and to whom, the price, the
        tax, a card, the salary; a padlock if the mover sits in jail."""
        px, pal, draw, state = self.px, self.pal, self.draw, self.state
        due = due_at(state, self.focus, tile.item.square)
        cx = (tile.x0 + tile.x1) / 2
        if due.kind == "jail":
            sprite = padlock(px(L.BADGE_TWO), pal["accent"])
            paste_centred(self.image, sprite, (cx, (top + bottom) / 2))
            return
        word, figure = due_lines(due, self.words, state)
        if due.kind == "rent" and due.owner is not None:
            word = f"{word} {self.words.lab.text('tv_to', name=player_name(state, due.owner))}"
        pad = px(L.TILE_PAD)
        room = tile.x1 - tile.x0 - 2 * pad
        # An amount is large; a reason (no rent: mortgaged, owner in jail) reads as words.
        amount = due.kind in ("rent", "own", "buy", "tax", "go") and not due.why
        block = (px(L.DUE_WORD + 8) if word else 0) + (self.plan.badge if figure else 0)
        y = top + max(px(4), (bottom - top - block) // 2)
        if word:
            fitted = fit_text(
                word,
                room,
                px(L.DUE_WORD * (1 if figure else 2) + 8),
                face="condensed",
                max_size=px(L.DUE_WORD),
                min_size=px(L.DUE_WORD),
                max_lines=1 if figure else 2,
            )
            self.plan.use("due", fitted.size)
            colour = pal["accent"] if due.kind in ("rent", "tax") else pal["text"]
            draw_fitted(draw, fitted, (tile.x0 + pad, y, tile.x1 - pad, y + fitted.height), colour)
            y += fitted.height + px(8)
        if not figure:
            return
        cy = y + self.plan.badge / 2
        colour = pal["house"] if due.kind == "go" else pal["text"]
        if due.why == "mortgaged":
            colour = pal["stamp"]
        size = self.plan.badge if due.owner is not None else 0
        gap = px(6) if size else 0
        # Large amounts (a DM board's "M. 28.000") step down to the tiles' money size.
        face, largest = ("bold", L.DUE_FIGURE) if amount else ("condensed", L.DUE_WORD)
        for points in range(px(largest), min(px(largest), px(L.MONEY)) - 1, -1):
            figure_font = font(face, points)
            if size + gap + text_width(figure_font, figure) <= room:
                break
        figure = ellipsize(figure, figure_font, room - size - gap)
        self.plan.use("money" if amount else "due", points)
        total = size + gap + text_width(figure_font, figure)
        left = cx - total / 2
        if due.owner is not None:
            self.badge(due.owner, (left + size / 2, cy), size)
        draw.text((left + size + gap, cy), figure, font=figure_font, fill=colour, anchor="lm")

    def tokens(self, tile: Tile, box: Box) -> None:
        """The tokens of the players standing on the square now, the mover's last and
        haloed, the jailed with a padlock; a crowd beyond the room shows as "+N"."""
        state = self.state
        seats = [
            seat
            for seat, player in enumerate(state.players)
            if not player.bankrupt and player.position == tile.item.square
        ]
        if not seats:
            return
        px = self.px
        x0, y0, x1, y1 = box
        small = px(L.TOKEN_SMALL)
        # Tokens may overlap by a third; more than that would hide their initials.
        room = 1 + max(0, int((x1 - x0 - small) // (small * 0.67)))
        more = 0
        if len(seats) > room:
            keep = max(1, room - 1)
            others = [s for s in seats if s != self.focus.mover]
            shown = others[: keep - 1] + [self.focus.mover] if self.focus.mover in seats else []
            shown = shown or others[:keep]
            more = len(seats) - len(shown)
            seats = sorted(shown)
            f = font("bold", px(L.CAPTION))
            label = f"+{more}"
            label_w = text_width(f, label) + px(4)
            self.draw.text(
                (x1, (y0 + y1) / 2), label, font=f, fill=self.pal["text_muted"], anchor="rm"
            )
            x1 -= label_w
        seats.sort(key=lambda s: s == self.focus.mover)
        d, centres = place_tokens(len(seats), (x0, y0, x1, y1), px(L.TOKEN_LARGE), small)
        jail = state.board.jail_index
        for seat, centre in zip(seats, centres, strict=True):
            halo = self.pal["highlight"] if seat == self.focus.mover else None
            sprite = sprites.token(self.pal.player(seat), self.plan.initials[seat], d, halo)
            paste_centred(self.image, sprite, centre)
            player = state.players[seat]
            if player.in_jail and player.position == jail:
                lock = padlock(max(8, d // 2), self.pal["accent"])
                paste_centred(self.image, lock, (centre[0] + d * 0.4, centre[1] + d * 0.3))

    def marker(self, tile: Tile) -> None:
        """A fold of crossed squares ("+7 Felder"), a jump, or a step back."""
        px, pal, draw = self.px, self.pal, self.draw
        item = tile.item
        x0, x1, y0, y1 = tile.x0, tile.x1, self.plan.tile_top, self.plan.tile_bottom
        cx = (x0 + x1) / 2
        big, small = marker_texts(item, self.words)
        big_font = font("bold", px(L.MARKER_BIG))
        small_font = font("condensed", px(L.MARKER_SMALL))
        cy = (y0 + y1) / 2
        if item.kind == "skip":
            draw.rounded_rectangle(
                (x0, y0 + px(20), x1 - 1, y1 - px(20)),
                px(8),
                fill=pal["square_alt"],
                outline=pal["centre_line"],
                width=px(2),
            )
            draw.text((cx, cy - px(14)), big, font=big_font, fill=pal["text"], anchor="mm")
            draw.text(
                (cx, cy + px(12)), small, font=small_font, fill=pal["text_muted"], anchor="mm"
            )
            if item.salary:
                self.salary(cx, cy + px(42))
            return
        size = min(x1 - x0 - px(6), px(56))
        sprite = curved_arrow(size, self.mover_colour, item.kind == "back")
        paste_centred(self.image, sprite, (cx, cy - px(24)))
        if big:
            draw.text((cx, cy + px(14)), big, font=big_font, fill=pal["text"], anchor="mm")
        draw.text(
            (cx, cy + px(40 if big else 14)), small, font=small_font, fill=pal["text"], anchor="mm"
        )
        if item.salary:
            self.salary(cx, cy + px(52))

    def salary(self, cx: float, top: float) -> None:
        """GO's arrow and the salary under it: GO was passed on the way folded or jumped."""
        px, pal = self.px, self.pal
        arrow = sprites.icon("go", px(30), px(20), pal["go_arrow"], pal["line"])
        paste_centred(self.image, arrow, (cx, top))
        self.draw.text(
            (cx, top + px(24)),
            self.salary_text,
            font=font("condensed", px(L.MARKER_SMALL)),
            fill=pal["house"],
            anchor="mm",
        )


def _pictogram(state: GameState, index: int) -> str | None:
    """The pictogram in the band of a square that is not a street."""
    kind = state.board.squares[index].kind
    if kind == "go":
        return "go"
    if kind == "free_parking":
        return "parking"
    if kind == "go_to_jail":
        return "police"
    return icon_kind(state.board, index)
