"""Discord tests: the real bot against simcord's in-memory Discord, a real SQLite file."""

from __future__ import annotations

import itertools
from pathlib import Path

import pytest

from bot.app import MonopolyBot
from bot.config import Settings
from bot.store import SqliteGameStore
from tests.discord.helpers import TEST_TUNING


@pytest.fixture
def db_path(tmp_path: Path) -> Path:
    """A fresh database file per test."""
    return tmp_path / "games.db"


@pytest.fixture
def simcord_bot(db_path: Path) -> MonopolyBot:
    """The bot under test, with its own database and predictable seeds."""
    settings = Settings(discord_token=None, db_path=db_path, log_level="INFO", dev_guild_id=None)
    seeds = itertools.count(7)
    return MonopolyBot(
        settings, store=SqliteGameStore(db_path), seeds=lambda: next(seeds), tuning=TEST_TUNING
    )
