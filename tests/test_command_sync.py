"""Slash commands are synced on demand: when they changed, when forced, by the CLI.

Nothing here talks to Discord: ``CommandTree.sync`` (or discord.py's HTTP call under it)
and ``MonopolyBot.login`` are replaced; the fingerprints live in a real SQLite file.
"""

from __future__ import annotations

import asyncio
import hashlib
import json
import logging
from datetime import timedelta
from pathlib import Path
from typing import Any

import discord
import pytest
from discord import app_commands

from bot import cli
from bot.app import BAD_TOKEN_MESSAGE, NO_TOKEN_MESSAGE, MonopolyBot
from bot.command_sync import GLOBAL_KEY, meta_key, sync_commands, tree_fingerprint
from bot.config import Settings
from bot.i18n import catalog
from bot.store import SqliteGameStore, StoreError
from cogs.core import services
from tests.store.conftest import make_state

GUILD_ID = 1234


class FakeResponse:
    """Just enough of an HTTP response for ``discord.HTTPException``."""

    status = 503
    reason = "Service Unavailable"


class SyncRecorder:
    """Stands in for ``CommandTree.sync``: records the targets, or fails if told to."""

    def __init__(self) -> None:
        self.targets: list[int | None] = []
        self.fail = False

    async def __call__(self, *, guild: discord.abc.Snowflake | None = None) -> list[object]:
        """Record one sync to ``guild`` (None: global); raise like discord.py if failing."""
        if self.fail:
            raise discord.HTTPException(FakeResponse(), "Discord is down")
        self.targets.append(None if guild is None else guild.id)
        return [object()]  # one top-level command: /monopoly


def settings_for(db_path: Path, guild_id: int | None = None) -> Settings:
    """Settings of a bot on ``db_path`` syncing to ``guild_id`` (None: globally)."""
    return Settings(discord_token=None, db_path=db_path, log_level="INFO", dev_guild_id=guild_id)


async def start(
    db_path: Path, recorder: SyncRecorder, *, sync: str = "auto", guild_id: int | None = None
) -> bool:
    """One start of the bot up to the end of ``setup_hook``, then close; True if it synced."""
    bot = MonopolyBot(settings_for(db_path, guild_id), sync=sync)
    bot.tree.sync = recorder  # type: ignore[method-assign]
    before = len(recorder.targets)
    try:
        await bot.setup_hook()
    finally:
        await bot.close()
    return len(recorder.targets) > before


async def stored(db_path: Path, key: str) -> str | None:
    """The record under ``key`` in the database file."""
    async with SqliteGameStore(db_path) as store:
        return await store.meta(key)


# -- starts of the bot -------------------------------------------------------------------------


async def test_the_first_start_syncs_and_an_unchanged_second_does_not(tmp_path: Path) -> None:
    """Auto: the first start syncs and stores the fingerprint; the same commands again don't."""
    db_path, recorder = tmp_path / "games.db", SyncRecorder()
    assert await start(db_path, recorder)
    fingerprint = await stored(db_path, GLOBAL_KEY)
    assert fingerprint is not None and len(fingerprint) == 64
    assert not await start(db_path, recorder)
    assert recorder.targets == [None]
    assert await stored(db_path, GLOBAL_KEY) == fingerprint


async def test_a_changed_description_syncs_again(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """A new English description of ``/monopoly`` changes the fingerprint: one more sync."""
    db_path, recorder = tmp_path / "games.db", SyncRecorder()
    assert await start(db_path, recorder)
    first = await stored(db_path, GLOBAL_KEY)
    monkeypatch.setattr(services, "GROUP_DESCRIPTION", "MONOPOLY, now with a new description.")
    assert await start(db_path, recorder)
    assert await stored(db_path, GLOBAL_KEY) != first
    assert not await start(db_path, recorder)  # and then it is the synced state
    assert recorder.targets == [None, None]


async def test_a_changed_german_text_syncs_again(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """A German catalog text the translator hands out changes the fingerprint, too."""
    db_path, recorder = tmp_path / "games.db", SyncRecorder()
    assert await start(db_path, recorder)
    key = "cmd.monopoly board.description"
    assert key in catalog("de")
    monkeypatch.setitem(catalog("de"), key, "Das Spielbrett zeigen, frisch gezeichnet")
    assert await start(db_path, recorder)
    assert not await start(db_path, recorder)
    monkeypatch.undo()  # back to the old text: that is a change again
    assert await start(db_path, recorder)
    assert len(recorder.targets) == 3


async def test_force_always_syncs_and_off_never(tmp_path: Path) -> None:
    """``force`` syncs on every start; ``off`` never syncs and stores nothing."""
    db_path, recorder = tmp_path / "games.db", SyncRecorder()
    assert not await start(db_path, recorder, sync="off")
    assert await stored(db_path, GLOBAL_KEY) is None
    assert await start(db_path, recorder, sync="force")
    assert await start(db_path, recorder, sync="force")
    assert not await start(db_path, recorder, sync="off")
    assert not await start(db_path, recorder, sync="auto")  # the forced one stored it
    assert recorder.targets == [None, None]


async def test_an_off_start_leaves_auto_to_sync_later(tmp_path: Path) -> None:
    """Starts with sync off store nothing, so the next auto start still syncs."""
    db_path, recorder = tmp_path / "games.db", SyncRecorder()
    assert not await start(db_path, recorder, sync="off")
    assert await start(db_path, recorder)


async def test_a_failed_sync_stores_nothing_and_the_next_start_tries_again(
    tmp_path: Path, caplog: pytest.LogCaptureFixture
) -> None:
    """Discord refusing the sync is logged, the bot starts anyway, nothing is stored."""
    db_path, recorder = tmp_path / "games.db", SyncRecorder()
    recorder.fail = True
    with caplog.at_level(logging.ERROR, logger="bot.app"):
        assert not await start(db_path, recorder)
    assert any("Syncing the application commands failed" in r.message for r in caplog.records)
    assert await stored(db_path, GLOBAL_KEY) is None
    recorder.fail = False
    assert await start(db_path, recorder)
    assert await stored(db_path, GLOBAL_KEY) is not None


async def test_a_changed_command_after_a_failed_sync_keeps_the_old_fingerprint(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """A failed sync of changed commands leaves the last synced fingerprint in place."""
    db_path, recorder = tmp_path / "games.db", SyncRecorder()
    assert await start(db_path, recorder)
    first = await stored(db_path, GLOBAL_KEY)
    monkeypatch.setattr(services, "GROUP_DESCRIPTION", "Changed while Discord was down.")
    recorder.fail = True
    assert not await start(db_path, recorder)
    assert await stored(db_path, GLOBAL_KEY) == first
    recorder.fail = False
    assert await start(db_path, recorder)


async def test_the_guild_and_global_targets_are_kept_apart(tmp_path: Path) -> None:
    """A dev guild's sync copies the global commands to it and has its own record."""
    db_path, recorder = tmp_path / "games.db", SyncRecorder()
    assert await start(db_path, recorder, guild_id=GUILD_ID)
    assert not await start(db_path, recorder, guild_id=GUILD_ID)
    assert await stored(db_path, meta_key(GUILD_ID)) is not None
    assert await stored(db_path, GLOBAL_KEY) is None
    assert await start(db_path, recorder)  # the global target was never synced
    assert await start(db_path, recorder, guild_id=GUILD_ID + 1)
    assert recorder.targets == [GUILD_ID, None, GUILD_ID + 1]
    assert meta_key(GUILD_ID) == f"commands:guild:{GUILD_ID}"


def test_an_unknown_sync_mode_is_refused(tmp_path: Path) -> None:
    """A typo in the sync option fails at construction, not silently at start."""
    with pytest.raises(ValueError, match="sync must be one of"):
        MonopolyBot(settings_for(tmp_path / "games.db"), sync="sometimes")


# -- the fingerprint ---------------------------------------------------------------------------


class DictTranslator(app_commands.Translator):
    """German texts from a dict (English source text -> German)."""

    def __init__(self, german: dict[str, str]) -> None:
        self.german = german

    async def translate(
        self,
        string: app_commands.locale_str,
        locale: discord.Locale,
        context: app_commands.TranslationContext,
    ) -> str | None:
        """The German text of ``string`` for German clients; None otherwise."""
        if locale is not discord.Locale.german:
            return None
        return self.german.get(string.message)


BASE_SPEC: dict[str, Any] = {
    "name": "roll",
    "description": "Roll the dice",
    "option": "times",
    "option_description": "How often",
    "choice": "twice",
    "permissions": None,
    "german": {"Roll the dice": "Würfeln", "roll": "wuerfeln"},
}


async def small_tree(**changes: Any) -> app_commands.CommandTree[discord.Client]:
    """A tree with one command ``/roll times:`` (one choice), varied by ``changes``."""
    spec = BASE_SPEC | changes
    tree = app_commands.CommandTree(discord.Client(intents=discord.Intents.none()))

    @app_commands.rename(times=spec["option"])
    @app_commands.describe(times=spec["option_description"])
    @app_commands.choices(times=[app_commands.Choice(name=spec["choice"], value=2)])
    async def roll(interaction: discord.Interaction, times: int) -> None:
        """Unused: only the command's shape matters here."""

    command = app_commands.Command(
        name=spec["name"], description=spec["description"], callback=roll
    )
    if spec["permissions"] is not None:
        command.default_permissions = discord.Permissions(**spec["permissions"])
    tree.add_command(command)
    await tree.set_translator(DictTranslator(spec["german"]))
    return tree


@pytest.mark.parametrize(
    "change",
    [
        {"name": "throw"},
        {"description": "Throw the dice"},
        {"option": "count"},
        {"option_description": "How many times"},
        {"choice": "three times"},
        {"permissions": {"manage_guild": True}},
        {"german": {"Roll the dice": "Die Würfel werfen", "roll": "wuerfeln"}},
        {"german": {"Roll the dice": "Würfeln"}},
    ],
)
async def test_every_part_of_a_command_is_in_the_fingerprint(change: dict[str, Any]) -> None:
    """Names, descriptions, options, choices, permissions and German texts all count."""
    same = await tree_fingerprint(await small_tree(), None)
    assert await tree_fingerprint(await small_tree(), None) == same  # stable
    assert await tree_fingerprint(await small_tree(**change), None) != same


@pytest.mark.parametrize("guild_id", [None, GUILD_ID])
async def test_the_fingerprint_hashes_exactly_what_a_sync_sends(
    guild_id: int | None, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The hash is SHA-256 of the canonical JSON of the payload ``tree.sync`` sends."""
    tree = await small_tree()
    guild = None if guild_id is None else discord.Object(id=guild_id)
    if guild is not None:
        tree.copy_global_to(guild=guild)
    sent: list[Any] = []

    async def capture(*args: Any, payload: Any) -> list[Any]:
        sent.append(payload)
        return []

    http = tree.client.http
    monkeypatch.setattr(http, "bulk_upsert_global_commands", capture)
    monkeypatch.setattr(http, "bulk_upsert_guild_commands", capture)
    tree.client._connection.application_id = 42  # what login would set
    await tree.sync(guild=guild)
    [payload] = sent
    assert payload[0]["name_localizations"] == {"de": "wuerfeln"}
    canonical = json.dumps(payload, sort_keys=True, separators=(",", ":"), ensure_ascii=False)
    expected = hashlib.sha256(canonical.encode("utf-8")).hexdigest()
    assert await tree_fingerprint(tree, guild) == expected


async def test_sync_commands_reports_whether_it_synced(tmp_path: Path) -> None:
    """``sync_commands`` on its own: True when it synced, False when nothing changed."""

    class Bot:
        """Just the tree and the store, as sync_commands needs them."""

        def __init__(self, tree: app_commands.CommandTree[Any], store: SqliteGameStore) -> None:
            self.tree, self.store = tree, store

    recorder = SyncRecorder()
    async with SqliteGameStore(tmp_path / "games.db") as store:
        tree = await small_tree()
        tree.sync = recorder  # type: ignore[method-assign]
        bot = Bot(tree, store)
        assert await sync_commands(bot, guild_id=None, force=False)
        assert not await sync_commands(bot, guild_id=None, force=False)
        assert await sync_commands(bot, guild_id=None, force=True)
        assert await sync_commands(bot, guild_id=GUILD_ID, force=False)
        assert [c.name for c in tree.get_commands(guild=discord.Object(id=GUILD_ID))] == ["roll"]
    assert recorder.targets == [None, None, GUILD_ID]


# -- monopoly-bot sync ---------------------------------------------------------------------


@pytest.fixture
def cli_env(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    """A directory without .env, a database path, and no Discord settings; the DB path."""
    monkeypatch.chdir(tmp_path)
    for name in ("DISCORD_TOKEN", "MONOPOLY_DEV_GUILD_ID", "MONOPOLY_LOG_LEVEL"):
        monkeypatch.delenv(name, raising=False)
    db_path = tmp_path / "data" / "games.db"
    monkeypatch.setenv("MONOPOLY_DB_PATH", str(db_path))
    monkeypatch.setattr("bot.logging_setup.configure_logging", lambda level: None)
    return db_path


class FakeLogin:
    """Stands in for ``MonopolyBot.login``: no network, but runs ``setup_hook`` like it."""

    def __init__(self, *, reject: bool = False) -> None:
        self.reject = reject
        self.bots: list[MonopolyBot] = []
        self.tokens: list[str] = []

    async def __call__(self, bot: MonopolyBot, token: str) -> None:
        """Log ``bot`` in with ``token`` (or refuse it), then run its setup."""
        self.bots.append(bot)
        self.tokens.append(token)
        if self.reject:
            raise discord.LoginFailure("Improper token has been passed.")
        await bot.setup_hook()


def patch_cli(monkeypatch: pytest.MonkeyPatch, login: FakeLogin) -> SyncRecorder:
    """Replace the login and every tree's sync; the recorder of the syncs."""
    recorder = SyncRecorder()

    # Plain functions, so that the class attributes bind like the methods they replace.
    async def sync(tree: Any, *, guild: discord.abc.Snowflake | None = None) -> list[object]:
        return await recorder(guild=guild)

    async def fake_login(bot: MonopolyBot, token: str) -> None:
        await login(bot, token)

    monkeypatch.setattr(MonopolyBot, "login", fake_login)
    monkeypatch.setattr(app_commands.CommandTree, "sync", sync)
    return recorder


def test_cli_sync_without_a_token_exits_2(
    cli_env: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """No DISCORD_TOKEN: the same hint as ``run``, exit 2, nothing touched."""
    assert cli.main(["sync"]) == 2
    captured = capsys.readouterr()
    assert captured.err == NO_TOKEN_MESSAGE and captured.out == ""
    assert not cli_env.exists()


def test_cli_sync_forces_a_sync_every_time(
    cli_env: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    """``sync --guild`` syncs to that guild even when nothing changed; one line out."""
    monkeypatch.setenv("DISCORD_TOKEN", "secret-token")
    login = FakeLogin()
    recorder = patch_cli(monkeypatch, login)
    for _ in range(2):
        assert cli.main(["sync", "--guild", str(GUILD_ID)]) == 0
        assert capsys.readouterr().out == (
            f"monopoly-bot: synced 1 application command(s) to guild {GUILD_ID}\n"
        )
    assert recorder.targets == [GUILD_ID, GUILD_ID]
    assert login.tokens == ["secret-token", "secret-token"]
    assert asyncio.run(stored(cli_env, meta_key(GUILD_ID))) is not None
    assert asyncio.run(stored(cli_env, GLOBAL_KEY)) is None
    for bot in login.bots:  # closed afterwards: the client and its store
        assert bot.is_closed()
        with pytest.raises(StoreError):
            asyncio.run(bot.store.meta("x"))


def test_cli_sync_globally_matches_what_the_bot_would_sync(
    cli_env: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    """After ``sync`` (global), an auto start with the same commands does not sync again;
    and the CLI leaves the games' timers alone."""
    monkeypatch.setenv("DISCORD_TOKEN", "secret-token")
    recorder = patch_cli(monkeypatch, FakeLogin())

    async def game_with_a_due_timer() -> int:
        async with SqliteGameStore(cli_env) as store:
            game = await store.create_game(1, 10, make_state())
            await store.add_timer(game.id, "reminder", discord.utils.utcnow() - timedelta(hours=1))
            return game.id

    game_id = asyncio.run(game_with_a_due_timer())
    assert cli.main(["sync"]) == 0
    assert capsys.readouterr().out == "monopoly-bot: synced 1 application command(s) globally\n"
    assert recorder.targets == [None]
    assert not asyncio.run(start(cli_env, recorder))

    async def timers() -> list[Any]:
        async with SqliteGameStore(cli_env) as store:
            return await store.pending_timers(game_id)

    [timer] = asyncio.run(timers())
    assert timer.attempts == 0  # the sync process did not fire the due timer


def test_cli_sync_with_a_rejected_token_exits_1(
    cli_env: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    """Discord refuses the token: the same hint as ``run``, exit 1, the bot closed."""
    monkeypatch.setenv("DISCORD_TOKEN", "wrong")
    login = FakeLogin(reject=True)
    recorder = patch_cli(monkeypatch, login)
    assert cli.main(["sync"]) == 1
    captured = capsys.readouterr()
    assert captured.err == BAD_TOKEN_MESSAGE and captured.out == ""
    assert recorder.targets == []
    [bot] = login.bots
    assert bot.is_closed()


def test_cli_sync_refused_by_discord_exits_1(
    cli_env: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    """A sync Discord refuses: exit 1 with the error, and no fingerprint stored."""
    monkeypatch.setenv("DISCORD_TOKEN", "secret-token")
    recorder = patch_cli(monkeypatch, FakeLogin())
    recorder.fail = True
    assert cli.main(["sync"]) == 1
    captured = capsys.readouterr()
    assert "Discord refused the sync" in captured.err and captured.out == ""
    assert asyncio.run(stored(cli_env, GLOBAL_KEY)) is None


def test_cli_sync_refuses_a_bad_guild_id(capsys: pytest.CaptureFixture[str]) -> None:
    """``--guild`` takes a positive number (argparse exits with 2)."""
    with pytest.raises(SystemExit) as exit_info:
        cli.main(["sync", "--guild", "my-server"])
    assert exit_info.value.code == 2
    assert "not a server (guild) ID" in capsys.readouterr().err
