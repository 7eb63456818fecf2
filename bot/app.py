"""The Discord client: :class:`MonopolyBot`, :func:`create_bot` and :func:`run_bot`.

A bot runs as one process holding every guild, or as a fleet of processes that share one
store, each holding some shards of the gateway (``MONOPOLY_SHARD_COUNT`` and
``MONOPOLY_SHARD_IDS``): :func:`create_bot` then builds a :class:`ShardedMonopolyBot`
(an ``AutoShardedBot`` given exactly those shards) whose timers are those of its guilds.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import math
import signal
import sqlite3
import sys
from pathlib import Path
from typing import Any

import aiohttp
import discord
from discord.ext import commands

from bot.aiosqlite_threads import aiosqlite_threads_ended
from bot.command_sync import sync_commands
from bot.config import Settings, Tuning, one_line, store_problem, token_problem
from bot.heartbeat import HEARTBEAT_EVERY, heartbeat_payload, write_heartbeat
from bot.i18n import normalise_language, t
from bot.logging_setup import configure_logging
from bot.scheduler import Scheduler
from bot.service import GameService, SeedSource
from bot.store import GameInfo, GameStore, StoreError, Timer, store_for
from bot.translator import CatalogTranslator

log = logging.getLogger(__name__)

#: Extension modules (cogs) loaded at start-up, e.g. ``"cogs.game"``.
EXTENSIONS: tuple[str, ...] = ("cogs.extension",)

NO_TOKEN_MESSAGE = """\
monopoly-bot: no DISCORD_TOKEN set, so the bot cannot log in to Discord.

How to get a token:
  1. Open https://discord.com/developers/applications and pick your application
     (or create one with "New Application").
  2. Go to "Bot" and press "Reset Token"; copy the token.
  3. Put it in a file named .env in the directory you start the bot from:
         DISCORD_TOKEN=your-token-here
     (copy .env.example to .env for all settings), or set DISCORD_TOKEN in the
     environment.
"""

BAD_TOKEN_MESSAGE = """\
monopoly-bot: Discord rejected the DISCORD_TOKEN (login failed).
Reset the token at https://discord.com/developers/applications (your app -> Bot ->
Reset Token) and put the new one in .env or the environment.
"""


#: Seconds the timer loop sleeps at most before looking at the store again.
TIMER_POLL = 3600.0

#: When a start syncs the slash commands: if they changed, always, or never.
SYNC_MODES = ("auto", "force", "off")

#: Seconds between two log lines of the shard ids and the gateway latencies.
LATENCY_LOG_EVERY = 600.0

#: Seconds the start waits for Discord's answer to its login before giving up.
DISCORD_TIMEOUT = 30.0
#: How the line about an unreachable Discord ends: a container (restart: unless-stopped)
#: or a process manager starts the bot again on exit code 1.
UNREACHABLE_END = "; nothing was changed, exiting with code 1 (start again later)"


class MonopolyBot(commands.Bot):
    """The bot: default intents, mention prefix, slash commands provided by cogs.

    This class holds the whole gateway in one connection (no shard settings are passed,
    so discord.py asks Discord for nothing); :class:`ShardedMonopolyBot` is the same bot
    holding some shards. Build either with :func:`create_bot`.
    """

    def __init__(
        self,
        settings: Settings,
        *,
        store: GameStore | None = None,
        seeds: SeedSource | None = None,
        tuning: Tuning | None = None,
        sync: str = "auto",
        start_timers: bool = True,
        heartbeat_file: Path | None = None,
    ) -> None:
        """Create the bot for ``settings``; does not connect to Discord.

        ``store`` defaults to the database named by the settings; tests pass their
        own, ``seeds`` to make the dice of new games predictable and ``tuning`` to make
        the computer players and the publisher quicker.

        ``sync`` says when the start syncs the slash commands to Discord (see
        :mod:`bot.command_sync`): ``"auto"`` only if they changed since the last sync,
        ``"force"`` always, ``"off"`` never. ``start_timers=False`` leaves the timer loop
        stopped, for one-off processes (``monopoly-bot sync``) that must not play the
        games' deadlines alongside the running bot.

        ``heartbeat_file``: while connected, write the heartbeat there every
        :data:`~bot.heartbeat.HEARTBEAT_EVERY` seconds (``monopoly-bot health`` reads it);
        None (tests, one-off processes) writes none. With shard settings the timers
        fired are those of the guilds of ``settings.shard_ids`` (see
        :mod:`bot.scheduler`), whichever class holds the gateway.
        """
        if sync not in SYNC_MODES:
            raise ValueError(f"sync must be one of {', '.join(SYNC_MODES)}, not {sync!r}")
        super().__init__(
            command_prefix=commands.when_mentioned,
            intents=discord.Intents.default(),
            **self.gateway_options(settings),
        )
        self.heartbeat_file = heartbeat_file
        self._watch_task: asyncio.Task[None] | None = None
        self._shutdown: asyncio.Future[None] | None = None
        self._heartbeat_written = False
        self.sync_mode = sync
        self.start_timers = start_timers
        self.settings = settings
        self.tuning = tuning or Tuning()
        self.store = store if store is not None else store_for(settings)
        self.service = GameService(self.store, seeds=seeds)
        # Games set aside at start-up because their state could not be read; their
        # channels are told once the bot is connected (see on_ready).
        self.broken_games: list[GameInfo] = []
        if getattr(self.store, "on_broken", "absent") is None:
            self.store.on_broken = self.broken_games.append  # type: ignore[attr-defined]

    async def setup_hook(self) -> None:
        """Open the store, load every extension in :data:`EXTENSIONS`, sync the commands.

        Commands are synced to ``settings.dev_guild_id`` if set (instant), else globally,
        as the ``sync`` option says; a failed sync is logged and the bot runs on with
        the commands Discord has (the next start tries again).
        """
        if getattr(self, "stop_on_sigterm", False):
            # Containers stop a process with SIGTERM; discord.py only handles SIGINT.
            # Closing ends the timers and closes the store after its last writes.
            loop = asyncio.get_running_loop()
            with contextlib.suppress(NotImplementedError):  # not on Windows
                loop.add_signal_handler(signal.SIGTERM, lambda: loop.create_task(self.close()))
        await self.store.open()
        running = await self.store.unfinished_games()
        log.info("Store open: %d unfinished game(s) picked up", len(running))
        for extension in EXTENSIONS:
            log.info("Loading extension %s", extension)
            await self.load_extension(extension)
        log.info("Loaded %d extension(s)", len(EXTENSIONS))

        # Turn deadlines and reminders: one loop fires the store's timers when due. It
        # runs only while there are timers: started here if any are pending (those that
        # came due while the bot was down fire now), else by the first one scheduled.
        # This process wakes the loop whenever it adds a timer, so the loop only looks
        # at the store by itself once an hour (for timers another process added).
        # A process of a sharded fleet fires the timers of its own guilds only (the
        # process that also gets their clicks); the others' processes fire theirs.
        self.scheduler = Scheduler(
            self.store,
            self._fire_timer,
            now=discord.utils.utcnow,
            max_sleep=TIMER_POLL,
            shards=self.settings.shard_filter,
        )
        if self.start_timers and await self.scheduler.next_due_at() is not None:
            self.scheduler.start()
        # German names and descriptions for the commands (English is the source text).
        # Set before the fingerprint is taken: it covers the German texts, too.
        await self.tree.set_translator(CatalogTranslator())
        if self.sync_mode == "off":
            log.info("Application command sync is off; Discord keeps the commands it has")
            return
        try:
            await sync_commands(
                self, guild_id=self.settings.dev_guild_id, force=self.sync_mode == "force"
            )
        except discord.HTTPException:
            # Not fatal: the commands Discord has still work (at worst outdated), and a
            # bot that crashed here and was restarted would only hit the rate limit again.
            log.exception(
                "Syncing the application commands failed; running with the commands "
                "Discord has, the next start tries again"
            )

    @staticmethod
    def gateway_options(settings: Settings) -> dict[str, Any]:
        """Options of the gateway client for ``settings``: none, for one connection."""
        return {}

    def holds_guild(self, guild_id: int) -> bool:
        """Whether this process's shards hold ``guild_id`` (always, if unsharded)."""
        return self.settings.holds_guild(guild_id)

    def gateway_latencies(self) -> list[tuple[int | None, float]]:
        """``(shard id, seconds)`` per gateway connection; shard id None if unsharded."""
        return [(None, self.latency)]

    def gateway_connected(self) -> bool:
        """Whether every gateway connection of this process is open now."""
        ws = self.ws
        return not self.is_closed() and ws is not None and bool(getattr(ws, "open", False))

    def gateway_report(self) -> str:
        """One line for the log: the shards held and each one's gateway latency."""
        held = (
            "unsharded"
            if self.settings.shard_ids is None
            else f"shards {_ids(self.settings.shard_ids)} of {self.settings.shard_count}"
        )
        latencies = ", ".join(
            ("" if shard is None else f"shard {shard} ") + _milliseconds(latency)
            for shard, latency in self.gateway_latencies()
        )
        return f"Gateway: {held}; latency {latencies or 'not measured'}"

    def beat(self) -> bool:
        """Write the heartbeat file if connected; True if it was written.

        A failed write (a full disk, a read-only directory) is logged and the bot runs
        on: the health check then reports the heartbeat as stale.
        """
        if self.heartbeat_file is None or not self.gateway_connected():
            return False
        payload = heartbeat_payload(self.settings.shard_ids, self.gateway_latencies())
        try:
            write_heartbeat(self.heartbeat_file, payload)
        except OSError:
            log.warning("Could not write the heartbeat file %s", self.heartbeat_file, exc_info=True)
            return False
        self._heartbeat_written = True
        return True

    async def _watch(self) -> None:
        """Every heartbeat interval: the heartbeat; every ten minutes: the latencies."""
        loop = asyncio.get_running_loop()
        logged = loop.time()
        while True:
            await asyncio.sleep(HEARTBEAT_EVERY)
            try:
                self.beat()
                if loop.time() - logged >= LATENCY_LOG_EVERY:
                    logged = loop.time()
                    log.info("%s", self.gateway_report())
            except Exception:
                # The loop must outlive a surprise: without it the health check would
                # call a working bot dead.
                log.exception("The heartbeat failed; trying again in %.0f s", HEARTBEAT_EVERY)

    async def on_ready(self) -> None:
        """Log the shards and latencies, start the heartbeat, tell the channels of games
        that had to be set aside (admins can export them).

        discord.py calls this again after a new session (a resume that failed), so the
        heartbeat loop is started only once.
        """
        log.info("%s", self.gateway_report())
        self.beat()
        if self._watch_task is None or self._watch_task.done():
            self._watch_task = asyncio.get_running_loop().create_task(
                self._watch(), name="gateway-watch"
            )
        while self.broken_games:
            info = self.broken_games.pop(0)
            channel = self.get_channel(info.channel_id)
            lang = normalise_language(info.settings.get("lang") if info.settings else None)
            if isinstance(channel, discord.abc.Messageable):
                try:
                    await channel.send(t(lang, "admin.broken_game", game=info.id))
                except discord.HTTPException:
                    log.warning(
                        "Could not tell channel %s about broken game %s", info.channel_id, info.id
                    )

    async def _fire_timer(self, timer: Timer) -> None:
        # Set by the Discord layer's extension (cogs/extension.py): bot/ imports no cog.
        handler = getattr(self, "timer_handler", None)
        if handler is not None:
            await handler(timer)

    async def stop_background(self) -> None:
        """Stop the timers, the heartbeat and the Discord layer's background work."""
        watch, self._watch_task = self._watch_task, None
        if watch is not None:
            watch.cancel()
            await asyncio.gather(watch, return_exceptions=True)
        if self._heartbeat_written and self.heartbeat_file is not None:
            # A bot that stopped is not healthy: no old heartbeat may say otherwise.
            self.heartbeat_file.unlink(missing_ok=True)
            self._heartbeat_written = False
        core = getattr(self, "core", None)
        if core is not None:
            await core.stop()
        scheduler = getattr(self, "scheduler", None)
        if scheduler is not None:
            await scheduler.stop()

    async def close(self) -> None:
        """Log out, stop the timers, then close the store after its last writes.

        Done once: a second call (``async with``'s exit after a SIGTERM began it) waits
        for the first to end, store included, so the loop is not stopped half-way.
        """
        if self._shutdown is None:
            log_out = super().close

            async def shut_down() -> None:
                await log_out()
                await self.stop_background()
                await self.store.close()

            self._shutdown = asyncio.ensure_future(shut_down())
        await asyncio.shield(self._shutdown)

    async def __aexit__(self, *exc_info: Any) -> None:
        """Leaving ``async with`` (as ``run`` does) waits for the whole close: discord.py's
        own exit waits only for its logout, and the loop would then cancel the rest."""
        await self.close()


class ShardedMonopolyBot(MonopolyBot, commands.AutoShardedBot):
    """The bot as one process of a sharded fleet: it holds ``settings.shard_ids`` of
    ``settings.shard_count`` gateway shards (all of them if only the count is set).

    Both are always passed, so discord.py never asks Discord for its recommended count:
    every process of the fleet must agree on the count, or guilds would be held twice or
    not at all.
    """

    def __init__(self, settings: Settings, **options: Any) -> None:
        """Create the sharded bot; ``options`` are those of :class:`MonopolyBot`."""
        if settings.shard_count is None:
            raise ValueError("a sharded bot needs MONOPOLY_SHARD_COUNT; use create_bot()")
        super().__init__(settings, **options)

    @staticmethod
    def gateway_options(settings: Settings) -> dict[str, Any]:
        """The shard count and the shard ids this process holds."""
        assert settings.shard_count is not None and settings.shard_ids is not None
        return {"shard_count": settings.shard_count, "shard_ids": list(settings.shard_ids)}

    def gateway_latencies(self) -> list[tuple[int | None, float]]:
        """``(shard id, seconds)`` for each shard this process holds, in order."""
        return sorted(self.latencies)

    def gateway_connected(self) -> bool:
        """Whether every shard this process holds has an open connection now."""
        shards = self.shards
        held = self.settings.shard_ids or ()
        return (
            not self.is_closed()
            and all(shard in shards for shard in held)
            and not any(info.is_closed() for info in shards.values())
        )


def create_bot(settings: Settings, **options: Any) -> MonopolyBot:
    """The bot for ``settings``: sharded if ``MONOPOLY_SHARD_COUNT`` is set, else one
    connection; ``options`` go to :class:`MonopolyBot`."""
    if settings.sharded:
        return ShardedMonopolyBot(settings, **options)
    return MonopolyBot(settings, **options)


async def check_store(settings: Settings) -> str | None:
    """Open and close the store of ``settings`` once; None if it works, else one line.

    Run after the login over HTTP and before the gateway (:func:`preflight`), so that a
    bad store setting stops the bot with a line naming the setting: a wrong URL scheme
    (from :func:`store_for`), a server that cannot be reached, a database migrated by a
    newer bot, a file that cannot be opened. Nothing is written in those cases (a newer
    schema is refused before any migration); a good store is opened as the bot would
    open it.
    """
    try:
        store = store_for(settings)
    except ValueError as error:
        return one_line(error)
    try:
        await store.open()
    except StoreError as error:
        # StoreUnavailable names the setting itself; a SchemaError gets it in front.
        return store_problem(settings, error)
    except (OSError, sqlite3.Error) as error:
        return store_problem(settings, error, "cannot open the database")
    await store.close()
    return None


def unreachable_line(error: BaseException, timeout: float = DISCORD_TIMEOUT) -> str:
    """The one line (with its newline) for a Discord that cannot be reached: no
    connection, no answer within ``timeout`` seconds, or a server error (HTTP 5xx)."""
    if isinstance(error, discord.HTTPException):
        reason = f"Discord answered HTTP {error.status} ({one_line(error)})"
    elif isinstance(error, TimeoutError) and not str(error):
        reason = f"no answer from Discord within {timeout:g} s"
    else:
        reason = f"{type(error).__name__}: {one_line(error)}"
    return f"monopoly-bot: cannot reach Discord: {reason}{UNREACHABLE_END}\n"


async def check_discord(token: str, *, timeout: float = DISCORD_TIMEOUT) -> str | None:
    """Log in to Discord over HTTP once (``GET /users/@me``, what ``Client.login`` asks
    first); None if Discord accepts the token, else the text to print before exit code 1.

    That text is :data:`BAD_TOKEN_MESSAGE` for a token Discord rejects (or another 4xx,
    on one line), and one line (:func:`unreachable_line`) for a Discord that cannot be
    reached: no connection (DNS, refused, TLS), no answer within ``timeout`` seconds, or
    HTTP 5xx. The session is closed in every case, so no warning or traceback follows.
    """
    http = discord.http.HTTPClient(asyncio.get_running_loop())
    try:
        async with asyncio.timeout(timeout):
            await http.static_login(token)
    except discord.LoginFailure:
        return BAD_TOKEN_MESSAGE
    except discord.DiscordServerError as error:
        return unreachable_line(error, timeout)
    except discord.HTTPException as error:
        return f"monopoly-bot: Discord refused the login: HTTP {error.status} ({one_line(error)})\n"
    # aiohttp's connection errors are OSErrors; TimeoutError is asyncio's, too.
    except (aiohttp.ClientError, OSError, TimeoutError) as error:
        return unreachable_line(error, timeout)
    finally:
        await http.close()
    return None


async def preflight(settings: Settings, token: str) -> tuple[int, str] | None:
    """What ``run`` checks before the gateway, in one event loop: the login over HTTP
    (:func:`check_discord`), then the store (:func:`check_store`). None if both are
    fine, else the exit code and the text to print.

    Discord first: a Discord that cannot be reached, or a rejected token, stops the bot
    before the store is created or migrated.
    """
    problem = await check_discord(token)
    if problem is not None:
        return 1, problem
    # The store's threads end before this loop does (see bot/aiosqlite_threads.py).
    async with aiosqlite_threads_ended():
        store_line = await check_store(settings)
    if store_line is not None:
        return 2, f"monopoly-bot: {store_line}\n"
    return None


def run_bot(settings: Settings) -> int:
    """Run the bot until it stops; return a process exit code.

    Checked first, in this order, so that a wrong setting changes nothing: the token's
    shape (:func:`~bot.config.token_problem`; 2), the store setting (from
    :func:`store_for`, without touching the store; 2), a login over HTTP (1 if Discord
    rejects the token or cannot be reached: one line, for a container to restart the
    bot), then the store opened, migrated and closed again (:func:`check_store`; 2).
    Returns 2 with a help message if no token is configured, 1 if Discord rejects the
    token or cannot be reached when the gateway logs in, and 0 after a normal shutdown.
    """
    token = settings.discord_token
    if not token:
        sys.stderr.write(NO_TOKEN_MESSAGE)
        return 2
    problem = token_problem(token)
    if problem is not None:
        sys.stderr.write(f"monopoly-bot: {problem}\n")
        return 2
    try:
        store_for(settings)  # a wrong URL scheme; nothing is opened yet
    except ValueError as error:
        sys.stderr.write(f"monopoly-bot: {one_line(error)}\n")
        return 2
    configure_logging(settings.log_level)
    stop = asyncio.run(preflight(settings, token))
    if stop is not None:
        code, text = stop
        sys.stderr.write(text)
        return code
    # A heartbeat left by an earlier run must not call this start healthy before it
    # has connected.
    with contextlib.suppress(OSError):
        settings.heartbeat_file.unlink(missing_ok=True)
    log.info(
        "Starting %s",
        "unsharded"
        if settings.shard_ids is None
        else f"with shards {_ids(settings.shard_ids)} of {settings.shard_count}",
    )
    bot = create_bot(settings, heartbeat_file=settings.heartbeat_file)
    bot.stop_on_sigterm = True
    try:
        bot.run(token, log_handler=None)
    except discord.LoginFailure:
        sys.stderr.write(BAD_TOKEN_MESSAGE)
        return 1
    except (aiohttp.ClientError, TimeoutError, discord.DiscordServerError) as error:
        # Discord went away between the check and the gateway's own login.
        sys.stderr.write(unreachable_line(error))
        return 1
    return 0


def _ids(shard_ids: tuple[int, ...]) -> str:
    return ",".join(str(shard) for shard in shard_ids)


def _milliseconds(latency: float) -> str:
    """A gateway latency for the log; discord.py gives inf/nan before it measured one."""
    return f"{latency * 1000:.0f} ms" if math.isfinite(latency) else "not measured"
