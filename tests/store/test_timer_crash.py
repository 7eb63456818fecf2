"""Kill a process whose scheduler is firing timers with SIGKILL, again and again.

Timers fire at least once (bot/scheduler.py): a timer whose handler was cut off by
the kill keeps its lease, and once the lease has run out the next process fires it
again; the handler's idempotent effect absorbs the second run. So after any number
of kills, at any moments, every timer has fired and been completed, and its effect
is there exactly once: no timer is lost. On both drivers (the children write to the
test's SQLite file or PostgreSQL database).
"""

from __future__ import annotations

import json
import os
import random
import signal
import sqlite3
import subprocess
import sys
import threading
from collections import Counter
from datetime import UTC, datetime, timedelta
from pathlib import Path

import pytest

from bot.engine.game import new_game
from bot.scheduler import CONCURRENCY
from tests.store.backends import Backend, SqliteBackend
from tests.store.test_crash import target

ROOT = Path(__file__).resolve().parents[2]
GUILD = 4343
GAMES = 20
TIMERS = 200
KILLS = 6
#: The children's lease: short, so a killed run's timers are due again soon.
LEASE = 0.5
SEATS = [("a", "A"), ("b", "B"), ("c", "C"), ("d", "D")]
pytestmark = pytest.mark.skipif(not hasattr(signal, "SIGKILL"), reason="needs SIGKILL")


class Child:
    """A running ``timer_child`` and the lines it has written so far."""

    def __init__(self, db: str, *, final: bool) -> None:
        args = [sys.executable, "-m", "tests.store.timer_child", db, str(LEASE)]
        self.process = subprocess.Popen(
            [*args, "--final"] if final else args,
            cwd=ROOT,
            env={**os.environ, "PYTHONPATH": str(ROOT)},
            stdout=subprocess.PIPE,
            stderr=subprocess.PIPE,
            text=True,
        )
        self.lines: list[str] = []
        self._wanted = 0
        self._reached = threading.Event()
        self._lock = threading.Lock()
        self._reader = threading.Thread(target=self._read)
        self._reader.start()

    def _read(self) -> None:
        assert self.process.stdout is not None
        for line in self.process.stdout:
            with self._lock:
                self.lines.append(line.strip())
                if self.starts() >= self._wanted:
                    self._reached.set()
        self._reached.set()  # the child has ended: nothing more to wait for

    def starts(self) -> int:
        """How many handlers the child has started."""
        return sum(1 for line in self.lines if line.startswith("start "))

    def wait_for_starts(self, count: int, timeout: float = 10.0) -> None:
        """Wait until the child has started ``count`` handlers (or has ended)."""
        with self._lock:
            self._wanted = count
            if self.starts() >= count:
                self._reached.set()
        self._reached.wait(timeout)

    def end(self, *, kill: bool) -> str:
        """SIGKILL the child (or wait for it to finish); its stderr."""
        if kill:
            self.process.send_signal(signal.SIGKILL)
        self.process.wait(timeout=30)
        self._reader.join(timeout=30)  # what was written before the kill is still in the pipe
        assert self.process.stderr is not None and self.process.stdout is not None
        stderr = self.process.stderr.read()
        self.process.stderr.close()
        self.process.stdout.close()
        return stderr


async def _setup(backend: Backend) -> list[int]:
    """Games, and their timers all due already, in due order; the timers' ids."""
    async with backend.store() as store:
        games = [
            (await store.create_game(GUILD, 2000 + n, new_game(SEATS, seed=n))).id
            for n in range(GAMES)
        ]
        due = datetime.now(UTC) - timedelta(hours=1)
        return [
            (await store.add_timer(games[n % GAMES], "t", due + timedelta(seconds=n), {"n": n})).id
            for n in range(TIMERS)
        ]


def _ids(lines: list[str], kind: str) -> list[int]:
    return [int(line.split()[1]) for line in lines if line.startswith(f"{kind} ")]


async def test_sigkill_never_loses_a_timer(backend: Backend) -> None:
    """After kills at random moments and a last run, every timer has fired and been
    completed, its effect stored exactly once in its own game: 0 timers lost."""
    db = target(backend)
    timer_ids = await _setup(backend)
    rng = random.Random(20260502)
    runs: list[list[str]] = []
    for run in range(KILLS + 1):
        final = run == KILLS
        child = Child(db, final=final)
        if not final:
            # Kill while handlers are at work: after a random number of them started,
            # a random moment later (a handler takes a few milliseconds).
            child.wait_for_starts(rng.randint(1, 15))
            threading.Event().wait(rng.uniform(0.0, 0.005))
        stderr = child.end(kill=not final)
        if final:
            assert child.process.returncode == 0, f"the last run failed:\n{stderr}"
            assert child.lines[-1] == "finished"
        else:
            assert child.process.returncode == -signal.SIGKILL, f"the child died:\n{stderr}"
        assert "Traceback" not in stderr, stderr
        runs.append(child.lines)

    # Within one process a timer runs once at a time: a lease keeps it while it runs.
    for lines in runs:
        assert not [i for i, n in Counter(_ids(lines, "start")).items() if n > 1]
    starts = [i for lines in runs for i in _ids(lines, "start")]
    effects = [i for lines in runs for i in _ids(lines, "effect")]
    absorbed = [i for lines in runs for i in _ids(lines, "absorbed")]
    refires = len(starts) - len(set(starts))
    # A killed run leaves at most CONCURRENCY timers leased; only those run again.
    assert refires <= KILLS * CONCURRENCY
    assert not [i for i, n in Counter(effects).items() if n > 1]  # never applied twice

    rows = await backend.fetch("SELECT id, game_id, fired_at, cancelled_at, attempts FROM timers")
    timers = {row[0]: row[1:] for row in rows}
    settings = dict(await backend.fetch("SELECT id, settings_json FROM games"))
    if isinstance(backend, SqliteBackend):
        conn = sqlite3.connect(backend.path)
        assert conn.execute("PRAGMA integrity_check").fetchone()[0] == "ok"
        conn.close()
    assert sorted(timers) == sorted(timer_ids)
    lost = [i for i, (_, fired_at, cancelled_at, _) in timers.items() if fired_at is None]
    assert lost == []  # every timer completed
    assert all(cancelled_at is None for _, _, cancelled_at, _ in timers.values())
    # Every timer's effect is stored once, in its own game.
    stored = {game: json.loads(text).get("fired", []) for game, text in settings.items()}
    assert sorted(i for fired in stored.values() for i in fired) == sorted(timer_ids)
    assert all(timers[i][0] == game for game, fired in stored.items() for i in fired)
    # Every start was a lease taken; a kill may also fall between a lease and a start.
    attempts = sum(row[3] for row in timers.values())
    assert set(starts) == set(timer_ids) and attempts >= len(starts)
    print(
        f"{KILLS} kills: {len(starts)} handler starts for {len(timer_ids)} timers, "
        f"{refires} re-fires after a lease ran out ({len(absorbed)} found their effect "
        f"stored already), {attempts} leases taken, {len(lost)} timers lost"
    )
