"""Games that run for days: settings, pause, vacation, the vote, reminders, closing times.

The virtual clock of simcord moves with ``env.advance_time``; the bot's timers fire as
they would over hours and days (see ``test_deadlines.py``).
"""

from __future__ import annotations

from typing import Any

import discord

from bot.engine.legal import waiting_for
from bot.i18n import t
from tests.discord.helpers import (
    BADSTRASSE,
    TURMSTRASSE,
    Member,
    Table,
    buttons,
    click_as_shown,
    embed_text,
    mortgage_from_menu,
    play_position,
    private_reply,
    rolled,
    scenario,
    seed_for,
    snapshot,
)

pytest_plugins = ["tests.discord.helpers"]

ROLL = t("de", "button.roll")
END_TURN = t("de", "button.end_turn")
#: Every throw 1+3: from LOS onto the income tax, a position with nothing to decide.
TAX_THROWS = seed_for((1, 3), (1, 3), (1, 3), (1, 3))


def said(table: Table, text: str) -> list[discord.Message]:
    """The bot's public messages containing ``text`` (content or embeds)."""
    return [m for m in table.bot_messages() if text in embed_text(m)]


def dms(member: Member) -> list[str]:
    """The direct messages the bot sent ``member``."""
    return [m.content for m in member.user.dm_channel.history() if m.author.bot]


async def settings_of(table: Table, game: int) -> dict[str, Any]:
    return dict((await table.row(game)).settings)


async def two_players_on_tax_throws(table: Table, **options: Any) -> int:
    """Alice (host, first) and Bob; every throw is 1+3. ``options`` go to /monopoly settings."""
    game = await play_position(table, scenario([table.alice, table.bob], seed=TAX_THROWS))
    if options:
        await table.alice.slash(table.channel, "monopoly settings", **options)
    return game


async def play_tax_turn(table: Table, game: int, member: Member) -> None:
    """``member`` throws 1+3 (income tax, paid at once) and ends the turn."""
    await member.click(await table.turn_message(game), label=ROLL)
    await member.click(await table.turn_message(game), label=END_TURN)


# -- settings -----------------------------------------------------------------------------


async def test_the_host_sets_the_time_settings_in_the_lobby(table: Table) -> None:
    """Anyone may look at the settings; only the host changes them. The lobby shows them."""
    await table.alice.slash(table.channel, "monopoly start", language="de")
    lobby_id = table.channel.last_message.id
    await table.bob.click(table.message(lobby_id), label=t("de", "button.join"))

    refused = await table.bob.slash(table.channel, "monopoly settings", deadline="24h")
    assert private_reply(refused) == t("de", "error.host_only")
    shown = await table.bob.slash(table.channel, "monopoly settings")
    assert t("de", "timing.deadline", value=t("de", "timing.off")) in private_reply(shown)

    await table.alice.slash(
        table.channel,
        "monopoly settings",
        deadline="24h",
        trade_time="48h",
        missed_limit=2,
        auction_mode="sealed",
    )
    lobby = embed_text(table.message(lobby_id))
    assert t("de", "timing.deadline", value=t("de", "duration.24h")) in lobby
    assert t("de", "timing.trade_time", value=t("de", "duration.48h")) in lobby
    assert t("de", "timing.auction_mode", value=t("de", "timing.mode.sealed")) in lobby
    announced = table.channel.last_message.content
    assert t("de", "timing.changed", host="alice") in announced

    await table.alice.click(table.message(lobby_id), label=t("de", "button.start"))
    state = await table.state()
    assert state.rules.sealed_auctions  # fixed into the game's rules at the start
    later = await table.alice.slash(table.channel, "monopoly settings", auction_mode="live")
    assert private_reply(later) == t("de", "error.auction_mode_fixed")
    assert (await table.state()).rules.sealed_auctions


async def test_settings_without_a_game_are_refused(table: Table) -> None:
    result = await table.alice.slash(table.channel, "monopoly settings", deadline="1h")
    assert private_reply(result) == t("de", "error.no_game_here")


# -- pause and resume ---------------------------------------------------------------------


async def test_a_paused_game_fires_no_timers_and_takes_no_moves(table: Table) -> None:
    """The host pauses: the timers are gone, a click is refused politely and changes
    nothing, hours pass without a deadline. After ``resume`` a whole new deadline runs."""
    game = await two_players_on_tax_throws(table, deadline="1h")
    assert await table.bot.store.pending_timers(game)

    refused = await table.bob.slash(table.channel, "monopoly pause")
    assert private_reply(refused) == t("de", "error.host_only")
    await table.alice.slash(table.channel, "monopoly pause")
    assert said(table, t("de", "pause.paused", host="alice"))
    assert await table.bot.store.pending_timers(game) == []

    before = await table.state_json(game)
    click = await table.alice.click(await table.turn_message(game), label=ROLL)
    assert private_reply(click) == t("de", "error.game_paused")
    await table.env.advance_time(5 * 3600)
    assert await table.state_json(game) == before
    assert not said(table, t("de", "deadline.passed", players="alice"))

    again = await table.alice.slash(table.channel, "monopoly pause")
    assert private_reply(again) == t("de", "pause.already")
    await table.alice.slash(table.channel, "monopoly resume")
    assert said(table, t("de", "pause.resumed", host="alice"))
    deadline = {tm.kind: tm for tm in await table.bot.store.pending_timers(game)}["deadline"]
    assert (deadline.due_at - table.env.now()).total_seconds() == 3600
    await table.env.advance_time(3600)
    assert said(table, t("de", "deadline.passed", players="alice"))


async def test_a_paused_time_limit_keeps_its_remaining_time(table: Table) -> None:
    """A two-hour game paused after one hour for a day still has an hour after resuming."""
    await table.alice.slash(table.channel, "monopoly start", language="de", preset="time_limit")
    lobby = table.channel.last_message
    await table.bob.click(lobby, label=t("de", "button.join"))
    await table.alice.click(lobby, label=t("de", "button.start"))
    game = await table.game_id()
    await table.env.advance_time(3600)
    await table.alice.slash(table.channel, "monopoly pause")
    await table.env.advance_time(24 * 3600)
    assert (await table.state(game)).phase != "over"
    await table.alice.slash(table.channel, "monopoly resume")
    end = {tm.kind: tm for tm in await table.bot.store.pending_timers(game)}["time_up"]
    assert (end.due_at - table.env.now()).total_seconds() == 3600
    await table.env.advance_time(3600)
    assert (await table.state(game)).phase == "over"


# -- the time limit -----------------------------------------------------------------------


async def test_the_time_limit_ends_the_game_and_posts_the_result(table: Table) -> None:
    """000 "Spielvariante mit Zeitlimit": the host agrees on one hour; when it is up (nobody
    in the middle of a turn) the game ends, the richest wins, the result and the final
    board are posted."""
    await table.alice.slash(table.channel, "monopoly start", language="de", preset="time_limit")
    lobby = table.channel.last_message
    await table.bob.click(lobby, label=t("de", "button.join"))
    await table.alice.slash(table.channel, "monopoly settings", time_limit="1h")
    await table.alice.click(lobby, label=t("de", "button.start"))
    game = await table.game_id()
    settings = await settings_of(table, game)
    assert settings["ends_at"] == int(table.env.now().timestamp()) + 3600

    await table.env.advance_time(59 * 60)
    assert (await table.state(game)).phase != "over"
    await table.env.advance_time(60)
    state = await table.state(game)
    assert (state.phase, state.end_reason) == ("over", "time_limit")
    final = table.channel.last_message
    assert final.embeds[0].title == t("de", "final.winner", name=state.players[state.winner].name)
    assert final.attachments  # the final board
    assert await table.bot.store.pending_timers(game) == []


# -- vacation, the vote, taking over ------------------------------------------------------


async def test_vacation_lets_the_computer_play_until_the_player_is_back(table: Table) -> None:
    """Bob goes on vacation: his turn is played by the computer a moment after Alice
    ends hers. ``/monopoly vacation away:False`` gives him his seat back."""
    game = await two_players_on_tax_throws(table)
    await table.bob.slash(table.channel, "monopoly vacation")
    assert said(table, t("de", "vacation.away", player="bob"))
    again = await table.bob.slash(table.channel, "monopoly vacation")
    assert private_reply(again) == t("de", "vacation.already_away")

    await play_tax_turn(table, game, table.alice)
    await table.env.advance_time(30)
    state = await table.state(game)
    assert state.players[1].position == 4  # the computer threw for bob
    assert 1 not in waiting_for(state)

    await table.bob.slash(table.channel, "monopoly vacation", away=False)
    assert said(table, t("de", "vacation.back", player="bob"))
    assert (await settings_of(table, game)).get("computer") == {}


async def test_a_player_who_acts_takes_the_seat_back(table: Table) -> None:
    """Whoever acts for their own seat is back and the computer lets go: Bob, on vacation,
    mortgages his Badstraße while Alice is at her turn."""
    raw = scenario([table.alice, table.bob], seed=TAX_THROWS, lots={str(BADSTRASSE): {"owner": 1}})
    game = await play_position(table, raw)
    await table.bob.slash(table.channel, "monopoly vacation")
    assert (await settings_of(table, game))["computer"] == {"1": "vacation"}
    await mortgage_from_menu(table, table.bob, await table.turn_message(game), "Badstraße")
    assert (await table.state(game)).mortgaged[BADSTRASSE]
    assert (await settings_of(table, game)).get("computer") == {}
    assert t("de", "vacation.back", player="bob") in embed_text(await table.turn_message(game))


async def test_missed_deadlines_lead_to_a_vote_and_the_computer_plays(table: Table) -> None:
    """With ``missed_limit`` 1 Alice's first missed deadline opens a vote. Bob, the only
    other player, chooses the computer; from then on it plays Alice's turns."""
    game = await two_players_on_tax_throws(table, deadline="1h", missed_limit=1)
    await table.env.advance_time(3600)
    vote = said(table, t("de", "vote.option.computer") + ": 0")
    assert vote, "no vote was opened"
    assert f"<@{table.bob.id}>" in vote[-1].content

    shown = snapshot(table, vote[-1])
    wrong = await table.alice.click(vote[-1], label=t("de", "vote.option.computer"))
    assert private_reply(wrong) == t("de", "error.vote_own_seat")
    await table.bob.click(vote[-1], label=t("de", "vote.option.computer"))
    assert table.message(vote[-1].id).content == t("de", "vote.computer", player="alice")
    assert (await settings_of(table, game))["computer"] == {"0": "vote"}
    closed = await click_as_shown(table, table.bob, shown, t("de", "vote.option.computer"))
    assert private_reply(closed) == t("de", "error.vote_closed")

    await play_tax_turn(table, game, table.bob)
    await table.env.advance_time(30)
    state = await table.state(game)
    assert state.players[0].position == 8  # the computer's second throw for alice
    assert 0 not in waiting_for(state)


async def test_the_table_votes_to_remove_an_absent_player(table: Table) -> None:
    """Three players; Alice misses her deadline. One vote to remove is not a majority of
    two; the second is, and Alice leaves the game, her assets going to the bank."""
    raw = scenario(
        [(table.alice, {}), table.bob, table.carol],
        seed=TAX_THROWS,
        lots={str(BADSTRASSE): {"owner": 0}},
    )
    game = await play_position(table, raw)
    await table.alice.slash(table.channel, "monopoly settings", deadline="1h", missed_limit=1)
    await table.env.advance_time(3600)
    vote = said(table, t("de", "vote.option.remove") + ": 0")[-1]
    await table.bob.click(vote, label=t("de", "vote.option.remove"))
    assert t("de", "vote.option.remove") + ": 1" in table.message(vote.id).content
    assert not (await table.state(game)).players[0].bankrupt
    await table.carol.click(vote, label=t("de", "vote.option.remove"))
    assert table.message(vote.id).content == t("de", "vote.remove", player="alice")
    state = await table.state(game)
    assert state.players[0].bankrupt
    assert state.owner[BADSTRASSE] is None or state.owner[BADSTRASSE] < 0


async def test_the_absent_player_comes_back_before_the_vote_ends(table: Table) -> None:
    game = await two_players_on_tax_throws(table, deadline="1h", missed_limit=1)
    await table.env.advance_time(3600)
    vote = said(table, t("de", "vote.option.computer") + ": 0")[-1]
    await table.alice.click(vote, label=t("de", "vote.option.back", player="alice"))
    assert table.message(vote.id).content == t("de", "vote.back", player="alice")
    settings = await settings_of(table, game)
    assert settings["missed"]["0"] == 0 and not settings.get("computer")


# -- reminders on demand ------------------------------------------------------------------


async def test_remind_nudges_the_player_in_the_channel_and_by_dm_once_an_hour(
    table: Table,
) -> None:
    await table.alice.slash(table.channel, "monopoly notify", enabled=True)
    game = await two_players_on_tax_throws(table)
    own = await table.alice.slash(table.channel, "monopoly remind")
    assert private_reply(own) == t("de", "remind.nobody")

    sent = await table.bob.slash(table.channel, "monopoly remind")
    assert private_reply(sent) == t("de", "remind.sent")
    assert said(table, t("de", "remind.text", players=f"<@{table.alice.id}>", by="bob"))
    assert len(dms(table.alice)) == 1 and "bob" in dms(table.alice)[0]

    before = await table.state_json(game)
    soon = await table.bob.slash(table.channel, "monopoly remind")
    assert private_reply(soon).startswith(t("de", "error.remind_too_soon", again="")[:20])
    assert await table.state_json(game) == before
    await table.env.advance_time(3600)
    await table.bob.slash(table.channel, "monopoly remind")
    assert len(dms(table.alice)) == 2

    await table.alice.slash(table.channel, "monopoly notify", enabled=False)
    await table.env.advance_time(3600)
    await table.bob.slash(table.channel, "monopoly remind")
    assert len(dms(table.alice)) == 2  # opted out: only the channel mention


async def test_remind_from_a_spectator_is_refused(table: Table) -> None:
    await two_players_on_tax_throws(table)
    result = await table.carol.slash(table.channel, "monopoly remind")
    assert private_reply(result) == t("de", "error.not_a_player")


# -- closing times ------------------------------------------------------------------------


async def test_a_live_auction_closes_at_its_closing_time(table: Table) -> None:
    """Auctions run for 5 minutes: Alice declines Turmstraße, Bob bids 10 €, nobody else
    does anything; at the closing time Bob has it for 10 €."""
    raw = scenario([table.alice, table.bob, table.carol], steps=[rolled(0, 1, 2)])
    game = await play_position(table, raw)
    await table.alice.slash(table.channel, "monopoly settings", auction_time="5m")
    await table.alice.click(await table.turn_message(game), label=t("de", "button.decline"))
    auction = await table.auction_message(game)
    assert t("de", "auction.closes") in embed_text(auction)
    await table.bob.click(auction, label="+10")
    await table.env.advance_time(5 * 60)
    state = await table.state(game)
    assert state.auction is None and state.owner[TURMSTRASSE] == 1
    assert said(table, t("de", "auction.time_up"))
    assert await table.bot.store.pending_timers(game) == []


async def test_a_trade_offer_expires(table: Table) -> None:
    """Trade offers stand for an hour: Bob does not answer Alice's offer, so it lapses
    and its buttons go."""
    game = await two_players_on_tax_throws(table, trade_time="1h")
    result = await table.alice.slash(table.channel, "monopoly trade", member=table.bob)
    builder = result.response
    money = next(
        c["custom_id"]
        for row in builder.components
        for c in row.get("components", [])
        if ":tm:" in str(c.get("custom_id", ""))
    )
    shown = await table.alice.click(builder, custom_id=money)
    await table.alice.submit_modal(shown, {"give": "10", "get": ""})
    await table.alice.click(builder, label=t("de", "trade.send"))
    offer = table.bot_messages()[-1]
    assert t("de", "trade.closes") in embed_text(offer)
    assert (await table.state(game)).trades

    await table.env.advance_time(3600)
    assert not (await table.state(game)).trades
    assert said(table, t("de", "trade.timed_out", player="bob"))
    assert buttons(table.message(offer.id)) == []


# -- the daily digest ---------------------------------------------------------------------


async def test_the_daily_digest_comes_once_a_day_until_the_game_ends(table: Table) -> None:
    game = await two_players_on_tax_throws(table, digest="8")
    title = t("de", "digest.title", turn=1)
    await table.env.advance_time(8 * 3600 - 60)  # the clock starts at midnight UTC
    assert not said(table, title)
    await table.env.advance_time(60)
    digest = said(table, title)
    assert len(digest) == 1 and digest[0].attachments
    text = embed_text(digest[0])
    assert "alice" in text and t("de", "digest.standings") in text

    await table.env.advance_time(24 * 3600)
    assert len(said(table, title)) == 2
    await table.alice.slash(table.channel, "monopoly end")
    assert await table.bot.store.pending_timers(game) == []
    await table.env.advance_time(24 * 3600)
    assert len(said(table, title)) == 2


# -- sealed bids --------------------------------------------------------------------------


async def submit_sealed(member: Member, auction: discord.Message, amount: str) -> Any:
    """``member`` opens the "Sealed bid" form of the auction message and submits ``amount``."""
    shown = await member.click(auction, label=t("de", "button.sealed_bid"))
    assert shown.modal is not None, "the sealed bid button opened no form"
    field = shown.modal["components"][0]
    inner = field.get("components") or [field.get("component")]
    return await member.submit_modal(shown, {inner[0]["custom_id"]: amount})


async def sealed_auction_of_turmstrasse(table: Table, **options: Any) -> int:
    """Alice, Bob and Carol play with sealed bids; Alice declines Turmstraße (60 €)."""
    raw = scenario(
        [table.alice, table.bob, table.carol],
        steps=[rolled(0, 1, 2)],
        rules={"sealed_auctions": True},
    )
    game = await play_position(table, raw)
    if options:
        await table.alice.slash(table.channel, "monopoly settings", **options)
    await table.alice.click(await table.turn_message(game), label=t("de", "button.decline"))
    return game


async def test_a_sealed_bid_auction_with_three_players(table: Table) -> None:
    """Sealed bids (a house rule): each of the three submits a private maximum in a form
    and only they see the amount. When the last one is in, the highest (Bob, 80 €) wins
    and pays the second-highest plus the minimum raise: 60 € + 1 € = 61 €. Then every
    bid is shown."""
    game = await sealed_auction_of_turmstrasse(table)
    auction = await table.auction_message(game)
    assert t("de", "button.sealed_bid") in buttons(auction)
    assert "+10" not in buttons(auction)  # no live bidding

    mine = await submit_sealed(table.bob, auction, "80")
    assert private_reply(mine) == t("de", "auction.sealed_confirm", amount="80 €")
    await submit_sealed(table.alice, await table.auction_message(game), "60 €")
    shown = embed_text(await table.auction_message(game))
    # Who has bid, never how much (" 80 €": the Turmstraße's rents include "180 €").
    assert "alice, bob" in shown and " 80 €" not in shown
    assert not any(" 80 €" in embed_text(m) for m in table.bot_messages())

    too_much = await submit_sealed(table.carol, await table.auction_message(game), "5000")
    assert "1.500 €" in private_reply(too_much)  # above her cash: refused, nothing changes
    assert (await table.state(game)).auction is not None
    await submit_sealed(table.carol, await table.auction_message(game), "40")

    state = await table.state(game)
    assert state.auction is None and state.owner[TURMSTRASSE] == 1
    assert state.players[1].cash == 1500 - 61
    closed = table.message(auction.id).content  # the auction message, now with every bid
    assert "bob 80 €, alice 60 €, carol 40 €" in closed and "61 €" in closed


async def test_a_sealed_auction_closes_at_its_closing_time(table: Table) -> None:
    """Auctions run for an hour; Carol never submits. At the closing time she counts as
    passed and Bob, the only bidder, pays the minimum (1 €)."""
    game = await sealed_auction_of_turmstrasse(table, auction_time="1h")
    auction = await table.auction_message(game)
    await submit_sealed(table.bob, auction, "50")
    await table.alice.click(await table.auction_message(game), label=t("de", "button.pass"))
    await table.env.advance_time(3600)
    state = await table.state(game)
    assert state.auction is None and state.owner[TURMSTRASSE] == 1
    assert state.players[1].cash == 1500 - 1
