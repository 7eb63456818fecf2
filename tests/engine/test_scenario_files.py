"""Every example in docs/examples runs, and matches its ``*.expected.json`` if there is one.

An expected file lists only what it pins down, e.g.::

    {"players": [{"cash": 1380, "position": 5}, {}], "owner": {"5": 0}, "phase": "end"}

``players`` compares the listed fields of each player; any other key is compared
with the state's field of that name, where a dict whose keys are digits indexes
into a list (``"owner": {"39": 0}`` means ``owner[39] == 0``) and other dicts
compare key by key.
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest

from bot.engine.record import GameRecord
from bot.engine.scenario import run
from bot.engine.state import GameState

EXAMPLES = Path(__file__).resolve().parents[2] / "docs" / "examples"
SCENARIOS = sorted(EXAMPLES.glob("*.scenario.json"))
RECORDS = sorted(EXAMPLES.glob("*.record.json"))


def expected_file(path: Path) -> Path:
    """``x.scenario.json`` / ``x.record.json`` -> ``x.expected.json``."""
    stem = path.name.rsplit(".", 2)[0]
    return path.with_name(f"{stem}.expected.json")


def mismatches(actual: Any, expected: Any, where: str) -> list[str]:
    """Where ``actual`` differs from what ``expected`` pins down."""
    if isinstance(expected, dict) and isinstance(actual, list):
        found = []
        for key, value in expected.items():
            if not key.isdigit() or int(key) >= len(actual):
                found.append(f"{where}[{key}]: no such index")
                continue
            found += mismatches(actual[int(key)], value, f"{where}[{key}]")
        return found
    if isinstance(expected, dict) and isinstance(actual, dict) and expected:
        found = []
        for key, value in expected.items():
            if key not in actual:
                found.append(f"{where}.{key}: missing in the state")
                continue
            found += mismatches(actual[key], value, f"{where}.{key}")
        return found
    if actual != expected:
        return [f"{where}: expected {expected!r}, got {actual!r}"]
    return []


def compare(state: GameState, expected: dict[str, Any]) -> list[str]:
    """Compare a final state with an expected file's fields."""
    actual = state.to_dict()
    found: list[str] = []
    for key, value in expected.items():
        if key.startswith("_") or key == "description":
            continue  # room for comments in the expected file
        if key not in actual:
            found.append(f"{key}: not a field of the state")
        elif key == "players":
            players = actual["players"]
            if len(value) != len(players):
                found.append(f"players: expected {len(value)} players, got {len(players)}")
            for seat, fields in enumerate(value[: len(players)]):
                for name, wanted in fields.items():
                    if name not in players[seat]:
                        found.append(f"players[{seat}].{name}: not a field of a player")
                    elif players[seat][name] != wanted:
                        found.append(
                            f"players[{seat}].{name}: expected {wanted!r}, "
                            f"got {players[seat][name]!r}"
                        )
        else:
            found += mismatches(actual[key], value, key)
    return found


def check_expected(path: Path, state: GameState) -> None:
    # The final state is a valid saved game.
    assert GameState.from_json(state.to_json()).to_json() == state.to_json()
    expected = expected_file(path)
    if expected.exists():
        problems = compare(state, json.loads(expected.read_text(encoding="utf-8")))
        assert not problems, f"{path.name} vs {expected.name}:\n" + "\n".join(problems)


def files_or_skip(files: list[Path], kind: str) -> list[Any]:
    return files or [pytest.param(None, marks=pytest.mark.skip(reason=f"no {kind} files yet"))]


@pytest.mark.parametrize(
    "path", files_or_skip(SCENARIOS, "docs/examples/*.scenario.json"), ids=lambda p: p and p.name
)
def test_example_scenario(path: Path | None) -> None:
    if path is None:  # pragma: no cover - only without examples
        pytest.skip("no docs/examples/*.scenario.json files yet")
    raw = json.loads(path.read_text(encoding="utf-8"))
    check_expected(path, run(raw))


@pytest.mark.parametrize(
    "path", files_or_skip(RECORDS, "docs/examples/*.record.json"), ids=lambda p: p and p.name
)
def test_example_record(path: Path | None) -> None:
    if path is None:  # pragma: no cover - only without examples
        pytest.skip("no docs/examples/*.record.json files yet")
    raw = json.loads(path.read_text(encoding="utf-8"))
    check_expected(path, GameRecord.from_dict(raw).replay())


def test_every_expected_file_has_its_example() -> None:
    if not EXAMPLES.is_dir():
        pytest.skip("no docs/examples folder yet")
    examples = {expected_file(p) for p in [*SCENARIOS, *RECORDS]}
    orphans = [p.name for p in sorted(EXAMPLES.glob("*.expected.json")) if p not in examples]
    assert not orphans


# -- the comparison itself ----------------------------------------------------------------


def test_compare_reads_digit_keys_as_list_indices() -> None:
    raw = {"format": "monopoly-scenario/1", "players": [{"cash": 10}, {}]}
    state = run({**raw, "lots": {"39": {"owner": 1}}})
    assert compare(state, {"owner": {"39": 1}, "players": [{"cash": 10}, {"position": 0}]}) == []
    assert compare(state, {"decks": {"chance": state.decks["chance"]}}) == []
    wrong = compare(state, {"owner": {"39": 0}, "players": [{"cash": 11}, {}], "phase": "end"})
    assert wrong == [
        "owner[39]: expected 0, got 1",
        "players[0].cash: expected 11, got 10",
        "phase: expected 'end', got 'roll'",
    ]
    assert compare(state, {"players": [{}]}) == ["players: expected 1 players, got 2"]
    assert compare(state, {"nonsense": 1}) == ["nonsense: not a field of the state"]
