"""The lobby message of either game: players, rules, time settings, join/leave/start."""

from __future__ import annotations

from typing import Any

import discord

from bot.asyncplay import timing
from bot.engine.computer import LEVELS
from bot.engine.rules import Rules
from bot.i18n import t
from bot.rules_summary import describe_rules
from cogs.ui.ids import GameButton, PanelSelect
from cogs.ui.text import board_of, mention, theme_of

EMBED_COLOUR = 0x2E7D32
#: The value of the computer select's option that takes the last computer player out.
REMOVE_COMPUTER = "remove"


def lobby_message(game_id: int, settings: dict[str, Any]) -> dict[str, Any]:
    """Content, embed and view of a lobby."""
    lang = settings["lang"]
    if settings.get("game") == "cards":
        return _card_lobby_message(game_id, settings)
    rules = Rules.from_preset(settings["preset"], **settings.get("overrides", {}))
    players = "\n".join(
        f"{n}. {mention(p['id'], p['name'])}"
        + (f" ({t(lang, 'computer.level.' + p['computer'])})" if p.get("computer") else "")
        + (" 👑" if p["id"] == settings["host"] else "")
        for n, p in enumerate(settings["players"], 1)
    )
    embed = discord.Embed(
        title=t(lang, "lobby.title"),
        description=t(
            lang, "lobby.intro", minimum=rules.min_players, maximum=settings["max_players"]
        ),
        colour=EMBED_COLOUR,
    )
    embed.add_field(
        name=t(lang, "lobby.players", count=len(settings["players"])), value=players, inline=False
    )
    summary = describe_rules(rules, lang, board_of(settings))
    marker = t(lang, "summary.changed")
    house_rules = [line for line in summary[3:] if line.endswith(marker)]
    theme = theme_of(settings)
    if theme is not None:
        name = theme.name.get(lang) or next(iter(theme.name.values()))
        house_rules.insert(0, t(lang, "lobby.theme", name=name))
    embed.add_field(
        name=t(lang, "lobby.rules"), value="\n".join(summary[:3] + house_rules)[:1024], inline=False
    )
    embed.add_field(
        name=t(lang, "lobby.timing"),
        value="\n".join(
            timing.describe(settings, lang, time_limit=rules.end_at_deadline)
            + [
                t(
                    lang,
                    "timing.auction_mode",
                    value=t(
                        lang, "timing.mode.sealed" if rules.sealed_auctions else "timing.mode.live"
                    ),
                )
            ]
        ),
        inline=False,
    )
    view = discord.ui.View(timeout=None)
    view.add_item(
        GameButton(
            game_id, "L", "join", label=t(lang, "button.join"), style=discord.ButtonStyle.success
        )
    )
    view.add_item(GameButton(game_id, "L", "leave", label=t(lang, "button.leave")))
    view.add_item(GameButton(game_id, "L", "rules", label=t(lang, "button.rules")))
    view.add_item(GameButton(game_id, "L", "house_rules", label=t(lang, "button.house_rules")))
    view.add_item(
        GameButton(
            game_id, "L", "start", label=t(lang, "button.start"), style=discord.ButtonStyle.primary
        )
    )
    view.add_item(lobby_select(game_id, lang))
    return {"content": None, "embed": embed, "view": view}


def _card_lobby_message(game_id: int, settings: dict[str, Any]) -> dict[str, Any]:
    """The lobby of MONOPOLY Das Kartenspiel: players, join / leave / start."""
    lang = settings["lang"]
    players = "\n".join(
        f"{n}. {mention(p['id'], p['name'])}" + (" 👑" if p["id"] == settings["host"] else "")
        for n, p in enumerate(settings["players"], 1)
    )
    embed = discord.Embed(
        title=t(lang, "cards.lobby_title"),
        description=t(lang, "cards.lobby_intro", maximum=settings["max_players"]),
        colour=EMBED_COLOUR,
    )
    embed.add_field(
        name=t(lang, "lobby.players", count=len(settings["players"])), value=players, inline=False
    )
    view = discord.ui.View(timeout=None)
    view.add_item(
        GameButton(
            game_id, "L", "join", label=t(lang, "button.join"), style=discord.ButtonStyle.success
        )
    )
    view.add_item(GameButton(game_id, "L", "leave", label=t(lang, "button.leave")))
    view.add_item(
        GameButton(
            game_id, "L", "start", label=t(lang, "button.start"), style=discord.ButtonStyle.primary
        )
    )
    view.add_item(lobby_select(game_id, lang))
    return {"content": None, "embed": embed, "view": view}


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
    options.append(discord.SelectOption(label=t(lang, "computer.remove"), value=REMOVE_COMPUTER))
    return PanelSelect(
        game, "lobby_cpu", options=options, placeholder=t(lang, "computer.placeholder"), row=1
    )
