"""A seat of the card game changes hands (``hand_over``): hand, pile and score stay."""

from __future__ import annotations

from typing import Any

import pytest

from bot.cardgame import CardRecord, SimpleCardPlayer, waiting_for
from bot.cardgame.game import apply_action, new_game
from bot.cardgame.legal import legal_actions
from bot.cardgame.state import CardState
from bot.engine.errors import IllegalAction
from bot.fairness import verify
from tests.cardgame.conftest import game

SEED = 1_618_033_988_749


def hand_over(target: Any, new_id: Any = "zoe", name: Any = "Zoe") -> dict[str, Any]:
    """The system action that gives seat ``target`` to ``new_id``."""
    return {"type": "hand_over", "target": target, "id": new_id, "name": name}


def refuse_raw(state: CardState, action: dict[str, Any], code: str) -> None:
    """Assert ``action`` is refused with ``code`` and changes nothing."""
    before = state.to_json()
    with pytest.raises(IllegalAction) as caught:
        apply_action(state, action)
    assert caught.value.code == code
    assert state.to_json() == before


def test_only_who_sits_there_changes() -> None:
    """Seat 2's hand, pile and score stay; its legal actions are those of before."""
    state = game(4)
    state.players[2].score = 1234
    before = state.to_dict()
    legal = legal_actions(state, 2)
    events = apply_action(state, hand_over(2))
    after = state.to_dict()
    assert after["players"][2] == {**before["players"][2], "id": "zoe", "name": "Zoe"}
    assert {k: v for k, v in after.items() if k not in ("players", "seq")} == {
        k: v for k, v in before.items() if k not in ("players", "seq")
    }
    assert after["seq"] == before["seq"] + 1
    assert legal_actions(state, 2) == legal
    assert events[0]["type"] == "handed_over"
    assert (events[0]["from_name"], events[0]["to_name"]) == ("Player 2", "Zoe")


@pytest.mark.parametrize(
    ("action", "code"),
    [
        (hand_over(9), "unknown_player"),
        (hand_over(None), "unknown_player"),
        (hand_over(1, new_id="p0"), "already_seated"),
        (hand_over(1, new_id=5), "bad_player_id"),
        (hand_over(1, name=""), "bad_name"),
    ],
)
def test_bad_hand_overs_are_refused(action: dict[str, Any], code: str) -> None:
    """Bad targets, ids and names, and an id already seated, change nothing."""
    refuse_raw(game(3), action, code)


def test_no_hand_over_after_the_end() -> None:
    """Once the game is over no seat changes hands."""
    state = game(2, seed=3)
    player = SimpleCardPlayer()
    while state.phase != "over":
        apply_action(state, player.decide(state, waiting_for(state)[0]))
    refuse_raw(state, hand_over(0), "game_over")


def test_a_record_with_a_hand_over_replays_and_verifies() -> None:
    """A played game with a seat handed over midway: the record replays and verifies."""
    seats = [("111", "Anna"), ("222", "Ben"), ("333", "Cem")]
    state = new_game(seats, SEED)
    record = CardRecord.begin(state)
    player = SimpleCardPlayer()
    moves = 0
    while state.phase != "over":
        if moves == 25:
            action = hand_over(1, "444", "Dora")
        else:
            action = player.decide(state, waiting_for(state)[0])
        record.add(action, apply_action(state, action))
        moves += 1
    assert state.players[1].id == "444"
    assert record.replay().to_json() == state.to_json()
    result = verify(record.to_dict(), SEED, 9, final=state.to_dict())
    assert result.ok, result.summary()
