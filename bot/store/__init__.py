"""Where games live between actions and across restarts.

:class:`GameStore` is the interface the cogs use; :class:`SqliteGameStore` keeps
games in one SQLite file (``MONOPOLY_DB_PATH``, default ``data/monopoly.db``). See
``bot/store/sqlite.py`` for the durability and concurrency guarantees.
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
    StaleAction,
    StoreError,
)
from bot.store.sqlite import SqliteGameStore


def store_for(settings: Settings, **options: Any) -> GameStore:
    """The store for the bot's settings (not yet opened; ``await store.open()``).

    This is the one place that picks a driver, so another database can be added
    here without touching the cogs. ``options`` go to the driver.
    """
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
    "SchemaError",
    "SqliteGameStore",
    "StaleAction",
    "StoreError",
    "Timer",
    "store_for",
]
