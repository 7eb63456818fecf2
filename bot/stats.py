"""A server's leaderboard, and one member's record: finished games added up.

Pure: :func:`result_of` reads the players and winners out of a finished game's
canonical state (either game), :func:`leaderboard` adds the results up. The store
hands over the states (:meth:`bot.store.GameStore.finished_states`); the cog draws
the table. Computer players are counted in the games they played but are not ranked.

One member's record (``/monopoly stats player:``) needs more than the final state, so
:func:`summarize` replays a finished game's record once (a few milliseconds; finished games
never change, so the cog keeps the summaries) and :func:`player_record` adds up the
member's games. What the record's figures mean:

* **place**: the card game ranks by final points (equal points share the better place).
  The board game ranks the players still in the game at the end first, by the final
  standings (the richest first when wealth decided; the last one left when everybody
  else went bankrupt), then those who left the game (bankrupt, gave up, removed), the
  later they left the better. Players already out in a record's start state (a game set
  up from a scenario) share the place after everybody else.
* **favourite colour group**: the street colour group the member completed most often,
  counted once per game: in the board game, owning every lot of the group at any moment
  (also if it was traded away or lost later; not by taking over a bankrupt player's lots,
  which would give the last one left every group); in the card game, laying the group out
  in a scored round. Ties go to the group completed in the more recent game.
* **biggest win**: per game kind, the won game with the largest lead over the runner-up
  at the end (net worth in the board game, where anybody who went bankrupt is worth
  nothing; points in the card game); ties: the higher final figure, then the older game.

Games without a winner (abandoned) count for none of it, like on the leaderboard.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Iterable, Mapping
from dataclasses import dataclass
from typing import Any

from bot.cardgame.state import CardState
from bot.engine.record import GameRecord
from bot.engine.rent import owns_whole_group
from bot.engine.state import GameState
from bot.engine.wealth import wealth
from bot.replay_cache import apply_entry
from bot.store.kinds import AnyState, state_from_dict


@dataclass(frozen=True)
class GameResult:
    """One finished game: every seat's ``(id, name)`` and the ids of its winners."""

    kind: str  # "board" or "cards"
    players: tuple[tuple[str, str], ...]
    winners: frozenset[str]


@dataclass(frozen=True)
class Standing:
    """A person's line of the leaderboard."""

    user_id: int
    name: str  # the name in their latest game
    games: int
    wins: int

    @property
    def win_rate(self) -> float:
        """Wins per game played (0.0 without games)."""
        return self.wins / self.games if self.games else 0.0


def result_of(state: Mapping[str, Any]) -> GameResult | None:
    """The result of a finished game's canonical state; None if nobody won (abandoned)."""
    players = tuple((str(p["id"]), str(p["name"])) for p in state.get("players", []))
    if "winners" in state:  # the card game: every seat with the highest score
        seats = list(state.get("winners") or [])
        kind = "cards"
    else:
        seats = [] if state.get("winner") is None else [state["winner"]]
        kind = "board"
    if not seats or not players:
        return None
    winners = frozenset(players[s][0] for s in seats if 0 <= s < len(players))
    return GameResult(kind, players, winners)


def leaderboard(results: Iterable[GameResult], *, kind: str | None = None) -> list[Standing]:
    """People (Discord ids) by wins, then win rate, then fewer games, then name.

    ``results`` oldest first (a person's name is the one of their latest game); ``kind``
    keeps only the board (``"board"``) or the card game (``"cards"``).
    """
    games: dict[int, int] = {}
    wins: dict[int, int] = {}
    names: dict[int, str] = {}
    for result in results:
        if kind is not None and result.kind != kind:
            continue
        for player_id, name in result.players:
            if not player_id.isdigit():
                continue  # a computer player
            user = int(player_id)
            games[user] = games.get(user, 0) + 1
            wins[user] = wins.get(user, 0) + (player_id in result.winners)
            names[user] = name
    standings = [Standing(u, names[u], games[u], wins[u]) for u in games]
    return sorted(standings, key=lambda s: (-s.wins, -s.win_rate, s.games, s.name.casefold()))


# -- one member's record -------------------------------------------------------------------


@dataclass(frozen=True)
class GameSummary:
    """A finished game with a winner, as one member's record reads it (:func:`summarize`).

    Per seat, in seat order: ``players`` (``(id, name)``), ``places`` (1 is the winner's),
    ``scores`` (final net worth in the board game, 0 for those who left; points in the
    card game) and ``groups`` (the street colour groups the seat completed). ``length`` is
    the number of turns (board game) or rounds (card game); ``currency`` the board's
    currency code (empty for the card game).
    """

    game: int
    kind: str
    players: tuple[tuple[str, str], ...]
    winners: frozenset[int]
    places: tuple[int, ...]
    scores: tuple[int, ...]
    groups: tuple[frozenset[str], ...]
    length: int
    currency: str = ""

    def seat_of(self, user_id: int) -> int | None:
        """The seat of the Discord user ``user_id``, or None if they did not play."""
        wanted = str(user_id)
        return next((s for s, (pid, _) in enumerate(self.players) if pid == wanted), None)

    @property
    def margin(self) -> int:
        """The winners' lead over the best of the others (0 if everybody won)."""
        if not self.winners:
            return 0
        best = self.scores[min(self.winners)]
        others = [v for seat, v in enumerate(self.scores) if seat not in self.winners]
        if not others:  # everybody won (a tie): nobody was ahead
            return 0 if len(self.winners) > 1 else best
        return best - max(others)


def _completed_streets(
    state: GameState, found: list[set[str]], inheriting: frozenset[int] = frozenset()
) -> None:
    """Add every street colour group one seat owns completely to that seat's set, except
    for the seats in ``inheriting`` (they just took over a bankrupt player's lots: a group
    completed that way was not the player's choice)."""
    board = state.board
    owner = state.owner
    for group, squares in board.groups.items():
        if board.squares[squares[0]].kind != "street":
            continue
        first = owner[squares[0]]  # a seat, or the bank (negative)
        if first >= 0 and first not in inheriting and owns_whole_group(state, first, squares[0]):
            found[first].add(group)


def _board_places(state: GameState, left: list[int]) -> tuple[list[int], list[int]]:
    """Places and final net worth per seat of a finished board game (see the module doc)."""
    count = len(state.players)
    survivors = state.active_players()
    order = [seat for seat, _ in state.standings or [] if seat in survivors]
    rest = [s for s in survivors if s not in order]
    rest.sort(key=lambda s: (s != state.winner, -wealth(state, s), s))
    order += rest
    order += [seat for seat in reversed(left) if seat not in order]
    places = [len(order) + 1] * count  # out before the record started: after everybody
    for place, seat in enumerate(order, 1):
        places[seat] = place
    scores = [wealth(state, s) if s in survivors else 0 for s in range(count)]
    return places, scores


def _card_groups(state: CardState, event: dict[str, Any], found: list[set[str]]) -> None:
    """Add the street groups of every scored lay-out of a ``round_scored`` event."""
    for entry in event.get("players", []):
        seat = entry.get("player")
        if not isinstance(seat, int) or not 0 <= seat < len(found) or entry.get("voided"):
            continue
        for group in (entry.get("layout") or {}).get("groups", []):
            name = group.get("group")
            try:
                street = state.deck.group(name).kind == "street"
            except (KeyError, LookupError, TypeError):
                continue
            if street:
                found[seat].add(name)


def summarize(record: GameRecord, game: int = 0) -> GameSummary | None:
    """Replay a finished game's record once and read its summary; None without a winner.

    Raises :class:`~bot.store.errors.InvalidRecord` if the record does not replay.
    """
    state: AnyState = state_from_dict(record.start)
    count = len(state.players)
    groups: list[set[str]] = [set() for _ in range(count)]
    left: list[int] = []
    if isinstance(state, GameState):
        _completed_streets(state, groups)
    for index, entry in enumerate(record.actions):
        events = apply_entry(state, entry, index)
        if isinstance(state, GameState):
            gone = [e for e in events if e["type"] == "bankrupt"]
            left += [e["player"] for e in gone]
            _completed_streets(state, groups, frozenset(e["creditor"] for e in gone))
        else:
            for event in events:
                if event["type"] == "round_scored":
                    _card_groups(state, event, groups)
    players = tuple((str(p.id), str(p.name)) for p in state.players)
    if isinstance(state, CardState):
        winners = frozenset(state.winners if state.phase == "over" else ())
        points = [p.score for p in state.players]
        places = [1 + sum(other > mine for other in points) for mine in points]
        kind, scores, length, currency = "cards", points, state.round, ""
    else:
        winners = frozenset(() if state.winner is None else (state.winner,))
        places, scores = _board_places(state, left)
        kind, length, currency = "board", state.turn, state.board.currency
    if not winners:
        return None
    return GameSummary(
        game=game,
        kind=kind,
        players=players,
        winners=winners,
        places=tuple(places),
        scores=tuple(scores),
        groups=tuple(frozenset(g) for g in groups),
        length=length,
        currency=currency,
    )


@dataclass(frozen=True)
class BiggestWin:
    """A member's biggest win of one game kind: the game, its lead and final figure."""

    game: int
    kind: str
    margin: int
    score: int
    players: int
    length: int
    currency: str


@dataclass(frozen=True)
class PlayerRecord:
    """One member's finished games on a server (see the module docstring)."""

    user_id: int
    name: str | None  # the name in their latest game
    games: int
    wins: int
    average_place: float | None
    favourite_group: str | None
    favourite_count: int
    biggest_wins: tuple[BiggestWin, ...]  # the board game's first, then the card game's

    @property
    def win_rate(self) -> float:
        """Wins per game played (0.0 without games)."""
        return self.wins / self.games if self.games else 0.0


def player_record(
    summaries: Iterable[GameSummary], user_id: int, *, kind: str | None = None
) -> PlayerRecord:
    """``user_id``'s record from the summaries (oldest first) of the games they played.

    ``kind`` keeps only the board game (``"board"``) or the card game (``"cards"``).
    """
    games = wins = 0
    places: list[int] = []
    name: str | None = None
    completed: Counter[str] = Counter()
    latest: dict[str, int] = {}
    best: dict[str, BiggestWin] = {}
    for number, summary in enumerate(summaries):
        seat = summary.seat_of(user_id)
        if seat is None or (kind is not None and summary.kind != kind):
            continue
        games += 1
        name = summary.players[seat][1]
        places.append(summary.places[seat])
        for group in summary.groups[seat]:
            completed[group] += 1
            latest[group] = number
        if seat not in summary.winners:
            continue
        wins += 1
        win = BiggestWin(
            game=summary.game,
            kind=summary.kind,
            margin=summary.margin,
            score=summary.scores[seat],
            players=len(summary.players),
            length=summary.length,
            currency=summary.currency,
        )
        held = best.get(summary.kind)
        if held is None or (win.margin, win.score) > (held.margin, held.score):
            best[summary.kind] = win
    favourite = max(completed, key=lambda g: (completed[g], latest[g], g), default=None)
    return PlayerRecord(
        user_id=user_id,
        name=name,
        games=games,
        wins=wins,
        average_place=sum(places) / len(places) if places else None,
        favourite_group=favourite,
        favourite_count=completed[favourite] if favourite is not None else 0,
        biggest_wins=tuple(best[k] for k in ("board", "cards") if k in best),
    )
