"""Creating, loading and playing games through the store, on SQLite and PostgreSQL."""

from __future__ import annotations

import json
import sqlite3
from datetime import UTC, datetime
from pathlib import Path
from types import SimpleNamespace

import asyncpg
import pytest

from bot.engine.errors import IllegalAction
from bot.engine.game import apply_action, new_game
from bot.engine.record import GameRecord
from bot.store import (
    ChannelBusy,
    GameNotFound,
    GameNotRunning,
    GameStatus,
    InvalidRecord,
    SqliteGameStore,
    StaleAction,
)
from bot.store.bench import next_simple_action
from bot.store.sql import SqlGameStore
from tests.store.backends import Backend, PostgresBackend, SqliteBackend, StoreFactory
from tests.store.conftest import GUILD, OTHER_GUILD, USER, FakeClock, advance, make_state, play


async def test_create_load_apply(store: SqlGameStore, backend: Backend) -> None:
    """A game is created, read back and played one action: state and events as the
    engine's."""
    state = make_state()
    row = await store.create_game(GUILD, 10, state, created_by=USER)
    if isinstance(backend, SqliteBackend):
        assert backend.path.exists()
    assert (row.guild_id, row.channel_id, row.created_by) == (GUILD, 10, USER)
    assert row.status == GameStatus.RUNNING
    assert row.seq == 0
    assert row.state is not None and row.state.to_json() == state.to_json()

    action = next_simple_action(state)
    assert action is not None
    expected = state.copy()
    expected_events = apply_action(expected, action)
    result = await store.apply(row.id, action, expected_seq=0)
    assert result.seq == 1
    assert result.events == expected_events
    assert result.state.to_json() == expected.to_json()
    loaded = await store.load(row.id)
    assert loaded.seq == 1
    assert loaded.state is not None and loaded.state.to_json() == expected.to_json()


async def test_states_handed_out_are_copies(store: SqlGameStore) -> None:
    """Every state the store hands out is the caller's own copy: changing it changes
    nothing stored."""
    state = make_state()
    row = await store.create_game(GUILD, 10, state)
    state.players[0].cash = 1  # the caller's object is not the stored game
    assert row.state is not None
    row.state.players[0].cash = 2
    action = next_simple_action(make_state())
    assert action is not None
    result = await store.apply(row.id, action)
    result.state.players[0].cash = 3
    loaded = await store.load(row.id)
    assert loaded.state is not None
    assert loaded.state.players[0].cash not in (1, 2, 3)
    assert loaded.state.to_json() == (await store.record(row.id)).replay().to_json()


async def test_illegal_action_passes_through_and_changes_nothing(store: SqlGameStore) -> None:
    """A refused action raises the engine's IllegalAction unchanged and stores nothing."""
    state = make_state()
    row = await store.create_game(GUILD, 10, state)
    intruder = (state.current + 1) % len(state.players)
    with pytest.raises(IllegalAction) as caught:
        await store.apply(row.id, {"type": "roll", "player": intruder})
    assert caught.value.code == "not_your_turn"
    with pytest.raises(IllegalAction) as caught:
        await store.apply(row.id, {"type": "roll", "player": object()})  # not JSON
    assert caught.value.code == "bad_action"
    loaded = await store.load(row.id)
    assert loaded.seq == 0
    assert loaded.state is not None and loaded.state.to_json() == state.to_json()
    assert (await store.record(row.id)).actions == []
    # The game carries on normally afterwards.
    await advance(store, row.id, 3)
    assert (await store.load(row.id)).seq == 3


async def test_stale_action_is_already_done(store: SqlGameStore) -> None:
    """An action made for an older seq is StaleAction ("already done"), with both seqs."""
    row = await store.create_game(GUILD, 10, make_state())
    await advance(store, row.id, 2)
    state = (await store.load(row.id)).state
    assert state is not None
    action = next_simple_action(state)
    assert action is not None
    with pytest.raises(StaleAction) as caught:
        await store.apply(row.id, action, expected_seq=1)
    assert caught.value.code == "already_done"
    assert (caught.value.expected_seq, caught.value.current_seq) == (1, 2)
    assert (await store.load(row.id)).seq == 2


async def test_one_unfinished_game_per_channel(store: SqlGameStore) -> None:
    """A channel holds one lobby or running game; a finished one frees it."""
    first = await store.create_game(GUILD, 10, make_state())
    with pytest.raises(ChannelBusy) as caught:
        await store.create_game(GUILD, 10, make_state(seed=8))
    assert (caught.value.channel_id, caught.value.game_id) == (10, first.id)
    with pytest.raises(ChannelBusy):
        await store.create_game(GUILD, 10, None)  # a lobby claims the channel too
    other = await store.create_game(GUILD, 11, make_state(seed=8))
    assert other.id != first.id
    await store.finish(first.id, "abandoned")
    again = await store.create_game(GUILD, 10, make_state(seed=9))
    assert again.id > other.id
    current = await store.game_in_channel(10)
    assert current is not None and current.id == again.id
    assert await store.game_in_channel(12) is None


async def test_lobby_then_start(store: SqlGameStore) -> None:
    """A lobby has settings but no state and takes no actions until it is started."""
    lobby = await store.create_game(GUILD, 10, None, created_by=USER, settings={"preset": "mark"})
    assert lobby.status == GameStatus.LOBBY and lobby.state is None
    assert lobby.settings == {"preset": "mark"}
    with pytest.raises(GameNotRunning) as caught:
        await store.apply(lobby.id, {"type": "roll", "player": 0})
    assert caught.value.status == "lobby"
    with pytest.raises(GameNotRunning):
        await store.record(lobby.id)
    info = await store.set_settings(lobby.id, {"preset": "classic", "players": [USER]})
    assert info.settings == {"preset": "classic", "players": [USER]}
    state = make_state()
    started = await store.start_game(lobby.id, state)
    assert started.status == GameStatus.RUNNING
    assert started.state is not None and started.state.to_json() == state.to_json()
    assert started.settings == {"preset": "classic", "players": [USER]}
    with pytest.raises(GameNotRunning):
        await store.start_game(lobby.id, state)
    await advance(store, lobby.id, 2)
    assert (await store.record(lobby.id)).start == state.to_dict()


async def test_finished_games_stay_readable(store: SqlGameStore) -> None:
    """A finished game keeps its state and record for history and takes no actions."""
    row = await store.create_game(GUILD, 10, make_state())
    last = await advance(store, row.id, 5)
    info = await store.finish(row.id, "abandoned")
    assert info.status == GameStatus.FINISHED and info.finished_reason == "abandoned"
    loaded = await store.load(row.id)
    assert loaded.state is not None and loaded.state.to_json() == last.to_json()
    assert (await store.record(row.id)).replay().to_json() == last.to_json()
    assert await store.game_in_channel(10) is None
    with pytest.raises(GameNotRunning):
        await store.apply(row.id, {"type": "roll", "player": 0})
    with pytest.raises(GameNotRunning):
        await store.finish(row.id, "again")
    assert [g.id for g in await store.list_games(GUILD)] == []
    assert [g.id for g in await store.list_games(GUILD, include_finished=True)] == [row.id]


async def test_the_last_action_finishes_the_game(store: SqlGameStore) -> None:
    """The action that ends the game by the rules finishes the stored game in the same write."""
    state = new_game([("a", "A"), ("b", "B")], seed=2)
    while True:
        action = next_simple_action(state)
        assert action is not None
        probe = state.copy()
        apply_action(probe, action)
        if probe.phase == "over":
            break
        apply_action(state, action)
    row = await store.create_game(GUILD, 10, state)
    result = await store.apply(row.id, action, expected_seq=state.seq)
    assert result.state.phase == "over"
    info = (await store.list_games(GUILD, include_finished=True))[0]
    assert info.status == GameStatus.FINISHED and info.finished_reason == "over"
    assert await store.unfinished_games() == []
    loaded = await store.load(row.id)
    assert loaded.state is not None and loaded.state.to_json() == probe.to_json()


async def test_list_games_by_guild(store: SqlGameStore) -> None:
    """list_games lists a guild's open games, oldest first."""
    a = await store.create_game(GUILD, 10, make_state(1))
    b = await store.create_game(OTHER_GUILD, 20, make_state(2))
    c = await store.create_game(GUILD, 11, None)
    assert [g.id for g in await store.list_games(GUILD)] == [a.id, c.id]
    assert [g.id for g in await store.list_games(OTHER_GUILD)] == [b.id]
    assert await store.list_games(333) == []


async def test_unknown_games(store: SqlGameStore) -> None:
    """Every method refuses a game id that no game has with GameNotFound."""
    for call in (
        store.load(404),
        store.apply(404, {"type": "roll", "player": 0}),
        store.finish(404, "x"),
        store.set_settings(404, {}),
        store.record(404),
        store.start_game(404, make_state()),
    ):
        with pytest.raises(GameNotFound):
            await call


async def test_times_come_from_the_injected_clock(store: SqlGameStore, clock: FakeClock) -> None:
    """Created and updated times come from the store's clock, in UTC."""
    row = await store.create_game(GUILD, 10, make_state())
    assert row.created_at.tzinfo is not None
    assert row.created_at == row.updated_at <= clock.moment
    await advance(store, row.id, 1)
    info = (await store.list_games(GUILD))[0]
    assert info.updated_at > info.created_at
    assert info.updated_at.utcoffset() is not None and info.updated_at.utcoffset().seconds == 0


async def test_naive_clock_is_refused(store_factory: StoreFactory) -> None:
    """A clock without a time zone is refused at the first write, not silently taken."""
    async with store_factory(now=lambda: datetime(2026, 1, 1)) as store:  # noqa: DTZ001
        with pytest.raises(ValueError, match="timezone-aware"):
            await store.create_game(GUILD, 10, make_state())


async def test_record_replays_to_the_stored_state(store: SqlGameStore, backend: Backend) -> None:
    """The record of 150 actions replays to the stored state; the log has every seq."""
    row = await store.create_game(GUILD, 10, make_state(3))
    last = await advance(store, row.id, 150)
    record = await store.record(row.id)
    assert len(record.actions) == 150
    assert record.replay().to_json() == last.to_json()
    # The log keeps each action's events too.
    rows = await backend.fetch(
        "SELECT seq, events_json FROM actions WHERE game_id = ? ORDER BY seq", row.id
    )
    seqs = [r[0] for r in rows]
    events = [json.loads(r[1]) for r in rows]
    assert seqs == list(range(1, 151))
    assert all(isinstance(e, list) and e for e in events)


async def test_export_import_round_trip(store: SqlGameStore, backend: Backend) -> None:
    """A game exported from one database and imported into another plays on the same."""
    row = await store.create_game(GUILD, 10, make_state(4))
    await advance(store, row.id, 60)
    exported = await store.export(row.id)
    assert exported["format"] == "monopoly-record/1"
    text = json.dumps(exported)  # as a bug report would carry it

    elsewhere = await backend.other()
    async with elsewhere.store() as other:
        imported = await other.import_game(OTHER_GUILD, 77, json.loads(text), created_by=USER)
        assert imported.status == GameStatus.RUNNING and imported.seq == 60
        original = await store.load(row.id)
        assert original.state is not None and imported.state is not None
        assert imported.state.to_json() == original.state.to_json()
        assert (await other.export(imported.id)) == exported
        # Both copies continue identically (same dice future).
        mine = await advance(store, row.id, 40)
        theirs = await advance(other, imported.id, 40)
        assert mine.to_json() == theirs.to_json()


async def test_import_refuses_a_bad_record(store: SqlGameStore) -> None:
    """A record that does not replay is InvalidRecord; a busy channel is ChannelBusy."""
    row = await store.create_game(GUILD, 10, make_state(5))
    await advance(store, row.id, 30)
    record = (await store.record(row.id)).to_dict()
    rolled = next(i for i, a in enumerate(record["actions"]) if a["dice"])
    record["actions"][rolled]["dice"] = (
        [[6, 6]] if record["actions"][rolled]["dice"] != [[6, 6]] else [[1, 2]]
    )
    for bad in (record, {"format": "nonsense"}, {**record, "start": {"format": "x"}}):
        with pytest.raises(InvalidRecord):
            await store.import_game(GUILD, 20, bad)
    assert await store.game_in_channel(20) is None
    with pytest.raises(ChannelBusy):
        await store.import_game(GUILD, 10, (await store.record(row.id)).to_dict())


async def test_import_of_a_finished_game(store: SqlGameStore) -> None:
    """An imported record that ends the game makes a finished game, which frees the channel."""
    state = new_game([("a", "A"), ("b", "B")], seed=0)
    record = GameRecord.begin(state)
    while state.phase != "over":
        action = next_simple_action(state)
        assert action is not None
        record.add(action, apply_action(state, action))
    row = await store.import_game(GUILD, 10, record.to_dict())
    assert row.status == GameStatus.FINISHED and row.finished_reason == "over"
    assert row.state is not None and row.state.to_json() == state.to_json()
    assert await store.game_in_channel(10) is None  # history does not hold the channel


async def test_the_log_is_append_only(store: SqlGameStore, backend: Backend) -> None:
    """The database itself refuses to change or remove a logged action."""
    row = await store.create_game(GUILD, 10, make_state())
    await advance(store, row.id, 2)
    statements = ["UPDATE actions SET action_json = '{}'", "DELETE FROM actions"]
    if backend.name == "postgres":
        statements.append("TRUNCATE actions")  # skips row triggers; refused all the same
    for statement in statements:
        with pytest.raises((sqlite3.IntegrityError, asyncpg.PostgresError), match="append-only"):
            await backend.execute(statement)
    assert len((await store.record(row.id)).actions) == 2


async def test_database_settings(db_path: Path) -> None:
    """SQLite only: the file is in WAL mode."""
    async with SqliteGameStore(db_path):
        pass
    conn = sqlite3.connect(db_path)
    assert conn.execute("PRAGMA journal_mode").fetchone()[0] == "wal"
    conn.close()


def test_unknown_synchronous_mode_is_refused(db_path: Path) -> None:
    """SQLite only: a synchronous mode SQLite does not know is refused."""
    with pytest.raises(ValueError):
        SqliteGameStore(db_path, synchronous="OFF")


async def test_store_for_settings(tmp_path: Path) -> None:
    """Without a database URL the bot keeps its games in the SQLite file."""
    from bot.config import Settings
    from bot.store import store_for

    settings = Settings.from_env({"MONOPOLY_DB_PATH": str(tmp_path / "x" / "m.db")}, env_file=None)
    store = store_for(settings, now=lambda: datetime.now(UTC))
    async with store:
        await store.create_game(GUILD, 1, make_state())
    assert (tmp_path / "x" / "m.db").exists()


async def test_store_for_a_database_url(pg_backend: PostgresBackend) -> None:
    """MONOPOLY_DATABASE_URL picks PostgreSQL (postgres:// too); the SQLite path is unused."""
    from bot.store import PostgresGameStore, store_for

    url = pg_backend.url
    for given in (url, "postgres" + url.removeprefix("postgresql")):
        settings = SimpleNamespace(database_url=given, db_path=Path("/nonexistent/m.db"))
        store = store_for(settings)  # type: ignore[arg-type]
        assert isinstance(store, PostgresGameStore)
        async with store:
            await store.create_game(GUILD, 1 + len(given), make_state())
    empty = SimpleNamespace(database_url="", db_path=Path("unused.db"))
    assert isinstance(store_for(empty), SqliteGameStore)  # type: ignore[arg-type]


async def test_play_matches_the_engine(store: SqlGameStore) -> None:
    """Eighty stored actions give the engine's own events and state."""
    state = make_state(6)
    row = await store.create_game(GUILD, 10, state)
    expected = state.copy()
    expected_events = play(expected, 80)
    got_events = []
    current = state
    for _ in range(80):
        action = next_simple_action(current)
        assert action is not None
        result = await store.apply(row.id, action, expected_seq=current.seq)
        got_events.append(result.events)
        current = result.state
    assert got_events == expected_events
    assert current.to_json() == expected.to_json()


async def test_finished_states_of_a_server(store: SqlGameStore) -> None:
    """What ``/monopoly stats`` reads: the final states of finished games only, oldest
    first, of that server only."""
    first = await store.create_game(GUILD, 10, make_state(seed=1))
    await advance(store, first.id, 3)
    await store.finish(first.id, "abandoned")
    running = await store.create_game(GUILD, 11, make_state(seed=2))
    other = await store.create_game(OTHER_GUILD, 12, make_state(seed=3))
    await store.finish(other.id, "abandoned")
    states = await store.finished_states(GUILD)
    assert [s["seq"] for s in states] == [3]
    assert states[0]["players"][0]["id"] == (await store.load(first.id)).state.players[0].id
    assert running.id not in (first.id, other.id)


async def test_meta_round_trip(backend: Backend, clock: FakeClock) -> None:
    """The bot's own records: unset is None, odd keys and long values come back exactly,
    a second write replaces the first, they survive a restart, bad text is refused and a
    damaged value counts as unset.

    A NUL character is refused as BadData on every driver (PostgreSQL's text cannot hold
    one, and a store holds the same on every driver), and nothing is stored.
    """
    from bot.store.errors import BadData

    odd_key = "commands:guild:1 ✓ \"quoted\" 'x'; DROP TABLE bot_meta; --\n\ttab % _ \x00 end"
    nul_key, odd_key = odd_key, odd_key.replace("\x00", "")
    long_value = "Schloßallee €" * 100_000  # 1.3 million characters, not all ASCII
    async with backend.store(now=clock) as store:
        assert await store.meta("commands:global") is None
        await store.set_meta("commands:global", "a" * 64)
        await store.set_meta(odd_key, long_value)
        await store.set_meta("", "the empty key is a key, too")
        assert await store.meta("commands:global") == "a" * 64
        assert await store.meta(odd_key) == long_value
        assert await store.meta(odd_key[:-4]) is None  # no prefix matching (% and _ too)
        await store.set_meta("commands:global", "")
        assert await store.meta("commands:global") == ""
        for bad_key, bad_value in (("\ud800", "x"), ("k", "\udfff"), ("k", None), (1, "x")):
            with pytest.raises(BadData):
                await store.set_meta(bad_key, bad_value)  # type: ignore[arg-type]
        with pytest.raises(BadData):
            await store.meta("\ud800")
        for bad_key, bad_value in ((nul_key, "x"), ("k", "a\x00b")):
            with pytest.raises(BadData) as caught:
                await store.set_meta(bad_key, bad_value)
            assert "NUL" in caught.value.params["problem"]
        with pytest.raises(BadData):
            await store.meta(nul_key)
    if isinstance(backend, SqliteBackend):
        # Bytes that are not UTF-8 (only SQLite can hold them: PostgreSQL checks).
        await backend.execute(
            "INSERT INTO bot_meta VALUES ('damaged', CAST(x'ff00fe' AS TEXT), 'now')"
        )
    async with backend.store(now=clock) as store:
        assert await store.meta(odd_key) == long_value
        assert await store.meta("") == "the empty key is a key, too"
        assert await store.meta("commands:global") == ""
        assert await store.meta("damaged") is None
        assert await store.meta("k") is None  # the refused writes stored nothing
