"""Dice nobody can choose, in Discord (docs/fair-dice.md, ``monopoly-seed/2``): the lobby
shows the fingerprint of its secret before anyone joins, players add their words with
"🍀 Glücksformel", the start shows the words, the end reveals the secret and the seed they
give, and ``/monopoly verify`` and ``monopoly-bot verify`` check it; a lobby closed without a
game reveals its secret, in the channel and in ``/monopoly history``; bad input changes
nothing.

The bot here draws large secrets (the conftest's start at 7, which would be found in any
text): a secret showing up anywhere before its time is then a real leak.
"""

from __future__ import annotations

import json
import re
from pathlib import Path
from typing import Any

import pytest
from simcord import interactions as sim_interactions
from simcord.enums import InteractionType
from simcord.results import InteractionResult

from bot import cli
from bot.app import MonopolyBot
from bot.cli import export_game
from bot.fairness import derive_seed, fingerprint, short
from bot.i18n import t
from tests.discord.helpers import (
    Member,
    Table,
    buttons,
    counting_bot,
    embed_text,
    private_reply,
    store_settings,
)

pytest_plugins = ["tests.discord.helpers"]

#: The first secret the bot draws here (62 bits, as the bot's own are): the first lobby's.
FIRST_SECRET = (1 << 61) + 987_654_321
WORDS_BUTTON = t("de", "button.words")


@pytest.fixture
def simcord_bot(database: Any, tmp_path: Path) -> MonopolyBot:
    """The bot under test (as in the conftest), drawing large secrets."""
    return counting_bot(database, tmp_path, FIRST_SECRET)


async def open_lobby(table: Table, host: Member, *joining: Member, **options: Any) -> int:
    """``/monopoly start`` by ``host`` (German), ``joining`` join; the lobby's id."""
    await host.slash(table.channel, "monopoly start", language="de", **options)
    lobby = table.channel.last_message
    for member in joining:
        await member.click(lobby, label=t("de", "button.join"))
    return await table.game_id()


async def lobby_message(table: Table, game: int) -> Any:
    return table.message((await table.row(game)).settings["lobby_message"])


async def enter_words(table: Table, member: Member, game: int, text: str) -> InteractionResult:
    """``member`` presses "🍀 Glücksformel" and submits ``text`` in its form."""
    shown = await member.click(await lobby_message(table, game), label=WORDS_BUTTON)
    assert shown.modal is not None, "the button opened no form"
    return await member.submit_modal(shown, {"words": text})


async def forged_form(table: Table, member: Member, game: int, text: str) -> InteractionResult:
    """A words form submitted by ``member`` as a modified client could send it: without
    having opened it, or with more than the form allows."""
    data = {
        "custom_id": f"f:{game}:words:n",
        "components": [{"type": 18, "component": {"type": 4, "custom_id": "words", "value": text}}],
    }
    record, payload = sim_interactions.base_payload(
        table.env.backend,
        type=InteractionType.MODAL_SUBMIT,
        channel_id=table.channel.id,
        guild_id=table.guild.id,
        user_id=member.id,
        data=data,
    )
    table.env.backend.emit("INTERACTION_CREATE", payload)
    await table.env.settle()
    return InteractionResult(table.env, record)


async def give_up(table: Table, member: Member, game: int) -> Any:
    """``member`` gives up (clicks "Aufgeben", then confirms); the final message."""
    turn = await table.turn_message(game)
    confirm = await member.click(turn, label="Aufgeben")
    await member.click(confirm.response, label="Ja, aufgeben")
    return table.channel.last_message


def public_text(result: InteractionResult) -> str:
    """What an interaction answered for everyone."""
    replies = [r for r in [result.response, *result.followups] if r is not None]
    public = [embed_text(r) for r in replies if not r.ephemeral]
    assert public, f"no public answer: {result!r}"
    return "\n".join(public)


# -- the lobby ---------------------------------------------------------------------------------


@pytest.mark.parametrize("game", ["board", "cards"])
async def test_the_lobby_shows_the_fingerprint_before_anyone_joins(table: Table, game: str) -> None:
    """The lobby message, as it is posted, names the fingerprint of the secret drawn for
    it, with one sentence what it means; nobody has joined, nobody has words, and the
    secret itself is nowhere."""
    lobby = await open_lobby(table, table.alice, game=game)

    row = await table.row(lobby)
    secret = row.settings["fair_secret"]
    assert secret == FIRST_SECRET and "fair_seed" not in row.settings
    assert row.settings["seed_fingerprint"] == fingerprint(secret, lobby)
    assert [p["name"] for p in row.settings["players"]] == ["alice"]
    text = embed_text(await lobby_message(table, lobby))
    assert t("de", "fair.lobby.commit", fingerprint=short(fingerprint(secret, lobby))) in text
    assert t("de", "fair.lobby.no_words") in text
    assert str(secret) not in text and fingerprint(secret, lobby) not in text
    assert WORDS_BUTTON in buttons(await lobby_message(table, lobby))


async def test_players_words_are_kept_privately_and_shown_at_the_start(table: Table) -> None:
    """Alice and Bob enter words with the form (Alice's "ü" typed decomposed, kept in NFC;
    Bob changes his once, the form showing what he had). The lobby shows who has words,
    not the words; the start shows them in the first turn message and the lobby, and the
    seed is the one the secret and the words give."""
    lobby = await open_lobby(table, table.alice, table.bob, table.carol)

    said = await enter_words(table, table.alice, lobby, "  Glu\u0308ck auf  ")
    assert private_reply(said) == t("de", "fair.words.saved", words="Glück auf")
    await enter_words(table, table.bob, lobby, "Schlossallee")
    shown = await table.bob.click(await lobby_message(table, lobby), label=WORDS_BUTTON)
    assert '"value": "Schlossallee"' in json.dumps(shown.modal)  # what he had
    await table.bob.submit_modal(shown, {"words": "Schlossallee oder *nix*"})

    text = embed_text(await lobby_message(table, lobby))
    assert t("de", "fair.lobby.words", names="alice, bob") in text
    assert "alice" in text and "🍀" in text
    assert "Glück auf" not in text and "Schlossallee" not in text
    row = await table.row(lobby)
    assert row.settings["lobby_words"] == {
        str(table.alice.id): "Glück auf",
        str(table.bob.id): "Schlossallee oder *nix*",
    }

    await table.alice.click(await lobby_message(table, lobby), label=t("de", "button.start"))

    row = await table.row(lobby)
    words = [
        {"name": "alice", "words": "Glück auf"},
        {"name": "bob", "words": "Schlossallee oder *nix*"},
    ]
    assert row.settings["seed_words"] == words
    assert row.settings["fair_seed"] == derive_seed(
        FIRST_SECRET, ["Glück auf", "Schlossallee oder *nix*"]
    )
    assert "lobby_words" not in row.settings
    turn = embed_text(await table.turn_message(lobby))
    assert t("de", "fair.words.line", name="alice", words="Glück auf") in turn
    assert t("de", "fair.words.line", name="bob", words="Schlossallee oder \\*nix\\*") in turn
    started = await lobby_message(table, lobby)
    assert "Glück auf" in embed_text(started) and not buttons(started)
    for hidden in (FIRST_SECRET, row.settings["fair_seed"]):
        assert str(hidden) not in turn and str(hidden) not in embed_text(started)


async def test_the_end_reveals_the_secret_and_both_checks_confirm_it(
    table: Table, database: Any, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """A game with both players' words, one throw, then a player gives up: the final
    message reveals the secret (whose fingerprint the lobby showed), the words and the
    seed; ``/monopoly verify`` confirms every throw, so does ``monopoly-bot verify`` on the
    export – and refuses the export with one character of a word changed."""
    lobby = await open_lobby(table, table.alice, table.bob)
    lobby_text = embed_text(await lobby_message(table, lobby))
    await enter_words(table, table.alice, lobby, "Parkplatz 🍀")
    await enter_words(table, table.bob, lobby, "Los!")
    await table.alice.click(await lobby_message(table, lobby), label=t("de", "button.start"))
    member = await table.current_member(lobby)
    await member.click(await table.turn_message(lobby), label="🎲 Würfeln")

    final = embed_text(await give_up(table, member, lobby))

    secret = int(re.search(r"Geheimnis `(\d+)`", final).group(1))  # type: ignore[union-attr]
    seed = int(re.search(r"Startwert `(\d+)`", final).group(1))  # type: ignore[union-attr]
    assert short(fingerprint(secret, lobby)) in lobby_text  # shown before anyone joined
    assert fingerprint(secret, lobby) in final
    assert seed == derive_seed(secret, ["Los!", "Parkplatz 🍀"])
    assert t("de", "fair.words.line", name="alice", words="Parkplatz 🍀") in final

    result = await table.bob.slash(table.channel, "monopoly verify", game=str(lobby))
    said = public_text(result)
    assert f"✅ Spiel #{lobby}:" in said
    assert f"Geheimnis `{secret}`" in said and f"Startwert `{seed}`" in said
    assert "Glücksformeln: 2" in said

    export = await export_game(store_settings(database), lobby)
    assert export["fairness"]["scheme"] == "monopoly-seed/2"
    assert (export["fairness"]["secret"], export["fairness"]["seed"]) == (secret, seed)
    path = tmp_path / "game.json"
    path.write_text(json.dumps(export, ensure_ascii=False), encoding="utf-8")
    capsys.readouterr()
    assert cli.main(["verify", str(path)]) == 0
    assert "throws match" in capsys.readouterr().out

    export["fairness"]["words"][0]["words"] = "Parkplatz 🍁"
    path.write_text(json.dumps(export, ensure_ascii=False), encoding="utf-8")
    assert cli.main(["verify", str(path)]) == 1
    printed = capsys.readouterr().out
    assert "MISMATCH: the seed does not follow from the secret and the players' words" in printed


async def test_a_closed_lobby_reveals_its_secret_and_is_in_the_history(table: Table) -> None:
    """The host closes a lobby (Bob had words): the channel reads that it is closed, with
    the secret and the fingerprint the lobby showed; ``/monopoly history`` lists it with
    its secret, and it cannot be chosen (there is no game to look back at)."""
    lobby = await open_lobby(table, table.alice, table.bob, game="cards")
    shown = embed_text(await lobby_message(table, lobby))
    await enter_words(table, table.bob, lobby, "vielleicht")

    closed = await table.alice.slash(table.channel, "monopoly end")

    text = public_text(closed)
    secret = int(re.search(r"Geheimnis war `(\d+)`", text).group(1))  # type: ignore[union-attr]
    assert secret == FIRST_SECRET
    assert text == t(
        "de",
        "fair.closed",
        secret=secret,
        game=lobby,
        fingerprint=fingerprint(secret, lobby),
        short=short(fingerprint(secret, lobby)),
    )
    assert short(fingerprint(secret, lobby)) in shown
    assert not buttons(await lobby_message(table, lobby))

    listed = await table.carol.slash(table.channel, "monopoly history")
    message = listed.response  # the deferred private answer, filled in
    assert message is not None and message.ephemeral
    (line,) = (message.embeds[0].description or "").splitlines()
    assert line.startswith(f"`#{lobby}` Kartenspiel · 🚫 vor dem Start geschlossen · ")
    assert f"Geheimnis `{secret}`" in line and short(fingerprint(secret, lobby)) in line
    assert not any(
        row.get("components") and row["components"][0].get("type") == 3
        for row in message.components
    )


# -- bad input ---------------------------------------------------------------------------------


async def test_words_of_someone_not_in_the_lobby_are_refused(table: Table) -> None:
    """Carol has not joined: the button answers her privately, with no form; a form she
    sends anyway is refused the same way. Nothing changes."""
    lobby = await open_lobby(table, table.alice, table.bob)
    before = await table.row(lobby)

    clicked = await table.carol.click(await lobby_message(table, lobby), label=WORDS_BUTTON)
    assert clicked.modal is None
    assert private_reply(clicked) == t("de", "error.words_not_joined")
    sent = await forged_form(table, table.carol, lobby, "ich auch")
    assert private_reply(sent) == t("de", "error.words_not_joined")

    after = await table.row(lobby)
    assert after.settings == before.settings
    assert after.settings_version == before.settings_version


@pytest.mark.parametrize(
    ("text", "refusal"),
    [
        ("x" * 101, t("de", "error.words_too_long", maximum=100, length=101)),
        ("zwei\nZeilen", t("de", "error.words_bad_character")),
    ],
)
async def test_words_too_long_or_with_line_breaks_are_refused(
    table: Table, text: str, refusal: str
) -> None:
    """Bob's client sends more than the form allows, or a line break: refused privately,
    his earlier words stay."""
    lobby = await open_lobby(table, table.alice, table.bob)
    await enter_words(table, table.bob, lobby, "erst so")
    before = await table.row(lobby)

    sent = await forged_form(table, table.bob, lobby, text)

    assert private_reply(sent) == refusal
    after = await table.row(lobby)
    assert after.settings == before.settings
    assert after.settings["lobby_words"] == {str(table.bob.id): "erst so"}
    # Exactly 100 characters are fine (spaces around them do not count).
    await forged_form(table, table.bob, lobby, " " + "x" * 100 + " ")
    assert (await table.row(lobby)).settings["lobby_words"] == {str(table.bob.id): "x" * 100}


async def test_words_after_the_start_are_refused(table: Table) -> None:
    """Bob opened the form in the lobby, Alice started meanwhile: his words come too late
    and change neither the words nor the seed."""
    lobby = await open_lobby(table, table.alice, table.bob)
    form = await table.bob.click(await lobby_message(table, lobby), label=WORDS_BUTTON)
    await table.alice.click(await lobby_message(table, lobby), label=t("de", "button.start"))
    before = await table.row(lobby)

    late = await table.bob.submit_modal(form, {"words": "zu spät"})

    assert private_reply(late) == t("de", "error.words_started")
    after = await table.row(lobby)
    assert after.settings == before.settings
    assert after.settings["seed_words"] == []
    assert after.settings["fair_seed"] == derive_seed(FIRST_SECRET, [])


async def test_leaving_takes_the_words_along_and_empty_removes_them(table: Table) -> None:
    """Bob's words go when he leaves; Carol's when she submits the form empty; a computer
    seat has none. Only Dave's count at the start."""
    lobby = await open_lobby(table, table.alice, table.bob, table.carol, table.dave)
    for member, text in ((table.bob, "weg"), (table.carol, "auch weg"), (table.dave, "bleibt")):
        await enter_words(table, member, lobby, text)
    await table.bob.click(await lobby_message(table, lobby), label=t("de", "button.leave"))
    emptied = await enter_words(table, table.carol, lobby, "   ")
    assert private_reply(emptied) == t("de", "fair.words.removed")
    message = await lobby_message(table, lobby)
    select = next(
        child.custom_id
        for row in message.components
        for child in row.children
        if ":lobby_cpu" in (getattr(child, "custom_id", "") or "")
    )
    await table.alice.select(message, ["easy"], custom_id=select)

    assert (await table.row(lobby)).settings["lobby_words"] == {str(table.dave.id): "bleibt"}
    assert t("de", "fair.lobby.words", names="dave") in embed_text(
        await lobby_message(table, lobby)
    )
    await table.alice.click(await lobby_message(table, lobby), label=t("de", "button.start"))
    row = await table.row(lobby)
    assert row.settings["seed_words"] == [{"name": "dave", "words": "bleibt"}]
    assert row.settings["fair_seed"] == derive_seed(FIRST_SECRET, ["bleibt"])
