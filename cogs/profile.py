"""``/monopoly me time``: a member's time zone and quiet hours, for every game on every server.

Kept in the member's preferences (``bot/asyncplay/quiet.py``): a deadline that would end
inside the quiet hours of a player the game waits on ends when they are over, and
reminders and direct messages wait for them (as far as each game's host allows with the
settings ``quiet_hours`` and ``quiet_max``). Without options the command shows what is set
and the member's local time, so a wrong zone is easy to see.
"""

from __future__ import annotations

from datetime import datetime

import discord
from discord import app_commands

from bot.asyncplay import quiet
from bot.engine.errors import IllegalAction
from bot.i18n import t
from cogs.core.services import FeatureCog

#: Discord shows at most 25 suggestions.
SUGGESTIONS = 25


class ProfileCog(FeatureCog, name="Profile"):
    """A member's own settings across games: time zone and quiet hours."""

    personal = ("time",)

    @app_commands.command(name="time", description="Your time zone and quiet hours, for all games")
    @app_commands.describe(
        timezone="Your time zone, e.g. Europe/Berlin",
        quiet_from="Quiet hours start (your time), e.g. 22:00",
        quiet_to="Quiet hours end (your time), e.g. 07:00",
        quiet_off="True: no quiet hours",
    )
    async def me(
        self,
        interaction: discord.Interaction,
        timezone: app_commands.Range[str, 1, 64] | None = None,
        quiet_from: app_commands.Range[str, 1, 10] | None = None,
        quiet_to: app_commands.Range[str, 1, 10] | None = None,
        quiet_off: bool | None = None,
    ) -> None:
        """Show or change the member's time zone and quiet hours (answered privately)."""
        click = self.core.dispatcher.command(interaction)
        store = self.core.store
        prefs = dict(await store.user_prefs(interaction.user.id))
        changes: dict[str, object] = {}
        if timezone is not None:
            zone = quiet.check_zone(timezone)
            if zone is None:
                raise IllegalAction("bad_timezone", zone=timezone[:64])
            changes["tz"] = zone
        if quiet_off:
            if quiet_from is not None or quiet_to is not None:
                raise IllegalAction("quiet_both")
            changes["quiet"] = None
        elif quiet_from is not None or quiet_to is not None:
            if quiet_from is None or quiet_to is None:
                raise IllegalAction("quiet_needs_both")
            start, end = quiet.parse_clock(quiet_from), quiet.parse_clock(quiet_to)
            if start is None or end is None:
                bad = quiet_from if start is None else quiet_to
                raise IllegalAction("bad_clock", text=bad[:10])
            if start == end:
                raise IllegalAction("quiet_empty")
            changes["quiet"] = [start, end]
        if changes:
            prefs.update(changes)
            if prefs.get("quiet") is None:
                prefs.pop("quiet", None)
            prefs.setdefault("lang", click.lang)
            await store.set_user_prefs(interaction.user.id, prefs)
        await click.reply(describe(prefs, click.lang, click.core.planner.now(), bool(changes)))

    @me.autocomplete("timezone")
    async def _zones(
        self, interaction: discord.Interaction, current: str
    ) -> list[app_commands.Choice[str]]:
        wanted = current.strip().replace(" ", "_").casefold()
        names = [name for name in quiet.zone_names() if wanted in name.casefold()]
        return [app_commands.Choice(name=name, value=name) for name in names[:SUGGESTIONS]]


def describe(prefs: dict[str, object], lang: str, now: datetime, changed: bool) -> str:
    """What the member has set, with their local time now (so a wrong zone shows)."""
    zone_name, hours = quiet.describe(prefs)
    local = now.astimezone(quiet.zone_of(prefs))
    lines = [t(lang, "me.saved")] if changed else []
    lines.append(t(lang, "me.zone", zone=zone_name, time=local.strftime("%H:%M")))
    lines.append(t(lang, "me.quiet", hours=hours) if hours else t(lang, "me.no_quiet"))
    lines.append(t(lang, "me.hint"))
    return "\n".join(lines)
