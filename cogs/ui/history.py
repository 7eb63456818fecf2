"""``/monopoly history``: the server's finished games, newest first, ten to a page.

A private message: one line per game (id, board or card game, players, winner or
"abandoned", length, date; a lobby closed before its start with its revealed secret, see
docs/fair-dice.md), a select to choose one (its recap follows, with a
**Replay ▶** button, see ``cogs/ui/viewer.py``) and ◀ ▶ to turn the pages.

Custom ids (routed in ``cogs/core/routes.py``; the server is the clicking user's, so it is
not in the id): the select ``xs:0:hist_pick:{page}`` (a game's id as each option's value),
the page buttons ``xb:0:hist_page:{page}-p`` / ``-n`` (the page to show, counted from 1;
the suffix keeps the two ids apart when both point at the same page).
"""

from __future__ import annotations

from dataclasses import dataclass
from datetime import datetime
from typing import Any

import discord

from bot.asyncplay.handover import former_names
from bot.cardgame import CardState
from bot.fairness import committed
from bot.i18n import t
from bot.settings import GameSettings
from bot.store import GameRow
from cogs.ui.handover import with_former
from cogs.ui.ids import OPTION_MAX, PanelButton, PanelSelect, clip

#: Games per page (a select holds 25 options; ten lines keep the message short).
PAGE_SIZE = 10
#: The game part of the list's custom ids: the list belongs to a server, not a game.
NO_GAME = 0
#: Characters of one line of the list (long names are cut).
LINE_MAX = 300
#: The colour of the list and of the viewer.
HISTORY_COLOUR = 0x6A1B9A


@dataclass(frozen=True)
class HistoryEntry:
    """One finished game as the list shows it; ``winners`` is empty for an abandoned game,
    ``kind`` is ``"board"`` or ``"cards"``, ``length`` counts turns or rounds; ``former``
    names, per seat, who handed the seat over to its last player (empty: nobody)."""

    game: int
    kind: str
    players: tuple[str, ...]
    winners: tuple[str, ...]
    length: int
    finished: datetime | None
    former: tuple[tuple[str, ...], ...] = ()
    #: A lobby closed before its start (docs/fair-dice.md): the secret it had committed
    #: to, revealed, and that fingerprint (``players`` are who was in the lobby).
    secret: int | None = None
    fingerprint: str = ""

    @property
    def cancelled(self) -> bool:
        """Whether this is a lobby closed without a game (it has no recap to open)."""
        return self.secret is not None


def entry_of(row: GameRow) -> HistoryEntry | None:
    """The list entry of a finished game's row; for a lobby that never started, its entry
    with the revealed secret (None if it committed to none: a lobby from before)."""
    state = row.state
    if state is None:
        return _cancelled_entry(row)
    names = tuple(p.name for p in state.players)
    if isinstance(state, CardState):
        seats = list(state.winners) if state.phase == "over" else []
        kind, length = "cards", state.round
    else:
        seats = [] if state.winner is None else [state.winner]
        kind, length = "board", state.turn
    winners = tuple(names[s] for s in seats if 0 <= s < len(names))
    settings = GameSettings.of(row)
    former = tuple(tuple(former_names(settings, seat)) for seat in range(len(names)))
    if not any(former):
        former = ()
    return HistoryEntry(row.id, kind, names, winners, length, row.updated_at, former)


def _cancelled_entry(row: GameRow) -> HistoryEntry | None:
    """The entry of a lobby closed before its start, with its secret (or None)."""
    settings = GameSettings.of(row)
    found = committed(settings)
    if found is None or found.secret is None:
        return None
    kind = "cards" if settings.lobby.is_cards else "board"
    names = settings.lobby.player_names()
    return HistoryEntry(
        row.id,
        kind,
        names,
        (),
        0,
        row.updated_at,
        secret=found.secret,
        fingerprint=found.fingerprint,
    )


def player_names(entry: HistoryEntry, lang: str) -> list[str]:
    """The players of a listed game, each with whom they took the seat over from."""
    return [
        with_former(name, list(entry.former[seat]) if seat < len(entry.former) else [], lang)
        for seat, name in enumerate(entry.players)
    ]


def pages_for(total: int) -> int:
    """How many pages ``total`` games fill (at least one)."""
    return max(1, -(-total // PAGE_SIZE))


def clamp_page(page: int, total: int) -> int:
    """``page`` (counted from 1) within the pages ``total`` games fill."""
    return min(max(page, 1), pages_for(total))


def _kind(entry: HistoryEntry, lang: str) -> str:
    return t(lang, "games.cards" if entry.kind == "cards" else "games.board")


def _result(entry: HistoryEntry, lang: str) -> str:
    if not entry.winners:
        return t(lang, "history.abandoned")
    return t(lang, "history.won", names=", ".join(entry.winners))


def _length(entry: HistoryEntry, lang: str) -> str:
    key = "history.rounds" if entry.kind == "cards" else "history.turns"
    return t(lang, key + (".one" if entry.length == 1 else ""), count=entry.length)


def history_line(entry: HistoryEntry, lang: str) -> str:
    """One game of the list: id, kind, players, result, length and date."""
    date = f"<t:{int(entry.finished.timestamp())}:d>" if entry.finished is not None else "–"
    if entry.cancelled:
        # The secret first: a long list of names must not cut it off.
        text = t(
            lang,
            "fair.history.cancelled",
            game=entry.game,
            kind=_kind(entry, lang),
            secret=entry.secret,
            short=entry.fingerprint[:16],
            date=date,
            players=", ".join(entry.players),
        )
        return clip(text, LINE_MAX)
    return clip(
        t(
            lang,
            "history.line",
            game=entry.game,
            kind=_kind(entry, lang),
            players=", ".join(player_names(entry, lang)),
            result=_result(entry, lang),
            length=_length(entry, lang),
            date=date,
        ),
        LINE_MAX,
    )


def history_message(
    entries: list[HistoryEntry | int], page: int, total: int, lang: str
) -> dict[str, Any]:
    """The list page ``page`` (from 1) of ``total`` finished games: embed and view.

    ``entries`` are the page's games, newest first; a game whose state could not be read
    is given as its id only and listed as unreadable (it cannot be chosen).
    """
    pages = pages_for(total)
    if total == 0:
        return {"content": t(lang, "history.none")}
    lines = []
    options = []
    for entry in entries:
        if isinstance(entry, int):
            lines.append(t(lang, "history.unreadable", game=entry))
            continue
        lines.append(history_line(entry, lang))
        if entry.cancelled:
            continue  # no recap or replay: its line says everything
        options.append(
            discord.SelectOption(
                label=clip(
                    t(
                        lang,
                        "history.option",
                        game=entry.game,
                        kind=_kind(entry, lang),
                        result=_result(entry, lang),
                    ),
                    OPTION_MAX,
                ),
                description=clip(
                    f"{', '.join(player_names(entry, lang))} · {_length(entry, lang)}",
                    OPTION_MAX,
                ),
                value=str(entry.game),
            )
        )
    embed = discord.Embed(
        title=t(
            lang,
            "history.title.one" if total == 1 else "history.title",
            page=page,
            pages=pages,
            count=total,
        ),
        description="\n".join(lines),
        colour=HISTORY_COLOUR,
    )
    embed.set_footer(text=t(lang, "history.footer"))
    view = discord.ui.View(timeout=None)
    if options:
        view.add_item(
            PanelSelect(
                NO_GAME,
                "hist_pick",
                str(page),
                options=options,
                placeholder=t(lang, "history.pick"),
                row=0,
            )
        )
    for step, arrow, target in (("p", "◀", page - 1), ("n", "▶", page + 1)):
        view.add_item(
            PanelButton(
                NO_GAME,
                "hist_page",
                f"{clamp_page(target, total)}-{step}",
                label=arrow,
                disabled=not 1 <= target <= pages,
                row=1,
            )
        )
    return {"content": None, "embed": embed, "view": view}


def page_arg(arg: str | None) -> int | None:
    """The page a page button asks for (``"3-n"`` -> 3), or None if the id is malformed."""
    number, _, step = (arg or "").partition("-")
    if step not in ("p", "n") or not (number.isascii() and number.isdigit()):
        return None
    return int(number)
