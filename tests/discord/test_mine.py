"""``/monopoly me games``: a member's games on every server, those waiting on them first.

Games on two servers (the table's "Spieleabend" and a second one the members share with
the bot), a lobby, games of others and a finished game; paging with ◀ ▶ that work after a
restart; the **📋 Meine Spiele** button of the turn and reminder DMs, clicked in the DM.
"""

from __future__ import annotations

from typing import Any

from simcord.builders import ChannelHandle, GuildHandle

from bot.engine.scenario import run
from bot.i18n import t
from cogs.ui.mine import page_arg
from tests.discord.helpers import (
    Member,
    Table,
    fresh,
    play_position,
    private_reply,
    restart,
    scenario,
    seed_for,
)

pytest_plugins = ["tests.discord.helpers"]

ROLL = t("de", "button.roll")
END_TURN = t("de", "button.end_turn")
#: Every throw 1+3: from LOS onto the income tax, a position with nothing to decide.
TAX_THROWS = seed_for((1, 3), (1, 3), (1, 3), (1, 3))
MINE = t("de", "mine.button")


async def game_in(
    table: Table,
    guild: GuildHandle,
    channel: ChannelHandle,
    raw: dict[str, Any],
    **settings: Any,
) -> int:
    """Like ``helpers.play_position``, in any server's channel (``settings``: more game
    settings, e.g. a deadline); the game's id."""
    state = run(raw)
    host = int(raw["players"][0]["id"])
    stored = {
        "host": host,
        "players": [{"id": int(p["id"]), "name": p["name"]} for p in raw["players"]],
        "preset": "classic",
        "lang": "de",
        "theme": None,
        "max_players": 6,
        **settings,
    }
    row = await table.bot.store.create_game(
        guild.id, channel.id, state, created_by=host, settings=stored
    )
    await table.bot.core.publisher.show(row.id)
    await table.env.settle()
    return row.id


def answer(result: Any) -> Any:
    """The private answer to a slash command (its deferred response, filled in)."""
    assert result.response is not None and result.response.ephemeral, result
    return result.response


def only(result: Any) -> Any:
    """The one private message a click sent as a follow-up."""
    messages = [f for f in result.followups if f.ephemeral]
    assert len(messages) == 1, result
    return messages[0]


def lines(message: Any) -> list[str]:
    return (message.embeds[0].description or "").splitlines()


def states(message: Any) -> dict[str, bool]:
    """Each button's label and whether it is off."""
    return {
        child["label"]: bool(child.get("disabled"))
        for row in message.components
        for child in row.get("components", [])
        if child.get("type") == 2
    }


def dm_messages(member: Member) -> list[Any]:
    """The bot's direct messages to ``member``, oldest first."""
    return [m for m in member.user.dm_channel.history() if m.author.bot]


async def test_mine_lists_the_games_of_two_servers_the_waiting_one_first(table: Table) -> None:
    """Alice plays on two servers: on the table's server it is Bob's move, on the second
    server hers (with a deadline), and she sits in a lobby of Carol's. ``/monopoly me
    games`` shows the game waiting on her first, with the time left, then the other
    running game, then the lobby; each line names its server and channel and links to the
    live message. Games of others and finished games are not listed; in English too."""
    env = table.env
    other = env.create_guild("Brettspielrunde")
    board_room = other.create_text_channel("brett")
    other.add_member(table.alice.user)
    other.add_member(table.bob.user)
    theirs = await play_position(table, scenario([table.alice, table.bob], current=1))
    mine_there = await game_in(
        table, other, board_room, scenario([table.alice, table.bob]), deadline="24h"
    )
    lobby_room = table.guild.create_text_channel("lobby")
    await table.carol.slash(lobby_room, "monopoly start", language="de")
    lobby = lobby_room.last_message
    await table.alice.click(lobby, label=t("de", "button.join"))
    lobby_game = (await table.bot.store.game_in_channel(lobby_room.id)).id  # type: ignore[union-attr]
    others_room = table.guild.create_text_channel("ohne-alice")
    await game_in(table, table.guild, others_room, scenario([table.carol, table.dave]))
    over_room = table.guild.create_text_channel("vorbei")
    over = await game_in(table, table.guild, over_room, scenario([table.alice, table.dave]))
    await table.bot.store.finish(over, "abandoned")

    shown = answer(await table.alice.slash(table.channel, "monopoly me games"))
    first, second, third = lines(shown)
    deadline = (await table.row(mine_there)).settings["deadline_at"]
    assert first.startswith(t("de", "mine.your_move"))
    assert f"<t:{deadline}:R>" in first
    assert "**Brettspielrunde**" in first and f"<#{board_room.id}>" in first
    turn = (await table.row(mine_there)).settings["turn_message"]
    assert f"/{other.id}/{board_room.id}/{turn}" in first  # the live turn message
    assert f"#{mine_there}" in first
    assert second.startswith(t("de", "mine.running")) and f"#{theirs}" in second
    assert "**Spieleabend**" in second and f"<#{table.channel.id}>" in second
    assert third.startswith(t("de", "mine.lobby", count=2)) and f"#{lobby_game}" in third
    assert f"/{lobby_room.id}/{lobby.id}" in third  # the lobby message
    assert shown.embeds[0].footer.text == t("de", "mine.footer", count=3, waiting=1)
    assert states(shown) == {"◀": True, "▶": True}

    table.set_locale(table.alice, "en-US")
    english = answer(await table.alice.slash(table.channel, "monopoly me games"))
    assert lines(english)[0].startswith(t("en", "mine.your_move"))

    erin = table.guild.add_member(table.env.create_user("erin"))
    table.set_locale(erin, "de")
    nothing = await erin.slash(table.channel, "monopoly me games")
    assert private_reply(nothing) == t("de", "mine.none")


async def test_mine_pages_ten_games_and_its_buttons_work_after_a_restart(
    table: Table, database: Any
) -> None:
    """Twelve running games of Bob's: ten on the first page, two on the second; ◀ ▶ turn
    the pages (also after a restart), ``page:`` beyond the end shows the last page, and a
    page button's id is read strictly."""
    games, rooms = [], []
    for number in range(12):
        rooms.append(table.guild.create_text_channel(f"tisch-{number}"))
        raw = scenario([table.alice, table.bob])
        games.append(await game_in(table, table.guild, rooms[-1], raw))

    first = answer(await table.bob.slash(table.channel, "monopoly me games"))
    assert first.embeds[0].title == t("de", "mine.title", page=1, pages=2)
    assert [f"#{g}" in line for g, line in zip(games, lines(first), strict=False)] == [True] * 10
    assert states(first) == {"◀": True, "▶": False}

    await table.bob.click(first, label="▶")
    second = fresh(table, first)
    assert second.embeds[0].title == t("de", "mine.title", page=2, pages=2)
    assert len(lines(second)) == 2 and f"#{games[-1]}" in lines(second)[-1]

    await restart(table, database)
    await table.bob.click(second, label="◀")
    assert fresh(table, first).embeds[0].title == t("de", "mine.title", page=1, pages=2)

    beyond = answer(await table.bob.slash(table.channel, "monopoly me games", page=99))
    assert beyond.embeds[0].title == t("de", "mine.title", page=2, pages=2)

    # A damaged page id is refused by its handler (unknown_button), changing nothing.
    assert [page_arg(arg) for arg in ("2-n", "1", "x-n", "2-q", "", None)] == [
        2,
        1,
        None,
        None,
        None,
        None,
    ]


async def test_the_turn_and_reminder_dms_open_the_list_in_the_dm(table: Table) -> None:
    """Alice asked for a DM when her turn begins. Bob ends his turn: her DM carries
    **📋 Meine Spiele**; clicked in the DM (no server there) it answers with her list,
    privately. Bob's ``/monopoly remind`` sends her a reminder DM with the same button."""
    raw = scenario([table.alice, table.bob], seed=TAX_THROWS, current=1)
    game = await play_position(table, raw)
    await table.alice.slash(table.channel, "monopoly notify", enabled=True, turns=True)
    await table.bob.click(await table.turn_message(game), label=ROLL)
    await table.bob.click(await table.turn_message(game), label=END_TURN)

    (turn_dm,) = dm_messages(table.alice)
    assert t("de", "notify.turn.dm", channel="", link="")[:12] in turn_dm.content
    opened = await table.alice.user.click(turn_dm, label=MINE)
    listed = only(opened)
    (line,) = lines(listed)
    assert line.startswith(t("de", "mine.your_move")) and f"#{game}" in line
    assert opened.deferred  # answered in time, in a channel without a server

    await table.bob.slash(table.channel, "monopoly remind")
    reminder = dm_messages(table.alice)[-1]
    assert "bob" in reminder.content
    again = only(await table.alice.user.click(reminder, label=MINE))
    assert lines(again) == [line]
