"""What players get wrong: other people's buttons, outdated buttons, double clicks, bad bids,
commands in the wrong place, host commands by guests. The bot refuses privately and politely,
and the game stays exactly as it was."""

from __future__ import annotations

import pytest

from tests.discord.helpers import (
    JAIL,
    Table,
    buttons,
    click_as_shown,
    double_click,
    embed_text,
    open_lobby,
    play_position,
    private_reply,
    public_followups,
    rolled,
    scenario,
    seed_for,
    snapshot,
    start_game,
    submit_bid,
    turn_actions,
)

pytest_plugins = ["tests.discord.helpers"]

NOT_YOUR_TURN = "Du bist nicht am Zug."
ALREADY_DONE = "Das wurde schon erledigt – der Knopf ist veraltet."
NO_GAME_HERE = "In diesem Kanal läuft kein Spiel. Starte eins mit `/monopoly starten`."


async def test_someone_else_cannot_roll(table: Table) -> None:
    """It is Alice's turn. Bob presses her "Würfeln" button, and Dave, who does not even
    play, tries too: both are told privately, and nothing changes."""
    game = await start_game(table, table.alice, table.bob)
    turn = await table.turn_message(game)
    before = await table.state_json(game)

    bob = await table.bob.click(turn, label="🎲 Würfeln")
    dave = await table.dave.click(turn, label="🎲 Würfeln")

    assert private_reply(bob) == NOT_YOUR_TURN
    assert private_reply(dave) == "Du spielst in diesem Spiel nicht mit."
    assert public_followups(bob) == public_followups(dave) == []
    assert await table.state_json(game) == before
    assert embed_text(table.message(turn.id)) == embed_text(turn)
    assert buttons(table.message(turn.id)) == buttons(turn)


async def test_someone_else_cannot_buy_or_end_the_turn(table: Table) -> None:
    """Alice stands on the Südbahnhof. Bob tries to buy it for himself, later to end her
    turn: refused both times."""
    game = await play_position(table, scenario([table.alice, table.bob], steps=[rolled(0, 2, 3)]))
    turn = await table.turn_message(game)
    before = await table.state_json(game)

    buy = await table.bob.click(turn, label="Kaufen (200 €)")

    assert private_reply(buy) == NOT_YOUR_TURN
    assert await table.state_json(game) == before
    await table.alice.click(turn, label="Kaufen (200 €)")
    before = await table.state_json(game)
    end = await table.bob.click(turn, label="Zug beenden")
    assert private_reply(end) == NOT_YOUR_TURN
    assert await table.state_json(game) == before


async def test_a_button_of_an_old_turn_message_is_refused(table: Table) -> None:
    """Alice ends her turn, but her client still shows the old turn message and she presses
    "Zug beenden" there once more: she is told the button is out of date, and Bob keeps his
    turn."""
    game = await play_position(table, scenario([table.alice, table.bob], may_roll=False))
    old = await table.turn_message(game)
    as_shown = snapshot(table, old)
    await table.alice.click(old, label="Zug beenden")
    assert buttons(table.message(old.id)) == []
    before = await table.state_json(game)

    stale = await click_as_shown(table, table.alice, as_shown, "Zug beenden")

    assert private_reply(stale) == ALREADY_DONE
    assert await table.state_json(game) == before
    state = await table.state(game)
    assert (state.current, state.turn) == (1, 2)


async def test_a_double_click_on_roll_throws_once(table: Table) -> None:
    """Alice, in jail, clicks "Würfeln" twice in quick succession (both clicks reach the bot
    before it has answered): she throws once – 1+2, she stays inside – and the second click
    is answered with "already done"."""
    game = await play_position(
        table,
        scenario(
            [(table.alice, {"position": JAIL, "in_jail": True}), table.bob],
            seed=seed_for((1, 2), (1, 2)),
        ),
    )
    turn = await table.turn_message(game)
    seq = (await table.state(game)).seq

    first, second = await double_click(table, table.alice, turn, "🎲 Würfeln")

    said = [[f.content for f in click.followups if f.ephemeral] for click in (first, second)]
    assert sorted(said) == [[], [ALREADY_DONE]]
    state = await table.state(game)
    assert state.seq == seq + 1
    assert state.players[0].jail_turns == 1
    text = embed_text(table.message(turn.id))
    assert text.count("🎲 alice würfelt") == 1
    assert turn_actions(table.message(turn.id)) == ["Zug beenden"]


# -- bids ---------------------------------------------------------------------------------


async def auction_with_a_bid(table: Table, *, carol_cash: int = 1500) -> tuple[int, object]:
    """Alice declined the Südbahnhof; Bob leads the auction with 10 €."""
    game = await play_position(
        table,
        scenario(
            [table.alice, table.bob, (table.carol, {"cash": carol_cash})],
            steps=[rolled(0, 2, 3)],
        ),
    )
    await table.alice.click(await table.turn_message(game), label="Versteigern")
    auction = await table.auction_message(game)
    await table.bob.click(auction, label="+10")
    return game, auction


async def test_a_bid_below_the_minimum_is_refused(table: Table) -> None:
    """Bob leads with 10 €; Carol types 5 into the bid form: too low, at least 11 (the
    minimum raise is 1 €). The auction is unchanged."""
    game, auction = await auction_with_a_bid(table)
    before = await table.state_json(game)

    result = await submit_bid(table.carol, auction, "5")

    reply = private_reply(result)
    assert reply.startswith("Das Gebot ist zu niedrig (mindestens 11")
    assert await table.state_json(game) == before
    assert "Höchstgebot: 10 € von bob" in embed_text(table.message(auction.id))


async def test_a_bid_above_ones_cash_is_refused(table: Table) -> None:
    """Carol has 300 € and types 2000: bids must be covered by cash, so it is refused."""
    game, auction = await auction_with_a_bid(table, carol_cash=300)
    before = await table.state_json(game)

    result = await submit_bid(table.carol, auction, "2000")

    reply = private_reply(result)
    assert reply.startswith("Du kannst nicht mehr bieten, als du bar hast (")
    assert "300" in reply
    assert await table.state_json(game) == before


async def test_words_in_the_bid_form_are_refused(table: Table) -> None:
    """Carol writes "zwölf" into the bid form: the bot says that is not a number."""
    game, auction = await auction_with_a_bid(table)
    before = await table.state_json(game)

    result = await submit_bid(table.carol, auction, "zwölf")

    assert private_reply(result) == "„zwölf“ ist keine Zahl."
    assert await table.state_json(game) == before


async def test_bids_written_with_thousands_dots_are_understood(table: Table) -> None:
    """Carol writes "1.000" (German thousands dot): that is a bid of 1000 €."""
    game, auction = await auction_with_a_bid(table)

    await submit_bid(table.carol, auction, "1.000")

    assert "Höchstgebot: 1.000 € von carol" in embed_text(table.message(auction.id))


async def test_a_bid_written_like_the_bot_writes_amounts_is_accepted(table: Table) -> None:
    """The auction shows amounts like "10 €"; Carol types her bid the same way, "80 €"."""
    game, auction = await auction_with_a_bid(table)

    result = await submit_bid(table.carol, auction, "80 €")

    assert result.followups == [] and not result.ephemeral
    assert "Höchstgebot: 80 € von carol" in embed_text(table.message(auction.id))


async def test_auction_buttons_refuse_the_leader_and_those_who_passed(table: Table) -> None:
    """Bob, already leading, clicks +1 against himself; Carol passes and then tries to bid
    after all. Both are refused privately and the auction stays as it was."""
    game, auction = await auction_with_a_bid(table)
    leader = await table.bob.click(auction, label="+1")
    assert private_reply(leader) == "Du hast schon das Höchstgebot."
    await table.carol.click(auction, label="Passen")
    before = await table.state_json(game)

    late = await table.carol.click(auction, label="+50")

    assert private_reply(late) == "Du hast bei dieser Versteigerung schon gepasst."
    assert await table.state_json(game) == before


# -- commands in the wrong place or by the wrong person -----------------------------------


@pytest.mark.parametrize("command", ["status", "board", "players", "rules", "end"])
async def test_commands_in_a_channel_without_a_game(table: Table, command: str) -> None:
    """Bob types a game command in #allgemein, where no game runs: a private hint to start
    one with /monopoly start."""
    elsewhere = table.guild.create_text_channel("allgemein")
    await start_game(table, table.alice, table.bob)  # a game elsewhere does not count

    result = await table.bob.slash(elsewhere, f"monopoly {command}")

    assert result.ephemeral
    assert result.response.content == NO_GAME_HERE
    assert [m for m in elsewhere.history() if not m.flags.ephemeral] == []


async def test_game_commands_in_a_lobby_wait_for_the_start(table: Table) -> None:
    """Bob asks for his status while the lobby is still open: the game has not started."""
    await open_lobby(table, table.alice, language="de")

    result = await table.bob.slash(table.channel, "monopoly status")

    assert private_reply(result) == "Das Spiel hat noch nicht begonnen."


async def test_only_the_host_can_kick(table: Table) -> None:
    """Bob wants Carol out of Alice's game and tries /monopoly kick: only the host may."""
    game = await play_position(table, scenario([table.alice, table.bob, table.carol]))
    before = await table.state_json(game)

    result = await table.bob.slash(table.channel, "monopoly kick", member=table.carol)

    assert private_reply(result) == "Das darf nur der Gastgeber."
    assert await table.state_json(game) == before
    ended = await table.bob.slash(table.channel, "monopoly end")
    assert private_reply(ended) == "Das darf nur der Gastgeber."
    assert await table.state_json(game) == before


async def test_the_host_cannot_kick_someone_who_does_not_play(table: Table) -> None:
    """Alice tries to kick Dave, who is not in the game: she is told so."""
    game = await play_position(table, scenario([table.alice, table.bob]))
    before = await table.state_json(game)

    result = await table.alice.slash(table.channel, "monopoly kick", member=table.dave)

    assert private_reply(result) == "Du spielst in diesem Spiel nicht mit."
    assert await table.state_json(game) == before


async def test_a_refused_kick_stays_private(table: Table) -> None:
    """During an auction Alice tries to kick Carol; the rules make her wait until the
    auction is over. Only Alice should read that."""
    game = await play_position(
        table,
        scenario([table.alice, table.bob, table.carol], steps=[rolled(0, 2, 3)]),
    )
    await table.alice.click(await table.turn_message(game), label="Versteigern")
    before = await table.state_json(game)

    result = await table.alice.slash(table.channel, "monopoly kick", member=table.carol)

    assert private_reply(result) == "Warte, bis die Versteigerung vorbei ist."
    assert await table.state_json(game) == before
    seen_by_bob = [m.content for m in table.channel.history(viewer=table.bob)]
    assert "Warte, bis die Versteigerung vorbei ist." not in seen_by_bob


async def test_a_removed_player_is_told_in_words(table: Table) -> None:
    """Carol was kicked; the bank auctions her Badstraße and she tries to bid +10 for it. She
    should get a sentence, not an internal error code."""
    game = await play_position(
        table,
        scenario([table.alice, table.bob, table.carol], lots={"Badstraße": {"owner": 2}}),
    )
    await table.alice.slash(table.channel, "monopoly kick", member=table.carol)
    auction = await table.auction_message(game)
    before = await table.state_json(game)

    result = await table.carol.click(auction, label="+10")

    reply = private_reply(result)
    assert await table.state_json(game) == before
    assert "player_not_in_game" not in reply
    assert reply.startswith(("Du ", "carol "))


async def test_confirming_to_give_up_after_the_game_moved_on(table: Table) -> None:
    """Bob clicks "Aufgeben" and thinks it over while Alice ends her turn; then he confirms.
    He should be out of the game, not told that it was "already done"."""
    game = await play_position(
        table, scenario([table.alice, table.bob, table.carol], may_roll=False)
    )
    turn = await table.turn_message(game)
    confirm = await table.bob.click(turn, label="Aufgeben")
    assert confirm.response.content.startswith("Willst du wirklich aufgeben?")
    await table.alice.click(turn, label="Zug beenden")

    result = await table.bob.click(confirm.response, label="Ja, aufgeben")

    assert ALREADY_DONE not in [f.content for f in result.followups]
    assert (await table.state(game)).players[1].bankrupt
