"""Looking back: ``/monopoly history``, a game's recap, the replay viewer, a member's record.

Finished games are played in Discord where that is quick (a game of two ends when one
gives up) and otherwise stored through the store's API: a whole game of the built-in
simple players, imported as its record (so it replays like any played game), or many
copies of one finished state for the paging.
"""

from __future__ import annotations

import copy
from typing import Any

from bot.cardgame import SimpleCardPlayer
from bot.cardgame import apply_action as apply_card_action
from bot.cardgame import new_game as new_card_game
from bot.cardgame import waiting_for as card_waiting_for
from bot.engine.game import apply_action, new_game
from bot.engine.record import GameRecord
from bot.engine.simple_players import next_simple_action
from bot.i18n import t
from bot.replay_cache import ReplayCache
from bot.settings import GameSettings
from bot.stats import player_record, summarize
from bot.store import GameStatus
from cogs.ui.listings import player_record_text
from cogs.ui.viewer import viewer_message
from tests.discord.helpers import (
    Member,
    Table,
    click_as_shown,
    fresh,
    private_reply,
    restart,
    snapshot,
    start_game,
    still_thinking,
)

pytest_plugins = ["tests.discord.helpers"]

REPLAY = "Wiederholung ▶"
BACK, PREV, NEXT, FORWARD = "⏮ −10", "◀ −1", "+1 ▶", "+10 ⏭"


# -- games to look back at ------------------------------------------------------------------


def board_record(members: list[Member], seed: int) -> GameRecord:
    """A whole board game between ``members``, played by the simple players."""
    state = new_game([(str(m.id), m.name) for m in members], seed=seed)
    record = GameRecord.begin(state)
    while state.phase != "over":
        action = next_simple_action(state)
        assert action is not None
        record.add(action, apply_action(state, action))
    return record


def card_record(members: list[Member], seed: int) -> GameRecord:
    """A whole card game between ``members``, played by the simple players."""
    state = new_card_game([(str(m.id), m.name) for m in members], seed)
    record = GameRecord(start=state.to_dict())
    player = SimpleCardPlayer()
    while state.phase != "over":
        action = player.decide(state, card_waiting_for(state)[0])
        apply_card_action(state, action)
        record.actions.append({"action": action, "dice": []})
    return record


async def imported(
    table: Table, record: GameRecord, members: list[Member], *, guild: int | None = None
) -> int:
    """Store ``record`` as a finished game of the server (or of another ``guild``)."""
    settings = {"lang": "de", "players": [{"id": m.id, "name": m.name} for m in members]}
    row = await table.bot.store.import_game(
        guild or table.guild.id, table.channel.id, record.to_dict(), settings=settings
    )
    assert row.status == GameStatus.FINISHED
    return row.id


async def given_up(table: Table, game: int, member: Member) -> None:
    """``member`` gives up (clicks "Aufgeben", then confirms)."""
    turn = await table.turn_message(game)
    confirm = await member.click(turn, label="Aufgeben")
    await member.click(confirm.response, label="Ja, aufgeben")


def answer(result: Any) -> Any:
    """The private answer to a slash command (its deferred response, filled in)."""
    assert result.response is not None and result.response.ephemeral, result
    assert not [f for f in result.followups if f.ephemeral], result
    return result.response


def only(result: Any) -> Any:
    """The one private message a click sent (a follow-up; the click's own "response" is
    the clicked message)."""
    messages = [f for f in result.followups if f.ephemeral]
    assert len(messages) == 1, result
    return messages[0]


def title(message: Any) -> str:
    return message.embeds[0].title or ""


def states(message: Any) -> dict[str, bool]:
    """Each button's label and whether it is off."""
    return {
        child["label"]: bool(child.get("disabled"))
        for row in message.components
        for child in row.get("components", [])
        if child.get("type") == 2
    }


def select_of(message: Any) -> dict[str, Any]:
    return next(
        child
        for row in message.components
        for child in row.get("components", [])
        if child.get("type") == 3
    )


def list_lines(message: Any) -> list[str]:
    return (message.embeds[0].description or "").splitlines()


# -- the list and the recap -----------------------------------------------------------------


async def test_the_history_lists_finished_games_newest_first(table: Table) -> None:
    """Alice and Bob play until Bob gives up; a card game of Carol and Dave was finished
    earlier; a lobby that never started is not a game, but is listed with its revealed
    secret (docs/fair-dice.md) and cannot be chosen. Dave sees both games, the newer
    first, and chooses the board game: its recap with a Replay button, which opens the
    viewer at the first turn."""
    cards = await imported(
        table, card_record([table.carol, table.dave], 4), [table.carol, table.dave]
    )
    game = await start_game(table, table.alice, table.bob)
    await given_up(table, game, table.bob)
    assert (await table.row(game)).status == GameStatus.FINISHED
    await table.alice.slash(table.channel, "monopoly start", language="de")
    lobby = await table.game_id()
    secret = (await table.row(lobby)).settings["fair_secret"]
    await table.alice.slash(table.channel, "monopoly end")  # the lobby is closed

    listed = answer(await table.dave.slash(table.channel, "monopoly history"))

    assert title(listed) == t("de", "history.title", page=1, pages=1, count=3)
    closed, newest, older = list_lines(listed)
    assert closed.startswith(f"`#{lobby}` MONOPOLY · 🚫 vor dem Start geschlossen · ")
    assert f"Geheimnis `{secret}`" in closed and closed.endswith(" · alice")
    assert newest.startswith(f"`#{game}` MONOPOLY · alice, bob · 🏆 alice · ")
    assert " 1 Zug · <t:" in newest  # Bob gave up in the first turn
    assert older.startswith(f"`#{cards}` Kartenspiel · carol, dave · 🏆 ")
    assert " Runden · <t:" in older
    assert states(listed) == {"◀": True, "▶": True}
    assert [o["value"] for o in select_of(listed)["options"]] == [str(game), str(cards)]
    assert not still_thinking(table)

    chosen = await table.dave.select(listed, [str(game)], custom_id=select_of(listed)["custom_id"])
    recap = only(chosen)
    assert recap.embeds and recap.attachments  # the recap and its picture
    assert list(states(recap)) == [REPLAY]

    viewer = only(await table.dave.click(recap, label=REPLAY))
    state = await table.state(game)
    assert title(viewer) == t("de", "viewer.title", game=game, number=1, last=state.turn)
    assert [a.filename for a in viewer.attachments] == ["board.png"]
    one = state.turn == 1  # Bob gave up in the first turn: nothing to step to
    assert states(viewer) == {BACK: True, PREV: True, NEXT: one, FORWARD: one}


async def test_the_history_pages_ten_games_at_a_time(table: Table) -> None:
    """Twelve finished games: two pages, ◀ ▶ between them, the newest game first."""
    finished = copy.deepcopy(board_record([table.alice, table.bob], 3))
    final = finished.replay()
    store = table.bot.store
    games = []
    for _ in range(12):
        row = await store.create_game(table.guild.id, table.channel.id, final, settings={})
        await store.finish(row.id, "over")
        games.append(row.id)

    first = answer(await table.carol.slash(table.channel, "monopoly history"))
    assert title(first) == t("de", "history.title", page=1, pages=2, count=12)
    assert [line.split("`")[1] for line in list_lines(first)] == [
        f"#{g}" for g in reversed(games[2:])
    ]
    assert states(first) == {"◀": True, "▶": False}

    await table.carol.click(first, label="▶")
    second = fresh(table, first)
    assert title(second) == t("de", "history.title", page=2, pages=2, count=12)
    assert [line.split("`")[1] for line in list_lines(second)] == [f"#{games[1]}", f"#{games[0]}"]
    assert states(second) == {"◀": False, "▶": True}

    await table.carol.click(second, label="◀")
    assert title(fresh(table, first)) == t("de", "history.title", page=1, pages=2, count=12)
    beyond = answer(await table.carol.slash(table.channel, "monopoly history", page=99))
    # There are two pages: the last one is shown.
    assert title(beyond) == t("de", "history.title", page=2, pages=2, count=12)


async def test_an_abandoned_game_is_listed_without_a_winner(table: Table) -> None:
    """The host abandons a game of two: it is history too, without a winner, and its
    recap and replay open like any other's."""
    game = await start_game(table, table.alice, table.bob)
    await table.alice.slash(table.channel, "monopoly end", mode="abandon")
    assert (await table.row(game)).status == GameStatus.FINISHED

    listed = answer(await table.bob.slash(table.channel, "monopoly history"))
    (line,) = list_lines(listed)
    assert line.startswith(f"`#{game}` MONOPOLY · alice, bob · abgebrochen · 1 Zug · ")
    chosen = await table.bob.select(listed, [str(game)], custom_id=select_of(listed)["custom_id"])
    recap = only(chosen)
    viewer = only(await table.bob.click(recap, label=REPLAY))
    assert title(viewer) == t("de", "viewer.title", game=game, number=1, last=1)


# -- the viewer -----------------------------------------------------------------------------


async def test_the_viewer_steps_through_a_game_and_survives_a_restart(
    table: Table, database: Any
) -> None:
    """Bob opens a finished game of four at turn 1 and steps: +1, +10, −10, −1; the
    message changes in place and shows the turn's events; at the ends the buttons are
    off. After a restart the same message's buttons still work."""
    members = table.members
    record = board_record(members, 5)
    game = await imported(table, record, members)
    last = record.replay().turn
    expected = ReplayCache()

    def description(number: int) -> str:
        frame = expected.frame("g", number, record)
        return viewer_message(game, frame, GameSettings({"lang": "de"}), "de")["embed"].description

    opened = answer(await table.bob.slash(table.channel, "monopoly history", game=game, turn=1))
    assert title(opened) == t("de", "viewer.title", game=game, number=1, last=last)
    assert opened.embeds[0].description == description(1)
    assert states(opened) == {BACK: True, PREV: True, NEXT: False, FORWARD: False}

    for label, number in ((NEXT, 2), (FORWARD, 12), (BACK, 2), (PREV, 1), (FORWARD, 11)):
        await table.bob.click(fresh(table, opened), label=label)
        shown = fresh(table, opened)
        assert title(shown) == t("de", "viewer.title", game=game, number=number, last=last)
        assert shown.embeds[0].description == description(number)
        assert [a.filename for a in shown.attachments] == ["board.png"]

    await restart(table, database)
    await table.bob.click(fresh(table, opened), label=NEXT)
    assert title(fresh(table, opened)) == t("de", "viewer.title", game=game, number=12, last=last)

    end = answer(await table.bob.slash(table.channel, "monopoly history", game=game, turn=last))
    assert states(end) == {BACK: False, PREV: False, NEXT: True, FORWARD: True}
    assert not still_thinking(table)


async def test_the_card_games_viewer_shows_each_rounds_result(table: Table) -> None:
    members = [table.alice, table.carol]
    record = card_record(members, 7)
    game = await imported(table, record, members)
    opened = answer(await table.alice.slash(table.channel, "monopoly history", game=game, turn=1))
    assert title(opened).startswith(f"🎬 Spiel #{game} · Runde 1 von ")
    fields = [f.name for f in opened.embeds[0].fields]
    assert t("de", "viewer.scores") in fields
    assert any(name.startswith(("alice", "carol")) for name in fields)  # the lay-outs
    assert opened.attachments == []


async def test_a_running_game_is_shown_to_its_players_up_to_now(table: Table) -> None:
    """Alice and Bob play; Alice looks back at the turn in progress. Carol, who does not
    play, is refused; a turn after the present is refused too. Nothing changes."""
    game = await start_game(table, table.alice, table.bob)
    turn = await table.turn_message(game)
    current = await table.current_member(game)
    await current.click(turn, label=t("de", "button.roll"))
    before = await table.state_json(game)
    state = await table.state(game)

    shown = answer(await table.alice.slash(table.channel, "monopoly history", game=game))
    assert title(shown) == t("de", "viewer.title", game=game, number=state.turn, last=state.turn)
    assert shown.embeds[0].footer.text == t("de", "viewer.footer_now")
    assert states(shown)[NEXT] and states(shown)[FORWARD]

    refused = await table.carol.slash(table.channel, "monopoly history", game=game)
    assert private_reply(refused) == t("de", "error.replay_players_only")
    later = await table.alice.slash(table.channel, "monopoly history", game=game, turn=5)
    assert private_reply(later) == t("de", "error.turn_out_of_range", first=1, last=state.turn)
    listed = answer(await table.carol.slash(table.channel, "monopoly history"))
    assert listed.content == t("de", "history.none")  # a running game is not history
    assert await table.state_json(game) == before


async def test_bad_game_numbers_and_turns_are_refused(table: Table, monkeypatch: Any) -> None:
    """An unknown game, another server's game, a hand-made turn out of range and a record
    that no longer replays: a short private answer each, the viewer as it was."""
    members = [table.alice, table.bob]
    record = board_record(members, 2)
    game = await imported(table, record, members)
    elsewhere = await imported(table, record, members, guild=table.guild.id + 1)
    last = record.replay().turn

    for number in (elsewhere, 999_999):
        result = await table.alice.slash(table.channel, "monopoly history", game=number)
        assert private_reply(result) == t("de", "error.history_unknown_game", game=number)

    out = await table.alice.slash(table.channel, "monopoly history", game=game, turn=last + 1)
    assert private_reply(out) == t("de", "error.turn_out_of_range", first=1, last=last)

    viewer = answer(await table.alice.slash(table.channel, "monopoly history", game=game, turn=3))
    shown = snapshot(table, viewer.message)
    for row in shown.stored.components:
        for child in row.get("components", []):
            if child.get("label") == NEXT:
                child["custom_id"] = f"xb:{game}:rv_next:{last + 50}"
            if child.get("label") == PREV:
                child["custom_id"] = f"xb:{elsewhere}:rv_prev:2"
    result = await click_as_shown(table, table.alice, shown, NEXT)
    assert private_reply(result) == t("de", "error.turn_out_of_range", first=1, last=last)
    result = await click_as_shown(table, table.alice, shown, PREV)
    assert private_reply(result) == t("de", "error.history_unknown_game", game=elsewhere)
    assert title(fresh(table, viewer)) == title(viewer)  # unchanged

    broken = copy.deepcopy(record)
    throw = next(i for i, e in enumerate(broken.actions) if e["dice"])
    broken.actions[throw]["dice"] = [[6, 6]]
    store = table.bot.store
    real = store.record

    async def damaged(game_id: int) -> GameRecord:
        return broken if game_id == game else await real(game_id)

    monkeypatch.setattr(store, "record", damaged)
    table.bot.get_cog("History").replays = ReplayCache()  # as after a restart
    result = await table.alice.click(fresh(table, viewer), label=NEXT)
    assert private_reply(result) == t("de", "error.invalid_record")
    assert title(fresh(table, viewer)) == title(viewer)


# -- a member's record ----------------------------------------------------------------------


async def test_a_members_record_on_the_server(table: Table) -> None:
    """``/monopoly stats player:@alice`` adds up Alice's finished games, posted for all."""
    records = [
        (board_record([table.alice, table.bob], 1), [table.alice, table.bob]),
        (
            board_record([table.bob, table.alice, table.carol], 2),
            [table.bob, table.alice, table.carol],
        ),
        (card_record([table.alice, table.dave], 3), [table.alice, table.dave]),
        (board_record([table.bob, table.carol], 4), [table.bob, table.carol]),
    ]
    summaries = []
    for record, members in records:
        game = await imported(table, record, members)
        summary = summarize(record, game)
        assert summary is not None
        summaries.append(summary)

    shown = await table.dave.slash(table.channel, "monopoly stats", player=table.alice)

    assert not shown.response.ephemeral  # posted for everyone
    text = shown.response.content
    expected = player_record(summaries, table.alice.id)
    assert expected.games == 3
    assert text == player_record_text(expected, "de", None, table.alice.name)
    assert text.startswith("📊 **alice** auf diesem Server")
    only_cards = await table.dave.slash(
        table.channel, "monopoly stats", player=table.alice, game="cards"
    )
    text = only_cards.response.content
    assert "1 Spiel, " in text
    nobody = await table.alice.slash(
        table.channel, "monopoly stats", player=table.dave, game="board"
    )
    assert t("de", "stats.player.none", name="dave") in nobody.response.content
