"""Kill a process that is writing games with SIGKILL, again and again; lose nothing.

On both drivers: the child writes to the test's SQLite file or PostgreSQL database.
"""

from __future__ import annotations

import os
import random
import signal
import sqlite3
import subprocess
import sys
import threading
import time
from pathlib import Path

import pytest

from tests.store.backends import Backend, PostgresBackend, SqliteBackend
from tests.store.crash_child import GUILD

ROOT = Path(__file__).resolve().parents[2]
GAMES = 20
RUNS = 8
pytestmark = pytest.mark.skipif(not hasattr(signal, "SIGKILL"), reason="needs SIGKILL")


def target(backend: Backend) -> str:
    """What a child process is told to open: the SQLite file or the PostgreSQL URL."""
    if isinstance(backend, PostgresBackend):
        return backend.url
    assert isinstance(backend, SqliteBackend)
    return str(backend.path)


def _run_child(db: str, delay: float, after_ready: bool) -> tuple[list[str], str]:
    """Start a child, SIGKILL it ``delay`` s after start (or after ``ready``); its lines."""
    env = {**os.environ, "PYTHONPATH": str(ROOT)}
    child = subprocess.Popen(
        [sys.executable, "-m", "tests.store.crash_child", db, str(GAMES)],
        cwd=ROOT,
        env=env,
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
    )
    lines: list[str] = []
    ready = threading.Event()

    def read() -> None:
        assert child.stdout is not None
        for line in child.stdout:
            lines.append(line.strip())
            if line.startswith("ready"):
                ready.set()

    reader = threading.Thread(target=read)
    reader.start()
    if after_ready:
        assert ready.wait(timeout=30), "the child never got ready"
    time.sleep(delay)
    child.send_signal(signal.SIGKILL)
    child.wait(timeout=30)
    reader.join(timeout=30)  # everything written before the kill is still in the pipe
    stderr = child.stderr.read() if child.stderr else ""
    for pipe in (child.stdout, child.stderr):
        if pipe is not None:
            pipe.close()
    assert child.returncode == -signal.SIGKILL, f"the child died by itself:\n{stderr}"
    return lines, stderr


async def test_sigkill_never_loses_a_reported_action(backend: Backend) -> None:
    """Every action a killed child reported as done is in the log; every game is the
    replay of its log; nothing is set aside."""
    db = target(backend)
    rng = random.Random(20260501)
    reported: set[tuple[int, int]] = set()
    for run in range(RUNS):
        # The first kills may land anywhere, migrations and game creation included;
        # the others land while the games are being played.
        after_ready = run >= 2
        delay = rng.uniform(0.0, 0.6) if after_ready else rng.uniform(0.05, 0.35)
        lines, _ = _run_child(db, delay, after_ready)
        print(
            f"run {run}: killed {delay:.2f} s after {'ready' if after_ready else 'start'}, "
            f"{sum(1 for line in lines if line.startswith('done'))} actions reported"
        )
        for line in lines:
            if line.startswith("done "):
                _, game_id, seq = line.split()
                reported.add((int(game_id), int(seq)))
    assert reported, "no action was reported in any run"

    async with backend.store() as store:
        assert await store.broken_games() == []
        games = await store.list_games(GUILD, include_finished=True)
        assert len(games) >= GAMES
        seqs = {}
        for info in games:
            row = await store.load(info.id)
            record = await store.record(info.id)
            assert row.state is not None
            # Every game is exactly the replay of its own log.
            assert record.replay().to_json() == row.state.to_json()
            assert len(record.actions) == row.seq
            seqs[info.id] = row.seq
    logged = set(await backend.fetch("SELECT game_id, seq FROM actions"))
    if isinstance(backend, SqliteBackend):
        conn = sqlite3.connect(backend.path)
        assert conn.execute("PRAGMA integrity_check").fetchone()[0] == "ok"
        conn.close()
    missing = reported - logged
    assert not missing, f"reported as done but lost: {sorted(missing)[:10]}"
    assert all(seq <= seqs[game_id] for game_id, seq in reported)
