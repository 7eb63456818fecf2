"""Nudging players: mentions in the channel and direct messages to those who asked for them.

``/monopoly notify`` stores a user's choice (reminders by DM, and a DM whenever their turn
begins); the reminders and deadlines of ``cogs/timers.py`` and the publisher's new turn
messages call these. Closed DMs are the user's choice and are only logged.
"""

from __future__ import annotations

import hashlib
import logging
from collections.abc import Mapping
from typing import TYPE_CHECKING, Any

import discord

from bot.asyncplay import absence, quiet
from bot.i18n import t
from bot.settings import GameSettings
from bot.store import GameRow, StoreError
from bot.store.kinds import AnyState
from cogs.ui.mine import mine_view
from cogs.ui.text import mentions

if TYPE_CHECKING:
    from cogs.core.ports import CorePort as Core

log = logging.getLogger(__name__)


def game_link(row: GameRow, settings: GameSettings | None = None) -> str:
    """A link to the game's current message (or its channel)."""
    records = (settings if settings is not None else GameSettings.of(row)).records
    message = records.turn_message or records.table_message
    base = f"https://discord.com/channels/{row.guild_id}/{row.channel_id}"
    return f"{base}/{message}" if message else base


async def direct_message(
    core: Core,
    user_id: int,
    text: str,
    *,
    row: GameRow | None = None,
    settings: GameSettings | None = None,
    view: discord.ui.View | None = None,
    prefs: Mapping[str, Any] | None = None,
) -> bool:
    """Send ``text`` to a user privately; False if that is not possible (or put off).

    ``view``: persistent buttons under it (e.g. **📋 Meine Spiele**), clickable in the DM.
    ``prefs``: the member's preferences if the caller has read them already.

    A DM about a game (``row``; ``settings`` if newer than the row's) waits for the end
    of the member's quiet hours if the game honours them: it becomes a ``dm`` timer of
    that game, sent by ``cogs/timers.py`` then (the same text twice is one timer).
    """
    if row is not None:
        game_settings = settings if settings is not None else GameSettings.of(row)
        if prefs is None:
            prefs = await core.store.user_prefs(user_id)
        until = quiet.quiet_until(prefs, core.planner.now())
        if until is not None and game_settings.timing.quiet_hours:
            digest = hashlib.sha256(text.encode()).hexdigest()[:16]
            payload: dict[str, Any] = {"user": user_id, "text": text}
            if view is not None:
                payload["buttons"] = stored_buttons(view)  # the buttons wait with it
            try:
                await core.store.add_timer(
                    row.id, "dm", until, payload, key=f"dm:{user_id}:{digest}"
                )
            except StoreError:
                return False  # the game is over: the news is old
            core.planner.wake()
            return False
    bot = core.bot
    try:
        user = bot.get_user(user_id) or await bot.fetch_user(user_id)
        await user.send(text, view=view)
    except Exception as error:  # noqa: BLE001 - closed DMs, unknown users, Discord down
        log.info("Could not send a DM to %s: %s", user_id, error)
        return False
    return True


def stored_buttons(view: discord.ui.View) -> list[dict[str, Any]]:
    """A view's buttons as JSON (label, emoji, style, custom id), for a DM that waits."""
    found = []
    for row in view.to_components():
        for item in row.get("components", []):
            if item.get("type") == discord.ComponentType.button.value and item.get("custom_id"):
                keep = ("label", "emoji", "style", "custom_id")
                found.append({key: item[key] for key in keep if key in item})
    return found


def buttons_view(buttons: Any) -> discord.ui.View | None:
    """The view of :func:`stored_buttons` again: the same custom ids, so the persistent
    items behind them answer a click as they would have then."""
    if not isinstance(buttons, list) or not buttons:
        return None
    view = discord.ui.View(timeout=None)
    for data in buttons[:25]:
        emoji = data.get("emoji")
        view.add_item(
            discord.ui.Button(
                style=discord.ButtonStyle(data.get("style", 2)),
                label=data.get("label"),
                custom_id=str(data["custom_id"]),
                emoji=discord.PartialEmoji.from_dict(emoji) if isinstance(emoji, dict) else None,
            )
        )
    return view


async def remind(
    core: Core, row: GameRow, channel: Any, seats: list[int], key: str, **params: Any
) -> bool:
    """Mention ``seats`` in the channel and DM those who opted in; False if the post failed.

    ``key`` is the channel text (with ``players`` and ``params``); ``<key>.dm`` the DM.
    """
    state = row.state
    assert state is not None
    lang = GameSettings.of(row).lobby.lang
    text = t(lang, key, players=mentions(state, seats), **params)  # type: ignore[arg-type]
    posted = await core.publisher.send(row.id, channel, "reminder", content=text)
    link = game_link(row)
    for seat in seats:
        if not state.players[seat].id.isdigit():
            continue  # a computer player reads no messages
        user_id = int(state.players[seat].id)
        prefs = await core.store.user_prefs(user_id)
        if not prefs.get("dm"):
            continue
        dm_lang = prefs.get("lang", lang)
        dm = t(dm_lang, f"{key}.dm", channel=f"<#{row.channel_id}>", link=link, **params)
        await direct_message(core, user_id, dm, row=row, view=mine_view(dm_lang), prefs=prefs)
    return posted is not None


async def tell_turn(
    core: Core, row: GameRow, state: AnyState, settings: GameSettings, link: str
) -> None:
    """A direct message to the player whose turn begins, if they asked for one.

    Once per turn and player (``settings.records.turn_told``, saved by the caller), never to a
    computer seat, and not when the game is over or paused.
    """
    seat = state.current
    if state.phase == "over" or settings.play.paused:
        return
    told = f"{state.turn}:{seat}"
    if settings.records.turn_told == told:
        return
    settings.records.turn_told = told
    player = state.players[seat]
    if not player.id.isdigit() or seat in absence.computer_seats(settings):
        return
    prefs = await core.store.user_prefs(int(player.id))
    if not prefs.get("turn_dm"):
        return
    lang = prefs.get("lang", settings.lobby.lang)
    text = t(lang, "notify.turn.dm", channel=f"<#{row.channel_id}>", link=link)
    view = mine_view(lang)
    await direct_message(
        core, int(player.id), text, row=row, settings=settings, view=view, prefs=prefs
    )
