"""Computer players at the table: seated in the lobby, playing whole games by themselves."""

from __future__ import annotations

from typing import Any

import pytest

from bot.i18n import t
from tests.discord.helpers import (
    BADSTRASSE,
    TURMSTRASSE,
    Table,
    buttons,
    embed_text,
    play_position,
    private_reply,
    scenario,
    seed_for,
)

pytest_plugins = ["tests.discord.helpers"]


def lobby_select_id(message: Any) -> str:
    """The custom_id of the lobby's computer-player select."""
    for row in message.components:
        for child in row.children:
            custom_id = getattr(child, "custom_id", "") or ""
            if ":lobby_cpu" in custom_id:
                return custom_id
    raise AssertionError("the lobby has no computer-player select")


async def open_lobby_with(table: Table, *levels: str, preset: str = "classic") -> Any:
    """Alice opens a lobby and seats computer players of ``levels``; the lobby message."""
    await table.alice.slash(table.channel, "monopoly start", language="de", preset=preset)
    lobby = table.channel.last_message
    for level in levels:
        await table.alice.select(table.message(lobby.id), [level], custom_id=lobby_select_id(lobby))
    return table.message(lobby.id)


async def test_the_host_seats_and_removes_computer_players(table: Table) -> None:
    """The lobby lists computer players by name and strength; only the host seats them."""
    lobby = await open_lobby_with(table, "strong", "easy")
    text = embed_text(lobby)
    assert "🤖 **Computer 1** (stark)" in text and "🤖 **Computer 2** (leicht)" in text

    refused = await table.bob.select(lobby, ["simple"], custom_id=lobby_select_id(lobby))
    assert private_reply(refused) == t("de", "error.host_only")
    await table.alice.select(lobby, ["remove"], custom_id=lobby_select_id(lobby))
    assert "Computer 2" not in embed_text(table.message(lobby.id))

    await table.alice.click(table.message(lobby.id), label=t("de", "button.start"))
    row = await table.row()
    assert row.settings["computer"] == {"1": "seat"}
    assert row.settings["computer_level"] == {"1": "strong"}
    state = row.state
    assert state is not None and [p.name for p in state.players] == ["alice", "Computer 1"]


async def test_computer_players_play_a_whole_game_without_help(table: Table) -> None:
    """Alice and a strong computer player under the fast rules; Alice goes on vacation, so
    the computer plays both seats. Moving the clock along, the game reaches its end by
    itself and the result is posted."""
    lobby = await open_lobby_with(table, "strong", preset="fast")
    await table.alice.click(lobby, label=t("de", "button.start"))
    game = await table.game_id()
    await table.alice.slash(table.channel, "monopoly vacation")
    for _ in range(2000):
        await table.env.advance_time(30)
        state = await table.state(game)
        if state.phase == "over":
            break
    assert state.phase == "over", f"still playing at turn {state.turn}"
    final = table.channel.last_message
    assert final.embeds and final.attachments  # the result and the final board
    assert await table.bot.store.pending_timers(game) == []


# simcord's own 5 s settle limit: the computer's offer comes on a real-time pause that a
# longer limit would wait out (see tests/conftest.py SETTLE_TIMEOUT).
@pytest.mark.simcord(settle_timeout=5.0)
async def test_a_computer_player_offers_a_human_a_trade_with_the_usual_buttons(
    table: Table,
) -> None:
    """Bob is on vacation and owns Badstraße; Alice owns Turmstraße, the other brown
    street (Carol plays too). On Bob's turn the computer offers Alice money for it, in a
    public offer with Accept / Decline / Counter; Alice accepts and Bob has the group."""
    raw = scenario(
        [table.alice, (table.bob, {"cash": 3000}), table.carol],
        seed=seed_for((1, 3), (2, 2), (1, 3), (3, 4)),
        lots={str(BADSTRASSE): {"owner": 1}, str(TURMSTRASSE): {"owner": 0}},
    )
    game = await play_position(table, raw)
    await table.bob.slash(table.channel, "monopoly vacation")
    await table.alice.click(await table.turn_message(game), label=t("de", "button.roll"))
    await table.alice.click(await table.turn_message(game), label=t("de", "button.end_turn"))
    offer = None
    for _ in range(30):
        await table.env.advance_time(2)
        state = await table.state(game)
        if state.trades:
            offer = table.bot_messages()[-1]
            break
    assert offer is not None, "the computer made no offer"
    assert f"<@{table.alice.id}>" in (offer.content or "")
    assert {t("de", "trade.accept"), t("de", "trade.decline"), t("de", "trade.counter")} <= set(
        buttons(offer)
    )
    await table.alice.click(offer, label=t("de", "trade.accept"))
    state = await table.state(game)
    assert state.owner[TURMSTRASSE] == 1 and state.owner[BADSTRASSE] == 1
