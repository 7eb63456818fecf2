"""A server's own files (board themes and whole boards) as lobbies use them, without Discord.

Admins upload them with ``/monopoly theme upload`` and ``/monopoly edition upload``
(``cogs/admin.py``); they are kept per server in the store (``guild_files``). A lobby copies
what it uses into its settings (``theme_data``, ``board_data``), so removing or replacing
a file never changes a game.
"""

from __future__ import annotations

from typing import Any

from bot.engine.board import load_board
from bot.engine.errors import IllegalAction
from bot.engine.rules import Rules
from bot.engine.themes import available_themes, load_theme, theme_from_dict
from bot.settings import GameSettings
from bot.store import GameStore

THEME, BOARD = "theme", "board"
AUTOCOMPLETE_MAX = 25  # Discord's limit of suggestions


async def resolve(
    store: GameStore, guild_id: int, preset: str, theme_id: str | None, edition: str | None
) -> GameSettings:
    """What a new lobby's settings get for the chosen theme and board (lobby keys only).

    ``theme`` (and ``theme_data`` for a server theme), ``board_data`` and the rules
    override ``board`` for a server's board. Raises :class:`IllegalAction` for an unknown
    theme or board, or a theme made for another board than the game's.
    """
    settings = GameSettings()
    lobby = settings.lobby
    lobby.theme = None
    board_id = Rules.from_preset(preset).board
    if edition:
        boards = await store.guild_files(guild_id, BOARD)
        if edition not in boards:
            raise IllegalAction("unknown_edition", edition=edition[:100])
        lobby.board_data = boards[edition]
        board_id = edition
    if not theme_id:
        return settings
    if theme_id in available_themes():
        theme = load_theme(theme_id)
        lobby.theme = theme_id
    else:
        own = await store.guild_files(guild_id, THEME)
        if theme_id not in own:
            raise IllegalAction("unknown_theme", theme=theme_id[:100])
        raw = own[theme_id]
        theme = theme_from_dict(raw, load_board(raw["base_board"]))
        lobby.theme, lobby.theme_data = theme_id, raw
    if theme.base_board != board_id:
        raise IllegalAction("theme_board", theme=theme_id, board=theme.base_board, preset=preset)
    return settings


async def catalog(
    store: GameStore, guild_id: int, kind: str, lang: str, *, own_only: bool = False
) -> list[tuple[str, str]]:
    """``(name, id)`` of every theme (or board) a lobby of the server can use."""
    found: list[tuple[str, str]] = []
    if kind == THEME and not own_only:
        found += [(display_name(load_theme(i).name, lang), i) for i in available_themes()]
    own = await store.guild_files(guild_id, kind)
    found += [(raw_name(raw, lang), i) for i, raw in own.items()]
    return found


async def suggest(
    store: GameStore, guild_id: int, kind: str, lang: str, typed: str, *, own_only: bool = False
) -> list[tuple[str, str]]:
    """Autocomplete: ``(label, id)`` of the files whose id or name contains ``typed``."""
    found = await catalog(store, guild_id, kind, lang, own_only=own_only)
    needle = typed.casefold()
    return [
        (f"{name} ({item_id})"[:100], item_id)
        for name, item_id in found
        if needle in item_id or needle in name.casefold()
    ][:AUTOCOMPLETE_MAX]


def display_name(names: dict[str, str], lang: str) -> str:
    """A file's name in ``lang`` (else its first name)."""
    return names.get(lang) or next(iter(names.values()))


def raw_name(raw: dict[str, Any], lang: str) -> str:
    """The name of a stored file's JSON (a dict of names by language, or one name)."""
    name = raw.get("name")
    return display_name(name, lang) if isinstance(name, dict) else str(name)
