"""Property-based tests of the rules engine: random legal play keeps every invariant.

A game is built from drawn players, seed, preset and rule settings, optionally
played on for a while by the simple players, and then driven by random *legal*
actions (drawn by hypothesis), random trade proposals, part-payment offers,
leaving and host actions, and random *illegal* actions. After every step the
money, the buildings, ownership, the jail-free cards, debts and the canonical
JSON are checked, and at the end of an example the recorded actions must replay
to the identical state.

Shrinking a long random game takes minutes, so it is off; the failing draws are
printed either way. ``MONOPOLY_SHRINK=1`` turns it on, and ``MONOPOLY_EXAMPLES=10``
runs ten times as many examples (for a longer search before a release).
"""

from __future__ import annotations

import json
import os
from collections import Counter
from typing import Any

import pytest
from hypothesis import HealthCheck, Phase, event, given, settings
from hypothesis import strategies as st

from bot.engine import scenario
from bot.engine.board import available_boards
from bot.engine.errors import IllegalAction
from bot.engine.game import apply_action, new_game
from bot.engine.legal import bid_range, legal_actions, may_offer_lots, waiting_for
from bot.engine.record import GameRecord
from bot.engine.rules import Rules, available_presets
from bot.engine.simple_players import SimplePlayer
from bot.engine.simulate import SimulationResult, play_game
from bot.engine.state import BANK, HOTEL, POT, GameState

MAX_JSON_BYTES = 50_000
SCALE = max(1, int(os.environ.get("MONOPOLY_EXAMPLES", "1")))
PHASES = tuple(Phase) if os.environ.get("MONOPOLY_SHRINK") else (Phase.explicit, Phase.generate)
PROPERTY_SETTINGS = settings(
    derandomize=True,
    deadline=None,
    phases=PHASES,
    suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large],
)


def examples(count: int) -> settings:
    """The shared settings with ``count`` examples (times MONOPOLY_EXAMPLES)."""
    return settings(PROPERTY_SETTINGS, max_examples=count * SCALE)


# Action types whose every legal instance legal_actions() lists exactly; anything
# else of these types must be refused. (bid is listed with one amount only; trades,
# part-payment offers and the choice of mortgages to lift are open-ended, and
# resigning is not listed.)
LISTED_TYPES = (
    "roll",
    "pay_bail",
    "use_jail_card",
    "buy",
    "decline",
    "choose",
    "end_turn",
    "auction_pass",
    "build",
    "sell_building",
    "mortgage",
    "unmortgage",
    "accept_trade",
    "decline_trade",
    "accept_lots",
    "decline_lots",
    "declare_bankruptcy",
    "claim_rent",
)
RARE_TYPES = frozenset(
    {
        "claim_rent",
        "accept_lots",
        "accept_trade",
        "declare_bankruptcy",
        "pay_bail",
        "bid",
        "decide_mortgages",
    }
)
OPEN_TYPES = ("propose_trade", "offer_lots", "resign", "decide_mortgages")
ALL_TYPES = (*LISTED_TYPES, "bid", *OPEN_TYPES)
SYSTEM_TYPES = ("time_up", "remove_player", "end_game")
ODD_VALUES = (None, -1, 40, 10**12, "3", True, 2.5, [], {})
INTERESTING_EVENTS = frozenset(
    {
        "built",
        "sold_building",
        "mortgaged",
        "unmortgaged",
        "debt",
        "bankrupt",
        "game_over",
        "auction_won",
        "building_refunded",
        "trade_done",
        "lots_accepted",
        "kept_mortgage",
        "rent_claimed",
        "resigned",
        "removed",
        "time_up",
    }
)


# -- invariants ---------------------------------------------------------------------------


def check_money(
    state: GameState,
    cash_before: list[int],
    pot_before: int,
    events: list[dict[str, Any]],
) -> None:
    """(a) every change of a player's cash (and the pot) is one of the step's payments."""
    net = [0] * len(state.players)
    pot = 0
    for e in events:
        if e["type"] != "payment":
            continue
        amount = e["amount"]
        assert type(amount) is int and amount > 0, e
        assert e["from"] != e["to"], e
        for side, sign in (("from", -1), ("to", 1)):
            who = e[side]
            assert who in (BANK, POT) or 0 <= who < len(state.players), e
            if who >= 0:
                net[who] += sign * amount
            elif who == POT:
                pot += sign * amount
    for seat, player in enumerate(state.players):
        assert player.cash - cash_before[seat] == net[seat], (seat, cash_before, events)
    assert state.pot - pot_before == pot, (pot_before, state.pot, events)


def check_invariants(state: GameState, *, with_json: bool = True) -> None:
    """(b)-(e), liveness and (unless ``with_json`` is off) (f) and (h) on a state."""
    rules, board = state.rules, state.board
    players = state.players
    hotel_level = rules.hotel_requires_houses + 1

    # (b) the houses and hotels in the bank and on the board add up to the stock.
    houses_total = rules.houses_total if rules.houses_total is not None else board.houses_total
    hotels_total = rules.hotels_total if rules.hotels_total is not None else board.hotels_total
    on_board_houses = sum(h for h in state.houses if h != HOTEL)
    on_board_hotels = sum(1 for h in state.houses if h == HOTEL)
    assert state.bank_houses >= 0 and state.bank_hotels >= 0
    assert state.bank_houses + on_board_houses == houses_total
    assert state.bank_hotels + on_board_hotels == hotels_total

    # (c) buildings: only on streets of one owner's whole group, evenly (a hotel is
    # one level above the houses it needs), never on a mortgaged lot.
    for square, houses in enumerate(state.houses):
        assert houses == HOTEL or 0 <= houses <= rules.hotel_requires_houses, (square, houses)
        if houses:
            assert board.squares[square].kind == "street", square
            assert not state.mortgaged[square], square
            group = board.group_of[square]
            assert state.owner[square] != BANK, square
            assert all(state.owner[i] == state.owner[square] for i in group), square
            if rules.mortgage_requires_bare_group:
                assert not any(state.mortgaged[i] for i in group), square
    for group in board.groups.values():
        levels = [hotel_level if state.houses[i] == HOTEL else state.houses[i] for i in group]
        # A hotel sold whole leaves its street bare (docs/rules.md, Q10): uneven then.
        assert max(levels) - min(levels) <= 1 or rules.hotel_sells_whole, (group, levels)
    # A mortgaged lot belongs to a player, except while the bank auctions it (taken
    # from a bankrupt player with bank_auction_mortgaged_free off) or after the end.
    auctioned = set(state.auction_queue)
    if state.auction is not None and state.auction["kind"] == "lot":
        auctioned.add(state.auction["square"])
    for square, mortgaged in enumerate(state.mortgaged):
        if mortgaged:
            assert board.squares[square].is_property, square
            if state.owner[square] == BANK:
                assert state.phase == "over" or square in auctioned, (square, state.phase)

    # (d) owners are the bank or players still in the game; bankrupt players hold nothing.
    for square, owner in enumerate(state.owner):
        if owner != BANK:
            assert board.squares[square].is_property, square
            assert 0 <= owner < len(players) and not players[owner].bankrupt, (square, owner)
    for player in players:
        if player.bankrupt:
            assert player.jail_cards == [] and not player.in_jail
    # Jail-free cards: held + in the deck = the whole deck of 16, each card once.
    for deck, cards in board.decks.items():
        in_deck = state.decks[deck]
        assert len(set(in_deck)) == len(in_deck), (deck, in_deck)
        assert set(in_deck) <= {c.id for c in cards}, (deck, in_deck)
        held = sum(p.jail_cards.count(deck) for p in players)
        assert held + len(in_deck) == len(cards) == 16, (deck, held, in_deck)
        missing = {c.id for c in cards} - set(in_deck)
        assert all(board.card(deck, i).effect["type"] == "get_out_of_jail_free" for i in missing)

    # (e) no negative cash; outside the debt phase no debts (a finished game may
    # leave some unpaid).
    for seat, player in enumerate(players):
        assert player.cash >= 0, (seat, player.cash)
        assert 0 <= player.position < 40
    assert state.pot >= 0
    if state.phase == "debt":
        assert state.debts and not players[state.debts[0]["debtor"]].bankrupt
    elif state.phase != "over":
        assert not state.debts, (state.phase, state.debts)

    # What the game waits for is there, and refers to players still in the game.
    phase = state.phase
    if phase == "buy":
        assert state.pending_buy is not None
    if state.pending_buy is not None:  # decided once what comes first is done
        assert phase in ("buy", "debt", "mortgage_choice", "auction", "place_building", "over")
        assert state.owner[state.pending_buy] == BANK
    if phase == "auction":
        assert state.auction is not None
    if state.auction is not None and state.auction["kind"] == "lot":
        assert state.owner[state.auction["square"]] == BANK
    assert all(state.owner[i] == BANK for i in state.auction_queue)
    if phase == "choice":
        assert state.pending_choice is not None
    if phase == "place_building":
        assert state.pending_building is not None
    for debt in state.debts:
        assert debt["amount"] > 0, debt
    offer = state.lot_offer
    if offer is not None:  # an offer of lots lapses with its debt
        assert state.debts and state.debts[0]["debtor"] == offer["debtor"], (offer, state.debts)
    for trade in state.trades:
        assert not players[trade["from"]].bankrupt and not players[trade["to"]].bankrupt
    for claim in state.claims:
        assert not players[claim["owner"]].bankrupt and not players[claim["payer"]].bankrupt
    for seat, player in enumerate(players):
        if player.in_jail:
            assert player.position == board.jail_index, seat
        else:
            assert player.jail_turns == 0, seat

    active = state.active_players()
    if state.phase == "over":
        assert state.end_reason is not None
        if state.end_reason == "last_player":
            assert active == [state.winner]
        elif state.end_reason == "abandoned":
            assert state.winner is None
        else:
            assert state.winner in active
    else:
        assert len(active) >= 2 and state.end_reason is None
        # A player who just went bankrupt keeps the turn until the bank's auctions of
        # their lots or the creditor's choices about mortgages are done.
        if state.phase in ("roll", "buy", "choice", "end"):
            assert not players[state.current].bankrupt, state.phase

    # Liveness: everyone the game waits on can do something.
    for seat in waiting_for(state):
        assert not players[seat].bankrupt, seat
        assert legal_actions(state, seat), (state.phase, seat)

    # (f) the canonical JSON round-trips exactly; (h) and stays small.
    if not with_json:
        return
    text = state.to_json()
    assert GameState.from_dict(state.to_dict()).to_json() == text
    assert len(text.encode("utf-8")) < MAX_JSON_BYTES


def changed_rules(rules: Rules) -> dict[str, Any]:
    """The settings in which ``rules`` differ from its preset (for failure messages)."""
    preset = Rules.from_preset(rules.preset).to_dict()
    return {k: v for k, v in rules.to_dict().items() if preset[k] != v}


def state_diff(left: GameState, right: GameState) -> dict[str, Any]:
    """The fields in which two states differ (for assertion messages)."""
    a, b = left.to_dict(), right.to_dict()
    found: dict[str, Any] = {}
    for key in sorted(set(a) | set(b)):
        if a.get(key) == b.get(key):
            continue
        if key == "players":
            for seat, (pa, pb) in enumerate(zip(a[key], b[key], strict=True)):
                for name in pa:
                    if pa[name] != pb.get(name):
                        found[f"players[{seat}].{name}"] = (pa[name], pb.get(name))
        else:
            found[key] = (a.get(key), b.get(key))
    return found


# -- driving a game -----------------------------------------------------------------------


class Driver:
    """A game, its record and the per-step checks."""

    def __init__(self, state: GameState) -> None:
        self.state = state
        self.record = GameRecord.begin(state)
        self.bots = [SimplePlayer("leave" if i % 2 else "stay") for i in range(len(state.players))]
        self.applied = 0
        self.refused = 0
        self.seen: set[str] = set()
        check_invariants(state)

    def _applied(
        self, action: Any, events: list[dict[str, Any]], cash: list[int], pot: int, light: bool
    ) -> None:
        self.record.add(json.loads(json.dumps(action)), events)
        self.applied += 1
        self.seen.update(e["type"] for e in events)
        try:
            check_money(self.state, cash, pot, events)
            check_invariants(self.state, with_json=not light or self.applied % 16 == 0)
        except AssertionError as error:
            raise AssertionError(
                f"after action {self.applied} {action} with events {events}; "
                f"rules changed from the preset: {changed_rules(self.state.rules)}"
            ) from error

    def apply(self, action: dict[str, Any], *, light: bool = False) -> list[dict[str, Any]]:
        """Apply an action that must be legal; check money and the invariants.

        ``light`` (used for the long simple-player prefix) checks the canonical JSON
        round trip only on every 16th action; everything else is checked every time.
        """
        state = self.state
        cash = [p.cash for p in state.players]
        pot = state.pot
        events = apply_action(state, action)
        self._applied(action, events, cash, pot, light)
        return events

    def attempt(self, action: Any) -> bool:
        """Apply an action that may be refused; a refusal must leave the state unchanged."""
        state = self.state
        before = state.to_json()
        cash = [p.cash for p in state.players]
        pot = state.pot
        try:
            events = apply_action(state, action)
        except IllegalAction as error:
            assert isinstance(error.code, str) and error.code
            assert state.to_json() == before, (action, error.code)
            self.refused += 1
            return False
        self._applied(action, events, cash, pot, False)
        return True

    def simple_action(self) -> dict[str, Any]:
        """What the simple players would do next (as in simulate.play_game)."""
        state = self.state
        recipients = {t["to"] for t in state.trades}
        if state.lot_offer is not None:
            recipients.add(state.lot_offer["creditor"])
        for seat in sorted(recipients):
            reply = self.bots[seat].respond_to_offers(state, seat)
            # A random step may have left an offer open into a phase where it cannot
            # be accepted (simulate.play_game answers offers at once, so never there).
            if reply is not None and reply in legal_actions(state, seat):
                return reply
        seat = waiting_for(state)[0]
        return self.bots[seat].decide(state, seat)

    def play_simple(self, count: int) -> None:
        """Let the simple players make up to ``count`` moves."""
        for _ in range(count):
            if self.state.phase == "over":
                return
            self.apply(self.simple_action(), light=True)

    def check_replay(self) -> None:
        """(g) the record replays to the identical state, also through JSON text."""
        for kind in sorted(self.seen & INTERESTING_EVENTS):
            event(kind)  # shown by pytest --hypothesis-show-statistics
        replayed = self.record.replay()
        assert replayed.to_json() == self.state.to_json(), state_diff(replayed, self.state)
        text = json.dumps(self.record.to_dict())
        again = GameRecord.from_dict(json.loads(text)).replay()
        assert again.to_json() == self.state.to_json(), state_diff(again, self.state)


# -- strategies ---------------------------------------------------------------------------

RULE_VARIANTS: dict[str, st.SearchStrategy[Any]] = {
    "rent_must_be_claimed": st.booleans(),
    "jail_pay_after_failed_roll": st.booleans(),
    "jail_doubles_roll_again": st.booleans(),
    "jail_bail_turns": st.integers(0, 3),
    "jail_max_attempts": st.integers(1, 3),
    "doubles_to_jail": st.integers(1, 3),
    "mortgage_requires_bare_group": st.booleans(),
    "auction_declined_lots": st.booleans(),
    "auction_min_bid": st.sampled_from([0, 1, 50]),
    "auction_bid_covered_by_cash": st.booleans(),
    "auction_min_raise": st.sampled_from([1, 10]),
    "building_shortage_auction": st.booleans(),
    "part_payment_in_lots": st.booleans(),
    "bank_auction_mortgaged_free": st.booleans(),
    "mortgaged_count_for_rent": st.booleans(),
    "double_rent_with_mortgaged_in_group": st.booleans(),
    "interest_rounding": st.sampled_from(["up", "down", "half_even"]),
    "interest_percent": st.sampled_from([0, 10, 25]),
    "houses_total": st.sampled_from([None, 0, 4, 8, 12]),
    "hotels_total": st.sampled_from([None, 0, 1, 2]),
    "hotel_requires_houses": st.integers(1, 4),
    "hotel_sells_whole": st.booleans(),
    "building_requires_all_sold": st.booleans(),
    "start_money": st.sampled_from([None, 300, 800]),
    "deal_deeds": st.integers(0, 3),
    "deal_deeds_paid": st.booleans(),
    "end_after_bankruptcies": st.sampled_from([None, 1, 2]),
    "end_at_deadline": st.booleans(),
    "go_landing_bonus": st.booleans(),
    "free_parking": st.sampled_from(["off", "taxes", "fixed"]),
    "free_parking_amount": st.sampled_from([0, 100]),
    "rent_while_in_jail": st.booleans(),
}


@st.composite
def rules_strategy(draw: st.DrawFn, variants: bool = True) -> Rules:
    """A shipped preset on a drawn board, and (often) with some settings changed."""
    preset = draw(st.sampled_from(available_presets()))
    overrides: dict[str, Any] = {"board": draw(st.sampled_from(available_boards()))}
    if variants and draw(st.integers(0, 2)):
        for name, values in RULE_VARIANTS.items():
            if draw(st.integers(0, 2)) == 0:
                overrides[name] = draw(values)
    return Rules.from_preset(preset, **overrides)


@st.composite
def games(draw: st.DrawFn, variants: bool = True) -> GameState:
    """A new game of 2-6 players (as the preset allows) with a drawn seed and rules."""
    rules = draw(rules_strategy(variants))
    count = draw(st.integers(max(2, rules.min_players), min(6, rules.max_players)))
    seed = draw(st.integers(0, 2**63 - 1))
    seats = [(f"id{i}", f"Spieler {i + 1}") for i in range(count)]
    try:
        return new_game(seats, seed=seed, rules=rules)
    except IllegalAction as error:
        # Paid dealt deeds that a small start capital cannot cover are refused;
        # play with the board's start money instead.
        assert error.code == "start_money_too_low" and rules.deal_deeds_paid, error
        rules = Rules.from_dict({**rules.to_dict(), "start_money": None})
        return new_game(seats, seed=seed, rules=rules)


def draw_trade(data: st.DataObject, state: GameState) -> dict[str, Any]:
    """A trade proposal built from what two players hold (often refused)."""
    seats = range(len(state.players))
    seat = data.draw(st.sampled_from(state.active_players()), label="proposer")
    other = data.draw(st.sampled_from([s for s in seats if s != seat] + [seat, 99]), label="to")

    def side(who: int) -> dict[str, Any]:
        if not 0 <= who < len(state.players):
            return {}
        player = state.players[who]
        lots = [i for i, o in enumerate(state.owner) if o == who]
        result: dict[str, Any] = {}
        if lots:
            result["lots"] = data.draw(st.lists(st.sampled_from(lots), unique=True, max_size=3))
        if player.jail_cards and data.draw(st.booleans()):
            result["jail_cards"] = [player.jail_cards[0]]
        if data.draw(st.booleans()):
            result["cash"] = data.draw(st.integers(0, player.cash + 50))
        return result

    return {
        "type": "propose_trade",
        "player": seat,
        "to": other,
        "give": side(seat),
        "get": side(other),
    }


def draw_lot_offer(data: st.DataObject, state: GameState) -> dict[str, Any] | None:
    """A part-payment offer by the debtor, if one may offer lots now."""
    seats = [s for s in state.active_players() if may_offer_lots(state, s)]
    if not seats:
        return None
    seat = seats[0]
    lots = [i for i, o in enumerate(state.owner) if o == seat]
    if not lots:
        return None
    chosen = data.draw(st.lists(st.sampled_from(lots), unique=True, min_size=1, max_size=3))
    value = data.draw(st.integers(0, state.debts[0]["amount"] + 10), label="value")
    return {"type": "offer_lots", "player": seat, "lots": chosen, "value": value}


def draw_leave_or_host(data: st.DataObject, state: GameState) -> dict[str, Any]:
    """A player resigning, or a host removing a player, calling time or ending the game."""
    kind = data.draw(st.sampled_from(["resign", "remove_player", "time_up", "end_game"]))
    if kind == "resign":
        return {"type": kind, "player": data.draw(st.sampled_from(state.active_players()))}
    if kind == "remove_player":
        return {"type": kind, "target": data.draw(st.sampled_from(state.active_players()))}
    if kind == "end_game":
        return {"type": kind, "mode": data.draw(st.sampled_from(["wealth", "abandon"]))}
    return {"type": kind}


def draw_illegal(data: st.DataObject, state: GameState) -> Any:
    """A random action of any shape: random type, player and parameters."""
    shape = data.draw(st.integers(0, 9), label="illegal shape")
    if shape == 0:
        return data.draw(st.sampled_from([None, "roll", ["roll"], 3]))
    if shape == 1:
        kind = data.draw(st.sampled_from(["fly", "", None, 7, *SYSTEM_TYPES]))
        action = {"type": kind, "player": 0}
        if kind == "remove_player":
            action["target"] = data.draw(st.sampled_from([-1, 99, "0", None]))
        elif kind == "end_game":
            action["mode"] = data.draw(st.sampled_from(["", None, "richest"]))
        return action
    kind = data.draw(st.sampled_from(ALL_TYPES), label="illegal type")
    player = data.draw(
        st.one_of(st.integers(0, len(state.players) - 1), st.sampled_from(ODD_VALUES))
    )
    action: dict[str, Any] = {"type": kind, "player": player}
    value = st.one_of(st.integers(-2, 41), st.sampled_from(ODD_VALUES))
    if kind in ("build", "sell_building", "mortgage", "unmortgage", "claim_rent"):
        action["square"] = data.draw(value)
    elif kind in ("accept_trade", "decline_trade"):
        action["trade"] = data.draw(st.one_of(st.integers(0, state.next_trade_id), value))
    elif kind == "choose":
        action["option"] = data.draw(st.sampled_from(["pay", "draw", "", None, 1]))
    elif kind == "use_jail_card":
        action["deck"] = data.draw(st.sampled_from(["chance", "community", "x"]))
    elif kind == "bid":
        action["amount"] = data.draw(st.one_of(st.integers(-5, 3000), value))
    elif kind == "offer_lots":
        action["lots"] = data.draw(st.one_of(st.lists(st.integers(-1, 40), max_size=3), value))
        action["value"] = data.draw(value)
    elif kind == "decide_mortgages":
        action["lift"] = data.draw(st.one_of(st.lists(st.integers(-1, 40), max_size=3), value))
    elif kind == "propose_trade":
        action["to"] = data.draw(value)
        action["give"] = data.draw(st.sampled_from([{}, {"cash": -5}, {"lots": [0]}, None, 3]))
        action["get"] = data.draw(st.sampled_from([{}, {"cash": 10}, {"x": 1}]))
    return action


def expected_legal(state: GameState, action: Any) -> bool | None:
    """Whether the engine must accept ``action`` (None: legal_actions cannot tell)."""
    if type(action) is not dict:
        return False
    kind = action.get("type")
    if kind in SYSTEM_TYPES:
        return None
    if kind not in ALL_TYPES:
        return False
    seat = action.get("player")
    if type(seat) is not int or not 0 <= seat < len(state.players):
        return False
    if state.phase == "over" or state.players[seat].bankrupt:
        return False
    if kind in OPEN_TYPES:
        return None
    if kind == "bid":
        span = bid_range(state, seat)
        amount = action.get("amount")
        if type(amount) is not int or span is None:
            return False
        return span[0] <= amount <= span[1]
    # Compare as JSON: True == 1 in Python, but the engine refuses a bool square.
    listed = {json.dumps(a, sort_keys=True) for a in legal_actions(state, seat)}
    return json.dumps(action, sort_keys=True) in listed


def random_step(driver: Driver, data: st.DataObject) -> None:
    """One drawn step: a legal action, a trade, a lot offer, leaving or an illegal action."""
    state = driver.state
    mode = data.draw(st.integers(0, 19), label="mode")
    if mode == 19:
        action = draw_illegal(data, state)
        expected = expected_legal(state, action)
        applied = driver.attempt(action)
        if expected is not None:
            assert applied == expected, action
        return
    if mode == 18:
        driver.attempt(draw_trade(data, state))
        return
    if mode == 17 or (mode >= 10 and state.phase == "debt"):
        offer = draw_lot_offer(data, state)
        if offer is not None:
            driver.attempt(offer)
            return
    if mode == 16 and data.draw(st.integers(0, 19), label="leave?") == 0:
        driver.attempt(draw_leave_or_host(data, state))
        return
    if mode >= 14:
        # Keep the game moving the way a player would.
        driver.apply(driver.simple_action())
        return
    options = {s: legal_actions(state, s) for s in state.active_players()}
    if mode == 11:
        # Every listed action can be applied now (tried on copies).
        for found in options.values():
            for listed in found:
                try:
                    apply_action(state.copy(), listed)
                except IllegalAction as error:
                    raise AssertionError(f"listed action {listed} refused: {error}") from error
    rare = [a for found in options.values() for a in found if a["type"] in RARE_TYPES]
    if mode >= 12 and rare:
        # Actions a uniform choice seldom hits (claims, offers, bankruptcy).
        action = dict(data.draw(st.sampled_from(rare), label="rare action"))
        seat = action["player"]
    else:
        seats = [s for s, found in options.items() if found]
        seat = data.draw(st.sampled_from(seats), label="seat")
        action = dict(data.draw(st.sampled_from(options[seat]), label="action"))
    if action["type"] == "bid":
        span = bid_range(state, seat)
        assert span is not None and span[0] == action["amount"]
        action["amount"] = data.draw(st.integers(span[0], min(span[1], span[0] + 2000)))
    driver.apply(action)


# -- the properties -----------------------------------------------------------------------


@examples(70)
@given(state=games(), prefix=st.integers(0, 1500), steps=st.integers(1, 120), data=st.data())
def test_random_legal_play_keeps_invariants(
    state: GameState, prefix: int, steps: int, data: st.DataObject
) -> None:
    driver = Driver(state)
    driver.play_simple(prefix)
    for _ in range(steps):
        if state.phase == "over":
            break
        random_step(driver, data)
    driver.check_replay()


@examples(40)
@given(state=games(variants=False), data=st.data())
def test_illegal_actions_are_refused_without_change(state: GameState, data: st.DataObject) -> None:
    """Actions not listed as legal are refused with IllegalAction and change nothing."""
    driver = Driver(state)
    driver.play_simple(data.draw(st.integers(0, 1500), label="prefix"))
    for _ in range(25):
        action = draw_illegal(data, state)
        expected = expected_legal(state, action)
        applied = driver.attempt(action)
        if expected is not None:
            assert applied == expected, action
    driver.check_replay()


@examples(30)
@given(state=games(variants=False), data=st.data())
def test_part_payment_in_lots_keeps_invariants(state: GameState, data: st.DataObject) -> None:
    """A debtor owing a player offers lots; the creditor accepts or declines."""
    driver = Driver(state)
    offers = 0
    while state.phase != "over" and driver.applied < 3000 and offers < 4:
        offer = draw_lot_offer(data, state)
        if offer is None:
            driver.apply(driver.simple_action(), light=True)
            continue
        offers += 1
        if not driver.attempt(offer):
            continue
        assert state.lot_offer is not None
        creditor = state.lot_offer["creditor"]
        assert waiting_for(state) == [creditor]
        replies = [
            a
            for a in legal_actions(state, creditor)
            if a["type"] in ("accept_lots", "decline_lots")
        ]
        driver.apply(data.draw(st.sampled_from(replies), label="reply"))
    driver.check_replay()


@pytest.mark.parametrize("seed", range(3))
def test_every_listed_action_is_accepted(seed: int) -> None:
    """Along a simulated game, every action legal_actions lists applies without error."""
    state = new_game([(f"id{i}", f"P{i}") for i in range(2 + seed)], seed=seed)
    driver = Driver(state)
    while state.phase != "over" and driver.applied < 250:
        for seat in state.active_players():
            for action in legal_actions(state, seat):
                apply_action(state.copy(), action)
        driver.apply(driver.simple_action())


@pytest.mark.parametrize(
    ("preset", "overrides"),
    [("short", {"start_money": 300}), ("classic", {"deal_deeds": 14})],
)
def test_dealt_deeds_paid_never_leave_negative_cash(preset: str, overrides: dict[str, Any]) -> None:
    rules = Rules.from_preset(preset, **overrides)  # both within the settings' bounds
    try:
        state = new_game([("a", "A"), ("b", "B")], seed=0, rules=rules)
    except IllegalAction as error:  # refusing such a setup is as good as never going negative
        assert error.code == "start_money_too_low"
        return
    check_invariants(state)


def test_unsold_mortgaged_lot_is_not_sold_mortgaged() -> None:
    raw = {
        "format": "monopoly-scenario/1",
        "rules": {"bank_auction_mortgaged_free": False},
        "players": [{"cash": 0}, {"position": 39}, {}],
        "lots": {"1": {"owner": 0, "mortgaged": True}},
        "steps": [
            # Anna throws onto the income tax (200), has nothing and goes bankrupt.
            {"action": {"type": "roll", "player": 0}, "dice": [1, 3]},
            {"action": {"type": "declare_bankruptcy", "player": 0}},
            # Nobody bids for her mortgaged Badstraße.
            {"action": {"type": "auction_pass", "player": 1}},
            {"action": {"type": "auction_pass", "player": 2}},
            # Ben throws onto it and buys it from the bank at the printed price.
            {"action": {"type": "roll", "player": 1}, "dice": [1, 1]},
            {"action": {"type": "buy", "player": 1}},
        ],
    }
    state = scenario.run(raw)
    assert state.owner[1] == 1 and state.players[1].cash == 1500 + 200 - 60
    assert not state.mortgaged[1]


STALE_LOT_OFFER: dict[str, Any] = {
    "format": "monopoly-scenario/1",
    "players": [{"name": "Anna", "cash": 40, "position": 35}, {"name": "Ben"}, {"name": "Cem"}],
    "lots": {"1": {"owner": 0}, "3": {"owner": 0}, "39": {"owner": 1}},
    "steps": [
        # Anna throws onto Ben's Schlossallee and owes 50 rent she cannot pay (cash 40).
        {"action": {"type": "roll", "player": 0}, "dice": [1, 3]},
        # She offers Badstraße for 30 of it, then mortgages Turmstraße (+30) and pays.
        {"action": {"type": "offer_lots", "player": 0, "lots": [1], "value": 30}},
        {"action": {"type": "mortgage", "player": 0, "square": 3}},
    ],
}


def test_a_lot_offer_ends_with_its_debt() -> None:
    state = scenario.run(STALE_LOT_OFFER)
    assert state.debts == [] and state.phase == "end"
    for action in legal_actions(state, 1):
        before = state.to_json()
        try:
            apply_action(state.copy(), action)
        except IllegalAction:
            pytest.fail(f"listed action {action} refused")
        assert state.to_json() == before
    assert state.lot_offer is None


def test_deciding_on_received_mortgages_never_leaves_negative_cash() -> None:
    raw = {
        "format": "monopoly-scenario/1",
        "players": [
            {"name": "Anna", "cash": 0, "position": 35},
            {"name": "Ben", "cash": 110},
            {"name": "Cem"},
        ],
        "lots": {
            "5": {"owner": 0, "mortgaged": True},
            "15": {"owner": 0, "mortgaged": True},
            "39": {"owner": 1},
        },
        "steps": [
            # Anna owes Ben 50 rent, has nothing and goes bankrupt to him: Ben receives
            # both mortgaged railroads (mortgage value 100 each).
            {"action": {"type": "roll", "player": 0}, "dice": [1, 3]},
            {"action": {"type": "declare_bankruptcy", "player": 0}},
        ],
    }
    state = scenario.run(raw)
    assert state.phase == "mortgage_choice"
    lift = {"type": "decide_mortgages", "player": 1, "lift": [15]}
    # Listed as legal: lifting 15 costs 110 = Ben's cash; keeping 5 costs 10 more.
    assert lift in legal_actions(state, 1)
    cash, pot = [p.cash for p in state.players], state.pot
    events = apply_action(state, lift)
    check_money(state, cash, pot, events)
    check_invariants(state)


def rent_claimed_during_an_auction(bid: bool) -> dict[str, Any]:
    """Anna owes rent she has not been asked for yet and starts an auction; Ben claims
    the rent during the auction, Anna cannot pay and goes bankrupt, the others pass."""
    steps: list[dict[str, Any]] = [
        # Doubles onto Ben's Chausseestraße (rent 6, to be claimed), then onto the
        # unowned Poststraße, which she declines: the bank auctions it.
        {"action": {"type": "roll", "player": 0}, "dice": [3, 3]},
        {"action": {"type": "roll", "player": 0}, "dice": [1, 2]},
        {"action": {"type": "decline", "player": 0}},
    ]
    if bid:
        steps.append({"action": {"type": "bid", "player": 0, "amount": 4}})
    steps += [
        {"action": {"type": "claim_rent", "player": 1, "square": 6}},
        {"action": {"type": "declare_bankruptcy", "player": 0}},
        {"action": {"type": "auction_pass", "player": 1}},
        {"action": {"type": "auction_pass", "player": 2}},
    ]
    return {
        "format": "monopoly-scenario/1",
        "rules": {"rent_must_be_claimed": True},
        "players": [{"name": "Anna", "cash": 4}, {"name": "Ben"}, {"name": "Cem"}],
        "lots": {"6": {"owner": 1}},
        "steps": steps,
    }


def test_a_bankrupt_bidder_leaves_the_auction() -> None:
    state = scenario.run(rent_claimed_during_an_auction(bid=False))
    assert state.players[0].bankrupt
    check_invariants(state)  # liveness: waiting_for(state) == [0], who cannot act


def test_a_bankrupt_leader_does_not_win_the_auction() -> None:
    state = scenario.run(rent_claimed_during_an_auction(bid=True))
    assert state.players[0].bankrupt
    check_invariants(state)  # ownership: owner[9] == 0, a bankrupt seat


# -- whole games --------------------------------------------------------------------------


@examples(80)
@given(state=games(), jail=st.sampled_from(["leave", "stay"]))
def test_simulated_games_end_cleanly(state: GameState, jail: str) -> None:
    """Whole games between simple players, under every preset and many rule settings."""
    count = len(state.players)
    result = SimulationResult()
    play_game(state, [SimplePlayer(jail) for _ in range(count)], result, turn_cap=1000)
    assert result.games == 1 and sum(result.endings.values()) == 1
    if state.phase == "over":
        assert result.endings[state.end_reason] == 1
        if state.end_reason == "last_player":
            assert state.active_players() == [state.winner]
    else:
        assert result.endings == Counter({"turn_cap": 1})
        assert state.turn > 1000
    assert sum(result.landings) <= result.throws
    check_invariants(state)
