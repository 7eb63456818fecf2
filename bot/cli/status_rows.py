"""What ``monopoly-bot status`` reads of the store, without changing it: the schema version,
open and broken games and pending timers (bot/cli/status.py counts and shows them)."""

from __future__ import annotations

from datetime import datetime
from typing import TYPE_CHECKING, Any

from bot.config import one_line, store_problem

if TYPE_CHECKING:
    from bot.config import Settings
    from bot.store import GameStore, PostgresGameStore


class StatusProblem(Exception):
    """The store named by the settings cannot be looked at; the message is one line."""


#: One open or broken game for the counts: (guild id, status).
GameRow = tuple[int, str]
#: One pending timer for the counts: (guild id of its game, due at, leased until).
TimerRow = tuple[int, datetime, datetime | None]

#: The open and broken games, and the pending timers with their games' guilds (the same
#: text for SQLite and PostgreSQL).
_OPEN_GAMES = "SELECT guild_id, status FROM games WHERE status IN ('lobby', 'running', 'broken')"
_PENDING_TIMERS = (
    "SELECT g.guild_id, t.due_at, t.leased_until FROM timers AS t "
    "JOIN games AS g ON g.id = t.game_id "
    "WHERE t.fired_at IS NULL AND t.cancelled_at IS NULL"
)


async def sqlite_rows(settings: Settings) -> dict[str, Any]:
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
                # The same reading as bot.store.drivers.sqlite.schema_version, without its
                # CREATE TABLE IF NOT EXISTS (a write).
                rows = await conn.execute_fetchall(
                    "SELECT coalesce(max(version), 0) FROM schema_version"
                )
                version = int(list(rows)[0][0])
            if version != head_version():
                return {"version": version, "games": None, "timers": None}
            games = [
                (int(guild), str(status))
                for guild, status in await conn.execute_fetchall(_OPEN_GAMES)
            ]
            timers = [
                (int(guild), datetime.fromisoformat(due), _time_or_none(leased))
                for guild, due, leased in await conn.execute_fetchall(_PENDING_TIMERS)
            ]
    except sqlite3.Error as error:
        raise StatusProblem(
            f"{settings.store_setting}: cannot read the database: {one_line(error)}"
        ) from None
    return {"version": version, "games": games, "timers": timers}


async def postgres_rows(store: PostgresGameStore, settings: Settings) -> dict[str, Any]:
    """The same as :func:`sqlite_rows` for a PostgreSQL database: one connection of its
    own, one read-only transaction (PostgreSQL refuses any write in it)."""
    import asyncpg

    from bot.store.drivers.postgres import schema_version as pg_schema_version
    from bot.store.migrate import head_version

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
            games = [(int(guild), str(status)) for guild, status in await conn.fetch(_OPEN_GAMES)]
            timers = [
                (int(guild), due, leased)
                for guild, due, leased in await conn.fetch(_PENDING_TIMERS)
            ]
    except (asyncpg.PostgresError, asyncpg.InterfaceError) as error:
        raise StatusProblem(
            f"{settings.store_setting}: cannot read the database: {one_line(error)}"
        ) from None
    finally:
        await conn.close()
    return {"version": version, "games": games, "timers": timers}


async def store_rows(store: GameStore, settings: Settings) -> dict[str, Any]:
    """The same as :func:`sqlite_rows` through the store's interface (another driver).

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
        games: list[GameRow] = [(row.guild_id, str(row.status)) for row in running]
        games += [(info.guild_id, str(info.status)) for info in await store.broken_games()]
        # Only lobbies and running games have pending timers (the store's contract).
        timers: list[TimerRow] = [
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
