"""Trades, building, mortgages, debts and the small commands, driven through simcord.

Each test stores a running game at a chosen position (the way a started lobby would) and
then plays it with clicks, selects and modals as the players would. simcord sends every
interaction with the locale ``en-US``, so private answers are English while the game's
public messages are German (the game's language).
"""

from __future__ import annotations

import copy
from collections.abc import AsyncIterator, Sequence
from dataclasses import dataclass
from typing import Any

import discord
import pytest
from simcord import interactions as sim_interactions
from simcord.actors import MemberActor
from simcord.backend import serializers as sim_serializers
from simcord.builders import ChannelHandle, GuildHandle
from simcord.enums import ComponentType, InteractionType
from simcord.results import InteractionResult, ResponseMessage, to_discord_message

from bot.engine.board import load_board
from bot.engine.flow import settle
from bot.engine.scenario import SCENARIO_FORMAT, setup
from bot.engine.state import GameState
from bot.i18n import t
from bot.text_input import parse_amount
from tests.discord.helpers import restarted_bot

BADSTRASSE, TURMSTRASSE, SUEDBAHNHOF, CHAUSSEE, ELISEN, POST = 1, 3, 5, 6, 8, 9
SEESTRASSE, WESTBAHNHOF, OPERNPLATZ, NORDBAHNHOF = 11, 15, 24, 25
PARKSTRASSE, SCHLOSSALLEE = 37, 39


@dataclass
class Table:
    """A server with a game channel and three members: anna, ben and cara."""

    env: Any
    guild: GuildHandle
    channel: ChannelHandle
    anna: MemberActor
    ben: MemberActor
    cara: MemberActor

    @property
    def bot(self) -> Any:
        """The bot running now (a new one after a restart)."""
        return self.env.bot

    async def state(self, game: int) -> GameState:
        """The game's stored state."""
        state = (await self.bot.store.load(game)).state
        assert state is not None
        return state

    async def settings(self, game: int) -> dict[str, Any]:
        """The game's stored settings (message ids, log lines, ...)."""
        return dict((await self.bot.store.load(game)).settings)

    def message(self, message_id: int) -> discord.Message:
        """A message as it is now, public or private (history hides private ones)."""
        stored = self.env.backend.get_message(self.channel.id, message_id)
        return to_discord_message(self.env, stored)

    async def turn_message(self, game: int) -> discord.Message:
        """The game's current turn message."""
        return self.message((await self.settings(game))["turn_message"])

    def public(self) -> list[discord.Message]:
        """The bot's public messages, oldest first."""
        return [m for m in self.channel.history() if m.author.bot and not m.flags.ephemeral]


@pytest.fixture
async def table(simcord_env: Any) -> AsyncIterator[Table]:
    """The table; closes the bot's store afterwards (simcord does not close the bot)."""
    guild = simcord_env.create_guild("Spieleabend")
    channel = guild.create_text_channel("monopoly")
    anna, ben, cara = (
        guild.add_member(simcord_env.create_user(n)) for n in ("anna", "ben", "cara")
    )
    try:
        yield Table(simcord_env, guild, channel, anna, ben, cara)
    finally:
        await simcord_env.bot.store.close()


async def start(
    table: Table,
    seats: list[tuple[MemberActor, dict[str, Any]]],
    *,
    lots: dict[int, dict[str, Any]] | None = None,
    debts: list[dict[str, Any]] | None = None,
    claims: list[dict[str, Any]] | None = None,
    **position: Any,
) -> int:
    """Store a running game at this position and post its turn message; the game id."""
    raw = {
        "format": SCENARIO_FORMAT,
        "players": [{"id": str(m.id), "name": m.name.title(), **extra} for m, extra in seats],
        "lots": {str(k): v for k, v in (lots or {}).items()},
        **position,
    }
    state = setup(raw)
    if debts or claims:
        # Positions a few throws would reach; set directly to keep the tests short.
        state.debts = list(debts or [])
        state.claims = list(claims or [])
        settle(state)
    bot = table.bot
    settings = {
        "host": seats[0][0].id,
        "players": [{"id": m.id, "name": m.name.title()} for m, _ in seats],
        "preset": raw.get("preset", "classic"),
        "lang": "de",
        "theme": None,
        "max_players": 6,
    }
    row = await bot.store.create_game(
        table.guild.id, table.channel.id, state, created_by=seats[0][0].id, settings=settings
    )
    await bot.core.publisher.show(row.id)
    await table.env.settle()
    return row.id


# -- reading messages -------------------------------------------------------------------


def components(message: Any) -> list[dict[str, Any]]:
    """Every component of a message (buttons and selects) as raw dicts."""
    rows = message.components
    found = []
    for row in rows:
        if isinstance(row, dict):
            found += row.get("components", [])
        else:
            found += [child.to_dict() for child in row.children]
    return found


def labels(message: Any) -> list[str]:
    """The labels of a message's buttons."""
    return [c.get("label") for c in components(message) if c.get("type") == 2]


def custom_id(message: Any, *parts: str) -> str:
    """The custom_id of the one component whose id contains every part."""
    found = [c["custom_id"] for c in components(message) if all(p in c["custom_id"] for p in parts)]
    assert len(found) == 1, (parts, [c.get("custom_id") for c in components(message)])
    return found[0]


def button(message: Any, *parts: str) -> dict[str, Any]:
    """The one component whose custom_id contains every part."""
    cid = custom_id(message, *parts)
    return next(c for c in components(message) if c["custom_id"] == cid)


def options(message: Any, *parts: str) -> list[str]:
    """The option values of the one select whose custom_id contains every part."""
    cid = custom_id(message, *parts)
    menu = next(c for c in components(message) if c["custom_id"] == cid)
    return [o["value"] for o in menu["options"]]


def text(message: Any) -> str:
    """Content and every part of the embeds."""
    parts = [message.content or ""]
    for embed in message.embeds:
        parts += [embed.title or "", embed.description or ""]
        parts += [f"{f.name}\n{f.value}" for f in embed.fields]
        parts.append(embed.footer.text or "")
    return "\n".join(parts)


def private(result: InteractionResult) -> str:
    """What only the clicking user saw: an ephemeral response and ephemeral follow-ups."""
    texts = []
    if result.response is not None and result.response.ephemeral and result.response.content:
        texts.append(result.response.content)
    texts += [f.content for f in result.followups if f.ephemeral]
    assert texts, f"no private reply: {result!r}"
    return "\n".join(texts)


def menu_of(result: InteractionResult) -> ResponseMessage:
    """The private menu a command or click opened."""
    assert result.response is not None and result.response.ephemeral, result
    return result.response


async def click_old(table: Table, member: MemberActor, shown: Any, cid: str) -> InteractionResult:
    """Click a button as an outdated copy of a message showed it (a stale client)."""
    backend = table.env.backend
    record, payload = sim_interactions.base_payload(
        backend,
        type=InteractionType.MESSAGE_COMPONENT,
        channel_id=shown.channel_id,
        guild_id=table.guild.id,
        user_id=member.id,
        data={"custom_id": cid, "component_type": ComponentType.BUTTON},
    )
    payload["message"] = dict(sim_serializers.message_payload(backend, shown))
    record.source_message_id = shown.id
    backend.emit("INTERACTION_CREATE", payload)
    await table.env.settle()
    return InteractionResult(table.env, record)


def speaks_german(monkeypatch: pytest.MonkeyPatch, member: MemberActor) -> None:
    """Let ``member``'s Discord client run in German (simcord always sends en-US)."""
    original = sim_interactions.base_payload

    def base_payload(*args: Any, **kwargs: Any) -> Any:
        """simcord's payload, with German for ``member``."""
        record, payload = original(*args, **kwargs)
        if kwargs.get("user_id") == member.id:
            payload["locale"] = "de"
        return record, payload

    monkeypatch.setattr(sim_interactions, "base_payload", base_payload)


def snapshot(table: Table, message: discord.Message) -> Any:
    """The message as a client shows it now (its buttons may change later)."""
    return copy.deepcopy(table.env.backend.get_message(message.channel.id, message.id))


# -- building an offer ------------------------------------------------------------------


async def open_builder(table: Table, member: MemberActor, partner: MemberActor) -> ResponseMessage:
    """``/monopoly trade member:partner``; the private builder."""
    return menu_of(await member.slash(table.channel, "monopoly trade", member=partner))


async def set_money(
    member: MemberActor, builder: ResponseMessage, give: str = "", get: str = ""
) -> InteractionResult:
    """Open the builder's money modal and submit both fields as typed."""
    shown = await member.click(builder, custom_id=custom_id(builder, ":tm:"))
    assert shown.modal is not None
    return await member.submit_modal(shown, {"give": give, "get": get})


async def offer(
    table: Table,
    member: MemberActor,
    partner: MemberActor,
    *,
    give: Sequence[int] = (),
    get: Sequence[int] = (),
    give_money: str = "",
    get_money: str = "",
) -> discord.Message:
    """Build and send an offer; the public offer message."""
    builder = await open_builder(table, member, partner)
    if give:
        await member.select(
            builder, [str(s) for s in give], custom_id=custom_id(builder, ":tl:", "-g-")
        )
    if get:
        await member.select(
            builder, [str(s) for s in get], custom_id=custom_id(builder, ":tl:", "-t-")
        )
    if give_money or get_money:
        await set_money(member, builder, give_money, get_money)
    before = len(table.public())
    await member.click(builder, label="Send offer")
    posted = table.public()
    assert len(posted) == before + 1, text(builder)
    return posted[-1]


# -- the tests --------------------------------------------------------------------------


def test_amounts_as_players_type_them() -> None:
    """Amounts in the usual German and English ways; anything else is refused."""
    assert parse_amount("1.500") == 1500
    assert parse_amount("1500") == 1500
    assert parse_amount("1,500 €") == 1500
    assert parse_amount("€1,500") == 1500
    assert parse_amount("1 500") == 1500
    assert parse_amount("1.500,-") == 1500
    assert parse_amount("") == 0
    for bad in ("zwölf", "1.5", "-20", "12abc", "1,50"):
        assert parse_amount(bad) is None, bad


async def test_trade_with_mortgaged_lots_and_card_then_lift_per_lot(
    table: Table, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Mortgaged lots and a jail-free card for money; the receiver lifts one of two lots."""
    anna, ben, cara = table.anna, table.ben, table.cara
    speaks_german(monkeypatch, cara)
    game = await start(
        table,
        [(anna, {"jail_cards": ["chance"]}), (ben, {}), (cara, {})],
        lots={
            SEESTRASSE: {"owner": 0, "mortgaged": True},
            PARKSTRASSE: {"owner": 0, "mortgaged": True},
        },
    )
    builder = await open_builder(table, anna, ben)
    assert "Trade with Ben" in text(builder)
    await anna.select(builder, ["11", "37"], custom_id=custom_id(builder, ":tl:", "-g-"))
    await anna.click(builder, label="Give jail-free card (Chance)")
    await set_money(anna, builder, get="€300")
    preview = text(table.message(builder.id))
    assert "Seestraße (mortgaged)" in preview and "Parkstraße (mortgaged)" in preview
    assert "Jail-free card (Chance)" in preview and "€300" in preview
    # 10 % of 70 and of 175 (rounded up): 7 + 18.
    assert "Ben pays €25 interest" in preview
    assert "Ready to send" in preview

    await anna.click(builder, label="Send offer")
    assert "Offer #1 sent" in table.message(builder.id).content
    offer_message = table.public()[-1]
    assert f"<@{ben.id}>" in offer_message.content
    assert "Handelsangebot #1" in text(offer_message)

    wrong = await cara.click(offer_message, label="Annehmen")
    assert private(wrong) == "Nur Ben kann auf dieses Angebot antworten."
    await ben.click(offer_message, label="Annehmen")
    state = await table.state(game)
    assert state.owner[SEESTRASSE] == state.owner[PARKSTRASSE] == 1
    assert state.players[1].jail_cards == ["chance"] and state.players[0].jail_cards == []
    assert (state.players[0].cash, state.players[1].cash) == (1800, 1200)
    assert state.phase == "mortgage_choice"
    closed = table.message(offer_message.id)
    assert closed.content == "✅ Angenommen" and not closed.components

    turn = await table.turn_message(game)
    assert "Einzeln wählen …" in labels(turn)
    wrong = await anna.click(turn, label="Einzeln wählen …")
    assert private(wrong) == "Only Ben decides about these mortgages."
    lifts = menu_of(await ben.click(turn, label="Einzeln wählen …"))
    await ben.select(lifts, ["37"], custom_id=custom_id(lifts, ":lc:"))
    await ben.click(lifts, custom_id=custom_id(lifts, ":ld:"))
    state = await table.state(game)
    assert not state.mortgaged[PARKSTRASSE] and state.mortgaged[SEESTRASSE]
    # Lift Parkstraße: 175 + 18; keep Seestraße: 7 interest.
    assert state.players[1].cash == 1200 - 193 - 7
    assert state.phase == "roll"


async def test_decline_counter_withdraw_and_stale_accepts(table: Table) -> None:
    """Decline, counter (declines the original), withdraw, and clicks on changed offers."""
    anna, ben = table.anna, table.ben
    game = await start(
        table, [(anna, {}), (ben, {})], lots={BADSTRASSE: {"owner": 0}, TURMSTRASSE: {"owner": 0}}
    )
    first = await offer(table, anna, ben, give=[BADSTRASSE], get_money="100")
    await ben.click(first, label="Ablehnen")
    assert table.message(first.id).content == "❌ Abgelehnt"
    assert (await table.state(game)).trades == []

    second = await offer(table, anna, ben, give=[BADSTRASSE], get_money="1.000")
    counter = menu_of(await ben.click(second, label="Gegenangebot"))
    assert "Counter-offer to offer #2" in text(counter)
    assert "Badstraße" in text(counter) and "€1,000" in text(counter)
    await set_money(ben, counter, give="80")
    await ben.click(counter, label="Send offer")
    assert table.message(second.id).content == "🔁 Abgelehnt – mit Gegenangebot #3"
    state = await table.state(game)
    assert [(tr["id"], tr["from"], tr["give"]["cash"]) for tr in state.trades] == [(3, 1, 80)]
    third = table.public()[-1]
    assert f"<@{anna.id}>" in third.content

    wrong = await anna.click(third, label="Zurückziehen")
    assert private(wrong) == "Only Ben can withdraw this offer."
    await anna.click(third, label="Annehmen")
    assert table.message(third.id).content == "✅ Angenommen"
    assert (await table.state(game)).owner[BADSTRASSE] == 1

    # The offer changes after it was made: Anna mortgages the lot she offers.
    fourth = await offer(table, anna, ben, give=[TURMSTRASSE], get_money="100")
    shown = snapshot(table, fourth)
    accept_id = custom_id(fourth, "trade_accept")
    await table.bot.service.act(game, anna.id, {"type": "mortgage", "square": TURMSTRASSE})
    changed = await ben.click(fourth, label="Annehmen")
    assert "The offer has changed" in private(changed)
    state = await table.state(game)
    assert state.owner[TURMSTRASSE] == 0 and len(state.trades) == 1
    refreshed = table.message(fourth.id)
    assert "Turmstraße (beliehen)" in text(refreshed)
    assert custom_id(refreshed, "trade_accept") != accept_id
    await ben.click(refreshed, label="Annehmen")
    assert (await table.state(game)).owner[TURMSTRASSE] == 1
    await ben.click(await table.turn_message(game), label=t("de", "button.keep_mortgages"))

    # A click on an old copy of a settled offer changes nothing.
    stale = await click_old(table, ben, shown, accept_id)
    assert private(stale) == "That offer no longer exists."
    fifth = await offer(table, anna, ben, get_money="", give_money="50")
    await anna.click(fifth, label="Zurückziehen")
    assert table.message(fifth.id).content == "↩️ Zurückgezogen"
    assert (await table.state(game)).trades == []


async def test_built_on_lot_and_words_for_money_are_refused(table: Table) -> None:
    """Built-on groups are not offered, the engine refuses them, words are no money."""
    anna, ben = table.anna, table.ben
    game = await start(
        table,
        [(anna, {}), (ben, {})],
        lots={
            BADSTRASSE: {"owner": 0, "houses": 1},
            TURMSTRASSE: {"owner": 0, "houses": 1},
            SUEDBAHNHOF: {"owner": 0},
            CHAUSSEE: {"owner": 0},
            ELISEN: {"owner": 0},
            POST: {"owner": 0},
        },
    )
    builder = await open_builder(table, anna, ben)
    # The brown group has houses: its streets are not offered at all.
    assert options(builder, ":tl:", "-g-") == ["5", "6", "8", "9"]
    await anna.select(builder, ["6"], custom_id=custom_id(builder, ":tl:", "-g-"))

    refused = await set_money(anna, builder, get="zwölf")
    assert private(refused) == "“zwölf” is not a number."
    assert "€" not in text(table.message(builder.id)).split("You get")[1].split("\n")[1]

    # A house goes up on the light-blue group after the lot was chosen: the preview warns
    # and the engine refuses the offer.
    await table.bot.service.act(game, anna.id, {"type": "build", "square": CHAUSSEE})
    await set_money(anna, builder, get="200")
    assert "sell them before trading" in text(table.message(builder.id))
    sent = await anna.click(builder, label="Send offer")
    assert "sell them before trading" in private(sent)
    assert (await table.state(game)).trades == []


async def test_build_evenly_with_plus_and_minus(table: Table) -> None:
    """ "+" and "−" build and sell one building at a time, evenly, and say what it costs."""
    anna, ben = table.anna, table.ben
    game = await start(
        table,
        [(anna, {"cash": 2000}), (ben, {})],
        lots={PARKSTRASSE: {"owner": 0}, SCHLOSSALLEE: {"owner": 0}},
    )
    turn = await table.turn_message(game)
    wrong = await ben.click(turn, label="Bauen & Hypotheken")
    assert private(wrong) == "There is nothing you can build, sell or mortgage right now."
    menu = menu_of(await anna.click(turn, label="Bauen & Hypotheken"))
    assert "Build: Dark blue" in text(menu)
    assert button(menu, ":mb:37")["label"] == "+ 🏠 €200"
    assert button(menu, ":ms:37").get("disabled")

    await anna.click(menu, custom_id=custom_id(menu, ":mb:37"))
    menu = table.message(menu.id)
    assert (await table.state(game)).houses[PARKSTRASSE] == 1
    # Even building: Parkstraße waits for Schlossallee.
    assert button(menu, ":mb:37").get("disabled") and not button(menu, ":mb:39").get("disabled")
    assert "Parkstraße: 🏠×1" in labels(menu)
    await anna.click(menu, custom_id=custom_id(menu, ":mb:39"))
    await anna.click(table.message(menu.id), custom_id=custom_id(menu, ":mb:37"))
    state = await table.state(game)
    assert (state.houses[PARKSTRASSE], state.houses[SCHLOSSALLEE]) == (2, 1)
    menu = table.message(menu.id)
    # Even selling: only the street with more houses may sell.
    assert button(menu, ":ms:37")["label"] == "− €100"
    assert button(menu, ":ms:39").get("disabled")
    await anna.click(menu, custom_id=custom_id(menu, ":ms:37"))
    state = await table.state(game)
    assert (state.houses[PARKSTRASSE], state.houses[SCHLOSSALLEE]) == (1, 1)
    assert state.players[0].cash == 2000 - 3 * 200 + 100
    assert state.bank_houses == 30
    log = text(await table.turn_message(game))
    assert "🏗️ Anna baut ein Haus auf Parkstraße (200 €)" in log
    assert "Anna verkauft ein Haus auf Parkstraße (100 €)" in log


async def test_mortgage_and_lift(table: Table) -> None:
    """Two lots mortgaged and one lifted in one confirmation, with the totals reported."""
    anna, ben = table.anna, table.ben
    game = await start(
        table,
        [(anna, {"cash": 500}), (ben, {})],
        lots={
            SUEDBAHNHOF: {"owner": 0},
            WESTBAHNHOF: {"owner": 0},
            SEESTRASSE: {"owner": 0, "mortgaged": True},
        },
    )
    menu = menu_of(await anna.click(await table.turn_message(game), label="Bauen & Hypotheken"))
    assert "Mortgages" in text(menu)
    await anna.select(menu, ["5", "15"], custom_id=custom_id(menu, ":mo:", "-m-"))
    await anna.select(menu, ["11"], custom_id=custom_id(menu, ":mo:", "-l-"))
    menu = table.message(menu.id)
    assert "Confirm (+€200 / −€77)" in labels(menu)
    await anna.click(menu, label="Confirm (+€200 / −€77)")
    menu = table.message(menu.id)
    assert "🏦 Mortgaged: Südbahnhof, Westbahnhof (+€200)" in menu.content
    assert "🔓 Lifted: Seestraße (−€77)" in menu.content
    state = await table.state(game)
    assert state.mortgaged[SUEDBAHNHOF] and state.mortgaged[WESTBAHNHOF]
    assert not state.mortgaged[SEESTRASSE]
    assert state.players[0].cash == 500 + 200 - 77


async def test_debtor_offers_lots_and_creditor_accepts(table: Table) -> None:
    """A debtor offers lots for part of the debt; only the creditor may accept."""
    anna, ben = table.anna, table.ben
    game = await start(
        table,
        [(anna, {"cash": 100}), (ben, {})],
        lots={OPERNPLATZ: {"owner": 0}, NORDBAHNHOF: {"owner": 0}, SCHLOSSALLEE: {"owner": 1}},
        debts=[{"debtor": 0, "creditor": 1, "amount": 750, "reason": "rent"}],
    )
    turn = await table.turn_message(game)
    assert {"Verkaufen / beleihen", "Grundstücke an Ben anbieten"} <= set(labels(turn))
    wrong = await ben.click(turn, label="Grundstücke an Ben anbieten")
    assert private(wrong) == "Only Anna can offer lots or withdraw the offer."
    panel = menu_of(await anna.click(turn, label="Grundstücke an Ben anbieten"))
    assert "You owe Ben €750" in text(panel)
    await anna.select(panel, ["24", "25"], custom_id=custom_id(panel, ":lo:"))
    shown = await anna.click(table.message(panel.id), label="Offer … (value)")
    refused = await anna.submit_modal(shown, {"value": "viel"})
    assert private(refused) == "“viel” is not a number."
    shown = await anna.click(table.message(panel.id), label="Offer … (value)")
    await anna.submit_modal(shown, {"value": "600 €"})
    assert table.message(panel.id).content == "Offer sent."
    offer_message = table.public()[-1]
    assert f"<@{ben.id}>" in offer_message.content
    assert "600 €" in text(offer_message) and "Opernplatz" in text(offer_message)

    wrong = await anna.click(offer_message, label="Annehmen (600 €)")
    assert private(wrong) == "Only Ben can answer this offer."
    await ben.click(offer_message, label="Annehmen (600 €)")
    state = await table.state(game)
    assert state.owner[OPERNPLATZ] == state.owner[NORDBAHNHOF] == 1
    assert state.debts == [{"debtor": 0, "creditor": 1, "amount": 150, "reason": "rent"}]
    assert table.message(offer_message.id).content == "✅ Angenommen"


async def test_rent_claims_deed_and_log(table: Table) -> None:
    """Only the owner claims rent; the title deed and the log are shown privately."""
    anna, ben = table.anna, table.ben
    game = await start(
        table,
        [(anna, {}), (ben, {})],
        lots={SCHLOSSALLEE: {"owner": 1}},
        rules={"rent_must_be_claimed": True},
        claims=[{"owner": 1, "payer": 0, "square": SCHLOSSALLEE, "amount": 50, "turn": 1}],
    )
    turn = await table.turn_message(game)
    claim = "💰 Ben: Miete 50 € verlangen (Schlossallee)"
    wrong = await anna.click(turn, label=claim)
    assert private(wrong) == "Only Ben can claim this rent."
    await ben.click(turn, label=claim)
    state = await table.state(game)
    assert (state.players[0].cash, state.players[1].cash, state.claims) == (1450, 1550, [])
    assert claim not in labels(await table.turn_message(game))

    choices = await anna.autocomplete(table.channel, "monopoly property", "name", "ALLEE")
    assert [c["name"] for c in choices] == ["Schlossallee"]
    deed = await anna.slash(table.channel, "monopoly property", name=choices[0]["value"])
    posted = deed.response
    assert posted.ephemeral and posted.attachments[0].filename == "deed.png"
    log = await anna.slash(table.channel, "monopoly log")
    assert "Ben" in private(log) and "50 €" in private(log)


async def test_more_than_25_lots_are_reachable(table: Table) -> None:
    """With all 28 lots the give select has two pages and keeps choices across them."""
    anna, ben = table.anna, table.ben
    every_lot = load_board("de_euro").property_indices
    game = await start(table, [(anna, {}), (ben, {})], lots={i: {"owner": 0} for i in every_lot})
    builder = await open_builder(table, anna, ben)
    first_page = options(builder, ":tl:", "-g-")
    assert len(first_page) == 25 and first_page[0] == "1"
    await anna.select(builder, ["1"], custom_id=custom_id(builder, ":tl:", "-g-"))
    await anna.click(table.message(builder.id), label="Give ▶")
    builder_now = table.message(builder.id)
    assert options(builder_now, ":tl:", "-g-") == ["35", "37", "39"]
    await anna.select(builder_now, ["39"], custom_id=custom_id(builder_now, ":tl:", "-g-"))
    await anna.click(table.message(builder.id), label="Send offer")
    state = await table.state(game)
    assert state.trades[0]["give"]["lots"] == [BADSTRASSE, SCHLOSSALLEE]


async def test_mortgage_choices_on_two_pages_are_kept(table: Table) -> None:
    """28 lots to mortgage: the select pages, and a choice on each page counts."""
    anna, ben = table.anna, table.ben
    every_lot = load_board("de_euro").property_indices
    game = await start(table, [(anna, {}), (ben, {})], lots={i: {"owner": 0} for i in every_lot})
    menu = menu_of(await anna.click(await table.turn_message(game), label="Bauen & Hypotheken"))
    await anna.click(menu, label="Mortgages")  # whole groups: the building page comes first
    menu = table.message(menu.id)
    assert len(options(menu, ":mo:", "-m-")) == 25
    await anna.select(menu, ["1"], custom_id=custom_id(menu, ":mo:", "-m-"))
    await anna.click(table.message(menu.id), label="▶ Mortgage")
    menu = table.message(menu.id)
    assert options(menu, ":mo:", "-m-") == ["35", "37", "39"]
    await anna.select(menu, ["39"], custom_id=custom_id(menu, ":mo:", "-m-"))
    menu = table.message(menu.id)
    confirm = next(label for label in labels(menu) if label.startswith("Confirm"))
    assert confirm == "Confirm (+€230 / −€0)"
    await anna.click(menu, label=confirm)
    state = await table.state(game)
    assert [i for i in every_lot if state.mortgaged[i]] == [BADSTRASSE, SCHLOSSALLEE]
    assert state.players[0].cash == 1500 + 30 + 200


async def test_offers_survive_a_restart_and_old_menus_expire(table: Table, database: Any) -> None:
    """Public offers live in the game state; private drafts in memory do not."""
    anna, ben = table.anna, table.ben
    game = await start(table, [(anna, {}), (ben, {})], lots={BADSTRASSE: {"owner": 0}})
    # Ben starts an offer from the turn message's "Trade" button and leaves it open.
    picker = menu_of(await ben.click(await table.turn_message(game), label="Handeln"))
    await ben.select(picker, ["0"], custom_id=custom_id(picker, ":tq"))
    await ben.select(picker, ["1"], custom_id=custom_id(picker, ":tl:", "-t-"))
    builder = table.message(picker.id)
    assert "Trade with Anna" in text(builder) and "Badstraße" in text(builder)
    offer_message = await offer(table, anna, ben, give=[BADSTRASSE], get_money="60")

    old = table.bot
    await table.env.restart_bot(restarted_bot(database))
    await old.stop_background()
    await old.store.close()

    # The builder's draft was in memory: its buttons now say so politely.
    await ben.click(builder, label="Send offer")
    assert "expired" in table.message(builder.id).content
    # The offer lives in the game state: it can still be accepted.
    await ben.click(offer_message, label="Annehmen")
    state = await table.state(game)
    assert state.owner[BADSTRASSE] == 1 and state.players[0].cash == 1560
    assert table.message(offer_message.id).content == "✅ Angenommen"
