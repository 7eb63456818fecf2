"""The few lines of Python in docs/fair-dice.md check an exported game as the doc says:
they accept an honest export of either scheme (a secret committed in the lobby and the
players' words, or a seed committed at the start), name the first throw of a changed one
and refuse one whose words were changed."""

from __future__ import annotations

import copy
import json
import re
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest

from bot.engine.game import apply_action, new_game
from bot.engine.record import GameRecord
from bot.engine.rules import Rules
from bot.engine.simple_players import next_simple_action
from bot.fairness import commit, commit_secret, derive_seed, export_fairness, seal

DOC = Path(__file__).resolve().parents[1] / "docs" / "fair-dice.md"


def doc_snippet() -> str:
    """The one Python block of the doc."""
    blocks = re.findall(r"```python\n(.*?)```", DOC.read_text(encoding="utf-8"), re.DOTALL)
    assert len(blocks) == 1, "the doc should hold exactly one Python block"
    return blocks[0]


#: The players' words of the scheme-2 games here (one with a character outside ASCII).
WORDS = [
    {"name": "Ada", "words": "Glück auf"},
    {"name": "Cy", "words": "🍀 Schlossallee"},
]


def exported_game(
    seed: int, game_id: int, preset: str = "classic", *, scheme: int = 2
) -> dict[str, Any]:
    """A whole game of simple players as ``monopoly-bot export`` writes it: of scheme 2
    (``seed`` is then the lobby's secret; the generator's seed is derived from it and
    :data:`WORDS`), or of scheme 1 (``seed`` committed to itself)."""
    if scheme == 2:
        settings = {**commit_secret(seed, game_id), **seal(seed, WORDS)}
        seed = settings["fair_seed"]
    else:
        settings = commit(seed, game_id)
    state = new_game(
        [("1", "Ada"), ("2", "Bo"), ("3", "Cy")], seed=seed, rules=Rules.from_preset(preset)
    )
    record = GameRecord.begin(state)
    for _ in range(3000):
        if state.phase == "over":
            break
        action = next_simple_action(state)
        assert action is not None
        record.add(action, apply_action(state, action))
    export = record.to_dict()
    export["final"] = state.to_dict()
    fairness = export_fairness(settings, game_id)
    assert fairness is not None
    export["fairness"] = fairness
    return export


def run_snippet(tmp_path: Path, export: dict[str, Any]) -> subprocess.CompletedProcess[str]:
    script, data = tmp_path / "check.py", tmp_path / "game.json"
    script.write_text(doc_snippet(), encoding="utf-8")
    data.write_text(json.dumps(export), encoding="utf-8")
    return subprocess.run(
        [sys.executable, str(script), str(data)], capture_output=True, text=True, timeout=60
    )


@pytest.mark.parametrize(("preset", "scheme"), [("classic", 2), ("short", 2), ("classic", 1)])
def test_the_doc_s_lines_accept_an_honest_export(tmp_path: Path, preset: str, scheme: int) -> None:
    """Every throw of a whole game (with dealt deeds in the short preset: a longer set-up),
    of the current scheme and of the first."""
    export = exported_game(987_654_321_987, 12, preset, scheme=scheme)
    assert export["fairness"]["scheme"] == f"monopoly-seed/{scheme}"
    throws = sum(len(entry["dice"]) for entry in export["actions"])

    done = run_snippet(tmp_path, export)

    assert done.returncode == 0, done.stderr
    assert f"all {throws} throws match" in done.stdout
    assert throws > 50


def test_the_doc_s_lines_name_the_first_changed_throw(tmp_path: Path) -> None:
    export = exported_game(5, 3)
    changed = copy.deepcopy(export)
    throws = [pair for entry in changed["actions"] for pair in entry["dice"]]
    first, second = throws[9]
    throws[9][:] = [first % 6 + 1, second]  # the tenth throw, its first die one higher

    done = run_snippet(tmp_path, changed)

    assert done.returncode != 0
    assert "throw 10: the seed gives" in done.stderr


def test_the_doc_s_lines_refuse_another_seed(tmp_path: Path) -> None:
    export = exported_game(5, 3, scheme=1)
    export["fairness"]["seed"] = 6

    done = run_snippet(tmp_path, export)

    assert done.returncode != 0
    assert "not the seed the game committed to" in done.stderr


def test_the_doc_s_lines_refuse_another_secret(tmp_path: Path) -> None:
    export = exported_game(5, 3)
    export["fairness"]["secret"] = 6

    done = run_snippet(tmp_path, export)

    assert done.returncode != 0
    assert "not the secret the lobby committed to" in done.stderr


def test_the_doc_s_lines_catch_a_changed_word(tmp_path: Path) -> None:
    """One character of one player's words changed: the seed does not follow any more;
    with the seed changed to match, the start does not come from it."""
    export = exported_game(5, 3)
    changed = copy.deepcopy(export)
    changed["fairness"]["words"][1]["words"] = "🍀 Schlossallees"

    done = run_snippet(tmp_path, changed)

    assert done.returncode != 0
    assert "the seed does not follow from the secret and the words" in done.stderr
    texts = [entry["words"] for entry in changed["fairness"]["words"]]
    changed["fairness"]["seed"] = derive_seed(5, texts)
    done = run_snippet(tmp_path, changed)
    assert done.returncode != 0
    assert "the start does not come from this seed" in done.stderr
