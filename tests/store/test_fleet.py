"""Two OS processes on one database, as a fleet of two bots runs: nothing lost, nothing doubled.

Each child (``tests/store/fleet_child.py``) is a real process with its own store, cache and
in-process locks, so only the database keeps the two apart. On both drivers: the SQLite
file (WAL; SQLite's write lock serialises the two writers) and a PostgreSQL database.

* Both children play the same games at once with conflicting clicks (the engine's legal
  next action with ``expected_seq``: the loser of a race gets ``StaleAction``) while both
  run a real scheduler over a burst of due timers, whose handler applies the game's
  default action for the seq the timer was made for. Afterwards every game is the replay
  of its log, the log of each game is seq 1..n with every entry reported by exactly one
  applied click or timer, every timer fired exactly once, and a timer that moved its game
  moved it from its own seq (two timers made for one seq: at most one moves the game).
* One child takes the leases of a batch of timers whose handlers hang and is killed with
  SIGKILL while it holds them; the other, with a lease of a few hundred ms, takes them over
  once they have run out and fires them: none is lost, each game moves once.

The interleaving is left to the operating system; the assertions hold for any of them.
"""

from __future__ import annotations

import os
import signal
import subprocess
import sys
import threading
from collections import Counter
from datetime import UTC, datetime, timedelta
from pathlib import Path

import pytest

from bot.engine.defaults import default_action
from bot.engine.game import new_game
from bot.engine.record import GameRecord
from bot.store import GameStatus
from tests.store.backends import Backend
from tests.store.test_crash import target

ROOT = Path(__file__).resolve().parents[2]
SEATS = [("a", "A"), ("b", "B"), ("c", "C"), ("d", "D")]
#: The games both children click and the burst's timers belong to (server ids).
GUILD = 5151
KILL_GUILD = 5252
GAMES = 10
#: The clicks stop when a game has reached this seq (timers may move it a little further).
TARGET_SEQ = 40
#: The seqs of each game's timers in the burst (10 games x 10 = 100 timers), in due order:
#: a chain from seq 0, so timers race clicks for each of the first seqs; two are made for
#: seq 0 and two for seq 1, so of each pair at most one may move the game.
TIMER_SEQS = (0, 0, 1, 1, 2, 3, 4, 5, 6, 7)
#: Leases: long while both play (no lease runs out), and for the kill phase a holder
#: whose renewed lease outlives scheduling hiccups and a taker of a few hundred ms.
PLAY_LEASE = 30.0
HOLD_LEASE = 2.0
TAKEOVER_LEASE = 0.3
#: The timers the killed child holds, each of its own game (a game's timers run one
#: after another, and the scheduler runs at most 16 handlers at once).
HELD = 8
#: Seconds to wait for a child's lines (startup included) before the test fails.
WAIT = 60.0
pytestmark = pytest.mark.skipif(not hasattr(signal, "SIGKILL"), reason="needs SIGKILL")


class Child:
    """A running ``fleet_child`` and the lines it has written so far."""

    def __init__(self, db: str, mode: str, lease: float, guild: int) -> None:
        self.process = subprocess.Popen(
            [
                sys.executable,
                "-m",
                "tests.store.fleet_child",
                db,
                mode,
                str(lease),
                str(guild),
                str(TARGET_SEQ),
            ],
            cwd=ROOT,
            env={**os.environ, "PYTHONPATH": str(ROOT)},
            stdin=subprocess.PIPE,
            stdout=subprocess.PIPE,
            stderr=subprocess.PIPE,
            text=True,
        )
        self.lines: list[str] = []
        self._changed = threading.Condition()
        self._reader = threading.Thread(target=self._read)
        self._reader.start()

    def _read(self) -> None:
        assert self.process.stdout is not None
        for line in self.process.stdout:
            with self._changed:
                self.lines.append(line.strip())
                self._changed.notify_all()
        with self._changed:
            self._changed.notify_all()  # the child has ended: nothing more to wait for

    def count(self, kind: str) -> int:
        """How many lines of ``kind`` (the first word) the child has written."""
        return sum(1 for line in self.lines if line.split()[0] == kind)

    def wait_for(self, kind: str, count: int = 1) -> None:
        """Wait until the child has written ``count`` lines of ``kind``; fail if it ends
        or takes longer than :data:`WAIT` seconds first."""
        with self._changed:
            reached = self._changed.wait_for(
                lambda: self.count(kind) >= count or not self._reader.is_alive(), WAIT
            )
            done = self.count(kind) >= count
        if not (reached and done):
            stderr = self.end(kill=True)
            pytest.fail(f"the child wrote {self.count(kind)} of {count} {kind!r} lines:\n{stderr}")

    def go(self) -> None:
        """Tell the child to start (it waits for this once ready)."""
        assert self.process.stdin is not None
        self.process.stdin.write("go\n")
        self.process.stdin.flush()

    def end(self, *, kill: bool) -> str:
        """SIGKILL the child (or wait for it to finish); its stderr."""
        if kill and self.process.poll() is None:
            self.process.send_signal(signal.SIGKILL)
        try:
            self.process.wait(timeout=WAIT)
        except subprocess.TimeoutExpired:
            self.process.kill()
            self.process.wait(timeout=10)
        self._reader.join(timeout=30)  # what was written before the end is in the pipe
        stderr = self.process.stderr.read() if self.process.stderr else ""
        for pipe in (self.process.stdin, self.process.stdout, self.process.stderr):
            if pipe is not None:
                pipe.close()
        return stderr

    def words(self, kind: str) -> list[list[int]]:
        """The numbers of each line of ``kind``."""
        return [
            [int(word) for word in line.split()[1:]]
            for line in self.lines
            if line.split()[0] == kind
        ]


def run_both(db: str, mode: str, lease: float, guild: int) -> list[Child]:
    """Start two children, let them begin at once, wait until both have finished."""
    children = [Child(db, mode, lease, guild) for _ in range(2)]
    for child in children:
        child.wait_for("ready")
    for child in children:
        child.go()
    for child in children:
        stderr = child.end(kill=False)
        assert child.process.returncode == 0, f"a child failed:\n{stderr}"
        assert "Traceback" not in stderr, stderr
        assert child.lines[-1] == "finished"
    return children


async def make_games(backend: Backend, guild: int, count: int) -> list[int]:
    """``count`` new games of four seats in ``guild``; their ids."""
    async with backend.store() as store:
        return [
            (await store.create_game(guild, guild * 100 + n, new_game(SEATS, seed=n))).id
            for n in range(count)
        ]


async def check_games_replay(backend: Backend, games: list[int]) -> dict[int, GameRecord]:
    """Every game equals the replay of its log, whose seqs are 1..n; the records."""
    records = {}
    async with backend.store() as store:
        for game_id in games:
            row = await store.load(game_id)
            record = await store.record(game_id)
            assert row.state is not None
            assert record.replay().to_json() == row.state.to_json()
            assert len(record.actions) == row.seq
            records[game_id] = record
    logged = await backend.fetch("SELECT game_id, seq FROM actions")
    for game_id in games:
        seqs = sorted(seq for game, seq in logged if game == game_id)
        assert seqs == list(range(1, len(records[game_id].actions) + 1))  # no gap, no double
    return records


async def test_two_processes_click_and_fire_timers_on_the_same_games(backend: Backend) -> None:
    """Conflicting clicks and a burst of due timers from two processes: every game is the
    replay of its log, every logged action was applied (and reported) exactly once, every
    timer fired once and moved its game at most once, from its own seq."""
    db = target(backend)
    games = await make_games(backend, GUILD, GAMES)
    due = datetime.now(UTC) - timedelta(minutes=5)
    timer_seq: dict[int, tuple[int, int]] = {}  # timer -> (game, seq it was made for)
    async with backend.store() as store:
        for number, seq in enumerate(TIMER_SEQS):
            for game_id in games:
                at = due + timedelta(milliseconds=number)  # a game's timers in this order
                timer = await store.add_timer(game_id, "deadline", at, {"seq": seq})
                timer_seq[timer.id] = (game_id, seq)

    children = run_both(db, "play", PLAY_LEASE, GUILD)

    records = await check_games_replay(backend, games)
    clicks = [(game, seq) for child in children for game, seq in child.words("click")]
    moved = [(t, game, seq) for child in children for t, game, seq in child.words("timer")]
    applied = clicks + [(game, seq) for _, game, seq in moved]
    logged = [(g, seq) for g in games for seq in range(1, len(records[g].actions) + 1)]
    # Every action in the logs was applied once, by one click or one timer of one
    # child; nothing reported as applied is missing: no action lost or doubled.
    assert sorted(applied) == sorted(logged)
    assert len(clicks) + len(moved) == sum(len(r.actions) for r in records.values())

    # Every timer was fired (completed) once: one handler run in all, none cancelled.
    starts = Counter(t for child in children for t, _ in child.words("start"))
    assert starts == Counter(dict.fromkeys(timer_seq, 1))
    rows = await backend.fetch("SELECT id, fired_at, cancelled_at, attempts FROM timers")
    assert sorted(row[0] for row in rows) == sorted(timer_seq)
    assert all(fired is not None and cancelled is None for _, fired, cancelled, _ in rows)
    assert all(attempts == 1 for *_, attempts in rows)

    # A timer that moved its game moved it once, from the seq it was made for, by the
    # game's default action there; of two timers made for one seq at most one moved it.
    assert len({t for t, _, _ in moved}) == len(moved)
    for timer_id, game_id, seq in moved:
        assert timer_seq[timer_id] == (game_id, seq - 1)
        record = records[game_id]
        before = GameRecord(start=record.start, actions=record.actions[: seq - 1]).replay()
        assert record.actions[seq - 1]["action"] == default_action(before)
    assert len({timer_seq[t] for t, _, _ in moved}) == len(moved)
    stale_timers = sum(child.count("stale-timer") for child in children)
    refused = sum(child.count("refused-timer") for child in children)
    idle = sum(child.count("idle") for child in children)
    assert len(moved) + stale_timers + refused + idle == len(timer_seq)
    stale_clicks = sum(child.count("stale-click") for child in children)
    print(
        f"{backend.name}: {len(clicks)} clicks applied, {stale_clicks} refused as stale; "
        f"{len(timer_seq)} timers fired once each: {len(moved)} moved their game, "
        f"{stale_timers} found it at another seq, {refused} lost the race to the store "
        f"(StaleAction), {idle} idle; "
        f"{sum(len(r.actions) for r in records.values())} actions in the logs"
    )


async def test_a_killed_process_leaves_its_timer_leases_to_the_other(backend: Backend) -> None:
    """A process killed while it holds timer leases: once they run out the other process
    takes the timers over and fires them; none is lost, each game moves once."""
    db = target(backend)
    games = await make_games(backend, KILL_GUILD, HELD)
    due = datetime.now(UTC) - timedelta(minutes=5)
    async with backend.store() as store:
        held = [(await store.add_timer(g, "deadline", due, {"seq": 0})).id for g in games]

    holder = Child(db, "hold", HOLD_LEASE, KILL_GUILD)
    holder.wait_for("ready")
    holder.go()
    holder.wait_for("start", HELD)  # every handler hangs: it holds all the leases
    stderr = holder.end(kill=True)
    assert holder.process.returncode == -signal.SIGKILL, f"the holder died:\n{stderr}"
    assert sorted(t for t, _ in holder.words("start")) == sorted(held)
    rows = await backend.fetch("SELECT id, fired_at FROM timers")
    assert all(fired is None for _, fired in rows)  # killed before any completion

    taker = Child(db, "takeover", TAKEOVER_LEASE, KILL_GUILD)
    taker.wait_for("ready")
    taker.go()
    stderr = taker.end(kill=False)
    assert taker.process.returncode == 0 and taker.lines[-1] == "finished", stderr

    # The taker fired every held timer, each once, and each moved its own game once.
    assert sorted(t for t, _ in taker.words("start")) == sorted(held)
    assert all(attempt == 2 for _, attempt in taker.words("start"))  # the holder's was 1
    moved = taker.words("timer")
    assert sorted(game for _, game, _ in moved) == sorted(games)
    assert all(seq == 1 for *_, seq in moved)
    rows = await backend.fetch("SELECT id, fired_at, cancelled_at, attempts FROM timers")
    assert sorted(row[0] for row in rows) == sorted(held)
    assert all(fired is not None and cancelled is None for _, fired, cancelled, _ in rows)
    assert all(attempts == 2 for *_, attempts in rows)  # the holder's lease, the taker's
    records = await check_games_replay(backend, games)
    assert all(len(record.actions) == 1 for record in records.values())
    async with backend.store() as store:
        statuses = [(await store.load(game_id)).status for game_id in games]
    assert statuses == [GameStatus.RUNNING] * HELD
    print(
        f"{backend.name}: the killed process held {HELD} leases; the other fired all "
        f"{len(moved)} once they ran out, 0 lost"
    )
