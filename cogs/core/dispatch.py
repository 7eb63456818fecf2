"""The dispatcher: every click, form and slash command passes its error boundary.

For a click it finds the route (``cogs/core/routes.py``), checks who may click and whether
the click is for the state shown, answers in time (Discord's three seconds), holds the
game's lock when the route asks for it, runs the handler and publishes what the handler
applied. Whatever goes wrong, the user gets a private answer in their language:

* a refusal of the rules or the store (``IllegalAction``, ``StoreError``): why, politely;
  a click for an older state also has the game checked for a missing live message;
* anything else: logged with the game, user and custom id, and answered "nothing was
  changed, please try again", or, if an action was already saved, "your move was saved;
  the board will follow" (the publisher and the reconciler see to the board).
"""

from __future__ import annotations

import logging
from typing import TYPE_CHECKING, Any

import discord
from discord import app_commands

from bot.engine.errors import IllegalAction
from bot.i18n import t
from bot.settings import GameSettings
from bot.store import ApplyResult, StaleAction, StoreError
from cogs.core.click import Click
from cogs.core.routes_base import ANYONE, DEFER, DEFER_PRIVATE, HOST, SEAT, Route
from cogs.ui.ids import ClickRef

if TYPE_CHECKING:
    from cogs.core.ports import CorePort as Core

log = logging.getLogger(__name__)


def merge(results: list[ApplyResult]) -> ApplyResult | None:
    """Several applied actions as one result (the last state, every event), for publishing."""
    if not results:
        return None
    events = [event for result in results for event in result.events]
    actor = next((r.actor for r in results if r.actor is not None), None)
    return ApplyResult(state=results[-1].state, events=events, seq=results[-1].seq, actor=actor)


def may_host(interaction: discord.Interaction, settings: GameSettings) -> bool:
    """Whether the user is the game's host or may manage the server."""
    perms = getattr(interaction.user, "guild_permissions", None)
    return settings.lobby.is_host(interaction.user.id) or bool(perms and perms.manage_guild)


class Dispatcher:
    """Routes clicks to the feature cogs' handlers (see the module docstring)."""

    def __init__(self, core: Core, routes: dict[tuple[str, str], Route]) -> None:
        self.core = core
        self.routes = routes

    # -- clicks and forms -------------------------------------------------------------

    async def click(self, interaction: discord.Interaction, ref: ClickRef) -> None:
        """Handle one click or submitted form; the user always gets an answer."""
        click = Click(self.core, interaction, ref)
        try:
            route = self.routes.get(ref.route)
            if route is None:
                raise IllegalAction("unknown_button")
            handler = self.handler(route)
            if route.answer in (DEFER, DEFER_PRIVATE):
                # Answer first: a refusal of the checks below follows privately.
                await click.defer(private=route.answer == DEFER_PRIVATE)
            await self._admit(click, route)
            if route.lock:
                async with self.core.service.lock(ref.game):
                    await handler(click)
            else:
                await handler(click)
        except Exception as error:  # the boundary: every failure gets an answer
            await self.answer_error(click, error)
        await self.finish(click)

    def handler(self, route: Route) -> Any:
        """The bound handler method a route names (the cog must be loaded)."""
        cog = self.core.bot.get_cog(route.cog)
        method = getattr(cog, route.handler, None) if cog is not None else None
        if method is None:
            raise LookupError(f"route to missing handler {route.cog}.{route.handler}")
        return method

    async def _admit(self, click: Click, route: Route) -> None:
        """Load the game and check who clicked and for which state (see ``Route``)."""
        if not route.loads_game:
            return
        row = await click.load()
        if route.who == SEAT:
            if row.state is None:
                raise IllegalAction("not_started")
            seat = click.seat_of(row.state)
            if seat is None or getattr(row.state.players[seat], "bankrupt", False):
                raise IllegalAction("not_a_player")
            click.seat = seat
        elif route.who == HOST and not may_host(click.interaction, GameSettings.of(row)):
            raise IllegalAction("host_only")
        elif route.who == ANYONE and row.state is not None:
            click.seat = click.seat_of(row.state)
        ref = click.ref
        shown = ref.seq if route.seq and ref is not None else None
        if shown is not None and row.state is not None and row.state.seq != shown:
            raise StaleAction(row.id, shown, row.state.seq)

    # -- slash commands ---------------------------------------------------------------

    def command(self, interaction: discord.Interaction) -> Click:
        """The context of a slash command (its errors reach :meth:`on_command_error`)."""
        return Click(self.core, interaction, None)

    async def on_command_error(
        self, interaction: discord.Interaction, error: app_commands.AppCommandError
    ) -> None:
        """The command tree's error handler: the same boundary as for clicks."""
        click = interaction.extras.get("click")
        if not isinstance(click, Click):
            click = Click(self.core, interaction, None)
        original: BaseException = error
        if isinstance(error, app_commands.CommandInvokeError):
            original = error.original
        elif isinstance(
            error, app_commands.CommandNotFound | app_commands.CommandSignatureMismatch
        ):
            original = IllegalAction("command_outdated")  # the client's list is older
        elif isinstance(error, app_commands.NoPrivateMessage):
            original = IllegalAction("guild_only")
        elif isinstance(error, app_commands.TransformerError | app_commands.CheckFailure):
            original = IllegalAction("bad_option", option=str(getattr(error, "value", "")))
        await self.answer_error(click, original)
        await self.finish(click)

    # -- answers ----------------------------------------------------------------------

    async def answer_error(self, click: Click, error: BaseException) -> None:
        """Answer a failed click privately (never raises)."""
        interaction = click.interaction
        if isinstance(error, IllegalAction | StoreError):
            if isinstance(error, StaleAction) and click.ref is not None:
                message = interaction.message
                self.core.reconciler.check_soon(
                    click.ref.game,
                    message.id if message is not None else None,
                    click.ref.seq,
                )
            try:
                if click.row is None and click.game:
                    await click.load()
            except Exception:  # noqa: BLE001 - only for names in the answer
                click.row = None
            text = click.explain(error)
        else:
            ref = click.ref
            log.error(
                "Interaction failed: game %s, user %s, custom id %s, command %s",
                click.game,
                interaction.user.id,
                ref.custom_id if ref is not None else None,
                interaction.command.qualified_name if interaction.command else None,
                exc_info=error,
            )
            key = "error.saved_board_follows" if click.committed else "error.nothing_changed"
            text = t(click.lang, key)
        try:
            # A refusal must reach the user: one more try the other way if Discord
            # refuses the first (initial answer <-> follow-up).
            await click.reply_surely(text)
        except Exception:  # noqa: BLE001 - the interaction itself may be gone
            log.warning("Could not answer interaction %s", interaction.id, exc_info=True)

    async def finish(self, click: Click) -> None:
        """Publish what the click applied; tell the user if the board could not follow."""
        result = merge(click.results)
        if result is None:
            return
        try:
            shown = await self.core.publisher.publish(click.game, result, click.channel)
        except Exception:  # noqa: BLE001 - the action is saved; the reconciler repairs
            log.exception("Publishing game %s failed", click.game)
            self.core.reconciler.check_soon(click.game)
            shown = False
        if not shown:
            try:
                await click.reply(t(click.lang, "error.saved_board_follows"))
            except Exception:  # noqa: BLE001
                log.warning("Could not tell user %s", click.user_id, exc_info=True)
