"""A server's own boards ("editions"): uploaded by an admin, played in a game.

Issue 3: "A server admin can supply a custom theme or board as a JSON file (uploaded later
through Discord): validate it strictly (40 squares, group sizes, positive prices, rents
non-decreasing, names ≤ 40 characters, no markup or mentions) and reject it with a message
that names the first problem."
"""

from __future__ import annotations

import json
from importlib import resources
from typing import Any

from tests.discord.helpers import (
    Member,
    Table,
    embed_text,
    open_lobby,
    private_reply,
    server_admin,
)

pytest_plugins = ["tests.discord.helpers"]


def hometown() -> dict[str, Any]:
    path = resources.files("bot.engine") / "data" / "boards" / "de_euro.json"
    raw = json.loads(path.read_text(encoding="utf-8"))
    raw["id"] = "heimatstadt"
    raw["name"] = "Monopoly Heimatstadt"
    raw["squares"][1]["name"] = "Kirchgasse"
    raw["squares"][39]["name"] = "Burgberg"
    return raw


async def upload(member: Member, table: Table, raw: Any) -> str:
    file = ("board.json", json.dumps(raw).encode())
    result = await member.slash(table.channel, "monopoly edition upload", file=file)
    assert result.ephemeral
    return private_reply(result)


async def test_an_uploaded_board_is_played_and_stays_with_its_game(table: Table) -> None:
    erin = server_admin(table)
    assert "verwalten" in await upload(table.alice, table, hometown())
    saved = await upload(erin, table, hometown())
    assert saved.startswith("Spielbrett **Monopoly Heimatstadt** (`heimatstadt_")
    (board_id,) = await table.bot.store.guild_files(table.guild.id, "board")
    listed = private_reply(await table.alice.slash(table.channel, "monopoly edition list"))
    assert f"• Monopoly Heimatstadt (`{board_id}`)" in listed
    offered = await table.alice.autocomplete(table.channel, "monopoly start", "edition", "heim")
    assert [c["value"] for c in offered] == [board_id]

    await open_lobby(table, table.alice, language="de", edition=board_id)
    lobby = table.channel.last_message
    assert "Spielbrett: Monopoly Heimatstadt" in embed_text(lobby)
    await table.bob.click(lobby, label="Mitspielen")
    await table.alice.click(lobby, label="Spiel starten")
    state = await table.state()
    assert state.board.id == board_id and state.board.squares[39].name == "Burgberg"
    found = await table.alice.autocomplete(table.channel, "monopoly property", "name", "burg")
    assert [c["name"] for c in found] == ["Burgberg"]

    removed = await erin.slash(table.channel, "monopoly edition remove", edition=board_id)
    assert "entfernt" in private_reply(removed)
    assert await table.bot.store.guild_files(table.guild.id, "board") == {}
    turn = await table.turn_message(await table.game_id())
    first = await table.current_member(await table.game_id())
    await first.click(turn, label="🎲 Würfeln")  # the game goes on with its own copy
    assert (await table.state()).seq > state.seq


async def test_a_bad_board_is_refused_with_its_first_problem(table: Table) -> None:
    erin = server_admin(table)
    short = hometown()
    short["squares"].pop()
    assert await upload(erin, table, short) == (
        "Diese Spielbrett-Datei geht nicht – bei `squares`: ein Spielbrett hat genau 40 Felder"
    )
    broken = hometown()
    broken["chance"][0]["effect"] = {"type": "move_to"}
    assert "ein Probespiel auf diesem Brett ist gescheitert" in await upload(erin, table, broken)
    assert await table.bot.store.guild_files(table.guild.id, "board") == {}


async def test_start_refuses_an_unknown_board_or_a_theme_for_another_board(table: Table) -> None:
    erin = server_admin(table)
    await upload(erin, table, hometown())
    (board_id,) = await table.bot.store.guild_files(table.guild.id, "board")
    unknown = await open_lobby(table, table.alice, language="de", edition="nope")
    assert private_reply(unknown).startswith("Dieser Server hat kein Spielbrett `nope`.")
    themed = await open_lobby(
        table, table.alice, language="de", edition=board_id, theme="cookies_and_pirates"
    )
    assert "für das Spielbrett de_euro gemacht" in private_reply(themed)
    assert await table.bot.store.game_in_channel(table.channel.id) is None
