"""The bot's version, for ``monopoly-bot --version``: the installed distribution's, else
pyproject.toml's (a source tree run without installing it)."""

from __future__ import annotations

import tomllib
from importlib import metadata
from pathlib import Path

#: The distribution's name (pyproject.toml's ``[project] name``).
DISTRIBUTION = "monopoly-discord-bot"
#: pyproject.toml of a source tree: next to the ``bot`` package.
PYPROJECT = Path(__file__).resolve().parents[1] / "pyproject.toml"


def bot_version() -> str:
    """The version installed (``importlib.metadata``), else the one in pyproject.toml,
    else ``"unknown"``."""
    try:
        return metadata.version(DISTRIBUTION)
    except metadata.PackageNotFoundError:
        pass
    try:
        project = tomllib.loads(PYPROJECT.read_text(encoding="utf-8"))["project"]
        return str(project["version"])
    except (OSError, KeyError, TypeError, tomllib.TOMLDecodeError):
        return "unknown"
