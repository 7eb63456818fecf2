"""Tournaments between computer players (issue 9, "Proof").

The issue asks for "a tournament command (``monopoly-bot tournament`` or similar) that
plays thousands of seeded games between strategies and prints win rates with
confidence intervals and mean game length". Here: the Wilson interval against known
values, the totals of :func:`~bot.engine.computer.tournament.tournament` (one result per
level, seats and wins add up, seats rotate, seeded and deterministic), its JSON shape,
and the command line.
"""

from __future__ import annotations

import json
import math
from typing import Any

import pytest

from bot.cli import main
from bot.engine.computer import tournament as tournament_module
from bot.engine.computer.tournament import (
    DEFAULT_TURN_CAP,
    LevelResult,
    TournamentResult,
    play_one,
    tournament,
    wilson_interval,
)
from bot.engine.rules import Rules
from bot.engine.simulate import DEFAULT_DEADLINE_TURN

LINEUP = ["strong", "simple", "simple", "simple"]


# -- the Wilson score interval -----------------------------------------------------------


@pytest.mark.parametrize(
    ("wins", "games", "low", "high"),
    [
        (50, 100, 0.4038, 0.5962),
        (0, 10, 0.0, 0.2775),
        (10, 10, 0.7225, 1.0),
        (1, 4, 0.0456, 0.6994),
        (250, 1000, 0.2242, 0.2778),
        (0, 1, 0.0, 0.7935),
    ],
)
def test_wilson_interval_known_values(wins: int, games: int, low: float, high: float) -> None:
    """Issue: "Win rates with confidence intervals": the 95 % Wilson score interval (values as
    computed by hand from (p + z²/2n ± z·sqrt(p(1-p)/n + z²/4n²)) / (1 + z²/n))."""
    found = wilson_interval(wins, games)
    assert found == pytest.approx((low, high), abs=5e-5)


def test_wilson_interval_edges() -> None:
    assert wilson_interval(0, 0) == (0.0, 1.0)  # no games: nothing known
    low, high = wilson_interval(0, 37)
    assert low == 0.0 and 0 < high < 0.1
    low, high = wilson_interval(37, 37)
    assert high == pytest.approx(1.0) and 0.9 < low < 1
    # 0 of n: the upper bound is z² / (n + z²).
    z2 = 1.959964**2
    assert wilson_interval(0, 20)[1] == pytest.approx(z2 / (20 + z2))


def test_wilson_interval_narrows_with_more_games_and_contains_the_rate() -> None:
    widths = []
    for games in (10, 100, 1000, 10_000):
        wins = games * 3 // 10
        low, high = wilson_interval(wins, games)
        assert 0 <= low <= wins / games <= high <= 1
        widths.append(high - low)
    assert widths == sorted(widths, reverse=True)
    assert widths[-1] < 0.02
    # A wider confidence (larger z) gives a wider interval.
    narrow, wide = wilson_interval(30, 100, z=1.0), wilson_interval(30, 100, z=3.0)
    assert wide[0] < narrow[0] and narrow[1] < wide[1]


# -- tournaments -------------------------------------------------------------------------


@pytest.fixture(scope="module")
def eight_games() -> TournamentResult:
    return tournament(LINEUP, games=8, seed=5)


def without_times(data: dict[str, Any]) -> dict[str, Any]:
    """The result's dict without the decision times (which depend on the machine)."""
    levels = {
        name: {k: v for k, v in row.items() if k != "decision_ms"}
        for name, row in data["levels"].items()
    }
    return {**data, "levels": levels}


def test_one_result_per_level_and_the_totals_add_up(eight_games: TournamentResult) -> None:
    result = eight_games
    assert result.games == 8
    assert set(result.levels) == {"strong", "simple"}
    # seats_played = games × seats of the level in the lineup.
    assert result.levels["strong"].seats_played == 8 * 1
    assert result.levels["simple"].seats_played == 8 * 3
    # Every game has exactly one winner (the host ends capped games by wealth).
    assert sum(level.wins for level in result.levels.values()) == 8
    assert 0 <= result.capped <= 8
    assert 0 < result.turns <= 8 * (DEFAULT_TURN_CAP + 1)
    for level in result.levels.values():
        assert level.decisions and all(t >= 0 for t in level.decisions)


def test_the_json_shape(eight_games: TournamentResult) -> None:
    """What ``monopoly-bot tournament --json`` prints: games, mean length, the games
    ended at the turn cap, and per level the win rate with its 95 % interval and the
    decision times in milliseconds."""
    data = eight_games.to_dict()
    assert set(data) == {"games", "mean_turns", "ended_at_turn_cap", "levels"}
    assert data["games"] == 8
    assert data["mean_turns"] == round(eight_games.turns / 8, 1)
    assert data["ended_at_turn_cap"] == eight_games.capped
    assert list(data["levels"]) == sorted(data["levels"])
    for name, row in data["levels"].items():
        assert set(row) == {"seats_played", "wins", "win_rate", "ci95", "decision_ms"}
        level = eight_games.levels[name]
        assert row["seats_played"] == level.seats_played
        assert row["wins"] == level.wins
        assert row["win_rate"] == round(level.wins / level.seats_played, 4)
        low, high = row["ci95"]
        assert 0 <= low <= row["win_rate"] <= high <= 1
        assert [low, high] == [round(x, 4) for x in wilson_interval(level.wins, level.seats_played)]
        times = row["decision_ms"]
        assert set(times) == {"p50", "p99", "max"}
        assert 0 <= times["p50"] <= times["p99"] <= times["max"]
        assert times["max"] == round(max(level.decisions) * 1000, 3)
    assert json.loads(json.dumps(data)) == data  # plain JSON


def test_an_empty_result() -> None:
    assert TournamentResult().to_dict() == {
        "games": 0,
        "mean_turns": 0.0,
        "ended_at_turn_cap": 0,
        "levels": {},
    }
    row = LevelResult().to_dict()
    assert row["win_rate"] == 0.0 and row["ci95"] == [0.0, 1.0]
    assert row["decision_ms"] == {"p50": 0, "p99": 0, "max": 0}


def test_the_same_seed_gives_the_same_result(eight_games: TournamentResult) -> None:
    """Seeded: a tournament can be repeated exactly (apart from the decision times)."""
    again = tournament(LINEUP, games=8, seed=5)
    assert without_times(again.to_dict()) == without_times(eight_games.to_dict())
    assert again.turns == eight_games.turns
    assert [len(level.decisions) for level in again.levels.values()] == [
        len(level.decisions) for level in eight_games.levels.values()
    ]


def test_other_seeds_give_other_games(eight_games: TournamentResult) -> None:
    turns = {tournament(LINEUP, games=8, seed=seed).turns for seed in (6, 7)}
    assert turns | {eight_games.turns} != {eight_games.turns}


def test_seats_rotate_and_games_are_seeded(monkeypatch: pytest.MonkeyPatch) -> None:
    """Game ``g`` rotates the lineup by ``g`` seats, so every level plays from every seat
    equally often, and is seeded with ``seed`` and ``g``."""
    played: list[tuple[list[str], int]] = []

    def fake_play_one(
        lineup: list[str], seed: int, rules: Rules, result: TournamentResult, **kwargs: Any
    ) -> None:
        played.append((list(lineup), seed))
        result.games += 1

    monkeypatch.setattr(tournament_module, "play_one", fake_play_one)
    lineup = ["strong", "easy", "simple"]
    tournament(lineup, games=6, seed=3)
    assert [row[0] for row in played] == [
        ["strong", "easy", "simple"],
        ["easy", "simple", "strong"],
        ["simple", "strong", "easy"],
    ] * 2
    seeds = [row[1] for row in played]
    assert len(set(seeds)) == 6
    assert seeds == [3 * 1_000_003 + g for g in range(6)]
    # Each level sits in each seat equally often.
    for level in lineup:
        assert sorted(row[0].index(level) for row in played) == [0, 0, 1, 1, 2, 2]


def test_play_one_counts_one_game() -> None:
    result = TournamentResult()
    play_one(["strong", "easy"], seed=1, rules=Rules.from_preset("classic"), result=result)
    assert result.games == 1
    assert {name: r.seats_played for name, r in result.levels.items()} == {"strong": 1, "easy": 1}
    assert sum(r.wins for r in result.levels.values()) == 1
    # A lineup of one level: one of its seats wins.
    same = TournamentResult()
    play_one(["easy", "easy", "easy"], seed=2, rules=Rules.from_preset("classic"), result=same)
    assert same.levels["easy"].seats_played == 3 and same.levels["easy"].wins == 1


def test_the_turn_cap_ends_games_by_wealth() -> None:
    result = tournament(["strong", "strong", "strong"], games=3, seed=1, turn_cap=20)
    assert result.capped == 3
    assert result.turns == 3 * 21  # ended by the host when turn 21 begins
    assert result.levels["strong"].wins == 3


def test_time_limited_presets_end_at_the_deadline() -> None:
    """Presets that end at an agreed time end there, as in ``monopoly-bot simulate``."""
    rules = Rules.from_preset("time_limit")
    result = tournament(LINEUP, games=2, seed=4, rules=rules)
    assert result.capped == 0
    assert result.turns <= 2 * (DEFAULT_DEADLINE_TURN + 1)
    assert sum(level.wins for level in result.levels.values()) == 2


@pytest.mark.parametrize("preset", ["fast", "short", "mark"])
def test_other_presets(preset: str) -> None:
    result = tournament(
        ["strong", "easy", "simple"], games=3, seed=2, rules=Rules.from_preset(preset)
    )
    assert result.games == 3
    assert sum(level.wins for level in result.levels.values()) == 3
    assert all(level.seats_played == 3 for level in result.levels.values())


# -- the command line --------------------------------------------------------------------


def run_cli(capsys: pytest.CaptureFixture[str], *args: str) -> tuple[int, str, str]:
    code = main(["tournament", *args])
    out, err = capsys.readouterr()
    return code, out, err


def test_cli_prints_one_json_object(capsys: pytest.CaptureFixture[str]) -> None:
    code, out, err = run_cli(capsys, "--games", "4", "--json")
    assert code == 0, err
    lines = out.strip().splitlines()
    assert len(lines) == 1
    data = json.loads(lines[0])
    assert data["games"] == 4
    assert set(data["levels"]) == {"strong", "simple"}  # the default lineup
    assert data["levels"]["strong"]["seats_played"] == 4
    assert data["levels"]["simple"]["seats_played"] == 12
    assert sum(row["wins"] for row in data["levels"].values()) == 4
    expected = tournament(LINEUP, games=4, seed=0).to_dict()
    assert without_times(data) == without_times(expected)


def test_cli_lineup_seed_and_preset(capsys: pytest.CaptureFixture[str]) -> None:
    args = ("--games", "3", "--seed", "9", "--lineup", "easy, strong", "--preset", "fast")
    code, out, err = run_cli(capsys, *args, "--json")
    assert code == 0, err
    data = json.loads(out)
    expected = tournament(["easy", "strong"], 3, 9, rules=Rules.from_preset("fast")).to_dict()
    assert without_times(data) == without_times(expected)


def test_cli_prints_win_rates_with_intervals(capsys: pytest.CaptureFixture[str]) -> None:
    code, out, err = run_cli(capsys, "--games", "2", "--lineup", "strong,easy")
    assert code == 0, err
    lines = out.strip().splitlines()
    assert lines[0].startswith("2 games of strong, easy: mean ")
    assert "turns" in lines[0] and "ended at the turn cap" in lines[0]
    rows = {line.split()[0]: line for line in lines[1:]}
    assert set(rows) == {"easy", "strong"}
    for line in rows.values():
        assert "win rate" in line and "95 % CI" in line and "decision ms" in line


@pytest.mark.parametrize(
    "lineup", ["strong,grandmaster", "strong", "", "strong,,", ",".join(["easy"] * 11)]
)
def test_cli_refuses_a_bad_lineup(capsys: pytest.CaptureFixture[str], lineup: str) -> None:
    code, out, err = run_cli(capsys, "--games", "1", "--lineup", lineup)
    assert code == 2
    assert out == ""
    assert "--lineup" in err


@pytest.mark.parametrize(
    ("preset", "lineup"),
    [("mark", "strong,simple"), ("modern", ",".join(["simple"] * 7))],
)
def test_cli_refuses_a_lineup_the_preset_does_not_allow(
    capsys: pytest.CaptureFixture[str], preset: str, lineup: str
) -> None:
    code, out, err = run_cli(capsys, "--games", "1", "--preset", preset, "--lineup", lineup)
    assert code == 2
    assert "players" in err or "--lineup" in err


def test_cli_usage_errors_exit_with_2(capsys: pytest.CaptureFixture[str]) -> None:
    with pytest.raises(SystemExit) as info:
        main(["tournament", "--games", "many"])
    assert info.value.code == 2
    capsys.readouterr()


def test_cli_has_no_players_option_beside_the_lineup(
    capsys: pytest.CaptureFixture[str],
) -> None:
    """The lineup is the seats; ``--players`` used to be accepted and silently ignored."""
    with pytest.raises(SystemExit) as info:
        main(["tournament", "--games", "1", "--players", "3"])
    assert info.value.code == 2
    assert "--players" in capsys.readouterr().err


def test_wilson_rate_matches_math() -> None:
    """The centre of the interval is pulled towards 1/2 (the Wilson correction)."""
    low, high = wilson_interval(9, 10)
    assert (low + high) / 2 < 0.9
    low, high = wilson_interval(1, 10)
    assert (low + high) / 2 > 0.1
    assert math.isclose(sum(wilson_interval(5, 10)) / 2, 0.5)
