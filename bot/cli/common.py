"""What several commands of ``monopoly-bot`` share: the rules their options choose, the
settings from the environment, a report printed as JSON or as lines."""

from __future__ import annotations

import argparse
import json
import sys
from collections.abc import Callable, Iterable
from typing import TYPE_CHECKING, Any

from bot.engine.rules import Rules

if TYPE_CHECKING:
    from bot.config import Settings


def players_refused(args: argparse.Namespace) -> bool:
    """Whether ``--players`` does not fit the rules chosen; if so, says why on stderr (one
    line)."""
    rules = game_rules(args)
    if rules.min_players <= args.players <= rules.max_players:
        return False
    print(
        f"monopoly-bot: the {rules.preset} rules are for {rules.min_players} to "
        f"{rules.max_players} players, not {args.players}",
        file=sys.stderr,
    )
    return True


def game_rules(args: argparse.Namespace) -> Rules:
    """The rules ``--preset`` and ``--board`` choose."""
    return (
        Rules.from_preset(args.preset, board=args.board)
        if args.board
        else Rules.from_preset(args.preset)
    )


def settings_from_env(command: str) -> Settings | None:
    """The bot's settings from the environment; None if they are wrong, after one line
    ``command: what is wrong`` on stderr."""
    from bot.config import Settings

    try:
        return Settings.from_env()
    except ValueError as error:
        print(f"{command}: {error}", file=sys.stderr)
        return None


def print_report(
    report: dict[str, Any], as_json: bool, lines: Callable[[dict[str, Any]], Iterable[str]]
) -> None:
    """The report as one JSON object (``--json``), else as its ``lines``."""
    if as_json:
        print(json.dumps(report, sort_keys=True))
    else:
        for line in lines(report):
            print(line)
