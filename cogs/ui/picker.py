"""Paged multi-selects of lots inside a private menu (trade, lot offer, mortgages, lifts).

Discord allows 25 options per select, and a player may own all 28 lots, so every list of
lots in a private menu is paged: a select for the page shown and ◀ / ▶ buttons. A
:class:`LotPicker` describes one such list once — where its chosen lots and its page live
in the draft and which lots it offers — and both builds the select with its page buttons
(:meth:`LotPicker.add_to`) and applies their clicks to the draft (:meth:`LotPicker.choose`,
:meth:`LotPicker.turn_page`). A choice made on one page is kept while the player turns to
another. The clicks themselves are routed like every other (``cogs/core/routes.py``).

Custom ids: the select ``xs:{game}:{select}:{nonce}-{side}-{page}``, the page buttons
``xb:{game}:{pager}:{nonce}-{side}-p|n``. ``side`` names one list of a menu with two
(``g``/``t`` for giving and getting in a trade, ``m``/``l`` for mortgaging and lifting).
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Mapping
from dataclasses import dataclass
from typing import Any

import discord

from bot.engine.state import GameState
from cogs.ui.drafts import Draft
from cogs.ui.ids import PanelButton, PanelSelect
from cogs.ui.widgets import page_buttons, page_of, replace_page, shown_lots, split_arg

#: The lots one side of the menu offers (chosen lots that became impossible stay listed).
Choices = Callable[[GameState, int, Any, str], list[int]]


@dataclass(frozen=True)
class Side:
    """Where one list keeps its state in the draft: the chosen lots and the page shown."""

    chosen: str  # name of the draft's ``set[int]`` attribute
    page: str  # name of the draft's ``int`` attribute


@dataclass(frozen=True)
class LotPicker:
    """One kind of paged lot select (see the module docstring)."""

    select: str  # panel kind of the select
    pager: str  # panel kind of the page buttons
    draft_kind: str
    expired: str  # message key when the menu clicked is an outdated copy
    sides: Mapping[str, Side]
    choices: Choices

    def add_to(
        self,
        view: discord.ui.View,
        state: GameState,
        seat: int,
        draft: Draft,
        side: str,
        *,
        options: Callable[[list[int]], list[discord.SelectOption]],
        placeholder: str,
        row: int,
        page_row: int,
        page_label: Callable[[str, str], str] = lambda step, arrow: arrow,
    ) -> list[PanelButton]:
        """Add ``side``'s select for its current page to ``view``; its page buttons, if any.

        The page buttons are returned rather than added, so a menu with two lists can put
        all its page buttons in one row after both selects.
        """
        where = self.sides[side]
        shown, page, pages = page_of(
            self.choices(state, seat, draft, side), getattr(draft, where.page)
        )
        setattr(draft, where.page, page)
        if not shown:
            return []
        if pages > 1:
            placeholder += f" ({page + 1}/{pages})"
        view.add_item(
            PanelSelect(
                draft.game,
                self.select,
                f"{draft.nonce}-{side}-{page}",
                options=options(shown),
                placeholder=placeholder,
                min_values=0,
                max_values=len(shown),
                row=row,
            )
        )
        if pages == 1:
            return []
        return page_buttons(
            draft.game, self.pager, f"{draft.nonce}-{side}", page, pages, page_row, page_label
        )

    def parse(self, arg: str | None) -> tuple[str, str, str] | None:
        """``(nonce, side, last)`` of a click's ``{nonce}-{side}-{last}``, or None if malformed."""
        nonce, side, last = (split_arg(arg) + ["", "", ""])[:3]
        return (nonce, side, last) if side in self.sides else None

    def choose(
        self,
        state: GameState,
        seat: int,
        draft: Any,
        side: str,
        page: str,
        values: Iterable[str],
        shown: Iterable[str],
    ) -> None:
        """Take a select's choice on ``page`` into the draft (other pages' choices stay)."""
        where = self.sides[side]
        number = int(page) if page.isdigit() else 0
        current, _, _ = page_of(self.choices(state, seat, draft, side), number)
        chosen = replace_page(getattr(draft, where.chosen), shown_lots(shown, current), values)
        setattr(draft, where.chosen, chosen)

    def turn_page(self, draft: Any, side: str, step: str) -> None:
        """Turn ``side``'s list a page on (``n``) or back; :meth:`add_to` keeps it in range."""
        where = self.sides[side]
        setattr(draft, where.page, getattr(draft, where.page) + (1 if step == "n" else -1))
