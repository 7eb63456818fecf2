"""The game lock (``bot/game_lock.py``) and settings edits under it (``GameService.editing``,
``GameService.edit_settings``), on both store drivers.

Two stores on one database stand for two bot processes: each has its own service and
its own in-process locks, so only the settings version keeps their writes apart.
"""

from __future__ import annotations

import asyncio
from typing import Any

import pytest

from bot.engine.errors import IllegalAction
from bot.game_lock import GameLock, SettingsEdit
from bot.service import GameService, LobbyPlayer
from bot.settings import GameSettings
from bot.store import GameRow, SettingsConflict
from tests.store.backends import StoreFactory

LOBBY = {"preset": "classic", "lang": "de", "theme": None, "max_players": None}


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


async def test_an_edit_is_written_unless_refused_or_cancelled(
    store_factory: StoreFactory,
) -> None:
    """``editing`` writes the changed settings at the end of the block; a refusal inside
    or ``cancel()`` writes nothing."""
    async with store_factory() as store:
        service = GameService(store)
        row = await service.open_lobby(1, 2, LobbyPlayer(3, "alice"), **LOBBY)
        async with service.editing(row.id) as edit:
            edit.settings.play.reminded = "kept"
        with pytest.raises(IllegalAction):
            async with service.editing(row.id) as edit:
                edit.settings.play.reminded = "refused"
                raise IllegalAction("host_only")
        async with service.editing(row.id) as edit:
            edit.settings.play.reminded = "cancelled"
            edit.cancel()
        assert GameSettings.of(await store.load(row.id)).play.reminded == "kept"

        # Nothing changed: nothing written (the version stays).
        version = (await store.load(row.id)).settings_version
        async with service.editing(row.id) as edit:
            edit.settings.play.reminded = "kept"
        assert (await store.load(row.id)).settings_version == version


async def test_an_edit_writes_only_its_keys_and_sees_nested_changes(
    store_factory: StoreFactory,
) -> None:
    """The block's copy is deep: a list changed in place counts as a change (and the row
    the block got still shows the stored value); keys the block did not touch keep what
    another writer stored meanwhile."""
    async with store_factory() as store:
        service = GameService(store)
        row = await service.open_lobby(1, 2, LobbyPlayer(3, "alice"), **LOBBY)
        async with service.editing(row.id) as edit:
            edit.settings.lobby.players.append({"id": 4, "name": "bob"})
            del edit.settings.lobby.theme
            edit.settings.play.paused = True
            assert len(edit.row.settings["players"]) == 1
        settings = (await store.load(row.id)).settings
        assert [p["id"] for p in settings["players"]] == [3, 4]
        assert "theme" not in settings and settings["paused"] is True
        stored = GameSettings({**settings, "paused": 1})
        changed = SettingsEdit(await store.load(row.id), stored).changes()
        assert changed == ({"paused": 1}, [])  # True and 1 are different JSON


async def test_an_edit_that_meets_another_process_conflicts(store_factory: StoreFactory) -> None:
    """Another process (another store and service) writes the settings while a block
    runs: the block's write raises SettingsConflict and writes nothing; the other
    process's change stays. A block cannot be redone, so the caller says "try again"."""
    async with store_factory() as store, store_factory() as elsewhere:
        service, other = GameService(store), GameService(elsewhere)
        row = await service.open_lobby(1, 2, LobbyPlayer(3, "alice"), **LOBBY)
        with pytest.raises(SettingsConflict) as caught:
            async with service.editing(row.id) as edit:
                edit.settings.play.reminded = "mine"
                await other.join(row.id, LobbyPlayer(4, "bob"))
        assert caught.value.code == "settings_conflict"
        settings = (await store.load(row.id)).settings
        assert "reminded" not in settings
        assert [p["id"] for p in settings["players"]] == [3, 4]


async def test_edit_settings_is_redone_on_a_conflict(store_factory: StoreFactory) -> None:
    """``edit_settings`` reads again and runs the change again when another process wrote
    meanwhile; the change may be a coroutine; both changes are kept."""
    async with store_factory() as store, store_factory() as elsewhere:
        service, other = GameService(store), GameService(elsewhere)
        row = await service.open_lobby(1, 2, LobbyPlayer(3, "alice"), **LOBBY)
        seen: list[int] = []

        async def change(fresh: GameRow, settings: GameSettings) -> int:
            seen.append(len(fresh.settings["players"]))
            if len(seen) == 1:  # another process joins between our read and our write
                await other.join(row.id, LobbyPlayer(4, "bob"))
            settings.play.reminded = f"seen {len(settings.lobby.players)} players"
            return len(seen)

        assert await service.edit_settings(row.id, change) == 2
        assert seen == [1, 2]
        settings = (await store.load(row.id)).settings
        assert settings["reminded"] == "seen 2 players"
        assert [p["id"] for p in settings["players"]] == [3, 4]


async def test_edit_settings_gives_up_after_its_attempts(store_factory: StoreFactory) -> None:
    """A change that meets a conflict every time raises SettingsConflict after
    ``attempts`` tries; a refusal inside the change writes nothing and is not retried."""
    async with store_factory() as store, store_factory() as elsewhere:
        service = GameService(store)
        row = await service.open_lobby(1, 2, LobbyPlayer(3, "alice"), **LOBBY)
        tries = 0

        async def always_overtaken(fresh: GameRow, settings: GameSettings) -> None:
            nonlocal tries
            tries += 1
            await elsewhere.patch_settings(row.id, {"other": tries})
            settings.play.last_remind = tries

        with pytest.raises(SettingsConflict):
            await service.edit_settings(row.id, always_overtaken, attempts=2)
        assert tries == 2 and "last_remind" not in (await store.load(row.id)).settings

        def refuse(fresh: GameRow, settings: GameSettings) -> None:
            settings.play.last_remind = 7
            raise IllegalAction("host_only")

        with pytest.raises(IllegalAction):
            await service.edit_settings(row.id, refuse)
        assert "last_remind" not in (await store.load(row.id)).settings
        with pytest.raises(ValueError):
            await service.edit_settings(row.id, refuse, attempts=0)


async def test_lobby_changes_from_two_processes_are_all_kept(store_factory: StoreFactory) -> None:
    """Players join one lobby through two processes at once: every one of them is in it
    (a conflict is read again and redone, never overwritten)."""
    async with store_factory() as store, store_factory() as elsewhere:
        services = [GameService(store), GameService(elsewhere)]
        row = await services[0].open_lobby(
            1, 2, LobbyPlayer(3, "alice"), **{**LOBBY, "max_players": 8}
        )
        await asyncio.gather(
            *(services[n % 2].join(row.id, LobbyPlayer(100 + n, f"p{n}")) for n in range(3))
        )
        players = (await store.load(row.id)).settings["players"]
        assert sorted(p["id"] for p in players) == [3, 100, 101, 102]


async def test_a_start_never_leaves_out_a_player_who_joined_meanwhile(
    store_factory: StoreFactory,
) -> None:
    """The host starts while another process lets a player join: the game starts with
    the lobby as it is in the end, because the start names the settings version its
    seats were made from and is redone on a conflict."""
    async with store_factory() as store, store_factory() as elsewhere:
        service, other = GameService(store, seeds=lambda: 7), GameService(elsewhere)
        row = await service.open_lobby(1, 2, LobbyPlayer(3, "alice"), **LOBBY)
        await service.add_computer(row.id, 3, "easy")
        real_start_game = store.start_game
        joined = False

        async def join_first(*args: Any, **kwargs: Any) -> GameRow:
            nonlocal joined
            if not joined:  # between reading the lobby and starting it
                joined = True
                await other.join(row.id, LobbyPlayer(4, "bob"))
            return await real_start_game(*args, **kwargs)

        store.start_game = join_first  # type: ignore[method-assign]
        started = await service.start(row.id, 3)
        assert started.state is not None
        assert [p.id for p in started.state.players] == ["3", "cpu1", "4"]
        assert started.settings["computer"] == {"1": "seat"}
