"""``monopoly-bot simulate``, ``tournament`` and ``replay``: the rules engine alone, without
Discord or the store."""

from __future__ import annotations

import argparse
import json
import sys
from pathlib import Path
from typing import Any

from bot.cli.common import game_rules, players_refused


def cmd_simulate(args: argparse.Namespace) -> int:
    """``monopoly-bot simulate``: play complete games between simple players."""
    from bot.engine.simulate import simulate

    if players_refused(args):
        return 2

    result = simulate(
        args.games,
        args.players,
        args.seed,
        rules=game_rules(args),
        jail_strategy=args.jail_strategy,
        turn_cap=args.turn_cap,
        deadline_turn=args.deadline_turn,
    )
    data = result.to_dict()
    if args.json:
        print(json.dumps(data, sort_keys=True))
    else:
        for key, value in data.items():
            print(f"{key}: {value}")
    return 0


def _lineup_refused(lineup: list[str], rules: Any) -> str | None:
    """Why ``lineup`` cannot play under ``rules``, or None."""
    from bot.engine.computer import LEVELS

    unknown = [level for level in lineup if level not in LEVELS]
    if unknown or not 2 <= len(lineup) <= 10:
        return f"--lineup needs 2 to 10 of {', '.join(LEVELS)}, comma-separated"
    if not rules.min_players <= len(lineup) <= rules.max_players:
        return (
            f"the preset {rules.preset} is for {rules.min_players} to {rules.max_players} "
            f"players, the lineup has {len(lineup)}"
        )
    return None


def suite_lineups(level: str) -> list[list[str]]:
    """The three tables ``tournament --suite LEVEL`` plays."""
    return [
        [level, "simple", "simple", "simple"],
        [level, "strong", "strong", "strong"],
        [level, "strong", "simple", "simple"],
    ]


def cmd_tournament(args: argparse.Namespace) -> int:
    """``monopoly-bot tournament``: seeded games between computer players, win rates."""
    from bot.engine.computer.tournament import tournament

    rules = game_rules(args)
    if args.suite is not None:
        lineups = suite_lineups(args.suite.strip())
    else:
        lineups = [[level.strip() for level in args.lineup.split(",") if level.strip()]]
    for lineup in lineups:
        problem = _lineup_refused(lineup, rules)
        if problem is not None:
            print(problem, file=sys.stderr)
            return 2
    tables = []
    for lineup in lineups:
        result = tournament(
            lineup, args.games, args.seed, rules=rules, turn_cap=args.turn_cap, jobs=args.jobs
        )
        tables.append({"lineup": lineup, **result.to_dict()})
    if args.json:
        if args.suite is None:  # one table: the result as it was before suites
            tables = [{k: v for k, v in tables[0].items() if k != "lineup"}]
            print(json.dumps(tables[0], sort_keys=True))
        else:
            print(json.dumps(tables, sort_keys=True))
        return 0
    for data in tables:
        _print_table(data)
    return 0


def _print_table(data: dict[str, Any]) -> None:
    """One tournament's result as text: a line per level."""
    print(
        f"{data['games']} games of {', '.join(data['lineup'])}: mean {data['mean_turns']} "
        f"turns, {data['ended_at_turn_cap']} ended at the turn cap"
    )
    for level, row in data["levels"].items():
        low, high = row["ci95"]
        times = row["decision_ms"]
        print(
            f"  {level:7} win rate {row['win_rate']:.1%} (95 % CI {low:.1%}–{high:.1%}, "
            f"{row['wins']}/{row['seats_played']} seats); decision ms p50 {times['p50']} "
            f"p99 {times['p99']} max {times['max']}"
        )


def cmd_replay(args: argparse.Namespace) -> int:
    """``monopoly-bot replay FILE``: run a scenario or record file, print the state JSON."""
    from bot.engine.errors import IllegalAction
    from bot.engine.record import RECORD_FORMAT, GameRecord, ReplayMismatch
    from bot.engine.scenario import SCENARIO_FORMAT, ScenarioError, run

    try:
        raw = json.loads(Path(args.file).read_text(encoding="utf-8"))
    except (OSError, json.JSONDecodeError) as error:
        print(f"monopoly-bot replay: cannot read {args.file}: {error}", file=sys.stderr)
        return 2
    fmt = raw.get("format") if isinstance(raw, dict) else None
    try:
        if fmt == SCENARIO_FORMAT:
            state = run(raw)
        elif fmt == RECORD_FORMAT:
            state = GameRecord.from_dict(raw).replay()
        else:
            print(
                f"monopoly-bot replay: {args.file} is neither {SCENARIO_FORMAT} "
                f"nor {RECORD_FORMAT}",
                file=sys.stderr,
            )
            return 2
    except (ScenarioError, ReplayMismatch, IllegalAction, ValueError, KeyError) as error:
        print(f"monopoly-bot replay: {error}", file=sys.stderr)
        return 1
    print(
        json.dumps(
            state.to_dict(), sort_keys=True, indent=1 if args.pretty else None, ensure_ascii=False
        )
    )
    return 0
