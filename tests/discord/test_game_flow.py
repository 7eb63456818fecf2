"""Playing a game: turn messages, rolling, buying, auctions, jail, debts, bankruptcy, the end.

Positions are built with scenarios (``helpers.play_position``): the rules engine plays the
scenario's steps with fixed dice, the game is stored and its turn message posted, and from
there the players click. Dice thrown by a click come from the scenario's ``seed``
(``helpers.seed_for``).
"""

from __future__ import annotations

import io

import pytest
from PIL import Image

from bot.engine.game import apply_action
from tests.discord.helpers import (
    BADSTRASSE,
    BERLINER_STRASSE,
    JAIL,
    MUENCHNER_STRASSE,
    SCHLOSSALLEE,
    SUEDBAHNHOF,
    TURMSTRASSE,
    Table,
    alt_text,
    buttons,
    embed_text,
    mortgage_from_menu,
    open_lobby,
    play_position,
    rolled,
    scenario,
    seed_for,
    start_game,
    still_thinking,
    submit_bid,
    turn_actions,
)

pytest_plugins = ["tests.discord.helpers"]

MANAGE = ["Bauen & Hypotheken", "Handeln", "Aufgeben"]
AUCTION_BUTTONS = ["+1", "+10", "+50", "+100", "Bieten …", "Passen", "📜 Urkunde"]
PNG_SIGNATURE = b"\x89PNG\r\n\x1a\n"


# -- the turn message ---------------------------------------------------------------------


async def test_a_started_game_shows_the_board_and_calls_the_first_player(table: Table) -> None:
    """Alice starts a game with Bob: the turn message pings Alice, says it is her turn,
    carries the board as a PNG image and offers her the dice."""
    game = await start_game(table, table.alice, table.bob)

    turn = await table.turn_message(game)
    assert turn.content == f"<@{table.alice.id}>"
    embed = turn.embeds[0]
    assert embed.title == "Zug 1 · alice"
    assert embed.footer.text == "▶ Würfeln · alice"
    assert embed.image.url == "attachment://turn.png"
    assert "alice" in alt_text(turn) and "1.500 €" in alt_text(turn)
    assert turn_actions(turn) == ["🎲 Würfeln"]
    assert set(MANAGE) <= set(buttons(turn))

    [attachment] = turn.attachments
    assert attachment.filename == "turn.png"
    png = await attachment.read()
    assert png.startswith(PNG_SIGNATURE)
    with Image.open(io.BytesIO(png)) as image:
        assert image.format == "PNG"
        assert min(image.size) >= 200


async def test_rolling_shows_the_dice_on_the_turn_message(table: Table) -> None:
    """Alice presses "Würfeln": the same turn message now tells what she threw and where she
    went, and offers her the lot she landed on (no new message is posted)."""
    game = await start_game(table, table.alice, table.bob)
    turn = await table.turn_message(game)
    posted = len(table.bot_messages())
    player = await table.current_member(game)
    assert player is table.alice

    await player.click(turn, label="🎲 Würfeln")

    state = await table.state(game)
    first, second = state.last_dice
    square = state.board.squares[state.players[0].position]
    text = embed_text(table.message(turn.id))
    assert f"🎲 alice würfelt {first} + {second} = {first + second}" in text
    assert f" → {square.name}" in text
    assert f"Kaufen ({square.price} €)" in turn_actions(table.message(turn.id))
    assert len(table.bot_messages()) == posted


# -- buying and auctions ------------------------------------------------------------------


async def test_buying_the_lot_one_landed_on(table: Table) -> None:
    """Alice has thrown 2+3 onto the Südbahnhof; the buy button shows its price. She buys it:
    the turn message tells everyone and she may end her turn."""
    game = await play_position(table, scenario([table.alice, table.bob], steps=[rolled(0, 2, 3)]))
    turn = await table.turn_message(game)
    assert turn_actions(turn) == ["Kaufen (200 €)", "Versteigern"]

    result = await table.alice.click(turn, label="Kaufen (200 €)")

    assert result.followups == []
    turn = table.message(turn.id)
    text = embed_text(turn)
    assert "🏠 alice kauft Südbahnhof für 200 €" in text
    assert "1.300 €" in alt_text(turn)
    assert turn_actions(turn) == ["Zug beenden"]
    state = await table.state(game)
    assert state.owner[SUEDBAHNHOF] == 0
    assert state.players[0].cash == 1300


async def test_a_declined_lot_is_auctioned_among_several_bidders(table: Table) -> None:
    """Alice does not want the Südbahnhof: an auction message opens for everyone. Bob bids
    +10, Carol types 25 in the bid form, Alice raises by 50 to 75, Bob and Carol pass.
    Alice gets the station for 75 €, the auction message shows the result without buttons,
    and Alice's turn goes on."""
    game = await play_position(
        table, scenario([table.alice, table.bob, table.carol], steps=[rolled(0, 2, 3)])
    )
    turn = await table.turn_message(game)

    await table.alice.click(turn, label="Versteigern")

    auction = await table.auction_message(game)
    assert auction.id == table.channel.last_message.id
    assert auction.embeds[0].title == "Versteigerung: Südbahnhof"
    assert "Noch kein Gebot. Mindestgebot 1 €." in embed_text(auction)
    assert "alice (1.500 €), bob (1.500 €), carol (1.500 €)" in embed_text(auction)
    assert "Preis 200 €" in embed_text(auction)  # the list price, and the rents below
    assert buttons(auction) == AUCTION_BUTTONS
    assert "alice kauft Südbahnhof nicht – Versteigerung!" in embed_text(table.message(turn.id))
    assert turn_actions(table.message(turn.id)) == []

    await table.bob.click(auction, label="+10")
    assert "Höchstgebot: 10 € von bob" in embed_text(table.message(auction.id))

    await submit_bid(table.carol, auction, "25")
    assert "Höchstgebot: 25 € von carol" in embed_text(table.message(auction.id))

    await table.alice.click(auction, label="+50")
    assert "Höchstgebot: 75 € von alice" in embed_text(table.message(auction.id))

    await table.bob.click(auction, label="Passen")
    assert buttons(table.message(auction.id)) == AUCTION_BUTTONS
    await table.carol.click(auction, label="Passen")

    auction = table.message(auction.id)
    assert auction.content == "🔨 alice ersteigert Südbahnhof für 75 € · 3 Gebote"
    assert auction.embeds == []
    assert buttons(auction) == []
    # The turn's log tells the auction in one line; the bids were on the auction message.
    text = embed_text(table.message(turn.id))
    assert "🔨 alice ersteigert Südbahnhof für 75 € · 3 Gebote" in text
    for line in ("bob bietet 10 €", "carol bietet 25 €", "alice bietet 75 €", "bob passt"):
        assert line not in text
    assert "1.425 €" in alt_text(table.message(turn.id))
    assert turn_actions(table.message(turn.id)) == ["Zug beenden"]
    state = await table.state(game)
    assert state.owner[SUEDBAHNHOF] == 0
    assert [p.cash for p in state.players] == [1425, 1500, 1500]


async def test_the_bid_form_asks_for_an_amount(table: Table) -> None:
    """Bob opens the "Bieten …" form of an auction: it asks for an amount in German."""
    game = await play_position(table, scenario([table.alice, table.bob], steps=[rolled(0, 2, 3)]))
    await table.alice.click(await table.turn_message(game), label="Versteigern")

    shown = await table.bob.click(await table.auction_message(game), label="Bieten …")

    assert shown.modal["title"] == "Gebot abgeben"
    assert "Betrag" in str(shown.modal["components"])


# -- passing the turn ---------------------------------------------------------------------


async def test_ending_the_turn_posts_a_new_turn_message(table: Table) -> None:
    """Alice is done and presses "Zug beenden": a new turn message pings Bob with a fresh
    board, and Alice's old message keeps its story but loses its buttons."""
    game = await play_position(table, scenario([table.alice, table.bob], may_roll=False))
    old = await table.turn_message(game)
    assert turn_actions(old) == ["Zug beenden"]

    await table.alice.click(old, label="Zug beenden")

    new = await table.turn_message(game)
    assert new.id != old.id
    assert new.id == table.channel.last_message.id
    assert new.content == f"<@{table.bob.id}>"
    assert new.embeds[0].title == "Zug 2 · bob"
    assert turn_actions(new) == ["🎲 Würfeln"]
    assert [a.filename for a in new.attachments] == ["turn.png"]
    assert buttons(table.message(old.id)) == []
    # The finished message still tells Alice's turn, and only the live one says whose move.
    finished = table.message(old.id).embeds[0]
    assert finished.title == "Zug 1 · alice"
    assert finished.footer.text is None
    state = await table.state(game)
    assert (state.current, state.turn, state.phase) == (1, 2, "roll")


# -- jail ---------------------------------------------------------------------------------


def in_jail(**player: object) -> dict[str, object]:
    return {"position": JAIL, "in_jail": True, **player}


async def test_leaving_jail_by_paying_bail(table: Table) -> None:
    """Alice sits in jail. She pays the 50 € bail before throwing: she is free and throws
    normally."""
    game = await play_position(table, scenario([(table.alice, in_jail()), table.bob]))
    turn = await table.turn_message(game)
    assert turn.embeds[0].description == "alice ist am Zug · im Gefängnis"
    assert turn_actions(turn) == ["🎲 Würfeln", "Kaution zahlen (50 €)"]

    await table.alice.click(turn, label="Kaution zahlen (50 €)")

    turn = table.message(turn.id)
    text = embed_text(turn)
    assert "alice zahlt 50 € Kaution" in text
    assert "🔓 alice ist frei" in text
    assert "🔒" not in text
    assert turn_actions(turn) == ["🎲 Würfeln"]
    player = (await table.state(game)).players[0]
    assert (player.in_jail, player.cash, player.position) == (False, 1450, JAIL)


async def test_leaving_jail_with_a_jail_free_card(table: Table) -> None:
    """Alice holds a "Du kommst aus dem Gefängnis frei" card and plays it: she is free for
    nothing, and the card goes back under the Ereignis deck."""
    game = await play_position(
        table, scenario([(table.alice, in_jail(jail_cards=["chance"])), table.bob])
    )
    turn = await table.turn_message(game)
    assert turn_actions(turn) == ["🎲 Würfeln", "Freikarte nutzen", "Kaution zahlen (50 €)"]

    await table.alice.click(turn, label="Freikarte nutzen")

    turn = table.message(turn.id)
    assert "🔓 alice ist frei" in embed_text(turn)
    assert turn_actions(turn) == ["🎲 Würfeln"]
    state = await table.state(game)
    assert (state.players[0].in_jail, state.players[0].jail_cards) == (False, [])
    assert state.players[0].cash == 1500
    assert state.decks["chance"][-1] == 8  # the jail-free card, back at the bottom


async def test_leaving_jail_by_throwing_doubles(table: Table) -> None:
    """Alice throws 3+3 in jail: doubles free her, she moves 6 to the Münchner Straße and
    may buy it – but does not throw again."""
    game = await play_position(
        table, scenario([(table.alice, in_jail()), table.bob], seed=seed_for((3, 3)))
    )
    turn = await table.turn_message(game)

    await table.alice.click(turn, label="🎲 Würfeln")

    turn = table.message(turn.id)
    text = embed_text(turn)
    # One line: the throw, the doubles that free her and where they take her.
    assert "🎲 alice würfelt 3 + 3 = 6 – Pasch! · 🔓 frei → Münchner Straße" in text
    assert turn_actions(turn) == ["Kaufen (180 €)", "Versteigern"]
    player = (await table.state(game)).players[0]
    assert (player.in_jail, player.position) == (False, MUENCHNER_STRASSE)


async def test_a_failed_throw_in_jail_keeps_one_inside(table: Table) -> None:
    """Alice throws 1+2 in jail: no doubles, she stays inside and can only end her turn."""
    game = await play_position(
        table, scenario([(table.alice, in_jail()), table.bob], seed=seed_for((1, 2)))
    )
    turn = await table.turn_message(game)

    await table.alice.click(turn, label="🎲 Würfeln")

    turn = table.message(turn.id)
    text = embed_text(turn)
    assert "🎲 alice würfelt 1 + 2 = 3 · kein Pasch, bleibt im Gefängnis" in text
    assert turn_actions(turn) == ["Zug beenden"]
    player = (await table.state(game)).players[0]
    assert (player.in_jail, player.jail_turns, player.cash) == (True, 1, 1500)


async def test_the_third_turn_in_jail_offers_no_bail(table: Table) -> None:
    """Alice failed twice to throw doubles in jail: in her third turn she must throw, so
    the bail button is gone."""
    game = await play_position(table, scenario([(table.alice, in_jail(jail_turns=2)), table.bob]))

    assert turn_actions(await table.turn_message(game)) == ["🎲 Würfeln"]


async def test_the_third_failed_throw_pays_the_fine_and_moves(table: Table) -> None:
    """Alice's third attempt, 4+5, is no doubles either: she pays the 50 € fine, leaves jail
    and moves 9 to the Berliner Straße at once."""
    game = await play_position(
        table, scenario([(table.alice, in_jail(jail_turns=2)), table.bob], seed=seed_for((4, 5)))
    )
    turn = await table.turn_message(game)

    await table.alice.click(turn, label="🎲 Würfeln")

    turn = table.message(turn.id)
    text = embed_text(turn)
    assert "alice zahlt 50 € Strafe und verlässt das Gefängnis" in text
    assert "➡️ alice zieht auf Berliner Straße" in text
    assert turn_actions(turn) == ["Kaufen (200 €)", "Versteigern"]
    player = (await table.state(game)).players[0]
    assert (player.in_jail, player.cash, player.position) == (False, 1450, BERLINER_STRASSE)


# -- debts and bankruptcy -----------------------------------------------------------------


async def test_a_debt_is_paid_by_mortgaging_from_the_menu(table: Table) -> None:
    """Alice (50 € cash) lands on the 200 € income tax. She may not go bankrupt while she
    owns the Schlossallee; in the private "Bauen & Hypotheken" menu she mortgages it, and
    the tax is paid from the 200 € mortgage."""
    game = await play_position(
        table,
        scenario(
            [(table.alice, {"cash": 50}), table.bob],
            lots={"Schlossallee": {"owner": 0}},
            steps=[rolled(0, 1, 3)],
        ),
    )
    turn = await table.turn_message(game)
    assert turn.embeds[0].footer.text == "▶ Schulden begleichen · alice"
    assert turn_actions(turn) == []

    await mortgage_from_menu(table, table.alice, turn, "Schlossallee")

    turn = table.message(turn.id)
    text = embed_text(turn)
    assert "🏦 alice beleiht Schlossallee (200 €)" in text
    assert "alice zahlt 200 € Steuern" in text
    assert "✅ alice hat die Schuld beglichen" in text
    assert turn_actions(turn) == ["Zug beenden"]
    state = await table.state(game)
    assert state.mortgaged[SCHLOSSALLEE]
    assert (state.players[0].cash, state.debts, state.phase) == (50, [], "end")
    assert [m for m in table.bot_messages() if "Schlossallee" in m.content] == []


async def test_bankruptcy_to_a_player(table: Table) -> None:
    """Alice (100 €, a mortgaged Südbahnhof and the Badstraße) lands on Bob's Schlossallee
    with a hotel: 2000 € rent she can never raise. She declares bankruptcy to Bob, who gets
    her cash and lots, keeps the station's mortgage (paying 10 %), and the turn passes to
    Bob while Carol plays on."""
    game = await play_position(
        table,
        scenario(
            [(table.alice, {"cash": 100, "position": 35}), table.bob, table.carol],
            lots={
                "Südbahnhof": {"owner": 0, "mortgaged": True},
                "Badstraße": {"owner": 0},
                "Schlossallee": {"owner": 1, "hotel": True},
            },
            steps=[rolled(0, 1, 3)],
        ),
    )
    turn = await table.turn_message(game)
    assert turn_actions(turn) == ["Bankrott erklären"]

    await table.alice.click(turn, label="Bankrott erklären")

    turn = table.message(turn.id)
    text = embed_text(turn)
    assert "💥 alice ist bankrott" in text
    assert turn.embeds[0].footer.text == "▶ Hypothek ablösen oder behalten · bob"
    assert turn_actions(turn)[0] == "Hypothek behalten (10 %)"
    assert "Hypothek ablösen" in buttons(turn)

    await table.bob.click(turn, label="Hypothek behalten (10 %)")

    assert "bob behält die Hypothek auf Südbahnhof" in embed_text(table.message(turn.id))
    assert buttons(table.message(turn.id)) == []
    new = await table.turn_message(game)
    assert new.content == f"<@{table.bob.id}>"
    assert new.embeds[0].title == "Zug 2 · bob"
    assert turn_actions(new) == ["🎲 Würfeln"]
    state = await table.state(game)
    assert state.players[0].bankrupt
    assert state.owner[SUEDBAHNHOF] == state.owner[BADSTRASSE] == 1
    assert state.players[1].cash == 1500 + 100 - 10


async def test_bankruptcy_to_the_bank_auctions_the_lots(table: Table) -> None:
    """Alice (10 € cash, Badstraße and a mortgaged Turmstraße) cannot pay the 200 € income
    tax and goes bankrupt to the bank. The bank auctions her lots one after another: Bob gets
    the Badstraße for 10 €, Carol the Turmstraße for 1 €; then it is Bob's turn."""
    game = await play_position(
        table,
        scenario(
            [(table.alice, {"cash": 10}), table.bob, table.carol],
            lots={"Badstraße": {"owner": 0}, "Turmstraße": {"owner": 0, "mortgaged": True}},
            steps=[rolled(0, 1, 3)],
        ),
    )
    turn = await table.turn_message(game)

    await table.alice.click(turn, label="Bankrott erklären")

    assert "💥 alice ist bankrott" in embed_text(table.message(turn.id))
    first = await table.auction_message(game)
    assert first.embeds[0].title == "Versteigerung: Badstraße"
    assert "bob (1.500 €), carol (1.500 €)" in embed_text(first)
    await table.bob.click(first, label="+10")
    await table.carol.click(first, label="Passen")
    assert table.message(first.id).content == "🔨 bob ersteigert Badstraße für 10 € · 1 Gebot"
    assert buttons(table.message(first.id)) == []

    second = await table.auction_message(game)
    assert second.id != first.id
    assert second.embeds[0].title == "Versteigerung: Turmstraße"
    await table.carol.click(second, label="+1")
    await table.bob.click(second, label="Passen")
    assert table.message(second.id).content == "🔨 carol ersteigert Turmstraße für 1 € · 1 Gebot"

    new = await table.turn_message(game)
    assert new.id == table.channel.last_message.id
    assert new.embeds[0].title == "Zug 2 · bob"
    state = await table.state(game)
    assert (state.owner[BADSTRASSE], state.owner[TURMSTRASSE]) == (1, 2)
    assert not state.mortgaged[TURMSTRASSE]
    assert [p.cash for p in state.players] == [0, 1490, 1499]


async def test_the_last_player_standing_wins(table: Table) -> None:
    """Alice goes bankrupt to Bob in a game of two: the game is over. Everyone sees who won
    and a wealth table with the board; the old turn message has no buttons left and the
    channel is free for a new game."""
    game = await play_position(
        table,
        scenario(
            [(table.alice, {"cash": 100, "position": 35}), table.bob],
            lots={"Badstraße": {"owner": 0}, "Schlossallee": {"owner": 1, "hotel": True}},
            steps=[rolled(0, 1, 3)],
        ),
    )
    turn = await table.turn_message(game)

    await table.alice.click(turn, label="Bankrott erklären")

    final = table.channel.last_message
    assert final.id != turn.id
    assert final.embeds[0].title == "🏆 bob gewinnt!"
    summary = final.embeds[0].description
    assert summary.startswith("Nur ein Spieler ist übrig.")
    # 1600 cash + Schlossallee 400 + hotel (4 houses and the hotel, 5 x 200) + Badstraße 60
    assert "1. bob: 3.060 €" in summary
    assert "– ~~alice~~ (bankrott)" in summary
    # The recap comes with the end (tests/discord/test_history.py looks at it closely).
    assert [a.filename for a in final.attachments] == ["board.png", f"recap-{game}.png"]
    assert final.embeds[1].title == f"📈 Rückblick auf Spiel #{game}"
    assert buttons(final) == []
    old = table.message(turn.id)
    assert old.embeds[0].title == "Zug 1 · alice"  # the last turn keeps its own title
    assert "🏆 bob gewinnt!" in old.embeds[0].description
    assert buttons(old) == []
    state = await table.state(game)
    assert (state.phase, state.winner, state.end_reason) == ("over", 1, "last_player")
    assert await table.bot.store.game_in_channel(table.channel.id) is None
    await open_lobby(table, table.bob, language="de")
    assert table.channel.last_message.embeds[0].title == "MONOPOLY – Warteraum"


# -- the host ends or thins out the game --------------------------------------------------


async def test_the_host_ends_the_game_and_the_richest_wins(table: Table) -> None:
    """Late at night Alice (the host) ends the game with /monopoly end (richest wins): Bob,
    with more cash, wins; everyone sees the wealth table, and the buttons are gone."""
    game = await play_position(
        table,
        scenario(
            [(table.alice, {"cash": 900}), (table.bob, {"cash": 1200})],
            lots={"Badstraße": {"owner": 0}},
        ),
    )
    turn = await table.turn_message(game)

    await table.alice.slash(table.channel, "monopoly end", mode="wealth")

    final = table.channel.last_message
    assert final.embeds[0].title == "🏆 bob gewinnt!"
    summary = final.embeds[0].description
    assert summary.splitlines() == [
        "Der Gastgeber hat das Spiel beendet; das Vermögen entscheidet.",
        "",
        "1. bob: 1.200 €",
        "2. alice: 960 €",
    ]
    assert "🏆 Spiel beendet – bob ist am reichsten" in embed_text(table.message(turn.id))
    assert buttons(table.message(turn.id)) == []
    state = await table.state(game)
    assert (state.phase, state.winner, state.end_reason) == ("over", 1, "ended_by_host")
    assert await table.bot.store.game_in_channel(table.channel.id) is None


async def test_the_host_abandons_the_game(table: Table) -> None:
    """Alice ends the game with "abandon": nobody wins, and the summary says so."""
    game = await play_position(table, scenario([table.alice, table.bob]))

    await table.alice.slash(table.channel, "monopoly end", mode="abandon")

    final = table.channel.last_message
    assert final.embeds[0].title == "Das Spiel wurde abgebrochen"
    assert final.embeds[0].description.startswith("Der Gastgeber hat das Spiel abgebrochen.")
    state = await table.state(game)
    assert (state.phase, state.winner) == ("over", None)


@pytest.mark.parametrize("command", ["end", "kick"])
async def test_host_commands_are_answered(table: Table, command: str) -> None:
    """Alice uses /monopoly end or /monopoly kick: besides the game's messages, her command
    gets an answer instead of hanging in "MONOPOLY is thinking…"."""
    await play_position(table, scenario([table.alice, table.bob, table.carol]))
    options = {"member": table.carol} if command == "kick" else {}

    await table.alice.slash(table.channel, f"monopoly {command}", **options)

    assert still_thinking(table) == []


async def test_the_host_kicks_a_player(table: Table) -> None:
    """Carol has left for good; Alice (the host) removes her with /monopoly kick. Carol's
    Badstraße goes to the bank, which auctions it, and the game goes on without her."""
    game = await play_position(
        table,
        scenario([table.alice, table.bob, table.carol], lots={"Badstraße": {"owner": 2}}),
    )
    turn = await table.turn_message(game)

    await table.alice.slash(table.channel, "monopoly kick", member=table.carol)

    text = embed_text(table.message(turn.id))
    assert "carol wurde aus dem Spiel entfernt" in text
    auction = await table.auction_message(game)
    assert auction.embeds[0].title == "Versteigerung: Badstraße"
    assert "alice (1.500 €), bob (1.500 €)" in embed_text(auction)
    state = await table.state(game)
    assert state.players[2].bankrupt
    assert state.owner[BADSTRASSE] == -1
    assert state.phase == "auction"


async def test_kicking_the_only_opponent_ends_the_game(table: Table) -> None:
    """In a game of two, Alice kicks Bob: she is the last player and wins."""
    game = await play_position(table, scenario([table.alice, table.bob]))

    await table.alice.slash(table.channel, "monopoly kick", member=table.bob)

    final = table.channel.last_message
    assert final.embeds[0].title == "🏆 alice gewinnt!"
    assert "– ~~bob~~ (bankrott)" in final.embeds[0].description
    assert (await table.state(game)).winner == 0


# -- another preset -----------------------------------------------------------------------


def fast_game(table: Table, **position: object) -> dict[str, object]:
    """Preset "fast" (the game ends with the first bankruptcy): Alice and Carol at the
    start, Bob with 100 € at the Hauptbahnhof, Carol owning the dark-blue group with
    hotels."""
    return scenario(
        [table.alice, (table.bob, {"cash": 100, "position": 35}), table.carol],
        preset="fast",
        lots={
            "Parkstraße": {"owner": 2, "hotel": True},
            "Schlossallee": {"owner": 2, "hotel": True},
            "Badstraße": {"owner": 0},
        },
        **position,
    )


async def test_fast_rules_end_the_game_at_the_first_bankruptcy(table: Table) -> None:
    """Under the "fast" rules Bob has thrown 1+3 onto Carol's Schlossallee (2000 € rent) and
    declares bankruptcy: that ends the game at once and wealth decides – Carol wins ahead
    of Alice."""
    game = await play_position(table, fast_game(table, current=1, steps=[rolled(1, 1, 3)]))
    turn = await table.turn_message(game)

    await table.bob.click(turn, label="Bankrott erklären")

    final = table.channel.last_message
    assert final.embeds[0].title == "🏆 carol gewinnt!"
    summary = final.embeds[0].description.splitlines()
    assert summary[0] == "Das Spiel endet mit dem Bankrott; das Vermögen entscheidet."
    # Carol: 1500 + 100 from Bob + two lots (750) + two hotels at 4 x 200 each
    assert summary[2:] == ["1. carol: 3.950 €", "2. alice: 1.560 €", "– ~~bob~~ (bankrott)"]
    state = await table.state(game)
    assert (state.end_reason, state.winner) == ("bankruptcies", 2)
    assert buttons(table.message(turn.id)) == []


async def test_a_fast_game_played_turn_by_turn_to_its_end(table: Table) -> None:
    """Under the "fast" rules: Alice throws 2+3, buys the Südbahnhof and ends her turn; Bob
    throws 1+3 onto Carol's Schlossallee, cannot pay and goes bankrupt – the game is over
    and Carol, the richest, wins."""
    game = await play_position(table, fast_game(table, seed=seed_for((2, 3), (1, 3))))

    await table.alice.click(await table.turn_message(game), label="🎲 Würfeln")
    turn = await table.turn_message(game)
    await table.alice.click(turn, label="Kaufen (200 €)")
    await table.alice.click(turn, label="Zug beenden")
    turn = await table.turn_message(game)
    assert turn.embeds[0].title == "Zug 2 · bob"
    await table.bob.click(turn, label="🎲 Würfeln")
    await table.bob.click(turn, label="Bankrott erklären")

    final = table.channel.last_message
    assert final.embeds[0].title == "🏆 carol gewinnt!"
    state = await table.state(game)
    assert (state.end_reason, state.winner) == ("bankruptcies", 2)
    assert state.owner[SUEDBAHNHOF] == 0


async def test_the_engine_and_the_bot_agree_on_a_bought_lot(table: Table) -> None:
    """What Alice's click stores is exactly what the rules engine makes of the same action
    (the bot adds nothing and loses nothing on the way)."""
    game = await play_position(table, scenario([table.alice, table.bob], steps=[rolled(0, 2, 3)]))
    expected = await table.state(game)
    apply_action(expected, {"type": "buy", "player": 0})

    await table.alice.click(await table.turn_message(game), label="Kaufen (200 €)")

    assert await table.state_json(game) == expected.to_json()
