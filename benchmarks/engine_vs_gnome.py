"""Our engine against GNOME's Monopoly simulator, in one run: turns per second and the ratio.

Usage (from the repository root)::

    .venv/bin/python benchmarks/engine_vs_gnome.py [--games 300] [--seed 1] [--repeat 3]

GNOME's simulator is the PyPI package ``monopoly-simulator-test`` (0.0.3). It pins a
numpy that no longer builds, so it lives in its own virtual environment, installed
with ``--no-deps`` next to a current numpy and xlsxwriter. The script creates that
environment at ``--venv`` (default ``data/gnome-venv``, git-ignored) on first use, or
uses ``--gnome-python`` if you have one already. The GNOME games run in a subprocess
of that environment (``gnome_worker.py``); ours run in this process through
``bot.engine.simulate.simulate``, what ``monopoly-bot bench`` runs.

Both play four-player games and count a *turn* as one player's turn: for GNOME one
pass of ``simulate_game_instance``'s loop (GNOME has no extra throw for doubles), for
us ``state.turn`` (a turn with doubles has more than one throw; our throws per second
are printed too). Both time whole games: setting the game up and playing it. GNOME's
turns per second for its play alone are printed as well.

The two runs alternate ``--repeat`` times and the best run of each side counts (best of
k: the least disturbed by whatever else the machine does).

``--engine compiled`` runs our engine compiled with mypyc (``monopoly-bot build-engine``
first; the same games, faster); ``--engine pure`` the pure Python one; by default, the
one ``MONOPOLY_ENGINE`` chooses, as for ``monopoly-bot bench``.
"""

# ruff: noqa: T201 - a command-line script: it prints its figures

from __future__ import annotations

import argparse
import json
import os
import subprocess
import sys
import venv
from dataclasses import dataclass
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
WORKER = Path(__file__).resolve().parent / "gnome_worker.py"
DEFAULT_VENV = ROOT / "data" / "gnome-venv"
GNOME_PACKAGES = ("monopoly-simulator-test==0.0.3", "numpy", "xlsxwriter")
PLAYERS = 4


@dataclass
class Run:
    """One timed run of one side."""

    games: int
    turns: int
    seconds: float
    throws: int | None = None
    play_seconds: float | None = None

    @property
    def turns_per_second(self) -> float:
        """Turns per second over whole games."""
        return self.turns / self.seconds


def gnome_python(venv_dir: Path) -> Path:
    """The Python of a virtual environment with GNOME's simulator, created if missing."""
    python = venv_dir / "bin" / "python"
    if not python.exists():
        print(f"creating {venv_dir} with {', '.join(GNOME_PACKAGES)} (once) ...", flush=True)
        venv.create(venv_dir, with_pip=True)
        subprocess.run(
            [str(python), "-m", "pip", "install", "--quiet", "--no-deps", *GNOME_PACKAGES],
            check=True,
        )
    return python


def run_gnome(python: Path, games: int, seed: int) -> Run:
    """Play ``games`` GNOME games in a subprocess of its environment."""
    done = subprocess.run(
        [str(python), str(WORKER), "--games", str(games), "--seed", str(seed)],
        check=True,
        capture_output=True,
        text=True,
    )
    raw = json.loads(done.stdout.strip().splitlines()[-1])
    return Run(raw["games"], raw["turns"], raw["seconds"], play_seconds=raw["play_seconds"])


def choose_engine(engine: str | None) -> str:
    """Set ``MONOPOLY_ENGINE`` to ``engine`` (None: leave it as it is) before our engine is
    imported, and return which engine runs: ``pure`` or ``compiled``. Asked for the
    compiled one without a build for the current sources, exit with a message."""
    if engine is not None:
        os.environ["MONOPOLY_ENGINE"] = engine
    sys.path.insert(0, str(ROOT))
    from bot.engine import compiled

    kind = compiled.engine_kind()
    if engine == "compiled" and kind != "compiled":
        sys.exit("engine_vs_gnome.py: no compiled engine for these sources (build-engine)")
    return kind


def run_ours(games: int, seed: int) -> Run:
    """Play ``games`` of our engine's simple players (``monopoly-bot bench``)."""
    sys.path.insert(0, str(ROOT))
    from bot.engine.simulate import simulate

    result = simulate(games, PLAYERS, seed)
    return Run(result.games, result.turns, result.seconds, throws=result.throws)


def main(argv: list[str] | None = None) -> int:
    """Run both benchmarks, alternating, and print turns per second and the ratio."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=300, help="games per run (each side)")
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--repeat", type=int, default=3, help="runs per side; the best counts")
    parser.add_argument("--venv", type=Path, default=DEFAULT_VENV, help="GNOME's venv")
    parser.add_argument("--gnome-python", type=Path, help="use this Python with GNOME installed")
    parser.add_argument("--json", action="store_true", help="print the figures as JSON")
    parser.add_argument(
        "--engine",
        choices=("pure", "compiled"),
        default=None,
        help="our engine: pure Python, or compiled with mypyc (monopoly-bot build-engine "
        "first); default: as MONOPOLY_ENGINE says",
    )
    args = parser.parse_args(argv)
    engine = choose_engine(args.engine)

    python = args.gnome_python or gnome_python(args.venv)
    ours: list[Run] = []
    gnome: list[Run] = []
    for _ in range(args.repeat):
        gnome.append(run_gnome(python, args.games, args.seed))
        ours.append(run_ours(args.games, args.seed))
    best_ours = max(ours, key=lambda r: r.turns_per_second)
    best_gnome = max(gnome, key=lambda r: r.turns_per_second)
    assert best_ours.throws is not None and best_gnome.play_seconds is not None
    figures = {
        "games": args.games,
        "seed": args.seed,
        "repeat": args.repeat,
        "ours_engine": engine,
        "ours_turns_per_s": round(best_ours.turns_per_second),
        "ours_throws_per_s": round(best_ours.throws / best_ours.seconds),
        "ours_mean_turns": round(best_ours.turns / best_ours.games, 1),
        "gnome_turns_per_s": round(best_gnome.turns_per_second),
        "gnome_play_turns_per_s": round(best_gnome.turns / best_gnome.play_seconds),
        "gnome_mean_turns": round(best_gnome.turns / best_gnome.games, 1),
        "ratio": round(best_ours.turns_per_second / best_gnome.turns_per_second, 2),
        "ratio_play_only": round(
            best_ours.turns_per_second * best_gnome.play_seconds / best_gnome.turns, 2
        ),
    }
    if args.json:
        print(json.dumps(figures))
        return 0
    print(f"{args.games} four-player games per run, seed {args.seed}, best of {args.repeat}")
    print(
        f"  ours : {figures['ours_turns_per_s']:>8,} turns/s "
        f"({figures['ours_throws_per_s']:,} throws/s, {figures['ours_mean_turns']} turns/game, "
        f"{engine} engine)"
    )
    print(
        f"  GNOME: {figures['gnome_turns_per_s']:>8,} turns/s "
        f"({figures['gnome_play_turns_per_s']:,} counting its play alone, "
        f"{figures['gnome_mean_turns']} turns/game)"
    )
    print(
        f"  ours / GNOME: {figures['ratio']}x (against GNOME's play alone: "
        f"{figures['ratio_play_only']}x)"
    )
    return 0


if __name__ == "__main__":
    sys.exit(main())
