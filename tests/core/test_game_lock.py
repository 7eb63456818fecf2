"""The game lock (``bot/game_lock.py``) and settings edits under it (``GameService.editing``)."""

from __future__ import annotations

import asyncio
from pathlib import Path

import pytest

from bot.engine.errors import IllegalAction
from bot.game_lock import GameLock
from bot.service import GameService, LobbyPlayer
from bot.store import SqliteGameStore


async def test_the_task_holding_the_lock_may_take_it_again() -> None:
    """Re-entrant within a task: a step that holds it may call another that takes it."""
    lock = GameLock()
    async with lock, lock:
        assert lock.locked()
    assert not lock.locked()


async def test_other_tasks_wait_for_the_lock() -> None:
    """Another task waits until the holder has let go completely."""
    lock = GameLock()
    order: list[str] = []

    async def other() -> None:
        async with lock:
            order.append("other")

    async with lock:
        task = asyncio.create_task(other())
        async with lock:
            await asyncio.sleep(0.01)
            order.append("holder")
        await asyncio.sleep(0.01)
        order.append("holder done")
    await task
    assert order == ["holder", "holder done", "other"]


async def test_an_edit_is_written_unless_refused_or_cancelled(tmp_path: Path) -> None:
    """``editing`` writes the changed settings at the end of the block; a refusal inside
    or ``cancel()`` writes nothing."""
    async with SqliteGameStore(tmp_path / "games.db") as store:
        service = GameService(store)
        row = await service.open_lobby(
            1, 2, LobbyPlayer(3, "alice"), preset="classic", lang="de", theme=None, max_players=None
        )
        async with service.editing(row.id) as edit:
            edit.settings["note"] = "kept"
        with pytest.raises(IllegalAction):
            async with service.editing(row.id) as edit:
                edit.settings["note"] = "refused"
                raise IllegalAction("host_only")
        async with service.editing(row.id) as edit:
            edit.settings["note"] = "cancelled"
            edit.cancel()
        assert (await store.load(row.id)).settings["note"] == "kept"
