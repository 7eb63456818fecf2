"""``monopoly-bot train-win-model``: fit the expert's win model and write it (maintainers).

The games and the fit are :func:`bot.engine.computer.winmodel_training.train` (pure); this
command reads the options, writes the JSON the engine ships
(``bot/engine/data/win_model.json`` unless ``--output`` says otherwise) and prints the
held-out figures. Retrain when the model's features, the computer players or the rules
change (docs/computer-players.md).
"""

from __future__ import annotations

import argparse
import json
from pathlib import Path

from bot.engine.rules import Rules

#: Where the engine reads the model from.
SHIPPED_MODEL = Path(__file__).resolve().parents[1] / "engine" / "data" / "win_model.json"


def cmd_train_win_model(args: argparse.Namespace) -> int:
    """Play, fit, write the model; print the held-out games' figures as JSON."""
    from bot.engine.computer.winmodel_training import LINEUPS, train

    chosen = args.lineups.split(";") if args.lineups else LINEUPS
    lineups = [lineup.split(",") for lineup in chosen]
    model = train(lineups, args.games, args.seed, Rules.from_preset(args.preset), args.jobs)
    output = Path(args.output) if args.output else SHIPPED_MODEL
    output.write_text(json.dumps(model, indent=2) + "\n", encoding="utf-8")
    print(json.dumps(model["held_out"]))
    return 0
