"""A lot's facts as players need them to decide: its price, its rents, who owns its group.

Shown where a decision is taken — on the turn message when a player lands on a lot the
bank still has, on the auction message — and as the title deed one click away (the
"📜" button of both), as text and as the deed card image with that text as its alt text.
"""

from __future__ import annotations

import asyncio
import io

import discord

from bot.engine.state import BANK, GameState
from bot.i18n import t
from bot.settings import GameSettings
from cogs.ui.ids import clip
from cogs.ui.text import Narrator, theme_of
from render.deed import render_deed

#: Discord's limit for an attachment's description (alt text).
ALT_MAX = 1024


def rent_line(narrator: Narrator, state: GameState, square: int) -> str:
    """The rent table of a lot in one line ("Miete 10 € · Gruppe 20 € · 🏠 50 / 150 … ")."""
    lang = narrator.lang
    info = state.board.squares[square]
    money = narrator.money
    if info.kind == "railroad":
        rents = " / ".join(money(r) for r in state.board.railroad_rents)
        return t(lang, "deed.rent.railroad", rents=rents)
    if info.kind == "utility":
        factors = " / ".join(f"{m}×" for m in state.board.utility_multipliers)
        return t(lang, "deed.rent.utility", factors=factors)
    rents = list(info.rents)
    base = rents[0] if rents else 0
    group = base * state.rules.unbuilt_group_rent_multiplier
    houses = " / ".join(money(r) for r in rents[1:5])
    hotel = money(rents[5]) if len(rents) > 5 else "–"
    return t(
        lang, "deed.rent.street", base=money(base), group=money(group), houses=houses, hotel=hotel
    )


def group_line(narrator: Narrator, state: GameState, square: int) -> str | None:
    """Who owns the other lots of the square's group ("Turmstraße: alice"), or None."""
    info = state.board.squares[square]
    others = [
        index
        for index in state.board.groups.get(info.group or "", ())
        if index != square and info.group
    ]
    if not others:
        return None
    parts = []
    for index in others:
        owner = state.owner[index]
        who = narrator.player(owner) if owner != BANK else t(narrator.lang, "deed.free")
        parts.append(f"{narrator.square(index)} ({who})")
    return t(narrator.lang, "deed.group", lots=", ".join(parts))


def lot_facts(state: GameState, settings: GameSettings, square: int, lang: str) -> str:
    """Price, rents, owner and group of a lot, as a few short lines."""
    narrator = Narrator(state, lang, theme_of(settings))
    info = state.board.squares[square]
    lines = [
        t(
            lang,
            "deed.price",
            price=narrator.money(info.price),
            mortgage=narrator.money(info.mortgage),
        )
    ]
    if info.kind == "street":
        lines[0] += " · " + t(lang, "deed.house_cost", cost=narrator.money(info.house_cost))
    lines.append(rent_line(narrator, state, square))
    owner = state.owner[square]
    if owner != BANK:
        status = t(lang, "deed.owner", name=narrator.player(owner))
        if state.mortgaged[square]:
            status += " · " + t(lang, "word.mortgaged")
        lines.append(status)
    group = group_line(narrator, state, square)
    if group is not None:
        lines.append(group)
    return "\n".join(lines)


async def deed_file(
    state: GameState, settings: GameSettings, square: int, lang: str
) -> discord.File:
    """The title deed of ``square`` as an image (drawn in a worker thread), its facts as
    the alt text."""
    theme = theme_of(settings)
    names = theme.squares if theme is not None and theme.base_board == state.board.id else None
    png = await asyncio.to_thread(render_deed, state.board, square, state, lang=lang, names=names)
    narrator = Narrator(state, lang, theme)
    alt = narrator.square(square) + ". " + lot_facts(state, settings, square, lang)
    return discord.File(io.BytesIO(png), filename="deed.png", description=clip(alt, ALT_MAX))
