"""The expert computer player's futures and its game-wide properties (issue 24, "A player
that looks ahead"). Its trades by the win model: ``test_win_model.py``.

The issue asks for a player that decides "buy or not, the auction limit, which trade to
propose or accept, when to build and when to leave jail — by comparing short simulated
futures … on the pure engine, within a time budget per decision … Deterministic for a
given seed." Here: the same seed gives the same game; a decision changes nothing in the
game and knows nothing a player cannot know (the dice to come, the order of the cards);
the futures of every choice meet the same dice; it keeps the strong player's floor on
trades (no group for a human cheaply); and the tournament plays the issue's three tables.
How strong it is and how long it thinks are measured by ``monopoly-bot tournament --suite
expert``, not asserted here.
"""

from __future__ import annotations

import json
from typing import Any

import pytest

from bot.cli import main
from bot.engine.computer import make_player, next_action
from bot.engine.computer.lookahead import LOOKS, LookaheadPlayer
from bot.engine.computer.playouts import Budget, act, compare, nothing, playout_seeds
from bot.engine.computer.tournament import tournament
from bot.engine.game import apply_action, new_game
from bot.engine.legal import waiting_for
from bot.engine.rules import Rules
from bot.engine.state import GameState
from tests.engine.conftest import BADSTRASSE, TURMSTRASSE, game, owned

SMALL = Budget(playouts=6, rounds=2)


def play(lineup: list[str], seed: int, actions: int) -> GameState:
    """``actions`` actions of a seeded game between computer players of ``lineup``."""
    seats = [(f"p{i}", level) for i, level in enumerate(lineup)]
    state = new_game(seats, seed=seed, rules=Rules.from_preset("classic"))
    players = {seat: make_player(level) for seat, level in enumerate(lineup)}
    for _ in range(actions):
        if state.phase == "over":
            break
        action = next_action(state, players)
        assert action is not None
        apply_action(state, action)
    return state


def test_the_same_seed_gives_the_same_game() -> None:
    """Issue: "Deterministic for a given seed"."""
    first = play(["expert", "strong", "simple"], seed=4, actions=600)
    second = play(["expert", "strong", "simple"], seed=4, actions=600)
    assert first.to_json() == second.to_json()
    assert first.turn > 20  # far enough for buys, auctions and jail to have been decided


@pytest.mark.parametrize(
    "looks", [LOOKS, LOOKS | {"buy", "jail", "build", "accept", "auction"}], ids=["default", "all"]
)
def test_deciding_changes_nothing_in_the_game(looks: frozenset[str]) -> None:
    state = play(["strong", "strong", "strong"], seed=2, actions=200)
    expert = LookaheadPlayer(SMALL, looks=looks)
    for _ in range(60):
        if state.phase == "over":
            break
        before = state.to_json()
        # Seat 0 decides on its turn, and when the game waits on it alone (an auction).
        seat = 0 if waiting_for(state) == [0] else state.current
        action = (
            expert.decide(state, seat)
            if seat == 0
            else next_action(state, {1: make_player("strong"), 2: make_player("strong")})
        )
        assert state.to_json() == before
        assert action is not None
        apply_action(state, action)


def test_the_futures_know_neither_the_dice_nor_the_cards_to_come() -> None:
    """A player cannot know the order of the cards left in a deck: reordering them (the
    same cards) changes no future, so no decision can depend on it."""
    state = play(["strong", "strong", "strong"], seed=8, actions=120)
    seat = state.current
    choices = [act({"type": "end_game", "mode": "wealth"}), nothing]
    reordered = state.copy()
    for deck in reordered.decks.values():
        deck.reverse()
    assert reordered.decks != state.decks
    assert compare(state, seat, choices, SMALL) == compare(reordered, seat, choices, SMALL)


def test_every_choice_meets_the_same_futures() -> None:
    """Common random numbers: the same seeds for every choice, and a choice that changes
    nothing scores exactly like doing nothing."""
    state = play(["strong", "strong", "strong"], seed=1, actions=90)
    seeds = playout_seeds(state, 3, 5)
    assert seeds == playout_seeds(state, 3, 5) and len(set(seeds)) == 5
    assert seeds != playout_seeds(state, 4, 5)  # another decision, other futures
    same, also_same = compare(state, 0, [nothing, nothing], SMALL, salt=3)
    assert same == also_same


def test_a_refused_choice_scores_lowest() -> None:
    state = play(["strong", "strong", "strong"], seed=1, actions=90)
    illegal = act({"type": "build", "player": 0, "square": 0})
    assert compare(state, 0, [illegal, nothing], SMALL)[0] == float("-inf")


@pytest.mark.parametrize("pittance", [0, 50])
def test_the_expert_never_hands_a_group_over_cheaply(pittance: int) -> None:
    """Issue: "it never hands a human a monopoly cheaply": the strong player's floor stays."""
    state = game([{"cash": 5000}, {}], lots={**owned(0, BADSTRASSE), **owned(1, TURMSTRASSE)})
    apply_action(
        state,
        {
            "type": "propose_trade",
            "player": 0,
            "to": 1,
            "give": {"cash": pittance, "lots": [], "jail_cards": []},
            "get": {"cash": 0, "lots": [TURMSTRASSE], "jail_cards": []},
        },
    )
    expert = LookaheadPlayer(SMALL)
    assert not expert.likes(state, 1, state.trades[0])
    answer = expert.respond_to_offers(state, 1)
    assert answer is not None and answer["type"] != "accept_trade"


def test_an_auction_limit_is_worked_out_once_per_auction() -> None:
    """With the auction look on (off by default: measured worse), the futures are played
    once per auction, not at every raise."""
    state = play(["strong", "strong", "strong"], seed=5, actions=10)
    for _ in range(2000):
        if state.phase == "auction" and state.auction and state.auction["kind"] == "lot":
            break
        apply_action(state, next_action(state, {s: make_player("strong") for s in range(3)}))
    else:
        pytest.skip("no auction in this game")
    expert = LookaheadPlayer(SMALL, looks=LOOKS | {"auction"})
    seat = state.auction["bidders"][0]
    first = expert.bid_limit(state, seat)
    assert len(expert._limits) == 1
    assert expert.bid_limit(state, seat) == first and len(expert._limits) == 1


def test_processes_give_the_same_totals() -> None:
    one = tournament(["strong", "simple", "simple"], 6, seed=3)
    two = tournament(["strong", "simple", "simple"], 6, seed=3, jobs=2)

    def totals(data: dict[str, Any]) -> dict[str, Any]:
        for row in data["levels"].values():
            row.pop("decision_ms")
        return data

    assert totals(one.to_dict()) == totals(two.to_dict())


def test_the_suite_plays_the_issues_three_tables(capsys: pytest.CaptureFixture[str]) -> None:
    """Issue: "the new level against three simple players, against three of today's strong
    players, and one new against one strong against two simple"."""
    code = main(["tournament", "--suite", "expert", "--games", "1", "--json"])
    out, err = capsys.readouterr()
    assert code == 0, err
    tables = json.loads(out)
    assert [table["lineup"] for table in tables] == [
        ["expert", "simple", "simple", "simple"],
        ["expert", "strong", "strong", "strong"],
        ["expert", "strong", "simple", "simple"],
    ]
    for table in tables:
        assert table["games"] == 1 and "expert" in table["levels"]
        assert sum(row["wins"] for row in table["levels"].values()) == 1


def test_the_expert_does_not_ask_again_and_again_for_a_scarce_house() -> None:
    """A game of the tournament (``--suite expert --seed 24``, table 3, game 131) once never
    ended: the expert asked for a house the bank was short of, which starts an auction in
    which it bid nothing, and asked again. It now ends."""
    lineup = ["simple", "expert", "strong", "simple"]
    seats = [(f"p{i}", level) for i, level in enumerate(lineup)]
    state = new_game(seats, seed=24 * 1_000_003 + 131, rules=Rules.from_preset("classic"))
    players = {seat: make_player(level) for seat, level in enumerate(lineup)}
    for _ in range(20_000):
        if state.phase == "over" or state.turn > 500:
            break
        action = next_action(state, players)
        assert action is not None
        apply_action(state, action)
    assert state.phase == "over" or state.turn > 500
