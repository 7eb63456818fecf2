"""Discord tests: the real bot against simcord's in-memory Discord, on a real database.

Every test runs twice, on a SQLite file and on a fresh PostgreSQL database (``driver``
from tests/store/backends.py; the PostgreSQL run is skipped, with the reason, where the
server's binaries are missing, and fails instead under ``MONOPOLY_REQUIRE_POSTGRES=1``).
"""

from __future__ import annotations

import itertools
from pathlib import Path

import pytest

from bot.app import MonopolyBot
from bot.config import Settings
from tests.discord.helpers import TEST_TUNING
from tests.store.backends import Backend


@pytest.fixture
def database(backend: Backend) -> Backend:
    """This test's database: a restarted bot gets a new store on it (``helpers.restart``)."""
    return backend


@pytest.fixture
def simcord_bot(database: Backend, tmp_path: Path) -> MonopolyBot:
    """The bot under test, with its own database and predictable seeds."""
    settings = Settings(
        discord_token=None, db_path=tmp_path / "games.db", log_level="INFO", dev_guild_id=None
    )
    seeds = itertools.count(7)
    return MonopolyBot(
        settings, store=database.store(), seeds=lambda: next(seeds), tuning=TEST_TUNING
    )
