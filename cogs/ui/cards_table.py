"""MONOPOLY Das Kartenspiel: the public table (whose turn, the latest moves, the stock and
target; every face-up pile and score in its picture), a round's results, and the images of
table, hands and lay-outs, each with its alt text.

Cards, piles and actions are named with the images' words (``render/data/cards.json``)
and the rulebook's: Abnahmestapel, Tauschstapel, nehmen, tauschen, ablegen, auslegen,
Prämie, Wertung.
"""

from __future__ import annotations

import asyncio
import io
from typing import Any

import discord

from bot.cardgame import CardState, waiting_for
from bot.i18n import money, t
from bot.settings import GameSettings
from cogs.ui.clock import deadline_text
from cogs.ui.fairness import add_commitment
from cogs.ui.follow import follow_button
from cogs.ui.ids import GameButton, clip
from cogs.ui.text import mentions
from render.cards import (
    ALT_MAX,
    card_title,
    describe_hand,
    describe_round_result,
    describe_table,
    render_hand,
    render_round_result,
    render_table,
)

TABLE_COLOUR = 0x1565C0
MAX_LINES = 8
TABLE_IMAGE, HAND_IMAGE = "table.png", "hand.png"


def card_name(state: CardState, card_id: str, lang: str = "de") -> str:
    """A card as its picture names it: the street's name, "2. Haus" / "2nd house", "LOS" …"""
    return card_title(state.deck, card_id, lang)


def cards_text(state: CardState, cards: list[str], lang: str = "de") -> str:
    """Cards as a comma-separated list (or a dash)."""
    return ", ".join(card_name(state, c, lang) for c in cards) or "–"


def group_name(state: CardState, group: str, lang: str = "de") -> str:
    """A colour group's name in ``lang`` ("Gelb" / "Yellow"), as the pictures write it."""
    found = state.deck.group(group)
    return found.name_en if lang == "en" else found.name


def layout_text(state: CardState, layout: dict[str, Any], lang: str = "de") -> str:
    """A lay-out, one group a line: its cards, houses, hotel and tokens; then bonus cards."""
    lines = []
    for group in layout.get("groups", []):
        parts = list(group.get("cards", [])) + list(group.get("houses", []))
        if group.get("hotel"):
            parts.append(group["hotel"])
        parts += list(group.get("tokens", []))
        name = group_name(state, group["group"], lang)
        lines.append(f"**{name}**: {cards_text(state, parts, lang)}")
    if layout.get("bonus"):
        lines.append(cards_text(state, list(layout["bonus"]), lang))
    return "\n".join(lines) or "–"


def amount(lang: str, value: int) -> str:
    """Points as the pictures write them: ``4.600 €`` / ``€4,600``."""
    return money(lang, value)


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
            cards=cards_text(state, event["cards"], lang),
        )
    if kind == "swapped":
        return t(
            lang,
            "cards.event.swapped",
            player=name(event["player"]),
            target=name(event["target"]),
            gave=cards_text(state, event["gave"], lang),
            took=cards_text(state, event["took"], lang),
        )
    if kind == "swapped_extra":
        # Two cards given: the top of the stock came too (face down, so not named).
        key = "cards.event.swapped_extra" + ("_stock" if len(event["gave"]) == 2 else "")
        return t(
            lang,
            key,
            player=name(event["player"]),
            number=len(players) + int(event.get("pile") or 0) + 1,
            gave=cards_text(state, event["gave"], lang),
            took=cards_text(state, event["took"], lang),
        )
    if kind in ("laid_out", "round_started", "pass_started", "passed", "stock_empty"):
        params = {"player": name(event.get("player")), "round": event.get("round")}
        return t(lang, f"cards.event.{kind}", **params)
    if kind == "handed_over":
        return t(lang, "cards.event.handed_over", old=event["from_name"], new=event["to_name"])
    if kind == "turn":
        return None
    return None


def table_message(game: int, state: CardState, settings: GameSettings) -> dict[str, Any]:
    """The public table: whose turn, the latest moves, the stock and target; the picture
    (``table.png``, see :func:`table_file`) shows every pile, score and hand size."""
    lang = settings.lobby.lang
    target = state.rules.target_for(len(state.players))
    if state.phase == "over":
        title = t(lang, "cards.over")
    else:
        title = t(lang, "cards.title", round=state.round, name=state.players[state.current].name)
    embed = discord.Embed(title=title, colour=TABLE_COLOUR)
    lines = settings.records.card_lines
    embed.description = "\n".join(lines[-MAX_LINES:]) or t(lang, f"cards.phase.{state.phase}")
    deadline = deadline_text(state, settings)
    if deadline is not None and state.phase != "over":
        embed.add_field(name=t(lang, "turn.deadline"), value=deadline)
    if state.phase != "over":
        # One message for the whole game: it keeps saying what the fingerprint is.
        add_commitment(embed, settings, cards=True, first=True)
    embed.set_footer(
        text=t(lang, "cards.footer", stock=len(state.stock), target=amount(lang, target))
    )
    embed.set_image(url=f"attachment://{TABLE_IMAGE}")
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
        view.add_item(follow_button(game, state.seq, lang))
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
            points=amount(lang, entry["points"]),
        )
        body = layout_text(state, entry["layout"], lang)
        if entry.get("voided"):
            body = t(lang, "cards.voided")
        elif entry.get("mr_monopoly_bonus"):
            bonus = amount(lang, entry["mr_monopoly_bonus"])
            body += "\n" + t(lang, "cards.mr_monopoly", amount=bonus)
        if seat == event.get("ender"):
            head += " 🏁"
        embed.add_field(name=head, value=clip(body, 1000), inline=False)
    return embed


async def table_file(state: CardState, lang: str) -> discord.File:
    """The table image with its alt text, in the game's language (drawn in a worker
    thread). The alt text is public: it names piles, scores and hand sizes, no hand."""

    def draw() -> tuple[bytes, str]:
        return render_table(state, lang=lang), describe_table(state, lang=lang)

    png, alt = await asyncio.to_thread(draw)
    return discord.File(io.BytesIO(png), filename=TABLE_IMAGE, description=clip(alt, ALT_MAX))


async def hand_file(state: CardState, seat: int, lang: str) -> discord.File:
    """The image of a player's hand with its alt text, in the player's language (drawn in
    a worker thread; private: only the player's own message shows it)."""

    def draw() -> tuple[bytes, str]:
        return render_hand(state, seat, lang=lang), describe_hand(state, seat, lang=lang)

    png, alt = await asyncio.to_thread(draw)
    return discord.File(io.BytesIO(png), filename=HAND_IMAGE, description=clip(alt, ALT_MAX))


async def round_files(state: CardState, lang: str) -> list[discord.File]:
    """Every player's scored lay-out of the last round as images with alt text (drawn in a
    worker thread)."""

    def draw() -> list[tuple[bytes, str]]:
        return [
            (
                render_round_result(state, seat, lang=lang),
                describe_round_result(state, seat, lang=lang),
            )
            for seat in range(len(state.players))
        ]

    return [
        discord.File(
            io.BytesIO(png), filename=f"round-{seat + 1}.png", description=clip(alt, ALT_MAX)
        )
        for seat, (png, alt) in enumerate(await asyncio.to_thread(draw))
    ]
