"""Optional pings by direct message: "you're next" and "you're the last one".

Both are per member (``/monopoly notify next:`` / ``last:``, stored in the user's
preferences as ``next_dm`` / ``last_dm``; ``enabled:False`` stops them with every other DM)
and go out through :func:`cogs.core.notify.direct_message`, which knows the member's quiet
hours. Never to a computer seat, never for a game that is paused or over.

* **You're next** (:func:`tell_next`): when the player seated before you starts their turn
  — once per turn (``settings.records.next_told``), not when that player is you (the only
  player left) and not when a computer plays that turn (it takes seconds; your own turn's
  DM follows).
* **You're the last one** (:func:`tell_last`, :func:`tell_last_voters`): when the whole
  table waits only on you — a live auction where everybody else has passed or bid, a
  sealed one where everybody else has submitted or passed, a vote on an absent player
  where every other voter has voted and nothing is decided. Once per occasion: the
  occasions told are recorded in ``settings.records.last_told`` (the latest
  :data:`LAST_TOLD_MAX`), so a publish or an event that comes again tells nobody twice.

The decisions are plain functions of state and settings (:func:`next_seat`,
:func:`last_in_auction`, :func:`last_voters`); only the ``tell_`` functions talk to the
store and Discord.
"""

from __future__ import annotations

import json
import logging
from typing import TYPE_CHECKING, Any

from bot.asyncplay import absence
from bot.cardgame import CardState
from bot.i18n import t
from bot.settings import GameSettings
from bot.store import GameRow, GameStatus
from bot.store.kinds import AnyState, waiting_for
from cogs.core.notify import direct_message, game_link
from cogs.ui.mine import mine_view

if TYPE_CHECKING:
    from cogs.core.ports import CorePort as Core

log = logging.getLogger(__name__)

#: Occasions of "you're the last one" remembered per game (older ones cannot come again).
LAST_TOLD_MAX = 20


def _human(state: AnyState, settings: GameSettings, seat: int) -> bool:
    """Whether a person plays ``seat`` now (not a computer player, not the computer for an
    absent or vacationing player)."""
    return state.players[seat].id.isdigit() and seat not in absence.computer_seats(settings)


def next_seat(state: AnyState) -> int | None:
    """The seat whose turn comes after the current one (skipping players who are out), or
    None if nobody else is left."""
    count = len(state.players)
    seat = state.current
    for _ in range(count - 1):
        seat = (seat + 1) % count
        if not absence.is_out(state.players[seat]):
            return seat
    return None


def last_in_auction(state: AnyState) -> tuple[str, int] | None:
    """``(occasion, seat)`` if an auction of at least two bidders waits on one seat alone.

    The occasion names the auction (turn, item) and the seat: one ping per bidder and
    auction, however often the lead changes hands.
    """
    if isinstance(state, CardState) or state.phase != "auction" or state.auction is None:
        return None
    auction = state.auction
    waiting = waiting_for(state)
    if len(waiting) != 1 or len(auction.get("bidders", [])) < 2:
        return None
    item = json.dumps(auction.get("item"), sort_keys=True, separators=(",", ":"))
    return f"a:{state.turn}:{item}:{waiting[0]}", waiting[0]


def last_voters(state: AnyState, settings: GameSettings) -> list[tuple[str, int, int]]:
    """``(occasion, absent seat, voter)`` for every open vote that waits on one voter alone
    (everybody else voted, nothing decided yet)."""
    found = []
    for seat_text, vote in sorted(settings.play.votes.items()):
        if not (seat_text.isascii() and seat_text.isdigit()) or not isinstance(vote, dict):
            continue
        seat = int(seat_text)
        if seat >= len(state.players):
            continue
        ballots = vote.get("ballots", {})
        table = absence.voters(state, settings, seat)
        if not table or absence.outcome(ballots, table) is not None:
            continue
        left = [voter for voter in table if str(voter) not in ballots]
        if len(left) == 1:
            found.append((f"v:{seat}:{vote.get('message')}:{left[0]}", seat, left[0]))
    return found


def remember(settings: GameSettings, occasion: str) -> bool:
    """Record ``occasion`` as told (``settings`` in place); False if it was told before."""
    told = list(settings.records.last_told)
    if occasion in told:
        return False
    settings.records.last_told = [*told, occasion][-LAST_TOLD_MAX:]
    return True


async def _prefs_allow(core: Core, user_id: int, key: str) -> dict[str, Any] | None:
    """The member's preferences if they asked for the ping ``key`` (and for DMs at all)."""
    prefs = await core.store.user_prefs(user_id)
    return prefs if prefs.get("dm") and prefs.get(key) else None


async def _send(
    core: Core,
    row: GameRow,
    state: AnyState,
    settings: GameSettings,
    seat: int,
    key: str,
    pref: str,
    **params: Any,
) -> None:
    """DM the player of ``seat`` the text ``key`` if they asked for ``pref``."""
    user_id = int(state.players[seat].id)
    prefs = await _prefs_allow(core, user_id, pref)
    if prefs is None:
        return
    lang = prefs.get("lang", settings.lobby.lang)
    text = t(lang, key, channel=f"<#{row.channel_id}>", link=game_link(row, settings), **params)
    await direct_message(
        core, user_id, text, row=row, settings=settings, view=mine_view(lang), prefs=prefs
    )


async def tell_next(core: Core, row: GameRow, state: AnyState, settings: GameSettings) -> None:
    """Tell "you're next" to the player after the one whose turn begins in ``state`` (once per
    turn: ``settings.records.next_told``, changed in place; the caller saves the settings)."""
    if state.phase == "over" or settings.play.paused:
        return
    told = f"{state.turn}:{state.current}"
    if settings.records.next_told == told:
        return
    settings.records.next_told = told
    current = state.current
    seat = next_seat(state)
    if seat is None or seat == current or not _human(state, settings, current):
        return
    if not _human(state, settings, seat) or state.players[seat].id == state.players[current].id:
        return
    name = state.players[current].name
    await _send(core, row, state, settings, seat, "ping.next.dm", "next_dm", player=name)


async def tell_last(core: Core, row: GameRow, state: AnyState, settings: GameSettings) -> None:
    """Tell "you're the last one" to the only bidder a live or sealed auction waits on (once per
    bidder and auction; ``settings`` in place, saved by the caller)."""
    if settings.play.paused:
        return
    found = last_in_auction(state)
    if found is None:
        return
    occasion, seat = found
    if not _human(state, settings, seat) or not remember(settings, occasion):
        return
    await _send(core, row, state, settings, seat, "ping.last.auction.dm", "last_dm")


async def tell_last_voters(core: Core, game: int) -> None:
    """Tell "you're the last one" to every voter an open vote of ``game`` waits on alone (once
    per vote and voter): the occasions are recorded first, under the game's lock, then
    the DMs go out."""

    def change(fresh: GameRow, settings: GameSettings) -> list[tuple[int, int]]:
        state = fresh.state
        if fresh.status != GameStatus.RUNNING or state is None or state.phase == "over":
            return []
        if settings.play.paused:
            return []
        return [
            (seat, voter)
            for occasion, seat, voter in last_voters(state, settings)
            if _human(state, settings, voter) and remember(settings, occasion)
        ]

    told = await core.service.edit_settings(game, change)
    if not told:
        return
    row = await core.store.load(game)
    state = row.state
    assert state is not None
    settings = GameSettings.of(row)
    for seat, voter in told:
        name = state.players[seat].name
        await _send(core, row, state, settings, voter, "ping.last.vote.dm", "last_dm", player=name)
