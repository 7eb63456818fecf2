"""Listings: the server's open games, its leaderboard of finished games, and the help text."""

from __future__ import annotations

import discord
from discord import app_commands

from bot.i18n import t
from bot.stats import leaderboard, result_of
from bot.store import GameStatus, StoreError
from cogs.core.services import FeatureCog
from cogs.ui.listings import games_text, leaderboard_text


class StatsCog(FeatureCog, name="Stats"):
    """``/monopoly games``, ``/monopoly stats`` and ``/monopoly help``."""

    @app_commands.command(name="games", description="The open games of this server")
    async def games(self, interaction: discord.Interaction) -> None:
        """Every lobby and running game of the server: where, which game, whose move."""
        click = self.core.dispatcher.command(interaction)
        store = self.core.store
        rows = []
        for info in await store.list_games(interaction.guild_id or 0):
            if info.status in (GameStatus.LOBBY, GameStatus.RUNNING):
                try:
                    rows.append(await store.load(info.id))
                except StoreError:
                    continue  # set aside meanwhile: not an open game any more
        await click.reply(games_text(rows, click.lang))

    @app_commands.command(name="stats", description="Who has won most games on this server")
    @app_commands.describe(game="Only MONOPOLY or only the card game (default: both)")
    @app_commands.choices(
        game=[
            app_commands.Choice(name="MONOPOLY", value="board"),
            app_commands.Choice(name="MONOPOLY card game", value="cards"),
        ]
    )
    async def stats(self, interaction: discord.Interaction, game: str | None = None) -> None:
        """The server's leaderboard of finished games, posted in the channel."""
        click = self.core.dispatcher.command(interaction)
        states = await self.core.store.finished_states(interaction.guild_id or 0)
        results = [r for state in states if (r := result_of(state)) is not None]
        standings = leaderboard(results, kind=game)
        await click.reply(
            leaderboard_text(standings, click.lang, game, interaction.user.id),
            private=False,
            allowed_mentions=discord.AllowedMentions.none(),
        )

    @app_commands.command(name="help", description="How to play with this bot")
    async def help(self, interaction: discord.Interaction) -> None:
        """A short guide."""
        click = self.core.dispatcher.command(interaction)
        await click.reply(t(click.lang, "help.text"))
