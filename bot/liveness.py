"""Whether a game has everything it needs to move on: its live message and its timers.

A game is stuck when its latest committed state has no message whose buttons can move it
(a turn message, an auction or offer message, a card table), or when its timers were not
planned for that state. That happens when a Discord call fails after an action was saved,
or when the process dies in between. :func:`missing_parts` says what is missing, from the
state and the game's settings alone (the publisher records there what it showed); the
reconciler (``cogs/core/reconcile.py``) puts it right.
"""

from __future__ import annotations

from bot.cardgame import CardState
from bot.settings import GameSettings, MessageRecords
from bot.store import GameRow, GameStatus

#: Parts a game can miss, in the order the reconciler repairs them.
PARTS = ("timers", "lobby", "turn", "picture", "table", "auction", "offers", "unbutton", "final")
# The publisher's records this module reads are keys of the typed section
# :class:`bot.settings.MessageRecords` (which documents them); their names, for tests.
TURN_SHOWN = MessageRecords.turn_shown.name
UNBUTTON = MessageRecords.unbutton.name
FINAL_DUE = MessageRecords.final_due.name
FINAL_MESSAGE = MessageRecords.final_message.name


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
    * ``final``: a finished game whose end could not be posted (``final_due``), or one
      that committed to a seed and has no message revealing it (``final_message``):
      the process may have died between the last action and its post.

    Games stored before these records existed (no ``turn_seq``) count as live; a click on
    their outdated buttons still finds them (``stale_message``).
    """
    settings = GameSettings.of(row)
    records = settings.records
    if row.status == GameStatus.LOBBY:
        return [] if records.lobby_message else ["lobby"]
    state = row.state
    if row.status == GameStatus.FINISHED and row.state is not None:
        unshown = settings.fair.committed_at_all and not records.end_shown
        return ["final"] if unshown or records.final_due is not None else []
    if row.status != GameStatus.RUNNING or state is None or state.phase == "over":
        return []
    missing = []
    if settings.play.planned_seq != state.seq:
        missing.append("timers")
    if isinstance(state, CardState):
        seq = records.stored_or(MessageRecords.table_seq, state.seq)
        if not records.table_message or seq != state.seq:
            missing.append("table")
        return missing
    seq = records.stored_or(MessageRecords.turn_seq, state.seq)
    if not records.turn_message or (seq != state.seq and state.auction is None):
        missing.append("turn")
    elif (records.turn_shown or {"image": ""}).get("image") is None:
        missing.append("picture")
    auction_seq = records.stored_or(MessageRecords.auction_seq, state.seq)
    if state.auction is not None and (not records.auction_message or auction_seq != state.seq):
        missing.append("auction")
    shown = records.trade_messages
    lots_missing = state.lot_offer is not None and not records.lot_offer_message
    if any(str(trade["id"]) not in shown for trade in state.trades) or lots_missing:
        missing.append("offers")
    if records.unbutton:
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
    records = GameSettings.of(row).records
    if isinstance(state, CardState):
        legacy = not records.has(MessageRecords.table_seq)
        return "table" if legacy and records.table_message == message_id else None
    legacy = not records.has(MessageRecords.turn_seq)
    own = records.turn_message == message_id and state.auction is None
    return "turn" if legacy and own else None


def record_end(settings: GameSettings, seq: int, message_id: int | None) -> bool:
    """Record in ``settings`` whether the end of the game (state ``seq``) went out, as the
    message ``message_id`` (None: it did not, the reconciler posts it); True if it did."""
    return settings.records.record_end(seq, message_id)
