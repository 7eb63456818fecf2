"""``monopoly-bot run`` and ``monopoly-bot sync``: the bot itself, and its slash commands
synced to Discord once. Discord and the bot are imported when a command runs (start-up speed
of the other commands)."""

from __future__ import annotations

import argparse
import sys
from typing import TYPE_CHECKING

from bot.cli.common import settings_from_env

if TYPE_CHECKING:
    from bot.config import Settings


def cmd_run(args: argparse.Namespace) -> int:
    """``monopoly-bot run`` (the default): run the Discord bot."""
    from bot.app import run_bot

    settings = settings_from_env("monopoly-bot")
    if settings is None:
        return 2
    return run_bot(settings)


def cmd_sync(args: argparse.Namespace) -> int:
    """``monopoly-bot sync [--guild ID]``: sync the slash commands to Discord now.

    Exit code 0; 1 if Discord rejects the token or the sync or cannot be reached (one
    line); 2 without a token, or with one line for a store that cannot be used.
    """
    import asyncio
    import sqlite3

    import aiohttp
    import discord

    from bot.aiosqlite_threads import threads_ended_after
    from bot.app import BAD_TOKEN_MESSAGE, NO_TOKEN_MESSAGE, unreachable_line
    from bot.command_sync import target_name
    from bot.config import one_line, store_problem
    from bot.logging_setup import configure_logging
    from bot.store import StoreError, store_for

    settings = settings_from_env("monopoly-bot")
    if settings is None:
        return 2
    if not settings.discord_token:
        sys.stderr.write(NO_TOKEN_MESSAGE)
        return 2
    try:
        store_for(settings)  # a wrong MONOPOLY_DATABASE_URL scheme: one line, not a traceback
    except ValueError as error:
        print(f"monopoly-bot sync: {one_line(error)}", file=sys.stderr)
        return 2
    configure_logging(settings.log_level)
    try:
        count = asyncio.run(
            threads_ended_after(_sync_once(settings, settings.discord_token, args.guild))
        )
    except discord.LoginFailure:
        sys.stderr.write(BAD_TOKEN_MESSAGE)
        return 1
    except (discord.DiscordServerError, aiohttp.ClientError, TimeoutError) as error:
        # Before the other HTTPExceptions and OSErrors: aiohttp's are both.
        sys.stderr.write(unreachable_line(error))
        return 1
    except discord.HTTPException as error:
        print(f"monopoly-bot sync: Discord refused the sync: {error}", file=sys.stderr)
        return 1
    except (StoreError, OSError, sqlite3.Error) as error:
        # The login opens the store (the bot's setup): one line naming the setting.
        problem = store_problem(settings, error, "cannot open the database")
        print(f"monopoly-bot sync: {problem}", file=sys.stderr)
        return 2
    print(f"monopoly-bot: synced {count} application command(s) {target_name(args.guild)}")
    return 0


async def _sync_once(settings: Settings, token: str, guild_id: int | None) -> int:
    """Log in (which runs the bot's setup, without the gateway), force a sync, close.

    Returns the number of top-level commands synced.
    """
    import discord

    from bot.app import MonopolyBot
    from bot.command_sync import sync_commands

    # The start's own sync is off (this command syncs to its own target, once) and so
    # are the timers: this process must not play games' deadlines next to the bot.
    bot = MonopolyBot(settings, sync="off", start_timers=False)
    try:
        await bot.login(token)
        await sync_commands(bot, guild_id=guild_id, force=True)
        guild = None if guild_id is None else discord.Object(id=guild_id)
        return len(bot.tree.get_commands(guild=guild))
    finally:
        # Closes the HTTP session and the store, also after a failed login or sync.
        await bot.close()
