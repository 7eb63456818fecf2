"""The canvas the turn's picture is painted on, shared by its painters.

Holds the image, the plan (:mod:`render.turn_view.layout`), the palette and the words;
:mod:`render.turn_view.tiles` paints the stretch of squares and
:mod:`render.turn_view.panels` the header and the standings on it.
"""

from __future__ import annotations

from PIL import Image, ImageDraw

from bot.engine.state import GameState
from render.assets import RGB, Palette
from render.badges import draw_player_badge
from render.turn_view.layout import Plan
from render.turn_view.path import TurnFocus
from render.turn_view.words import Words

Box = tuple[int, int, int, int]


def mix(a: RGB, b: RGB, t: float) -> RGB:
    """``a`` moved the fraction ``t`` towards ``b``."""
    return (
        round(a[0] + (b[0] - a[0]) * t),
        round(a[1] + (b[1] - a[1]) * t),
        round(a[2] + (b[2] - a[2]) * t),
    )


def paste_centred(image: Image.Image, sprite: Image.Image, centre: tuple[float, float]) -> None:
    """Paste ``sprite`` (RGBA) with its centre at ``centre``."""
    x = round(centre[0] - sprite.width / 2)
    y = round(centre[1] - sprite.height / 2)
    image.paste(sprite, (x, y), sprite)


class Canvas:
    """One picture being painted: the image, the plan, the palette and the words."""

    def __init__(
        self,
        state: GameState,
        focus: TurnFocus,
        plan: Plan,
        pal: Palette,
        words: Words,
        salary_text: str,
    ) -> None:
        self.state = state
        self.focus = focus
        self.plan = plan
        self.pal = pal
        self.words = words
        self.salary_text = salary_text
        self.px = plan.px
        self.image = Image.new("RGB", (plan.width, plan.height), pal["centre"])
        self.draw = ImageDraw.Draw(self.image)
        self.mover_colour = pal.player(focus.mover)

    def badge(self, seat: int, centre: tuple[float, float], size: int) -> None:
        """A player's badge (the shared one of :mod:`render.badges`)."""
        draw_player_badge(
            self.image,
            centre,
            size,
            self.pal.player(seat),
            self.plan.initials[seat],
            ring=self.pal["badge_ring"],
        )
