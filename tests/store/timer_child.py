"""Child process of ``test_timer_crash``: runs a real scheduler until it is killed.

Usage: ``python -m tests.store.timer_child DB LEASE_SECONDS [--final]``, where ``DB`` is a
SQLite file or a ``postgresql://`` URL. The parent
has made the games and their due timers. The handler does what a real one does: it
writes to the store, idempotently by the timer (the game's settings keep the list of
timers whose effect was applied; a timer already in it changes nothing), and takes a
few milliseconds around that, like the Discord calls of a real handler. The
scheduler then completes the timer.

Lines to the parent, flushed at once so the parent has them even if this process is
killed the next instant: ``ready`` once the scheduler runs; ``start <timer> <attempt>``
when a handler starts; ``effect <timer>`` after its effect was stored, or ``absorbed
<timer>`` if an earlier run had stored it already. With ``--final`` the child stops
once no timer is pending and says ``finished``; otherwise it runs until killed.
"""

from __future__ import annotations

import asyncio
import sys
from datetime import UTC, datetime

from bot.scheduler import Scheduler
from bot.store import Timer
from tests.store.crash_child import open_store

#: Seconds a handler waits before and after storing its effect.
WORK = 0.004
#: The loop's longest sleep; short, so the last run notices promptly that all is done.
MAX_SLEEP = 0.1


def say(line: str) -> None:
    """Write one line to the parent and flush it."""
    sys.stdout.write(line + "\n")
    sys.stdout.flush()


def utc_now() -> datetime:
    """The scheduler's clock."""
    return datetime.now(UTC)


async def main(path: str, lease: float, final: bool) -> None:
    """Fire the database's timers with an idempotent handler until killed (or done)."""
    store = open_store(path)
    await store.open()

    async def handler(timer: Timer) -> None:
        say(f"start {timer.id} {timer.attempts}")
        await asyncio.sleep(WORK)
        row = await store.load(timer.game_id)
        fired = list(row.settings.get("fired", []))
        if timer.id in fired:
            say(f"absorbed {timer.id}")  # a run before the crash got this far
        else:
            # Versioned: had anything written the settings since the load, this would
            # fail (and the timer be tried again) instead of overwriting it.
            await store.patch_settings(
                timer.game_id, {"fired": [*fired, timer.id]}, expected_version=row.settings_version
            )
            say(f"effect {timer.id}")
        await asyncio.sleep(WORK)

    scheduler = Scheduler(store, handler, now=utc_now, max_sleep=MAX_SLEEP, lease_seconds=lease)
    scheduler.start()
    say("ready")
    if not final:
        await asyncio.Event().wait()  # until the parent kills us
    # Leases left by the killed runs run out within ``lease`` seconds; then the
    # scheduler fires those timers again and nothing is pending any more.
    while await store.next_due_at() is not None:
        await asyncio.sleep(0.02)
    await scheduler.stop()
    await store.close()
    say("finished")


if __name__ == "__main__":
    asyncio.run(main(sys.argv[1], float(sys.argv[2]), "--final" in sys.argv[3:]))
