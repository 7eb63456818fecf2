"""Geometry of the board image: where each square, strip, name, token area and band lies.

Square 0 (GO) is the bottom-right corner and play runs clockwise on screen: left along
the bottom row, up the left column, right along the top row and down the right column.
All text stays upright: the bottom and top rows get narrow, deep squares with names on
up to three lines, the side columns wide, shallow squares with names on up to two.

Every square other than a corner is cut, from its inner edge (facing the centre)
outwards, into the *strip* (colour bar of a street, icon of the other squares), then
the *name*, the *token* area and the *band* (price of a lot, later its owner). In the
side columns the strip is a vertical bar on the inner edge and the rest is stacked top
to bottom beside it, so a player reads every square the same way; there the band is a
tag in the outer bottom corner, with the token area beside it.
"""

from __future__ import annotations

from dataclasses import dataclass
from functools import lru_cache

Box = tuple[int, int, int, int]  # x0, y0, x1, y1 (x1, y1 exclusive)

CORNER_RATIO = 1.68  # corner side / square width, close to the printed boards
TAG_SHARE = 0.6  # width of a side square's price / owner tag, as a share of the square width


@dataclass(frozen=True, slots=True)
class SquareGeometry:
    """Where one square and its parts lie on the image."""

    index: int
    side: str  # "bottom", "left", "top", "right" or "corner"
    rect: Box
    strip: Box  # colour bar or icon strip (corners: the icon area)
    name: Box
    tokens: Box
    band: Box  # price / owner band (corners: empty, zero size)
    anchor: tuple[int, int]  # point just inside the centre, next to the square (move path)
    extra: Box = (0, 0, 0, 0)  # corners: a second text area ("just visiting", GO's hint)
    cell: Box = (0, 0, 0, 0)  # the jail corner: the cell


@dataclass(frozen=True, slots=True)
class Layout:
    """The whole board at one image size."""

    size: int
    margin: int
    corner: int
    width: float  # width of a side square along the board edge
    strip: int  # depth of the colour bar
    band: int  # height of the price / owner band
    centre: Box
    squares: tuple[SquareGeometry, ...]

    @property
    def token_diameter(self) -> int:
        """Diameter of a token when there is room for it."""
        return max(12, round(self.width * 0.32))

    @property
    def house_size(self) -> int:
        """Side of a house on the colour bar."""
        return max(8, round(self.strip * 0.62))


def _side_of(index: int) -> str:
    if index % 10 == 0:
        return "corner"
    return ("bottom", "left", "top", "right")[index // 10]


@lru_cache(maxsize=16)
def board_layout(size: int) -> Layout:
    """The layout of a ``size`` x ``size`` board image; cached per size."""
    margin = max(4, round(size * 0.008))
    board = size - 2 * margin
    width = board / (9 + 2 * CORNER_RATIO)
    corner = round(width * CORNER_RATIO)
    width = (board - 2 * corner) / 9
    strip = round(corner * 0.2)
    band = round(corner * 0.14)
    pad = max(2, round(width * 0.045))
    lo, hi = margin, size - margin  # outer edges of the board
    inner_lo, inner_hi = lo + corner, hi - corner  # edges of the centre
    offset = round(width * 0.16)  # how far into the centre the move path runs

    def cut(k: int) -> tuple[int, int]:
        """Edges of the k-th side square (0..8) counted from inner_lo."""
        return round(inner_lo + k * width), round(inner_lo + (k + 1) * width)

    squares: list[SquareGeometry] = []
    for index in range(40):
        side = _side_of(index)
        if side == "corner":
            squares.append(_corner(index, lo, hi, corner, pad, offset))
            continue
        k = index % 10 - 1
        if side == "bottom":
            x0, x1 = cut(8 - k)
            y0, y1 = inner_hi, hi
            strip_box = (x0, y0, x1, y0 + strip)
            body = (x0, y0 + strip, x1, y1)
            anchor = ((x0 + x1) // 2, y0 - offset)
        elif side == "top":
            x0, x1 = cut(k)
            y0, y1 = lo, inner_lo
            strip_box = (x0, y1 - strip, x1, y1)
            body = (x0, y0, x1, y1 - strip)
            anchor = ((x0 + x1) // 2, y1 + offset)
        elif side == "left":
            y0, y1 = cut(8 - k)
            x0, x1 = lo, inner_lo
            strip_box = (x1 - strip, y0, x1, y1)
            body = (x0, y0, x1 - strip, y1)
            anchor = (x1 + offset, (y0 + y1) // 2)
        else:  # right
            y0, y1 = cut(k)
            x0, x1 = inner_hi, hi
            strip_box = (x0, y0, x0 + strip, y1)
            body = (x0 + strip, y0, x1, y1)
            anchor = (x0 - offset, (y0 + y1) // 2)
        bx0, by0, bx1, by1 = body
        # Three name lines fit the deep squares of the rows, two the shallow ones at the sides.
        name_h = round(corner * 0.37) if side in ("bottom", "top") else round(width * 0.42)
        if side == "top":
            # The band goes to the outer edge here too, so an owner's band never touches
            # (and is never mistaken for) the colour bar on the inner edge.
            band_box = (bx0, by0, bx1, by0 + band)
            by0 += band
            by1 += band
        else:
            band_box = (bx0, by1 - band, bx1, by1)
        # Names get nearly the full width: every pixel counts for long compounds.
        hpad = max(2, round(width * 0.03))
        name_box = (bx0 + hpad, by0 + pad, bx1 - hpad, by0 + pad + name_h)
        tokens_box = (bx0 + pad, name_box[3], bx1 - pad, by1 - band - 1)
        if side in ("left", "right"):
            # The side squares are shallow: a full-width band would leave the pieces a
            # strip too low for a pin. The band becomes a tag in the outer bottom corner
            # and the pieces stand beside it, on the inner side, as tall as they need.
            tag = round(width * TAG_SHARE)
            if side == "left":
                band_box = (bx0, by1 - band, bx0 + tag, by1)
                tokens_box = (bx0 + tag + pad, name_box[3], bx1 - pad, by1 - pad)
            else:
                band_box = (bx1 - tag, by1 - band, bx1, by1)
                tokens_box = (bx0 + pad, name_box[3], bx1 - tag - pad, by1 - pad)
        squares.append(
            SquareGeometry(
                index, side, (x0, y0, x1, y1), strip_box, name_box, tokens_box, band_box, anchor
            )
        )
    centre = (lo + corner, lo + corner, hi - corner, hi - corner)
    return Layout(size, margin, corner, width, strip, band, centre, tuple(squares))


def _corner(index: int, lo: int, hi: int, corner: int, pad: int, offset: int) -> SquareGeometry:
    """Corners: GO (0), jail (10), free parking (20) and go to jail (30)."""
    if index == 0:
        x0, y0 = hi - corner, hi - corner
        anchor = (x0 - offset, y0 - offset)
    elif index == 10:
        x0, y0 = lo, hi - corner
        anchor = (x0 + corner + offset, y0 - offset)
    elif index == 20:
        x0, y0 = lo, lo
        anchor = (x0 + corner + offset, y0 + corner + offset)
    else:
        x0, y0 = hi - corner, lo
        anchor = (x0 - offset, y0 + corner + offset)
    x1, y1 = x0 + corner, y0 + corner
    rect = (x0, y0, x1, y1)
    c = corner
    empty = (x0, y0, x0, y0)
    if index == 10:
        # The cell sits in the inner (top-right) part; the L along the outer edges is
        # "just visiting": its label along the bottom, visitors in the left column.
        cell_side = round(c * 0.64)
        cell = (x1 - cell_side, y0, x1, y0 + cell_side)
        name = (cell[0] + pad, cell[1] + pad, cell[2] - pad, cell[1] + round(c * 0.16))
        visiting_label = (x0 + pad, y0 + cell_side + pad, x1 - pad, y1 - pad)
        visitors = (x0 + pad, y0 + pad, cell[0] - pad, y0 + cell_side)
        jailed = (cell[0] + pad, name[3], cell[2] - pad, cell[3] - pad)
        return SquareGeometry(
            index, "corner", rect, jailed, name, visitors, empty, anchor, visiting_label, cell
        )
    name = (x0 + pad * 2, y0 + round(c * 0.06), x1 - pad * 2, y0 + round(c * 0.32))
    icon = (x0 + pad * 2, y0 + round(c * 0.33), x1 - pad * 2, y0 + round(c * 0.68))
    tokens = (x0 + pad * 2, y0 + round(c * 0.69), x1 - pad * 2, y1 - pad * 2)
    if index == 0:
        # GO: the name and the salary hint on top, the arrow showing the direction of
        # play, tokens below.
        hint = (x0 + pad * 2, y0 + round(c * 0.30), x1 - pad * 2, y0 + round(c * 0.42))
        icon = (x0 + pad * 2, y0 + round(c * 0.42), x1 - pad * 2, y0 + round(c * 0.62))
        name = (name[0], name[1], name[2], y0 + round(c * 0.30))
        tokens = (tokens[0], y0 + round(c * 0.63), tokens[2], tokens[3])
        return SquareGeometry(index, "corner", rect, icon, name, tokens, empty, anchor, hint)
    return SquareGeometry(index, "corner", rect, icon, name, tokens, empty, anchor)
