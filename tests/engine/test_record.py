"""Game records replay identically, and a saved game continues with the same future."""

from __future__ import annotations

import json
from typing import Any

import pytest

from bot.engine.errors import IllegalAction
from bot.engine.game import apply_action, new_game
from bot.engine.legal import waiting_for
from bot.engine.record import RECORD_FORMAT, GameRecord, ReplayMismatch, dice_of
from bot.engine.rules import Rules
from bot.engine.simple_players import SimplePlayer
from bot.engine.state import GameState

MAX_ACTIONS = 20_000


def next_action(state: GameState, bots: list[SimplePlayer]) -> dict[str, Any]:
    """What the simple players do next (the order of simulate.play_game)."""
    recipients = {t["to"] for t in state.trades}
    if state.lot_offer is not None:
        recipients.add(state.lot_offer["creditor"])
    for seat in sorted(recipients):
        reply = bots[seat].respond_to_offers(state, seat)
        if reply is not None:
            return reply
    seat = waiting_for(state)[0]
    return bots[seat].decide(state, seat)


def play(
    state: GameState,
    bots: list[SimplePlayer],
    record: GameRecord | None = None,
    limit: int = MAX_ACTIONS,
) -> list[list[int]]:
    """Play up to ``limit`` actions (or to the end); return the dice thrown, in order."""
    dice: list[list[int]] = []
    for _ in range(limit):
        if state.phase == "over":
            break
        action = next_action(state, bots)
        events = apply_action(state, action)
        dice.extend(dice_of(events))
        if record is not None:
            record.add(action, events)
    return dice


def recorded_game(
    seed: int, players: int = 4, rules: Rules | None = None
) -> tuple[GameState, GameRecord, list[list[int]]]:
    """A complete game between simple players, its record and every throw."""
    state = new_game([(f"p{i}", f"Player {i + 1}") for i in range(players)], seed=seed, rules=rules)
    record = GameRecord.begin(state)
    bots = [SimplePlayer("leave" if i % 2 else "stay") for i in range(players)]
    dice = play(state, bots, record)
    return state, record, dice


@pytest.fixture(scope="module")
def full_game() -> tuple[GameState, GameRecord, list[list[int]]]:
    return recorded_game(seed=7)


def test_full_game_replays_identically(full_game: tuple[GameState, GameRecord, Any]) -> None:
    state, record, dice = full_game
    assert state.phase == "over"
    assert len(record.actions) > 100 and len(dice) > 50
    assert record.replay().to_json() == state.to_json()
    # Replaying twice from the same record gives the same game again.
    assert record.replay().to_json() == state.to_json()


@pytest.mark.parametrize(
    ("seed", "players", "preset"),
    [(1, 2, "classic"), (2, 3, "modern"), (3, 5, "short"), (4, 6, "fast"), (5, 3, "mark")],
)
def test_games_of_every_kind_replay_identically(seed: int, players: int, preset: str) -> None:
    state, record, _ = recorded_game(seed, players, Rules.from_preset(preset))
    assert record.replay().to_json() == state.to_json()


def test_record_start_is_detached_from_the_game() -> None:
    """The start of a record does not follow the live game (e.g. jail-free cards drawn)."""
    state = new_game([("a", "A"), ("b", "B")], seed=1)
    record = GameRecord.begin(state)
    start = json.dumps(record.start, sort_keys=True)
    bots = [SimplePlayer(), SimplePlayer()]
    for _ in range(MAX_ACTIONS):
        if any(p.jail_cards for p in state.players) or state.phase == "over":
            break
        action = next_action(state, bots)
        record.add(action, apply_action(state, action))
    assert any(p.jail_cards for p in state.players), "seed 1 draws a jail-free card"
    assert json.dumps(record.start, sort_keys=True) == start
    assert record.replay().to_json() == state.to_json()


def test_record_survives_json_text(full_game: tuple[GameState, GameRecord, Any]) -> None:
    state, record, _ = full_game
    text = json.dumps(record.to_dict(), ensure_ascii=False)
    raw = json.loads(text)
    assert raw["format"] == RECORD_FORMAT
    again = GameRecord.from_dict(raw)
    assert again.to_dict() == record.to_dict()
    assert json.dumps(again.to_dict(), ensure_ascii=False) == text
    assert again.replay().to_json() == state.to_json()


def test_record_of_another_format_is_refused() -> None:
    with pytest.raises(ValueError):
        GameRecord.from_dict({"format": "monopoly-record/0", "start": {}, "actions": []})
    with pytest.raises(ValueError):
        GameRecord.from_dict({"start": {}, "actions": []})


def tampered(record: GameRecord, number: int) -> GameRecord:
    raw = json.loads(json.dumps(record.to_dict()))
    first, second = raw["actions"][number]["dice"][0]
    raw["actions"][number]["dice"][0] = [first % 6 + 1, second]
    return GameRecord.from_dict(raw)


def test_tampered_dice_raise_replay_mismatch(full_game: tuple[GameState, GameRecord, Any]) -> None:
    _, record, _ = full_game
    throws = [n for n, entry in enumerate(record.actions) if entry["dice"]]
    for number in (throws[0], throws[len(throws) // 2], throws[-1]):
        with pytest.raises(ReplayMismatch, match=f"action {number}"):
            tampered(record, number).replay()


def test_missing_and_extra_dice_raise_replay_mismatch(
    full_game: tuple[GameState, GameRecord, Any],
) -> None:
    _, record, _ = full_game
    raw = record.to_dict()
    number = next(n for n, entry in enumerate(record.actions) if entry["dice"])
    no_dice = json.loads(json.dumps(raw))
    no_dice["actions"][number]["dice"] = []
    with pytest.raises(ReplayMismatch):
        GameRecord.from_dict(no_dice).replay()
    quiet = next(n for n, entry in enumerate(record.actions) if not entry["dice"])
    extra = json.loads(json.dumps(raw))
    extra["actions"][quiet]["dice"] = [[1, 2]]
    with pytest.raises(ReplayMismatch):
        GameRecord.from_dict(extra).replay()


def test_a_different_seed_does_not_replay(full_game: tuple[GameState, GameRecord, Any]) -> None:
    """The dice generator is part of the start state: a record of another seed is caught."""
    _, record, _ = full_game
    other = new_game([(f"p{i}", f"Player {i + 1}") for i in range(4)], seed=8)
    raw = record.to_dict()
    raw = {**raw, "start": other.to_dict()}
    with pytest.raises((ReplayMismatch, IllegalAction)):
        GameRecord.from_dict(json.loads(json.dumps(raw))).replay()


# -- saved and continued with the same future ---------------------------------------------


@pytest.mark.parametrize("stop", [0, 1, 37, 150, 401])
def test_saved_game_continues_with_the_same_future(stop: int) -> None:
    """to_json mid-game, from_json, play on: the same dice and the same final state."""
    players = 4
    seats = [(f"p{i}", f"Player {i + 1}") for i in range(players)]
    bots = [SimplePlayer("leave" if i % 2 else "stay") for i in range(players)]

    original = new_game(seats, seed=2024)
    play(original, bots, limit=stop)
    saved = original.to_json()
    future = play(original, bots)
    assert original.phase == "over"

    restored = GameState.from_json(saved)
    assert restored.to_json() == saved
    assert play(restored, bots) == future
    assert restored.to_json() == original.to_json()


def test_saved_game_continues_through_the_text_of_a_record() -> None:
    """A record started mid-game (from a saved state) replays its continuation."""
    players = 3
    seats = [(f"p{i}", f"Player {i + 1}") for i in range(players)]
    bots = [SimplePlayer() for _ in range(players)]
    state = new_game(seats, seed=99)
    play(state, bots, limit=200)
    restored = GameState.from_json(state.to_json())
    record = GameRecord.begin(restored)
    play(restored, bots, record)
    play(state, bots)
    assert restored.to_json() == state.to_json()
    text = json.dumps(record.to_dict())
    assert GameRecord.from_dict(json.loads(text)).replay().to_json() == state.to_json()


def test_copy_is_independent_and_has_the_same_future() -> None:
    seats = [("a", "A"), ("b", "B"), ("c", "C")]
    bots = [SimplePlayer() for _ in seats]
    state = new_game(seats, seed=5)
    play(state, bots, limit=120)
    twin = state.copy()
    assert twin.to_json() == state.to_json()
    future = play(state, bots, limit=300)
    assert twin.to_json() != state.to_json()
    assert play(twin, bots, limit=300) == future
    assert twin.to_json() == state.to_json()


def test_a_game_saved_before_newer_fields_existed_still_loads() -> None:
    """Fields added to the state later take a new game's value; dropped ones are ignored."""
    state = new_game([("a", "A"), ("b", "B"), ("c", "C")], seed=11)
    bots = [SimplePlayer() for _ in range(3)]
    play(state, bots, limit=60)
    old = state.to_dict()
    for key in ("mortgage_choices", "pot", "time_up", "standings"):
        old.pop(key)
    old["interest_paid"] = []  # a field of the first saved games
    restored = GameState.from_dict(old)
    assert restored.to_json() == state.to_json()
    assert play(restored, bots) == play(state, bots)
    assert restored.to_json() == state.to_json()
