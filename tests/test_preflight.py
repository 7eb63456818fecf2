"""What ``monopoly-bot run`` checks before the gateway, and in which order (issue 23): the
token's shape, the store setting, a login over HTTP (Discord unreachable: one line, exit
code 1, nothing touched), then the store; every failure is one line, without a traceback
after it (aiosqlite's worker thread and the HTTP session end before the event loop does).

Nothing here reaches Discord: its address is a local port that refuses connections, or a
small aiohttp server playing ``GET /users/@me``.
"""

from __future__ import annotations

import asyncio
import os
import socket
import subprocess
import sys
import textwrap
import threading
from collections.abc import AsyncIterator, Iterator
from pathlib import Path
from typing import Any

import aiohttp
import discord
import pytest
from aiohttp import web

from bot import app
from bot.aiosqlite_threads import WORKER_NAME
from bot.app import BAD_TOKEN_MESSAGE, MonopolyBot, check_discord, preflight, run_bot
from bot.config import Settings

ROOT = Path(__file__).resolve().parents[1]
#: A token of the right shape; Discord has never seen it.
TOKEN = "MTIzNDU2Nzg5MDEyMzQ1Njc4.GaBcDe.abcdefghijklmnopqrstuvwxyz0123456789AB"
#: A bot user as Discord's ``GET /users/@me`` returns it.
ME = {"id": "123456789012345678", "username": "monopoly", "discriminator": "0", "bot": True}


def settings(tmp_path: Path, **overrides: Any) -> Settings:
    """Settings with a well-shaped token and a store in ``tmp_path/data`` (not made yet)."""
    values: dict[str, Any] = {
        "discord_token": TOKEN,
        "db_path": tmp_path / "data" / "games.db",
        "log_level": "INFO",
        "dev_guild_id": None,
        "heartbeat_file": tmp_path / "heartbeat",
    }
    values.update(overrides)
    return Settings(**values)


@pytest.fixture
def refused_port() -> Iterator[int]:
    """A local TCP port that refuses connections: bound, never listening, held by the test."""
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        yield sock.getsockname()[1]


@pytest.fixture
def offline(monkeypatch: pytest.MonkeyPatch) -> list[str]:
    """No logging set up by run, and a gateway ``run`` that records the token if reached."""
    monkeypatch.setattr(app, "configure_logging", lambda level: None)
    ran: list[str] = []

    def fake_run(self: MonopolyBot, token: str, **options: Any) -> None:
        ran.append(token)

    monkeypatch.setattr(MonopolyBot, "run", fake_run)
    return ran


async def discord_accepts(token: str, **options: Any) -> None:
    """Stand in for ``check_discord``: Discord accepts the token."""


# -- the order of the checks -----------------------------------------------------------------


def test_a_wrong_token_shape_stops_run_before_discord_and_the_store(
    offline: list[str],
    tmp_path: Path,
    monkeypatch: pytest.MonkeyPatch,
    capsys: pytest.CaptureFixture[str],
) -> None:
    asked: list[str] = []

    async def record(token: str, **options: Any) -> None:
        asked.append(token)

    monkeypatch.setattr(app, "check_discord", record)
    assert run_bot(settings(tmp_path, discord_token=f"Bot {TOKEN}")) == 2
    err = capsys.readouterr().err
    assert err.startswith("monopoly-bot: DISCORD_TOKEN does not look like a bot token")
    assert err.count("\n") == 1 and TOKEN not in err
    assert asked == [] and offline == [] and not (tmp_path / "data").exists()


def test_discord_unreachable_stops_run_with_one_line_before_the_store(
    offline: list[str],
    tmp_path: Path,
    monkeypatch: pytest.MonkeyPatch,
    capsys: pytest.CaptureFixture[str],
    refused_port: int,
) -> None:
    """The real login (discord.py's HTTP client) against a port that refuses: exit code 1
    (a container restarts the bot), one line, and the store was neither created nor
    migrated."""
    monkeypatch.setattr(discord.http.Route, "BASE", f"http://127.0.0.1:{refused_port}/api/v10")
    assert run_bot(settings(tmp_path)) == 1
    captured = capsys.readouterr()
    assert captured.err.startswith("monopoly-bot: cannot reach Discord: ClientConnectorError")
    assert captured.err.count("\n") == 1 and "exiting with code 1" in captured.err
    assert captured.out == "" and offline == []
    assert not (tmp_path / "data").exists()


def test_a_store_setting_is_checked_before_discord_without_touching_the_store(
    offline: list[str],
    tmp_path: Path,
    monkeypatch: pytest.MonkeyPatch,
    capsys: pytest.CaptureFixture[str],
) -> None:
    """A wrong MONOPOLY_DATABASE_URL scheme needs no login to be found."""
    asked: list[str] = []

    async def record(token: str, **options: Any) -> None:
        asked.append(token)

    monkeypatch.setattr(app, "check_discord", record)
    got = settings(tmp_path, database_url="mysql://bot:hunter2@db/monopoly")
    assert run_bot(got) == 2
    err = capsys.readouterr().err
    assert "MONOPOLY_DATABASE_URL" in err and err.count("\n") == 1 and "hunter2" not in err
    assert asked == [] and offline == []


def test_the_store_is_opened_only_after_discord_said_yes(
    offline: list[str], tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    order: list[str] = []

    async def discord_says_no(token: str, **options: Any) -> str:
        order.append("discord")
        return BAD_TOKEN_MESSAGE

    async def store_checked(settings: Settings) -> None:
        order.append("store")

    monkeypatch.setattr(app, "check_discord", discord_says_no)
    monkeypatch.setattr(app, "check_store", store_checked)
    assert run_bot(settings(tmp_path)) == 1
    assert order == ["discord"]
    monkeypatch.setattr(app, "check_discord", discord_accepts)
    assert run_bot(settings(tmp_path)) == 0
    assert order == ["discord", "store"] and offline == [TOKEN]


@pytest.mark.parametrize(
    "error",
    [
        aiohttp.ClientConnectionError("Connection reset by peer"),
        TimeoutError(),
    ],
    ids=["connection", "timeout"],
)
def test_discord_gone_between_the_check_and_the_gateway_is_one_line_too(
    tmp_path: Path,
    monkeypatch: pytest.MonkeyPatch,
    capsys: pytest.CaptureFixture[str],
    error: BaseException,
) -> None:
    monkeypatch.setattr(app, "configure_logging", lambda level: None)
    monkeypatch.setattr(app, "check_discord", discord_accepts)

    def lost(self: MonopolyBot, token: str, **options: Any) -> None:
        raise error

    monkeypatch.setattr(MonopolyBot, "run", lost)
    assert run_bot(settings(tmp_path)) == 1
    err = capsys.readouterr().err
    assert err.startswith("monopoly-bot: cannot reach Discord: ") and err.count("\n") == 1


# -- the login over HTTP ---------------------------------------------------------------------


@pytest.fixture
async def fake_discord(monkeypatch: pytest.MonkeyPatch) -> AsyncIterator[dict[str, Any]]:
    """A local server answering ``GET /api/v10/users/@me`` as ``answer`` says: ``status``
    (200 with :data:`ME`), after ``delay`` seconds; discord.py's routes point to it."""
    answer: dict[str, Any] = {"status": 200, "delay": 0.0, "seen": []}

    async def users_me(request: web.Request) -> web.Response:
        answer["seen"].append(request.headers.get("Authorization"))
        await asyncio.sleep(answer["delay"])
        if answer["status"] == 200:
            return web.json_response(ME)
        body = {"message": "nope", "code": 0}
        return web.json_response(body, status=answer["status"])

    server = web.Application()
    server.router.add_get("/api/v10/users/@me", users_me)
    runner = web.AppRunner(server)
    await runner.setup()
    site = web.TCPSite(runner, "127.0.0.1", 0)
    await site.start()
    port = runner.addresses[0][1]
    monkeypatch.setattr(discord.http.Route, "BASE", f"http://127.0.0.1:{port}/api/v10")
    try:
        yield answer
    finally:
        await runner.cleanup()


async def test_check_discord_accepts_a_token_discord_accepts(fake_discord: dict[str, Any]) -> None:
    assert await check_discord(TOKEN) is None
    assert fake_discord["seen"] == [f"Bot {TOKEN}"]


async def test_a_rejected_token_is_the_usual_hint(fake_discord: dict[str, Any]) -> None:
    fake_discord["status"] = 401
    assert await check_discord(TOKEN) == BAD_TOKEN_MESSAGE


async def test_a_discord_outage_is_one_line(fake_discord: dict[str, Any]) -> None:
    """503 is not one of the statuses discord.py retries, so this is quick."""
    fake_discord["status"] = 503
    line = await check_discord(TOKEN)
    assert line is not None and line.count("\n") == 1
    assert line.startswith("monopoly-bot: cannot reach Discord: Discord answered HTTP 503")


async def test_another_refusal_is_one_line(fake_discord: dict[str, Any]) -> None:
    fake_discord["status"] = 403
    line = await check_discord(TOKEN)
    assert line is not None and line.count("\n") == 1
    assert line.startswith("monopoly-bot: Discord refused the login: HTTP 403")


async def test_no_answer_in_time_is_one_line(fake_discord: dict[str, Any]) -> None:
    fake_discord["delay"] = 5.0
    line = await check_discord(TOKEN, timeout=0.2)
    assert line == (
        "monopoly-bot: cannot reach Discord: no answer from Discord within 0.2 s; nothing was "
        "changed, exiting with code 1 (start again later)\n"
    )


async def test_check_discord_closes_its_session(
    fake_discord: dict[str, Any], monkeypatch: pytest.MonkeyPatch
) -> None:
    """Every way out closes the HTTP session (no "Unclosed client session" afterwards)."""
    closed: list[bool] = []
    close = discord.http.HTTPClient.close

    async def counting_close(self: discord.http.HTTPClient) -> None:
        await close(self)
        closed.append(True)

    monkeypatch.setattr(discord.http.HTTPClient, "close", counting_close)
    for status in (200, 401, 503):
        fake_discord["status"] = status
        await check_discord(TOKEN)
    assert closed == [True, True, True]


# -- no traceback after the line -------------------------------------------------------------


def _aiosqlite_workers() -> list[threading.Thread]:
    return [t for t in threading.enumerate() if t.name.endswith(WORKER_NAME) and t.is_alive()]


def test_a_file_that_cannot_be_opened_leaves_no_thread_to_die_after_the_loop(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The cause of the 24-line "Event loop is closed" traceback: aiosqlite's worker
    thread of a connection that failed to open outlived ``asyncio.run``. The preflight
    waits for it, so when ``asyncio.run`` returns it has ended, without an exception."""
    monkeypatch.setattr(app, "check_discord", discord_accepts)
    died: list[BaseException | None] = []
    monkeypatch.setattr(threading, "excepthook", lambda args: died.append(args.exc_value))
    folder = tmp_path / "a-folder.db"
    folder.mkdir()  # a directory: sqlite3 cannot open it
    for _ in range(10):
        stop = asyncio.run(preflight(settings(tmp_path, db_path=folder), TOKEN))
        assert stop is not None and stop[0] == 2 and "cannot open the database" in stop[1]
        assert _aiosqlite_workers() == []
    assert died == []


# -- the whole command, as a process ---------------------------------------------------------


def run_command(
    tmp_path: Path, env: dict[str, str], *, code: str | None = None, args: tuple[str, ...] = ()
) -> subprocess.CompletedProcess[str]:
    """``python -m bot run`` (or ``code``) in ``tmp_path`` (no .env there) with ``env`` and no
    other bot setting."""
    base = {
        key: value
        for key, value in os.environ.items()
        if not key.startswith(("MONOPOLY_", "DISCORD_"))
    }
    base.update(PYTHONPATH=str(ROOT), MONOPOLY_HEARTBEAT_FILE=str(tmp_path / "heartbeat"))
    argv = [sys.executable, "-c", code, *args] if code else [sys.executable, "-m", "bot", "run"]
    return subprocess.run(
        argv, cwd=tmp_path, env=base | env, capture_output=True, text=True, timeout=120
    )


#: Runs ``monopoly-bot run`` with discord.py's routes pointed at ``sys.argv[1]``, or with a
#: login that Discord accepts if that is ``accept``.
PATCHED_RUN = textwrap.dedent(
    """
    import sys
    import discord.http
    import bot.app

    if sys.argv[1] == "accept":
        async def accept(token, **options):
            return None
        bot.app.check_discord = accept
    else:
        discord.http.Route.BASE = sys.argv[1]
    from bot.cli import main
    raise SystemExit(main(["run"]))
    """
)


def test_run_with_a_url_in_db_path_is_one_line_without_the_password(tmp_path: Path) -> None:
    done = run_command(
        tmp_path,
        {"DISCORD_TOKEN": TOKEN, "MONOPOLY_DB_PATH": "postgresql://bot:s3cr3t-pw@db/monopoly"},
    )
    assert done.returncode == 2, done.stderr
    assert done.stderr.count("\n") == 1 and done.stdout == ""
    assert "MONOPOLY_DATABASE_URL" in done.stderr and "s3cr3t-pw" not in done.stderr
    assert list(tmp_path.iterdir()) == []  # no file named after the URL


def test_run_without_discord_is_one_line_and_exit_code_1(tmp_path: Path, refused_port: int) -> None:
    done = run_command(
        tmp_path,
        {"DISCORD_TOKEN": TOKEN},
        code=PATCHED_RUN,
        args=(f"http://127.0.0.1:{refused_port}/api/v10",),
    )
    assert done.returncode == 1, done.stderr
    assert done.stderr.startswith("monopoly-bot: cannot reach Discord: ")
    assert done.stderr.count("\n") == 1 and "Traceback" not in done.stderr
    assert not (tmp_path / "data").exists()


def test_run_on_a_file_that_cannot_be_opened_ends_with_exactly_one_line(tmp_path: Path) -> None:
    """The race that added the traceback was rare: a few runs, each exactly one line."""
    (tmp_path / "games.db").mkdir()
    for _ in range(3):
        done = run_command(
            tmp_path,
            {"DISCORD_TOKEN": TOKEN, "MONOPOLY_DB_PATH": "games.db"},
            code=PATCHED_RUN,
            args=("accept",),
        )
        assert done.returncode == 2, done.stderr
        assert done.stderr == (
            "monopoly-bot: MONOPOLY_DB_PATH (games.db): cannot open the database: unable to "
            "open database file\n"
        )
