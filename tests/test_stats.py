"""The server leaderboard (``bot/stats.py``): results of finished games added up."""

from __future__ import annotations

from bot.cardgame.game import new_game as new_card_game
from bot.cardgame.simple_player import SimpleCardPlayer
from bot.cardgame.simulate import DEFAULT_ACTION_CAP, CardSimulationResult
from bot.cardgame.simulate import play_game as play_card_game
from bot.engine.game import new_game
from bot.engine.simple_players import SimplePlayer
from bot.engine.simulate import SimulationResult, play_game
from bot.stats import GameResult, Standing, leaderboard, result_of


def board_result(players: list[tuple[str, str]], winner: int | None) -> dict:
    return {"players": [{"id": i, "name": n} for i, n in players], "winner": winner}


def test_a_finished_board_game_names_its_winner() -> None:
    state = new_game([("11", "alice"), ("12", "bob")], seed=3)
    play_game(state, [SimplePlayer(), SimplePlayer()], SimulationResult(), 2000)
    assert state.phase == "over" and state.winner is not None
    result = result_of(state.to_dict())
    assert result is not None and result.kind == "board"
    assert result.winners == {state.players[state.winner].id}
    assert result.players == (("11", "alice"), ("12", "bob"))


def test_a_finished_card_game_may_have_several_winners() -> None:
    state = new_card_game([("11", "alice"), ("12", "bob")], 4)
    play_card_game(
        state, [SimpleCardPlayer(), SimpleCardPlayer()], CardSimulationResult(), DEFAULT_ACTION_CAP
    )
    assert state.phase == "over"
    result = result_of(state.to_dict())
    assert result is not None and result.kind == "cards"
    assert result.winners == {state.players[s].id for s in state.winners}
    tied = result_of(
        {"players": [{"id": "1", "name": "a"}, {"id": "2", "name": "b"}], "winners": [0, 1]}
    )
    assert tied is not None and tied.winners == {"1", "2"}


def test_an_abandoned_game_has_no_result() -> None:
    assert result_of(board_result([("1", "a"), ("2", "b")], None)) is None
    assert result_of({"players": [{"id": "1", "name": "a"}], "winners": []}) is None


def test_the_ranking_counts_people_not_computers() -> None:
    results = [
        GameResult(
            "board", (("1", "ann"), ("2", "ben"), ("cpu-1", "Computer 1")), frozenset({"1"})
        ),
        GameResult("board", (("1", "ann"), ("2", "ben")), frozenset({"2"})),
        GameResult("cards", (("1", "Ann B."), ("3", "cem")), frozenset({"1", "3"})),
        GameResult("board", (("2", "ben"), ("cpu-1", "Computer 1")), frozenset({"cpu-1"})),
    ]
    ranking = leaderboard(results)
    assert ranking == [
        Standing(1, "Ann B.", 3, 2),  # the name of the latest game
        Standing(3, "cem", 1, 1),
        Standing(2, "ben", 3, 1),
    ]
    assert [s.user_id for s in leaderboard(results, kind="board")] == [1, 2]
    assert [s.user_id for s in leaderboard(results, kind="cards")] == [1, 3]
    assert round(ranking[0].win_rate, 3) == 0.667
