"""A game's lock, and a change of its settings made under it (see ``GameService``)."""

from __future__ import annotations

import asyncio
from dataclasses import dataclass
from typing import Any

from bot.settings import GameSettings, SettingsPatch
from bot.store import GameRow


class GameLock:
    """An asyncio lock that the task holding it may take again (it counts how often)."""

    def __init__(self) -> None:
        self._lock = asyncio.Lock()
        self._owner: asyncio.Task[Any] | None = None
        self._depth = 0

    def locked(self) -> bool:
        """Whether some task holds the lock."""
        return self._lock.locked()

    async def __aenter__(self) -> None:
        task = asyncio.current_task()
        if self._owner is not None and self._owner is task:
            self._depth += 1
            return
        await self._lock.acquire()
        self._owner, self._depth = task, 1

    async def __aexit__(self, *exc: object) -> None:
        self._depth -= 1
        if self._depth == 0:
            self._owner = None
            self._lock.release()


@dataclass
class SettingsEdit:
    """A game's row and the copy of its settings being changed (see ``editing``).

    ``settings`` must be the edit's own copy (:meth:`GameSettings.from_stored`):
    :meth:`changes` compares it with ``row.settings``, so a nested value changed in place
    must not change the row too.
    """

    row: GameRow
    settings: GameSettings
    cancelled: bool = False

    def cancel(self) -> None:
        """Write nothing back at the end of the block."""
        self.cancelled = True

    def patch(self) -> SettingsPatch:
        """The top-level keys set (new or changed) and removed, against the row as read.

        What a versioned write sends back (``GameStore.patch_settings``), so keys the
        edit did not touch stay as stored. ``1``, ``1.0`` and ``True`` count as
        different values, as they are different JSON.
        """
        return self.settings.patch(self.row.settings)

    def changes(self) -> tuple[dict[str, Any], list[str]]:
        """:meth:`patch` as ``(set, remove)``."""
        patch = self.patch()
        return patch.set, patch.remove
