"""Turn deadlines and reminders: a game keeps moving when a player does not come back.

These tests move simcord's virtual clock (``env.advance_time``): the bot's timer loop
sleeps on the event loop's clock and reads ``discord.utils.utcnow``, both virtual here,
so the timers fire exactly as they would over hours and days.
"""

from __future__ import annotations

from typing import Any

from bot.engine.legal import waiting_for
from bot.i18n import t
from tests.discord.helpers import (
    Table,
    embed_text,
    play_position,
    restart,
    scenario,
    start_game,
)

pytest_plugins = ["tests.discord.helpers"]


def texts(table: Table, marker: str) -> list[str]:
    """The bot's public messages that contain ``marker``."""
    return [m.content for m in table.bot_messages() if marker in (m.content or "")]


def dms(member: Any) -> list[str]:
    """The direct messages the bot sent ``member``."""
    return [m.content for m in member.user.dm_channel.history() if m.author.bot]


async def test_reminders_at_half_time_and_shortly_before_then_the_safe_default(
    table: Table,
) -> None:
    """A game with a one-hour deadline. Alice (first to throw) opted in to direct
    messages, Bob did not. After 30 minutes she is mentioned in the channel and gets a
    DM; 6 minutes before the end (a tenth of the deadline) again; at the deadline the
    channel is told and the safe default plays her whole turn (throw, no purchase, end).
    The next player's turn message has a fresh deadline."""
    await table.alice.slash(table.channel, "monopoly notify", enabled=True)
    game = await start_game(table, table.alice, table.bob, deadline="1h", jokers=0)
    state = await table.state(game)
    absent = state.players[state.current]
    assert absent.name == "alice"
    mention = f"<@{absent.id}>"

    await table.env.advance_time(29 * 60)
    assert not texts(table, "⏰")
    await table.env.advance_time(60)
    assert any(mention in text for text in texts(table, "⏰"))
    assert len(dms(table.alice)) == 1
    assert f"<#{table.channel.id}>" in dms(table.alice)[0]  # which game, with a link
    assert dms(table.bob) == []

    await table.env.advance_time(24 * 60)  # 54 minutes: the second reminder
    assert len(texts(table, mention + ": ")) == 2
    assert len(dms(table.alice)) == 2

    await table.env.advance_time(6 * 60)  # the deadline
    after = await table.state(game)
    assert 0 not in waiting_for(after)  # alice's part is done
    assert texts(table, t("de", "deadline.passed", players="alice"))
    timers = {tm.kind: tm for tm in await table.bot.store.pending_timers(game)}
    assert timers["deadline"].payload["seq"] == after.seq  # rescheduled for the new state
    turn = await table.turn_message(game)
    assert after.players[after.current].name in embed_text(turn)


async def test_no_reminders_when_the_host_turns_them_off(table: Table) -> None:
    """``/monopoly settings reminders:False``: the deadline still acts, but nobody is
    pinged before it."""
    await table.alice.slash(table.channel, "monopoly start", language="de", deadline="1h")
    lobby = table.channel.last_message
    await table.bob.click(lobby, label=t("de", "button.join"))
    await table.alice.slash(table.channel, "monopoly settings", reminders=False, jokers=0)
    await table.alice.click(lobby, label=t("de", "button.start"))
    game = await table.game_id()
    await table.env.advance_time(59 * 60)
    assert not texts(table, "⏰")
    await table.env.advance_time(60)
    assert texts(table, t("de", "deadline.passed", players="alice"))
    assert (await table.state(game)).seq > 0


async def test_a_deadline_for_a_state_that_moved_on_does_nothing(table: Table) -> None:
    """Alice rolls before the deadline: the old timer is stale and changes nothing."""
    game = await start_game(table, table.alice, table.bob, deadline="1h", jokers=0)
    bot = table.bot
    old = {tm.kind: tm for tm in await bot.store.pending_timers(game)}["deadline"]
    current = await table.current_member(game)
    await current.click(await table.turn_message(game), label="🎲 Würfeln")
    before = await table.state_json(game)
    await bot.timer_handler(old)
    assert await table.state_json(game) == before


async def test_no_deadline_means_no_timers(table: Table) -> None:
    """Without a deadline nothing is scheduled and the timer loop does not run."""
    game = await start_game(table, table.alice, table.bob)
    assert await table.bot.store.pending_timers(game) == []
    assert not table.bot.scheduler.running


async def test_a_deadline_that_passed_while_the_bot_was_down_fires_once(
    table: Table, database: Any
) -> None:
    """The bot goes down with a deadline pending; two hours later it starts again. The
    overdue deadline fires once on start-up (one "deadline passed" message, one default
    turn), never a second time."""
    game = await start_game(table, table.alice, table.bob, deadline="1h", jokers=0)
    before = await table.state(game)
    await table.bot.scheduler.stop()  # the process dies: no loop, the timers stay stored
    await table.env.advance_time(2 * 3600)
    assert not texts(table, t("de", "deadline.passed", players="alice"))

    await restart(table, database)
    await table.env.advance_time(1)  # the new loop's first round
    passed = texts(table, t("de", "deadline.passed", players="alice"))
    assert len(passed) == 1
    after = await table.state(game)
    assert after.seq > before.seq and 0 not in waiting_for(after)
    # The new deadline (an hour from the restart) is the only one pending.
    pending = [tm for tm in await table.bot.store.pending_timers(game) if tm.kind == "deadline"]
    assert len(pending) == 1 and pending[0].payload["seq"] == after.seq
    await table.env.advance_time(30 * 60)
    assert len(texts(table, t("de", "deadline.passed", players="alice"))) == 1


async def test_a_game_thread_missing_from_the_cache_still_gets_its_reminder(
    table: Table,
) -> None:
    """A game in its own thread; the thread drops out of the bot's gateway cache, as an
    archived thread does after a quiet week. At half time the bot fetches the thread by id
    and reminds Alice there."""
    await table.alice.slash(
        table.channel, "monopoly start", language="de", deadline="1h", where="thread"
    )
    (thread,) = table.channel.threads
    await table.bob.click(thread.last_message, label=t("de", "button.join"))
    await table.alice.click(thread.last_message, label=t("de", "button.start"))
    guild = table.bot.get_guild(table.guild.id)
    assert guild is not None
    guild._remove_thread(guild.get_thread(thread.id))  # what an archive does to the cache
    assert table.bot.get_channel(thread.id) is None

    await table.env.advance_time(30 * 60)
    reminders = [m.content for m in thread.history() if m.author.bot and "⏰" in (m.content or "")]
    assert len(reminders) == 1 and f"<@{table.alice.id}>" in reminders[0]


async def test_a_direct_message_when_ones_turn_begins(table: Table) -> None:
    """Bob asks for a DM whenever his turn begins (``/monopoly notify turns:True``), Alice
    does not. Alice ends her turn: Bob gets one DM with a link to his new turn message,
    Alice none; a later change of that message sends no second one."""
    opted = await table.bob.slash(table.channel, "monopoly notify", enabled=True, turns=True)
    assert t("de", "notify.turns_on") in opted.response.content
    game = await play_position(table, scenario([table.alice, table.bob], may_roll=False))
    await table.alice.click(await table.turn_message(game), label="Zug beenden")

    turn = await table.turn_message(game)
    told = [text for text in dms(table.bob) if "Du bist am Zug" in text]
    assert told == [f"🎲 Du bist am Zug in <#{table.channel.id}>: {turn.jump_url}"]
    assert dms(table.alice) == []
    await table.bob.click(turn, label="🎲 Würfeln")
    assert len([text for text in dms(table.bob) if "Du bist am Zug" in text]) == 1
