"""German first, English second: the game's messages are in the game's language, and what
only one player sees is in that player's own Discord language.

simcord 3.2.1 sends every interaction with the locale "en-US"; the ``table`` fixture
(``helpers.py``) sets each member's locale instead – German unless a test says otherwise.
"""

from __future__ import annotations

import pytest

from tests.discord.helpers import (
    Table,
    buttons,
    play_position,
    private_reply,
    rolled,
    scenario,
    start_game,
    turn_actions,
)

pytest_plugins = ["tests.discord.helpers"]


async def test_a_german_game_speaks_german(table: Table) -> None:
    """Alice starts a German game: the turn message, its footer, the amounts and the
    buttons are German."""
    game = await start_game(table, table.alice, table.bob, language="de")

    turn = await table.turn_message(game)
    assert turn.embeds[0].title == "Zug 1 · alice"
    assert turn.embeds[0].footer.text == "▶ Würfeln · alice"
    assert turn.embeds[0].description == "alice ist am Zug · LOS"
    assert "alice 1.500 € Bargeld" in turn.attachments[0].description
    assert turn_actions(turn) == ["🎲 Würfeln"]
    assert {"Bauen & Hypotheken", "Handeln", "Aufgeben"} <= set(buttons(turn))


async def test_an_english_game_speaks_english(table: Table) -> None:
    """The same game started in English: English title, English buttons, and the US
    board with its dollar amounts written the English way."""
    game = await start_game(table, table.alice, table.bob, language="en")

    turn = await table.turn_message(game)
    assert turn.embeds[0].title == "Turn 1 · alice"
    assert turn.embeds[0].footer.text == "▶ Roll · alice"
    assert "alice cash $1,500" in turn.attachments[0].description
    assert turn_actions(turn) == ["🎲 Roll"]
    assert {"Build & mortgage", "Trade", "Give up"} <= set(buttons(turn))


async def test_an_english_player_is_refused_in_english_in_a_german_game(table: Table) -> None:
    """Bob's Discord is English. In a German game he presses Alice's "Würfeln" and asks for
    his status: both private answers are English, the public message stays German."""
    table.set_locale(table.bob, "en-US")
    game = await start_game(table, table.alice, table.bob, language="de")
    turn = await table.turn_message(game)

    refused = await table.bob.click(turn, label="🎲 Würfeln")
    status = await table.bob.slash(table.channel, "monopoly status")

    assert private_reply(refused) == "It is not your turn."
    assert private_reply(status).splitlines()[:2] == ["Cash: €1,500", "Square: LOS"]
    assert table.message(turn.id).embeds[0].title == "Zug 1 · alice"


async def test_a_german_player_is_refused_in_german_in_an_english_game(table: Table) -> None:
    """The other way round: an English game, and Bob's Discord is German."""
    table.set_locale(table.alice, "en-US")
    game = await start_game(table, table.alice, table.bob, language="en")
    turn = await table.turn_message(game)

    refused = await table.bob.click(turn, label="🎲 Roll")
    status = await table.bob.slash(table.channel, "monopoly status")

    assert private_reply(refused) == "Du bist nicht am Zug."
    # The English game plays the US board: its names, its dollars.
    assert private_reply(status).splitlines()[:2] == ["Bargeld: 1.500 $", "Feld: GO"]
    assert table.message(turn.id).embeds[0].title == "Turn 1 · alice"


@pytest.mark.parametrize(
    ("locale", "reply"),
    [
        ("de", "Du bist nicht am Zug."),
        ("en-GB", "It is not your turn."),
        ("en-US", "It is not your turn."),
        ("fr", "Du bist nicht am Zug."),
        ("ja", "Du bist nicht am Zug."),
    ],
)
async def test_other_discord_languages_get_german(table: Table, locale: str, reply: str) -> None:
    """Any English locale gets English; German and every other language get German, the
    bot's first language."""
    table.set_locale(table.bob, locale)
    game = await start_game(table, table.alice, table.bob, language="en")

    result = await table.bob.click(await table.turn_message(game), label="🎲 Roll")

    assert private_reply(result) == reply


async def test_the_bid_form_speaks_the_bidders_language(table: Table) -> None:
    """In a German game's auction, Bob (English Discord) opens the bid form: it is English,
    and so is the answer to a bid in words – while the auction message stays German."""
    table.set_locale(table.bob, "en-US")
    game = await play_position(table, scenario([table.alice, table.bob], steps=[rolled(0, 2, 3)]))
    await table.alice.click(await table.turn_message(game), label="Versteigern")
    auction = await table.auction_message(game)

    shown = await table.bob.click(auction, label="Bieten …")

    assert shown.modal["title"] == "Place a bid"
    label = shown.modal["components"][0]  # a Label around the text field
    assert label["label"] == "Amount"
    field = label["component"]
    answer = await table.bob.submit_modal(shown, {field["custom_id"]: "twelve"})
    assert private_reply(answer) == "“twelve” is not a number."
    assert table.message(auction.id).embeds[0].title == "Versteigerung: Südbahnhof"


async def test_help_is_in_the_users_language(table: Table) -> None:
    """/monopoly help: German for Alice, English for Bob."""
    table.set_locale(table.bob, "en-US")

    german = await table.alice.slash(table.channel, "monopoly help")
    english = await table.bob.slash(table.channel, "monopoly help")

    assert private_reply(german).startswith("**MONOPOLY im Kanal**")
    assert private_reply(english).startswith("**MONOPOLY in this channel**")


async def test_the_game_language_stays_with_the_game(table: Table) -> None:
    """Alice (German Discord) starts an English game; when Bob (German) joins, the lobby
    stays English – the language belongs to the game, not to whoever clicks."""
    await table.alice.slash(table.channel, "monopoly start", language="en")
    lobby = table.channel.last_message

    await table.bob.click(lobby, label="Join")

    lobby = table.message(lobby.id)
    assert lobby.embeds[0].title == "MONOPOLY – lobby"
    assert buttons(lobby) == [
        "Join",
        "Leave",
        "Rules",
        "House rules",
        "Start game",
        "🍀 Lucky words",
    ]
