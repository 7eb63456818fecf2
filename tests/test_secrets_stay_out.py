"""No log line, message or report ever holds a database password (issue 23).

Every place a URL is shown is driven with a URL holding :data:`SECRET`, as userinfo and as
libpq's ``password=`` parameter, well-formed and with typos, reachable and not: ``run``
(``MONOPOLY_DATABASE_URL``, and ``MONOPOLY_DB_PATH`` given a URL), ``sync``, ``status``
(lines and JSON), ``export``, ``store copy --from/--to`` and ``bench --database-url``.
Each test reads everything captured: stdout, stderr and every log record at DEBUG.
"""

from __future__ import annotations

import asyncio
import json
import logging
import socket
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import discord
import pytest

from bot import app, cli
from bot.app import MonopolyBot
from bot.config import Settings, hide_passwords, redact_url
from bot.store import SqliteGameStore
from bot.store.drivers.postgres import describe_url
from tests.pg import PgCluster
from tests.store.backends import PostgresBackend

SECRET = "s3cr3t-pw"
#: A token of the right shape; Discord has never seen it.
TOKEN = "MTIzNDU2Nzg5MDEyMzQ1Njc4.GaBcDe.abcdefghijklmnopqrstuvwxyz0123456789AB"
#: Settings of the environment that each test sets afresh.
BOT_SETTINGS = (
    "DISCORD_TOKEN",
    "MONOPOLY_DB_PATH",
    "MONOPOLY_DATABASE_URL",
    "MONOPOLY_SHARD_COUNT",
    "MONOPOLY_SHARD_IDS",
    "MONOPOLY_DEV_GUILD_ID",
    "MONOPOLY_LOG_LEVEL",
)


def broken_urls(port: int) -> list[str]:
    """URLs holding :data:`SECRET` that no store can use: unreachable, a wrong scheme, a
    port that is no number, a broken IPv6 host, a typo in the ``://``."""
    return [
        f"postgresql://bot:{SECRET}@127.0.0.1:{port}/monopoly",
        f"postgres://bot@127.0.0.1:{port}/monopoly?password={SECRET}",
        f"mysql://bot:{SECRET}@db/monopoly",
        f"postgresql://bot:{SECRET}@db:notaport/monopoly",
        f"postgresql://bot:{SECRET}@[::1/monopoly",
        f"postgresql:/bot:{SECRET}@db/monopoly",
    ]


def with_password(url: str) -> str:
    """A test cluster's URL (trust authentication) with :data:`SECRET` as its password."""
    assert "postgres@" in url
    return url.replace("postgres@", f"postgres:{SECRET}@", 1) + f"&password={SECRET}"


@pytest.fixture
def refused_port() -> Iterator[int]:
    """A local port that refuses connections (bound, not listening, held by the test)."""
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        yield sock.getsockname()[1]


@pytest.fixture
def quiet_env(monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> Path:
    """A directory without .env, none of the bot's settings, every logger at DEBUG."""
    monkeypatch.chdir(tmp_path)
    for name in BOT_SETTINGS:
        monkeypatch.delenv(name, raising=False)
    monkeypatch.setenv("MONOPOLY_HEARTBEAT_FILE", str(tmp_path / "heartbeat"))
    return tmp_path


@pytest.fixture
def everything(
    caplog: pytest.LogCaptureFixture, capsys: pytest.CaptureFixture[str]
) -> Iterator[Any]:
    """A function returning all that was printed and logged so far (logs at DEBUG)."""
    caplog.set_level(logging.DEBUG)

    def seen() -> str:
        out, err = capsys.readouterr()
        return "\n".join([out, err, caplog.text])

    yield seen


@pytest.fixture
def no_gateway(monkeypatch: pytest.MonkeyPatch) -> list[str]:
    """``run`` with Discord's login accepted and a gateway that only notes the token."""
    monkeypatch.setattr(app, "configure_logging", lambda level: None)
    ran: list[str] = []

    async def accept(token: str, **options: Any) -> None:
        return None

    def fake_run(self: MonopolyBot, token: str, **options: Any) -> None:
        ran.append(token)

    monkeypatch.setattr(app, "check_discord", accept)
    monkeypatch.setattr(MonopolyBot, "run", fake_run)
    return ran


# -- the helpers that show URLs --------------------------------------------------------------


@pytest.mark.parametrize(
    "url",
    [
        f"postgresql://bot:{SECRET}@db:5432/monopoly",
        f"postgresql://bot:{SECRET}@[::1]:5432/monopoly",
        f"postgresql://bot@db/monopoly?password={SECRET}&sslmode=require",
        f"postgresql://bot@db/monopoly?PASSWORD={SECRET}",
        f"postgresql://bot:{SECRET}%2Fx@db/monopoly",
        f"postgresql://bot:{SECRET}@/monopoly?host=/run/postgresql",
        f"postgresql://bot:{SECRET}@db:notaport/monopoly",
        f"postgresql://bot:{SECRET}@[::1/monopoly",
    ],
)
def test_redact_url_never_shows_the_password(url: str) -> None:
    assert SECRET not in redact_url(url)
    assert SECRET not in hide_passwords(url)


@pytest.mark.parametrize(
    "url",
    [
        f"postgresql://bot:{SECRET}@db:5432/monopoly",
        f"postgresql://bot@db/monopoly?password={SECRET}",
        f"postgresql://bot:{SECRET}@/monopoly?host=/run/postgresql",
    ],
)
def test_describe_url_names_only_the_server_and_the_database(url: str) -> None:
    assert SECRET not in describe_url(url) and "monopoly" in describe_url(url)


def test_settings_show_no_password_or_token() -> None:
    settings = Settings(
        discord_token=TOKEN,
        db_path=Path("data/monopoly.db"),
        log_level="INFO",
        dev_guild_id=None,
        database_url=f"postgresql://bot:{SECRET}@db/monopoly",
    )
    assert SECRET not in repr(settings) and TOKEN not in repr(settings)
    assert SECRET not in settings.store_setting


# -- a URL that cannot be used, everywhere ---------------------------------------------------


def test_a_url_in_db_path_is_refused_by_every_command_without_the_password(
    quiet_env: Path, monkeypatch: pytest.MonkeyPatch, everything: Any, no_gateway: list[str]
) -> None:
    monkeypatch.setenv("DISCORD_TOKEN", TOKEN)
    monkeypatch.setenv("MONOPOLY_DB_PATH", f"postgresql://bot:{SECRET}@db/monopoly")
    for argv in (["run"], ["status"], ["status", "--json"], ["export", "1"], ["sync"]):
        assert cli.main(argv) == 2, argv
        text = everything()
        assert "MONOPOLY_DATABASE_URL" in text and SECRET not in text, argv
    assert no_gateway == [] and list(quiet_env.iterdir()) == []


@pytest.mark.parametrize("index", range(6))
def test_run_status_export_with_a_broken_database_url(
    index: int,
    quiet_env: Path,
    refused_port: int,
    monkeypatch: pytest.MonkeyPatch,
    everything: Any,
    no_gateway: list[str],
) -> None:
    """Each command refuses with exit code 2 and one line; nowhere the password."""
    url = broken_urls(refused_port)[index]
    monkeypatch.setenv("DISCORD_TOKEN", TOKEN)
    monkeypatch.setenv("MONOPOLY_DATABASE_URL", url)
    for argv in (["run"], ["status"], ["status", "--json"], ["export", "1"]):
        assert cli.main(argv) == 2, argv
        text = everything()
        assert "MONOPOLY_DATABASE_URL" in text, (argv, text)
        assert SECRET not in text, (argv, text)
    assert no_gateway == []


def test_sync_with_a_wrong_scheme_is_one_line_without_the_password(
    quiet_env: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    monkeypatch.setenv("DISCORD_TOKEN", TOKEN)
    monkeypatch.setenv("MONOPOLY_DATABASE_URL", f"mysql://bot:{SECRET}@db/monopoly")
    assert cli.main(["sync"]) == 2
    err = capsys.readouterr().err
    assert err.startswith("monopoly-bot sync: MONOPOLY_DATABASE_URL") and err.count("\n") == 1
    assert SECRET not in err


def test_sync_without_discord_is_one_line(
    quiet_env: Path,
    refused_port: int,
    monkeypatch: pytest.MonkeyPatch,
    capsys: pytest.CaptureFixture[str],
) -> None:
    monkeypatch.setenv("DISCORD_TOKEN", TOKEN)
    monkeypatch.setenv(
        "MONOPOLY_DATABASE_URL", f"postgresql://bot:{SECRET}@127.0.0.1:{refused_port}/m"
    )
    monkeypatch.setattr(discord.http.Route, "BASE", f"http://127.0.0.1:{refused_port}/api/v10")
    assert cli.main(["sync"]) == 1
    err = capsys.readouterr().err
    assert err.startswith("monopoly-bot: cannot reach Discord: ") and err.count("\n") == 1
    assert SECRET not in err


@pytest.mark.parametrize("index", range(6))
def test_store_copy_with_a_broken_url_on_either_side(
    index: int, quiet_env: Path, refused_port: int, everything: Any
) -> None:
    url = broken_urls(refused_port)[index]
    asyncio.run(_sqlite_with_a_game(quiet_env / "games.db"))
    for argv in (
        ["--from", "sqlite:///games.db", "--to", url],
        ["--from", url, "--to", "sqlite:///copy.db"],
    ):
        assert cli.main(["store", "copy", *argv]) == 2, argv
        text = everything()
        assert "monopoly-bot store copy: " in text and SECRET not in text, (argv, text)


@pytest.mark.parametrize("index", range(6))
def test_bench_with_a_broken_database_url(
    index: int, quiet_env: Path, refused_port: int, everything: Any
) -> None:
    url = broken_urls(refused_port)[index]
    argv = ["bench", "--store", "--driver", "postgresql", "--quick", "--database-url", url]
    assert cli.main(argv) == 2
    text = everything()
    assert "monopoly-bot bench: " in text and SECRET not in text, text


# -- a URL that works, everywhere ------------------------------------------------------------


async def test_run_on_postgresql_logs_no_password(
    pg_backend: PostgresBackend,
    quiet_env: Path,
    monkeypatch: pytest.MonkeyPatch,
    everything: Any,
    no_gateway: list[str],
) -> None:
    """The store is opened (and checked for migrations) as a start does; its log lines
    name the server and the database only."""
    monkeypatch.setenv("DISCORD_TOKEN", TOKEN)
    monkeypatch.setenv("MONOPOLY_DATABASE_URL", with_password(pg_backend.url))
    assert await asyncio.to_thread(cli.main, ["run"]) == 0
    text = everything()
    assert no_gateway == [TOKEN]
    assert "Game store open: PostgreSQL at socket " in text and SECRET not in text


async def test_status_on_postgresql_shows_no_password(
    pg_backend: PostgresBackend, quiet_env: Path, monkeypatch: pytest.MonkeyPatch, everything: Any
) -> None:
    monkeypatch.setenv("MONOPOLY_DATABASE_URL", with_password(pg_backend.url))
    assert await asyncio.to_thread(cli.main, ["status"]) == 0
    text = everything()
    assert "store:   postgresql socket " in text and SECRET not in text
    assert await asyncio.to_thread(cli.main, ["status", "--json"]) == 0
    text = everything()
    report = json.loads(text.splitlines()[0])
    assert ":***@" in report["store"]["url"] and SECRET not in text


async def test_export_from_postgresql_shows_no_password(
    pg_backend: PostgresBackend, quiet_env: Path, monkeypatch: pytest.MonkeyPatch, everything: Any
) -> None:
    """No game 1 there: refused with one line, after opening the store."""
    monkeypatch.setenv("MONOPOLY_DATABASE_URL", with_password(pg_backend.url))
    assert await asyncio.to_thread(cli.main, ["export", "1"]) == 2
    text = everything()
    assert "game 1" in text and SECRET not in text


async def test_store_copy_both_ways_shows_no_password(
    pg_cluster: PgCluster, quiet_env: Path, everything: Any
) -> None:
    await _sqlite_with_a_game(quiet_env / "games.db")
    url, name = await pg_cluster.create_database(migrated=False)
    try:
        target = with_password(url)
        argv = ["store", "copy", "--from", "sqlite:///games.db", "--to", target]
        assert await asyncio.to_thread(cli.main, argv) == 0
        argv = ["store", "copy", "--from", target, "--to", "sqlite:///back.db"]
        assert await asyncio.to_thread(cli.main, argv) == 0
        # Into a database that is not empty now: refused, naming it.
        argv = ["store", "copy", "--from", "sqlite:///games.db", "--to", target]
        assert await asyncio.to_thread(cli.main, argv) == 2
        text = everything()
        assert text.count("1 games") == 2 and "is not empty" in text
        assert SECRET not in text
    finally:
        await pg_cluster.drop_database(name)


async def test_bench_on_postgresql_shows_no_password(
    pg_backend: PostgresBackend, quiet_env: Path, everything: Any
) -> None:
    tiny = ["--games", "3", "--actions", "5", "--concurrent", "1", "--seconds", "0.1"]
    argv = ["bench", "--store", "--driver", "postgresql", *tiny]
    for extra in ([], ["--json"]):
        url = with_password(pg_backend.url)
        assert await asyncio.to_thread(cli.main, [*argv, *extra, "--database-url", url]) == 0
        text = everything()
        assert "socket " in text and SECRET not in text


async def _sqlite_with_a_game(path: Path) -> None:
    """A SQLite store at ``path`` holding one lobby."""
    async with SqliteGameStore(path) as store:
        await store.create_game(1, 10, None)
