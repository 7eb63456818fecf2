"""Dice you can check: ``/monopoly verify game:`` (the scheme: ``bot/fairness.py``).

A game's seed stays secret while it runs (the fingerprint of the secret it is derived
from is shown from the lobby on, the players' words from the start) and is revealed with
the secret in its final message. ``/monopoly verify`` then recomputes
every throw and shuffle of a finished game of this server from the seed and the stored
record, and says in the channel that all of them match, or names the first that does
not. A running game, another server's game or an unknown number is refused privately,
and nothing is shown of the game: the refusal for another server's game is the one for
an unknown number, so the command tells nothing about other servers.
"""

from __future__ import annotations

import asyncio
import re

import discord
from discord import app_commands

from bot.engine.errors import IllegalAction
from bot.fairness import committed, verify
from bot.settings import GameSettings, LobbySettings
from bot.store import GameNotFound, GameRow, GameStatus
from cogs.core.click import Click
from cogs.core.services import FeatureCog
from cogs.ui.fairness import game_choice, verification_embed
from cogs.ui.text import user_lang

#: What a game number may look like as typed: ``12`` or ``#12``.
GAME_NUMBER = re.compile(r"#?\s*(\d{1,18})")
#: Discord shows at most 25 suggestions.
MAX_CHOICES = 25


class FairnessCog(FeatureCog, name="Fairness"):
    """``/monopoly verify``: check a finished game's throws against its revealed seed."""

    @app_commands.command(
        name="verify", description="Check every throw of a finished game against its seed"
    )
    @app_commands.describe(game="The game's number (shown in its final message)")
    async def verify(self, interaction: discord.Interaction, game: str) -> None:
        """Recompute every throw and shuffle of a finished game from its seed, publicly."""
        click = self.core.dispatcher.command(interaction)
        row = await self._finished_game(click, game)
        settings = GameSettings.of(row)
        assert row.state is not None  # checked by _finished_game
        # Replaying a long game takes a moment: answer first, publicly (the result is
        # about a finished game that everyone at the table may check).
        await click.defer()
        record = await self.core.store.record(row.id)
        final = row.state.to_dict()
        found = committed(settings)
        # monopoly-seed/2: the seed is derived again from the secret and the words (and
        # must be the one kept); a game from before is checked with its seed alone.
        result = await asyncio.to_thread(
            verify,
            record,
            settings.fair.seed,
            row.id,
            fingerprint=found.fingerprint if found is not None else None,
            final=final,
            secret=found.secret if found is not None else None,
            words=found.texts if found is not None else None,
        )
        lang = settings.lobby.stored_or(LobbySettings.lang, click.lang)
        await click.reply(embed=verification_embed(lang, result), private=False)

    async def _finished_game(self, click: Click, typed: str) -> GameRow:
        """The finished game of this server numbered ``typed``; IllegalAction if there is
        none, it is still running, never started or has no seed kept."""
        match = GAME_NUMBER.fullmatch(typed.strip())
        if match is None:
            raise IllegalAction("verify_bad_id", game=typed[:20])
        game_id = int(match.group(1))
        try:
            row = await self.core.store.load(game_id)
        except GameNotFound:
            raise IllegalAction("verify_unknown_game", game=game_id) from None
        if row.guild_id != (click.interaction.guild_id or 0):
            # The same answer as for a number that does not exist: nothing about the
            # games of other servers is told.
            raise IllegalAction("verify_unknown_game", game=game_id)
        if row.status != GameStatus.FINISHED:
            raise IllegalAction("verify_running", game=game_id)
        if row.state is None:
            raise IllegalAction("verify_not_started", game=game_id)
        if type(GameSettings.of(row).fair.seed) is not int:
            raise IllegalAction("verify_no_seed", game=game_id)
        return row

    @verify.autocomplete("game")
    async def _finished_games(
        self, interaction: discord.Interaction, current: str
    ) -> list[app_commands.Choice[str]]:
        """This server's finished games that kept a seed, newest first, by number."""
        lang = user_lang(interaction)
        typed = current.strip().lstrip("#")
        found = await self.core.store.list_games(interaction.guild_id or 0, include_finished=True)
        choices = [
            app_commands.Choice(name=game_choice(lang, info), value=str(info.id))
            for info in reversed(found)
            if info.status == GameStatus.FINISHED
            # Started games only: a closed lobby has a fingerprint too, but no seed.
            and type(GameSettings.of(info).fair.seed) is int
            and str(info.id).startswith(typed)
        ]
        return choices[:MAX_CHOICES]
