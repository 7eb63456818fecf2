"""Issue 21: a trade with a computer player, late bid forms, refusals Discord refused once,
and the board that fits the game's language – each played the way a player would."""

from __future__ import annotations

from typing import Any

import discord
import pytest
from simcord.enums import ComponentType
from simcord.results import InteractionResult

from bot.engine.scenario import SCENARIO_FORMAT
from bot.engine.state import BANK
from bot.i18n import t
from tests.discord.helpers import (
    BADSTRASSE,
    SUEDBAHNHOF,
    TURMSTRASSE,
    Member,
    Table,
    buttons,
    click_as_shown,
    computer_position,
    embed_text,
    fresh,
    open_lobby,
    play_position,
    private_reply,
    rolled,
    scenario,
    seed_for,
    snapshot,
    start_game,
    still_thinking,
)

pytest_plugins = ["tests.discord.helpers"]

ALREADY_DONE = t("de", "error.already_done")
AUCTION_OVER = t("de", "error.auction_over")


# -- helpers --------------------------------------------------------------------------------


def _component(message: Any, part: str) -> dict[str, Any]:
    """The one component of a (private) message whose custom id contains ``part``."""
    found = []
    for row in message.components:
        children = row.get("components", []) if isinstance(row, dict) else row.children
        for child in children:
            data = child if isinstance(child, dict) else child.to_dict()
            if part in str(data.get("custom_id", "")):
                found.append(data)
    assert len(found) == 1, (part, found)
    return found[0]


def _modal_field(modal: dict[str, Any]) -> str:
    """The custom id of a form's (first) text field."""
    for component in modal["components"]:
        inner = component.get("components") or [component.get("component") or component]
        for child in inner:
            if child.get("type") == ComponentType.TEXT_INPUT:
                return str(child["custom_id"])
    raise AssertionError(f"no text field in {modal!r}")


async def open_form(member: Member, message: discord.Message, label: str) -> InteractionResult:
    """``member`` clicks ``label`` and gets a form (not sent yet)."""
    shown = await member.click(message, label=label)
    assert shown.modal is not None, f"{label} opened no form"
    return shown


async def send_form(member: Member, shown: InteractionResult, text: str) -> InteractionResult:
    """``member`` types ``text`` into the form ``shown`` and sends it."""
    assert shown.modal is not None
    return await member.submit_modal(shown, {_modal_field(shown.modal): text})


async def lobby_with_computer(table: Table, level: str = "strong") -> discord.Message:
    """Alice opens a German lobby and seats one computer player."""
    await open_lobby(table, table.alice, language="de")
    lobby = table.channel.last_message
    select = _component(lobby, ":lobby_cpu")
    await table.alice.select(lobby, [level], custom_id=select["custom_id"])
    return table.message(lobby.id)


# -- 1. a trade with a computer player ---------------------------------------------------


async def test_a_human_offers_a_computer_player_a_trade_and_gets_an_answer(
    table: Table,
) -> None:
    """Alice plays against Computer 1. She opens "Handeln", picks the computer as partner,
    offers 50 € for nothing and sends it: the offer is posted, and a moment later the
    computer answers it (accepts or declines) – nobody sees "nothing was changed"."""
    lobby = await lobby_with_computer(table)
    await table.alice.click(lobby, label=t("de", "button.start"))
    game = await table.game_id()
    state = await table.state(game)
    assert [p.id for p in state.players] == [str(table.alice.id), "cpu1"]

    turn = await table.turn_message(game)
    picker = await table.alice.click(turn, label=t("de", "button.trade"))
    assert picker.response is not None and picker.response.ephemeral
    choice = _component(picker.response, ":tq")
    assert [o["label"] for o in choice["options"]] == ["Computer 1"]
    await table.alice.select(picker.response, ["1"], custom_id=choice["custom_id"])
    builder = fresh(table, picker.response)
    assert "Computer 1" in embed_text(builder)

    money = await table.alice.click(builder, custom_id=_component(builder, ":tm:")["custom_id"])
    assert money.modal is not None
    await table.alice.submit_modal(money, {"give": "50", "get": ""})
    builder = fresh(table, builder)
    await table.alice.click(builder, label=t("de", "trade.send"))
    assert fresh(table, builder).content == t("de", "trade.sent", id=1)
    offer = next(m for m in table.bot_messages() if "Handelsangebot #1" in embed_text(m))

    for _ in range(30):  # the computer answers (at once, or after its short delay)
        await table.env.advance_time(2)
        if not (await table.state(game)).trades:
            break
    state = await table.state(game)
    assert state.trades == [], "the computer never answered"
    answered = table.message(offer.id)
    assert answered.content in ("✅ Angenommen", "❌ Abgelehnt")
    assert answered.components == []
    if answered.content == "✅ Angenommen":
        assert (state.players[0].cash, state.players[1].cash) == (1450, 1550)
    assert still_thinking(table) == []


# simcord's own 5 s settle limit: the computer's offer comes on a real-time pause that a
# longer limit would wait out (see tests/conftest.py SETTLE_TIMEOUT).
@pytest.mark.simcord(settle_timeout=5.0)
async def test_a_counter_offer_to_a_computer_players_offer_opens_the_builder(
    table: Table,
) -> None:
    """Computer 1 (Carol plays too) owns Badstraße and offers Alice money for
    Turmstraße, the other brown street; her "Gegenangebot" opens the builder with the
    offer turned round (the computer's seat has no Discord id), and she sends it back."""
    raw = {
        "format": SCENARIO_FORMAT,
        "players": [
            {"id": str(table.alice.id), "name": "alice"},
            {"id": "cpu1", "name": "Computer 1", "cash": 3000},
            {"id": str(table.carol.id), "name": "carol"},
        ],
        "seed": seed_for((1, 3), (2, 2), (1, 3), (3, 4)),
        "lots": {str(BADSTRASSE): {"owner": 1}, str(TURMSTRASSE): {"owner": 0}},
    }
    game = await computer_position(table, raw)
    await table.alice.click(await table.turn_message(game), label=t("de", "button.roll"))
    await table.alice.click(await table.turn_message(game), label=t("de", "button.end_turn"))
    offer = None
    for _ in range(30):
        await table.env.advance_time(2)
        if (await table.state(game)).trades:
            offer = table.bot_messages()[-1]
            break
    assert offer is not None, "the computer made no offer"
    assert t("de", "trade.counter") in buttons(offer)

    counter = await table.alice.click(offer, label=t("de", "trade.counter"))

    builder = counter.response
    assert builder is not None and builder.ephemeral
    assert "Computer 1" in embed_text(builder) and "Turmstraße" in embed_text(builder)
    await table.alice.click(builder, label=t("de", "trade.send"))
    assert fresh(table, builder).content == t("de", "trade.sent", id=2)
    assert table.message(offer.id).content.startswith("🔁")  # declined with a counter-offer
    assert any("Handelsangebot #2" in embed_text(m) for m in table.bot_messages())


# -- 2. a late bid form -------------------------------------------------------------------


async def two_auctions(
    table: Table, *, sealed: bool = False
) -> tuple[int, InteractionResult, discord.Message]:
    """Alice declines the Südbahnhof (auction A); Bob opens the bid form there but sends
    nothing yet. Auction A ends (Carol wins it, or nobody), Alice ends her turn, Bob throws
    1+2 onto the Turmstraße and declines it too: auction B is under way. Returns the game,
    Bob's unsent form from auction A and auction B's message."""
    raw = scenario(
        [table.alice, table.bob, table.carol],
        steps=[rolled(0, 2, 3)],
        seed=seed_for((1, 2)),
        rules={"sealed_auctions": sealed},
    )
    game = await play_position(table, raw)
    await table.alice.click(await table.turn_message(game), label=t("de", "button.decline"))
    first = await table.auction_message(game)
    label = t("de", "button.sealed_bid" if sealed else "button.bid_exact")
    late = await open_form(table.bob, first, label)
    for member in (table.alice, table.bob, table.carol):
        await member.click(table.message(first.id), label=t("de", "button.pass"))
    state = await table.state(game)
    assert state.auction is None and state.owner[SUEDBAHNHOF] == BANK  # unsold

    await table.alice.click(await table.turn_message(game), label=t("de", "button.end_turn"))
    await table.bob.click(await table.turn_message(game), label=t("de", "button.roll"))
    assert (await table.state(game)).players[1].position == TURMSTRASSE
    await table.bob.click(await table.turn_message(game), label=t("de", "button.decline"))
    second = await table.auction_message(game)
    assert second.id != first.id
    return game, late, second


async def test_a_bid_form_of_a_closed_auction_is_not_placed_in_the_next_one(
    table: Table,
) -> None:
    """Bob sends the form he opened in the Südbahnhof's auction during the Turmstraße's:
    he is told that auction is over, and nothing is bid – the bug made him the highest
    bidder on a lot he never bid on."""
    game, late, second = await two_auctions(table)
    before = await table.state_json(game)

    sent = await send_form(table.bob, late, "150")

    assert private_reply(sent) == AUCTION_OVER
    assert await table.state_json(game) == before
    auction = (await table.state(game)).auction
    assert auction is not None and auction["square"] == TURMSTRASSE and auction["leader"] is None
    assert "Höchstgebot" not in embed_text(table.message(second.id))


async def test_a_sealed_bid_form_of_a_closed_auction_is_refused_too(table: Table) -> None:
    """The same with sealed bids: Bob's sealed maximum from the Südbahnhof's auction does
    not become his secret bid on the Turmstraße."""
    game, late, _ = await two_auctions(table, sealed=True)
    before = await table.state_json(game)

    sent = await send_form(table.bob, late, "150")

    assert private_reply(sent) == AUCTION_OVER
    assert await table.state_json(game) == before
    auction = (await table.state(game)).auction
    assert auction is not None and auction["bids"] == []


async def test_a_bid_form_opened_a_few_bids_ago_still_counts(table: Table) -> None:
    """In the Turmstraße's auction Alice opens the bid form; Carol and Bob bid meanwhile
    (the auction message's buttons may be a few bids old, too). Alice's 100 is placed
    in this auction: she leads with it."""
    game, _, second = await two_auctions(table)
    opened = await open_form(table.alice, second, t("de", "button.bid_exact"))
    await table.carol.click(table.message(second.id), label="+10")
    await table.bob.click(table.message(second.id), label="+50")
    assert (await table.state(game)).auction["high"] == 60  # type: ignore[index]

    sent = await send_form(table.alice, opened, "100")

    assert [f.content for f in sent.followups if f.ephemeral] == []  # no refusal
    auction = (await table.state(game)).auction
    assert auction is not None and (auction["leader"], auction["high"]) == (0, 100)


async def test_a_bid_form_from_an_outdated_auction_message_is_not_opened(table: Table) -> None:
    """Bob's client still shows the Südbahnhof's auction message with its buttons; he
    presses "Bieten …" there during the Turmstraße's auction: no form opens, he is told
    the button is out of date."""
    raw = scenario(
        [table.alice, table.bob, table.carol], steps=[rolled(0, 2, 3)], seed=seed_for((1, 2))
    )
    game = await play_position(table, raw)
    await table.alice.click(await table.turn_message(game), label=t("de", "button.decline"))
    first = await table.auction_message(game)
    shown = snapshot(table, first)
    for member in (table.alice, table.bob, table.carol):
        await member.click(table.message(first.id), label=t("de", "button.pass"))
    await table.alice.click(await table.turn_message(game), label=t("de", "button.end_turn"))
    await table.bob.click(await table.turn_message(game), label=t("de", "button.roll"))
    await table.bob.click(await table.turn_message(game), label=t("de", "button.decline"))
    before = await table.state_json(game)

    stale = await click_as_shown(table, table.bob, shown, t("de", "button.bid_exact"))

    assert stale.modal is None
    assert private_reply(stale) == ALREADY_DONE
    assert await table.state_json(game) == before


# -- 3. a refusal Discord refused once ----------------------------------------------------

CALLBACK = "/interactions/*/*/callback"
FOLLOWUP = "/webhooks/*/*"
NOT_A_PLAYER = t("de", "error.not_a_player")


async def test_a_refusal_whose_follow_up_fails_is_sent_again(table: Table) -> None:
    """Dave, who does not play, presses Alice's "Würfeln". The bot answers the click at
    once and sends the refusal as a follow-up – which Discord refuses (500). The bot tries
    once more, and Dave reads why nothing happened; the game is unchanged."""
    game = await start_game(table, table.alice, table.bob)
    turn = await table.turn_message(game)
    before = await table.state_json(game)
    table.env.inject_error("POST", FOLLOWUP, status=500, message="injected")

    clicked = await table.dave.click(turn, label=t("de", "button.roll"))

    assert private_reply(clicked) == NOT_A_PLAYER
    assert await table.state_json(game) == before
    assert still_thinking(table) == []


@pytest.mark.parametrize(
    ("status", "code"),
    [
        pytest.param(500, 0, id="500"),
        pytest.param(400, 40060, id="already-acknowledged"),
    ],
)
async def test_a_refusal_whose_first_answer_fails_comes_as_a_follow_up(
    table: Table, status: int, code: int
) -> None:
    """Dave presses "Handeln" (answered by the handler itself, so the refusal is the
    click's first answer). Discord refuses that answer; the bot answers the other way –
    "thinking…", then the refusal – and Dave reads it."""
    game = await start_game(table, table.alice, table.bob)
    turn = await table.turn_message(game)
    before = await table.state_json(game)
    table.env.inject_error("POST", CALLBACK, status=status, code=code, message="injected")

    clicked = await table.dave.click(turn, label=t("de", "button.trade"))

    texts = [f.content for f in clicked.followups if f.ephemeral]
    response = clicked.response
    if response is not None and response.ephemeral and response.content:
        texts.append(response.content)
    assert NOT_A_PLAYER in texts
    assert await table.state_json(game) == before
    assert still_thinking(table) == []


# -- 4. the board for the game's language -----------------------------------------------


async def test_an_english_game_plays_on_the_us_board(table: Table) -> None:
    """Alice starts an English game without choosing a board: the lobby names the US
    board, and the game is played on it – Boardwalk, "Go To Jail", dollars."""
    await open_lobby(table, table.alice, language="en")
    assert "Board: US edition (English)" in embed_text(table.channel.last_message)
    lobby = table.channel.last_message
    await table.bob.click(lobby, label=t("en", "button.join"))
    await table.alice.click(lobby, label=t("en", "button.start"))
    game = await table.game_id()

    state = await table.state(game)
    assert state.board.id == "us_classic" and state.rules.board == "us_classic"
    assert state.board.squares[39].name == "Boardwalk"
    assert state.board.squares[30].name == "Go To Jail"
    assert "$1,500" in (await table.turn_message(game)).attachments[0].description


async def test_a_german_game_plays_on_the_german_board(table: Table) -> None:
    """The same game in German: the euro board with the Schlossallee."""
    await open_lobby(table, table.alice, language="de")
    assert "Spielbrett: Deutsche Ausgabe (Euro)" in embed_text(table.channel.last_message)
    game = await start_game(table, table.alice, table.bob, language="de")

    state = await table.state(game)
    assert state.board.id == "de_euro"
    assert state.board.squares[39].name == "Schlossallee"


@pytest.mark.parametrize(
    ("language", "options", "board", "start_money", "shown"),
    [
        pytest.param("de", {"board": "us_classic"}, "us_classic", 1500, "US-Ausgabe", id="de-us"),
        pytest.param(
            "en", {"board": "de_euro"}, "de_euro", 1500, "German edition (euro)", id="en-euro"
        ),
        pytest.param(
            "en",
            {"preset": "mark"},
            "de_mark",
            30000,
            "German edition (Spielmark)",
            id="en-mark-preset",
        ),
        pytest.param(
            "de",
            {"board": "de_mark"},
            "de_mark",
            30000,
            "Deutsche Ausgabe (Spielmark)",
            id="de-euro-preset-on-mark-board",
        ),
        pytest.param(
            "de",
            {"preset": "mark", "board": "us_classic"},
            "us_classic",
            1500,
            "US-Ausgabe",
            id="mark-preset-on-us-board",
        ),
    ],
)
async def test_the_chosen_board_is_played(
    table: Table,
    language: str,
    options: dict[str, str],
    board: str,
    start_money: int,
    shown: str,
) -> None:
    """An explicit board is honoured in either language; the Mark preset keeps its Mark
    board in an English game. The money is the board's own (start money, salary, prices),
    so every combination of the shipped presets and boards plays consistently."""
    members = [table.alice, table.bob, table.carol]  # the Mark preset needs three
    game = await start_game(table, *members, language=language, **options)

    state = await table.state(game)
    assert state.board.id == state.rules.board == board
    assert [p.cash for p in state.players] == [start_money] * 3
    assert state.board.squares[39].price == (8000 if board == "de_mark" else 400)
    row = await table.row(game)
    lobby = table.message(row.settings["lobby_message"])
    assert shown in embed_text(lobby)


async def test_a_theme_still_renames_in_an_english_game(table: Table) -> None:
    """Alice starts an English game with the cookies & pirates theme: the theme is made for
    the German board, so the game is played on it, renamed – "Naschgeld" for money."""
    await open_lobby(table, table.alice, language="en", theme="cookies_and_pirates")
    lobby = table.channel.last_message
    assert "Theme: Cookies & Pirates" in embed_text(lobby)
    await table.bob.click(lobby, label=t("en", "button.join"))
    await table.alice.click(lobby, label=t("en", "button.start"))
    game = await table.game_id()

    state = await table.state(game)
    assert state.board.id == "de_euro"
    assert "Naschgeld" in (await table.turn_message(game)).attachments[0].description


async def test_a_theme_for_another_board_than_the_chosen_one_is_refused(table: Table) -> None:
    """Alice asks for the US board and the cookies & pirates theme, which renames the
    German board: she is told so privately, and no lobby is opened."""
    refused = await open_lobby(
        table, table.alice, language="de", board="us_classic", theme="cookies_and_pirates"
    )

    assert private_reply(refused) == t(
        "de",
        "error.theme_other_board",
        theme="cookies_and_pirates",
        board=t("de", "board.de_euro"),
        chosen=t("de", "board.us_classic"),
    )
    assert await table.bot.store.game_in_channel(table.channel.id) is None


async def test_a_preset_with_amounts_for_another_board_is_refused(
    table: Table, monkeypatch: pytest.MonkeyPatch
) -> None:
    """A preset that names its own amounts (here: the Mark preset with 30,000 start
    money, in Mark) cannot be played on a board with amounts of another size: Alice is
    told why, and no lobby is opened."""
    from bot.engine import rules as rules_module

    original = rules_module._preset_data

    def with_amounts(name: str) -> dict[str, Any]:
        data = dict(original(name))
        return {**data, "start_money": 30000} if name == "mark" else data

    monkeypatch.setattr(rules_module, "_preset_data", with_amounts)

    refused = await open_lobby(table, table.alice, language="de", preset="mark", board="de_euro")

    assert private_reply(refused) == t(
        "de",
        "error.board_money",
        preset=t("de", "preset.mark"),
        board=t("de", "board.de_euro"),
    )
    assert await table.bot.store.game_in_channel(table.channel.id) is None


async def test_the_card_game_has_no_board(table: Table) -> None:
    """The card game is unaffected: an English card game with a board option starts as
    before, without a board in its rules."""
    game = await start_game(
        table, table.alice, table.bob, language="en", game="cards", board="us_classic"
    )

    row = await table.row(game)
    assert "overrides" not in row.settings
    assert row.state is not None and not hasattr(row.state, "board")
