"""The ``monopoly-bot`` command line: simulate, bench, replay and run."""

from __future__ import annotations

import json
import re
from pathlib import Path
from typing import Any

import pytest

from bot.cli import main
from bot.engine.game import apply_action, new_game
from bot.engine.legal import waiting_for
from bot.engine.record import GameRecord
from bot.engine.scenario import run
from bot.engine.simple_players import SimplePlayer
from bot.engine.simulate import JAIL_SLOT
from bot.engine.state import STATE_FORMAT

SCENARIO: dict[str, Any] = {
    "format": "monopoly-scenario/1",
    "description": "Anna throws 1+3 from LOS onto the income tax (200).",
    "players": [{"name": "Anna"}, {"name": "Ben"}],
    "steps": [
        {"action": {"type": "roll", "player": 0}, "dice": [1, 3]},
        {"action": {"type": "roll", "player": 0}, "error": "wrong_phase"},
    ],
}


def simulate_json(capsys: pytest.CaptureFixture[str], *args: str) -> dict[str, Any]:
    code = main(["simulate", "--players", "4", "--seed", "1", "--json", *args])
    out, err = capsys.readouterr()
    assert code == 0, err
    lines = out.strip().splitlines()
    assert len(lines) == 1, out
    data = json.loads(lines[0])
    assert isinstance(data, dict)
    return data


# -- simulate -----------------------------------------------------------------------------


def test_simulate_json_prints_one_object_of_totals(capsys: pytest.CaptureFixture[str]) -> None:
    data = simulate_json(capsys, "--games", "20")
    assert {"games", "turns", "throws", "seconds", "endings", "landings"} <= set(data)
    assert data["games"] == 20
    assert data["turns"] >= 20 and data["throws"] > 0
    assert isinstance(data["seconds"], int | float) and data["seconds"] >= 0
    assert sum(data["endings"].values()) == 20
    landings = data["landings"]
    assert len(landings) == 41 and all(type(n) is int and n >= 0 for n in landings)
    # A throw lands once, unless the thrower went bankrupt before it was counted.
    assert sum(landings) <= data["throws"]
    assert landings[JAIL_SLOT] > 0
    assert landings[30] == 0  # "Gehe in das Gefängnis" ends the throw in jail


def test_simulate_is_deterministic(capsys: pytest.CaptureFixture[str]) -> None:
    first = simulate_json(capsys, "--games", "5")
    second = simulate_json(capsys, "--games", "5")
    first.pop("seconds")
    second.pop("seconds")
    assert first == second


def test_simulate_turn_cap_ends_games(capsys: pytest.CaptureFixture[str]) -> None:
    data = simulate_json(capsys, "--games", "5", "--turn-cap", "10")
    assert data["endings"] == {"turn_cap": 5}
    assert 5 * 10 <= data["turns"] <= 5 * 11  # play stops once the turn counter passes the cap


def test_staying_in_jail_lands_in_jail_more_often(capsys: pytest.CaptureFixture[str]) -> None:
    leave = simulate_json(capsys, "--games", "40", "--jail-strategy", "leave")
    stay = simulate_json(capsys, "--games", "40", "--jail-strategy", "stay")
    assert stay["landings"][JAIL_SLOT] > leave["landings"][JAIL_SLOT]


def test_simulate_plain_text(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["simulate", "--games", "2", "--players", "3", "--seed", "4"]) == 0
    out = capsys.readouterr().out
    assert re.search(r"^games: 2$", out, re.MULTILINE)
    assert re.search(r"^landings: \[", out, re.MULTILINE)


def test_simulate_refuses_a_player_count_the_preset_does_not_allow(
    capsys: pytest.CaptureFixture[str],
) -> None:
    code = main(["simulate", "--games", "1", "--players", "2", "--preset", "mark", "--json"])
    out, err = capsys.readouterr()
    assert code == 2 and out == ""
    assert "mark" in err and "2" in err


# -- bench --------------------------------------------------------------------------------

BENCH_LINE = re.compile(
    r"monopoly-engine: (?P<games>\d+) games in (?P<seconds>\d+\.\d\d)s -> "
    r"(?P<rate>\d+\.\d) games/s, (?P<turns>\d+) turns/s; "
    r"mean turns/game (?P<mean>\d+\.\d); (?P<endings>.+)"
)


def test_bench_prints_one_summary_line(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["bench", "--games", "10", "--players", "4", "--seed", "0"]) == 0
    out = capsys.readouterr().out
    lines = out.strip().splitlines()
    assert len(lines) == 1, out
    match = BENCH_LINE.fullmatch(lines[0])
    assert match, lines[0]
    assert match["games"] == "10"
    assert float(match["rate"]) > 0 and int(match["turns"]) > 0 and float(match["mean"]) >= 1
    endings = dict(item.rsplit(" ", 1) for item in match["endings"].split(", "))
    assert sum(int(n) for n in endings.values()) == 10


def test_bench_names_the_engine_on_stderr(capsys: pytest.CaptureFixture[str]) -> None:
    from bot.engine import compiled_engine_active

    assert main(["bench", "--games", "2", "--players", "4", "--seed", "0"]) == 0
    out, err = capsys.readouterr()
    assert BENCH_LINE.fullmatch(out.strip())
    kind = "compiled" if compiled_engine_active() else "pure"
    assert err.strip().splitlines() == [f"engine: {kind}"]


# -- replay -------------------------------------------------------------------------------


def write(path: Path, data: Any) -> Path:
    path.write_text(json.dumps(data, ensure_ascii=False), encoding="utf-8")
    return path


def test_replay_of_a_scenario_prints_the_canonical_state(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    file = write(tmp_path / "tax.scenario.json", SCENARIO)
    assert main(["replay", str(file)]) == 0
    out, err = capsys.readouterr()
    assert err == ""
    assert len(out.strip().splitlines()) == 1
    state = json.loads(out)
    assert state["format"] == STATE_FORMAT
    assert state == run(SCENARIO).to_dict()
    assert state["players"][0]["position"] == 4
    assert state["players"][0]["cash"] == 1500 - 200
    assert state["phase"] == "end"


def test_replay_pretty_prints_the_same_state(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    file = write(tmp_path / "tax.scenario.json", SCENARIO)
    assert main(["replay", str(file), "--pretty"]) == 0
    out = capsys.readouterr().out
    assert len(out.strip().splitlines()) > 10
    assert json.loads(out) == run(SCENARIO).to_dict()


def test_replay_of_a_record(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    state = new_game([("a", "Anna"), ("b", "Ben")], seed=3)
    record = GameRecord.begin(state)
    bots = [SimplePlayer(), SimplePlayer()]
    for _ in range(60):
        seat = waiting_for(state)[0]
        action = bots[seat].decide(state, seat)
        record.add(action, apply_action(state, action))
    file = write(tmp_path / "game.record.json", record.to_dict())
    assert main(["replay", str(file)]) == 0
    assert json.loads(capsys.readouterr().out) == state.to_dict()


def test_replay_of_a_tampered_record_fails(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    state = new_game([("a", "Anna"), ("b", "Ben")], seed=3)
    record = GameRecord.begin(state)
    action = {"type": "roll", "player": state.current}
    record.add(action, apply_action(state, action))
    raw = record.to_dict()
    first, second = raw["actions"][0]["dice"][0]
    raw["actions"][0]["dice"][0] = [first % 6 + 1, second]
    file = write(tmp_path / "game.record.json", raw)
    assert main(["replay", str(file)]) == 1
    out, err = capsys.readouterr()
    assert out == "" and err.startswith("monopoly-bot replay:")


@pytest.mark.parametrize(
    ("content", "code"),
    [
        (None, 2),  # no such file
        ("{not json", 2),
        ('{"format": "monopoly-game/9"}', 2),
        ("[1, 2, 3]", 2),
        ('"monopoly-scenario/1"', 2),
    ],
    ids=["missing", "bad-json", "unknown-format", "json-list", "json-string"],
)
def test_replay_of_an_unreadable_file_fails_with_a_message(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], content: str | None, code: int
) -> None:
    file = tmp_path / "game.json"
    if content is not None:
        file.write_text(content, encoding="utf-8")
    assert main(["replay", str(file)]) == code
    out, err = capsys.readouterr()
    assert out == ""
    assert err.startswith("monopoly-bot replay:") and str(file) in err


@pytest.mark.parametrize(
    "change",
    [
        {"steps": [{"action": {"type": "end_turn", "player": 0}}]},  # refused
        {"steps": [{"action": {"type": "roll", "player": 0}, "error": "wrong_phase"}]},
        {"steps": [{"action": {"type": "roll", "player": 0}, "dice": [1, 3, 6]}]},  # unused
        {"lots": {"Nowhere Street": {"owner": 0}}},
        {"rules": {"no_such_setting": True}},
    ],
    ids=["refused-step", "expected-error-missing", "unused-dice", "unknown-square", "bad-rule"],
)
def test_replay_of_a_failing_scenario_returns_1(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], change: dict[str, Any]
) -> None:
    file = write(tmp_path / "bad.scenario.json", {**SCENARIO, **change})
    assert main(["replay", str(file)]) == 1
    out, err = capsys.readouterr()
    assert out == ""
    assert err.startswith("monopoly-bot replay:") and err.strip() != "monopoly-bot replay:"


# -- run ----------------------------------------------------------------------------------


@pytest.mark.parametrize("argv", [["run"], []], ids=["run", "default"])
def test_run_without_a_token_returns_2(
    argv: list[str],
    tmp_path: Path,
    monkeypatch: pytest.MonkeyPatch,
    capsys: pytest.CaptureFixture[str],
) -> None:
    monkeypatch.chdir(tmp_path)  # no .env here
    monkeypatch.delenv("DISCORD_TOKEN", raising=False)
    assert main(argv) == 2
    err = capsys.readouterr().err
    assert "DISCORD_TOKEN" in err
