"""Time zones and quiet hours move deadlines (bot/asyncplay/quiet.py)."""

from __future__ import annotations

from datetime import UTC, datetime, timedelta

import pytest

from bot.asyncplay import quiet

BERLIN_NIGHTS = {"tz": "Europe/Berlin", "quiet": [22 * 60, 7 * 60]}
NEW_YORK_NIGHTS = {"tz": "America/New_York", "quiet": [23 * 60, 8 * 60]}


def utc(day: int, hour: int, minute: int = 0) -> datetime:
    return datetime(2026, 1, day, hour, minute, tzinfo=UTC)


@pytest.mark.parametrize(
    ("text", "minutes"),
    [("22", 1320), ("22:30", 1350), ("7.30", 450), ("0700", 420), ("24:00", 0), ("7h", 420)],
)
def test_clock_times_as_members_type_them(text: str, minutes: int) -> None:
    assert quiet.parse_clock(text) == minutes


@pytest.mark.parametrize("text", ["", "25:00", "12:60", "abc", "-1", "7:3x"])
def test_what_is_no_clock_time(text: str) -> None:
    assert quiet.parse_clock(text) is None


def test_zone_names_are_found_in_any_case() -> None:
    assert quiet.check_zone("europe/berlin") == "Europe/Berlin"
    assert quiet.check_zone("America/New York") == "America/New_York"
    assert quiet.check_zone("Mars/Olympus") is None


def test_a_night_across_midnight_in_berlin() -> None:
    """22:00–07:00 Berlin is 21:00–06:00 UTC in winter."""
    assert quiet.quiet_until(BERLIN_NIGHTS, utc(10, 20, 59)) is None
    assert quiet.quiet_until(BERLIN_NIGHTS, utc(10, 21, 0)) == utc(11, 6)
    assert quiet.quiet_until(BERLIN_NIGHTS, utc(11, 3)) == utc(11, 6)
    assert quiet.quiet_until(BERLIN_NIGHTS, utc(11, 6)) is None


def test_summer_time_is_followed() -> None:
    """In July Berlin is UTC+2: the night ends at 05:00 UTC."""
    july = datetime(2026, 7, 1, 1, tzinfo=UTC)
    assert quiet.quiet_until(BERLIN_NIGHTS, july) == datetime(2026, 7, 1, 5, tzinfo=UTC)


def test_a_deadline_waits_for_every_waiting_players_morning() -> None:
    """03:00 UTC is night in Berlin (until 06:00 UTC); at 06:00 UTC it is night in New
    York (01:00, until 08:00 there = 13:00 UTC): the deadline ends when both are awake."""
    moved = quiet.moved_deadline(utc(11, 3), [BERLIN_NIGHTS, NEW_YORK_NIGHTS], None)
    assert moved == utc(11, 13)


def test_the_host_caps_the_move() -> None:
    """05:00 UTC is midnight in New York, quiet until 13:00 UTC; the host allows 4 hours."""
    assert quiet.moved_deadline(utc(11, 5), [NEW_YORK_NIGHTS], None) == utc(11, 13)
    moved = quiet.moved_deadline(utc(11, 5), [NEW_YORK_NIGHTS], 4 * 3600)
    assert moved == utc(11, 5) + timedelta(hours=4)


def test_no_quiet_hours_no_move() -> None:
    assert quiet.moved_deadline(utc(11, 3), [{}, {"tz": "Asia/Tokyo"}], None) == utc(11, 3)


def test_quiet_hours_that_cover_the_day_end_the_search() -> None:
    """Two members whose nights cover the whole day together: the search stops."""
    early = {"tz": "UTC", "quiet": [0, 12 * 60]}
    late = {"tz": "UTC", "quiet": [12 * 60, 0]}
    moved = quiet.awake_at([early, late], utc(11, 3))
    assert moved >= utc(11, 3)


def test_bad_preferences_count_as_none() -> None:
    assert quiet.window({"quiet": [5, 5]}) is None
    assert quiet.window({"quiet": ["22:00", "07:00"]}) is None
    assert quiet.zone_of({"tz": "Nowhere/Else"}) == UTC
