"""``/monopoly stats``: the server's leaderboard of finished games."""

from __future__ import annotations

from bot.engine.game import new_game
from bot.engine.simple_players import SimplePlayer
from bot.engine.simulate import SimulationResult, play_game
from tests.discord.helpers import Member, Table

pytest_plugins = ["tests.discord.helpers"]


async def finished_game(table: Table, members: list[Member], seed: int) -> str:
    """A board game between ``members`` played to its end and stored as finished; the
    winner's name."""
    state = new_game([(str(m.id), m.name) for m in members], seed=seed)
    play_game(state, [SimplePlayer() for _ in members], SimulationResult(), 3000)
    assert state.phase == "over" and state.winner is not None
    store = table.bot.store
    row = await store.create_game(table.guild.id, table.channel.id, state, settings={})
    await store.finish(row.id, "over")
    return state.players[state.winner].name


async def test_the_leaderboard_counts_wins_and_games(table: Table) -> None:
    empty = await table.alice.slash(table.channel, "monopoly stats")
    assert "Noch keine beendeten Spiele" in empty.response.content

    winners = [
        await finished_game(table, [table.alice, table.bob], 1),
        await finished_game(table, [table.alice, table.bob, table.carol], 2),
        await finished_game(table, [table.bob, table.carol], 3),
    ]
    shown = await table.dave.slash(table.channel, "monopoly stats")
    assert not shown.ephemeral  # posted for everyone
    text = shown.response.content
    assert text.startswith("🏆 **Bestenliste dieses Servers**")
    lines = text.splitlines()[1:]
    assert len(lines) == 3  # alice, bob, carol; dave never played
    for name in ("alice", "bob", "carol"):
        games = {"alice": 2, "bob": 3, "carol": 2}[name]
        wins = winners.count(name)
        rate = round(wins / games * 100)
        assert any(f"**{name}** – {wins} von {games} gewonnen ({rate} %)" in line for line in lines)
    first = lines[0].split("**")[1]
    assert winners.count(first) == max(winners.count(n) for n in ("alice", "bob", "carol"))
    only_cards = await table.dave.slash(table.channel, "monopoly stats", game="cards")
    assert "Noch keine beendeten Spiele" in only_cards.response.content
