"""Whether a stored game has what it needs to move on (bot/liveness.py): its live messages
and its timers, judged from the state and the settings the publisher records.

These are the bot's own rules (docs/async-play.md), not the game's; no Discord here.
"""

from __future__ import annotations

from datetime import UTC, datetime
from typing import Any

import pytest

from bot.cardgame import CardState
from bot.engine.state import GameState
from bot.liveness import PARTS, missing_parts, stale_message
from bot.store import GameRow, GameStatus
from tests.cardgame.conftest import game as card_game
from tests.engine.conftest import THEATERSTRASSE, act, game, owned

WHEN = datetime(2026, 5, 1, 12, 0, tzinfo=UTC)
TURN_MESSAGE, AUCTION_MESSAGE, TABLE_MESSAGE = 1001, 1002, 1003


def row(
    state: GameState | CardState | None,
    settings: dict[str, Any],
    status: GameStatus = GameStatus.RUNNING,
) -> GameRow:
    """A stored game as the store returns it."""
    return GameRow(
        id=1,
        guild_id=2,
        channel_id=3,
        status=status,
        seq=state.seq if state is not None else 0,
        created_by=4,
        created_at=WHEN,
        updated_at=WHEN,
        settings=settings,
        finished_reason=None,
        broken_error=None,
        state=state,
    )


def shown(state: GameState | CardState, **extra: Any) -> dict[str, Any]:
    """Settings of a game whose timers and messages all follow ``state``."""
    if isinstance(state, CardState):
        base = {"table_message": TABLE_MESSAGE, "table_seq": state.seq}
    else:
        base = {"turn_message": TURN_MESSAGE, "turn_seq": state.seq}
    return {"planned_seq": state.seq, **base, **extra}


def auction() -> GameState:
    """Seat 0 declined a lot, which is auctioned."""
    state = game(3)
    act(state, "roll", 0, dice=[1, 2])
    act(state, "decline", 0)
    assert state.auction is not None
    return state


def with_trade() -> GameState:
    """Seat 0 offered seat 1 a trade (id 1)."""
    state = game([{}, {}], lots=owned(0, THEATERSTRASSE))
    act(state, "propose_trade", 0, to=1, give={"lots": [THEATERSTRASSE]}, get={"cash": 10})
    return state


def with_lot_offer() -> GameState:
    """Seat 0 owes seat 1 rent and offered a lot as part payment."""
    state = game(
        [{"cash": 100, "position": 33}, {}],
        lots={**owned(1, 37, 39, houses=1), **owned(0, THEATERSTRASSE)},
    )
    act(state, "roll", 0, dice=[1, 3])
    act(state, "offer_lots", 0, lots=[THEATERSTRASSE], value=100)
    assert state.lot_offer is not None
    return state


# -- lobbies and games that are not running -------------------------------------------


def test_a_lobby_needs_its_message() -> None:
    """A lobby lacks only its message, if that is not recorded."""
    assert missing_parts(row(None, {}, GameStatus.LOBBY)) == ["lobby"]
    assert missing_parts(row(None, {"lobby_message": 5}, GameStatus.LOBBY)) == []


@pytest.mark.parametrize("status", [GameStatus.FINISHED, GameStatus.BROKEN])
def test_games_that_do_not_run_lack_nothing(status: GameStatus) -> None:
    """A finished or broken game needs neither messages nor timers."""
    assert missing_parts(row(game(2), {}, status)) == []


def test_a_game_that_is_over_lacks_nothing() -> None:
    """A running row whose state is over (its end not yet recorded) needs nothing."""
    state = game(2)
    state.phase = "over"
    assert missing_parts(row(state, {})) == []
    assert missing_parts(row(None, {})) == []


# -- the board game -------------------------------------------------------------------


def test_a_board_game_with_everything_in_place() -> None:
    """Timers planned for the state and a turn message drawn for it: nothing missing."""
    state = game(2)
    assert missing_parts(row(state, shown(state))) == []


def test_timers_planned_for_another_state() -> None:
    """Timers planned for an older state (or never) are missing."""
    state = game(2)
    assert missing_parts(row(state, shown(state, planned_seq=state.seq - 1))) == ["timers"]
    settings = shown(state)
    del settings["planned_seq"]
    assert missing_parts(row(state, settings)) == ["timers"]


def test_turn_message_missing_or_outdated() -> None:
    """A board game without a turn message, or with one drawn for an older state, lacks
    its turn message."""
    state = game(2)
    settings = shown(state)
    del settings["turn_message"]
    assert missing_parts(row(state, settings)) == ["turn"]
    assert missing_parts(row(state, shown(state, turn_seq=state.seq - 1))) == ["turn"]


def test_legacy_settings_without_turn_seq_count_as_live() -> None:
    """Games stored before the publisher recorded ``turn_seq`` count as live as long as
    they have a turn message."""
    state = game(2)
    settings = shown(state)
    del settings["turn_seq"]
    assert missing_parts(row(state, settings)) == []


def test_auction_message_missing_or_outdated() -> None:
    """An auction under way needs its message, showing the latest bid (``auction_seq``);
    meanwhile the turn message may show an older state."""
    state = auction()
    older = state.seq - 1
    assert missing_parts(row(state, shown(state, turn_seq=older))) == ["auction"]
    complete = shown(state, turn_seq=older, auction_message=AUCTION_MESSAGE)
    assert missing_parts(row(state, complete)) == []
    assert missing_parts(row(state, {**complete, "auction_seq": older})) == ["auction"]
    assert missing_parts(row(state, {**complete, "auction_seq": state.seq})) == []


def test_trade_offer_without_its_message() -> None:
    """An open trade offer needs its public message (``trade_messages`` by trade id)."""
    state = with_trade()
    assert missing_parts(row(state, shown(state))) == ["offers"]
    assert missing_parts(row(state, shown(state, trade_messages={"1": 77}))) == []
    assert missing_parts(row(state, shown(state, trade_messages={"2": 77}))) == ["offers"]


def test_lot_offer_without_its_message() -> None:
    """A debtor's offer of lots to the creditor needs its public message."""
    state = with_lot_offer()
    assert missing_parts(row(state, shown(state))) == ["offers"]
    assert missing_parts(row(state, shown(state, lot_offer_message=78))) == []


def test_everything_missing_comes_in_repair_order() -> None:
    """With nothing recorded, every missing part is named once, in the order of
    :data:`PARTS` (the order the reconciler repairs them)."""
    state = game(3)
    act(state, "propose_trade", 1, to=2, give={"cash": 10})
    act(state, "roll", 0, dice=[1, 2])
    act(state, "decline", 0)
    assert state.auction is not None and state.trades
    missing = missing_parts(row(state, {}))
    assert missing == ["timers", "turn", "auction", "offers"]
    assert missing == [part for part in PARTS if part in missing]


# -- the card game --------------------------------------------------------------------


def test_a_card_game_needs_its_table_and_timers() -> None:
    """The card game's table message stands for the turn message: missing, outdated, or
    fine; legacy settings without ``table_seq`` count as live."""
    state = card_game(3)
    assert missing_parts(row(state, shown(state))) == []
    assert missing_parts(row(state, shown(state, table_seq=state.seq - 1))) == ["table"]
    settings = shown(state)
    del settings["table_message"]
    assert missing_parts(row(state, settings)) == ["table"]
    legacy = shown(state)
    del legacy["table_seq"]
    assert missing_parts(row(state, legacy)) == []
    assert missing_parts(row(state, {})) == ["timers", "table"]


# -- clicks on outdated messages ------------------------------------------------------


def test_stale_turn_message_of_a_legacy_game() -> None:
    """In a game without ``turn_seq`` a click for an older state on its own turn message
    says the message did not follow the game (``turn``)."""
    state = game(2)
    act(state, "roll", 0, dice=[1, 2])
    legacy = {"turn_message": TURN_MESSAGE}
    assert stale_message(row(state, legacy), TURN_MESSAGE, state.seq - 1) == "turn"


@pytest.mark.parametrize(
    ("settings", "message", "seq_back"),
    [
        ({"turn_message": TURN_MESSAGE, "turn_seq": 0}, TURN_MESSAGE, 1),  # recorded
        ({"turn_message": TURN_MESSAGE}, 999, 1),  # another message
        ({"turn_message": TURN_MESSAGE}, TURN_MESSAGE, 0),  # the current state
        ({"turn_message": TURN_MESSAGE}, None, 1),  # no message
    ],
)
def test_no_stale_message(settings: dict[str, Any], message: int | None, seq_back: int) -> None:
    """Not a sign of a stale message: games that record ``turn_seq`` (the reconciler knows
    better), clicks on other messages, clicks for the current state, no message at all."""
    state = game(2)
    act(state, "roll", 0, dice=[1, 2])
    assert stale_message(row(state, settings), message, state.seq - seq_back) is None


def test_no_stale_message_without_a_state_or_a_shown_seq() -> None:
    """A lobby (no state) or a click that carries no state version says nothing."""
    assert stale_message(row(None, {"turn_message": TURN_MESSAGE}), TURN_MESSAGE, 0) is None
    state = game(2)
    assert stale_message(row(state, {"turn_message": TURN_MESSAGE}), TURN_MESSAGE, None) is None


def test_no_stale_turn_message_during_an_auction() -> None:
    """During an auction the turn message waits on purpose: an older click on it is no
    sign that it is stale."""
    state = auction()
    legacy = {"turn_message": TURN_MESSAGE}
    assert stale_message(row(state, legacy), TURN_MESSAGE, state.seq - 1) is None


def test_stale_card_table() -> None:
    """The card game's table of a legacy game (no ``table_seq``) is stale when clicked for
    an older state; with ``table_seq`` recorded it is not this function's to say."""
    state = card_game(2)
    older = state.seq - 1 if state.seq else state.seq + 1
    legacy = {"table_message": TABLE_MESSAGE}
    assert stale_message(row(state, legacy), TABLE_MESSAGE, older) == "table"
    assert stale_message(row(state, legacy), 999, older) is None
    recorded = {**legacy, "table_seq": state.seq}
    assert stale_message(row(state, recorded), TABLE_MESSAGE, older) is None
