"""A game's settings carry a version: no blind overwrite, on either driver.

Every settings write adds one to ``settings_version``; ``patch_settings`` changes only
the keys it names, atomically; a writer that names the version it read
(``expected_version``) gets :class:`SettingsConflict`, and nothing changes, if another
writer came first. Two stores on one database stand for two bot processes.
"""

from __future__ import annotations

import asyncio
import math
from typing import Any

import pytest

from bot.store import GameBroken, GameNotFound, GameNotRunning, SettingsConflict, StoreError
from bot.store.errors import BadData
from bot.store.sql import SqlGameStore
from tests.store.backends import Backend, StoreFactory
from tests.store.conftest import GUILD, make_state


async def test_every_settings_write_counts_a_version(store: SqlGameStore) -> None:
    """A new game is at version 0; set_settings and patch_settings each add one, and
    every read (load, list_games, the returned info) shows it."""
    lobby = await store.create_game(GUILD, 10, None, settings={"a": 1})
    assert lobby.settings_version == 0
    info = await store.set_settings(lobby.id, {"a": 2})
    assert (info.settings, info.settings_version) == ({"a": 2}, 1)
    info = await store.patch_settings(lobby.id, {"b": 3})
    assert (info.settings, info.settings_version) == ({"a": 2, "b": 3}, 2)
    assert (await store.load(lobby.id)).settings_version == 2
    assert [g.settings_version for g in await store.list_games(GUILD)] == [2]
    # Starting the game or applying actions is not a settings write.
    await store.start_game(lobby.id, make_state())
    assert (await store.load(lobby.id)).settings_version == 2


async def test_patch_sets_and_removes_top_level_keys_only(store: SqlGameStore) -> None:
    """patch_settings replaces the keys in ``set`` whole, removes those in ``remove``, and
    leaves every other key exactly as stored; a key in both is set."""
    settings = {"keep": {"deep": [1, 2.5, None]}, "old": "x", "gone": True, "n": 1}
    row = await store.create_game(GUILD, 10, make_state(), settings=settings)
    info = await store.patch_settings(
        row.id, {"n": {"now": "nested"}, "new": [], "both": 1}, ["gone", "both", "never_there"]
    )
    expected = {"keep": {"deep": [1, 2.5, None]}, "old": "x", "n": {"now": "nested"}}
    assert info.settings == {**expected, "new": [], "both": 1}
    assert (await store.load(row.id)).settings == info.settings
    # An empty patch is still a write (a new version), changing nothing else.
    again = await store.patch_settings(row.id, {})
    assert again.settings == info.settings and again.settings_version == 2


async def test_a_stale_version_is_a_conflict_and_changes_nothing(
    store: SqlGameStore, backend: Backend
) -> None:
    """With expected_version, a write made for an older version raises SettingsConflict
    (code settings_conflict, with the game, the version expected and the current one),
    for patch_settings, set_settings and start_game alike, and writes nothing."""
    lobby = await store.create_game(GUILD, 10, None, settings={"players": [1]})
    await store.patch_settings(lobby.id, {"players": [1, 2]}, expected_version=0)
    before = await backend.snapshot()
    calls = [
        lambda: store.patch_settings(lobby.id, {"players": [1, 3]}, expected_version=0),
        lambda: store.set_settings(lobby.id, {"players": [1, 3]}, expected_version=0),
        lambda: store.start_game(lobby.id, make_state(), expected_settings_version=0),
    ]
    for call in calls:
        with pytest.raises(SettingsConflict) as caught:
            await call()
        error = caught.value
        assert isinstance(error, StoreError) and error.code == "settings_conflict"
        assert error.params == {"game_id": lobby.id, "expected": 0, "current": 1}
        assert await backend.snapshot() == before
    # The version read now works.
    info = await store.set_settings(lobby.id, {"players": [1, 2, 3]}, expected_version=1)
    assert info.settings_version == 2
    started = await store.start_game(lobby.id, make_state(), expected_settings_version=2)
    assert started.status == "running"
    with pytest.raises(GameNotRunning):  # not a lobby any more: not a conflict
        await store.start_game(lobby.id, make_state(), expected_settings_version=2)


async def test_two_processes_patching_different_keys_keep_both(
    store_factory: StoreFactory,
) -> None:
    """Two stores (two processes) patch different keys of one game at the same moment,
    many times over: no change is lost, and the version counts every write."""
    async with store_factory() as first, store_factory() as second:
        row = await first.create_game(GUILD, 10, make_state(), settings={"shared": "kept"})
        rounds = 15

        async def writer(store: SqlGameStore, key: str) -> None:
            for n in range(rounds):
                await store.patch_settings(row.id, {key: n, f"{key}:{n}": True})

        await asyncio.gather(writer(first, "a"), writer(second, "b"), writer(first, "c"))
        loaded = await second.load(row.id)
        assert loaded.settings_version == 3 * rounds
        assert loaded.settings["shared"] == "kept"
        for key in ("a", "b", "c"):
            assert loaded.settings[key] == rounds - 1
            assert all(loaded.settings[f"{key}:{n}"] for n in range(rounds))


async def test_two_processes_with_the_same_version_one_wins(store_factory: StoreFactory) -> None:
    """Two stores write settings naming the same version at once: exactly one write
    lands, the other gets SettingsConflict; its change is not half-applied."""
    async with store_factory() as first, store_factory() as second:
        row = await first.create_game(GUILD, 10, None, settings={"n": 0})
        for version in range(10):
            outcomes = await asyncio.gather(
                first.patch_settings(row.id, {"n": "first"}, expected_version=version),
                second.set_settings(row.id, {"n": "second"}, expected_version=version),
                return_exceptions=True,
            )
            won = [o for o in outcomes if not isinstance(o, BaseException)]
            lost = [o for o in outcomes if isinstance(o, BaseException)]
            assert len(won) == 1 and len(lost) == 1, outcomes
            assert isinstance(lost[0], SettingsConflict)
            assert (await first.load(row.id)).settings == won[0].settings
            assert won[0].settings_version == version + 1


BAD_PATCHES: list[tuple[str, Any, Any]] = [
    ("set", {"a": math.nan}, ()),
    ("set", {1: "a"}, ()),
    ("set", ["a"], ()),
    ("set", {"a": "\ud800"}, ()),
    ("remove", {}, "a"),
    ("remove", {}, [1]),
    ("remove", {}, ["\udc00"]),
    ("remove", {}, 5),
]


@pytest.mark.parametrize(("what", "set_", "remove"), BAD_PATCHES)
async def test_a_malformed_patch_is_bad_data(
    store: SqlGameStore, backend: Backend, what: str, set_: Any, remove: Any
) -> None:
    """Values that are not plain JSON, keys that are not text, a text where a list of keys
    belongs: BadData naming the argument, and nothing changes."""
    row = await store.create_game(GUILD, 10, None, settings={"a": 1})
    before = await backend.snapshot()
    with pytest.raises(BadData) as caught:
        await store.patch_settings(row.id, set_, remove)
    assert caught.value.params["what"] == what
    assert await backend.snapshot() == before


async def test_bad_versions_and_ids(store: SqlGameStore) -> None:
    """A version that is not a non-negative 64-bit int is BadData; a game id no game can
    have is GameNotFound, as for every method."""
    row = await store.create_game(GUILD, 10, None)
    for bad in (-1, True, "0", 1.0, 2**63):
        with pytest.raises(BadData):
            await store.patch_settings(row.id, {"a": 1}, expected_version=bad)
        with pytest.raises(BadData):
            await store.set_settings(row.id, {"a": 1}, expected_version=bad)
    for game_id in (2**63, True, "1", row.id + 100):
        with pytest.raises(GameNotFound):
            await store.patch_settings(game_id, {"a": 1})
    assert (await store.load(row.id)).settings_version == 0


async def test_patching_damaged_settings_is_refused(store: SqlGameStore, backend: Backend) -> None:
    """Keys cannot be merged into settings that are not a JSON object: GameBroken, and
    the stored text stays for an admin to look at."""
    row = await store.create_game(GUILD, 10, make_state(), settings={"a": 1})
    await backend.execute("UPDATE games SET settings_json = '[1, 2]' WHERE id = ?", row.id)
    with pytest.raises(GameBroken):
        await store.patch_settings(row.id, {"b": 2})
    [(text,)] = await backend.fetch("SELECT settings_json FROM games WHERE id = ?", row.id)
    assert text == "[1, 2]"
    # Replacing them whole still works (the repair).
    await store.set_settings(row.id, {"a": 1})
