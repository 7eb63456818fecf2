"""The optional compiled engine: the modules of ``bot/engine/`` compiled with mypyc.

The pure Python engine is the default. ``monopoly-bot build-engine`` compiles the
same sources into a build folder outside the source tree, ``engine-<hash>/`` under
:func:`build_root`, where ``<hash>`` (:func:`source_hash`) covers the Python version
and the sources. With ``MONOPOLY_ENGINE=compiled`` set, ``bot/engine/__init__.py``
calls :func:`activate_from_environment` before it imports its modules: if the build
for the current sources is there, the engine's modules are imported from it;
otherwise (no build, or only builds of older sources) a warning is logged and the
pure source runs. :func:`compiled_engine_active` says which engine runs.

Only stdlib here, and this module and the package's ``__init__`` are never compiled.
The engine's data files stay where they are: they are read through the package
``bot.engine`` (``importlib.resources``), whose ``__init__`` is always the source one.
"""

from __future__ import annotations

import hashlib
import importlib.abc
import importlib.machinery
import importlib.util
import json
import logging
import os
import sys
import sysconfig
from collections.abc import Callable, Mapping, Sequence
from pathlib import Path
from types import ModuleType
from typing import TypeVar

logger = logging.getLogger(__name__)

_T = TypeVar("_T")

#: ``MONOPOLY_ENGINE``: ``compiled`` to run the compiled engine; unset, empty or ``pure``
#: for the pure Python one.
ENGINE_ENV = "MONOPOLY_ENGINE"
#: ``MONOPOLY_ENGINE_BUILD_DIR``: the folder holding the ``engine-<hash>/`` builds
#: (default ``$XDG_CACHE_HOME/monopoly-bot``, else ``~/.cache/monopoly-bot``).
BUILD_DIR_ENV = "MONOPOLY_ENGINE_BUILD_DIR"
#: The file in a build naming its hash and its modules.
MANIFEST = "manifest.json"
#: Changes when the layout of a build changes (part of the hash).
BUILD_FORMAT = "monopoly-engine-build/1"
#: The package compiled; its subpackages (``computer``) stay pure Python.
PACKAGE = "bot.engine"
#: Modules of :data:`PACKAGE` never compiled: the package itself, which switches the
#: imports, and this loader.
NEVER_COMPILED = ("__init__", "compiled")

ENGINE_DIR = Path(__file__).resolve().parent


def engine_sources() -> list[Path]:
    """The sources the hash covers: every ``bot/engine/*.py``, sorted by name."""
    return sorted(ENGINE_DIR.glob("*.py"))


def compiled_module_names() -> list[str]:
    """The modules a build compiles: :func:`engine_sources` but :data:`NEVER_COMPILED`."""
    return [
        f"{PACKAGE}.{path.stem}" for path in engine_sources() if path.stem not in NEVER_COMPILED
    ]


def source_hash() -> str:
    """16 hex digits of the Python version, the extension suffix and the engine's sources
    (names and bytes): a build is used only with exactly the sources it was built from."""
    digest = hashlib.sha256()
    ext_suffix = sysconfig.get_config_var("EXT_SUFFIX") or ""
    for part in (BUILD_FORMAT, sys.version, sys.implementation.cache_tag or "", ext_suffix):
        digest.update(part.encode() + b"\0")
    for path in engine_sources():
        digest.update(path.name.encode() + b"\0")
        digest.update(path.read_bytes() + b"\0")
    return digest.hexdigest()[:16]


def build_root(environ: Mapping[str, str] | None = None) -> Path:
    """The folder of the builds: ``$MONOPOLY_ENGINE_BUILD_DIR``, else
    ``$XDG_CACHE_HOME/monopoly-bot``, else ``~/.cache/monopoly-bot``."""
    env = os.environ if environ is None else environ
    chosen = env.get(BUILD_DIR_ENV)
    if chosen:
        return Path(chosen).expanduser()
    cache = env.get("XDG_CACHE_HOME")
    base = Path(cache).expanduser() if cache else Path.home() / ".cache"
    return base / "monopoly-bot"


def build_dir(root: Path | None = None) -> Path:
    """The build for the current sources: ``engine-<hash>`` under ``root``
    (default :func:`build_root`)."""
    return (build_root() if root is None else root) / f"engine-{source_hash()}"


def read_manifest(build: Path, expected_hash: str) -> dict[str, Path] | str:
    """The compiled modules of ``build`` (module name to file), or why it cannot be used."""
    try:
        raw = json.loads((build / MANIFEST).read_text(encoding="utf-8"))
    except FileNotFoundError:
        return f"no build at {build}"
    except (OSError, ValueError) as error:
        return f"unreadable {MANIFEST} in {build}: {error}"
    if not isinstance(raw, dict) or raw.get("format") != BUILD_FORMAT:
        return f"{build} is not a {BUILD_FORMAT} build"
    if raw.get("hash") != expected_hash:
        return f"{build} was built from other sources (hash {raw.get('hash')!r})"
    modules = raw.get("modules")
    if not isinstance(modules, dict) or not modules:
        return f"{build} lists no modules"
    found = {str(name): build / str(file) for name, file in modules.items()}
    missing = [name for name, file in found.items() if not file.is_file()]
    if missing:
        return f"{build} lacks the files of {', '.join(sorted(missing))}"
    return found


class CompiledFinder(importlib.abc.MetaPathFinder):
    """Finds the modules of one build (the engine's and mypyc's runtime) by exact name."""

    def __init__(self, modules: dict[str, Path]) -> None:
        self.modules = modules

    def find_spec(
        self,
        fullname: str,
        path: Sequence[str] | None = None,
        target: ModuleType | None = None,
    ) -> importlib.machinery.ModuleSpec | None:
        """An extension module's spec for a module of the build; None for any other."""
        file = self.modules.get(fullname)
        if file is None:
            return None
        loader = importlib.machinery.ExtensionFileLoader(fullname, str(file))
        return importlib.util.spec_from_file_location(fullname, file, loader=loader)


def activate(root: Path | None = None) -> bool:
    """Import the engine's modules from the build for the current sources from now on.

    True if that build was found (then a finder on ``sys.meta_path`` serves its
    modules); False, with a warning logged, if it was not: the pure source is used.
    Call it before the engine's modules are imported (``bot/engine/__init__.py`` does).
    """
    if any(isinstance(finder, CompiledFinder) for finder in sys.meta_path):
        return True
    try:
        expected = source_hash()
        build = (build_root() if root is None else root) / f"engine-{expected}"
        found = read_manifest(build, expected)
    except OSError as error:
        found = f"cannot read the engine's sources: {error}"
    if isinstance(found, str):
        others = _other_builds(build_root() if root is None else root, expected)
        stale = f" ({len(others)} build(s) of other sources there: stale)" if others else ""
        logger.warning(
            "%s=compiled, but no compiled engine matches the current sources: %s%s; "
            "using the pure Python engine (build it with `monopoly-bot build-engine`)",
            ENGINE_ENV,
            found,
            stale,
        )
        return False
    already = sorted(name for name in found if name.startswith(PACKAGE) and name in sys.modules)
    if already:
        logger.warning(
            "%s=compiled, but %s already imported as pure Python; using the pure engine",
            ENGINE_ENV,
            ", ".join(already),
        )
        return False
    sys.meta_path.insert(0, CompiledFinder(found))
    logger.debug("compiled engine from %s", build)
    return True


def _other_builds(root: Path, expected: str) -> list[Path]:
    """Builds under ``root`` other than the one for ``expected``."""
    try:
        return [p for p in root.glob("engine-*") if p.is_dir() and p.name != f"engine-{expected}"]
    except OSError:
        return []


def activate_from_environment() -> bool:
    """:func:`activate` if ``MONOPOLY_ENGINE=compiled``; False for ``pure`` or unset
    (nothing happens then), and with a warning for any other value."""
    wanted = os.environ.get(ENGINE_ENV, "").strip().lower()
    if wanted in ("", "pure"):
        return False
    if wanted != "compiled":
        logger.warning(
            "%s=%r is neither 'pure' nor 'compiled'; using the pure Python engine",
            ENGINE_ENV,
            os.environ[ENGINE_ENV],
        )
        return False
    return activate()


def mypyc_attr(*attrs: str, **kwattrs: object) -> Callable[[_T], _T]:
    """``mypy_extensions.mypyc_attr`` where mypy_extensions is not installed: the
    decorator only tells mypyc how to compile a class; in Python it does nothing."""
    return lambda cls: cls


def compiled_engine_active() -> bool:
    """True if the engine running is the compiled one (its ``state`` module was imported
    from a build), False for the pure Python engine."""
    state = sys.modules.get(f"{PACKAGE}.state")
    loader = getattr(getattr(state, "__spec__", None), "loader", None)
    return isinstance(loader, importlib.machinery.ExtensionFileLoader)


def engine_kind() -> str:
    """``compiled`` or ``pure``: which engine runs (:func:`compiled_engine_active`)."""
    return "compiled" if compiled_engine_active() else "pure"
