"""Does look-ahead help the card game's computer player? (issue 24: "The card game's computer
player gets the same look-ahead if it helps there; measure it the same way.")

    .venv/bin/python benchmarks/card_lookahead.py --games 200 --options 3 --playouts 4

One seat of a four-player card game is a look-ahead player; the others are the simple
player (``bot/engine/...`` is not involved: the card game is ``bot/cardgame``). On its turn
it takes the simple player's ``options`` best turn actions (draw, swaps) by the simple
player's estimate and plays each forward ``playouts`` times to the end of the round:
the cards it cannot see (the other hands and the stock) are shuffled afresh for every
playout (the same shuffle for every option), simple players play every seat, and the
score is its round points less the others' mean. It takes the option that scores best.
The seat rotates with the game number. Prints the look-ahead seat's win rate (parity
25 %) and its decision times. Measured 2026-11-29 (docs/computer-players.md): it loses to
the simple player and is over the 250 ms budget, so the card game's player has none.
"""

from __future__ import annotations

import argparse
import time
from concurrent.futures import ProcessPoolExecutor
from typing import Any

from bot.cardgame.game import apply_action, new_game
from bot.cardgame.simple_player import SimpleCardPlayer, next_simple_action, turn_options
from bot.cardgame.state import CardState
from bot.engine.rng import SplitMix64

Action = dict[str, Any]
PLAYERS = 4
#: Actions after which a playout that has not reached the round's end counts as a draw.
PLAYOUT_CAP = 400
_SIMPLE = [SimpleCardPlayer() for _ in range(PLAYERS)]


def determinize(state: CardState, seat: int, seed: int) -> CardState:
    """A copy in which the cards ``seat`` cannot see are shuffled afresh from ``seed``."""
    future = state.copy()
    others = [s for s in range(len(future.players)) if s != seat]
    unseen = list(future.stock)
    for other in others:
        unseen += future.players[other].hand
    unseen.sort()
    SplitMix64(seed).shuffle(unseen)
    at = 0
    for other in others:
        count = len(future.players[other].hand)
        future.players[other].hand = future.deck.sort(unseen[at : at + count])
        at += count
    future.stock = unseen[at:]
    future.rng = SplitMix64(seed ^ 0x5DEECE66D)
    return future


def playout(future: CardState, seat: int, first: Action) -> float:
    """Play ``first`` and then simple players to the round's end: ``seat``'s lead in points."""
    current_round = future.round
    events = apply_action(future, first)
    for _ in range(PLAYOUT_CAP):
        for event in events:
            if event["type"] == "round_scored":
                points = event["points"]
                others = [p for s, p in enumerate(points) if s != seat]
                return points[seat] - sum(others) / len(others)
        if future.phase == "over" or future.round != current_round:
            return 0.0
        action = next_simple_action(future, _SIMPLE)
        if action is None:
            return 0.0
        events = apply_action(future, action)
    return 0.0


class CardLookahead(SimpleCardPlayer):
    """The simple card player whose turn action is chosen by playouts (see the docstring)."""

    __slots__ = ("options", "playouts", "times")

    def __init__(self, options: int, playouts: int) -> None:
        super().__init__()
        self.options, self.playouts = options, playouts
        self.times: list[float] = []

    def _turn(self, state: CardState, seat: int) -> Action:
        started = time.perf_counter()
        options = turn_options(state, seat)[: self.options]
        if len(options) == 1:
            return options[0]
        totals = [0.0] * len(options)
        for number in range(self.playouts):
            seed = state.seq * 7919 + number * 104729 + seat
            for index, option in enumerate(options):
                totals[index] += playout(determinize(state, seat, seed), seat, option)
        best = max(range(len(options)), key=lambda i: (totals[i], -i))
        self.times.append(time.perf_counter() - started)
        return options[best]


def play_share(
    games: int, options: int, playouts: int, seed: int, start: int, step: int
) -> tuple[float, int, list[float]]:
    """Games ``start, start + step, ...``: the look-ahead seat's wins, games, decision times."""
    wins, played, times = 0.0, 0, []
    for game in range(start, games, step):
        players = [SimpleCardPlayer() for _ in range(PLAYERS)]
        looking = CardLookahead(options, playouts)
        seat = game % PLAYERS
        players[seat] = looking
        state = new_game([(f"p{i}", f"P{i}") for i in range(PLAYERS)], seed * 1_000_003 + game)
        while state.phase != "over":
            action = next_simple_action(state, players)
            assert action is not None
            apply_action(state, action)
        played += 1
        wins += (seat in state.winners) / max(1, len(state.winners))  # a shared win splits
        times += looking.times
    return wins, played, times


def main() -> None:
    """Play the games in two processes and print the figures."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=200)
    parser.add_argument("--options", type=int, default=3)
    parser.add_argument("--playouts", type=int, default=4)
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--jobs", type=int, default=2)
    args = parser.parse_args()
    started = time.perf_counter()
    with ProcessPoolExecutor(args.jobs) as pool:
        shares = list(
            pool.map(
                play_share,
                *zip(
                    *[
                        (args.games, args.options, args.playouts, args.seed, start, args.jobs)
                        for start in range(args.jobs)
                    ],
                    strict=True,
                ),
            )
        )
    wins = sum(share[0] for share in shares)
    played = sum(share[1] for share in shares)
    times = sorted(t for share in shares for t in share[2])

    def ms(q: float) -> float:
        return round(times[min(len(times) - 1, int(q * len(times)))] * 1000, 1) if times else 0.0

    print(  # noqa: T201 - a benchmark's result
        f"{played} games, look-ahead seat (options {args.options}, playouts {args.playouts}): "
        f"win rate {wins / played:.1%} (parity {1 / PLAYERS:.0%}); decision ms p50 {ms(0.5)} "
        f"p99 {ms(0.99)} max {ms(1.0)}; {time.perf_counter() - started:.0f} s"
    )


if __name__ == "__main__":
    main()
