"""The time settings of a game: turn deadline, reminders, offer durations, digest, end.

They live in the game's settings (chosen in the lobby, changed by the host with
``/monopoly settings`` at any time) and only steer the bot's timers: the rules
engine never reads a clock. Missing keys take :data:`DEFAULTS`, so games created
before a setting existed behave as they did.
"""

from __future__ import annotations

from datetime import datetime, timedelta
from typing import Any

from bot.i18n import t

#: Every duration a setting may name, in seconds.
DURATIONS: dict[str, int] = {
    "1m": 60,
    "5m": 5 * 60,
    "15m": 15 * 60,
    "1h": 3600,
    "2h": 2 * 3600,
    "4h": 4 * 3600,
    "12h": 12 * 3600,
    "24h": 24 * 3600,
    "48h": 48 * 3600,
    "72h": 72 * 3600,
    "7d": 7 * 24 * 3600,
}
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

DEFAULTS: dict[str, Any] = {
    "deadline": "off",
    "reminders": True,
    "auction_time": "auto",
    "trade_time": "auto",
    # Missed deadlines in a row before the others vote on the seat (0: never).
    "missed_limit": 3,
    "digest": "off",
    # 000 leaves the length to the players ("legen Sie gemeinsam fest"); two hours
    # is one evening's game, and the host changes it in the lobby.
    "time_limit": "2h",
    # Players' quiet hours (/monopoly me) move deadlines, at most by quiet_max.
    "quiet_hours": True,
    "quiet_max": "12h",
    # Jokers per player: a missed deadline spends one and is extended instead of played
    # safe. 0 for games stored before jokers existed (they behave as they did); a new
    # lobby starts with NEW_GAME's.
    "jokers": 0,
}
#: What a new lobby starts with where it differs from DEFAULTS (the host changes it).
NEW_GAME: dict[str, Any] = {"jokers": 2}
#: The settings ``/monopoly settings`` changes, in the order they are shown.
TIME_SETTINGS = tuple(DEFAULTS)


def setting(settings: dict[str, Any], name: str) -> Any:
    """The game's value of a time setting (its default if never chosen)."""
    return settings.get(name, DEFAULTS[name])


def duration(settings: dict[str, Any], name: str) -> int | None:
    """Seconds of a duration setting (``auto`` follows the turn deadline); None: off."""
    value = setting(settings, name)
    if value == "auto":
        value = setting(settings, "deadline")
    return DURATIONS.get(value)


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
    settings: dict[str, Any],
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
        value = label(lang, name, setting(settings, name))
        lines.append(t(lang, f"timing.{name}", value=value))
    return lines
