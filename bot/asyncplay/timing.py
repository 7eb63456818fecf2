"""The time settings of a game: turn deadline, reminders, offer durations, digest, end.

They live in the game's settings (chosen in the lobby, changed by the host with
``/monopoly settings`` at any time) and only steer the bot's timers: the rules
engine never reads a clock. Missing keys take :data:`DEFAULTS`, so games created
before a setting existed behave as they did. The settings themselves, their defaults and
durations are the typed section :class:`bot.settings.TimeSettings` (re-exported here);
this module is what the bot makes of them.
"""

from __future__ import annotations

from datetime import datetime, timedelta
from typing import Any

from bot.i18n import t
from bot.settings import GameSettings
from bot.settings.timing import DEFAULTS, DURATIONS, NEW_GAME, TIME_SETTINGS

__all__ = [
    "DEADLINE_CHOICES",
    "DEFAULTS",
    "DIGEST_CHOICES",
    "DURATIONS",
    "GAME_LENGTH_CHOICES",
    "JOKERS_MAX",
    "MISSED_LIMIT_MAX",
    "NEW_GAME",
    "OFFER_CHOICES",
    "QUIET_MAX_CHOICES",
    "TIME_SETTINGS",
    "describe",
    "label",
    "next_digest",
    "soon_before",
]

#: The choices of each setting, as offered by ``/monopoly settings``.
DEADLINE_CHOICES = ("off", "5m", "1h", "12h", "24h", "48h", "72h")
#: ``auto``: as long as the turn deadline (no closing time without one).
OFFER_CHOICES = ("auto", "off", "5m", "1h", "12h", "24h", "48h")
GAME_LENGTH_CHOICES = ("1h", "2h", "4h", "24h", "72h", "7d")
#: Hours (UTC) a daily digest may be posted at.
DIGEST_CHOICES = ("off", "6", "8", "12", "18", "20")
MISSED_LIMIT_MAX = 10
#: The longest a deadline may be moved out of a player's quiet hours.
QUIET_MAX_CHOICES = ("1h", "4h", "12h", "24h")
#: Most jokers (excused missed deadlines) a game may give each player.
JOKERS_MAX = 5


def soon_before(seconds: float) -> float:
    """How long before a deadline the second reminder comes: a tenth, at most an hour."""
    return min(3600.0, seconds / 10)


def next_digest(now: datetime, hour: int) -> datetime:
    """The next time it is ``hour`` o'clock UTC after ``now``."""
    today = now.replace(hour=hour, minute=0, second=0, microsecond=0)
    return today if today > now else today + timedelta(days=1)


def label(lang: str, name: str, value: Any) -> str:
    """A setting's value as players read it."""
    if isinstance(value, bool):
        return t(lang, "timing.yes" if value else "timing.no")
    if name == "missed_limit":
        return t(lang, "timing.never") if value == 0 else str(value)
    if name == "jokers":
        return t(lang, "timing.off") if value == 0 else str(value)
    if name == "digest":
        return t(lang, "timing.off") if value == "off" else f"{int(value):02d}:00 UTC"
    if value == "auto":
        return t(lang, "timing.auto")
    if value == "off":
        return t(lang, "timing.off")
    return t(lang, f"duration.{value}")


def describe(
    settings: GameSettings,
    lang: str,
    *,
    time_limit: bool,
    names: tuple[str, ...] = TIME_SETTINGS,
) -> list[str]:
    """One line per time setting in ``names`` (the game's end only for presets with one)."""
    lines = []
    for name in names:
        if name == "time_limit" and not time_limit:
            continue
        value = label(lang, name, settings.timing.value(name))
        lines.append(t(lang, f"timing.{name}", value=value))
    return lines
