"""Odd input in every form and option: digits of other scripts are taken for their value,
"digits" that are no decimal digits ("²", "①") and other oddities are refused politely, and
nothing ever goes unanswered or changes the game. Also: buttons drawn before this version
of the bot, and custom ids nobody drew (an id too large for the database)."""

from __future__ import annotations

from typing import Any

import discord
import pytest

from bot.i18n import t
from tests.discord.helpers import (
    Table,
    open_lobby,
    play_position,
    private_reply,
    rolled,
    scenario,
    seed_for,
    start_game,
    submit_bid,
)

pytest_plugins = ["tests.discord.helpers"]

BAD_NUMBERS = ["²", "①", "Ⅻ", "½", "12²", "\u0661\u0662x", "9" * 12]


def _custom_id(message: Any, part: str) -> str:
    for row in message.components:
        for item in row.get("components", []) if isinstance(row, dict) else row.children:
            custom = item.get("custom_id") if isinstance(item, dict) else item.custom_id
            if part in str(custom):
                return str(custom)
    raise AssertionError(f"no component with {part}")


async def _auction(table: Table) -> tuple[int, discord.Message]:
    raw = scenario([table.alice, table.bob], seed=seed_for((2, 3)), may_roll=True)
    game = await play_position(table, raw)
    turn = await table.turn_message(game)
    await table.alice.click(turn, label=t("de", "button.roll"))
    await table.alice.click(table.message(turn.id), label=t("de", "button.decline"))
    return game, await table.auction_message(game)


@pytest.mark.parametrize("typed", BAD_NUMBERS)
async def test_a_bid_that_is_no_number_is_refused(table: Table, typed: str) -> None:
    """ "Bieten …" with "²" (which Python calls a digit but has no value) and other
    non-numbers: a polite private answer, the auction unchanged."""
    game, auction = await _auction(table)
    before = await table.state_json(game)
    refused = await submit_bid(table.bob, auction, typed)
    assert "keine Zahl" in private_reply(refused)
    assert await table.state_json(game) == before


@pytest.mark.parametrize(("typed", "amount"), [("１２０", 120), ("१२०", 120), ("١٢٠ €", 120)])
async def test_a_bid_in_other_digits_counts(table: Table, typed: str, amount: int) -> None:
    """Fullwidth, Devanagari and Arabic-Indic digits are read as the number they are."""
    game, auction = await _auction(table)
    await submit_bid(table.bob, auction, typed)
    state = await table.state(game)
    assert state.auction is not None and state.auction["high"] == amount


async def test_money_in_a_trade_offer(table: Table) -> None:
    """The trade builder's money form: "²" is refused and the draft keeps its sums; "１００"
    is 100."""
    game = await start_game(table, table.alice, table.bob)
    opened = await table.alice.slash(table.channel, "monopoly trade", member=table.bob)
    builder = opened.response
    shown = await table.alice.click(builder, custom_id=_custom_id(builder, ":tm:"))
    refused = await table.alice.submit_modal(shown, {"give": "²", "get": ""})
    assert "keine Zahl" in private_reply(refused)
    shown = await table.alice.click(builder, custom_id=_custom_id(builder, ":tm:"))
    await table.alice.submit_modal(shown, {"give": "１００", "get": ""})
    draft = table.bot.core.drafts.get("trade", game, table.alice.id)
    assert draft is not None and draft.give_cash == 100


@pytest.mark.parametrize("typed", ["²", "①"])
async def test_house_rule_amounts(table: Table, typed: str) -> None:
    """The lobby's amount form: a non-number is refused and nothing changes; Arabic-Indic
    digits set the starting money."""
    await open_lobby(table, table.alice, language="de")
    lobby = table.channel.last_message
    panel = (await table.alice.click(lobby, label="Hausregeln")).response
    shown = await table.alice.click(panel, label="Beträge ändern")
    refused = await table.alice.submit_modal(shown, {"start_money": typed})
    assert "keine Zahl" in private_reply(refused)
    assert (await table.row()).settings.get("overrides", {}) == {}
    shown = await table.alice.click(panel, label="Beträge ändern")
    await table.alice.submit_modal(shown, {"start_money": "٢٠٠٠"})
    assert (await table.row()).settings["overrides"]["start_money"] == 2000


@pytest.mark.parametrize("name", ["²", "①", "\u0663", "", " ", "x" * 300])
async def test_property_names_that_are_no_lot(table: Table, name: str) -> None:
    """``/monopoly property name:²`` and friends: "no such lot", privately."""
    await start_game(table, table.alice, table.bob)
    answered = await table.alice.slash(table.channel, "monopoly property", name=name)
    assert "gibt es auf diesem Brett nicht" in private_reply(answered)


async def test_a_lot_offer_value_that_is_no_number(table: Table) -> None:
    """A debtor's value for offered lots, typed as "②": refused, the offer not made."""
    raw = scenario(
        [(table.alice, {"cash": 0}), table.bob],
        lots={"1": {"owner": 0}, "3": {"owner": 1}},
        steps=[rolled(0, 1, 2)],
        rules={"part_payment_in_lots": True},
    )
    game = await play_position(table, raw)
    state = await table.state(game)
    if state.phase != "debt":
        pytest.skip("the position has no debt to a player")  # pragma: no cover
    turn = await table.turn_message(game)
    label = next(b for b in _labels(turn) if b.startswith("Grundstücke"))
    menu = (await table.alice.click(turn, label=label)).response
    await table.alice.select(menu, ["1"], custom_id=_custom_id(menu, ":lo:"))
    shown = await table.alice.click(menu, custom_id=_custom_id(menu, ":lv:"))
    refused = await table.alice.submit_modal(shown, {"value": "②"})
    assert "keine Zahl" in private_reply(refused)
    assert (await table.state(game)).lot_offer is None


def _labels(message: discord.Message) -> list[str]:
    return [
        child.label or ""
        for row in message.components
        for child in row.children
        if isinstance(child, discord.Button)
    ]


async def _post_raw(table: Table, *custom_ids: str) -> discord.Message:
    """A message with plain buttons of these custom ids, as an older version posted them."""
    view = discord.ui.View(timeout=None)
    for number, custom in enumerate(custom_ids):
        view.add_item(discord.ui.Button(label=f"b{number}", custom_id=custom))
    channel = table.bot.get_channel(table.channel.id)
    sent = await channel.send("old", view=view)
    await table.env.settle()
    return table.message(sent.id)


async def test_buttons_posted_before_the_rebuild_keep_working(table: Table) -> None:
    """A turn message drawn by the previous version (custom id ``m:{game}:{seq}:roll``, no
    component objects of this version behind it): Alice's click rolls the dice."""
    game = await start_game(table, table.alice, table.bob)
    seq = (await table.state(game)).seq
    old = await _post_raw(table, f"m:{game}:{seq}:roll")
    await table.alice.click(old, label="b0")
    assert (await table.state(game)).seq > seq


async def test_custom_ids_nobody_drew_are_answered(table: Table) -> None:
    """Buttons with a game id too large for the database, an unknown action, a private menu
    of a game that does not exist and a custom id of no known form at all: each click gets
    a short private answer."""
    await start_game(table, table.alice, table.bob)
    huge = "9" * 30
    old = await _post_raw(
        table, f"m:{huge}:1:roll", "m:1:1:fly", f"xb:{huge}:mm", "monopoly:roll:from-2023"
    )
    for label in ("b0", "b1", "b2", "b3"):
        answered = await table.alice.click(old, label=label)
        assert private_reply(answered)
