"""Handing a seat over (bot/asyncplay/handover.py): the request, its answers, the vote and
what the settings keep afterwards, as pure functions of a state and a game's settings."""

from __future__ import annotations

import copy
from typing import Any

import pytest

from bot.asyncplay import handover
from bot.engine.errors import IllegalAction
from bot.engine.state import GameState
from bot.settings import GameSettings
from tests.cardgame.conftest import game as card_game
from tests.engine.conftest import game


def board(players: int = 3) -> GameState:
    """A board game whose seats are Discord ids 1, 2, 3 … named p1, p2 …"""
    state = game(players)
    for seat, player in enumerate(state.players):
        player.id, player.name = str(seat + 1), f"p{seat + 1}"
    return state


def settings_for(**extra: Any) -> dict[str, Any]:
    """A running game's settings: 1 is the host."""
    return {"host": 1, **extra}


def refused(code: str, change: Any, settings: dict[str, Any]) -> None:
    """``change()`` raises ``code`` and leaves ``settings`` as they were."""
    before = copy.deepcopy(settings)
    with pytest.raises(IllegalAction) as info:
        change()
    assert info.value.code == code
    assert settings == before


def opened(state: GameState, settings: dict[str, Any], user: str = "2", to: str = "9") -> str:
    """``user`` asks to hand their seat to ``to``; the buttons' argument."""
    seat, request = handover.open_request(state, GameSettings(settings), user, to, "Zoe")
    return handover.button_arg(seat, request)


def test_a_request_goes_from_asked_to_the_host_and_is_confirmed() -> None:
    state, settings = board(), settings_for()
    arg = opened(state, settings)
    assert arg == "1-1" and settings["handover_next"] == 2
    outcome = handover.answer(state, GameSettings(settings), arg, "accept", "9", may_host=False)
    assert outcome.result is None and outcome.request["stage"] == handover.CONFIRM
    assert settings["handover_requests"]["1"]["stage"] == handover.CONFIRM
    outcome = handover.answer(state, GameSettings(settings), arg, "confirm", "1", may_host=True)
    assert outcome.result == "confirmed" and settings["handover_requests"] == {}


@pytest.mark.parametrize(
    ("user", "target", "bot", "code"),
    [
        ("7", "9", False, "not_a_player"),
        ("2", "2", False, "handover_self"),
        ("2", "9", True, "handover_target_bot"),
        ("2", "3", False, "handover_target_seated"),
    ],
)
def test_bad_requests_change_nothing(user: str, target: str, bot: bool, code: str) -> None:
    state, settings = board(), settings_for()
    refused(
        code,
        lambda: handover.open_request(
            state, GameSettings(settings), user, target, "X", target_is_bot=bot
        ),
        settings,
    )


def test_one_open_request_per_seat_and_per_member() -> None:
    state, settings = board(), settings_for()
    opened(state, settings)
    refused("handover_open", lambda: opened(state, settings, "2", "8"), settings)
    refused("handover_target_asked", lambda: opened(state, settings, "3", "9"), settings)


def test_no_request_in_a_paused_or_finished_game_or_from_an_out_seat() -> None:
    state = board()
    refused("game_paused", lambda: opened(state, {"paused": True}), {"paused": True})
    state.players[1].bankrupt = True
    refused("not_a_player", lambda: opened(state, settings_for()), settings_for())
    state.phase = "over"
    refused("game_over", lambda: opened(state, settings_for()), settings_for())


def test_the_wrong_people_and_stale_buttons_are_refused() -> None:
    state, settings = board(), settings_for()
    arg = opened(state, settings)
    refused(
        "handover_not_you",
        lambda: handover.answer(state, GameSettings(settings), arg, "accept", "3", may_host=True),
        settings,
    )
    refused(
        "handover_not_asker",
        lambda: handover.answer(state, GameSettings(settings), arg, "withdraw", "9", may_host=True),
        settings,
    )
    refused(
        "handover_answered",
        lambda: handover.answer(state, GameSettings(settings), arg, "confirm", "1", may_host=True),
        settings,
    )
    refused(
        "handover_closed",
        lambda: handover.answer(
            state, GameSettings(settings), "1-7", "accept", "9", may_host=False
        ),
        settings,
    )
    refused(
        "unknown_button",
        lambda: handover.answer(state, GameSettings(settings), "x", "accept", "9", may_host=False),
        settings,
    )
    refused(
        "unknown_button",
        lambda: handover.answer(state, GameSettings(settings), arg, "maybe", "9", may_host=False),
        settings,
    )
    handover.answer(state, GameSettings(settings), arg, "accept", "9", may_host=False)
    refused(
        "handover_own_seat",
        lambda: handover.answer(state, GameSettings(settings), arg, "confirm", "2", may_host=True),
        settings,
    )
    refused(
        "host_only",
        lambda: handover.answer(state, GameSettings(settings), arg, "confirm", "3", may_host=False),
        settings,
    )
    refused(
        "handover_answered",
        lambda: handover.answer(state, GameSettings(settings), arg, "accept", "9", may_host=False),
        settings,
    )
    outcome = handover.answer(state, GameSettings(settings), arg, "withdraw", "2", may_host=False)
    assert outcome.result == "withdrawn"
    refused(
        "handover_closed",
        lambda: handover.answer(state, GameSettings(settings), arg, "refuse", "1", may_host=True),
        settings,
    )


def test_the_table_votes_when_the_host_leaves() -> None:
    """Four players; the host leaves: three voters, two yes are more than half."""
    state, settings = board(4), settings_for()
    arg = opened(state, settings, "1")
    assert (
        handover.answer(state, GameSettings(settings), arg, "accept", "9", may_host=False).request[
            "stage"
        ]
        == handover.VOTE
    )
    refused(
        "not_a_voter",
        lambda: handover.answer(state, GameSettings(settings), arg, "yes", "1", may_host=True),
        settings,
    )
    refused(
        "handover_answered",
        lambda: handover.answer(state, GameSettings(settings), arg, "confirm", "2", may_host=True),
        settings,
    )
    assert (
        handover.answer(state, GameSettings(settings), arg, "yes", "2", may_host=False).result
        is None
    )
    assert (
        handover.answer(state, GameSettings(settings), arg, "no", "3", may_host=False).result
        is None
    )
    assert (
        handover.answer(state, GameSettings(settings), arg, "yes", "4", may_host=False).result
        == "confirmed"
    )


def test_a_vote_without_a_majority_for_yes_is_refused() -> None:
    state, settings = board(3), settings_for()
    arg = opened(state, settings, "1")
    handover.answer(state, GameSettings(settings), arg, "accept", "9", may_host=False)
    assert (
        handover.answer(state, GameSettings(settings), arg, "no", "2", may_host=False).result
        == "refused"
    )


def test_with_nobody_to_vote_the_host_s_hand_over_is_confirmed_at_once() -> None:
    """The host's only companion is played by the computer: nobody votes."""
    state, settings = board(2), settings_for(computer={"1": "seat"})
    arg = opened(state, settings, "1")
    assert (
        handover.answer(state, GameSettings(settings), arg, "accept", "9", may_host=False).result
        == "confirmed"
    )


def test_finish_records_both_names_and_starts_the_seat_afresh() -> None:
    state = board()
    settings = settings_for(
        missed={"0": 2, "1": 3},
        computer={"0": "vacation", "1": "vacation"},
        votes={"0": {"message": 5, "ballots": {}}},
    )
    arg = opened(state, settings, "1")
    outcome = handover.answer(state, GameSettings(settings), arg, "accept", "9", may_host=False)
    handover.finish(state, GameSettings(settings), outcome.seat, outcome.request)
    handover.finish(
        state, GameSettings(settings), outcome.seat, outcome.request
    )  # twice: recorded once
    assert settings["handovers"] == [
        {
            "seat": 0,
            "from_id": "1",
            "from_name": "p1",
            "to_id": "9",
            "to_name": "Zoe",
            "turn": state.turn,
        }
    ]
    assert settings["missed"] == {"0": 0, "1": 3}
    assert settings["computer"] == {"1": "vacation"}
    assert settings["votes"] == {}
    assert settings["host"] == 9
    assert handover.former_names(GameSettings(settings), 0) == ["p1"]
    assert handover.former_names(GameSettings(settings), 1) == []


def test_the_card_game_takes_requests_too() -> None:
    state = card_game(3)
    settings = settings_for()
    seat, request = handover.open_request(state, GameSettings(settings), "p1", "9", "Zoe")
    assert seat == 1 and request["from_name"] == "Player 1"
