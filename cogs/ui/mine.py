"""``/monopoly me games``: every game of a member on every server, those waiting on them first.

A private, paged list (ten games a page): first the running games that wait on the member
("Du bist dran", with the time left when the game has a deadline), then their other
running games, then the lobbies they joined. Each line names the server, the channel and
links to the game's live message (or the lobby message).

Custom ids (routed in ``cogs/core/routes.py``; the list belongs to the clicking user, so
neither a server nor a game is in the id, and every click works after a restart, also in
a direct message, where there is no server): ``xb:0:mine:1`` (the **📋 Meine Spiele**
button of the reminder and turn DMs: the list's first page as a new private message), and
the page buttons ``xb:0:mine_page:{page}-p`` / ``-n`` (as in ``cogs/ui/history.py``).
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

import discord

from bot.i18n import t
from cogs.ui.ids import PanelButton, clip

#: Games per page.
PAGE_SIZE = 10
#: The game part of the custom ids: the list belongs to a member, not a game.
NO_GAME = 0
#: Characters of one line (a server's name can be 100 characters long).
LINE_MAX = 380
MINE_COLOUR = 0x00897B
#: What a line says about its game, in the order the list shows them.
YOUR_MOVE, RUNNING, LOBBY = "move", "running", "lobby"
_ORDER = {YOUR_MOVE: 0, RUNNING: 1, LOBBY: 2}
#: Sorts after every real deadline (a game without one).
_NO_DEADLINE = 2**63


@dataclass(frozen=True)
class MineEntry:
    """One game of the member as the list shows it.

    ``kind`` is ``"board"`` or ``"cards"``; ``status`` one of :data:`YOUR_MOVE`,
    :data:`RUNNING`, :data:`LOBBY`; ``server`` the server's name if the bot knows it;
    ``deadline_at`` the Unix time the move's deadline ends (None: no deadline).
    """

    game: int
    kind: str
    status: str
    server: str | None
    channel_id: int
    link: str
    deadline_at: int | None = None
    paused: bool = False
    players: int = 0


def ordered(entries: list[MineEntry]) -> list[MineEntry]:
    """Games waiting on the member first (the nearest deadline first), then the other
    running games, then the lobbies; within each the oldest game first."""

    def key(entry: MineEntry) -> tuple[int, int, int]:
        due = entry.deadline_at if entry.deadline_at is not None else _NO_DEADLINE
        return (_ORDER.get(entry.status, 3), due if entry.status == YOUR_MOVE else 0, entry.game)

    return sorted(entries, key=key)


def pages_for(total: int) -> int:
    """How many pages ``total`` games fill (at least one)."""
    return max(1, -(-total // PAGE_SIZE))


def clamp_page(page: int, total: int) -> int:
    """``page`` (counted from 1) within the pages ``total`` games fill."""
    return min(max(page, 1), pages_for(total))


def mine_line(entry: MineEntry, lang: str) -> str:
    """One game of the list: what it waits for, server, channel, kind and a link."""
    if entry.status == YOUR_MOVE:
        status = t(lang, "mine.your_move")
        if entry.deadline_at:
            status += " · " + t(lang, "mine.due", due=f"<t:{entry.deadline_at}:R>")
    elif entry.status == LOBBY:
        status = t(lang, "mine.lobby", count=entry.players)
    else:
        status = t(lang, "mine.running")
    if entry.paused:
        status += " · " + t(lang, "mine.paused")
    server = entry.server or t(lang, "mine.server_unknown")
    opens = t(lang, "mine.open_lobby" if entry.status == LOBBY else "mine.open")
    text = t(
        lang,
        "mine.line",
        status=status,
        server=discord.utils.escape_markdown(clip(server, 60)),
        channel=f"<#{entry.channel_id}>",
        kind=t(lang, "games.cards" if entry.kind == "cards" else "games.board"),
        game=entry.game,
        open=opens,
        link=entry.link,
    )
    return clip(text, LINE_MAX)


def mine_message(entries: list[MineEntry], page: int, lang: str) -> dict[str, Any]:
    """Page ``page`` (from 1, clamped) of the member's games (all of them, in any order):
    embed and ◀ ▶ buttons; a short text if there is none."""
    total = len(entries)
    if total == 0:
        return {"content": t(lang, "mine.none")}
    games = ordered(entries)
    pages = pages_for(total)
    page = clamp_page(page, total)
    shown = games[(page - 1) * PAGE_SIZE : page * PAGE_SIZE]
    waiting = sum(1 for entry in games if entry.status == YOUR_MOVE)
    embed = discord.Embed(
        title=t(lang, "mine.title", page=page, pages=pages),
        description="\n".join(mine_line(entry, lang) for entry in shown),
        colour=MINE_COLOUR,
    )
    embed.set_footer(text=t(lang, "mine.footer", count=total, waiting=waiting))
    view = discord.ui.View(timeout=None)
    for step, arrow, target in (("p", "◀", page - 1), ("n", "▶", page + 1)):
        view.add_item(
            PanelButton(
                NO_GAME,
                "mine_page",
                f"{clamp_page(target, total)}-{step}",
                label=arrow,
                disabled=not 1 <= target <= pages,
            )
        )
    return {"content": None, "embed": embed, "view": view}


def mine_button(lang: str, *, row: int | None = None) -> PanelButton:
    """The **📋 Meine Spiele** button: the member's list as a new private message."""
    return PanelButton(NO_GAME, "mine", "1", label=t(lang, "mine.button"), row=row)


def mine_view(lang: str) -> discord.ui.View:
    """A view of :func:`mine_button` alone (for the reminder and turn DMs)."""
    view = discord.ui.View(timeout=None)
    view.add_item(mine_button(lang))
    return view


def page_arg(arg: str | None) -> int | None:
    """The page a page button asks for (``"3-n"`` -> 3, ``"1"`` -> 1), or None if the id is
    malformed."""
    number, _, step = (arg or "").partition("-")
    if step not in ("", "p", "n") or not (number.isascii() and number.isdigit()):
        return None
    return int(number)
