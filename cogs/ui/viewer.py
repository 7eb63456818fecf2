"""The replay viewer: a game at one turn (board game) or round (card game), privately.

The board game's frame shows the board image at the end of the turn (drawn smaller than
the turn message's, :data:`VIEWER_SIZE`, so a step costs less than one full board), the
turn's events as lines and the players' net worth; the card game's shows the round's
result (every lay-out and its points, as posted after the round) and the scores. Each
user browses in their own private copy; a step edits it in place.

Custom ids (routed in ``cogs/core/routes.py``): ``xb:{game}:rv_open`` (the recap's
**Replay ▶**: the viewer at the first turn), and the steps ``xb:{game}:{kind}:{turn}`` with
``kind`` one of ``rv_back`` (⏮ −10), ``rv_prev`` (◀ −1), ``rv_next`` (+1 ▶), ``rv_fwd``
(+10 ⏭) and the turn to show — so a click after a restart knows everything it needs, and
the four ids of one message never collide.
"""

from __future__ import annotations

from typing import Any

import discord

from bot.cardgame import CardState
from bot.cardgame.view import visible_events
from bot.engine.state import GameState
from bot.i18n import t
from bot.replay_cache import VIEWER_SIZE, Frame
from bot.settings import GameSettings
from cogs.ui.cards_table import event_line, round_message
from cogs.ui.ids import PanelButton, clip
from cogs.ui.text import Narrator, theme_of
from cogs.ui.turn import board_file, wealth_table

#: Event lines shown per frame (the rest of a long turn is summarised as "…").
MAX_LINES = 25
#: Characters of the embed's description (Discord allows 4096).
DESCRIPTION_MAX = 3500
#: Turns a far step skips.
FAR = 10
VIEWER_COLOUR = 0x6A1B9A

#: The step buttons: (kind, label, how to find the turn to show).
STEPS = (
    ("rv_back", "⏮ −10"),
    ("rv_prev", "◀ −1"),
    ("rv_next", "+1 ▶"),
    ("rv_fwd", "+10 ⏭"),
)
STEP_KINDS = frozenset(kind for kind, _ in STEPS)


def replay_view(game: int, lang: str) -> discord.ui.View:
    """The recap's **Replay ▶** button: opens the viewer at the game's first turn."""
    view = discord.ui.View(timeout=None)
    view.add_item(
        PanelButton(
            game, "rv_open", label=t(lang, "viewer.open"), style=discord.ButtonStyle.primary
        )
    )
    return view


def _targets(frame: Frame) -> dict[str, int | None]:
    """The turn each step button shows (None: the button is off)."""
    number = frame.number
    return {
        "rv_back": max(frame.first, number - FAR) if number > frame.first else None,
        "rv_prev": frame.before,
        "rv_next": frame.after,
        "rv_fwd": min(frame.last, number + FAR) if number < frame.last else None,
    }


def step_view(game: int, frame: Frame) -> discord.ui.View:
    """⏮ −10, ◀ −1, +1 ▶, +10 ⏭ (off at the ends)."""
    view = discord.ui.View(timeout=None)
    for kind, label in STEPS:
        target = _targets(frame)[kind]
        view.add_item(
            PanelButton(
                game,
                kind,
                str(frame.number if target is None else target),
                label=label,
                disabled=target is None,
                row=0,
            )
        )
    return view


def _lines(lines: list[str], empty: str) -> str:
    """Event lines as a description: the last :data:`MAX_LINES`, within Discord's limit."""
    if not lines:
        return empty
    shown = lines[-MAX_LINES:]
    text = "\n".join(shown)
    while len(text) > DESCRIPTION_MAX and len(shown) > 1:
        shown = shown[1:]
        text = "\n".join(shown)
    prefix = "…\n" if len(shown) < len(lines) else ""
    return clip(prefix + text, DESCRIPTION_MAX + 2)


def _title(game: int, frame: Frame, lang: str) -> str:
    key = "viewer.title_round" if frame.unit == "round" else "viewer.title"
    return t(lang, key, game=game, number=frame.number, last=frame.last)


def _footer(frame: Frame, lang: str, running: bool) -> str:
    if running and frame.number == frame.last:
        return t(lang, "viewer.footer_now")
    key = "viewer.footer_round" if frame.unit == "round" else "viewer.footer"
    return t(lang, key, number=frame.number)


def viewer_message(
    game: int, frame: Frame, settings: GameSettings, lang: str, *, running: bool = False
) -> dict[str, Any]:
    """The viewer at ``frame`` in ``lang``: embed and step buttons (the image separately,
    :func:`viewer_files`). ``running``: the game is not over, its last turn is the present."""
    state = frame.state
    if isinstance(state, CardState):
        embed = _card_embed(game, frame, state, lang, running)
    else:
        assert isinstance(state, GameState)
        settings = settings.copy()
        settings.lobby.lang = lang
        narrator = Narrator(state, lang, theme_of(settings))
        embed = discord.Embed(
            title=_title(game, frame, lang),
            description=_lines(narrator.lines(frame.events), t(lang, "viewer.nothing")),
            colour=VIEWER_COLOUR,
        )
        table = wealth_table(state, settings)
        if table:
            embed.add_field(name=t(lang, "viewer.players"), value=clip(table, 1000), inline=False)
        embed.set_image(url="attachment://board.png")
    embed.set_footer(text=_footer(frame, lang, running))
    return {"content": None, "embed": embed, "view": step_view(game, frame)}


def _card_embed(
    game: int, frame: Frame, state: CardState, lang: str, running: bool
) -> discord.Embed:
    """The card game's round: its result (or that it is still being played) and scores."""
    scored = next((e for e in frame.events if e["type"] == "round_scored"), None)
    if scored is not None:
        embed = round_message(state, lang, scored)
        embed.title = _title(game, frame, lang)
        embed.colour = discord.Colour(VIEWER_COLOUR)
    else:
        # As the table shows them: nobody's hand (drawn or passed cards) in a line.
        public = visible_events(frame.events, None)
        lines = [line for e in public if (line := event_line(state, lang, e))]
        embed = discord.Embed(
            title=_title(game, frame, lang),
            description=_lines(lines, t(lang, "viewer.nothing")),
            colour=VIEWER_COLOUR,
        )
        embed.add_field(name="\u200b", value=t(lang, "viewer.round_open"), inline=False)
    separator = "." if lang == "de" else ","
    scores = "\n".join(
        f"**{player.name}**: " + f"{player.score:,}".replace(",", separator)
        for player in state.players
    )
    embed.add_field(name=t(lang, "viewer.scores"), value=clip(scores, 1000), inline=False)
    return embed


def _last_move(frame: Frame) -> dict[str, Any]:
    """Options to draw the turn's last move on the board (none if nobody moved)."""
    moved = [e for e in frame.events if e["type"] == "moved"]
    if not moved:
        return {}
    last = moved[-1]
    return {"highlight_move": (last["from"], last["to"]), "mover": last["player"]}


async def viewer_files(frame: Frame, settings: GameSettings, lang: str) -> list[discord.File]:
    """The frame's image: the board game's board at :data:`VIEWER_SIZE` (drawn in a worker
    thread); none for the card game, whose round result is text."""
    state = frame.state
    if not isinstance(state, GameState):
        return []
    options = {"size": VIEWER_SIZE, **_last_move(frame)}
    shown = settings.copy()
    shown.lobby.lang = lang
    return [await board_file(state, shown, **options)]
