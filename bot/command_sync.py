"""Sync the slash commands to Discord only when they changed.

Discord rate-limits command syncs (and a global sync takes a while to reach every
client), so the bot does not sync on every start. Instead it hashes exactly what a
sync would send, translations included, and compares that fingerprint with the one
stored after the last successful sync to the same target (all servers, or one
server). Only a different fingerprint, or a forced sync, calls Discord.
"""

from __future__ import annotations

import hashlib
import json
import logging
from typing import Any, Protocol

import discord
from discord import app_commands

from bot.store import GameStore

log = logging.getLogger(__name__)

#: The store's key for the fingerprint of the commands last synced globally.
GLOBAL_KEY = "commands:global"


class SyncingBot(Protocol):
    """What :func:`sync_commands` needs of the bot: its command tree and its store."""

    @property
    def tree(self) -> app_commands.CommandTree[Any]:
        """The application command tree."""
        ...

    @property
    def store(self) -> GameStore:
        """The open game store (it keeps the fingerprints)."""
        ...


def meta_key(guild_id: int | None) -> str:
    """The store's key for the fingerprint of the commands last synced to the target."""
    return GLOBAL_KEY if guild_id is None else f"commands:guild:{guild_id}"


def target_name(guild_id: int | None) -> str:
    """The target of a sync in words, for the log and the command line."""
    return "globally" if guild_id is None else f"to guild {guild_id}"


async def sync_payload(
    tree: app_commands.CommandTree[Any], guild: discord.abc.Snowflake | None
) -> list[dict[str, Any]]:
    """The command list that ``tree.sync(guild=guild)`` would send, built the same way.

    ``CommandTree.sync`` (discord.py 2.7) sends ``get_translated_payload`` of every
    command of the target when the tree has a translator, else ``to_dict``;
    ``get_commands`` without a type gives the same commands, context menus included,
    in the same order.
    """
    commands = tree.get_commands(guild=guild)
    translator = tree.translator
    if translator is not None:
        return [await command.get_translated_payload(tree, translator) for command in commands]
    return [command.to_dict(tree) for command in commands]


async def tree_fingerprint(
    tree: app_commands.CommandTree[Any], guild: discord.abc.Snowflake | None
) -> str:
    """SHA-256 (hex) of the canonical JSON of what a sync to ``guild`` would send.

    Canonical: keys sorted, no spaces, text as UTF-8. Lists keep their order, because
    the order of options and choices is what Discord shows. So a change of any name,
    description, option, choice, permission or translation changes the fingerprint.
    """
    payload = await sync_payload(tree, guild)
    text = json.dumps(payload, sort_keys=True, separators=(",", ":"), ensure_ascii=False)
    return hashlib.sha256(text.encode("utf-8")).hexdigest()


async def sync_commands(bot: SyncingBot, *, guild_id: int | None, force: bool) -> bool:
    """Sync the command tree to ``guild_id`` (None: globally) if it changed or ``force``.

    For a guild the global commands are copied to it first, as a guild sync sends only
    the guild's commands. The new fingerprint is stored only after Discord accepted the
    sync, so a failed sync (the error propagates) is tried again next time. Returns
    whether it synced.
    """
    tree = bot.tree
    guild = None if guild_id is None else discord.Object(id=guild_id)
    if guild is not None:
        tree.copy_global_to(guild=guild)
    key = meta_key(guild_id)
    where = target_name(guild_id)
    fingerprint = await tree_fingerprint(tree, guild)
    stored = await bot.store.meta(key)
    if force:
        reason = "forced"
    elif stored is None:
        reason = "never synced before"
    elif stored != fingerprint:
        reason = "the commands changed since the last sync"
    else:
        log.info(
            "Application commands unchanged since the last sync %s (fingerprint %s); not syncing",
            where,
            fingerprint[:12],
        )
        return False
    log.info("Syncing application commands %s: %s", where, reason)
    synced = await tree.sync(guild=guild)
    await bot.store.set_meta(key, fingerprint)
    log.info(
        "Synced %d application command(s) %s (fingerprint %s)",
        len(synced),
        where,
        fingerprint[:12],
    )
    return True
