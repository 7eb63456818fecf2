"""Seeded games between simple players end, for every player count, reproducibly."""

from __future__ import annotations

import json

import pytest

from bot.cardgame.rules import CardRules
from bot.cardgame.simulate import main, simulate


@pytest.mark.parametrize("players", [2, 3, 4, 5, 6])
def test_simulated_games_end(players: int) -> None:
    result = simulate(10, players, seed=11)
    assert result.games == 10 and result.unfinished == 0
    assert sum(result.winners.values()) >= 10
    assert result.rounds >= 10
    assert set(result.round_endings) <= {"ended", "stock_empty", "stalled"}


def test_simulation_with_the_other_settings_ends() -> None:
    rules = CardRules(
        empty_stock="score",
        lay_out_size="ten",
        final_tie="shared",
        mr_monopoly_tie="split",
        others_limited=True,
    )
    for players in (2, 4, 5):
        assert simulate(3, players, seed=5, settings=rules).unfinished == 0


def test_simulation_is_reproducible() -> None:
    first = simulate(3, 4, seed=2).to_dict()
    second = simulate(3, 4, seed=2).to_dict()
    first.pop("seconds")
    second.pop("seconds")
    assert first == second
    assert first["players"] == 4 and first["points_per_round_and_player"] > 0


def test_command_line(capsys: pytest.CaptureFixture[str]) -> None:
    assert (
        main(["--games", "2", "--players", "3", "--seed", "1", "--settings", '{"target": 4000}'])
        == 0
    )
    printed = json.loads(capsys.readouterr().out)
    assert printed["games"] == 2 and printed["unfinished"] == 0
