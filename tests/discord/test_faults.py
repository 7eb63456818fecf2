"""When Discord fails: a 5xx, a missing permission or a rate limit on a post or an edit after
a move was saved. The move stays saved, the player is told the board will follow, the game's
timers are planned anyway, and the game gets its live message back (by the periodic sweep,
at start-up, or when someone clicks an outdated message). Nobody is ever left unanswered."""

from __future__ import annotations

from typing import Any

import discord
import pytest

from bot.i18n import t
from tests.discord.helpers import (
    Table,
    buttons,
    play_position,
    private_reply,
    restart,
    rolled,
    scenario,
    seed_for,
    start_game,
    still_thinking,
    submit_bid,
    turn_actions,
)

pytest_plugins = ["tests.discord.helpers"]

MESSAGES = "/channels/*/messages"
ONE_MESSAGE = "/channels/*/messages/*"
SAVED = t("de", "error.saved_board_follows")
NOTHING_CHANGED = t("de", "error.nothing_changed")
FAULTS = [
    pytest.param(500, 0, id="500"),
    pytest.param(403, 50013, id="403-missing-permission"),
    pytest.param(429, 0, id="429"),
]


async def _end_turn_into_fault(table: Table, status: int, code: int, method: str, path: str) -> Any:
    """Alice has thrown onto the Turmstraße and buys it; the next Discord call matching
    ``method path`` fails while she ends her turn. Returns (game, her click)."""
    game = await play_position(table, scenario([table.alice, table.bob], steps=[rolled(0, 1, 2)]))
    row = await table.row(game)
    await table.bot.store.set_settings(game, {**row.settings, "deadline": "1h"})
    turn = await table.turn_message(game)
    await table.alice.click(turn, label="Kaufen (60 €)")
    table.env.inject_error(method, path, status=status, code=code, message="injected")
    clicked = await table.alice.click(table.message(turn.id), label=t("de", "button.end_turn"))
    return game, clicked


async def _bob_may_roll(table: Table, game: int) -> None:
    """Bob's turn message is live: his roll goes through."""
    seq = (await table.state(game)).seq
    turn = await table.turn_message(game)
    assert turn_actions(turn) == [t("de", "button.roll")]
    await table.bob.click(turn, label=t("de", "button.roll"))
    assert (await table.state(game)).seq > seq


@pytest.mark.parametrize(("status", "code"), FAULTS)
async def test_a_failed_new_turn_message_is_posted_by_the_sweep(
    table: Table, status: int, code: int
) -> None:
    """Posting Bob's new turn message fails. Alice's "end turn" is saved and she is told the
    board follows; Bob's deadline is planned nevertheless; the sweep posts his turn message,
    and he can roll."""
    game, clicked = await _end_turn_into_fault(table, status, code, "POST", MESSAGES)
    assert SAVED in private_reply(clicked)
    row = await table.row(game)
    state = row.state
    assert state is not None and state.current == 1
    assert row.settings.get("turn_seq") != state.seq  # the live message is missing
    deadline = {tm.kind: tm for tm in await table.bot.store.pending_timers(game)}["deadline"]
    assert deadline.payload["seq"] == state.seq  # the timers did not wait for Discord
    assert still_thinking(table) == []

    await table.env.advance_time(61)  # the reconciler's sweep

    row = await table.row(game)
    assert row.settings["turn_seq"] == state.seq
    await _bob_may_roll(table, game)


@pytest.mark.parametrize(("status", "code"), FAULTS)
async def test_a_failed_edit_of_the_turn_message_is_put_right(
    table: Table, status: int, code: int
) -> None:
    """Alice buys, and the edit of the turn message fails: her purchase is saved, the message
    still shows the old buttons; the sweep posts the turn message again with the right ones
    (the old one loses its buttons)."""
    game = await play_position(table, scenario([table.alice, table.bob], steps=[rolled(0, 2, 3)]))
    old = await table.turn_message(game)
    table.env.inject_error("PATCH", ONE_MESSAGE, status=status, code=code, message="injected")
    clicked = await table.alice.click(old, label="Kaufen (200 €)")
    assert SAVED in private_reply(clicked)
    assert (await table.state(game)).owner[5] == 0

    await table.env.advance_time(61)

    new = await table.turn_message(game)
    assert new.id != old.id
    assert t("de", "button.end_turn") in turn_actions(new)
    assert buttons(table.message(old.id)) == []


async def test_a_missing_permission_is_said_once(table: Table) -> None:
    """The bot may not post in the channel any more (403, Missing Permissions): it says so
    once, naming the permission (here to the host by DM, since the channel refuses it too),
    and carries on as soon as it may post again."""
    game = await play_position(table, scenario([table.alice, table.bob], steps=[rolled(0, 1, 2)]))
    turn = await table.turn_message(game)
    await table.alice.click(turn, label="Kaufen (60 €)")
    channel = f"/channels/{table.channel.id}/messages"  # the game's channel, not DMs
    table.env.inject_error(
        "POST", channel, status=403, code=50013, message="Missing Permissions", times=None
    )
    await table.alice.click(table.message(turn.id), label=t("de", "button.end_turn"))
    await table.env.advance_time(61)  # the sweep fails again: no second notice

    dm = [m.content for m in table.alice.user.dm_channel.history() if m.author.bot]
    notices = [text for text in dm if "Nachrichten senden" in text]
    assert len(notices) == 1, dm

    table.env.backend.faults.clear()
    await table.env.advance_time(61)
    await _bob_may_roll(table, game)


async def test_a_restart_reconciles_a_game_left_without_its_turn_message(
    table: Table, database: Any
) -> None:
    """The post of Bob's turn message fails and the bot is restarted before any sweep: at
    start-up the game gets its turn message (and its timers) back."""
    game, _ = await _end_turn_into_fault(table, 500, 0, "POST", MESSAGES)
    await restart(table, database)
    await table.env.settle()
    row = await table.row(game)
    assert row.state is not None and row.settings["turn_seq"] == row.state.seq
    await _bob_may_roll(table, game)


async def test_a_click_on_an_outdated_turn_message_of_an_old_game_reconciles(table: Table) -> None:
    """A game stored before the bot recorded which state its turn message shows, whose turn
    message did not follow the game: Alice's click on it is refused as out of date, and the
    game gets a new turn message she can use."""
    game = await play_position(table, scenario([table.alice, table.bob], steps=[rolled(0, 2, 3)]))
    old = await table.turn_message(game)
    table.env.inject_error("PATCH", ONE_MESSAGE, status=500, message="injected")
    await table.alice.click(old, label="Kaufen (200 €)")
    row = await table.row(game)
    legacy = {k: v for k, v in row.settings.items() if k != "turn_seq"}
    await table.bot.store.set_settings(game, legacy)
    table.bot.core.reconciler.dirty.clear()  # as after a restart of an older version

    stale = await table.alice.click(old, label="Kaufen (200 €)")
    assert private_reply(stale) == t("de", "error.already_done")
    await table.env.settle()
    new = await table.turn_message(game)
    assert new.id != old.id and t("de", "button.end_turn") in turn_actions(new)


async def test_an_exception_in_a_handler_is_answered(table: Table, monkeypatch: Any) -> None:
    """A bug in a button's handler: the player is told privately that nothing was changed,
    the failure is logged with the game, user and custom id, and the game is as before."""
    game = await start_game(table, table.alice, table.bob)
    turn = await table.turn_message(game)
    before = await table.state_json(game)

    async def broken(click: Any) -> None:
        raise RuntimeError("a bug")

    monkeypatch.setattr(table.bot.get_cog("Play"), "simple", broken)
    clicked = await table.alice.click(turn, label=t("de", "button.roll"))

    assert private_reply(clicked) == NOTHING_CHANGED
    logged = table.expect_logged("Interaction failed")
    assert logged and f"game {game}" in logged[0].getMessage()
    assert f"m:{game}:" in logged[0].getMessage()
    assert await table.state_json(game) == before


async def test_an_exception_after_the_move_was_saved_says_so(
    table: Table, monkeypatch: Any
) -> None:
    """Publishing crashes after Alice's roll was saved: she is told her move was saved and
    the board follows; the sweep brings the turn message up to date."""
    game = await start_game(table, table.alice, table.bob)
    turn = await table.turn_message(game)
    publisher = table.bot.core.publisher
    original = publisher.publish

    async def crash_once(*args: Any, **kwargs: Any) -> bool:
        monkeypatch.setattr(publisher, "publish", original)
        raise RuntimeError("a bug in publishing")

    monkeypatch.setattr(publisher, "publish", crash_once)
    clicked = await table.alice.click(turn, label=t("de", "button.roll"))
    assert private_reply(clicked) == SAVED
    table.expect_logged("Publishing game")
    assert (await table.state(game)).seq > 0

    await table.env.advance_time(61)
    row = await table.row(game)
    assert row.state is not None and row.settings["turn_seq"] == row.state.seq


async def test_a_burst_of_bids_makes_one_edit_a_second(table: Table) -> None:
    """Three players bid one after another within a second: the auction message is edited at
    once for the first bid and once more, with the last bid, when the second is over; the
    turn message is not edited per bid. A click on the auction message as it was shown
    still counts."""
    raw = scenario(
        [table.alice, table.bob, table.carol],
        seed=seed_for((2, 3)),
        may_roll=True,
    )
    game = await play_position(table, raw)
    turn = await table.turn_message(game)
    await table.alice.click(turn, label=t("de", "button.roll"))
    await table.alice.click(table.message(turn.id), label=t("de", "button.decline"))
    auction = await table.auction_message(game)
    await table.bot.core.publisher.coalescer.drain()  # the turn message's last edit
    table.bot.core.publisher.coalescer.interval = 30.0
    requests = table.env.backend.http_requests
    start = len(requests)

    await table.bob.click(table.message(auction.id), label="+10")
    shown = table.message(auction.id)
    await table.carol.click(shown, label="+10")
    await table.alice.click(shown, label="+50")  # drawn two bids ago: still counts

    state = await table.state(game)
    assert state.auction is not None and state.auction["high"] == 70
    edits = [r for r in requests[start:] if r.method == "PATCH"]
    assert [r.path.rsplit("/", 1)[1] for r in edits] == [str(auction.id)]
    await table.env.advance_time(31)
    edits = [r for r in requests[start:] if r.method == "PATCH"]
    assert [r.path.rsplit("/", 1)[1] for r in edits] == [str(auction.id)] * 2
    assert "70" in (table.message(auction.id).embeds[0].description or "")


async def test_bids_into_a_failing_auction_message_are_put_right(table: Table) -> None:
    """The edit of the auction message fails after Bob's exact bid: the bid stands, and the
    sweep posts the auction message again, showing it."""
    raw = scenario([table.alice, table.bob], seed=seed_for((2, 3)), may_roll=True)
    game = await play_position(table, raw)
    turn = await table.turn_message(game)
    await table.alice.click(turn, label=t("de", "button.roll"))
    await table.alice.click(table.message(turn.id), label=t("de", "button.decline"))
    auction = await table.auction_message(game)
    table.env.inject_error("PATCH", ONE_MESSAGE, status=500, message="injected", times=None)
    await submit_bid(table.bob, table.message(auction.id), "١٢٠")  # Arabic-Indic digits
    state = await table.state(game)
    assert state.auction is not None and state.auction["high"] == 120
    table.env.backend.faults.clear()

    await table.env.advance_time(61)

    fresh = await table.auction_message(game)
    assert fresh.id != auction.id
    assert "120" in (fresh.embeds[0].description or "")


async def test_start_names_the_permissions_the_bot_lacks(table: Table) -> None:
    """``/monopoly start`` in a channel where the bot may not embed links or attach files:
    a private refusal naming both, and no lobby is created."""
    me = table.guild.me
    assert me is not None
    closed = table.guild.create_text_channel(
        "no-embeds",
        overwrites={me: discord.PermissionOverwrite(embed_links=False, attach_files=False)},
    )
    refused = await table.alice.slash(closed, "monopoly start", language="de")
    text = private_reply(refused)
    assert "Links einbetten" in text and "Dateien anhängen" in text
    assert await table.bot.store.game_in_channel(closed.id) is None
    assert [m for m in closed.history() if m.author.bot and not m.flags.ephemeral] == []


async def test_an_upgrade_keeps_running_deadlines_and_messages(table: Table, database: Any) -> None:
    """A game stored by the previous version (no record of what its messages show or for
    which state its timers were planned) is restarted on this one: its deadline keeps its
    time and its turn message stays the live one."""
    game = await start_game(table, table.alice, table.bob, deadline="1h")
    before = {tm.kind: tm for tm in await table.bot.store.pending_timers(game)}["deadline"]
    row = await table.row(game)
    legacy = {k: v for k, v in row.settings.items() if k not in ("planned_seq", "turn_seq")}
    await table.bot.store.set_settings(game, legacy)
    await table.env.advance_time(600)

    await restart(table, database)
    await table.env.settle()

    after = {tm.kind: tm for tm in await table.bot.store.pending_timers(game)}["deadline"]
    assert after.due_at == before.due_at
    row = await table.row(game)
    assert row.settings["turn_message"] == legacy["turn_message"]
    assert row.state is not None and row.settings["planned_seq"] == row.state.seq
    await table.alice.click(await table.turn_message(game), label=t("de", "button.roll"))
    assert (await table.state(game)).seq > row.state.seq


async def test_a_failed_auction_message_is_posted_by_the_sweep(table: Table) -> None:
    """Alice declines the Südbahnhof and the auction's message cannot be posted: the
    auction is saved, and the sweep posts its message; Bob can bid there."""
    raw = scenario([table.alice, table.bob], seed=seed_for((2, 3)), may_roll=True)
    game = await play_position(table, raw)
    turn = await table.turn_message(game)
    await table.alice.click(turn, label=t("de", "button.roll"))
    table.env.inject_error("POST", MESSAGES, status=500, message="injected")
    clicked = await table.alice.click(table.message(turn.id), label=t("de", "button.decline"))
    assert SAVED in private_reply(clicked)
    assert (await table.state(game)).auction is not None
    assert "auction_message" not in (await table.row(game)).settings

    await table.env.advance_time(61)

    auction = await table.auction_message(game)
    await table.bob.click(auction, label="+10")
    state = await table.state(game)
    assert state.auction is not None and state.auction["leader"] == 1


async def test_a_failed_trade_offer_message_is_posted_by_the_sweep(table: Table) -> None:
    """Alice offers Bob money for his street and the public offer cannot be posted: the
    offer stands, the sweep posts it, and Bob accepts it there."""
    raw = scenario([table.alice, table.bob], lots={"3": {"owner": 1}}, may_roll=True)
    game = await play_position(table, raw)
    builder = (await table.alice.slash(table.channel, "monopoly trade", member=table.bob)).response
    select = next(
        c["custom_id"]
        for row in builder.components
        for c in row["components"]
        if ":tl:" in str(c.get("custom_id")) and "-t-" in str(c.get("custom_id"))
    )
    await table.alice.select(builder, ["3"], custom_id=select)
    table.env.inject_error("POST", f"/channels/{table.channel.id}/messages", status=500)
    await table.alice.click(builder, label="Angebot senden")
    state = await table.state(game)
    assert len(state.trades) == 1
    assert not (await table.row(game)).settings.get("trade_messages")

    await table.env.advance_time(61)

    offers = (await table.row(game)).settings["trade_messages"]
    offer = table.message(offers[str(state.trades[0]["id"])])
    await table.bob.click(offer, label=t("de", "trade.accept"))
    assert (await table.state(game)).owner[3] == 0


async def test_a_failed_edit_of_the_card_table_is_put_right(table: Table) -> None:
    """In the card game, the edit of the table message fails after Alice draws: her move
    stands, and the sweep posts the table again with the right button."""
    await table.alice.slash(table.channel, "monopoly start", language="de", game="cards")
    lobby = table.channel.last_message
    await table.bob.click(lobby, label=t("de", "button.join"))
    await table.alice.click(lobby, label=t("de", "button.start"))
    game = await table.game_id()
    row = await table.row(game)
    old = row.settings["table_message"]
    state = row.state
    assert state is not None
    first = table.member(state.players[state.current].id)
    hand = (await first.click(table.message(old), label="🂠 Meine Hand")).response
    table.env.inject_error("PATCH", f"/channels/{table.channel.id}/messages/{old}", status=500)
    await first.click(hand, label=t("de", "cards.button.draw"))
    assert (await table.state(game)).seq > state.seq

    await table.env.advance_time(61)

    row = await table.row(game)
    assert row.settings["table_message"] != old
    assert row.state is not None and row.settings["table_seq"] == row.state.seq


async def test_an_exception_in_a_slash_command_is_answered(table: Table, monkeypatch: Any) -> None:
    """A bug behind ``/monopoly board``: the member is told that nothing was changed (in
    place of the board the command was about to post), and the failure is logged with the
    command's name; nothing is left "thinking"."""
    await start_game(table, table.alice, table.bob)

    async def broken(*args: Any, **kwargs: Any) -> Any:
        raise RuntimeError("a bug in drawing")

    monkeypatch.setattr("cogs.play.board_file", broken)
    answered = await table.alice.slash(table.channel, "monopoly board")
    assert answered.response is not None and answered.response.content == NOTHING_CHANGED
    logged = table.expect_logged("Interaction failed")
    assert logged and "monopoly board" in logged[0].getMessage()
    assert still_thinking(table) == []
