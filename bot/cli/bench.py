"""``monopoly-bot bench``: the engine's speed, the store's (``--store``), the images'
(``--render``, ``--recap``, ``--viewer``), the card game's (``--cards``) and a simulated
week of games over days (``--week``)."""

from __future__ import annotations

import argparse
import sys
from pathlib import Path
from typing import Any

from bot.cli.common import game_rules, players_refused, print_report
from bot.config import one_line

ENGINE_BENCH_GAMES = 200
STORE_BENCH_GAMES = 1000
STORE_BENCH_ACTIONS = 2000
STORE_BENCH_SECONDS = 3.0
#: ``bench --store --quick``: a smaller database, fewer actions, shorter runs.
QUICK_STORE_BENCH_GAMES = 100
QUICK_STORE_BENCH_ACTIONS = 300
QUICK_STORE_BENCH_SECONDS = 1.0
CARD_BENCH_GAMES = 100


def cmd_bench(args: argparse.Namespace) -> int:
    """``monopoly-bot bench``: the engine's speed (the store's, images' or card game's).

    The engine's bench names which engine ran, ``engine: pure`` or ``engine: compiled``
    (``MONOPOLY_ENGINE``, :mod:`bot.engine.compiled`), on stderr.
    """
    if args.store:
        return _cmd_bench_store(args)
    if args.render or args.recap or args.viewer:
        return _cmd_bench_render(args)
    if args.cards:
        return _cmd_bench_cards(args)
    if args.week:
        return _cmd_bench_week(args)
    from bot.engine import compiled
    from bot.engine.simulate import simulate

    if players_refused(args):
        return 2
    # On stderr: the summary line on stdout stays the one line scripts parse.
    print(f"engine: {compiled.engine_kind()}", file=sys.stderr)

    games = ENGINE_BENCH_GAMES if args.games is None else args.games
    result = simulate(games, args.players, args.seed, rules=game_rules(args))
    seconds = result.seconds
    endings = ", ".join(f"{k} {v}" for k, v in sorted(result.endings.items()))
    print(
        f"monopoly-engine: {result.games} games in {seconds:.2f}s -> "
        f"{result.games / seconds:.1f} games/s, {result.turns / seconds:.0f} turns/s; "
        f"mean turns/game {result.turns / result.games:.1f}; {endings}"
    )
    return 0


def _cmd_bench_week(args: argparse.Namespace) -> int:
    """``bench --week``: deadlines the safe default played in a simulated week, before and
    after quiet hours, jokers and standing orders (``bot/asyncplay/week.py``)."""
    from bot.asyncplay.week import WEEK_TABLES, report, simulate_week

    before, after = simulate_week(WEEK_TABLES, args.seed)
    print(f"monopoly-week: {WEEK_TABLES} tables of 4, 12 h deadline, seed {args.seed}")
    for line in report(before, after):
        print(line)
    return 0


def _cmd_bench_store(args: argparse.Namespace) -> int:
    from bot.store import StoreError
    from bot.store.bench import DRIVERS, BenchOptions, BenchRefused, report_lines, run_bench

    if players_refused(args):
        return 2
    quick = args.quick

    def chosen(value: Any, default: Any, small: Any) -> Any:
        """The option as given, else its default (a smaller one with --quick)."""
        return value if value is not None else (small if quick else default)

    url = args.database_url
    problem = None if url is None else _url_problem(url)
    if problem is not None:
        print(f"monopoly-bot bench: --database-url {problem}", file=sys.stderr)
        return 2
    drivers = DRIVERS if args.driver == "both" else (args.driver,)
    options = BenchOptions(
        games=chosen(args.games, STORE_BENCH_GAMES, QUICK_STORE_BENCH_GAMES),
        actions=chosen(args.actions, STORE_BENCH_ACTIONS, QUICK_STORE_BENCH_ACTIONS),
        seconds=chosen(args.seconds, STORE_BENCH_SECONDS, QUICK_STORE_BENCH_SECONDS),
        concurrent=args.concurrent,
        seed=args.seed,
        players=args.players,
        rules=game_rules(args),
        synchronous=args.synchronous,
        drivers=drivers,
        db=Path(args.db) if args.db else None,
        database_url=url,
    )
    try:
        report = run_bench(options)
    except (BenchRefused, StoreError) as error:
        # A bot's database, an unreachable server, a database of a newer bot.
        print(f"monopoly-bot bench: {one_line(error)}", file=sys.stderr)
        return 2
    except RuntimeError as error:  # the throwaway server or a worker process failed
        print(f"monopoly-bot bench: {error}", file=sys.stderr)
        return 1
    print_report(report, args.json, report_lines)
    skipped = [name for name in drivers if "skipped" in report["drivers"][name]]
    if skipped and args.driver != "both":
        # Asked for this driver alone, and it could not be benched.
        print(f"monopoly-bot bench: {args.driver} was not benched", file=sys.stderr)
        return 2
    return 0


def _url_problem(url: str) -> str | None:
    """Why ``--database-url`` is no PostgreSQL URL, never repeating it (it may hold a
    password); None if it is one."""
    from urllib.parse import urlsplit

    from bot.config import misplaced_password

    try:
        parts = urlsplit(url.strip())
        parts.port  # noqa: B018 - reading it checks the port
    except ValueError as error:
        return f"is not a valid URL ({error})"
    if parts.scheme.lower() not in ("postgresql", "postgres"):
        return "must be a postgresql:// URL"
    if misplaced_password(url):
        return "is not a valid URL: it has an '@' after the host (a typo in '://'?)"
    return None


def _cmd_bench_render(args: argparse.Namespace) -> int:
    """``bench --render [--recap] [--viewer]``: the board image (and the recap, and the
    replay viewer's steps) drawn."""
    from render.bench import bench_render

    if players_refused(args):
        return 2
    print(bench_render(players=args.players, seed=args.seed, rules=game_rules(args)).line())
    if args.recap:
        from render.bench import bench_recap

        print(bench_recap(players=args.players, seed=args.seed, rules=game_rules(args)).line())
    if args.viewer:
        from bot.replay_bench import bench_viewer

        print(bench_viewer(players=args.players, seed=args.seed, rules=game_rules(args)).line())
    return 0


def _cmd_bench_cards(args: argparse.Namespace) -> int:
    """``bench --cards``: card games played, then their images drawn."""
    from render.card_bench import bench_cards

    if not 2 <= args.players <= 6:
        print(f"the card game is for 2 to 6 players, not {args.players}", file=sys.stderr)
        return 2
    games = CARD_BENCH_GAMES if args.games is None else args.games
    for line in bench_cards(players=args.players, games=games, seed=args.seed).lines():
        print(line)
    return 0
