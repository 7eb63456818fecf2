"""Where games live between actions and across restarts.

:class:`GameStore` is the interface the cogs use. :class:`SqliteGameStore` keeps games in
one SQLite file (``MONOPOLY_DB_PATH``, default ``data/monopoly.db``), the default for a
bot that is one process; :class:`PostgresGameStore` keeps them in a PostgreSQL database
(``MONOPOLY_DATABASE_URL``) that several processes, on several machines, share. Both give
the same guarantees: every method of the contract is written once, in SQL both run
(``bot/store/sql.py``, ``sql_timers.py``, ``sql_tables.py``), and a driver is a folder
under ``bot/store/drivers/`` that says only what differs (``sql_base.py`` lists what).
"""

from __future__ import annotations

import asyncio
import logging
from datetime import UTC, datetime
from functools import partial
from pathlib import Path
from typing import Any

from bot.config import Settings
from bot.store.base import (
    ApplyResult,
    BrokenGameHook,
    GameInfo,
    GameRow,
    GameStatus,
    GameStore,
    Timer,
)
from bot.store.drivers.postgres import PostgresGameStore
from bot.store.drivers.sqlite import SqliteGameStore
from bot.store.errors import (
    ChannelBusy,
    GameBroken,
    GameNotFound,
    GameNotRunning,
    InvalidRecord,
    SchemaError,
    SettingsConflict,
    StaleAction,
    StoreError,
    StoreUnavailable,
)

log = logging.getLogger(__name__)


def store_for(settings: Settings, **options: Any) -> GameStore:
    """The store for the bot's settings (not yet opened; ``await store.open()``).

    This is the one place that picks a driver, so another database can be added
    here without touching the cogs: PostgreSQL when ``settings.database_url``
    (``MONOPOLY_DATABASE_URL``) is set, else the SQLite file ``settings.db_path``.
    ``options`` go to the driver. A URL that is not ``postgresql://`` (or
    ``postgres://``) raises ValueError naming ``MONOPOLY_DATABASE_URL``; a server that
    cannot be reached raises :class:`StoreUnavailable` at ``open()``.
    """
    url = getattr(settings, "database_url", None)
    backups = Path(settings.db_path).parent / "backups"
    if url is not None and str(url).strip():
        options.setdefault("before_migrating", partial(_dump_postgres, str(url), backups))
        return PostgresGameStore(url, **options)
    options.setdefault("before_migrating", partial(_back_up_sqlite, Path(settings.db_path)))
    return SqliteGameStore(settings.db_path, **options)


async def _back_up_sqlite(path: Path, current: int, head: int) -> None:
    """Before a migration: back the file up (bot/store/backups.py); a backup that fails
    stops the start, as migrating without one could not be rolled back."""
    from bot.store.backups import BackupProblem, backup_before_migration

    try:
        await asyncio.to_thread(backup_before_migration, path, current, head, datetime.now(UTC))
    except BackupProblem as error:
        raise StoreError(
            f"no backup before migrating schema v{current} to v{head}: {error}; free space "
            "or fix the backups folder's permissions, then start again"
        ) from error


async def _dump_postgres(url: str, folder: Path, current: int, head: int) -> None:
    """Before a migration: ``pg_dump`` the database into ``folder`` when pg_dump is
    installed; otherwise log the command to run (a fleet's image often has no pg_dump)."""
    from bot.store.backups import BackupProblem, pg_backup_hint, run_pg_tool, utc_stamp

    target = folder / f"postgres-v{current}-{utc_stamp(datetime.now(UTC))}.dump"
    try:
        folder.mkdir(parents=True, exist_ok=True)
        await asyncio.to_thread(run_pg_tool, "pg_dump", url, "--format=custom", f"--file={target}")
    except (BackupProblem, OSError) as error:
        log.warning("No automatic backup (%s). %s", error, pg_backup_hint(url))
        return
    log.info(
        "Backed up the database to %s before migrating schema v%d to v%d", target, current, head
    )


__all__ = [
    "ApplyResult",
    "BrokenGameHook",
    "ChannelBusy",
    "GameBroken",
    "GameInfo",
    "GameNotFound",
    "GameNotRunning",
    "GameRow",
    "GameStatus",
    "GameStore",
    "InvalidRecord",
    "PostgresGameStore",
    "SchemaError",
    "SettingsConflict",
    "SqliteGameStore",
    "StaleAction",
    "StoreError",
    "StoreUnavailable",
    "Timer",
    "store_for",
]
