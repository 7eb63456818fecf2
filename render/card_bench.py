"""How fast the card game runs and draws: engine games and the three card images.

``monopoly-bot bench --cards`` prints :meth:`CardBench.lines`. The engine figure is
:func:`bot.cardgame.simulate.simulate` (simple players deciding every move, as in a
game where every seat is a computer). The images are drawn for a table in the
second round, after one round has been scored, so the table has piles, the hand a
full set of cards and the round result a lay-out.
"""

from __future__ import annotations

import statistics
import time
from collections.abc import Callable
from dataclasses import dataclass

from bot.cardgame.game import apply_action, new_game
from bot.cardgame.simple_player import SimpleCardPlayer, next_simple_action
from bot.cardgame.simulate import game_seed, simulate
from bot.cardgame.state import CardState
from render.cards import clear_card_cache, render_hand, render_round_result, render_table


def second_round_state(players: int = 4, seed: int = 0, turns: int = 3) -> CardState:
    """A game of simple players: one round scored, then ``turns`` turns of the next."""
    seats = [(f"p{i}", f"Player {i + 1}") for i in range(players)]
    state = new_game(seats, seed)
    bots = [SimpleCardPlayer() for _ in range(players)]
    while state.last_round is None and state.phase != "over":
        action = next_simple_action(state, bots)
        assert action is not None
        apply_action(state, action)
    start = state.turn
    while state.turn < start + turns and state.phase != "over":
        action = next_simple_action(state, bots)
        assert action is not None
        apply_action(state, action)
    return state


@dataclass(frozen=True)
class CardBench:
    """Engine throughput and median image times (milliseconds) for one player count."""

    players: int
    games: int
    engine_seconds: float
    actions: int
    turns: int
    replay_actions_per_s: float  # the rules alone: the recorded actions applied again
    repeats: int
    table_cold_ms: float
    table_warm_ms: float
    hand_warm_ms: float
    result_warm_ms: float
    table_bytes: int

    def lines(self) -> list[str]:
        """Two lines for the command line: the engine, then the images."""
        seconds = self.engine_seconds
        return [
            f"cards-engine: {self.games} games of {self.players} simple players (their decisions "
            f"included) in "
            f"{seconds:.2f}s -> {self.games / seconds:.1f} games/s, "
            f"{self.actions / seconds:.0f} actions/s, {self.turns / seconds:.0f} turns/s; "
            f"the rules alone (replaying those actions) {self.replay_actions_per_s:.0f} actions/s",
            f"cards-render: median of {self.repeats}: table cold {self.table_cold_ms:.0f} ms, "
            f"warm {self.table_warm_ms:.0f} ms; hand {self.hand_warm_ms:.0f} ms; "
            f"round result {self.result_warm_ms:.0f} ms; table PNG "
            f"{self.table_bytes / 1024:.0f} KB",
        ]


def replay_speed(games: int, players: int, seed: int) -> float:
    """Actions per second of ``apply_action`` alone, replaying simple players' games."""
    seats = [(f"p{i}", f"Player {i + 1}") for i in range(players)]
    bots = [SimpleCardPlayer() for _ in range(players)]
    records = []
    for game in range(games):
        state = new_game(seats, game_seed(seed, game))
        actions = []
        while state.phase != "over":
            action = next_simple_action(state, bots)
            assert action is not None
            actions.append(action)
            apply_action(state, action)
        records.append((game_seed(seed, game), actions))
    started = time.perf_counter()
    for seeded, actions in records:
        state = new_game(seats, seeded)
        for action in actions:
            apply_action(state, action)
    elapsed = time.perf_counter() - started
    return sum(len(actions) for _, actions in records) / elapsed


def _ms(action: Callable[[], object]) -> float:
    started = time.perf_counter()
    action()
    return (time.perf_counter() - started) * 1000


def bench_cards(
    *, players: int = 4, games: int = 100, seed: int = 0, repeats: int = 15
) -> CardBench:
    """Play ``games`` seeded card games, then time the table, hand and result images.

    Cold clears the cache of drawn cards before the table is drawn (fonts stay
    loaded, as in a running bot); the other figures are with the cards cached.
    """
    result = simulate(games, players, seed)
    state = second_round_state(players, seed)
    seat = state.current
    cold, table, hand, scored = [], [], [], []
    # Interleaved, so that a busy machine slows every measure alike.
    for _ in range(repeats):
        clear_card_cache()
        cold.append(_ms(lambda: render_table(state)))
        table.append(_ms(lambda: render_table(state)))
        hand.append(_ms(lambda: render_hand(state, seat)))
        scored.append(_ms(lambda: render_round_result(state, seat)))
    return CardBench(
        players=players,
        games=result.games,
        engine_seconds=result.seconds,
        actions=result.actions,
        turns=result.turns,
        replay_actions_per_s=replay_speed(min(games, 20), players, seed),
        repeats=repeats,
        table_cold_ms=statistics.median(cold),
        table_warm_ms=statistics.median(table),
        hand_warm_ms=statistics.median(hand),
        result_warm_ms=statistics.median(scored),
        table_bytes=len(render_table(state)),
    )
