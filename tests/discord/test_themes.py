"""A server's own themes: uploaded by an admin as a JSON file, chosen in ``/monopoly start``.

Issue 3: "A server admin can supply a custom theme or board as a JSON file (uploaded later
through Discord): validate it strictly … and reject it with a message that names the first
problem."
"""

from __future__ import annotations

import json

from tests.discord.helpers import (
    Member,
    Table,
    alt_text,
    embed_text,
    open_lobby,
    private_reply,
    server_admin,
)

pytest_plugins = ["tests.discord.helpers"]

KEKSE = {
    "id": "kekse",
    "name": {"de": "Kekse", "en": "Cookies"},
    "squares": {"1": "Keksweg", "39": "Zimtallee"},
}


def as_file(raw: object) -> tuple[str, bytes]:
    return ("theme.json", json.dumps(raw).encode())


async def upload(member: Member, table: Table, raw: object) -> str:
    result = await member.slash(table.channel, "monopoly theme upload", file=as_file(raw))
    assert result.ephemeral
    return private_reply(result)


async def property_names(member: Member, table: Table, typed: str) -> list[str]:
    found = await member.autocomplete(table.channel, "monopoly property", "name", typed)
    return [choice["name"] for choice in found]


async def test_an_admin_uploads_a_theme_and_a_game_plays_with_it(table: Table) -> None:
    erin = server_admin(table)
    assert "verwalten" in await upload(table.alice, table, KEKSE)  # not an admin
    assert await table.bot.store.guild_files(table.guild.id, "theme") == {}

    assert await upload(erin, table, KEKSE) == (
        "Thema **Kekse** (`kekse`) gespeichert. Wählbar mit `/monopoly starten thema:kekse`."
    )
    listed = private_reply(await table.alice.slash(table.channel, "monopoly theme list"))
    assert "• Kekse (`kekse`) – von diesem Server" in listed
    assert "(`hunter_x_hunter`) – eingebaut" in listed
    offered = await table.alice.autocomplete(table.channel, "monopoly start", "theme", "kek")
    assert [(c["name"], c["value"]) for c in offered] == [
        ("Kekse & Piraten (cookies_and_pirates)", "cookies_and_pirates"),
        ("Kekse (kekse)", "kekse"),
    ]

    await open_lobby(table, table.alice, language="de", theme="kekse")
    lobby = table.channel.last_message
    assert "Thema: Kekse" in embed_text(lobby)
    await table.bob.click(lobby, label="Mitspielen")
    await table.alice.click(lobby, label="Spiel starten")
    assert await property_names(table.alice, table, "allee") == ["Zimtallee"]

    # Removed from the server, the theme stays with the game that uses it.
    removed = await erin.slash(table.channel, "monopoly theme remove", theme="kekse")
    assert "entfernt" in private_reply(removed)
    assert await table.bot.store.guild_files(table.guild.id, "theme") == {}
    assert await property_names(table.alice, table, "keks") == ["Keksweg"]


async def test_a_bad_theme_file_is_refused_with_its_first_problem(table: Table) -> None:
    erin = server_admin(table)
    ping = {**KEKSE, "squares": {"1": "<@everyone>", "2": "x" * 41}}
    assert await upload(erin, table, ping) == (
        "Diese Themen-Datei geht nicht – bei `squares.1`: Namen dürfen keine Formatierung, "
        "Erwähnungen, Links oder Zeilenumbrüche enthalten"
    )
    too_long = {**KEKSE, "squares": {"2": "x" * 41}}
    assert "der Name hat 41 Zeichen; erlaubt sind höchstens 40" in await upload(
        erin, table, too_long
    )
    assert "kein gültiges JSON" in private_reply(
        await erin.slash(table.channel, "monopoly theme upload", file=("t.json", b"{oops"))
    )
    huge = await erin.slash(
        table.channel, "monopoly theme upload", file=("big.json", b" " * 100_000)
    )
    assert "die Datei hat 100000 Bytes; erlaubt sind höchstens 32000" in private_reply(huge)
    builtin = {**KEKSE, "id": "hunter_x_hunter"}
    assert "eingebautes Thema" in await upload(erin, table, builtin)
    assert await table.bot.store.guild_files(table.guild.id, "theme") == {}


async def test_start_refuses_an_unknown_theme_or_one_for_another_board(table: Table) -> None:
    erin = server_admin(table)
    await upload(erin, table, KEKSE)
    unknown = await open_lobby(table, table.alice, language="de", theme="nope")
    assert private_reply(unknown).startswith("Es gibt kein Thema `nope`.")
    mark = await open_lobby(table, table.alice, language="de", preset="mark", theme="kekse")
    assert "für das Spielbrett de_euro gemacht" in private_reply(mark)
    assert await table.bot.store.game_in_channel(table.channel.id) is None


async def test_a_theme_speaks_its_own_words_for_money_and_the_bank(table: Table) -> None:
    """003 (cookies & pirates) pays in "Naschgeld" and its bank is the "Naschgeldbank": the
    turn message's amounts use the theme's currency (the board image its words too)."""
    await open_lobby(table, table.alice, language="de", theme="cookies_and_pirates")
    lobby = table.channel.last_message
    assert "Thema: Kekse & Piraten" in embed_text(lobby)
    await table.bob.click(lobby, label="Mitspielen")
    await table.alice.click(lobby, label="Spiel starten")
    turn = table.channel.last_message
    assert "1.500 Naschgeld" in alt_text(turn)
    assert turn.attachments
