"""The store benchmark and its command line."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from bot.cli import main
from bot.engine.game import apply_action, new_game
from bot.store.bench import bench_store, next_simple_action


async def test_bench_store_reports_figures(tmp_path: Path) -> None:
    figures = await bench_store(tmp_path / "bench.db", games=6, actions=40, seed=3)
    assert figures["games"] == 6 and figures["actions"] == 40
    assert 0 < figures["median_ms"] <= figures["p99_ms"] <= figures["max_ms"]
    assert 0.0 <= figures["cache_hit_rate"] <= 1.0


def test_cli_bench_store(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    db = tmp_path / "cli.db"
    code = main(["bench", "--store", "--games", "4", "--actions", "25", "--db", str(db)])
    assert code == 0
    out = capsys.readouterr().out
    assert re.match(
        r"store: 25 actions on a file database with 4 games: median [\d.]+ ms, p99 [\d.]+ ms",
        out,
    ), out
    assert db.exists()


def test_cli_bench_store_scratch_file(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    monkeypatch.chdir(tmp_path)
    assert main(["bench", "--store", "--games", "2", "--actions", "5"]) == 0
    assert "2 games" in capsys.readouterr().out
    assert list((tmp_path / "data").iterdir()) == []  # the scratch file is gone


def test_cli_bench_without_store_is_the_engine_bench(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["bench", "--games", "2"]) == 0
    assert capsys.readouterr().out.startswith("monopoly-engine: 2 games")


def test_next_simple_action_plays_a_game_to_its_end() -> None:
    state = new_game([("a", "A"), ("b", "B")], seed=1)
    for _ in range(5000):
        action = next_simple_action(state)
        if action is None:
            break
        apply_action(state, action)
    assert state.phase == "over" and next_simple_action(state) is None
