"""A game's settings as typed sections, each owned by one module (see ``game.py``).

* :mod:`bot.settings.lobby` — the lobby and its house rules;
* :mod:`bot.settings.timing` — the host's time settings and their defaults;
* :mod:`bot.settings.play` — what asynchronous play keeps (deadlines, absence, pause);
* :mod:`bot.settings.records` — the publisher's records of what its messages show;
* :mod:`bot.settings.fair` — the checkable dice;
* :mod:`bot.settings.game` — :class:`GameSettings`, all of them over one stored object,
  and the :class:`SettingsPatch` a write sends.

Only these modules name the settings' keys; ``tests/test_settings_owners.py`` checks that
nobody else indexes a settings mapping by a string.
"""

from bot.settings.fair import FairDice
from bot.settings.game import GameSettings, HasSettings, SettingsPatch
from bot.settings.lobby import LobbySettings
from bot.settings.play import AsyncPlay
from bot.settings.records import MessageRecords
from bot.settings.timing import TimeSettings

__all__ = [
    "AsyncPlay",
    "FairDice",
    "GameSettings",
    "HasSettings",
    "LobbySettings",
    "MessageRecords",
    "SettingsPatch",
    "TimeSettings",
]
