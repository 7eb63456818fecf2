"""A simulated week of games played over days: how often does the safe default play?

``monopoly-bot bench --week`` plays tables of members who look at the game only a few
times a day, in two time zones, some of them often away, with a turn deadline, twice:

* **before** — no quiet hours, no jokers, no standing orders (the bot as it was);
* **after** — each member's quiet hours move deadlines (capped as the game setting
  ``quiet_max`` says), two jokers per player, and standing orders (buy if 200 are left,
  bid up to the list price, pay the bail, end the turn when nothing is left to do).

It counts the decisions the safe default made for an absent player, the jokers spent and
the decisions orders took, per table and in all. The members' own decisions come from the
built-in computer player (``strong``): what matters here is *when* they decide, not what.
A member is "online" for half an hour from each look at the game and decides at once
while online; away, the game waits until their next look or the deadline.

This is a model, not the bot: it uses the engine, the deadline rules of
:mod:`bot.asyncplay.quiet`, :mod:`bot.asyncplay.absence` (jokers) and
:mod:`bot.asyncplay.orders`, and a seeded random generator for the members' habits. The
same seed gives the same week.
"""

from __future__ import annotations

import random
from dataclasses import dataclass, field
from datetime import UTC, datetime, timedelta
from typing import Any

from bot.asyncplay import absence, orders, quiet
from bot.engine.computer import make_player, next_action
from bot.engine.defaults import default_action
from bot.engine.game import apply_action, new_game
from bot.engine.legal import waiting_for
from bot.engine.state import GameState
from bot.settings import GameSettings

#: simcord's and the bench's start: a Monday at midnight UTC.
WEEK_START = datetime(2026, 1, 5, tzinfo=UTC)
WEEK = timedelta(days=7)
#: Local times (hours) at which members look at the game, if they do that day.
LOOKS = (7.5, 12.5, 18.0, 21.5)
ONLINE = timedelta(minutes=30)
ZONES = ("Europe/Berlin", "America/New_York")
QUIET = [23 * 60, 7 * 60]
#: Tables the bench plays.
WEEK_TABLES = 4
#: Decisions one default run may take for a seat (a whole turn needs few).
MAX_STEPS = 40


@dataclass
class Member:
    """A member's habits: their zone and how likely they look at the game each time."""

    seat: int
    zone: str
    attendance: float
    online_until: datetime = WEEK_START

    @property
    def prefs(self) -> dict[str, Any]:
        """The member's preferences as ``/monopoly me time`` stores them."""
        return {"tz": self.zone, "quiet": list(QUIET)}


@dataclass
class TableResult:
    """What one table's week came to."""

    decisions: int = 0
    #: Deadlines at which the safe default played, and the decisions it made there.
    deadlines: int = 0
    defaults: int = 0
    jokers: int = 0
    by_order: int = 0
    turns: int = 0
    finished: bool = False


@dataclass
class WeekResult:
    """Every table's result, before or after."""

    mode: str
    tables: list[TableResult] = field(default_factory=list)

    def total(self, name: str) -> int:
        """The sum of one count over all tables."""
        return sum(int(getattr(table, name)) for table in self.tables)


def _looks(member: Member, start: datetime, rng: random.Random) -> list[datetime]:
    """When ``member`` looks at the game during the week (UTC, sorted)."""
    zone = quiet.zone_of(member.prefs)
    found = []
    for day in range(8):
        local = (start + timedelta(days=day)).astimezone(zone).date()
        for hour in LOOKS:
            if rng.random() < member.attendance:
                minute = int(hour * 60 + rng.uniform(-40, 40))
                moment = datetime(local.year, local.month, local.day, tzinfo=zone)
                found.append((moment + timedelta(minutes=minute)).astimezone(UTC))
    return sorted(found)


def _next_look(looks: list[datetime], now: datetime) -> datetime | None:
    return next((moment for moment in looks if moment >= now), None)


def _standing_orders(settings: GameSettings, seats: int) -> None:
    for seat in range(seats):
        order = {"buy": {"keep": 200}, "jail": "pay", "auto_end": True}
        orders.set_order(settings, seat, orders.with_bid(order, "any", None))


def play_table(
    number: int, *, after: bool, seed: int, players: int = 4, deadline_hours: float = 12
) -> TableResult:
    """One table's week; ``after`` switches quiet hours, jokers and orders on."""
    rng = random.Random(seed * 1009 + number)
    names = [(f"m{number}-{seat}", f"Member {seat + 1}") for seat in range(players)]
    state: GameState = new_game(names, seed=seed * 7919 + number)
    members = [
        Member(seat, ZONES[seat % len(ZONES)], 0.15 if seat == players - 1 else 0.55)
        for seat in range(players)
    ]
    looks = {m.seat: _looks(m, WEEK_START, rng) for m in members}
    settings = GameSettings()
    settings.timing.choose({"jokers": 2 if after else 0})
    if after:
        _standing_orders(settings, players)
    deadline = timedelta(hours=deadline_hours)
    deciders = {seat: make_player("strong") for seat in range(players)}
    result = TableResult()
    now = WEEK_START
    end = WEEK_START + WEEK
    while now < end and state.phase != "over":
        waiting = waiting_for(state)
        if not waiting:
            break
        seat = waiting[0]
        member = members[seat]
        if after:
            ordered = orders.order_action(state, settings, seat)
            if ordered is not None:
                apply_action(state, ordered)
                result.by_order += 1
                result.decisions += 1
                continue
        if now < member.online_until:
            _decide(state, seat, deciders, result)
            continue
        due = now + deadline
        if after:
            due = quiet.moved_deadline(due, [member.prefs], 12 * 3600, grace=3600)
        while True:
            look = _next_look(looks[seat], now)
            if look is not None and look <= due:
                now = look
                member.online_until = look + ONLINE
                _decide(state, seat, deciders, result)
                break
            excused, _ = absence.spend_jokers(settings, [seat])
            if excused:
                result.jokers += 1
                due = due + deadline
                continue
            now = due
            _play_safe(state, seat, result)
            break
    result.turns = state.turn
    result.finished = state.phase == "over"
    return result


def _decide(state: GameState, seat: int, deciders: dict[int, Any], result: TableResult) -> None:
    action = next_action(state, {seat: deciders[seat]})
    if action is None:
        action = default_action(state, seat)
    if action is None:
        raise RuntimeError("a waiting seat has nothing to do")
    apply_action(state, action)
    result.decisions += 1


def _play_safe(state: GameState, seat: int, result: TableResult) -> None:
    result.deadlines += 1
    for _ in range(MAX_STEPS):
        if seat not in waiting_for(state) or state.phase == "over":
            return
        action = default_action(state, seat)
        if action is None:
            return
        apply_action(state, action)
        result.defaults += 1
        result.decisions += 1


def simulate_week(tables: int = 4, seed: int = 0) -> tuple[WeekResult, WeekResult]:
    """The week of ``tables`` tables before and after (see the module docstring)."""
    before = WeekResult("before", [play_table(n, after=False, seed=seed) for n in range(tables)])
    after = WeekResult("after", [play_table(n, after=True, seed=seed) for n in range(tables)])
    return before, after


def report(before: WeekResult, after: WeekResult) -> list[str]:
    """The bench's lines: per mode the deadlines the default played, jokers, orders, turns."""
    lines = []
    for result in (before, after):
        lines.append(
            f"{result.mode:>6}: the safe default played at {result.total('deadlines')} "
            f"deadlines ({result.total('defaults')} of {result.total('decisions')} "
            f"decisions); {result.total('jokers')} jokers spent; "
            f"{result.total('by_order')} decisions by standing orders; "
            f"{result.total('turns')} turns in the week"
        )
    return lines
