"""Absent players (bot/asyncplay/absence.py): missed deadlines, the table's vote, computer
seats and vacation, as pure functions of a state and a game's settings.

These are the bot's own rules for play over days (docs/async-play.md), not the game's.
"""

from __future__ import annotations

import copy
from typing import Any

import pytest

from bot.asyncplay.absence import (
    REMIND_INTERVAL,
    Ballot,
    cast,
    choices_for,
    computer_acts,
    computer_level,
    computer_seats,
    count_missed,
    hand_to_computer,
    next_computer_action,
    open_vote,
    outcome,
    player_acted,
    remind_again_at,
    set_vacation,
    voters,
    votes_due,
)
from bot.cardgame import CardState, SimpleCardPlayer
from bot.cardgame import waiting_for as card_waiting_for
from bot.engine.errors import IllegalAction
from bot.engine.game import apply_action, new_game
from bot.engine.legal import legal_actions
from bot.engine.rules import Rules
from bot.engine.simple_players import next_simple_action
from bot.engine.state import GameState
from bot.settings import GameSettings
from tests.cardgame.conftest import game as card_game
from tests.engine.conftest import THEATERSTRASSE, act, game, owned


def board(players: int = 4) -> GameState:
    """A new board game of ``players``; seat 0 is to throw."""
    return game(players)


def out(state: GameState, *seats: int) -> GameState:
    """``state`` with ``seats`` bankrupt (out of the game)."""
    for seat in seats:
        state.players[seat].bankrupt = True
    return state


def voting_on(seat: int, **settings: Any) -> dict[str, Any]:
    """Settings with an open vote on ``seat`` (no ballots yet) and its missed deadlines."""
    result: dict[str, Any] = {"missed": {str(seat): 3}, **settings}
    open_vote(GameSettings(result), seat, message_id=555)
    return result


# -- computer seats -------------------------------------------------------------------


def test_computer_seats_and_their_level() -> None:
    """The computer plays the seats named in ``computer`` (whatever the reason), at the
    level the lobby chose for a computer player, else ``strong``."""
    settings = {"computer": {"2": "vote", "0": "vacation"}, "computer_level": {"0": "easy"}}
    assert computer_seats(GameSettings(settings)) == {0, 2}
    assert computer_seats(GameSettings({})) == set()
    assert computer_level(GameSettings(settings), 0) == "easy"
    assert computer_level(GameSettings(settings), 2) == "strong"


def test_next_computer_action_in_the_board_game() -> None:
    """A computer seat the game waits on gets its move; with no computer seat waited on
    (or none at all) there is nothing to do."""
    state = board(3)
    action = next_computer_action(state, GameSettings({"computer": {"0": "vacation"}}))
    assert action is not None
    assert action["player"] == 0
    assert action in legal_actions(state, 0)
    assert next_computer_action(state, GameSettings({"computer": {"1": "vote"}})) is None
    assert next_computer_action(state, GameSettings({})) is None


def test_next_computer_action_answers_an_offer_to_a_computer_seat() -> None:
    """An open trade offer to a computer seat is answered, though the game waits on
    someone else."""
    state = game([{}, {"cash": 1500}], lots=owned(0, THEATERSTRASSE))
    act(state, "propose_trade", 0, to=1, give={"lots": [THEATERSTRASSE]}, get={"cash": 1})
    action = next_computer_action(state, GameSettings({"computer": {"1": "seat"}}))
    assert action is not None
    assert action["player"] == 1
    assert action["type"] in ("accept_trade", "decline_trade")


def test_next_computer_action_in_the_card_game() -> None:
    """In the card game the computer moves a seat the game waits on with the simple
    player's choice; it does nothing for a seat the game does not wait on."""
    state = card_game(3, seed=4)
    waited = card_waiting_for(state)[0]
    other = next(s for s in range(3) if s not in card_waiting_for(state))
    action = next_computer_action(state, GameSettings({"computer": {str(waited): "vacation"}}))
    assert action == SimpleCardPlayer().decide(state, waited)
    assert next_computer_action(state, GameSettings({"computer": {str(other): "vacation"}})) is None


def test_over_game_has_no_computer_action() -> None:
    """Nothing moves in a game that is over."""
    state = board(2)
    state.phase = "over"
    assert (
        next_computer_action(state, GameSettings({"computer": {"0": "seat", "1": "seat"}})) is None
    )


def test_player_acted_resets_missed_and_takes_the_seat_back() -> None:
    """A player who acts themselves starts counting missed deadlines anew and, if the
    computer played their seat, takes it back (True)."""
    settings: dict[str, Any] = {"missed": {"1": 2, "2": 1}, "computer": {"1": "vote"}}
    assert player_acted(GameSettings(settings), 1) is True
    assert settings == {"missed": {"1": 0, "2": 1}, "computer": {}}
    assert player_acted(GameSettings(settings), 2) is False
    assert settings["missed"] == {"1": 0, "2": 0}
    untouched: dict[str, Any] = {}
    assert player_acted(GameSettings(untouched), 0) is False
    assert untouched == {}


# -- missed deadlines -----------------------------------------------------------------


def test_count_missed_adds_one_per_seat() -> None:
    """Each deadline missed counts once for each seat that missed it."""
    settings: dict[str, Any] = {}
    count_missed(GameSettings(settings), [0, 2])
    count_missed(GameSettings(settings), [2])
    assert settings["missed"] == {"0": 1, "2": 2}


@pytest.mark.parametrize(
    ("missed", "limit", "due"),
    [
        ({"1": 2}, None, []),  # the default limit is 3
        ({"1": 3}, None, [1]),
        ({"1": 5}, None, [1]),
        ({"1": 1}, 1, [1]),
        ({"1": 9}, 0, []),  # 0: never vote
        ({"1": 3, "2": 3}, 3, [1, 2]),
    ],
)
def test_votes_are_due_at_the_limit(
    missed: dict[str, int], limit: int | None, due: list[int]
) -> None:
    """A seat that missed ``missed_limit`` deadlines in a row is put to the table's vote
    (default 3; 0 turns votes off)."""
    settings: dict[str, Any] = {"missed": missed}
    if limit is not None:
        settings["missed_limit"] = limit
    assert votes_due(board(), GameSettings(settings)) == (due, [])


def test_no_second_vote_and_none_on_computer_or_bankrupt_seats() -> None:
    """A seat with an open vote, a seat the computer plays and a seat that is out are not
    voted on again."""
    state = out(board(4), 3)
    settings = {"missed": {"1": 3, "2": 3, "3": 3}, "computer": {"2": "vacation"}}
    open_vote(GameSettings(settings), 1, message_id=9)
    assert votes_due(state, GameSettings(settings)) == ([], [])


def test_with_nobody_left_to_vote_the_computer_takes_the_seat() -> None:
    """If nobody is left to vote (the others are out or played by the computer), the seat
    is decided at once instead of voted on."""
    state = out(board(3), 2)
    settings = {"missed": {"0": 3}, "computer": {"1": "seat"}}
    assert votes_due(state, GameSettings(settings)) == ([], [0])
    assert voters(state, GameSettings(settings), 0) == []


def test_voters_are_the_others_still_at_the_table() -> None:
    """Voting on a seat are the other players still in and not played by the computer."""
    state = out(board(5), 4)
    assert voters(state, GameSettings({"computer": {"3": "vote"}}), 1) == [0, 2]


def test_choices_of_the_vote() -> None:
    """The board game's vote may remove a player; the card game's cannot."""
    assert choices_for(board()) == ("computer", "remove", "wait")
    assert choices_for(card_game(2)) == ("computer", "wait")


@pytest.mark.parametrize(
    ("ballots", "table", "result"),
    [
        ({"0": "computer", "2": "computer"}, [0, 2, 3], "computer"),
        ({"0": "computer", "2": "wait"}, [0, 2, 3], None),
        ({"0": "remove"}, [0, 2], None),  # half is no majority
        ({"0": "remove", "2": "remove"}, [0, 2], "remove"),
        ({"0": "wait"}, [0], "wait"),
        ({"0": "computer", "9": "computer"}, [0, 2, 3], None),  # 9 does not vote here
    ],
)
def test_outcome_needs_more_than_half(
    ballots: dict[str, str], table: list[int], result: str | None
) -> None:
    """A choice wins with more than half of the voters' ballots; others' do not count."""
    assert outcome(ballots, table) == result


# -- the vote -------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("arg", "voter", "code"),
    [
        (None, 0, "unknown_button"),
        ("x-computer", 0, "unknown_button"),
        ("1-maybe", 0, "unknown_button"),
        ("2-computer", 0, "vote_closed"),  # no vote on seat 2
        ("7-computer", 0, "vote_closed"),  # no such seat
        ("1-computer", None, "not_a_player"),
        ("1-back", 0, "vote_not_you"),
        ("1-wait", 1, "vote_own_seat"),
        ("1-computer", 3, "not_a_voter"),  # the computer plays seat 3
    ],
)
def test_cast_refusals_change_nothing(arg: str | None, voter: int | None, code: str) -> None:
    """Every click that does not count is refused with its code and changes nothing."""
    state = board(4)
    settings = voting_on(1, computer={"3": "vacation"})
    before = copy.deepcopy(settings)
    with pytest.raises(IllegalAction) as refused:
        cast(state, GameSettings(settings), voter, arg)
    assert refused.value.code == code
    assert settings == before


def test_cast_refused_when_the_game_is_over_or_the_seat_is_out() -> None:
    """A vote about a seat that went bankrupt, or in a game that is over, is closed."""
    settings = voting_on(1)
    with pytest.raises(IllegalAction, match="vote_closed"):
        cast(out(board(3), 1), GameSettings(settings), 0, "1-computer")
    state = board(3)
    state.phase = "over"
    with pytest.raises(IllegalAction, match="vote_closed"):
        cast(state, GameSettings(settings), 0, "1-computer")


def test_cast_refuses_removal_in_the_card_game() -> None:
    """The card game cannot remove a player, so its vote has no such button."""
    with pytest.raises(IllegalAction, match="unknown_button"):
        cast(card_game(3), GameSettings(voting_on(1)), 0, "1-remove")


def test_a_ballot_without_majority_keeps_the_vote_open() -> None:
    """One of three voters choosing is recorded; the vote goes on."""
    state = board(4)
    settings = voting_on(1)
    assert cast(state, GameSettings(settings), 0, "1-computer") == Ballot(
        1, None, {"0": "computer"}
    )
    assert settings["votes"]["1"] == {"message": 555, "ballots": {"0": "computer"}}
    # A voter may change their mind; the ballot is replaced.
    assert cast(state, GameSettings(settings), 0, "1-wait").ballots == {"0": "wait"}


def test_majority_for_the_computer_hands_it_the_seat() -> None:
    """Two of three voters for the computer: the vote closes and the computer plays the
    seat (reason ``vote``); the missed deadlines stay as they were."""
    state = board(4)
    settings = voting_on(1)
    cast(state, GameSettings(settings), 0, "1-computer")
    ballot = cast(state, GameSettings(settings), 2, "1-computer")
    assert ballot == Ballot(1, "computer", {"0": "computer", "2": "computer"})
    assert settings["votes"] == {}
    assert settings["computer"] == {"1": "vote"}
    assert settings["missed"] == {"1": 3}


def test_majority_to_remove_closes_the_vote_for_the_caller_to_act() -> None:
    """A majority to remove the player closes the vote; removing is the caller's part."""
    state = board(3)
    settings = voting_on(1)
    cast(state, GameSettings(settings), 0, "1-remove")
    assert cast(state, GameSettings(settings), 2, "1-remove").result == "remove"
    assert settings["votes"] == {}
    assert "computer" not in settings


def test_majority_to_wait_starts_the_count_again() -> None:
    """A majority to keep waiting closes the vote and resets the missed deadlines."""
    state = board(2)
    settings = voting_on(1)
    assert cast(state, GameSettings(settings), 0, "1-wait").result == "wait"
    assert settings["votes"] == {}
    assert settings["missed"] == {"1": 0}


def test_the_absent_player_comes_back() -> None:
    """The player voted on clicks "I'm back": the vote closes, the count starts again."""
    state = board(3)
    settings = voting_on(1)
    cast(state, GameSettings(settings), 0, "1-computer")
    ballot = cast(state, GameSettings(settings), 1, "1-back")
    assert ballot == Ballot(1, "back", {"0": "computer"})
    assert settings["votes"] == {}
    assert settings["missed"] == {"1": 0}
    assert "computer" not in settings


def test_a_card_game_vote_for_the_computer() -> None:
    """The card game's table votes the same way."""
    state: CardState = card_game(3)
    settings = voting_on(2)
    cast(state, GameSettings(settings), 0, "2-computer")
    assert cast(state, GameSettings(settings), 1, "2-computer").result == "computer"
    assert computer_seats(GameSettings(settings)) == {2}


def test_hand_to_computer_records_the_reason() -> None:
    """The computer takes a seat with the reason it was given; other seats stay."""
    settings: dict[str, Any] = {"computer": {"0": "vacation"}}
    hand_to_computer(GameSettings(settings), 2, "seat")
    assert settings["computer"] == {"0": "vacation", "2": "seat"}


# -- vacation and reminders -----------------------------------------------------------


def test_vacation_away_and_back() -> None:
    """Going away hands the seat to the computer; coming back takes it back and resets the
    missed deadlines; asking for what already is changes nothing (False)."""
    settings: dict[str, Any] = {"missed": {"1": 2}}
    assert set_vacation(GameSettings(settings), 1, True) is True
    assert settings["computer"] == {"1": "vacation"}
    assert set_vacation(GameSettings(settings), 1, True) is False
    assert set_vacation(GameSettings(settings), 1, False) is True
    assert settings["computer"] == {}
    assert settings["missed"] == {"1": 0}
    assert set_vacation(GameSettings(settings), 1, False) is False
    assert set_vacation(GameSettings(settings), 0, False) is False


def test_vacation_ends_a_seat_the_table_gave_the_computer() -> None:
    """A player whose seat the table handed to the computer is back with /vacation off."""
    settings: dict[str, Any] = {"computer": {"1": "vote"}}
    assert set_vacation(GameSettings(settings), 1, False) is True
    assert settings["computer"] == {}


@pytest.mark.parametrize(
    ("settings", "now", "again"),
    [
        ({}, 1_000_000.0, None),  # never reminded
        ({"last_remind": 1000.0}, 1000.0 + REMIND_INTERVAL, None),
        ({"last_remind": 1000.0}, 1000.0 + REMIND_INTERVAL - 1, 1000.0 + REMIND_INTERVAL),
        # A deadline of five minutes allows a reminder every two and a half minutes.
        ({"last_remind": 1000.0, "deadline": "5m"}, 1100.0, 1150.0),
        ({"last_remind": 1000.0, "deadline": "5m"}, 1150.0, None),
        # A long deadline still waits at most an hour.
        ({"last_remind": 1000.0, "deadline": "24h"}, 2000.0, 1000.0 + REMIND_INTERVAL),
    ],
)
def test_remind_again_at(settings: dict[str, Any], now: float, again: float | None) -> None:
    """``/monopoly remind`` is allowed once an hour, or every half deadline if that is
    shorter; before then it says when."""
    assert remind_again_at(GameSettings(settings), now) == again


@pytest.mark.parametrize("seed", [1, 2])
def test_computer_acts_whenever_a_computer_seat_would_act(seed: int) -> None:
    """The planner's cheap question (``computer_acts``) is never "no" when the decision
    (``next_computer_action``, which the expert answers by playing futures) is a move:
    otherwise a computer seat would never be woken. Seats 0 and 2 are computers; the
    humans in seats 1 and 3 play as simple players (they offer trades now and then)."""
    rules = Rules.from_preset("classic")
    state = new_game([(f"p{i}", f"P{i}") for i in range(4)], seed=seed, rules=rules)
    settings = GameSettings(
        {"computer": {"0": "vacation", "2": "vote"}, "computer_level": {"0": "easy"}}
    )
    quiet = woken = 0
    for _ in range(3000):
        if state.phase == "over":
            break
        action = next_computer_action(state, settings)
        if action is not None:
            assert computer_acts(state, settings), (state.phase, action)
            woken += 1
        else:
            quiet += 1
            action = next_simple_action(state)
        assert action is not None
        apply_action(state, action)
    assert woken > 100 and quiet > 100
