"""Publishing the board game: the turn message, the auction message, public offers.

One turn message per turn (board image, what happened, whose move, the buttons legal now);
results of the turn's actions are added to it, and the next turn gets a new one (the old
one loses its buttons). An auction has its own message; so has every public trade offer
and a debtor's offer of lots. Each step records what it showed in the game's settings
(``turn_message`` and the ``turn_seq`` its buttons carry, ``auction_message``,
``trade_messages``, ``lot_offer_message``), which is how the reconciler knows what is live.
Called by :class:`~cogs.core.publisher.Publisher` under the game's lock.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from bot.asyncplay import absence
from bot.engine.state import GameState
from bot.i18n import t
from bot.liveness import FINAL_MESSAGE, record_end
from bot.store import ApplyResult, GameRow
from bot.store.kinds import waiting_for
from cogs.core.notify import tell_turn
from cogs.ui import auction as auction_ui
from cogs.ui import turn as turn_ui
from cogs.ui.offers import lots_offer_message, offer_message
from cogs.ui.text import Narrator, mentions, theme_of

if TYPE_CHECKING:
    from cogs.core.ports import PublisherPort as Publisher

#: Events of a running auction that leave the turn message as it is (no edit per bid).
BIDDING = frozenset({"bid", "sealed_bid", "auction_pass"})


async def publish(pub: Publisher, row: GameRow, result: ApplyResult, channel: Any) -> bool:
    """Show a board-game action (see the module docstring); True if all went out."""
    state = row.state
    assert isinstance(state, GameState)
    settings = dict(row.settings)
    lang = settings["lang"]
    narrator = Narrator(state, lang, theme_of(settings))
    before: list[str] = []
    after: list[str] = []
    new_turn = False
    for event in result.events:
        if event["type"] == "turn":
            new_turn = True
        line = narrator.line(event)
        if line:
            (after if new_turn else before).append(line)
    if result.actor is not None and absence.player_acted(settings, result.actor):
        before.append(t(lang, "vacation.back", player=state.players[result.actor].name))
    lines = list(settings.get("turn_lines", [])) + before
    # Timers first: no failing Discord call can leave the game without them.
    await pub.core.planner.reschedule(row.id, state, settings)
    ok = channel is not None
    if channel is not None:
        ok &= await _auction(pub, row, state, settings, result.events, channel)
        await _close_offers(pub, row, state, settings, result.events, channel)
        ok &= await post_offers(pub, row, state, settings, result.events, channel)
        old_id = settings.get("turn_message")
        if state.phase == "over":
            await _edit_turn(pub, row, state, settings, channel, lines, final=True)
            if FINAL_MESSAGE not in settings:  # (the reconciler may have been first)
                ok &= await post_final(pub, row, state, settings, channel)
            settings["turn_lines"] = []
        elif new_turn or old_id is None:
            await _edit_turn(pub, row, state, settings, channel, lines, final=True)
            ok &= await post_turn(pub, row, settings, channel, after, state=state)
        else:
            settings["turn_lines"] = lines[-turn_ui.MAX_LINES :]
            bidding = state.auction is not None and all(e["type"] in BIDDING for e in result.events)
            if not bidding:
                ok &= await _edit_turn(pub, row, state, settings, channel, lines, final=False)
    elif state.phase == "over":
        record_end(settings, state.seq, None)  # the reconciler posts the end once it can
    await pub.save(row, settings)
    return ok


async def post_final(
    pub: Publisher, row: GameRow, state: GameState, settings: dict[str, Any], channel: Any
) -> bool:
    """Post the end of a board game: the final table with the seed, the board, the recap.

    If it does not go out, ``final_due`` stays in the settings and the reconciler posts
    it again (``settings`` in place).
    """
    embeds = [turn_ui.final_embed(state, settings, game_id=row.id)]
    files = [await turn_ui.board_file(state, settings)]
    recap = await pub.recap(row)
    if recap is not None:
        embeds.append(recap["embed"])
        files.append(recap["file"])
    message = await pub.send(row.id, channel, "final message", embeds=embeds, files=files)
    return record_end(settings, state.seq, message and message.id)


async def post_turn(
    pub: Publisher,
    row: GameRow,
    settings: dict[str, Any],
    channel: Any,
    lines_or_events: list[Any],
    *,
    state: GameState | None = None,
) -> bool:
    """Post a new turn message with the board and remember it (``settings`` in place).

    ``lines_or_events`` are the lines to show, or the events to tell (a new game's).
    """
    state = state or row.state  # type: ignore[assignment]
    assert isinstance(state, GameState)
    lines = [
        line
        for item in lines_or_events
        if (
            line := Narrator(state, settings["lang"], theme_of(settings)).line(item)
            if isinstance(item, dict)
            else item
        )
    ]
    if settings.get("planned_seq") != state.seq:
        await pub.core.planner.reschedule(row.id, state, settings)
    if channel is None:
        return False
    waiting = waiting_for(state)
    message = await pub.send(
        row.id,
        channel,
        "turn message",
        content=mentions(state, waiting) or None,
        embed=turn_ui.turn_embed(state, settings, lines),
        view=turn_ui.turn_view(row.id, state, settings),
        file=await turn_ui.board_file(state, settings),
    )
    settings["turn_lines"] = lines[-turn_ui.MAX_LINES :]
    if message is None:
        return False
    pub.permission_fine(row.id)
    settings["turn_message"] = message.id
    settings["turn_seq"] = state.seq
    await tell_turn(pub.core, row, state, settings, message.jump_url)
    return True


async def _edit_turn(
    pub: Publisher,
    row: GameRow,
    state: GameState,
    settings: dict[str, Any],
    channel: Any,
    lines: list[str],
    *,
    final: bool,
) -> bool:
    """Edit the turn message: its new lines and buttons, or (``final``) no buttons."""
    message_id = settings.get("turn_message")
    if message_id is None:
        return True
    embed = turn_ui.turn_embed(state, settings, lines)
    view = None if final else turn_ui.turn_view(row.id, state, settings)
    done = await pub.edit(row.id, channel, message_id, "turn message edit", embed=embed, view=view)
    if done and not final:
        settings["turn_seq"] = state.seq
    return done


async def _auction(
    pub: Publisher,
    row: GameRow,
    state: GameState,
    settings: dict[str, Any],
    events: list[dict[str, Any]],
    channel: Any,
) -> bool:
    """Open, update or close the auction message."""
    game = row.id
    message_id = settings.get("auction_message")
    closed = [e for e in events if e["type"] in ("auction_won", "auction_unsold")]
    if message_id is not None and (closed or state.auction is None):
        narrator = Narrator(state, settings["lang"], theme_of(settings))
        text = "\n".join(narrator.lines(closed)) or t(settings["lang"], "auction.closed")
        await pub.edit(
            game, channel, message_id, "auction close", content=text, embed=None, view=None
        )
        settings.pop("auction_message", None)
        settings.pop("auction_seq", None)
        await pub.core.planner.auction_closed(game, settings)
        message_id = None
    if state.auction is None:
        return True
    if message_id is None:
        return await post_auction(pub, row, state, settings, channel)
    payload = auction_ui.auction_message(game, state, settings)
    seq = state.seq

    def record(fresh: GameRow, settings: dict[str, Any]) -> None:
        if settings.get("auction_message") == message_id:
            settings["auction_seq"] = max(seq, settings.get("auction_seq", 0))

    async def shown() -> None:  # a put-off edit went through: record what it shows
        await pub.core.service.edit_settings(game, record)

    done = await pub.edit_soon(game, channel, message_id, "auction edit", after=shown, **payload)
    if done:
        settings["auction_seq"] = seq
    return done is not False


async def post_auction(
    pub: Publisher, row: GameRow, state: GameState, settings: dict[str, Any], channel: Any
) -> bool:
    """Post the message of the auction under way (its closing time is planned first)."""
    closes = pub.core.planner.auction_opened(settings)
    message = await pub.send(
        row.id, channel, "auction message", **auction_ui.auction_message(row.id, state, settings)
    )
    if message is None:
        return False
    settings["auction_message"] = message.id
    settings["auction_seq"] = state.seq
    await pub.core.planner.auction_close_at(row.id, closes, message.id)
    return True


async def post_offers(
    pub: Publisher,
    row: GameRow,
    state: GameState,
    settings: dict[str, Any],
    events: list[dict[str, Any]] | None,
    channel: Any,
) -> bool:
    """Post the public message of every open offer that has none yet.

    ``events`` are the action's (a trade just proposed gets its closing time); None posts
    whatever is missing (the reconciler).
    """
    ok = True
    messages = settings.get("trade_messages", {})
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
        messages = {**settings.get("trade_messages", {}), key: message.id}
        settings["trade_messages"] = messages
    offer = state.lot_offer
    if offer is not None and state.phase != "over" and not settings.get("lot_offer_message"):
        message = await pub.send(
            row.id, channel, "lot offer", **lots_offer_message(row.id, state, settings)
        )
        if message is None:
            return False
        settings["lot_offer_message"] = [message.id, offer["debtor"]]
    return ok


async def _close_offers(
    pub: Publisher,
    row: GameRow,
    state: GameState,
    settings: dict[str, Any],
    events: list[dict[str, Any]],
    channel: Any,
) -> None:
    """Take the buttons off settled offers, with a line saying how each ended."""
    lang = settings["lang"]
    messages = dict(settings.get("trade_messages", {}))
    # A finished game answers no offer, even one still listed in the state.
    open_ids = {str(tr["id"]) for tr in state.trades} if state.phase != "over" else set()
    for key, message_id in list(messages.items()):
        if key in open_ids:
            continue
        status = _trade_status(events, int(key))
        text = t(lang, f"trade.status.{status}")
        await pub.edit(row.id, channel, message_id, "offer close", content=text, view=None)
        del messages[key]
    if "trade_messages" in settings:
        settings["trade_messages"] = messages
    closes = settings.get("trade_closes", {})
    if closes:
        settings["trade_closes"] = {k: v for k, v in closes.items() if k in open_ids}
    stored = settings.get("lot_offer_message")
    if stored is not None and (state.lot_offer is None or state.phase == "over"):
        message_id, debtor = stored
        status = "lapsed"
        for event in events:
            if event["type"] == "lots_accepted":
                status = "accepted"
            elif event["type"] == "lots_declined":
                status = "withdrawn" if event["player"] == debtor else "declined"
        text = t(lang, f"trade.status.{status}")
        await pub.edit(row.id, channel, message_id, "lot offer close", content=text, view=None)
        settings.pop("lot_offer_message", None)


def _trade_status(events: list[dict[str, Any]], trade_id: int) -> str:
    proposed_by = {e["from"] for e in events if e["type"] == "trade_proposed"}
    for event in events:
        if event.get("trade") != trade_id:
            continue
        if event["type"] == "trade_done":
            return "accepted"
        if event["type"] == "trade_cancelled":
            return "withdrawn"
        if event["type"] == "trade_declined":
            return "countered" if event["player"] in proposed_by else "declined"
    return "lapsed"
