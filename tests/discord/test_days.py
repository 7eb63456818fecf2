"""Games over days nobody has to babysit: quiet hours, jokers and standing orders.

The real bot in simcord, with the clock moved by ``env.advance_time``. simcord's clock
starts on 1 January 2026, 00:00 UTC: 01:00 in Berlin and 19:00 the evening before in
New York.
"""

from __future__ import annotations

from datetime import UTC, datetime
from typing import Any

from bot.i18n import t
from tests.discord.helpers import (
    Table,
    embed_text,
    play_position,
    private_reply,
    rolled,
    scenario,
    start_game,
)

pytest_plugins = ["tests.discord.helpers"]

START = datetime(2026, 1, 1, tzinfo=UTC)
TURMSTRASSE = 3


def stamp(hour: int, minute: int = 0) -> int:
    """The Unix time of ``hour:minute`` UTC on simcord's first day."""
    return int(START.replace(hour=hour, minute=minute).timestamp())


def passed(table: Table, name: str) -> list[str]:
    text = t("de", "deadline.passed", players=name)
    return [m.content for m in table.bot_messages() if m.content == text]


async def test_a_deadline_in_quiet_hours_ends_after_them(table: Table) -> None:
    """Alice (Berlin, quiet 22:00–07:00) and Bob (New York, quiet 23:00–08:00). A one-hour
    deadline set at 01:00 Berlin time would end in Alice's night: it ends at 07:00 Berlin
    (06:00 UTC) plus a tenth of the deadline, the turn message says so in Discord's own
    time format, nobody is pinged at night, and the safe default plays only then."""
    assert int(table.bot.core.planner.now().timestamp()) == stamp(0)
    await table.alice.slash(
        table.channel,
        "monopoly me time",
        timezone="Europe/Berlin",
        quiet_from="22:00",
        quiet_to="7",
    )
    reply = await table.bob.slash(
        table.channel,
        "monopoly me time",
        timezone="america/new york",
        quiet_from="23:00",
        quiet_to="08:00",
    )
    assert "America/New_York" in private_reply(reply)
    game = await start_game(table, table.alice, table.bob, deadline="1h", jokers=0)
    row = await table.row(game)
    due = stamp(6, 6)  # 06:00 UTC and a tenth of the hour
    assert row.settings["deadline_at"] == due
    turn = embed_text(await table.turn_message(game))
    assert f"<t:{due}:f>" in turn
    assert t("de", "quiet.moved", players="alice") in turn

    await table.env.advance_time(2 * 3600)  # 02:00 UTC: the hour is long over
    assert not passed(table, "alice")
    assert not [m for m in table.bot_messages() if "⏰ <@" in (m.content or "")]
    await table.env.advance_time(4 * 3600)  # 06:00 UTC: Alice wakes up and is reminded
    assert [m for m in table.bot_messages() if f"<@{table.alice.id}>" in (m.content or "")]
    assert not passed(table, "alice")
    await table.env.advance_time(6 * 60)
    assert len(passed(table, "alice")) == 1


async def test_the_host_can_ignore_quiet_hours(table: Table) -> None:
    """With ``quiet_hours:False`` the deadline ends on time, night or not."""
    await table.alice.slash(
        table.channel,
        "monopoly me time",
        timezone="Europe/Berlin",
        quiet_from="22:00",
        quiet_to="7",
    )
    game = await start_game(table, table.alice, table.bob, deadline="1h", jokers=0)
    await table.alice.slash(table.channel, "monopoly settings", quiet_hours=False)
    assert (await table.row(game)).settings["deadline_at"] == stamp(1)
    await table.env.advance_time(3600)
    assert len(passed(table, "alice")) == 1


async def test_a_joker_extends_once_then_the_default_plays(table: Table) -> None:
    """One joker: the first missed deadline spends it and adds an hour (the turn message
    shows "alice 0"); at the second the safe default plays her turn."""
    game = await start_game(table, table.alice, table.bob, deadline="1h", jokers=1)
    assert t("de", "joker.left", players="alice 1") in embed_text(await table.turn_message(game))
    before = await table.state(game)
    await table.env.advance_time(3600)
    spent = t("de", "joker.spent", player="alice", left=0)
    assert any(spent in (m.content or "") for m in table.bot_messages())
    assert not passed(table, "alice")
    assert (await table.state(game)).seq == before.seq  # nothing was played for her
    row = await table.row(game)
    assert row.settings["deadline_at"] == stamp(2)
    assert row.settings.get("missed", {}).get("0", 0) == 0  # a joker is an excused miss
    assert t("de", "joker.left", players="alice 0") in embed_text(await table.turn_message(game))
    await table.env.advance_time(3600)
    assert len(passed(table, "alice")) == 1
    assert (await table.state(game)).seq > before.seq  # her turn was played safe


async def test_a_bad_time_zone_or_clock_changes_nothing(table: Table) -> None:
    """Unknown zones, times that are none and half a quiet window are refused privately."""
    for options, expected in (
        ({"timezone": "Mars/Olympus"}, t("de", "error.bad_timezone", zone="Mars/Olympus")),
        ({"quiet_from": "25:00", "quiet_to": "07:00"}, t("de", "error.bad_clock", text="25:00")),
        ({"quiet_from": "22:00"}, t("de", "error.quiet_needs_both")),
        ({"quiet_from": "07:00", "quiet_to": "7"}, t("de", "error.quiet_empty")),
    ):
        reply = await table.alice.slash(table.channel, "monopoly me time", **options)
        assert private_reply(reply) == expected
    assert await table.bot.store.user_prefs(table.alice.id) == {}


# -- standing orders --------------------------------------------------------------------


def on_turmstrasse(table: Table, **bob: object) -> dict[str, object]:
    """Alice has thrown 1+2 onto Turmstraße; Bob sits in jail (or as ``bob`` says)."""
    return scenario(
        [table.alice, (table.bob, bob or {"in_jail": True, "position": 10})],
        steps=[rolled(0, 1, 2)],
    )


async def test_orders_buy_end_the_turn_and_pay_bail_at_once(table: Table) -> None:
    """Bob orders "pay the bail" while Alice is on her turn; Alice orders "buy if 1.000 €
    are left" and "end the turn": both act at once, logged "(Auftrag)", and when the game
    reaches Bob his bail is paid without a click."""
    game = await play_position(table, on_turmstrasse(table))
    await table.bob.slash(table.channel, "monopoly me orders", jail="pay")
    assert (await table.state(game)).players[1].in_jail  # not his turn yet
    reply = await table.alice.slash(
        table.channel, "monopoly me orders", buy="keep", keep=1000, auto_end=True
    )
    assert t("de", "orders.saved") in private_reply(reply)
    await table.env.advance_time(1)
    state = await table.state(game)
    assert state.owner[TURMSTRASSE] == 0
    assert state.current == 1 and not state.players[1].in_jail
    assert state.players[1].cash == 1500 - 50  # the bail of the classic rules
    log = "\n".join(embed_text(m) for m in table.bot_messages() if m.embeds)
    assert t("de", "orders.tag") in log


async def test_an_order_that_is_illegal_now_is_skipped(table: Table) -> None:
    """Bob orders "use a card" in jail but has none: when his turn comes nothing is
    played for him; the game waits on his own click."""
    game = await play_position(table, on_turmstrasse(table))
    await table.bob.slash(table.channel, "monopoly me orders", jail="card")
    await table.alice.click(await table.turn_message(game), label=t("de", "button.decline"))
    for _ in range(3):  # the auction: nobody bids
        state = await table.state(game)
        if state.auction is None:
            break
        auction = await table.auction_message(game)
        for member in (table.alice, table.bob):
            if int(member.id) in [int(state.players[s].id) for s in state.auction["bidders"]]:
                await member.click(auction, label=t("de", "button.pass"))
    await table.alice.click(await table.turn_message(game), label=t("de", "button.end_turn"))
    await table.env.advance_time(5)
    state = await table.state(game)
    assert state.current == 1 and state.players[1].in_jail and state.phase == "roll"


async def test_a_bid_order_bids_as_soon_as_the_auction_opens(table: Table) -> None:
    """Bob will bid up to 30 € on the brown group: Alice sends Turmstraße to auction and
    Bob's bid is in before anyone clicks."""
    game = await play_position(table, on_turmstrasse(table, position=5))
    reply = await table.bob.slash(
        table.channel, "monopoly me orders", bid_on="group:brown", bid_max=30
    )
    assert "30" in private_reply(reply)
    await table.alice.click(await table.turn_message(game), label=t("de", "button.decline"))
    await table.env.advance_time(1)
    state = await table.state(game)
    assert state.auction is not None and state.auction["leader"] == 1


async def test_orders_are_refused_to_non_players_and_shown_on_request(table: Table) -> None:
    game = await play_position(table, on_turmstrasse(table))
    before = await table.state_json(game)
    reply = await table.carol.slash(table.channel, "monopoly me orders", jail="pay")
    assert private_reply(reply) == t("de", "error.not_a_player")
    reply = await table.bob.slash(table.channel, "monopoly me orders", bid_max=5)
    assert private_reply(reply) == t("de", "error.orders_bid_needs_target")
    reply = await table.bob.slash(table.channel, "monopoly me orders")
    assert private_reply(reply).startswith(t("de", "orders.none"))
    assert await table.state_json(game) == before
    assert "orders" not in (await table.row(game)).settings


async def test_a_turn_dm_waits_for_the_morning_with_its_button(table: Table) -> None:
    """Bob asked for a DM when his turn begins but sleeps (Berlin, 22:00–07:00): the DM
    comes at 07:00 Berlin time (06:00 UTC), with its 📋 button, and the button works."""
    await table.bob.slash(table.channel, "monopoly notify", enabled=True, turns=True)
    await table.bob.slash(
        table.channel, "monopoly me time", timezone="Europe/Berlin", quiet_from="22", quiet_to="7"
    )
    game = await play_position(table, scenario([table.alice, table.bob], steps=[rolled(0, 1, 3)]))
    await table.alice.click(await table.turn_message(game), label=t("de", "button.end_turn"))
    assert (await table.state(game)).current == 1

    def bob_dms() -> list[Any]:
        channel = table.bob.user.dm_channel
        return [] if channel is None else [m for m in channel.history() if m.author.bot]

    assert bob_dms() == []
    await table.env.advance_time(6 * 3600)
    (dm,) = bob_dms()
    assert f"<#{table.channel.id}>" in dm.content
    listing = await table.bob.user.click(dm, label=t("de", "mine.button"))
    (listed,) = [f for f in listing.followups if f.ephemeral]
    assert f"#{game}" in (listed.embeds[0].description or "")
