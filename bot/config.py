"""Runtime settings, read from the environment and an optional ``.env`` file."""

from __future__ import annotations

import os
import tempfile
from collections.abc import Mapping
from dataclasses import dataclass, field
from pathlib import Path
from urllib.parse import parse_qsl, quote, unquote, urlencode, urlsplit, urlunsplit

DEFAULT_DB_PATH = Path("data/monopoly.db")
DEFAULT_LOG_LEVEL = "INFO"
DEFAULT_ENV_FILE = Path(".env")
#: Where the running bot writes its heartbeat (``monopoly-bot health`` reads it).
DEFAULT_HEARTBEAT_FILE = Path(tempfile.gettempdir()) / "monopoly-heartbeat"

#: What a sharded process holds: ``(shard_count, shard ids)``, as the store's timer
#: queries take it (``shards=``); None for a process that holds every guild.
ShardFilter = tuple[int, frozenset[int]]


class ConfigError(ValueError):
    """A setting has a value the bot cannot run with; the message is one line naming it."""


def one_line(error: BaseException) -> str:
    """An error's text on one line, for a message naming a setting (drivers' messages may
    span several lines)."""
    return " ".join(str(error).split()) or type(error).__name__


def store_problem(settings: Settings, error: BaseException, doing: str = "") -> str:
    """One line for an error opening or reading the store, naming its setting.

    A message that names a setting already (the store's own, e.g. for a server it cannot
    reach) is kept as it is; any other gets the setting and its value (no password) in
    front, and ``doing`` (e.g. ``"cannot open the database"``) before the error's text.
    """
    text = one_line(error)
    if "MONOPOLY_DATABASE_URL" in text or "MONOPOLY_DB_PATH" in text:
        return text
    return f"{settings.store_setting}: {doing + ': ' if doing else ''}{text}"


def shard_of(guild_id: int, shard_count: int) -> int:
    """The shard that holds ``guild_id`` among ``shard_count`` shards (Discord's formula).

    Discord sends a guild's events to shard ``(guild_id >> 22) % shard_count``: the
    snowflake's creation time decides, so a guild never moves while the count stays.
    """
    return (guild_id >> 22) % shard_count


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


def parse_shard_count(raw: str | None) -> int | None:
    """``MONOPOLY_SHARD_COUNT`` as a number of at least 1 (None if unset).

    Raises :class:`ConfigError` naming the setting for anything else.
    """
    if raw is None:
        return None
    try:
        count = int(raw)
    except ValueError:
        raise ConfigError(
            f"MONOPOLY_SHARD_COUNT must be a whole number of at least 1, got {raw!r}"
        ) from None
    if count < 1:
        raise ConfigError(f"MONOPOLY_SHARD_COUNT must be at least 1, got {count}")
    return count


def parse_shard_ids(raw: str | None) -> tuple[int, ...] | None:
    """``MONOPOLY_SHARD_IDS`` (``"0,1"``, spaces allowed) as a tuple (None if unset).

    Only the syntax is checked here; :func:`check_shard_settings` checks the ids against the count.
    """
    if raw is None:
        return None
    items = [item.strip() for item in raw.split(",")]
    try:
        return tuple(int(item) for item in items)
    except ValueError:
        raise ConfigError(
            f"MONOPOLY_SHARD_IDS must be shard numbers separated by commas (e.g. 0,1), got {raw!r}"
        ) from None


def check_shard_settings(
    shard_count: int | None, shard_ids: tuple[int, ...] | None
) -> tuple[int, ...] | None:
    """Check shard ids against the count; the ids a process holds (None: unsharded).

    A count without ids means every shard of that count (one process for the whole
    fleet, still sharded). Raises :class:`ConfigError` naming the setting at fault: a
    count below 1, ids without a count, an id out of range, an id given twice.
    """
    if shard_count is None:
        if shard_ids is not None:
            raise ConfigError(
                "MONOPOLY_SHARD_IDS needs MONOPOLY_SHARD_COUNT (the number of shards of "
                "the whole fleet)"
            )
        return None
    if isinstance(shard_count, bool) or not isinstance(shard_count, int) or shard_count < 1:
        raise ConfigError(f"MONOPOLY_SHARD_COUNT must be at least 1, got {shard_count!r}")
    if shard_ids is None:
        return tuple(range(shard_count))
    if not shard_ids:
        raise ConfigError("MONOPOLY_SHARD_IDS names no shard; leave it empty for all shards")
    seen: set[int] = set()
    for shard in shard_ids:
        if not 0 <= shard < shard_count:
            raise ConfigError(
                f"MONOPOLY_SHARD_IDS: shard {shard} is out of range for "
                f"MONOPOLY_SHARD_COUNT={shard_count} (shards are 0 to {shard_count - 1})"
            )
        if shard in seen:
            raise ConfigError(f"MONOPOLY_SHARD_IDS names shard {shard} twice")
        seen.add(shard)
    return tuple(shard_ids)


@dataclass(frozen=True)
class Settings:
    """Configuration of one bot process.

    ``database_url`` (``MONOPOLY_DATABASE_URL``) picks PostgreSQL over the SQLite file
    at ``db_path``. ``shard_count`` and ``shard_ids`` make the process one of a fleet:
    it holds those shards of ``shard_count`` (all of them if only the count is given)
    and fires the timers of their guilds only; both None is the one process of an
    unsharded bot. The shard settings are checked on construction
    (:class:`ConfigError`). ``heartbeat_file`` is where the running bot notes that it
    is connected, for ``monopoly-bot health``.
    """

    # Secrets stay out of the repr, so logging the settings shows no token or password.
    discord_token: str | None = field(repr=False)
    db_path: Path
    log_level: str
    dev_guild_id: int | None
    database_url: str | None = field(default=None, repr=False)
    shard_count: int | None = None
    shard_ids: tuple[int, ...] | None = None
    heartbeat_file: Path = DEFAULT_HEARTBEAT_FILE

    def __post_init__(self) -> None:
        # Checked here, not only in from_env, so settings built in code (tests, tools)
        # cannot hold a shard set the gateway or the timer filter would misread.
        ids = check_shard_settings(self.shard_count, self.shard_ids)
        object.__setattr__(self, "shard_ids", ids)

    @property
    def sharded(self) -> bool:
        """Whether this process is one of a sharded fleet (a shard count is set)."""
        return self.shard_count is not None

    @property
    def shard_filter(self) -> ShardFilter | None:
        """``(shard_count, shard ids)`` for the store's timer queries; None if unsharded."""
        if self.shard_count is None or self.shard_ids is None:
            return None
        return (self.shard_count, frozenset(self.shard_ids))

    def holds_guild(self, guild_id: int) -> bool:
        """Whether this process's shards hold ``guild_id`` (always, if unsharded)."""
        shards = self.shard_filter
        return shards is None or shard_of(guild_id, shards[0]) in shards[1]

    @property
    def store_setting(self) -> str:
        """The setting that names the store, with its value (no password), for messages.

        E.g. ``MONOPOLY_DB_PATH (data/monopoly.db)`` or
        ``MONOPOLY_DATABASE_URL (postgresql://bot:***@db:5432/monopoly)``.
        """
        if self.database_url is not None:
            return f"MONOPOLY_DATABASE_URL ({redact_url(self.database_url)})"
        return f"MONOPOLY_DB_PATH ({self.db_path})"

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

        Raises :class:`ConfigError` (a :class:`ValueError`) with one line naming the
        setting if ``MONOPOLY_DEV_GUILD_ID`` is not an integer or the shard settings
        are wrong (see :func:`check_shard_settings`). ``MONOPOLY_DATABASE_URL`` is checked by
        :func:`bot.store.store_for`, which knows the drivers.
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
                raise ConfigError(
                    f"MONOPOLY_DEV_GUILD_ID must be a numeric server (guild) ID, got {guild_raw!r}"
                ) from None

        shard_count = parse_shard_count(get("MONOPOLY_SHARD_COUNT"))
        shard_ids = parse_shard_ids(get("MONOPOLY_SHARD_IDS"))
        return cls(
            discord_token=get("DISCORD_TOKEN"),
            db_path=Path(get("MONOPOLY_DB_PATH") or DEFAULT_DB_PATH),
            log_level=(get("MONOPOLY_LOG_LEVEL") or DEFAULT_LOG_LEVEL).upper(),
            dev_guild_id=dev_guild_id,
            database_url=get("MONOPOLY_DATABASE_URL"),
            shard_count=shard_count,
            shard_ids=shard_ids,
            heartbeat_file=Path(get("MONOPOLY_HEARTBEAT_FILE") or DEFAULT_HEARTBEAT_FILE),
        )


def redact_url(url: str) -> str:
    """``url`` with its password replaced by ``***``, safe to print or log.

    Both places a PostgreSQL URL can carry one are covered: ``user:password@`` and a
    ``password=`` query parameter.
    """
    try:
        parts = urlsplit(url)
        port = parts.port
    except ValueError:
        return "<a URL that cannot be read>"  # it may hold a password; show none of it
    if parts.password is not None:
        host = parts.hostname or ""
        if ":" in host:
            host = f"[{host}]"  # an IPv6 address keeps its brackets
        if port is not None:
            host = f"{host}:{port}"
        user = quote(unquote(parts.username or ""), safe="")
        parts = parts._replace(netloc=f"{user}:***@{host}")
    if parts.query:
        query = [
            (key, "***" if key.lower() == "password" else value)
            for key, value in parse_qsl(parts.query, keep_blank_values=True)
        ]
        parts = parts._replace(query=urlencode(query, safe="*"))
    return urlunsplit(parts)


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
