"""Click → reply through simcord: how long a player waits for the bot.

``python -m tests.bench_click [--rounds N]`` plays N short turns in fresh games (a throw onto
the income tax, then "end turn") against simcord's in-memory Discord and reports, per click,
the time until the bot answered the interaction (its acknowledgement reached Discord) and
the time until everything the click caused was done (new turn message with its board image
included). Medians and 90th percentiles, in milliseconds.

The script uses only what every version of the bot offers (the store, the extension, the
buttons' labels), so it can be run on an older checkout to compare. Not a test: timing
belongs in benchmarks.
"""

from __future__ import annotations

import argparse
import asyncio
import inspect
import itertools
import json
import statistics
import tempfile
import time
from pathlib import Path
from typing import Any

from simcord.env import Env
from simcord.http import router

from bot.app import MonopolyBot
from bot.config import Settings
from bot.engine.scenario import SCENARIO_FORMAT, run
from bot.store import SqliteGameStore

ROLL, END = "🎲 Würfeln", "Zug beenden"


def _seed_for_four() -> int:
    """A seed whose first throw is 1 + 3: from LOS onto the income tax (nothing to decide)."""
    from bot.engine.rng import SplitMix64

    for seed in itertools.count(1):
        rng = SplitMix64(seed)
        if (rng.die(), rng.die()) == (1, 3):
            return seed
    raise AssertionError


def _labels(message: Any) -> list[str]:
    return [c.label for row in message.components for c in row.children if hasattr(c, "label")]


async def _post_turn(bot: Any, game: int, channel_id: int) -> None:
    core = getattr(bot, "core", None)
    if core is not None:  # this version: the publisher shows the game's message
        await core.publisher.show(game)
        return
    cog = bot.get_cog("Monopoly")  # the version before the rebuild
    row = await bot.store.load(game)
    await cog.post_turn_message(
        bot.get_channel(channel_id), game, row.state, dict(row.settings), []
    )


async def measure(rounds: int) -> dict[str, Any]:
    """Play ``rounds`` turns of two clicks each; the figures in milliseconds."""
    stamps: dict[str, float] = {}
    original = router.dispatch

    def timed(backend: Any, method: str, path: str, **kwargs: Any) -> Any:
        if path.startswith("/interactions/") and path.endswith("/callback"):
            stamps.setdefault("ack", time.perf_counter())
        return original(backend, method, path, **kwargs)

    router.dispatch = timed  # type: ignore[assignment]
    with tempfile.TemporaryDirectory() as folder:
        db = Path(folder) / "bench.db"
        settings = Settings(discord_token=None, db_path=db, log_level="WARNING", dev_guild_id=None)
        options: dict[str, Any] = {"store": SqliteGameStore(db), "seeds": lambda: 7}
        bot = MonopolyBot(settings, **options)
        env = Env(bot)
        await env.start()
        guild = env.create_guild("Bench")
        alice = guild.add_member(env.create_user("alice"))
        bob = guild.add_member(env.create_user("bob"))
        seed = _seed_for_four()
        ack_times, done_times = [], []
        try:
            for number in range(rounds):
                channel = guild.create_text_channel(f"game-{number}")
                raw = {
                    "format": SCENARIO_FORMAT,
                    "seed": seed,
                    "players": [
                        {"id": str(alice.id), "name": "alice"},
                        {"id": str(bob.id), "name": "bob"},
                    ],
                }
                row = await bot.store.create_game(
                    guild.id,
                    channel.id,
                    run(raw),
                    created_by=alice.id,
                    settings={
                        "host": alice.id,
                        "players": [
                            {"id": alice.id, "name": "alice"},
                            {"id": bob.id, "name": "bob"},
                        ],
                        "preset": "classic",
                        "lang": "de",
                        "theme": None,
                        "max_players": 6,
                    },
                )
                await _post_turn(bot, row.id, channel.id)
                await env.settle()
                for label in (ROLL, END):
                    message = next(m for m in channel.history() if label in _labels(m))
                    stamps.clear()
                    start = time.perf_counter()
                    await alice.click(message, label=label)
                    done = time.perf_counter()
                    ack_times.append((stamps.get("ack", done) - start) * 1000)
                    done_times.append((done - start) * 1000)
        finally:
            router.dispatch = original  # type: ignore[assignment]
            stop = getattr(bot, "stop_background", None)
            if stop is not None and inspect.iscoroutinefunction(stop):
                await stop()
            elif getattr(bot, "scheduler", None) is not None:
                await bot.scheduler.stop()
            await env.shutdown()
            await bot.store.close()

    def figures(values: list[float]) -> dict[str, float]:
        ordered = sorted(values)
        return {
            "median_ms": round(statistics.median(ordered), 1),
            "p90_ms": round(ordered[int(0.9 * (len(ordered) - 1))], 1),
        }

    return {
        "clicks": len(ack_times),
        "answered": figures(ack_times),
        "done": figures(done_times),
    }


def main() -> None:
    """Run the measurement and print it as JSON."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--rounds", type=int, default=20)
    args = parser.parse_args()
    print(json.dumps(asyncio.run(measure(args.rounds)), indent=1))


if __name__ == "__main__":
    main()
