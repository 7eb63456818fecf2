"""The ``monopoly-bot`` command: run the bot, sync its commands, simulate games, replay
scenarios, benchmark."""

from __future__ import annotations

import argparse
import json
import sys
from pathlib import Path
from typing import TYPE_CHECKING

from bot.engine.board import available_boards
from bot.engine.rules import Rules, available_presets

if TYPE_CHECKING:
    from bot.config import Settings

ENGINE_BENCH_GAMES = 200
STORE_BENCH_GAMES = 1000
CARD_BENCH_GAMES = 100


def _cmd_run(args: argparse.Namespace) -> int:
    from bot.app import run_bot
    from bot.config import Settings

    try:
        settings = Settings.from_env()
    except ValueError as error:
        print(f"monopoly-bot: {error}", file=sys.stderr)
        return 2
    return run_bot(settings)


def _cmd_sync(args: argparse.Namespace) -> int:
    import asyncio

    import discord

    from bot.app import BAD_TOKEN_MESSAGE, NO_TOKEN_MESSAGE
    from bot.command_sync import target_name
    from bot.config import Settings
    from bot.logging_setup import configure_logging

    try:
        settings = Settings.from_env()
    except ValueError as error:
        print(f"monopoly-bot: {error}", file=sys.stderr)
        return 2
    if not settings.discord_token:
        sys.stderr.write(NO_TOKEN_MESSAGE)
        return 2
    configure_logging(settings.log_level)
    try:
        count = asyncio.run(_sync_once(settings, settings.discord_token, args.guild))
    except discord.LoginFailure:
        sys.stderr.write(BAD_TOKEN_MESSAGE)
        return 1
    except discord.HTTPException as error:
        print(f"monopoly-bot sync: Discord refused the sync: {error}", file=sys.stderr)
        return 1
    print(f"monopoly-bot: synced {count} application command(s) {target_name(args.guild)}")
    return 0


async def _sync_once(settings: Settings, token: str, guild_id: int | None) -> int:
    """Log in (which runs the bot's setup, without the gateway), force a sync, close.

    Returns the number of top-level commands synced.
    """
    import discord

    from bot.app import MonopolyBot
    from bot.command_sync import sync_commands

    # The start's own sync is off (this command syncs to its own target, once) and so
    # are the timers: this process must not play games' deadlines next to the bot.
    bot = MonopolyBot(settings, sync="off", start_timers=False)
    try:
        await bot.login(token)
        await sync_commands(bot, guild_id=guild_id, force=True)
        guild = None if guild_id is None else discord.Object(id=guild_id)
        return len(bot.tree.get_commands(guild=guild))
    finally:
        # Closes the HTTP session and the store, also after a failed login or sync.
        await bot.close()


def _guild_id(text: str) -> int:
    """A server (guild) ID on the command line: a positive integer."""
    try:
        value = int(text)
    except ValueError:
        value = 0
    if value <= 0:
        raise argparse.ArgumentTypeError(f"not a server (guild) ID: {text!r}")
    return value


def _check_players(args: argparse.Namespace) -> str | None:
    rules = _rules(args)
    if not rules.min_players <= args.players <= rules.max_players:
        return (
            f"monopoly-bot: the {rules.preset} rules are for {rules.min_players} to "
            f"{rules.max_players} players, not {args.players}"
        )
    return None


def _rules(args: argparse.Namespace) -> Rules:
    return (
        Rules.from_preset(args.preset, board=args.board)
        if args.board
        else Rules.from_preset(args.preset)
    )


def _cmd_simulate(args: argparse.Namespace) -> int:
    from bot.engine.simulate import simulate

    problem = _check_players(args)
    if problem:
        print(problem, file=sys.stderr)
        return 2

    result = simulate(
        args.games,
        args.players,
        args.seed,
        rules=_rules(args),
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


def _cmd_tournament(args: argparse.Namespace) -> int:
    from bot.engine.computer import LEVELS
    from bot.engine.computer.tournament import tournament

    lineup = [level.strip() for level in args.lineup.split(",") if level.strip()]
    unknown = [level for level in lineup if level not in LEVELS]
    if unknown or not 2 <= len(lineup) <= 10:
        print(
            f"--lineup needs 2 to 10 of {', '.join(LEVELS)}, comma-separated",
            file=sys.stderr,
        )
        return 2
    rules = _rules(args)
    if not rules.min_players <= len(lineup) <= rules.max_players:
        print(
            f"the preset {rules.preset} is for {rules.min_players} to {rules.max_players} "
            f"players, the lineup has {len(lineup)}",
            file=sys.stderr,
        )
        return 2
    result = tournament(lineup, args.games, args.seed, rules=rules, turn_cap=args.turn_cap)
    data = result.to_dict()
    if args.json:
        print(json.dumps(data, sort_keys=True))
        return 0
    print(
        f"{data['games']} games of {', '.join(lineup)}: mean {data['mean_turns']} turns, "
        f"{data['ended_at_turn_cap']} ended at the turn cap"
    )
    for level, row in data["levels"].items():
        low, high = row["ci95"]
        times = row["decision_ms"]
        print(
            f"  {level:7} win rate {row['win_rate']:.1%} (95 % CI {low:.1%}–{high:.1%}, "
            f"{row['wins']}/{row['seats_played']} seats); decision ms p50 {times['p50']} "
            f"p99 {times['p99']} max {times['max']}"
        )
    return 0


def _cmd_replay(args: argparse.Namespace) -> int:
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


def _cmd_bench(args: argparse.Namespace) -> int:
    if args.store:
        return _cmd_bench_store(args)
    if args.render:
        return _cmd_bench_render(args)
    if args.cards:
        return _cmd_bench_cards(args)
    from bot.engine.simulate import simulate

    problem = _check_players(args)
    if problem:
        print(problem, file=sys.stderr)
        return 2

    games = ENGINE_BENCH_GAMES if args.games is None else args.games
    result = simulate(games, args.players, args.seed, rules=_rules(args))
    seconds = result.seconds
    endings = ", ".join(f"{k} {v}" for k, v in sorted(result.endings.items()))
    print(
        f"monopoly-engine: {result.games} games in {seconds:.2f}s -> "
        f"{result.games / seconds:.1f} games/s, {result.turns / seconds:.0f} turns/s; "
        f"mean turns/game {result.turns / result.games:.1f}; {endings}"
    )
    return 0


def _cmd_bench_store(args: argparse.Namespace) -> int:
    import asyncio
    import tempfile

    from bot.config import DEFAULT_DB_PATH
    from bot.store.bench import bench_store

    problem = _check_players(args)
    if problem:
        print(problem, file=sys.stderr)
        return 2
    games = STORE_BENCH_GAMES if args.games is None else args.games

    def run(path: Path) -> dict:
        return asyncio.run(
            bench_store(
                path,
                games=games,
                actions=args.actions,
                seed=args.seed,
                players=args.players,
                synchronous=args.synchronous,
                rules=_rules(args),
            )
        )

    if args.db:
        figures = run(Path(args.db))
    else:
        # A scratch file next to where the bot keeps its games, so the figures are
        # for the same disk (a tmpfs /tmp would hide the cost of writing).
        DEFAULT_DB_PATH.parent.mkdir(parents=True, exist_ok=True)
        with tempfile.TemporaryDirectory(dir=DEFAULT_DB_PATH.parent, prefix="bench-") as scratch:
            figures = run(Path(scratch) / "bench.db")
    print(
        f"store: {figures['actions']} actions on a file database with {figures['games']} games: "
        f"median {figures['median_ms']:.2f} ms, p99 {figures['p99_ms']:.2f} ms "
        f"(mean {figures['mean_ms']:.2f} ms, max {figures['max_ms']:.2f} ms; "
        f"WAL, synchronous={figures['synchronous']})"
    )
    return 0


def _cmd_bench_render(args: argparse.Namespace) -> int:
    from render.bench import bench_render

    problem = _check_players(args)
    if problem:
        print(problem, file=sys.stderr)
        return 2
    print(bench_render(players=args.players, seed=args.seed, rules=_rules(args)).line())
    return 0


def _cmd_bench_cards(args: argparse.Namespace) -> int:
    from render.card_bench import bench_cards

    if not 2 <= args.players <= 6:
        print(f"the card game is for 2 to 6 players, not {args.players}", file=sys.stderr)
        return 2
    games = CARD_BENCH_GAMES if args.games is None else args.games
    for line in bench_cards(players=args.players, games=games, seed=args.seed).lines():
        print(line)
    return 0


def build_parser() -> argparse.ArgumentParser:
    """The argument parser of ``monopoly-bot``."""
    parser = argparse.ArgumentParser(prog="monopoly-bot", description=__doc__)
    sub = parser.add_subparsers(dest="command")
    sub.add_parser("run", help="run the Discord bot (the default)")
    sync = sub.add_parser(
        "sync",
        help="sync the slash commands to Discord now (globally, or to one server)",
    )
    sync.add_argument(
        "--guild",
        type=_guild_id,
        default=None,
        metavar="ID",
        help="sync to this server (guild) only: instant, for testing",
    )

    def game_options(p: argparse.ArgumentParser, games: int, *, players: bool = True) -> None:
        p.add_argument("--games", type=int, default=games)
        if players:
            p.add_argument("--players", type=int, default=4)
        p.add_argument("--seed", type=int, default=0)
        p.add_argument("--board", choices=available_boards(), default=None)
        p.add_argument("--preset", choices=available_presets(), default="classic")

    simulate = sub.add_parser("simulate", help="play complete games between simple players")
    game_options(simulate, 100)
    simulate.add_argument("--jail-strategy", choices=("leave", "stay"), default="leave")
    simulate.add_argument("--turn-cap", type=int, default=1000)
    simulate.add_argument(
        "--deadline-turn",
        type=int,
        default=150,
        help="turn at which the agreed time is up (presets that end at a deadline)",
    )
    simulate.add_argument("--json", action="store_true", help="print one JSON object")

    contest = sub.add_parser(
        "tournament", help="play seeded games between computer players, print win rates"
    )
    # The seats are the lineup: a separate --players could only contradict it.
    game_options(contest, 400, players=False)
    contest.add_argument(
        "--lineup",
        default="strong,simple,simple,simple",
        help="one level per seat: easy, simple or strong (rotated over the seats)",
    )
    contest.add_argument("--turn-cap", type=int, default=500)
    contest.add_argument("--json", action="store_true", help="print one JSON object")

    replay = sub.add_parser("replay", help="run a scenario or record file, print the state JSON")
    replay.add_argument("file")
    replay.add_argument("--pretty", action="store_true", help="indent the JSON")

    bench = sub.add_parser("bench", help="measure the engine's speed (the store's with --store)")
    game_options(bench, ENGINE_BENCH_GAMES)
    # --games defaults by mode: games played for the engine, games stored for --store.
    bench.set_defaults(games=None)
    bench.add_argument(
        "--store",
        action="store_true",
        help=f"time single actions on a file database of --games games "
        f"(default {STORE_BENCH_GAMES})",
    )
    bench.add_argument("--actions", type=int, default=2000, help="timed actions (--store)")
    bench.add_argument("--db", default=None, help="database file (--store; default: scratch)")
    bench.add_argument("--synchronous", choices=("NORMAL", "FULL"), default="NORMAL")
    bench.add_argument(
        "--render",
        action="store_true",
        help="time the board image of a mid-game state: cold and warm cache, bare PNG encode",
    )
    bench.add_argument(
        "--cards",
        action="store_true",
        help=f"the card game: --games games of simple players (default {CARD_BENCH_GAMES}), "
        "then the table, hand and round-result images",
    )
    return parser


def main(argv: list[str] | None = None) -> int:
    """Entry point of the ``monopoly-bot`` console script."""
    args = build_parser().parse_args(argv)
    command = args.command or "run"
    handler = {
        "run": _cmd_run,
        "sync": _cmd_sync,
        "simulate": _cmd_simulate,
        "replay": _cmd_replay,
        "tournament": _cmd_tournament,
        "bench": _cmd_bench,
    }[command]
    return handler(args)


if __name__ == "__main__":
    raise SystemExit(main())
