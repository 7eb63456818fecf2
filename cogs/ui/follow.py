"""Following a game without a seat: the 🔔 buttons and the round summary a follower gets.

A member who follows a running game (``settings.records.followers``) gets one direct message
at the end of each round: one line per turn of that round ("Zug 12 · bob: 🎲 … · 🏠 …",
the lines the turn message told) and a link, never a ping per click.

Custom ids (routed in ``cogs/core/routes.py``): ``m:{game}:{seq}:follow`` on the board
game's live turn message and the card game's table (a toggle: follow, or stop), the same
toggle ``xb:{game}:follow`` in ``/monopoly history``'s answer for a running game, and
``xb:{game}:follow:off`` under a summary (only stops, so an old DM never follows again).
"""

from __future__ import annotations

from typing import Any

import discord

from bot.i18n import t
from cogs.ui.ids import GameButton, PanelButton, clip
from cogs.ui.mine import mine_button
from cogs.ui.text import fit_lines

#: Characters of one turn's line in a summary (a long turn is cut).
TURN_LINE_MAX = 240
#: Characters of a summary (a bot's message content holds 2000).
SUMMARY_MAX = 1900


def follow_button(game: int, seq: int, lang: str, *, row: int | None = None) -> GameButton:
    """The 🔔 of a public game message: follow the game, or stop following it."""
    return GameButton(game, seq, "follow", label=t(lang, "button.follow"), row=row)


def follow_offer(game: int, lang: str) -> dict[str, Any]:
    """``/monopoly history``'s answer for a running game the member does not play in: it
    cannot be replayed by them (the refusal stays as it was), but followed (the button)."""
    view = discord.ui.View(timeout=None)
    view.add_item(PanelButton(game, "follow", label=t(lang, "follow.offer_button")))
    return {"content": t(lang, "error.replay_players_only"), "view": view}


def turn_line(title: str, lines: list[str]) -> str:
    """One turn of a summary: its title ("Zug 12 · bob") and what it did, on one line."""
    told = " · ".join(line.replace("\n", " ") for line in lines if line)
    return clip(f"{title}: {told}" if told else title, TURN_LINE_MAX)


def summary_text(
    lang: str,
    *,
    kind: str,
    game: int,
    channel_id: int,
    server: str | None,
    span: str,
    lines: list[str],
    link: str,
    over: bool = False,
) -> str:
    """The direct message of a round that ended (or of the game's last turns, ``over``)."""
    head = t(
        lang,
        "follow.summary",
        kind=t(lang, "games.cards" if kind == "cards" else "games.board"),
        game=game,
        channel=f"<#{channel_id}>",
        server=discord.utils.escape_markdown(clip(server or t(lang, "mine.server_unknown"), 60)),
        span=span,
    )
    tail = t(lang, "follow.over" if over else "follow.link", link=link)
    room = SUMMARY_MAX - len(head) - len(tail) - 2
    return f"{head}\n{fit_lines(lines, lang, limit=room)}\n{tail}"


def summary_view(game: int, lang: str) -> discord.ui.View:
    """Under a summary: 🔕 stop following, 📋 one's own games."""
    view = discord.ui.View(timeout=None)
    view.add_item(PanelButton(game, "follow", "off", label=t(lang, "follow.stop")))
    view.add_item(mine_button(lang))
    return view
