"""Handing a seat to another member: the request, the answers, the host's word or a vote.

A seated player still in the game asks to hand their seat to a member who has no seat at
this table (``/monopoly handover``). The member accepts or declines; the asking player may
withdraw until the end. After an accept the host confirms or refuses — unless the host is
the one leaving: then the other players still at the table (not those the computer plays)
vote, and more than half decides; with nobody to vote the hand-over is confirmed at once.
On confirmation the seat changes hands by the engine's ``hand_over`` action (the caller
applies it), and :func:`finish` writes what the history keeps.

Everything lives in the game's settings (the ``play`` section of
:class:`~bot.settings.GameSettings`), so the buttons work after a restart:

* ``handover_requests``: the open request per seat (``{seat: request}``), at most one;
* ``handover_next``: the number of the next request (a button names the request it was
  drawn for, so a click on a closed or replaced request is recognised);
* ``handovers``: every completed hand-over, ``{seat, from_id, from_name, to_id, to_name,
  turn}``, for the history's "bob (took over from alice)".

Pure functions of a game's state and its settings; the caller reads and writes the
settings under the game's lock (:meth:`bot.service.GameService.edit_settings`).
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from bot.asyncplay.absence import is_out, voters
from bot.cardgame import CardState
from bot.engine.errors import IllegalAction
from bot.engine.state import GameState
from bot.settings import GameSettings

Settings = GameSettings
AnyState = GameState | CardState

#: The stages of an open request: the member is asked, the host confirms, the table votes.
ASKED, CONFIRM, VOTE = "asked", "confirm", "vote"
#: What each button does (its custom id's action is ``ho_`` and one of these).
ANSWERS = ("accept", "decline", "withdraw", "confirm", "refuse", "yes", "no")
#: The answers each stage takes (the others are buttons of an earlier stage: stale).
STAGE_ANSWERS = {
    ASKED: ("accept", "decline", "withdraw"),
    CONFIRM: ("confirm", "refuse", "withdraw"),
    VOTE: ("yes", "no", "withdraw"),
}


@dataclass(frozen=True)
class Outcome:
    """What an answer did: ``result`` None while the request stays open (its new stage
    is in ``request``), else ``declined``, ``withdrawn``, ``refused`` or ``confirmed``."""

    seat: int
    request: dict[str, Any]
    result: str | None


def requests(settings: Settings) -> dict[str, dict[str, Any]]:
    """The open requests by seat (as text)."""
    return dict(settings.play.handover_requests)


def button_arg(seat: int, request: dict[str, Any]) -> str:
    """The argument of a request's buttons: its seat and number (``"2-17"``)."""
    return f"{seat}-{request['id']}"


def parse_arg(arg: str | None) -> tuple[int, int]:
    """``(seat, request number)`` of a button's argument; ``unknown_button`` if malformed."""
    seat, _, number = (arg or "").partition("-")
    if not (seat.isascii() and seat.isdigit() and number.isascii() and number.isdigit()):
        raise IllegalAction("unknown_button")
    return int(seat), int(number)


def _check_running(state: AnyState | None, settings: Settings) -> AnyState:
    if state is None:
        raise IllegalAction("not_started")
    if state.phase == "over":
        raise IllegalAction("game_over")
    if settings.play.paused:
        raise IllegalAction("game_paused")
    return state


def open_request(
    state: AnyState | None,
    settings: Settings,
    user_id: str,
    target_id: str,
    target_name: str,
    *,
    target_is_bot: bool = False,
) -> tuple[int, dict[str, Any]]:
    """``user_id`` asks to hand their seat to ``target_id``; ``(seat, request)``.

    Changes ``settings`` in place; raises :class:`IllegalAction` and changes nothing if
    the game is not running or paused, the user has no seat still in the game, the target
    is the user, a bot or seated at this table, or the seat or the target already has an
    open request.
    """
    state = _check_running(state, settings)
    seat = next((s for s, p in enumerate(state.players) if p.id == user_id), None)
    if seat is None or is_out(state.players[seat]):
        raise IllegalAction("not_a_player")
    if target_id == user_id:
        raise IllegalAction("handover_self")
    if target_is_bot:
        raise IllegalAction("handover_target_bot")
    if any(p.id == target_id for p in state.players):
        raise IllegalAction("handover_target_seated", player=target_name)
    open_ = requests(settings)
    if str(seat) in open_:
        raise IllegalAction("handover_open")
    if any(r["to_id"] == target_id for r in open_.values()):
        raise IllegalAction("handover_target_asked", player=target_name)
    number = int(settings.play.handover_next)
    request = {
        "id": number,
        "from_id": user_id,
        "from_name": state.players[seat].name,
        "to_id": target_id,
        "to_name": target_name,
        "stage": ASKED,
        "ballots": {},
    }
    settings.play.handover_next = number + 1
    settings.play.handover_requests = {**open_, str(seat): request}
    return seat, request


def drop(settings: Settings, seat: int, number: int | None = None) -> None:
    """Close the open request of ``seat`` (only if it is number ``number``, if given)."""
    open_ = requests(settings)
    request = open_.get(str(seat))
    if request is not None and (number is None or request["id"] == number):
        open_.pop(str(seat))
        settings.play.handover_requests = open_


def host_leaves(settings: Settings, request: dict[str, Any]) -> bool:
    """Whether the asking player is the game's host (then the table votes)."""
    return str(settings.lobby.host) == request["from_id"]


def table_of(state: AnyState, settings: Settings, seat: int) -> list[int]:
    """Who votes when the host leaves: the other players still in, not played by the
    computer (as in the vote on an absent player)."""
    return voters(state, settings, seat)


def tally(ballots: dict[str, str], table: list[int]) -> tuple[int, int]:
    """``(yes, no)`` among the ballots of the voters in ``table``."""
    counted = [choice for voter, choice in ballots.items() if int(voter) in table]
    return counted.count("yes"), counted.count("no")


def answer(
    state: AnyState | None,
    settings: Settings,
    arg: str | None,
    choice: str,
    user_id: str,
    *,
    may_host: bool,
) -> Outcome:
    """A click on a request's button (``choice`` one of :data:`ANSWERS`) by ``user_id``.

    ``may_host``: the user is the host or may manage the server. Changes ``settings`` in
    place (the next stage, a ballot, or the request closed); raises
    :class:`IllegalAction` and changes nothing when the click does not count: a closed or
    replaced request (``handover_closed``), a button of an earlier stage
    (``handover_answered``), the wrong person (``handover_not_you``,
    ``handover_not_asker``, ``host_only``, ``handover_own_seat``, ``not_a_voter``), a
    game that is over or paused.
    """
    if choice not in ANSWERS:
        raise IllegalAction("unknown_button")
    seat, number = parse_arg(arg)
    state = _check_running(state, settings)
    request = requests(settings).get(str(seat))
    if request is None or request["id"] != number:
        raise IllegalAction("handover_closed")
    if seat >= len(state.players) or is_out(state.players[seat]):
        raise IllegalAction("handover_closed")
    if choice not in STAGE_ANSWERS[request["stage"]]:
        raise IllegalAction("handover_answered")
    result: str | None = None
    if choice == "withdraw":
        if user_id != request["from_id"]:
            raise IllegalAction("handover_not_asker", player=request["from_name"])
        result = "withdrawn"
    elif choice in ("accept", "decline"):
        if user_id != request["to_id"]:
            raise IllegalAction("handover_not_you", player=request["to_name"])
        if choice == "decline":
            result = "declined"
        elif any(p.id == user_id for p in state.players):
            raise IllegalAction("handover_target_seated", player=request["to_name"])
        elif not host_leaves(settings, request):
            request = {**request, "stage": CONFIRM}
        elif table_of(state, settings, seat):
            request = {**request, "stage": VOTE}
        else:
            result = "confirmed"  # nobody else to ask
    elif choice in ("confirm", "refuse"):
        if user_id == request["from_id"]:
            raise IllegalAction("handover_own_seat")
        if not may_host:
            raise IllegalAction("host_only")
        result = "confirmed" if choice == "confirm" else "refused"
    else:
        result, request = _vote(state, settings, seat, request, user_id, choice)
    if result is None:
        settings.play.handover_requests = {**requests(settings), str(seat): request}
    else:
        drop(settings, seat)
    return Outcome(seat, request, result)


def _vote(
    state: AnyState,
    settings: Settings,
    seat: int,
    request: dict[str, Any],
    user_id: str,
    choice: str,
) -> tuple[str | None, dict[str, Any]]:
    """A ballot of the table's vote; the result once more than half agree (or all voted)."""
    table = table_of(state, settings, seat)
    voter = next((s for s, p in enumerate(state.players) if p.id == user_id), None)
    if voter is None or voter not in table:
        raise IllegalAction("not_a_voter")
    ballots = {**request["ballots"], str(voter): choice}
    request = {**request, "ballots": ballots}
    yes, no = tally(ballots, table)
    if yes * 2 > len(table):
        return "confirmed", request
    if no * 2 >= len(table) or yes + no >= len(table):
        # No majority is left for yes: the seat stays where it is.
        return "refused", request
    return None, request


def finish(state: AnyState, settings: Settings, seat: int, request: dict[str, Any]) -> None:
    """The seat has changed hands (the engine applied ``hand_over``): record it.

    Changes ``settings`` in place: the hand-over joins ``handovers`` (once, however often
    this runs); the seat's missed deadlines, its vote on absence and the computer playing
    it (vacation, the table's vote) start afresh for the new player; a host who handed
    their seat over hands the game's hosting on, too.
    """
    key = str(seat)
    play = settings.play
    done = list(play.handovers)
    entry = {
        "seat": seat,
        "from_id": request["from_id"],
        "from_name": request["from_name"],
        "to_id": request["to_id"],
        "to_name": request["to_name"],
        "turn": getattr(state, "turn", 0),
    }
    if not any(
        e["seat"] == seat and e["from_id"] == entry["from_id"] and e["to_id"] == entry["to_id"]
        for e in done
    ):
        play.handovers = [*done, entry]
    drop(settings, seat)
    missed = play.missed
    if missed.get(key):
        play.missed = {**missed, key: 0}
    votes = play.votes
    if key in votes:
        play.votes = {k: v for k, v in votes.items() if k != key}
    computer = play.computer
    if key in computer and computer[key] != "seat":  # a computer player never hands over
        play.computer = {k: v for k, v in computer.items() if k != key}
    if host_leaves(settings, request):
        host = request["to_id"]
        settings.lobby.host = int(host) if host.isdigit() else host


def former_names(settings: Settings, seat: int) -> list[str]:
    """Who played ``seat`` before its present player, in order ("alice", then "bob")."""
    return [e["from_name"] for e in settings.play.handovers if e.get("seat") == seat]
