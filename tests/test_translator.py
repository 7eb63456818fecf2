"""Slash commands carry German names and descriptions."""

from __future__ import annotations

import asyncio
import re
from pathlib import Path

import discord

from bot.app import MonopolyBot
from bot.config import Settings
from bot.i18n import catalog, t
from bot.translator import CatalogTranslator
from cogs.ui.widgets import group_name


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


def _local_commands(lang: str) -> dict[str, set[str]]:
    """A catalog's full subcommand paths (``thema hochladen``) with their option names."""
    texts = catalog(lang)
    commands: dict[str, set[str]] = {}
    for key in texts:
        if not (key.startswith("cmd.monopoly ") and key.endswith(".name")):
            continue
        path = key.removeprefix("cmd.monopoly ").removesuffix(".name")
        if "." in path:
            continue  # an option: collected below with its command
        words = path.split(" ")
        local = " ".join(
            texts[f"cmd.monopoly {' '.join(words[: i + 1])}.name"] for i in range(len(words))
        )
        prefix = f"cmd.monopoly {path}."
        commands[local] = {
            v
            for k, v in texts.items()
            if k.startswith(prefix) and k.endswith(".name") and k.count(".") == 3
        }
    return commands


def test_texts_name_commands_as_the_reader_sees_them() -> None:
    """A German user sees ``/monopoly starten``, not ``/monopoly start``: every command a
    text mentions (and its options) uses the names of the text's own language."""
    for lang in ("de", "en"):
        commands = _local_commands(lang)
        for key, text in catalog(lang).items():
            for words in re.findall(r"`/monopoly ([^`]*)`", text):
                parts = words.split()
                two = " ".join(parts[:2])
                command = two if two in commands else parts[0]
                assert command in commands, (lang, key, words)
                for option in re.findall(r"([a-z_]+):", words):
                    assert option in commands[command], (lang, key, words, option)


def test_group_names_of_a_server_board_fall_back_to_their_id() -> None:
    """Shipped groups have catalog names; a server board's own group shows its id."""
    assert group_name("de", None, "dark_blue") == t("de", "group.dark_blue")
    assert group_name("en", None, "old_town") == "Old Town"
