"""Who hears of a game outside its channel: followers and the optional pings.

The publisher calls these once per shown action (``board_messages.publish``,
``card_messages.publish``) and once at a game's start (``Publisher.started``), after the
game's timers are planned and before its messages are posted: followers get a round's
summary when it ends (``cogs/core/followers.py``), members who asked for them get "you're
next" and "you're the last one" (``cogs/core/pings.py``). They change ``settings`` in place
(what was collected and told), which the publisher saves with the rest.

Direct messages are a bonus: a failure here is logged and never keeps a game's messages
from going out.
"""

from __future__ import annotations

import logging
from typing import TYPE_CHECKING, Any

from bot.cardgame import CardState
from bot.engine.state import GameState
from bot.settings import GameSettings
from bot.store import GameRow
from bot.store.kinds import AnyState
from cogs.core import followers, pings

if TYPE_CHECKING:
    from cogs.core.ports import CorePort as Core

log = logging.getLogger(__name__)


async def board_action(
    core: Core,
    row: GameRow,
    state: GameState,
    settings: GameSettings,
    ended: dict[str, Any] | None,
    current: dict[str, Any],
    lines: list[str],
) -> None:
    """After an action of the board game (the turn records of ``bot.turn_story.split`` and
    the log of the turn that ended, or of the one under way)."""
    try:
        await followers.board_action(core, row, state, settings, ended, current, lines)
        if ended is not None:
            await pings.tell_next(core, row, state, settings)
        await pings.tell_last(core, row, state, settings)
    except Exception:  # noqa: BLE001 - DMs must never stop the game's messages
        log.exception("Game %s: telling followers and pings failed", row.id)


async def card_action(
    core: Core, row: GameRow, state: CardState, settings: GameSettings, events: list[Any]
) -> None:
    """After an action of the card game (its public ``events``)."""
    try:
        await followers.card_action(core, row, state, settings, events)
        if any(event["type"] == "turn" for event in events):
            await pings.tell_next(core, row, state, settings)
    except Exception:  # noqa: BLE001 - DMs must never stop the game's messages
        log.exception("Game %s: telling followers and pings failed", row.id)


async def game_started(core: Core, row: GameRow, state: AnyState, settings: GameSettings) -> None:
    """At a game's start: "you're next" to the player after the first."""
    try:
        await pings.tell_next(core, row, state, settings)
    except Exception:  # noqa: BLE001 - DMs must never stop the game's messages
        log.exception("Game %s: telling the next player failed", row.id)
