"""Start-up: games survive a restart, unreadable games are set aside, others run on.

On both drivers: each ``backend.store()`` is a new process on the same database, and
rows are damaged with plain SQL behind the store's back.
"""

from __future__ import annotations

import logging
from datetime import datetime, timedelta

import pytest

from bot.store import (
    ChannelBusy,
    GameBroken,
    GameInfo,
    GameNotRunning,
    GameStatus,
    InvalidRecord,
)
from tests.store.backends import Backend
from tests.store.conftest import GUILD, FakeClock, advance, make_state, play


async def test_restart_mid_game_continues_identically(backend: Backend, clock: FakeClock) -> None:
    """A game continued by a new process plays on exactly as if it had not stopped."""
    state = make_state(11)
    uninterrupted = state.copy()
    expected_events = play(uninterrupted, 120)

    async with backend.store(now=clock) as store:
        row = await store.create_game(GUILD, 10, state)
        await advance(store, row.id, 50)
    # A new process: nothing is shared with the first store but the file.
    async with backend.store(now=clock) as store:
        games = await store.unfinished_games()
        assert [g.id for g in games] == [row.id]
        assert games[0].seq == 50
        await advance(store, row.id, 70)
        final = await store.load(row.id)
        record = await store.record(row.id)

    assert final.state is not None
    assert final.state.to_json() == uninterrupted.to_json()  # same dice future
    assert record.replay().to_json() == uninterrupted.to_json()
    assert [a["dice"] for a in record.actions] == [
        [e["dice"] for e in events if e["type"] == "rolled"] for events in expected_events
    ]


async def test_unfinished_games_after_restart(backend: Backend, clock: FakeClock) -> None:
    """After a restart unfinished_games lists the lobbies and running games, not the finished."""
    async with backend.store(now=clock) as store:
        lobby = await store.create_game(GUILD, 10, None, settings={"slots": 4})
        running = await store.create_game(GUILD, 11, make_state(1))
        done = await store.create_game(GUILD, 12, make_state(2))
        await advance(store, running.id, 9)
        await store.finish(done.id, "abandoned")
    async with backend.store(now=clock) as store:
        games = await store.unfinished_games()
        assert [(g.id, g.status) for g in games] == [
            (lobby.id, GameStatus.LOBBY),
            (running.id, GameStatus.RUNNING),
        ]
        assert games[0].state is None and games[0].settings == {"slots": 4}
        assert games[1].state is not None and games[1].state.seq == 9
        assert (await store.load(done.id)).status == GameStatus.FINISHED


async def test_finished_since_lists_the_games_that_ended_lately(
    backend: Backend, clock: FakeClock
) -> None:
    """``finished_since``: finished games that started play and changed at or after the
    moment, with their state; not lobbies closed, not running games, not older ends, not
    an unreadable one (the reconciler looks there for ends never shown)."""
    async with backend.store(now=clock) as store:
        old = await store.create_game(GUILD, 10, make_state(1))
        await store.finish(old.id, "abandoned")
        since = clock.moment + timedelta(seconds=1)  # the next reading of the clock
        lobby = await store.create_game(GUILD, 11, None)
        await store.finish(lobby.id, "abandoned")
        running = await store.create_game(GUILD, 12, make_state(2))
        late = await store.create_game(GUILD, 13, make_state(3))
        await advance(store, late.id, 4)
        await store.finish(late.id, "abandoned")
        damaged = await store.create_game(GUILD, 14, make_state(4))
        await store.finish(damaged.id, "abandoned")
    await _corrupt(backend, damaged.id, "{not json")
    async with backend.store(now=clock) as store:
        rows = await store.finished_since(since)
        assert [(r.id, r.seq) for r in rows] == [(late.id, 4)]
        assert rows[0].state is not None and rows[0].state.seq == 4
        assert running.id not in [r.id for r in await store.finished_since(since)]
        assert await store.finished_since(clock.moment + timedelta(days=1)) == []
        with pytest.raises(ValueError):
            await store.finished_since(datetime(2026, 5, 1))  # noqa: DTZ001 - no time zone


async def _corrupt(
    backend: Backend,
    game_id: int,
    value: str | None,
    seq: int | None = None,
    column: str = "state",
) -> None:
    """Damage a game's row with plain SQL, as a bad disk or a bad hand might."""
    await backend.execute(f"UPDATE games SET {column}_json = ? WHERE id = ?", value, game_id)
    if seq is not None:
        await backend.execute("UPDATE games SET seq = ? WHERE id = ?", seq, game_id)


GARBAGE = {
    # (PostgreSQL's text cannot hold the NUL; there the text is "{garbage".)
    "not json": ("state", "{\x00garbage"),
    "not a state": ("state", '{"format": "something-else/1"}'),
    "missing fields": ("state", '{"format": "monopoly-state/1", "rules": {}}'),
    "missing state": ("state", None),
    "settings not json": ("settings", "{oops"),
    "settings not an object": ("settings", "[1, 2]"),
}


@pytest.mark.parametrize("damage", sorted(GARBAGE))
async def test_a_corrupt_row_does_not_stop_other_games(
    backend: Backend, clock: FakeClock, caplog: pytest.LogCaptureFixture, damage: str
) -> None:
    """A damaged game is set aside (logged once, the hook told); the others play on."""
    async with backend.store(now=clock) as store:
        ids = [(await store.create_game(GUILD, 10 + n, make_state(n))).id for n in range(3)]
        for game_id in ids:
            await advance(store, game_id, 5)
    column, value = GARBAGE[damage]
    if backend.name == "postgres" and value is not None:
        value = value.replace("\x00", "")
    await _corrupt(backend, ids[1], value, column=column)

    told: list[GameInfo] = []
    caplog.set_level(logging.ERROR, logger="bot.store")
    async with backend.store(now=clock, on_broken=told.append) as store:
        games = await store.unfinished_games()
        assert [g.id for g in games] == [ids[0], ids[2]]
        # A clear log line naming the game, and the admins are told.
        lines = [r.getMessage() for r in caplog.records if r.levelno >= logging.ERROR]
        assert len(lines) == 1
        assert f"Game {ids[1]} (guild {GUILD}, channel 11) set aside" in lines[0]
        assert [(g.id, g.status) for g in told] == [(ids[1], GameStatus.BROKEN)]
        assert told[0].broken_error
        broken = await store.broken_games()
        assert [(g.id, g.channel_id) for g in broken] == [(ids[1], 11)]
        assert broken[0].broken_error == told[0].broken_error
        with pytest.raises(GameBroken):
            await store.load(ids[1])
        with pytest.raises(GameBroken):
            await store.apply(ids[1], {"type": "roll", "player": 0})
        # The other games keep running.
        for game_id in (ids[0], ids[2]):
            await advance(store, game_id, 5)
            assert (await store.load(game_id)).seq == 10
        # The broken game frees its channel.
        assert await store.game_in_channel(11) is None
        assert [g.id for g in await store.list_games(GUILD)] == ids
        # A second start-up does not report it again.
        assert [g.id for g in await store.unfinished_games()] == [ids[0], ids[2]]
        assert len(told) == 1


async def test_a_seq_that_disagrees_with_the_state_is_unreadable(
    backend: Backend, clock: FakeClock
) -> None:
    """A row whose seq differs from its state's is set aside."""
    async with backend.store(now=clock) as store:
        row = await store.create_game(GUILD, 10, make_state())
        await advance(store, row.id, 3)
        good_json = (await store.load(row.id)).state.to_json()  # type: ignore[union-attr]
    await _corrupt(backend, row.id, good_json, seq=2)
    async with backend.store(now=clock) as store:
        assert await store.unfinished_games() == []
        assert "differs" in (await store.broken_games())[0].broken_error  # type: ignore[operator]


async def test_a_corrupt_row_found_by_load(backend: Backend, clock: FakeClock) -> None:
    """A damaged game found by a load is set aside and frees its channel."""
    async with backend.store(now=clock) as store:
        row = await store.create_game(GUILD, 10, make_state())
        await advance(store, row.id, 2)
    await _corrupt(backend, row.id, "[]")
    async with backend.store(now=clock) as store:
        with pytest.raises(GameBroken):
            await store.game_in_channel(10)
        assert (await store.broken_games())[0].id == row.id
        assert await store.game_in_channel(10) is None


async def test_rebuild_a_broken_game_from_its_log(backend: Backend, clock: FakeClock) -> None:
    """A broken game is rebuilt from its log and runs again."""
    async with backend.store(now=clock) as store:
        row = await store.create_game(GUILD, 10, make_state(3))
        expected = await advance(store, row.id, 40)
    await _corrupt(backend, row.id, "garbage")
    async with backend.store(now=clock) as store:
        assert await store.unfinished_games() == []
        rebuilt = await store.rebuild_from_log(row.id)
        assert rebuilt.status == GameStatus.RUNNING and rebuilt.broken_error is None
        assert rebuilt.state is not None and rebuilt.state.to_json() == expected.to_json()
        await advance(store, row.id, 5)
        assert await store.broken_games() == []


async def test_rebuild_refuses_when_the_channel_moved_on(
    backend: Backend, clock: FakeClock
) -> None:
    """Rebuilding is refused once the channel has a new game; finishing it is not."""
    async with backend.store(now=clock) as store:
        row = await store.create_game(GUILD, 10, make_state(3))
        await advance(store, row.id, 4)
        await store.set_aside(row.id, "checked by hand")
        newer = await store.create_game(GUILD, 10, make_state(4))
        with pytest.raises(ChannelBusy) as caught:
            await store.rebuild_from_log(row.id)
        assert caught.value.game_id == newer.id
        assert (await store.broken_games())[0].broken_error == "checked by hand"
        # An admin can archive it instead; its history stays.
        await store.finish(row.id, "unrepairable")
        with pytest.raises(GameNotRunning):
            await store.rebuild_from_log(row.id)
        assert len((await store.record(row.id)).actions) == 4


async def test_rebuild_refuses_a_log_that_does_not_replay(
    backend: Backend, clock: FakeClock
) -> None:
    """A log that does not replay is InvalidRecord; the game stays set aside."""
    async with backend.store(now=clock) as store:
        row = await store.create_game(GUILD, 10, make_state(3))
        await advance(store, row.id, 6)
    # Past the append-only log's trigger: SQLite's can be dropped (a throwaway file);
    # PostgreSQL skips triggers for a session in replica mode.
    if backend.name == "postgres":
        await backend.execute(
            "SET session_replication_role = replica;"
            f" UPDATE actions SET dice_json = '[[9, 9]]' WHERE game_id = {int(row.id)}"
        )
    else:
        await backend.execute("DROP TRIGGER actions_no_update")
        await backend.execute("UPDATE actions SET dice_json = '[[9, 9]]' WHERE game_id = ?", row.id)
    await _corrupt(backend, row.id, "garbage")
    async with backend.store(now=clock) as store:
        await store.unfinished_games()
        with pytest.raises(InvalidRecord):
            await store.rebuild_from_log(row.id)
        assert (await store.broken_games())[0].id == row.id


async def test_hooks_may_be_async_and_may_fail(
    backend: Backend, clock: FakeClock, caplog: pytest.LogCaptureFixture
) -> None:
    """The broken-game hook may be async and may fail without stopping the store."""
    async with backend.store(now=clock) as store:
        ids = [(await store.create_game(GUILD, 10 + n, make_state(n))).id for n in range(3)]
    await _corrupt(backend, ids[0], "x")
    await _corrupt(backend, ids[1], "y")
    seen = []

    async def hook(info: GameInfo) -> None:
        seen.append(info.id)
        if info.id == ids[0]:
            raise RuntimeError("Discord is down")

    async with backend.store(now=clock, on_broken=hook) as store:
        assert [g.id for g in await store.unfinished_games()] == [ids[2]]
    assert seen == ids[:2]
    assert any("hook failed" in r.getMessage() for r in caplog.records)
