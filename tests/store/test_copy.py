"""``monopoly-bot store copy``: a whole store moved from SQLite to PostgreSQL and back.

The source is a real SQLite file with every kind of row the bot keeps: lobbies, running,
finished and broken games of both games (board and card game) with their logs, timers in
every state, preferences, server files and the bot's records. It goes to a database on
this test process's PostgreSQL server and from there to a new SQLite file; the exports
(``bot.store.copy.read_export``) and what the public store interface shows are equal all
the way, and the copies work as stores. Refusals change nothing; a load that does not
match is rolled back. The command line is run end to end on real files and databases.
"""

from __future__ import annotations

import asyncio
import hashlib
import sqlite3
from collections.abc import AsyncIterator
from dataclasses import asdict
from datetime import timedelta
from pathlib import Path
from typing import Any

import aiosqlite
import pytest

from bot import cli
from bot.cardgame import CardState, SimpleCardPlayer
from bot.cardgame import new_game as new_card_game
from bot.cardgame.simple_player import next_simple_action as next_card_action
from bot.engine.simple_players import next_simple_action
from bot.engine.state import GameState
from bot.store import GameBroken, GameNotRunning, GameStore, SqliteGameStore
from bot.store import copy as store_copy
from bot.store.copy import (
    TABLES,
    CopyFailed,
    CopyMismatch,
    CopyRefused,
    StoreLocation,
    copy_store,
    parse_store_url,
    read_export,
)
from bot.store.drivers.postgres.transfer import PostgresSide
from bot.store.drivers.sqlite import migrate
from bot.store.drivers.sqlite.transfer import SqliteSide
from bot.store.migrate import head_version
from tests.pg import PgCluster
from tests.store.backends import Backend, PostgresBackend, SqliteBackend
from tests.store.conftest import (
    GUILD,
    OTHER_GUILD,
    USER,
    FakeClock,
    ManualClock,
    advance,
    make_state,
)

CARD_SEATS = [("u1", "Anna"), ("u2", "Ben"), ("u3", "Cem")]
KEKSE = {"id": "kekse", "name": {"de": "Kekse"}, "squares": {"1": "Keksweg"}}
META_KEYS = ("commands:global", "commands:guild:5", "unset")
USERS = (USER, USER + 1, USER + 2)
HEAD = head_version()


# -- the source store ---------------------------------------------------------------------


async def play_cards(store: GameStore, game_id: int, count: int) -> CardState:
    """Apply up to ``count`` simple-player actions to a stored card game; the last state."""
    players = [SimpleCardPlayer() for _ in CARD_SEATS]
    state = (await store.load(game_id)).state
    assert isinstance(state, CardState)
    for _ in range(count):
        action = next_card_action(state, players)
        if action is None:
            break
        state = (await store.apply(game_id, action, expected_seq=state.seq)).state
    assert isinstance(state, CardState)
    return state


async def fill(path: Path) -> dict[str, Any]:
    """A SQLite store at ``path`` with every kind of row; the ids by name, and ``now``, a
    moment after every time in it."""
    clock = FakeClock()
    ids: dict[str, Any] = {}
    async with SqliteGameStore(path, now=clock) as store:
        # Lobbies of both games; one with its settings written twice (version 2).
        lobby = await store.create_game(GUILD, 1, None, created_by=USER, settings={"n": 1})
        ids["lobby"] = lobby.id
        await store.patch_settings(lobby.id, {"players": [USER]}, expected_version=0)
        await store.patch_settings(lobby.id, {"deadline": 3600}, remove=["n"])
        card_lobby = await store.create_game(GUILD, 2, None, settings={"game": "cards"})
        ids["card_lobby"] = card_lobby.id
        # Running games of both kinds, with logs.
        ids["board"] = (await store.create_game(GUILD, 3, make_state(), created_by=USER)).id
        await advance(store, ids["board"], 25)
        cards = await store.create_game(GUILD, 4, new_card_game(CARD_SEATS, seed=11))
        ids["cards"] = cards.id
        await play_cards(store, cards.id, 30)
        # Finished ones (by a player; their pending timers are cancelled with them).
        ids["board_done"] = (await store.create_game(OTHER_GUILD, 5, make_state(seed=3))).id
        await advance(store, ids["board_done"], 12)
        await store.add_timer(ids["board_done"], "deadline", clock.moment + timedelta(hours=1))
        await store.finish(ids["board_done"], "ended by the host")
        cards_done = await store.create_game(OTHER_GUILD, 6, new_card_game(CARD_SEATS, seed=5))
        ids["cards_done"] = cards_done.id
        await play_cards(store, cards_done.id, 10)
        await store.finish(cards_done.id, "abandoned")
        # Broken games: one set aside by hand, one whose stored state is damaged.
        ids["broken"] = (await store.create_game(GUILD, 7, make_state(seed=9))).id
        await advance(store, ids["broken"], 4)
        await store.set_aside(ids["broken"], "unreadable state: by hand")
        damaged = await store.create_game(GUILD, 8, new_card_game(CARD_SEATS, seed=2))
        ids["damaged"] = damaged.id
        await SqliteBackend(path).execute(
            "UPDATE games SET state_json = ? WHERE id = ?", '{"format": "monopoly-car', damaged.id
        )
        store.cache.clear()
        with pytest.raises(GameBroken):
            await store.load(damaged.id)
        # Timers in every state.
        past, later = clock.moment - timedelta(minutes=5), clock.moment + timedelta(hours=2)
        board, cards_id = ids["board"], ids["cards"]
        ids["due"] = (await store.add_timer(board, "deadline", past, {"seq": 1}, key="turn")).id
        leased = await store.add_timer(cards_id, "reminder", past, {"seat": 1})
        assert await store.claim_timer(leased.id, now=clock.moment, lease_seconds=7200)
        ids["leased"] = leased.id
        backoff = await store.add_timer(board, "digest", past)
        assert await store.claim_timer(backoff.id, now=clock.moment)
        await store.retry_timer(backoff.id, later)
        ids["backoff"] = backoff.id
        fired = await store.add_timer(board, "reminder", past, {"n": "ä"})
        assert await store.claim_timer(fired.id, now=clock.moment)
        assert await store.complete_timer(fired.id)
        await store.add_timer(board, "closing", later, key="auction")
        await store.add_timer(board, "closing", later + timedelta(minutes=1), key="auction")
        await store.add_timer(cards_id, "deadline", later)
        assert await store.cancel_timers(cards_id, kind="deadline") == 1
        await store.add_timer(lobby.id, "lobby_expires", later + timedelta(days=1))
        # Preferences, server files, the bot's records.
        await store.set_user_prefs(USER, {"dm": True, "lang": "de"})
        await store.set_user_prefs(USER + 1, {"name": "Zoë", "turns": False})
        await store.save_guild_file(GUILD, "theme", "kekse", KEKSE, USER)
        await store.save_guild_file(GUILD, "theme", "Zimt", {"id": "Zimt"}, USER + 1)
        await store.save_guild_file(OTHER_GUILD, "board", "heimat-ä", {"id": "heimat"}, USER)
        await store.set_meta("commands:global", "fingerprint-1")
        await store.set_meta("commands:guild:5", "fingerprint-2")
    ids["now"] = clock.moment + timedelta(minutes=1)
    return ids


@pytest.fixture
async def source(tmp_path: Path) -> tuple[Path, dict[str, Any]]:
    """The filled SQLite source file and its ids."""
    path = tmp_path / "source" / "monopoly.db"
    return path, await fill(path)


def sqlite_at(path: Path, option: str = "--to") -> StoreLocation:
    """The location of a SQLite file, as the command line names it."""
    return parse_store_url(f"sqlite:///{path}", option)


def postgres_at(url: str, option: str = "--to") -> StoreLocation:
    """The location of a PostgreSQL database."""
    return parse_store_url(url, option)


def location_of(backend: Backend, option: str = "--to") -> StoreLocation:
    """The location of a test backend's database."""
    if isinstance(backend, PostgresBackend):
        return postgres_at(backend.url, option)
    assert isinstance(backend, SqliteBackend)
    return sqlite_at(backend.path, option)


async def raw_counts(path: Path) -> dict[str, int]:
    """Rows per table of a SQLite file, read behind the store's back."""
    backend = SqliteBackend(path)
    return {
        table.name: (await backend.fetch(f"SELECT count(*) FROM {table.name}"))[0][0]
        for table in TABLES
    }


async def public_view(store: GameStore, ids: dict[str, Any]) -> list[Any]:
    """Everything the store's public interface shows of the filled store, as plain data."""
    view: list[Any] = []
    for guild in (GUILD, OTHER_GUILD):
        view.append([asdict(info) for info in await store.list_games(guild, include_finished=True)])
        view.append(await store.finished_states(guild))
        for kind in ("theme", "board"):
            view.append(await store.guild_files(guild, kind))
    games = [game for name, game in ids.items() if name in GAME_NAMES]
    for game_id in games:
        try:
            view.append(await store.export(game_id))
        except GameNotRunning:
            view.append("lobby")
        try:
            row = await store.load(game_id)
            view.append(None if row.state is None else row.state.to_json())
        except GameBroken as error:
            view.append(error.error)
        view.append(await store.pending_timers(game_id))
    view.append([asdict(info) for info in await store.broken_games()])
    view.append(await store.due_timers(ids["now"] + timedelta(days=30), limit=1000))
    view.append(await store.next_due_at())
    view.append([await store.user_prefs(user) for user in USERS])
    view.append([await store.meta(key) for key in META_KEYS])
    return view


GAME_NAMES = (
    "lobby",
    "card_lobby",
    "board",
    "cards",
    "board_done",
    "cards_done",
    "broken",
    "damaged",
)


def file_digest(path: Path) -> str:
    """The bytes of a SQLite file and its WAL, hashed (to show nothing wrote to them)."""
    digest = hashlib.sha256()
    for part in (path, path.with_name(path.name + "-wal")):
        if part.exists():
            digest.update(part.read_bytes())
    return digest.hexdigest()


@pytest.fixture
async def pg_target(pg_cluster: PgCluster) -> AsyncIterator[PostgresBackend]:
    """A new, empty PostgreSQL database that is not even migrated (dropped afterwards)."""
    url, name = await pg_cluster.create_database(migrated=False)
    backend = PostgresBackend(pg_cluster, url, name)
    try:
        yield backend
    finally:
        await backend.cleanup()
        await pg_cluster.drop_database(name)


# -- round trip -------------------------------------------------------------------------------


async def test_sqlite_to_postgresql_and_back_keeps_everything(
    source: tuple[Path, dict[str, Any]], pg_backend: PostgresBackend, tmp_path: Path
) -> None:
    """SQLite -> PostgreSQL -> SQLite: every row arrives (the counts), the three exports are
    equal, and so is everything the store interface shows."""
    path, ids = source
    counts = await raw_counts(path)
    assert counts["games"] == len(GAME_NAMES) and counts["actions"] > 50
    assert counts["timers"] == 9 and counts["bot_meta"] == 2
    before = file_digest(path)

    there = await copy_store(sqlite_at(path, "--from"), postgres_at(pg_backend.url))
    assert there.counts == counts
    back_path = tmp_path / "back" / "again.db"
    back = await copy_store(postgres_at(pg_backend.url, "--from"), sqlite_at(back_path))
    assert back.counts == counts
    assert file_digest(path) == before  # the source was only read

    first = await read_export(sqlite_at(path, "--from"))
    assert await read_export(postgres_at(pg_backend.url, "--from")) == first
    assert await read_export(sqlite_at(back_path, "--from")) == first
    records = [row for name, row in first if name == "record"]
    assert len(records) == len(GAME_NAMES)
    assert sum(1 for row in records if row["record"] is None) == 2  # the two lobbies

    views = []
    for store in (SqliteGameStore(path), pg_backend.store(), SqliteGameStore(back_path)):
        async with store:
            views.append(await public_view(store, ids))
    assert views[0] == views[1] == views[2]


async def test_the_copies_work_as_stores(
    source: tuple[Path, dict[str, Any]], pg_backend: PostgresBackend, tmp_path: Path
) -> None:
    """On each copy a running game of each kind takes its next action, a due timer is
    claimed (a leased or backing-off one is not), and new games and timers get ids above
    the copied ones."""
    path, ids = source
    await copy_store(sqlite_at(path, "--from"), postgres_at(pg_backend.url))
    back_path = tmp_path / "back.db"
    await copy_store(postgres_at(pg_backend.url, "--from"), sqlite_at(back_path))
    top_game = max(ids[name] for name in GAME_NAMES)
    ((top_timer,),) = await SqliteBackend(path).fetch("SELECT max(id) FROM timers")

    for store in (
        pg_backend.store(now=ManualClock(ids["now"])),
        SqliteGameStore(back_path, now=ManualClock(ids["now"])),
    ):
        async with store:
            board = await store.load(ids["board"])
            assert isinstance(board.state, GameState)
            action = next_simple_action(board.state)
            assert action is not None
            done = await store.apply(ids["board"], action, expected_seq=board.seq)
            assert done.seq == board.seq + 1
            cards = await play_cards(store, ids["cards"], 1)
            assert cards.seq == (await store.load(ids["cards"])).seq

            due = await store.due_timers(ids["now"])
            assert [t.id for t in due] == [ids["due"]]  # not the leased, not the backing off
            assert await store.claim_timer(ids["due"], now=ids["now"])
            assert not await store.claim_timer(ids["leased"], now=ids["now"])
            assert await store.complete_timer(ids["due"])

            await store.patch_settings(ids["lobby"], {"copied": True}, expected_version=2)
            new = await store.create_game(GUILD, 99, make_state())
            assert new.id == top_game + 1
            timer = await store.add_timer(new.id, "deadline", ids["now"])
            assert timer.id > top_timer


# -- refusals ---------------------------------------------------------------------------------


async def test_a_target_that_is_not_empty_is_refused_unchanged(
    source: tuple[Path, dict[str, Any]], backend: Backend
) -> None:
    """A target with a game, or only a user's preferences, is refused; nothing changes."""
    path, _ids = source
    async with backend.store() as store:
        await store.set_user_prefs(USER, {"dm": True})
    before = await backend.snapshot()
    with pytest.raises(
        CopyRefused, match=r"--to \(.*\) is not empty: it holds 1 user's preferences;"
    ):
        await copy_store(sqlite_at(path, "--from"), location_of(backend))
    assert await backend.snapshot() == before

    async with backend.store() as store:
        await store.create_game(GUILD, 1, None)
    before = await backend.snapshot()
    with pytest.raises(CopyRefused, match="it holds 1 game, 1 user's preferences;"):
        await copy_store(sqlite_at(path, "--from"), location_of(backend))
    assert await backend.snapshot() == before


async def test_a_target_with_only_bot_records_takes_the_sources(
    source: tuple[Path, dict[str, Any]], backend: Backend
) -> None:
    """A database a bot has started on once (it holds the bot's records only) is a fine
    target; the source's records replace its own."""
    path, _ids = source
    async with backend.store() as store:
        await store.set_meta("commands:global", "another fingerprint")
        await store.set_meta("only:here", "x")
    await copy_store(sqlite_at(path, "--from"), location_of(backend))
    assert await read_export(location_of(backend, "--from")) == await read_export(
        sqlite_at(path, "--from")
    )
    async with backend.store() as store:
        assert await store.meta("commands:global") == "fingerprint-1"
        assert await store.meta("only:here") is None


async def test_an_older_target_that_is_not_empty_is_not_even_migrated(
    source: tuple[Path, dict[str, Any]], tmp_path: Path
) -> None:
    """A non-empty target of an older schema is refused before it is migrated."""
    path, _ids = source
    target = tmp_path / "old.db"
    async with aiosqlite.connect(target, isolation_level=None) as conn:
        await migrate(conn, now=FakeClock(), target=5)
        await conn.execute(
            "INSERT INTO games (guild_id, channel_id, status, created_at, updated_at)"
            " VALUES (1, 2, 'lobby', 'x', 'x')"
        )
    before = file_digest(target)
    with pytest.raises(CopyRefused, match="not empty"):
        await copy_store(sqlite_at(path, "--from"), sqlite_at(target))
    assert file_digest(target) == before


async def test_a_source_of_another_schema_or_none_is_refused(tmp_path: Path) -> None:
    """A missing source, one of an older schema (not migrated: it is only read) and one of
    a newer schema are refused; the target is not even created."""
    target = tmp_path / "target.db"
    with pytest.raises(CopyRefused, match=r"--from \(SQLite .*\): there is no database file"):
        await copy_store(sqlite_at(tmp_path / "missing.db", "--from"), sqlite_at(target))

    old = tmp_path / "old.db"
    async with aiosqlite.connect(old, isolation_level=None) as conn:
        await migrate(conn, now=FakeClock(), target=7)
    before = file_digest(old)
    with pytest.raises(
        CopyRefused, match=f"older than this bot's {HEAD}; start this bot once on it"
    ):
        await copy_store(sqlite_at(old, "--from"), sqlite_at(target))
    assert file_digest(old) == before

    newer = tmp_path / "newer.db"
    async with SqliteGameStore(newer):
        pass
    await SqliteBackend(newer).execute(
        "INSERT INTO schema_version (version, name, applied_at) VALUES (99, 'future', 'x')"
    )
    with pytest.raises(CopyRefused, match=f"newer than this bot's {HEAD}; update the bot"):
        await copy_store(sqlite_at(newer, "--from"), sqlite_at(target))
    assert not target.exists()


async def test_a_copy_onto_itself_is_refused(tmp_path: Path) -> None:
    """--from and --to naming one file (in two spellings) are refused."""
    path = tmp_path / "one.db"
    async with SqliteGameStore(path):
        pass
    with pytest.raises(CopyRefused, match="the same database"):
        await copy_store(sqlite_at(path, "--from"), sqlite_at(tmp_path / "." / "one.db"))


@pytest.mark.parametrize(
    ("text", "message"),
    [
        ("mysql://bot:secret@db/monopoly", r"--to: 'mysql://bot:\*\*\*@db/monopoly' is not"),
        ("data/monopoly.db", "'data/monopoly.db' is not a store URL; use sqlite:///path.db"),
        ("sqlite://data/monopoly.db", "three slashes"),
        ("sqlite:///", "names no database file"),
        ("sqlite:///:memory:", "names no database file"),
        ("postgresql://db:port/monopoly", "--to is not a valid URL"),
        ("", "is not a store URL"),
    ],
)
def test_bad_urls_are_refused_naming_the_argument(text: str, message: str) -> None:
    """Anything but sqlite:///path and postgresql:// is refused with one line naming the
    argument, never showing a password."""
    with pytest.raises(ValueError, match=message) as refused:
        parse_store_url(text, "--to")
    assert "secret" not in str(refused.value) and "\n" not in str(refused.value)


def test_good_urls() -> None:
    """Relative and absolute SQLite paths; both PostgreSQL schemes, in any case."""
    assert parse_store_url("sqlite:///data/x.db", "--to").path == Path("data/x.db")
    assert parse_store_url("sqlite:////srv/x.db", "--to").path == Path("/srv/x.db")
    assert parse_store_url("SQLite:///x.db", "--to").path == Path("x.db")
    for url in ("postgres://db/monopoly", "POSTGRESQL://bot:pw@db:5432/monopoly"):
        found = parse_store_url(url, "--from")
        assert found.driver == "postgres" and found.url == url
        assert "pw" not in found.label


# -- failures are rolled back -------------------------------------------------------------


async def test_a_copy_that_differs_is_rolled_back(
    source: tuple[Path, dict[str, Any]], backend: Backend, monkeypatch: pytest.MonkeyPatch
) -> None:
    """A target whose rows, read back, differ from the source's (here: one game's seq
    written wrong) fails the check, names the difference, and keeps nothing."""
    path, ids = source
    side = PostgresSide if backend.name == "postgres" else SqliteSide
    insert = side.insert

    async def wrong(self: Any, table: store_copy.Table, rows: list[dict[str, Any]]) -> None:
        if table.name == "games":
            rows = [
                {**row, "seq": row["seq"] + 1} if row["id"] == ids["broken"] else row
                for row in rows
            ]
        await insert(self, table, rows)

    monkeypatch.setattr(side, "insert", wrong)
    async with backend.store():
        pass  # migrated, so the snapshot shows the schema the copy would also make
    before = await backend.snapshot()
    with pytest.raises(CopyMismatch, match=rf"game {ids['broken']}: seq is \d+ in the source"):
        await copy_store(sqlite_at(path, "--from"), location_of(backend))
    assert await backend.snapshot() == before


async def test_text_postgresql_cannot_keep_is_refused_and_rolled_back(
    source: tuple[Path, dict[str, Any]], pg_backend: PostgresBackend
) -> None:
    """A NUL character in a text column (SQLite keeps it, PostgreSQL cannot) fails the copy
    naming the row; the target keeps nothing."""
    path, ids = source
    await SqliteBackend(path).execute(
        "UPDATE games SET finished_reason = 'ended' || char(0) WHERE id = ?", ids["board_done"]
    )
    before = await pg_backend.snapshot()
    with pytest.raises(CopyFailed, match=rf"id {ids['board_done']}.*finished_reason.*NUL"):
        await copy_store(sqlite_at(path, "--from"), postgres_at(pg_backend.url))
    assert await pg_backend.snapshot() == before


async def test_rows_the_copy_cannot_carry_fail_it_naming_the_row(
    source: tuple[Path, dict[str, Any]], tmp_path: Path
) -> None:
    """A time that is no time and a timer of a game that does not exist (written behind
    the store's back) fail the copy naming the row; the target keeps nothing."""
    path, _ids = source
    raw = SqliteBackend(path)
    target = tmp_path / "target.db"
    await raw.execute("UPDATE user_prefs SET updated_at = 'yesterday' WHERE user_id = ?", USER)
    with pytest.raises(
        CopyFailed,
        match=rf"--from \(SQLite .*\): a row of user_prefs \(user_id {USER}\) has updated_at "
        "'yesterday', which is not a time",
    ):
        await copy_store(sqlite_at(path, "--from"), sqlite_at(target))
    assert set((await raw_counts(target)).values()) == {0}

    await raw.execute("UPDATE user_prefs SET updated_at = '2026-05-01T12:00:00+00:00'")
    moment = "2026-05-01T12:00:00+00:00"
    await raw.execute(
        "INSERT INTO timers (game_id, kind, due_at, created_at, fired_at)"
        " VALUES (999, 'x', ?, ?, ?)",
        moment,
        moment,
        moment,
    )
    with pytest.raises(CopyFailed, match="a timer of game 999, which does not exist"):
        await copy_store(sqlite_at(path, "--from"), sqlite_at(target))
    assert set((await raw_counts(target)).values()) == {0}


def test_the_copy_knows_every_table_and_column_of_the_schema(tmp_path: Path) -> None:
    """Every table and column of the migrated SQLite schema is one the copy moves (a new
    migration must teach the copy its columns; the PostgreSQL schema has the same
    columns, which the copy checks when it opens a source)."""
    path = tmp_path / "schema.db"

    async def make() -> None:
        async with SqliteGameStore(path):
            pass

    asyncio.run(make())
    conn = sqlite3.connect(path)
    try:
        tables = {
            name for (name,) in conn.execute("SELECT name FROM sqlite_master WHERE type = 'table'")
        } - {"schema_version", "sqlite_sequence"}
        assert tables == {table.name for table in TABLES}
        for table in TABLES:
            columns = [row[1] for row in conn.execute(f"PRAGMA table_info({table.name})")]
            assert set(columns) == set(table.columns), table.name
    finally:
        conn.close()


# -- the command line -------------------------------------------------------------------------


async def test_the_command_line_end_to_end(
    source: tuple[Path, dict[str, Any]],
    pg_target: PostgresBackend,
    tmp_path: Path,
    monkeypatch: pytest.MonkeyPatch,
    capsys: pytest.CaptureFixture[str],
) -> None:
    """``monopoly-bot store copy`` from a relative SQLite path into a new PostgreSQL
    database (migrated on the way) and back into a new file: exit code 0 and a summary
    line each; a second copy into the now full database is refused with exit code 2."""
    path, _ids = source
    monkeypatch.chdir(path.parent)
    counts = await raw_counts(path)

    def run(*argv: str) -> int:
        # main() runs its own event loop, so it runs in a thread beside this test's.
        return cli.main(["store", "copy", *argv])

    code = await asyncio.to_thread(run, "--from", "sqlite:///monopoly.db", "--to", pg_target.url)
    out, err = capsys.readouterr()
    assert code == 0, err
    assert out.startswith(
        f"monopoly-bot store copy: {counts['games']} games, {counts['actions']} actions, "
        f"{counts['timers']} timers, {counts['user_prefs']} prefs, {counts['guild_files']} files, "
        f"{counts['bot_meta']} bot records copied from SQLite monopoly.db to PostgreSQL socket "
    )
    assert out.rstrip().endswith("; both exports are equal") and out.count("\n") == 1

    code = await asyncio.to_thread(run, "--from", pg_target.url, "--to", "sqlite:///copies/back.db")
    assert code == 0, capsys.readouterr().err
    capsys.readouterr()
    first = await read_export(sqlite_at(path, "--from"))
    assert await read_export(postgres_at(pg_target.url, "--from")) == first
    assert await read_export(sqlite_at(path.parent / "copies" / "back.db", "--from")) == first

    code = await asyncio.to_thread(run, "--from", "sqlite:///monopoly.db", "--to", pg_target.url)
    out, err = capsys.readouterr()
    assert code == 2 and out == ""
    assert err.count("\n") == 1 and "--to (PostgreSQL socket" in err and "is not empty" in err


def test_the_command_line_refuses_bad_arguments_with_one_line(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """A bad URL, a missing source: exit code 2, one line naming the argument, no password."""
    code = cli.main(["store", "copy", "--from", "mysql://bot:secret@db/x", "--to", "sqlite:///x"])
    err = capsys.readouterr().err
    assert (
        code == 2 and err.startswith("monopoly-bot store copy: --from: ") and err.count("\n") == 1
    )
    assert "secret" not in err

    target = tmp_path / "target.db"
    code = cli.main(
        [
            "store",
            "copy",
            "--from",
            f"sqlite:///{tmp_path / 'nothing.db'}",
            "--to",
            f"sqlite:///{target}",
        ]
    )
    err = capsys.readouterr().err
    assert code == 2 and "--from (SQLite" in err and "no database file" in err
    assert err.count("\n") == 1 and not target.exists()


async def test_the_command_line_says_when_the_check_fails(
    source: tuple[Path, dict[str, Any]],
    tmp_path: Path,
    monkeypatch: pytest.MonkeyPatch,
    capsys: pytest.CaptureFixture[str],
) -> None:
    """A copy that fails its check exits with code 1 and one line; the target stays empty."""
    path, ids = source
    read = SqliteSide.rows

    async def changed(self: Any, table: store_copy.Table) -> AsyncIterator[dict[str, Any]]:
        # The target's file reads one preference differently: as if the source changed.
        async for row in read(self, table):
            if table.name == "user_prefs" and self.location.option == "--to":
                row = {**row, "prefs_json": "{}"}
            yield row

    monkeypatch.setattr(SqliteSide, "rows", changed)
    target = tmp_path / "target.db"
    code = await asyncio.to_thread(
        cli.main, ["store", "copy", "--from", f"sqlite:///{path}", "--to", f"sqlite:///{target}"]
    )
    err = capsys.readouterr().err
    assert code == 1 and err.count("\n") == 1
    assert f"the preferences of user {USER}: prefs_json is" in err
    assert "nothing was written" in err
    assert set((await raw_counts(target)).values()) == {0}
