"""Short simulated futures of a game: the look-ahead player's measuring stick.

A *playout* copies the game, forgets what no player can know (the order of the cards
still in the decks, the dice to come: both are drawn afresh from a seed of the playout's
own), plays a few rounds with the built-in simple players in every seat and scores the
position it reaches with :func:`~.valuation.position_value`: cash, lots and the rent
they are expected to bring in.

:func:`compare` plays the same seeded futures after each of a few choices ("common
random numbers"): every choice meets the same dice, so the difference of the scores is
the choice's doing and not luck, and a few dozen playouts tell choices apart that would
need thousands of independent ones.

Everything is deterministic: the seeds come from the game's own generator state (which
the playouts never show — a seed drawn from it predicts nothing about the real dice) and
from the decision being taken. The work is counted in simulated turns, not in seconds,
so the same game always gives the same decision on any machine; the budget is chosen
so a decision stays well within a click's answer time (see ``monopoly-bot tournament``).
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass

from bot.engine.computer.valuation import lot_income
from bot.engine.errors import IllegalAction
from bot.engine.game import apply_action
from bot.engine.rng import SplitMix64
from bot.engine.simple_players import SimplePlayer, next_simple_action
from bot.engine.state import GameState
from bot.engine.wealth import wealth

#: A choice to compare: changes a copy of the game (e.g. applies an action).
Choice = Callable[[GameState], None]
#: Actions a playout may take per simulated turn before it gives up (a safety net).
ACTIONS_PER_TURN = 80
_PLAYOUT_PLAYERS = SimplePlayer()
_SEED_SALT = 0x5EED_10CA_11EA_D5


@dataclass(frozen=True)
class Budget:
    """How much simulation one decision may use: playouts per choice and their length."""

    playouts: int = 24
    rounds: int = 3

    def turns_for(self, state: GameState) -> int:
        """Simulated turns one playout lasts: ``rounds`` rounds of the players left."""
        return self.rounds * max(1, len(state.active_players()))


def playout_seeds(state: GameState, salt: int, count: int) -> list[int]:
    """``count`` seeds for the playouts of one decision, the same for every choice."""
    mixer = SplitMix64(state.rng.state ^ _SEED_SALT ^ (salt * 0x9E3779B1))
    return [mixer.next64() for _ in range(count)]


def future_value(state: GameState, seat: int) -> float:
    """What ``seat`` has and will earn: its wealth as the rulebook counts it (lots at their
    price) plus the rent its lots are expected to bring (:func:`~.valuation.lot_income`)."""
    if state.players[seat].bankrupt:
        return 0.0
    total = float(wealth(state, seat))
    for square in state.board.property_indices:
        if state.owner[square] == seat:
            total += lot_income(state, seat, square)
    return total


def score(state: GameState, seat: int) -> float:
    """How good ``state`` is for ``seat``: its future value less the mean of its rivals'.

    The mean (not the richest rival) because a trade that helps one rival a little still
    hurts the other rivals, and bankrupt rivals count as 0: knocking one out pays.
    """
    mine = future_value(state, seat)
    others = [future_value(state, s) for s in range(len(state.players)) if s != seat]
    return mine - sum(others) / max(1, len(others))


def play_out(state: GameState, seed: int, turns: int) -> GameState:
    """Play ``state`` (changed in place) ``turns`` turns on with fresh dice and cards."""
    state.rng = SplitMix64(seed)
    state.dice_queue = []
    for deck in state.decks.values():
        deck.sort()  # the order it had is hidden: nothing of it may reach the future
        state.rng.shuffle(deck)
    last_turn = state.turn + turns
    steps = ACTIONS_PER_TURN * turns
    while state.phase != "over" and state.turn < last_turn and steps > 0:
        action = next_simple_action(state, _PLAYOUT_PLAYERS)
        if action is None:
            break
        apply_action(state, action)
        steps -= 1
    return state


def compare(
    state: GameState,
    seat: int,
    choices: Sequence[Choice],
    budget: Budget,
    salt: int = 0,
) -> list[float]:
    """The mean :func:`score` for ``seat`` after each of ``choices``, over the same futures.

    A choice that raises (an action the rules refuse) scores minus infinity.
    """
    turns = budget.turns_for(state)
    seeds = playout_seeds(state, salt, budget.playouts)
    means = []
    for choice in choices:
        total = 0.0
        for seed in seeds:
            future = state.copy()
            future.record_events = False  # nobody reads a future's events
            try:
                choice(future)
            except IllegalAction:  # an illegal choice is simply not taken
                total = float("-inf")
                break
            total += score(play_out(future, seed, turns), seat)
        means.append(total / len(seeds))
    return means


def act(action: dict) -> Choice:
    """A choice that applies ``action``."""

    def choice(future: GameState) -> None:
        apply_action(future, action)

    return choice


def nothing(future: GameState) -> None:
    """The choice of doing nothing (the game as it stands)."""
