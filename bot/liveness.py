"""Whether a game has everything it needs to move on: its live message and its timers.

A game is stuck when its latest committed state has no message whose buttons can move it
(a turn message, an auction or offer message, a card table), or when its timers were not
planned for that state. That happens when a Discord call fails after an action was saved,
or when the process dies in between. :func:`missing_parts` says what is missing, from the
state and the game's settings alone (the publisher records there what it showed); the
reconciler (``cogs/core/reconcile.py``) puts it right.
"""

from __future__ import annotations

from typing import Any

from bot.cardgame import CardState
from bot.fairness import FINGERPRINT_KEY
from bot.store import GameRow, GameStatus

#: Parts a game can miss, in the order the reconciler repairs them.
PARTS = ("timers", "lobby", "turn", "picture", "table", "auction", "offers", "unbutton", "final")
#: The settings key of what the live turn message shows: ``{"text", "image",
#: "attachment"}`` (keys of its text and picture, and the picture's attachment id; an
#: ``image`` of None: the message went out without its picture).
TURN_SHOWN = "turn_shown"
#: The settings key of old messages whose buttons could not be taken off yet:
#: ``{message id: None or {"embed": …, "keep": attachment id}}``.
UNBUTTON = "unbutton"
#: The settings key of a game whose end (final message, seed, recap) did not go out:
#: the publisher sets it when that post fails and removes it once the end is shown.
FINAL_DUE = "final_due"
#: The settings key of the message that showed a game's end (and revealed its seed).
FINAL_MESSAGE = "final_message"


def missing_parts(row: GameRow) -> list[str]:
    """What the game lacks now (a sublist of :data:`PARTS`; empty if it is fine).

    * ``timers``: not planned for the current state (``planned_seq``);
    * ``lobby``: a lobby without its message;
    * ``turn``: a running board game without a turn message, or one whose buttons are
      for an older state (not checked during an auction, when the turn message waits);
    * ``table``: the same for the card game's table message;
    * ``auction``: an auction under way without its message, or one showing an older bid;
    * ``picture``: a live turn message that went out without its picture (it could not
      be drawn);
    * ``offers``: an open trade offer or lot offer without its public message;
    * ``unbutton``: old messages whose buttons could not be taken off yet;
    * ``final``: a finished game whose end could not be posted (:data:`FINAL_DUE`), or one
      that committed to a seed and has no message revealing it (:data:`FINAL_MESSAGE`):
      the process may have died between the last action and its post.

    Games stored before these records existed (no ``turn_seq``) count as live; a click on
    their outdated buttons still finds them (``stale_message``).
    """
    settings = row.settings
    if row.status == GameStatus.LOBBY:
        return [] if settings.get("lobby_message") else ["lobby"]
    state = row.state
    if row.status == GameStatus.FINISHED and row.state is not None:
        unshown = FINGERPRINT_KEY in settings and FINAL_MESSAGE not in settings
        return ["final"] if unshown or settings.get(FINAL_DUE) is not None else []
    if row.status != GameStatus.RUNNING or state is None or state.phase == "over":
        return []
    missing = []
    if settings.get("planned_seq") != state.seq:
        missing.append("timers")
    if isinstance(state, CardState):
        seq = settings.get("table_seq", state.seq)
        if not settings.get("table_message") or seq != state.seq:
            missing.append("table")
        return missing
    seq = settings.get("turn_seq", state.seq)
    if not settings.get("turn_message") or (seq != state.seq and state.auction is None):
        missing.append("turn")
    elif (settings.get(TURN_SHOWN) or {"image": ""}).get("image") is None:
        missing.append("picture")
    auction_seq = settings.get("auction_seq", state.seq)
    if state.auction is not None and (
        not settings.get("auction_message") or auction_seq != state.seq
    ):
        missing.append("auction")
    shown = settings.get("trade_messages", {})
    lots_missing = state.lot_offer is not None and not settings.get("lot_offer_message")
    if any(str(trade["id"]) not in shown for trade in state.trades) or lots_missing:
        missing.append("offers")
    if settings.get(UNBUTTON):
        missing.append("unbutton")
    return missing


def stale_message(row: GameRow, message_id: int | None, shown_seq: int | None) -> str | None:
    """Which live message ``message_id`` is, if a click on it says it did not follow the game.

    Only for games stored before the publisher recorded the state its messages show
    (``turn_seq``, ``table_seq``): there a click for an older state on the game's own turn
    message (or table) is the only sign that the message is out of date (``turn`` or
    ``table``). Where the record exists, :func:`missing_parts` knows better: a click from a
    client that had not caught up yet is no reason to post the message again.
    """
    state = row.state
    if state is None or message_id is None or shown_seq is None or shown_seq == state.seq:
        return None
    settings = row.settings
    if isinstance(state, CardState):
        legacy = "table_seq" not in settings
        return "table" if legacy and settings.get("table_message") == message_id else None
    legacy = "turn_seq" not in settings
    own = settings.get("turn_message") == message_id and state.auction is None
    return "turn" if legacy and own else None


def record_end(settings: dict[str, Any], seq: int, message_id: int | None) -> bool:
    """Record in ``settings`` whether the end of the game (state ``seq``) went out, as the
    message ``message_id`` (None: it did not, the reconciler posts it); True if it did."""
    if message_id is None:
        settings[FINAL_DUE] = seq
        return False
    settings.pop(FINAL_DUE, None)
    settings[FINAL_MESSAGE] = message_id
    return True
