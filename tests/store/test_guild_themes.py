"""Themes a server uploaded, kept in the ``guild_themes`` table (migration 0005)."""

from __future__ import annotations

from pathlib import Path

from bot.store import SqliteGameStore
from tests.store.conftest import GUILD, OTHER_GUILD, USER

KEKSE = {"id": "kekse", "name": {"de": "Kekse"}, "squares": {"1": "Keksweg"}}


async def test_themes_are_kept_per_server_and_survive_a_reopen(
    store: SqliteGameStore, db_path: Path
) -> None:
    assert await store.guild_themes(GUILD) == {}
    assert await store.save_guild_theme(GUILD, "kekse", KEKSE, USER) is False
    assert await store.save_guild_theme(GUILD, "aaa", {"id": "aaa"}, USER) is False
    assert list(await store.guild_themes(GUILD)) == ["aaa", "kekse"]
    assert await store.guild_themes(OTHER_GUILD) == {}
    await store.close()

    again = SqliteGameStore(db_path)
    await again.open()
    try:
        assert (await again.guild_themes(GUILD))["kekse"] == KEKSE
    finally:
        await again.close()


async def test_a_theme_with_the_same_id_replaces_the_old_one(store: SqliteGameStore) -> None:
    await store.save_guild_theme(GUILD, "kekse", KEKSE, USER)
    newer = {**KEKSE, "squares": {"1": "Zimtweg"}}
    assert await store.save_guild_theme(GUILD, "kekse", newer, USER + 1) is True
    assert await store.guild_themes(GUILD) == {"kekse": newer}


async def test_removing_a_theme(store: SqliteGameStore) -> None:
    await store.save_guild_theme(GUILD, "kekse", KEKSE, USER)
    assert await store.delete_guild_theme(OTHER_GUILD, "kekse") is False
    assert await store.delete_guild_theme(GUILD, "kekse") is True
    assert await store.delete_guild_theme(GUILD, "kekse") is False
    assert await store.guild_themes(GUILD) == {}
