"""Versioned schema migrations: plain SQL files applied in order at start-up.

Each driver keeps its migrations in its own folder, ``bot/store/drivers/<driver>/migrations/
NNNN_name.sql``: the same numbers with the same meaning in every driver, so a version says
the same about a database of any kind. Numbers start at 1 and have no gaps. Each driver
applies them its own way (``schema.py`` in its folder): each migration in its own
transaction together with its row in ``schema_version``, so a database is always at
exactly one version, even if the process dies half-way, and two processes starting
together do not race. Files are read with :mod:`importlib.resources`, so they ship inside
the wheel.

This module is what the drivers share: reading the files, the version this code works
with, and the refusal of a database newer than this code.
"""

from __future__ import annotations

import re
import sqlite3
from dataclasses import dataclass
from functools import cache
from importlib import resources

from bot.store.errors import SchemaError

_FILE_NAME = re.compile(r"^(\d{4})_([a-z0-9_]+)\.sql$")

#: The drivers with migration files (a folder ``bot/store/drivers/<name>/migrations``).
DIALECTS = ("sqlite", "postgres")


@dataclass(frozen=True)
class Migration:
    """One migration file: its version, name and SQL text."""

    version: int
    name: str
    sql: str

    @property
    def label(self) -> str:
        """``NNNN_name``, as the file is called (for logs and errors)."""
        return f"{self.version:04d}_{self.name}"

    def statements(self) -> list[str]:
        """The file's SQL statements, one string each (triggers stay whole)."""
        found: list[str] = []
        pending = ""
        for line in self.sql.splitlines(keepends=True):
            pending += line
            # complete_statement knows about string literals and BEGIN ... END of
            # triggers, so a ';' inside them does not cut a statement short.
            if sqlite3.complete_statement(pending):
                found.append(pending.strip())
                pending = ""
        rest = [ln for ln in pending.splitlines() if ln.strip() and not ln.strip().startswith("--")]
        if rest:
            raise SchemaError(f"migration {self.label}: unterminated SQL")
        return found


@cache
def load_migrations(dialect: str = "sqlite") -> tuple[Migration, ...]:
    """Every migration shipped with the bot for the driver ``dialect``, in version order."""
    if dialect not in DIALECTS:
        raise ValueError(f"no migrations for {dialect!r}; drivers: {', '.join(DIALECTS)}")
    folder = resources.files(f"bot.store.drivers.{dialect}").joinpath("migrations")
    found = []
    for entry in folder.iterdir():
        match = _FILE_NAME.match(entry.name)
        if match:
            found.append(
                Migration(int(match[1]), match[2], entry.read_text(encoding="utf-8")),
            )
    found.sort(key=lambda m: m.version)
    if [m.version for m in found] != list(range(1, len(found) + 1)):
        raise SchemaError(f"migration numbers must be 1, 2, 3, ...: {[m.version for m in found]}")
    return tuple(found)


def head_version(dialect: str = "sqlite") -> int:
    """The schema version this code works with (the newest migration)."""
    return len(load_migrations(dialect))


def newer_than_code(current: int, head: int) -> str:
    """What to say of a database (at ``current``) newer than this code (``head``)."""
    return (
        f"the database has schema version {current}, newer than this bot's {head}; "
        "update the bot (or restore the backup taken before the upgrade, see README "
        "'Upgrade and backup')"
    )


def refuse_newer(current: int, head: int) -> None:
    """SchemaError if the database (at ``current``) is newer than this code (``head``)."""
    if current > head:
        raise SchemaError(newer_than_code(current, head))
