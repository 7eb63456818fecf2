"""Click → reply through simcord: how long a player waits, and what each turn costs.

``python -m tests.bench_click [--turns N]`` plays one game of two players for N turns
(default 20) against simcord's in-memory Discord, at a player's pace (a second between
clicks, untimed): each turn the player throws, buys the lot they land on if they can (else
lets it go to auction, where both pass) and ends the turn. It reports, per kind of click
(Roll, Buy, End turn), the time until the bot answered the interaction (its
acknowledgement reached Discord) and the time until everything the click caused was done
(edits and new messages, pictures drawn and uploaded included): medians and 90th
percentiles in milliseconds. And per turn: messages posted, messages edited, images
uploaded and their bytes; and the bytes of the whole game.

The script uses only what every version of the bot offers (the store, the extension, the
buttons' labels), so it can be run on an older checkout to compare. Not a test: timing
belongs in benchmarks.
"""

from __future__ import annotations

import argparse
import asyncio
import inspect
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

#: Seconds between two clicks (untimed): a player is not quicker than the edit interval.
PACE = 1.05
ROLL, END, BUY, AUCTION, PASS = "🎲 Würfeln", "Zug beenden", "Kaufen (", "Versteigern", "Passen"


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


def _size(file: Any) -> int:
    fp = getattr(file, "fp", None)
    if fp is None:
        return 0
    try:
        return int(fp.getbuffer().nbytes)
    except (AttributeError, TypeError):
        here = fp.tell()
        fp.seek(0, 2)
        size = fp.tell()
        fp.seek(here)
        return int(size)


def _next_click(channel: Any) -> tuple[Any, str, str] | None:
    """The button to press next, on the newest message that has one: (message, label, kind)."""
    for message in sorted(channel.history(), key=lambda m: m.id, reverse=True):
        labels = _labels(message)
        if PASS in labels:
            return message, PASS, "pass"
        for label in labels:
            if label.startswith(BUY):
                return message, label, "buy"
        if ROLL in labels:
            return message, ROLL, "roll"
        if AUCTION in labels:  # the lot is too dear
            return message, AUCTION, "auction"
        if END in labels:
            return message, END, "end"
    return None


def _clicker(state: Any, kind: str, by_id: dict[int, Any]) -> Any:
    """Who presses the button: the next bidder still in for "Passen", else the mover."""
    if kind == "pass" and state.auction is not None:
        passed = set(state.auction["passed"])
        seat = next(s for s in state.auction["bidders"] if s not in passed)
    else:
        seat = state.current
    return by_id[int(state.players[seat].id)]


async def measure(turns: int) -> dict[str, Any]:
    """Play ``turns`` turns of one game; the figures (milliseconds, counts, bytes)."""
    stamps: dict[str, float] = {}
    calls: list[tuple[str, str, int, int]] = []
    original = router.dispatch

    def timed(backend: Any, method: str, path: str, **kwargs: Any) -> Any:
        if path.startswith("/interactions/") and path.endswith("/callback"):
            stamps.setdefault("ack", time.perf_counter())
        files = kwargs.get("files") or []
        calls.append((method, path, len(files), sum(_size(f) for f in files)))
        return original(backend, method, path, **kwargs)

    router.dispatch = timed  # type: ignore[assignment]
    times: dict[str, dict[str, list[float]]] = {}
    per_turn: list[dict[str, int]] = []
    with tempfile.TemporaryDirectory() as folder:
        db = Path(folder) / "bench.db"
        settings = Settings(discord_token=None, db_path=db, log_level="WARNING", dev_guild_id=None)
        options: dict[str, Any] = {"store": SqliteGameStore(db), "seeds": lambda: 7}
        bot = MonopolyBot(settings, **options)
        env = Env(bot)
        await env.start()
        guild = env.create_guild("Bench")
        players = [guild.add_member(env.create_user(name)) for name in ("alice", "bob")]
        by_id = {member.id: member for member in players}
        try:
            channel = guild.create_text_channel("game")
            raw = {
                "format": SCENARIO_FORMAT,
                "seed": 11,
                "players": [{"id": str(m.id), "name": m.name} for m in players],
            }
            row = await bot.store.create_game(
                guild.id,
                channel.id,
                run(raw),
                created_by=players[0].id,
                settings={
                    "host": players[0].id,
                    "players": [{"id": m.id, "name": m.name} for m in players],
                    "preset": "classic",
                    "lang": "de",
                    "theme": None,
                    "max_players": 6,
                },
            )
            await _post_turn(bot, row.id, channel.id)
            await env.settle()
            calls.clear()
            while len(per_turn) < turns:
                state = (await bot.store.load(row.id)).state
                found = _next_click(channel)
                if found is None or state is None or state.phase == "over":
                    break
                message, label, kind = found
                member = _clicker(state, kind, by_id)
                await env.advance_time(PACE)  # the clock the bot reads (simcord: virtual)
                stamps.clear()
                start = time.perf_counter()
                await member.click(message, label=label)
                publisher = getattr(getattr(bot, "core", None), "publisher", None)
                if publisher is not None and hasattr(publisher, "coalescer"):
                    await publisher.coalescer.drain()  # a put-off edit is part of the click
                await env.settle()
                done = time.perf_counter()
                kind_times = times.setdefault(kind, {"answered": [], "done": []})
                kind_times["answered"].append((stamps.get("ack", done) - start) * 1000)
                kind_times["done"].append((done - start) * 1000)
                if kind == "end":
                    per_turn.append(_count(calls))
                    calls.clear()
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

    def mean(key: str) -> float:
        return round(statistics.mean(t[key] for t in per_turn), 2) if per_turn else 0.0

    return {
        "turns": len(per_turn),
        "clicks": {
            kind: {
                "count": len(v["done"]),
                "answered": figures(v["answered"]),
                "done": figures(v["done"]),
            }
            for kind, v in sorted(times.items())
        },
        "per_turn": {key: mean(key) for key in ("posts", "edits", "uploads", "bytes")},
        "game_bytes": sum(t["bytes"] for t in per_turn),
    }


def _count(calls: list[tuple[str, str, int, int]]) -> dict[str, int]:
    """Messages posted and edited in the channel, uploads and their bytes."""
    channel = [c for c in calls if c[1].startswith("/channels/") and "/messages" in c[1]]
    return {
        "posts": sum(1 for c in channel if c[0] == "POST" and c[1].endswith("/messages")),
        "edits": sum(1 for c in channel if c[0] == "PATCH"),
        "uploads": sum(c[2] for c in calls),
        "bytes": sum(c[3] for c in calls),
    }


def main() -> None:
    """Run the measurement and print it as JSON."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--turns", type=int, default=20)
    args = parser.parse_args()
    print(json.dumps(asyncio.run(measure(args.turns)), indent=1))


if __name__ == "__main__":
    main()
