"""Following a game without a seat, and the optional pings "you're next" / "last one".

A follower clicks 🔔 on the live turn message (or the card game's table, or in
``/monopoly history``'s answer for a running game) and gets one direct message at the end
of each round with that round's turns — never one per click; 🔕 under it stops them. A
seated player is told politely that they hear of everything anyway. Members who asked
for them (``/monopoly notify next:`` / ``last:``) get a DM when the player before them
starts, and when a whole auction or vote waits only on them — once each.
"""

from __future__ import annotations

import discord

from bot.i18n import t
from tests.discord.helpers import (
    Member,
    Table,
    play_position,
    private_reply,
    rolled,
    scenario,
    seed_for,
)
from tests.discord.test_card_game import play_a_round, start_card_game

pytest_plugins = ["tests.discord.helpers"]

ROLL = t("de", "button.roll")
END_TURN = t("de", "button.end_turn")
FOLLOW = t("de", "button.follow")
STOP = t("de", "follow.stop")
#: The first throws 1+3: from LOS onto the income tax, nothing to decide.
TAX_THROWS = seed_for((1, 3), (1, 3), (1, 3))
#: What a player clicks to get through a turn, first things first.
PRIORITY = (
    "buy",
    "roll",
    "choose_pay",
    "pay_bail",
    "use_jail_card",
    "keep_mortgages",
    "end_turn",
)


def dms(member: Member) -> list[str]:
    """The direct messages the bot sent ``member``."""
    return [m.content for m in member.user.dm_channel.history() if m.author.bot]


def last_dm(member: Member) -> discord.Message:
    return [m for m in member.user.dm_channel.history() if m.author.bot][-1]


async def play_tax_turn(table: Table, game: int, member: Member) -> None:
    """``member`` plays a whole turn: throws (again after doubles), buys what they land
    on, pays what is asked, ends the turn."""
    for _ in range(12):
        turn = await table.turn_message(game)
        offered = {
            child.custom_id.split(":")[3]: child.custom_id
            for row in turn.components
            for child in row.children
            if isinstance(child, discord.Button) and child.custom_id
        }
        action = next(a for a in PRIORITY if a in offered)
        await member.click(turn, custom_id=offered[action])
        if action == "end_turn":
            return
    raise AssertionError("the turn did not end")


async def tax_game(table: Table, *members: Member) -> int:
    """``members`` play on every throw 1+3, the first one first."""
    return await play_position(table, scenario(list(members), seed=TAX_THROWS))


def row_of(message: discord.Message, label: str) -> list[str]:
    """The labels of the button row that holds ``label``."""
    for row in message.components:
        labels = [child.label for child in row.children if isinstance(child, discord.Button)]
        if label in labels:
            return [str(x) for x in labels]
    raise AssertionError(f"no button {label!r}")


# -- following --------------------------------------------------------------------------


async def test_a_follower_gets_one_summary_per_round_until_they_stop(table: Table) -> None:
    """Carol follows Alice and Bob's game with 🔔 (beside 🗺️ Brett). Alice's turn sends
    her nothing; when Bob's ends, the round is over: one DM with both turns and a link.
    The next round makes the second; 🔕 under it stops them, and a third round sends
    nothing."""
    game = await tax_game(table, table.alice, table.bob)
    turn = await table.turn_message(game)
    assert t("de", "button.full_board") in row_of(turn, FOLLOW)
    assert len(turn.components) <= 5 and all(len(r.children) <= 5 for r in turn.components)

    followed = await table.carol.click(turn, label=FOLLOW)
    channel = f"<#{table.channel.id}>"
    assert private_reply(followed) == t("de", "follow.on", game=game, channel=channel)
    assert (await table.row(game)).settings["followers"] == [table.carol.id]

    await play_tax_turn(table, game, table.alice)
    assert dms(table.carol) == []  # never a ping per click
    await play_tax_turn(table, game, table.bob)
    (first,) = dms(table.carol)
    assert t("de", "follow.turns", first=1, last=2) in first
    assert "Zug 1 · alice: " in first and "Zug 2 · bob: " in first
    assert "🎲" in first  # the turn's story: the throw and where it went
    assert f"https://discord.com/channels/{table.guild.id}/{table.channel.id}/" in first

    await play_tax_turn(table, game, table.alice)
    await play_tax_turn(table, game, table.bob)
    assert len(dms(table.carol)) == 2
    second = dms(table.carol)[-1]
    assert "Zug 3 · alice: " in second and "Zug 4 · bob: " in second and "Zug 1 " not in second

    stopped = await table.carol.user.click(last_dm(table.carol), label=STOP)
    assert private_reply(stopped) == t("de", "follow.off", game=game, channel=channel)
    assert "followers" not in (await table.row(game)).settings
    await play_tax_turn(table, game, table.alice)
    await play_tax_turn(table, game, table.bob)
    assert len(dms(table.carol)) == 2


async def test_seated_players_are_refused_and_history_offers_to_follow(table: Table) -> None:
    """Alice plays: 🔔 tells her she hears of everything anyway, and changes nothing.
    Dave asks ``/monopoly history`` for the running game: he may not replay it, but the
    answer lets him follow it; a second click stops it again."""
    game = await tax_game(table, table.alice, table.bob)
    refused = await table.alice.click(await table.turn_message(game), label=FOLLOW)
    assert private_reply(refused) == t("de", "error.follow_seated")
    assert "followers" not in (await table.row(game)).settings

    offer = await table.dave.slash(table.channel, "monopoly history", game=game)
    answer = offer.response
    assert answer.ephemeral and answer.content == t("de", "error.replay_players_only")
    channel = f"<#{table.channel.id}>"
    instead = t("de", "follow.offer_button")
    on = await table.dave.click(answer, label=instead)
    assert private_reply(on) == t("de", "follow.on", game=game, channel=channel)
    assert (await table.row(game)).settings["followers"] == [table.dave.id]
    off = await table.dave.click(answer, label=instead)
    assert private_reply(off) == t("de", "follow.off", game=game, channel=channel)
    assert "followers" not in (await table.row(game)).settings


async def test_a_publish_that_runs_twice_sends_the_round_once(table: Table) -> None:
    """The action that ends a round is shown twice (a retry): the follower still gets one
    summary."""
    game = await tax_game(table, table.alice, table.bob)
    await table.carol.click(await table.turn_message(game), label=FOLLOW)
    await play_tax_turn(table, game, table.alice)
    await table.bob.click(await table.turn_message(game), label=ROLL)
    bot = table.bot
    result = await bot.service.act(game, table.bob.id, {"type": "end_turn"})
    await bot.core.publisher.publish(game, result)
    await bot.core.publisher.publish(game, result)
    await table.env.settle()
    assert len(dms(table.carol)) == 1


async def test_a_card_game_follower_gets_the_round_when_it_is_scored(table: Table) -> None:
    """Dave follows a card game from its table (🔔 beside "Meine Hand"): nothing during
    the round, one DM with its turns and the scores once it is scored."""
    members = [table.alice, table.bob]
    game = await start_card_game(table, members)
    tabletop = table.message((await table.row(game)).settings["table_message"])
    await table.dave.click(tabletop, label=FOLLOW)
    await play_a_round(table, game, members)
    (summary,) = dms(table.dave)
    assert t("de", "follow.round", round=1) in summary
    # One line per turn since he began to follow (turn 1 was under way), then the scores.
    assert "\nZug 2 · " in summary and "\nZug 1 · " not in summary
    assert "🏁" in summary


# -- pings ------------------------------------------------------------------------------


async def test_youre_next_comes_once_when_the_player_before_starts(table: Table) -> None:
    """Carol asked for "you're next": when Bob (before her) starts his turn she gets one
    DM; her own turn and Alice's send none; Bob's next turn the next one. Alice, who did
    not ask, gets none."""
    opted = await table.carol.slash(table.channel, "monopoly notify", next=True)
    assert t("de", "notify.next_on") in private_reply(opted)
    game = await tax_game(table, table.alice, table.bob, table.carol)
    await play_tax_turn(table, game, table.alice)
    (told,) = dms(table.carol)
    assert told.startswith(t("de", "ping.next.dm", player="bob", channel="", link="")[:20])
    await play_tax_turn(table, game, table.bob)
    await play_tax_turn(table, game, table.carol)
    assert len(dms(table.carol)) == 1
    await play_tax_turn(table, game, table.alice)
    assert len(dms(table.carol)) == 2
    assert dms(table.alice) == [] and dms(table.bob) == []


async def test_youre_the_last_one_in_an_auction_comes_once(table: Table) -> None:
    """Alice declines Turmstraße; she bids, Bob passes: the auction waits only on Carol,
    who asked for "last one" — one DM. Carol raises, Alice raises again: it waits on
    Carol alone once more, and she is not told twice."""
    await table.carol.slash(table.channel, "monopoly notify", last=True)
    raw = scenario([table.alice, table.bob, table.carol], steps=[rolled(0, 1, 2)])
    game = await play_position(table, raw)
    await table.alice.click(await table.turn_message(game), label=t("de", "button.decline"))
    await table.alice.click(await table.auction_message(game), label="+10")
    assert dms(table.carol) == []
    await table.bob.click(await table.auction_message(game), label=t("de", "button.pass"))
    (told,) = dms(table.carol)
    assert told.startswith(t("de", "ping.last.auction.dm", channel="", link="")[:20])
    await table.carol.click(await table.auction_message(game), label="+10")
    await table.alice.click(await table.auction_message(game), label="+10")
    state = await table.state(game)
    assert state.auction is not None and state.auction["leader"] == 0  # still open
    assert len(dms(table.carol)) == 1


async def test_youre_the_last_one_in_a_vote_comes_once(table: Table) -> None:
    """Alice misses her deadline; Bob and Carol vote on her seat. Bob votes "keep
    waiting": only Carol's vote is missing, and she (who asked) is told once, also when
    Bob changes his vote."""
    await table.carol.slash(table.channel, "monopoly notify", last=True)
    game = await tax_game(table, table.alice, table.bob, table.carol)
    await table.alice.slash(table.channel, "monopoly settings", deadline="1h", missed_limit=1)
    await table.env.advance_time(3600)
    vote = [m for m in table.bot_messages() if t("de", "vote.option.wait") in (m.content or "")]
    assert vote, "no vote was opened"
    assert dms(table.carol) == []
    await table.bob.click(vote[-1], label=t("de", "vote.option.wait"))
    (told,) = dms(table.carol)
    assert "alice" in told
    assert told.startswith(t("de", "ping.last.vote.dm", player="alice", channel="", link="")[:20])
    await table.bob.click(table.message(vote[-1].id), label=t("de", "vote.option.computer"))
    assert len(dms(table.carol)) == 1
    assert (await table.row(game)).settings["votes"]
