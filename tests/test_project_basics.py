"""An open-source project's basics (issue 23): the licence, the version, the changelog,
dependency ranges, quiet starts without voice warnings, the invite link with exactly the
permissions the bot checks, and the operator's docs that must agree with the code."""

from __future__ import annotations

import json
import logging
import re
import subprocess
import sys
import tomllib
from importlib import metadata
from pathlib import Path

import discord
import pytest
from packaging.requirements import Requirement

from bot import cli
from bot.cli.invite import invite_url
from bot.config import parse_dotenv
from bot.logging_setup import VOICE_WARNINGS, configure_logging
from bot.permissions import (
    CHANNEL_PERMISSIONS,
    INVITE_PERMISSIONS,
    THREAD_PERMISSIONS,
    permissions_value,
)
from bot.version import DISTRIBUTION, bot_version
from tests.test_containers import last, stages

ROOT = Path(__file__).resolve().parents[1]
PYPROJECT = tomllib.loads((ROOT / "pyproject.toml").read_text(encoding="utf-8"))
README = (ROOT / "README.md").read_text(encoding="utf-8")
TOKEN = "MTIzNDU2Nzg5MDEyMzQ1Njc4.GaBcDe.abcdefghijklmnopqrstuvwxyz0123456789AB"
#: The permission integer of the invite link, as the docs print it.
PERMISSIONS = 309237763072


# -- licence, metadata, dependencies ---------------------------------------------------------


def test_the_licence_is_mit_and_the_metadata_says_so() -> None:
    text = (ROOT / "LICENSE").read_text(encoding="utf-8")
    assert text.startswith("MIT License\n")
    assert "Copyright (c) 2026 The monopoly-discord-bot contributors" in text
    project = PYPROJECT["project"]
    assert project["license"] == "MIT" and project["license-files"] == ["LICENSE"]
    # An SPDX expression and a "License ::" classifier together are refused by setuptools.
    assert not any(c.startswith("License ::") for c in project["classifiers"])
    build = [Requirement(text) for text in PYPROJECT["build-system"]["requires"]]
    setuptools = next(r for r in build if r.name == "setuptools")
    assert not setuptools.specifier.contains("76.9") and setuptools.specifier.contains("77")


def test_the_image_build_copies_the_licence() -> None:
    """The wheel carries LICENSE (license-files): the build context must hold it."""
    dockerfile = (ROOT / "Dockerfile").read_text(encoding="utf-8")
    build_stage = stages(dockerfile)[0]
    copied = " ".join(args for keyword, args in build_stage if keyword == "COPY").split()
    assert "LICENSE" in copied


def requirements() -> list[Requirement]:
    project = PYPROJECT["project"]
    texts = project["dependencies"] + [
        text for extra in project["optional-dependencies"].values() for text in extra
    ]
    return [Requirement(text) for text in texts]


@pytest.mark.parametrize("requirement", requirements(), ids=lambda r: r.name)
def test_every_dependency_has_a_range_that_holds_what_is_installed(
    requirement: Requirement,
) -> None:
    """An upper bound on each (a new major version may break the bot), except tzdata (data),
    and the versions installed here (the tested ones) are inside the range."""
    operators = {spec.operator for spec in requirement.specifier}
    assert ">=" in operators, requirement
    if requirement.name != "tzdata":
        assert "<" in operators, f"{requirement}: no upper bound"
    installed = metadata.version(requirement.name)
    assert requirement.specifier.contains(installed, prereleases=True), (requirement, installed)


def test_discord_py_3_would_not_be_installed() -> None:
    [discord_py] = [r for r in requirements() if r.name == "discord.py"]
    assert not discord_py.specifier.contains("3.0.0")


# -- the version -----------------------------------------------------------------------------


def test_version_prints_the_package_version(capsys: pytest.CaptureFixture[str]) -> None:
    with pytest.raises(SystemExit) as done:
        cli.main(["--version"])
    assert done.value.code == 0
    assert capsys.readouterr().out == f"monopoly-bot {bot_version()}\n"
    assert bot_version() == metadata.version(DISTRIBUTION)


def test_version_without_an_installed_package_is_pyproject_s(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    def not_installed(name: str) -> str:
        raise metadata.PackageNotFoundError(name)

    monkeypatch.setattr(metadata, "version", not_installed)
    assert bot_version() == PYPROJECT["project"]["version"]


def test_the_console_script_prints_its_version() -> None:
    script = Path(sys.executable).with_name("monopoly-bot")
    argv = [str(script)] if script.exists() else [sys.executable, "-m", "bot"]
    done = subprocess.run(
        [*argv, "--version"], capture_output=True, text=True, timeout=60, cwd=ROOT
    )
    assert done.returncode == 0, done.stderr
    assert re.fullmatch(r"monopoly-bot \d+\.\d+\.\d+\S*\n", done.stdout), done.stdout


def test_the_changelog_keeps_a_changelog() -> None:
    text = (ROOT / "CHANGELOG.md").read_text(encoding="utf-8")
    assert text.startswith("# Changelog\n") and "keepachangelog.com" in text
    versions = re.findall(r"^## \[([^\]]+)\]", text, re.MULTILINE)
    assert versions[0] == "Unreleased"
    assert PYPROJECT["project"]["version"] in versions


# -- voice warnings --------------------------------------------------------------------------


def test_the_voice_warnings_are_silenced_and_nothing_else(
    caplog: pytest.LogCaptureFixture, monkeypatch: pytest.MonkeyPatch
) -> None:
    """discord.py warns at the creation of a client that PyNaCl and davey are missing:
    both warnings are dropped; other warnings of that logger still show."""
    from discord.voice_client import VoiceClient

    configure_logging("INFO")
    configure_logging("INFO")  # twice (as tests do): still one filter
    voice = logging.getLogger("discord.client")
    assert len(voice.filters) == len({type(f) for f in voice.filters})
    monkeypatch.setattr(VoiceClient, "warn_nacl", True)
    monkeypatch.setattr(VoiceClient, "warn_dave", True)
    with caplog.at_level(logging.DEBUG):
        discord.Client(intents=discord.Intents.none())
        voice.warning("something else")
    messages = [record.getMessage() for record in caplog.records]
    assert not any("voice will NOT be supported" in message for message in messages), messages
    assert "something else" in messages
    assert {
        "PyNaCl is not installed, voice will NOT be supported",
        "davey is not installed, voice will NOT be supported",
    } == VOICE_WARNINGS


# -- the invite link -------------------------------------------------------------------------


def test_the_invite_asks_for_exactly_the_permissions_the_bot_checks() -> None:
    """One list (bot/permissions.py) for /monopoly start, the publisher and the link."""
    from cogs import lobby
    from cogs.core import publisher

    assert lobby.CHANNEL_PERMISSIONS is CHANNEL_PERMISSIONS
    assert lobby.THREAD_PERMISSIONS is THREAD_PERMISSIONS
    assert publisher.NEEDED is CHANNEL_PERMISSIONS
    assert set(INVITE_PERMISSIONS) == set(CHANNEL_PERMISSIONS) | set(THREAD_PERMISSIONS)
    # One bit per permission, nothing more: the sum of the single permissions' values.
    singles = [discord.Permissions(**{name: True}).value for name in INVITE_PERMISSIONS]
    assert len(set(singles)) == len(singles)
    assert permissions_value(INVITE_PERMISSIONS) == sum(singles)
    assert permissions_value(INVITE_PERMISSIONS) == PERMISSIONS


def test_every_permission_has_a_name_in_both_languages() -> None:
    for lang in ("de", "en"):
        texts = json.loads((ROOT / "bot" / "locales" / f"{lang}.json").read_text("utf-8"))
        for name in INVITE_PERMISSIONS:
            assert f"permission.{name}" in texts, (lang, name)


def test_invite_with_a_client_id(capsys: pytest.CaptureFixture[str]) -> None:
    assert cli.main(["invite", "--client-id", "987654321098765432"]) == 0
    assert capsys.readouterr().out == (
        "https://discord.com/oauth2/authorize?client_id=987654321098765432"
        f"&scope=bot+applications.commands&permissions={PERMISSIONS}\n"
    )


@pytest.mark.parametrize("where", ["environment", ".env"])
def test_invite_reads_the_bot_s_id_from_the_token(
    where: str,
    tmp_path: Path,
    monkeypatch: pytest.MonkeyPatch,
    capsys: pytest.CaptureFixture[str],
) -> None:
    monkeypatch.chdir(tmp_path)
    monkeypatch.delenv("DISCORD_TOKEN", raising=False)
    if where == "environment":
        monkeypatch.setenv("DISCORD_TOKEN", TOKEN)
    else:
        (tmp_path / ".env").write_text(f'export DISCORD_TOKEN="{TOKEN}"\n', encoding="utf-8")
    # A wrong setting the invite does not need does not stop it.
    monkeypatch.setenv("MONOPOLY_SHARD_IDS", "0")
    assert cli.main(["invite"]) == 0
    assert capsys.readouterr().out == invite_url(123456789012345678) + "\n"


@pytest.mark.parametrize(
    ("token", "why"),
    [(None, "no DISCORD_TOKEN is set"), ("not-a-token", "DISCORD_TOKEN holds none")],
)
def test_invite_without_a_client_id_is_one_line(
    token: str | None,
    why: str,
    tmp_path: Path,
    monkeypatch: pytest.MonkeyPatch,
    capsys: pytest.CaptureFixture[str],
) -> None:
    monkeypatch.chdir(tmp_path)
    monkeypatch.delenv("DISCORD_TOKEN", raising=False)
    if token is not None:
        monkeypatch.setenv("DISCORD_TOKEN", token)
    assert cli.main(["invite"]) == 2
    captured = capsys.readouterr()
    assert captured.out == "" and captured.err.count("\n") == 1
    assert captured.err.startswith(f"monopoly-bot invite: no client id: {why}; give --client-id")


def test_invite_refuses_a_client_id_that_is_no_number(capsys: pytest.CaptureFixture[str]) -> None:
    with pytest.raises(SystemExit) as done:
        cli.main(["invite", "--client-id", "my-bot"])
    assert done.value.code == 2
    assert "not an application (client) ID: 'my-bot'" in capsys.readouterr().err


# -- the docs agree with the code ------------------------------------------------------------


def test_readme_lists_every_permission_and_the_integer() -> None:
    english = json.loads((ROOT / "bot" / "locales" / "en.json").read_text("utf-8"))
    section = README.split("## Creating the Discord application", 1)[1].split("\n## ", 1)[0]
    listed = re.findall(r"^   - (.+)$", section, re.MULTILINE)
    assert listed == [english[f"permission.{name}"] for name in INVITE_PERMISSIONS]
    assert f"permissions={PERMISSIONS}" in section and "monopoly-bot invite" in section


def test_readme_documents_every_option_of_monopoly_start() -> None:
    from cogs.lobby import LobbyCog

    german = json.loads((ROOT / "bot" / "locales" / "de.json").read_text("utf-8"))
    options = [parameter.name for parameter in LobbyCog.start.parameters]
    english_line = "`/monopoly start " + " ".join(f"[{name}]" for name in options) + "`"
    german_names = [german[f"cmd.monopoly start.{name}.name"] for name in options]
    german_line = (
        f"`/monopoly {german['cmd.monopoly start.name']} "
        + " ".join(f"[{name}]" for name in german_names)
        + "`"
    )
    flat = " ".join(README.split())
    assert english_line in flat and german_line in flat


def test_compose_s_comment_names_the_dockerfile_s_stop_signal() -> None:
    stop = last(stages((ROOT / "Dockerfile").read_text(encoding="utf-8"))[-1], "STOPSIGNAL")
    compose = (ROOT / "compose.yaml").read_text(encoding="utf-8")
    other = {"SIGTERM": "SIGINT", "SIGINT": "SIGTERM"}[stop or "SIGTERM"]
    assert f"Stopped with {stop}" in compose and other not in compose
    assert f"stop_signal: {stop}" in compose


def test_env_example_names_the_compose_password_and_only_settings_the_bot_reads() -> None:
    text = (ROOT / ".env.example").read_text(encoding="utf-8")
    assert "# POSTGRES_PASSWORD=" in text
    config = (ROOT / "bot" / "config.py").read_text(encoding="utf-8")
    for key in parse_dotenv(text):
        assert f'"{key}"' in config, key


def test_the_procfile_is_one_worker_running_the_bot_and_is_explained() -> None:
    lines = [
        line
        for line in (ROOT / "Procfile").read_text(encoding="utf-8").splitlines()
        if line.strip() and not line.startswith("#")
    ]
    assert lines == ["worker: monopoly-bot run"]
    assert "### Process managers: the Procfile" in README and "`worker:`" in README
