"""Runtime settings, read from the environment and an optional ``.env`` file."""

from __future__ import annotations

import os
from collections.abc import Mapping
from dataclasses import dataclass
from pathlib import Path

DEFAULT_DB_PATH = Path("data/monopoly.db")
DEFAULT_LOG_LEVEL = "INFO"
DEFAULT_ENV_FILE = Path(".env")


def parse_dotenv(text: str) -> dict[str, str]:
    """Parse the text of a ``.env`` file into a dict.

    Supported: ``KEY=VALUE`` lines, blank lines, ``#`` comment lines, an optional
    ``export`` prefix, values in single or double quotes (kept verbatim inside), and
    `` # comment`` after an unquoted value. Lines without ``=`` are ignored.
    """
    values: dict[str, str] = {}
    for raw_line in text.splitlines():
        line = raw_line.strip()
        if not line or line.startswith("#"):
            continue
        if line.startswith("export "):
            line = line[len("export ") :].lstrip()
        key, sep, value = line.partition("=")
        key = key.strip()
        if not sep or not key:
            continue
        value = value.strip()
        if len(value) >= 2 and value[0] == value[-1] and value[0] in "\"'":
            value = value[1:-1]
        else:
            comment_at = value.find(" #")
            if comment_at != -1:
                value = value[:comment_at].rstrip()
        values[key] = value
    return values


def load_dotenv(path: str | os.PathLike[str] = DEFAULT_ENV_FILE) -> dict[str, str]:
    """Read and parse a ``.env`` file; return an empty dict if it does not exist."""
    try:
        text = Path(path).read_text(encoding="utf-8")
    except FileNotFoundError:
        return {}
    return parse_dotenv(text)


@dataclass(frozen=True)
class Settings:
    """Configuration of one bot process."""

    discord_token: str | None
    db_path: Path
    log_level: str
    dev_guild_id: int | None

    @classmethod
    def from_env(
        cls,
        environ: Mapping[str, str] | None = None,
        *,
        env_file: str | os.PathLike[str] | None = DEFAULT_ENV_FILE,
    ) -> Settings:
        """Build settings from the environment, falling back to a ``.env`` file.

        ``environ`` defaults to :data:`os.environ`. Values in ``environ`` take precedence
        over those in ``env_file`` (by default ``.env`` in the current directory; pass
        ``None`` to skip it). Empty values count as unset, so an empty environment
        variable does not hide a value from the file.

        Raises :class:`ValueError` if ``MONOPOLY_DEV_GUILD_ID`` is not an integer.
        """
        source = os.environ if environ is None else environ
        file_values = load_dotenv(env_file) if env_file is not None else {}

        def get(key: str) -> str | None:
            for values in (source, file_values):
                value = values.get(key, "").strip()
                if value:
                    return value
            return None

        guild_raw = get("MONOPOLY_DEV_GUILD_ID")
        dev_guild_id: int | None = None
        if guild_raw is not None:
            try:
                dev_guild_id = int(guild_raw)
            except ValueError:
                raise ValueError(
                    f"MONOPOLY_DEV_GUILD_ID must be a numeric server (guild) ID, got {guild_raw!r}"
                ) from None

        return cls(
            discord_token=get("DISCORD_TOKEN"),
            db_path=Path(get("MONOPOLY_DB_PATH") or DEFAULT_DB_PATH),
            log_level=(get("MONOPOLY_LOG_LEVEL") or DEFAULT_LOG_LEVEL).upper(),
            dev_guild_id=dev_guild_id,
        )


@dataclass(frozen=True)
class Tuning:
    """Pacing of the bot that tests shorten (not read from the environment).

    ``auto_delay``: seconds a computer seat waits before each move, so people can follow;
    ``edit_interval``: seconds between two edits of one message (rate limits);
    ``sweep_every``: seconds between the reconciler's sweeps of games whose messages failed;
    ``check_delay``: seconds before a game whose outdated message was clicked is checked.
    """

    auto_delay: float = 2.0
    edit_interval: float = 1.0
    sweep_every: float = 60.0
    check_delay: float = 5.0

    def core_options(self) -> dict[str, float]:
        """The options of the Discord layer's core (``cogs/core/services.py``)."""
        return {
            "auto_delay": self.auto_delay,
            "edit_interval": self.edit_interval,
            "sweep_every": self.sweep_every,
            "check_delay": self.check_delay,
        }
