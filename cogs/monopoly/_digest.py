"""The daily digest: once a day, one message per game with where it stands.

For games that move slowly (one throw in the morning, the next in the evening) a
digest at a fixed hour (setting ``digest``, hours in UTC) shows the board, the
net-worth standings, whom the game waits on and which offers are open.
"""

from __future__ import annotations

from typing import Any

import discord

from bot.engine.legal import waiting_for
from bot.i18n import t
from bot.store import GameRow
from cogs.monopoly import _panels as panels
from cogs.monopoly._text import Narrator, theme_of


def digest_embed(row: GameRow) -> discord.Embed:
    """The digest of a running game: standings, whose turn, open offers."""
    state = row.state
    assert state is not None
    settings: dict[str, Any] = dict(row.settings)
    lang = settings.get("lang", "de")
    narrator = Narrator(state, lang, theme_of(settings))
    embed = discord.Embed(
        title=t(lang, "digest.title", turn=state.turn), colour=panels.EMBED_COLOUR
    )
    embed.add_field(
        name=t(lang, "digest.standings"), value=panels.wealth_table(state, settings), inline=False
    )
    waiting = ", ".join(narrator.player(s) for s in waiting_for(state)) or "–"
    embed.add_field(
        name=t(lang, "digest.waiting"),
        value=t(lang, f"phase.{state.phase}") + " · " + waiting,
        inline=False,
    )
    offers = [
        t(
            lang,
            "digest.trade",
            **{"from": narrator.player(tr["from"]), "to": narrator.player(tr["to"])},
        )
        for tr in state.trades
    ]
    if state.auction is not None:
        offers.append(t(lang, "digest.auction"))
    if state.lot_offer is not None:
        offers.append(
            t(lang, "digest.lot_offer", player=narrator.player(state.lot_offer["creditor"]))
        )
    embed.add_field(name=t(lang, "digest.offers"), value="\n".join(offers) or "–", inline=False)
    if settings.get("ends_at"):
        embed.add_field(
            name=t(lang, "digest.ends"), value=f"<t:{settings['ends_at']}:f>", inline=False
        )
    link = settings.get("turn_message")
    if link:
        embed.description = t(
            lang,
            "digest.link",
            link=f"https://discord.com/channels/{row.guild_id}/{row.channel_id}/{link}",
        )
    embed.set_image(url="attachment://board.png")
    return embed


async def post(channel: discord.abc.Messageable, row: GameRow) -> None:
    """Post the digest of ``row`` with the board image."""
    assert row.state is not None
    await channel.send(
        embed=digest_embed(row), file=await panels.board_file(row.state, dict(row.settings))
    )
