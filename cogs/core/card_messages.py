"""Publishing MONOPOLY Das Kartenspiel: the public table message, round results, the end.

The table message is edited after every action (its image and lines) and records the
state version its button carries (``table_seq``), which is how the reconciler knows it is
live. Called by :class:`~cogs.core.publisher.Publisher` under the game's lock.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from bot.asyncplay import absence
from bot.cardgame import CardState
from bot.cardgame.view import visible_events
from bot.i18n import t
from bot.liveness import record_end
from bot.settings import GameSettings, MessageRecords
from bot.store import ApplyResult, GameRow
from cogs.core import watchers
from cogs.core.notify import game_link, tell_turn
from cogs.core.pictures import drawn
from cogs.ui.cards_table import (
    MAX_LINES,
    event_line,
    round_files,
    round_message,
    table_file,
    table_message,
)
from cogs.ui.fairness import reveal_embed

if TYPE_CHECKING:
    from cogs.core.ports import PublisherPort as Publisher


async def publish(pub: Publisher, row: GameRow, result: ApplyResult, channel: Any) -> bool:
    """Show an action of the card game; True if all went out."""
    state = result.state
    assert isinstance(state, CardState)
    state = row.state if isinstance(row.state, CardState) else state
    settings = GameSettings.of(row)
    lang = settings.lobby.lang
    public = visible_events(result.events, None)
    lines = [line for event in public if (line := event_line(state, lang, event))]
    records = settings.records
    records.card_lines = (list(records.card_lines) + lines)[-MAX_LINES:]
    if result.actor is not None:
        absence.player_acted(settings, result.actor)  # back at the table: count anew
    await pub.core.planner.reschedule(row.id, state, settings)
    await watchers.card_action(pub.core, row, state, settings, public)
    ok = channel is not None
    if channel is not None:
        for event in public:
            if event["type"] == "round_scored":
                files = await drawn(pub.picture_failures, row.id, "round", round_files(state, lang))
                posted = await pub.send(
                    row.id,
                    channel,
                    "round result",
                    embed=round_message(state, lang, event),
                    files=files or [],
                )
                ok &= posted is not None
            if event["type"] == "game_over" and not records.end_shown:
                ok &= await post_end(pub, row, settings, channel)
        ok &= await _edit_table(pub, row, state, settings, channel)
    elif state.phase == "over":
        record_end(settings, state.seq, None)  # the reconciler posts the end once it can
    await pub.save(row, settings)
    return ok


async def post_end(pub: Publisher, row: GameRow, settings: GameSettings, channel: Any) -> bool:
    """Post the end of a card game: the winners (or that the host ended it), the seed and
    the recap. If it does not go out, ``final_due`` stays in the settings and the
    reconciler posts it again (``settings`` in place)."""
    state = row.state
    assert isinstance(state, CardState)
    lang = settings.lobby.lang
    if state.winners:
        names = ", ".join(state.players[s].name for s in state.winners)
        content = t(lang, "cards.winner", names=names)
    else:
        content = t(lang, "cards.ended")
    embeds = [embed for embed in [reveal_embed(row.id, settings)] if embed is not None]
    files = []
    recap = await pub.recap(row)
    if recap is not None:
        embeds.append(recap["embed"])
        files.append(recap["file"])
    posted = await pub.send(
        row.id, channel, "card game end", content=content, embeds=embeds, files=files
    )
    return record_end(settings, state.seq, posted and posted.id)


async def refresh_table(
    pub: Publisher, row: GameRow, state: CardState, settings: GameSettings, channel: Any
) -> bool:
    """Edit the table message to show the settings as they are now (a moved deadline)."""
    return await _edit_table(pub, row, state, settings, channel)


async def _edit_table(
    pub: Publisher, row: GameRow, state: CardState, settings: GameSettings, channel: Any
) -> bool:
    message_id = settings.records.table_message
    if message_id is None:
        return await post_table(pub, row, settings, channel, state=state)
    lang = settings.lobby.lang
    picture = await drawn(pub.picture_failures, row.id, "table", table_file(state, lang))
    done = await pub.edit(
        row.id,
        channel,
        message_id,
        "table edit",
        **_table(row.id, state, settings, picture is not None),
        attachments=[picture] if picture is not None else [],
    )
    if done:
        settings.records.table_seq = state.seq
        await tell_turn(pub.core, row, state, settings, game_link(row, settings))
    return done


async def post_table(
    pub: Publisher,
    row: GameRow,
    settings: GameSettings,
    channel: Any,
    *,
    state: CardState | None = None,
) -> bool:
    """Post the table message (a new game's, or again) and remember it (``settings``)."""
    state = state or row.state  # type: ignore[assignment]
    assert isinstance(state, CardState)
    lang = settings.lobby.lang
    records = settings.records
    if not records.has(MessageRecords.card_lines):
        records.card_lines = [
            line
            for event in visible_events(state.events, None)
            if (line := event_line(state, lang, event))
        ]
    if settings.play.planned_seq != state.seq:
        await pub.core.planner.reschedule(row.id, state, settings)
    if channel is None:
        return False
    picture = await drawn(pub.picture_failures, row.id, "table", table_file(state, lang))
    message = await pub.send(
        row.id,
        channel,
        "card table",
        **_table(row.id, state, settings, picture is not None),
        files=[picture] if picture is not None else [],
    )
    if message is None:
        return False
    pub.permission_fine(row.id)
    records.table_message = message.id
    records.table_seq = state.seq
    await tell_turn(pub.core, row, state, settings, message.jump_url)
    return True


def _table(game: int, state: CardState, settings: GameSettings, picture: bool) -> dict[str, Any]:
    """The table message, without its picture if that could not be drawn (the next action
    draws it again)."""
    payload = table_message(game, state, settings)
    if not picture:
        payload["embed"].set_image(url=None)
    return payload
