"""Turn deadlines: a game keeps moving when a player does not come back in time."""

from __future__ import annotations

from bot.engine.legal import waiting_for
from tests.discord.helpers import Table, embed_text, start_game

pytest_plugins = ["tests.discord.helpers"]


async def test_a_missed_deadline_lets_the_bot_play_the_absent_players_turn(table: Table) -> None:
    """Alice opens a game with a 24-hour deadline and does not roll. When the deadline
    fires, the channel is told and the safe default plays her whole turn (throw, no
    purchase, end); the next player's turn message appears with a fresh deadline."""
    game = await start_game(table, table.alice, table.bob, deadline="24h")
    bot = table.bot
    state = await table.state(game)
    absent = state.current
    timers = {t.kind: t for t in await bot.store.pending_timers(game)}
    assert set(timers) == {"deadline", "reminder", "reminder_soon"}
    assert timers["deadline"].payload["seq"] == state.seq
    # The reminder comes at half time: 12 hours before the 24-hour deadline.
    half = (timers["deadline"].due_at - timers["reminder"].due_at).total_seconds()
    assert round(half) == 12 * 3600
    assert timers["deadline"].payload["deadline_at"] == int(timers["deadline"].due_at.timestamp())

    await bot.get_cog("Monopoly").deadlines.fire(timers["reminder"])
    mention = f"<@{state.players[absent].id}>"
    assert mention in table.channel.last_message.content  # the reminder names the player

    await bot.get_cog("Monopoly").deadlines.fire(timers["deadline"])
    after = await table.state(game)
    # Alice's part is done (a lot she landed on may now be auctioned to the others).
    assert absent not in waiting_for(after)
    told = [m.content for m in table.bot_messages() if "⏰" in (m.content or "")]
    assert any(state.players[absent].name in text for text in told)
    new_deadline = {t.kind: t for t in await bot.store.pending_timers(game)}["deadline"]
    assert new_deadline.payload["seq"] == after.seq  # rescheduled for the new state
    turn = await table.turn_message(game)
    assert after.players[after.current].name in embed_text(turn)
    await bot.scheduler.stop()


async def test_a_deadline_for_a_state_that_moved_on_does_nothing(table: Table) -> None:
    """Bob rolls before the deadline: the old timer is stale and changes nothing."""
    game = await start_game(table, table.alice, table.bob, deadline="1h")
    bot = table.bot
    old = {t.kind: t for t in await bot.store.pending_timers(game)}["deadline"]
    current = await table.current_member(game)
    await current.click(await table.turn_message(game), label="🎲 Würfeln")
    before = await table.state_json(game)
    await bot.get_cog("Monopoly").deadlines.fire(old)
    assert await table.state_json(game) == before


async def test_no_deadline_means_no_timers(table: Table) -> None:
    """Without a deadline nothing is scheduled and the timer loop does not run."""
    game = await start_game(table, table.alice, table.bob)
    assert await table.bot.store.pending_timers(game) == []
    assert not table.bot.scheduler.running
