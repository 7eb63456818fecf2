"""The server leaderboard and one member's record (``bot/stats.py``): finished games
added up."""

from __future__ import annotations

import pytest

from bot.cardgame.game import apply_action as apply_card_action
from bot.cardgame.game import new_game as new_card_game
from bot.cardgame.legal import waiting_for as card_waiting_for
from bot.cardgame.simple_player import SimpleCardPlayer
from bot.cardgame.simulate import DEFAULT_ACTION_CAP, CardSimulationResult
from bot.cardgame.simulate import play_game as play_card_game
from bot.engine.game import apply_action, new_game
from bot.engine.record import GameRecord
from bot.engine.rng import SplitMix64
from bot.engine.simple_players import SimplePlayer
from bot.engine.simulate import SimulationResult, play_game
from bot.engine.state import GameState
from bot.stats import (
    GameResult,
    GameSummary,
    Standing,
    leaderboard,
    player_record,
    result_of,
    summarize,
)
from tests.engine.conftest import BADSTRASSE, DARK_BLUE, TURMSTRASSE, game, owned


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


# -- one member's record (summaries replayed from records) ---------------------------------


def recorded(state: GameState, *actions: dict) -> GameRecord:
    """A record starting at ``state`` with ``actions`` applied (the state is played on)."""
    record = GameRecord.begin(state)
    for action in actions:
        record.add(action, apply_action(state, action))
    return record


def first_throw(wanted: tuple[int, int]) -> int:
    """A scenario seed whose first throw is ``wanted``."""
    for seed in range(1, 10_000):
        rng = SplitMix64(seed)
        if (rng.die(), rng.die()) == wanted:
            return seed
    raise AssertionError("no seed")


def test_places_follow_the_order_in_which_players_left() -> None:
    state = new_game([("11", "ann"), ("12", "ben"), ("13", "cem")], seed=1)
    record = recorded(state, {"type": "resign", "player": 0}, {"type": "resign", "player": 1})
    summary = summarize(record, 7)
    assert summary is not None and summary.game == 7 and summary.kind == "board"
    assert summary.winners == {2}
    assert summary.places == (3, 2, 1)  # ann left first: last place
    assert summary.scores[:2] == (0, 0) and summary.scores[2] > 0
    assert summary.margin == summary.scores[2]
    assert summary.length == state.turn and summary.currency == "EUR"


def test_places_of_a_game_decided_by_wealth_follow_the_standings() -> None:
    state = game([{"cash": 100}, {"cash": 900}, {"cash": 500}])
    record = recorded(state, {"type": "end_game", "mode": "wealth"})
    summary = summarize(record)
    assert summary is not None and summary.places == (3, 1, 2)
    assert summary.scores == (100, 900, 500) and summary.margin == 400


def test_an_abandoned_game_has_no_summary() -> None:
    state = new_game([("11", "ann"), ("12", "ben")], seed=1)
    assert summarize(recorded(state, {"type": "end_game", "mode": "abandon"})) is None


def test_a_group_counts_when_bought_complete_not_when_taken_over() -> None:
    # ann owns Badstraße and throws 1+2 onto Turmstraße: bought, brown is hers.
    bought = game([{}, {}], lots=owned(0, BADSTRASSE), seed=first_throw((1, 2)))
    record = recorded(
        bought,
        {"type": "roll", "player": 0},
        {"type": "buy", "player": 0},
        {"type": "resign", "player": 1},
    )
    summary = summarize(record)
    assert summary is not None and summary.groups[0] == {"brown"}
    # ben owns Turmstraße; ann, penniless, lands there and gives up: ben takes over her
    # Badstraße, which completes brown without his doing.
    inherited = game(
        [{"cash": 0}, {}],
        lots={**owned(0, BADSTRASSE), **owned(1, TURMSTRASSE)},
        seed=first_throw((1, 2)),
    )
    record = recorded(inherited, {"type": "roll", "player": 0}, {"type": "resign", "player": 0})
    summary = summarize(record)
    assert summary is not None and summary.winners == {1}
    assert inherited.owner[BADSTRASSE] == 1  # brown is complete, but not counted
    assert summary.groups == (frozenset(), frozenset())
    # A group complete in the start state counts (a game set up from a position).
    start = game([{}, {}], lots=owned(1, *DARK_BLUE))
    summary = summarize(recorded(start, {"type": "resign", "player": 0}))
    assert summary is not None and summary.groups[1] == {"dark_blue"}


def test_a_card_game_ranks_by_points_and_counts_laid_out_groups() -> None:
    state = new_card_game([("11", "ann"), ("12", "ben"), ("13", "cem")], 4)
    record = GameRecord(start=state.to_dict())
    player = SimpleCardPlayer()
    laid: list[set[str]] = [set(), set(), set()]
    while state.phase != "over":
        action = player.decide(state, card_waiting_for(state)[0])
        for event in apply_card_action(state, action):
            if event["type"] == "round_scored":
                for entry in event["players"]:
                    groups = entry["layout"].get("groups", []) if not entry.get("voided") else []
                    laid[entry["player"]] |= {
                        g["group"] for g in groups if state.deck.group(g["group"]).kind == "street"
                    }
        record.actions.append({"action": action, "dice": []})
    summary = summarize(record, 3)
    assert summary is not None and summary.kind == "cards"
    points = [p.score for p in state.players]
    assert summary.scores == tuple(points)
    assert summary.winners == set(state.winners)
    for seat, place in enumerate(summary.places):
        assert place == 1 + sum(other > points[seat] for other in points)
    assert summary.groups == tuple(frozenset(g) for g in laid)
    assert summary.length == state.round


def summary_of(
    game_id: int,
    kind: str,
    players: list[str],
    winners: set[int],
    places: list[int],
    scores: list[int],
    groups: list[set[str]] | None = None,
) -> GameSummary:
    return GameSummary(
        game=game_id,
        kind=kind,
        players=tuple((p, f"name{p}") for p in players),
        winners=frozenset(winners),
        places=tuple(places),
        scores=tuple(scores),
        groups=tuple(frozenset(g) for g in (groups or [set() for _ in players])),
        length=40 + game_id,
        currency="EUR" if kind == "board" else "",
    )


def test_a_members_record_adds_up_their_games() -> None:
    summaries = [
        summary_of(1, "board", ["1", "2"], {0}, [1, 2], [3000, 0], [{"red", "green"}, set()]),
        summary_of(
            2, "board", ["2", "1", "3"], {0}, [1, 3, 2], [5000, 0, 1000], [set(), {"red"}, set()]
        ),
        summary_of(3, "board", ["1", "3"], {0}, [1, 2], [9000, 8500], [{"green"}, set()]),
        summary_of(4, "cards", ["3", "1"], {0, 1}, [1, 1], [10000, 10000]),
        summary_of(5, "cards", ["1", "2"], {0}, [1, 2], [12000, 4000], [{"pink"}, set()]),
    ]
    record = player_record(summaries, 1)
    assert (record.games, record.wins) == (5, 4)
    assert record.name == "name1"
    assert record.average_place == pytest.approx((1 + 3 + 1 + 1 + 1) / 5)
    # red and green twice each: green was completed in the more recent game.
    assert (record.favourite_group, record.favourite_count) == ("green", 2)
    board, cards = record.biggest_wins
    assert (board.game, board.margin, board.score) == (1, 3000, 3000)  # not game 3: by 500
    assert (cards.game, cards.margin, cards.score, cards.players) == (5, 8000, 12000, 2)
    only_board = player_record(summaries, 1, kind="board")
    assert (only_board.games, only_board.wins) == (3, 2)
    assert [w.kind for w in only_board.biggest_wins] == ["board"]
    assert only_board.favourite_group == "green"
    nobody = player_record(summaries, 99)
    assert (nobody.games, nobody.average_place, nobody.biggest_wins) == (0, None, ())
    assert nobody.favourite_group is None and nobody.win_rate == 0.0
    tie = player_record(summaries, 3, kind="cards")
    assert tie.biggest_wins[0].margin == 0  # a shared win leads by nothing
