"""The turn message players trust: one message per turn that tells that turn, a picture
that follows the game, and a live message that is always there (issue 21).

Played through simcord the way players play: clicks on the real bot's messages.
"""

from __future__ import annotations

import hashlib
import logging
from typing import Any

import discord
import pytest

from bot.i18n import t
from tests.discord.helpers import (
    SUEDBAHNHOF,
    TURMSTRASSE,
    Table,
    alt_text,
    buttons,
    embed_text,
    fresh,
    play_position,
    private_reply,
    rolled,
    scenario,
    seed_for,
    turn_actions,
)

pytest_plugins = ["tests.discord.helpers"]

ONE_MESSAGE = "/channels/*/messages/*"


async def picture(message: discord.Message) -> str:
    """A fingerprint of the message's turn picture (its bytes)."""
    [attachment] = [a for a in message.attachments if a.filename == "turn.png"]
    return hashlib.sha256(await attachment.read()).hexdigest()


async def test_a_finished_turn_keeps_its_title_log_and_picture(table: Table) -> None:
    """Alice throws 2+3 onto the Südbahnhof, buys it and ends her turn. Her message stays
    hers: "Zug 1 · alice", her throw and purchase, the picture of how her turn ended, no
    buttons and nothing that says whose move it is. Only Bob's new message does."""
    game = await play_position(
        table, scenario([table.alice, table.bob], seed=seed_for((2, 3), (1, 1)))
    )
    turn = await table.turn_message(game)
    await table.alice.click(turn, label=t("de", "button.roll"))
    await table.alice.click(table.message(turn.id), label="Kaufen (200 €)")
    before_end = await picture(table.message(turn.id))

    await table.alice.click(table.message(turn.id), label=t("de", "button.end_turn"))

    old = table.message(turn.id)
    embed = old.embeds[0]
    assert embed.title == "Zug 1 · alice"
    assert "🎲 alice würfelt 2 + 3 = 5 → Südbahnhof" in embed.description
    assert "🏠 alice kauft Südbahnhof für 200 €" in embed.description
    assert embed.footer.text is None
    assert "▶" not in embed_text(old)
    assert buttons(old) == []
    assert await picture(old) == before_end  # nothing on the board changed since
    new = await table.turn_message(game)
    assert new.id != old.id
    assert new.embeds[0].title == "Zug 2 · bob"
    assert new.embeds[0].footer.text.startswith("▶ Würfeln · bob")


async def test_the_picture_follows_the_roll_and_the_purchase(table: Table) -> None:
    """The live message's picture is drawn again when the board changes: after Alice's
    throw (her token moved) and after her purchase (the lot is hers, her cash less). The
    kept picture is listed by id in an edit that does not change it."""
    game = await play_position(table, scenario([table.alice, table.bob], seed=seed_for((2, 3))))
    turn = await table.turn_message(game)
    start = await picture(turn)
    assert "LOS" in alt_text(turn)

    await table.alice.click(turn, label=t("de", "button.roll"))
    rolled_picture = await picture(table.message(turn.id))
    assert rolled_picture != start
    assert "Südbahnhof" in alt_text(table.message(turn.id))

    await table.alice.click(table.message(turn.id), label="Kaufen (200 €)")
    bought = await picture(table.message(turn.id))
    assert bought != rolled_picture
    assert "1.300 €" in alt_text(table.message(turn.id))
    assert len(table.message(turn.id).attachments) == 1


async def test_bids_change_neither_the_turn_message_nor_its_picture(table: Table) -> None:
    """While three players bid, the turn message is not edited (the bids live on the
    auction message); once the auction is over, it shows its end in one line."""
    raw = scenario([table.alice, table.bob, table.carol], steps=[rolled(0, 2, 3)])
    game = await play_position(table, raw)
    turn = await table.turn_message(game)
    await table.alice.click(turn, label=t("de", "button.decline"))
    auction = await table.auction_message(game)
    await table.bot.core.publisher.coalescer.drain()
    requests = table.env.backend.http_requests
    start = len(requests)

    await table.bob.click(table.message(auction.id), label="+10")
    await table.carol.click(table.message(auction.id), label="+10")
    await table.bob.click(table.message(auction.id), label="+10")
    await table.bot.core.publisher.coalescer.drain()

    touched = {r.path.rsplit("/", 1)[1] for r in requests[start:] if r.method == "PATCH"}
    assert str(turn.id) not in touched
    for member in (table.alice, table.carol):
        await member.click(table.message(auction.id), label="Passen")
    text = embed_text(table.message(turn.id))
    assert "🔨 bob ersteigert Südbahnhof für 30 € · 3 Gebote" in text
    assert "bietet" not in text


async def test_a_pass_at_the_deadline_leaves_no_stale_waiting_list(table: Table) -> None:
    """An auction with a deadline of an hour: Bob bids, Alice and Carol do nothing. At the
    deadline they pass; the auction ends, and the turn message says what the game waits
    for now – never the old list of bidders."""
    raw = scenario([table.alice, table.bob, table.carol], steps=[rolled(0, 1, 2)])
    game = await play_position(table, raw)
    await table.alice.slash(table.channel, "monopoly settings", deadline="1h")
    turn = await table.turn_message(game)
    await table.alice.click(turn, label=t("de", "button.decline"))
    auction = await table.auction_message(game)
    time_left = (t("de", "auction.closes"), t("de", "turn.deadline"))
    assert any(word in embed_text(auction) for word in time_left)
    await table.bob.click(auction, label="+10")
    assert table.message(turn.id).embeds[0].footer.text.startswith("▶ Versteigerung läuft")

    await table.env.advance_time(3600 + 5)

    state = await table.state(game)
    assert state.auction is None and state.owner[TURMSTRASSE] == 1
    live = await table.turn_message(game)
    footer = live.embeds[0].footer.text
    assert footer.startswith(f"▶ {t('de', 'phase.' + state.phase)}")
    assert "Versteigerung" not in footer
    assert "🔨 bob ersteigert Turmstraße für 10 € · 1 Gebot" in embed_text(table.message(turn.id))


async def test_the_game_goes_on_when_no_picture_can_be_drawn(
    table: Table, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The renderer fails every time: every turn message goes out without its picture but
    with its text and buttons (the players' cash as text), the failure is logged once, and
    the players play on. Once drawing works again, a sweep adds the picture."""

    def broken(*args: Any, **kwargs: Any) -> bytes:
        raise RuntimeError("the renderer is broken")

    monkeypatch.setattr("cogs.ui.turn.render_turn_view", broken)
    monkeypatch.setattr("cogs.ui.turn.render_board", broken)
    game = await play_position(
        table, scenario([table.alice, table.bob], seed=seed_for((2, 3), (1, 1)))
    )
    turn = await table.turn_message(game)
    assert turn.attachments == []
    assert "1.500 €" in embed_text(turn)  # the standings as text
    await table.alice.click(turn, label=t("de", "button.roll"))
    await table.alice.click(table.message(turn.id), label="Kaufen (200 €)")
    await table.alice.click(table.message(turn.id), label=t("de", "button.end_turn"))
    new = await table.turn_message(game)
    assert new.id != turn.id and new.attachments == []
    seq = (await table.state(game)).seq
    await table.bob.click(new, label=t("de", "button.roll"))
    assert (await table.state(game)).seq > seq  # Bob's throw went through
    logged = table.expect_logged("could not be drawn")
    assert len(logged) == 1  # once, not once per picture or per try

    monkeypatch.undo()
    await table.env.advance_time(61)
    live = await table.turn_message(game)
    assert [a.filename for a in live.attachments] == ["turn.png"]
    assert live.attachments[0].description


async def test_every_picture_says_what_it_shows(table: Table) -> None:
    """Every image the game posts – turn pictures, the whole board, a title deed – carries
    alt text that names the players and the squares."""
    game = await play_position(table, scenario([table.alice, table.bob], steps=[rolled(0, 2, 3)]))
    turn = await table.turn_message(game)
    board = await table.bob.click(turn, label=t("de", "button.full_board"))
    deed = await table.bob.click(turn, label=t("de", "button.deed"))

    for message in table.bot_messages():
        for attachment in message.attachments:
            assert attachment.description, attachment.filename
    shown = fresh(table, board.response)
    assert shown.ephemeral
    [board_file] = shown.attachments
    assert "alice" in board_file.description and "bob" in board_file.description
    assert "alice" in shown.embeds[0].description  # the holdings as text
    [deed_file] = fresh(table, deed.response).attachments
    assert "Südbahnhof" in deed_file.description
    assert "Preis 200 €" in private_reply(deed)


async def test_a_deleted_live_message_comes_back_at_once(table: Table) -> None:
    """A moderator deletes the live turn message: it is posted again at once (no deadline
    needed) and Alice plays on from it. A bulk delete of the new one does the same."""
    game = await play_position(table, scenario([table.alice, table.bob]))
    turn = await table.turn_message(game)
    role = table.guild.create_role("Mods", permissions=discord.Permissions(manage_messages=True))
    moderator = table.guild.add_member(table.env.create_user("mod"), roles=[role])
    await moderator.delete(turn)

    again = await table.turn_message(game)
    assert again.id != turn.id
    assert turn_actions(again) == [t("de", "button.roll")]

    table.env.backend.bulk_delete_messages(table.channel.id, [again.id])
    await table.env.settle()
    third = await table.turn_message(game)
    assert third.id not in (turn.id, again.id)
    await table.alice.click(third, label=t("de", "button.roll"))
    assert (await table.state(game)).players[0].position != 0


async def test_the_sweep_finds_a_live_message_deleted_unheard(table: Table) -> None:
    """The bot did not hear of a deletion (it was away): the hourly check finds the live
    message gone and posts it again."""
    game = await play_position(table, scenario([table.alice, table.bob]))
    turn = await table.turn_message(game)
    reconciler = table.bot.core.reconciler
    heard = reconciler.message_deleted

    async def deaf(channel_id: int, message_ids: set[int]) -> None:
        return None

    reconciler.message_deleted = deaf  # type: ignore[method-assign]
    table.env.backend.delete_message(table.channel.id, turn.id)
    await table.env.settle()
    reconciler.message_deleted = heard  # type: ignore[method-assign]
    assert (await table.row(game)).settings["turn_message"] == turn.id

    await table.bot.core.reconciler.sweep(everything=True)
    await table.env.settle()

    assert (await table.turn_message(game)).id != turn.id


async def test_buttons_that_could_not_be_taken_off_are_taken_off_later(table: Table) -> None:
    """Discord refuses the edit that finishes Alice's turn message: Bob's turn goes on, and
    the sweep takes the buttons off Alice's message a minute later."""
    game = await play_position(table, scenario([table.alice, table.bob], may_roll=False))
    turn = await table.turn_message(game)
    await table.bot.core.publisher.coalescer.drain()
    table.env.inject_error("PATCH", ONE_MESSAGE, status=500, message="injected")

    await table.alice.click(turn, label=t("de", "button.end_turn"))

    assert (await table.turn_message(game)).id != turn.id
    assert buttons(table.message(turn.id))  # the failed edit left them
    assert "unbutton" in (await table.row(game)).settings
    table.expect_logged("injected")
    await table.env.advance_time(61)
    assert buttons(table.message(turn.id)) == []
    assert table.message(turn.id).embeds[0].title == "Zug 1 · alice"
    assert "unbutton" not in (await table.row(game)).settings


async def test_a_refused_edit_does_not_blame_a_missing_permission(
    table: Table, caplog: pytest.LogCaptureFixture
) -> None:
    """Discord refuses an edit with 403 although the bot has every permission: nobody is
    told to grant "Nachrichten senden"; the failure is logged and the game goes on."""
    game = await play_position(table, scenario([table.alice, table.bob], steps=[rolled(0, 1, 2)]))
    turn = await table.turn_message(game)
    await table.bot.core.publisher.coalescer.drain()
    table.env.inject_error("PATCH", ONE_MESSAGE, status=403, code=50001, message="Missing Access")
    with caplog.at_level(logging.WARNING):
        await table.alice.click(turn, label="Kaufen (60 €)")
    table.expect_logged("Missing Access")
    said = [m.content for m in table.channel.history() if m.author.bot and m.content]
    assert not any("Nachrichten senden" in text for text in said)
    dm = table.alice.user.dm_channel
    assert dm is None or not any("Nachrichten senden" in m.content for m in dm.history())
    assert (await table.state(game)).owner[TURMSTRASSE] == 0


async def test_the_auction_shows_what_a_bidder_needs(table: Table) -> None:
    """The auction message shows the lot's list price and rents, every bidder's cash and
    the title deed one click away."""
    raw = scenario([table.alice, (table.bob, {"cash": 900}), table.carol], steps=[rolled(0, 2, 3)])
    game = await play_position(table, raw)
    await table.alice.click(await table.turn_message(game), label=t("de", "button.decline"))
    auction = await table.auction_message(game)
    text = embed_text(auction)
    assert "Preis 200 €" in text
    assert "Miete mit 1–4 Bahnhöfen: 25 € / 50 € / 100 € / 200 €" in text
    assert "bob (900 €)" in text
    deed = await table.carol.click(auction, label=t("de", "button.deed"))
    assert "Südbahnhof" in private_reply(deed)
    assert (await table.state(game)).owner[SUEDBAHNHOF] == -1


async def test_the_card_game_goes_on_when_no_picture_can_be_drawn(
    table: Table, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The card game's renderer fails every time: the table and the hands go out without
    their pictures, and the players play on; the failure is logged once per game."""

    def broken(*args: Any, **kwargs: Any) -> bytes:
        raise RuntimeError("the card renderer is broken")

    for name in ("render_table", "render_hand", "render_round_result"):
        monkeypatch.setattr(f"cogs.ui.cards_table.{name}", broken)
    await table.alice.slash(table.channel, "monopoly start", language="de", game="cards")
    lobby = table.channel.last_message
    await table.bob.click(lobby, label=t("de", "button.join"))
    await table.alice.click(lobby, label=t("de", "button.start"))
    row = await table.row()
    tabletop = table.message(row.settings["table_message"])
    assert tabletop.attachments == [] and tabletop.embeds[0].image.url is None
    state = row.state
    mover = table.member(state.players[state.current].id)
    hand = await mover.click(tabletop, label="🂠 Meine Hand")
    assert hand.ephemeral and hand.response.attachments == []
    await mover.click(hand.response, label=t("de", "cards.button.draw"))
    assert (await table.state()).seq > state.seq
    assert len(table.expect_logged("could not be drawn")) == 1
