"""Themes rename parts of a board (never its numbers); custom boards are validated strictly.

The two shipped themes take their names from the themed rulebooks: ``001`` (Hunter x
Hunter / Greed Island) and ``003`` (cookies & pirates), both on the de_euro values.
"""

from __future__ import annotations

import copy
import json
from importlib import resources
from typing import Any

import pytest

from bot.engine.board import available_boards, load_board
from bot.engine.game import apply_action, new_game
from bot.engine.record import GameRecord
from bot.engine.rules import Rules
from bot.engine.simple_players import next_simple_action
from bot.engine.state import GameState
from bot.engine.themes import (
    InvalidData,
    Theme,
    available_themes,
    load_theme,
    parse_board_file,
    parse_theme_file,
    theme_from_dict,
    theme_from_json,
    theme_to_dict,
    validate_board,
)

DE_EURO = load_board("de_euro")

HUNTER_SQUARES = {
    4: "Untergrundauktion",
    12: "Hunter-Lizenz",
    28: "Greed Island",
    38: "Himmelsarena",
}
COOKIE_SQUARES = {4: "Dublonentruhe", 31: "Spukstraße", 38: "Beutetruhe"}


def raw_theme(theme_id: str) -> dict[str, Any]:
    path = resources.files("bot.engine") / "data" / "themes" / f"{theme_id}.json"
    return json.loads(path.read_text(encoding="utf-8"))


def raw_board(board_id: str) -> dict[str, Any]:
    path = resources.files("bot.engine") / "data" / "boards" / f"{board_id}.json"
    return json.loads(path.read_text(encoding="utf-8"))


def leaves(value: Any) -> list[Any]:
    """Every leaf value of a JSON document."""
    if isinstance(value, dict):
        return [leaf for item in value.values() for leaf in leaves(item)]
    if isinstance(value, list):
        return [leaf for item in value for leaf in leaves(item)]
    return [value]


# -- the shipped themes ---------------------------------------------------------------------


def test_both_themes_are_shipped() -> None:
    assert available_themes() == ["cookies_and_pirates", "hunter_x_hunter"]


@pytest.mark.parametrize("theme_id", ["cookies_and_pirates", "hunter_x_hunter"])
def test_theme_renames_only_names(theme_id: str) -> None:
    """A theme is text over the de_euro board: no number in the file, none in the theme."""
    theme = load_theme(theme_id)
    assert isinstance(theme, Theme)
    assert theme.id == theme_id and theme.base_board == "de_euro"
    assert set(theme.name) == {"de", "en"}
    assert all(isinstance(leaf, str) for leaf in leaves(raw_theme(theme_id)))
    for names in (theme.squares, theme.groups, theme.decks, theme.terms):
        assert all(isinstance(name, str) and 0 < len(name) <= 40 for name in names.values())
    # Every number a game uses comes from the base board, unchanged.
    board = load_board(theme.base_board)
    assert board is DE_EURO
    assert [s.price for s in board.squares] == [s.price for s in load_board("de_euro").squares]


def test_a_number_is_not_a_name() -> None:
    raw = raw_theme("hunter_x_hunter")
    raw["squares"]["1"] = 60
    with pytest.raises(InvalidData) as info:
        theme_from_dict(raw, DE_EURO)
    assert (info.value.code, info.value.where) == ("name_missing", "squares.1")


@pytest.mark.parametrize(
    ("theme_id", "renamed"),
    [("hunter_x_hunter", HUNTER_SQUARES), ("cookies_and_pirates", COOKIE_SQUARES)],
)
def test_square_names_put_the_theme_names_at_their_squares(
    theme_id: str, renamed: dict[int, str]
) -> None:
    theme = load_theme(theme_id)
    names = theme.square_names(DE_EURO)
    assert len(names) == 40
    for index, name in enumerate(names):
        assert name == renamed.get(index, DE_EURO.squares[index].name), index
        assert theme.square_name(DE_EURO, index) == name


def test_hunter_x_hunter_uses_the_names_of_rulebook_001() -> None:
    """001: "Hunter-Lizenz & Greed Island", "Große Prinzipien", "Charaktere",
    "UNTERGRUNDAUKTION & HIMMELSARENA", "Karten-Sammelmappe", "Geheimnisvolle Box"."""
    theme = load_theme("hunter_x_hunter")
    assert theme.groups == {
        "railroad": "Große Prinzipien",
        "utility": "Hunter-Lizenz & Greed Island",
    }
    assert theme.terms == {"lots": "Charaktere"}
    assert theme.deck_name(DE_EURO, "chance") == "Geheimnisvolle Box"
    assert theme.deck_name(DE_EURO, "community") == "Karten-Sammelmappe"


def test_cookies_and_pirates_uses_the_names_of_rulebook_003() -> None:
    """003: "32 Krümelkojen, 12 Kekskajüten", "Naschgeldbank", "Häfen",
    "Dublonen- & Beutetruhe", and the deed of "Spukstraße" (rents A26 ... A1275,
    house A200) - the values of the first green street of de_euro."""
    theme = load_theme("cookies_and_pirates")
    assert theme.terms["houses"] == "Krümelkojen" and theme.terms["hotels"] == "Kekskajüten"
    assert theme.terms["house"] == "Krümelkoje" and theme.terms["hotel"] == "Kekskajüte"
    assert theme.terms["bank"] == "Naschgeldbank"
    assert theme.groups["utility"] == "Häfen"
    spuk = DE_EURO.squares[31]
    assert spuk.group == "green"
    assert spuk.rents == (26, 130, 390, 900, 1100, 1275) and spuk.house_cost == 200
    assert theme.deck_name(DE_EURO, "chance") == "Ereigniskarten"


def test_unnamed_deck_keeps_the_board_name() -> None:
    theme = theme_from_dict({"id": "plain", "name": {"de": "Schlicht"}}, DE_EURO)
    assert theme.deck_name(DE_EURO, "chance") == DE_EURO.deck_names["chance"]
    assert theme.square_names(DE_EURO) == [s.name for s in DE_EURO.squares]


# -- theme_from_dict rejects bad themes -----------------------------------------------------


def minimal(**extra: Any) -> dict[str, Any]:
    return {"id": "mine", "name": {"de": "Mein Thema"}, "base_board": "de_euro", **extra}


def test_a_minimal_theme_is_accepted() -> None:
    theme = theme_from_dict(minimal(squares={"39": "x" * 40}), DE_EURO)
    assert theme.squares == {39: "x" * 40}


@pytest.mark.parametrize(
    ("raw", "code", "where"),
    [
        (minimal(colours={"brown": "Lila"}), "unknown_key", "colours"),
        (minimal(terms={"money": "Taler"}), "unknown_key", "terms.money"),
        (minimal(decks={"surprise": "Wundertüte"}), "unknown_key", "decks.surprise"),
        (minimal(groups={"purple": "Lila"}), "unknown_key", "groups.purple"),
        (minimal(name={"fr": "Mon thème"}), "unknown_key", "name.fr"),
        (minimal(squares={"1": "x" * 41}), "name_too_long", "squares.1"),
        (minimal(squares={"1": "@everyone"}), "name_has_markup", "squares.1"),
        (minimal(squares={"1": "Hallo <@123>"}), "name_has_markup", "squares.1"),
        (minimal(squares={"1": "**bold**"}), "name_has_markup", "squares.1"),
        (minimal(squares={"1": "https://example.com"}), "name_has_markup", "squares.1"),
        (minimal(squares={"1": "discord.gg/abc"}), "name_has_markup", "squares.1"),
        (minimal(squares={"1": "Zeile\nzwei"}), "name_has_markup", "squares.1"),
        (minimal(terms={"bank": "`code`"}), "name_has_markup", "terms.bank"),
        (minimal(squares={"1": "   "}), "name_missing", "squares.1"),
        (minimal(squares={"40": "Jenseits"}), "bad_square", "squares.40"),
        (minimal(squares={"-1": "Davor"}), "bad_square", "squares.-1"),
        (minimal(squares={"los": "Start"}), "bad_square", "squares.los"),
        (minimal(base_board="de_mark"), "wrong_board", "base_board"),
        (minimal(id="Mein Thema"), "bad_id", "id"),
        ({"id": "mine"}, "name_missing", "name"),
        (minimal(squares=["LOS"]), "not_an_object", "squares"),
        ("theme", "not_an_object", "theme"),
    ],
)
def test_theme_from_dict_rejects(raw: Any, code: str, where: str) -> None:
    with pytest.raises(InvalidData) as info:
        theme_from_dict(raw, DE_EURO)
    assert (info.value.code, info.value.where) == (code, where)
    assert isinstance(info.value, ValueError)


def test_name_too_long_reports_its_length() -> None:
    with pytest.raises(InvalidData) as info:
        theme_from_dict(minimal(squares={"1": "x" * 41}), DE_EURO)
    assert info.value.params == {"maximum": 40, "length": 41}


# -- validate_board ---------------------------------------------------------------------------


@pytest.mark.parametrize("board_id", available_boards())
def test_shipped_boards_are_valid(board_id: str) -> None:
    board = validate_board(raw_board(board_id))
    shipped = load_board(board_id)
    assert board.squares == shipped.squares
    assert (board.start_money, board.salary, board.jail_fine) == (
        shipped.start_money,
        shipped.salary,
        shipped.jail_fine,
    )


def _squares_39(raw: dict) -> None:
    raw["squares"] = raw["squares"][:39]


def _negative_price(raw: dict) -> None:
    raw["squares"][1]["price"] = -60


def _decreasing_rents(raw: dict) -> None:
    raw["squares"][1]["rents"] = [2, 10, 30, 90, 250, 160]


def _long_name(raw: dict) -> None:
    raw["squares"][1]["name"] = "B" * 41


def _markup_name(raw: dict) -> None:
    raw["squares"][1]["name"] = "@everyone"


def _group_of_one(raw: dict) -> None:
    raw["squares"][3]["group"] = "tower"  # leaves Badstraße alone in brown


def _two_los(raw: dict) -> None:
    raw["squares"][20]["kind"] = "go"


def _no_jail(raw: dict) -> None:
    raw["squares"][10]["kind"] = "free_parking"


def _fifteen_cards(raw: dict) -> None:
    raw["chance"] = raw["chance"][:15]


def _unknown_effect(raw: dict) -> None:
    raw["community"][0]["effect"] = {"type": "teleport", "target": 39}


def _mortgage_above_price(raw: dict) -> None:
    raw["squares"][5]["mortgage"] = 300


def _mixed_house_cost(raw: dict) -> None:
    raw["squares"][3]["house_cost"] = 60


def _unknown_kind(raw: dict) -> None:
    raw["squares"][20]["kind"] = "casino"


def _zero_salary(raw: dict) -> None:
    raw["salary"] = 0


@pytest.mark.parametrize(
    ("change", "code", "where"),
    [
        (_squares_39, "need_40_squares", "squares"),
        (_negative_price, "not_positive", "squares[1].price"),
        (_decreasing_rents, "rents_decrease", "squares[1].rents"),
        (_long_name, "name_too_long", "squares[1].name"),
        (_markup_name, "name_has_markup", "squares[1].name"),
        (_group_of_one, "bad_group_size", "groups.brown"),
        (_two_los, "need_exactly_one", "squares"),
        (_no_jail, "need_exactly_one", "squares"),
        (_fifteen_cards, "need_16_cards", "chance"),
        (_unknown_effect, "bad_card_effect", "community[0].effect"),
        (_mortgage_above_price, "mortgage_above_price", "squares[5].mortgage"),
        (_mixed_house_cost, "mixed_house_cost", "groups.brown"),
        (_unknown_kind, "bad_kind", "squares[20].kind"),
        (_zero_salary, "not_positive", "salary"),
    ],
    ids=lambda value: value.__name__.strip("_") if callable(value) else None,
)
def test_validate_board_rejects(change: Any, code: str, where: str) -> None:
    raw = copy.deepcopy(raw_board("de_euro"))
    change(raw)
    with pytest.raises(InvalidData) as info:
        validate_board(raw)
    assert (info.value.code, info.value.where) == (code, where)


def test_validate_board_names_the_missing_kind() -> None:
    raw = copy.deepcopy(raw_board("de_euro"))
    _two_los(raw)
    with pytest.raises(InvalidData) as info:
        validate_board(raw)
    assert info.value.params == {"kind": "go"}


def test_a_name_of_forty_characters_is_accepted() -> None:
    raw = copy.deepcopy(raw_board("de_euro"))
    raw["squares"][1]["name"] = "B" * 40
    assert validate_board(raw).squares[1].name == "B" * 40


# -- theme files uploaded by a server --------------------------------------------------


def test_a_theme_file_round_trips_through_its_stored_form() -> None:
    raw = {"id": "kekse", "name": {"de": "Kekse"}, "squares": {"1": "Keksweg"}}
    theme = parse_theme_file(json.dumps(raw).encode())
    assert theme.base_board == "de_euro" and theme.squares == {1: "Keksweg"}
    stored = json.dumps(theme_to_dict(theme), sort_keys=True)
    assert theme_from_json(stored) == theme


@pytest.mark.parametrize(
    ("data", "code", "where"),
    [
        (b"{oops", "not_json", "file"),
        (b"\xff\xfe", "not_json", "file"),
        (b"[1, 2]", "not_an_object", "theme"),
        (b'{"id": "x", "name": {"de": "X"}, "base_board": "moon"}', "unknown_board", "base_board"),
        (b'{"id": "classic_x", "name": {"de": "X"}}', "reserved_id", "id"),
        (b" " * 40_000, "file_too_large", "file"),
    ],
)
def test_a_bad_theme_file_names_its_first_problem(data: bytes, code: str, where: str) -> None:
    with pytest.raises(InvalidData) as info:
        parse_theme_file(data, reserved={"classic_x"})
    assert (info.value.code, info.value.where) == (code, where)


# -- whole boards uploaded by a server --------------------------------------------------


def _euro_raw() -> dict[str, Any]:
    path = resources.files("bot.engine") / "data" / "boards" / "de_euro.json"
    return json.loads(path.read_text(encoding="utf-8"))


def _own_board() -> dict[str, Any]:
    raw = _euro_raw()
    raw["id"] = "heimatstadt"
    raw["name"] = "Monopoly Heimatstadt"
    raw["squares"][1]["name"] = "Kirchgasse"
    raw["squares"][39]["name"] = "Burgberg"
    raw["squares"][39]["price"] = 420
    return raw


def test_a_server_board_is_checked_tried_and_named_by_its_content() -> None:
    board = parse_board_file(json.dumps(_own_board()).encode())
    assert board.id.startswith("heimatstadt_") and len(board.id) == len("heimatstadt_") + 8
    assert board.squares[39].name == "Burgberg" and board.squares[39].price == 420
    assert board.source is not None and board.source["id"] == board.id
    again = parse_board_file(json.dumps(_own_board()).encode())
    assert again.id == board.id  # same content, same id
    changed = _own_board()
    changed["squares"][1]["name"] = "Marktplatz"
    assert parse_board_file(json.dumps(changed).encode()).id != board.id


def test_a_game_on_a_server_board_carries_the_board_in_its_json() -> None:
    """The game never needs the server's file again: its JSON, copies and its record
    rebuild the same board (names, prices) from ``board_data``."""
    board = parse_board_file(json.dumps(_own_board()).encode())
    rules = Rules.from_preset("classic", board=board.id)
    state = new_game([("1", "a"), ("2", "b")], seed=4, rules=rules, board=board)
    record = GameRecord.begin(state)
    for _ in range(60):
        action = next_simple_action(state)
        assert action is not None
        record.add(action, apply_action(state, action))
    raw = state.to_dict()
    assert raw["board"] == board.id and raw["board_data"]["squares"][39]["name"] == "Burgberg"
    again = GameState.from_json(state.to_json())
    assert again.board.squares[39].price == 420 and again.to_json() == state.to_json()
    assert state.copy().board is board  # cached by content: copies share the board
    assert record.replay().to_json() == state.to_json()
    shipped = new_game([("1", "a"), ("2", "b")], seed=4)
    assert "board_data" not in shipped.to_dict()


def test_a_game_on_a_server_board_must_be_given_the_board_its_rules_name() -> None:
    board = parse_board_file(json.dumps(_own_board()).encode())
    with pytest.raises(ValueError):
        new_game([("1", "a"), ("2", "b")], seed=4, board=board)  # rules name de_euro


@pytest.mark.parametrize(
    ("change", "code", "where"),
    [
        (
            lambda raw: raw["squares"][3].update(name="<@everyone>"),
            "name_has_markup",
            "squares[3].name",
        ),
        (lambda raw: raw["squares"].pop(), "need_40_squares", "squares"),
        (lambda raw: raw["chance"][0].update(effect={"type": "move_to"}), "unplayable", "board"),
    ],
)
def test_a_bad_board_file_names_its_first_problem(change: Any, code: str, where: str) -> None:
    raw = _own_board()
    change(raw)
    with pytest.raises(InvalidData) as info:
        parse_board_file(json.dumps(raw).encode())
    assert (info.value.code, info.value.where) == (code, where)
