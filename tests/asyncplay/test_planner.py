"""Which durable timers a game gets (bot/asyncplay/planner.py), on a real SQLite store.

The planner's clock and the store's are one injected clock that moves only when a test
moves it, so every due time is exact. These are the bot's rules for play over days
(docs/async-play.md), not the game's.
"""

from __future__ import annotations

from collections.abc import AsyncIterator
from datetime import UTC, datetime, timedelta
from pathlib import Path
from typing import Any

import pytest

from bot.asyncplay.planner import TURN_TIMERS, TimerPlanner
from bot.engine.state import GameState
from bot.settings import GameSettings
from bot.store import SqliteGameStore, Timer
from tests.cardgame.conftest import game as card_game
from tests.engine.conftest import act, game
from tests.store.conftest import ManualClock

GUILD = 77
START = datetime(2026, 5, 1, 12, 0, tzinfo=UTC)
AUTO = 0.5  # seconds a computer seat waits here


@pytest.fixture
def clock() -> ManualClock:
    """The clock of the planner and the store, standing still until moved."""
    return ManualClock(START)


@pytest.fixture
async def store(tmp_path: Path, clock: ManualClock) -> AsyncIterator[SqliteGameStore]:
    """A real store on a fresh file in the test's own directory."""
    async with SqliteGameStore(tmp_path / "games.db", now=clock) as opened:
        yield opened


class Wakes:
    """Counts the planner's calls to ``wake`` (the scheduler should look again)."""

    def __init__(self) -> None:
        self.count = 0

    def __call__(self) -> None:
        self.count += 1


@pytest.fixture
def wakes() -> Wakes:
    """The planner's ``wake``."""
    return Wakes()


@pytest.fixture
def planner(store: SqliteGameStore, clock: ManualClock, wakes: Wakes) -> TimerPlanner:
    """The planner under test."""
    return TimerPlanner(store, clock, wakes, auto_delay=AUTO)


async def new_game(store: SqliteGameStore, state: Any | None = None) -> int:
    """A running game in the store (a new two-player board game unless given)."""
    row = await store.create_game(GUILD, 1, state if state is not None else game(2))
    return row.id


async def timers(store: SqliteGameStore, game_id: int) -> dict[str, Timer]:
    """The game's pending timers by key (keys are unique within a game)."""
    found = await store.pending_timers(game_id)
    by_key = {timer.key or timer.kind: timer for timer in found}
    assert len(by_key) == len(found), "two pending timers with one key"
    return by_key


def seconds_from_now(clock: ManualClock, timer: Timer) -> float:
    """How far in the future ``timer`` is due."""
    return (timer.due_at - clock()).total_seconds()


def auction(seats: int = 3) -> GameState:
    """Seat 0 declined a lot; the auction waits on every bidder."""
    state = game(seats)
    act(state, "roll", 0, dice=[1, 2])
    act(state, "decline", 0)
    return state


# -- turn timers ----------------------------------------------------------------------


async def test_reschedule_plans_the_deadline_and_both_reminders(
    planner: TimerPlanner, store: SqliteGameStore, clock: ManualClock, wakes: Wakes
) -> None:
    """With a deadline of one hour: the deadline, a reminder at half time and one a tenth
    before the end, all for the players waited on and the state planned for; the turn
    message's ``deadline_at`` and the ``planned_seq`` are written into the settings."""
    state = game(2)
    game_id = await new_game(store, state)
    settings: dict[str, Any] = {"deadline": "1h"}
    await planner.reschedule(game_id, state, GameSettings(settings))
    planned = await timers(store, game_id)
    assert sorted(planned) == ["deadline", "reminder", "reminder_soon"]
    deadline_at = int((START + timedelta(hours=1)).timestamp())
    payload = {"seq": state.seq, "deadline_at": deadline_at, "players": [0]}
    assert {key: t.payload for key, t in planned.items()} == dict.fromkeys(planned, payload)
    assert seconds_from_now(clock, planned["deadline"]) == 3600
    assert seconds_from_now(clock, planned["reminder"]) == 1800
    assert seconds_from_now(clock, planned["reminder_soon"]) == 3600 - 360
    assert settings == {"deadline": "1h", "deadline_at": deadline_at, "planned_seq": state.seq}
    assert wakes.count == 3


async def test_reschedule_replaces_the_timers_of_the_last_state(
    planner: TimerPlanner, store: SqliteGameStore, clock: ManualClock
) -> None:
    """Planning again after an action replaces each timer (keyed) with a whole deadline
    from now, for the new state."""
    state = game(2)
    game_id = await new_game(store, state)
    settings: dict[str, Any] = {"deadline": "1h"}
    await planner.reschedule(game_id, state, GameSettings(settings))
    clock.advance(600)
    act(state, "roll", 0, dice=[1, 2])
    await planner.reschedule(game_id, state, GameSettings(settings))
    planned = await timers(store, game_id)
    assert sorted(planned) == ["deadline", "reminder", "reminder_soon"]
    assert seconds_from_now(clock, planned["deadline"]) == 3600
    assert planned["deadline"].payload["seq"] == state.seq == settings["planned_seq"]


async def test_reminders_off_plans_the_deadline_only(
    planner: TimerPlanner, store: SqliteGameStore
) -> None:
    """With reminders off only the deadline is planned; reminders planned before go."""
    state = game(2)
    game_id = await new_game(store, state)
    settings: dict[str, Any] = {"deadline": "1h"}
    await planner.reschedule(game_id, state, GameSettings(settings))
    settings["reminders"] = False
    await planner.reschedule(game_id, state, GameSettings(settings))
    assert sorted(await timers(store, game_id)) == ["deadline"]


async def test_no_deadline_no_turn_timers(planner: TimerPlanner, store: SqliteGameStore) -> None:
    """With the deadline off (the default) no turn timer is planned, earlier ones are
    cancelled and the settings carry no ``deadline_at``; ``planned_seq`` is recorded."""
    state = game(2)
    game_id = await new_game(store, state)
    settings: dict[str, Any] = {"deadline": "1h"}
    await planner.reschedule(game_id, state, GameSettings(settings))
    del settings["deadline"]
    await planner.reschedule(game_id, state, GameSettings(settings))
    assert await timers(store, game_id) == {}
    assert settings == {"planned_seq": state.seq}


async def test_deadlines_are_for_humans_and_computer_seats_get_auto(
    planner: TimerPlanner, store: SqliteGameStore, clock: ManualClock
) -> None:
    """In an auction waiting on three bidders, one of them played by the computer: the
    deadline and reminders name the two humans only, and the computer seat gets an
    ``auto`` timer a moment from now for the state planned for."""
    state = auction(3)
    game_id = await new_game(store, state)
    settings: dict[str, Any] = {"deadline": "1h", "computer": {"1": "vacation"}}
    await planner.reschedule(game_id, state, GameSettings(settings))
    planned = await timers(store, game_id)
    assert sorted(planned) == ["auto", "deadline", "reminder", "reminder_soon"]
    assert planned["deadline"].payload["players"] == [0, 2]
    assert planned["auto"].payload == {"seq": state.seq}
    assert seconds_from_now(clock, planned["auto"]) == AUTO


async def test_only_computer_seats_waited_on_means_no_deadline(
    planner: TimerPlanner, store: SqliteGameStore
) -> None:
    """When the game waits on computer seats only there is no deadline, just ``auto``."""
    state = game(2)
    game_id = await new_game(store, state)
    settings: dict[str, Any] = {"deadline": "1h", "computer": {"0": "seat"}}
    await planner.reschedule(game_id, state, GameSettings(settings))
    assert sorted(await timers(store, game_id)) == ["auto"]
    assert "deadline_at" not in settings


async def test_auto_goes_when_no_computer_seat_is_waited_on(
    planner: TimerPlanner, store: SqliteGameStore
) -> None:
    """An ``auto`` timer planned for a computer seat's move is cancelled once the game
    waits on a human again."""
    state = game(2)
    game_id = await new_game(store, state)
    settings: dict[str, Any] = {"computer": {"0": "vacation"}}
    await planner.reschedule(game_id, state, GameSettings(settings))
    assert sorted(await timers(store, game_id)) == ["auto"]
    settings["computer"] = {}
    await planner.reschedule(game_id, state, GameSettings(settings))
    assert await timers(store, game_id) == {}


async def test_the_card_game_gets_the_same_turn_timers(
    planner: TimerPlanner, store: SqliteGameStore
) -> None:
    """A card game waiting on a human gets its deadline and reminders; a computer seat
    waited on gets ``auto``."""
    state = card_game(3, seed=2)
    game_id = await new_game(store, state)
    settings: dict[str, Any] = {"deadline": "24h"}
    await planner.reschedule(game_id, state, GameSettings(settings))
    planned = await timers(store, game_id)
    assert sorted(planned) == ["deadline", "reminder", "reminder_soon"]
    assert planned["deadline"].payload["players"] == [state.current]
    settings["computer"] = {str(state.current): "vacation"}
    await planner.reschedule(game_id, state, GameSettings(settings))
    assert sorted(await timers(store, game_id)) == ["auto"]


@pytest.mark.parametrize("why", ["paused", "over"])
async def test_paused_or_over_cancels_the_turn_timers(
    planner: TimerPlanner, store: SqliteGameStore, why: str
) -> None:
    """A paused game, or one that is over, has no turn timers (and no ``deadline_at``);
    other timers stay; ``planned_seq`` is still recorded."""
    state = game(2)
    game_id = await new_game(store, state)
    settings: dict[str, Any] = {"deadline": "1h", "computer": {"0": "seat"}, "digest": "8"}
    await planner.plan_digest(game_id, GameSettings(settings))
    settings["computer"] = {}
    await planner.reschedule(game_id, state, GameSettings(settings))
    if why == "paused":
        settings["paused"] = True
    else:
        state.phase = "over"
    await planner.reschedule(game_id, state, GameSettings(settings))
    assert sorted(await timers(store, game_id)) == ["digest"]
    assert "deadline_at" not in settings
    assert settings["planned_seq"] == state.seq
    assert not set(TURN_TIMERS) & set(await timers(store, game_id))


async def test_a_game_ended_meanwhile_gets_no_timer(
    planner: TimerPlanner, store: SqliteGameStore, wakes: Wakes
) -> None:
    """If the game was ended in the store meanwhile, planning adds nothing and does not
    fail (nor wake the scheduler)."""
    state = game(2)
    game_id = await new_game(store, state)
    await store.finish(game_id, "ended")
    await planner.reschedule(game_id, state, GameSettings({"deadline": "1h"}))
    assert await store.pending_timers(game_id) == []
    assert wakes.count == 0


# -- timers for the whole game --------------------------------------------------------


async def test_a_time_limited_game_records_its_start_and_end(
    planner: TimerPlanner, store: SqliteGameStore, clock: ManualClock
) -> None:
    """A game of the ``time_limit`` preset starts its clock at the start: ``started_at``,
    ``ends_at`` (two hours by default) and a ``time_up`` timer then."""
    state = game(2, preset="time_limit")
    game_id = await new_game(store, state)
    settings: dict[str, Any] = {}
    await planner.game_started(game_id, state, GameSettings(settings))
    started = int(START.timestamp())
    assert settings == {"started_at": started, "ends_at": started + 7200}
    planned = await timers(store, game_id)
    assert sorted(planned) == ["time_up"]
    assert seconds_from_now(clock, planned["time_up"]) == 7200


async def test_a_game_without_time_limit_gets_no_end(
    planner: TimerPlanner, store: SqliteGameStore
) -> None:
    """A classic game has no agreed end: no ``time_up`` and nothing in the settings."""
    state = game(2)
    game_id = await new_game(store, state)
    settings: dict[str, Any] = {}
    await planner.game_started(game_id, state, GameSettings(settings))
    assert await timers(store, game_id) == {}
    assert settings == {}


async def test_the_daily_digest(planner: TimerPlanner, store: SqliteGameStore) -> None:
    """The digest at 8 o'clock UTC comes the next morning (the clock says noon), with the
    day in its payload; turning it off cancels it."""
    game_id = await new_game(store)
    settings: dict[str, Any] = {"digest": "8"}
    await planner.game_started(game_id, game(2), GameSettings(settings))
    digest = (await timers(store, game_id))["digest"]
    assert digest.due_at == datetime(2026, 5, 2, 8, 0, tzinfo=UTC)
    assert digest.payload == {"day": "2026-05-02"}
    settings["digest"] = "off"
    await planner.plan_digest(game_id, GameSettings(settings))
    assert await timers(store, game_id) == {}


async def test_changing_the_time_limit_moves_the_end(
    planner: TimerPlanner, store: SqliteGameStore, clock: ManualClock
) -> None:
    """A new length counts from the game's start; an end already passed is due now."""
    state = game(2, preset="time_limit")
    game_id = await new_game(store, state)
    settings: dict[str, Any] = {}
    await planner.game_started(game_id, state, GameSettings(settings))
    clock.advance(hours=1)
    settings["time_limit"] = "4h"
    await planner.time_limit_changed(game_id, GameSettings(settings))
    started = settings["started_at"]
    assert settings["ends_at"] == started + 4 * 3600
    assert seconds_from_now(clock, (await timers(store, game_id))["time_up"]) == 3 * 3600
    clock.advance(hours=1.5)
    settings["time_limit"] = "2h"
    await planner.time_limit_changed(game_id, GameSettings(settings))
    assert settings["ends_at"] == started + 2 * 3600  # passed half an hour ago
    assert seconds_from_now(clock, (await timers(store, game_id))["time_up"]) == 0


async def test_changing_the_time_limit_of_an_untimed_game_does_nothing(
    planner: TimerPlanner, store: SqliteGameStore
) -> None:
    """Without ``started_at`` (not a time-limited game) the length is not the planner's."""
    game_id = await new_game(store)
    settings: dict[str, Any] = {"time_limit": "4h"}
    await planner.time_limit_changed(game_id, GameSettings(settings))
    assert settings == {"time_limit": "4h"}
    assert await timers(store, game_id) == {}


async def test_changing_the_time_limit_while_paused(
    planner: TimerPlanner, store: SqliteGameStore, clock: ManualClock
) -> None:
    """While paused the new end waits among the paused timers with the time it has left
    from the moment of the pause; no timer is set until the game resumes."""
    state = game(2, preset="time_limit")
    game_id = await new_game(store, state)
    settings: dict[str, Any] = {}
    await planner.game_started(game_id, state, GameSettings(settings))
    clock.advance(hours=1)
    await planner.pause(game_id, GameSettings(settings))
    settings.update(paused=True, paused_at=int(clock().timestamp()))
    clock.advance(hours=5)
    settings["time_limit"] = "4h"
    await planner.time_limit_changed(game_id, GameSettings(settings))
    assert await timers(store, game_id) == {}
    assert settings["ends_at"] == settings["started_at"] + 4 * 3600
    saved = [s for s in settings["paused_timers"] if s["kind"] == "time_up"]
    assert saved == [{"kind": "time_up", "left": 3 * 3600, "payload": {}, "key": "time_up"}]


# -- auctions and trade offers ----------------------------------------------------------


async def test_an_auction_with_a_closing_time(
    planner: TimerPlanner, store: SqliteGameStore, clock: ManualClock
) -> None:
    """``auction_time`` 5 minutes: the closing time is recorded for the message, the timer
    is set once the message exists (with its id) and goes when the auction closes."""
    game_id = await new_game(store)
    settings: dict[str, Any] = {"auction_time": "5m"}
    closes = planner.auction_opened(GameSettings(settings))
    assert closes == START + timedelta(minutes=5)
    assert settings["auction_closes_at"] == int(closes.timestamp())
    await planner.auction_close_at(game_id, closes, message_id=4242)
    timer = (await timers(store, game_id))["auction_close"]
    assert timer.payload == {"message": 4242}
    assert timer.due_at == closes
    await planner.auction_closed(game_id, GameSettings(settings))
    assert "auction_closes_at" not in settings
    assert await timers(store, game_id) == {}


async def test_an_auction_without_a_closing_time(
    planner: TimerPlanner, store: SqliteGameStore
) -> None:
    """``auction_time`` auto follows the deadline; with no deadline there is no closing
    time: nothing recorded (an old one removed) and no timer."""
    game_id = await new_game(store)
    settings: dict[str, Any] = {"auction_closes_at": 1}
    closes = planner.auction_opened(GameSettings(settings))
    assert closes is None
    assert settings == {}
    await planner.auction_close_at(game_id, closes, message_id=4242)
    assert await timers(store, game_id) == {}


async def test_trade_offers_get_their_closing_times(
    planner: TimerPlanner, store: SqliteGameStore, clock: ManualClock
) -> None:
    """With ``trade_time`` auto and a deadline of one hour each offer closes an hour after
    it was made, keyed by its id, and the closing times are kept for the messages."""
    game_id = await new_game(store)
    settings: dict[str, Any] = {"deadline": "1h"}
    await planner.trade_offered(game_id, GameSettings(settings), trade_id=5)
    clock.advance(60)
    await planner.trade_offered(game_id, GameSettings(settings), trade_id=6)
    planned = await timers(store, game_id)
    assert sorted(planned) == ["trade:5", "trade:6"]
    assert planned["trade:5"].kind == "trade_close"
    assert planned["trade:5"].payload == {"trade": 5}
    assert seconds_from_now(clock, planned["trade:6"]) == 3600
    first = int((START + timedelta(hours=1)).timestamp())
    assert settings["trade_closes"] == {"5": first, "6": first + 60}


async def test_trade_offers_without_closing_time(
    planner: TimerPlanner, store: SqliteGameStore
) -> None:
    """``trade_time`` off: offers stay open; nothing planned or recorded."""
    game_id = await new_game(store)
    settings: dict[str, Any] = {"deadline": "1h", "trade_time": "off"}
    await planner.trade_offered(game_id, GameSettings(settings), trade_id=5)
    assert await timers(store, game_id) == {}
    assert "trade_closes" not in settings


# -- pause and resume -----------------------------------------------------------------


async def test_pause_and_resume_keep_what_the_closing_times_had_left(
    planner: TimerPlanner, store: SqliteGameStore, clock: ManualClock
) -> None:
    """Pausing cancels every timer and remembers what the lasting ones had left (turn
    timers are planned afresh); resuming 30 hours later sets them again with that time left,
    updates ``ends_at`` and ``auction_closes_at``, plans the digest for its next hour and
    the turn timers with a whole deadline."""
    state = game(2, preset="time_limit")
    game_id = await new_game(store, state)
    settings: dict[str, Any] = {"deadline": "1h", "digest": "20", "auction_time": "5m"}
    await planner.game_started(game_id, state, GameSettings(settings))
    await planner.reschedule(game_id, state, GameSettings(settings))
    await planner.trade_offered(game_id, GameSettings(settings), trade_id=1)
    await planner.auction_close_at(
        game_id, planner.auction_opened(GameSettings(settings)), message_id=9
    )

    clock.advance(120)
    await planner.pause(game_id, GameSettings(settings))
    assert await timers(store, game_id) == {}
    left = {saved["key"]: saved["left"] for saved in settings["paused_timers"]}
    assert left == {
        "auction_close": 180,
        "trade:1": 3600 - 120,
        "digest": 8 * 3600 - 120,
        "time_up": 7200 - 120,
    }

    clock.advance(hours=30)  # not whole days: the digest keeps its hour, not its time left
    settings["paused"] = False
    await planner.resume(game_id, state, GameSettings(settings))
    assert "paused_timers" not in settings
    planned = await timers(store, game_id)
    assert sorted(planned) == [
        "auction_close",
        "deadline",
        "digest",
        "reminder",
        "reminder_soon",
        "time_up",
        "trade:1",
    ]
    assert seconds_from_now(clock, planned["auction_close"]) == 180
    assert seconds_from_now(clock, planned["trade:1"]) == 3600 - 120
    assert seconds_from_now(clock, planned["time_up"]) == 7200 - 120
    assert seconds_from_now(clock, planned["deadline"]) == 3600
    assert planned["digest"].due_at == datetime(2026, 5, 2, 20, 0, tzinfo=UTC)
    assert planned["trade:1"].payload == {"trade": 1}
    now = int(clock().timestamp())
    assert settings["ends_at"] == now + 7200 - 120
    assert settings["auction_closes_at"] == now + 180
    assert settings["planned_seq"] == state.seq


async def test_a_closing_time_passed_before_the_pause_is_due_at_once_on_resume(
    planner: TimerPlanner, store: SqliteGameStore, clock: ManualClock
) -> None:
    """A timer already overdue when the game is paused has nothing left: it fires as soon
    as the game resumes."""
    game_id = await new_game(store)
    settings: dict[str, Any] = {"deadline": "1h"}
    await planner.trade_offered(game_id, GameSettings(settings), trade_id=3)
    clock.advance(hours=2)
    await planner.pause(game_id, GameSettings(settings))
    assert settings["paused_timers"][0]["left"] == 0
    clock.advance(hours=1)
    await planner.resume(game_id, game(2), GameSettings(settings))
    assert (await timers(store, game_id))["trade:3"].due_at == clock()
