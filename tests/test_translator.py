"""Slash commands carry German names and descriptions."""

from __future__ import annotations

import asyncio
from pathlib import Path

import discord

from bot.app import MonopolyBot
from bot.config import Settings
from bot.translator import CatalogTranslator


def test_every_command_has_a_german_name_and_description(tmp_path: Path) -> None:
    """Discord shows German users the German names: every command and option has one."""
    settings = Settings(
        discord_token=None, db_path=tmp_path / "g.db", log_level="INFO", dev_guild_id=None
    )
    bot = MonopolyBot(settings)

    async def payloads() -> list[dict]:
        async def no_sync(**_: object) -> list[object]:
            return []

        bot.tree.sync = no_sync  # type: ignore[method-assign]
        await bot.setup_hook()
        translator = CatalogTranslator()
        found = [
            await command.get_translated_payload(bot.tree, translator)
            for command in bot.tree.get_commands()
        ]
        await bot.store.close()
        return found

    (group,) = asyncio.run(payloads())
    assert group["name"] == "monopoly"
    assert group["description_localizations"]["de"]
    for sub in group["options"]:
        german = sub["name_localizations"].get(discord.Locale.german.value)
        assert german and german == german.lower() and " " not in german, sub["name"]
        assert sub["description_localizations"].get("de"), sub["name"]
        for option in sub.get("options", []):
            assert option["name_localizations"].get("de"), (sub["name"], option["name"])
