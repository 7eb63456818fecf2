"""The bot as a fleet: shard settings, the bot class and its shards, the timers a process
fires, the heartbeat, and bad configuration stopping ``run`` before Discord.

Nothing here connects to Discord: bots are only constructed (or their ``setup_hook`` run
on a real SQLite file), gateway connections are small fakes, and ``run`` is replaced.
"""

from __future__ import annotations

import asyncio
import json
import logging
from collections.abc import Callable
from datetime import UTC, datetime, timedelta
from pathlib import Path
from typing import Any

import aiosqlite
import discord
import pytest
from discord.ext import commands

from bot import app, cli
from bot.app import MonopolyBot, ShardedMonopolyBot, check_store, create_bot, run_bot
from bot.config import ConfigError, Settings, redact_url, shard_of
from bot.heartbeat import check_heartbeat
from bot.scheduler import Scheduler
from bot.store import SqliteGameStore, Timer
from bot.store.errors import SchemaError, StoreError, StoreUnavailable
from tests.store.conftest import ManualClock, make_state

#: Discord's epoch (2015-01-01) in Unix milliseconds: a snowflake's top bits count from it.
DISCORD_EPOCH_MS = 1420070400000


def settings(tmp_path: Path, **overrides: Any) -> Settings:
    """Settings on a database and heartbeat in ``tmp_path``, with ``overrides``."""
    values: dict[str, Any] = {
        "discord_token": None,
        "db_path": tmp_path / "games.db",
        "log_level": "INFO",
        "dev_guild_id": None,
        "heartbeat_file": tmp_path / "heartbeat",
    }
    values.update(overrides)
    return Settings(**values)


def snowflake(milliseconds: int, low_bits: int = 0) -> int:
    """A snowflake made ``milliseconds`` after Discord's epoch, with ``low_bits`` (worker,
    process, increment: the 22 bits the shard formula ignores)."""
    return (milliseconds << 22) | low_bits


# -- settings ---------------------------------------------------------------------------------


def from_env(environ: dict[str, str]) -> Settings:
    """Settings from ``environ`` only (no .env file)."""
    return Settings.from_env(environ, env_file=None)


def test_shard_settings_are_read() -> None:
    """Count and ids (spaces allowed) make a sharded process holding just those ids."""
    got = from_env({"MONOPOLY_SHARD_COUNT": "4", "MONOPOLY_SHARD_IDS": " 3, 0 "})
    assert got.shard_count == 4 and got.shard_ids == (3, 0)
    assert got.sharded and got.shard_filter == (4, frozenset({0, 3}))


def test_a_count_without_ids_holds_every_shard() -> None:
    """Only MONOPOLY_SHARD_COUNT: one process holding all shards of that count."""
    got = from_env({"MONOPOLY_SHARD_COUNT": "3", "MONOPOLY_SHARD_IDS": ""})
    assert got.shard_ids == (0, 1, 2) and got.shard_filter == (3, frozenset({0, 1, 2}))


def test_no_shard_settings_is_the_unsharded_bot() -> None:
    """Neither setting (or both empty): no filter, every guild held, as before."""
    got = from_env({"MONOPOLY_SHARD_COUNT": " ", "MONOPOLY_SHARD_IDS": ""})
    assert got.shard_count is None and got.shard_ids is None
    assert not got.sharded and got.shard_filter is None
    assert got.holds_guild(snowflake(123456789))


def test_database_url_and_heartbeat_file_are_read(tmp_path: Path) -> None:
    """MONOPOLY_DATABASE_URL (empty: None) and MONOPOLY_HEARTBEAT_FILE."""
    url = "postgresql://bot:secret@db:5432/monopoly"
    got = from_env(
        {"MONOPOLY_DATABASE_URL": url, "MONOPOLY_HEARTBEAT_FILE": str(tmp_path / "beat")}
    )
    assert got.database_url == url and got.heartbeat_file == tmp_path / "beat"
    assert got.store_setting == "MONOPOLY_DATABASE_URL (postgresql://bot:***@db:5432/monopoly)"
    plain = from_env({"MONOPOLY_DATABASE_URL": ""})
    assert plain.database_url is None
    assert plain.heartbeat_file.name == "monopoly-heartbeat"
    assert plain.store_setting == "MONOPOLY_DB_PATH (data/monopoly.db)"


BAD_SHARD_SETTINGS = [
    (
        {"MONOPOLY_SHARD_COUNT": "two"},
        "MONOPOLY_SHARD_COUNT must be a whole number of at least 1, got 'two'",
    ),
    ({"MONOPOLY_SHARD_COUNT": "0"}, "MONOPOLY_SHARD_COUNT must be at least 1, got 0"),
    ({"MONOPOLY_SHARD_COUNT": "-2"}, "MONOPOLY_SHARD_COUNT must be at least 1, got -2"),
    (
        {"MONOPOLY_SHARD_COUNT": "2", "MONOPOLY_SHARD_IDS": "0,one"},
        "MONOPOLY_SHARD_IDS must be shard numbers separated by commas (e.g. 0,1), got '0,one'",
    ),
    (
        {"MONOPOLY_SHARD_COUNT": "2", "MONOPOLY_SHARD_IDS": "0,,1"},
        "MONOPOLY_SHARD_IDS must be shard numbers separated by commas (e.g. 0,1), got '0,,1'",
    ),
    (
        {"MONOPOLY_SHARD_COUNT": "2", "MONOPOLY_SHARD_IDS": "0,2"},
        "MONOPOLY_SHARD_IDS: shard 2 is out of range for MONOPOLY_SHARD_COUNT=2 "
        "(shards are 0 to 1)",
    ),
    (
        {"MONOPOLY_SHARD_COUNT": "2", "MONOPOLY_SHARD_IDS": "-1"},
        "MONOPOLY_SHARD_IDS: shard -1 is out of range for MONOPOLY_SHARD_COUNT=2 "
        "(shards are 0 to 1)",
    ),
    (
        {"MONOPOLY_SHARD_COUNT": "4", "MONOPOLY_SHARD_IDS": "1, 3, 1"},
        "MONOPOLY_SHARD_IDS names shard 1 twice",
    ),
    (
        {"MONOPOLY_SHARD_IDS": "0,1"},
        "MONOPOLY_SHARD_IDS needs MONOPOLY_SHARD_COUNT (the number of shards of the whole fleet)",
    ),
]


@pytest.mark.parametrize(("environ", "message"), BAD_SHARD_SETTINGS)
def test_bad_shard_settings_are_one_clear_line(environ: dict[str, str], message: str) -> None:
    """Each bad value raises ConfigError (a ValueError) with one line naming the setting."""
    with pytest.raises(ConfigError) as caught:
        from_env(environ)
    assert str(caught.value) == message
    assert isinstance(caught.value, ValueError) and "\n" not in message


def test_settings_built_in_code_are_checked_too(tmp_path: Path) -> None:
    """Settings() itself refuses shard sets the gateway or the timer filter would misread."""
    with pytest.raises(ConfigError, match="out of range"):
        settings(tmp_path, shard_count=2, shard_ids=(2,))
    with pytest.raises(ConfigError, match="needs MONOPOLY_SHARD_COUNT"):
        settings(tmp_path, shard_ids=(0,))
    with pytest.raises(ConfigError, match="names no shard"):
        settings(tmp_path, shard_count=2, shard_ids=())
    assert settings(tmp_path, shard_count=2).shard_ids == (0, 1)


@pytest.mark.parametrize(
    ("url", "shown"),
    [
        ("postgresql://bot:s3cr%40t@db:5432/monopoly", "postgresql://bot:***@db:5432/monopoly"),
        ("postgresql://db/monopoly", "postgresql://db/monopoly"),
        ("postgresql://bot@[::1]/m?password=x&sslmode=require", None),
    ],
)
def test_database_urls_are_shown_without_password(url: str, shown: str | None) -> None:
    """A URL in a message never carries its password, in the user part or the query."""
    redacted = redact_url(url)
    if shown is not None:
        assert redacted == shown
    assert "s3cr" not in redacted and "password=x" not in redacted


# -- the shard formula -----------------------------------------------------------------------


def test_the_shard_of_a_guild_is_discords_formula() -> None:
    """(guild_id >> 22) % count: the creation time decides; the low 22 bits do not."""
    guild = 81384788765712384  # the Discord API server
    assert shard_of(guild, 1) == 0
    assert shard_of(guild, 16) == (guild >> 22) % 16 == 19403645698 % 16 == 2
    made = discord.utils.time_snowflake(datetime(2021, 3, 4, 5, 6, 7, tzinfo=UTC))
    milliseconds = made >> 22
    assert milliseconds == 1614834367000 - DISCORD_EPOCH_MS
    for count in (1, 2, 3, 5, 16):
        assert shard_of(made, count) == milliseconds % count
        # Worker, process and increment bits do not move a guild to another shard.
        assert shard_of(made | 0x3FFFFF, count) == shard_of(made, count)
    # Guilds made one millisecond apart go round the shards.
    assert [shard_of(snowflake(1000 + n), 3) for n in range(6)] == [1, 2, 0, 1, 2, 0]


def test_holds_guild_follows_the_formula(tmp_path: Path) -> None:
    """A process holding shards 1 and 3 of 4 holds exactly the guilds on those shards."""
    got = settings(tmp_path, shard_count=4, shard_ids=(1, 3))
    guilds = [snowflake(5000 + n, n * 977) for n in range(8)]
    assert [got.holds_guild(guild) for guild in guilds] == [
        shard_of(guild, 4) in (1, 3) for guild in guilds
    ]
    assert sum(got.holds_guild(guild) for guild in guilds) == 4


# -- the bot class ----------------------------------------------------------------------------


def test_an_unsharded_bot_is_a_plain_bot(tmp_path: Path) -> None:
    """No shard count: a commands.Bot that asks Discord for no shard count."""
    bot = create_bot(settings(tmp_path))
    assert type(bot) is MonopolyBot
    assert not isinstance(bot, commands.AutoShardedBot)
    assert bot.shard_count is None and bot.shard_id is None
    assert MonopolyBot.gateway_options(bot.settings) == {}


def test_a_sharded_bot_holds_just_its_shards(tmp_path: Path) -> None:
    """Count and ids: an AutoShardedBot given both, so it never asks for a recommendation."""
    bot = create_bot(settings(tmp_path, shard_count=4, shard_ids=(1, 3)), sync="off")
    assert isinstance(bot, ShardedMonopolyBot) and isinstance(bot, MonopolyBot)
    assert isinstance(bot, commands.AutoShardedBot)
    assert bot.shard_count == 4 and bot.shard_ids == [1, 3]
    assert bot.sync_mode == "off"  # MonopolyBot's options pass through
    assert bot.holds_guild(snowflake(1)) and not bot.holds_guild(snowflake(2))


def test_a_count_alone_holds_every_shard_of_it(tmp_path: Path) -> None:
    """Only a count: every shard id is passed (still not asking Discord)."""
    bot = create_bot(settings(tmp_path, shard_count=3))
    assert isinstance(bot, commands.AutoShardedBot)
    assert bot.shard_count == 3 and bot.shard_ids == [0, 1, 2]


def test_the_sharded_class_refuses_unsharded_settings(tmp_path: Path) -> None:
    """Built without a count it would ask Discord for one: refused."""
    with pytest.raises(ValueError, match="MONOPOLY_SHARD_COUNT"):
        ShardedMonopolyBot(settings(tmp_path))


@pytest.mark.parametrize(
    ("overrides", "expected"),
    [({}, None), ({"shard_count": 4, "shard_ids": (1, 3)}, (4, frozenset({1, 3})))],
)
async def test_the_scheduler_gets_the_shard_filter(
    tmp_path: Path, overrides: dict[str, Any], expected: tuple[int, frozenset[int]] | None
) -> None:
    """setup_hook gives the timer loop the process's shards (None when unsharded)."""
    bot = create_bot(settings(tmp_path, **overrides), sync="off", start_timers=False)
    try:
        await bot.setup_hook()
        assert bot.scheduler.shards == expected
    finally:
        await bot.stop_background()
        await bot.store.close()


# -- gateway report and heartbeat -------------------------------------------------------------


class FakeSocket:
    """Just what the bot reads of a gateway connection: open, and its latency."""

    def __init__(self, latency: float, *, open: bool = True) -> None:
        self.latency = latency
        self.open = open


class FakeShardInfo:
    """Just what the sharded bot reads of a shard: whether it is closed."""

    def __init__(self, closed: bool = False) -> None:
        self.closed = closed

    def is_closed(self) -> bool:
        """Whether the shard's connection is closed."""
        return self.closed


def test_an_unconnected_bot_reports_and_writes_nothing(tmp_path: Path) -> None:
    """Before connecting: no latency measured, no heartbeat written."""
    bot = create_bot(settings(tmp_path), heartbeat_file=tmp_path / "heartbeat")
    assert bot.gateway_report() == "Gateway: unsharded; latency not measured"
    assert not bot.gateway_connected()
    assert not bot.beat()
    assert not (tmp_path / "heartbeat").exists()
    sharded = create_bot(settings(tmp_path, shard_count=2, shard_ids=(1,)))
    assert sharded.gateway_report() == "Gateway: shards 1 of 2; latency not measured"
    assert not sharded.gateway_connected()


def test_a_connected_bot_writes_a_fresh_heartbeat(tmp_path: Path) -> None:
    """Connected: the heartbeat holds the time and the latency, and health says healthy."""
    beat = tmp_path / "state" / "heartbeat"
    bot = create_bot(settings(tmp_path), heartbeat_file=beat)
    bot.ws = FakeSocket(0.0421)  # type: ignore[assignment]
    assert bot.gateway_connected()
    assert bot.gateway_report() == "Gateway: unsharded; latency 42 ms"
    assert bot.beat()
    data = json.loads(beat.read_text(encoding="utf-8"))
    assert data["shard_ids"] is None and data["latency"] == {"all": 0.042}
    health = check_heartbeat(beat, max_age=120)
    assert health.healthy and "gateway latency 42 ms" in health.line
    bot.ws.open = False  # type: ignore[union-attr]
    assert not bot.gateway_connected() and not bot.beat()


def test_a_sharded_bot_beats_only_with_all_its_shards_open(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Each held shard's latency is in the report and the heartbeat; a closed shard (or
    one not launched yet) stops the heartbeat."""
    beat = tmp_path / "heartbeat"
    bot = create_bot(settings(tmp_path, shard_count=4, shard_ids=(1, 3)), heartbeat_file=beat)
    shards = {1: FakeShardInfo(), 3: FakeShardInfo()}
    monkeypatch.setattr(ShardedMonopolyBot, "shards", property(lambda self: shards))
    monkeypatch.setattr(
        ShardedMonopolyBot, "latencies", property(lambda self: [(3, 0.05), (1, float("inf"))])
    )
    assert bot.gateway_report() == (
        "Gateway: shards 1,3 of 4; latency shard 1 not measured, shard 3 50 ms"
    )
    assert bot.beat()
    data = json.loads(beat.read_text(encoding="utf-8"))
    assert data["shard_ids"] == [1, 3] and data["latency"] == {"1": None, "3": 0.05}
    shards[3].closed = True
    assert not bot.beat()
    del shards[3]
    assert not bot.gateway_connected()


async def test_ready_logs_the_shards_and_starts_the_heartbeat(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, caplog: pytest.LogCaptureFixture
) -> None:
    """on_ready logs the gateway line and beats; the loop keeps beating and logging; a
    stop ends the loop and removes the heartbeat (a stopped bot is not healthy)."""
    monkeypatch.setattr(app, "HEARTBEAT_EVERY", 0.01)
    monkeypatch.setattr(app, "LATENCY_LOG_EVERY", 0.0)
    beat = tmp_path / "heartbeat"
    bot = create_bot(settings(tmp_path), heartbeat_file=beat)
    bot.ws = FakeSocket(0.02)  # type: ignore[assignment]
    with caplog.at_level(logging.INFO, logger="bot.app"):
        await bot.on_ready()
        assert beat.exists()
        first = json.loads(beat.read_text(encoding="utf-8"))["unix"]
        deadline = asyncio.get_running_loop().time() + 5
        while json.loads(beat.read_text(encoding="utf-8"))["unix"] == first:
            assert asyncio.get_running_loop().time() < deadline, "no second heartbeat"
            await asyncio.sleep(0.01)
        await bot.on_ready()  # a new session: still one loop
        task = bot._watch_task
        await asyncio.sleep(0.03)
        assert bot._watch_task is task
    lines = [r.getMessage() for r in caplog.records if r.name == "bot.app"]
    assert lines.count("Gateway: unsharded; latency 20 ms") >= 3  # ready, loop, ready
    await bot.stop_background()
    assert task is not None and task.done() and bot._watch_task is None
    assert not beat.exists()


# -- the timers a process fires ---------------------------------------------------------------


class RecordingStore:
    """A store of the old timer interface (no ``shards``) or the new one, recording calls."""

    def __init__(self, *, with_shards: bool) -> None:
        self.with_shards = with_shards
        self.calls: list[tuple[str, dict[str, Any]]] = []

    async def next_due_at(self, **options: Any) -> datetime | None:
        """Record the call; nothing is pending."""
        self._note("next_due_at", options)
        return None

    async def due_timers(self, now: datetime, limit: int = 100, **options: Any) -> list[Timer]:
        """Record the call; nothing is due."""
        self._note("due_timers", {"limit": limit, **options})
        return []

    def _note(self, name: str, options: dict[str, Any]) -> None:
        if "shards" in options and not self.with_shards:
            raise TypeError(f"{name}() got an unexpected keyword argument 'shards'")
        self.calls.append((name, options))


async def test_an_unsharded_scheduler_calls_the_store_as_before() -> None:
    """No shards: no ``shards`` keyword reaches the store, so older drivers keep working."""
    store = RecordingStore(with_shards=False)
    scheduler = Scheduler(store, _never, now=ManualClock())  # type: ignore[arg-type]
    assert scheduler.shards is None
    assert await scheduler.run_due() == 0
    assert await scheduler._delay() == scheduler.max_sleep
    assert store.calls == [("due_timers", {"limit": 100}), ("next_due_at", {})]


async def test_a_sharded_scheduler_passes_its_shards_every_time() -> None:
    """With shards: both queries carry ``(count, frozenset(ids))``."""
    store = RecordingStore(with_shards=True)
    scheduler = Scheduler(
        store,  # type: ignore[arg-type]
        _never,
        now=ManualClock(),
        shards=(4, {3, 1}),  # type: ignore[arg-type]
    )
    assert scheduler.shards == (4, frozenset({1, 3}))
    await scheduler.run_due()
    await scheduler._delay()
    assert await scheduler.next_due_at() is None
    shards = (4, frozenset({1, 3}))
    assert store.calls == [
        ("due_timers", {"limit": 100, "shards": shards}),
        ("next_due_at", {"shards": shards}),
        ("next_due_at", {"shards": shards}),
    ]


@pytest.mark.parametrize("shards", [(0, frozenset({0})), (2, frozenset()), (2, frozenset({2}))])
def test_a_scheduler_refuses_impossible_shards(
    tmp_path: Path, shards: tuple[int, frozenset[int]]
) -> None:
    """A count below 1, no ids, or an id out of range is a bug of the caller."""
    with pytest.raises(ValueError, match="shards"):
        Scheduler(SqliteGameStore(tmp_path / "x.db"), _never, now=ManualClock(), shards=shards)


async def _never(timer: Timer) -> None:
    raise AssertionError(f"no timer should fire here, not {timer}")


async def test_each_process_fires_the_timers_of_its_own_guilds(tmp_path: Path) -> None:
    """Two processes holding shard 0 and 1 of 2 on one SQLite file: each fires exactly
    the timers (turn deadlines, DM reminders, the digest) of its guilds' games, once."""
    clock = ManualClock()
    guilds = [snowflake(7000 + n, 55) for n in range(4)]  # shards 0, 1, 0, 1
    assert [shard_of(guild, 2) for guild in guilds] == [0, 1, 0, 1]
    async with SqliteGameStore(tmp_path / "games.db", now=clock) as store:
        owner: dict[int, int] = {}
        for n, guild in enumerate(guilds):
            game = (await store.create_game(guild, 100 + n, make_state())).id
            for kind in ("deadline", "reminder", "digest"):
                timer = await store.add_timer(game, kind, clock() - timedelta(minutes=1))
                owner[timer.id] = shard_of(guild, 2)
        fired: dict[int, list[int]] = {0: [], 1: []}

        def handler(shard: int) -> Callable[[Timer], Any]:
            """The timer handler of the process holding ``shard``."""

            async def fire(timer: Timer) -> None:
                """Note the timer as fired by that process."""
                fired[shard].append(timer.id)

            return fire

        schedulers = [
            Scheduler(store, handler(shard), now=clock, shards=(2, frozenset({shard})))
            for shard in (0, 1)
        ]
        assert await schedulers[1].next_due_at() is not None
        assert await schedulers[0].run_due() == 6
        assert await schedulers[0].next_due_at() is None  # its games are done ...
        assert await schedulers[1].next_due_at() is not None  # ... the others' are not
        assert await schedulers[1].run_due() == 6
    for shard in (0, 1):
        assert sorted(fired[shard]) == sorted(t for t, s in owner.items() if s == shard)


# -- bad configuration stops the bot before Discord -------------------------------------------


#: A token of the right shape (run checks it first); Discord has never seen it.
TOKEN = "MTIzNDU2Nzg5MDEyMzQ1Njc4.GaBcDe.abcdefghijklmnopqrstuvwxyz0123456789AB"


@pytest.fixture
def no_discord(monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> list[str]:
    """A directory without .env, no Discord settings, a login over HTTP that Discord
    accepts (no network), and a bot ``run`` that must not be reached (it records the token
    if it is)."""
    monkeypatch.chdir(tmp_path)
    for name in (
        "DISCORD_TOKEN",
        "MONOPOLY_DB_PATH",
        "MONOPOLY_DATABASE_URL",
        "MONOPOLY_SHARD_COUNT",
        "MONOPOLY_SHARD_IDS",
        "MONOPOLY_DEV_GUILD_ID",
        "MONOPOLY_HEARTBEAT_FILE",
    ):
        monkeypatch.delenv(name, raising=False)
    monkeypatch.setattr(app, "configure_logging", lambda level: None)
    ran: list[str] = []

    def fake_run(self: MonopolyBot, token: str, **options: Any) -> None:
        """Stand in for ``Client.run``: note the token, connect nowhere."""
        ran.append(token)

    async def discord_accepts(token: str, **options: Any) -> None:
        """Stand in for ``check_discord``: the token is fine, Discord is there."""

    monkeypatch.setattr(MonopolyBot, "run", fake_run)
    monkeypatch.setattr(app, "check_discord", discord_accepts)
    return ran


def test_bad_shard_ids_stop_run_with_one_line(
    no_discord: list[str], monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    """``run`` with an out-of-range shard id: exit 2, one line naming it, no store made."""
    monkeypatch.setenv("DISCORD_TOKEN", "secret")
    monkeypatch.setenv("MONOPOLY_SHARD_COUNT", "2")
    monkeypatch.setenv("MONOPOLY_SHARD_IDS", "1,2")
    assert cli.main(["run"]) == 2
    captured = capsys.readouterr()
    assert captured.err == (
        "monopoly-bot: MONOPOLY_SHARD_IDS: shard 2 is out of range for "
        "MONOPOLY_SHARD_COUNT=2 (shards are 0 to 1)\n"
    )
    assert captured.out == "" and no_discord == []
    assert not Path("data").exists()


def test_a_wrong_url_scheme_stops_run_with_one_line(
    no_discord: list[str], tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """``run`` with a MySQL URL: exit 2, one line naming MONOPOLY_DATABASE_URL, no password."""
    got = settings(tmp_path, discord_token=TOKEN, database_url="mysql://bot:hunter2@db/monopoly")
    assert run_bot(got) == 2
    err = capsys.readouterr().err
    assert err.startswith("monopoly-bot: ") and err.count("\n") == 1
    assert "MONOPOLY_DATABASE_URL" in err and "hunter2" not in err
    assert no_discord == [] and not got.db_path.exists()


def test_a_refused_url_from_store_for_stops_run(
    no_discord: list[str],
    tmp_path: Path,
    monkeypatch: pytest.MonkeyPatch,
    capsys: pytest.CaptureFixture[str],
) -> None:
    """Whatever store_for refuses (a ValueError) is the one line of exit 2."""

    def refuse(settings: Settings) -> None:
        """Refuse the URL like store_for does."""
        raise ValueError("MONOPOLY_DATABASE_URL must start with postgresql://,\n got 'mysql://...'")

    monkeypatch.setattr(app, "store_for", refuse)
    assert run_bot(settings(tmp_path, discord_token=TOKEN)) == 2
    assert capsys.readouterr().err == (
        "monopoly-bot: MONOPOLY_DATABASE_URL must start with postgresql://, got 'mysql://...'\n"
    )
    assert no_discord == []


class UnusableStore:
    """A store that cannot be opened: ``open`` raises ``error``."""

    def __init__(self, error: StoreError) -> None:
        self.error = error

    async def open(self) -> None:
        """Fail like a driver that cannot connect (or finds a newer schema)."""
        raise self.error

    async def close(self) -> None:
        """Nothing to close (open failed)."""


PG_URL = "postgresql://bot:hunter2@db:5432/monopoly"
SHOWN_URL = "MONOPOLY_DATABASE_URL (postgresql://bot:***@db:5432/monopoly)"
UNREACHABLE = (
    "cannot open the PostgreSQL database of MONOPOLY_DATABASE_URL (db:5432, database "
    "'monopoly'): ConnectionRefusedError: [Errno 111] Connection refused"
)
NEWER = (
    "the database has schema version 9, newer than this bot's 8; update the bot (or restore "
    "the backup taken before the upgrade, see README 'Upgrade and backup')"
)


@pytest.mark.parametrize(
    ("error", "line"),
    [
        # The driver's message names the setting already: printed as it is.
        (StoreUnavailable(UNREACHABLE), f"monopoly-bot: {UNREACHABLE}\n"),
        # A message that does not gets the setting (without the password) in front.
        (SchemaError(NEWER), f"monopoly-bot: {SHOWN_URL}: {NEWER}\n"),
    ],
)
def test_an_unusable_store_stops_run_with_one_line(
    no_discord: list[str],
    tmp_path: Path,
    monkeypatch: pytest.MonkeyPatch,
    capsys: pytest.CaptureFixture[str],
    error: StoreError,
    line: str,
) -> None:
    """The store cannot be opened: exit 2 before Discord, one line naming the setting."""
    monkeypatch.setattr(app, "store_for", lambda settings: UnusableStore(error))
    assert run_bot(settings(tmp_path, discord_token=TOKEN, database_url=PG_URL)) == 2
    assert capsys.readouterr().err == line
    assert no_discord == []


def test_an_unreachable_postgresql_server_stops_run(
    no_discord: list[str], tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """The real driver, a server that is not there (no socket in an empty folder): exit 2
    with the driver's one line, which names the setting and not the password."""
    url = f"postgresql://bot:hunter2@/monopoly?host={tmp_path}&port=5432"
    assert run_bot(settings(tmp_path, discord_token=TOKEN, database_url=url)) == 2
    err = capsys.readouterr().err
    assert err.startswith("monopoly-bot: ") and err.count("\n") == 1
    assert "MONOPOLY_DATABASE_URL" in err and "hunter2" not in err
    assert no_discord == []


def test_a_database_of_a_newer_bot_stops_run_unchanged(
    no_discord: list[str], tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """A SQLite file migrated by a newer bot: exit 2, one line, the file byte for byte
    as it was (nothing migrated, nothing written)."""
    db_path = tmp_path / "games.db"
    asyncio.run(_newer_database(db_path))
    before = db_path.read_bytes()
    assert run_bot(settings(tmp_path, discord_token=TOKEN, db_path=db_path)) == 2
    err = capsys.readouterr().err
    assert err.startswith(f"monopoly-bot: MONOPOLY_DB_PATH ({db_path}): the database has schema")
    assert "newer than this bot's" in err and err.count("\n") == 1
    assert db_path.read_bytes() == before and no_discord == []


def test_a_database_path_that_cannot_be_made_stops_run(
    no_discord: list[str], tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """MONOPOLY_DB_PATH inside a regular file (its folder cannot be made): exit 2 with one
    line naming the setting."""
    (tmp_path / "a-file").write_text("", encoding="utf-8")
    db_path = tmp_path / "a-file" / "games.db"
    assert run_bot(settings(tmp_path, discord_token=TOKEN, db_path=db_path)) == 2
    err = capsys.readouterr().err
    assert err.startswith(f"monopoly-bot: MONOPOLY_DB_PATH ({db_path}): cannot open the database")
    assert err.count("\n") == 1 and no_discord == []


async def test_check_store_passes_a_good_store(tmp_path: Path) -> None:
    """A usable store: no problem, and it is closed again for the bot to open."""
    assert await check_store(settings(tmp_path)) is None
    assert (tmp_path / "games.db").exists()


async def _newer_database(db_path: Path) -> None:
    """A database file at a schema version beyond this code's."""
    async with SqliteGameStore(db_path) as store:
        await store.create_game(snowflake(1), 10, None)
    async with aiosqlite.connect(db_path) as conn:
        await conn.execute(
            "INSERT INTO schema_version (version, name, applied_at) VALUES (999, 'future', 'x')"
        )
        await conn.commit()
