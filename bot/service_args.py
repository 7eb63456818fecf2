"""The game service's argument checks: malformed input raises a typed error first.

See :mod:`bot.service` for what each kind of bad input raises. Split out of the service so
that it reads as what it does with games; these only look at their arguments.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from bot.engine.errors import IllegalAction
from bot.engine.rules import available_presets
from bot.store import GameNotFound
from bot.text_input import clean_name, clean_text, is_sqlite_int, json_problem

#: Longer names are cut: Discord's own limit is 32, this leaves room for other sources
#: while keeping a pasted essay out of every board image and message.
NAME_MAX_LENGTH = 100
#: The longest short text a lobby keeps (deadline, theme name).
OPTION_MAX_LENGTH = 100


@dataclass(frozen=True)
class LobbyPlayer:
    """A member who joined a lobby.

    The service keeps the name cleaned (see the module docstring), not as given.
    """

    id: int
    name: str


# -- checking arguments ---------------------------------------------------------------------


def check_game_id(game_id: object) -> int:
    """``game_id`` if a game can have it; GameNotFound otherwise (no such game exists)."""
    if not is_sqlite_int(game_id):
        raise GameNotFound(game_id)
    return game_id


def check_id(value: object, what: str) -> int:
    """A guild, channel or user id: an int of at most 64 bits, else ``bad_id``."""
    if not is_sqlite_int(value):
        raise IllegalAction("bad_id", what=what)
    return value


def check_player(player: object) -> LobbyPlayer:
    """The lobby player with a checked id and a repaired name."""
    if not isinstance(player, LobbyPlayer):
        raise IllegalAction("bad_id", what="player")
    user_id = check_id(player.id, "player")
    if not isinstance(player.name, str):
        raise IllegalAction("bad_name")
    return LobbyPlayer(user_id, clean_name(player.name, max_length=NAME_MAX_LENGTH))


def check_action(action: object) -> dict[str, Any]:
    """``action`` if it is a dict with a text ``type`` and plain JSON; else ``bad_action``.

    The store checks the same before it logs an action; checking here too means an
    action that cannot be right does not even cost a read of the game.
    """
    if not isinstance(action, dict) or not isinstance(action.get("type"), str):
        raise IllegalAction("bad_action")
    problem = json_problem(action)
    if problem is not None:
        raise IllegalAction("bad_action", detail=problem)
    return action


def check_expected_seq(expected_seq: object) -> int | None:
    """None, or the non-negative int a button carries; else ``bad_action``."""
    if expected_seq is None:
        return None
    if not is_sqlite_int(expected_seq) or expected_seq < 0:
        raise IllegalAction("bad_action", detail="expected_seq")
    return expected_seq


def check_preset(preset: object) -> str:
    """The name of a shipped preset; else ``bad_option``."""
    if not isinstance(preset, str) or preset not in available_presets():
        raise IllegalAction("bad_option", option=preset)
    return preset


def check_option(value: object, what: str) -> str:
    """A short lobby text (deadline, theme) as given, if it is clean; else ``bad_setting``.

    Kept as given rather than stripped: these are keys the cogs look up, not prose.
    """
    if not isinstance(value, str) or clean_text(value, max_length=OPTION_MAX_LENGTH) is None:
        raise IllegalAction("bad_setting", detail=what)
    return value


def check_data(value: object, what: str) -> dict[str, Any] | None:
    """None, or a server's theme or board: a dict of plain JSON; else ``bad_setting``."""
    if value is None:
        return None
    if not isinstance(value, dict) or json_problem(value) is not None:
        raise IllegalAction("bad_setting", detail=what)
    return value
