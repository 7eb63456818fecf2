"""The lobby and its house rules in a game's settings (owned by the lobby, ``bot/service.py``).

Who hosts and who joined, which game, preset and rule overrides (the house rules), the
language of the game's public messages, its theme and a server's own board. Written when
the lobby opens and while it is open; afterwards only the host changes (a hand-over) and
the house rule of sealed auctions (``/monopoly settings``).
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from bot.engine.rules import Rules
from bot.i18n import DEFAULT_LANGUAGE
from bot.settings.keys import Key, Section, none

#: The games a lobby can be for.
BOARD_GAME, CARD_GAME = "board", "cards"
#: What the host may change in an open lobby (``GameService.update_lobby``).
CHOOSABLE = ("preset", "lang", "overrides")


class LobbySettings(Section):
    """The keys of the lobby and its house rules (see the module docstring)."""

    __slots__ = ()

    #: ``board`` (MONOPOLY) or ``cards`` (MONOPOLY Das Kartenspiel).
    game = Key[str]("game", lambda: BOARD_GAME)
    #: The host's Discord user id (a member who was handed the seat of a host is host).
    host = Key[int | str | None]("host", none)
    #: The lobby's players in joining order: ``{"id", "name"}`` and ``"computer": level``
    #: for a computer player (``id`` ``cpu{n}``).
    players = Key[list[dict[str, Any]]]("players", list)
    #: The most players the lobby takes (written when it opens).
    max_players = Key[int]("max_players", lambda: 0)
    #: The rulebook preset and the host's changes to it (the house rules).
    preset = Key[str | None]("preset", none)
    overrides = Key[dict[str, Any]]("overrides", dict)
    #: The language of the game's public messages.
    lang = Key[str]("lang", lambda: DEFAULT_LANGUAGE)
    #: The theme's id, a server theme's data, a server board's data (copied when the
    #: lobby opened, so a server's later changes never change a game).
    theme = Key[str | None]("theme", none)
    theme_data = Key[dict[str, Any] | None]("theme_data", none)
    board_data = Key[dict[str, Any] | None]("board_data", none)

    @property
    def is_cards(self) -> bool:
        """Whether the game is MONOPOLY Das Kartenspiel."""
        return self.game == CARD_GAME

    def rules(self) -> Rules:
        """The board game's rules: the preset with the house rules (``TypeError`` or
        ``ValueError`` for overrides the engine refuses)."""
        return Rules.from_preset(self.preset, **self.overrides)  # type: ignore[arg-type]

    def is_host(self, user_id: object) -> bool:
        """Whether ``user_id`` is the game's host."""
        return user_id == self.host

    def choose(self, changes: Mapping[str, Any]) -> None:
        """Store the host's changes (names of :data:`CHOOSABLE`; another is ``KeyError``)."""
        for name in changes:
            if name not in CHOOSABLE:
                raise KeyError(name)
        self.data.update(changes)

    def player_names(self) -> tuple[str, ...]:
        """The lobby's players' names, in joining order (``?`` for one without)."""
        return tuple(str(p.get("name", "?")) for p in self.players)
