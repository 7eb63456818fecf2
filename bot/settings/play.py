"""What asynchronous play keeps in a game's settings: deadlines, absence, pause, hand-overs.

Owned by :mod:`bot.asyncplay` (and the cogs that show it): the planner records the
deadline and closing times it set, the absence rules count missed deadlines, votes and
computer seats, a pause remembers its timers, standing orders and hand-over requests live
here. Seats are keys as text (``"0"``, ``"1"``), as JSON objects have them. A missing key
reads as "none yet" (an empty collection, None, 0), which is what games stored before the
key existed mean.
"""

from __future__ import annotations

from typing import Any

from bot.settings.keys import Key, Section, none


class AsyncPlay(Section):
    """The keys of play over days (see the module docstring)."""

    __slots__ = ()

    #: The move's deadline as set (a Unix time, moved out of quiet hours), for messages.
    deadline_at = Key[int | None]("deadline_at", none)
    #: The seats whose quiet hours moved the deadline.
    deadline_quiet = Key[list[int]]("deadline_quiet", list)
    #: The last deadline handled: ``{"key", "excused", "defaulted"}`` (fires once).
    deadline_done = Key[dict[str, Any] | None]("deadline_done", none)
    #: Missed deadlines in a row by seat.
    missed = Key[dict[str, int]]("missed", dict)
    #: The state a missed deadline was last counted for (counted once per state).
    missed_seq = Key[int | None]("missed_seq", none)
    #: When the game was paused (a Unix time) and what its lasting timers had left.
    paused_at = Key[float | None]("paused_at", none)
    paused_timers = Key[list[dict[str, Any]]]("paused_timers", list)
    #: Jokers spent by seat.
    jokers_used = Key[dict[str, int]]("jokers_used", dict)
    #: Standing orders by seat (``bot/asyncplay/orders.py``).
    orders = Key[dict[str, dict[str, Any]]]("orders", dict)
    #: The state the timers were planned for (checked by the reconciler).
    planned_seq = Key[int | None]("planned_seq", none)
    #: When ``/monopoly remind`` was last used (a Unix time; 0: never).
    last_remind = Key[float]("last_remind", lambda: 0)
    #: A time-limited game's start and end (Unix times).
    started_at = Key[int | None]("started_at", none)
    ends_at = Key[int | None]("ends_at", none)
    #: Closing times of trade offers by trade id, and of the auction under way.
    trade_closes = Key[dict[str, int]]("trade_closes", dict)
    auction_closes_at = Key[int | None]("auction_closes_at", none)
    #: Open votes on absent seats: ``{seat: {"message", "ballots"}}``.
    votes = Key[dict[str, dict[str, Any]]]("votes", dict)
    #: The seats the computer plays and why (``seat``, ``vacation``, ``vote``).
    computer = Key[dict[str, str]]("computer", dict)
    #: The level of each computer player seated in the lobby.
    computer_level = Key[dict[str, str]]("computer_level", dict)
    #: Open hand-over requests by seat, the next request's number, and those done.
    handover_requests = Key[dict[str, dict[str, Any]]]("handover_requests", dict)
    handover_next = Key[int]("handover_next", lambda: 1)
    handovers = Key[list[dict[str, Any]]]("handovers", list)
    #: What a timer already did, so that it does it once when it fires again: the last
    #: reminder (``"{kind}:{seq}:{deadline}"``) and the day of the last digest.
    reminded = Key[str | None]("reminded", none)
    digest_day = Key[str | None]("digest_day", none)

    def first_time(self, key: Key[str | None], value: str) -> bool:
        """Record ``value`` under ``key`` (:attr:`reminded`, :attr:`digest_day`); False if
        it was recorded already (a timer that fires again does nothing twice)."""
        if self.data.get(key.name) == value:
            return False
        self.data[key.name] = value
        return True

    @property
    def paused(self) -> bool:
        """Whether the host paused the game (no timers fire, moves are refused)."""
        return bool(self.data.get("paused"))

    @paused.setter
    def paused(self, value: bool) -> None:
        # Stored only while paused, as it always was.
        if value:
            self.data["paused"] = True
        else:
            self.data.pop("paused", None)

    @property
    def time_limited(self) -> bool:
        """Whether the game recorded its start for an agreed end (a time-limited game)."""
        return self.has(AsyncPlay.started_at)

    EXTRA_KEYS = ("paused",)
