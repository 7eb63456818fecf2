"""The picture of one turn (a "Zug"), drawn for a phone: a pure function of the game state.

Discord shows a message's picture about 400 px wide on a phone, where the whole board's
names shrink to a few pixels. This picture shows what matters in this turn at a size a
player reads without zooming (drawn 800 px wide, so every text a player must read is
18 px or more, 9 px as shown):

- the header: the mover's badge and name, the turn's number and its throws as dice;
- the stretch: the squares in the order the mover went, from where the turn began to
  where they stand, each with its name, price or owner and rent now, buildings, the
  mortgage mark and the players standing there; the landing square wider, framed in the
  mover's colour and saying what is due there. A long way folds its middle into
  "+N Felder" (with the salary if GO was passed there), a trip to jail shows a jump.
  Before the first throw: the mover's square and the squares ahead;
- the standings: every player in seat order (rows do not move from turn to turn, so a
  player finds their own at a glance) with cash and net worth, the mover's row
  highlighted, the jailed with a padlock, the bankrupt struck through.

The whole board (:mod:`render.board`) stays one tap away in the turn message.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from PIL import Image

from bot.engine.state import GameState
from bot.engine.turns import salary
from render.assets import colours_key, palette
from render.png import encode_png
from render.turn_view.describe import describe
from render.turn_view.draw import Painter
from render.turn_view.layout import BASE_WIDTH, Plan, plan_view
from render.turn_view.path import TurnFocus
from render.turn_view.words import Words, words_for

__all__ = [
    "TurnFocus",
    "describe_turn_view",
    "draw_turn_view",
    "render_turn_view",
    "turn_view_fonts",
    "turn_view_plan",
]


def _prepare(
    state: GameState,
    focus: TurnFocus,
    lang: str,
    names: Mapping[int, str] | None,
    terms: Mapping[str, str] | None,
    width: int,
) -> tuple[Words, Plan, str]:
    words = words_for(state, lang, names, terms)
    salary_text = "+" + words.tile_money(salary(state))
    return words, plan_view(state, focus, words, width, salary_text), salary_text


def turn_view_plan(
    state: GameState,
    focus: TurnFocus,
    *,
    lang: str = "de",
    names: Mapping[int, str] | None = None,
    terms: Mapping[str, str] | None = None,
    width: int = BASE_WIDTH,
) -> Plan:
    """Where the picture puts what (its tiles, in order, with their squares and boxes):
    for tests and for pointing at a square of the picture."""
    return _prepare(state, focus, lang, names, terms, width)[1]


def draw_turn_view(
    state: GameState,
    focus: TurnFocus,
    *,
    theme: str = "light",
    lang: str = "de",
    names: Mapping[int, str] | None = None,
    colors: Mapping[str, Any] | None = None,
    terms: Mapping[str, str] | None = None,
    width: int = BASE_WIDTH,
) -> Image.Image:
    """The picture of the turn ``focus`` in ``state`` as a Pillow image (RGB).

    ``theme`` ("light", "dark") and ``colors`` pick the palette, ``lang`` ("de", "en")
    the words, ``names`` a theme's square names, ``terms`` a theme's words (its currency
    in the standings); ``width`` in px (the height follows from the number of players).
    """
    words, plan, salary_text = _prepare(state, focus, lang, names, terms, width)
    pal = palette(theme, colours_key(colors))
    return Painter(state, focus, plan, pal, words, salary_text).paint()


def render_turn_view(
    state: GameState,
    focus: TurnFocus,
    *,
    theme: str = "light",
    lang: str = "de",
    names: Mapping[int, str] | None = None,
    colors: Mapping[str, Any] | None = None,
    terms: Mapping[str, str] | None = None,
    width: int = BASE_WIDTH,
) -> bytes:
    """The picture of the turn ``focus`` as PNG bytes (see :func:`draw_turn_view`)."""
    image = draw_turn_view(
        state,
        focus,
        theme=theme,
        lang=lang,
        names=names,
        colors=colors,
        terms=terms,
        width=width,
    )
    return encode_png(image)


def turn_view_fonts(
    state: GameState,
    focus: TurnFocus,
    *,
    lang: str = "de",
    names: Mapping[int, str] | None = None,
    terms: Mapping[str, str] | None = None,
    width: int = BASE_WIDTH,
    theme: str = "light",
    colors: Mapping[str, Any] | None = None,
) -> dict[str, int]:
    """The smallest font size (px, as drawn) of each kind of text in the picture.

    Kinds: ``square_names``, ``owners`` (initials on owner badges), ``standings``
    (names, initials and headings), ``money`` (prices, rents, cash, net worth), ``due``,
    ``captions``, ``markers``, ``header``. Times the shown width over ``width`` this is
    the size a player sees. The picture is drawn to learn the sizes decided while
    drawing (what is due on the landing square).
    """
    words, plan, salary_text = _prepare(state, focus, lang, names, terms, width)
    pal = palette(theme, colours_key(colors))
    Painter(state, focus, plan, pal, words, salary_text).paint()
    return dict(plan.fonts)


def describe_turn_view(
    state: GameState,
    focus: TurnFocus,
    *,
    lang: str = "de",
    names: Mapping[int, str] | None = None,
    terms: Mapping[str, str] | None = None,
) -> str:
    """The picture's alt text (at most 1024 characters, the game's language): whose turn,
    the throws, the way and what is due where the mover landed, then every player's cash
    and net worth."""
    words = words_for(state, lang, names, terms)
    return describe(state, focus, words, salary(state))
