"""Publishing the board game: the turn message, the auction message, public offers.

(Longer than ~400 lines: the turn, auction and offer messages share one record of what is
shown and one retry path for refused edits; split, each would need the others' keys.)

One message per turn (a "Zug", ``cogs/ui/turn.py``). While the turn runs its message is
live: every action adds its lines, and the message is edited when what it shows changed
(the text, the buttons, or the picture: a token moved, a lot bought, built on or
mortgaged, cash changed). A burst of bids changes none of it: bids live on the auction
message. When the turn ends, its message is finished (own title, own log, the picture of
how the turn ended, no buttons) and the next turn gets a new message. Edits of one message
are coalesced (``Publisher.coalescer``): a burst of clicks makes one edit, with one upload
of the newest picture.

A picture that cannot be drawn never holds the game up: the message goes out without it
(its text then lists the players), the failure is logged once, and the reconciler adds the
picture later (``turn_shown`` records what the message shows). An old message whose
buttons could not be taken off is remembered (``unbutton``) and tried again.

An auction has its own message; so has every public trade offer and a debtor's offer of
lots. Each step records what it showed in the game's settings (``turn_message`` and the
``turn_seq`` its buttons carry, ``auction_message``, ``trade_messages``,
``lot_offer_message``), which is how the reconciler knows what is live. Called by
:class:`~cogs.core.publisher.Publisher` under the game's lock.
"""

from __future__ import annotations

import hashlib
import json
import logging
import re
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

import discord

from bot.asyncplay import absence
from bot.engine.state import GameState
from bot.i18n import t
from bot.liveness import record_end
from bot.settings import GameSettings, MessageRecords
from bot.store import ApplyResult, GameRow
from bot.store.kinds import waiting_for
from bot.turn_story import split
from cogs.core import watchers
from cogs.core.notify import tell_turn
from cogs.core.pictures import drawn
from cogs.ui import auction as auction_ui
from cogs.ui import turn as turn_ui
from cogs.ui.offers import lots_offer_message, offer_message
from cogs.ui.story import count_bids
from cogs.ui.text import Narrator, mentions, theme_of

if TYPE_CHECKING:
    from cogs.core.ports import PublisherPort as Publisher

log = logging.getLogger(__name__)

#: Lines of one turn's log kept in the settings (the message shows at most
#: ``turn_ui.MAX_LINES`` of them).
KEPT_LINES = 60
#: A game button's custom id, with the state version it carries.
_SEQ_IN_ID = re.compile(r"(m:[0-9]+:)[0-9]+:")


@dataclass(frozen=True)
class KeptFile:
    """An attachment a message keeps through an edit (Discord wants it listed by id, or the
    embed's ``attachment://`` picture may show twice)."""

    id: int
    filename: str

    def to_dict(self) -> dict[str, Any]:
        """The attachment as an edit lists it (discord.py calls this)."""
        return {"id": str(self.id), "filename": self.filename}


async def publish(pub: Publisher, row: GameRow, result: ApplyResult, channel: Any) -> bool:
    """Show a board-game action (see the module docstring); True if all went out."""
    state = row.state
    assert isinstance(state, GameState)
    settings = GameSettings.of(row)
    records = settings.records
    lang = settings.lobby.lang
    narrator = Narrator(state, lang, theme_of(settings))
    info = turn_ui.turn_info(state, settings)
    ended, parts, current = split(info, result.events, state)
    bids_before = int(records.auction_bids)
    said = narrator.lines(parts[0], bids=bids_before)
    new_lines = narrator.lines(parts[-1]) if ended is not None else []
    if result.via == "order":
        mark_order(said or new_lines, lang)
    lines = list(records.turn_lines) + said
    if result.actor is not None and absence.player_acted(settings, result.actor):
        lines.append(t(lang, "vacation.back", player=state.players[result.actor].name))
    bids = count_bids(result.events, bids_before)
    if bids:
        records.auction_bids = bids
    else:
        del records.auction_bids
    # Timers first: no failing Discord call can leave the game without them.
    await pub.core.planner.reschedule(row.id, state, settings)
    await watchers.board_action(pub.core, row, state, settings, ended, current, lines)
    ok = channel is not None
    if channel is not None:
        ok &= await _auction(pub, row, state, settings, result.events, channel, bids=bids_before)
        await _close_offers(pub, row, state, settings, result.events, channel)
        ok &= await post_offers(pub, row, state, settings, result.events, channel)
        if state.phase == "over":
            await finish_turn(pub, row, state, settings, channel, lines, ended or current)
            if not records.end_shown:  # (the reconciler may have been first)
                ok &= await post_final(pub, row, state, settings, channel)
            records.turn_lines = []
        elif ended is not None or records.turn_message is None:
            if ended is not None:
                await finish_turn(pub, row, state, settings, channel, lines, ended)
                lines = new_lines
            ok &= await post_turn(pub, row, settings, channel, lines, state=state, info=current)
        else:
            records.turn_lines = lines[-KEPT_LINES:]
            records.turn_info = current
            ok &= await refresh_turn(pub, row, state, settings, channel)
    else:
        if state.phase == "over":
            record_end(settings, state.seq, None)  # the reconciler posts the end once it can
        records.turn_lines = (new_lines if ended is not None else lines)[-KEPT_LINES:]
        records.turn_info = current
    await pub.save(row, settings)
    return ok


def mark_order(lines: list[str], lang: str) -> None:
    """Mark the first line of what a standing order did: "… (Auftrag)"."""
    if lines:
        lines[0] = f"{lines[0]} {t(lang, 'orders.tag')}"


async def post_final(
    pub: Publisher, row: GameRow, state: GameState, settings: GameSettings, channel: Any
) -> bool:
    """Post the end of a board game: the final table with the seed, the board, the recap.

    If it does not go out, ``final_due`` stays in the settings and the reconciler posts
    it again (``settings`` in place). A board that cannot be drawn is left out.
    """
    board = await drawn(pub.picture_failures, row.id, "final", turn_ui.board_file(state, settings))
    embeds = [turn_ui.final_embed(state, settings, game_id=row.id, image=board is not None)]
    files = [board] if board is not None else []
    recap = await pub.recap(row)
    if recap is not None:
        embeds.append(recap["embed"])
        files.append(recap["file"])
    message = await pub.send(row.id, channel, "final message", embeds=embeds, files=files)
    return record_end(settings, state.seq, message and message.id)


def _text_key(payload: dict[str, Any]) -> str:
    """A short key of a message's embed and buttons, without the state version the buttons
    carry (that alone is no reason to edit during an auction) and without its mention (an
    edit pings nobody: it stays as posted)."""
    embed = payload["embed"].to_dict()
    embed.pop("image", None)
    view = payload.get("view")
    components = view.to_components() if view is not None else []
    shown = [embed, components]
    text = _SEQ_IN_ID.sub(r"\1S:", json.dumps(shown, sort_keys=True, ensure_ascii=False))
    return hashlib.sha256(text.encode()).hexdigest()[:16]


def _live_payload(
    game: int,
    state: GameState,
    settings: GameSettings,
    lines: list[str],
    info: dict[str, Any],
    *,
    image: bool,
) -> dict[str, Any]:
    return {
        "content": mentions(state, waiting_for(state)) or None,
        "embed": turn_ui.live_embed(state, settings, lines, info, image=image),
        "view": turn_ui.turn_view(game, state, settings),
    }


def _attachment_id(message: Any, filename: str) -> int | None:
    for attachment in getattr(message, "attachments", None) or []:
        if attachment.filename == filename:
            return int(attachment.id)
    return None


async def post_turn(
    pub: Publisher,
    row: GameRow,
    settings: GameSettings,
    channel: Any,
    lines_or_events: list[Any],
    *,
    state: GameState | None = None,
    info: dict[str, Any] | None = None,
) -> bool:
    """Post a new live turn message with the turn's picture and remember it (``settings``
    in place).

    ``lines_or_events`` are the lines to show, or the events to tell (a new game's);
    ``info`` is the turn told (by default the record in the settings, or a fresh one).
    """
    state = state or row.state  # type: ignore[assignment]
    assert isinstance(state, GameState)
    narrator = Narrator(state, settings.lobby.lang, theme_of(settings))
    if lines_or_events and all(isinstance(item, dict) for item in lines_or_events):
        lines = narrator.lines(lines_or_events)
    else:
        lines = [item for item in lines_or_events if isinstance(item, str)]
    info = info or turn_ui.turn_info(state, settings)
    records = settings.records
    records.turn_lines = lines[-KEPT_LINES:]
    records.turn_info = info
    if settings.play.planned_seq != state.seq:
        await pub.core.planner.reschedule(row.id, state, settings)
    if channel is None:
        return False
    key = turn_ui.image_key(state, settings, info)
    picture = await drawn(
        pub.picture_failures, row.id, key, turn_ui.turn_image(state, settings, info)
    )
    if picture is None:
        pub.core.reconciler.failed(row.id)  # the sweep adds the picture later
    payload = _live_payload(row.id, state, settings, lines, info, image=picture is not None)
    files = {"files": [picture]} if picture is not None else {}
    message = await pub.send(row.id, channel, "turn message", **payload, **files)
    if message is None:
        return False
    pub.permission_fine(row.id)
    records.turn_message = message.id
    records.turn_seq = state.seq
    attachment = _attachment_id(message, turn_ui.TURN_IMAGE) if picture is not None else None
    records.turn_shown = {
        "text": _text_key(payload),
        "image": key if attachment is not None else None,
        "attachment": attachment,
    }
    await tell_turn(pub.core, row, state, settings, message.jump_url)
    return True


async def refresh_turn(
    pub: Publisher, row: GameRow, state: GameState, settings: GameSettings, channel: Any
) -> bool:
    """Edit the live turn message if what it shows changed: its text and buttons, or the
    picture (redrawn then). During an auction only a change of its text counts (the
    auction message shows the bids). Coalesced: a put-off edit shows the newest state."""
    message_id = settings.records.turn_message
    assert message_id is not None  # the caller posts a new one otherwise
    info = turn_ui.turn_info(state, settings)
    lines = list(settings.records.turn_lines)
    shown = dict(settings.records.turn_shown or {})
    key = turn_ui.image_key(state, settings, info)
    redraw = shown.get("image") != key
    payload = _live_payload(row.id, state, settings, lines, info, image=True)
    text = _text_key(payload)
    seq_moved = settings.records.turn_seq != state.seq and state.auction is None
    if not redraw and shown.get("text") == text and not seq_moved:
        return True
    game, seq = row.id, state.seq

    async def run(deferred: bool) -> bool:
        if redraw:
            picture = await drawn(
                pub.picture_failures, game, key, turn_ui.turn_image(state, settings, info)
            )
            if picture is None:
                pub.core.reconciler.failed(game)  # the sweep adds the picture later
        else:
            picture = (
                KeptFile(shown["attachment"], turn_ui.TURN_IMAGE)
                if shown.get("attachment")
                else None
            )
        final = (
            payload
            if picture is not None
            else _live_payload(game, state, settings, lines, info, image=False)
        )
        # An edit pings nobody: the mention stays as posted (whom the turn called).
        final = {k: v for k, v in final.items() if k != "content"}
        files = [picture] if picture is not None else []
        message = await pub.edit_message(
            game, channel, message_id, "turn message edit", attachments=files, **final
        )
        if message is None:
            return False
        record = {
            "text": text,
            "image": key if isinstance(picture, discord.File) else shown.get("image"),
            "attachment": _attachment_id(message, turn_ui.TURN_IMAGE),
        }
        if picture is None:
            record["image"] = None

        def note(fresh: GameRow, target: GameSettings) -> None:
            shown = target.records
            if shown.turn_message == message_id:
                shown.turn_shown = record
                shown.turn_seq = max(seq, shown.turn_seq or 0)

        if deferred:
            await pub.core.service.edit_settings(game, note)
        else:
            note(row, settings)
        return True

    return await pub.edit_later(message_id, run) is not False


async def finish_turn(
    pub: Publisher,
    row: GameRow,
    state: GameState,
    settings: GameSettings,
    channel: Any,
    lines: list[str],
    info: dict[str, Any],
) -> None:
    """Turn the live message into the finished message of the turn ``info`` told: its own
    title and log, the picture of how it ended, no buttons. If Discord refuses, the message
    is remembered (``unbutton``) and the reconciler tries again."""
    message_id = settings.records.turn_message
    if message_id is None:
        return
    shown = dict(settings.records.turn_shown or {})
    key = turn_ui.image_key(state, settings, info)
    game = row.id

    async def run(deferred: bool) -> bool:
        if shown.get("image") == key and shown.get("attachment"):
            picture: Any = KeptFile(shown["attachment"], turn_ui.TURN_IMAGE)
        else:
            picture = await drawn(
                pub.picture_failures, game, key, turn_ui.turn_image(state, settings, info)
            )
        embed = turn_ui.finished_embed(state, settings, lines, info, image=picture is not None)
        files = [picture] if picture is not None else []
        message = await pub.edit_message(
            game, channel, message_id, "finished turn", embed=embed, view=None, attachments=files
        )
        if message is not None:
            return True
        kept = shown.get("attachment")
        retry = embed.to_dict()
        if not kept:
            retry.pop("image", None)
        pending = {"embed": retry, "keep": kept}

        def remember(fresh: GameRow, target: GameSettings) -> None:
            target.records.remember_unbutton(message_id, pending)

        if deferred:
            await pub.core.service.edit_settings(game, remember)
        else:
            remember(row, settings)
        return False

    await pub.edit_later(message_id, run)


async def take_buttons_off(
    pub: Publisher, row: GameRow, settings: GameSettings, channel: Any
) -> bool:
    """Try again to take the buttons off the old messages in ``unbutton``; True once none
    is left (``settings`` in place). A message that is gone needs nothing any more."""
    pending = dict(settings.records.unbutton)
    for key, what in list(pending.items()):
        payload: dict[str, Any] = {"view": None}
        if isinstance(what, dict) and isinstance(what.get("embed"), dict):
            payload["embed"] = discord.Embed.from_dict(what["embed"])
            kept = what.get("keep")
            payload["attachments"] = [KeptFile(int(kept), turn_ui.TURN_IMAGE)] if kept else []
        outcome = await pub.edit_message(
            row.id, channel, int(key), "old buttons", gone_ok=True, **payload
        )
        if outcome is not None:
            del pending[key]
    if pending:
        settings.records.unbutton = pending
    else:
        del settings.records.unbutton
    return not pending


async def close_message(
    pub: Publisher,
    row: GameRow,
    settings: GameSettings,
    channel: Any,
    message_id: int,
    what: str,
    **payload: Any,
) -> None:
    """Show how an auction or offer ended and take its buttons off, through the coalescer
    (an edit of its last bid put off until now must not bring the buttons back); if
    Discord refuses, the message is remembered (``unbutton``) and tried again."""
    game = row.id

    async def run(deferred: bool) -> bool:
        if await pub.edit(game, channel, message_id, what, view=None, **payload):
            return True
        if deferred:
            await pub.core.service.edit_settings(
                game, lambda _, target: remember_unbutton(target, message_id)
            )
        else:
            remember_unbutton(settings, message_id)
        return False

    await pub.edit_later(message_id, run)


def remember_unbutton(settings: GameSettings, message_id: int) -> None:
    """Note that ``message_id``'s buttons must still come off (an edit failed)."""
    settings.records.remember_unbutton(message_id)


async def _auction(
    pub: Publisher,
    row: GameRow,
    state: GameState,
    settings: GameSettings,
    events: list[dict[str, Any]],
    channel: Any,
    *,
    bids: int = 0,
) -> bool:
    """Open, update or close the auction message (``bids``: the auction's bids before
    these events, for the line that closes it)."""
    game = row.id
    records = settings.records
    message_id = records.auction_message
    closed = [e for e in events if e["type"] in ("auction_won", "auction_unsold")]
    if message_id is not None and (closed or state.auction is None):
        lang = settings.lobby.lang
        narrator = Narrator(state, lang, theme_of(settings))
        told = [e for e in events if e["type"] in ("bid", "auction_won", "auction_unsold")]
        text = "\n".join(narrator.lines(told, bids=bids)) or t(lang, "auction.closed")
        await close_message(
            pub, row, settings, channel, message_id, "auction close", content=text, embed=None
        )
        del records.auction_message
        del records.auction_seq
        await pub.core.planner.auction_closed(game, settings)
        message_id = None
    if state.auction is None:
        return True
    if message_id is None:
        return await post_auction(pub, row, state, settings, channel)
    payload = auction_ui.auction_message(game, state, settings)
    seq = state.seq

    def record(fresh: GameRow, settings: GameSettings) -> None:
        shown = settings.records
        if shown.auction_message == message_id:
            shown.auction_seq = max(seq, shown.auction_seq or 0)

    async def shown() -> None:  # a put-off edit went through: record what it shows
        await pub.core.service.edit_settings(game, record)

    done = await pub.edit_soon(game, channel, message_id, "auction edit", after=shown, **payload)
    if done:
        records.auction_seq = seq
    return done is not False


async def post_auction(
    pub: Publisher, row: GameRow, state: GameState, settings: GameSettings, channel: Any
) -> bool:
    """Post the message of the auction under way (its closing time is planned first)."""
    closes = pub.core.planner.auction_opened(settings)
    message = await pub.send(
        row.id, channel, "auction message", **auction_ui.auction_message(row.id, state, settings)
    )
    if message is None:
        return False
    settings.records.auction_message = message.id
    settings.records.auction_seq = state.seq
    await pub.core.planner.auction_close_at(row.id, closes, message.id)
    return True


async def post_offers(
    pub: Publisher,
    row: GameRow,
    state: GameState,
    settings: GameSettings,
    events: list[dict[str, Any]] | None,
    channel: Any,
) -> bool:
    """Post the public message of every open offer that has none yet.

    ``events`` are the action's (a trade just proposed gets its closing time); None posts
    whatever is missing (the reconciler).
    """
    ok = True
    records = settings.records
    messages = records.trade_messages
    proposed = {e["trade"] for e in events or [] if e["type"] == "trade_proposed"}
    for trade in state.trades if state.phase != "over" else []:
        key = str(trade["id"])
        if key in messages:
            continue
        if trade["id"] in proposed:
            await pub.core.planner.trade_offered(row.id, settings, trade["id"])
        message = await pub.send(
            row.id, channel, "trade offer", **offer_message(row.id, state, settings, trade)
        )
        if message is None:
            ok = False
            continue
        messages = {**records.trade_messages, key: message.id}
        records.trade_messages = messages
    offer = state.lot_offer
    if offer is not None and state.phase != "over" and not records.lot_offer_message:
        message = await pub.send(
            row.id, channel, "lot offer", **lots_offer_message(row.id, state, settings)
        )
        if message is None:
            return False
        records.lot_offer_message = [message.id, offer["debtor"]]
    return ok


async def _close_offers(
    pub: Publisher,
    row: GameRow,
    state: GameState,
    settings: GameSettings,
    events: list[dict[str, Any]],
    channel: Any,
) -> None:
    """Take the buttons off settled offers, with a line saying how each ended."""
    lang = settings.lobby.lang
    records = settings.records
    messages = dict(records.trade_messages)
    # A finished game answers no offer, even one still listed in the state.
    open_ids = {str(tr["id"]) for tr in state.trades} if state.phase != "over" else set()
    for key, message_id in list(messages.items()):
        if key in open_ids:
            continue
        status = _trade_status(events, int(key))
        counter = _counter_of(events, int(key))
        if counter is not None:
            text = t(lang, "trade.status.countered_with", id=counter)
        else:
            text = t(lang, f"trade.status.{status}")
        await close_message(pub, row, settings, channel, message_id, "offer close", content=text)
        del messages[key]
    if records.has(MessageRecords.trade_messages):
        records.trade_messages = messages
    closes = settings.play.trade_closes
    if closes:
        settings.play.trade_closes = {k: v for k, v in closes.items() if k in open_ids}
    stored = records.lot_offer_message
    if stored is not None and (state.lot_offer is None or state.phase == "over"):
        message_id, debtor = stored
        status = "lapsed"
        for event in events:
            if event["type"] == "lots_accepted":
                status = "accepted"
            elif event["type"] == "lots_declined":
                status = "withdrawn" if event["player"] == debtor else "declined"
        text = t(lang, f"trade.status.{status}")
        await close_message(
            pub, row, settings, channel, message_id, "lot offer close", content=text
        )
        del records.lot_offer_message


def _counter_of(events: list[dict[str, Any]], trade_id: int) -> int | None:
    """The id of the counter-offer that answered ``trade_id`` in ``events``, if any."""
    for event in events:
        if event["type"] == "trade_countered" and event.get("trade") == trade_id:
            return int(event["new"])
    return None


def _trade_status(events: list[dict[str, Any]], trade_id: int) -> str:
    proposed_by = {e["from"] for e in events if e["type"] == "trade_proposed"}
    for event in events:
        if event.get("trade") != trade_id:
            continue
        if event["type"] == "trade_done":
            return "accepted"
        if event["type"] == "trade_countered":
            return "countered"
        if event["type"] == "trade_cancelled":
            return "withdrawn"
        if event["type"] == "trade_declined":
            return "countered" if event["player"] in proposed_by else "declined"
    return "lapsed"
