"""Computer players in the lobby: the host adds them by strength or takes one out.

A select under the lobby message offers "add an easy / normal / strong computer
player" and "remove the last computer player". Computer players sit at the table
like members (the lobby lists them with their strength) and play from the first
move through the ``auto`` timers (see ``_deadlines`` and ``_absence``).
"""

from __future__ import annotations

from typing import TYPE_CHECKING

import discord

from bot.engine.computer import LEVELS
from bot.engine.errors import IllegalAction
from bot.i18n import t
from bot.store import StoreError
from cogs.monopoly._widgets import PanelSelect, explain, lang_of, panel

if TYPE_CHECKING:
    from cogs.monopoly._cog import MonopolyCog

REMOVE = "remove"


def lobby_select(game: int, lang: str) -> PanelSelect:
    """The host's select for computer players under a lobby message."""
    options = [
        discord.SelectOption(
            label=t(lang, "computer.add", level=t(lang, f"computer.level.{level}")),
            value=level,
            emoji="🤖",
        )
        for level in LEVELS
    ]
    options.append(discord.SelectOption(label=t(lang, "computer.remove"), value=REMOVE))
    return PanelSelect(
        game, "lobby_cpu", options=options, placeholder=t(lang, "computer.placeholder"), row=1
    )


@panel("lobby_cpu")
async def _choose(
    cog: MonopolyCog,
    interaction: discord.Interaction,
    game: int,
    arg: str | None,
    values: list[str],
) -> None:
    from cogs.monopoly import _panels as panels

    choice = values[0] if values else ""
    try:
        if choice == REMOVE:
            settings = await cog.service.remove_computer(game, interaction.user.id)
        else:
            settings = await cog.service.add_computer(game, interaction.user.id, choice)
    except (IllegalAction, StoreError) as error:
        await interaction.response.send_message(
            explain(lang_of(interaction), error), ephemeral=True
        )
        return
    await interaction.response.edit_message(**panels.lobby_message(game, settings))
