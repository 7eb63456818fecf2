"""The bot restarts in the middle of a game (an update, a crash): the messages in the channel
stay, their buttons keep working, and the game goes on exactly as it would have."""

from __future__ import annotations

from pathlib import Path

from bot.engine.game import apply_action
from tests.discord.helpers import (
    JAIL,
    SUEDBAHNHOF,
    Table,
    buttons,
    embed_text,
    open_lobby,
    play_position,
    restart,
    rolled,
    scenario,
    seed_for,
    submit_bid,
    turn_actions,
)

pytest_plugins = ["tests.discord.helpers"]


async def test_the_turn_message_works_after_a_restart(table: Table, database: Path) -> None:
    """Alice sits in jail when the bot restarts. She presses "Würfeln" on the turn message
    posted before the restart: she throws 1+2 – the same throw as without the restart – stays
    inside, ends her turn, and Bob's turn message follows."""
    game = await play_position(
        table,
        scenario(
            [(table.alice, {"position": JAIL, "in_jail": True}), table.bob], seed=seed_for((1, 2))
        ),
    )
    turn = await table.turn_message(game)
    expected = await table.state(game)
    apply_action(expected, {"type": "roll", "player": 0})
    old_bot = table.bot

    new_bot = await restart(table, database)

    assert new_bot is not old_bot
    await table.alice.click(turn, label="🎲 Würfeln")
    assert await table.state_json(game) == expected.to_json()
    text = embed_text(table.message(turn.id))
    assert "🎲 alice würfelt 1 + 2 = 3 · kein Pasch, bleibt im Gefängnis" in text

    await table.alice.click(turn, label="Zug beenden")
    new = await table.turn_message(game)
    assert new.id != turn.id
    assert new.embeds[0].title == "Zug 2 · bob"
    assert buttons(table.message(turn.id)) == []


async def test_a_purchase_after_a_restart_is_the_same_as_without(
    table: Table, database: Path
) -> None:
    """Alice stands on the Südbahnhof when the bot restarts; she buys it with the button of
    the old message. The stored game is exactly what the rules engine makes of the purchase."""
    game = await play_position(table, scenario([table.alice, table.bob], steps=[rolled(0, 2, 3)]))
    turn = await table.turn_message(game)
    expected = await table.state(game)
    apply_action(expected, {"type": "buy", "player": 0})

    await restart(table, database)
    await table.alice.click(turn, label="Kaufen (200 €)")

    assert await table.state_json(game) == expected.to_json()
    assert "🏠 alice kauft Südbahnhof für 200 €" in embed_text(table.message(turn.id))
    assert (await table.state(game)).owner[SUEDBAHNHOF] == 0


async def test_an_auction_goes_on_after_a_restart(table: Table, database: Path) -> None:
    """A restart in the middle of an auction: Bob raises with the old auction message's
    button, Carol bids through the form, and the auction closes as usual."""
    game = await play_position(
        table, scenario([table.alice, table.bob, table.carol], steps=[rolled(0, 2, 3)])
    )
    await table.alice.click(await table.turn_message(game), label="Versteigern")
    auction = await table.auction_message(game)

    await restart(table, database)
    await table.bob.click(auction, label="+10")
    await submit_bid(table.carol, auction, "30")
    await table.alice.click(auction, label="Passen")
    await table.bob.click(auction, label="Passen")

    assert table.message(auction.id).content == "🔨 carol ersteigert Südbahnhof für 30 € · 2 Gebote"
    assert buttons(table.message(auction.id)) == []
    assert (await table.state(game)).owner[SUEDBAHNHOF] == 2


async def test_a_lobby_survives_a_restart(table: Table, database: Path) -> None:
    """Alice opened a lobby before the restart; afterwards Bob joins with its button and
    Alice starts the game."""
    await open_lobby(table, table.alice, language="de")
    lobby = table.channel.last_message

    await restart(table, database)
    await table.bob.click(lobby, label="Mitspielen")
    assert "Spieler (2)" in embed_text(table.message(lobby.id))
    await table.alice.click(lobby, label="Spiel starten")

    state = await table.state()
    assert [p.name for p in state.players] == ["alice", "bob"]
    assert turn_actions(table.channel.last_message) == ["🎲 Würfeln"]


async def test_two_restarts_in_a_row(table: Table, database: Path) -> None:
    """The bot restarts twice while Alice decides; then she declines the lot and the auction
    opens as usual."""
    game = await play_position(table, scenario([table.alice, table.bob], steps=[rolled(0, 2, 3)]))
    turn = await table.turn_message(game)

    await restart(table, database)
    await restart(table, database)
    await table.alice.click(turn, label="Versteigern")

    auction = await table.auction_message(game)
    assert auction.embeds[0].title == "Versteigerung: Südbahnhof"
    assert (await table.state(game)).phase == "auction"
