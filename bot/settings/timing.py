"""The time settings of a game (owned by asynchronous play): deadline, reminders, digest, ….

Chosen in the lobby and changed by the host with ``/monopoly settings`` at any time; they
only steer the bot's timers (the rules engine never reads a clock). Missing keys take
:data:`DEFAULTS`, so games created before a setting existed behave as they did; a new
lobby starts with :data:`NEW_GAME` where that differs. What the settings mean for the
timers is :mod:`bot.asyncplay.timing` and :mod:`bot.asyncplay.planner`.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from bot.settings.keys import Section

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
#: The settings that name a duration (``auto`` follows the turn deadline).
DURATION_SETTINGS = ("deadline", "auction_time", "trade_time")


class TimeSettings(Section):
    """The game's time settings; each reads its default (:data:`DEFAULTS`) if never chosen.

    The host's command names them by their public names (``/monopoly settings
    deadline:…``), so :meth:`value` and :meth:`choose` take a name of :data:`TIME_SETTINGS`
    (another name is a caller's bug: ``KeyError``); the code reads the properties.
    """

    __slots__ = ()
    EXTRA_KEYS = TIME_SETTINGS

    def value(self, name: str) -> Any:
        """The game's value of the time setting ``name`` (its default if never chosen)."""
        default = DEFAULTS[name]  # a name that is no time setting fails here
        return self.data.get(name, default)

    def choose(self, changes: Mapping[str, Any]) -> None:
        """Store the host's choices (``{name: value}``, names of :data:`TIME_SETTINGS`)."""
        for name, value in changes.items():
            DEFAULTS[name]  # noqa: B018 - a name that is no time setting fails here
            self.data[name] = value

    def start_new_game(self, deadline: str) -> None:
        """A new lobby's choices: its ``deadline`` and :data:`NEW_GAME`."""
        self.data["deadline"] = deadline
        for name, value in NEW_GAME.items():
            self.data[name] = value

    def seconds(self, name: str) -> int | None:
        """Seconds of a duration setting (``auto`` follows the turn deadline); None: off."""
        if name not in DURATION_SETTINGS:
            raise KeyError(name)
        value = self.value(name)
        if value == "auto":
            value = self.value("deadline")
        return DURATIONS.get(value)

    @property
    def deadline(self) -> str:
        """The time for each move (``off`` or a key of :data:`DURATIONS`)."""
        return str(self.value("deadline"))

    @property
    def deadline_seconds(self) -> int | None:
        """Seconds for each move; None: no deadline."""
        return self.seconds("deadline")

    @property
    def auction_seconds(self) -> int | None:
        """Seconds an auction stays open; None: no closing time."""
        return self.seconds("auction_time")

    @property
    def trade_seconds(self) -> int | None:
        """Seconds a trade offer stays open; None: no closing time."""
        return self.seconds("trade_time")

    @property
    def reminders(self) -> bool:
        """Whether the players the game waits on are reminded before the deadline."""
        return bool(self.value("reminders"))

    @property
    def missed_limit(self) -> int:
        """Missed deadlines in a row before the table votes on the seat (0: never)."""
        return int(self.value("missed_limit"))

    @property
    def digest(self) -> str:
        """The hour (UTC, as text) of the daily digest, or ``off``."""
        return str(self.value("digest"))

    @property
    def time_limit(self) -> str:
        """The length of a time-limited game (a key of :data:`DURATIONS`)."""
        return str(self.value("time_limit"))

    @property
    def quiet_hours(self) -> bool:
        """Whether players' quiet hours move deadlines."""
        return bool(self.value("quiet_hours"))

    @property
    def quiet_max(self) -> str:
        """The longest a deadline may be moved out of quiet hours (a key of DURATIONS)."""
        return str(self.value("quiet_max"))

    @property
    def jokers(self) -> int:
        """Jokers (excused missed deadlines) each player has in this game."""
        return int(self.value("jokers"))
