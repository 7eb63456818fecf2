"""MONOPOLY Das Kartenspiel: the public table (every face-up pile, stock, scores, latest
moves), a round's results, and the images of table, hands and lay-outs."""

from __future__ import annotations

import asyncio
import io
from typing import Any

import discord

from bot.cardgame import CardState, waiting_for
from bot.i18n import t
from cogs.ui.fairness import add_commitment
from cogs.ui.ids import GameButton, clip
from cogs.ui.text import mentions
from render.cards import render_hand, render_round_result, render_table

TABLE_COLOUR = 0x1565C0
MAX_LINES = 8


def card_name(state: CardState, card_id: str) -> str:
    """A card as players read it: the street's name, "2. Haus", "Hotel", "LOS" …"""
    return state.deck.card(card_id).name


def cards_text(state: CardState, cards: list[str]) -> str:
    """Cards as a comma-separated list (or a dash)."""
    return ", ".join(card_name(state, c) for c in cards) or "–"


def layout_text(state: CardState, layout: dict[str, Any]) -> str:
    """A lay-out, one group a line: its cards, houses, hotel and tokens; then bonus cards."""
    lines = []
    for group in layout.get("groups", []):
        parts = list(group.get("cards", [])) + list(group.get("houses", []))
        if group.get("hotel"):
            parts.append(group["hotel"])
        parts += list(group.get("tokens", []))
        lines.append(f"**{state.deck.group(group['group']).name}**: {cards_text(state, parts)}")
    if layout.get("bonus"):
        lines.append(cards_text(state, list(layout["bonus"])))
    return "\n".join(lines) or "–"


def event_line(state: CardState, lang: str, event: dict[str, Any]) -> str | None:
    """One public line for an event (private details already removed), or None."""
    kind = event["type"]
    players = state.players

    def name(seat: Any) -> str:
        return players[seat].name if isinstance(seat, int) and 0 <= seat < len(players) else "?"

    if kind == "drew":
        return t(lang, "cards.event.drew", player=name(event["player"]))
    if kind == "discarded":
        return t(
            lang,
            "cards.event.discarded",
            player=name(event["player"]),
            cards=cards_text(state, event["cards"]),
        )
    if kind == "swapped":
        return t(
            lang,
            "cards.event.swapped",
            player=name(event["player"]),
            target=name(event["target"]),
            gave=cards_text(state, event["gave"]),
            took=cards_text(state, event["took"]),
        )
    if kind == "swapped_extra":
        return t(
            lang,
            "cards.event.swapped_extra",
            player=name(event["player"]),
            gave=cards_text(state, event["gave"]),
            took=cards_text(state, event["took"]),
        )
    if kind in ("laid_out", "round_started", "pass_started", "passed", "stock_empty"):
        params = {"player": name(event.get("player")), "round": event.get("round")}
        return t(lang, f"cards.event.{kind}", **params)
    if kind == "turn":
        return None
    return None


def table_message(game: int, state: CardState, settings: dict[str, Any]) -> dict[str, Any]:
    """The public table: piles in order, stock, whose turn, scores, the latest events."""
    lang = settings.get("lang", "de")
    target = state.rules.target_for(len(state.players))
    if state.phase == "over":
        title = t(lang, "cards.over")
    else:
        title = t(lang, "cards.title", round=state.round, name=state.players[state.current].name)
    embed = discord.Embed(title=title, colour=TABLE_COLOUR)
    lines = settings.get("card_lines", [])
    embed.description = "\n".join(lines[-MAX_LINES:]) or t(lang, f"cards.phase.{state.phase}")
    for seat, player in enumerate(state.players):
        pile = state.piles[seat]
        value = clip(cards_text(state, list(pile)), 1000)
        embed.add_field(
            name=t(
                lang,
                "cards.pile",
                name=player.name,
                score=f"{player.score:,}".replace(",", "."),
                cards=len(player.hand),
            ),
            value=value,
            inline=False,
        )
    for index, pile in enumerate(state.extra_piles):
        embed.add_field(
            name=t(lang, "cards.extra_pile", number=index + 1),
            value=clip(cards_text(state, list(pile)), 1000),
            inline=False,
        )
    if settings.get("deadline_at") and state.phase != "over":
        embed.add_field(name=t(lang, "turn.deadline"), value=f"<t:{settings['deadline_at']}:R>")
    if state.phase != "over":
        # One message for the whole game: it keeps saying what the fingerprint is.
        add_commitment(embed, settings, cards=True, first=True)
    embed.set_footer(
        text=t(lang, "cards.footer", stock=len(state.stock), target=f"{target:,}".replace(",", "."))
    )
    embed.set_image(url="attachment://table.png")
    view = discord.ui.View(timeout=None)
    if state.phase != "over":
        view.add_item(
            GameButton(
                game,
                state.seq,
                "c_hand",
                label=t(lang, "cards.button.hand"),
                style=discord.ButtonStyle.primary,
            )
        )
    waiting = [] if state.phase == "over" else waiting_for(state)
    return {"content": mentions_of(state, waiting) or None, "embed": embed, "view": view}


def mentions_of(state: CardState, seats: list[int]) -> str:
    """Mentions of ``seats`` (card-game players have Discord ids like board-game players)."""
    return mentions(state, seats)  # type: ignore[arg-type]


def round_message(state: CardState, lang: str, event: dict[str, Any]) -> discord.Embed:
    """A round's result: each player's lay-out, value, Mr. Monopoly bonus and points."""
    embed = discord.Embed(title=t(lang, "cards.round_title", round=event["round"]), colour=0xF9A825)
    for entry in event["players"]:
        seat = entry["player"]
        head = t(
            lang,
            "cards.round_player",
            name=state.players[seat].name,
            points=f"{entry['points']:,}".replace(",", "."),
        )
        body = layout_text(state, entry["layout"])
        if entry.get("voided"):
            body = t(lang, "cards.voided")
        elif entry.get("mr_monopoly_bonus"):
            body += "\n" + t(lang, "cards.mr_monopoly", amount=entry["mr_monopoly_bonus"])
        if seat == event.get("ender"):
            head += " 🏁"
        embed.add_field(name=head, value=clip(body, 1000), inline=False)
    return embed


async def table_file(state: CardState, lang: str) -> discord.File:
    """The table image (drawn in a worker thread)."""
    png = await asyncio.to_thread(render_table, state, lang=lang)
    return discord.File(io.BytesIO(png), filename="table.png")


async def hand_file(state: CardState, seat: int, lang: str) -> discord.File:
    """The image of a player's hand (drawn in a worker thread)."""
    png = await asyncio.to_thread(render_hand, state, seat, lang=lang)
    return discord.File(io.BytesIO(png), filename="hand.png")


async def round_files(state: CardState, lang: str) -> list[discord.File]:
    """Every player's scored lay-out of the last round as images (drawn in a worker thread)."""

    def draw() -> list[bytes]:
        return [render_round_result(state, seat, lang=lang) for seat in range(len(state.players))]

    return [
        discord.File(io.BytesIO(png), filename=f"round-{seat + 1}.png")
        for seat, png in enumerate(await asyncio.to_thread(draw))
    ]
