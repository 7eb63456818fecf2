"""The lobby message of either game: players, rules, time settings, join/leave/start, the
fingerprint of the lobby's secret and the form for a player's words (docs/fair-dice.md)."""

from __future__ import annotations

from typing import Any

import discord

from bot.asyncplay import timing
from bot.engine.computer import LEVELS
from bot.fairness import WORDS_MAX
from bot.i18n import t
from bot.rules_summary import describe_rules
from bot.settings import GameSettings
from cogs.ui.fairness import lobby_commitment
from cogs.ui.ids import Form, GameButton, PanelSelect
from cogs.ui.text import board_of, mention, theme_of

EMBED_COLOUR = 0x2E7D32
#: The value of the computer select's option that takes the last computer player out.
REMOVE_COMPUTER = "remove"


def lobby_message(game_id: int, settings: GameSettings) -> dict[str, Any]:
    """Content, embed and view of a lobby."""
    lobby = settings.lobby
    lang = lobby.lang
    if lobby.is_cards:
        return _card_lobby_message(game_id, settings)
    rules = lobby.rules()
    players = "\n".join(
        f"{n}. {mention(p['id'], p['name'])}"
        + (f" ({t(lang, 'computer.level.' + p['computer'])})" if p.get("computer") else "")
        + (" 👑" if lobby.is_host(p["id"]) else "")
        + _clover(settings, p)
        for n, p in enumerate(lobby.players, 1)
    )
    embed = discord.Embed(
        title=t(lang, "lobby.title"),
        description=t(lang, "lobby.intro", minimum=rules.min_players, maximum=lobby.max_players),
        colour=EMBED_COLOUR,
    )
    embed.add_field(
        name=t(lang, "lobby.players", count=len(lobby.players)), value=players, inline=False
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
    lobby_commitment(embed, settings)
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
    view.add_item(words_button(game_id, lang, row=2))  # rows 0 and 1 are full
    return {"content": None, "embed": embed, "view": view}


def _card_lobby_message(game_id: int, settings: GameSettings) -> dict[str, Any]:
    """The lobby of MONOPOLY Das Kartenspiel: players, join / leave / start."""
    lobby = settings.lobby
    lang = lobby.lang
    players = "\n".join(
        f"{n}. {mention(p['id'], p['name'])}"
        + (" 👑" if lobby.is_host(p["id"]) else "")
        + _clover(settings, p)
        for n, p in enumerate(lobby.players, 1)
    )
    embed = discord.Embed(
        title=t(lang, "cards.lobby_title"),
        description=t(lang, "cards.lobby_intro", maximum=lobby.max_players),
        colour=EMBED_COLOUR,
    )
    embed.add_field(
        name=t(lang, "lobby.players", count=len(lobby.players)), value=players, inline=False
    )
    lobby_commitment(embed, settings)
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
    view.add_item(words_button(game_id, lang, row=0))
    view.add_item(lobby_select(game_id, lang))
    return {"content": None, "embed": embed, "view": view}


def _clover(settings: GameSettings, player: dict[str, Any]) -> str:
    """ " 🍀" after a lobby player who has set words (the words stay hidden until the start)."""
    typed = settings.fair.lobby_words
    return " 🍀" if isinstance(typed, dict) and typed.get(str(player["id"])) else ""


def words_button(game_id: int, lang: str, *, row: int) -> GameButton:
    """ "🍀 Glücksformel": opens the form for the clicking player's words."""
    return GameButton(game_id, "L", "words", label=t(lang, "button.words"), row=row)


class WordsForm(Form):
    """A player's words for the seed (``f:{game}:words:n``), showing the ones they set."""

    def __init__(self, game: int, lang: str, current: str = "") -> None:
        super().__init__(title=t(lang, "fair.words.form_title"), game=game, action="words")
        self.add_field(
            "words",
            t(lang, "fair.words.form_label"),
            required=False,
            max_length=WORDS_MAX,
            default=current or None,
            placeholder=t(lang, "fair.words.form_placeholder"),
        )


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
