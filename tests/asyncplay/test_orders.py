"""Standing orders decide only what the player set, and only legal moves (orders.py)."""

from __future__ import annotations

from typing import Any

from bot.asyncplay import orders
from bot.engine.game import apply_action
from bot.engine.scenario import SCENARIO_FORMAT, run
from bot.engine.state import GameState
from bot.settings import GameSettings


def position(steps: list[dict[str, Any]] | None = None, **extra: Any) -> GameState:
    players = extra.pop("players", [{"name": "Anna"}, {"name": "Ben"}])
    return run({"format": SCENARIO_FORMAT, "players": players, "steps": steps or [], **extra})


def on_turmstrasse() -> GameState:
    """Anna has thrown 1+2 from LOS onto Turmstraße (60 €): buy or decline."""
    return position([{"action": {"type": "roll", "player": 0}, "dice": [1, 2]}])


def settings_with(seat: int, order: dict[str, Any]) -> dict[str, Any]:
    settings: dict[str, Any] = {}
    orders.set_order(GameSettings(settings), seat, order)
    return settings


def test_no_order_no_action() -> None:
    state = on_turmstrasse()
    assert state.phase == "buy"
    assert orders.order_action(state, GameSettings({}), 0) is None


def test_buy_when_enough_cash_is_left() -> None:
    state = on_turmstrasse()
    assert orders.order_action(
        state, GameSettings(settings_with(0, {"buy": {"keep": 1400}})), 0
    ) == {
        "type": "buy",
        "player": 0,
    }


def test_buy_order_does_nothing_when_too_little_would_be_left() -> None:
    """1500 € − 60 € leaves 1440 €: an order to keep 1450 € leaves the choice to Anna."""
    state = on_turmstrasse()
    assert (
        orders.order_action(state, GameSettings(settings_with(0, {"buy": {"keep": 1450}})), 0)
        is None
    )


def test_never_buy_declines() -> None:
    state = on_turmstrasse()
    action = orders.order_action(state, GameSettings(settings_with(0, {"buy": "never"})), 0)
    assert action == {"type": "decline", "player": 0}


def test_an_order_of_another_seat_does_not_act_for_the_current_one() -> None:
    state = on_turmstrasse()
    assert orders.order_action(state, GameSettings(settings_with(1, {"buy": "never"})), 1) is None


def auction_of_turmstrasse() -> GameState:
    state = on_turmstrasse()
    apply_action(state, {"type": "decline", "player": 0})
    assert state.phase == "auction"
    return state


def test_bid_up_to_the_limit_then_pass() -> None:
    """Ben bids the next minimum while it is within his limit, then passes."""
    state = auction_of_turmstrasse()
    settings = settings_with(1, {"bids": [{"target": "group:brown", "limit": 20}]})
    first = orders.order_action(state, GameSettings(settings), 1)
    assert first is not None and first["type"] == "bid" and first["amount"] <= 20
    apply_action(state, first)
    apply_action(state, {"type": "bid", "player": 0, "amount": 25})
    assert orders.order_action(state, GameSettings(settings), 1) == {
        "type": "auction_pass",
        "player": 1,
    }


def test_the_most_specific_bid_order_counts() -> None:
    state = auction_of_turmstrasse()
    order = {"bids": [{"target": "any", "limit": 1}, {"target": "lot:3", "limit": None}]}
    assert orders.bid_limit(state, order, 3) == 60  # the list price of Turmstraße
    assert orders.bid_limit(state, {"bids": [{"target": "group:red", "limit": 5}]}, 3) is None


def test_pay_bail_at_once_and_skip_when_illegal() -> None:
    """In jail with "pay": the bail is paid; with "card" but no card, nothing happens."""
    jailed = {"players": [{"name": "Anna", "in_jail": True, "position": 10}, {"name": "Ben"}]}
    state = position(**jailed)
    assert orders.order_action(state, GameSettings(settings_with(0, {"jail": "pay"})), 0) == {
        "type": "pay_bail",
        "player": 0,
    }
    assert orders.order_action(state, GameSettings(settings_with(0, {"jail": "card"})), 0) is None
    broke = {"players": [{"name": "Anna", "in_jail": True, "position": 10, "cash": 10}, {}]}
    assert (
        orders.order_action(position(**broke), GameSettings(settings_with(0, {"jail": "pay"})), 0)
        is None
    )


def test_auto_end_and_declining_trades() -> None:
    state = on_turmstrasse()
    apply_action(state, {"type": "buy", "player": 0})
    assert state.phase == "end"
    assert orders.order_action(state, GameSettings(settings_with(0, {"auto_end": True})), 0) == {
        "type": "end_turn",
        "player": 0,
    }
    apply_action(
        state,
        {"type": "propose_trade", "player": 0, "to": 1, "give": {"cash": 10}, "get": {}},
    )
    trade = state.trades[0]["id"]
    action = orders.order_action(state, GameSettings(settings_with(1, {"decline_trades": True})), 1)
    assert action == {"type": "decline_trade", "player": 1, "trade": trade}


def test_next_order_skips_computer_seats() -> None:
    state = on_turmstrasse()
    settings = settings_with(0, {"buy": "never"})
    assert orders.next_order(state, GameSettings(settings), skip={0}) is None
    assert orders.next_order(state, GameSettings(settings), skip=set()) == {
        "type": "decline",
        "player": 0,
    }


def test_set_order_with_nothing_removes_it() -> None:
    settings = settings_with(0, {"jail": "roll"})
    orders.set_order(GameSettings(settings), 0, {})
    assert "orders" not in settings
    assert orders.with_bid({"bids": [{"target": "any", "limit": 3}]}, "any", 9) == {
        "bids": [{"target": "any", "limit": 9}]
    }
