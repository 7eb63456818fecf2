"""Clicks in a paged list of lots (``cogs/ui/picker.py``): a choice, or a page turned."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from bot.engine.errors import IllegalAction
from bot.engine.state import GameState
from bot.settings import GameSettings
from cogs.core.click import Click
from cogs.ui.picker import LotPicker

#: Draws the whole menu again: (state, settings, seat, draft, lang) -> message payload.
Render = Callable[[GameState, GameSettings, int, Any, str], dict[str, Any]]


async def change_lots(
    click: Click,
    picker: LotPicker,
    *,
    render: Render,
    prepare: Callable[[GameState, Any], None] | None = None,
) -> None:
    """Apply a select's choice or a page button (``{nonce}-{side}-{page|p|n}``) to the
    user's draft and draw the menu again; an outdated menu says so instead.

    The dispatcher loaded the game and the seat (the route's ``who`` is ``seat``);
    ``prepare`` may tidy the draft for the state first (drop what a side no longer holds).
    """
    parsed = picker.parse(click.arg)
    if parsed is None:
        raise IllegalAction("unknown_button")
    nonce, side, last = parsed
    draft = await click.live_draft(picker.draft_kind, nonce, picker.expired)
    if draft is None:
        return
    state = click.state
    assert isinstance(state, GameState) and click.seat is not None
    if prepare is not None:
        prepare(state, draft)
    ref = click.ref
    if ref is not None and ref.action == picker.select:
        picker.choose(state, click.seat, draft, side, last, click.values, ref.shown)
    else:
        picker.turn_page(draft, side, last)
    await click.edit(**render(state, click.settings, click.seat, draft, click.lang))
