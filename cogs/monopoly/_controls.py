"""Commands for games that run for days: settings, pause/resume, remind, notify.

The command declarations live on the cog (``_cog.py``); what they do is here.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

import discord

from bot.engine.rules import Rules
from bot.i18n import t
from bot.store import GameRow
from cogs.monopoly import _absence
from cogs.monopoly._deadlines import waiting_for
from cogs.monopoly._house_rules import refresh_lobby
from cogs.monopoly._timing import describe, duration, label
from cogs.monopoly._widgets import lang_of, reply

if TYPE_CHECKING:
    from cogs.monopoly._cog import MonopolyCog

#: The time settings a card game has (no auctions, trades or time limit there).
CARD_SETTINGS = ("deadline", "reminders", "missed_limit", "digest")
#: Seconds between two ``/monopoly remind`` of a game (shorter if the deadline is).
REMIND_INTERVAL = 3600


def _rules(row: GameRow) -> Rules:
    if row.state is not None:
        return row.state.rules
    return Rules.from_preset(row.settings["preset"], **row.settings.get("overrides", {}))


def settings_lines(row: GameRow, lang: str) -> list[str]:
    """The time settings and the auction mode of a game, one line each."""
    if row.settings.get("game") == "cards":
        return describe(dict(row.settings), lang, time_limit=False, names=CARD_SETTINGS)
    rules = _rules(row)
    lines = describe(dict(row.settings), lang, time_limit=rules.end_at_deadline)
    mode = "sealed" if getattr(rules, "sealed_auctions", False) else "live"
    lines.append(t(lang, "timing.auction_mode", value=t(lang, f"timing.mode.{mode}")))
    if row.settings.get("ends_at"):
        lines.append(t(lang, "timing.ends_at", when=f"<t:{row.settings['ends_at']}:f>"))
    if row.settings.get("paused"):
        lines.append(t(lang, "timing.paused"))
    return lines


async def change_settings(
    cog: MonopolyCog, interaction: discord.Interaction, changes: dict[str, Any]
) -> None:
    """``/monopoly settings``: show the settings, or (host) change them."""
    lang = lang_of(interaction)
    row = await cog._game_here(interaction)
    if row is None:
        return
    cards = row.settings.get("game") == "cards"
    if cards and set(changes) - set(CARD_SETTINGS):
        await reply(interaction, t(lang, "error.board_only"))
        return
    if not changes:
        await reply(interaction, "\n".join(settings_lines(row, lang)))
        return
    if not cog._may_host(interaction, row):
        await reply(interaction, t(lang, "error.host_only"))
        return
    mode = changes.pop("auction_mode", None)
    if mode is not None and row.state is not None:
        await reply(interaction, t(lang, "error.auction_mode_fixed"))
        return
    async with cog.service.lock(row.id):
        row = await cog.service.store.load(row.id)
        settings = dict(row.settings)
        settings.update(changes)
        if mode is not None:
            overrides = {**settings.get("overrides", {}), "sealed_auctions": mode == "sealed"}
            Rules.from_preset(settings["preset"], **overrides)  # a known field: cannot fail
            settings["overrides"] = overrides
        if row.state is not None:
            if "time_limit" in changes:
                await cog.deadlines.time_limit_changed(row.id, settings)
            if "digest" in changes and not settings.get("paused"):
                await cog.deadlines.plan_digest(row.id, settings)
        await cog.service.store.set_settings(row.id, settings)
    if row.state is not None:
        await cog.deadlines.reschedule(row.id, row.state, settings)
    elif row.state is None:
        await refresh_lobby(interaction, row.id, settings)
    game_lang = settings.get("lang", "de")
    changed = [
        t(game_lang, f"timing.{name}", value=label(game_lang, name, value))
        for name, value in changes.items()
    ]
    if mode is not None:
        changed.append(
            t(game_lang, "timing.auction_mode", value=t(game_lang, f"timing.mode.{mode}"))
        )
    text = t(game_lang, "timing.changed", host=interaction.user.display_name)
    await interaction.response.send_message(text + "\n" + "\n".join(changed))


async def pause(cog: MonopolyCog, interaction: discord.Interaction, paused: bool) -> None:
    """``/monopoly pause`` and ``resume`` (host): no timers, no moves while paused."""
    lang = lang_of(interaction)
    row = await cog._running_here(interaction, cards=True)
    if row is None:
        return
    if not cog._may_host(interaction, row):
        await reply(interaction, t(lang, "error.host_only"))
        return
    async with cog.service.lock(row.id):
        row = await cog.service.store.load(row.id)
        state = row.state
        assert state is not None
        settings = dict(row.settings)
        if bool(settings.get("paused")) == paused:
            await reply(interaction, t(lang, "pause.already" if paused else "pause.not_paused"))
            return
        now = cog.deadlines.now()
        if paused:
            settings["paused"] = True
            settings["paused_at"] = int(now.timestamp())
            await cog.deadlines.pause(row.id, settings)
        else:
            settings.pop("paused")
            shift = int(now.timestamp()) - settings.pop("paused_at", int(now.timestamp()))
            if "started_at" in settings:
                settings["started_at"] += shift
            await cog.deadlines.resume(row.id, state, settings)
        await cog.service.store.set_settings(row.id, settings)
    game_lang = settings.get("lang", "de")
    key = "pause.paused" if paused else "pause.resumed"
    await interaction.response.send_message(t(game_lang, key, host=interaction.user.display_name))


async def remind(cog: MonopolyCog, interaction: discord.Interaction) -> None:
    """``/monopoly remind``: nudge the players the game waits on (rate-limited)."""
    lang = lang_of(interaction)
    row = await cog._running_here(interaction, cards=True)
    if row is None:
        return
    state = row.state
    assert state is not None
    me = cog.service.seat_of(state, interaction.user.id)
    if me is None:
        await reply(interaction, t(lang, "error.not_a_player"))
        return
    if row.settings.get("paused"):
        await reply(interaction, t(lang, "error.game_paused"))
        return
    computer = _absence.computer_seats(dict(row.settings))
    waiting = [s for s in waiting_for(state) if s not in computer and s != me]  # either game
    if not waiting:
        await reply(interaction, t(lang, "remind.nobody"))
        return
    now = cog.deadlines.now()
    async with cog.service.lock(row.id):
        fresh = await cog.service.store.load(row.id)
        settings = dict(fresh.settings)
        interval = min(REMIND_INTERVAL, (duration(settings, "deadline") or REMIND_INTERVAL * 2) / 2)
        last = settings.get("last_remind", 0)
        if now.timestamp() - last < interval:
            again = f"<t:{int(last + interval)}:R>"
            await reply(interaction, t(lang, "error.remind_too_soon", again=again))
            return
        settings["last_remind"] = int(now.timestamp())
        await cog.service.store.set_settings(row.id, settings)
    await reply(interaction, t(lang, "remind.sent"))
    await cog.deadlines.remind(fresh, waiting, "remind.text", by=state.players[me].name)


async def notify(
    cog: MonopolyCog, interaction: discord.Interaction, enabled: bool, turns: bool | None = None
) -> None:
    """``/monopoly notify``: reminders (and, with ``turns``, each new turn) by direct message.

    ``turns`` left out keeps the earlier choice; turning ``enabled`` off stops both.
    """
    lang = lang_of(interaction)
    store = cog.service.store
    prefs = await store.user_prefs(interaction.user.id)
    turn_dm = bool(prefs.get("turn_dm")) if turns is None else turns
    turn_dm = turn_dm and enabled
    changed = {**prefs, "dm": enabled, "turn_dm": turn_dm, "lang": lang}
    await store.set_user_prefs(interaction.user.id, changed)
    text = t(lang, "notify.on" if enabled else "notify.off")
    if enabled:
        text += "\n" + t(lang, "notify.turns_on" if turn_dm else "notify.turns_off")
    await reply(interaction, text)
