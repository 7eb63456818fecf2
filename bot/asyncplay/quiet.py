"""A member's time zone and quiet hours, and what they do to a game's deadlines.

Each member may set a time zone (an IANA name such as ``Europe/Berlin``) and quiet hours
(a daily window of local time, e.g. 22:00–07:00) with ``/monopoly me``; they are kept in
the member's preferences (``tz`` and ``quiet``: ``[start, end]`` in minutes after
midnight), so they hold for every game on every server. A deadline that would end inside
the quiet hours of a player the game waits on ends when those hours are over, and
reminders and direct messages wait for them too. The host decides how far this goes with
two game settings (``bot/asyncplay/timing.py``): ``quiet_hours`` (honoured or not) and
``quiet_max`` (the longest a deadline may be moved).

Pure: the clock and the preferences are the caller's.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from datetime import UTC, datetime, time, timedelta, tzinfo
from functools import cache
from typing import Any
from zoneinfo import ZoneInfo, ZoneInfoNotFoundError, available_timezones

#: Minutes in a day: quiet hours are two points of a day's clock.
DAY_MINUTES = 24 * 60
#: How often moving a deadline is tried when several players' quiet hours chain.
MAX_MOVES = 8


@cache
def zone_names() -> tuple[str, ...]:
    """Every time zone a member may choose (IANA names), sorted."""
    return tuple(sorted(name for name in available_timezones() if "/" in name or name == "UTC"))


def check_zone(name: object) -> str | None:
    """``name`` as a known time zone name (any case), or None if there is none such."""
    if not isinstance(name, str) or not 0 < len(name) <= 64:
        return None
    wanted = name.strip().replace(" ", "_").casefold()
    return next((zone for zone in zone_names() if zone.casefold() == wanted), None)


def parse_clock(text: object) -> int | None:
    """Minutes after midnight of a clock time as members type it (``22``, ``22:30``,
    ``7.30``, ``0700``), or None if it is none."""
    if not isinstance(text, str):
        return None
    raw = text.strip().replace(".", ":").replace("h", ":").rstrip(":")
    if raw.isdigit() and len(raw) in (3, 4):
        raw = f"{raw[:-2]}:{raw[-2:]}"
    hours, _, minutes = raw.partition(":")
    if not hours.isdigit() or (minutes and not minutes.isdigit()):
        return None
    hour, minute = int(hours), int(minutes or 0)
    if hour == 24 and minute == 0:
        return 0
    if not (0 <= hour < 24 and 0 <= minute < 60):
        return None
    return hour * 60 + minute


def clock(minutes: int) -> str:
    """``22:00`` for 1320 minutes after midnight."""
    return f"{minutes // 60:02d}:{minutes % 60:02d}"


def zone_of(prefs: Mapping[str, Any]) -> tzinfo:
    """The member's time zone (UTC if they chose none, or one this machine does not know)."""
    name = prefs.get("tz")
    if isinstance(name, str):
        try:
            return ZoneInfo(name)
        except (ZoneInfoNotFoundError, ValueError):
            pass
    return UTC


def window(prefs: Mapping[str, Any]) -> tuple[int, int] | None:
    """The member's quiet hours as ``(start, end)`` minutes of local time, or None."""
    value = prefs.get("quiet")
    if not isinstance(value, list | tuple) or len(value) != 2:
        return None
    start, end = value
    if not all(type(v) is int and 0 <= v < DAY_MINUTES for v in (start, end)) or start == end:
        return None
    return start, end


def quiet_until(prefs: Mapping[str, Any], at: datetime) -> datetime | None:
    """When the member's quiet hours that contain ``at`` end (UTC), or None if ``at`` is
    outside them. Windows may span midnight (22:00–07:00)."""
    hours = window(prefs)
    if hours is None:
        return None
    start, end = hours
    zone = zone_of(prefs)
    local = at.astimezone(zone)
    minute = local.hour * 60 + local.minute
    if start < end:
        inside, next_day = start <= minute < end, False
    else:
        inside, next_day = minute >= start or minute < end, minute >= start
    if not inside:
        return None
    day = local.date() + timedelta(days=1 if next_day else 0)
    ends = datetime.combine(day, time(end // 60, end % 60), tzinfo=zone)
    return ends.astimezone(UTC)


def is_quiet(prefs: Mapping[str, Any], at: datetime) -> bool:
    """Whether ``at`` lies in the member's quiet hours."""
    return quiet_until(prefs, at) is not None


def awake_at(members: Iterable[Mapping[str, Any]], at: datetime) -> datetime:
    """The first moment from ``at`` on when none of ``members`` is in quiet hours.

    Quiet hours of several members may chain (one's end is inside another's), so the
    moment is moved until it is free of all, at most :data:`MAX_MOVES` times; members
    whose quiet hours together cover the whole day leave the last moment found.
    """
    prefs = list(members)
    moment = at
    for _ in range(MAX_MOVES):
        ends = [end for end in (quiet_until(p, moment) for p in prefs) if end is not None]
        if not ends:
            return moment
        moment = max(ends)
    return moment


def moved_deadline(
    deadline: datetime,
    members: Iterable[Mapping[str, Any]],
    longest: float | None,
    *,
    grace: float = 0.0,
) -> datetime:
    """``deadline`` moved out of the quiet hours of ``members``, at most ``longest``
    seconds later (None: no cap).

    A moved deadline ends ``grace`` seconds after the quiet hours: whoever wakes up gets
    the last reminder and a moment to move, not a deadline that passed as they woke.
    """
    moved = awake_at(members, deadline)
    if moved != deadline:
        moved += timedelta(seconds=grace)
    if longest is not None:
        moved = min(moved, deadline + timedelta(seconds=longest))
    return moved


def describe(prefs: Mapping[str, Any]) -> tuple[str, str | None]:
    """The member's time zone name and quiet hours as ``22:00–07:00`` (or None)."""
    hours = window(prefs)
    name = prefs.get("tz") if isinstance(prefs.get("tz"), str) else "UTC"
    return str(name), None if hours is None else f"{clock(hours[0])}–{clock(hours[1])}"
