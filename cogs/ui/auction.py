"""The auction message: the lot, the highest bid and bidder, the bid buttons (or, for a
sealed auction, who has submitted a maximum, never how much)."""

from __future__ import annotations

from typing import Any

import discord

from bot.engine.auctions import is_sealed
from bot.engine.state import GameState
from bot.i18n import t
from bot.settings import GameSettings
from cogs.ui.clock import deadline_text
from cogs.ui.deeds import lot_facts
from cogs.ui.ids import GameButton, clip
from cogs.ui.text import Narrator, mentions, theme_of

AUCTION_STEPS = (1, 10, 50, 100)


def _sealed_auction_message(
    game_id: int,
    state: GameState,
    settings: GameSettings,
    embed: discord.Embed,
    narrator: Narrator,
) -> dict[str, Any]:
    """A sealed auction: the terms, who has submitted a maximum (never how much)."""
    lang = settings.lobby.lang
    auction = state.auction
    assert auction is not None
    embed.description = (
        t(lang, "auction.no_bid", minimum=narrator.money(auction["min"]))
        + "\n"
        + t(lang, "auction.sealed", step=narrator.money(state.rules.auction_min_raise))
    )
    submitted = [b["player"] for b in auction["bids"]]
    waiting = [b for b in auction["bidders"] if b not in auction["passed"] and b not in submitted]
    embed.add_field(
        name=t(lang, "auction.submitted"),
        value=clip(", ".join(narrator.player(b) for b in submitted) or "–", 1024),
    )
    embed.add_field(name=t(lang, "auction.bidders"), value=_bidders(narrator, waiting))
    _lot_field(embed, state, settings, narrator)
    _time_left(embed, state, settings)
    view = discord.ui.View(timeout=None)
    view.add_item(
        GameButton(
            game_id,
            state.seq,
            "sealed_modal",
            label=t(lang, "button.sealed_bid"),
            style=discord.ButtonStyle.primary,
        )
    )
    view.add_item(
        GameButton(
            game_id,
            state.seq,
            "auction_pass",
            label=t(lang, "button.pass"),
            style=discord.ButtonStyle.danger,
        )
    )
    _deed_button(view, game_id, state, lang)
    return {"content": mentions(state, waiting) or None, "embed": embed, "view": view}


def auction_message(game_id: int, state: GameState, settings: GameSettings) -> dict[str, Any]:
    """The auction message: the lot, the current bid and leader, the bid buttons."""
    lang = settings.lobby.lang
    narrator = Narrator(state, lang, theme_of(settings))
    auction = state.auction
    assert auction is not None
    if auction["kind"] == "lot":
        item = narrator.square(auction["square"])
    else:
        item = t(lang, f"word.{auction['kind']}")
    embed = discord.Embed(title=t(lang, "auction.title", item=item), colour=0xF9A825)
    if is_sealed(auction):
        return _sealed_auction_message(game_id, state, settings, embed, narrator)
    if auction["leader"] is None:
        embed.description = t(lang, "auction.no_bid", minimum=narrator.money(auction["min"]))
    else:
        embed.description = t(
            lang,
            "auction.high",
            amount=narrator.money(auction["high"]),
            name=narrator.player(auction["leader"]),
        )
    still_in = [b for b in auction["bidders"] if b not in auction["passed"]]
    embed.add_field(name=t(lang, "auction.bidders"), value=_bidders(narrator, still_in))
    _lot_field(embed, state, settings, narrator)
    _time_left(embed, state, settings)
    view = discord.ui.View(timeout=None)
    for step in AUCTION_STEPS:
        view.add_item(
            GameButton(
                game_id,
                state.seq,
                "raise",
                str(step),
                label=f"+{step}",
                style=discord.ButtonStyle.primary,
                row=0,
            )
        )
    view.add_item(
        GameButton(game_id, state.seq, "bid_modal", label=t(lang, "button.bid_exact"), row=1)
    )
    view.add_item(
        GameButton(
            game_id,
            state.seq,
            "auction_pass",
            label=t(lang, "button.pass"),
            style=discord.ButtonStyle.danger,
            row=1,
        )
    )
    _deed_button(view, game_id, state, lang, row=1)
    return {"content": None, "embed": embed, "view": view}


def _bidders(narrator: Narrator, seats: list[int]) -> str:
    """The bidders with their cash: what each could bid at most."""
    shown = [
        f"{narrator.player(s)} ({narrator.money(narrator.state.players[s].cash)})" for s in seats
    ]
    return clip(", ".join(shown) or "–", 1024)


def _lot_field(
    embed: discord.Embed, state: GameState, settings: GameSettings, narrator: Narrator
) -> None:
    """The auctioned lot's facts: list price, rents, who owns its group."""
    auction = state.auction
    if auction is None or auction.get("kind") != "lot":
        return
    square = auction["square"]
    embed.add_field(
        name=clip("🏷️ " + narrator.square(square), 256),
        value=clip(lot_facts(state, settings, square, narrator.lang), 1024),
        inline=False,
    )


def _deed_button(
    view: discord.ui.View, game_id: int, state: GameState, lang: str, *, row: int | None = None
) -> None:
    """The auctioned lot's title deed, one click away."""
    auction = state.auction
    if auction is not None and auction.get("kind") == "lot":
        square = str(auction["square"])
        label = t(lang, "button.deed")
        view.add_item(GameButton(game_id, state.seq, "deed", square, label=label, row=row))


def _time_left(embed: discord.Embed, state: GameState, settings: GameSettings) -> None:
    """When the auction closes, or else when the deadline of whom it waits on passes."""
    lang = settings.lobby.lang
    if settings.play.auction_closes_at:
        closes = f"<t:{settings.play.auction_closes_at}:R>"
        embed.add_field(name=t(lang, "auction.closes"), value=closes)
    elif (deadline := deadline_text(state, settings)) is not None:
        embed.add_field(name=t(lang, "turn.deadline"), value=deadline)
