"""What one player's turn (a "Zug") did, followed event by event: the story its message tells.

The turn message of the board game tells one turn: whose it is, where the mover stood when
it began, every throw and every move since. The publisher keeps that record in the game's
settings (``turn_info``) and hands it on with every action's events; the picture of the
turn (``render.turn_view``) draws the mover's path from it. Plain data, no Discord: a
record is a dict that survives JSON.

Rulebook words (000, the German 2001 rules): a *Zug* is one player's turn ("führt der
Spieler seinen Zug in gewohnter Weise aus"), a *Runde* is every player once ("zweimal
innerhalb einer Runde sein Gehalt bezieht"). The engine's ``state.turn`` counts Züge.
"""

from __future__ import annotations

from typing import Any

from bot.engine.state import GameState

#: How the mover got from one square to the next: step by step forwards, backwards, or
#: straight there (to jail).
FORWARD, BACKWARD, JUMP = "forward", "backward", "jump"


def fresh(state: GameState) -> dict[str, Any]:
    """The record of the turn under way in ``state``, as if it had just begun.

    For games stored before turns were recorded, and for a game's first message: no
    throws yet, the mover where they stand.
    """
    seat = state.current
    return begin(seat, state.turn, state.players[seat].position)


def begin(seat: int, turn: int, position: int) -> dict[str, Any]:
    """A new turn of ``seat`` (number ``turn``), starting on square ``position``."""
    return {"turn": turn, "seat": seat, "start": position, "at": position, "moves": [], "dice": []}


def follow(record: dict[str, Any], event: dict[str, Any]) -> None:
    """Add what ``event`` did to the mover to ``record`` (in place); other events pass."""
    seat = record["seat"]
    kind = event["type"]
    if event.get("player") != seat:
        return
    if kind == "rolled":
        record["dice"].append(list(event["dice"]))
    elif kind == "moved":
        how = BACKWARD if event.get("backward") else FORWARD
        record["moves"].append([event["from"], event["to"], how])
        record["at"] = event["to"]
    elif kind == "jailed":
        jail = event.get("square")
        start = record["at"]
        record["moves"].append([start, jail if isinstance(jail, int) else None, JUMP])


def settle(record: dict[str, Any], state: GameState) -> dict[str, Any]:
    """``record`` with the squares only the state knows filled in (the jail of a jump).

    The engine's "jailed" event does not name the jail; the board does.
    """
    jail = state.board.jail_index
    for move in record["moves"]:
        if move[1] is None:
            move[1] = jail
    if record["moves"] and record["moves"][-1][2] == JUMP:
        record["at"] = record["moves"][-1][1]
    return record


def split(
    record: dict[str, Any] | None, events: list[dict[str, Any]], state: GameState
) -> tuple[dict[str, Any] | None, list[list[dict[str, Any]]], dict[str, Any]]:
    """Follow an action's ``events`` from the turn ``record`` they continue.

    Returns ``(ended, parts, current)``: the record of the turn that ended in these events
    (None if none did), the events split at each new turn (``parts[0]`` belongs to the turn
    that was under way, the last part to ``current``), and the record of the turn under way
    after them. A turn's start square is where its mover stands when it begins (the
    state after the action: nothing moves a new mover within the action that began their
    turn).
    """
    current = _copy(record) if record is not None else fresh(state)
    ended: dict[str, Any] | None = None
    parts: list[list[dict[str, Any]]] = [[]]
    for event in events:
        if event["type"] == "turn":
            if ended is None:
                ended = settle(current, state)
            seat = event["player"]
            current = begin(seat, event["turn"], state.players[seat].position)
            parts.append([])
            continue
        follow(current, event)
        parts[-1].append(event)
    return ended, parts, settle(current, state)


def _copy(record: dict[str, Any]) -> dict[str, Any]:
    return {
        **record,
        "moves": [list(move) for move in record.get("moves", [])],
        "dice": [list(throw) for throw in record.get("dice", [])],
    }
