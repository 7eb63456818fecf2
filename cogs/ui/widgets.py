"""Small parts shared by the menus: lot options, group names, paging, refusals with names."""

from __future__ import annotations

from collections.abc import Callable, Iterable

import discord

from bot.engine.state import GameState
from bot.engine.themes import Theme
from bot.i18n import t
from bot.settings import GameSettings
from cogs.ui.ids import OPTION_MAX, PanelButton, clip
from cogs.ui.text import Narrator, refusal, theme_of

#: Discord's limit of options per select.
PAGE_SIZE = 25


def explain(
    lang: str,
    error: Exception,
    state: GameState | None = None,
    settings: GameSettings | None = None,
) -> str:
    """Like ``refusal``, with the game at hand: names for squares and seats, money as money."""
    if state is None:
        return refusal(lang, error)
    return refusal(
        lang,
        error,
        Narrator(state, lang, theme_of(settings if settings is not None else GameSettings())),
    )


def group_name(lang: str, theme: Theme | None, group: str | None) -> str:
    """The display name of a colour group (the theme's if it names one)."""
    if group is None:
        return ""
    if theme is not None and group in theme.groups:
        return theme.groups[group]
    key = f"group.{group}"
    text = t(lang, key)
    # A server's own board may have groups of its own: their id is better than a key.
    return text if text != key else group.replace("_", " ").title()


def lot_option(
    state: GameState,
    narrator: Narrator,
    square: int,
    *,
    description: str | None = None,
    selected: bool = False,
) -> discord.SelectOption:
    """A select option for a lot: its name (marked if mortgaged) and a short description."""
    name = narrator.square(square)
    if state.mortgaged[square]:
        name += " (" + t(narrator.lang, "word.mortgaged") + ")"
    group = group_name(narrator.lang, narrator.theme, state.board.squares[square].group)
    return discord.SelectOption(
        label=clip(name, OPTION_MAX),
        value=str(square),
        description=clip(description or group, OPTION_MAX) or None,
        default=selected,
    )


def page_of(items: list[int], page: int) -> tuple[list[int], int, int]:
    """The items on ``page`` (clamped), the page and the number of pages (at least 1)."""
    pages = max(1, -(-len(items) // PAGE_SIZE))
    page = min(max(page, 0), pages - 1)
    return items[page * PAGE_SIZE : (page + 1) * PAGE_SIZE], page, pages


def page_buttons(
    game: int,
    kind: str,
    prefix: str,
    page: int,
    pages: int,
    row: int,
    label: Callable[[str, str], str] = lambda step, arrow: arrow,
) -> list[PanelButton]:
    """◀ / ▶ buttons of a paged select; their arg is ``{prefix}-p`` / ``{prefix}-n``."""
    return [
        PanelButton(
            game,
            kind,
            f"{prefix}-{step}",
            label=label(step, arrow),
            disabled=(page == 0) if step == "p" else (page == pages - 1),
            row=row,
        )
        for step, arrow in (("p", "◀"), ("n", "▶"))
    ]


def split_arg(arg: str | None) -> list[str]:
    """The parts of a custom_id argument, ``"12-g-n"`` -> ``["12", "g", "n"]``."""
    return (arg or "").split("-") if arg else []


def replace_page(selected: set[int], shown: list[int], values: Iterable[str]) -> set[int]:
    """The selection after a select on one page: the page's choices replace its old ones.

    ``shown`` is the page the user saw (the select's options when they chose).
    """
    chosen = {int(v) for v in values if v.isdigit()}
    return (selected - set(shown)) | (chosen & set(shown))


def shown_lots(shown: Iterable[str], fallback: list[int]) -> list[int]:
    """The lots a select showed (its option values), or ``fallback`` if it showed none."""
    lots = [int(v) for v in shown if v.isdigit()]
    return lots or fallback
