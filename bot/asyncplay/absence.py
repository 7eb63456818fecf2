"""Absent players: missed deadlines, the table's vote, computer seats and vacation.

A player who lets ``missed_limit`` deadlines in a row pass (setting, 0 = never) is put to a
vote of the other players still at the table: let the computer play the seat, remove the
player (their assets go to the bank, as ``/monopoly kick``), or keep waiting. More than half
of the voters decide; with nobody to vote the computer takes the seat. ``/monopoly vacation``
hands one's own seat to the computer until one returns. A player who acts themselves — any
button — is back: their count of missed deadlines starts again and the computer lets go.

Everything here is a pure function of a game's state and its settings (the typed
:class:`~bot.settings.GameSettings`, whose ``play`` section keeps missed deadlines, votes
and computer seats); the caller reads and writes the settings under the game's lock
(:meth:`bot.service.GameService.edit_settings`) and shows the outcome. What a computer
seat does comes from :mod:`bot.engine.computer` (the level chosen in the lobby for a
computer player, ``strong`` for an absent player's seat).
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from bot.cardgame import CardState, SimpleCardPlayer
from bot.cardgame import waiting_for as card_waiting_for
from bot.engine.computer import make_player, next_action
from bot.engine.errors import IllegalAction
from bot.engine.game import MANAGE_PHASES
from bot.engine.legal import waiting_for
from bot.engine.state import GameState
from bot.settings import GameSettings

Action = dict[str, Any]
Settings = GameSettings
VOTE_CHOICES = ("computer", "remove", "wait")
_CARD_PLAYER = SimpleCardPlayer()


# -- computer seats ------------------------------------------------------------------


def computer_seats(settings: Settings) -> set[int]:
    """The seats the computer plays now (computer players, vacation, the table's vote)."""
    return {int(seat) for seat in settings.play.computer}


def computer_level(settings: Settings, seat: int) -> str:
    """How strongly the computer plays ``seat``: as chosen in the lobby, else ``strong``
    (an absent player's seat is played as well as the bot can)."""
    return settings.play.computer_level.get(str(seat), "strong")


def next_computer_action(state: GameState | CardState, settings: Settings) -> Action | None:
    """What a computer seat does next: answer an offer, or move if the game waits on it."""
    seats = computer_seats(settings)
    if isinstance(state, CardState):
        # The card game has one computer player: it decides draw, swap or end.
        waiting = [seat for seat in card_waiting_for(state) if seat in seats]
        return _CARD_PLAYER.decide(state, waiting[0]) if waiting else None
    players = {seat: make_player(computer_level(settings, seat)) for seat in seats}
    return next_action(state, players)


def computer_acts(state: GameState | CardState, settings: Settings) -> bool:
    """True if a computer seat may act now (:func:`next_computer_action` is then worth
    asking): the game waits on one, or an offer to one is open.

    Cheap, unlike the decision itself (the expert plays futures to decide), so the planner
    can ask it after every action. Never False when a computer seat would act.
    """
    seats = computer_seats(settings)
    if not seats:
        return False
    if isinstance(state, CardState):
        return any(seat in seats for seat in card_waiting_for(state))
    if state.phase == "over":
        return False
    if any(seat in seats for seat in waiting_for(state)):
        return True
    offer = state.lot_offer
    if offer is not None and offer["creditor"] in seats:
        return True
    return state.phase in MANAGE_PHASES and any(trade["to"] in seats for trade in state.trades)


def player_acted(settings: Settings, seat: int) -> bool:
    """A player acted themselves: reset their missed deadlines; True if they took over.

    Changes ``settings`` in place (the caller holds the game's lock and saves them).
    """
    play = settings.play
    missed = play.missed
    if missed.get(str(seat)):
        play.missed = {**missed, str(seat): 0}
    computer = play.computer
    if str(seat) not in computer:
        return False
    play.computer = {k: v for k, v in computer.items() if k != str(seat)}
    return True


def is_out(player: Any) -> bool:
    """True for a board-game player who is out (a card-game player never is)."""
    return bool(getattr(player, "bankrupt", False))


def choices_for(state: Any) -> tuple[str, ...]:
    """The vote's options: removing a player needs the board game's ``remove_player``."""
    if isinstance(state, CardState):
        return tuple(c for c in VOTE_CHOICES if c != "remove")
    return VOTE_CHOICES


def voters(state: GameState | CardState, settings: Settings, seat: int) -> list[int]:
    """Who votes on ``seat``: the other players still in, not played by the computer."""
    computer = computer_seats(settings)
    return [
        s
        for s, player in enumerate(state.players)
        if s != seat and not is_out(player) and s not in computer
    ]


def outcome(ballots: dict[str, str], table: list[int]) -> str | None:
    """The choice more than half of the voters (``table``) made, if any."""
    counted = [choice for voter, choice in ballots.items() if int(voter) in table]
    for choice in VOTE_CHOICES:
        if counted.count(choice) * 2 > len(table):
            return choice
    return None


# -- jokers: excused missed deadlines ------------------------------------------------


def jokers_left(settings: Settings, seat: int) -> int:
    """How many jokers ``seat`` has left in this game (setting ``jokers`` minus those spent)."""
    spent = settings.play.jokers_used.get(str(seat), 0)
    return max(0, settings.timing.jokers - spent)


def spend_jokers(settings: Settings, seats: list[int]) -> tuple[list[int], list[int]]:
    """At a missed deadline: each of ``seats`` with a joker left spends one.

    Returns ``(excused, defaulted)``: the seats whose deadline is extended, and those
    for whom the safe default plays (``settings`` changed in place). A joker is an
    excused miss: it does not count towards the table's vote.
    """
    excused = [seat for seat in seats if jokers_left(settings, seat) > 0]
    if excused:
        used = dict(settings.play.jokers_used)
        for seat in excused:
            used[str(seat)] = used.get(str(seat), 0) + 1
        settings.play.jokers_used = used
    return excused, [seat for seat in seats if seat not in excused]


# -- missed deadlines and the vote ----------------------------------------------------


def count_missed(settings: Settings, seats: list[int]) -> None:
    """Add one missed deadline for each of ``seats`` (``settings`` changed in place)."""
    missed = dict(settings.play.missed)
    for seat in seats:
        missed[str(seat)] = missed.get(str(seat), 0) + 1
    settings.play.missed = missed


def votes_due(state: GameState | CardState, settings: Settings) -> tuple[list[int], list[int]]:
    """Seats that missed ``missed_limit`` deadlines in a row and have no vote yet.

    Returns ``(to_vote, decided)``: seats the table votes on, and seats with nobody left
    to ask, which the computer takes at once (:func:`hand_to_computer`).
    """
    limit = settings.timing.missed_limit
    votes = settings.play.votes
    computer = computer_seats(settings)
    to_vote: list[int] = []
    decided: list[int] = []
    for key, count in settings.play.missed.items():
        seat = int(key)
        due = limit and count >= limit and key not in votes
        if not due or seat in computer or is_out(state.players[seat]):
            continue
        (to_vote if voters(state, settings, seat) else decided).append(seat)
    return to_vote, decided


def open_vote(settings: Settings, seat: int, message_id: int) -> None:
    """Record the vote on ``seat`` shown in ``message_id`` (``settings`` changed in place)."""
    settings.play.votes = {
        **settings.play.votes,
        str(seat): {"message": message_id, "ballots": {}},
    }


def hand_to_computer(settings: Settings, seat: int, reason: str) -> None:
    """The computer plays ``seat`` from now on (``reason``: vote, vacation, seat)."""
    settings.play.computer = {**settings.play.computer, str(seat): reason}


@dataclass(frozen=True)
class Ballot:
    """What a click on a vote's button did.

    ``result`` is None while the vote goes on (``ballots`` so far), else ``back`` (the
    absent player returned), ``wait``, ``computer`` or ``remove``.
    """

    seat: int
    result: str | None
    ballots: dict[str, str]


def cast(
    state: GameState | CardState, settings: Settings, voter: int | None, arg: str | None
) -> Ballot:
    """A player's click on the vote about a seat (``arg`` is ``{seat}-{choice}``).

    Changes ``settings`` in place (the ballot, or the outcome: the vote closed, missed
    deadlines reset, the seat handed to the computer); raises :class:`IllegalAction`
    (``unknown_button``, ``vote_closed``, ``not_a_player``, ``vote_not_you``,
    ``vote_own_seat``, ``not_a_voter``) and changes nothing when the click does not count.
    """
    seat_text, _, choice = (arg or "").partition("-")
    if not seat_text.isdigit() or choice not in (*VOTE_CHOICES, "back"):
        raise IllegalAction("unknown_button")
    if choice != "back" and choice not in choices_for(state):
        raise IllegalAction("unknown_button")
    votes = dict(settings.play.votes)
    vote = votes.get(seat_text)
    seat = int(seat_text)
    gone = seat >= len(state.players) or is_out(state.players[seat])
    if vote is None or state.phase == "over" or gone:
        raise IllegalAction("vote_closed")
    if voter is None:
        raise IllegalAction("not_a_player")
    table = voters(state, settings, seat)
    if choice == "back" or voter == seat:
        if voter != seat:
            raise IllegalAction("vote_not_you")
        if choice != "back":
            raise IllegalAction("vote_own_seat")
        result: str | None = "back"
    elif voter not in table:
        raise IllegalAction("not_a_voter")
    else:
        vote = {**vote, "ballots": {**vote["ballots"], str(voter): choice}}
        votes[seat_text] = vote
        result = outcome(vote["ballots"], table)
    if result is None:
        settings.play.votes = votes
        return Ballot(seat, None, dict(vote["ballots"]))
    votes.pop(seat_text)
    settings.play.votes = votes
    if result in ("back", "wait"):
        settings.play.missed = {**settings.play.missed, seat_text: 0}
    if result == "computer":
        hand_to_computer(settings, seat, "vote")
    return Ballot(seat, result, dict(vote["ballots"]))


# -- vacation ------------------------------------------------------------------------


def set_vacation(settings: Settings, seat: int, away: bool) -> bool:
    """The computer plays ``seat`` (``away``) or stops doing so; False if nothing changes.

    Changes ``settings`` in place; coming back resets the seat's missed deadlines.
    """
    computer = dict(settings.play.computer)
    if away == (str(seat) in computer):
        return False
    if away:
        computer[str(seat)] = "vacation"
    else:
        computer.pop(str(seat))
        settings.play.missed = {**settings.play.missed, str(seat): 0}
    settings.play.computer = computer
    return True


# -- nudges --------------------------------------------------------------------------

#: Seconds between two ``/monopoly remind`` of a game (shorter if the deadline is).
REMIND_INTERVAL = 3600


def remind_again_at(settings: Settings, now: float) -> float | None:
    """When the next ``/monopoly remind`` is allowed, or None if it is allowed now."""
    deadline = settings.timing.deadline_seconds
    interval = min(REMIND_INTERVAL, (deadline or REMIND_INTERVAL * 2) / 2)
    last = settings.play.last_remind
    return last + interval if now - last < interval else None
