"""The MONOPOLY game in Discord: slash commands, persistent buttons, game messages."""

from __future__ import annotations

from discord.ext import commands

from cogs.monopoly._cog import MonopolyCog
from cogs.monopoly._ids import GameButton
from cogs.monopoly._widgets import PanelButton, PanelSelect


async def setup(bot: commands.Bot) -> None:
    """Load the cog; the bot must carry a ``service`` (see ``bot.app.MonopolyBot``)."""
    bot.add_dynamic_items(GameButton, PanelButton, PanelSelect)
    await bot.add_cog(MonopolyCog(bot, bot.service))  # type: ignore[attr-defined]
