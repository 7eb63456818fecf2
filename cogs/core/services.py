"""What the feature cogs share: the :class:`Core` (service, store, drafts, planner,
publisher, reconciler, dispatcher), the one ``/monopoly`` group their commands join
(:class:`FeatureCog`), and the core cog's listeners (start-up reconciliation, forms)."""

from __future__ import annotations

import asyncio
import logging
import re
from typing import Any

import discord
from discord import app_commands
from discord.ext import commands

from bot.asyncplay.planner import AUTO_DELAY, TimerPlanner
from bot.service import GameService
from bot.store import GameStore
from cogs.core.dispatch import Dispatcher
from cogs.core.publisher import EDIT_INTERVAL, Publisher
from cogs.core.reconcile import CHECK_DELAY, SWEEP_EVERY, Reconciler
from cogs.core.routes import ROUTES
from cogs.ui.drafts import DraftBook
from cogs.ui.ids import BUTTON_PATTERN, GAME_PATTERN, SELECT_PATTERN, ClickRef, form_ref

log = logging.getLogger(__name__)

GROUP_DESCRIPTION = "MONOPOLY games in channels: lobby, turns, auctions, management."
ME_DESCRIPTION = "Your own settings: time zone and quiet hours, standing orders, your seat"


class Core:
    """The shared parts of the Discord layer, one per bot."""

    def __init__(
        self,
        bot: commands.Bot,
        service: GameService,
        *,
        auto_delay: float = AUTO_DELAY,
        edit_interval: float = EDIT_INTERVAL,
        sweep_every: float = SWEEP_EVERY,
        check_delay: float = CHECK_DELAY,
    ) -> None:
        self.bot = bot
        self.service = service
        self.store: GameStore = service.store
        self.drafts = DraftBook(lambda: asyncio.get_running_loop().time())
        self.planner = TimerPlanner(
            self.store, now=discord.utils.utcnow, wake=self._wake, auto_delay=auto_delay
        )
        self.publisher = Publisher(self, edit_interval=edit_interval)
        self.reconciler = Reconciler(self, sweep_every=sweep_every, check_delay=check_delay)
        self.dispatcher = Dispatcher(self, ROUTES)
        self.group = app_commands.Group(
            name="monopoly", description=GROUP_DESCRIPTION, guild_only=True
        )
        # A member's own things (time zone, standing orders, handing over one's seat):
        # one subgroup, because Discord allows a group at most 25 commands.
        self.me_group = app_commands.Group(name="me", description=ME_DESCRIPTION)
        self.group.add_command(self.me_group)

    def _wake(self) -> None:
        """A timer was added: let the scheduler look at the store again."""
        scheduler = getattr(self.bot, "scheduler", None)
        if scheduler is None:
            return
        if scheduler.running:
            scheduler.wake()
        else:
            scheduler.start()

    async def stop(self) -> None:
        """Stop the background work (sweeps, coalesced edits) before the store closes."""
        await self.reconciler.stop()
        await self.publisher.coalescer.drain()


class FeatureCog(commands.Cog):
    """A feature's cog: its slash commands join the shared ``/monopoly`` group, those it
    names in ``personal`` the ``/monopoly me`` subgroup."""

    #: Names of this cog's commands that belong under ``/monopoly me``.
    personal: tuple[str, ...] = ()

    def __init__(self, core: Core) -> None:
        self.core = core

    async def cog_load(self) -> None:
        """Move this cog's commands into ``/monopoly`` (discord.py then adds none itself)."""
        for command in self.__cog_app_commands__:
            group = self.core.me_group if command.name in self.personal else self.core.group
            group.add_command(command)
        self.__cog_app_commands__ = []


class CoreCog(commands.Cog, name="MonopolyCore"):
    """Listeners of the action path: start-up reconciliation and form submissions."""

    def __init__(self, core: Core) -> None:
        self.core = core
        self._started = False

    @commands.Cog.listener()
    async def on_ready(self) -> None:
        """Once connected: reconcile every open game, then sweep periodically."""
        if not self._started:
            self._started = True
            self.core.reconciler.start()

    @commands.Cog.listener()
    async def on_interaction(self, interaction: discord.Interaction) -> None:
        """Submitted forms (discord.py keeps none in memory, see ``cogs.ui.ids.Form``), and
        a polite answer to any component or form nothing else handles (a message or a form
        of a much older version), so no interaction goes unanswered."""
        ref = form_ref(interaction)
        if ref is not None:
            await self.core.dispatcher.click(interaction, ref)
            return
        if unclaimed(interaction):
            await self.core.dispatcher.click(
                interaction, ClickRef(kind="unknown", game=0, action=str(interaction.type))
            )

    @commands.Cog.listener()
    async def on_raw_message_delete(self, payload: discord.RawMessageDeleteEvent) -> None:
        """A message was deleted: if it was a game's live message, it is posted again."""
        await self._deleted(payload.channel_id, {payload.message_id})

    @commands.Cog.listener()
    async def on_raw_bulk_message_delete(self, payload: discord.RawBulkMessageDeleteEvent) -> None:
        """Messages were deleted at once (a bulk delete, a purge): the same, for each."""
        await self._deleted(payload.channel_id, set(payload.message_ids))

    async def _deleted(self, channel_id: int, message_ids: set[int]) -> None:
        try:
            await self.core.reconciler.message_deleted(channel_id, message_ids)
        except Exception:  # noqa: BLE001 - the hourly sweep checks the live messages too
            log.exception("Reposting deleted messages in channel %s failed", channel_id)

    @commands.Cog.listener()
    async def on_app_command_completion(
        self, interaction: discord.Interaction, command: Any
    ) -> None:
        """A slash command finished: publish what it applied (like a click's actions)."""
        click = interaction.extras.get("click")
        if click is not None:
            await self.core.dispatcher.finish(click)

    async def cog_unload(self) -> None:
        """Stop the background work."""
        await self.core.stop()


def unclaimed(interaction: discord.Interaction) -> bool:
    """Whether discord.py has no handler for this component click or form."""
    data: dict[str, Any] = interaction.data or {}  # type: ignore[assignment]
    custom = str(data.get("custom_id", ""))
    if interaction.type == discord.InteractionType.component:
        return not any(
            re.fullmatch(p, custom) for p in (GAME_PATTERN, BUTTON_PATTERN, SELECT_PATTERN)
        )
    if interaction.type == discord.InteractionType.modal_submit:
        store = getattr(getattr(interaction.client, "_connection", None), "_view_store", None)
        live = getattr(store, "_modals", {})
        return custom not in live
    return False


def attach(bot: Any, core: Core) -> None:
    """Make the core reachable from the bot (items find the dispatcher there)."""
    bot.core = core
    bot.dispatcher = core.dispatcher
    bot.tree.on_error = core.dispatcher.on_command_error
