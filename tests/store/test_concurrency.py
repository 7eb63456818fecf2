"""Concurrent clicks: one game at a time per game, games never wait on each other.

On both drivers; two stores on one database stand for two bot processes (their own
connections, caches and in-process locks), so only the database keeps them apart.
"""

from __future__ import annotations

import asyncio
from typing import Any

import pytest

from bot.engine.errors import IllegalAction
from bot.store import StaleAction
from bot.store.bench import next_simple_action
from bot.store.sql import SqlGameStore
from tests.store.backends import StoreFactory
from tests.store.conftest import GUILD, advance, make_state, play


async def test_double_click_exactly_one_wins(store: SqlGameStore) -> None:
    """Five identical clicks for one seq at once: one lands, four are "already done"."""
    row = await store.create_game(GUILD, 10, make_state())
    await advance(store, row.id, 3)
    state = (await store.load(row.id)).state
    assert state is not None
    action = next_simple_action(state)
    assert action is not None
    outcomes = await asyncio.gather(
        *(store.apply(row.id, action, expected_seq=state.seq) for _ in range(5)),
        return_exceptions=True,
    )
    won = [o for o in outcomes if not isinstance(o, BaseException)]
    lost = [o for o in outcomes if isinstance(o, BaseException)]
    assert len(won) == 1 and won[0].seq == 4
    assert len(lost) == 4 and all(isinstance(e, StaleAction) for e in lost)
    assert all(e.code == "already_done" and e.current_seq == 4 for e in lost)  # type: ignore[union-attr]
    assert len((await store.record(row.id)).actions) == 4


async def test_concurrent_clicks_without_seq_are_judged_one_after_another(
    store: SqlGameStore,
) -> None:
    """Clicks without a seq are judged one after another against the newest state."""
    # Without expected_seq, the second identical click meets the new state and the
    # rules judge it there; nothing is lost or applied twice by accident.
    state = make_state()
    row = await store.create_game(GUILD, 10, state)
    roll = {"type": "roll", "player": state.current}
    outcomes = await asyncio.gather(
        store.apply(row.id, roll), store.apply(row.id, roll), return_exceptions=True
    )
    assert not isinstance(outcomes[0], BaseException)
    record = await store.record(row.id)
    applied = 1 + (not isinstance(outcomes[1], BaseException))
    assert len(record.actions) == applied
    if isinstance(outcomes[1], BaseException):
        assert isinstance(outcomes[1], IllegalAction)
    assert record.replay().to_json() == (await store.load(row.id)).state.to_json()  # type: ignore[union-attr]


async def test_many_games_progress_in_parallel(store: SqlGameStore) -> None:
    """Sixteen games played at once each end as the engine plays them alone."""
    count, steps = 16, 40
    ids = [(await store.create_game(GUILD, 100 + n, make_state(n))).id for n in range(count)]

    async def player(game_id: int) -> None:
        await advance(store, game_id, steps)

    await asyncio.gather(*(player(game_id) for game_id in ids))
    for n, game_id in enumerate(ids):
        expected = make_state(n)
        play(expected, steps)
        loaded = await store.load(game_id)
        assert loaded.state is not None and loaded.state.to_json() == expected.to_json()
        assert (await store.record(game_id)).replay().to_json() == expected.to_json()


async def test_a_held_game_does_not_block_others(store: SqlGameStore) -> None:
    """A game whose lock is held does not hold up other games."""
    busy = await store.create_game(GUILD, 10, make_state(1))
    free = await store.create_game(GUILD, 11, make_state(2))
    busy_action = next_simple_action(busy.state)  # type: ignore[arg-type]
    assert busy_action is not None
    lock = store._locks(busy.id)
    async with lock:  # as if a slow action were under way on the busy game
        await asyncio.wait_for(advance(store, free.id, 3), timeout=5)
        with pytest.raises(TimeoutError):
            await asyncio.wait_for(store.apply(busy.id, busy_action), timeout=0.2)
    # The click that gave up waiting was never applied.
    assert (await store.load(busy.id)).seq == 0
    assert (await store.load(free.id)).seq == 3
    await store.apply(busy.id, busy_action, expected_seq=0)
    assert (await store.load(busy.id)).seq == 1


async def test_a_cancelled_caller_cannot_tear_a_write(
    store: SqlGameStore, monkeypatch: pytest.MonkeyPatch
) -> None:
    """A caller cancelled while its write is under way leaves the write whole."""
    row = await store.create_game(GUILD, 10, make_state())
    action = next_simple_action(row.state)  # type: ignore[arg-type]
    assert action is not None
    writing, go = asyncio.Event(), asyncio.Event()
    real_write = store._write_action

    async def slow_write(*args: Any) -> bool:
        writing.set()
        await go.wait()
        return await real_write(*args)

    monkeypatch.setattr(store, "_write_action", slow_write)
    caller = asyncio.ensure_future(store.apply(row.id, action, expected_seq=0))
    await writing.wait()
    caller.cancel()
    with pytest.raises(asyncio.CancelledError):
        await caller
    # Other games carry on meanwhile, and this game waits for the write to end.
    other = await store.create_game(GUILD, 11, make_state(2))
    go.set()
    again = next_simple_action((await store.load(other.id)).state)  # type: ignore[arg-type]
    assert again is not None
    await store.apply(other.id, again)
    monkeypatch.undo()
    # The action was accepted before the caller went away, so it is stored whole.
    with pytest.raises(StaleAction):
        await store.apply(row.id, action, expected_seq=0)
    loaded = await store.load(row.id)
    assert loaded.seq == 1
    assert (await store.record(row.id)).replay().to_json() == loaded.state.to_json()  # type: ignore[union-attr]


async def test_finish_and_apply_race(store: SqlGameStore) -> None:
    """Finishing a game while an action is applied leaves a game that is the replay of its log."""
    row = await store.create_game(GUILD, 10, make_state())
    action = next_simple_action(row.state)  # type: ignore[arg-type]
    assert action is not None
    outcomes = await asyncio.gather(
        store.apply(row.id, action, expected_seq=0),
        store.finish(row.id, "host ended it"),
        return_exceptions=True,
    )
    assert not isinstance(outcomes[1], BaseException)
    loaded = await store.load(row.id)
    assert loaded.status == "finished"
    assert (await store.record(row.id)).replay().to_json() == loaded.state.to_json()  # type: ignore[union-attr]


async def test_two_stores_on_one_file_never_write_over_each_other(
    store_factory: StoreFactory,
) -> None:
    """A store whose cached state is older than the stored seq reads the game again and
    judges the action against the newer state, instead of overwriting it."""
    # Two bot processes on the same database: the version check on the row makes the
    # second writer re-read instead of overwriting the first one's action.
    async with store_factory() as first, store_factory() as second:
        row = await first.create_game(GUILD, 10, make_state())
        await advance(first, row.id, 1)
        await advance(second, row.id, 1)  # second caches the game at seq 2
        await advance(first, row.id, 1)  # first moves it to seq 3 behind second's back
        state = (await first.load(row.id)).state
        action = next_simple_action(state)  # type: ignore[arg-type]
        assert action is not None
        result = await second.apply(row.id, action)  # judged against seq 3, not 2
        assert result.seq == 4
        with pytest.raises(StaleAction):
            await second.apply(row.id, action, expected_seq=3)
        record = await first.record(row.id)
        assert len(record.actions) == 4
        assert record.replay().to_json() == result.state.to_json()


async def test_two_processes_clicking_at_once_give_exactly_one_effect(
    store_factory: StoreFactory,
) -> None:
    """Two stores (two processes) apply the same click to one game at the same moment,
    again and again: exactly one lands each time, the other is told "already done"
    (StaleAction), and the log is the replay of exactly the landed actions."""
    async with store_factory() as first, store_factory() as second:
        row = await first.create_game(GUILD, 10, make_state())
        state = row.state
        assert state is not None
        for _ in range(30):
            action = next_simple_action(state)
            assert action is not None
            outcomes = await asyncio.gather(
                *(
                    store.apply(row.id, action, expected_seq=state.seq)
                    for store in (first, second, first, second)
                ),
                return_exceptions=True,
            )
            won = [o for o in outcomes if not isinstance(o, BaseException)]
            lost = [o for o in outcomes if isinstance(o, BaseException)]
            assert len(won) == 1, outcomes
            assert all(isinstance(e, StaleAction) for e in lost), lost
            assert all(e.current_seq == state.seq + 1 for e in lost)  # type: ignore[union-attr]
            state = won[0].state
        for store in (first, second):
            loaded = await store.load(row.id)
            assert loaded.seq == 30 and loaded.state is not None
            assert loaded.state.to_json() == state.to_json()
        record = await second.record(row.id)
        assert len(record.actions) == 30
        assert record.replay().to_json() == state.to_json()


async def test_two_processes_playing_one_game_lose_nothing(store_factory: StoreFactory) -> None:
    """Two stores take turns at random with no expected_seq (each judging against what
    it believes is the state): every accepted action is in the log once, and the stored
    state is the log's replay."""
    async with store_factory() as first, store_factory() as second:
        row = await first.create_game(GUILD, 10, make_state(5))

        async def player(store: SqlGameStore, moves: int) -> int:
            applied = 0
            for _ in range(moves):
                loaded = await store.load(row.id)
                assert loaded.state is not None
                action = next_simple_action(loaded.state)
                if action is None:
                    break
                try:
                    await store.apply(row.id, action)
                    applied += 1
                except (IllegalAction, StaleAction):
                    pass  # judged against a newer state: refused, nothing stored
            return applied

        counts = await asyncio.gather(player(first, 40), player(second, 40))
        record = await first.record(row.id)
        assert len(record.actions) == sum(counts)
        loaded = await second.load(row.id)
        assert loaded.state is not None and loaded.seq == sum(counts)
        assert record.replay().to_json() == loaded.state.to_json()
