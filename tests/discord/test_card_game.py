"""MONOPOLY Das Kartenspiel in Discord: a lobby, the table, private hands, whole rounds.

Each move is made the way a player makes it: "🂠 Meine Hand" on the table message opens
the hand privately (as its picture at once), then a button or a select in it. Which move
is the engine's simple player's choice (so rounds end), made through those controls.
Every picture the game posts carries its alt text.
"""

from __future__ import annotations

from typing import Any

import pytest

from bot.cardgame import CardState, SimpleCardPlayer, legal_actions, waiting_for
from bot.cardgame.game import new_game
from bot.i18n import t
from cogs.ui.cards_hand import LayoutDraft, assign_message
from render.cards import describe_hand, describe_round_result, describe_table
from tests.discord.helpers import Member, Table, embed_text, fresh, private_reply

pytest_plugins = ["tests.discord.helpers"]

PLAYER = SimpleCardPlayer()


def select_id(message: Any, kind: str) -> str:
    """The custom_id of the hand message's select of ``kind`` (c_swap, c_discard …)."""
    for row in message.components:
        for child in row.get("components", []):
            if f":{kind}" in str(child.get("custom_id", "")):
                return child["custom_id"]
    raise AssertionError(f"no {kind} select in the hand message")


async def start_card_game(table: Table, members: list[Member]) -> int:
    """The first member opens a card-game lobby, the others join, the host starts."""
    host, *others = members
    await host.slash(table.channel, "monopoly start", language="de", game="cards")
    lobby = table.channel.last_message
    assert t("de", "cards.lobby_title") in embed_text(lobby)
    for member in others:
        await member.click(lobby, label=t("de", "button.join"))
    await host.click(lobby, label=t("de", "button.start"))
    return await table.game_id()


async def card_state(table: Table, game: int) -> CardState:
    state = (await table.row(game)).state
    assert isinstance(state, CardState)
    return state


async def open_hand(table: Table, game: int, member: Member) -> Any:
    """``member`` opens their hand from the table message; the private hand message, which
    shows the hand's picture from the first moment."""
    row = await table.row(game)
    result = await member.click(table.message(row.settings["table_message"]), label="🂠 Meine Hand")
    assert result.ephemeral, "the hand is not private"
    hand = result.response
    assert [a.filename for a in hand.attachments] == ["hand.png"], "the hand has no picture"
    assert hand.embeds[0].image.url.endswith("hand.png")
    return hand


def alt_texts(message: Any) -> dict[str, str]:
    """Each attachment's alt text (``discord.File(description=…)``) by file name."""
    return {a.filename: a.description or "" for a in message.attachments}


async def make_move(table: Table, game: int, members: list[Member]) -> None:
    """The first player the game waits on makes the simple player's kind of move."""
    state = await card_state(table, game)
    seat = waiting_for(state)[0]
    member = next(m for m in members if str(m.id) == state.players[seat].id)
    hand = await open_hand(table, game, member)
    kinds = {a["type"] for a in legal_actions(state, seat)}
    choice = PLAYER.decide(state, seat)
    if choice["type"] == "lay_out" and "lay_out" in kinds:
        await member.click(hand, label=t("de", "cards.button.lay_out"))
    elif "arrange" in kinds:
        await member.click(hand, label=t("de", "cards.button.arrange"))
    elif choice["type"] == "discard":
        await member.select(hand, list(choice["cards"]), custom_id=select_id(hand, "c_discard"))
    elif choice["type"] == "pass_card":
        await member.select(hand, [choice["card"]], custom_id=select_id(hand, "c_pass"))
    elif choice["type"] == "swap" and "first_discard" not in choice:
        value = f"s-{choice['target']}-{choice['count']}"
        await member.select(hand, [value], custom_id=select_id(hand, "c_swap"))
    elif "draw" in kinds:
        await member.click(hand, label=t("de", "cards.button.draw"))
    else:  # a swap the menu offers (the simple player wanted one with a first discard)
        swaps = [a for a in legal_actions(state, seat) if a["type"] == "swap"]
        assert swaps, (choice, kinds, state.phase, seat, state.current)
        swap = swaps[0]
        value = f"s-{swap['target']}-{swap['count']}"
        await member.select(hand, [value], custom_id=select_id(hand, "c_swap"))
    after = await card_state(table, game)
    assert after.seq > state.seq, f"the move {choice} changed nothing"


async def play_a_round(table: Table, game: int, members: list[Member]) -> CardState:
    """Make moves until the first round is scored; the state then."""
    for _ in range(400):
        state = await card_state(table, game)
        if state.round > 1 or state.phase == "over":
            return state
        await make_move(table, game, members)
    raise AssertionError("the round did not end")


@pytest.mark.parametrize("count", [2, 4])
async def test_a_whole_round_through_the_hands(table: Table, count: int) -> None:
    """2 and 4 players play the first round to its end through their private hands; the
    round's result lists every player's points and the table shows the new scores."""
    members = table.members[:count]
    game = await start_card_game(table, members)
    posted = table.message((await table.row(game)).settings["table_message"])
    assert "Abnahmestapel" in embed_text(posted)
    assert [a.filename for a in posted.attachments] == ["table.png"]  # the table as an image
    state = await play_a_round(table, game, members)
    title = t("de", "cards.round_title", round=1)
    results = [m for m in table.bot_messages() if m.embeds and m.embeds[0].title == title]
    assert results, "no round result was posted"
    text = embed_text(results[0])
    assert all(member.name in text for member in members)
    assert len(results[0].attachments) == count  # every player's lay-out as an image
    alts = alt_texts(results[0])
    for seat, member in enumerate(members):  # each lay-out says whose it is and its total
        alt = alts[f"round-{seat + 1}.png"]
        assert alt == describe_round_result(state, seat) and member.name in alt
        assert 0 < len(alt) <= 1024 and "Gesamt" in alt
    assert sum(p.score for p in state.players) > 0


async def test_six_players_pass_cards_and_finish_a_round(table: Table) -> None:
    """With 6 players (all cards dealt, swaps only, a card passed to the left after every
    turn) the round still ends through the players' hands."""
    extra = [table.guild.add_member(table.env.create_user(n)) for n in ("erik", "fiona")]
    members = [*table.members, *extra]
    for member in extra:
        table.set_locale(member, "de")
    game = await start_card_game(table, members)
    state = await play_a_round(table, game, members)
    assert state.round > 1 or state.phase == "over"


async def test_an_invalid_lay_out_is_refused_with_what_is_missing(table: Table) -> None:
    """Laying out a lone street is refused: the group is incomplete, and nothing changes."""
    game = await start_card_game(table, [table.alice, table.bob])
    state = await card_state(table, game)
    seat = state.current
    member = table.member(state.players[seat].id)
    deck = state.deck
    street = next(c for c in state.players[seat].hand if deck.card(c).kind == "property")
    group = deck.group(deck.card(street).group)
    if all(c in state.players[seat].hand for c in group.cards):
        pytest.skip("the dealt hand holds the whole group")
    before = state.to_json()
    hand = await open_hand(table, game, member)
    result = await member.select(hand, [street], custom_id=select_id(hand, "c_custom"))
    assert "nicht vollständig" in private_reply(result)
    assert (await card_state(table, game)).to_json() == before


async def test_others_cannot_open_a_hand_and_board_commands_are_refused(table: Table) -> None:
    game = await start_card_game(table, [table.alice, table.bob])
    row = await table.row(game)
    result = await table.carol.click(
        table.message(row.settings["table_message"]), label="🂠 Meine Hand"
    )
    assert private_reply(result) == t("de", "error.not_a_player")
    status = await table.alice.slash(table.channel, "monopoly status")
    assert private_reply(status) == t("de", "error.board_only")


async def test_a_card_game_keeps_moving_at_its_deadline(table: Table) -> None:
    """A card game with a one-hour deadline: the player to move is reminded, and at the
    deadline the safe default plays their part; the table says so."""
    await table.alice.slash(
        table.channel, "monopoly start", language="de", game="cards", deadline="1h"
    )
    lobby = table.channel.last_message
    await table.alice.slash(table.channel, "monopoly settings", jokers=0)  # default at once
    await table.bob.click(lobby, label=t("de", "button.join"))
    await table.alice.click(lobby, label=t("de", "button.start"))
    game = await table.game_id()
    before = await card_state(table, game)
    absent = before.players[waiting_for(before)[0]]
    await table.env.advance_time(30 * 60)
    assert any(
        f"<@{absent.id}>" in (m.content or "") and "⏰" in m.content for m in table.bot_messages()
    )
    await table.env.advance_time(30 * 60)
    after = await card_state(table, game)
    assert after.seq > before.seq
    assert any(
        t("de", "deadline.passed", players=absent.name) == m.content for m in table.bot_messages()
    )


async def test_a_computer_player_plays_its_turns_in_the_card_game(table: Table) -> None:
    """Alice and a computer player: after Alice's move the computer draws or swaps, then
    discards, by itself a moment later, and it is Alice's turn again."""
    table.bot.core.planner.auto_delay = 0.05  # a moment in real time (simcord's clock)
    await table.alice.slash(table.channel, "monopoly start", language="de", game="cards")
    lobby = table.channel.last_message
    custom_id = next(
        child.custom_id
        for row in lobby.components
        for child in row.children
        if ":lobby_cpu" in (getattr(child, "custom_id", "") or "")
    )
    await table.alice.select(lobby, ["simple"], custom_id=custom_id)
    await table.alice.click(table.message(lobby.id), label=t("de", "button.start"))
    game = await table.game_id()
    members = [table.alice]
    for _ in range(60):
        state = await card_state(table, game)
        if state.round > 1 or state.phase == "over":
            break
        if waiting_for(state) and state.players[waiting_for(state)[0]].id == str(table.alice.id):
            await make_move(table, game, members)
        else:
            await table.env.advance_time(5)
    state = await card_state(table, game)
    moves_by_computer = [
        line for line in (await table.row(game)).settings["card_lines"] if "Computer 1" in line
    ]
    assert moves_by_computer, "the computer player never moved"


def test_own_lay_out_puts_each_card_where_the_player_said() -> None:
    """One's own lay-out: houses and hotel, tokens and wild cards go to the chosen group."""
    from bot.cardgame import new_game
    from cogs.ui.cards_hand import own_layout

    state = new_game([("1", "a"), ("2", "b")], seed=1)
    deck = state.deck
    yellow, red = deck.group("yellow").cards, deck.group("red").cards
    cards = [*yellow, *red, "house1-1", "token-1", "wild-1", "go-1"]
    layout = own_layout(state, cards, {"buildings": "red", "token-1": "red", "wild-1": "yellow"})
    by_group = {g["group"]: g for g in layout["groups"]}
    assert by_group["red"]["houses"] == ["house1-1"] and by_group["red"]["tokens"] == ["token-1"]
    assert "wild-1" in by_group["yellow"]["cards"] and by_group["yellow"]["tokens"] == []
    assert layout["bonus"] == ["go-1"]
    plain = own_layout(state, cards)  # nothing said: the first group takes them
    assert {g["group"]: g for g in plain["groups"]}["yellow"]["tokens"] == ["token-1"]


async def test_a_swap_after_laying_a_card_on_ones_own_pile(table: Table) -> None:
    """004: "Man kann vor dem Tausch aber noch eine Karte von der Hand auf den
    Tauschkarten-Stapel legen." The player picks that card first, then the swap."""
    game = await start_card_game(table, [table.alice, table.bob])
    state = await card_state(table, game)
    seat = state.current
    member = table.member(state.players[seat].id)
    first = state.players[seat].hand[0]
    hand = await open_hand(table, game, member)
    await member.select(hand, [first], custom_id=select_id(hand, "c_first"))
    hand = fresh(table, hand)
    assert t("de", "cards.first_chosen") in embed_text(hand)
    other = 1 - seat
    await member.select(hand, [f"s-{other}-1"], custom_id=select_id(hand, "c_swap"))
    after = await card_state(table, game)
    assert after.seq > state.seq
    assert first not in after.players[seat].hand  # laid down first, then swapped away


async def test_own_lay_out_asks_where_tokens_go(table: Table) -> None:
    """With cards of two groups and a token the player is asked which group it joins; the
    engine then judges the lay-out (an incomplete one is refused, nothing changes)."""
    for _ in range(30):
        game = await start_card_game(table, [table.alice, table.bob])
        state = await card_state(table, game)
        seat = state.current
        hand = state.players[seat].hand
        deck = state.deck
        groups = list(
            dict.fromkeys(deck.card(c).group for c in hand if deck.card(c).kind == "property")
        )
        tokens = [c for c in hand if deck.card(c).kind == "token"]
        if len(groups) >= 2 and tokens:
            break
        await table.alice.slash(table.channel, "monopoly end")
    else:
        pytest.skip("no deal with two groups and a token")
    member = table.member(state.players[seat].id)
    chosen = [c for c in hand if deck.card(c).group in groups[:2]] + tokens[:1]
    before = state.to_json()
    shown = await open_hand(table, game, member)
    await member.select(shown, chosen, custom_id=select_id(shown, "c_custom"))
    step = fresh(table, shown)
    assert t("de", "cards.assign_title") in embed_text(step)
    await member.select(step, [groups[1]], custom_id=select_id(step, "c_assign"))
    result = await member.click(fresh(table, shown), label=t("de", "cards.button.lay_out_own"))
    after = await card_state(table, game)
    if after.seq == state.seq:  # refused: it names the problem and changes nothing
        assert private_reply(result)
        assert after.to_json() == before
    else:
        laid = (
            {g["group"]: g for g in after.last_round["players"][seat]["layout"]["groups"]}
            if after.last_round
            else {}
        )
        assert not laid or tokens[0] in laid.get(groups[1], {}).get("tokens", [])


async def test_card_game_settings_vacation_and_digest(table: Table) -> None:
    """The host sets a card game's deadline and digest (auction settings are refused there);
    Bob's vacation lets the computer play his moves; the daily digest shows the table."""
    table.bot.core.planner.auto_delay = 0.05  # a moment in real time (simcord's clock)
    game = await start_card_game(table, [table.alice, table.bob])
    refused = await table.alice.slash(table.channel, "monopoly settings", auction_time="1h")
    assert private_reply(refused) == t("de", "error.board_only")
    await table.alice.slash(table.channel, "monopoly settings", deadline="24h", digest="8")
    shown = await table.bob.slash(table.channel, "monopoly settings")
    assert t("de", "timing.deadline", value=t("de", "duration.24h")) in private_reply(shown)
    await table.bob.slash(table.channel, "monopoly vacation")
    for _ in range(40):
        state = await card_state(table, game)
        if state.phase == "over" or state.round > 1:
            break
        if str(table.alice.id) == state.players[waiting_for(state)[0]].id:
            await make_move(table, game, [table.alice])
        else:
            await table.env.advance_time(5)
    lines = (await table.row(game)).settings["card_lines"]
    assert any("bob" in line for line in lines), "the computer never moved for bob"
    await table.env.advance_time(9 * 3600)
    digest = [m for m in table.bot_messages() if m.embeds and "Tagesübersicht" in m.embeds[0].title]
    assert digest and digest[-1].attachments


async def test_the_table_votes_on_an_absent_card_player(table: Table) -> None:
    """Carol misses her deadline (missed limit 1): Alice and Bob vote, without the option to
    remove her (the card game has no removal); the computer then plays her moves."""
    game = await start_card_game(table, [table.alice, table.bob, table.carol])
    await table.alice.slash(
        table.channel, "monopoly settings", deadline="1h", missed_limit=1, jokers=0
    )
    state = await card_state(table, game)
    absent = state.players[waiting_for(state)[0]]
    await table.env.advance_time(3600)
    vote = next(m for m in reversed(table.bot_messages()) if "🗳️" in (m.content or ""))
    labels = [b for row in vote.components for b in [c.label for c in row.children]]
    assert t("de", "vote.option.remove") not in labels
    voters = [m for m in (table.alice, table.bob, table.carol) if str(m.id) != absent.id]
    for member in voters:
        if table.message(vote.id).components:
            await member.click(table.message(vote.id), label=t("de", "vote.option.computer"))
    assert table.message(vote.id).content == t("de", "vote.computer", player=absent.name)
    settings = (await table.row(game)).settings
    seat = next(i for i, p in enumerate(state.players) if p.id == absent.id)
    assert settings["computer"] == {str(seat): "vote"}


async def test_pause_and_remind_in_a_card_game(table: Table) -> None:
    """The host pauses a card game (moves are refused) and resumes it; a player reminds
    the one the game waits on."""
    game = await start_card_game(table, [table.alice, table.bob])
    state = await card_state(table, game)
    mover = table.alice if state.players[state.current].id == str(table.alice.id) else table.bob
    other = table.bob if mover is table.alice else table.alice
    sent = await other.slash(table.channel, "monopoly remind")
    assert private_reply(sent) == t("de", "remind.sent")
    await table.alice.slash(table.channel, "monopoly pause")
    hand = await open_hand(table, game, mover)
    refused = await mover.click(hand, label=t("de", "cards.button.draw"))
    assert private_reply(refused) == t("de", "error.game_paused")
    assert (await card_state(table, game)).seq == state.seq
    await table.alice.slash(table.channel, "monopoly resume")
    await mover.click(fresh(table, hand), label=t("de", "cards.button.draw"))
    assert (await card_state(table, game)).seq > state.seq


async def test_every_token_and_wild_card_gets_its_question_on_pages() -> None:
    """A hand with houses, three tokens and two wild cards across two groups asks six
    questions: four on the first page, two on the second (◀ ▶), each select naming its
    card's place in the whole list so an answer on page two reaches the right card."""
    state = new_game([("1", "a"), ("2", "b")], 3)
    cards = [
        "badstrasse",
        "turmstrasse",
        "parkstrasse",
        "schlossallee",
        "house1-1",
        "token-1",
        "token-2",
        "token-3",
        "wild-1",
        "wild-2",
    ]
    draft = LayoutDraft(game=9, user=1, cards=cards)

    def selects_and_buttons(message: dict[str, Any]) -> tuple[list[str], list[str]]:
        ids = [item.custom_id for item in message["view"].children]
        return [i for i in ids if ":c_assign:" in i], [i for i in ids if ":c_assign:" not in i]

    selects, buttons = selects_and_buttons(assign_message(9, state, draft, "de"))
    assert [s.rsplit("-", 1)[1] for s in selects] == ["0", "1", "2", "3"]
    assert any(f":c_assign_page:{draft.nonce}-n" in b for b in buttons)
    draft.page = 1
    selects, _ = selects_and_buttons(assign_message(9, state, draft, "de"))
    assert [s.rsplit("-", 1)[1] for s in selects] == ["4", "5"]
    draft.page = 7  # a stale page number is brought back within the pages
    assign_message(9, state, draft, "de")
    assert draft.page == 1


def _deal_to(state: CardState, seat: int, wanted: list[str]) -> None:
    """Swap ``wanted`` into ``seat``'s hand from wherever they lie (all 60 cards stay)."""
    hand = state.players[seat].hand
    spare = [c for c in hand if c not in wanted]
    places = [p.hand for p in state.players] + state.piles + state.extra_piles + [state.stock]
    for card in wanted:
        if card in hand:
            continue
        place = next(p for p in places if card in p)
        given = spare.pop()
        place[place.index(card)] = given
        hand[hand.index(given)] = card


async def test_a_player_answers_questions_on_the_second_page(table: Table) -> None:
    """Six questions for one lay-out: Alice turns to the second page with ▶ and says where
    her second wild card goes; the lay-out she then sends carries that choice."""
    state = new_game([(str(table.alice.id), "alice"), (str(table.bob.id), "bob")], 3)
    seat = state.current
    member = table.member(state.players[seat].id)
    cards = ["badstrasse", "turmstrasse", "parkstrasse", "schlossallee", "house1-1"]
    cards += ["token-1", "token-2", "token-3", "wild-1", "wild-2"]
    _deal_to(state, seat, cards)
    settings = {
        "game": "cards",
        "host": table.alice.id,
        "players": [{"id": table.alice.id, "name": "alice"}, {"id": table.bob.id, "name": "bob"}],
        "preset": "classic",
        "lang": "de",
        "theme": None,
        "max_players": 6,
        "deadline": "off",
    }
    bot = table.bot
    row = await bot.store.create_game(
        table.guild.id, table.channel.id, state, created_by=table.alice.id, settings=settings
    )
    await bot.core.publisher.show(row.id)
    await table.env.settle()

    shown = await open_hand(table, row.id, member)
    await member.select(shown, cards, custom_id=select_id(shown, "c_custom"))
    step = fresh(table, shown)
    assert "(1/2)" in step.embeds[0].title
    await member.click(step, label="▶")
    step = fresh(table, shown)
    assert "(2/2)" in step.embeds[0].title
    second = [
        c["custom_id"]
        for r in step.components
        for c in r["components"]
        if ":c_assign:" in str(c.get("custom_id"))
    ]
    assert [s.rsplit("-", 1)[1] for s in second] == ["4", "5"]
    await member.select(step, ["dark_blue"], custom_id=second[1])
    draft = bot.core.drafts.get("cardlay", row.id, member.id)
    assert draft.assign == {"wild-2": "dark_blue"}


async def test_a_card_player_is_told_by_dm_when_their_turn_begins(table: Table) -> None:
    """``/monopoly notify turns:True`` works in the card game too: each time Bob's turn
    begins he gets one DM with a link to the table; Alice did not ask and gets none."""
    await table.bob.slash(table.channel, "monopoly notify", enabled=True, turns=True)
    game = await start_card_game(table, [table.alice, table.bob])
    members = [table.alice, table.bob]
    bob_turns = set()
    for _ in range(12):
        state = await card_state(table, game)
        if state.players[state.current].name == "bob":
            bob_turns.add(state.turn)
        await make_move(table, game, members)
    state = await card_state(table, game)
    if state.players[state.current].name == "bob":
        bob_turns.add(state.turn)  # the last move began one
    row = await table.row(game)
    told = [m.content for m in table.bob.user.dm_channel.history() if m.author.bot]
    link = f"https://discord.com/channels/{table.guild.id}/{table.channel.id}/"
    assert told and all(text.startswith("🎲 Du bist am Zug in") for text in told)
    assert all(link + str(row.settings["table_message"]) in text for text in told)
    assert len(told) == len(bob_turns)
    assert table.alice.user.dm_channel is None or not list(table.alice.user.dm_channel.history())


async def test_every_picture_says_what_it_shows(table: Table) -> None:
    """The table picture's alt text says the round, whose turn, the stock, each player's
    score and hand size and the piles, in the game's language, never a hand's cards; a
    hand's picture lists its cards in the player's own language (Bob reads English)."""
    table.set_locale(table.bob, "en-US")
    game = await start_card_game(table, [table.alice, table.bob])
    state = await card_state(table, game)
    posted = table.message((await table.row(game)).settings["table_message"])
    alt = alt_texts(posted)["table.png"]
    assert alt == describe_table(state, lang="de") and len(alt) <= 1024
    current = state.players[state.current].name
    assert "Runde 1" in alt and f"Am Zug: {current}" in alt and "Abnahmestapel: " in alt
    for player, pile in zip(state.players, state.piles, strict=True):
        assert f"{player.name} (0 €, Hand: {len(player.hand)})" in alt
        assert state.deck.card(pile[-1]).name in alt  # each pile's top card
    hidden = {state.deck.card(c).name for p in state.players for c in p.hand}
    shown = {state.deck.card(c).name for pile in state.piles + state.extra_piles for c in pile}
    streets = {n for n in hidden - shown if "straße" in n or "platz" in n or "allee" in n}
    assert streets and not any(name in alt for name in streets)

    for member, seat in ((table.alice, 0), (table.bob, 1)):
        hand = await open_hand(table, game, member)
        text = alt_texts(hand)["hand.png"]
        lang = "en" if member is table.bob else "de"
        assert text == describe_hand(state, seat, lang=lang) and len(text) <= 1024
        assert text.startswith("Your hand" if lang == "en" else "Deine Hand")


async def test_text_and_picture_use_the_same_words(table: Table) -> None:
    """ "Zusätzlicher Stapel" in the text but "Tauschstapel" in the picture is gone: the
    piles of nobody are the 3rd and 4th Tauschstapel in the swap menu, the event lines and
    the picture alike, as the rulebook counts them."""
    from render.cards import card_labels, extra_pile_name

    game = await start_card_game(table, [table.alice, table.bob])
    state = await card_state(table, game)
    member = table.member(state.players[state.current].id)
    hand = await open_hand(table, game, member)
    labels = [
        option["label"]
        for row in hand.components
        for child in row.get("components", [])
        if ":c_swap" in str(child.get("custom_id", ""))
        for option in child.get("options", [])
    ]
    picture = [extra_pile_name(card_labels("de"), k, 2) for k in (0, 1)]
    assert picture == ["3. Tauschstapel", "4. Tauschstapel"]
    assert t("de", "cards.swap_extra", number=3) in labels
    assert all(any(name in label for label in labels) for name in picture)
    assert t("de", "cards.extra_pile", number=3) == picture[0]
    assert t("en", "cards.extra_pile", number=4) == extra_pile_name(card_labels("en"), 1, 2)
    assert "Zusätzlich" not in embed_text(hand) + " ".join(labels)
    await member.select(hand, ["x-0-0"], custom_id=select_id(hand, "c_swap"))
    lines = (await table.row(game)).settings["card_lines"]
    assert any("mit dem 3. Tauschstapel" in line for line in lines), lines


def test_messages_name_cards_as_the_pictures_do() -> None:
    """A card's name in a message is its picture's, in the reader's language: "2. Haus" /
    "2nd house", "Ereigniskarte" / "Chance"; group names likewise ("Gelb" / "Yellow")."""
    from cogs.ui.cards_table import card_name, layout_text
    from render.cards import card_title

    state = new_game([("1", "a"), ("2", "b")], seed=1)
    for lang, house, wild in (("de", "2. Haus", "Ereigniskarte"), ("en", "2nd house", "Chance")):
        assert (
            card_name(state, "house2-1", lang) == house == card_title(state.deck, "house2-1", lang)
        )
        assert card_name(state, "wild-1", lang) == wild
    layout = {"groups": [{"group": "yellow", "cards": list(state.deck.group("yellow").cards)}]}
    assert layout_text(state, layout, "en").startswith("**Yellow**: Lessingstraße")
    assert layout_text(state, layout, "de").startswith("**Gelb**: Lessingstraße")
