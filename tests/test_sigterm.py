"""SIGTERM (what ``docker stop`` sends) closes a bot started by ``run_bot``: it stops its
timers and closes its store, and the process ends cleanly (Dockerfile: STOPSIGNAL SIGTERM)."""

from __future__ import annotations

import os
import signal
import subprocess
import sys
import textwrap
import time
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]

CHILD = textwrap.dedent(
    """
    import asyncio, sys
    from pathlib import Path
    from bot.app import MonopolyBot
    from bot.config import Settings

    async def main() -> None:
        db = Path(sys.argv[1])
        settings = Settings(discord_token="x", db_path=db, log_level="INFO", dev_guild_id=None)
        bot = MonopolyBot(settings, sync="off")
        bot.stop_on_sigterm = True  # as run_bot sets it
        close_store = bot.store.close

        async def slow_close() -> None:  # a store that takes its time with its last writes
            await asyncio.sleep(0.3)
            await close_store()

        bot.store.close = slow_close
        async with bot:  # as discord.py's run() does
            await bot.setup_hook()
            print("ready", flush=True)
            while not bot.is_closed():
                await asyncio.sleep(0.05)
        print("closed", bot.store._conn is None, flush=True)

    asyncio.run(main())
    """
)


@pytest.mark.skipif(not hasattr(signal, "SIGTERM") or os.name != "posix", reason="POSIX only")
def test_sigterm_closes_the_bot_and_its_store(tmp_path: Path) -> None:
    """The child prints "ready" after setup; SIGTERM makes it close the bot (and the store)
    and end with exit code 0. Its store takes a while to close: leaving ``async with`` (as
    ``run`` does) still waits for it, so the loop does not cancel the close half-way."""
    child = subprocess.Popen(
        [sys.executable, "-c", CHILD, str(tmp_path / "games.db")],
        cwd=ROOT,
        env={**os.environ, "PYTHONPATH": str(ROOT)},
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
    )
    assert child.stdout is not None
    assert child.stdout.readline().strip() == "ready"
    time.sleep(0.1)
    child.send_signal(signal.SIGTERM)
    out, err = child.communicate(timeout=30)
    assert child.returncode == 0, err
    assert out.strip() == "closed True", out + err
