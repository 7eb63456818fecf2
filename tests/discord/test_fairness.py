"""Dice you can check, in Discord: the fingerprint at the start, the seed at the end,
``/monopoly verify``, and no way to see the secret, the seed or the dice to come before the
end. (The players' words and closed lobbies: tests/discord/test_seed_words.py.)

The bot here draws large secrets (the conftest's start at 7, which would be found in any
text): a secret, a seed or a generator state showing up anywhere is then a real leak.
"""

from __future__ import annotations

import json
import logging
import re
from pathlib import Path
from typing import Any

import discord
import pytest

from bot.app import MonopolyBot
from bot.cli import ExportRefused, export_game, status_lines, store_status
from bot.engine.game import new_game
from bot.fairness import commit, derive_seed, fingerprint, short
from bot.i18n import t
from bot.store.kinds import apply, state_from_dict
from tests.discord.helpers import (
    Table,
    buttons,
    counting_bot,
    embed_text,
    private_reply,
    start_game,
    store_settings,
    turn_actions,
)

pytest_plugins = ["tests.discord.helpers"]

#: The first secret the bot draws in these tests (62 bits, as the bot's own are): the
#: first lobby's; its game's seed is derived from it (and the words: none here).
FIRST_SEED = (1 << 61) + 1_234_567_891
OTHER_GUILD = 987_654_321_000


@pytest.fixture
def simcord_bot(database: Any, tmp_path: Path) -> MonopolyBot:
    """The bot under test (as in the conftest), drawing large seeds."""
    return counting_bot(database, tmp_path, FIRST_SEED)


def message_text(message: Any) -> str:
    """Everything of a message a player could read: texts, embeds, buttons, their ids."""
    parts = [embed_text(message)]
    for embed in getattr(message, "embeds", []):
        if isinstance(embed, dict):  # a response message keeps its embeds as payloads
            parts.append(json.dumps(embed, ensure_ascii=False))
    for row in getattr(message, "components", []):
        children = row.children if hasattr(row, "children") else row.get("components", [])
        for child in children:
            if isinstance(child, dict):
                parts.append(json.dumps(child, ensure_ascii=False))
            else:
                parts += [str(getattr(child, "label", "")), str(getattr(child, "custom_id", ""))]
                parts += [str(o.label) + str(o.value) for o in getattr(child, "options", [])]
    parts += [a.filename for a in getattr(message, "attachments", [])]
    return "\n".join(parts)


def result_text(result: Any) -> str:
    """Everything an interaction answered: its response, follow-ups, modal; or the
    suggestions of an autocomplete (a list)."""
    if isinstance(result, list):
        return json.dumps(result, ensure_ascii=False)
    parts = []
    for reply in [result.response, *result.followups]:
        if reply is not None:
            parts.append(message_text(reply))
    parts.append(json.dumps(result.modal, ensure_ascii=False) if result.modal else "")
    return "\n".join(parts)


class Seen:
    """Everything shown so far: every message of the channel and every DM, as they were
    at each look (messages are edited, so each look keeps its own copy), and answers."""

    def __init__(self, table: Table) -> None:
        self.table = table
        self.texts: list[str] = []
        self.dms = 0  # direct messages seen at the last look

    def look(self, *results: Any) -> None:
        """Take in the channel and the DMs as they are now, and ``results``."""
        table = self.table
        self.texts += [message_text(m) for m in table.channel.history()]
        for member in table.members:
            dms = member.user.dm_channel
            if dms is not None:
                found = [message_text(m) for m in dms.history()]
                self.texts += found
                self.dms += len(found)
        self.texts += [result_text(r) for r in results]

    def all(self) -> str:
        return "\n".join(self.texts)


def secrets_of(seed: int, rngs: set[int]) -> list[str]:
    """The forms a seed or a generator state could be shown in: decimal and hex."""
    forms = []
    for value in {seed, *rngs}:
        forms += [str(value), f"{value:x}", f"{value:X}"]
    return forms


async def generator_states(table: Table, game: int) -> set[int]:
    """Every state the game's generator was in: at the start and after every action."""
    record = await table.bot.store.record(game)
    state = state_from_dict(record.start)
    found = {state.rng.state}
    for entry in record.actions:
        apply(state, entry["action"])
        found.add(state.rng.state)
    found.add((await table.state(game)).rng.state)
    return found


async def give_up(table: Table, member: Any, game: int) -> Any:
    """``member`` gives up (clicks "Aufgeben", then confirms); the final message."""
    turn = await table.turn_message(game)
    confirm = await member.click(turn, label="Aufgeben")
    await member.click(confirm.response, label="Ja, aufgeben")
    return table.channel.last_message


# -- the start and the end ------------------------------------------------------------------


async def test_the_first_turn_message_shows_the_fingerprint(table: Table) -> None:
    """Alice starts a game with Bob: the first turn message names the fingerprint of the
    lobby's secret and says in one sentence what it is, and that nobody gave words; the
    secret and the seed derived from it are nowhere."""
    game = await start_game(table, table.alice, table.bob)

    row = await table.row(game)
    secret, seed = row.settings["fair_secret"], row.settings["fair_seed"]
    full = row.settings["seed_fingerprint"]
    assert secret == FIRST_SEED and full == fingerprint(secret, game)
    assert seed == derive_seed(secret, []) and row.settings["seed_words"] == []
    text = embed_text(await table.turn_message(game))
    assert t("de", "fair.commit.board", fingerprint=short(full)) in text
    assert "Am Ende zeige ich den Startwert" in text
    assert t("de", "fair.words.none") in text
    for hidden in (str(seed), str(secret), full):
        assert hidden not in text


async def test_the_card_table_shows_the_fingerprint(table: Table) -> None:
    """The card game's table message carries the fingerprint while the game runs."""
    game = await start_game(table, table.alice, table.bob, game="cards")

    row = await table.row(game)
    table_message = table.message(row.settings["table_message"])
    text = embed_text(table_message)
    full = row.settings["seed_fingerprint"]
    assert t("de", "fair.commit.cards", fingerprint=short(full)) in text
    assert str(row.settings["fair_seed"]) not in text
    assert str(row.settings["fair_secret"]) not in text


async def test_the_end_reveals_the_seed_of_the_fingerprint_and_verify_confirms_it(
    table: Table,
) -> None:
    """Alice throws once and gives up: the final message reveals a secret whose
    fingerprint is the one shown at the start, and the seed it gives (no words here);
    it names ``/monopoly pruefen`` and the game's number; ``/monopoly verify`` on it
    says that every throw matches."""
    game = await start_game(table, table.alice, table.bob)
    current = await table.current_member(game)
    shown = embed_text(await table.turn_message(game))
    await current.click(await table.turn_message(game), label="🎲 Würfeln")

    final = await give_up(table, current, game)

    text = embed_text(final)
    found = re.search(r"Geheimnis `(\d+)`", text)
    assert found is not None, text
    secret = int(found.group(1))
    found = re.search(r"Startwert `(\d+)`", text)
    assert found is not None, text
    seed = int(found.group(1))
    assert short(fingerprint(secret, game)) in shown  # what the start committed to
    assert fingerprint(secret, game) in text
    assert f"`monopoly-seed:{game}:{secret}`" in text
    assert seed == derive_seed(secret, [])  # nobody gave words
    assert f"`/monopoly pruefen spiel:{game}`" in text

    result = await table.bob.slash(table.channel, "monopoly verify", game=str(game))

    said = public_answer(result)
    throws = sum(len(e["dice"]) for e in (await table.bot.store.record(game)).actions)
    assert throws >= 1
    key = "fair.verify.ok.board" + (".one" if throws == 1 else "")  # "Der eine Wurf …"
    assert t("de", key, game=game, throws=throws, deals=2) in said
    assert str(seed) in said


async def test_a_card_game_ended_by_its_host_is_verified_with_its_seed(table: Table) -> None:
    """The host ends a card game early (no winner message): ``/monopoly verify`` then
    checks every shuffle and shows the seed; in English for an English game."""
    game = await start_game(table, table.alice, table.bob, game="cards", language="en")
    await table.alice.slash(table.channel, "monopoly end")

    result = await table.alice.slash(table.channel, "monopoly verify", game=f"#{game}")

    said = public_answer(result)
    assert "the one shuffle matches the seed" in said
    assert str((await table.row(game)).settings["fair_seed"]) in said


async def test_verify_suggests_this_server_s_finished_games(table: Table) -> None:
    """The suggestions are the finished games of this server that kept a seed."""
    first = await start_game(table, table.alice, table.bob)
    await give_up(table, table.alice, first)
    running = await start_game(table, table.alice, table.bob)

    offered = await table.alice.autocomplete(table.channel, "monopoly verify", "game", "")

    assert [c["value"] for c in offered] == [str(first)]
    assert offered[0]["name"].startswith(f"#{first} · MONOPOLY · ")
    assert running != first


# -- refusals -------------------------------------------------------------------------------


async def test_verify_refuses_a_running_game_and_changes_nothing(table: Table) -> None:
    """A running game has no seed to show yet: a private refusal, nothing else."""
    game = await start_game(table, table.alice, table.bob)
    before = await table.row(game)
    posted = len(table.bot_messages())

    result = await table.carol.slash(table.channel, "monopoly verify", game=str(game))

    assert private_reply(result) == t("de", "error.verify_running", game=game)
    assert public_nothing(result)
    after = await table.row(game)
    assert after.settings == before.settings and after.state.to_json() == before.state.to_json()
    assert len(table.bot_messages()) == posted


async def test_verify_refuses_unknown_and_other_servers_games_alike(table: Table) -> None:
    """A number that does not exist and another server's finished game get the same answer:
    nothing about other servers is told."""
    store = table.bot.store
    elsewhere = await store.create_game(
        OTHER_GUILD, 1, new_game([("1", "A"), ("2", "B")], seed=FIRST_SEED)
    )
    await store.patch_settings(elsewhere.id, commit(FIRST_SEED, elsewhere.id))
    await store.finish(elsewhere.id, "ended")

    for number in (elsewhere.id, 4242):
        result = await table.alice.slash(table.channel, "monopoly verify", game=str(number))
        assert private_reply(result) == t("de", "error.verify_unknown_game", game=number)
        assert public_nothing(result)
    offered = await table.alice.autocomplete(table.channel, "monopoly verify", "game", "")
    assert offered == []


async def test_verify_refuses_what_is_no_game_number(table: Table) -> None:
    result = await table.alice.slash(table.channel, "monopoly verify", game="Schlossallee")
    assert private_reply(result) == t("de", "error.verify_bad_id", game="Schlossallee")


def public_answer(result: Any) -> str:
    """The text of what an interaction answered for everyone (a public deferred answer
    fills in the deferred response)."""
    replies = [r for r in [result.response, *result.followups] if r is not None]
    public = [message_text(r) for r in replies if not r.ephemeral]
    assert public, f"no public answer: {result!r}"
    return "\n".join(public)


def public_nothing(result: Any) -> bool:
    """Whether an interaction answered nothing in public."""
    response = result.response
    public = [f for f in result.followups if not f.ephemeral]
    return not public and (response is None or response.ephemeral or result.deferred)


# -- no path shows the seed before the end ---------------------------------------------------


async def test_no_path_shows_the_seed_or_the_dice_to_come_before_the_end(
    table: Table, database: Any, caplog: pytest.LogCaptureFixture
) -> None:
    """A game of Alice, Bob and a computer player is played a while: turns by hand, DMs of
    turns, the players' commands, timers (both go on vacation, the computer plays every
    seat), the host's commands, ``/monopoly verify``, ``monopoly-bot status`` and an export
    attempt. Neither the seed nor the lobby's secret (in decimal or hex) nor any state of
    the dice generator shows up in any message, embed, button, DM, answer, log line or
    output: only the fingerprint does."""
    caplog.set_level(logging.DEBUG)
    # The SQLite driver's own DEBUG lines print every SQL parameter, the stored state with
    # its generator included; the bot keeps that logger at INFO as here (bot/logging_setup.py,
    # tested in tests/test_foundation.py).
    caplog.set_level(logging.INFO, logger="aiosqlite")
    seen = Seen(table)
    alice, bob = table.alice, table.bob
    for member in (alice, bob):
        seen.look(await member.slash(table.channel, "monopoly notify", enabled=True, turns=True))
    await alice.slash(table.channel, "monopoly start", language="de", deadline="5m")
    lobby = table.channel.last_message
    await bob.click(lobby, label=t("de", "button.join"))
    select = next(
        child.custom_id
        for row in lobby.components
        for child in row.children
        if ":lobby_cpu" in (getattr(child, "custom_id", "") or "")
    )
    await alice.select(table.message(lobby.id), ["easy"], custom_id=select)
    seen.look(await alice.click(table.message(lobby.id), label=t("de", "button.start")))
    game = await table.game_id()

    for _ in range(6):  # a few turns by hand: whoever's turn it is presses the first button
        state = await table.state(game)
        if not state.players[state.current].id.isdigit():  # the computer's turn: it plays
            await table.env.advance_time(2)
            seen.look()
            continue
        member = await table.current_member(game)
        turn = await table.turn_message(game)
        labels = turn_actions(turn)
        if not labels:
            break
        seen.look(await member.click(turn, label=labels[0]))
    for member in (alice, bob):
        for command in ("status", "board", "players", "log", "rules", "games", "settings"):
            seen.look(await member.slash(table.channel, f"monopoly {command}"))
        seen.look(await member.slash(table.channel, "monopoly verify", game=str(game)))
        seen.look(await member.autocomplete(table.channel, "monopoly verify", "game", ""))
    seen.look(await bob.slash(table.channel, "monopoly remind"))
    turn = await table.turn_message(game)
    if "Handeln" in buttons(turn):
        seen.look(await alice.click(turn, label="Handeln"))
    for member in (alice, bob):
        seen.look(await member.slash(table.channel, "monopoly vacation"))
    for _ in range(200):  # the computer plays every seat; deadlines and reminders fire
        await table.env.advance_time(2)
        state = await table.state(game)
        if state.phase == "over":
            break
        seen.look()
        if state.seq >= 150:  # played a while (an easy computer's game lasts ~400 actions)
            break
    state = await table.state(game)
    assert state.phase != "over", (state.end_reason, state.seq, state.turn)
    assert state.seq >= 150, "the game was not played a while"
    assert seen.dms > 0, "no direct message was sent"

    settings = store_settings(database)
    report = await store_status(settings)
    outputs = [json.dumps(report), "\n".join(status_lines(report))]
    with pytest.raises(ExportRefused) as refused:
        await export_game(settings, game)
    outputs.append(str(refused.value))

    row = await table.row(game)
    seed = row.settings["fair_seed"]
    rngs = await generator_states(table, game) | {row.settings["fair_secret"]}
    # Every record's message, and the formatted log with its tracebacks.
    logged = "\n".join([caplog.text, *(record.getMessage() for record in caplog.records)])
    shown = "\n".join([seen.all(), logged, *outputs])
    assert short(row.settings["seed_fingerprint"]) in shown
    assert len(rngs) > 10
    leaked = [form for form in secrets_of(seed, rngs) if form in shown]
    assert leaked == []
    assert any(isinstance(m, discord.Message) for m in table.channel.history())
