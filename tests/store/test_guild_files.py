"""Files a server uploaded (themes and boards), kept in ``guild_files`` (migration 0005)."""

from __future__ import annotations

from pathlib import Path

from bot.store import SqliteGameStore
from tests.store.conftest import GUILD, OTHER_GUILD, USER

KEKSE = {"id": "kekse", "name": {"de": "Kekse"}, "squares": {"1": "Keksweg"}}


async def test_files_are_kept_per_server_and_kind_and_survive_a_reopen(
    store: SqliteGameStore, db_path: Path
) -> None:
    assert await store.guild_files(GUILD, "theme") == {}
    assert await store.save_guild_file(GUILD, "theme", "kekse", KEKSE, USER) is False
    assert await store.save_guild_file(GUILD, "theme", "aaa", {"id": "aaa"}, USER) is False
    assert await store.save_guild_file(GUILD, "board", "kekse", {"id": "board"}, USER) is False
    assert list(await store.guild_files(GUILD, "theme")) == ["aaa", "kekse"]
    assert await store.guild_files(GUILD, "board") == {"kekse": {"id": "board"}}
    assert await store.guild_files(OTHER_GUILD, "theme") == {}
    await store.close()

    again = SqliteGameStore(db_path)
    await again.open()
    try:
        assert (await again.guild_files(GUILD, "theme"))["kekse"] == KEKSE
    finally:
        await again.close()


async def test_a_file_with_the_same_id_replaces_the_old_one(store: SqliteGameStore) -> None:
    await store.save_guild_file(GUILD, "theme", "kekse", KEKSE, USER)
    newer = {**KEKSE, "squares": {"1": "Zimtweg"}}
    assert await store.save_guild_file(GUILD, "theme", "kekse", newer, USER + 1) is True
    assert await store.guild_files(GUILD, "theme") == {"kekse": newer}


async def test_removing_a_file(store: SqliteGameStore) -> None:
    await store.save_guild_file(GUILD, "theme", "kekse", KEKSE, USER)
    assert await store.delete_guild_file(OTHER_GUILD, "theme", "kekse") is False
    assert await store.delete_guild_file(GUILD, "board", "kekse") is False
    assert await store.delete_guild_file(GUILD, "theme", "kekse") is True
    assert await store.delete_guild_file(GUILD, "theme", "kekse") is False
    assert await store.guild_files(GUILD, "theme") == {}
