"""A computer player answers a cheap offer with a counter-offer, played the way a player would.

Alice offers the strong Computer 1 ten euros for its Seestraße (Carol plays too). The
computer would not sell for that: it posts a counter-offer to #1 with the usual buttons
(Accept / Decline / Counter / Withdraw), the original offer's message says it was answered
with that counter-offer, and Alice accepts it: the trade is carried out and no money is
made or lost.
"""

from __future__ import annotations

from typing import Any

import pytest

from bot.engine.scenario import SCENARIO_FORMAT, run
from bot.i18n import t
from cogs.ui.text import Narrator
from tests.discord.helpers import (
    Table,
    buttons,
    computer_position,
    embed_text,
    fresh,
    seed_for,
    still_thinking,
)

pytest_plugins = ["tests.discord.helpers"]

BADSTRASSE = 1
TURMSTRASSE = 3
SEESTRASSE = 11


def _component(message: Any, *parts: str) -> dict[str, Any]:
    """The one component of a (private) message whose custom id contains every part."""
    found = []
    for row in message.components:
        children = row.get("components", []) if isinstance(row, dict) else row.children
        for child in children:
            data = child if isinstance(child, dict) else child.to_dict()
            if all(part in str(data.get("custom_id", "")) for part in parts):
                found.append(data)
    assert len(found) == 1, (parts, found)
    return found[0]


async def computer_game(
    table: Table,
    level: str = "strong",
    lots: dict[int, int] | None = None,
    seed: int | None = None,
) -> int:
    """A running game of alice (2 000 €), Computer 1 of ``level`` (seated as a lobby seats
    it; by default owning Seestraße) and carol; Alice's turn. The game's id."""
    owners = {SEESTRASSE: 1} if lots is None else lots
    raw = {
        "format": SCENARIO_FORMAT,
        "players": [
            {"id": str(table.alice.id), "name": "alice", "cash": 2000},
            {"id": "cpu1", "name": "Computer 1"},
            {"id": str(table.carol.id), "name": "carol"},
        ],
        "lots": {str(square): {"owner": owner} for square, owner in owners.items()},
    }
    if seed is not None:
        raw["seed"] = seed
    return await computer_position(table, raw, level)


# simcord's own 5 s settle limit: the computer answers on a real-time pause that a longer
# limit would wait out (see tests/conftest.py SETTLE_TIMEOUT).
@pytest.mark.simcord(settle_timeout=5.0)
async def test_a_computer_player_counters_a_cheap_offer_and_the_human_accepts(
    table: Table,
) -> None:
    game = await computer_game(table)
    # Alice opens "Handeln", picks Computer 1, asks for Seestraße and offers 10 €.
    turn = await table.turn_message(game)
    picker = await table.alice.click(turn, label=t("de", "button.trade"))
    assert picker.response is not None
    choice = _component(picker.response, ":tq")
    await table.alice.select(picker.response, ["1"], custom_id=choice["custom_id"])
    builder = fresh(table, picker.response)
    wanted = _component(builder, ":tl:", "-t-")["custom_id"]
    await table.alice.select(builder, [str(SEESTRASSE)], custom_id=wanted)
    builder = fresh(table, builder)
    money = await table.alice.click(builder, custom_id=_component(builder, ":tm:")["custom_id"])
    assert money.modal is not None
    await table.alice.submit_modal(money, {"give": "10", "get": ""})
    builder = fresh(table, builder)
    await table.alice.click(builder, label=t("de", "trade.send"))
    assert fresh(table, builder).content == t("de", "trade.sent", id=1)
    original = next(m for m in table.bot_messages() if "Handelsangebot #1" in embed_text(m))
    total = sum(p.cash for p in (await table.state(game)).players)

    # The computer answers with a counter-offer (at once, or after its short delay).
    counter: dict[str, Any] | None = None
    for _ in range(30):
        await table.env.advance_time(2)
        trades = (await table.state(game)).trades
        if trades and trades[0]["from"] == 1:
            counter = trades[0]
            break
    assert counter is not None, "the computer made no counter-offer"
    assert counter["counter_of"] == 1 and counter["round"] == 2
    assert counter["give"]["lots"] == [SEESTRASSE] and counter["get"]["cash"] > 10
    shown = next(m for m in table.bot_messages() if "Handelsangebot #2" in embed_text(m))
    assert t("de", "trade.counter_to", id=1) in embed_text(shown)
    assert "Gegenangebot zu Angebot #1" in embed_text(shown)
    assert f"<@{table.alice.id}>" in (shown.content or "")
    assert {
        t("de", "trade.accept"),
        t("de", "trade.decline"),
        t("de", "trade.counter"),
        t("de", "trade.withdraw"),
    } <= set(buttons(shown))
    for embed in shown.embeds:  # within Discord's limits
        assert len(embed.title or "") <= 256 and len(embed.description or "") <= 4096
        assert all(len(f.name) <= 256 and len(f.value) <= 1024 for f in embed.fields)
    answered = table.message(original.id)
    assert answered.content == t("de", "trade.status.countered_with", id=2)
    assert answered.components == []

    # Alice accepts the counter-offer: Seestraße is hers, the money moved, none was lost.
    await table.alice.click(shown, label=t("de", "trade.accept"))
    state = await table.state(game)
    assert state.trades == [] and state.owner[SEESTRASSE] == 0
    price = counter["get"]["cash"]
    assert (state.players[0].cash, state.players[1].cash) == (2000 - price, 1500 + price)
    assert sum(p.cash for p in state.players) == total
    assert table.message(shown.id).content == t("de", "trade.status.accepted")
    assert still_thinking(table) == []


@pytest.mark.simcord(settle_timeout=5.0)
async def test_the_expert_offers_a_human_the_trade_its_win_model_likes(table: Table) -> None:
    """The expert (seated in the lobby) owns Badstraße, Alice the other brown street. On its
    turn it offers her money for Turmstraße, opening at a price-minded player's price, in a
    public offer with the usual buttons and within Discord's limits; she accepts, and the
    expert has the group and she its money."""
    lots = {BADSTRASSE: 1, TURMSTRASSE: 0}
    game = await computer_game(table, "expert", lots, seed=seed_for((1, 3), (2, 2), (1, 3)))
    # Alice throws onto the income tax and ends her turn: the expert's turn.
    await table.alice.click(await table.turn_message(game), label=t("de", "button.roll"))
    await table.alice.click(await table.turn_message(game), label=t("de", "button.end_turn"))
    offer: dict[str, Any] | None = None
    for _ in range(30):
        await table.env.advance_time(2)
        trades = (await table.state(game)).trades
        if trades:
            offer = trades[0]
            break
    assert offer is not None, "the expert made no offer"
    assert (offer["from"], offer["to"], offer["get"]["lots"]) == (1, 0, [TURMSTRASSE])
    shown = next(
        m for m in table.bot_messages() if f"Handelsangebot #{offer['id']}" in embed_text(m)
    )
    assert f"<@{table.alice.id}>" in (shown.content or "")
    assert {t("de", "trade.accept"), t("de", "trade.decline"), t("de", "trade.counter")} <= set(
        buttons(shown)
    )
    for embed in shown.embeds:  # within Discord's limits
        assert len(embed.title or "") <= 256 and len(embed.description or "") <= 4096
        assert all(len(f.name) <= 256 and len(f.value) <= 1024 for f in embed.fields)
    before = (await table.state(game)).players[0].cash
    await table.alice.click(shown, label=t("de", "trade.accept"))
    state = await table.state(game)
    assert state.owner[TURMSTRASSE] == 1 and state.owner[BADSTRASSE] == 1
    # Alice got the cash offered (the expert may have thrown again since: doubles).
    assert state.players[0].cash == before + offer["give"]["cash"] - offer["get"]["cash"]
    assert still_thinking(table) == []


@pytest.mark.parametrize(
    ("lang", "line"),
    [
        ("de", "🔁 Computer 1 antwortet auf Angebot #1 mit dem Gegenangebot #2"),
        ("en", "🔁 Computer 1 answers offer #1 with counter-offer #2"),
    ],
)
def test_a_counter_offer_is_told_in_the_log(lang: str, line: str) -> None:
    """The event ``trade_countered`` is one line of the turn's story, in both languages."""
    raw = {
        "format": SCENARIO_FORMAT,
        "players": [{"id": "1", "name": "alice"}, {"id": "cpu1", "name": "Computer 1"}],
    }
    narrator = Narrator(run(raw), lang)
    event = {"type": "trade_countered", "trade": 1, "player": 1, "new": 2}
    proposed = {"type": "trade_proposed", "trade": 2, "from": 1, "to": 0}
    assert narrator.lines([event, proposed]) == [line]
