"""Property-based tests of the card game: random legal play keeps every invariant.

A game is built from drawn players, seed and settings, optionally played on for
a while by the simple players, and then driven by random *legal* actions (drawn
by hypothesis from :func:`legal_actions`) mixed with random *illegal* attempts.
After every step: the 60 cards are all accounted for, the player whose turn just
ended holds a full hand again, scores only grow (by exactly the round's points),
the canonical JSON round-trips and a copy continues identically, refusals change
nothing, and whoever the game waits on has a legal action. At the end the record
replays to the identical state.
"""

from __future__ import annotations

import os
from typing import Any

from hypothesis import HealthCheck, Phase, event, given, settings
from hypothesis import strategies as st

from bot.cardgame.game import apply_action, new_game
from bot.cardgame.legal import is_legal, legal_actions, waiting_for
from bot.cardgame.record import CardRecord
from bot.cardgame.rules import CardRules
from bot.cardgame.simple_player import SimpleCardPlayer, next_simple_action
from bot.cardgame.state import CardState
from bot.engine.errors import IllegalAction

SCALE = max(1, int(os.environ.get("MONOPOLY_EXAMPLES", "1")))
PHASES = tuple(Phase) if os.environ.get("MONOPOLY_SHRINK") else (Phase.explicit, Phase.generate)
PROPERTY_SETTINGS = settings(
    derandomize=True,
    deadline=None,
    phases=PHASES,
    suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large],
)
ACTION_TYPES = ("draw", "discard", "swap", "swap_extra", "lay_out", "arrange", "pass_card")
ODD_VALUES = (None, -1, 0, 1, 2, 7, "x", "go-1", "wild-1", "badstrasse", True, [], {}, ["go-1"])

SETTINGS = st.builds(
    CardRules,
    target=st.sampled_from([None, 3000, 6000]),
    target_inclusive=st.booleans(),
    final_tie=st.sampled_from(["play_on", "shared"]),
    mr_monopoly_tie=st.sampled_from(["nobody", "all", "split"]),
    wild_holder_mr_monopoly=st.booleans(),
    token_includes_hotel=st.booleans(),
    empty_stock=st.sampled_from(["swap_only", "score"]),
    others_limited=st.booleans(),
    wild_only_groups=st.booleans(),
    lay_out_size=st.sampled_from(["hand", "ten"]),
)


def check_invariants(state: CardState) -> None:
    """The 60 cards, hand sizes, waiting seats and the JSON form."""
    size = state.table.hand_size
    if state.phase == "over":
        assert state.winners and state.all_cards() == []
        assert waiting_for(state) == []
    else:
        assert sorted(state.all_cards()) == sorted(state.deck.ids)
        for player in state.players:
            assert player.hand == state.deck.sort(player.hand)
        if state.phase == "turn":
            hands = [len(p.hand) for p in state.players]
            assert all(n >= size for n in hands), hands
            if state.table.passes:
                assert hands == [size] * len(hands)
        waiting = waiting_for(state)
        assert waiting
        for seat in waiting:
            assert legal_actions(state, seat), (state.phase, seat)
        assert state.phase != "bonus" or state.ender is not None
    text = state.to_json()
    again = CardState.from_json(text)
    assert again.to_json() == text
    assert CardState.from_dict(state.to_dict()).to_json() == text


def check_step(before: CardState, state: CardState, action: dict, events: list[dict]) -> None:
    """What one applied action may change."""
    gained = [p.score - q.score for p, q in zip(state.players, before.players, strict=True)]
    assert all(g >= 0 for g in gained), gained
    points = [0] * len(state.players)
    for scored in events:
        if scored["type"] == "round_scored":
            points = [a + b for a, b in zip(points, scored["points"], strict=True)]
    assert gained == points
    turns = [e for e in events if e["type"] == "turn"]
    started = [e for e in events if e["type"] == "round_started"]
    if turns and not started and before.phase != "over":
        # "Es werden immer soviel Karten abgelegt, dass der Spieler nach dem Ablegen
        # wieder 10 Karten auf der Hand hat."
        assert len(state.players[before.current].hand) == state.table.hand_size
    assert state.seq == before.seq + 1


def illegal_attempt(data: Any, state: CardState) -> dict[str, Any]:
    """A random action that may or may not be legal."""
    action: dict[str, Any] = {
        "type": data.draw(st.sampled_from(ACTION_TYPES)),
        "player": data.draw(st.integers(-1, len(state.players))),
    }
    for key in ("cards", "card", "target", "count", "pile", "stock", "first_discard", "layout"):
        if data.draw(st.booleans()):
            action[key] = data.draw(st.sampled_from(ODD_VALUES))
    return action


@settings(PROPERTY_SETTINGS, max_examples=40 * SCALE)
@given(
    players=st.integers(2, 6),
    seed=st.integers(0, 2**32),
    rules=SETTINGS,
    warmup=st.integers(0, 150),
    data=st.data(),
)
def test_random_play_keeps_the_invariants(
    players: int, seed: int, rules: CardRules, warmup: int, data: Any
) -> None:
    state = new_game([(f"p{i}", f"P{i}") for i in range(players)], seed, rules)
    record = CardRecord.begin(state)
    bots = [SimpleCardPlayer() for _ in range(players)]
    check_invariants(state)
    for _ in range(warmup):
        if state.phase == "over":
            break
        action = next_simple_action(state, bots)
        assert action is not None
        record.add(action, apply_action(state, action))
    check_invariants(state)
    for _ in range(data.draw(st.integers(5, 40))):
        if state.phase == "over":
            break
        if data.draw(st.integers(0, 3)) == 0:
            attempt = illegal_attempt(data, state)
            legal = is_legal(state, attempt)
            before = state.to_json()
            try:
                events = apply_action(state, attempt)
            except IllegalAction:
                assert not legal, attempt
                assert state.to_json() == before  # a refusal changes nothing
                continue
            assert legal, attempt
            event(f"random attempt accepted: {attempt['type']}")
            record.add(attempt, events)
            check_invariants(state)
            continue
        seat = data.draw(st.sampled_from(waiting_for(state)))
        options = legal_actions(state, seat)
        # Type first, then one of its actions: otherwise the many swaps drown the rest.
        kind = data.draw(st.sampled_from(sorted({o["type"] for o in options})))
        action = data.draw(st.sampled_from([o for o in options if o["type"] == kind]))
        before = state.copy()
        twin = state.copy()
        events = apply_action(state, action)
        event(f"action {action['type']}")
        record.add(action, events)
        assert apply_action(twin, action) == events  # a copy continues identically
        assert twin.to_json() == state.to_json()
        check_step(before, state, action, events)
        check_invariants(state)
    assert record.replay().to_json() == state.to_json()


@settings(PROPERTY_SETTINGS, max_examples=10 * SCALE)
@given(players=st.integers(2, 6), seed=st.integers(0, 2**32), rules=SETTINGS)
def test_simple_players_finish_with_every_setting(
    players: int, seed: int, rules: CardRules
) -> None:
    """Whole games between simple players end, keeping the invariants after every step."""
    state = new_game([(f"p{i}", f"P{i}") for i in range(players)], seed, rules)
    bots = [SimpleCardPlayer() for _ in range(players)]
    for _ in range(20_000):
        if state.phase == "over":
            break
        action = next_simple_action(state, bots)
        assert action is not None
        before = state.copy()
        events = apply_action(state, action)
        check_step(before, state, action, events)
        assert state.phase == "over" or sorted(state.all_cards()) == sorted(state.deck.ids)
    assert state.phase == "over"
    assert state.winners
    best = max(p.score for p in state.players)
    assert all(state.players[w].score == best for w in state.winners)
