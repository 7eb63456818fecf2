"""A server's leaderboard: who played how many finished games and won how many.

Pure: :func:`result_of` reads the players and winners out of a finished game's
canonical state (either game), :func:`leaderboard` adds the results up. The store
hands over the states (:meth:`bot.store.GameStore.finished_states`); the cog draws
the table. Computer players are counted in the games they played but are not ranked.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from dataclasses import dataclass
from typing import Any


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
