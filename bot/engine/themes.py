"""Themes rename parts of a board without touching its numbers; custom data is validated.

A theme is a partial rename over a base board: square names, group names, deck
names and words such as "house", "hotel", "bank" and the currency. Themes and
boards supplied by server admins are checked strictly; the first problem found
is reported with a reason code, where it is, and its parameters.
"""

from __future__ import annotations

import json
import re
from dataclasses import dataclass, field
from functools import cache, lru_cache
from importlib import resources
from typing import Any

from bot.engine.board import PROPERTY_KINDS, Board, board_from_dict

MAX_NAME = 40
MAX_TITLE = 100  # a board's own title may be longer than a square's name
TERMS = ("lots", "house", "houses", "hotel", "hotels", "bank", "currency")
SQUARE_KINDS = PROPERTY_KINDS | {
    "go",
    "jail",
    "free_parking",
    "go_to_jail",
    "tax",
    "chance",
    "community",
}
CARD_EFFECTS = {
    "move_to",
    "move_back",
    "move_to_nearest",
    "go_to_jail",
    "get_out_of_jail_free",
    "collect",
    "pay",
    "pay_each_player",
    "collect_from_each_player",
    "repairs",
    "pay_or_draw",
}
# Markup, mentions and links would let a custom name ping people or break messages.
_FORBIDDEN = re.compile(r"[<>@*_~`|\\]|https?:|discord\.gg|\n|\r")


class InvalidData(ValueError):
    """A theme or board file has a problem; ``code``, ``where`` and ``params`` say which."""

    def __init__(self, code: str, where: str, **params: Any) -> None:
        super().__init__(f"{where}: {code} {params}" if params else f"{where}: {code}")
        self.code = code
        self.where = where
        self.params = params


@dataclass(frozen=True)
class Theme:
    """Display names over a base board; anything not named keeps the board's name."""

    id: str
    name: dict[str, str]
    base_board: str
    squares: dict[int, str] = field(default_factory=dict)
    groups: dict[str, str] = field(default_factory=dict)
    decks: dict[str, str] = field(default_factory=dict)
    terms: dict[str, str] = field(default_factory=dict)

    def square_name(self, board: Board, index: int) -> str:
        """The name to show for square ``index``."""
        return self.squares.get(index, board.squares[index].name)

    def square_names(self, board: Board) -> list[str]:
        """All 40 display names."""
        return [self.square_name(board, i) for i in range(40)]

    def deck_name(self, board: Board, deck: str) -> str:
        """The name to show for a deck (``chance`` or ``community``)."""
        return self.decks.get(deck, board.deck_names.get(deck, deck))


def check_name(value: Any, where: str, maximum: int = MAX_NAME) -> str:
    """A display name: text, 1..40 characters, no markup, mentions or links."""
    if not isinstance(value, str) or not value.strip():
        raise InvalidData("name_missing", where)
    if len(value) > maximum:
        raise InvalidData("name_too_long", where, maximum=maximum, length=len(value))
    if _FORBIDDEN.search(value):
        raise InvalidData("name_has_markup", where)
    return value.strip()


def _names(raw: Any, where: str, allowed: set[str] | None = None) -> dict[str, str]:
    if raw is None:
        return {}
    if not isinstance(raw, dict):
        raise InvalidData("not_an_object", where)
    out = {}
    for key, value in raw.items():
        if allowed is not None and key not in allowed:
            raise InvalidData("unknown_key", f"{where}.{key}")
        out[key] = check_name(value, f"{where}.{key}")
    return out


def theme_from_dict(raw: Any, board: Board) -> Theme:
    """Validate a theme for ``board`` strictly and build it."""
    if not isinstance(raw, dict):
        raise InvalidData("not_an_object", "theme")
    known = {"_comment", "id", "name", "base_board", "squares", "groups", "decks", "terms"}
    for key in raw:
        if key not in known:
            raise InvalidData("unknown_key", key)
    theme_id = raw.get("id")
    if not isinstance(theme_id, str) or not re.fullmatch(r"[a-z0-9_]{1,40}", theme_id):
        raise InvalidData("bad_id", "id")
    names = _names(raw.get("name"), "name", {"de", "en"})
    if not names:
        raise InvalidData("name_missing", "name")
    if raw.get("base_board", board.id) != board.id:
        raise InvalidData("wrong_board", "base_board", expected=board.id)
    squares: dict[int, str] = {}
    for key, value in _names(raw.get("squares"), "squares").items():
        if not key.isdigit() or not 0 <= int(key) < 40:
            raise InvalidData("bad_square", f"squares.{key}")
        squares[int(key)] = value
    groups = _names(raw.get("groups"), "groups", set(board.groups))
    decks = _names(raw.get("decks"), "decks", {"chance", "community"})
    terms = _names(raw.get("terms"), "terms", set(TERMS))
    return Theme(theme_id, names, board.id, squares, groups, decks, terms)


def available_themes() -> list[str]:
    """Ids of the themes shipped with the engine."""
    folder = resources.files("bot.engine") / "data" / "themes"
    return sorted(
        p.name.removesuffix(".json") for p in folder.iterdir() if p.name.endswith(".json")
    )


@cache
def load_theme(theme_id: str) -> Theme:
    """A shipped theme by id, validated against its base board."""
    from bot.engine.board import load_board

    if theme_id not in available_themes():
        raise KeyError(f"unknown theme {theme_id!r}; known: {', '.join(available_themes())}")
    path = resources.files("bot.engine") / "data" / "themes" / f"{theme_id}.json"
    raw = json.loads(path.read_text(encoding="utf-8"))
    return theme_from_dict(raw, load_board(raw["base_board"]))


#: Largest theme file accepted from a server (a full rename of every name is about 4 KB).
MAX_THEME_BYTES = 32_000


def parse_theme_file(data: bytes, reserved: set[str] | frozenset[str] = frozenset()) -> Theme:
    """A theme uploaded as a JSON file, checked strictly (see :func:`theme_from_dict`).

    The base board is ``base_board`` (default ``de_euro``) and must be a shipped board;
    ids in ``reserved`` (the shipped themes) are refused so a server cannot shadow them.
    """
    from bot.engine.board import available_boards, load_board

    raw = _read_json_file(data, MAX_THEME_BYTES)
    if not isinstance(raw, dict):
        raise InvalidData("not_an_object", "theme")
    base = raw.get("base_board", "de_euro")
    if base not in available_boards():
        raise InvalidData("unknown_board", "base_board", known=", ".join(available_boards()))
    theme = theme_from_dict({**raw, "base_board": base}, load_board(base))
    if theme.id in reserved:
        raise InvalidData("reserved_id", "id", id=theme.id)
    return theme


def _read_json_file(data: bytes, limit: int) -> Any:
    """The JSON of an uploaded file of at most ``limit`` bytes (InvalidData if not)."""
    if len(data) > limit:
        raise InvalidData("file_too_large", "file", maximum=limit, size=len(data))
    try:
        return json.loads(data.decode("utf-8"))
    except (UnicodeDecodeError, ValueError) as error:
        raise InvalidData("not_json", "file", detail=str(error)[:80]) from error


def theme_to_dict(theme: Theme) -> dict[str, Any]:
    """The JSON object of ``theme`` (what :func:`theme_from_dict` reads back)."""
    return {
        "id": theme.id,
        "name": dict(theme.name),
        "base_board": theme.base_board,
        "squares": {str(index): name for index, name in sorted(theme.squares.items())},
        "groups": dict(theme.groups),
        "decks": dict(theme.decks),
        "terms": dict(theme.terms),
    }


@lru_cache(maxsize=64)
def theme_from_json(text: str) -> Theme:
    """A stored custom theme (canonical JSON text), checked again; cached per text."""
    from bot.engine.board import load_board

    raw = json.loads(text)
    return theme_from_dict(raw, load_board(raw["base_board"]))


def _positive_int(value: Any, where: str) -> int:
    if not isinstance(value, int) or isinstance(value, bool) or value <= 0:
        raise InvalidData("not_positive", where, value=value)
    return value


def _check_square(raw: Any, index: int) -> None:
    where = f"squares[{index}]"
    if not isinstance(raw, dict):
        raise InvalidData("not_an_object", where)
    if raw.get("index") != index:
        raise InvalidData("bad_index", f"{where}.index", expected=index)
    check_name(raw.get("name"), f"{where}.name")
    kind = raw.get("kind")
    if kind not in SQUARE_KINDS:
        raise InvalidData("bad_kind", f"{where}.kind", kind=kind)
    if kind in PROPERTY_KINDS:
        if not isinstance(raw.get("group"), str) or not raw["group"]:
            raise InvalidData("group_missing", f"{where}.group")
        price = _positive_int(raw.get("price"), f"{where}.price")
        mortgage = _positive_int(raw.get("mortgage"), f"{where}.mortgage")
        if mortgage > price:
            raise InvalidData("mortgage_above_price", f"{where}.mortgage")
    if kind == "street":
        rents = raw.get("rents")
        if not isinstance(rents, list) or len(rents) != 6:
            raise InvalidData("rents_need_six", f"{where}.rents")
        for n, rent in enumerate(rents):
            _positive_int(rent, f"{where}.rents[{n}]")
        if any(b < a for a, b in zip(rents, rents[1:], strict=False)):
            raise InvalidData("rents_decrease", f"{where}.rents")
        _positive_int(raw.get("house_cost"), f"{where}.house_cost")
    if kind == "tax":
        _positive_int(raw.get("amount"), f"{where}.amount")


def validate_board(raw: Any) -> Board:
    """Check a custom board strictly and build it; raise :class:`InvalidData` at the first problem.

    40 squares in order with known kinds, exactly one LOS, jail and go-to-jail,
    names of at most 40 characters without markup or mentions, positive prices,
    mortgages no higher than the price, six non-decreasing positive street rents,
    colour groups of 2 to 4 streets with one house price, 16 cards per deck with
    known effects, and positive money settings.
    """
    if not isinstance(raw, dict):
        raise InvalidData("not_an_object", "board")
    if not isinstance(raw.get("id"), str) or not re.fullmatch(r"[a-z0-9_]{1,40}", raw["id"]):
        raise InvalidData("bad_id", "id")
    check_name(raw.get("name"), "name", maximum=MAX_TITLE)
    for key in ("start_money", "salary", "jail_fine"):
        _positive_int(raw.get(key), key)
    squares = raw.get("squares")
    if not isinstance(squares, list) or len(squares) != 40:
        raise InvalidData("need_40_squares", "squares")
    for index, square in enumerate(squares):
        _check_square(square, index)
    for kind in ("go", "jail", "go_to_jail"):
        if sum(1 for s in squares if s["kind"] == kind) != 1:
            raise InvalidData("need_exactly_one", "squares", kind=kind)
    groups: dict[str, list[dict]] = {}
    for square in squares:
        if square["kind"] in PROPERTY_KINDS:
            groups.setdefault(square["group"], []).append(square)
    for name, members in groups.items():
        kinds = {m["kind"] for m in members}
        if len(kinds) != 1:
            raise InvalidData("mixed_group", f"groups.{name}")
        if kinds == {"street"}:
            if not 2 <= len(members) <= 4:
                raise InvalidData("bad_group_size", f"groups.{name}", size=len(members))
            if len({m["house_cost"] for m in members}) != 1:
                raise InvalidData("mixed_house_cost", f"groups.{name}")
    for deck in ("chance", "community"):
        cards = raw.get(deck)
        if not isinstance(cards, list) or len(cards) != 16:
            raise InvalidData("need_16_cards", deck)
        for n, card in enumerate(cards):
            where = f"{deck}[{n}]"
            if not isinstance(card, dict) or card.get("id") != n + 1:
                raise InvalidData("bad_card_id", where, expected=n + 1)
            check_text = card.get("text")
            if not isinstance(check_text, str) or not check_text or len(check_text) > 300:
                raise InvalidData("bad_card_text", f"{where}.text")
            if _FORBIDDEN.search(check_text):
                raise InvalidData("name_has_markup", f"{where}.text")
            effect = card.get("effect")
            if not isinstance(effect, dict) or effect.get("type") not in CARD_EFFECTS:
                raise InvalidData("bad_card_effect", f"{where}.effect")
    try:
        return board_from_dict(raw)
    except (KeyError, TypeError, ValueError) as error:
        raise InvalidData("malformed", "board", detail=str(error)) from error


#: Largest board file accepted from a server (a shipped board is about 14 KB).
MAX_BOARD_BYTES = 64_000
#: Seeded games of simple players a server's board must survive before it is accepted.
SMOKE_GAMES = 6
SMOKE_TURNS = 250


def parse_board_file(data: bytes) -> Board:
    """A whole board uploaded as a JSON file, checked and tried out.

    :func:`validate_board` checks its form; then :data:`SMOKE_GAMES` seeded games of
    simple players are played on it (up to :data:`SMOKE_TURNS` turns each), so data the
    form check cannot judge (a card effect's details, say) fails here and not in a
    server's game (``unplayable``). The board's id gets a suffix made from its content,
    so a changed file never replaces the board of a game already using it; the board
    carries its JSON (``Board.source``).
    """
    import hashlib

    from bot.engine.board import custom_board

    raw = _read_json_file(data, MAX_BOARD_BYTES)
    validate_board(raw)
    raw = {key: value for key, value in raw.items() if key != "_comment"}
    text = json.dumps(raw, sort_keys=True, ensure_ascii=False)
    digest = hashlib.sha256(text.encode()).hexdigest()[:8]
    board = custom_board({**raw, "id": f"{raw['id'][:31]}_{digest}"})
    _try_out(board)
    return board


def _try_out(board: Board) -> None:
    from bot.engine.game import new_game
    from bot.engine.rules import Rules
    from bot.engine.simple_players import SimplePlayer
    from bot.engine.simulate import SimulationResult, play_game

    rules = Rules.from_preset("classic", board=board.id)
    for seed in range(SMOKE_GAMES):
        players = [(f"p{i}", f"P{i}") for i in range(2 + seed % 3)]
        try:
            state = new_game(players, seed=seed, rules=rules, board=board)
            simple = [SimplePlayer() for _ in players]
            play_game(state, simple, SimulationResult(), turn_cap=SMOKE_TURNS)
        except Exception as error:  # noqa: BLE001 - any failure makes the board unplayable
            detail = f"{type(error).__name__}: {error}"[:120]
            raise InvalidData("unplayable", "board", seed=seed, detail=detail) from error
