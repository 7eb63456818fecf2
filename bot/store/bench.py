"""Measure the store on both drivers: one stored action's time, and actions per second.

(Longer than ~400 lines: both drivers' setups, the worker processes and the report belong
to one measurement.)

``monopoly-bot bench --store`` runs :func:`run_bench` and prints :func:`report_lines` (or
the report as JSON). For each driver, SQLite and PostgreSQL:

* **One action** (:func:`bench_latency`): a database with ``games`` games (1 000 by
  default), each a few actions in; then ``actions`` applies on randomly chosen games, timed
  one by one (the whole ``store.apply``, commit included): median, p99, mean and max.
* **Actions per second** (:func:`bench_throughput`): N new games (10 and 100 by default)
  played at once by the engine's simple players through ``store.apply(…,
  expected_seq=…)`` for a fixed wall time: in one process (an asyncio task per game), in
  two processes each owning half of the games, and in two processes both playing all the
  games (conflicting clicks: the loser of a race gets ``StaleAction``, which is counted,
  and reads the game again). Only applied actions count. The players run in worker
  processes (new interpreters, multiprocessing's ``spawn``), so the one-process and the
  two-process runs start alike and the parent's own work is not measured; choosing an
  action (the simple player) is part of every figure, as a click's handling would be.
  Each run also reports the workers' CPU seconds and how busy the machine's CPUs were:
  on a small machine the players and the database server share the same CPUs, so a second
  process gains only what CPU is left. SQLite's two processes share one file (WAL,
  ``busy_timeout``): its one write lock serialises their writes (a waiting writer polls),
  only the rest of the work (the engine, JSON) runs side by side.

PostgreSQL is the server of ``database_url`` or, without one, a throwaway server started
for the bench on loopback TCP (:class:`~bot.store.drivers.postgres.server.PgServer`: a free port on
127.0.0.1, PostgreSQL's default durability as in production, in a folder next to the bot's
data so the figures are for that disk) and removed afterwards; without the PostgreSQL
binaries that half is skipped. The bench writes its games (server 1) into the database it
is given, finishes them at the end, and refuses a database that holds open games of other
servers: a bot's database is not a bench's.

Games are driven by the engine's simple players
(:func:`bot.engine.simple_players.next_simple_action`, re-exported here for the store's
tests and crash child).
"""

from __future__ import annotations

import asyncio
import itertools
import multiprocessing
import os
import random
import signal
import statistics
import tempfile
import threading
import time
import traceback
from collections.abc import Iterator, Sequence
from contextlib import contextmanager
from dataclasses import dataclass, field
from multiprocessing.connection import Connection
from os import PathLike
from pathlib import Path
from typing import Any

import asyncpg

from bot.config import DEFAULT_DB_PATH
from bot.engine.game import new_game
from bot.engine.rules import Rules
from bot.engine.simple_players import next_simple_action
from bot.engine.state import GameState
from bot.store.drivers.postgres import PostgresGameStore, describe_url
from bot.store.drivers.postgres.server import PgServer, find_bindir
from bot.store.drivers.sqlite import SqliteGameStore
from bot.store.errors import GameNotRunning, StaleAction
from bot.store.sql import SqlGameStore

#: The bench's games belong to this server (no Discord server has so small an id).
BENCH_GUILD = 1
#: The channel of the bench's first game; every further game takes the next one.
FIRST_CHANNEL = 10_000
#: The drivers, in the report's order.
DRIVERS = ("sqlite", "postgresql")
#: Games played at once in the throughput runs.
CONCURRENT_GAMES = (10, 100)
#: Wall time of one throughput run, in seconds.
THROUGHPUT_SECONDS = 3.0
#: The goals of the issue: PostgreSQL's median action under this many ms ...
LATENCY_GOAL_MS = 3.0
#: ... and two processes at least this many times one, with GOAL_GAMES games at once.
SPEEDUP_GOAL = 1.5
GOAL_GAMES = 100
#: The database a throwaway server gets for the bench.
BENCH_DATABASE = "monopoly_bench"
#: Seconds a worker process may take to get ready, or beyond its run time to report.
WORKER_TIMEOUT = 60.0
#: The throughput runs for each number of games: (processes, whether they share games).
RUNS = ((1, False), (2, False), (2, True))

__all__ = [
    "BenchOptions",
    "BenchRefused",
    "StoreTarget",
    "bench_latency",
    "bench_store",
    "bench_throughput",
    "next_simple_action",
    "report_lines",
    "run_bench",
]


def _board(state: object) -> GameState:
    """A stored state of the bench's games, which are all board games."""
    assert isinstance(state, GameState), "the bench plays board games only"
    return state


class BenchStopped(SystemExit):
    """SIGTERM or SIGHUP ended the bench; raised where it was, so that the way out removes
    the scratch database and stops the throwaway server (the exit code is 128 + signal)."""

    def __init__(self, signum: int) -> None:
        super().__init__(128 + signum)
        self.signum = signum


@contextmanager
def stopped_by_signals() -> Iterator[None]:
    """While the block runs, SIGTERM and SIGHUP raise :class:`BenchStopped` as Ctrl-C
    raises KeyboardInterrupt: their default action would end the process on the spot and
    leave the scratch file or the PostgreSQL cluster under ``data/``."""
    if threading.current_thread() is not threading.main_thread():
        yield  # only the main thread can take signals
        return

    received: list[int] = []

    def stop(signum: int, _frame: object) -> None:
        received.append(signum)
        raise BenchStopped(signum)

    names = ("SIGTERM", "SIGHUP")
    previous = {
        number: signal.signal(number, stop)
        for number in (getattr(signal, name) for name in names if hasattr(signal, name))
    }
    try:
        yield
    except BaseException as error:
        if received and not isinstance(error, BenchStopped):
            # The signal landed inside a library that turned it into its own error
            # (asyncpg: "not enough values to unpack"): the bench was still stopped.
            raise BenchStopped(received[0]) from error
        raise
    finally:
        for number, handler in previous.items():
            signal.signal(number, handler)
    if received:
        # The exception can be lost when the signal lands in a finaliser (Python only
        # prints "Exception ignored"); the bench then ran to its end, but still ends
        # as stopped.
        raise BenchStopped(received[0])


class BenchRefused(Exception):
    """The bench will not run on this database (it holds a bot's games); one line."""


@dataclass(frozen=True)
class StoreTarget:
    """Where a process opens the benched store; picklable (unlike a store), so a worker
    process is given it."""

    driver: str  # "sqlite" or "postgresql"
    where: str  # the SQLite file, or the PostgreSQL URL
    synchronous: str = "NORMAL"  # SQLite's setting

    def open_store(self) -> SqlGameStore:
        """A new store (not opened) on the target."""
        if self.driver == "sqlite":
            return SqliteGameStore(self.where, synchronous=self.synchronous)
        return PostgresGameStore(self.where)


@dataclass
class BenchOptions:
    """What :func:`run_bench` measures, and where.

    ``db``: the SQLite file (default: a scratch file in ``scratch``, removed afterwards);
    ``database_url``: the PostgreSQL server (default: a throwaway one, its folder in
    ``scratch``). ``games``/``actions``: the one-action bench; ``concurrent`` and
    ``seconds``: the throughput runs.
    """

    games: int = 1000
    actions: int = 2000
    seed: int = 0
    players: int = 4
    rules: Rules | None = None
    synchronous: str = "NORMAL"
    drivers: Sequence[str] = DRIVERS
    concurrent: Sequence[int] = CONCURRENT_GAMES
    seconds: float = THROUGHPUT_SECONDS
    db: Path | None = None
    database_url: str | None = None
    scratch: Path = field(default_factory=lambda: DEFAULT_DB_PATH.parent)


def _percentile(sorted_values: list[float], fraction: float) -> float:
    """The nearest-rank percentile of already sorted values."""
    rank = max(0, min(len(sorted_values) - 1, round(fraction * len(sorted_values)) - 1))
    return sorted_values[rank]


def _seats(players: int) -> list[tuple[str, str]]:
    return [(f"p{i}", f"Player {i + 1}") for i in range(players)]


# -- one action -----------------------------------------------------------------------------


async def bench_latency(
    store: SqlGameStore,
    games: int = 1000,
    actions: int = 2000,
    seed: int = 0,
    *,
    players: int = 4,
    warmup_actions: int = 8,
    rules: Rules | None = None,
    channels: Iterator[int] | None = None,
) -> dict[str, Any]:
    """Time ``actions`` single applies on random games of ``games`` new games in ``store``.

    The store (open) gets ``games`` new games of ``players`` players (``rules``, default
    classic) in the next of ``channels``, each advanced by up to ``warmup_actions``
    actions; then ``actions`` applies on randomly chosen games are timed one by one (the
    whole :meth:`~bot.store.sql.SqlGameStore.apply`, including the commit). Returns the
    figures in milliseconds and the cache's hit rate during the timed applies.
    """
    rng = random.Random(seed)
    channels = channels if channels is not None else itertools.count(FIRST_CHANNEL)
    states: dict[int, GameState] = {}
    for number in range(games):
        state = new_game(_seats(players), seed=seed * 1_000_003 + number, rules=rules)
        row = await store.create_game(BENCH_GUILD, next(channels), state, created_by=1)
        states[row.id] = state
        for _ in range(rng.randrange(warmup_actions + 1)):
            action = next_simple_action(states[row.id])
            if action is None:
                break
            states[row.id] = _board((await store.apply(row.id, action)).state)
    ids = list(states)
    store.cache.hits = store.cache.misses = 0
    timings: list[float] = []
    while len(timings) < actions and ids:
        game_id = rng.choice(ids)
        state = states[game_id]
        action = next_simple_action(state)
        if action is None:
            ids.remove(game_id)
            continue
        started = time.perf_counter()
        result = await store.apply(game_id, action, expected_seq=state.seq)
        timings.append(time.perf_counter() - started)
        states[game_id] = _board(result.state)
    cache = store.cache
    hit_rate = cache.hits / max(1, cache.hits + cache.misses)
    timings.sort()
    return {
        "games": games,
        "actions": len(timings),
        "median_ms": statistics.median(timings) * 1000 if timings else 0.0,
        "p99_ms": _percentile(timings, 0.99) * 1000 if timings else 0.0,
        "mean_ms": statistics.fmean(timings) * 1000 if timings else 0.0,
        "max_ms": timings[-1] * 1000 if timings else 0.0,
        "cache_hit_rate": hit_rate,
    }


async def bench_store(
    path: str | PathLike[str],
    games: int = 1000,
    actions: int = 2000,
    seed: int = 0,
    *,
    players: int = 4,
    warmup_actions: int = 8,
    synchronous: str = "NORMAL",
    rules: Rules | None = None,
) -> dict[str, Any]:
    """:func:`bench_latency` on the SQLite file at ``path`` (WAL, ``synchronous``)."""
    store = SqliteGameStore(path, synchronous=synchronous)
    await store.open()
    try:
        figures = await bench_latency(
            store,
            games,
            actions,
            seed,
            players=players,
            warmup_actions=warmup_actions,
            rules=rules,
        )
    finally:
        await store.close()
    return {**figures, "synchronous": synchronous}


# -- actions per second ---------------------------------------------------------------------


async def bench_throughput(
    store: SqlGameStore,
    target: StoreTarget,
    *,
    games: int,
    processes: int,
    shared: bool = False,
    seconds: float = THROUGHPUT_SECONDS,
    seed: int = 0,
    players: int = 4,
    rules: Rules | None = None,
    channels: Iterator[int] | None = None,
) -> dict[str, Any]:
    """Play ``games`` new games at once for ``seconds`` in ``processes`` worker processes.

    ``store`` (open, on ``target``) makes the games; each worker opens its own store on
    ``target`` and plays its games, one asyncio task per game, with simple players. Not
    ``shared``: the games are dealt out, each worker owns its part; ``shared``: every
    worker plays every game, so their clicks conflict. Returns the applied actions, the
    stale ones (lost races), the run's seconds (the slowest worker's, from the common
    start), the applied actions per second and the workers' CPU seconds (the server's
    and this process's not counted). RuntimeError if a worker fails.
    """
    channels = channels if channels is not None else itertools.count(FIRST_CHANNEL)
    ids = []
    for number in range(games):
        state = new_game(_seats(players), seed=seed * 1_000_003 + number, rules=rules)
        ids.append((await store.create_game(BENCH_GUILD, next(channels), state)).id)
    parts = [ids] * processes if shared else [ids[i::processes] for i in range(processes)]
    results, busy = await asyncio.to_thread(_run_workers, target, [p for p in parts if p], seconds)
    applied = sum(result["applied"] for result in results)
    elapsed = max(result["seconds"] for result in results)
    return {
        "games": games,
        "processes": processes,
        "shared": shared,
        "actions": applied,
        "stale": sum(result["stale"] for result in results),
        "seconds": elapsed,
        "actions_per_s": applied / elapsed if elapsed > 0 else 0.0,
        # The players' processes' CPU time (this process and the server not counted).
        "cpu_seconds": sum(result["cpu_seconds"] for result in results),
        # How busy the machine's CPUs were meanwhile (0 to 1; None where unknown): on a
        # machine with few CPUs the players and the server share them.
        "cpus_busy": busy,
    }


def _cpu_ticks() -> tuple[int, int] | None:
    """All CPUs' time so far and the idle part of it, in ticks (Linux; else None)."""
    try:
        with open("/proc/stat", encoding="ascii") as stat:
            fields = [int(value) for value in stat.readline().split()[1:]]
    except (OSError, ValueError):
        return None
    return sum(fields), fields[3] + fields[4]  # idle and iowait


def _run_workers(
    target: StoreTarget, parts: list[list[int]], seconds: float
) -> tuple[list[dict[str, Any]], float | None]:
    """Start one worker per part, let them all begin at once, collect their counts; with
    how busy the CPUs were from the start until the last report."""
    # spawn, not fork: the parent runs an event loop and threads (aiosqlite, asyncpg),
    # which a forked child would inherit half-way.
    context = multiprocessing.get_context("spawn")
    workers = []
    finished = False
    try:
        for part in parts:
            here, there = context.Pipe()
            process = context.Process(
                target=_worker, args=(there, target, part, seconds), daemon=True
            )
            process.start()
            there.close()  # the parent's copy: EOF on ``here`` once the worker has ended
            workers.append((here, process))
        for here, process in workers:
            _receive(here, process, WORKER_TIMEOUT)  # "ready": its games are loaded
        before = _cpu_ticks()
        for here, _ in workers:
            here.send("go")
        results = [_receive(here, process, seconds + WORKER_TIMEOUT) for here, process in workers]
        after = _cpu_ticks()
        finished = True
        busy = None
        if before is not None and after is not None and after[0] > before[0]:
            busy = 1 - (after[1] - before[1]) / (after[0] - before[0])
        return results, busy
    finally:
        for here, process in workers:
            if not finished:
                process.kill()  # a worker failed: the others may wait for "go" forever
            process.join(timeout=10)
            if process.is_alive():
                process.kill()
                process.join()
            here.close()


def _receive(conn: Connection, process: Any, timeout: float) -> Any:
    """The worker's next message; RuntimeError if it failed, died or took too long."""
    try:
        if not conn.poll(timeout):
            raise RuntimeError(f"a bench worker sent nothing for {timeout:.0f} s")
        message = conn.recv()
    except EOFError:
        raise RuntimeError(f"a bench worker died (exit code {process.exitcode})") from None
    if isinstance(message, dict) and "error" in message:
        raise RuntimeError(f"a bench worker failed:\n{message['error']}")
    return message


def _worker(conn: Connection, target: StoreTarget, game_ids: list[int], seconds: float) -> None:
    """A worker process: play ``game_ids`` from the parent's "go" for ``seconds``."""
    try:
        result = asyncio.run(_play(conn, target, game_ids, seconds))
    except BaseException:
        conn.send({"error": traceback.format_exc()})
    else:
        conn.send(result)
    finally:
        conn.close()


async def _play(
    conn: Connection, target: StoreTarget, game_ids: list[int], seconds: float
) -> dict[str, Any]:
    store = target.open_store()
    await store.open()
    try:
        states: dict[int, GameState | None] = {}
        for game_id in game_ids:
            states[game_id] = _board((await store.load(game_id)).state)
        conn.send("ready")
        await asyncio.to_thread(conn.recv)  # "go", sent once every worker is ready
        counts = {"applied": 0, "stale": 0}
        started, cpu = time.perf_counter(), time.process_time()
        deadline = started + seconds

        async def play(game_id: int) -> None:
            state = states[game_id]
            while time.perf_counter() < deadline and state is not None:
                action = next_simple_action(state)
                if action is None:
                    return  # the game is over
                try:
                    applied = await store.apply(game_id, action, expected_seq=state.seq)
                    state = _board(applied.state)
                    counts["applied"] += 1
                except StaleAction:
                    # The other process was first (shared games): read the game again.
                    counts["stale"] += 1
                    state = _board((await store.load(game_id)).state)
                except GameNotRunning:
                    return  # the other process played its last action

        await asyncio.gather(*(play(game_id) for game_id in game_ids))
        elapsed = time.perf_counter() - started
        cpu = time.process_time() - cpu
    finally:
        await store.close()
    return {**counts, "seconds": elapsed, "cpu_seconds": cpu}


# -- both drivers -----------------------------------------------------------------------------


async def _prepare(store: SqlGameStore) -> None:
    """Refuse a bot's database; finish the open games an earlier bench left behind (one
    that was stopped half-way), so their channels are free for this run's games."""
    games = await store.unfinished_games()
    others = {row.guild_id for row in games if row.guild_id != BENCH_GUILD}
    if others:
        raise BenchRefused(
            f"the database holds open games of {len(others)} server(s): not a bench "
            "database; give the bench a database of its own"
        )
    await _finish_bench_games(store)


async def _finish_bench_games(store: SqlGameStore) -> None:
    """End the bench's open games (they stay as history; the channels are free again)."""
    for info in await store.list_games(BENCH_GUILD):
        await store.finish(info.id, "bench")


async def _postgres_settings(url: str) -> dict[str, str]:
    """The server's version and the settings that decide what a commit costs."""
    conn = await asyncpg.connect(url)
    try:
        return {
            name: str(await conn.fetchval(f"SHOW {name}"))
            for name in ("server_version", "synchronous_commit", "fsync")
        }
    finally:
        await conn.close()


async def _bench_driver(
    target: StoreTarget, options: BenchOptions, database: str, *, tidy: bool
) -> dict[str, Any]:
    """Both benches on one driver: the report's entry for it.

    ``tidy``: the database is the caller's (not a scratch one), so the bench's games are
    finished at the end.
    """
    store = target.open_store()
    await store.open()
    try:
        await _prepare(store)
        channels = itertools.count(FIRST_CHANNEL)
        latency = await bench_latency(
            store,
            options.games,
            options.actions,
            options.seed,
            players=options.players,
            rules=options.rules,
            channels=channels,
        )
        runs = []
        for games in options.concurrent:
            for processes, shared in RUNS:
                runs.append(
                    await bench_throughput(
                        store,
                        target,
                        games=games,
                        processes=processes,
                        shared=shared,
                        seconds=options.seconds,
                        seed=options.seed,
                        players=options.players,
                        rules=options.rules,
                        channels=channels,
                    )
                )
        if tidy:
            await _finish_bench_games(store)
    finally:
        await store.close()
    if target.driver == "sqlite":
        settings = {"journal_mode": "wal", "synchronous": target.synchronous}
    else:
        settings = await _postgres_settings(target.where)
    return {
        "database": database,
        "settings": settings,
        "latency": latency,
        "throughput": runs,
        "speedup": _speedups(runs),
    }


def _speedups(runs: list[dict[str, Any]]) -> dict[str, float]:
    """Per number of games: actions/s of two processes (own games) over one process."""
    found = {}
    for games in dict.fromkeys(run["games"] for run in runs):
        rate = {
            run["processes"]: run["actions_per_s"]
            for run in runs
            if run["games"] == games and not run["shared"]
        }
        if rate.get(1) and 2 in rate:
            found[str(games)] = rate[2] / rate[1]
    return found


def _goals(drivers: dict[str, dict[str, Any]]) -> dict[str, Any]:
    """The issue's goals on PostgreSQL: median under 3 ms; 100 games, 2 processes ≥ 1.5×."""
    postgres = drivers.get("postgresql", {})
    latency = postgres.get("latency")
    speedup = postgres.get("speedup", {}).get(str(GOAL_GAMES))
    median = None if latency is None else latency["median_ms"]
    return {
        "postgresql_median_ms": median,
        "postgresql_median_met": None if median is None else median < LATENCY_GOAL_MS,
        "postgresql_speedup": speedup,
        "postgresql_speedup_met": None if speedup is None else speedup >= SPEEDUP_GOAL,
    }


def _run_sqlite(options: BenchOptions) -> dict[str, Any]:
    """The SQLite half: on ``options.db``, or a scratch file removed afterwards."""

    def run(path: Path, database: str, *, tidy: bool) -> dict[str, Any]:
        target = StoreTarget("sqlite", str(path), options.synchronous)
        return asyncio.run(_bench_driver(target, options, database, tidy=tidy))

    if options.db is not None:
        return run(options.db, f"file {options.db}", tidy=True)
    # A scratch file next to where the bot keeps its games, so the figures are for the
    # same disk (a tmpfs /tmp would hide the cost of writing).
    options.scratch.mkdir(parents=True, exist_ok=True)
    with tempfile.TemporaryDirectory(dir=options.scratch, prefix="bench-") as scratch:
        database = f"scratch file in {options.scratch}/, removed afterwards"
        return run(Path(scratch) / "bench.db", database, tidy=False)


def _run_postgres(options: BenchOptions) -> dict[str, Any]:
    """The PostgreSQL half: on ``options.database_url``, or a throwaway loopback server."""
    if options.database_url is not None:
        target = StoreTarget("postgresql", options.database_url)
        database = describe_url(options.database_url)
        return asyncio.run(_bench_driver(target, options, database, tidy=True))
    bindir, found = find_bindir()
    if bindir is None:
        return {"skipped": f"no PostgreSQL server: {found}; give --database-url"}
    try:
        server = PgServer(bindir, parent=options.scratch, tcp=True, port=0, prefix="bench-pg-")
    except KeyError:
        return {"skipped": "running as root, and there is no 'postgres' user to run a server as"}
    # Started here, in the main thread: the server is told to quit when the thread that
    # started it ends (if this process is killed), see bot.store.drivers.postgres.server.
    with server:
        asyncio.run(_create_database(server.url("postgres")))
        target = StoreTarget("postgresql", server.url(BENCH_DATABASE))
        database = f"{describe_url(target.where)}: a throwaway server, removed afterwards"
        return asyncio.run(_bench_driver(target, options, database, tidy=False))


async def _create_database(admin_url: str) -> None:
    conn = await asyncpg.connect(admin_url)
    try:
        await conn.execute(f"CREATE DATABASE {BENCH_DATABASE}")
    finally:
        await conn.close()


def run_bench(options: BenchOptions) -> dict[str, Any]:
    """Bench the store on each of ``options.drivers``; the report as a JSON-ready dict.

    ``drivers`` maps each driver to its figures (``database``, ``settings``, ``latency``,
    ``throughput`` runs, ``speedup`` of two processes over one per number of games), or
    to ``{"skipped": why}``; ``goals`` judges PostgreSQL's figures against the issue's
    goals (None where not measured). Raises :class:`BenchRefused` for a bot's database.
    """
    # Other work on the machine skews every figure: the report says how busy it was.
    load = os.getloadavg()[0] if hasattr(os, "getloadavg") else None
    drivers: dict[str, dict[str, Any]] = {}
    with stopped_by_signals():
        if "sqlite" in options.drivers:
            drivers["sqlite"] = _run_sqlite(options)
        if "postgresql" in options.drivers:
            drivers["postgresql"] = _run_postgres(options)
    return {
        "cpus": os.cpu_count(),
        "load_before": load,
        "players": options.players,
        "seconds": options.seconds,
        "drivers": drivers,
        "goals": _goals(drivers),
    }


# -- the report -------------------------------------------------------------------------------

_NAMES = {"sqlite": "SQLite", "postgresql": "PostgreSQL"}


def _run_label(run: dict[str, Any]) -> str:
    processes = "1 process" if run["processes"] == 1 else f"{run['processes']} processes"
    label = f"{run['games']} games, {processes}"
    return f"{label}, same games" if run["shared"] else label


def _settings_text(settings: dict[str, str]) -> str:
    if "server_version" in settings:
        return (
            f"PostgreSQL {settings['server_version']}, synchronous_commit="
            f"{settings['synchronous_commit']}, fsync={settings['fsync']}"
        )
    return f"WAL, synchronous={settings['synchronous']}"


def report_lines(report: dict[str, Any]) -> list[str]:
    """The report as a table for reading: one column per driver."""
    # In the drivers' own order (a report read back from sorted JSON has lost it).
    drivers = {name: report["drivers"][name] for name in DRIVERS if name in report["drivers"]}
    measured = {name: entry for name, entry in drivers.items() if "latency" in entry}
    load = report["load_before"]
    busy = "" if load is None else f", load average {load:.1f} at the start"
    lines = [
        f"store bench ({report['cpus']} CPUs{busy}): one stored action, then actions/s of games "
        f"played at once for {report['seconds']:g} s by simple players ({report['players']} "
        "seats); actions/s counts applied actions only, [CPUs busy meanwhile]"
    ]
    for name, entry in drivers.items():
        if "skipped" in entry:
            lines.append(f"  {_NAMES[name]}: skipped ({entry['skipped']})")
        else:
            lines.append(
                f"  {_NAMES[name]}: {entry['database']} ({_settings_text(entry['settings'])})"
            )
    if not measured:
        return lines
    first = next(iter(measured.values()))["latency"]
    rows: list[tuple[str, list[str]]] = [
        (
            f"one action on {first['games']} games: median ms",
            [f"{e['latency']['median_ms']:.2f}" for e in measured.values()],
        ),
        ("one action: p99 ms", [f"{e['latency']['p99_ms']:.2f}" for e in measured.values()]),
    ]
    runs = [entry["throughput"] for entry in measured.values()]
    for index, run in enumerate(runs[0]):
        cells = []
        for entry_runs in runs:
            other = entry_runs[index]
            cell = f"{other['actions_per_s']:,.0f}".replace(",", " ")
            if other["shared"]:
                cell += f" ({other['stale']} stale)"
            if other["cpus_busy"] is not None:
                cell += f" [{other['cpus_busy']:.0%}]"
            cells.append(cell)
        rows.append((f"{_run_label(run)}: actions/s", cells))
    for games in next(iter(measured.values()))["speedup"]:
        rows.append(
            (
                f"{games} games: 2 processes / 1 process",
                [f"{e['speedup'].get(games, 0.0):.2f}×" for e in measured.values()],
            )
        )
    width = max(len(label) for label, _ in rows) + 2
    columns = [max(len(_NAMES[n]), *(len(c[i]) for _, c in rows)) for i, n in enumerate(measured)]
    lines.append(
        " " * width + "  ".join(_NAMES[n].rjust(w) for n, w in zip(measured, columns, strict=True))
    )
    for label, cells in rows:
        lines.append(
            label.ljust(width) + "  ".join(c.rjust(w) for c, w in zip(cells, columns, strict=True))
        )
    goals = report["goals"]
    if goals["postgresql_median_met"] is not None:
        verdict = "met" if goals["postgresql_median_met"] else "NOT met"
        text = (
            f"goals: PostgreSQL median < {LATENCY_GOAL_MS:g} ms: {verdict} "
            f"({goals['postgresql_median_ms']:.2f} ms)"
        )
        if goals["postgresql_speedup_met"] is not None:
            verdict = "met" if goals["postgresql_speedup_met"] else "NOT met"
            text += (
                f"; {GOAL_GAMES} games, 2 processes ≥ {SPEEDUP_GOAL:g}× 1 process: {verdict} "
                f"({goals['postgresql_speedup']:.2f}×)"
            )
        lines.append(text)
    return lines
