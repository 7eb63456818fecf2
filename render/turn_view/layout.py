"""Where everything of the turn's picture goes, and at which size: the plan drawn.

All sizes are given for the 800 px wide picture and scaled to the width asked for. The
plan holds every decision that depends on the state (which squares, how wide, which
names fit at which size), so :func:`render.turn_view.turn_view_fonts` reports exactly
the sizes the drawing uses.

Sizes: Discord shows the picture about 400 px wide on a phone, half the drawn width, so
every text a player must read is drawn at 18 px or more (9 px as shown).
"""

from __future__ import annotations

import math
from dataclasses import dataclass, field
from functools import lru_cache

from bot.engine.state import GameState
from render.assets import font
from render.board import player_initials
from render.text import Fitted, fit_text, text_width
from render.turn_view.marks import badge_text_size
from render.turn_view.path import Item, TurnFocus, collapse, route
from render.turn_view.words import Words

BASE_WIDTH = 800
#: The width Discord shows the picture at on a phone.
SHOWN_WIDTH = 400

# Sizes at 800 px wide (px).
MARGIN = 12
HEADER_H = 66
CAPTION_H = 28
TILE_H = 236
TILE_GAP = 14  # between two tiles, for the arrow of the way
SECTION_GAP = 12
# A tile is at least as wide as "Chaussee-" at 18 px (96 px) plus its padding, so that
# German names break at their joints ("Chaussee-straße"), not anywhere.
TILE_MIN, TILE_MAX = 106, 136
LANDING_MIN, LANDING_MAX = 176, 210
MARKER_MIN = 62
TILE_PAD = 4
BAND_H = 38
NAME_MAX, NAME_MIN = 22, 18
LANDING_NAME_MAX = 26
# Badges: the shared badge draws two letters ("Ch", "A1") at 0.42 of its diameter, so a
# game with such initials gets larger badges, to keep them at 18 px.
BADGE_ONE, BADGE_TWO = 38, 44
TOKEN_LARGE, TOKEN_SMALL = 34, 24
MONEY = 20  # prices and rents on the tiles
DUE_WORD, DUE_FIGURE = 19, 24
CAPTION = 18
MARKER_BIG, MARKER_SMALL = 26, 18
HEADER_NAME, HEADER_TURN = 30, 22
HEADER_BADGE = 48
DIE = 40
DIE_EARLIER = 30  # the turn's earlier throws (doubles) beside the latest
DIE_TOTAL = 26
DOUBLES = 21
STANDINGS_HEAD = 18
STANDINGS_HEAD_H = 30
STANDINGS_PAD = 8
ROW_H = 44
ROW_GAP = 6  # a row is its badge plus this, at least ROW_H
STANDINGS_NAME = 22
STANDINGS_MONEY = 22
#: Players in one column up to this many; more go into two columns.
ONE_COLUMN_MAX = 4


@lru_cache(maxsize=2048)
def fitted_name(text: str, width: int, height: int, max_size: int, min_size: int) -> Fitted:
    """A square's name fitted into its box (cached: the same names recur every turn)."""
    return fit_text(text, width, height, face="condensed", max_size=max_size, min_size=min_size)


@dataclass
class Tile:
    """One item of the stretch and where it goes."""

    item: Item
    x0: int
    x1: int
    name: Fitted | None = None  # squares only


@dataclass
class Plan:
    """Every position and size of one picture (see the module's docstring)."""

    width: int
    scale: float
    height: int
    tiles: list[Tile]
    tile_top: int
    tile_bottom: int
    standings_top: int
    columns: int
    rows: int
    row_h: int
    initials: list[str]
    badge: int  # the diameter of every player badge but the header's
    fonts: dict[str, int] = field(default_factory=dict)

    def px(self, value: float) -> int:
        """``value`` (a size at 800 px wide) at this picture's width."""
        return max(1, round(value * self.scale))

    def use(self, category: str, size: int) -> None:
        """Note that text of ``category`` is drawn at ``size`` px (the smallest is kept)."""
        self.fonts[category] = min(size, self.fonts.get(category, size))


def marker_texts(item: Item, words: Words) -> tuple[str, str]:
    """The big and the small text of a skip ("+3", "Felder"), jump or back marker."""
    lab = words.lab
    if item.kind == "skip":
        one, many = lab["tv_squares"]
        return f"+{item.count}", one if item.count == 1 else many
    if item.kind == "back":
        return f"−{item.count}", lab["tv_back"]
    return "", lab["tv_jump_card" if item.role == "card" else "tv_jump"]


def marker_width(item: Item, words: Words, salary_text: str, scale: float) -> int:
    """How wide a marker must be for its texts (at least :data:`MARKER_MIN`)."""
    big, small = marker_texts(item, words)
    widest = max(
        text_width(font("bold", round(MARKER_BIG * scale)), big),
        text_width(font("condensed", round(MARKER_SMALL * scale)), small),
        text_width(font("condensed", round(MARKER_SMALL * scale)), salary_text)
        if item.salary
        else 0,
    )
    return max(round(MARKER_MIN * scale), widest + round(2 * TILE_PAD * scale))


def plan_view(
    state: GameState, focus: TurnFocus, words: Words, width: int, salary_text: str
) -> Plan:
    """The plan of the picture of ``focus`` in ``state`` at ``width`` px."""
    scale = width / BASE_WIDTH

    def px(value: float) -> int:
        return max(1, round(value * scale))

    inner = width - 2 * px(MARGIN)
    gap = px(TILE_GAP)

    def min_width(item: Item) -> int:
        if item.kind == "square":
            return px(LANDING_MIN) if item.role == "landing" else px(TILE_MIN)
        return marker_width(item, words, salary_text, scale)

    def fits(items: list[Item]) -> bool:
        return sum(min_width(i) for i in items) + gap * (len(items) - 1) <= inner

    items = collapse(route(focus, state.board), fits)
    widths = [min_width(i) for i in items]
    # Spare width goes to the squares (up to their largest size); what is left centres.
    spare = inner - sum(widths) - gap * (len(items) - 1)
    growable = [k for k, i in enumerate(items) if i.kind == "square"]
    while spare > 0 and growable:
        share = max(1, spare // len(growable))
        for k in list(growable):
            limit = px(LANDING_MAX if items[k].role == "landing" else TILE_MAX)
            grow = min(share, limit - widths[k], spare)
            widths[k] += grow
            spare -= grow
            if widths[k] >= limit:
                growable.remove(k)
            if spare <= 0:
                break
    x = px(MARGIN) + max(0, spare) // 2
    tile_top = px(MARGIN + HEADER_H + CAPTION_H)
    n = len(state.players)
    columns = 1 if n <= ONE_COLUMN_MAX else 2
    rows = math.ceil(n / columns)
    initials = player_initials([p.name for p in state.players])
    badge = px(BADGE_ONE if all(len(i) <= 1 for i in initials) else BADGE_TWO)
    row_h = max(px(ROW_H), badge + px(ROW_GAP))
    tile_bottom = tile_top + px(TILE_H)
    standings_top = tile_bottom + px(SECTION_GAP)
    height = (
        standings_top + px(STANDINGS_HEAD_H) + rows * row_h + 2 * px(STANDINGS_PAD) + px(MARGIN)
    )
    plan = Plan(
        width=width,
        scale=scale,
        height=height,
        tiles=[],
        tile_top=tile_top,
        tile_bottom=tile_bottom,
        standings_top=standings_top,
        columns=columns,
        rows=rows,
        row_h=row_h,
        initials=initials,
        badge=badge,
    )
    for item, w in zip(items, widths, strict=True):
        tile = Tile(item, x, x + w)
        if item.kind == "square":
            landing = item.role == "landing"
            top, bottom = name_box(plan, landing=landing)
            tile.name = fitted_name(
                words.square(item.square, in_jail=_jailed_here(state, focus, item)),
                w - 2 * px(TILE_PAD),
                bottom - top,
                px(LANDING_NAME_MAX if landing else NAME_MAX),
                px(NAME_MIN),
            )
            plan.use("square_names", tile.name.size)
        plan.tiles.append(tile)
        x += w + gap
    _plan_fonts(plan)
    return plan


def _jailed_here(state: GameState, focus: TurnFocus, item: Item) -> bool:
    """True if the tile is the jail and the mover sits in it (its name says so)."""
    player = state.players[focus.mover]
    return (
        item.role in ("landing", "here")
        and item.square == state.board.jail_index
        and player.in_jail
        and player.position == item.square
    )


def name_box(plan: Plan, *, landing: bool) -> tuple[int, int]:
    """Top and bottom of a tile's name, below its band."""
    top = plan.tile_top + plan.px(BAND_H + TILE_PAD)
    return top, top + plan.px(84 if landing else 70)


def _plan_fonts(plan: Plan) -> None:
    """The sizes of the texts that are not fitted: fixed sizes, and the initials, which
    shrink to fit their badge (every player's, as any may own a square shown)."""
    px = plan.px
    for text in plan.initials:
        plan.use("owners", math.floor(badge_text_size(text, plan.badge)))
        plan.use("standings", math.floor(badge_text_size(text, plan.badge)))
    plan.use("money", px(MONEY))
    plan.use("money", px(STANDINGS_MONEY))
    plan.use("due", px(DUE_WORD))
    plan.use("captions", px(CAPTION))
    plan.use("markers", px(MARKER_SMALL))
    plan.use("header", px(HEADER_TURN))
    plan.use("standings", px(STANDINGS_NAME))
    plan.use("standings", px(STANDINGS_HEAD))
