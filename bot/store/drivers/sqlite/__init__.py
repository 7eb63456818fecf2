"""The SQLite driver: games in one file (``MONOPOLY_DB_PATH``), the default for a bot that
is one process. What it says beyond the shared SQL: :mod:`.store` (connection, sessions,
codecs), :mod:`.schema` (applying ``migrations/``)."""

from bot.store.drivers.sqlite.schema import migrate, schema_version
from bot.store.drivers.sqlite.store import BUSY_TIMEOUT_MS, SqliteGameStore

__all__ = ["BUSY_TIMEOUT_MS", "SqliteGameStore", "migrate", "schema_version"]
