"""Which package may import which, and no import cycles (docs/architecture.md).

The contracts themselves are ``[tool.importlinter]`` in pyproject.toml and are checked by
import-linter (``lint-imports``). This module runs it, checks that the contracts' lists
of feature cogs name every feature cog, and looks for import cycles itself with
:mod:`ast`: every import between any two modules of ``bot``, ``cogs`` and ``render``,
wherever it stands (import-linter's ``acyclic_siblings`` looks at siblings of a package).
"""

from __future__ import annotations

import ast
import subprocess
import sys
import tomllib
from collections.abc import Iterable, Iterator
from dataclasses import dataclass
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]
PACKAGES = ("bot", "cogs", "render")

#: Imports that close a cycle today, all of them for type annotations only (inside
#: ``if TYPE_CHECKING:``): the core's parts name ``Core`` (cogs/core/services.py), which
#: builds them, and the message builders name the ``Publisher`` that calls them. The same
#: list is ``ignore_imports`` of the contracts ``no-cycles`` and ``core-layers``. Remove an
#: entry once the import is gone (the tests below fail until then).
KNOWN_CYCLE_EDGES: frozenset[tuple[str, str]] = frozenset()

#: Where an import statement sits: at module level (also inside ``if``/``try`` there),
#: inside a function or class body, or inside an ``if TYPE_CHECKING:`` block.
TOP, LOCAL, TYPE_CHECKING = "top", "local", "type_checking"


@dataclass(frozen=True)
class Edge:
    """One import statement of ``importer`` that names the module ``imported``."""

    importer: str
    imported: str
    line: int
    where: str


def _modules() -> dict[str, tuple[Path, bool]]:
    """Every module of the packages: name -> (file, whether it is a package's __init__)."""
    found = {}
    for package in PACKAGES:
        for path in sorted((ROOT / package).rglob("*.py")):
            parts = list(path.relative_to(ROOT).with_suffix("").parts)
            is_package = parts[-1] == "__init__"
            if is_package:
                parts.pop()
            found[".".join(parts)] = (path, is_package)
    return found


def _resolve(name: str, modules: dict[str, tuple[Path, bool]]) -> str | None:
    """The module ``name`` refers to: itself, else the nearest enclosing module we have.

    ``from bot.store import GameRow`` names ``bot.store.GameRow``, which is no module, so
    it counts as importing ``bot.store``; ``from cogs.ui import turn`` counts as
    ``cogs.ui.turn``. Modules outside the packages (the standard library, discord) are None.
    """
    parts = name.split(".")
    while parts:
        candidate = ".".join(parts)
        if candidate in modules:
            return candidate
        parts.pop()
    return None


def _statements(tree: ast.AST) -> Iterator[tuple[ast.Import | ast.ImportFrom, str]]:
    """Every import statement of a module with where it sits (:data:`TOP` ...)."""

    def visit(
        nodes: Iterable[ast.AST], where: str
    ) -> Iterator[tuple[ast.Import | ast.ImportFrom, str]]:
        for node in nodes:
            if isinstance(node, ast.Import | ast.ImportFrom):
                yield node, where
            elif isinstance(node, ast.If) and _is_type_checking(node.test):
                yield from visit(node.body, TYPE_CHECKING)
                yield from visit(node.orelse, where)
            elif isinstance(node, ast.FunctionDef | ast.AsyncFunctionDef | ast.ClassDef):
                inner = TYPE_CHECKING if where == TYPE_CHECKING else LOCAL
                yield from visit(ast.iter_child_nodes(node), inner)
            else:
                yield from visit(ast.iter_child_nodes(node), where)

    yield from visit(ast.iter_child_nodes(tree), TOP)


def _is_type_checking(test: ast.expr) -> bool:
    """``TYPE_CHECKING`` or ``typing.TYPE_CHECKING``."""
    if isinstance(test, ast.Name):
        return test.id == "TYPE_CHECKING"
    return isinstance(test, ast.Attribute) and test.attr == "TYPE_CHECKING"


def import_graph() -> dict[str, list[Edge]]:
    """Every module of bot/, cogs/ and render/ and the imports of the others it makes.

    Counted are ``import a.b`` (as ``a.b``) and ``from a.b import c`` (as ``a.b.c`` if that
    is a module, else ``a.b``), relative ones resolved, wherever they stand: at module
    level, inside ``if``/``try``, inside functions and classes, and inside ``if
    TYPE_CHECKING:``. Not counted: the packages a dotted import runs on the way
    (``import a.b.c`` also runs ``a/__init__.py``; every package-internal import would
    otherwise be a cycle with its ``__init__``), and ``importlib.import_module`` strings.
    """
    modules = _modules()
    graph = {}
    for name, (path, is_package) in modules.items():
        package = name if is_package else name.rpartition(".")[0]
        tree = ast.parse(path.read_text(encoding="utf-8"), str(path))
        graph[name] = module_edges(name, package, tree, modules)
    return graph


def module_edges(
    name: str, package: str, tree: ast.AST, modules: dict[str, tuple[Path, bool]]
) -> list[Edge]:
    """The imports of the module ``name`` (in ``package``) of other ``modules``."""
    edges = []
    for statement, where in _statements(tree):
        if isinstance(statement, ast.Import):
            targets = [alias.name for alias in statement.names]
        else:
            base = statement.module or ""
            if statement.level:
                parts = package.split(".")
                parts = parts[: len(parts) - statement.level + 1]
                base = ".".join([*parts, base] if base else parts)
            targets = [f"{base}.{alias.name}" for alias in statement.names]
        for target in targets:
            imported = _resolve(target, modules)
            if imported is not None and imported != name:
                edges.append(Edge(name, imported, statement.lineno, where))
    return edges


def find_cycles(graph: dict[str, list[Edge]]) -> list[list[Edge]]:
    """One cycle (a closed chain of imports) per strongly connected group of modules."""
    targets = {m: sorted({e.imported for e in edges}) for m, edges in graph.items()}
    index: dict[str, int] = {}
    low: dict[str, int] = {}
    stack: list[str] = []
    on_stack: set[str] = set()
    groups: list[set[str]] = []

    def connect(module: str) -> None:  # Tarjan's algorithm
        index[module] = low[module] = len(index)
        stack.append(module)
        on_stack.add(module)
        for other in targets[module]:
            if other not in index:
                connect(other)
                low[module] = min(low[module], low[other])
            elif other in on_stack:
                low[module] = min(low[module], index[other])
        if low[module] == index[module]:
            group = set()
            while True:
                member = stack.pop()
                on_stack.discard(member)
                group.add(member)
                if member == module:
                    break
            if len(group) > 1:
                groups.append(group)

    for module in sorted(graph):
        if module not in index:
            connect(module)
    return [_cycle_in(graph, group) for group in groups]


def _cycle_in(graph: dict[str, list[Edge]], group: set[str]) -> list[Edge]:
    """A shortest cycle through the group's first module (breadth-first inside the group)."""
    start = min(group)
    paths: dict[str, list[Edge]] = {start: []}
    queue = [start]
    while queue:
        module = queue.pop(0)
        for edge in graph[module]:
            if edge.imported == start:
                return [*paths[module], edge]
            if edge.imported in group and edge.imported not in paths:
                paths[edge.imported] = [*paths[module], edge]
                queue.append(edge.imported)
    raise AssertionError(f"no cycle through {start}")  # a strongly connected group has one


def describe(cycle: list[Edge]) -> str:
    """``a -> b (line 3) -> a (line 9, type_checking)``."""
    text = cycle[0].importer
    for edge in cycle:
        where = "" if edge.where == TOP else f", {edge.where}"
        text += f" -> {edge.imported} (line {edge.line}{where})"
    return text


def _lint_imports() -> subprocess.CompletedProcess[str]:
    """Run ``lint-imports`` (next to this Python) on pyproject.toml's contracts."""
    script = Path(sys.executable).with_name("lint-imports")
    command = (
        [str(script)]
        if script.exists()
        else [sys.executable, "-c", "from importlinter.cli import lint_imports_command as c; c()"]
    )
    # --no-cache: no .import_linter_cache in the repository (and none shared by xdist workers).
    return subprocess.run(
        [*command, "pyproject.toml", "--no-cache", "--no-logo"],
        cwd=ROOT,
        capture_output=True,
        text=True,
        timeout=120,
        check=False,
    )


def _contracts() -> dict[str, dict]:
    """The import-linter contracts of pyproject.toml by their ids."""
    config = tomllib.loads((ROOT / "pyproject.toml").read_text(encoding="utf-8"))
    return {c["id"]: c for c in config["tool"]["importlinter"]["contracts"]}


def _children(package: str) -> set[str]:
    """The direct submodules and subpackages of ``package`` (from the files)."""
    depth = package.count(".") + 1
    return {
        ".".join(name.split(".")[: depth + 1])
        for name in _modules()
        if name.startswith(package + ".")
    }


# -- import-linter --------------------------------------------------------------------


def test_import_contracts_hold() -> None:
    """``lint-imports`` keeps every contract of pyproject.toml's ``[tool.importlinter]``."""
    result = _lint_imports()
    assert result.returncode == 0, result.stdout + result.stderr


def test_cog_contracts_name_every_feature_cog() -> None:
    """The contracts on cogs list exactly the feature cogs the extension loads
    (``cogs.extension.FEATURES``): a new feature cog must join them."""
    from cogs.extension import FEATURES

    contracts = _contracts()
    features = {cog.__module__ for cog in FEATURES}
    assert _children("cogs") - features == {"cogs.core", "cogs.ui", "cogs.extension"}
    assert set(contracts["independent-features"]["modules"]) == features
    core = set(contracts["core-without-features"]["forbidden_modules"])
    assert core == features | {"cogs.extension"}


def test_contracts_ignore_no_imports_of_ours() -> None:
    """No contract on the layers of cogs.core or on cycles ignores an import: they hold as
    they are (what a part of the action path needs of another is in cogs/core/ports.py)."""
    for name in ("no-cycles", "core-layers"):
        assert not _contracts()[name].get("ignore_imports"), name


# -- cycles, counted with ast ---------------------------------------------------------


def test_no_import_cycles() -> None:
    """No module of bot/, cogs/ or render/ imports itself through others, counting every
    import (module level, inside functions, inside ``if TYPE_CHECKING:``; see
    :func:`import_graph`) except the :data:`KNOWN_CYCLE_EDGES`. Prints each cycle found."""
    graph = import_graph()
    kept = {
        module: [e for e in edges if (e.importer, e.imported) not in KNOWN_CYCLE_EDGES]
        for module, edges in graph.items()
    }
    cycles = find_cycles(kept)
    for cycle in cycles:
        print("import cycle:", describe(cycle))
    assert not cycles, "import cycles:\n" + "\n".join(describe(c) for c in cycles)


def test_known_cycle_edges_are_type_annotations_that_still_exist() -> None:
    """Each known cycle edge is still imported, and only inside ``if TYPE_CHECKING:`` (a
    cycle at run time is never accepted); a fixed one must leave the list."""
    graph = import_graph()
    for importer, imported in sorted(KNOWN_CYCLE_EDGES):
        places = {e.where for e in graph[importer] if e.imported == imported}
        assert places, f"{importer} no longer imports {imported}: remove it from the list"
        assert places == {TYPE_CHECKING}, (importer, imported, places)


def test_cycles_today_are_only_the_known_ones() -> None:
    """With the known edges counted, the only cycles run through ``cogs.core`` (so the
    list is not hiding a cycle elsewhere)."""
    cycles = find_cycles(import_graph())
    for cycle in cycles:
        assert all(e.importer.startswith("cogs.core.") for e in cycle), describe(cycle)


@pytest.mark.parametrize(
    ("source", "expected"),
    [
        ("import bot.engine.state\n", [("bot.engine.state", TOP)]),
        ("from bot.store import GameRow\n", [("bot.store", TOP)]),
        ("from cogs.ui import turn\n", [("cogs.ui.turn", TOP)]),
        ("from . import errors\n", [("bot.engine.errors", TOP)]),
        ("from .errors import IllegalAction\n", [("bot.engine.errors", TOP)]),
        ("from ..store import kinds\n", [("bot.store.kinds", TOP)]),
        ("def f():\n    import render.board\n", [("render.board", LOCAL)]),
        (
            "from typing import TYPE_CHECKING\nif TYPE_CHECKING:\n    from bot.service import X\n",
            [("bot.service", TYPE_CHECKING)],
        ),
        ("try:\n    import cogs.play\nexcept ImportError:\n    pass\n", [("cogs.play", TOP)]),
        ("import json\nimport discord\n", []),
    ],
)
def test_import_graph_counts_every_kind_of_import(
    source: str, expected: list[tuple[str, str]]
) -> None:
    """The cycle check reads each form of import as the module it names and where it sits
    (checked on small sources as if they were ``bot/engine/example.py``)."""
    edges = module_edges("bot.engine.example", "bot.engine", ast.parse(source), _modules())
    assert [(e.imported, e.where) for e in edges] == expected


def test_find_cycles_reports_a_cycle() -> None:
    """A made-up cycle a -> b -> c -> a is found and printed with its lines."""
    graph = {
        "a": [Edge("a", "b", 1, TOP)],
        "b": [Edge("b", "c", 2, LOCAL)],
        "c": [Edge("c", "a", 3, TYPE_CHECKING)],
        "d": [Edge("d", "a", 4, TOP)],
    }
    cycles = find_cycles(graph)
    assert [describe(c) for c in cycles] == [
        "a -> b (line 1) -> c (line 2, local) -> a (line 3, type_checking)"
    ]
