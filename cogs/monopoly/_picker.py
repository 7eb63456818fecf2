"""Paged multi-selects of lots inside a private menu (trade, lot offer, mortgages, lifts).

Discord allows 25 options per select, and a player may own all 28 lots, so every list of
lots in a private menu is paged: a select for the page shown and ◀ / ▶ buttons. A
:class:`LotPicker` describes one such list once — where its chosen lots and its page live
in the draft, which lots it offers, how the menu is loaded and drawn again — and then
both builds the select with its page buttons and handles their clicks. A choice made on
one page is kept while the player turns to another.

Custom ids: the select ``xs:{game}:{select}:{nonce}-{side}-{page}``, the page buttons
``xb:{game}:{pager}:{nonce}-{side}-p|n``. ``side`` names one list of a menu with two
(``g``/``t`` for giving and getting in a trade, ``m``/``l`` for mortgaging and lifting).
"""

from __future__ import annotations

from collections.abc import Awaitable, Callable, Mapping
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

import discord

from bot.engine.state import GameState
from bot.i18n import t
from cogs.monopoly._widgets import (
    Draft,
    PanelButton,
    PanelSelect,
    lang_of,
    live_draft,
    load_seat,
    page_buttons,
    page_of,
    panel,
    replace_page,
    reply,
    split_arg,
)

if TYPE_CHECKING:
    from cogs.monopoly._cog import MonopolyCog

#: The game as a menu needs it: state, settings and the clicking player's seat.
Loaded = tuple[GameState, dict[str, Any], int]
#: Loads the game for a draft's menu, or tells the user why not and returns None.
Loader = Callable[["MonopolyCog", discord.Interaction, Any], Awaitable["Loaded | None"]]
#: The lots one side of the menu offers (chosen lots that became impossible stay listed).
Choices = Callable[[GameState, int, Any, str], list[int]]
#: The whole menu again (embed and view) after a change.
Render = Callable[[GameState, dict[str, Any], int, Any, str], dict[str, Any]]


async def load_draft_game(
    cog: MonopolyCog, interaction: discord.Interaction, draft: Draft
) -> Loaded | None:
    """The plain :data:`Loader`: the draft's game and the clicking player's seat."""
    return await load_seat(cog, interaction, draft.game)


@dataclass(frozen=True)
class Side:
    """Where one list keeps its state in the draft: the chosen lots and the page shown."""

    chosen: str  # name of the draft's ``set[int]`` attribute
    page: str  # name of the draft's ``int`` attribute


@dataclass(frozen=True)
class LotPicker:
    """One kind of paged lot select (see the module docstring); call :meth:`register` once."""

    select: str  # panel kind of the select
    pager: str  # panel kind of the page buttons
    draft_kind: str
    expired: str  # message key when the menu clicked is an outdated copy
    sides: Mapping[str, Side]
    load: Loader
    choices: Choices
    render: Render

    def register(self) -> LotPicker:
        """Route the select's and the page buttons' clicks to this picker."""
        panel(self.select)(self._chosen)
        panel(self.pager)(self._turn_page)
        return self

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

    async def _chosen(
        self,
        cog: MonopolyCog,
        interaction: discord.Interaction,
        game: int,
        arg: str | None,
        values: list[str],
    ) -> None:
        def choose(state: GameState, seat: int, draft: Any, side: str, page: str) -> None:
            where = self.sides[side]
            number = int(page) if page.isdigit() else 0
            shown, _, _ = page_of(self.choices(state, seat, draft, side), number)
            chosen = replace_page(getattr(draft, where.chosen), shown, values, interaction)
            setattr(draft, where.chosen, chosen)

        await self._change(cog, interaction, game, arg, choose)

    async def _turn_page(
        self,
        cog: MonopolyCog,
        interaction: discord.Interaction,
        game: int,
        arg: str | None,
        values: list[str],
    ) -> None:
        def turn(state: GameState, seat: int, draft: Any, side: str, step: str) -> None:
            where = self.sides[side]
            # add_to clamps the page to the lots there are now.
            setattr(draft, where.page, getattr(draft, where.page) + (1 if step == "n" else -1))

        await self._change(cog, interaction, game, arg, turn)

    async def _change(
        self,
        cog: MonopolyCog,
        interaction: discord.Interaction,
        game: int,
        arg: str | None,
        change: Callable[[GameState, int, Any, str, str], None],
    ) -> None:
        """Find the draft and the game for a click ``{nonce}-{side}-{last}``, let ``change``
        update the draft, and draw the menu again (or tell the user why not)."""
        nonce, side, last = (split_arg(arg) + ["", "", ""])[:3]
        if side not in self.sides:
            await reply(interaction, t(lang_of(interaction), "error.unknown_button"))
            return
        draft = await live_draft(cog, self.draft_kind, interaction, game, nonce, self.expired)
        if draft is None:
            return
        loaded = await self.load(cog, interaction, draft)
        if loaded is None:
            return
        state, settings, seat = loaded
        change(state, seat, draft, side, last)
        await interaction.response.edit_message(
            **self.render(state, settings, seat, draft, lang_of(interaction))
        )
