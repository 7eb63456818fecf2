"""The optional compiled engine (``monopoly-bot build-engine``, ``MONOPOLY_ENGINE=compiled``):
it plays exactly the games of the pure engine, and without a build for the current sources
the pure engine runs, with a warning.

The build (mypyc, a C compiler: a minute or so) happens once, in one test; without mypy or
a C compiler that test is skipped with the reason.
"""

from __future__ import annotations

import json
import logging
import os
import subprocess
import sys
from pathlib import Path

import pytest

from bot.cli import build_engine as build_engine_cli
from bot.cli import main
from bot.engine import compiled
from tests.engine.test_engine_fingerprint import EXPECTED

ROOT = Path(__file__).resolve().parents[2]

# The child prints whether the compiled engine ran and the fingerprint of its games.
_FINGERPRINT = """
import json
import bot.engine
from tests.engine.test_engine_fingerprint import engine_digest
digest = engine_digest()
print(json.dumps({"active": bot.engine.compiled_engine_active(), "digest": digest}))
"""


def _run_child(code: str, build_root: Path) -> subprocess.CompletedProcess[str]:
    """``code`` in a fresh Python with ``MONOPOLY_ENGINE=compiled`` and ``build_root``."""
    env = {
        **os.environ,
        compiled.ENGINE_ENV: "compiled",
        compiled.BUILD_DIR_ENV: str(build_root),
    }
    return subprocess.run(
        [sys.executable, "-c", code],
        cwd=ROOT,
        env=env,
        capture_output=True,
        text=True,
        timeout=600,
    )


def test_the_compiled_engine_plays_the_same_games(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    missing = build_engine_cli.missing_tools()
    if missing:
        pytest.skip(f"cannot build the compiled engine: missing {', '.join(missing)}")
    before = sorted(compiled.ENGINE_DIR.rglob("*.so"))
    root = tmp_path / "builds"

    assert main(["build-engine", "--build-dir", str(root)]) == 0
    out = capsys.readouterr().out
    build = compiled.build_dir(root)
    assert "compiled engine built in" in out and str(build) in out, out
    assert not isinstance(compiled.read_manifest(build, compiled.source_hash()), str)
    # Nothing compiled lands in the source tree.
    assert sorted(compiled.ENGINE_DIR.rglob("*.so")) == before == []
    # A second run finds it up to date.
    assert main(["build-engine", "--build-dir", str(root)]) == 0
    assert "up to date" in capsys.readouterr().out

    done = _run_child(_FINGERPRINT, root)
    assert done.returncode == 0, done.stderr
    result = json.loads(done.stdout.strip().splitlines()[-1])
    assert result == {"active": True, "digest": EXPECTED}, done.stderr
    assert "WARNING" not in done.stderr and "pure Python engine" not in done.stderr


def test_without_a_build_the_pure_engine_runs_with_a_warning(tmp_path: Path) -> None:
    code = "import bot.engine; print(bot.engine.compiled_engine_active())"
    done = _run_child(code, tmp_path / "nothing here")
    assert done.returncode == 0, done.stderr
    assert done.stdout.strip() == "False"
    assert "no compiled engine matches the current sources" in done.stderr
    assert "monopoly-bot build-engine" in done.stderr


@pytest.fixture
def pure_process() -> None:
    """These tests call :func:`compiled.activate` in this process: only where it can
    change nothing (the pure engine is imported already, no build is switched on)."""
    if compiled.compiled_engine_active():
        pytest.skip("this test run uses the compiled engine")


def test_a_missing_build_is_reported(
    pure_process: None, tmp_path: Path, caplog: pytest.LogCaptureFixture
) -> None:
    with caplog.at_level(logging.WARNING, logger=compiled.__name__):
        assert compiled.activate(tmp_path) is False
    assert "no build at" in caplog.text and "pure Python engine" in caplog.text
    assert "stale" not in caplog.text


def test_a_stale_build_is_not_used(
    pure_process: None, tmp_path: Path, caplog: pytest.LogCaptureFixture
) -> None:
    old = tmp_path / "engine-0123456789abcdef"
    old.mkdir()
    manifest = {"format": compiled.BUILD_FORMAT, "hash": "0123456789abcdef", "modules": {}}
    (old / compiled.MANIFEST).write_text(json.dumps(manifest), encoding="utf-8")
    # A build in the current sources' folder that was made from others is refused too.
    current = compiled.build_dir(tmp_path)
    current.mkdir()
    (current / compiled.MANIFEST).write_text(json.dumps(manifest), encoding="utf-8")
    with caplog.at_level(logging.WARNING, logger=compiled.__name__):
        assert compiled.activate(tmp_path) is False
    assert "built from other sources" in caplog.text
    assert "1 build(s) of other sources there: stale" in caplog.text
    assert not compiled.compiled_engine_active()


def test_the_environment_chooses_the_engine(
    pure_process: None, monkeypatch: pytest.MonkeyPatch, caplog: pytest.LogCaptureFixture
) -> None:
    with caplog.at_level(logging.WARNING, logger=compiled.__name__):
        for value in ("", "pure", "PURE"):
            monkeypatch.setenv(compiled.ENGINE_ENV, value)
            assert compiled.activate_from_environment() is False
        assert caplog.text == ""
        monkeypatch.setenv(compiled.ENGINE_ENV, "fast")
        assert compiled.activate_from_environment() is False
    assert "'fast' is neither 'pure' nor 'compiled'" in caplog.text
    assert compiled.engine_kind() == "pure"


def test_the_hash_covers_python_and_sources(tmp_path: Path) -> None:
    digest = compiled.source_hash()
    assert len(digest) == 16 and digest == compiled.source_hash()
    assert compiled.build_dir(tmp_path) == tmp_path / f"engine-{digest}"
    names = compiled.compiled_module_names()
    assert "bot.engine.state" in names and "bot.engine.game" in names
    assert "bot.engine.__init__" not in names and "bot.engine.compiled" not in names


def test_the_build_folder_is_outside_the_source_tree() -> None:
    assert compiled.build_root({compiled.BUILD_DIR_ENV: "/x/y"}) == Path("/x/y")
    assert compiled.build_root({"XDG_CACHE_HOME": "/c"}) == Path("/c/monopoly-bot")
    assert compiled.build_root({}) == Path.home() / ".cache" / "monopoly-bot"


def test_building_without_mypy_says_how_to_install_it(
    monkeypatch: pytest.MonkeyPatch, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    monkeypatch.setattr(build_engine_cli, "missing_tools", lambda: ["mypyc (the mypy package)"])
    assert main(["build-engine", "--build-dir", str(tmp_path)]) == 1
    err = capsys.readouterr().err
    assert "mypyc" in err and "pip install" in err and "[compiled]" in err
    assert list(tmp_path.iterdir()) == []


def test_no_build_goes_into_the_sources(capsys: pytest.CaptureFixture[str]) -> None:
    inside = compiled.ENGINE_DIR / "build"
    assert main(["build-engine", "--build-dir", str(inside)]) == 1
    assert "outside the sources" in capsys.readouterr().err
    assert not inside.exists()
