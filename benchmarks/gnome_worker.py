"""Play four-player games of GNOME's Monopoly simulator and time them (runs in GNOME's venv).

This file is run by the Python of a virtual environment holding the PyPI package
``monopoly-simulator-test`` (see ``engine_vs_gnome.py``); it never imports the bot.
It prints one JSON line: ``{"games", "turns", "seconds", "play_seconds", "winners"}``.

A game is set up the way GNOME's own ``gameplay.play_game_in_tournament`` does it
(``set_up_board`` on the schema installed with the package, one ``Agent`` per
player built from ``background_agent_v3_1``, ``startup``, ``simulate_game_instance``
with the game's seed, ``shutdown``), but with four background agents instead of
one RL agent, whose module the package does not ship. A *turn* is one pass of
``simulate_game_instance``'s main loop: one player's move (pre-roll, out-of-turn
moves of the others, the roll, the move and post-roll). The loop calls
``card_utility_actions.check_for_game_termination`` exactly once per pass, so
counting those calls counts the turns. ``seconds`` times whole games (setting up the
board and agents, playing, shutting down), as ``bot.engine.simulate.simulate`` times
``new_game`` and the play; ``play_seconds`` only ``simulate_game_instance``.
"""

# ruff: noqa: T201 - a command-line script: it prints its figures

from __future__ import annotations

import argparse
import contextlib
import io
import json
import logging
import os
import sys
import tempfile
import time
import types
from pathlib import Path


def _import_gameplay() -> types.ModuleType:
    """Import ``monopoly_simulator.gameplay``, stubbing the modules the package lacks.

    ``gameplay`` imports an RL agent and a novelty module at its top that the PyPI
    package does not include; none of them is used by ``simulate_game_instance``.
    """
    import monopoly_simulator

    for name in ("rl_agent_background", "rl_agent"):
        stub = types.ModuleType(f"monopoly_simulator.{name}")
        stub.RLAgent = object  # type: ignore[attr-defined]
        sys.modules[stub.__name__] = stub
        setattr(monopoly_simulator, name, stub)
    sys.modules.setdefault("novelty_distributions_v3", types.ModuleType("novelty_distributions_v3"))
    from monopoly_simulator import gameplay

    return gameplay


def _schema_path() -> Path:
    """The game schema the package installs at the venv root (or its own copy)."""
    import monopoly_simulator

    for path in (
        Path(sys.prefix) / "monopoly_game_schema_v1-2.json",
        Path(monopoly_simulator.__file__).parent / "monopoly_game_schema_v1-2.json",
    ):
        if path.exists():
            return path
    raise SystemExit("monopoly_game_schema_v1-2.json not found in the GNOME venv")


def play(games: int, seed: int) -> dict[str, object]:
    """Play ``games`` games with seeds ``seed``, ``seed + 1``, ... and total them up."""
    logging.disable(logging.CRITICAL)  # GNOME logs every step at DEBUG
    gameplay = _import_gameplay()
    from monopoly_simulator import background_agent_v3_1, card_utility_actions
    from monopoly_simulator.agent import Agent

    turns = 0
    check = card_utility_actions.check_for_game_termination

    def counting_check(board: dict, tot_time: float) -> bool:
        nonlocal turns
        turns += 1
        return check(board, tot_time)

    card_utility_actions.check_for_game_termination = counting_check
    schema = str(_schema_path())
    seconds = play_seconds = 0.0
    winners: dict[str, int] = {}
    sink = io.StringIO()
    for game in range(games):
        with contextlib.redirect_stdout(sink):
            started = time.perf_counter()
            agents = {
                f"player_{i}": Agent(**background_agent_v3_1.decision_agent_methods)
                for i in range(1, 5)
            }
            elements = gameplay.set_up_board(schema, agents)
            for agent in agents.values():
                agent.startup(elements)
            playing = time.perf_counter()
            winner = gameplay.simulate_game_instance(elements, np_seed=seed + game)
            played = time.perf_counter()
            for agent in agents.values():
                agent.shutdown()
            seconds += time.perf_counter() - started
            play_seconds += played - playing
        sink.seek(0)
        sink.truncate()
        winners[str(winner)] = winners.get(str(winner), 0) + 1
    return {
        "games": games,
        "turns": turns,
        "seconds": seconds,
        "play_seconds": play_seconds,
        "winners": winners,
    }


def main() -> None:
    """Command line: ``gnome_worker.py --games N --seed S``."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=50)
    parser.add_argument("--seed", type=int, default=1)
    args = parser.parse_args()
    with tempfile.TemporaryDirectory() as scratch:
        os.chdir(scratch)  # should GNOME write a file after all, it lands here
        print(json.dumps(play(args.games, args.seed)))


if __name__ == "__main__":
    main()
