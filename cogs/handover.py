"""Handing one's seat to another member: ``/monopoly me handover`` and the request's buttons.

A seated player asks (``/monopoly me handover member:@X``); a public message asks X, who
accepts or declines; the asking player may withdraw. After an accept the host (or a member
who may manage the server) confirms, or the table votes if the host is the one leaving.
On confirmation the seat changes hands by the engine's ``hand_over`` action, applied by the
store like every other action (so it is in the record, and the replay and ``verify`` show
it); the settings then keep both names for the history. The rules of the request and the
vote are Discord-free (``bot/asyncplay/handover.py``); the message is ``cogs/ui/handover.py``.
Both games, board and cards.
"""

from __future__ import annotations

import logging
from typing import Any

import discord
from discord import app_commands

from bot.asyncplay import handover
from bot.engine.errors import IllegalAction
from bot.service import NAME_MAX_LENGTH
from bot.settings import GameSettings
from bot.text_input import clean_name
from cogs.core.click import Click
from cogs.core.dispatch import may_host
from cogs.core.services import FeatureCog
from cogs.ui.handover import closed_message, handover_message
from cogs.ui.text import refusal

log = logging.getLogger(__name__)


class HandoverCog(FeatureCog, name="Handover"):
    """``/monopoly me handover`` and the answers to a request (accept, confirm, vote …)."""

    personal = ("handover",)

    @app_commands.command(
        name="handover",
        description="Hand your seat to another member (they accept, the host confirms)",
    )
    @app_commands.describe(member="Who should take over your seat")
    async def handover(self, interaction: discord.Interaction, member: discord.Member) -> None:
        """A seated player asks to hand their seat to ``member``: a public request."""
        click = self.core.dispatcher.command(interaction)
        row = await click.game_here()
        name = clean_name(member.display_name, max_length=NAME_MAX_LENGTH)

        def change(fresh: Any, settings: GameSettings) -> Any:
            seat, request = handover.open_request(
                fresh.state,
                settings,
                str(interaction.user.id),
                str(member.id),
                name,
                target_is_bot=member.bot,
            )
            return fresh.state, settings, seat, request

        state, settings, seat, request = await click.service.edit_settings(row.id, change)
        try:
            await click.reply(
                private=False, **handover_message(row.id, state, settings, seat, request)
            )
        except Exception:
            # Nobody could answer a request nobody sees: close it, so the seat may ask again.
            await click.service.edit_settings(
                row.id, lambda _row, s: handover.drop(s, seat, request["id"])
            )
            raise

    async def answer(self, click: Click) -> None:
        """Accept, decline, withdraw, confirm, refuse or a ballot of the table's vote."""
        assert click.ref is not None
        choice = click.ref.action.removeprefix("ho_")
        interaction = click.interaction

        def change(fresh: Any, settings: GameSettings) -> Any:
            click.row = fresh
            outcome = handover.answer(
                fresh.state,
                settings,
                click.arg,
                choice,
                str(click.user_id),
                may_host=may_host(interaction, settings),
            )
            return fresh.state, settings, outcome

        state, settings, outcome = await click.service.edit_settings(click.game, change)
        if outcome.result is None:
            await click.edit(
                **handover_message(click.game, state, settings, outcome.seat, outcome.request)
            )
            return
        if outcome.result != "confirmed":
            await click.edit(**closed_message(settings, outcome.request, outcome.result))
            return
        await self._carry_out(click, outcome)

    async def _carry_out(self, click: Click, outcome: handover.Outcome) -> None:
        """The request is confirmed: the seat changes hands, and the history keeps both."""
        request, seat = outcome.request, outcome.seat
        action = {
            "type": "hand_over",
            "target": seat,
            "id": request["to_id"],
            "name": request["to_name"],
        }
        try:
            result = await click.act_as_host(action)
        except IllegalAction as error:
            # The table moved on meanwhile (the seat went out, the game ended): say so
            # where the request was, and tell the clicking user why (the error boundary).
            settings = GameSettings.of(await click.load())
            lang = settings.lobby.lang
            reason = refusal(lang, error)
            await click.edit(**closed_message(settings, request, "failed", reason=reason))
            raise

        def record(_row: Any, settings: GameSettings) -> tuple[GameSettings, bool]:
            host_left = handover.host_leaves(settings, request)
            handover.finish(result.state, settings, seat, request)
            return settings, host_left

        settings, host_left = await click.service.edit_settings(click.game, record)
        key = "confirmed_host" if host_left else "confirmed"
        await click.edit(**closed_message(settings, request, key))
