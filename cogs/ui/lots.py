"""``/monopoly property``: finding a lot by the name a player typed, in the game's theme."""

from __future__ import annotations

from bot.engine.board import Board
from bot.settings import GameSettings
from cogs.ui.text import theme_of


def display_names(board: Board, settings: GameSettings) -> list[str]:
    theme = theme_of(settings)
    if theme is not None and theme.base_board == board.id:
        return theme.square_names(board)
    return [s.name for s in board.squares]


def resolve_lot(board: Board, names: list[str], text: str) -> int | None:
    text = text.strip()
    if (
        text.isascii()
        and text.isdigit()
        and int(text) < 40
        and board.squares[int(text)].is_property
    ):
        return int(text)
    wanted = text.casefold()
    lots = [s.index for s in board.squares if s.is_property]
    for square in lots:
        if wanted in (names[square].casefold(), board.squares[square].name.casefold()):
            return square
    matches = [s for s in lots if wanted and wanted in names[s].casefold()]
    return matches[0] if len(matches) == 1 else None
