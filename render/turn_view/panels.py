"""The header and the standings of the turn's picture.

The header: the mover's badge and name, the turn's number and its throws as dice (none
before the first throw, never the turn before's). The standings: every player in seat
order (a row stays where it was from turn to turn, so players find their own at a
glance) with cash and net worth, the mover's row highlighted, the jailed with a padlock,
the bankrupt faded and struck through; in two columns from five players on.
"""

from __future__ import annotations

import render.turn_view.layout as L
from bot.engine.wealth import wealth
from render import sprites
from render.assets import font, labels
from render.badges import draw_player_badge
from render.text import ellipsize, text_width
from render.turn_view.canvas import Canvas, mix, paste_centred
from render.turn_view.marks import padlock
from render.turn_view.words import player_name


class Panels(Canvas):
    """Paints the header and the standings."""

    def header(self) -> None:
        """The mover's badge and name, the turn's number, and the turn's throws."""
        px, pal, draw = self.px, self.pal, self.draw
        band_bottom = px(L.MARGIN + L.HEADER_H - 8)
        draw.rectangle((0, 0, self.plan.width, band_bottom), fill=pal["frame"])
        draw.rectangle(
            (0, band_bottom, self.plan.width, band_bottom + px(5)), fill=self.mover_colour
        )
        ink = sprites.contrast_text(pal["frame"])
        muted = mix(ink, pal["frame"], 0.3)
        cy = band_bottom / 2 + px(1)
        x = px(L.MARGIN)
        size = px(L.HEADER_BADGE)
        mover = self.focus.mover
        # A light ring on the dark band, as on a dark image.
        draw_player_badge(
            self.image,
            (x + size / 2, cy),
            size,
            self.mover_colour,
            self.plan.initials[mover],
            ring=ink,
        )
        x += size + px(12)
        right = self.dice(cy) - px(16)
        turn_text = self.words.lab.text("tv_turn", n=self.focus.turn)
        turn_font = font("regular", px(L.HEADER_TURN))
        turn_w = text_width(turn_font, turn_text)
        name_font = font("bold", px(L.HEADER_NAME))
        name = player_name(self.state, mover)
        gap = px(12)
        if text_width(name_font, name) + gap + turn_w <= right - x:
            draw.text((x, cy), name, font=name_font, fill=ink, anchor="lm")
            x += text_width(name_font, name) + gap
            draw.text((x, cy + px(2)), turn_text, font=turn_font, fill=muted, anchor="lm")
            return
        # Not both on one line (a long name, several throws): the turn goes under the name.
        name_font = font("bold", px(L.HEADER_NAME - 4))
        name = ellipsize(name, name_font, right - x)
        draw.text((x, cy - px(2)), name, font=name_font, fill=ink, anchor="ls")
        turn_text = ellipsize(turn_text, turn_font, right - x)
        draw.text((x, cy + px(4)), turn_text, font=turn_font, fill=muted, anchor="lt")

    def dice(self, cy: float) -> int:
        """The turn's throws at the right of the header, the last one large (earlier ones
        were doubles, or the turn would have ended); returns their left edge."""
        px, pal, draw = self.px, self.pal, self.draw
        throws = self.focus.dice
        right = self.plan.width - px(L.MARGIN)
        if not throws:
            return right
        ink = sprites.contrast_text(pal["frame"])
        doubles_font = font("bold", px(L.DOUBLES))
        last = throws[-1]
        x = right
        if last[0] == last[1]:
            text = self.words.lab["doubles"]
            draw.text((x, cy), text, font=doubles_font, fill=pal["highlight"], anchor="rm")
            x -= text_width(doubles_font, text) + px(10)
        for k, (a, b) in enumerate(reversed(throws)):
            latest = k == 0
            size = px(L.DIE if latest else L.DIE_EARLIER)
            total_font = font("bold", px(L.DIE_TOTAL if latest else L.HEADER_TURN))
            text = f"= {a + b}"
            draw.text((x, cy), text, font=total_font, fill=ink, anchor="rm")
            x -= text_width(total_font, text) + px(8)
            for value in (b, a):
                sprite = sprites.die(int(value), size, pal["die"], pal["die_pip"], pal["line"])
                x -= size
                self.image.paste(sprite, (x, round(cy - size / 2)), sprite)
                x -= px(4)
            if k < len(throws) - 1:
                # A thin divider between two throws of the turn.
                x -= px(10)
                half = px(L.DIE_EARLIER) / 2
                draw.line((x, cy - half, x, cy + half), fill=mix(ink, pal["frame"], 0.5))
                x -= px(12)
        return x

    # -- standings -----------------------------------------------------------------------

    def standings(self) -> None:
        """Every player in seat order: badge, name, cash and net worth; the mover's row
        highlighted, the jailed with a padlock, the bankrupt greyed and struck through."""
        px, pal, draw, state, words, plan = (
            self.px,
            self.pal,
            self.draw,
            self.state,
            self.words,
            self.plan,
        )
        x0, y0 = px(L.MARGIN), plan.standings_top
        x1, y1 = plan.width - px(L.MARGIN), plan.height - px(L.MARGIN)
        draw.rounded_rectangle(
            (x0, y0, x1, y1), px(10), fill=pal["centre_card"], outline=pal["centre_line"], width=2
        )
        pad = px(L.STANDINGS_PAD + 4)
        two = plan.columns == 2
        face = "condensed" if two else "bold"
        name_font = font(face, px(L.STANDINGS_NAME))
        cash_font = font(face, px(L.STANDINGS_MONEY))
        worth_font = font("condensed" if two else "regular", px(L.STANDINGS_MONEY))
        head_font = font("regular", px(L.STANDINGS_HEAD))
        lab = words.lab
        # The plain headings: a theme's currency is named once, at the left ("in Naschgeld").
        cash_head, worth_head = labels(words.lang)["cash"], labels(words.lang)["worth"]
        players = state.players
        cash = [words.figure(p.cash) for p in players]
        worth = [words.figure(wealth(state, s)) for s in range(len(players))]
        gap = px(16)
        cash_w = max([text_width(cash_font, t) for t in cash] + [text_width(head_font, cash_head)])
        worth_w = max(
            [text_width(worth_font, t) for t in worth] + [text_width(head_font, worth_head)]
        )
        column_w = (x1 - x0 - 2 * pad - (gap if two else 0)) // plan.columns
        head_y = y0 + px(L.STANDINGS_PAD) + px(L.STANDINGS_HEAD_H) / 2
        top = y0 + px(L.STANDINGS_PAD) + px(L.STANDINGS_HEAD_H)
        mover = self.focus.mover if state.phase != "over" else None
        for column in range(plan.columns):
            cx0 = x0 + pad + column * (column_w + gap)
            cx1 = cx0 + column_w
            worth_x = cx1 - px(8)
            cash_x = worth_x - worth_w - gap
            muted = pal["text_muted"]
            draw.text((cash_x, head_y), cash_head, font=head_font, fill=muted, anchor="rm")
            draw.text((worth_x, head_y), worth_head, font=head_font, fill=muted, anchor="rm")
            if words.theme_currency and column == 0:
                unit = ellipsize(
                    lab.text("tv_unit", currency=words.theme_currency),
                    head_font,
                    cash_x - cash_w - cx0,
                )
                draw.text((cx0 + px(8), head_y), unit, font=head_font, fill=muted, anchor="lm")
            name_left = cx0 + px(8) + plan.badge + px(10)
            name_right = cash_x - cash_w - gap
            for row in range(plan.rows):
                seat = column * plan.rows + row
                if seat >= len(players):
                    break
                player = players[seat]
                ry0 = top + row * plan.row_h
                cy = ry0 + plan.row_h / 2
                if seat == mover:
                    draw.rounded_rectangle(
                        (cx0, ry0 + px(2), cx1, ry0 + plan.row_h - px(2)),
                        px(6),
                        fill=pal["row_current"],
                    )
                elif row:
                    draw.line((cx0 + px(8), ry0, cx1 - px(8), ry0), fill=pal["centre_line"])
                size = plan.badge
                colour = pal.player(seat)
                if player.bankrupt:
                    colour = mix(colour, pal["centre_card"], 0.6)
                draw_player_badge(
                    self.image,
                    (cx0 + px(8) + size / 2, cy),
                    size,
                    colour,
                    plan.initials[seat],
                    ring=pal["badge_ring"],
                )
                colour = pal["text_muted"] if player.bankrupt else pal["text"]
                lock = px(20) if player.in_jail and not player.bankrupt else 0
                name = ellipsize(player_name(state, seat), name_font, name_right - name_left - lock)
                draw.text((name_left, cy), name, font=name_font, fill=colour, anchor="lm")
                name_w = text_width(name_font, name)
                if player.bankrupt:
                    draw.line(
                        (name_left, cy + px(1), name_left + name_w, cy + px(1)),
                        fill=colour,
                        width=px(2),
                    )
                    draw.text(
                        (cash_x, cy), lab["bankrupt"], font=head_font, fill=colour, anchor="rm"
                    )
                    continue
                if lock:
                    sprite = padlock(px(18), pal["accent"])
                    paste_centred(self.image, sprite, (name_left + name_w + px(4) + lock / 2, cy))
                draw.text((cash_x, cy), cash[seat], font=cash_font, fill=colour, anchor="rm")
                draw.text(
                    (worth_x, cy), worth[seat], font=worth_font, fill=pal["text_muted"], anchor="rm"
                )
