"""Turn deadlines and reminders: games that run for days keep moving.

After every action :meth:`Deadlines.reschedule` replaces the game's deadline and
reminder timers (keyed, so rescheduling is idempotent). When a reminder fires the
players the game waits on are mentioned; when a deadline fires the engine's safe
default (:func:`bot.engine.defaults.default_action`) acts for each of them until
the game waits on someone else, and the channel is told. Every timer carries the
``seq`` it was made for: a timer for a state that has moved on does nothing.
"""

from __future__ import annotations

import logging
from collections.abc import Callable
from datetime import datetime, timedelta
from typing import TYPE_CHECKING, Any

import discord

from bot.engine.defaults import default_action
from bot.engine.legal import waiting_for
from bot.engine.state import GameState
from bot.i18n import t
from bot.store import GameStore, StaleAction, StoreError, Timer

if TYPE_CHECKING:
    from cogs.monopoly._cog import MonopolyCog

log = logging.getLogger(__name__)

#: Turn deadlines a host can choose, in seconds (None: no deadline).
DEADLINES: dict[str, int | None] = {
    "off": None,
    "5m": 5 * 60,
    "1h": 3600,
    "12h": 12 * 3600,
    "24h": 24 * 3600,
    "48h": 48 * 3600,
}
#: Most default actions one deadline may take (a whole turn needs only a few).
MAX_DEFAULT_STEPS = 30


class Deadlines:
    """Schedules and fires the deadline and reminder timers of every game."""

    def __init__(
        self,
        cog: MonopolyCog,
        store: GameStore,
        now: Callable[[], datetime],
        wake: Callable[[], None] = lambda: None,
    ) -> None:
        self.cog = cog
        self.store = store
        self.now = now
        self.wake = wake

    async def reschedule(self, game: int, state: GameState, settings: dict[str, Any]) -> None:
        """Replace the game's deadline and reminder for its current state."""
        seconds = DEADLINES.get(settings.get("deadline", "off"))
        if seconds is None or state.phase == "over":
            await self.store.cancel_timers(game, key="deadline")
            await self.store.cancel_timers(game, key="reminder")
            return
        now = self.now()
        deadline = now + timedelta(seconds=seconds)
        payload = {"seq": state.seq, "deadline_at": int(deadline.timestamp())}
        await self.store.add_timer(game, "deadline", deadline, payload, key="deadline")
        await self.store.add_timer(
            game, "reminder", now + timedelta(seconds=seconds / 2), payload, key="reminder"
        )
        self.wake()

    async def fire(self, timer: Timer) -> None:
        """Handle a due deadline or reminder (called by the scheduler)."""
        row = await self.store.load(timer.game_id)
        state = row.state
        if state is None or state.phase == "over" or state.seq != timer.payload.get("seq"):
            return  # the game moved on since the timer was set
        channel = self.cog.bot.get_channel(row.channel_id)
        if not isinstance(channel, discord.abc.Messageable):
            return
        settings = dict(row.settings)
        lang = settings.get("lang", "de")
        waiting = waiting_for(state)
        mentions = " ".join(f"<@{state.players[s].id}>" for s in waiting)
        if timer.kind == "reminder":
            due = f"<t:{timer.payload.get('deadline_at', 0)}:R>"
            await channel.send(t(lang, "deadline.reminder", players=mentions, due=due))
            return
        if timer.kind == "deadline":
            await self._act_for_absent(channel, timer.game_id, state, lang, set(waiting))

    async def _act_for_absent(
        self,
        channel: discord.abc.Messageable,
        game: int,
        state: GameState,
        lang: str,
        absent: set[int],
    ) -> None:
        names = ", ".join(state.players[s].name for s in sorted(absent))
        await channel.send(t(lang, "deadline.passed", players=names))
        for _ in range(MAX_DEFAULT_STEPS):
            waiting = waiting_for(state)
            if not waiting or waiting[0] not in absent:
                return
            action = default_action(state, waiting[0])
            if action is None:
                return
            try:
                result = await self.store.apply(game, action, expected_seq=state.seq)
            except StaleAction:
                return  # a player acted meanwhile
            except StoreError:
                log.warning("Deadline action refused in game %s", game, exc_info=True)
                return
            state = result.state
            await self.cog.publish(channel, game, result)
