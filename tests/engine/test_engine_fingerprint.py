"""The engine plays the same games as before (issue 24: "keep the engine pure and its results
identical — the same seed gives the same game").

A digest of seeded simulations under every preset — totals, final states, and every action and
event of one whole game — pinned as a constant. A speed-up must leave it alone. A change of
the rules or of the simple players changes it on purpose: then update :data:`EXPECTED` in the
same commit and say why in its message.
"""

from __future__ import annotations

import hashlib
import json

from bot.engine.game import apply_action, new_game
from bot.engine.rules import Rules, available_presets
from bot.engine.simple_players import SimplePlayer, next_simple_action
from bot.engine.simulate import SimulationResult, play_game, simulate

EXPECTED = "a7ad5fae21d662bb86fc736ea217bfd1"


def engine_digest() -> str:
    """The digest of the seeded games described in the module docstring."""
    digest = hashlib.sha256()
    for preset in available_presets():
        rules = Rules.from_preset(preset)
        for seed, games, players, jail in ((1, 12, 4, "leave"), (7, 6, 3, "stay")):
            totals = simulate(games, players, seed, rules=rules, jail_strategy=jail).to_dict()
            totals.pop("seconds")
            digest.update(json.dumps(totals, sort_keys=True).encode())
            bots = [SimplePlayer(jail) for _ in range(players)]
            seats = [(f"p{i}", f"Player {i + 1}") for i in range(players)]
            state = new_game(seats, seed=seed * 1_000_003, rules=rules)
            play_game(state, bots, SimulationResult())
            digest.update(state.to_json().encode())
    state = new_game(
        [(f"p{i}", f"P{i}") for i in range(4)], seed=99, rules=Rules.from_preset("classic")
    )
    while state.phase != "over" and state.turn <= 1000:
        action = next_simple_action(state)
        events = apply_action(state, action)
        digest.update(json.dumps([action, events], sort_keys=True).encode())
    return digest.hexdigest()[:32]


def test_the_engine_plays_the_same_games() -> None:
    assert engine_digest() == EXPECTED
