"""Handing a seat to another member (``/monopoly me handover``), in both games.

The seat keeps everything it has; the new member plays it from then on and the old one
cannot; the host confirms, or the table votes if the host leaves; every bad input gets a
short private answer and changes nothing; the buttons work after a restart.
"""

from __future__ import annotations

from typing import Any

import discord
from simcord.results import InteractionResult

from bot.cardgame import CardState
from bot.i18n import t
from tests.discord.helpers import (
    BADSTRASSE,
    Member,
    Table,
    buttons,
    click_as_shown,
    double_click,
    embed_text,
    play_position,
    private_reply,
    restart,
    scenario,
    server_admin,
    snapshot,
)

pytest_plugins = ["tests.discord.helpers"]

ACCEPT = t("de", "handover.button.accept")
DECLINE = t("de", "handover.button.decline")
WITHDRAW = t("de", "handover.button.withdraw")
CONFIRM = t("de", "handover.button.confirm")
REFUSE = t("de", "handover.button.refuse")
YES = t("de", "handover.button.yes")
NO = t("de", "handover.button.no")
ROLL = t("de", "button.roll")


def refusal(code: str, **params: Any) -> str:
    """A refusal as a German member reads it."""
    return t("de", f"error.{code}", **params)


async def three_players(table: Table, **position: Any) -> int:
    """Alice (host), Bob (1 234 € and the Badstraße) and Carol; Bob's turn."""
    raw = scenario(
        [table.alice, (table.bob, {"cash": 1234}), table.carol],
        lots={str(BADSTRASSE): {"owner": 1, "houses": 1}},
        current=1,
        **position,
    )
    return await play_position(table, raw)


async def ask(table: Table, member: Member, target: Any) -> InteractionResult:
    """``member`` asks to hand their seat to ``target``."""
    return await member.slash(table.channel, "monopoly me handover", member=target)


def request_message(table: Table) -> discord.Message:
    """The latest public hand-over request."""
    found = [m for m in table.bot_messages() if "🔁" in (m.content or "") and m.components]
    assert found, "no open hand-over request in the channel"
    return found[-1]


async def settings_of(table: Table, game: int) -> dict[str, Any]:
    return dict((await table.row(game)).settings)


async def test_a_seat_handed_over_keeps_cash_and_lots(table: Table) -> None:
    """Bob hands his seat to Dave: Dave accepts, Alice (the host) confirms. Cash, lot and
    house stay with the seat; Dave throws for it, Bob cannot any more; the turn log and
    the settings keep both names."""
    game = await three_players(table)
    before = await table.state(game)
    await ask(table, table.bob, table.dave)
    request = request_message(table)
    assert f"<@{table.dave.id}>" in request.content
    assert buttons(request) == [ACCEPT, DECLINE, WITHDRAW]

    wrong = await table.carol.click(request, label=ACCEPT)
    assert private_reply(wrong) == refusal("handover_not_you", player="dave")
    await table.dave.click(request, label=ACCEPT)
    request = table.message(request.id)
    assert buttons(request) == [CONFIRM, REFUSE, WITHDRAW]
    assert f"<@{table.alice.id}>" in request.content
    own = await table.bob.click(request, label=CONFIRM)
    assert private_reply(own) == refusal("handover_own_seat")
    not_host = await table.carol.click(request, label=CONFIRM)
    assert private_reply(not_host) == refusal("host_only")
    assert (await table.state(game)).to_json() == before.to_json()

    shown = snapshot(table, request)
    await table.alice.click(request, label=CONFIRM)
    assert table.message(request.id).content == t(
        "de", "handover.confirmed", player="bob", target="dave"
    )
    assert not buttons(table.message(request.id))
    again = await click_as_shown(table, table.alice, shown, CONFIRM)
    assert private_reply(again) == refusal("handover_closed")

    state = await table.state(game)
    seat = state.players[1]
    assert (seat.id, seat.name, seat.cash) == (str(table.dave.id), "dave", 1234)
    assert state.owner[BADSTRASSE] == 1 and state.houses[BADSTRASSE] == 1
    assert [p.cash for p in state.players] == [p.cash for p in before.players]
    settings = await settings_of(table, game)
    assert settings["handovers"] == [
        {
            "seat": 1,
            "from_id": str(table.bob.id),
            "from_name": "bob",
            "to_id": str(table.dave.id),
            "to_name": "dave",
            "turn": before.turn,
        }
    ]
    assert settings.get("handover_requests") == {}
    turn = await table.turn_message(game)
    assert t("de", "event.handed_over", old="bob", new="dave") in embed_text(turn)

    gone = await table.bob.click(turn, label=ROLL)
    assert private_reply(gone) == refusal("not_a_player")
    await table.dave.click(await table.turn_message(game), label=ROLL)
    assert (await table.state(game)).players[1].position != 0

    # The history lists both names.
    await table.alice.slash(table.channel, "monopoly end")
    listed = (await table.carol.slash(table.channel, "monopoly history")).response
    line = listed.embeds[0].description or ""
    assert t("de", "handover.took_over", player="dave", former="bob") in line


async def test_the_host_hands_over_and_the_table_votes(table: Table) -> None:
    """Alice, the host, hands her seat to Dave: Bob and Carol vote. One yes of two is not
    more than half; the second is, and Dave plays Alice's seat and hosts the game."""
    game = await three_players(table)
    await ask(table, table.alice, table.dave)
    request = request_message(table)
    await table.dave.click(request, label=ACCEPT)
    request = table.message(request.id)
    assert buttons(request) == [YES, NO, WITHDRAW]
    assert f"<@{table.bob.id}>" in request.content and f"<@{table.carol.id}>" in request.content

    own = await table.alice.click(request, label=YES)
    assert private_reply(own) == refusal("not_a_voter")
    outsider = await table.dave.click(request, label=YES)
    assert private_reply(outsider) == refusal("not_a_voter")
    await table.bob.click(request, label=YES)
    request = table.message(request.id)
    assert buttons(request) == [YES, NO, WITHDRAW]
    assert "1" in request.content
    assert (await table.state(game)).players[0].id == str(table.alice.id)

    await table.carol.click(request, label=YES)
    assert table.message(request.id).content == t(
        "de", "handover.confirmed_host", player="alice", target="dave"
    )
    state = await table.state(game)
    assert state.players[0].id == str(table.dave.id)
    assert (await settings_of(table, game))["host"] == table.dave.id


async def test_the_table_can_vote_no(table: Table) -> None:
    """One no of two voters leaves no majority for yes: the seat stays with Alice."""
    game = await three_players(table)
    await ask(table, table.alice, table.dave)
    request = request_message(table)
    await table.dave.click(request, label=ACCEPT)
    await table.bob.click(table.message(request.id), label=NO)
    assert table.message(request.id).content == t(
        "de", "handover.refused", player="alice", target="dave"
    )
    assert (await table.state(game)).players[0].id == str(table.alice.id)


async def test_bad_requests_are_refused_privately(table: Table) -> None:
    """Not seated, oneself, someone at the table, a bot, a second request, a member asked
    for another seat already, a paused game: each a private refusal, nothing changed."""
    game = await three_players(table)
    robot = table.guild.add_member(table.env.create_user("robo", bot=True))
    before = await settings_of(table, game)
    cases = [
        (table.dave, table.alice, refusal("not_a_player")),
        (table.bob, table.bob, refusal("handover_self")),
        (table.bob, table.carol, refusal("handover_target_seated", player="carol")),
        (table.bob, robot, refusal("handover_target_bot")),
    ]
    for member, target, text in cases:
        result = await ask(table, member, target)
        assert private_reply(result) == text, (member.name, target.name)
    assert await settings_of(table, game) == before

    await ask(table, table.bob, table.dave)
    second = await ask(table, table.bob, table.dave)
    assert private_reply(second) == refusal("handover_open")
    other = await ask(table, table.carol, table.dave)
    assert private_reply(other) == refusal("handover_target_asked", player="dave")
    request = request_message(table)

    await table.alice.slash(table.channel, "monopoly pause")
    paused = await table.dave.click(request, label=ACCEPT)
    assert private_reply(paused) == refusal("game_paused")
    asked = await ask(table, table.carol, table.alice)
    assert private_reply(asked) == refusal("game_paused")
    await table.alice.slash(table.channel, "monopoly resume")

    not_asker = await table.carol.click(request, label=WITHDRAW)
    assert private_reply(not_asker) == refusal("handover_not_asker", player="bob")
    clicks = await double_click(table, table.dave, request, DECLINE)
    answers = [private_reply(c) for c in clicks if any(f.ephemeral for f in c.followups)]
    assert answers == [refusal("handover_closed")]
    assert table.message(request.id).content == t(
        "de", "handover.declined", player="bob", target="dave"
    )
    assert (await settings_of(table, game))["handover_requests"] == {}
    assert (await table.state(game)).players[1].id == str(table.bob.id)


async def test_withdraw_and_refuse(table: Table) -> None:
    """Bob withdraws his request; a new one is refused by a server admin at the confirm
    step; a click on the withdrawn request's buttons is refused as over."""
    game = await three_players(table)
    await ask(table, table.bob, table.dave)
    first = request_message(table)
    shown = snapshot(table, first)
    await table.bob.click(first, label=WITHDRAW)
    assert table.message(first.id).content == t(
        "de", "handover.withdrawn", player="bob", target="dave"
    )
    late = await click_as_shown(table, table.dave, shown, ACCEPT)
    assert private_reply(late) == refusal("handover_closed")

    await ask(table, table.bob, table.dave)
    second = request_message(table)
    assert second.id != first.id
    await table.dave.click(second, label=ACCEPT)
    stale = await click_as_shown(table, table.dave, shown, ACCEPT)
    assert private_reply(stale) == refusal("handover_closed")
    admin = server_admin(table)
    await admin.click(table.message(second.id), label=REFUSE)
    assert table.message(second.id).content == t(
        "de", "handover.refused", player="bob", target="dave"
    )
    assert (await table.state(game)).players[1].id == str(table.bob.id)


async def test_the_buttons_work_after_a_restart(table: Table, database: Any) -> None:
    """A request asked before a restart is accepted and confirmed after it."""
    game = await three_players(table)
    await ask(table, table.bob, table.dave)
    request = request_message(table)
    await restart(table, database)
    await table.dave.click(request, label=ACCEPT)
    await restart(table, database)
    await table.alice.click(table.message(request.id), label=CONFIRM)
    assert (await table.state(game)).players[1].id == str(table.dave.id)


async def test_no_hand_over_once_the_game_is_over(table: Table) -> None:
    """An open request of a game that ended cannot be accepted, and none can be asked."""
    game = await three_players(table)
    await ask(table, table.bob, table.dave)
    request = request_message(table)
    await table.alice.slash(table.channel, "monopoly end")
    assert (await table.row(game)).state.phase == "over"
    late = await table.dave.click(request, label=ACCEPT)
    assert private_reply(late) in (refusal("game_over"), refusal("no_game_here"))


async def test_a_card_game_seat_changes_hands(table: Table) -> None:
    """In the card game Bob hands his seat to Carol: the hand stays with the seat, Carol
    opens it, Bob cannot any more."""
    host = table.alice
    await host.slash(table.channel, "monopoly start", language="de", game="cards")
    lobby = table.channel.last_message
    await table.bob.click(lobby, label=t("de", "button.join"))
    await host.click(lobby, label=t("de", "button.start"))
    game = await table.game_id()
    state = (await table.row(game)).state
    assert isinstance(state, CardState)
    hand = list(state.players[1].hand)

    await ask(table, table.bob, table.carol)
    request = request_message(table)
    await table.carol.click(request, label=ACCEPT)
    await table.alice.click(table.message(request.id), label=CONFIRM)
    row = await table.row(game)
    state = row.state
    assert isinstance(state, CardState)
    assert state.players[1].id == str(table.carol.id)
    assert state.players[1].hand == hand
    table_message = table.message(row.settings["table_message"])
    assert t("de", "cards.event.handed_over", old="bob", new="carol") in embed_text(table_message)
    mine = await table.carol.click(table_message, label="🂠 Meine Hand")
    assert mine.ephemeral
    gone = await table.bob.click(table_message, label="🂠 Meine Hand")
    assert private_reply(gone) == refusal("not_a_player")
