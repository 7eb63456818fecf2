"""The publisher's records in a game's settings: which messages show the game, and what.

Written by the publisher (``cogs/core/publisher.py`` with ``board_messages``,
``card_messages``, ``followers``, ``pings``, ``notify``) and read by the reconciler and
:mod:`bot.liveness` to know what is live: the lobby, turn, auction, table and offer
messages, the state version each shows (``*_seq``), the current turn's log, what was told
to whom (turn DMs, pings, followers' rounds) and the end of the game. A missing key reads
as "not shown" (None, an empty collection); where a game stored before a record existed
must be told apart (``turn_seq``, ``table_seq``), :meth:`Section.has` says so.
"""

from __future__ import annotations

from typing import Any

from bot.settings.keys import Key, Section, none


class MessageRecords(Section):
    """The keys the publisher owns (see the module docstring)."""

    __slots__ = ()

    lobby_message = Key[int | None]("lobby_message", none)
    #: The live turn message, the state its buttons carry, the turn's log and record.
    turn_message = Key[int | None]("turn_message", none)
    turn_seq = Key[int | None]("turn_seq", none)
    turn_lines = Key[list[str]]("turn_lines", list)
    turn_info = Key[dict[str, Any] | None]("turn_info", none)
    #: What the live turn message shows: ``{"text", "image", "attachment"}`` (keys of its
    #: text and picture, and the picture's attachment id; an ``image`` of None: the
    #: message went out without its picture).
    turn_shown = Key[dict[str, Any] | None]("turn_shown", none)
    #: The turn whose player was told by DM (``"{turn}:{seat}"``).
    turn_told = Key[str | None]("turn_told", none)
    #: Old messages whose buttons could not be taken off yet:
    #: ``{message id: None or {"embed": …, "keep": attachment id}}``.
    unbutton = Key[dict[str, Any]]("unbutton", dict)
    #: A game whose end (final message, seed, recap) did not go out: the state's seq; set
    #: when that post fails, removed once the end is shown.
    final_due = Key[int | None]("final_due", none)
    #: The message that showed a game's end (and revealed its seed).
    final_message = Key[int | None]("final_message", none)
    #: The auction message, the state it shows and the bids told so far.
    auction_message = Key[int | None]("auction_message", none)
    auction_seq = Key[int | None]("auction_seq", none)
    auction_bids = Key[int]("auction_bids", lambda: 0)
    #: The card game's table message, the state it shows and its lines.
    table_message = Key[int | None]("table_message", none)
    table_seq = Key[int | None]("table_seq", none)
    card_lines = Key[list[str]]("card_lines", list)
    #: Public trade offers by trade id, and a debtor's offer of lots ``[message, debtor]``.
    trade_messages = Key[dict[str, int]]("trade_messages", dict)
    lot_offer_message = Key[list[int] | None]("lot_offer_message", none)
    #: Members following the game (🔔) and what is collected for them
    #: (``cogs/core/followers.py``).
    followers = Key[list[int]]("followers", list)
    follow_lines = Key[list[str]]("follow_lines", list)
    follow_open = Key[dict[str, Any] | None]("follow_open", none)
    follow_seq = Key[int | None]("follow_seq", none)
    follow_sent = Key[str | None]("follow_sent", none)
    follow_from = Key[int | None]("follow_from", none)
    #: "You're next" (``"{turn}:{seat}"``) and "you're the last one" (occasions) told.
    next_told = Key[str | None]("next_told", none)
    last_told = Key[list[str]]("last_told", list)

    #: What followers' collection keeps besides ``followers`` (dropped when nobody follows).
    FOLLOW_KEYS = (follow_lines, follow_open, follow_seq, follow_sent, follow_from)
    #: The game's live messages, one message id each.
    LIVE_KEYS = (turn_message, auction_message, table_message, lobby_message)

    def forget_follow(self) -> None:
        """Nobody follows: drop what was collected for followers."""
        for key in self.FOLLOW_KEYS:
            self.data.pop(key.name, None)

    def remember_unbutton(self, message_id: int, pending: dict[str, Any] | None = None) -> None:
        """Note that ``message_id``'s buttons must still come off (an edit failed);
        ``pending``: the finished embed to show then."""
        self.unbutton = {**self.unbutton, str(message_id): pending}

    def record_end(self, seq: int, message_id: int | None) -> bool:
        """Record whether the end of the game (state ``seq``) went out, as the message
        ``message_id`` (None: it did not, the reconciler posts it); True if it did."""
        if message_id is None:
            self.final_due = seq
            return False
        del self.final_due
        self.final_message = message_id
        return True

    @property
    def end_shown(self) -> bool:
        """Whether a message showed the game's end (it is recorded at all)."""
        return self.has(MessageRecords.final_message)

    def live_ids(self) -> set[int]:
        """The ids of the messages that move a game on: turn, auction, table or lobby
        message, public trade offers and a debtor's offer of lots."""
        ids = {value for key in self.LIVE_KEYS if isinstance(value := self.data.get(key.name), int)}
        ids |= {int(v) for v in (self.data.get(MessageRecords.trade_messages.name) or {}).values()}
        lots = self.lot_offer_message
        if isinstance(lots, list) and lots:
            ids.add(int(lots[0]))
        return ids

    def forget(self, message_ids: set[int]) -> None:
        """Forget the live messages among ``message_ids``: the reconciler then sees them
        missing and posts them again."""
        for key in self.LIVE_KEYS:
            if self.data.get(key.name) in message_ids:
                self.data.pop(key.name, None)
                if key is MessageRecords.turn_message:
                    del self.turn_shown
        trades = self.data.get(MessageRecords.trade_messages.name)
        if trades:
            self.trade_messages = {k: v for k, v in trades.items() if v not in message_ids}
        lots = self.lot_offer_message
        if isinstance(lots, list) and lots and lots[0] in message_ids:
            del self.lot_offer_message
        pending = self.data.get(MessageRecords.unbutton.name)
        if pending:
            rest = {k: v for k, v in pending.items() if int(k) not in message_ids}
            if rest:
                self.unbutton = rest
            else:
                del self.unbutton
