"""A game's settings as one typed object, and the patch that writes a change back.

The store keeps a game's settings as one JSON object (``GameRow.settings``) with a version
(``settings_version``). :class:`GameSettings` is that object with a typed section per
owner (lobby and house rules, time settings, asynchronous play, the publisher's message
records, the checkable dice); each section's module is the only place that names its
keys. Keys no section knows (written by a newer bot, say) are kept as they are.

A write goes as today: read the row, make :meth:`GameSettings.from_stored` of its
settings (a deep copy), change it through the sections, and send :meth:`GameSettings.patch`
against the row's settings to ``GameStore.patch_settings`` (the top-level keys set or
removed; untouched keys stay as stored), naming the version read where a change must not
overwrite another process's (``GameService.editing`` / ``edit_settings``). The stored JSON
has no format marker: every section reads a missing key as its default, so games stored
before a key existed load as they are.
"""

from __future__ import annotations

import copy
import json
from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Any, Protocol

from bot.settings.fair import FairDice
from bot.settings.lobby import LobbySettings
from bot.settings.play import AsyncPlay
from bot.settings.records import MessageRecords
from bot.settings.timing import TimeSettings

#: Every section, by its attribute on :class:`GameSettings`.
SECTIONS: dict[str, type[Any]] = {
    "lobby": LobbySettings,
    "timing": TimeSettings,
    "play": AsyncPlay,
    "records": MessageRecords,
    "fair": FairDice,
}


class HasSettings(Protocol):
    """Anything with a game's stored settings (``GameRow``, ``GameInfo``)."""

    @property
    def settings(self) -> Mapping[str, Any]: ...


@dataclass(frozen=True)
class SettingsPatch:
    """What a write sends to ``GameStore.patch_settings``: keys set and keys removed."""

    set: dict[str, Any] = field(default_factory=dict)
    remove: list[str] = field(default_factory=list)

    def __bool__(self) -> bool:
        return bool(self.set or self.remove)

    @classmethod
    def between(cls, before: Mapping[str, Any], after: Mapping[str, Any]) -> SettingsPatch:
        """The top-level keys ``after`` set (new or changed) and removed against ``before``.

        ``1``, ``1.0`` and ``True`` count as different values, as they are different JSON.
        """
        changed = {
            key: value
            for key, value in after.items()
            if key not in before or not _same(before[key], value)
        }
        return cls(changed, [key for key in before if key not in after])


class GameSettings:
    """A game's settings, read and changed through typed sections (see the module doc).

    Made over a dict, which it reads and changes in place (:meth:`from_stored` makes that
    dict a deep copy of what was stored, so the row read stays as it was).
    """

    __slots__ = ("_data", "fair", "lobby", "play", "records", "timing")

    def __init__(self, data: dict[str, Any] | None = None) -> None:
        self._data: dict[str, Any] = {} if data is None else data
        #: The lobby and its house rules (``bot/settings/lobby.py``).
        self.lobby = LobbySettings(self._data)
        #: The host's time settings (``bot/settings/timing.py``).
        self.timing = TimeSettings(self._data)
        #: The state of play over days (``bot/settings/play.py``).
        self.play = AsyncPlay(self._data)
        #: What the publisher showed (``bot/settings/records.py``).
        self.records = MessageRecords(self._data)
        #: The checkable dice (``bot/settings/fair.py``).
        self.fair = FairDice(self._data)

    @classmethod
    def from_stored(cls, stored: Mapping[str, Any] | None) -> GameSettings:
        """The settings of a stored game (a deep copy: changing them changes no row)."""
        return cls(copy.deepcopy(dict(stored or {})))

    @classmethod
    def of(cls, row: HasSettings) -> GameSettings:
        """The settings of a game's row (``GameRow`` or ``GameInfo``), as a copy."""
        return cls.from_stored(row.settings)

    def copy(self) -> GameSettings:
        """An independent copy (changing it changes neither these settings nor a row)."""
        return GameSettings(copy.deepcopy(self._data))

    def to_stored(self) -> dict[str, Any]:
        """The settings as the store keeps them (a copy; unknown keys included)."""
        return copy.deepcopy(self._data)

    def patch(self, before: Mapping[str, Any]) -> SettingsPatch:
        """What to write so the stored ``before`` becomes these settings."""
        return SettingsPatch.between(before, self._data)

    def unknown_keys(self) -> set[str]:
        """The stored keys no section owns (kept as they are on every write)."""
        owned: set[str] = set()
        for section in SECTIONS.values():
            owned |= section.KEYS
        return set(self._data) - owned

    def __eq__(self, other: object) -> bool:
        if not isinstance(other, GameSettings):
            return NotImplemented
        return self._data == other._data

    __hash__ = None  # type: ignore[assignment]  # mutable

    def __repr__(self) -> str:
        return f"GameSettings({self._data!r})"


def _same(old: Any, new: Any) -> bool:
    """Whether two settings values are the same JSON (``==`` alone has ``1 == True``)."""
    if old != new:
        return False
    try:
        return json.dumps(old, sort_keys=True) == json.dumps(new, sort_keys=True)
    except (TypeError, ValueError):
        return True  # not JSON at all: the store refuses it if it is written
