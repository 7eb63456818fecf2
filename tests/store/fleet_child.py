"""Child process of ``test_fleet``: one bot process of a fleet of two on one database.

Usage: ``python -m tests.store.fleet_child DB MODE LEASE_SECONDS GUILD TARGET_SEQ``, where
``DB`` is a SQLite file or a ``postgresql://`` URL. The parent has made the games and
their due timers. The child opens the store, says ``ready`` and waits for ``go`` on its
stdin (so both children start at once), then:

* ``play``: clicks and fires timers at the same time. The clicks: for every running game
  of ``GUILD``, over and over, read the game, make the engine's legal next action (a
  simple player's) and apply it with ``expected_seq``, until the game reaches
  ``TARGET_SEQ`` (or ends); the other child races for the same games, so a lost race is
  a ``StaleAction``, counted. The timers: a real :class:`~bot.scheduler.Scheduler`
  whose handler, for a timer with payload ``{"seq": s}``, applies the game's default
  action (:func:`bot.engine.defaults.default_action`) with ``expected_seq=s``, as the
  bot's deadline handlers do. Once its clicks are done and no timer is pending (the
  other child's included) the child stops and says ``finished``.
* ``hold``: the scheduler only: each handler says ``start`` and then hangs, so this child
  holds the leases of the timers it took (renewed while it lives) until it is killed.
* ``takeover``: the scheduler only, with the ``play`` handler; stops once no timer is
  pending, i.e. after the leases of a killed ``hold`` child ran out and it fired those
  timers itself.

Lines to the parent, flushed at once (a killed child's lines are still in the pipe):
``ready``; ``click <game> <seq>`` after an applied click (``seq``: the game's new seq);
``stale-click <game>``; ``start <timer> <attempt>`` when a handler starts; ``timer <timer>
<game> <seq>`` after a timer's action was applied; ``stale-timer <timer>`` when the game was
read at another seq than the timer's; ``refused-timer <timer>`` when it was read at the
timer's seq but the store refused the action as stale (a click or another timer moved the
game in between); ``idle <timer>`` when the game had nothing to do (over); ``finished``.
"""

from __future__ import annotations

import asyncio
import contextlib
import random
import sys
from datetime import UTC, datetime

from bot.engine.defaults import default_action
from bot.engine.state import GameState
from bot.scheduler import Scheduler
from bot.store import GameNotRunning, GameStatus, GameStore, StaleAction, Timer
from bot.store.bench import next_simple_action
from tests.store.crash_child import open_store

#: The scheduler's longest sleep: short, so a lease that ran out is noticed soon.
MAX_SLEEP = 0.05
#: Seconds the clicks wait at most for this process's first timer handler.
CLICK_DELAY = 0.5
#: The longest pause between two clicks on one game, in seconds.
CLICK_PAUSE = 0.03
#: Seconds the child waits for the other child's timers at most (then it fails).
PATIENCE = 60.0


def say(line: str) -> None:
    """Write one line to the parent and flush it."""
    sys.stdout.write(line + "\n")
    sys.stdout.flush()


def utc_now() -> datetime:
    """The scheduler's clock."""
    return datetime.now(UTC)


async def click(store: GameStore, game_id: int, target_seq: int) -> None:
    """Play the game's next legal actions, racing the other child, up to ``target_seq``."""
    while True:
        # A player's pause before each click (random, so the two processes' clicks fall
        # in every order): the timers' handlers get their turns between them.
        await asyncio.sleep(random.uniform(0, CLICK_PAUSE))
        row = await store.load(game_id)
        state = row.state
        if row.status != GameStatus.RUNNING or not isinstance(state, GameState):
            return  # the game ended (by a click or a timer)
        if state.seq >= target_seq:
            return
        action = next_simple_action(state)
        if action is None:
            return
        try:
            result = await store.apply(game_id, action, expected_seq=state.seq)
        except StaleAction:
            say(f"stale-click {game_id}")  # the other child (or a timer) was first
        except GameNotRunning:
            return
        else:
            say(f"click {game_id} {result.seq}")


async def fire(store: GameStore, timer: Timer) -> None:
    """A deadline: the game's default action, for the seq the timer was made for."""
    seq = timer.payload["seq"]
    row = await store.load(timer.game_id)
    state = row.state
    if row.status != GameStatus.RUNNING or not isinstance(state, GameState):
        say(f"idle {timer.id}")  # the game ended
        return
    action = default_action(state)
    if action is None:
        say(f"idle {timer.id}")
        return
    if state.seq != seq:
        # The default action is made for the state read, so it is the timer's only at
        # the timer's seq; at another seq the game has moved on (or not yet come to it).
        say(f"stale-timer {timer.id}")
        return
    try:
        # The store judges the seq once more: a click, another timer (of this process
        # or the other) may have moved the game since the read; then it refuses.
        result = await store.apply(timer.game_id, action, expected_seq=seq)
    except StaleAction:
        say(f"refused-timer {timer.id}")
    except GameNotRunning:
        say(f"idle {timer.id}")
    else:
        say(f"timer {timer.id} {timer.game_id} {result.seq}")


async def until_no_timer_pending(store: GameStore) -> None:
    """Wait until every timer of the database is completed (by either child)."""
    deadline = asyncio.get_running_loop().time() + PATIENCE
    while await store.next_due_at() is not None:
        if asyncio.get_running_loop().time() > deadline:
            raise TimeoutError("timers still pending")
        await asyncio.sleep(0.02)


async def main(path: str, mode: str, lease: float, guild: int, target_seq: int) -> None:
    """Open the store, wait for ``go``, then work in ``mode`` (see the module docstring)."""
    store = open_store(path)
    await store.open()

    firing = asyncio.Event()

    async def handler(timer: Timer) -> None:
        say(f"start {timer.id} {timer.attempts}")
        firing.set()
        if mode == "hold":
            await asyncio.Event().wait()  # hang, holding the lease, until killed
        await fire(store, timer)

    say("ready")
    await asyncio.to_thread(sys.stdin.readline)  # "go"
    scheduler = Scheduler(store, handler, now=utc_now, max_sleep=MAX_SLEEP, lease_seconds=lease)
    scheduler.start()
    if mode == "hold":
        await asyncio.Event().wait()  # until the parent kills us
    if mode == "play":
        games = [info.id for info in await store.list_games(guild)]
        # The clicks begin once the burst is being fired (or after a moment, should the
        # other process have taken every timer), so they meet the timers instead of
        # outrunning the scheduler's first query.
        with contextlib.suppress(TimeoutError):
            await asyncio.wait_for(firing.wait(), CLICK_DELAY)
        await asyncio.gather(*(click(store, game_id, target_seq) for game_id in games))
    await until_no_timer_pending(store)
    await scheduler.stop()
    await store.close()
    say("finished")


if __name__ == "__main__":
    db, mode, lease, guild, target = sys.argv[1:6]
    asyncio.run(main(db, mode, float(lease), int(guild), int(target)))
