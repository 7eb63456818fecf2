"""The store's small tables, written once for every driver: members' preferences, the
servers' uploaded files, the bot's own records and the finished games' end states.

Stored JSON and text are read through the driver's :attr:`~bot.store.sql_base.SqlBase.raw_text`
(SQLite reads bytes, which it can hold even when they are not UTF-8), so one damaged row
is left out (or counts as unset) instead of failing the whole query.
"""

from __future__ import annotations

import json
import logging
from collections.abc import Mapping
from typing import Any

from bot.store.checks import check_id, check_json_object, check_kind, check_text
from bot.store.sql_base import SqlBase

log = logging.getLogger(__name__)


class TableRows(SqlBase):
    """Preferences, servers' files, the bot's records and finished states."""

    def _column(self, column: str) -> str:
        """``column`` read as the driver reads text that may be damaged."""
        return self.raw_text.format(column)

    def _object_of(self, raw: Any) -> dict[str, Any]:
        """A stored JSON object; ValueError if the row is damaged."""
        try:
            value = json.loads(self._text_of(raw))
        except RecursionError as error:  # nested deeper than Python reads
            raise ValueError("nested too deeply") from error
        if not isinstance(value, dict):
            raise ValueError("not a JSON object")
        return value

    # -- users ----------------------------------------------------------------------------

    async def user_prefs(self, user_id: int) -> dict[str, Any]:
        """A user's preferences (a JSON object; empty if they never set any)."""
        user_id = check_id(user_id, "user_id")
        row = await self._fetchrow(
            f"SELECT {self._column('prefs_json')} FROM user_prefs WHERE user_id = ?", user_id
        )
        if row is None:
            return {}
        try:
            return self._object_of(row[0])
        except ValueError:
            return {}  # a damaged row counts as "nothing chosen"

    async def set_user_prefs(self, user_id: int, prefs: Mapping[str, Any]) -> None:
        """Replace a user's preferences with ``prefs`` (a JSON object)."""
        user_id = check_id(user_id, "user_id")
        prefs_json = check_json_object(prefs, "prefs")
        await self._write(
            "INSERT INTO user_prefs (user_id, prefs_json, updated_at) VALUES (?, ?, ?)"
            " ON CONFLICT (user_id) DO UPDATE SET prefs_json = excluded.prefs_json,"
            " updated_at = excluded.updated_at",
            user_id,
            prefs_json,
            self._stamp(),
        )

    # -- servers --------------------------------------------------------------------------

    async def finished_states(self, guild_id: int) -> list[dict[str, Any]]:
        """The final states (canonical JSON objects) of the server's finished games, oldest
        first; unreadable ones are left out."""
        guild_id = check_id(guild_id, "guild_id")
        rows = await self._fetch(
            f"SELECT {self._column('state_json')} FROM games WHERE guild_id = ?"
            " AND status = 'finished' AND state_json IS NOT NULL ORDER BY id",
            guild_id,
        )
        found = []
        for (raw,) in rows:
            try:
                found.append(self._object_of(raw))
            except ValueError:
                continue  # a damaged finished game only drops out of the statistics
        return found

    async def guild_files(self, guild_id: int, kind: str) -> dict[str, dict[str, Any]]:
        """A server's uploaded files of ``kind`` (``theme`` or ``board``) by id, sorted by id.

        A damaged file (not a JSON object, not UTF-8) is left out with a warning in the
        log: one bad upload must not break every lobby of the server. Ids sort byte by
        byte on every driver (PostgreSQL's column is ``COLLATE "C"``).
        """
        guild_id, kind = check_id(guild_id, "guild_id"), check_kind(kind)
        rows = await self._fetch(
            f"SELECT {self._column('item_id')}, {self._column('data_json')} FROM guild_files"
            " WHERE guild_id = ? AND kind = ? ORDER BY item_id",
            guild_id,
            kind,
        )
        found = {}
        for raw_id, raw_data in rows:
            try:
                found[self._text_of(raw_id)] = self._object_of(raw_data)
            except ValueError as error:
                shown = raw_id.decode("utf-8", "replace") if isinstance(raw_id, bytes) else raw_id
                log.warning(
                    "Guild %d: the stored %s file %r is damaged and left out (%s)",
                    guild_id,
                    kind,
                    shown,
                    error,
                )
        return found

    async def save_guild_file(
        self, guild_id: int, kind: str, item_id: str, data: Mapping[str, Any], uploaded_by: int
    ) -> bool:
        """Store a server's file; True if it replaced one of that kind with the same id."""
        key = (check_id(guild_id, "guild_id"), check_kind(kind), check_text(item_id, "item_id"))
        data_json = check_json_object(data, "data")
        uploaded_by = check_id(uploaded_by, "uploaded_by")

        async def work() -> bool:
            at = self._stamp()
            async with self._transaction() as session:
                # Insert, or (when the key is taken) update: "replaced" is told from
                # "added" by which of the two wrote, also when two uploads race (the
                # second insert waits for the first and then does nothing).
                added = await session.execute(
                    "INSERT INTO guild_files"
                    " (guild_id, kind, item_id, data_json, uploaded_by, uploaded_at)"
                    " VALUES (?, ?, ?, ?, ?, ?) ON CONFLICT (guild_id, kind, item_id) DO NOTHING",
                    *key,
                    data_json,
                    uploaded_by,
                    at,
                )
                if added:
                    return False
                await session.execute(
                    "UPDATE guild_files SET data_json = ?, uploaded_by = ?, uploaded_at = ?"
                    " WHERE guild_id = ? AND kind = ? AND item_id = ?",
                    data_json,
                    uploaded_by,
                    at,
                    *key,
                )
                return True

        return await self._shielded(work())

    async def delete_guild_file(self, guild_id: int, kind: str, item_id: str) -> bool:
        """Remove a server's file; False if there was none of that kind with that id."""
        key = (check_id(guild_id, "guild_id"), check_kind(kind), check_text(item_id, "item_id"))
        removed = await self._write(
            "DELETE FROM guild_files WHERE guild_id = ? AND kind = ? AND item_id = ?", *key
        )
        return removed > 0

    # -- the bot's own records ------------------------------------------------------------

    async def meta(self, key: str) -> str | None:
        """The bot's own record under ``key``; None if unset or damaged (not UTF-8)."""
        key = check_text(key, "key")
        row = await self._fetchrow(
            f"SELECT {self._column('value')} FROM bot_meta WHERE key = ?", key
        )
        if row is None:
            return None
        try:
            return self._text_of(row[0])
        except ValueError:
            log.warning("The bot's record %r is damaged and counts as unset", key)
            return None

    async def set_meta(self, key: str, value: str) -> None:
        """Store ``value`` under ``key``, replacing what was there; both are text."""
        key, value = check_text(key, "key"), check_text(value, "value")
        await self._write(
            "INSERT INTO bot_meta (key, value, updated_at) VALUES (?, ?, ?)"
            " ON CONFLICT (key) DO UPDATE SET value = excluded.value,"
            " updated_at = excluded.updated_at",
            key,
            value,
            self._stamp(),
        )
