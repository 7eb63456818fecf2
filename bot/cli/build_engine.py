"""``monopoly-bot build-engine``: compile the engine's modules with mypyc (optional).

The build goes to ``engine-<hash>/`` under the build folder
(:func:`bot.engine.compiled.build_root`), never into ``bot/``: a stale compiled module
next to its source would silently hide edits of the source. The sources are copied to a
scratch folder, compiled there in a child process (mypyc with setuptools), and the
extension modules moved into place with a manifest naming them. ``MONOPOLY_ENGINE=compiled``
then runs them (:mod:`bot.engine.compiled`).

Only ``bot/engine/*.py`` are compiled; ``bot/engine/computer/`` stays pure Python (mypy
finds type errors there, which mypyc refuses; the benchmark does not use it).
"""

from __future__ import annotations

import argparse
import importlib.util
import json
import os
import shutil
import subprocess
import sys
import sysconfig
import tempfile
import time
from pathlib import Path

from bot.engine import compiled

#: The mypy that ``pip install 'monopoly-discord-bot[compiled]'`` installs.
INSTALL_HINT = "pip install 'monopoly-discord-bot[compiled]' (or: pip install mypy setuptools)"

# Runs in the scratch folder: mypyc compiles the modules named on the command line into
# C, setuptools builds the extensions into --build-lib.
_BUILD_SCRIPT = """
import sys
from mypyc.build import mypycify
from setuptools import setup

*paths, lib, temp = sys.argv[1:]
setup(
    name="monopoly-engine-compiled",
    ext_modules=mypycify(paths, opt_level="3", target_dir=temp + "/c"),
    script_args=["build_ext", "--build-lib", lib, "--build-temp", temp],
)
"""


class BuildFailed(Exception):
    """The engine could not be compiled (what is missing, or the compiler's output)."""


def missing_tools() -> list[str]:
    """What building needs and this Python lacks: mypyc, setuptools, a C compiler."""
    missing = []
    if importlib.util.find_spec("mypyc") is None:
        missing.append("mypyc (the mypy package)")
    if importlib.util.find_spec("setuptools") is None:
        missing.append("setuptools")
    compiler = os.environ.get("CC") or sysconfig.get_config_var("CC") or "cc"
    if shutil.which(compiler.split()[0]) is None:
        missing.append(f"a C compiler ({compiler.split()[0]})")
    return missing


def build_engine(root: Path, *, force: bool = False) -> tuple[Path, bool]:
    """Compile the engine into ``engine-<hash>/`` under ``root``.

    Returns the build's folder and whether it was built now (False: it was there already;
    ``force`` builds it again). Raises :class:`BuildFailed` with the reason.
    """
    package = compiled.ENGINE_DIR.parent  # bot/
    if root.resolve().is_relative_to(package):
        raise BuildFailed(f"{root} is inside {package}: builds go outside the sources")
    missing = missing_tools()
    if missing:
        raise BuildFailed(f"missing {', '.join(missing)}; install with: {INSTALL_HINT}")
    expected = compiled.source_hash()
    target = root / f"engine-{expected}"
    if not force and not isinstance(compiled.read_manifest(target, expected), str):
        return target, False
    root.mkdir(parents=True, exist_ok=True)
    with tempfile.TemporaryDirectory(prefix=f".engine-{expected}-", dir=root) as scratch_name:
        scratch = Path(scratch_name)
        src = scratch / "src"
        package = src / "bot" / "engine"
        package.mkdir(parents=True)
        (src / "bot" / "__init__.py").write_text("", encoding="utf-8")
        for path in compiled.engine_sources():
            shutil.copy2(path, package / path.name)
        if compiled.source_hash() != expected:
            raise BuildFailed("the engine's sources changed while being copied; build again")
        names = compiled.compiled_module_names()
        paths = [f"bot/engine/{name.rsplit('.', 1)[1]}.py" for name in names]
        lib = scratch / "lib"
        result = subprocess.run(
            [sys.executable, "-c", _BUILD_SCRIPT, *paths, str(lib), str(scratch / "temp")],
            cwd=src,
            capture_output=True,
            text=True,
            env={**os.environ, "MYPY_CACHE_DIR": str(scratch / "mypy_cache")},
        )
        if result.returncode != 0:
            tail = (result.stdout + result.stderr).strip().splitlines()[-40:]
            raise BuildFailed("mypyc failed:\n" + "\n".join(tail))
        modules = _built_modules(lib, names)
        manifest = {
            "format": compiled.BUILD_FORMAT,
            "hash": expected,
            "python": sys.version,
            "mypy": _mypy_version(),
            "built": time.strftime("%Y-%m-%dT%H:%M:%SZ", time.gmtime()),
            "modules": modules,
        }
        (lib / compiled.MANIFEST).write_text(
            json.dumps(manifest, indent=2, sort_keys=True) + "\n", encoding="utf-8"
        )
        if target.exists():
            shutil.rmtree(target)
        # A rename within one folder: other processes see no build or a whole one.
        lib.rename(target)
    return target, True


def _built_modules(lib: Path, names: list[str]) -> dict[str, str]:
    """Module name to file (relative to ``lib``) of every extension module built: the
    engine's modules and mypyc's shared runtime at the top."""
    suffix = sysconfig.get_config_var("EXT_SUFFIX") or ".so"
    modules: dict[str, str] = {}
    for file in sorted(lib.rglob(f"*{suffix}")):
        relative = file.relative_to(lib)
        name = ".".join((*relative.parts[:-1], relative.name[: -len(suffix)]))
        modules[name] = relative.as_posix()
    missing = [name for name in names if name not in modules]
    if missing:
        raise BuildFailed(f"mypyc built no module for {', '.join(missing)}")
    return modules


def _mypy_version() -> str:
    """The version of the mypy that compiled the build."""
    from importlib.metadata import PackageNotFoundError, version

    try:
        return version("mypy")
    except PackageNotFoundError:
        return "unknown"


def cmd_build_engine(args: argparse.Namespace) -> int:
    """``monopoly-bot build-engine``: compile the engine with mypyc, print where it went."""
    root = Path(args.build_dir).expanduser() if args.build_dir else compiled.build_root()
    started = time.perf_counter()
    try:
        target, built = build_engine(root, force=args.force)
    except BuildFailed as error:
        print(f"monopoly-bot build-engine: {error}", file=sys.stderr)
        return 1
    if built:
        print(f"compiled engine built in {time.perf_counter() - started:.0f}s: {target}")
    else:
        print(f"compiled engine up to date: {target}")
    hint = "" if args.build_dir is None else f" {compiled.BUILD_DIR_ENV}={root}"
    print(f"run it with:{hint} {compiled.ENGINE_ENV}=compiled")
    return 0
