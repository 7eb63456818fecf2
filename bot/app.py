"""The Discord client: :class:`MonopolyBot` and :func:`run_bot`."""

from __future__ import annotations

import logging
import sys

import discord
from discord.ext import commands

from bot.command_sync import sync_commands
from bot.config import Settings, Tuning
from bot.i18n import normalise_language, t
from bot.logging_setup import configure_logging
from bot.scheduler import Scheduler
from bot.service import GameService, SeedSource
from bot.store import GameInfo, GameStore, Timer, store_for
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


class MonopolyBot(commands.Bot):
    """The bot: default intents, mention prefix, slash commands provided by cogs."""

    def __init__(
        self,
        settings: Settings,
        *,
        store: GameStore | None = None,
        seeds: SeedSource | None = None,
        tuning: Tuning | None = None,
        sync: str = "auto",
        start_timers: bool = True,
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
        """
        if sync not in SYNC_MODES:
            raise ValueError(f"sync must be one of {', '.join(SYNC_MODES)}, not {sync!r}")
        super().__init__(
            command_prefix=commands.when_mentioned,
            intents=discord.Intents.default(),
        )
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
        self.scheduler = Scheduler(
            self.store, self._fire_timer, now=discord.utils.utcnow, max_sleep=TIMER_POLL
        )
        if self.start_timers and await self.store.next_due_at() is not None:
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

    async def on_ready(self) -> None:
        """Tell the channels of games that had to be set aside (admins can export them)."""
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
        """Stop the timers and the Discord layer's background work (sweeps, edits)."""
        core = getattr(self, "core", None)
        if core is not None:
            await core.stop()
        scheduler = getattr(self, "scheduler", None)
        if scheduler is not None:
            await scheduler.stop()

    async def close(self) -> None:
        """Log out, stop the timers, then close the store after its last writes."""
        await super().close()
        await self.stop_background()
        await self.store.close()


def run_bot(settings: Settings) -> int:
    """Run the bot until it stops; return a process exit code.

    Returns 2 without connecting if no token is configured (a help message goes to
    stderr), 1 if Discord rejects the token, and 0 after a normal shutdown.
    """
    if not settings.discord_token:
        sys.stderr.write(NO_TOKEN_MESSAGE)
        return 2
    configure_logging(settings.log_level)
    bot = MonopolyBot(settings)
    try:
        bot.run(settings.discord_token, log_handler=None)
    except discord.LoginFailure:
        sys.stderr.write(BAD_TOKEN_MESSAGE)
        return 1
    return 0
