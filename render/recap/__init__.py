"""The recap images of a finished game: net worth over the turns, the card game's rounds.

Pure functions from a recap (:mod:`bot.recap`) to PNG bytes, in the board's style: the
same bundled fonts, the palette of the board image (so a player's line has the colour of
their token on the board, and a colour group's marker the colour of its bar) and the
board's tokens in the legend.

- :func:`render_board_recap`: a line chart of every player's net worth per turn, with a
  cross where a player went bankrupt and a dot in the group's colour on the owner's
  line where a colour group was completed; under it the legend (token, name, a note
  per player), the key to the markers and the game's moments as short lines.
- :func:`render_card_recap`: the card game's points per round as grouped bars, one bar
  per player, with the same legend and lines.

Every word on the images comes from the caller, already translated
(:class:`RecapTexts`); the renderer only formats numbers (``lang`` picks the digit
grouping). Sizes scale with the width, and no text is smaller than
:data:`MIN_PHONE_TEXT` pixels once the image is shown :data:`PHONE_WIDTH` pixels wide,
as on a phone (:func:`text_sizes`; the tests check every drawn text).

The package, one job a module, from the bottom up: :mod:`~render.recap.sizes` (widths,
font sizes, numbers), :mod:`~render.recap.colours`, :mod:`~render.recap.texts` (the
words in and the texts drawn), :mod:`~render.recap.frame` (where the parts go),
:mod:`~render.recap.marks` (tokens and markers with smooth edges),
:mod:`~render.recap.legend`, :mod:`~render.recap.chart` (the picture both share), and
the two recaps, :mod:`~render.recap.board` and :mod:`~render.recap.cards`. Names with a
leading underscore are the package's own; the others are re-exported here.
"""

from __future__ import annotations

from render.recap.board import draw_board_recap, line_points, render_board_recap
from render.recap.cards import draw_card_recap, render_card_recap
from render.recap.colours import contrast, player_colours, readable
from render.recap.marks import Painter
from render.recap.sizes import (
    CHART_SHARE,
    DEFAULT_WIDTH,
    MAX_WIDTH,
    MIN_PHONE_TEXT,
    MIN_WIDTH,
    MOMENT_PITCH,
    PHONE_WIDTH,
    SUPERSAMPLE,
    TOKEN_SHARE,
    Box,
    digits,
    nice_step,
    text_sizes,
    token_diameter,
)
from render.recap.texts import Drawing, DrawnText, RecapTexts, wrap_lines

__all__ = [
    "CHART_SHARE",
    "DEFAULT_WIDTH",
    "MAX_WIDTH",
    "MIN_PHONE_TEXT",
    "MIN_WIDTH",
    "MOMENT_PITCH",
    "PHONE_WIDTH",
    "SUPERSAMPLE",
    "TOKEN_SHARE",
    "Box",
    "Drawing",
    "DrawnText",
    "Painter",
    "RecapTexts",
    "contrast",
    "digits",
    "draw_board_recap",
    "draw_card_recap",
    "line_points",
    "nice_step",
    "player_colours",
    "readable",
    "render_board_recap",
    "render_card_recap",
    "text_sizes",
    "token_diameter",
    "wrap_lines",
]
