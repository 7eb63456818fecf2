"""The win model and the trades the expert makes with it (issue 24: "which trade to
propose or accept").

The model estimates every seat's chance to win from a position; the expert offers the
trade that raises its own chance most among those a partner judging like the strong
player accepts, and accepts a trade when it raises its chance. Here: the chances are a
distribution and move the right way; the fit recovers known weights; the shipped weights
fit the features; an offer is legal, acceptable to the partner model and never a group for
the partner alone; deciding changes nothing. How much it wins is measured by
``monopoly-bot tournament --suite expert``, not asserted here.
"""

from __future__ import annotations

import json
import math
from importlib import resources
from pathlib import Path

import pytest

from bot.cli import main
from bot.engine import apply_action
from bot.engine.computer import make_player
from bot.engine.computer.deals import after_trade, best_proposal, chance_gain
from bot.engine.computer.lookahead import LookaheadPlayer
from bot.engine.computer.strong import StrongPlayer
from bot.engine.computer.valuation import completes_group
from bot.engine.computer.winmodel import FEATURES, chances, features, weights
from bot.engine.computer.winmodel_training import fit, log_likelihood, play_and_sample
from bot.engine.rng import SplitMix64
from bot.engine.rules import Rules
from bot.engine.simple_players import SimplePlayer
from tests.engine.conftest import (
    BADSTRASSE,
    CHAUSSEESTRASSE,
    ELISENSTRASSE,
    PARKSTRASSE,
    POSTSTRASSE,
    SCHLOSSALLEE,
    TURMSTRASSE,
    game,
    owned,
)


def test_the_shipped_weights_fit_the_features() -> None:
    raw = json.loads((resources.files("bot.engine") / "data" / "win_model.json").read_text("utf-8"))
    assert tuple(raw["features"]) == FEATURES
    assert len(weights()) == len(FEATURES)
    # Fitted, and better than guessing on the games it did not see.
    held_out = raw["held_out"]
    assert held_out["log_likelihood"] > held_out["log_likelihood_uniform"] + 0.1


def test_chances_are_a_distribution_over_the_players_still_in() -> None:
    state = game([{"cash": 900}, {"cash": 1500}, {"cash": 300}])
    state.players[2].bankrupt = True
    odds = chances(state)
    assert math.isclose(sum(odds), 1.0)
    assert odds[2] == 0.0
    assert odds[1] > odds[0]  # more cash, nothing else different
    assert features(state)[2] is None


def test_a_complete_group_with_money_to_build_raises_the_chance() -> None:
    """The reason for the model: a group that can be built on wins games."""
    lots = {**owned(0, BADSTRASSE), **owned(1, TURMSTRASSE)}
    state = game([{"cash": 1200}, {"cash": 1200}, {"cash": 1200}], lots=lots)
    trade = {
        "from": 0,
        "to": 1,
        "give": {"cash": 100, "lots": [], "jail_cards": []},
        "get": {"cash": 0, "lots": [TURMSTRASSE], "jail_cards": []},
    }
    assert chance_gain(state, 0, trade) > 0
    assert chance_gain(state, 1, trade) < 0
    owner, cash = after_trade(state, trade)
    assert owner[TURMSTRASSE] == 0 and cash[0] == 1100 and cash[1] == 1300


def test_the_fit_recovers_the_weights_that_made_the_games() -> None:
    """Newton's method on samples drawn from a known model finds that model again."""
    rng = SplitMix64(5)
    truth = [0.8, -0.5] + [0.0] * (len(FEATURES) - 2)
    samples = []
    for _ in range(3000):
        rows = [[rng.below(1000) / 500 for _ in FEATURES] for _ in range(3)]
        scores = [sum(w * x for w, x in zip(truth, row, strict=True)) for row in rows]
        total = sum(math.exp(s) for s in scores)
        draw, winner = rng.below(10**9) / 10**9, 0
        for seat, score in enumerate(scores):
            draw -= math.exp(score) / total
            if draw < 0:
                winner = seat
                break
        samples.append((rows, winner))
    found = fit(samples, ridge=1e-6)
    assert found[0] == pytest.approx(0.8, abs=0.15)
    assert found[1] == pytest.approx(-0.5, abs=0.15)
    assert log_likelihood(samples, found) >= log_likelihood(samples, truth) - 1e-9


def test_a_game_gives_samples_labelled_with_its_winner() -> None:
    samples = play_and_sample(["strong", "simple", "simple"], 3, Rules.from_preset("classic"))
    assert len(samples) > 5
    for rows, winner in samples:
        assert 2 <= len(rows) <= 3 and 0 <= winner < len(rows)
        assert all(len(row) == len(FEATURES) for row in rows)


def _swap_table():
    """Seat 0 lacks Turmstraße for brown, seat 1 lacks Schlossallee for dark blue."""
    lots = {
        **owned(0, BADSTRASSE, SCHLOSSALLEE, CHAUSSEESTRASSE),
        **owned(1, TURMSTRASSE, PARKSTRASSE, ELISENSTRASSE),
        **owned(2, POSTSTRASSE),
    }
    return game([{"cash": 1000}, {"cash": 1000}, {"cash": 1000}], lots=lots)


def test_an_offer_is_legal_acceptable_and_raises_the_chance() -> None:
    state = _swap_table()
    before = state.to_json()
    expert = LookaheadPlayer(looks=frozenset({"offers", "answers"}))  # no opening low
    offer = expert.propose(state, 0)
    assert state.to_json() == before  # deciding changes nothing
    assert offer is not None and offer["type"] == "propose_trade"
    trade = {k: offer[k] for k in ("give", "get", "to")} | {"from": 0}
    assert StrongPlayer().likes(state, offer["to"], trade)  # the partner model accepts it
    assert chance_gain(state, 0, trade) > 0
    # A group for the partner only in a swap that completes one for the expert too.
    if completes_group(state, offer["to"], offer["give"]["lots"]):
        assert completes_group(state, 0, offer["get"]["lots"])
    apply_action(state, offer)  # the engine takes it as it is
    assert state.trades[-1]["from"] == 0


def test_no_offer_when_nothing_raises_the_chance_enough() -> None:
    state = _swap_table()
    offer = best_proposal(state, 0, lambda *_: True, budget=500, threshold=1.0)
    assert offer is None


def test_offers_are_deterministic() -> None:
    first = make_player("expert").propose(_swap_table(), 0)
    second = make_player("expert").propose(_swap_table(), 0)
    assert first == second


def test_an_offer_opens_at_the_price_a_price_minded_partner_accepts() -> None:
    """The offer opens low: at the least cash a partner going by printed prices accepts, if
    that is below what a partner judging like the strong player wants (who then counters)."""
    state = _swap_table()
    expert = LookaheadPlayer()
    offer = expert.propose(state, 0)
    assert offer is not None
    trade = {k: offer[k] for k in ("give", "get", "to")} | {"from": 0}
    assert SimplePlayer().likes(state, offer["to"], trade) or StrongPlayer().likes(
        state, offer["to"], trade
    )
    fair = LookaheadPlayer(looks=frozenset({"offers", "answers"})).propose(state, 0)
    assert fair is not None and fair["get"]["lots"] == offer["get"]["lots"]
    assert (
        offer["give"]["cash"] - offer["get"]["cash"] <= fair["give"]["cash"] - fair["get"]["cash"]
    )


def _offer_to_expert(give: dict, get: dict) -> tuple:
    state = _swap_table()
    apply_action(
        state,
        {
            "type": "propose_trade",
            "player": 1,
            "to": 0,
            "give": {"jail_cards": [], **give},
            "get": {"jail_cards": [], **get},
        },
    )
    return state, LookaheadPlayer().respond_to_offers(state, 0)


def test_the_expert_accepts_what_raises_its_chance() -> None:
    state, answer = _offer_to_expert({"cash": 100, "lots": [TURMSTRASSE]}, {"cash": 0, "lots": []})
    assert answer == {"type": "accept_trade", "player": 0, "trade": state.trades[0]["id"]}


def test_the_expert_refuses_what_lowers_its_chance() -> None:
    """Schlossallee for 10 € would complete dark blue for the partner: declined or countered,
    never accepted (the strong player's floor: no group for the partner cheaply)."""
    state, answer = _offer_to_expert({"cash": 10, "lots": []}, {"cash": 0, "lots": [SCHLOSSALLEE]})
    assert answer is not None and answer["type"] in ("decline_trade", "propose_trade")
    if answer["type"] == "propose_trade":
        assert answer["counter_of"] == state.trades[0]["id"]


def test_the_command_fits_and_writes_a_model(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """``monopoly-bot train-win-model`` plays, fits and writes the file the engine reads."""
    output = tmp_path / "model.json"
    lineups = "strong,simple,simple;simple,simple,simple"
    args = ["train-win-model", "--games", "10", "--seed", "3", "--lineups", lineups]
    assert main([*args, "--output", str(output)]) == 0
    model = json.loads(output.read_text(encoding="utf-8"))
    assert model["features"] == list(FEATURES) and len(model["weights"]) == len(FEATURES)
    assert model["trained_on"]["lineups"] == lineups.split(";")
    assert json.loads(capsys.readouterr().out) == model["held_out"]
