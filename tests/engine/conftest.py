"""Shared helpers for the engine rule tests.

Positions are built with the scenario format (``bot.engine.scenario.setup``), so a
test states only what matters: the players' cash and squares, who owns what, and
the dice each action throws. Unless a test sets ``decks``, both card decks are in
id order (card 1 on top), as ``setup`` leaves them.

The rulebook quoted in docstrings is ``000`` (Hasbro Germany 2001, Euro edition)
in ``/work/shared/rules/000_4d0880c4b13b5802.txt``.
"""

from __future__ import annotations

from typing import Any

import pytest

from bot.engine import GameState, IllegalAction, apply_action, compiled_engine_active
from bot.engine.scenario import SCENARIO_FORMAT, setup

# Squares of the de_euro board used throughout the tests.
LOS = 0
BADSTRASSE = 1
COMMUNITY_2 = 2
TURMSTRASSE = 3
INCOME_TAX = 4
SUEDBAHNHOF = 5
CHAUSSEESTRASSE = 6
CHANCE_7 = 7
ELISENSTRASSE = 8
POSTSTRASSE = 9
JAIL = 10
SEESTRASSE = 11
ELEKTRIZITAETSWERK = 12
HAFENSTRASSE = 13
NEUE_STRASSE = 14
WESTBAHNHOF = 15
MUENCHNER_STRASSE = 16
COMMUNITY_17 = 17
WIENER_STRASSE = 18
BERLINER_STRASSE = 19
FREI_PARKEN = 20
THEATERSTRASSE = 21
CHANCE_22 = 22
MUSEUMSTRASSE = 23
OPERNPLATZ = 24
NORDBAHNHOF = 25
LESSINGSTRASSE = 26
SCHILLERSTRASSE = 27
WASSERWERK = 28
GOETHESTRASSE = 29
GO_TO_JAIL = 30
RATHAUSPLATZ = 31
HAUPTSTRASSE = 32
COMMUNITY_33 = 33
BAHNHOFSTRASSE = 34
HAUPTBAHNHOF = 35
CHANCE_36 = 36
PARKSTRASSE = 37
LUXURY_TAX = 38
SCHLOSSALLEE = 39

BROWN = (BADSTRASSE, TURMSTRASSE)
LIGHT_BLUE = (CHAUSSEESTRASSE, ELISENSTRASSE, POSTSTRASSE)
PINK = (SEESTRASSE, HAFENSTRASSE, NEUE_STRASSE)
ORANGE = (MUENCHNER_STRASSE, WIENER_STRASSE, BERLINER_STRASSE)
GREEN = (RATHAUSPLATZ, HAUPTSTRASSE, BAHNHOFSTRASSE)
DARK_BLUE = (PARKSTRASSE, SCHLOSSALLEE)
RAILROADS = (SUEDBAHNHOF, WESTBAHNHOF, NORDBAHNHOF, HAUPTBAHNHOF)
UTILITIES = (ELEKTRIZITAETSWERK, WASSERWERK)

BANK = -1
HOTEL = 5


def game(
    players: int | list[dict[str, Any]] = 2,
    lots: dict[Any, dict[str, Any]] | None = None,
    rules: dict[str, Any] | None = None,
    **extra: Any,
) -> GameState:
    """A position built from the scenario format.

    ``players`` is a number of players with the defaults (1 500 € on LOS) or a list
    of player dicts; ``lots`` maps a square to ``{"owner": .., "houses": .., ...}``;
    ``extra`` is passed through (``current``, ``bank``, ``decks``, ``doubles``, ...).
    """
    if isinstance(players, int):
        players = [{} for _ in range(players)]
    raw: dict[str, Any] = {
        "format": SCENARIO_FORMAT,
        "players": players,
        "lots": {str(k): v for k, v in (lots or {}).items()},
        "rules": rules or {},
        **extra,
    }
    return setup(raw)


def owned(owner: int, *squares: int, **fields: Any) -> dict[int, dict[str, Any]]:
    """``{square: {"owner": owner, **fields}}`` for each square, to build ``lots``."""
    return {square: {"owner": owner, **fields} for square in squares}


def act(
    state: GameState, kind: str, player: int, *, dice: list[int] | None = None, **params: Any
) -> list[dict[str, Any]]:
    """Apply one action (throwing ``dice`` if given) and return its events.

    Every forced die must be used, so a test cannot silently throw fewer dice than
    it meant to.
    """
    state.dice_queue = list(dice or [])
    events = apply_action(state, {"type": kind, "player": player, **params})
    assert state.dice_queue == [], f"unused dice {state.dice_queue}"
    return events


def refuse(state: GameState, kind: str, player: int, code: str, **params: Any) -> IllegalAction:
    """Assert the action is refused with ``code`` and leaves the state unchanged."""
    return refuse_raw(state, {"type": kind, "player": player, **params}, code)


def refuse_raw(state: GameState, action: Any, code: str) -> IllegalAction:
    """Like :func:`refuse` for an arbitrary (possibly malformed) action."""
    before = state.to_json()
    with pytest.raises(IllegalAction) as info:
        apply_action(state, action)
    assert info.value.code == code, f"expected {code!r}, got {info.value}"
    assert state.to_json() == before, "a refused action changed the state"
    return info.value


def cash(state: GameState) -> list[int]:
    """Every player's cash, in seat order."""
    return [p.cash for p in state.players]


def positions(state: GameState) -> list[int]:
    """Every player's square, in seat order."""
    return [p.position for p in state.players]


def of_type(events: list[dict[str, Any]], kind: str) -> list[dict[str, Any]]:
    """The events of type ``kind``."""
    return [e for e in events if e["type"] == kind]


def payments(events: list[dict[str, Any]], reason: str | None = None) -> list[tuple]:
    """``(from, to, amount, reason)`` for every payment (optionally of one reason)."""
    return [
        (e["from"], e["to"], e["amount"], e["reason"])
        for e in events
        if e["type"] == "payment" and (reason is None or e["reason"] == reason)
    ]


def deck_with_top(state: GameState, deck: str, *card_ids: int) -> list[int]:
    """Put ``card_ids`` on top of ``deck`` (in that order), keeping the rest in order."""
    rest = [c for c in state.decks[deck] if c not in card_ids]
    state.decks[deck] = [*card_ids, *rest]
    return list(state.decks[deck])


def pure_engine_only() -> None:
    """Skip the test when the compiled engine runs (``MONOPOLY_ENGINE=compiled``): it patches
    the engine's classes, which classes compiled with mypyc do not allow."""
    if compiled_engine_active():
        pytest.skip("patches the engine's classes, which the compiled engine does not allow")
