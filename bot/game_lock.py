"""A game's lock, and a change of its settings made under it (see ``GameService``)."""

from __future__ import annotations

import asyncio
from dataclasses import dataclass
from typing import Any

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
    """A game's row and the copy of its settings being changed (see ``editing``)."""

    row: GameRow
    settings: dict[str, Any]
    cancelled: bool = False

    def cancel(self) -> None:
        """Write nothing back at the end of the block."""
        self.cancelled = True
