"""Property tests: random legal play keeps every invariant under every preset.

For each preset (and classic with the house rules switched on, and with sealed-bid
auctions) hypothesis builds a seeded game, lets the simple players play a drawn number
of actions, and then plays random *legal* actions (``bot.engine.legal.legal_actions``,
live and sealed bids anywhere in ``bid_range``), now and then the system action
``time_up`` in presets that end at an agreed time and ``close_auction`` while an
auction runs. After every action:

* money is conserved: every change of a player's cash and of the Free Parking pot
  (payee/payer ``-2``) is explained by that action's ``payment`` events;
* the building stock is constant (bank + board = the preset's totals);
* building is even (each new building goes on a lowest street of its group, each sold
  one comes off a highest one; the groups stay within one level except after the
  Spielmark whole-hotel sale, 002), only on whole groups of one owner, and in the mark
  preset only while every lot is sold;
* owners are consistent (the bank or a player still in the game, mortgages only on
  owned lots, bankrupt players hold nothing), the jail-free cards are all accounted for;
* the game ends as its preset says (bankruptcy count, agreed time, standings);
* the canonical JSON round-trips exactly;

and at the end of every example the recorded actions replay to the identical state.
"""

from __future__ import annotations

import json
from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from bot.engine.game import apply_action, new_game
from bot.engine.legal import bid_range, legal_actions, waiting_for
from bot.engine.record import GameRecord
from bot.engine.rules import Rules
from bot.engine.simple_players import SimplePlayer
from bot.engine.state import BANK, HOTEL, POT, GameState
from bot.engine.wealth import standings

SETTINGS = settings(
    derandomize=True,
    database=None,
    deadline=None,
    max_examples=20,
    suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large],
)

HOUSE_RULES = {
    "go_landing_bonus": True,
    "free_parking": "taxes",
    "auction_min_raise": 10,
    "rent_while_in_jail": False,
}
CONFIGS: dict[str, Rules] = {
    "classic": Rules.from_preset("classic"),
    "mark": Rules.from_preset("mark"),
    "modern": Rules.from_preset("modern"),
    "short": Rules.from_preset("short"),
    "time_limit": Rules.from_preset("time_limit"),
    "fast": Rules.from_preset("fast"),
    "classic+house_rules": Rules.from_preset("classic", **HOUSE_RULES),
    "mark+fixed_parking": Rules.from_preset(
        "mark", free_parking="fixed", free_parking_amount=2000, auction_min_raise=100
    ),
    # House rule: every auction with sealed bids (second price + the minimum raise).
    "classic+sealed": Rules.from_preset("classic", sealed_auctions=True, auction_min_raise=10),
    "short+sealed_uncovered": Rules.from_preset(
        "short", sealed_auctions=True, auction_bid_covered_by_cash=False
    ),
}


# -- invariants ---------------------------------------------------------------------------


def level(state: GameState, square: int) -> int:
    houses = state.houses[square]
    return state.rules.hotel_requires_houses + 1 if houses == HOTEL else houses


def check_payments(before: dict[str, Any], state: GameState, events: list[dict[str, Any]]) -> None:
    """Every change of cash and of the pot is explained by the step's payments."""
    count = len(state.players)
    net = [0] * count
    pot = 0
    for event in events:
        if event["type"] != "payment":
            continue
        payer, payee, amount = event["from"], event["to"], event["amount"]
        assert type(amount) is int and amount > 0, event
        assert payer != payee, event
        for side in (payer, payee):
            assert side in (BANK, POT) or 0 <= side < count, event
        if POT in (payer, payee):
            assert state.rules.free_parking == "taxes", event
        for side, sign in ((payer, -1), (payee, 1)):
            if side == POT:
                pot += sign * amount
            elif side >= 0:
                net[side] += sign * amount
    for seat, player in enumerate(state.players):
        assert player.cash - before["cash"][seat] == net[seat], (seat, events)
    assert state.pot - before["pot"] == pot, events


def check_building_steps(
    before: dict[str, Any], state: GameState, events: list[dict[str, Any]]
) -> None:
    """Each building is built on a lowest and sold from a highest street of its group."""
    levels = before["levels"]
    for event in events:
        if event["type"] not in ("built", "sold_building"):
            continue
        square = event["square"]
        group = [levels[i] for i in state.board.group_of[square]]
        if event["type"] == "built":
            assert levels[square] == min(group), (event, group)
            if state.rules.building_requires_all_sold:
                # 002: "erst dann Häuser aufstellen, wenn sämtliche Grundstücke verkauft sind"
                assert before["all_sold"], event
        else:
            assert levels[square] == max(group), (event, group)
        if event["type"] == "sold_building" and event["building"] == "hotel":
            whole = state.rules.hotel_sells_whole
            assert state.houses[square] == (0 if whole else state.rules.hotel_requires_houses)


def check_state(state: GameState, start: dict[str, Any], deep: bool = True) -> None:
    """Invariants of a state between actions (``deep``: also liveness and the JSON)."""
    rules, board, players = state.rules, state.board, state.players
    count = len(players)

    # The building stock is constant.
    houses_total = board.houses_total if rules.houses_total is None else rules.houses_total
    hotels_total = board.hotels_total if rules.hotels_total is None else rules.hotels_total
    assert state.bank_houses >= 0 and state.bank_hotels >= 0
    assert state.bank_houses + sum(h for h in state.houses if h != HOTEL) == houses_total
    assert state.bank_hotels + state.houses.count(HOTEL) == hotels_total

    # Buildings only on whole, unmortgaged groups of one owner; the groups are even
    # (002's whole-hotel sale may leave a bare street beside hotels).
    for square, houses in enumerate(state.houses):
        assert houses == HOTEL or 0 <= houses <= rules.hotel_requires_houses, (square, houses)
        if houses:
            assert board.squares[square].kind == "street"
            assert not state.mortgaged[square]
            owner = state.owner[square]
            assert owner != BANK
            assert all(state.owner[i] == owner for i in board.group_of[square])
    for group in board.street_groups:
        levels = [level(state, i) for i in group]
        if not rules.hotel_sells_whole:
            assert max(levels) - min(levels) <= 1, (group, levels)
        if rules.mortgage_requires_bare_group and any(levels):
            assert not any(state.mortgaged[i] for i in group), group

    # Owners: the bank or a player still in the game; bankrupt players hold nothing.
    for square, owner in enumerate(state.owner):
        if owner != BANK:
            assert board.squares[square].is_property
            assert 0 <= owner < count and not players[owner].bankrupt, (square, owner)
        if state.mortgaged[square]:
            assert owner != BANK, square
    for player in players:
        assert player.cash >= 0 and 0 <= player.position < 40
        if player.bankrupt:
            assert not player.jail_cards and not player.in_jail
    for deck, cards in board.decks.items():
        held = sum(p.jail_cards.count(deck) for p in players)
        assert held + len(state.decks[deck]) == len(cards)
        assert len(set(state.decks[deck])) == len(state.decks[deck])

    # The pot exists only with the 'taxes' house rule.
    assert state.pot >= 0
    if rules.free_parking != "taxes":
        assert state.pot == 0

    # The end, as the preset says.
    bankrupt = sum(p.bankrupt for p in players)
    limit = rules.end_after_bankruptcies
    if state.phase == "over":
        winner = state.winner
        assert winner is not None and not players[winner].bankrupt
        if state.end_reason == "last_player":
            assert bankrupt == count - 1 and state.standings is None
        else:
            assert state.standings == [list(row) for row in standings(state)]
            assert state.standings[0][0] == winner
            if state.end_reason == "bankruptcies":
                assert bankrupt == limit
            else:
                assert state.end_reason == "time_limit" and state.time_up
    else:
        assert state.winner is None and bankrupt <= count - 2
        if limit is not None:
            assert bankrupt < limit
        if state.phase in ("roll", "buy", "choice", "end"):
            assert not players[state.current].bankrupt
        # Liveness: everyone the game waits on is in the game and can act.
        for seat in waiting_for(state):
            assert not players[seat].bankrupt, (state.phase, seat)
            if deep:
                assert legal_actions(state, seat), (state.phase, seat)
    if state.time_up:
        # The agreed time ends the game with the turn in progress: no new turn starts.
        assert rules.end_at_deadline
        assert (state.current, state.turn) == start["time_up_turn"]

    # Canonical JSON round-trips exactly.
    if deep:
        text = state.to_json()
        assert GameState.from_json(text).to_json() == text


def snapshot(state: GameState) -> dict[str, Any]:
    return {
        "cash": [p.cash for p in state.players],
        "pot": state.pot,
        "levels": [level(state, i) for i in range(40)],
        "all_sold": all(state.owner[i] != BANK for i in state.board.property_indices),
    }


# -- driving a game -------------------------------------------------------------------------


class Driver:
    """A game with its record; every applied action is checked."""

    def __init__(self, state: GameState) -> None:
        self.state = state
        self.record = GameRecord.begin(state)
        self.bots = [SimplePlayer("leave" if i % 2 else "stay") for i in range(len(state.players))]
        self.start: dict[str, Any] = {"time_up_turn": None}
        self.applied = 0
        rules = state.rules
        dealt = sum(1 for o in state.owner if o != BANK)
        board_lots = len(state.board.property_indices)
        assert dealt == min(rules.deal_deeds * len(state.players), board_lots)
        check_state(state, self.start)

    def apply(self, action: dict[str, Any], deep: bool = True) -> None:
        """Apply a legal action and check it; ``deep`` checks run on every 25th action."""
        state = self.state
        before = snapshot(state)
        events = apply_action(state, action)
        self.record.add(json.loads(json.dumps(action)), events)
        if action["type"] == "time_up":
            self.start["time_up_turn"] = (state.current, state.turn)
        check_payments(before, state, events)
        check_building_steps(before, state, events)
        self.applied += 1
        deep = deep or self.applied % 25 == 0 or state.phase == "over"
        check_state(state, self.start, deep)

    def simple_action(self) -> dict[str, Any]:
        state = self.state
        recipients = {t["to"] for t in state.trades}
        if state.lot_offer is not None:
            recipients.add(state.lot_offer["creditor"])
        for seat in sorted(recipients):
            reply = self.bots[seat].respond_to_offers(state, seat)
            if reply is not None:
                return reply
        seat = waiting_for(state)[0]
        return self.bots[seat].decide(state, seat)

    def random_action(self, data: st.DataObject) -> dict[str, Any]:
        state = self.state
        options = {s: legal_actions(state, s) for s in state.active_players()}
        seats = [s for s, found in options.items() if found]
        seat = data.draw(st.sampled_from(seats), label="seat")
        action = dict(data.draw(st.sampled_from(options[seat]), label="action"))
        if action["type"] in ("bid", "sealed_bid"):
            low, high = bid_range(state, seat)  # type: ignore[misc]
            action["amount"] = data.draw(st.integers(low, min(high, low + 3000)), label="bid")
        return action

    def check_replay(self) -> None:
        text = json.dumps(self.record.to_dict())
        replayed = GameRecord.from_dict(json.loads(text)).replay()
        assert replayed.to_json() == self.state.to_json()


@pytest.mark.parametrize("config", sorted(CONFIGS))
@SETTINGS
@given(data=st.data())
def test_random_legal_play_keeps_the_invariants(config: str, data: st.DataObject) -> None:
    rules = CONFIGS[config]
    count = data.draw(st.integers(rules.min_players, min(rules.max_players, 5)), label="players")
    seed = data.draw(st.integers(0, 2**63 - 1), label="seed")
    seats = [(f"id{i}", f"Spieler {i + 1}") for i in range(count)]
    driver = Driver(new_game(seats, seed=seed, rules=rules))
    state = driver.state
    prefix = data.draw(st.integers(0, 400), label="prefix")
    for _ in range(prefix):
        if state.phase == "over":
            break
        driver.apply(driver.simple_action(), deep=False)
    for _ in range(data.draw(st.integers(1, 60), label="steps")):
        if state.phase == "over":
            break
        mode = data.draw(st.integers(0, 39), label="mode")
        if mode >= 38 and rules.end_at_deadline and not state.time_up:
            driver.apply({"type": "time_up"})
        elif mode >= 36 and state.auction is not None:
            # The auction's closing time passes (the bot's timer).
            driver.apply({"type": "close_auction"})
        elif mode >= 28:
            driver.apply(driver.simple_action())
        else:
            driver.apply(driver.random_action(data))
    driver.check_replay()


@pytest.mark.parametrize("config", sorted(CONFIGS))
def test_whole_simulated_games_keep_the_invariants(config: str) -> None:
    """Complete games of the simple players, checked after every action, to the end."""
    rules = CONFIGS[config]
    count = min(rules.min_players + 1, rules.max_players)
    seats = [(f"id{i}", f"P{i}") for i in range(count)]
    driver = Driver(new_game(seats, seed=1, rules=rules))
    state = driver.state
    while state.phase != "over" and state.turn < 400:
        if rules.end_at_deadline and state.turn >= 100 and not state.time_up:
            driver.apply({"type": "time_up"})
            continue
        driver.apply(driver.simple_action(), deep=False)
    assert state.phase == "over"
    driver.check_replay()
