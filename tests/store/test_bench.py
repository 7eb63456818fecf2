"""The store benchmark and its command line: both drivers side by side (tiny sizes here).

No timing is asserted: the figures depend on the machine; these tests check that the
bench runs on each driver and reports every figure, and that it cleans up after itself.
"""

from __future__ import annotations

import asyncio
import glob
import json
import re
import tempfile
from pathlib import Path
from typing import Any

import pytest

from bot.cli import main
from bot.engine.game import apply_action, new_game
from bot.store import SqliteGameStore
from bot.store.bench import BENCH_GUILD, bench_store, next_simple_action
from bot.store.drivers.postgres.server import find_bindir
from tests.pg import skip_or_fail
from tests.store.backends import PostgresBackend
from tests.store.conftest import make_state

#: Options that keep a CLI run of ``bench --store`` to a few seconds.
TINY = ["--games", "4", "--actions", "25", "--concurrent", "2", "--seconds", "0.2"]
LATENCY_FIELDS = {"games", "actions", "median_ms", "p99_ms", "mean_ms", "max_ms", "cache_hit_rate"}
RUN_FIELDS = {
    "games",
    "processes",
    "shared",
    "actions",
    "stale",
    "seconds",
    "actions_per_s",
    "cpu_seconds",
    "cpus_busy",
}


def check_driver(entry: dict[str, Any], *, games: int, actions: int, concurrent: int) -> None:
    """One driver's part of the report has every figure, each of a sensible kind."""
    assert set(entry) == {"database", "settings", "latency", "throughput", "speedup"}
    latency = entry["latency"]
    assert set(latency) == LATENCY_FIELDS
    assert latency["games"] == games and latency["actions"] == actions
    assert 0 < latency["median_ms"] <= latency["p99_ms"] <= latency["max_ms"]
    # One process, two owning half of the games each, two playing all of them.
    runs = entry["throughput"]
    assert [(r["games"], r["processes"], r["shared"]) for r in runs] == [
        (concurrent, 1, False),
        (concurrent, 2, False),
        (concurrent, 2, True),
    ]
    for run in runs:
        assert set(run) == RUN_FIELDS
        assert run["actions"] > 0 and run["seconds"] > 0 and run["actions_per_s"] > 0
        assert run["cpu_seconds"] >= 0
        assert run["cpus_busy"] is None or 0 <= run["cpus_busy"] <= 1
    assert runs[0]["stale"] == runs[1]["stale"] == 0  # own games: no conflicting click
    assert set(entry["speedup"]) == {str(concurrent)} and entry["speedup"][str(concurrent)] > 0


async def test_bench_store_reports_figures(tmp_path: Path) -> None:
    """The one-action bench on a SQLite file reports its figures in order."""
    figures = await bench_store(tmp_path / "bench.db", games=6, actions=40, seed=3)
    assert figures["games"] == 6 and figures["actions"] == 40
    assert 0 < figures["median_ms"] <= figures["p99_ms"] <= figures["max_ms"]
    assert 0.0 <= figures["cache_hit_rate"] <= 1.0


def test_cli_bench_store(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    """``bench --store --driver sqlite`` prints the table: median, p99 and actions/s."""
    db = tmp_path / "cli.db"
    code = main(["bench", "--store", "--driver", "sqlite", *TINY, "--db", str(db)])
    assert code == 0
    out = capsys.readouterr().out
    assert f"SQLite: file {db} (WAL, synchronous=NORMAL)" in out
    assert re.search(r"one action on 4 games: median ms +[\d.]+\n", out), out
    assert re.search(r"one action: p99 ms +[\d.]+\n", out), out
    for label in ("2 games, 1 process", "2 games, 2 processes", "2 games, 2 processes, same"):
        assert re.search(rf"{label}[a-z ]*: actions/s +[\d ]+", out), out
    assert re.search(r"2 games: 2 processes / 1 process +[\d.]+×", out), out
    assert "PostgreSQL" not in out.split("\n", 1)[1]  # not asked for
    assert db.exists()


def test_cli_bench_store_twice_on_one_file(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """A database given with --db gets its bench games finished, so a second run works."""
    db = tmp_path / "again.db"
    for _ in range(2):
        assert main(["bench", "--store", "--driver", "sqlite", *TINY, "--db", str(db)]) == 0

    async def open_games() -> int:
        async with SqliteGameStore(db) as store:
            return len(await store.list_games(BENCH_GUILD))

    assert asyncio.run(open_games()) == 0
    assert capsys.readouterr().out.count("store bench") == 2


def test_cli_bench_store_refuses_a_bots_database(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """A database with open games of a real server is not benched (exit code 2)."""
    db = tmp_path / "bot.db"

    async def a_real_game() -> None:
        async with SqliteGameStore(db) as store:
            await store.create_game(987654321, 5, make_state())

    asyncio.run(a_real_game())
    code = main(["bench", "--store", "--driver", "sqlite", *TINY, "--db", str(db)])
    assert code == 2
    assert "not a bench database" in capsys.readouterr().err


def test_cli_bench_store_quick_and_bad_options(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """--quick makes the defaults small; a --database-url that is not PostgreSQL's is
    refused before anything runs."""
    db = tmp_path / "quick.db"
    args = ["bench", "--store", "--quick", "--driver", "sqlite", "--concurrent", "2"]
    assert main([*args, "--seconds", "0.2", "--db", str(db)]) == 0
    assert "one action on 100 games" in capsys.readouterr().out
    assert main(["bench", "--store", "--database-url", "mysql://x/y"]) == 2
    assert "--database-url must be a postgresql:// URL" in capsys.readouterr().err
    with pytest.raises(SystemExit):
        main(["bench", "--store", "--concurrent", "10,none"])


def test_cli_bench_store_scratch_file(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    """Without --db the SQLite bench uses a scratch file in data/, removed afterwards."""
    monkeypatch.chdir(tmp_path)
    assert main(["bench", "--store", "--driver", "sqlite", *TINY, "--games", "2"]) == 0
    assert "on 2 games" in capsys.readouterr().out
    assert list((tmp_path / "data").iterdir()) == []  # the scratch file is gone


def test_cli_bench_store_on_both_drivers_json(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    """The default bench: SQLite and a throwaway PostgreSQL server on loopback, side by
    side, every figure in the JSON; the server and its folder are gone afterwards."""
    bindir, found = find_bindir()
    if bindir is None:
        skip_or_fail(f"PostgreSQL 15 binaries not found ({found})")
    monkeypatch.chdir(tmp_path)
    pattern = str(Path(tempfile.gettempdir()) / "bench-pg-*")
    before = set(glob.glob(pattern))
    assert main(["bench", "--store", *TINY, "--json"]) == 0
    report = json.loads(capsys.readouterr().out)
    assert set(report) == {"cpus", "load_before", "players", "seconds", "drivers", "goals"}
    assert report["seconds"] == 0.2 and report["players"] == 4
    assert set(report["drivers"]) == {"sqlite", "postgresql"}
    for entry in report["drivers"].values():
        check_driver(entry, games=4, actions=25, concurrent=2)
    postgres = report["drivers"]["postgresql"]
    assert postgres["database"].startswith("127.0.0.1:")  # on loopback TCP
    assert postgres["settings"]["synchronous_commit"] == "on"
    assert postgres["settings"]["fsync"] == "on"  # the defaults, as in production
    goals = report["goals"]
    assert goals["postgresql_median_ms"] == postgres["latency"]["median_ms"]
    assert isinstance(goals["postgresql_median_met"], bool)
    assert goals["postgresql_speedup"] is None  # measured for 100 games only
    # The throwaway server's folder is removed (in data/, or the temp folder when the
    # server's user cannot reach data/), and so is the SQLite scratch file.
    assert list((tmp_path / "data").iterdir()) == []
    assert set(glob.glob(pattern)) == before


async def test_cli_bench_store_on_a_given_postgresql_database(
    pg_backend: PostgresBackend, capsys: pytest.CaptureFixture[str]
) -> None:
    """``--database-url`` benches that database; its bench games are finished after."""
    args = ["bench", "--store", "--driver", "postgresql", *TINY, "--database-url", pg_backend.url]
    # In a thread: the command runs its own event loops.
    assert await asyncio.to_thread(main, args) == 0
    out = capsys.readouterr().out
    assert "PostgreSQL: socket " in out and "synchronous_commit=" in out
    assert re.search(r"one action on 4 games: median ms +[\d.]+\n", out), out
    async with pg_backend.store() as store:
        assert await store.list_games(BENCH_GUILD) == []
        assert len(await store.list_games(BENCH_GUILD, include_finished=True)) == 4 + 3 * 2


def test_cli_bench_without_store_is_the_engine_bench(capsys: pytest.CaptureFixture[str]) -> None:
    """Without --store, bench measures the engine."""
    assert main(["bench", "--games", "2"]) == 0
    assert capsys.readouterr().out.startswith("monopoly-engine: 2 games")


def test_next_simple_action_plays_a_game_to_its_end() -> None:
    """The simple players finish a game, then have nothing more to do."""
    state = new_game([("a", "A"), ("b", "B")], seed=1)
    for _ in range(5000):
        action = next_simple_action(state)
        if action is None:
            break
        apply_action(state, action)
    assert state.phase == "over" and next_simple_action(state) is None


def _own_scratch(pid: int, scratch: Path) -> Path | None:
    """The scratch database folder or cluster of the bench process ``pid``: the SQLite
    bench's folder under ``scratch``, or the data folder of the ``postgres`` server it
    started (its child; other tests may run benches of their own at the same time)."""
    found = sorted(scratch.glob("bench-*")) if scratch.exists() else []
    if found:
        return found[0]
    for stat in Path("/proc").glob("[0-9]*/stat"):
        try:
            fields = stat.read_text().rsplit(")", 1)[1].split()
            if int(fields[1]) != pid:
                continue
            argv = (stat.parent / "cmdline").read_bytes().split(b"\0")
        except (OSError, IndexError, ValueError):
            continue
        if argv and argv[0].endswith(b"/postgres") and b"-D" in argv:
            return Path(argv[argv.index(b"-D") + 1].decode()).parent
    return None


@pytest.mark.skipif(not Path("/proc/self/stat").exists(), reason="reads /proc")
@pytest.mark.parametrize("driver", ["sqlite", "postgresql"])
def test_a_bench_stopped_by_sigterm_leaves_nothing_behind(tmp_path: Path, driver: str) -> None:
    """SIGTERM (a container stopping, ``kill``) in the middle of ``bench --store`` ends it
    with exit code 143 like Ctrl-C would, and the scratch file or the throwaway server's
    cluster is removed on the way out: nothing stays under data/ for git to show."""
    import os
    import signal
    import subprocess
    import sys
    import time

    if driver == "postgresql" and find_bindir()[0] is None:
        skip_or_fail("PostgreSQL binaries not found")
    scratch = tmp_path / "data"
    long_run = ["--games", "50", "--actions", "1000000", "--concurrent", "2", "--seconds", "60"]
    process = subprocess.Popen(
        [sys.executable, "-m", "bot", "bench", "--store", "--driver", driver, *long_run],
        cwd=tmp_path,
        env={**os.environ, "PYTHONPATH": str(Path(__file__).resolve().parents[2])},
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
    )
    try:
        deadline = time.monotonic() + 180
        # Wait until the bench is under way: its own scratch database or server exists.
        while (own := _own_scratch(process.pid, scratch)) is None:
            assert process.poll() is None, process.communicate()
            assert time.monotonic() < deadline, "the bench never started"
            time.sleep(0.1)
        time.sleep(1.0)
        process.send_signal(signal.SIGTERM)
        _out, err = process.communicate(timeout=180)
    finally:
        if process.poll() is None:
            process.kill()
            process.wait()
    assert process.returncode == 128 + signal.SIGTERM, err.decode()
    assert "Traceback" not in err.decode()
    assert not own.exists(), f"{own} was left behind"
    assert not scratch.exists() or list(scratch.iterdir()) == []
