"""The argument parser of ``monopoly-bot``: its subcommands, their options and the checks of
the options' values."""

from __future__ import annotations

import argparse

from bot.cli.bench import (
    CARD_BENCH_GAMES,
    ENGINE_BENCH_GAMES,
    QUICK_STORE_BENCH_ACTIONS,
    QUICK_STORE_BENCH_GAMES,
    QUICK_STORE_BENCH_SECONDS,
    STORE_BENCH_ACTIONS,
    STORE_BENCH_GAMES,
    STORE_BENCH_SECONDS,
)
from bot.engine.board import available_boards
from bot.engine.rules import available_presets
from bot.heartbeat import DEFAULT_MAX_AGE
from bot.version import bot_version

#: The command's description in ``--help``.
DESCRIPTION = (
    "The ``monopoly-bot`` command: run the bot, sync its commands, print its invite link,\n"
    "show the store's status, "
    "check the running bot's health, simulate games, replay scenarios,\nexport a "
    "finished game and verify its dice, benchmark,\ncompile the engine."
)


def build_parser() -> argparse.ArgumentParser:
    """The argument parser of ``monopoly-bot``."""
    parser = argparse.ArgumentParser(prog="monopoly-bot", description=DESCRIPTION)
    parser.add_argument("--version", action="version", version=f"monopoly-bot {bot_version()}")
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
    invite = sub.add_parser(
        "invite",
        help="print the link that adds the bot to a server, with exactly the permissions it checks",
    )
    invite.add_argument(
        "--client-id",
        type=_client_id,
        default=None,
        metavar="ID",
        help="the application's id (default: the bot's id, read from DISCORD_TOKEN)",
    )

    backup = sub.add_parser(
        "backup",
        help="back the store up to a file, also while the bot runs (PostgreSQL: pg_dump)",
    )
    backup.add_argument(
        "--to",
        default=None,
        metavar="FILE",
        help="the backup file (default: backups/ next to the database, named by version and time)",
    )
    backup.add_argument("--force", action="store_true", help="replace FILE if it exists")
    restore = sub.add_parser(
        "restore",
        help="put a backup in place of the store (stop the bot first; the old file is kept)",
    )
    restore.add_argument("file", metavar="FILE", help="the backup to restore")
    restore.add_argument(
        "--force",
        action="store_true",
        help="replace a database that holds games (PostgreSQL: always needed)",
    )

    status = sub.add_parser(
        "status",
        help="show the store: driver, schema version, open games, timers (per shard if sharded)",
    )
    status.add_argument("--json", action="store_true", help="print one JSON object")
    health = sub.add_parser(
        "health",
        help="exit 0 if the running bot's heartbeat is fresh, else 1 (container health check)",
    )
    health.add_argument(
        "--max-age",
        type=_positive_seconds,
        default=DEFAULT_MAX_AGE,
        metavar="SECONDS",
        help=f"oldest heartbeat still healthy (default {DEFAULT_MAX_AGE:g})",
    )
    health.add_argument(
        "--file",
        default=None,
        metavar="PATH",
        help="the heartbeat file (default MONOPOLY_HEARTBEAT_FILE or monopoly-heartbeat in "
        "the temp directory)",
    )

    store = sub.add_parser("store", help="work on the store itself (store copy)")
    store_sub = store.add_subparsers(dest="store_command", required=True)
    copy = store_sub.add_parser(
        "copy",
        help="copy every game, timer, preference and server file into an empty database, "
        "checked by comparing exports",
    )
    copy.add_argument(
        "--from",
        dest="source",
        required=True,
        metavar="URL",
        help="sqlite:///path.db or postgresql://user:password@host:5432/database (only read)",
    )
    copy.add_argument(
        "--to",
        dest="target",
        required=True,
        metavar="URL",
        help="the same forms; must hold no games, timers, preferences or files",
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
        help="one level per seat: easy, simple, strong or expert (rotated over the seats)",
    )
    contest.add_argument(
        "--suite",
        default=None,
        metavar="LEVEL",
        help="instead of --lineup: LEVEL against three simple, against three strong, and "
        "one LEVEL, one strong, two simple; one table",
    )
    contest.add_argument("--turn-cap", type=int, default=500)
    contest.add_argument(
        "--jobs", type=int, default=1, help="processes to play in (one core each; same totals)"
    )
    contest.add_argument("--json", action="store_true", help="print one JSON object")

    export = sub.add_parser(
        "export",
        help="write a finished game's record with its seed as JSON (running games are refused)",
    )
    export.add_argument("game", type=_game_arg, metavar="GAME_ID", help="the game's number")
    export.add_argument("--out", default=None, metavar="FILE", help="write here, not to stdout")
    verify = sub.add_parser(
        "verify",
        help="recompute every throw and shuffle of an exported game from its seed",
    )
    verify.add_argument("file", help="a game record export (monopoly-bot export)")
    verify.add_argument(
        "--seed", type=_seed_arg, default=None, help="the seed (default: the file's)"
    )
    verify.add_argument(
        "--secret",
        type=_seed_arg,
        default=None,
        help="the secret a monopoly-seed/2 game committed to (default: the file's)",
    )
    verify.add_argument(
        "--game",
        type=_game_arg,
        default=None,
        metavar="ID",
        help="the game id (default: the file's)",
    )
    verify.add_argument(
        "--fingerprint",
        default=None,
        metavar="HEX",
        help="the fingerprint shown at the start, full or its 16 digits (default: the file's)",
    )

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
        help=f"the store on SQLite and PostgreSQL side by side: single actions on a database "
        f"of --games games (default {STORE_BENCH_GAMES}), then actions/s of --concurrent "
        "games played at once from one and from two processes",
    )
    bench.add_argument(
        "--actions",
        type=int,
        default=None,
        help=f"timed single actions (--store; default {STORE_BENCH_ACTIONS})",
    )
    bench.add_argument("--db", default=None, help="SQLite file (--store; default: scratch)")
    bench.add_argument("--synchronous", choices=("NORMAL", "FULL"), default="NORMAL")
    bench.add_argument(
        "--database-url",
        default=None,
        metavar="URL",
        help="PostgreSQL database to bench (--store; a database of its own: its games are "
        "left there, finished); default: a throwaway server on 127.0.0.1 if PostgreSQL is "
        "installed",
    )
    bench.add_argument(
        "--driver",
        choices=("both", "sqlite", "postgresql"),
        default="both",
        help="which store to bench (--store)",
    )
    bench.add_argument(
        "--concurrent",
        type=_games_list,
        default=(10, 100),
        metavar="N,N",
        help="games played at once in the throughput runs (--store; default 10,100)",
    )
    bench.add_argument(
        "--seconds",
        type=_positive_seconds,
        default=None,
        help=f"wall time of each throughput run (--store; default {STORE_BENCH_SECONDS:g})",
    )
    bench.add_argument(
        "--quick",
        action="store_true",
        help=f"smaller --store defaults: {QUICK_STORE_BENCH_GAMES} games, "
        f"{QUICK_STORE_BENCH_ACTIONS} actions, {QUICK_STORE_BENCH_SECONDS:g} s runs",
    )
    bench.add_argument("--json", action="store_true", help="print one JSON object (--store)")
    bench.add_argument(
        "--render",
        action="store_true",
        help="time the board image of a mid-game state: cold and warm cache, bare PNG encode",
    )
    bench.add_argument(
        "--recap",
        action="store_true",
        help="with --render (implied): also the end-of-game recap of a whole game of simple "
        "players (replayed and drawn) next to that game's board image",
    )
    bench.add_argument(
        "--viewer",
        action="store_true",
        help="with --render (implied): also steps of the replay viewer through a whole game "
        "(frame and board) next to one turn message's board image",
    )
    bench.add_argument(
        "--cards",
        action="store_true",
        help=f"the card game: --games games of simple players (default {CARD_BENCH_GAMES}), "
        "then the table, hand and round-result images",
    )
    bench.add_argument(
        "--week",
        action="store_true",
        help="a simulated week of four tables with absent members in two time zones: how "
        "often the safe default plays, before and after quiet hours, jokers and orders",
    )

    build_engine = sub.add_parser(
        "build-engine",
        help="compile the engine with mypyc (optional; needs the [compiled] extra and a C "
        "compiler), then run it with MONOPOLY_ENGINE=compiled",
    )
    build_engine.add_argument(
        "--build-dir",
        default=None,
        metavar="DIR",
        help="where builds go (default MONOPOLY_ENGINE_BUILD_DIR, else "
        "$XDG_CACHE_HOME/monopoly-bot or ~/.cache/monopoly-bot); the bot reads "
        "MONOPOLY_ENGINE_BUILD_DIR",
    )
    build_engine.add_argument(
        "--force", action="store_true", help="build again even if the build is up to date"
    )
    train = sub.add_parser(
        "train-win-model",
        help="fit the expert's win model on seeded games and write it (for maintainers)",
    )
    train.add_argument("--games", type=int, default=2800, help="games, split among the lineups")
    train.add_argument("--seed", type=int, default=9)
    train.add_argument("--jobs", type=int, default=1, help="processes (one core each)")
    train.add_argument("--preset", default="classic")
    train.add_argument(
        "--lineups",
        default=None,
        help="lineups separated by ';' (levels by ','); default: the shipped model's tables",
    )
    train.add_argument(
        "--output", default=None, metavar="FILE", help="default bot/engine/data/win_model.json"
    )
    return parser


def _positive_seconds(text: str) -> float:
    """``--max-age``, ``--seconds``: a positive number of seconds."""
    try:
        value = float(text)
    except ValueError:
        value = 0.0
    if not value > 0:
        raise argparse.ArgumentTypeError(f"not a positive number of seconds: {text!r}")
    return value


def _positive_int(text: str, what: str, digits: str | None = None) -> int:
    """``digits`` (by default ``text`` itself) as a positive whole number; else an error
    naming ``what`` and the ``text`` given."""
    try:
        value = int(text if digits is None else digits)
    except ValueError:
        value = 0
    if value <= 0:
        raise argparse.ArgumentTypeError(f"not {what}: {text!r}")
    return value


def _guild_id(text: str) -> int:
    """A server (guild) ID on the command line: a positive integer."""
    return _positive_int(text, "a server (guild) ID")


def _client_id(text: str) -> int:
    """``--client-id``: an application (client) ID, a positive integer."""
    return _positive_int(text, "an application (client) ID")


def _seed_arg(text: str) -> int:
    """``--seed``: a whole number, decimal or ``0x`` hex."""
    try:
        return int(text, 0)
    except ValueError:
        raise argparse.ArgumentTypeError(f"not a seed: {text!r}") from None


def _game_arg(text: str) -> int:
    """A game's number: a positive whole number (``#12`` as Discord shows it is fine)."""
    return _positive_int(text, "a game number", text.strip().lstrip("#"))


def _games_list(text: str) -> tuple[int, ...]:
    """``--concurrent``: numbers of games, comma-separated, each at least 1."""
    try:
        values = tuple(int(part) for part in text.split(",") if part.strip())
    except ValueError:
        values = ()
    if not values or min(values) < 1:
        raise argparse.ArgumentTypeError(f"not a list of numbers of games: {text!r}")
    return values
