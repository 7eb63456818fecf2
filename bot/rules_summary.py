"""A readable summary of a game's rules, in German or English, for players."""

from __future__ import annotations

from dataclasses import fields
from typing import Any

from bot.engine.board import Board, load_board
from bot.engine.rules import Rules
from bot.i18n import money, t

# Settings whose numbers are amounts of money (shown with the board's currency).
MONEY_SETTINGS = frozenset(
    {
        "start_money",
        "salary",
        "jail_fine",
        "auction_min_bid",
        "auction_min_raise",
        "free_parking_amount",
    }
)
BOARD_DEFAULTS = {
    "start_money": "start_money",
    "salary": "salary",
    "jail_fine": "jail_fine",
    "houses_total": "houses_total",
    "hotels_total": "hotels_total",
}
# Not shown: what every game has the same way, or what the preset line already says.
HIDDEN = frozenset({"preset", "board", "min_players", "max_players"})


def _value(lang: str, board: Board, name: str, value: Any) -> str:
    if value is None and name in BOARD_DEFAULTS:
        value = getattr(board, BOARD_DEFAULTS[name])
    if value is None:
        return t(lang, "value.none")
    if isinstance(value, bool):
        return t(lang, "value.yes" if value else "value.no")
    if name in MONEY_SETTINGS:
        return money(lang, value, board.currency)
    if isinstance(value, str):
        return t(lang, f"value.{name}.{value}")
    return str(value)


def describe_rules(rules: Rules, lang: str, board: Board | None = None) -> list[str]:
    """One line per setting: the preset and board first, changed settings marked.

    ``board`` is a server's own board (the rules name it by an id only it knows);
    without it the rules' shipped board.
    """
    base = Rules.from_preset(rules.preset)
    board = board or load_board(rules.board)
    board_name = board.name if board.source is not None else t(lang, f"board.{rules.board}")
    lines = [
        t(lang, "summary.preset", preset=t(lang, f"preset.{rules.preset}")),
        t(lang, "summary.board", board=board_name),
        t(lang, "summary.players", minimum=rules.min_players, maximum=rules.max_players),
    ]
    for field in fields(Rules):
        name = field.name
        if name in HIDDEN:
            continue
        value = getattr(rules, name)
        text = t(lang, f"setting.{name}") + ": " + _value(lang, board, name, value)
        if value != getattr(base, name):
            text += " " + t(lang, "summary.changed")
        lines.append(text)
    return lines


def changed_settings(rules: Rules) -> dict[str, Any]:
    """The settings that differ from the rules' own preset (the house rules: not the
    preset, the board or the player counts, which the summary's first lines name)."""
    base = Rules.from_preset(rules.preset)
    return {
        f.name: getattr(rules, f.name)
        for f in fields(Rules)
        if f.name not in HIDDEN and getattr(rules, f.name) != getattr(base, f.name)
    }
