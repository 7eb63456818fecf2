"""The ``monopoly-bot`` command: run the bot, sync its commands, show the store's status,
check the running bot's health, simulate games, replay scenarios, export a finished game and
verify its dice, benchmark."""

from __future__ import annotations

import argparse
import json
import sys
from collections.abc import Iterable
from datetime import UTC, datetime
from pathlib import Path
from typing import TYPE_CHECKING, Any

from bot.config import one_line, store_problem
from bot.engine.board import available_boards
from bot.engine.rules import Rules, available_presets
from bot.heartbeat import DEFAULT_MAX_AGE

if TYPE_CHECKING:
    from bot.config import Settings
    from bot.store import GameStore, PostgresGameStore

ENGINE_BENCH_GAMES = 200
STORE_BENCH_GAMES = 1000
STORE_BENCH_ACTIONS = 2000
STORE_BENCH_SECONDS = 3.0
#: ``bench --store --quick``: a smaller database, fewer actions, shorter runs.
QUICK_STORE_BENCH_GAMES = 100
QUICK_STORE_BENCH_ACTIONS = 300
QUICK_STORE_BENCH_SECONDS = 1.0
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


# -- status -----------------------------------------------------------------------------------


class StatusProblem(Exception):
    """The store named by the settings cannot be looked at; the message is one line."""


def _cmd_status(args: argparse.Namespace) -> int:
    import asyncio

    from bot.config import Settings

    try:
        settings = Settings.from_env()
    except ValueError as error:
        print(f"monopoly-bot status: {error}", file=sys.stderr)
        return 2
    try:
        report = asyncio.run(store_status(settings))
    except StatusProblem as problem:
        print(f"monopoly-bot status: {problem}", file=sys.stderr)
        return 2
    if args.json:
        print(json.dumps(report, sort_keys=True))
    else:
        for line in status_lines(report):
            print(line)
    return 0


async def store_status(settings: Settings, *, now: datetime | None = None) -> dict[str, Any]:
    """What ``monopoly-bot status`` shows, as one JSON-ready dict (see :func:`status_lines`).

    Looks at the store without logging in to Discord, and without changing it: a SQLite
    file is read through a read-only connection, a PostgreSQL database in a read-only
    transaction. Nothing is created, migrated or repaired (an older schema is shown, not
    migrated), and the running bot is not held up. A driver this command does not know
    is opened as the bot opens it and read through the store's interface. Raises
    :class:`StatusProblem` with one line naming the setting for a wrong URL scheme, an
    unreachable server, a missing or unreadable file, or a database migrated by a newer
    bot.
    """
    from bot.config import redact_url
    from bot.store import PostgresGameStore, SqliteGameStore, store_for
    from bot.store.migrate import head_version

    moment = now if now is not None else datetime.now(UTC)
    try:
        store = store_for(settings)
    except ValueError as error:
        raise StatusProblem(one_line(error)) from None
    code_version: int | None
    if settings.database_url is None and isinstance(store, SqliteGameStore):
        found = await _sqlite_rows(settings)
        description: dict[str, Any] = {"driver": "sqlite", "path": str(settings.db_path)}
        code_version = head_version()
    elif isinstance(store, PostgresGameStore):
        found = await _postgres_rows(store, settings)
        description = {"driver": "postgresql", "where": store.where, "url": redact_url(store.url)}
        code_version = head_version("postgres")
    else:
        found = await _store_rows(store, settings)
        description = {
            "driver": type(store).__name__,
            "url": redact_url(settings.database_url or ""),
        }
        code_version = found.pop("code_version")
    version = found["version"]
    if version is not None and code_version is not None and version > code_version:
        raise StatusProblem(
            f"{settings.store_setting}: the database has schema version {version}, newer "
            f"than this bot's {code_version}; update the bot"
        )
    report: dict[str, Any] = {
        "now": moment.isoformat(),
        "store": description,
        "schema": {"database": version, "code": code_version},
        "games": None,
        "timers": None,
        "shards": None,
    }
    if found["games"] is None:
        return report  # an older schema: the bot migrates it at its next start
    games, timers = found["games"], found["timers"]
    report["games"] = _game_counts(status for _, status in games)
    report["timers"] = _timer_counts(timers, moment)
    if settings.shard_count is not None and settings.shard_ids is not None:
        report["shards"] = _shard_counts(
            games, timers, moment, settings.shard_count, settings.shard_ids
        )
    return report


#: One open or broken game for the counts: (guild id, status).
_GameRow = tuple[int, str]
#: One pending timer for the counts: (guild id of its game, due at, leased until).
_TimerRow = tuple[int, datetime, datetime | None]


async def _sqlite_rows(settings: Settings) -> dict[str, Any]:
    """The schema version, open and broken games and pending timers of the SQLite file,
    read through a read-only connection (``games``/``timers`` None below the code's
    schema, whose columns the queries need)."""
    import sqlite3

    import aiosqlite

    from bot.store.migrate import head_version

    path = settings.db_path
    if not path.is_file():
        raise StatusProblem(
            f"{settings.store_setting}: there is no database file (the bot creates it at "
            "its first start)"
        )
    # mode=ro: this connection cannot write, so looking never changes the store; the
    # URI form needs the path percent-encoded, which as_uri() does.
    uri = f"{path.resolve().as_uri()}?mode=ro"
    try:
        async with aiosqlite.connect(uri, uri=True) as conn:
            await conn.execute("PRAGMA busy_timeout = 5000")
            tables = {
                row[0]
                for row in await conn.execute_fetchall(
                    "SELECT name FROM sqlite_master WHERE type = 'table'"
                )
            }
            version = 0
            if "schema_version" in tables:
                # The same reading as bot.store.migrate.schema_version, without its
                # CREATE TABLE IF NOT EXISTS (a write).
                rows = await conn.execute_fetchall(
                    "SELECT coalesce(max(version), 0) FROM schema_version"
                )
                version = int(list(rows)[0][0])
            if version != head_version():
                return {"version": version, "games": None, "timers": None}
            games = [
                (int(guild), str(status))
                for guild, status in await conn.execute_fetchall(
                    "SELECT guild_id, status FROM games "
                    "WHERE status IN ('lobby', 'running', 'broken')"
                )
            ]
            timers = [
                (int(guild), datetime.fromisoformat(due), _time_or_none(leased))
                for guild, due, leased in await conn.execute_fetchall(
                    "SELECT g.guild_id, t.due_at, t.leased_until FROM timers AS t "
                    "JOIN games AS g ON g.id = t.game_id "
                    "WHERE t.fired_at IS NULL AND t.cancelled_at IS NULL"
                )
            ]
    except sqlite3.Error as error:
        raise StatusProblem(
            f"{settings.store_setting}: cannot read the database: {one_line(error)}"
        ) from None
    return {"version": version, "games": games, "timers": timers}


async def _postgres_rows(store: PostgresGameStore, settings: Settings) -> dict[str, Any]:
    """The same as :func:`_sqlite_rows` for a PostgreSQL database: one connection of its
    own, one read-only transaction (PostgreSQL refuses any write in it)."""
    import asyncpg

    from bot.store.migrate import head_version, pg_schema_version

    try:
        conn = await asyncpg.connect(store.url, timeout=store.connect_timeout)
    except (OSError, TimeoutError, asyncpg.PostgresError, asyncpg.InterfaceError) as error:
        raise StatusProblem(
            f"{settings.store_setting}: cannot reach the database ({store.where}): "
            f"{type(error).__name__}: {one_line(error)}"
        ) from None
    try:
        async with conn.transaction(readonly=True):
            version = await pg_schema_version(conn)
            if version != head_version("postgres"):
                return {"version": version, "games": None, "timers": None}
            games = [
                (int(guild), str(status))
                for guild, status in await conn.fetch(
                    "SELECT guild_id, status FROM games "
                    "WHERE status IN ('lobby', 'running', 'broken')"
                )
            ]
            timers = [
                (int(guild), due, leased)
                for guild, due, leased in await conn.fetch(
                    "SELECT g.guild_id, t.due_at, t.leased_until FROM timers AS t "
                    "JOIN games AS g ON g.id = t.game_id "
                    "WHERE t.fired_at IS NULL AND t.cancelled_at IS NULL"
                )
            ]
    except (asyncpg.PostgresError, asyncpg.InterfaceError) as error:
        raise StatusProblem(
            f"{settings.store_setting}: cannot read the database: {one_line(error)}"
        ) from None
    finally:
        await conn.close()
    return {"version": version, "games": games, "timers": timers}


async def _store_rows(store: GameStore, settings: Settings) -> dict[str, Any]:
    """The same as :func:`_sqlite_rows` through the store's interface (another driver).

    The store is opened as the bot opens it (so it may migrate the database, and
    ``unfinished_games`` sets aside a game whose state cannot be read, as a start of the
    bot would): only for a driver without a read-only path here. The schema version
    comes from the store's ``schema_version()`` and the code's from its
    ``head_version()`` if it has them.
    """
    import sqlite3

    from bot.store import StoreError

    try:
        await store.open()
    except StoreError as error:
        raise StatusProblem(store_problem(settings, error)) from None
    except (OSError, sqlite3.Error) as error:
        raise StatusProblem(store_problem(settings, error, "cannot open the database")) from None
    try:
        version = await _optional_call(store, "schema_version")
        code_version = await _optional_call(store, "head_version")
        running = await store.unfinished_games()
        games: list[_GameRow] = [(row.guild_id, str(row.status)) for row in running]
        games += [(info.guild_id, str(info.status)) for info in await store.broken_games()]
        # Only lobbies and running games have pending timers (the store's contract).
        timers: list[_TimerRow] = [
            (row.guild_id, timer.due_at, timer.leased_until)
            for row in running
            for timer in await store.pending_timers(row.id)
        ]
    finally:
        await store.close()
    return {"version": version, "code_version": code_version, "games": games, "timers": timers}


async def _optional_call(target: object, name: str) -> int | None:
    """``target.name()`` (awaited if it is a coroutine) as an int; None if there is none."""
    import inspect

    method = getattr(target, name, None)
    if not callable(method):
        return None
    value = method()
    if inspect.isawaitable(value):
        value = await value
    return None if value is None else int(value)


def _time_or_none(text: str | None) -> datetime | None:
    return None if text is None else datetime.fromisoformat(text)


def _free_at(timer: _TimerRow) -> datetime:
    """When a pending timer can be taken: its due time, or the end of its lease if later
    (the store's definition of ``next_due_at``)."""
    _, due, leased = timer
    return due if leased is None or leased < due else leased


def _game_counts(statuses: Iterable[str]) -> dict[str, int]:
    """Lobbies, running, open (the two together) and broken games."""
    found = list(statuses)
    lobbies, running = found.count("lobby"), found.count("running")
    return {
        "open": lobbies + running,
        "lobbies": lobbies,
        "running": running,
        "broken": found.count("broken"),
    }


def _timer_counts(timers: list[_TimerRow], now: datetime) -> dict[str, Any]:
    """Pending timers, those due now (due and not leased) and when the next can be taken."""
    free = [_free_at(timer) for timer in timers]
    return {
        "pending": len(timers),
        "due": sum(1 for moment in free if moment <= now),
        "next_due_at": min(free).isoformat() if free else None,
    }


def _shard_counts(
    games: list[_GameRow],
    timers: list[_TimerRow],
    now: datetime,
    shard_count: int,
    held: tuple[int, ...],
) -> dict[str, Any]:
    """Per shard of the fleet: its open games and timers, and whether this process holds it."""
    from bot.config import shard_of

    per_shard = []
    for shard in range(shard_count):
        counts = _game_counts(
            status for guild, status in games if shard_of(guild, shard_count) == shard
        )
        due = _timer_counts([t for t in timers if shard_of(t[0], shard_count) == shard], now)
        per_shard.append(
            {
                "shard": shard,
                "held": shard in held,
                "open_games": counts["open"],
                "lobbies": counts["lobbies"],
                "running": counts["running"],
                "pending_timers": due["pending"],
                "due_timers": due["due"],
                "next_due_at": due["next_due_at"],
            }
        )
    return {"count": shard_count, "held": list(held), "per_shard": per_shard}


def status_lines(report: dict[str, Any]) -> list[str]:
    """The report of :func:`store_status` as the lines ``monopoly-bot status`` prints."""
    store = report["store"]
    if store["driver"] == "sqlite":
        where = f"sqlite {store['path']}"
    elif store["driver"] == "postgresql":
        where = f"postgresql {store['where']}"
    else:
        where = f"{store['driver']} {store['url']}"
    schema = report["schema"]
    database = "unknown" if schema["database"] is None else schema["database"]
    code = "unknown" if schema["code"] is None else schema["code"]
    lines = [
        f"store:   {where}",
        f"schema:  version {database} (this bot: {code})",
    ]
    games, timers = report["games"], report["timers"]
    if games is None or timers is None:
        behind = (schema["code"] or 0) - (schema["database"] or 0)
        lines.append(
            f"games:   not counted: {behind} migration(s) to apply, which the bot does at "
            "its next start"
        )
        return lines
    lines.append(
        f"games:   {games['open']} open ({_plural(games['lobbies'], 'lobby', 'lobbies')}, "
        f"{games['running']} running), {games['broken']} broken"
    )
    upcoming = timers["next_due_at"]
    lines.append(
        f"timers:  {timers['pending']} pending, {timers['due']} due now; next "
        f"{_seconds(upcoming) if upcoming else '-'} (now {_seconds(report['now'])})"
    )
    shards = report["shards"]
    if shards is not None:
        held = ",".join(str(shard) for shard in shards["held"])
        lines.append(
            f"shards:  {shards['count']} in the fleet; these settings hold {held} (marked *)"
        )
        for row in shards["per_shard"]:
            mark = "*" if row["held"] else " "
            lines.append(
                f"  {mark} shard {row['shard']}: {row['open_games']} open "
                f"({_plural(row['lobbies'], 'lobby', 'lobbies')}, {row['running']} running), "
                f"timers {row['pending_timers']} pending, {row['due_timers']} due now"
            )
    return lines


def _seconds(moment: str) -> str:
    """An ISO time of the report without its fractions of a second, for reading."""
    return datetime.fromisoformat(moment).isoformat(timespec="seconds")


def _plural(count: int, one: str, many: str) -> str:
    return f"{count} {one if count == 1 else many}"


# -- store copy -------------------------------------------------------------------------------


def _cmd_store(args: argparse.Namespace) -> int:
    """``monopoly-bot store copy --from URL --to URL``: move every game, timer, preference,
    server file and bot record from one store to another, checked (bot/store/copy.py).

    Exit code 0 with a summary line; 2 with one line if the copy is refused before
    anything is written (a bad URL, a missing or unreachable database, a source of
    another schema version, a target that is not empty); 1 if loading or the check
    fails (the target's transaction is rolled back).
    """
    import asyncio

    from bot.store.copy import CopyFailed, CopyRefused, copy_store, parse_store_url

    try:
        source = parse_store_url(args.source, "--from")
        target = parse_store_url(args.target, "--to")
    except ValueError as error:
        print(f"monopoly-bot store copy: {error}", file=sys.stderr)
        return 2
    try:
        report = asyncio.run(copy_store(source, target))
    except CopyRefused as problem:
        print(f"monopoly-bot store copy: {problem}", file=sys.stderr)
        return 2
    except CopyFailed as problem:
        print(f"monopoly-bot store copy: {problem}", file=sys.stderr)
        return 1
    print(f"monopoly-bot store copy: {report.line()}")
    return 0


# -- export and verify: dice you can check (bot/fairness.py, docs/fair-dice.md) ---------------


class ExportRefused(Exception):
    """A game that cannot (or must not) be exported; the message is one line."""


def _cmd_export(args: argparse.Namespace) -> int:
    """``monopoly-bot export GAME_ID [--out FILE]``: a finished game's record with its seed.

    Exit code 0; 2 with one line if refused (bad configuration, no such game, a game that
    is not finished: its record holds the dice still to come, so it never leaves the store).
    """
    import asyncio

    from bot.config import Settings

    try:
        settings = Settings.from_env()
        export = asyncio.run(export_game(settings, args.game))
    except (ValueError, ExportRefused) as error:
        print(f"monopoly-bot export: {one_line(error)}", file=sys.stderr)
        return 2
    text = json.dumps(export, sort_keys=True, ensure_ascii=False) + "\n"
    if args.out is None:
        sys.stdout.write(text)
        return 0
    try:
        Path(args.out).write_text(text, encoding="utf-8")
    except OSError as error:
        print(f"monopoly-bot export: cannot write {args.out}: {error}", file=sys.stderr)
        return 2
    print(
        f"monopoly-bot export: game {args.game} ({len(export['actions'])} actions) written "
        f"to {args.out}",
        file=sys.stderr,
    )
    return 0


async def export_game(settings: Settings, game_id: int) -> dict[str, Any]:
    """A finished game as a ``monopoly-record/1`` export with its seed.

    The store's record (start and every action with its dice), plus ``final`` (the stored
    end state) and, if the game kept its seed, ``fairness``: ``scheme``, ``game_id``,
    ``seed`` and ``fingerprint`` (see docs/fair-dice.md). Only a finished game: a running
    (or broken, or lobby) game's start state holds the generator, which tells every throw
    to come, so :class:`ExportRefused` is raised for it, as for a game that does not exist
    or a store that cannot be opened. The store is opened as the bot opens it.
    """
    import sqlite3

    from bot.fairness import export_fairness
    from bot.store import GameStatus, StoreError, store_for

    try:
        store = store_for(settings)
    except ValueError as error:
        raise ExportRefused(one_line(error)) from None
    if settings.database_url is None and not settings.db_path.is_file():
        raise ExportRefused(f"{settings.store_setting}: there is no database file")
    try:
        await store.open()
    except (StoreError, OSError, sqlite3.Error) as error:
        raise ExportRefused(store_problem(settings, error, "cannot open the database")) from None
    try:
        try:
            row = await store.load(game_id)
        except StoreError as error:  # not found, or set aside as unreadable
            raise ExportRefused(f"game {game_id}: {one_line(error)}") from None
        if row.status != GameStatus.FINISHED:
            raise ExportRefused(
                f"game {game_id} is {row.status}: only a finished game can be exported (a "
                "running game's record holds the dice still to come)"
            )
        if row.state is None:
            raise ExportRefused(f"game {game_id} never started: there is nothing to export")
        record = await store.record(game_id)
    finally:
        await store.close()
    export = record.to_dict()
    export["final"] = row.state.to_dict()
    fairness = export_fairness(row.settings, game_id)
    if fairness is not None:
        export["fairness"] = fairness
    return export


def _cmd_verify(args: argparse.Namespace) -> int:
    """``monopoly-bot verify FILE [--seed S] [--game ID] [--fingerprint HEX]``.

    Recomputes every throw and shuffle of the exported game from its seed (the file's
    ``fairness`` object, or the options, which win). Exit code 0 and "all N throws match";
    1 naming the first mismatch; 2 for a file that is not a game record, or no seed.
    """
    from bot.fairness import verify

    try:
        raw = json.loads(Path(args.file).read_text(encoding="utf-8"))
    except (OSError, UnicodeDecodeError, json.JSONDecodeError) as error:
        print(f"monopoly-bot verify: cannot read {args.file}: {error}", file=sys.stderr)
        return 2
    if not isinstance(raw, dict):
        print(f"monopoly-bot verify: {args.file} is not a game record", file=sys.stderr)
        return 2
    fairness = raw.get("fairness") if isinstance(raw.get("fairness"), dict) else {}
    seed = args.seed if args.seed is not None else fairness.get("seed")
    game = args.game if args.game is not None else fairness.get("game_id")
    committed = args.fingerprint if args.fingerprint is not None else fairness.get("fingerprint")
    if seed is None or game is None:
        print(
            f"monopoly-bot verify: {args.file} names no {'seed' if seed is None else 'game id'} "
            "(an export of a finished game has them in `fairness`; a running game's never): "
            "give --seed and --game",
            file=sys.stderr,
        )
        return 2
    final = raw.get("final")
    try:
        if committed is not None and not isinstance(committed, str):
            raise ValueError("the fingerprint is not text")
        result = verify(raw, seed, game, fingerprint=committed, final=final)
    except ValueError as error:
        print(f"monopoly-bot verify: {args.file}: {one_line(error)}", file=sys.stderr)
        return 2
    kind = "the card game" if result.game == "cards" else "MONOPOLY"
    print(f"game {result.game_id} ({kind}): seed {result.seed}, fingerprint {result.fingerprint}")
    print(result.summary())
    return 0 if result.ok else 1


def _seed_arg(text: str) -> int:
    """``--seed``: a whole number, decimal or ``0x`` hex."""
    try:
        return int(text, 0)
    except ValueError:
        raise argparse.ArgumentTypeError(f"not a seed: {text!r}") from None


def _game_arg(text: str) -> int:
    """A game's number: a positive whole number (``#12`` as Discord shows it is fine)."""
    try:
        value = int(text.strip().lstrip("#"))
    except ValueError:
        value = 0
    if value <= 0:
        raise argparse.ArgumentTypeError(f"not a game number: {text!r}")
    return value


# -- health ---------------------------------------------------------------------------------


def _cmd_health(args: argparse.Namespace) -> int:
    from bot.heartbeat import check_heartbeat

    if args.file is not None:
        path = Path(args.file)
    else:
        from bot.config import Settings

        try:
            path = Settings.from_env().heartbeat_file
        except ValueError as error:
            # Exit 1, not 2: Docker reserves 2, and a bot with bad settings is not running.
            print(f"unhealthy: {error}", file=sys.stderr)
            return 1
    health = check_heartbeat(path, max_age=args.max_age)
    print(health.line, file=sys.stdout if health.healthy else sys.stderr)
    return 0 if health.healthy else 1


def _max_age(text: str) -> float:
    """``--max-age``: a positive number of seconds."""
    try:
        value = float(text)
    except ValueError:
        value = 0.0
    if not value > 0:
        raise argparse.ArgumentTypeError(f"not a positive number of seconds: {text!r}")
    return value


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
    if args.render or args.recap:
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
    from bot.store import StoreError
    from bot.store.bench import DRIVERS, BenchOptions, BenchRefused, report_lines, run_bench

    problem = _check_players(args)
    if problem:
        print(problem, file=sys.stderr)
        return 2
    quick = args.quick

    def chosen(value: Any, default: Any, small: Any) -> Any:
        """The option as given, else its default (a smaller one with --quick)."""
        return value if value is not None else (small if quick else default)

    url = args.database_url
    if url is not None and not url.strip().lower().startswith(("postgresql://", "postgres://")):
        print("monopoly-bot bench: --database-url must be a postgresql:// URL", file=sys.stderr)
        return 2
    drivers = DRIVERS if args.driver == "both" else (args.driver,)
    options = BenchOptions(
        games=chosen(args.games, STORE_BENCH_GAMES, QUICK_STORE_BENCH_GAMES),
        actions=chosen(args.actions, STORE_BENCH_ACTIONS, QUICK_STORE_BENCH_ACTIONS),
        seconds=chosen(args.seconds, STORE_BENCH_SECONDS, QUICK_STORE_BENCH_SECONDS),
        concurrent=args.concurrent,
        seed=args.seed,
        players=args.players,
        rules=_rules(args),
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
    if args.json:
        print(json.dumps(report, sort_keys=True))
    else:
        for line in report_lines(report):
            print(line)
    skipped = [name for name in drivers if "skipped" in report["drivers"][name]]
    if skipped and args.driver != "both":
        # Asked for this driver alone, and it could not be benched.
        print(f"monopoly-bot bench: {args.driver} was not benched", file=sys.stderr)
        return 2
    return 0


def _games_list(text: str) -> tuple[int, ...]:
    """``--concurrent``: numbers of games, comma-separated, each at least 1."""
    try:
        values = tuple(int(part) for part in text.split(",") if part.strip())
    except ValueError:
        values = ()
    if not values or min(values) < 1:
        raise argparse.ArgumentTypeError(f"not a list of numbers of games: {text!r}")
    return values


def _seconds_arg(text: str) -> float:
    """``--seconds``: a positive number."""
    try:
        value = float(text)
    except ValueError:
        value = 0.0
    if not value > 0:
        raise argparse.ArgumentTypeError(f"not a positive number of seconds: {text!r}")
    return value


def _cmd_bench_render(args: argparse.Namespace) -> int:
    from render.bench import bench_render

    problem = _check_players(args)
    if problem:
        print(problem, file=sys.stderr)
        return 2
    print(bench_render(players=args.players, seed=args.seed, rules=_rules(args)).line())
    if args.recap:
        from render.bench import bench_recap

        print(bench_recap(players=args.players, seed=args.seed, rules=_rules(args)).line())
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
        type=_max_age,
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
        help="one level per seat: easy, simple or strong (rotated over the seats)",
    )
    contest.add_argument("--turn-cap", type=int, default=500)
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
        type=_seconds_arg,
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
        "status": _cmd_status,
        "health": _cmd_health,
        "store": _cmd_store,
        "simulate": _cmd_simulate,
        "replay": _cmd_replay,
        "export": _cmd_export,
        "verify": _cmd_verify,
        "tournament": _cmd_tournament,
        "bench": _cmd_bench,
    }[command]
    return handler(args)


if __name__ == "__main__":
    raise SystemExit(main())
