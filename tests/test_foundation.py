"""Tests for the bot process foundation: settings, .env parsing, start-up."""

from __future__ import annotations

import asyncio
import logging
from pathlib import Path

import discord
import pytest

from bot import app
from bot.app import MonopolyBot, run_bot
from bot.config import Settings, parse_dotenv
from bot.logging_setup import configure_logging

#: A token of the right shape (three base64url parts); Discord has never seen it.
TOKEN = "MTIzNDU2Nzg5MDEyMzQ1Njc4.GaBcDe.abcdefghijklmnopqrstuvwxyz0123456789AB"


async def discord_accepts(token: str, **options: object) -> None:
    """Stand in for ``check_discord``: Discord accepts the token (no network)."""
    return None


def make_settings(**overrides: object) -> Settings:
    """Settings of an unsharded bot on SQLite, with ``overrides``."""
    values: dict[str, object] = {
        "discord_token": None,
        "db_path": Path("data/monopoly.db"),
        "log_level": "INFO",
        "dev_guild_id": None,
    }
    values.update(overrides)
    return Settings(**values)  # type: ignore[arg-type]


def test_from_env_reads_values(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.chdir(tmp_path)
    settings = Settings.from_env(
        {
            "DISCORD_TOKEN": "abc.def",
            "MONOPOLY_DB_PATH": "/tmp/games.db",
            "MONOPOLY_LOG_LEVEL": "debug",
            "MONOPOLY_DEV_GUILD_ID": "123456789012345678",
        }
    )
    assert settings == Settings(
        discord_token="abc.def",
        db_path=Path("/tmp/games.db"),
        log_level="DEBUG",
        dev_guild_id=123456789012345678,
    )
    # Unset fleet settings: SQLite, one process holding every guild.
    assert settings.database_url is None
    assert settings.shard_count is None and settings.shard_ids is None
    assert settings.shard_filter is None and not settings.sharded


def test_from_env_defaults(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.chdir(tmp_path)
    settings = Settings.from_env({"DISCORD_TOKEN": "", "MONOPOLY_DEV_GUILD_ID": ""})
    assert settings.discord_token is None
    assert settings.db_path == Path("data/monopoly.db")
    assert settings.log_level == "INFO"
    assert settings.dev_guild_id is None


def test_from_env_uses_os_environ(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.chdir(tmp_path)
    monkeypatch.setenv("DISCORD_TOKEN", "from-os-environ")
    monkeypatch.delenv("MONOPOLY_DB_PATH", raising=False)
    settings = Settings.from_env()
    assert settings.discord_token == "from-os-environ"
    assert settings.db_path == Path("data/monopoly.db")


def test_from_env_rejects_bad_guild_id(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.chdir(tmp_path)
    with pytest.raises(ValueError, match="MONOPOLY_DEV_GUILD_ID"):
        Settings.from_env({"MONOPOLY_DEV_GUILD_ID": "my-server"})


def test_settings_are_frozen() -> None:
    settings = make_settings()
    with pytest.raises(AttributeError):
        settings.log_level = "DEBUG"  # type: ignore[misc]


def test_parse_dotenv_syntax() -> None:
    text = "\n".join(
        [
            "# a comment",
            "",
            "PLAIN=value",
            'DOUBLE="quoted # not a comment"',
            "SINGLE='single'",
            "export EXPORTED=yes",
            "SPACED = padded  ",
            "INLINE=value # trailing comment",
            "EMPTY=",
            "EQUALS=a=b",
            "not a pair",
        ]
    )
    assert parse_dotenv(text) == {
        "PLAIN": "value",
        "DOUBLE": "quoted # not a comment",
        "SINGLE": "single",
        "EXPORTED": "yes",
        "SPACED": "padded",
        "INLINE": "value",
        "EMPTY": "",
        "EQUALS": "a=b",
    }


def test_from_env_reads_dotenv_file(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    (tmp_path / ".env").write_text(
        "# settings for tests\n"
        'DISCORD_TOKEN="token-from-file"\n'
        "MONOPOLY_DB_PATH=games/test.db\n"
        "MONOPOLY_LOG_LEVEL='warning'\n"
        "MONOPOLY_DEV_GUILD_ID=42\n",
        encoding="utf-8",
    )
    monkeypatch.chdir(tmp_path)
    settings = Settings.from_env({})
    assert settings.discord_token == "token-from-file"
    assert settings.db_path == Path("games/test.db")
    assert settings.log_level == "WARNING"
    assert settings.dev_guild_id == 42


def test_environment_overrides_dotenv(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    (tmp_path / ".env").write_text(
        "DISCORD_TOKEN=from-file\nMONOPOLY_LOG_LEVEL=DEBUG\n", encoding="utf-8"
    )
    monkeypatch.chdir(tmp_path)
    settings = Settings.from_env({"DISCORD_TOKEN": "from-env"})
    assert settings.discord_token == "from-env"
    assert settings.log_level == "DEBUG"  # not in the environment: taken from the file


def test_env_file_can_be_skipped(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    (tmp_path / ".env").write_text("DISCORD_TOKEN=from-file\n", encoding="utf-8")
    monkeypatch.chdir(tmp_path)
    assert Settings.from_env({}, env_file=None).discord_token is None


def test_run_bot_without_token_exits_2(capsys: pytest.CaptureFixture[str]) -> None:
    assert run_bot(make_settings(discord_token=None)) == 2
    captured = capsys.readouterr()
    assert "DISCORD_TOKEN" in captured.err
    assert ".env" in captured.err
    assert "https://discord.com/developers/applications" in captured.err
    assert captured.out == ""


def test_run_bot_with_token_runs_client(monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> None:
    """With a token and a usable store, the bot runs (here: a fake ``run``); the store was
    opened once before (so a bad one stops the bot before Discord) and the heartbeat is
    the bot's to write."""
    calls: list[tuple[str, dict[str, object]]] = []
    bots: list[MonopolyBot] = []

    def fake_run(self: MonopolyBot, token: str, **kwargs: object) -> None:
        bots.append(self)
        calls.append((token, kwargs))

    monkeypatch.setattr(MonopolyBot, "run", fake_run)
    monkeypatch.setattr(app, "configure_logging", lambda level: None)
    monkeypatch.setattr(app, "check_discord", discord_accepts)
    heartbeat = tmp_path / "heartbeat"
    heartbeat.write_text("{}", encoding="utf-8")  # left by an earlier run
    settings = make_settings(
        discord_token=TOKEN, db_path=tmp_path / "games.db", heartbeat_file=heartbeat
    )
    assert run_bot(settings) == 0
    assert calls == [(TOKEN, {"log_handler": None})]
    assert (tmp_path / "games.db").exists()
    assert not heartbeat.exists()
    [bot] = bots
    assert type(bot) is MonopolyBot and bot.heartbeat_file == heartbeat


def test_monopoly_bot_constructs_offline() -> None:
    settings = make_settings(discord_token="unused")
    bot = MonopolyBot(settings)
    assert bot.settings is settings
    assert bot.intents.value == discord.Intents.default().value
    assert not bot.intents.message_content  # no privileged intents needed
    assert not bot.is_ready()


@pytest.mark.parametrize("guild_id", [None, 1234])
def test_setup_hook_syncs_command_tree(
    monkeypatch: pytest.MonkeyPatch, guild_id: int | None, tmp_path: Path
) -> None:
    """The first start syncs to the dev guild (or globally); a restart with the same
    commands does not sync again (the fingerprint of the first is in the database)."""
    synced_to: list[object] = []

    async def fake_sync(*, guild: discord.abc.Snowflake | None = None) -> list[object]:
        synced_to.append(guild)
        return []

    def start_and_stop() -> MonopolyBot:
        bot = MonopolyBot(make_settings(dev_guild_id=guild_id, db_path=tmp_path / "games.db"))
        monkeypatch.setattr(bot.tree, "sync", fake_sync)

        async def run() -> None:
            await bot.setup_hook()  # opens the store and loads the Monopoly cog
            await bot.store.close()

        asyncio.run(run())
        return bot

    bot = start_and_stop()
    assert bot.get_cog("Play") is not None and bot.get_cog("Lobby") is not None
    assert len(synced_to) == 1
    if guild_id is None:
        assert synced_to[0] is None
    else:
        assert getattr(synced_to[0], "id", None) == guild_id
    start_and_stop()
    assert len(synced_to) == 1


def test_configure_logging_accepts_unknown_level() -> None:
    configure_logging("not-a-level")  # falls back to INFO instead of raising


async def test_debug_logging_never_prints_a_running_game_s_generator(tmp_path: Path) -> None:
    """At DEBUG the SQLite driver would log every SQL parameter, the stored state with
    its dice generator among them (docs/fair-dice.md): it is kept at INFO."""
    import aiosqlite

    root = logging.getLogger()
    old_level, old_handlers = root.level, list(root.handlers)
    seen: list[str] = []

    class Keep(logging.Handler):
        def emit(self, record: logging.LogRecord) -> None:
            seen.append(record.getMessage())

    root.handlers = []
    try:
        configure_logging("DEBUG")
        root.addHandler(Keep(level=logging.DEBUG))
        async with aiosqlite.connect(tmp_path / "x.db") as db:
            await db.execute("select ?", ("rng-state-1234567",))
        assert root.level == logging.DEBUG
        assert not any("rng-state-1234567" in line for line in seen)
    finally:
        root.handlers = old_handlers
        root.setLevel(old_level)
        logging.getLogger("aiosqlite").setLevel(logging.NOTSET)
