"""The readable rules summary (German first, English second) and the two catalogs."""

from __future__ import annotations

import re
from dataclasses import fields

import pytest

from bot.engine.rules import Rules, available_presets
from bot.i18n import catalog, money, t
from bot.rules_summary import HIDDEN, changed_settings, describe_rules

LANGS = ("de", "en")
SHOWN = [f.name for f in fields(Rules) if f.name not in HIDDEN]
CHANGED = {"de": "(geändert)", "en": "(changed)"}


def test_catalogs_have_the_same_keys() -> None:
    de, en = catalog("de"), catalog("en")
    assert sorted(set(de) - set(en)) == []
    assert sorted(set(en) - set(de)) == []
    assert all(text.strip() for text in [*de.values(), *en.values()])


def test_catalogs_have_the_same_placeholders() -> None:
    de, en = catalog("de"), catalog("en")
    for key in de:
        assert set(re.findall(r"{(\w+)}", de[key])) == set(re.findall(r"{(\w+)}", en[key])), key


@pytest.mark.parametrize("key", ["preset", "board", "setting", "value"])
def test_every_preset_board_and_setting_has_a_text(key: str) -> None:
    from bot.engine.board import available_boards

    wanted = {
        "preset": [f"preset.{p}" for p in available_presets()],
        "board": [f"board.{b}" for b in available_boards()],
        "setting": [f"setting.{name}" for name in SHOWN],
        "value": [
            "value.yes",
            "value.no",
            "value.none",
            *(f"value.free_parking.{v}" for v in ("off", "fixed", "taxes")),
            *(f"value.interest_rounding.{v}" for v in ("up", "down", "half_even")),
        ],
    }[key]
    for lang in LANGS:
        missing = [k for k in wanted if k not in catalog(lang)]
        assert missing == [], (lang, missing)


@pytest.mark.parametrize("lang", LANGS)
@pytest.mark.parametrize("preset", available_presets())
def test_summary_has_one_line_per_shown_setting(preset: str, lang: str) -> None:
    rules = Rules.from_preset(preset)
    lines = describe_rules(rules, lang)
    # The preset, the board and the players, then one line per shown setting.
    assert len(lines) == 3 + len(SHOWN)
    assert lines[0] == t(lang, "summary.preset", preset=t(lang, f"preset.{preset}"))
    assert lines[1] == t(lang, "summary.board", board=t(lang, f"board.{rules.board}"))
    assert lines[2] == t(
        lang, "summary.players", minimum=rules.min_players, maximum=rules.max_players
    )
    for name, line in zip(SHOWN, lines[3:], strict=True):
        label = t(lang, f"setting.{name}")
        assert line.startswith(label + ": "), (name, line)
        assert len(line) > len(label) + 2
    for line in lines:
        for untranslated in ("setting.", "value.", "preset.", "summary.", "board."):
            assert untranslated not in line, line
        assert "{" not in line and "}" not in line, line
        # A preset compared with itself changed nothing.
        assert CHANGED[lang] not in line, line


def _line(rules: Rules, lang: str, name: str) -> str:
    label = t(lang, f"setting.{name}") + ": "
    (line,) = [x for x in describe_rules(rules, lang) if x.startswith(label)]
    return line


@pytest.mark.parametrize(
    ("preset", "lang", "name", "expected"),
    [
        ("classic", "de", "start_money", "Startkapital: 1.500 €"),
        ("classic", "de", "salary", "Gehalt auf LOS: 200 €"),
        ("classic", "de", "jail_fine", "Kaution im Gefängnis: 50 €"),
        ("classic", "en", "start_money", "Starting money: €1,500"),
        ("mark", "en", "start_money", "Starting money: M. 30,000"),
        ("mark", "en", "salary", "Salary at GO: M. 4,000"),
        ("mark", "de", "start_money", "Startkapital: M. 30.000"),
        ("mark", "de", "jail_fine", "Kaution im Gefängnis: M. 1.000"),
        ("modern", "de", "auction_min_bid", "Mindestgebot: 1 €"),
        ("short", "de", "hotel_requires_houses", "Häuser je Straße vor einem Hotel: 3"),
        ("fast", "en", "deal_deeds_paid", "Dealt deeds are paid for: no"),
        (
            "mark",
            "de",
            "building_requires_all_sold",
            "Bauen erst, wenn alle Grundstücke verkauft sind: ja",
        ),
        ("classic", "de", "free_parking", "Frei Parken: keine Kasse"),
        ("classic", "en", "interest_rounding", "Interest rounding: round up"),
    ],
)
def test_values_are_formatted(preset: str, lang: str, name: str, expected: str) -> None:
    assert _line(Rules.from_preset(preset), lang, name) == expected


def test_money_uses_the_board_currency() -> None:
    assert money("de", 1500, "EUR") == "1.500 €"
    assert money("en", 1500, "EUR") == "€1,500"
    assert money("de", 30_000, "DEM") == "M. 30.000"
    assert money("en", 30_000, "DEM") == "M. 30,000"
    assert money("en", 200, "USD") == "$200"


@pytest.mark.parametrize("lang", LANGS)
def test_changed_settings_are_marked(lang: str) -> None:
    rules = Rules.from_preset("classic", salary=400, free_parking="taxes", go_landing_bonus=True)
    lines = describe_rules(rules, lang)
    marked = [line for line in lines if line.endswith(" " + CHANGED[lang])]
    assert len(marked) == 3
    assert changed_settings(rules) == {
        "salary": 400,
        "free_parking": "taxes",
        "go_landing_bonus": True,
    }
    expected_salary = {
        "de": "Gehalt auf LOS: 400 € (geändert)",
        "en": "Salary at GO: €400 (changed)",
    }
    assert expected_salary[lang] in lines


def test_changes_are_measured_against_the_rules_own_preset() -> None:
    """The short preset's 3-house hotel is not a change; a 2-house hotel is."""
    rules = Rules.from_preset("short", hotel_requires_houses=2)
    assert _line(rules, "de", "hotel_requires_houses") == (
        "Häuser je Straße vor einem Hotel: 2 (geändert)"
    )
    assert _line(rules, "de", "deal_deeds") == "Besitzrechtkarten zu Beginn je Spieler: 2"
    mark = Rules.from_preset("mark", salary=5000)
    assert _line(mark, "en", "salary") == "Salary at GO: M. 5,000 (changed)"


@pytest.mark.parametrize("lang", LANGS)
def test_building_stock_shows_the_board_stock(lang: str) -> None:
    """000: "32 Häuser, 12 Hotels" - the classic bank has them; "Häuser der Bank: keine"
    would say the opposite."""
    rules = Rules.from_preset("classic")
    assert _line(rules, lang, "houses_total").endswith(": 32")
    assert _line(rules, lang, "hotels_total").endswith(": 12")


def test_unknown_language_falls_back_to_german() -> None:
    rules = Rules.from_preset("classic")
    assert describe_rules(rules, "fr") == describe_rules(rules, "de")
    assert describe_rules(rules, "en-US") == describe_rules(rules, "en")
