"""Counter-offers: one atomic action in the engine, and the strong player's own counters.

* ``propose_trade`` with ``counter_of`` replaces the offer it answers in the same action
  (only its addressee may counter it, only to its proposer); the new record names the
  offer (``counter_of``) and its ``round`` in the chain; a refused counter changes nothing.
* The strong player answers an offer it would decline with the nearest offer it would
  accept (``bot.engine.computer.counter``): more cash, or one lot more or less, the change
  for the partner as small as possible in money — checked here against a brute-force
  search; it declines instead when the trade would give it a group it could not build on,
  and after two counters in one chain.

Positions are built with ``tests.engine.conftest.game`` on the de_euro board.
"""

from __future__ import annotations

import json
import time
from typing import Any

import pytest

from bot.engine import trades
from bot.engine.computer import next_action
from bot.engine.computer.counter import (
    LAST_ROUND_COUNTERED,
    can_build_on_new_groups,
    counter_offer,
)
from bot.engine.computer.easy import EasyPlayer
from bot.engine.computer.strong import StrongPlayer
from bot.engine.computer.valuation import completes_group
from bot.engine.errors import IllegalAction
from bot.engine.game import apply_action
from bot.engine.record import GameRecord
from bot.engine.state import GameState
from tests.engine.conftest import (
    BADSTRASSE,
    CHAUSSEESTRASSE,
    ELISENSTRASSE,
    HAFENSTRASSE,
    NEUE_STRASSE,
    PARKSTRASSE,
    POSTSTRASSE,
    SCHLOSSALLEE,
    SEESTRASSE,
    SUEDBAHNHOF,
    TURMSTRASSE,
    WASSERWERK,
    act,
    game,
    owned,
    refuse,
)

STRONG = StrongPlayer()
HUMAN, COMPUTER, OTHER = 0, 1, 2


def offer(
    state: GameState, give: dict[str, Any], get: dict[str, Any], *, player: int = HUMAN
) -> dict[str, Any]:
    """``player`` (the human) offers the computer (seat 1) ``give`` for ``get``."""
    act(state, "propose_trade", player, to=COMPUTER, give=give, get=get)
    return state.trades[-1]


def as_offered(counter: dict[str, Any], trade: dict[str, Any]) -> dict[str, Any]:
    """A counter-offer of the computer seen as an offer to it (how ``likes`` judges)."""
    return {
        "from": trade["from"],
        "to": trade["to"],
        "give": counter["get"],
        "get": counter["give"],
    }


def net_cash(side_to_us: dict[str, Any], side_from_us: dict[str, Any]) -> int:
    return int(side_to_us.get("cash", 0)) - int(side_from_us.get("cash", 0))


def distance(trade: dict[str, Any], counter: dict[str, Any], state: GameState) -> int:
    """The change for the partner in money: extra cash plus the price of lots in or out."""
    price = state.board.squares
    cash = net_cash(counter["get"], counter["give"]) - net_cash(trade["give"], trade["get"])
    lots_in = set(counter["get"]["lots"]) ^ set(trade["give"]["lots"])
    lots_out = set(counter["give"]["lots"]) ^ set(trade["get"]["lots"])
    return cash + sum(price[i].price for i in lots_in | lots_out)


def money(state: GameState) -> int:
    """All cash in the game (players and bank, if the bank's cash is counted)."""
    bank = state.to_dict().get("bank", {})
    return sum(p.cash for p in state.players) + int(bank.get("cash", 0) or 0)


# -- the engine: one atomic action ------------------------------------------------------


def test_a_counter_offer_replaces_the_original_in_one_action() -> None:
    state = game(3)
    first = offer(state, {"cash": 10}, {})
    events = act(
        state, "propose_trade", COMPUTER, to=HUMAN, give={}, get={"cash": 20}, counter_of=1
    )
    assert [t["id"] for t in state.trades] == [2]
    counter = state.trades[0]
    assert first["round"] == 1 and "counter_of" not in first
    assert counter["counter_of"] == 1 and counter["round"] == 2
    assert (counter["from"], counter["to"]) == (COMPUTER, HUMAN)
    assert {"type": "trade_countered", "trade": 1, "player": COMPUTER, "new": 2} in events
    assert {"type": "trade_proposed", "trade": 2, "from": COMPUTER, "to": HUMAN} in events
    # ... and the counter of a counter is the chain's third round.
    act(state, "propose_trade", HUMAN, to=COMPUTER, give={"cash": 15}, get={}, counter_of=2)
    assert [(t["id"], t["counter_of"], t["round"]) for t in state.trades] == [(3, 2, 3)]


@pytest.mark.parametrize(
    ("seat", "params", "code"),
    [
        (HUMAN, {"to": COMPUTER, "counter_of": 1}, "not_your_trade"),  # its own offer
        (OTHER, {"to": HUMAN, "counter_of": 1}, "not_your_trade"),  # not the addressee
        (COMPUTER, {"to": HUMAN, "counter_of": 9}, "no_such_trade"),  # unknown id
        (COMPUTER, {"to": HUMAN, "counter_of": "1"}, "no_such_trade"),  # not an id
        (COMPUTER, {"to": OTHER, "counter_of": 1}, "bad_trade_partner"),  # not to the proposer
    ],
)
def test_an_illegal_counter_offer_changes_nothing(
    seat: int, params: dict[str, Any], code: str
) -> None:
    state = game(3)
    offer(state, {"cash": 10}, {})
    refuse(state, "propose_trade", seat, code, give={}, get={"cash": 20}, **params)
    assert [t["id"] for t in state.trades] == [1]


def test_a_counter_offer_the_proposer_cannot_pay_changes_nothing() -> None:
    state = game([{"cash": 100}, {}])
    offer(state, {"cash": 10}, {})
    refuse(
        state,
        "propose_trade",
        COMPUTER,
        "insufficient_funds",
        to=HUMAN,
        get={"cash": 500},
        counter_of=1,
    )


def test_an_old_state_without_rounds_loads_and_counts_as_round_one() -> None:
    state = game(2)
    offer(state, {"cash": 10}, {"lots": []})
    raw = json.loads(state.to_json())
    for trade in raw["trades"]:
        del trade["round"]
    old = GameState.from_json(json.dumps(raw))
    assert trades.trade_round(old.trades[0]) == 1
    act(old, "propose_trade", COMPUTER, to=HUMAN, give={}, get={"cash": 20}, counter_of=1)
    assert old.trades[0]["round"] == 2


def test_a_record_with_counter_offers_replays() -> None:
    state = game(2, lots={**owned(COMPUTER, TURMSTRASSE)})
    record = GameRecord.begin(state)
    for action in (
        {"type": "propose_trade", "player": 0, "to": 1, "give": {"cash": 10}, "get": {"lots": [3]}},
        {
            "type": "propose_trade",
            "player": 1,
            "to": 0,
            "give": {"lots": [3]},
            "get": {"cash": 90},
            "counter_of": 1,
        },
        {"type": "accept_trade", "player": 0, "trade": 2},
    ):
        record.add(action, apply_action(state, action))
    replayed = GameRecord.from_dict(json.loads(json.dumps(record.to_dict()))).replay()
    assert replayed.to_json() == state.to_json()
    assert replayed.owner[TURMSTRASSE] == HUMAN and replayed.trades == []


# -- the strong player's counter-offer --------------------------------------------------


def brute_force_nearest(state: GameState, trade: dict[str, Any]) -> int | None:
    """The least change (in money) of any counter the search may make, tried one by one:
    every lot change (none, one of the partner's lots more, one of ours out) and every
    amount of cash from the partner's offer up to all its cash."""
    partner = trade["from"]
    give, get = trade["give"], trade["get"]
    squares = state.board.squares
    changes: list[tuple[int, list[int], list[int]]] = [(0, [], [])]
    for square in state.board.property_indices:
        if state.owner[square] == partner and square not in give["lots"]:
            changes.append((squares[square].price, [square], []))
    changes += [(squares[s].price, [], [s]) for s in get["lots"]]
    offered = give["cash"] - get["cash"]
    best = None
    for price, lots_in, lots_out in changes:
        for net in range(offered, state.players[partner].cash + 1):
            candidate = {
                "from": partner,
                "to": trade["to"],
                "give": {
                    "cash": max(net, 0),
                    "lots": sorted(set(give["lots"]) | set(lots_in)),
                    "jail_cards": give["jail_cards"],
                },
                "get": {
                    "cash": max(-net, 0),
                    "lots": sorted(set(get["lots"]) - set(lots_out)),
                    "jail_cards": get["jail_cards"],
                },
            }
            if price == 0 and net == offered:
                continue
            if not candidate["get"]["lots"] and net >= 0:
                continue  # the partner would get nothing
            try:
                trades.check_trade(state, candidate)
            except IllegalAction:
                continue
            if STRONG.likes(state, trade["to"], candidate):
                change = price + net - offered
                best = change if best is None else min(best, change)
                break  # more cash only moves further away
    return best


def test_a_cheap_offer_gets_a_counter_the_strong_player_itself_likes() -> None:
    """A human offers 10 € for the strong player's Seestraße (three players): not enough.
    The answer is a counter-offer asking more cash; it likes it, the human accepts, the
    trade is done and no money appears or vanishes."""
    state = game([{"cash": 2000}, {}, {}], lots={**owned(COMPUTER, SEESTRASSE, TURMSTRASSE)})
    trade = offer(state, {"cash": 10}, {"lots": [SEESTRASSE]})
    assert not STRONG.likes(state, COMPUTER, trade)
    answer = STRONG.respond_to_offers(state, COMPUTER)
    assert answer is not None and answer["type"] == "propose_trade"
    assert answer["counter_of"] == trade["id"] and answer["to"] == HUMAN
    assert STRONG.likes(state, COMPUTER, as_offered(answer, trade))
    assert answer["give"]["lots"] == [SEESTRASSE] and answer["get"]["cash"] > 10
    before = money(state)
    apply_action(state, answer)
    counter = state.trades[0]
    assert counter["counter_of"] == trade["id"] and counter["round"] == 2
    act(state, "accept_trade", HUMAN, trade=counter["id"])
    assert state.owner[SEESTRASSE] == HUMAN and state.trades == []
    assert money(state) == before


def test_the_nearest_counter_asks_just_enough_cash() -> None:
    state = game([{"cash": 2000}, {}, {}], lots={**owned(COMPUTER, SEESTRASSE, TURMSTRASSE)})
    trade = offer(state, {"cash": 10}, {"lots": [SEESTRASSE]})
    answer = counter_offer(STRONG, state, COMPUTER, trade)
    assert answer is not None
    asked = answer["get"]["cash"]
    one_less = as_offered({**answer, "get": {**answer["get"], "cash": asked - 1}}, trade)
    assert not STRONG.likes(state, COMPUTER, one_less)
    assert distance(trade, answer, state) == brute_force_nearest(state, trade) == asked - 10


def test_the_nearest_counter_asks_for_a_lot_when_cash_cannot_do() -> None:
    """The human has 40 € and offers 10 € for Seestraße: no cash it holds is enough, so
    the counter asks one of its lots too, the cheapest change that works."""
    lots = {
        **owned(COMPUTER, SEESTRASSE),
        **owned(HUMAN, BADSTRASSE, WASSERWERK, SUEDBAHNHOF, PARKSTRASSE),
    }
    state = game([{"cash": 40}, {}, {}], lots=lots)
    trade = offer(state, {"cash": 10}, {"lots": [SEESTRASSE]})
    answer = counter_offer(STRONG, state, COMPUTER, trade)
    assert answer is not None
    added = set(answer["get"]["lots"])
    assert len(added) == 1 and added <= {BADSTRASSE, WASSERWERK, SUEDBAHNHOF, PARKSTRASSE}
    assert STRONG.likes(state, COMPUTER, as_offered(answer, trade))
    assert distance(trade, answer, state) == brute_force_nearest(state, trade)
    apply_action(state, answer)
    act(state, "accept_trade", HUMAN, trade=state.trades[0]["id"])
    assert state.owner[SEESTRASSE] == HUMAN and state.owner[added.pop()] == COMPUTER


def test_the_nearest_counter_may_take_out_a_lot_it_was_asked_for() -> None:
    """The human asks two lots for little: keeping one back can be the nearer counter."""
    lots = {**owned(COMPUTER, SEESTRASSE, SCHLOSSALLEE)}
    state = game([{"cash": 300}, {}, {}], lots=lots)
    trade = offer(state, {"cash": 30}, {"lots": [SEESTRASSE, SCHLOSSALLEE]})
    answer = counter_offer(STRONG, state, COMPUTER, trade)
    assert answer is not None
    assert distance(trade, answer, state) == brute_force_nearest(state, trade)
    assert answer["give"]["lots"] == [SEESTRASSE]  # Schlossallee is kept back


@pytest.mark.parametrize("wanted", [TURMSTRASSE, SCHLOSSALLEE])
def test_no_counter_hands_over_a_group_cheaply(wanted: int) -> None:
    """The human asks for the lot that completes its group, for nothing: a counter that
    still hands the group over asks enough that the strong player gains more than the
    human (the ``likes`` rule); a group for its printed price less 1 € is refused."""
    mine = BADSTRASSE if wanted == TURMSTRASSE else PARKSTRASSE
    state = game([{"cash": 10_000}, {}], lots={**owned(HUMAN, mine), **owned(COMPUTER, wanted)})
    trade = offer(state, {}, {"lots": [wanted]})
    answer = STRONG.respond_to_offers(state, COMPUTER)
    assert answer is not None and answer["type"] == "propose_trade"
    countered = as_offered(answer, trade)
    owner = list(state.owner)
    for square in answer["give"]["lots"]:
        owner[square] = HUMAN
    for square in answer["get"]["lots"]:
        owner[square] = COMPUTER
    if all(owner[i] == HUMAN for i in state.board.group_of[wanted]):
        human_gain, my_gain = STRONG.trade_gains(state, countered)
        assert my_gain >= human_gain + STRONG.margin(state)
    price = state.board.squares[wanted].price
    cheap = {**countered, "give": {"cash": price - 1, "lots": [], "jail_cards": []}}
    cheap["get"] = {"cash": 0, "lots": [wanted], "jail_cards": []}
    assert not STRONG.likes(state, COMPUTER, cheap)
    assert net_cash(answer["get"], answer["give"]) >= 0


@pytest.mark.parametrize(("cash", "counters"), [(2000, True), (80, False)])
def test_no_counter_for_a_group_it_could_not_build_on(cash: int, counters: bool) -> None:
    """The human offers its mortgaged Schlossallee, which completes the strong player's
    dark blue, but asks far too much for it. With 80 € the strong player could neither
    lift the mortgage nor build on the group after the trade: it declines; a rich one
    counters."""
    pink = [SEESTRASSE, HAFENSTRASSE, NEUE_STRASSE]
    lots = {
        **owned(HUMAN, SCHLOSSALLEE, mortgaged=True),
        **owned(COMPUTER, PARKSTRASSE, CHAUSSEESTRASSE, *pink),
    }
    state = game([{"cash": 2000}, {"cash": cash}, {}], lots=lots)
    trade = offer(state, {"lots": [SCHLOSSALLEE]}, {"lots": [CHAUSSEESTRASSE, *pink]})
    assert completes_group(state, COMPUTER, [SCHLOSSALLEE])
    assert not STRONG.likes(state, COMPUTER, trade)
    assert can_build_on_new_groups(state, COMPUTER, trade) is counters
    answer = STRONG.respond_to_offers(state, COMPUTER)
    assert answer is not None
    if counters:
        assert answer["type"] == "propose_trade" and answer["counter_of"] == trade["id"]
        assert STRONG.likes(state, COMPUTER, as_offered(answer, trade))
    else:
        assert answer == {"type": "decline_trade", "player": COMPUTER, "trade": trade["id"]}


def test_the_chain_ends_after_two_counters() -> None:
    """The human insists on its terms three times; the strong player counters twice (rounds
    2 and 4) and then declines."""
    state = game([{"cash": 2000}, {}, {}], lots={**owned(COMPUTER, SEESTRASSE)})
    give, get = {"cash": 10}, {"lots": [SEESTRASSE]}
    offer(state, give, get)
    rounds = []
    for _ in range(3):
        answer = STRONG.respond_to_offers(state, COMPUTER)
        assert answer is not None
        apply_action(state, answer)
        if answer["type"] == "decline_trade":
            break
        counter = state.trades[-1]
        rounds.append(counter["round"])
        # The human counters with its first offer again.
        act(
            state, "propose_trade", HUMAN, to=COMPUTER, give=give, get=get, counter_of=counter["id"]
        )
    assert rounds == [2, 4]
    assert LAST_ROUND_COUNTERED == 3
    assert state.trades == [] and state.owner[SEESTRASSE] == COMPUTER


def test_two_strong_players_end_their_chain() -> None:
    """Computer against computer, the chain ends too (each counters at most twice)."""
    state = game(
        [{}, {}, {}], lots={**owned(0, CHAUSSEESTRASSE, ELISENSTRASSE), **owned(1, POSTSTRASSE)}
    )
    act(state, "propose_trade", 0, to=1, give={"cash": 1}, get={"lots": [POSTSTRASSE]})
    players = {0: StrongPlayer(), 1: StrongPlayer()}
    for _ in range(10):
        if not state.trades:
            break
        action = next_action(state, players)
        assert action is not None and action["type"] != "end_turn"
        apply_action(state, action)
    assert state.trades == []


def test_the_easy_player_never_counters() -> None:
    state = game([{"cash": 2000}, {}, {}], lots={**owned(COMPUTER, SEESTRASSE)})
    trade = offer(state, {"cash": 10}, {"lots": [SEESTRASSE]})
    assert EasyPlayer().respond_to_offers(state, COMPUTER) == {
        "type": "decline_trade",
        "player": COMPUTER,
        "trade": trade["id"],
    }


def test_a_counter_is_quick() -> None:
    """Each answer (the search included) within 20 ms on these positions."""
    lots = {
        **owned(COMPUTER, SEESTRASSE, SCHLOSSALLEE, TURMSTRASSE),
        **owned(HUMAN, BADSTRASSE, WASSERWERK, SUEDBAHNHOF, PARKSTRASSE, HAFENSTRASSE),
    }
    times = []
    for cash in (40, 400, 4000):
        state = game([{"cash": cash}, {}, {}], lots=lots)
        offer(state, {"cash": 10}, {"lots": [SEESTRASSE, TURMSTRASSE]})
        started = time.perf_counter()
        answer = STRONG.respond_to_offers(state, COMPUTER)
        times.append(time.perf_counter() - started)
        assert answer is not None
    assert max(times) < 0.020, times
