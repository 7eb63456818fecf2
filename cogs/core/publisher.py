"""The publisher: every message a game posts or edits, guarded.

After an action is saved, :meth:`Publisher.publish` shows it: the board game's turn,
auction and offer messages (``board_messages``), the card game's table (``card_messages``).
The game's timers are planned before any Discord call, so a failing call never leaves a
game without its deadline or its computer's next move. Every Discord call goes through
:meth:`Publisher.call`: a failure (a 5xx, a missing permission, a deleted channel or
message, a rate limit that outlasted discord.py's retries) is logged, never raised; the
game is handed to the reconciler, which posts the missing message again, and a missing
permission is said once in the channel (or to the host by DM), naming the permission.

Edits of one message are coalesced (:class:`Coalescer`): a burst of bids makes at most one
edit per ``edit_interval`` seconds, and the last state wins.
"""

from __future__ import annotations

import asyncio
import logging
from collections.abc import Awaitable, Callable
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any, TypeVar

import aiohttp
import discord

from bot.cardgame import CardState
from bot.i18n import t
from bot.liveness import record_end
from bot.permissions import CHANNEL_PERMISSIONS
from bot.settings import GameSettings
from bot.store import ApplyResult, GameRow
from cogs.core import board_messages, card_messages, watchers
from cogs.ui.recap import recap_message

if TYPE_CHECKING:
    from cogs.core.ports import CorePort as Core

log = logging.getLogger(__name__)

#: What :meth:`Publisher.edit_message` returns (``gone_ok``) for a message that is gone.
GONE = object()
T = TypeVar("T")

#: Seconds between two edits of one message (Discord rate-limits edits per channel).
EDIT_INTERVAL = 1.0
#: What the bot needs in a game's channel, by the permission's attribute name (shared with
#: ``/monopoly start`` and the invite link).
NEEDED = CHANNEL_PERMISSIONS
#: Failures of a Discord call that the publisher survives.
FAILURES = (discord.HTTPException, aiohttp.ClientError, asyncio.TimeoutError, OSError)


@dataclass
class _Slot:
    last: float = -1e9
    pending: Callable[[], Awaitable[bool]] | None = None
    task: asyncio.Task[None] | None = None


@dataclass
class Coalescer:
    """At most one edit of a message per ``interval`` seconds; the newest payload wins."""

    interval: float = EDIT_INTERVAL
    slots: dict[int, _Slot] = field(default_factory=dict)

    async def edit(self, message_id: int, do_edit: Callable[[], Awaitable[bool]]) -> bool | None:
        """Edit now if the last edit is long enough ago, else once the interval is over.

        Returns the edit's outcome (True: done, False: failed), or None when it was put
        off; a put-off edit reports its own outcome (see ``Publisher.edit_soon``).
        """
        loop = asyncio.get_running_loop()
        slot = self.slots.setdefault(message_id, _Slot())
        wait = slot.last + self.interval - loop.time()
        if slot.task is not None and not slot.task.done():
            slot.pending = do_edit  # the flush under way will use the newest payload
            return None
        if wait > 0:
            slot.pending = do_edit
            slot.task = loop.create_task(self._flush(message_id, wait), name="coalesced-edit")
            return None
        slot.last = loop.time()
        return await do_edit()

    def ready(self, message_id: int) -> bool:
        """Whether an edit of the message would go out at once."""
        slot = self.slots.get(message_id)
        if slot is None:
            return True
        busy = slot.task is not None and not slot.task.done()
        return not busy and slot.last + self.interval <= asyncio.get_running_loop().time()

    async def _flush(self, message_id: int, wait: float) -> None:
        await asyncio.sleep(wait)
        slot = self.slots[message_id]
        edit, slot.pending = slot.pending, None
        slot.last = asyncio.get_running_loop().time()
        if edit is not None:
            await edit()

    async def drain(self) -> None:
        """Wait for the edits put off (e.g. before shutting down)."""
        tasks = [s.task for s in self.slots.values() if s.task is not None and not s.task.done()]
        if tasks:
            await asyncio.gather(*tasks, return_exceptions=True)


class Publisher:
    """Posts and edits the messages of every game (see the module docstring)."""

    def __init__(self, core: Core, *, edit_interval: float = EDIT_INTERVAL) -> None:
        self.core = core
        self.coalescer = Coalescer(edit_interval)
        self._fetched: dict[int, discord.abc.Messageable] = {}
        #: Channels Discord says do not exist (deleted): their games cannot be shown.
        self.gone: set[int] = set()
        self._told: dict[int, frozenset[str]] = {}
        #: Games whose last picture could not be drawn (``cogs.core.pictures.drawn``).
        self.picture_failures: set[int] = set()

    # -- channels -----------------------------------------------------------------------

    async def channel(self, channel_id: int) -> discord.abc.Messageable | None:
        """The game's channel or thread; fetched by id when the cache lacks it (a thread
        archived after a quiet week); None if it is gone."""
        bot = self.core.bot
        channel = bot.get_channel(channel_id) or self._fetched.get(channel_id)
        if channel is None:
            try:
                channel = await bot.fetch_channel(channel_id)
            except discord.NotFound:
                log.info("Channel %s of a game was deleted", channel_id)
                self.gone.add(channel_id)
                return None
            except FAILURES as error:  # no longer visible to the bot, or Discord is down
                log.info("Channel %s of a game cannot be reached: %s", channel_id, error)
                return None
            if isinstance(channel, discord.abc.Messageable):
                self._fetched[channel_id] = channel
        return channel if isinstance(channel, discord.abc.Messageable) else None

    # -- guarded calls ------------------------------------------------------------------

    async def call(
        self,
        game: int,
        channel: Any,
        what: str,
        call: Callable[[], Awaitable[T]],
        *,
        post: bool = False,
    ) -> T | None:
        """Run one Discord call for ``game``; on failure log it, tell the reconciler (and,
        for a missing permission, the channel) and return None. ``post``: the call posts a
        message (a refused post without a known cause is a refused "Send Messages")."""
        try:
            return await call()
        except discord.Forbidden as error:
            log.warning("Game %s: %s forbidden: %s", game, what, error)
            self.core.reconciler.failed(game)
            await self._tell_missing(game, channel, what, post=post)
        except FAILURES as error:
            log.warning("Game %s: %s failed: %s", game, what, error)
            self.core.reconciler.failed(game)
        return None

    async def send(self, game: int, channel: Any, what: str, **payload: Any) -> Any:
        """Post a message in the game's channel; the message, or None if that failed."""
        return await self.call(game, channel, what, lambda: channel.send(**payload), post=True)

    async def edit(
        self, game: int, channel: Any, message_id: int, what: str, **payload: Any
    ) -> bool:
        """Edit one of the game's messages now; False if that failed."""
        return await self.edit_message(game, channel, message_id, what, **payload) is not None

    async def edit_message(
        self,
        game: int,
        channel: Any,
        message_id: int,
        what: str,
        *,
        gone_ok: bool = False,
        **payload: Any,
    ) -> Any:
        """Edit one of the game's messages now: the edited message, or None if that failed.

        With ``gone_ok`` a message that no longer exists counts as done (:data:`GONE`):
        there is nothing left to take buttons off.
        """

        async def run() -> Any:
            return await channel.get_partial_message(message_id).edit(**payload)

        if not gone_ok:
            return await self.call(game, channel, what, run)
        try:
            return await run()
        except discord.NotFound:
            return GONE
        except FAILURES as error:
            log.info("Game %s: %s failed again: %s", game, what, error)
            return None

    async def edit_later(
        self, message_id: int, run: Callable[[bool], Awaitable[bool]]
    ) -> bool | None:
        """Run an edit of ``message_id`` through the coalescer: now, or (``run(True)``) once
        the message's interval is over, then with the newest ``run`` only. The outcome of
        an edit made now; None for one put off."""
        deferred = not self.coalescer.ready(message_id)
        return await self.coalescer.edit(message_id, lambda: run(deferred))

    async def edit_soon(
        self,
        game: int,
        channel: Any,
        message_id: int,
        what: str,
        *,
        after: Callable[[], Awaitable[None]] | None = None,
        **payload: Any,
    ) -> bool | None:
        """Like :meth:`edit`, but coalesced with other edits of the same message.

        None means the edit was put off; ``after`` runs once a put-off edit went through
        (the caller records then what the message shows).
        """

        now = self.coalescer.ready(message_id)

        async def run() -> bool:
            done = await self.edit(game, channel, message_id, what, **payload)
            if done and after is not None and not now:
                await after()
            return done

        return await self.coalescer.edit(message_id, run)

    async def _tell_missing(self, game: int, channel: Any, what: str, *, post: bool) -> None:
        """Say once which permission the bot lacks in the game's channel.

        Only what is really missing is named. A refused post whose cause the bot cannot
        see is a refused "Send Messages" (Discord knows better than the bot's cache); a
        refused edit is not: Discord also refuses edits for other reasons (a locked thread,
        a message the bot may no longer touch), and the host should not go looking for a
        permission that is there. Then nothing is said; the failure is logged.
        """
        missing = self.missing_permissions(channel) or (["send_messages"] if post else [])
        if not missing:
            return
        told = frozenset(missing)
        if self._told.get(game) == told:
            return
        self._told[game] = told
        try:
            row = await self.core.store.load(game)
        except Exception:  # noqa: BLE001 - only for the language and the host
            return
        lobby = GameSettings.of(row).lobby
        lang = lobby.lang
        names = ", ".join(t(lang, f"permission.{name}") for name in missing)
        text = t(lang, "permission.missing", permissions=names)
        try:
            await channel.send(text)
            return
        except FAILURES:
            pass  # cannot even say it there: tell the host
        host = lobby.host
        if not isinstance(host, int):
            return
        try:
            user = self.core.bot.get_user(host) or await self.core.bot.fetch_user(host)
            await user.send(
                t(lang, "permission.missing_dm", permissions=names, channel=f"<#{row.channel_id}>")
            )
        except FAILURES:
            log.info("Could not tell the host %s of game %s about permissions", host, game)

    def missing_permissions(self, channel: Any, *, thread: bool | None = None) -> list[str]:
        """The permissions of :data:`NEEDED` the bot lacks in ``channel`` (as far as known)."""
        guild = getattr(channel, "guild", None)
        me = getattr(guild, "me", None)
        if guild is None or me is None or not hasattr(channel, "permissions_for"):
            return []
        perms = channel.permissions_for(me)
        needed = list(NEEDED)
        if thread if thread is not None else isinstance(channel, discord.Thread):
            needed.append("send_messages_in_threads")
        return [name for name in needed if not getattr(perms, name, True)]

    def permission_fine(self, game: int) -> None:
        """A post went through: a later lack of permission is worth saying again."""
        self._told.pop(game, None)

    # -- publishing ---------------------------------------------------------------------

    async def publish(self, game: int, result: ApplyResult, channel: Any | None = None) -> bool:
        """Show what an action did; True if every message the game needs is up to date."""
        async with self.core.service.lock(game):
            row = await self.core.store.load(game)
            channel = channel or await self.channel(row.channel_id)
            if isinstance(result.state, CardState):
                return await card_messages.publish(self, row, result, channel)
            return await board_messages.publish(self, row, result, channel)

    async def started(self, game: int, channel: Any | None = None) -> bool:
        """Post the first message of a game that just started (turn message or table)."""
        async with self.core.service.lock(game):
            row = await self.core.store.load(game)
            channel = channel or await self.channel(row.channel_id)
            settings = GameSettings.of(row)
            state = row.state
            assert state is not None
            await self.core.planner.game_started(game, state, settings)
            await watchers.game_started(self.core, row, state, settings)
            if isinstance(state, CardState):
                ok = await card_messages.post_table(self, row, settings, channel)
            else:
                ok = await board_messages.post_turn(self, row, settings, channel, state.events)
            await self.save(row, settings)
            return ok

    async def ended(self, game: int, channel: Any | None = None) -> bool:
        """Post the end of a card game its host ended (no action ends it): the seed and
        the recap; True if it went out (else the reconciler posts it again)."""
        async with self.core.service.lock(game):
            row = await self.core.store.load(game)
            channel = channel or await self.channel(row.channel_id)
            settings = GameSettings.of(row)
            if not isinstance(row.state, CardState):
                return True  # a board game's end comes with its last action
            if channel is None:
                ok = record_end(settings, row.state.seq, None)
            else:
                ok = await card_messages.post_end(self, row, settings, channel)
            await self.save(row, settings)
            return ok

    async def show(self, game: int) -> bool:
        """Post the game's current message (turn message or table) as it is now."""
        async with self.core.service.lock(game):
            row = await self.core.store.load(game)
            channel = await self.channel(row.channel_id)
            settings = GameSettings.of(row)
            if isinstance(row.state, CardState):
                ok = await card_messages.post_table(self, row, settings, channel)
            else:
                lines = list(settings.records.turn_lines)
                ok = await board_messages.post_turn(self, row, settings, channel, lines)
            await self.save(row, settings)
            return ok

    async def refresh(self, game: int, channel: Any | None = None) -> bool:
        """Redraw the live message after a change of the settings alone (a joker moved the
        deadline, say): no action, so nothing but the message changes."""
        async with self.core.service.lock(game):
            row = await self.core.store.load(game)
            channel = channel or await self.channel(row.channel_id)
            state = row.state
            if channel is None or state is None or state.phase == "over":
                return channel is not None
            settings = GameSettings.of(row)
            if isinstance(state, CardState):
                ok = await card_messages.refresh_table(self, row, state, settings, channel)
            elif settings.records.turn_message is None:
                lines = list(settings.records.turn_lines)
                ok = await board_messages.post_turn(self, row, settings, channel, lines)
            else:
                ok = await board_messages.refresh_turn(self, row, state, settings, channel)
            await self.save(row, settings)
            return ok

    async def recap(self, row: GameRow) -> dict[str, Any] | None:
        """The recap of a game that is over (``{"embed", "file"}``), or None if it cannot
        be made: the end of a game is posted without it then, never held up by it."""
        try:
            record = await self.core.store.record(row.id)
            settings = GameSettings.of(row)
            return await recap_message(row.id, record, settings, settings.lobby.lang)
        except Exception:  # noqa: BLE001 - a recap is a bonus; the end must go out
            log.exception("Game %s: the recap could not be made", row.id)
            return None

    async def save(self, row: GameRow, settings: GameSettings) -> None:
        """Write back the settings keys a publishing step changed or removed.

        Only those top-level keys are written (atomically, ``patch_settings``), so a
        change another process made to other keys meanwhile is kept.
        """
        patch = settings.patch(row.settings)
        if patch:
            await self.core.store.patch_settings(row.id, patch.set, patch.remove)
