"""Only the owner of a settings key names it: no other module indexes the settings by a string.

A game's settings are typed sections (``bot/settings/``): each key is declared once, in
its section's module, and everyone else reads and writes typed attributes, so a typo in a
key is an ``AttributeError`` (and a type checker's complaint) instead of a silent ``None``.
This test reads every module of ``bot/``, ``cogs/`` and ``render/`` with :mod:`ast` and
fails on the old way coming back: a name or attribute called ``settings`` (``settings``,
``row.settings``, ``click.settings`` …) subscripted with a string literal, asked with a
string literal for ``get``/``pop``/``setdefault``, or tested with ``"key" in settings``.
"""

from __future__ import annotations

import ast
from collections.abc import Iterator
from pathlib import Path

from bot.settings import GameSettings
from bot.settings.game import SECTIONS

ROOT = Path(__file__).resolve().parents[1]
PACKAGES = ("bot", "cogs", "render")
#: The owners: the sections' modules may name their keys.
OWNERS = ("bot/settings/",)
#: Modules that are no owner and still may, and why.
EXEMPT = {
    # The store keeps the settings as one opaque JSON object (and its PostgreSQL code has
    # a ``settings`` mapping of its own: a connection's server settings).
    "bot/store/": "the store keeps the JSON object as it is",
}
#: Accesses left on purpose in modules another engineer owns, by (path, key). Remove an
#: entry once it is converted: the test fails while an entry is not found any more.
KNOWN: dict[tuple[str, str], str] = {
    ("bot/app.py", "lang"): "the broken-game notice; bot/app.py is not converted yet",
}
#: The dict methods that read or write one key.
KEY_METHODS = ("get", "pop", "setdefault")


def _is_settings(node: ast.expr) -> bool:
    """Whether ``node`` is ``settings`` or ``<anything>.settings``."""
    if isinstance(node, ast.Name):
        return node.id == "settings"
    return isinstance(node, ast.Attribute) and node.attr == "settings"


def _literal(node: ast.expr | None) -> str | None:
    if isinstance(node, ast.Constant) and isinstance(node.value, str):
        return node.value
    return None


def string_keys(tree: ast.AST) -> Iterator[tuple[int, str]]:
    """``(line, key)`` of every settings access by a string literal in ``tree``."""
    for node in ast.walk(tree):
        key = None
        if isinstance(node, ast.Subscript) and _is_settings(node.value):
            key = _literal(node.slice)
        elif (
            isinstance(node, ast.Call)
            and isinstance(node.func, ast.Attribute)
            and node.func.attr in KEY_METHODS
            and _is_settings(node.func.value)
            and node.args
        ):
            key = _literal(node.args[0])
        elif (
            isinstance(node, ast.Compare)
            and len(node.ops) == 1
            and isinstance(node.ops[0], ast.In | ast.NotIn)
            and _is_settings(node.comparators[0])
        ):
            key = _literal(node.left)
        if key is not None:
            yield node.lineno, key


def _modules() -> Iterator[tuple[str, Path]]:
    for package in PACKAGES:
        for path in sorted((ROOT / package).rglob("*.py")):
            yield path.relative_to(ROOT).as_posix(), path


def _found() -> dict[tuple[str, str], list[int]]:
    found: dict[tuple[str, str], list[int]] = {}
    for name, path in _modules():
        if name.startswith(OWNERS) or name.startswith(tuple(EXEMPT)):
            continue
        for line, key in string_keys(ast.parse(path.read_text(encoding="utf-8"), name)):
            found.setdefault((name, key), []).append(line)
    return found


def test_no_module_but_the_owner_names_a_settings_key() -> None:
    """Outside ``bot/settings/`` the settings are read and written as typed sections."""
    found = _found()
    unexpected = [
        f"{name}:{line}: settings[{key!r}]"
        for (name, key), lines in sorted(found.items())
        if (name, key) not in KNOWN
        for line in lines
    ]
    assert not unexpected, (
        "Read and write the settings through their typed sections (bot/settings/), "
        "not by a string key:\n" + "\n".join(unexpected)
    )


def test_the_known_exceptions_are_still_there() -> None:
    """An exception converted meanwhile is taken off :data:`KNOWN` (so it cannot return)."""
    found = _found()
    gone = [f"{name}: {key!r}" for name, key in KNOWN if (name, key) not in found]
    assert not gone, "Remove from KNOWN (converted): " + ", ".join(gone)


def test_the_check_sees_what_it_should() -> None:
    """The scan finds each form of string access, and none of the typed ones."""
    code = """
settings["lang"]
row.settings.get("players", [])
click.settings.pop("paused", None)
"turn_seq" in info.settings
settings.lobby.lang
settings.get(name)
changes["deadline"]
"""
    assert [key for _, key in string_keys(ast.parse(code))] == [
        "lang",
        "players",
        "paused",
        "turn_seq",
    ]


def test_every_key_has_one_owner() -> None:
    """No two sections declare the same key (each key is read and written in one place)."""
    seen: dict[str, str] = {}
    for section, kind in SECTIONS.items():
        for key in kind.KEYS:
            assert key not in seen, f"{key!r} is owned by {seen[key]} and {section}"
            seen[key] = section
    assert GameSettings({key: 1 for key in seen}).unknown_keys() == set()
