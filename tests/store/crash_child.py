"""Child process of ``test_crash``: plays many stored games until it is killed.

Usage: ``python -m tests.store.crash_child DB GAMES``, where ``DB`` is a SQLite file or
a ``postgresql://`` URL (the PostgreSQL store). Prints ``ready`` once the
games exist, then one line ``done <game_id> <seq>`` after each action the store
reported as done, flushed at once so the parent knows about it even if this
process is killed the next instant.
"""

from __future__ import annotations

import asyncio
import contextlib
import sys

from bot.engine.game import new_game
from bot.store import ChannelBusy, GameStore, PostgresGameStore, SqliteGameStore
from bot.store.bench import next_simple_action

GUILD = 4242
FIRST_CHANNEL = 1000
SEATS = [("a", "A"), ("b", "B"), ("c", "C"), ("d", "D")]


def open_store(target: str) -> GameStore:
    """The store on ``target``: a PostgreSQL URL, or else a SQLite file."""
    if target.startswith(("postgresql://", "postgres://")):
        return PostgresGameStore(target)
    return SqliteGameStore(target)


def say(line: str) -> None:
    """Write one line to the parent and flush it."""
    sys.stdout.write(line + "\n")
    sys.stdout.flush()


async def play(store: GameStore, game_id: int) -> None:
    """Play one game with simple players, reporting every applied action."""
    state = (await store.load(game_id)).state
    assert state is not None
    while (action := next_simple_action(state)) is not None:
        result = await store.apply(game_id, action, expected_seq=state.seq)
        say(f"done {game_id} {result.seq}")
        state = result.state
        # Let the other games' coroutines in, as interactions would interleave.
        await asyncio.sleep(0)


async def main(path: str, games: int) -> None:
    """Make sure ``games`` games exist (an earlier child may have died creating them),
    then play them all at once."""
    store = open_store(path)
    await store.open()
    for number in range(games):
        with contextlib.suppress(ChannelBusy):
            await store.create_game(
                GUILD, FIRST_CHANNEL + number, new_game(SEATS, seed=number), created_by=1
            )
    rows = await store.unfinished_games()
    say("ready")
    await asyncio.gather(*(play(store, row.id) for row in rows if row.state is not None))
    await store.close()


if __name__ == "__main__":
    asyncio.run(main(sys.argv[1], int(sys.argv[2])))
