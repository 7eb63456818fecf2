"""Where games live between actions and across restarts.

:class:`GameStore` is the interface the cogs use. :class:`SqliteGameStore` keeps games in
one SQLite file (``MONOPOLY_DB_PATH``, default ``data/monopoly.db``), the default for a
bot that is one process; :class:`PostgresGameStore` keeps them in a PostgreSQL database
(``MONOPOLY_DATABASE_URL``) that several processes, on several machines, share. Both give
the same guarantees (``bot/store/sqlite.py``, ``bot/store/postgres.py``) and share the
apply loop (``bot/store/sql.py``).
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
from bot.store.postgres import PostgresGameStore
from bot.store.sqlite import SqliteGameStore


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
