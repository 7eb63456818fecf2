"""What the bot shows, as functions of (state, settings, language), without Discord running:
the turn message's buttons follow the engine's legal actions, amounts and names are
written in the game's language, refusals are polite sentences in the user's language."""

from __future__ import annotations

from typing import Any

import discord

from bot.engine.errors import IllegalAction
from bot.engine.scenario import SCENARIO_FORMAT, run
from bot.settings import GameSettings
from bot.store import StaleAction
from cogs.ui.auction import auction_message
from cogs.ui.lobby import lobby_message
from cogs.ui.turn import finished_embed, live_embed, turn_info, turn_view
from cogs.ui.widgets import explain


def _state(**position: Any) -> Any:
    raw = {
        "format": SCENARIO_FORMAT,
        "players": [{"id": "1", "name": "alice"}, {"id": "2", "name": "bob"}],
        **position,
    }
    return run(raw)


def _labels(view: discord.ui.View) -> list[str]:
    buttons = [getattr(item, "item", item) for item in view.children]  # DynamicItem wraps
    return [b.label or "" for b in buttons if isinstance(b, discord.ui.Button)]


def _settings(lang: str = "de") -> dict[str, Any]:
    return {"lang": lang, "players": [], "host": 1, "preset": "classic"}


def test_the_turn_message_offers_what_the_engine_allows() -> None:
    """At the start of a turn: roll, and the menus; after a throw onto a free lot: buy with
    the price, or decline — in the game's language."""
    state = _state()
    labels = _labels(turn_view(1, state, GameSettings(_settings())))
    assert labels[0] == "🎲 Würfeln"
    assert {"Bauen & Hypotheken", "Aufgeben"} <= set(labels)
    state = _state(steps=[{"action": {"type": "roll", "player": 0}, "dice": [2, 3]}])
    labels = _labels(turn_view(1, state, GameSettings(_settings("en"))))
    assert "Buy (€200)" in labels and "🎲 Würfeln" not in labels


def test_every_button_carries_the_state_it_was_drawn_for() -> None:
    """The custom ids of the decision buttons name the game and the state's ``seq``."""
    state = _state()
    ids = [
        getattr(item, "item", item).custom_id
        for item in turn_view(42, state, GameSettings(_settings())).children
    ]
    assert f"m:42:{state.seq}:roll" in ids


def test_the_turn_embed_tells_whose_move_it_is() -> None:
    """The live message: title with the turn and the player, whose move it is in the footer;
    without its picture the players' cash in the board's currency is text."""
    state = _state()
    info = turn_info(state, GameSettings(_settings()))
    embed = live_embed(state, GameSettings(_settings()), ["alice würfelt"], info)
    assert embed.title == "Zug 1 · alice"
    assert embed.footer.text == "▶ Würfeln · alice"
    assert embed.image.url == "attachment://turn.png"
    bare = live_embed(state, GameSettings(_settings()), ["alice würfelt"], info, image=False)
    assert "1.500 €" in bare.fields[0].value
    assert bare.image.url is None


def test_a_finished_turn_keeps_its_title_and_says_no_more_whose_move_it_is() -> None:
    """A finished turn's message: its own title and log, no footer, no ▶."""
    state = _state()
    info = turn_info(state, GameSettings(_settings()))
    embed = finished_embed(state, GameSettings(_settings()), ["alice würfelt"], info)
    assert embed.title == "Zug 1 · alice"
    assert embed.description == "alice würfelt"
    assert embed.footer.text is None


def test_an_auction_message_in_english() -> None:
    """The lot, the minimum bid and the bid buttons."""
    state = _state(
        steps=[
            {"action": {"type": "roll", "player": 0}, "dice": [2, 3]},
            {"action": {"type": "decline", "player": 0}},
        ]
    )
    message = auction_message(1, state, GameSettings(_settings("en")))
    assert "Südbahnhof" in (message["embed"].title or "")
    assert {"+1", "+10", "+50", "+100"} <= set(_labels(message["view"]))


def test_the_lobby_lists_the_players_and_the_host() -> None:
    """The host is crowned; join and start are offered."""
    settings = {
        **_settings(),
        "players": [{"id": 1, "name": "alice"}, {"id": 2, "name": "bob"}],
        "max_players": 6,
        "theme": None,
    }
    message = lobby_message(7, GameSettings(settings))
    players = message["embed"].fields[0].value
    assert "<@1> 👑" in players and "<@2>" in players
    assert {"Mitspielen", "Spiel starten"} <= set(_labels(message["view"]))


def test_refusals_are_sentences_in_the_users_language() -> None:
    """An engine refusal and a store refusal, German and English, with names filled in."""
    state = _state()
    settings = _settings()
    assert explain("de", IllegalAction("not_your_turn"), state, GameSettings(settings)) == (
        "Du bist nicht am Zug."
    )
    stale = StaleAction(1, 0, 3)
    assert explain("en", stale) == "That was already done – this button is out of date."
    assert explain("de", RuntimeError("bug")).startswith("Da ist etwas schiefgegangen")
