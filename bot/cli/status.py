"""``monopoly-bot status`` (the store: driver, schema version, open games, timers, per shard
if sharded) and ``monopoly-bot health`` (the running bot's heartbeat)."""

from __future__ import annotations

import argparse
import sys
from collections.abc import Iterable
from datetime import UTC, datetime
from pathlib import Path
from typing import TYPE_CHECKING, Any

from bot.cli.common import print_report, settings_from_env
from bot.cli.status_rows import (
    GameRow,
    StatusProblem,
    TimerRow,
    postgres_rows,
    sqlite_rows,
    store_rows,
)
from bot.config import one_line

if TYPE_CHECKING:
    from bot.config import Settings


def cmd_status(args: argparse.Namespace) -> int:
    """``monopoly-bot status [--json]``: the store's driver, schema, games and timers."""
    import asyncio

    from bot.aiosqlite_threads import threads_ended_after

    settings = settings_from_env("monopoly-bot status")
    if settings is None:
        return 2
    try:
        report = asyncio.run(threads_ended_after(store_status(settings)))
    except StatusProblem as problem:
        print(f"monopoly-bot status: {problem}", file=sys.stderr)
        return 2
    print_report(report, args.json, status_lines)
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
        found = await sqlite_rows(settings)
        description: dict[str, Any] = {"driver": "sqlite", "path": str(settings.db_path)}
        code_version = head_version()
    elif isinstance(store, PostgresGameStore):
        found = await postgres_rows(store, settings)
        description = {"driver": "postgresql", "where": store.where, "url": redact_url(store.url)}
        code_version = head_version("postgres")
    else:
        found = await store_rows(store, settings)
        description = {
            "driver": type(store).__name__,
            "url": redact_url(settings.database_url or ""),
        }
        code_version = found.pop("code_version")
    version = found["version"]
    if version is not None and code_version is not None and version > code_version:
        from bot.store.migrate import newer_than_code

        raise StatusProblem(f"{settings.store_setting}: {newer_than_code(version, code_version)}")
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


def _free_at(timer: TimerRow) -> datetime:
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


def _timer_counts(timers: list[TimerRow], now: datetime) -> dict[str, Any]:
    """Pending timers, those due now (due and not leased) and when the next can be taken."""
    free = [_free_at(timer) for timer in timers]
    return {
        "pending": len(timers),
        "due": sum(1 for moment in free if moment <= now),
        "next_due_at": min(free).isoformat() if free else None,
    }


def _shard_counts(
    games: list[GameRow],
    timers: list[TimerRow],
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
    """``1 lobby``, ``2 lobbies``."""
    return f"{count} {one if count == 1 else many}"


# -- health ---------------------------------------------------------------------------------


def cmd_health(args: argparse.Namespace) -> int:
    """``monopoly-bot health``: exit 0 if the running bot's heartbeat is fresh, else 1."""
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
