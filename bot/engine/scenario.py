"""Scenario files: set up a position, apply actions with given dice, report the state.

The format is documented in ``docs/scenarios.md``. A scenario names players
(cash, position, jail state, jail-free cards), lots (owner, buildings, mortgage),
optionally the bank's stock, whose turn it is and the order of both decks, then
lists steps: an action, the dice it should throw, and optionally the error the
action must be refused with.
"""

from __future__ import annotations

from typing import Any

from bot.engine.board import load_board
from bot.engine.errors import IllegalAction
from bot.engine.flow import settle
from bot.engine.game import apply_action
from bot.engine.rules import Rules
from bot.engine.state import BANK, HOTEL, GameState, Player

SCENARIO_FORMAT = "monopoly-scenario/1"


class ScenarioError(Exception):
    """The scenario file is malformed or a step did not go as it said."""


def _square_index(state: GameState, key: Any) -> int:
    if isinstance(key, int) or (isinstance(key, str) and key.isdigit()):
        index = int(key)
        if 0 <= index < 40:
            return index
    elif isinstance(key, str):
        try:
            return state.board.square_by_name(key).index
        except KeyError:
            pass
    raise ScenarioError(f"unknown square {key!r}")


def setup(raw: dict[str, Any]) -> GameState:
    """Build the starting position of a scenario."""
    if raw.get("format") != SCENARIO_FORMAT:
        raise ScenarioError(f"not a {SCENARIO_FORMAT} document")
    rules = Rules.from_preset(raw.get("preset", "classic"), **raw.get("rules", {}))
    board = load_board(rules.board)
    start = board.start_money if rules.start_money is None else rules.start_money
    players = []
    for number, p in enumerate(raw["players"]):
        players.append(
            Player(
                id=str(p.get("id", f"p{number}")),
                name=p.get("name", f"Player {number + 1}"),
                cash=p.get("cash", start),
                position=p.get("position", 0),
                in_jail=p.get("in_jail", False),
                jail_turns=p.get("jail_turns", 0),
                jail_cards=list(p.get("jail_cards", [])),
            )
        )
    state = GameState(rules, board, players, seed=raw.get("seed", 0))
    for key, lot in raw.get("lots", {}).items():
        square = _square_index(state, key)
        if not board.squares[square].is_property:
            raise ScenarioError(f"square {key!r} cannot be owned")
        state.owner[square] = lot.get("owner", BANK)
        houses = lot.get("houses", 0)
        state.houses[square] = HOTEL if lot.get("hotel") else houses
        state.mortgaged[square] = lot.get("mortgaged", False)
    on_board_houses = sum(h for h in state.houses if h != HOTEL)
    on_board_hotels = sum(1 for h in state.houses if h == HOTEL)
    bank = raw.get("bank", {})
    state.bank_houses = bank.get("houses", state.bank_houses - on_board_houses)
    state.bank_hotels = bank.get("hotels", state.bank_hotels - on_board_hotels)
    held = {deck: sum(p.jail_cards.count(deck) for p in players) for deck in state.decks}
    for deck, order in raw.get("decks", {}).items():
        state.decks[deck] = list(order)
    for deck, count in held.items():
        if count and deck not in raw.get("decks", {}):
            jail_ids = [
                c.id for c in board.decks[deck] if c.effect["type"] == "get_out_of_jail_free"
            ]
            state.decks[deck] = [i for i in state.decks[deck] if i not in jail_ids[:count]]
    state.current = raw.get("current", 0)
    state.turn = raw.get("turn", 1)
    state.doubles = raw.get("doubles", 0)
    state.may_roll = raw.get("may_roll", True)
    settle(state)
    return state


def run(raw: dict[str, Any]) -> GameState:
    """Set up a scenario and apply its steps; return the final state."""
    state = setup(raw)
    for number, step in enumerate(raw.get("steps", [])):
        state.dice_queue = list(step.get("dice", []))
        expected_error = step.get("error")
        try:
            apply_action(state, step["action"])
        except IllegalAction as error:
            if expected_error != error.code:
                raise ScenarioError(f"step {number}: refused with {error}") from error
        else:
            if expected_error is not None:
                raise ScenarioError(f"step {number}: expected error {expected_error!r}")
        if state.dice_queue:
            raise ScenarioError(f"step {number}: unused dice {state.dice_queue}")
    return state
