"""A seat changes hands (``hand_over``): only who sits there changes, and it replays."""

from __future__ import annotations

import copy
from typing import Any

import pytest

from bot.engine import apply_action
from bot.engine.game import new_game
from bot.engine.legal import legal_actions
from bot.engine.record import GameRecord
from bot.engine.rules import Rules
from bot.engine.simple_players import next_simple_action
from bot.engine.state import GameState
from bot.fairness import verify
from tests.engine.conftest import (
    BADSTRASSE,
    SCHLOSSALLEE,
    TURMSTRASSE,
    act,
    game,
    owned,
    refuse_raw,
)

SEED = 2_718_281_828_459_045
GAME = 7


def hand_over(target: Any, new_id: Any = "999", name: Any = "Zoe") -> dict[str, Any]:
    """The system action that gives seat ``target`` to ``new_id``."""
    return {"type": "hand_over", "target": target, "id": new_id, "name": name}


def without_seat_names(state: GameState) -> dict[str, Any]:
    """The state's dict without the players' ids and names (and seq and events)."""
    raw = state.to_dict()
    for player in raw["players"]:
        player.pop("id"), player.pop("name")
    raw.pop("seq")
    return raw


def test_only_the_id_and_name_of_the_seat_change() -> None:
    """Bob's seat, with cash, lots, houses and a jail-free card, goes to Zoe: everything
    but who sits there stays, and no money is made or lost."""
    state = game(
        [{"cash": 1200}, {"cash": 730, "jail_cards": ["chance"], "position": 12}],
        lots={**owned(1, BADSTRASSE, TURMSTRASSE, houses=2), **owned(0, SCHLOSSALLEE)},
    )
    before = without_seat_names(state)
    old = state.players[1].id, state.players[1].name
    seq = state.seq
    events = apply_action(state, hand_over(1))
    assert (state.players[1].id, state.players[1].name) == ("999", "Zoe")
    assert without_seat_names(state) == before
    assert state.seq == seq + 1
    assert events == [
        {
            "type": "handed_over",
            "player": 1,
            "from_id": old[0],
            "from_name": old[1],
            "to_id": "999",
            "to_name": "Zoe",
        }
    ]


def test_the_new_player_plays_the_seat_on() -> None:
    """The turn stays with the seat: the seat's legal actions are the same as before."""
    state = game(2)
    seat = state.current
    before = legal_actions(state, seat)
    apply_action(state, hand_over(seat))
    assert legal_actions(state, seat) == before
    act(state, "roll", seat, dice=[1, 2])
    assert state.players[seat].position == 3


@pytest.mark.parametrize(
    ("action", "code"),
    [
        (hand_over(5), "unknown_player"),
        (hand_over(-1), "unknown_player"),
        (hand_over("1"), "unknown_player"),
        (hand_over(True), "unknown_player"),
        (hand_over(1, new_id=999), "bad_player_id"),
        (hand_over(1, new_id=""), "bad_player_id"),
        (hand_over(1, new_id="9" * 101), "bad_player_id"),
        (hand_over(1, name=""), "bad_name"),
        (hand_over(1, name="   "), "bad_name"),
        (hand_over(1, name=None), "bad_name"),
    ],
)
def test_malformed_hand_overs_are_refused(action: dict[str, Any], code: str) -> None:
    """Bad targets, ids and names are refused and change nothing."""
    refuse_raw(game(2), action, code)


def test_someone_already_at_the_table_cannot_take_a_seat() -> None:
    """One id, one seat: the new id must not sit at the table, not even on a seat that
    is out of the game."""
    state = game(3)
    refuse_raw(state, hand_over(1, new_id=state.players[0].id), "already_seated")
    refuse_raw(state, hand_over(1, new_id=state.players[1].id), "already_seated")
    apply_action(state, {"type": "remove_player", "target": 2})
    refuse_raw(state, hand_over(1, new_id=state.players[2].id), "already_seated")


def test_an_out_seat_or_a_finished_game_cannot_change_hands() -> None:
    """A seat that is out is refused; so is any hand-over once the game is over."""
    state = game(3)
    apply_action(state, {"type": "remove_player", "target": 2})
    refuse_raw(state, hand_over(2), "player_not_in_game")
    apply_action(state, {"type": "end_game", "mode": "wealth"})
    assert state.phase == "over"
    refuse_raw(state, hand_over(0), "game_over")


def test_a_seat_changes_hands_in_the_middle_of_an_auction() -> None:
    """The auction refers to seats: it goes on with the new player bidding for the seat."""
    state = game(2, current=0)
    act(state, "roll", 0, dice=[1, 2])  # Turmstraße
    act(state, "decline", 0)
    assert state.phase == "auction"
    auction = copy.deepcopy(state.auction)
    apply_action(state, hand_over(1))
    assert state.auction == auction and state.phase == "auction"


def simple_game(seed: int, actions: int) -> tuple[GameRecord, GameState]:
    """Three simple players from ``seed``, ``actions`` actions long: record and state."""
    seats = [("111", "Anna"), ("222", "Ben"), ("333", "Cem")]
    state = new_game(seats, seed=seed, rules=Rules.from_preset("classic"))
    record = GameRecord.begin(state)
    for _ in range(actions):
        action = next_simple_action(state)
        if action is None:
            break
        record.add(action, apply_action(state, action))
    return record, state


def test_a_record_with_hand_overs_replays_and_verifies() -> None:
    """Seats change hands twice in a played game: the record replays to the same state,
    and the check of the dice against the seed passes, end state included."""
    record, state = simple_game(SEED, 60)
    for target, new_id in ((1, "444"), (1, "555")):
        action = hand_over(target, new_id, f"Neu {new_id}")
        record.add(action, apply_action(state, action))
    for _ in range(200):
        action = next_simple_action(state)
        if action is None:
            break
        record.add(action, apply_action(state, action))
    assert state.players[1].id == "555"
    assert record.replay().to_json() == state.to_json()
    result = verify(record.to_dict(), SEED, GAME, final=state.to_dict())
    assert result.ok, result.summary()


def test_money_is_kept_in_every_position_of_a_played_game() -> None:
    """In every position of a played game a hand-over of the current seat changes
    nothing but the seat's id and name (so no money is made or lost)."""
    _record, state = simple_game(SEED + 1, 0)
    for number in range(300):
        action = next_simple_action(state)
        if action is None:
            break
        apply_action(state, action)
        if number % 7:
            continue
        trial = GameState.from_json(state.to_json())
        seat = next(s for s, p in enumerate(trial.players) if not p.bankrupt)
        before = without_seat_names(trial)
        apply_action(trial, hand_over(seat, f"x{number}", "X"))
        assert without_seat_names(trial) == before
