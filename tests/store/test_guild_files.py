"""Files a server uploaded (themes and boards), kept in ``guild_files`` (migration 0005).

On both drivers.
"""

from __future__ import annotations

import asyncio

from bot.store.sql import SqlGameStore
from tests.store.backends import Backend, StoreFactory
from tests.store.conftest import GUILD, OTHER_GUILD, USER

KEKSE = {"id": "kekse", "name": {"de": "Kekse"}, "squares": {"1": "Keksweg"}}


async def test_files_are_kept_per_server_and_kind_and_survive_a_reopen(
    store: SqlGameStore, backend: Backend
) -> None:
    """Files are kept per server and kind, listed sorted by id, and outlive the process."""
    assert await store.guild_files(GUILD, "theme") == {}
    assert await store.save_guild_file(GUILD, "theme", "kekse", KEKSE, USER) is False
    assert await store.save_guild_file(GUILD, "theme", "aaa", {"id": "aaa"}, USER) is False
    assert await store.save_guild_file(GUILD, "board", "kekse", {"id": "board"}, USER) is False
    assert list(await store.guild_files(GUILD, "theme")) == ["aaa", "kekse"]
    assert await store.guild_files(GUILD, "board") == {"kekse": {"id": "board"}}
    assert await store.guild_files(OTHER_GUILD, "theme") == {}
    await store.close()

    again = backend.store()
    await again.open()
    try:
        assert (await again.guild_files(GUILD, "theme"))["kekse"] == KEKSE
    finally:
        await again.close()


async def test_a_file_with_the_same_id_replaces_the_old_one(store: SqlGameStore) -> None:
    """Uploading a file with an id that exists replaces it (and says so)."""
    await store.save_guild_file(GUILD, "theme", "kekse", KEKSE, USER)
    newer = {**KEKSE, "squares": {"1": "Zimtweg"}}
    assert await store.save_guild_file(GUILD, "theme", "kekse", newer, USER + 1) is True
    assert await store.guild_files(GUILD, "theme") == {"kekse": newer}


async def test_removing_a_file(store: SqlGameStore) -> None:
    """A file is removed only for its server, kind and id, once."""
    await store.save_guild_file(GUILD, "theme", "kekse", KEKSE, USER)
    assert await store.delete_guild_file(OTHER_GUILD, "theme", "kekse") is False
    assert await store.delete_guild_file(GUILD, "board", "kekse") is False
    assert await store.delete_guild_file(GUILD, "theme", "kekse") is True
    assert await store.delete_guild_file(GUILD, "theme", "kekse") is False
    assert await store.guild_files(GUILD, "theme") == {}


async def test_ids_sort_byte_by_byte(store: SqlGameStore) -> None:
    """Ids are listed in the order of their UTF-8 bytes, as SQLite sorts text: capitals
    before small letters, umlauts after z (PostgreSQL: COLLATE "C", whatever the
    database's own collation)."""
    for item_id in ("zebra", "Zebra", "äpfel", "apfel", "10", "9", ""):
        await store.save_guild_file(GUILD, "board", item_id, {"id": item_id}, USER)
    assert list(await store.guild_files(GUILD, "board")) == [
        "",
        "10",
        "9",
        "Zebra",
        "apfel",
        "zebra",
        "äpfel",
    ]


async def test_two_processes_uploading_one_id(store_factory: StoreFactory) -> None:
    """Two stores upload a file with the same new id at once: one adds it, the other
    replaces it; exactly one reports a replacement."""
    async with store_factory() as first, store_factory() as second:
        for round_ in range(10):
            item_id = f"kekse{round_}"
            replaced = await asyncio.gather(
                first.save_guild_file(GUILD, "theme", item_id, {"id": "first"}, USER),
                second.save_guild_file(GUILD, "theme", item_id, {"id": "second"}, USER),
            )
            assert sorted(replaced) == [False, True]
