"""The reconciler: a game whose live message or timers went missing gets them back.

A game needs, for its latest saved state, a message whose buttons move it and its timers
(:func:`bot.liveness.missing_parts`). When a Discord call fails after an action was saved
(a 5xx, a missing permission, a deleted message) or the process dies in between, one of
them is missing. The reconciler puts it right by planning the timers again and posting the
current message again (the old one loses its buttons):

* at start-up, for every open game;
* when a player clicks an outdated message of a game (``check_soon``): if that message is
  the game's own turn message or table, it did not follow the game;
* by a periodic sweep: every ``sweep_every`` seconds for the games whose publishing failed
  in this process, every ``full_every`` seconds for every open game and every game that
  ended within ``final_within`` seconds without showing its end (winner, seed, recap).
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
from datetime import timedelta
from typing import TYPE_CHECKING, Any

import discord

from bot.asyncplay.planner import TURN_TIMERS
from bot.cardgame import CardState
from bot.engine.state import GameState
from bot.liveness import missing_parts, stale_message
from bot.settings import GameSettings
from bot.store import GameRow, GameStatus, StoreError
from cogs.core import board_messages, card_messages
from cogs.ui.lobby import lobby_message

if TYPE_CHECKING:
    from cogs.core.ports import CorePort as Core

log = logging.getLogger(__name__)

SWEEP_EVERY = 60.0
FULL_EVERY = 3600.0
#: Seconds a click on an outdated message waits before its game is checked: the action
#: that outdated it may still be on its way to the channel.
CHECK_DELAY = 5.0
#: Seconds after its end during which a game whose end was never shown is still posted.
FINAL_WITHIN = 86400.0


class Reconciler:
    """Repairs games (see the module docstring)."""

    def __init__(
        self,
        core: Core,
        *,
        sweep_every: float = SWEEP_EVERY,
        full_every: float = FULL_EVERY,
        check_delay: float = CHECK_DELAY,
        final_within: float = FINAL_WITHIN,
    ) -> None:
        self.core = core
        self.final_within = final_within
        self.check_delay = check_delay
        self.sweep_every = sweep_every
        self.full_every = full_every
        self.dirty: set[int] = set()
        self._tasks: set[asyncio.Task[Any]] = set()
        self._loop_task: asyncio.Task[None] | None = None
        self._sleeper: asyncio.Future[None] | None = None
        self._dirty_due = 0.0

    def failed(self, game: int) -> None:
        """A Discord call of ``game`` failed: look at it ``sweep_every`` seconds from now."""
        if not self.dirty:
            self._dirty_due = _now() + self.sweep_every
        self.dirty.add(game)
        if self._sleeper is not None:
            self._sleeper.cancel()  # the loop may sleep until the next full sweep: shorten it

    def check_soon(
        self, game: int, message_id: int | None = None, shown_seq: int | None = None
    ) -> None:
        """Look at ``game`` now, in the background (a click on ``message_id`` was outdated)."""

        async def later() -> None:
            await asyncio.sleep(self.check_delay)
            await self.reconcile(game, message_id, shown_seq)

        task = asyncio.get_running_loop().create_task(later(), name=f"reconcile-{game}")
        self._tasks.add(task)
        task.add_done_callback(self._tasks.discard)

    async def reconcile(
        self, game: int, message_id: int | None = None, shown_seq: int | None = None
    ) -> list[str]:
        """Repair what ``game`` lacks; the parts repaired (empty if it was fine)."""
        try:
            async with self.core.service.lock(game):
                row = await self.core.store.load(game)
                parts = missing_parts(row)
                stale = stale_message(row, message_id, shown_seq)
                if stale is not None and stale not in parts:
                    parts.append(stale)
                if not parts:
                    self.dirty.discard(game)
                    return []
                repaired = await self._repair(row, parts)
        except StoreError as error:
            log.info("Game %s cannot be reconciled: %s", game, error)
            self.dirty.discard(game)
            return []
        except Exception:  # noqa: BLE001 - the next sweep tries again
            log.exception("Reconciling game %s failed", game)
            self.dirty.add(game)
            return []
        if repaired == parts or row.channel_id in self.core.publisher.gone:
            self.dirty.discard(game)  # done, or nothing can be shown: no channel any more
        else:
            self.dirty.add(game)
        log.info("Game %s reconciled: %s (missing: %s)", game, repaired, parts)
        return repaired

    async def _repair(self, row: GameRow, parts: list[str]) -> list[str]:
        pub = self.core.publisher
        settings = GameSettings.of(row)
        records = settings.records
        channel = await pub.channel(row.channel_id)
        state = row.state
        done = []
        for part in parts:
            ok = False
            if part == "timers" and state is not None:
                await self._plan(row, state, settings)
                ok = True
            elif channel is None:
                ok = False
            elif part == "lobby":
                message = await pub.send(
                    row.id, channel, "lobby again", **lobby_message(row.id, settings)
                )
                if message is not None:
                    records.lobby_message = message.id
                    ok = True
            elif part == "turn":
                old = records.turn_message
                lines = list(records.turn_lines)
                ok = await board_messages.post_turn(pub, row, settings, channel, lines)
                # The old copy of this turn: its buttons off (remembered if refused).
                if (
                    ok
                    and old
                    and old != records.turn_message
                    and not await pub.edit(row.id, channel, old, "old turn message", view=None)
                ):
                    board_messages.remember_unbutton(settings, old)
            elif part == "picture" and isinstance(state, GameState):
                ok = await board_messages.refresh_turn(pub, row, state, settings, channel)
            elif part == "unbutton":
                ok = await board_messages.take_buttons_off(pub, row, settings, channel)
            elif part == "table":
                old = records.table_message
                ok = await card_messages.post_table(pub, row, settings, channel)
                if ok and old and not await pub.edit(row.id, channel, old, "old table", view=None):
                    board_messages.remember_unbutton(settings, old)
            elif part == "auction" and state is not None and not isinstance(state, CardState):
                old = records.auction_message
                ok = await board_messages.post_auction(pub, row, state, settings, channel)
                if (
                    ok
                    and old
                    and not await pub.edit(row.id, channel, old, "old auction message", view=None)
                ):
                    board_messages.remember_unbutton(settings, old)
            elif part == "offers" and state is not None and not isinstance(state, CardState):
                ok = await board_messages.post_offers(pub, row, state, settings, None, channel)
            elif part == "final" and isinstance(state, CardState):
                ok = await card_messages.post_end(pub, row, settings, channel)
            elif part == "final" and state is not None:
                ok = await board_messages.post_final(pub, row, state, settings, channel)
            if ok:
                done.append(part)
        await pub.save(row, settings)
        return done

    async def _plan(self, row: GameRow, state: Any, settings: GameSettings) -> None:
        """Plan the game's turn timers, unless they are planned for this state already
        (a game stored before ``planned_seq`` was recorded keeps its running deadline)."""
        pending = await self.core.store.pending_timers(row.id)
        if any(tm.kind in TURN_TIMERS and tm.payload.get("seq") == state.seq for tm in pending):
            settings.play.planned_seq = state.seq
            return
        await self.core.planner.reschedule(row.id, state, settings)

    # -- deleted messages ----------------------------------------------------------------

    async def message_deleted(self, channel_id: int, message_ids: set[int]) -> None:
        """Messages of ``channel_id`` were deleted (one, a bulk delete, a purge): if one of
        them was a game's live message, forget it and post it again now."""
        try:
            row = await self.core.store.game_in_channel(channel_id)
        except StoreError:
            return
        if row is None or not live_ids(GameSettings.of(row)) & message_ids:
            return
        log.info("Game %s: a live message was deleted (%s)", row.id, sorted(message_ids))
        await self.core.service.edit_settings(row.id, lambda _, s: forget(s, message_ids))
        await self.reconcile(row.id)

    async def _check_live(self, row: GameRow) -> None:
        """Forget the live messages of ``row`` that Discord no longer has (deleted while the
        bot was away, or without the bot hearing of it)."""
        ids = live_ids(GameSettings.of(row))
        if not ids:
            return
        channel = await self.core.publisher.channel(row.channel_id)
        if channel is None or not hasattr(channel, "fetch_message"):
            return
        gone = set()
        for message_id in ids:
            try:
                await channel.fetch_message(message_id)
            except discord.NotFound:
                gone.add(message_id)
            except (TimeoutError, discord.HTTPException, OSError):
                return  # Discord is not answering: look again at the next sweep
        if gone:
            log.info("Game %s: live messages %s no longer exist", row.id, sorted(gone))
            await self.core.service.edit_settings(row.id, lambda _, s: forget(s, gone))

    # -- sweeps -------------------------------------------------------------------------

    async def sweep(self, *, everything: bool = False) -> dict[int, list[str]]:
        """Reconcile the dirty games (every open game if ``everything``); what was repaired."""
        if everything:
            # A sharded process looks after the games of its own servers only.
            holds = getattr(self.core.bot, "holds_guild", lambda guild: True)
            rows = await self.core.store.unfinished_games()
            # Games that ended lately and never showed their end (the process died
            # between the last action and its post): their seed is still to be revealed.
            since = discord.utils.utcnow() - timedelta(seconds=self.final_within)
            rows += [r for r in await self.core.store.finished_since(since) if missing_parts(r)]
            games = [row.id for row in rows if holds(row.guild_id)]
            for row in rows:
                if holds(row.guild_id) and row.status != GameStatus.FINISHED:
                    try:
                        await self._check_live(row)
                    except Exception:  # noqa: BLE001 - a check, never a reason to stop
                        log.exception("Checking the live messages of game %s failed", row.id)
        else:
            games = sorted(self.dirty)
        repaired = {}
        for game in games:
            parts = await self.reconcile(game)
            if parts:
                repaired[game] = parts
        return repaired

    def start(self) -> None:
        """Start the periodic sweeps (the first, over every open game, at once)."""
        if self._loop_task is None or self._loop_task.done():
            loop = asyncio.get_running_loop()
            self._loop_task = loop.create_task(self._run(), name="reconciler")

    async def stop(self) -> None:
        """Stop the sweeps and the checks under way."""
        tasks = [t for t in (self._loop_task, *self._tasks) if t is not None]
        for task in tasks:
            task.cancel()
        for task in tasks:
            with contextlib.suppress(BaseException):
                await task
        self._loop_task = None

    async def _run(self) -> None:
        # Wakes only when there is something to do: the full sweep every ``full_every``
        # seconds, and ``sweep_every`` seconds after a failure (failed() cuts a longer
        # sleep short), so a quiet bot does not poll its store every minute.
        next_full = 0.0
        while True:
            now = _now()
            try:
                if now >= next_full:
                    next_full = now + self.full_every
                    await self._sweep_and_log(everything=True)
                elif self.dirty and now >= self._dirty_due:
                    await self._sweep_and_log(everything=False)
            except Exception:  # noqa: BLE001 - the store may be busy; next round
                log.exception("The reconciler's sweep failed")
            if self.dirty and self._dirty_due <= _now():
                self._dirty_due = _now() + self.sweep_every  # still failing: again later
            wake_at = min(next_full, self._dirty_due) if self.dirty else next_full
            self._sleeper = asyncio.ensure_future(asyncio.sleep(max(0.0, wake_at - _now())))
            try:
                await self._sleeper
            except asyncio.CancelledError:
                task = asyncio.current_task()
                if task is not None and task.cancelling():
                    raise  # the reconciler is being stopped
            finally:
                self._sleeper = None

    async def _sweep_and_log(self, *, everything: bool) -> None:
        repaired = await self.sweep(everything=everything)
        if repaired:
            log.info("Sweep repaired %d game(s): %s", len(repaired), repaired)


def _now() -> float:
    """Seconds on the bot's clock (``discord.utils.utcnow``, which tests can move)."""
    return discord.utils.utcnow().timestamp()


def live_ids(settings: GameSettings) -> set[int]:
    """The ids of the messages that move a game on: turn, auction, table or lobby message,
    public trade offers and a debtor's offer of lots."""
    return settings.records.live_ids()


def forget(settings: GameSettings, message_ids: set[int]) -> None:
    """Forget the live messages among ``message_ids`` (in place): the reconciler then sees
    them missing and posts them again."""
    settings.records.forget(message_ids)
