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
    if url is not None and str(url).strip():
        return PostgresGameStore(url, **options)
    return SqliteGameStore(settings.db_path, **options)


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
