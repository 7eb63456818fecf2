"""The lobby: ``/monopoly start``, joining and leaving, starting, closing, the rules."""

from __future__ import annotations

import discord

from tests.discord.helpers import (
    Table,
    buttons,
    embed_text,
    open_lobby,
    private_reply,
    public_followups,
    start_game,
)

pytest_plugins = ["tests.discord.helpers"]

GERMAN_LOBBY = [
    "Mitspielen",
    "Verlassen",
    "Regeln",
    "Hausregeln",
    "Spiel starten",
    "🍀 Glücksformel",
]
ENGLISH_LOBBY = ["Join", "Leave", "Rules", "House rules", "Start game", "🍀 Lucky words"]


async def test_start_opens_a_german_lobby_for_a_german_client(table: Table) -> None:
    """Alice's Discord runs in German; she types /monopoly start without options and gets a
    German lobby with her as host (👑) and the join/leave/rules/start buttons."""

    result = await open_lobby(table, table.alice)

    assert not result.ephemeral
    lobby = table.channel.last_message
    assert lobby.embeds[0].title == "MONOPOLY – Warteraum"
    text = embed_text(lobby)
    assert "Spieler (1)" in text
    assert f"1. <@{table.alice.id}> 👑" in text
    assert "Regelwerk: Klassisch (Hasbro 2001)" in text
    assert buttons(lobby) == GERMAN_LOBBY
    row = await table.row()
    assert row.state is None
    assert row.settings["lang"] == "de"
    assert row.settings["host"] == table.alice.id


async def test_language_option_english_gives_an_english_lobby(table: Table) -> None:
    """Alice (German client) opens the lobby with language English for an international
    group: the lobby and the game are in English."""

    await open_lobby(table, table.alice, language="en")

    lobby = table.channel.last_message
    assert lobby.embeds[0].title == "MONOPOLY – lobby"
    assert "Rules: Classic (Hasbro 2001)" in embed_text(lobby)
    assert buttons(lobby) == ENGLISH_LOBBY
    assert (await table.row()).settings["lang"] == "en"


async def test_an_english_client_gets_an_english_lobby_by_default(table: Table) -> None:
    """Bob's client is in American English (simcord's default locale "en-US"): without the
    language option his lobby is English."""
    table.set_locale(table.bob, "en-US")
    await open_lobby(table, table.bob)

    assert table.channel.last_message.embeds[0].title == "MONOPOLY – lobby"
    assert (await table.row()).settings["lang"] == "en"


async def test_players_join_and_leave(table: Table) -> None:
    """Bob and Carol join, Bob leaves again: the lobby's player list follows. Joining twice,
    leaving without having joined and the host leaving are refused privately."""
    await open_lobby(table, table.alice, language="de")
    lobby = table.channel.last_message

    await table.bob.click(lobby, label="Mitspielen")
    await table.carol.click(lobby, label="Mitspielen")
    text = embed_text(table.message(lobby.id))
    assert "Spieler (3)" in text
    assert f"2. <@{table.bob.id}>" in text
    assert f"3. <@{table.carol.id}>" in text

    again = await table.bob.click(lobby, label="Mitspielen")
    assert private_reply(again) == "Du bist schon dabei."

    await table.bob.click(lobby, label="Verlassen")
    text = embed_text(table.message(lobby.id))
    assert "Spieler (2)" in text
    assert f"<@{table.bob.id}>" not in text
    assert f"2. <@{table.carol.id}>" in text

    stranger = await table.dave.click(lobby, label="Verlassen")
    assert private_reply(stranger) == "Du bist nicht im Warteraum."
    host = await table.alice.click(lobby, label="Verlassen")
    assert private_reply(host).startswith("Der Gastgeber kann nicht gehen")
    players = (await table.row()).settings["players"]
    assert [p["id"] for p in players] == [table.alice.id, table.carol.id]


async def test_a_full_lobby_takes_nobody_else(table: Table) -> None:
    """Alice opens a lobby for two; Bob takes the second seat and Carol is told it is full."""
    await open_lobby(table, table.alice, language="de", max_players=2)
    lobby = table.channel.last_message
    await table.bob.click(lobby, label="Mitspielen")

    full = await table.carol.click(lobby, label="Mitspielen")

    assert private_reply(full) == "Der Warteraum ist voll (2)."
    assert len((await table.row()).settings["players"]) == 2


async def test_the_host_starts_the_game(table: Table) -> None:
    """Alice, Bob and Carol are in the lobby; Alice presses Start: the lobby loses its
    buttons, a turn message follows, and the seats are in joining order."""
    game = await start_game(table, table.alice, table.bob, table.carol)

    lobby, turn = table.bot_messages()[-2:]
    assert buttons(lobby) == []
    assert turn.id == (await table.turn_message(game)).id
    assert "🎲 Würfeln" in buttons(turn)
    state = await table.state(game)
    assert [p.name for p in state.players] == ["alice", "bob", "carol"]
    assert [p.id for p in state.players] == [
        str(m.id) for m in (table.alice, table.bob, table.carol)
    ]
    assert state.phase == "roll"


async def test_only_the_host_can_start(table: Table) -> None:
    """Bob joined Alice's lobby and presses Start himself: only he is told that the host
    starts; the lobby stays open with its buttons."""
    await open_lobby(table, table.alice, language="de")
    lobby = table.channel.last_message
    await table.bob.click(lobby, label="Mitspielen")

    result = await table.bob.click(lobby, label="Spiel starten")

    assert private_reply(result) == "Das darf nur der Gastgeber."
    assert public_followups(result) == []
    assert (await table.row()).state is None
    assert buttons(table.message(lobby.id)) == GERMAN_LOBBY
    assert table.channel.last_message.id == lobby.id


async def test_spielmark_rules_need_three_players(table: Table) -> None:
    """The 1960s Spielmark rules need 3 to 7 players: with only Alice and Bob the start is
    refused; once Carol joins, it works."""
    await open_lobby(table, table.alice, language="de", preset="mark")
    lobby = table.channel.last_message
    await table.bob.click(lobby, label="Mitspielen")

    refused = await table.alice.click(lobby, label="Spiel starten")

    assert private_reply(refused) == "Dafür braucht es 3 bis 7 Spieler."
    assert (await table.row()).state is None
    assert buttons(table.message(lobby.id)) == GERMAN_LOBBY

    await table.carol.click(lobby, label="Mitspielen")
    await table.alice.click(lobby, label="Spiel starten")
    state = await table.state()
    assert len(state.players) == 3
    assert state.rules.preset == "mark"


async def test_a_second_start_in_the_same_channel_is_refused(table: Table) -> None:
    """A lobby is open in #monopoly; Bob tries /monopoly start there too and is told that a
    game is already running in this channel – also once the game has started."""
    await open_lobby(table, table.alice, language="de")
    lobby = table.channel.last_message

    busy = await open_lobby(table, table.bob)
    assert busy.ephemeral
    assert busy.response.content.startswith("Hier läuft schon ein Spiel: https://discord.com/")
    assert busy.response.content.endswith(f"/{lobby.id}")  # a link to the lobby
    assert table.channel.last_message.id == lobby.id

    await table.bob.click(lobby, label="Mitspielen")
    await table.alice.click(lobby, label="Spiel starten")
    busy = await open_lobby(table, table.carol)
    turn_id = (await table.row()).settings["turn_message"]
    assert busy.response.content.endswith(f"/{turn_id}")  # now a link to the turn message


async def test_the_host_closes_the_lobby_with_end(table: Table) -> None:
    """Nobody came: Alice closes her lobby with /monopoly end. Everyone reads that it is
    closed (with the lobby's secret, see tests/discord/test_seed_words.py), and a new lobby
    can be opened in the channel."""
    await open_lobby(table, table.alice, language="de")
    secret = (await table.row()).settings["fair_secret"]
    refused = await table.bob.slash(table.channel, "monopoly end")
    assert private_reply(refused) == "Das darf nur der Gastgeber."

    result = await table.alice.slash(table.channel, "monopoly end")

    assert not result.ephemeral
    assert result.response.content.startswith("Der Warteraum ist geschlossen")
    assert f"Sein Geheimnis war `{secret}`" in result.response.content
    assert await table.bot.store.game_in_channel(table.channel.id) is None
    again = await open_lobby(table, table.bob, language="de")
    assert not again.ephemeral
    assert table.channel.last_message.embeds[0].title == "MONOPOLY – Warteraum"


async def test_a_closed_lobby_offers_no_more_buttons(table: Table) -> None:
    """After Alice closed her lobby with /monopoly end, its message should no longer invite
    anyone to join or start."""
    await open_lobby(table, table.alice, language="de")
    lobby = table.channel.last_message
    await table.alice.slash(table.channel, "monopoly end")

    assert buttons(table.message(lobby.id)) == []


async def test_rules_command_and_button_show_the_summary(table: Table) -> None:
    """In Alice's Spielmark lobby Bob asks for the rules, once with /monopoly rules and once
    with the lobby's Rules button: only he sees the summary, in his (German) language."""
    await open_lobby(table, table.alice, language="en", preset="mark")
    lobby = table.channel.last_message

    command = await table.bob.slash(table.channel, "monopoly rules")
    button = await table.bob.click(lobby, label="Rules")

    for result in (command, button):
        summary = private_reply(result)
        lines = summary.splitlines()
        assert lines[:3] == [
            "Regelwerk: Spielmark (Regeln der 1960er)",
            "Spielbrett: Deutsche Ausgabe (Spielmark)",
            "Spieler: 3 bis 7",
        ]
        assert "Bauen erst, wenn alle Grundstücke verkauft sind: ja" in lines
        assert len(summary) <= 2000


async def test_a_game_in_a_new_thread(table: Table) -> None:
    """Issue 6: ``start`` may open the game "in a new thread or here". Alice picks the
    thread: the channel gets a link, the lobby and the whole game live in the thread (one
    game per thread), and the channel itself stays free for another game."""
    opened = await open_lobby(table, table.alice, language="de", where="thread")

    assert not opened.ephemeral
    (thread,) = table.channel.threads
    assert thread.name == "MONOPOLY – alice"
    assert opened.response.content == (
        f"🎲 <@{table.alice.id}> eröffnet ein Spiel in <#{thread.id}> – macht dort mit!"
    )
    lobby = thread.last_message
    assert lobby.embeds[0].title == "MONOPOLY – Warteraum"
    await table.bob.click(lobby, label="Mitspielen")
    await table.alice.click(lobby, label="Spiel starten")

    row = await table.bot.store.game_in_channel(thread.id)
    assert row is not None and row.state is not None
    turn = next(m for m in thread.history() if m.id == row.settings["turn_message"])
    assert turn.attachments  # the board image, posted in the thread
    status = await table.alice.slash(thread, "monopoly status")
    assert status.ephemeral and "1.500 €" in private_reply(status)
    assert await table.bot.store.game_in_channel(table.channel.id) is None
    here = await open_lobby(table, table.carol, language="de")
    assert not here.ephemeral and table.channel.last_message.embeds[0].title.endswith("Warteraum")


async def test_thread_option_inside_a_thread_opens_the_game_there(table: Table) -> None:
    """Threads cannot hold threads: asked for one from inside a thread, the bot simply opens
    the lobby in that thread."""
    await open_lobby(table, table.alice, language="de", where="thread")
    (thread,) = table.channel.threads
    await table.alice.slash(thread, "monopoly end")
    again = await table.bob.slash(thread, "monopoly start", language="de", where="thread")
    assert not again.ephemeral
    assert len(table.channel.threads) == 1
    assert thread.last_message.embeds[0].title == "MONOPOLY – Warteraum"
    row = await table.bot.store.game_in_channel(thread.id)
    assert row is not None and row.settings["host"] == table.bob.id


async def test_no_thread_without_the_permission(table: Table) -> None:
    """A channel where the bot may not create threads: a polite private answer naming the
    permission, no thread and no game anywhere."""
    me = table.guild.me
    assert me is not None
    closed = table.guild.create_text_channel(
        "no-threads", overwrites={me: discord.PermissionOverwrite(create_public_threads=False)}
    )
    refused = await table.alice.slash(closed, "monopoly start", language="de", where="thread")

    assert "Öffentliche Threads erstellen" in private_reply(refused)
    assert closed.threads == []
    assert await table.bot.store.game_in_channel(closed.id) is None


async def test_the_open_games_of_the_server(table: Table) -> None:
    """``/monopoly games`` lists every lobby and running game of the server with its
    channel and whose move it is; finished games are not listed."""
    none = await table.dave.slash(table.channel, "monopoly games")
    assert private_reply(none).startswith("Auf diesem Server läuft gerade kein Spiel.")
    await open_lobby(table, table.alice, language="de", where="thread")
    (thread,) = table.channel.threads
    await table.bob.click(thread.last_message, label="Mitspielen")
    await table.alice.click(thread.last_message, label="Spiel starten")
    await open_lobby(table, table.carol, language="de")

    listed = private_reply(await table.dave.slash(table.channel, "monopoly games"))
    lines = listed.splitlines()
    assert lines[0] == "🎲 **Offene Spiele auf diesem Server** (2)"
    assert lines[1].startswith(f"• <#{thread.id}> – MONOPOLY, Zug 1: wartet auf alice")
    assert (
        lines[2] == f"• <#{table.channel.id}> – MONOPOLY: Warteraum, 1 Spieler wartet auf den Start"
    )
