"""The PostgreSQL driver: games in a database (``MONOPOLY_DATABASE_URL``) that several
processes, on several machines, share. What it says beyond the shared SQL: :mod:`.store`
(pool, sessions, codecs, row locks), :mod:`.schema` (applying ``migrations/``),
:mod:`.urls` (the setting's URL, never shown with its password) and :mod:`.server` (a
throwaway server for the bench and the tests)."""

from bot.store.drivers.postgres.schema import migrate, schema_version
from bot.store.drivers.postgres.store import PostgresGameStore
from bot.store.drivers.postgres.urls import (
    CONNECT_TIMEOUT,
    SCHEMES,
    URL_SETTING,
    check_url,
    describe_url,
)

__all__ = [
    "CONNECT_TIMEOUT",
    "SCHEMES",
    "URL_SETTING",
    "PostgresGameStore",
    "check_url",
    "describe_url",
    "migrate",
    "schema_version",
]
