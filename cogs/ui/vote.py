"""The public vote on an absent player's seat, with the tally so far."""

from __future__ import annotations

from typing import Any

import discord

from bot.asyncplay.absence import choices_for, voters
from bot.cardgame import CardState
from bot.engine.state import GameState
from bot.i18n import t
from bot.settings import GameSettings
from cogs.ui.ids import GameButton
from cogs.ui.text import mentions


def vote_message(
    game: int,
    state: GameState | CardState,
    settings: GameSettings,
    seat: int,
    ballots: dict[str, str],
) -> dict[str, Any]:
    """The public vote on an absent player's seat, with the tally so far."""
    lang = settings.lobby.lang
    name = state.players[seat].name
    missed = settings.play.missed.get(str(seat), 0)
    tally = " · ".join(
        f"{t(lang, f'vote.option.{choice}')}: {sum(1 for b in ballots.values() if b == choice)}"
        for choice in choices_for(state)
    )
    table = voters(state, settings, seat)
    text = t(
        lang,
        "vote.text",
        player=name,
        mention=mentions(state, [seat]),
        missed=missed,
        voters=mentions(state, table),
        tally=tally,
    )
    view = discord.ui.View(timeout=None)
    styles = {
        "computer": discord.ButtonStyle.primary,
        "remove": discord.ButtonStyle.danger,
        "wait": discord.ButtonStyle.secondary,
    }
    for choice in choices_for(state):
        view.add_item(
            GameButton(
                game,
                state.seq,
                "vote",
                f"{seat}-{choice}",
                label=t(lang, f"vote.option.{choice}"),
                style=styles[choice],
            )
        )
    view.add_item(
        GameButton(
            game,
            state.seq,
            "vote",
            f"{seat}-back",
            label=t(lang, "vote.option.back", player=name),
            style=discord.ButtonStyle.success,
        )
    )
    return {"content": text, "view": view}
