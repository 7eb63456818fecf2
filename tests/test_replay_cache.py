"""The replay viewer's frames (``bot/replay_cache.py``), without Discord.

Every frame is checked against a replay from the very start: the same state, the same
events, for every turn of a long board game and every round of a card game. The cache's
promise is checked by counting: a frame applies at most the actions of ``SNAPSHOT_EVERY``
turns, the record is replayed in full once per game, and a running game's longer record
continues its timeline instead of starting again.
"""

from __future__ import annotations

import copy
from dataclasses import dataclass, field
from typing import Any

import pytest

from bot.cardgame import SimpleCardPlayer
from bot.cardgame import apply_action as apply_card_action
from bot.cardgame import new_game as new_card_game
from bot.cardgame import waiting_for as card_waiting_for
from bot.engine.errors import IllegalAction
from bot.engine.game import apply_action, new_game
from bot.engine.record import GameRecord
from bot.engine.simple_players import next_simple_action
from bot.engine.state import GameState
from bot.replay_cache import SNAPSHOT_EVERY, ReplayCache, Timeline, number_of
from bot.store.errors import InvalidRecord
from bot.store.kinds import AnyState, state_from_dict


def board_record(seed: int = 5, players: int = 4) -> GameRecord:
    """A whole board game of the built-in simple players."""
    state = new_game([(str(n), f"p{n}") for n in range(1, players + 1)], seed=seed)
    record = GameRecord.begin(state)
    while state.phase != "over":
        action = next_simple_action(state)
        assert action is not None
        record.add(action, apply_action(state, action))
    return record


def card_record(seed: int = 4, players: int = 3) -> GameRecord:
    """A whole card game of the built-in simple players."""
    state = new_card_game([(str(n), f"p{n}") for n in range(1, players + 1)], seed)
    record = GameRecord(start=state.to_dict())
    player = SimpleCardPlayer()
    while state.phase != "over":
        action = player.decide(state, card_waiting_for(state)[0])
        apply_card_action(state, action)
        record.actions.append({"action": action, "dice": []})
    return record


@dataclass
class Expected:
    """What a replay from the start says about each turn: its events and shown state."""

    events: dict[int, list[dict[str, Any]]] = field(default_factory=dict)
    shown: dict[int, str] = field(default_factory=dict)
    actions: dict[int, int] = field(default_factory=dict)


def replay_by_hand(record: GameRecord) -> Expected:
    """Every turn's events and the state the viewer should show, the slow way."""
    state: AnyState = state_from_dict(record.start)
    expected = Expected()
    expected.shown[number_of(state)] = state.to_json()
    expected.events.setdefault(number_of(state), [])
    expected.actions.setdefault(number_of(state), 0)
    for entry in record.actions:
        number = number_of(state)
        before = state.to_json()
        if isinstance(state, GameState):
            events = apply_action(state, entry["action"])
            passing = (
                bool(events) and all(e["type"] == "turn" for e in events) and state.phase != "over"
            )
        else:
            events = apply_card_action(state, entry["action"])
            passing = False
        expected.events.setdefault(number, []).extend(events)
        expected.actions[number] = expected.actions.get(number, 0) + 1
        expected.shown[number] = before if passing else state.to_json()
        if number_of(state) not in expected.shown:
            expected.shown[number_of(state)] = state.to_json()
            expected.events[number_of(state)] = []
            expected.actions[number_of(state)] = 0
    return expected


@pytest.fixture(scope="module")
def long_game() -> GameRecord:
    return board_record()


def test_every_turn_shows_what_a_replay_from_the_start_shows(long_game: GameRecord) -> None:
    expected = replay_by_hand(long_game)
    cache = ReplayCache()
    first, last = cache.turns("g", long_game)
    assert (first, last) == (1, max(expected.shown))
    assert last > 100  # a long game, so snapshots matter
    for number in sorted(expected.shown):
        frame = cache.frame("g", number)
        assert frame.number == number and (frame.first, frame.last) == (first, last)
        assert frame.state.to_json() == expected.shown[number], number
        assert frame.events == expected.events[number], number
        assert frame.unit == "turn"
    assert cache.builds == 1


def test_a_turn_shows_its_own_number_and_throw(long_game: GameRecord) -> None:
    """A turn that ended with "end turn" is shown before the turn passed on: the board
    says "turn T", and the turn's last throw is still on it."""
    cache = ReplayCache()
    frame = cache.frame("g", 10, long_game)
    assert frame.state.turn == 10 and frame.state.phase == "end"
    assert frame.state.last_dice == next(
        e["dice"] for e in reversed(frame.events) if e["type"] == "rolled"
    )


def test_a_step_replays_at_most_ten_turns(long_game: GameRecord) -> None:
    expected = replay_by_hand(long_game)
    numbers = sorted(expected.shown)
    # The most actions any SNAPSHOT_EVERY turns in a row took (the worst a frame may do).
    worst = max(
        sum(expected.actions[n] for n in numbers[i : i + SNAPSHOT_EVERY])
        for i in range(len(numbers))
    )
    cache = ReplayCache()
    cache.timeline("g", long_game)
    total = len(long_game.actions)
    for number in numbers:
        frame = cache.frame("g", number)
        assert frame.replayed <= worst, number
    late = cache.frame("g", numbers[-2])
    assert late.replayed < total / 10


def test_evicted_snapshots_are_made_again_on_the_way(long_game: GameRecord) -> None:
    expected = replay_by_hand(long_game)
    cache = ReplayCache(snapshots=2)
    cache.timeline("g", long_game)
    for number in (200, 3, 150, 200):
        assert cache.frame("g", number).state.to_json() == expected.shown[number]
    assert len(cache) <= 2


def test_a_running_games_record_grows_and_the_timeline_follows(long_game: GameRecord) -> None:
    expected = replay_by_hand(long_game)
    cache = ReplayCache()
    head = GameRecord(start=long_game.start, actions=long_game.actions[:300])
    present = state_from_dict(head.start)
    for entry in head.actions:
        apply_action(present, entry["action"])  # type: ignore[arg-type]
    first, last = cache.turns("g", head)
    assert last == present.turn  # the turn in progress is the last one shown
    assert cache.frame("g", last).state.to_json() == present.to_json()
    assert cache.current("g", present.seq)
    # The game went on: the same cache continues from where it was.
    whole = cache.frame("g", max(expected.shown), long_game)
    assert whole.state.phase == "over"
    assert cache.builds == 1
    for number in (1, last - 1, last, last + 1):
        assert cache.frame("g", number).state.to_json() == expected.shown[number]


def test_a_different_record_under_the_same_key_starts_again(long_game: GameRecord) -> None:
    cache = ReplayCache()
    cache.frame("g", 5, long_game)
    other = board_record(seed=6, players=2)
    expected = replay_by_hand(other)
    assert cache.frame("g", 5, other).state.to_json() == expected.shown[5]
    assert cache.builds == 2
    shorter = GameRecord(start=other.start, actions=other.actions[:10])
    cache.frame("g", 1, shorter)
    assert cache.builds == 3


def test_turns_out_of_range_are_refused(long_game: GameRecord) -> None:
    cache = ReplayCache()
    first, last = cache.turns("g", long_game)
    for number in (0, -3, last + 1, 10**9):
        with pytest.raises(IllegalAction) as refused:
            cache.frame("g", number)
        assert refused.value.code == "turn_out_of_range"
        assert refused.value.params == {"first": first, "last": last}


def test_a_skipped_turn_number_shows_the_turn_before() -> None:
    timeline = Timeline(start="", actions=[], numbers=[1, 2, 4, 5], starts=[0, 3, 5, 9])
    assert timeline.index_of(3) == 1
    assert timeline.index_of(4) == 2
    assert timeline.span(1) == (3, 5)


def test_a_record_that_does_not_replay_is_invalid(long_game: GameRecord) -> None:
    broken = copy.deepcopy(long_game)
    throw = [i for i, e in enumerate(broken.actions) if e["dice"]][20]  # mid-game
    broken.actions[throw]["dice"] = [[7, 7]]
    with pytest.raises(InvalidRecord):
        ReplayCache().frame("g", 1, broken)
    refused = copy.deepcopy(long_game)
    refused.actions[0]["action"] = {"type": "buy", "player": 0}
    with pytest.raises(InvalidRecord):
        ReplayCache().frame("g", 1, refused)
    # A running game whose record goes wrong later: the cache forgets it, and the good
    # record is replayed anew afterwards.
    cache = ReplayCache()
    head = GameRecord(start=long_game.start, actions=long_game.actions[:throw])
    cache.frame("g", 1, head)
    with pytest.raises(InvalidRecord):
        cache.frame("g", 1, broken)
    assert not cache.current("g", state_from_dict(head.start).seq + throw)
    expected = replay_by_hand(long_game)
    assert cache.frame("g", 3, long_game).state.to_json() == expected.shown[3]


def test_a_frame_is_the_callers_own_copy(long_game: GameRecord) -> None:
    cache = ReplayCache()
    frame = cache.frame("g", 20, long_game)
    frame.state.players[0].cash = -1
    frame.events.clear()
    again = cache.frame("g", 20)
    assert again.state.players[0].cash != -1 and again.events


def test_the_card_game_is_shown_round_by_round() -> None:
    record = card_record()
    expected = replay_by_hand(record)
    cache = ReplayCache()
    first, last = cache.turns("c", record)
    assert first == 1 and last >= 2
    for number in range(first, last + 1):
        frame = cache.frame("c", number)
        assert frame.unit == "round"
        assert frame.state.to_json() == expected.shown[number]
        scored = [e for e in frame.events if e["type"] == "round_scored"]
        assert [e["round"] for e in scored] == [number]
    assert cache.frame("c", last).state.phase == "over"


def test_the_viewer_bench_browses_within_the_game() -> None:
    """``monopoly-bot bench --viewer``: every step is a turn of the game, and the bench
    reports a step for each."""
    from bot.replay_bench import bench_viewer, browse_path

    path = browse_path(1, 57, seed=3)
    assert all(1 <= n <= 57 for n in path)
    assert {2, 3} <= set(path) and any(b - a == 10 for a, b in zip(path, path[1:], strict=False))
    result = bench_viewer(players=2, seed=1, turns=25)
    assert result.turns >= 25 and result.steps == len(browse_path(1, result.turns, 1))
    assert "monopoly-viewer:" in result.line()
