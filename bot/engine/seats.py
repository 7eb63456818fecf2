"""Who sits at a seat: the check of a new player taking over a seat, for either game.

Both engines (:mod:`bot.engine.game`, :mod:`bot.cardgame.game`) let a seat change hands
with the system action ``hand_over``; the newcomer is checked the same way in both.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from bot.engine.errors import IllegalAction

#: The longest player id or name a seat takes (the service cuts names to this, too).
SEAT_TEXT_MAX = 100


def check_newcomer(players: Sequence[Any], action: dict[str, Any]) -> tuple[str, str]:
    """The new player's ``(id, name)`` of a ``hand_over`` action, checked.

    Raises ``bad_player_id`` / ``bad_name`` for a malformed id or name and
    ``already_seated`` if the id has a seat at this table already — an out player's seat
    counts too: one id, one seat, or a Discord user's seat would be ambiguous.
    """
    new_id, name = action.get("id"), action.get("name")
    if type(new_id) is not str or not new_id or len(new_id) > SEAT_TEXT_MAX:
        raise IllegalAction("bad_player_id")
    if type(name) is not str or not name.strip() or len(name) > SEAT_TEXT_MAX:
        raise IllegalAction("bad_name")
    if any(player.id == new_id for player in players):
        raise IllegalAction("already_seated")
    return new_id, name
