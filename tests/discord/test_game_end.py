"""The end of a game in Discord: the final message reveals the seed and carries the recap,
in both games, also when the host ends a card game; an end that Discord refused is posted
by the sweep, and a recap that cannot be made never holds the end up."""

from __future__ import annotations

from typing import Any

import pytest

from bot.cardgame import CardState
from bot.cardgame.game import new_game as new_card_game
from bot.cardgame.rules import CardRules
from bot.fairness import commit
from bot.i18n import t
from bot.liveness import FINAL_DUE, FINAL_MESSAGE
from tests.discord.helpers import (
    Member,
    Table,
    embed_text,
    play_position,
    private_reply,
    restart,
    rolled,
    scenario,
    start_game,
    still_thinking,
)
from tests.discord.test_card_game import play_a_round

pytest_plugins = ["tests.discord.helpers"]

RECAP_TITLE = "📈 Rückblick auf Spiel #{game}"


async def bankrupt_alice(table: Table) -> int:
    """Alice (100 €) throws onto Bob's Schlossallee with a hotel: her turn message offers
    "Bankrott erklären", which ends a game of two. The game's id."""
    game = await play_position(
        table,
        scenario(
            [(table.alice, {"cash": 100, "position": 35}), table.bob],
            lots={"Badstraße": {"owner": 0}, "Schlossallee": {"owner": 1, "hotel": True}},
            steps=[rolled(0, 1, 3)],
        ),
    )
    row = await table.row(game)
    await table.bot.store.patch_settings(
        game, commit(123_456_789, game), expected_version=row.settings_version
    )
    return game


async def card_game_near_its_end(table: Table, members: list[Member]) -> int:
    """A running card game of ``members`` played to 500 points (so its first round is its
    last), with a committed seed, its table posted as a lobby's start would."""
    seed = 4_242
    state = new_card_game([(str(m.id), m.name) for m in members], seed, CardRules(target=500))
    settings = {
        "host": members[0].id,
        "game": "cards",
        "players": [{"id": m.id, "name": m.name} for m in members],
        "lang": "de",
        "max_players": 6,
    }
    row = await table.bot.store.create_game(
        table.guild.id, table.channel.id, state, created_by=members[0].id, settings=settings
    )
    await table.bot.store.patch_settings(
        row.id, commit(seed, row.id), expected_version=row.settings_version
    )
    await table.bot.core.publisher.show(row.id)
    await table.env.settle()
    return row.id


def attachments(message: Any) -> list[str]:
    return [a.filename for a in message.attachments]


async def test_the_final_message_reveals_the_seed_and_shows_the_recap(table: Table) -> None:
    """Alice goes bankrupt: one final message with the winner and the wealth table over the
    board, the seed with its fingerprint, and the recap's embed over its chart."""
    game = await bankrupt_alice(table)

    await table.alice.click(await table.turn_message(game), label="Bankrott erklären")

    final = table.channel.last_message
    assert [e.title for e in final.embeds] == ["🏆 bob gewinnt!", RECAP_TITLE.format(game=game)]
    assert attachments(final) == ["board.png", f"recap-{game}.png"]
    assert final.embeds[1].image.url == f"attachment://recap-{game}.png"
    assert "Startwert `123456789`" in embed_text(final)
    recap = final.embeds[1].description or ""
    assert "Bankrott: alice" in recap  # a moment of the game
    assert FINAL_DUE not in (await table.row(game)).settings


async def test_a_card_game_s_end_reveals_the_seed_and_shows_the_points_per_round(
    table: Table,
) -> None:
    """A card game to 500 points ends with its first round: the winner message shows the
    seed and the recap of the points per round."""
    members = [table.alice, table.bob]
    game = await card_game_near_its_end(table, members)

    state = await play_a_round(table, game, members)

    assert state.phase == "over", "the round did not end the game"
    end = next(
        m
        for m in reversed(list(table.channel.history()))
        if (m.content or "").startswith("🏆 Gewonnen:")
    )
    assert [e.title for e in end.embeds] == [
        t("de", "fair.reveal.title"),
        f"📈 Punkte je Runde · Spiel #{game}",
    ]
    assert attachments(end) == [f"recap-{game}.png"]
    assert "Startwert `4242`" in embed_text(end)


async def test_a_card_game_ended_by_its_host_shows_the_seed_and_the_recap(table: Table) -> None:
    """The host ends a card game: the channel reads that it was ended, with the seed and
    the recap; the host is told privately that it is done."""
    game = await start_game(table, table.alice, table.bob, game="cards")
    seed = (await table.row(game)).settings["fair_seed"]

    result = await table.alice.slash(table.channel, "monopoly end")

    assert t("de", "manage.done") in private_reply(result)
    end = table.channel.last_message
    assert end.content == t("de", "cards.ended")
    assert f"Startwert `{seed}`" in embed_text(end)
    assert attachments(end) == [f"recap-{game}.png"]
    assert still_thinking(table) == []


@pytest.mark.parametrize("status", [500, 403])
async def test_a_final_message_discord_refused_is_posted_by_the_sweep(
    table: Table, status: int
) -> None:
    """Posting the final message fails: the game is over all the same and remembers that
    its end is due; the sweep a minute later posts it with the seed and the recap."""
    game = await bankrupt_alice(table)
    table.env.inject_error("POST", "/channels/*/messages", status=status, code=0, message="x")

    await table.alice.click(await table.turn_message(game), label="Bankrott erklären")

    row = await table.row(game)
    assert row.state is not None and row.state.phase == "over"
    assert row.settings[FINAL_DUE] == row.state.seq
    await table.env.advance_time(61)  # the reconciler's sweep
    final = table.channel.last_message
    assert [e.title for e in final.embeds] == ["🏆 bob gewinnt!", RECAP_TITLE.format(game=game)]
    assert "Startwert `123456789`" in embed_text(final)
    assert FINAL_DUE not in (await table.row(game)).settings


async def test_a_recap_that_cannot_be_made_does_not_hold_up_the_end(
    table: Table, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The recap fails (a record that no longer replays, say): the final message goes out
    with the winner, the board and the seed, and the failure is logged."""
    game = await bankrupt_alice(table)

    async def broken(*args: Any) -> Any:
        raise RuntimeError("no recap today")

    monkeypatch.setattr("cogs.core.publisher.recap_message", broken)
    await table.alice.click(await table.turn_message(game), label="Bankrott erklären")

    final = table.channel.last_message
    assert [e.title for e in final.embeds] == ["🏆 bob gewinnt!"]
    assert attachments(final) == ["board.png"]
    assert "Startwert `123456789`" in embed_text(final)
    assert table.expect_logged("the recap could not be made")
    assert FINAL_DUE not in (await table.row(game)).settings


async def test_the_card_state_of_an_ended_game_is_kept(table: Table) -> None:
    """Ending a card game changes no card: the stored state is the one before the end."""
    game = await start_game(table, table.alice, table.bob, game="cards")
    before = (await table.row(game)).state
    assert isinstance(before, CardState)

    await table.alice.slash(table.channel, "monopoly end")

    after = (await table.row(game)).state
    assert isinstance(after, CardState)
    assert after.to_dict() == before.to_dict()


async def test_an_end_never_posted_before_a_crash_is_posted_at_the_restart(
    table: Table, database: Any
) -> None:
    """The process dies after Alice's bankruptcy was saved and before anything was posted
    (here: the action is applied as the bot would, but nothing is published). At the
    restart the reconciler finds the finished game that committed to a seed without a
    message revealing it, and posts its end: winner, seed, recap."""
    game = await bankrupt_alice(table)
    await table.bot.store.apply(game, {"type": "declare_bankruptcy", "player": 0})
    row = await table.row(game)
    assert row.state is not None and row.state.phase == "over"
    assert FINAL_DUE not in row.settings and FINAL_MESSAGE not in row.settings
    before = table.channel.last_message.id

    await restart(table, database)
    await table.env.settle()

    final = table.channel.last_message
    assert final.id != before
    assert [e.title for e in final.embeds] == ["🏆 bob gewinnt!", RECAP_TITLE.format(game=game)]
    assert "Startwert `123456789`" in embed_text(final)
    assert (await table.row(game)).settings[FINAL_MESSAGE] == final.id
    await restart(table, database)  # shown once: the next start posts nothing
    await table.env.settle()
    assert table.channel.last_message.id == final.id


async def test_an_end_is_shown_once_when_the_sweep_was_first(table: Table) -> None:
    """The sweep posted the end of a game whose action was saved while its post was still
    on its way: the post that follows does not show it a second time."""
    game = await bankrupt_alice(table)
    result = await table.bot.store.apply(game, {"type": "declare_bankruptcy", "player": 0})
    await table.bot.core.reconciler.sweep(everything=True)
    swept = table.channel.last_message

    await table.bot.core.publisher.publish(game, result)
    await table.env.settle()

    ends = [
        m for m in table.channel.history() if m.embeds and m.embeds[0].title == "🏆 bob gewinnt!"
    ]
    assert [m.id for m in ends] == [swept.id]


async def test_old_games_and_shown_ends_are_left_alone(table: Table) -> None:
    """A finished game without a committed seed (played before fair dice), and a game whose
    end was shown, need nothing from the sweep."""
    game = await bankrupt_alice(table)
    await table.alice.click(await table.turn_message(game), label="Bankrott erklären")
    old = await play_position(table, scenario([table.alice, table.bob]))
    await table.bot.store.finish(old, "abandoned")
    count = len(list(table.channel.history()))

    repaired = await table.bot.core.reconciler.sweep(everything=True)

    assert repaired == {}
    assert len(list(table.channel.history())) == count
