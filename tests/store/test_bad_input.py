"""Malformed arguments to the store: typed errors, and not a byte of the database changes.

Ids beyond SQLite's 64 bits, bools and text where ints belong, lone surrogates, NaN and
keys that are not text used to reach sqlite3 (OverflowError, UnicodeEncodeError) or the
engine; now every public method refuses them first. Damaged rows written behind the
store's back (a server's file, preferences, a finished game) are left out, not fatal.

On both drivers ("nothing changes" is a snapshot of every row, sequences included), but
for the damage only SQLite can hold (bytes that are not UTF-8, rows past its checks).
"""

from __future__ import annotations

import asyncio
import json
import logging
import math
import sqlite3
import tempfile
from collections.abc import Awaitable, Callable
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from bot.engine.errors import IllegalAction
from bot.engine.game import new_game
from bot.store import GameNotFound, InvalidRecord, SqliteGameStore, StoreError
from bot.store.errors import BadData
from bot.store.sql import SqlGameStore
from tests.pg import PgCluster
from tests.store.backends import DRIVERS, Backend, PostgresBackend, SqliteBackend
from tests.store.conftest import GUILD, USER, advance, make_state

BAD_GAME_IDS: list[Any] = [2**63, -(2**63) - 1, 2**70, True, False, "1", 1.0, None, -1]
BAD_IDS: list[Any] = [2**63, -(2**63) - 1, 2**70, True, "111", 1.5, None, [1]]
BAD_OBJECTS: list[Any] = [
    {"a": math.nan},
    {"a": [math.inf]},
    {"a": -math.inf},
    {"a": "x\ud800"},
    {"\udc00": 1},
    {1: "a"},
    {"a": {2: "b"}},
    {"a": {1, 2}},
    {"a": b"bytes"},
    {"a": 10**5000},
    "not an object",
    ["a", "list"],
    42,
]
BAD_TEXTS: list[Any] = ["x\ud800", "\udfff", None, 5, b"bytes"]
BAD_ACTIONS: list[Any] = [
    "roll",
    ["roll"],
    None,
    {},
    {"player": 0},
    {"type": 5},
    {"type": ["roll"]},
    {"type": None},
    {"type": "roll", "x": math.nan},
    {"type": "bid", "amount": math.inf},
    {"type": "roll\ud800"},
    {"type": "roll", "note": "\udfff"},
    {"type": "roll", 1: 2},
    {"type": "roll", "x": {1, 2}},
    {"type": "roll", "x": object()},
]
BAD_SEQS: list[Any] = ["0", True, False, -1, 1.0, 2**64, [0]]


async def refused(
    backend: Backend, call: Callable[[], Awaitable[Any]], error: type[Exception]
) -> Exception:
    """Run ``call``, expect ``error``, and check that the database did not change."""
    before = await backend.snapshot()
    with pytest.raises(error) as caught:
        await call()
    assert await backend.snapshot() == before
    return caught.value


# -- game ids -----------------------------------------------------------------------------


@pytest.mark.parametrize("game_id", BAD_GAME_IDS)
async def test_a_game_id_no_game_can_have_is_not_found(
    store: SqlGameStore, backend: Backend, game_id: Any
) -> None:
    """Out of range, bool, text, float, None: GameNotFound from every method, nothing changes.

    ``True`` and ``"1"`` matter most: SQLite would have read them as game 1.
    """
    row = await store.create_game(GUILD, 10, make_state())
    await advance(store, row.id, 3)
    calls: list[Callable[[], Awaitable[Any]]] = [
        lambda: store.load(game_id),
        lambda: store.record(game_id),
        lambda: store.export(game_id),
        lambda: store.apply(game_id, {"type": "roll", "player": 0}),
        lambda: store.finish(game_id, "test"),
        lambda: store.set_settings(game_id, {"a": 1}),
        lambda: store.set_aside(game_id, "test"),
        lambda: store.rebuild_from_log(game_id),
        lambda: store.start_game(game_id, make_state()),
    ]
    for call in calls:
        error = await refused(backend, call, GameNotFound)
        assert error.params == {"game_id": game_id}  # type: ignore[attr-defined]
    assert (await store.load(row.id)).seq == 3


@pytest.mark.parametrize("bad", BAD_GAME_IDS)
async def test_a_timer_id_no_timer_can_have_finds_nothing(
    store: SqlGameStore, backend: Backend, bad: Any
) -> None:
    """Out of range, bool, text, float, None as a timer's (or, for the timer methods, a
    game's) id: the same answer on every driver, and nothing changes. Claiming,
    completing and renewing find no such timer (False), retrying does nothing, cancelling
    and listing a game's timers find none (0, []), adding one finds no game.

    (SQLite used to raise OverflowError for an id beyond 64 bits, where PostgreSQL said
    False; ``True`` would have been read as timer 1.)
    """
    row = await store.create_game(GUILD, 10, make_state())
    await store.add_timer(row.id, "deadline", datetime(2026, 1, 1, tzinfo=UTC))
    moment = datetime(2026, 1, 2, tzinfo=UTC)
    answers: list[tuple[Callable[[], Awaitable[Any]], Any]] = [
        (lambda: store.claim_timer(bad, now=moment), False),
        (lambda: store.complete_timer(bad), False),
        (lambda: store.renew_lease(bad, moment), False),
        (lambda: store.retry_timer(bad, moment), None),
        (lambda: store.cancel_timers(bad), 0),
        (lambda: store.pending_timers(bad), []),
    ]
    for call, expected in answers:
        before = await backend.snapshot()
        assert await call() == expected
        assert await backend.snapshot() == before
    error = await refused(backend, lambda: store.add_timer(bad, "x", moment), GameNotFound)
    assert error.params == {"game_id": bad}  # type: ignore[attr-defined]
    assert len(await store.pending_timers(row.id)) == 1


# -- other ids ----------------------------------------------------------------------------


@pytest.mark.parametrize("bad", BAD_IDS)
async def test_other_ids_that_do_not_fit_are_bad_data(
    store: SqlGameStore, backend: Backend, bad: Any
) -> None:
    """Guild, channel, creator, user and uploader ids: BadData naming the argument."""
    row = await store.create_game(GUILD, 10, make_state())
    record = await store.export(row.id)
    calls: dict[str, Callable[[], Awaitable[Any]]] = {
        "guild_id": lambda: store.create_game(bad, 11, None),
        "channel_id": lambda: store.create_game(GUILD, bad, make_state()),
        "created_by": lambda: store.create_game(GUILD, 11, None, created_by=bad),
    }
    more: list[tuple[str, Callable[[], Awaitable[Any]]]] = [
        ("channel_id", lambda: store.game_in_channel(bad)),
        ("guild_id", lambda: store.list_games(bad)),
        ("guild_id", lambda: store.finished_states(bad)),
        ("guild_id", lambda: store.guild_files(bad, "theme")),
        ("guild_id", lambda: store.save_guild_file(bad, "theme", "x", {"id": "x"}, USER)),
        ("uploaded_by", lambda: store.save_guild_file(GUILD, "theme", "x", {"id": "x"}, bad)),
        ("guild_id", lambda: store.delete_guild_file(bad, "theme", "x")),
        ("user_id", lambda: store.user_prefs(bad)),
        ("user_id", lambda: store.set_user_prefs(bad, {"dm": True})),
        ("guild_id", lambda: store.import_game(bad, 12, record)),
        ("channel_id", lambda: store.import_game(GUILD, bad, record)),
        ("created_by", lambda: store.import_game(GUILD, 12, record, created_by=bad)),
    ]
    for what, call in [*calls.items(), *more]:
        if bad is None and what == "created_by":
            continue  # a game need not have a creator
        error = await refused(backend, call, BadData)
        assert error.code == "bad_data"  # type: ignore[attr-defined]
        assert error.params["what"] == what  # type: ignore[attr-defined]
    assert [g.id for g in await store.list_games(GUILD)] == [row.id]


async def test_ids_at_the_edges_of_the_range_work(store: SqlGameStore) -> None:
    """The largest and smallest 64-bit ids are stored and found again."""
    big, small = 2**63 - 1, -(2**63)
    row = await store.create_game(big, big, None, created_by=small)
    assert (row.guild_id, row.channel_id, row.created_by) == (big, big, small)
    assert (await store.game_in_channel(big)) == row
    await store.set_user_prefs(big, {"dm": True})
    assert await store.user_prefs(big) == {"dm": True}
    with pytest.raises(GameNotFound):
        await store.load(2**63 - 1)


# -- data that cannot be stored -------------------------------------------------------------


@pytest.mark.parametrize("bad", BAD_OBJECTS)
async def test_objects_that_are_not_plain_json_are_bad_data(
    store: SqlGameStore, backend: Backend, bad: Any
) -> None:
    """Settings, preferences and server files with NaN, surrogates, int keys, ...: refused."""
    row = await store.create_game(GUILD, 10, None, settings={"players": []})
    running = await store.create_game(GUILD, 20, make_state())
    record = await store.export(running.id)
    calls: list[tuple[str, Callable[[], Awaitable[Any]]]] = [
        ("settings", lambda: store.create_game(GUILD, 11, None, settings=bad)),
        ("settings", lambda: store.set_settings(row.id, bad)),
        ("settings", lambda: store.import_game(GUILD, 12, record, settings=bad)),
        ("prefs", lambda: store.set_user_prefs(USER, bad)),
        ("data", lambda: store.save_guild_file(GUILD, "theme", "kekse", bad, USER)),
    ]
    for what, call in calls:
        error = await refused(backend, call, BadData)
        assert error.params["what"] == what  # type: ignore[attr-defined]
    assert (await store.load(row.id)).settings == {"players": []}


@pytest.mark.parametrize("bad", BAD_TEXTS)
async def test_text_that_cannot_be_stored_is_bad_data(
    store: SqlGameStore, backend: Backend, bad: Any
) -> None:
    """A finishing reason, an error note or a file id with a lone surrogate (or not text)."""
    row = await store.create_game(GUILD, 10, make_state())
    await store.save_guild_file(GUILD, "theme", "kekse", {"id": "kekse"}, USER)
    calls: list[tuple[str, Callable[[], Awaitable[Any]]]] = [
        ("reason", lambda: store.finish(row.id, bad)),
        ("error", lambda: store.set_aside(row.id, bad)),
        ("item_id", lambda: store.save_guild_file(GUILD, "theme", bad, {"id": "x"}, USER)),
        ("item_id", lambda: store.delete_guild_file(GUILD, "theme", bad)),
    ]
    for what, call in calls:
        error = await refused(backend, call, BadData)
        assert error.params["what"] == what  # type: ignore[attr-defined]
    assert (await store.load(row.id)).status == "running"


@pytest.mark.parametrize("kind", ["other", "", "theme\ud800", None, 1, ["theme"]])
async def test_unknown_kinds_of_server_files_are_bad_data(
    store: SqlGameStore, backend: Backend, kind: Any
) -> None:
    """Only themes and boards are kept (the schema's check would raise IntegrityError)."""
    for call in (
        lambda: store.guild_files(GUILD, kind),
        lambda: store.save_guild_file(GUILD, kind, "x", {"id": "x"}, USER),
        lambda: store.delete_guild_file(GUILD, kind, "x"),
    ):
        error = await refused(backend, call, BadData)
        assert error.params["what"] == "kind"  # type: ignore[attr-defined]


async def test_a_state_with_a_broken_name_is_bad_data(
    store: SqlGameStore, backend: Backend
) -> None:
    """A player's name with a lone surrogate cannot be stored, as a new game or a start."""
    broken = new_game([("u1", "An\ud800na"), ("u2", "Ben")], seed=1)
    lobby = await store.create_game(GUILD, 10, None)
    for call in (
        lambda: store.create_game(GUILD, 11, broken),
        lambda: store.start_game(lobby.id, broken),
        lambda: store.create_game(GUILD, 11, "not a state"),  # type: ignore[arg-type]
    ):
        error = await refused(backend, call, BadData)
        assert error.params["what"] == "state"  # type: ignore[attr-defined]
    assert (await store.load(lobby.id)).status == "lobby"


async def test_a_record_that_cannot_be_stored_is_invalid(
    store: SqlGameStore, backend: Backend
) -> None:
    """An import whose names or actions cannot be stored is an InvalidRecord, not a crash."""
    row = await store.create_game(GUILD, 10, make_state())
    await advance(store, row.id, 2)
    record = await store.export(row.id)
    named = json.loads(json.dumps(record))
    named["start"]["players"][0]["name"] = "An\ud800na"
    nan = json.loads(json.dumps(record))
    nan["actions"][0]["action"]["x"] = math.nan
    keyed = json.loads(json.dumps(record))
    keyed["actions"][0]["action"][1] = 2
    for bad in (named, nan, keyed, {"format": "nope"}, "not a record"):
        await refused(backend, lambda bad=bad: store.import_game(GUILD, 11, bad), InvalidRecord)


# -- actions ------------------------------------------------------------------------------


@pytest.mark.parametrize("action", BAD_ACTIONS)
async def test_malformed_actions_are_bad_actions(
    store: SqlGameStore, backend: Backend, action: Any
) -> None:
    """Not a dict, no text type, NaN, surrogates, int keys: IllegalAction("bad_action")."""
    row = await store.create_game(GUILD, 10, make_state())
    before = (await store.load(row.id)).state
    assert before is not None
    error = await refused(backend, lambda: store.apply(row.id, action), IllegalAction)
    assert error.code == "bad_action"  # type: ignore[attr-defined]
    after = await store.load(row.id)
    assert after.state is not None and after.state.to_json() == before.to_json()
    assert (await store.record(row.id)).actions == []


@pytest.mark.parametrize("expected_seq", BAD_SEQS)
async def test_a_malformed_expected_seq_is_a_bad_action(
    store: SqlGameStore, backend: Backend, expected_seq: Any
) -> None:
    """Text, bools, negative numbers and floats are not versions (and not stale either)."""
    row = await store.create_game(GUILD, 10, make_state())
    state = row.state
    assert state is not None
    action = {"type": "roll", "player": state.current}
    error = await refused(
        backend, lambda: store.apply(row.id, action, expected_seq=expected_seq), IllegalAction
    )
    assert error.code == "bad_action"  # type: ignore[attr-defined]
    assert (await store.apply(row.id, action, expected_seq=0)).seq == 1


# -- NUL characters -----------------------------------------------------------------------


async def test_nul_characters(store: SqlGameStore, backend: Backend) -> None:
    """A NUL inside JSON (settings, preferences, a server's file, a player's name in the
    state) is kept exactly on both drivers: JSON writes it as the escape \\u0000. As plain
    text (a finishing reason, a file id, a timer's kind) PostgreSQL's text cannot keep it,
    so every driver refuses it alike (a store must hold the same on every driver, for
    ``store copy``): BadData naming the argument, and nothing changes."""
    odd = {"a": "x\x00y", "\x00key": ["\x00"]}
    lobby = await store.create_game(GUILD, 10, None, settings=odd)
    assert (await store.load(lobby.id)).settings == odd
    await store.set_user_prefs(USER, odd)
    assert await store.user_prefs(USER) == odd
    await store.save_guild_file(GUILD, "theme", "kekse", {"id": "kekse", **odd}, USER)
    assert (await store.guild_files(GUILD, "theme"))["kekse"] == {"id": "kekse", **odd}
    named = new_game([("u1", "An\x00na"), ("u2", "Ben")], seed=1)
    game = await store.create_game(GUILD, 11, named)
    assert (await store.load(game.id)).state.to_json() == named.to_json()  # type: ignore[union-attr]
    await advance(store, game.id, 3)
    calls: list[tuple[str, Callable[[], Awaitable[Any]]]] = [
        ("reason", lambda: store.finish(game.id, "x\x00")),
        ("error", lambda: store.set_aside(game.id, "x\x00")),
        ("item_id", lambda: store.save_guild_file(GUILD, "theme", "a\x00", {"id": "x"}, USER)),
        ("kind", lambda: store.add_timer(game.id, "t\x00", datetime.now(UTC))),
        ("key", lambda: store.add_timer(game.id, "t", datetime.now(UTC), key="k\x00")),
    ]
    for what, call in calls:
        error = await refused(backend, call, BadData)
        assert error.params["what"] == what  # type: ignore[attr-defined]


# -- damaged rows -------------------------------------------------------------------------


def write_raw(db_path: Path, sql: str, params: tuple[Any, ...]) -> None:
    """Write behind the store's back, past the schema's checks (as damage would)."""
    conn = sqlite3.connect(db_path)
    try:
        conn.execute("PRAGMA ignore_check_constraints = ON")
        conn.execute(sql, params)
        conn.commit()
    finally:
        conn.close()


DAMAGED_FILES = {
    "a_not_json": "{not json",
    "b_list": "[1, 2]",
    "c_cut_off": '{"id": "c", "squares": {',
    "d_deep": "[" * 100_000 + "]" * 100_000,
    "e_number": 42,
}


@pytest.fixture
async def sqlite_store(db_path: Path) -> Any:
    """An open SQLite store (the damage below is what only SQLite can hold)."""
    async with SqliteGameStore(db_path) as store:
        yield store


async def test_damaged_server_files_are_left_out_with_a_warning(
    sqlite_store: SqliteGameStore, db_path: Path, caplog: pytest.LogCaptureFixture
) -> None:
    """One bad upload must not break every lobby of the server: the good files still come.

    SQLite only: PostgreSQL's checks keep such rows out (a JSON object, valid UTF-8) for
    every writer, so they cannot be there to be read.
    """
    store = sqlite_store
    await store.save_guild_file(GUILD, "theme", "good", {"id": "good"}, USER)
    await store.save_guild_file(GUILD, "theme", "z_good", {"id": "z_good"}, USER)
    insert = (
        "INSERT INTO guild_files (guild_id, kind, item_id, data_json, uploaded_by, uploaded_at)"
        " VALUES (?, 'theme', ?, {value}, ?, '2026-05-01T12:00:00+00:00')"
    )
    for item_id, data in DAMAGED_FILES.items():
        write_raw(db_path, insert.format(value="?"), (GUILD, item_id, data, USER))
    # Bytes that are not UTF-8, stored as text: sqlite3 cannot even read them back as str.
    write_raw(db_path, insert.format(value="CAST(X'7B22FF22' AS TEXT)"), (GUILD, "f_bytes", USER))
    with caplog.at_level(logging.WARNING, logger="bot.store"):
        files = await store.guild_files(GUILD, "theme")
    assert files == {"good": {"id": "good"}, "z_good": {"id": "z_good"}}
    warned = " ".join(r.getMessage() for r in caplog.records)
    for item_id in [*DAMAGED_FILES, "f_bytes"]:
        assert item_id in warned
    # The damaged files can still be replaced or removed.
    assert await store.save_guild_file(GUILD, "theme", "a_not_json", {"id": "a"}, USER) is True
    assert await store.delete_guild_file(GUILD, "theme", "b_list") is True
    assert "a_not_json" in await store.guild_files(GUILD, "theme")


async def test_damaged_preferences_and_finished_games_are_read_as_nothing(
    sqlite_store: SqliteGameStore, db_path: Path
) -> None:
    """Bytes that are not UTF-8 in a preference or a finished state: empty, left out
    (SQLite only: PostgreSQL refuses to store such bytes)."""
    store = sqlite_store
    await store.set_user_prefs(USER, {"dm": True})
    write_raw(
        db_path, "UPDATE user_prefs SET prefs_json = CAST(X'FF' AS TEXT) WHERE user_id = ?", (USER,)
    )
    assert await store.user_prefs(USER) == {}
    done = await store.create_game(GUILD, 10, make_state())
    await store.finish(done.id, "test")
    kept = await store.create_game(GUILD, 11, make_state())
    await store.finish(kept.id, "test")
    write_raw(db_path, "UPDATE games SET state_json = CAST(X'FF' AS TEXT) WHERE id = ?", (done.id,))
    states = await store.finished_states(GUILD)
    assert len(states) == 1 and states[0]["seq"] == 0


async def test_a_finished_state_that_is_not_json_is_left_out(
    store: SqlGameStore, backend: Backend
) -> None:
    """A finished game whose state is damaged (not JSON, not an object) drops out of the
    statistics; the others stay."""
    games = [await store.create_game(GUILD, 10 + n, make_state(n)) for n in range(3)]
    for game in games:
        await store.finish(game.id, "test")
    await backend.execute("UPDATE games SET state_json = '{oops' WHERE id = ?", games[0].id)
    await backend.execute("UPDATE games SET state_json = '[1]' WHERE id = ?", games[1].id)
    states = await store.finished_states(GUILD)
    assert len(states) == 1 and states[0]["seq"] == 0


# -- any settings at all ------------------------------------------------------------------

JSON_LIKE = st.recursive(
    st.none() | st.booleans() | st.integers() | st.floats() | st.text(),
    lambda children: (
        st.lists(children, max_size=4)
        | st.dictionaries(st.text(max_size=5) | st.integers(), children, max_size=4)
    ),
    max_leaves=12,
)


@pytest.mark.parametrize("kind", DRIVERS)
def test_settings_are_kept_exactly_or_refused_without_a_change(
    kind: str, request: pytest.FixtureRequest
) -> None:
    """Whatever settings are given, they come back equal, or BadData and nothing changed.

    Each example gets a new database (a new file, or a new PostgreSQL database).
    """
    cluster: PgCluster | None = (
        request.getfixturevalue("pg_cluster") if kind == "postgres" else None
    )

    async def check(value: dict[str, Any], folder: Path) -> None:
        if cluster is None:
            backend: Backend = SqliteBackend(folder / "games.db")
        else:
            url, name = await cluster.create_database()
            backend = PostgresBackend(cluster, url, name)
        try:
            async with backend.store() as store:
                row = await store.create_game(GUILD, 10, None, settings={"old": True})
                before = await backend.snapshot()
                try:
                    await store.set_settings(row.id, value)
                except BadData:
                    assert await backend.snapshot() == before
                    assert (await store.load(row.id)).settings == {"old": True}
                    return
                assert (await store.load(row.id)).settings == json.loads(json.dumps(value))
        finally:
            await backend.cleanup()
            if isinstance(backend, PostgresBackend):
                await backend.cluster.release_database(backend.database)

    @settings(max_examples=40, deadline=None)
    @given(st.dictionaries(st.text(max_size=5), JSON_LIKE, max_size=4))
    def examples(value: dict[str, Any]) -> None:
        with tempfile.TemporaryDirectory() as folder:
            asyncio.run(check(value, Path(folder)))

    examples()


def test_bad_data_is_a_store_error() -> None:
    """The Discord layer answers BadData like every store error: by its code."""
    error = BadData("settings", "a number that is not finite")
    assert isinstance(error, StoreError)
    assert error.code == "bad_data"
    assert error.params == {"what": "settings", "problem": "a number that is not finite"}
