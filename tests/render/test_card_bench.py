"""The card game's benchmark: ``monopoly-bot bench --cards``."""

from __future__ import annotations

import pytest

from bot.cli import main
from render.card_bench import bench_cards, second_round_state
from render.cards import render_table


@pytest.mark.parametrize("players", [2, 6])
def test_the_sample_table_is_in_its_second_round(players: int) -> None:
    state = second_round_state(players, seed=3)
    assert state.last_round is not None and state.round == 2
    assert state.phase != "over"


def test_bench_reports_engine_and_images() -> None:
    result = bench_cards(players=4, games=2, seed=1, repeats=1)
    assert result.games == 2 and result.actions > 0 and result.engine_seconds > 0
    assert result.replay_actions_per_s > result.actions / result.engine_seconds
    assert min(result.table_cold_ms, result.table_warm_ms, result.hand_warm_ms) > 0
    assert result.result_warm_ms > 0 and 0 < result.table_bytes < 500 * 1024
    engine, images = result.lines()
    assert engine.startswith("cards-engine: 2 games of 4") and "actions/s" in engine
    assert images.startswith("cards-render:") and "hand" in images


def test_cli_bench_cards(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["bench", "--cards", "--games", "1", "--players", "3"]) == 0
    out = capsys.readouterr().out.splitlines()
    assert [line.split(":")[0] for line in out] == ["cards-engine", "cards-render"]


def test_cli_bench_cards_refuses_seven_players(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["bench", "--cards", "--players", "7"]) == 2
    assert "2 to 6" in capsys.readouterr().err


def test_clearing_the_card_cache_empties_it_every_time() -> None:
    """The benchmark's cold start clears the drawn cards before every cold render."""
    from render import cards

    for _ in range(2):
        render_table(second_round_state(2, seed=1))
        assert cards._draw_face.cache_info().currsize > 0
        cards.clear_card_cache()
        assert cards._draw_face.cache_info().currsize == 0
        assert cards.card_back.cache_info().currsize == 0
