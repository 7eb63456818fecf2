"""Runtime settings, read from the environment and an optional ``.env`` file."""

from __future__ import annotations

import base64
import logging
import os
import re
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

log = logging.getLogger(__name__)


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


# The .env grammar of python-dotenv (its parser.py), written out here: a dependency for a
# hundred lines was not worth it. What it does not do is ${VAR} interpolation, on purpose:
# a password with a "$" in it stays as written.
_SPACE_AND_NEWLINES = re.compile(r"\s*")
_EXPORT = re.compile(r"(?:export[^\S\r\n]+)?")
_QUOTED_KEY = re.compile(r"'([^']+)'")
_KEY = re.compile(r"([^=#\s]+)")
_SPACES = re.compile(r"[^\S\r\n]*")
_EQUALS = re.compile(r"=[^\S\r\n]*")
# A backslash always takes the next character with it, so "a\\" ends at its quote
# (python-dotenv's pattern reads on past it, to the next quote in the file).
_SINGLE_QUOTED = re.compile(r"'((?:\\.|[^'\\])*)'", re.DOTALL)
_DOUBLE_QUOTED = re.compile(r'"((?:\\.|[^"\\])*)"', re.DOTALL)
_UNQUOTED = re.compile(r"[^\r\n]*")
_INLINE_COMMENT = re.compile(r"\s+#.*")
_COMMENT = re.compile(r"(?:[^\S\r\n]*#[^\r\n]*)?")
_LINE_END = re.compile(r"[^\S\r\n]*(?:\r\n|\n|\r|$)")
_REST_OF_LINE = re.compile(r"[^\r\n]*(?:\r\n|\n|\r)?")
_NEWLINE = re.compile(r"\r\n|\n|\r")
#: Escapes decoded in double quotes (python-dotenv's set); single quotes know \\ and \'.
_DOUBLE_ESCAPES = {
    "\\": "\\",
    "'": "'",
    '"': '"',
    "a": "\a",
    "b": "\b",
    "f": "\f",
    "n": "\n",
    "r": "\r",
    "t": "\t",
    "v": "\v",
}
_DOUBLE_ESCAPE = re.compile(r"\\([\\'\"abfnrtv])")
_SINGLE_ESCAPE = re.compile(r"\\([\\'])")


class _DotenvSyntax(Exception):
    """A statement of a .env file that cannot be read; ``at`` is where reading stopped."""

    def __init__(self, at: int) -> None:
        super().__init__(at)
        self.at = at


def _match(pattern: re.Pattern[str], text: str, pos: int) -> re.Match[str]:
    """``pattern`` matched at ``pos``; :class:`_DotenvSyntax` if it does not match there."""
    found = pattern.match(text, pos)
    if found is None:
        raise _DotenvSyntax(pos)
    return found


def _dotenv_value(text: str, pos: int, spaced: bool) -> tuple[str, int]:
    """The value starting at ``pos`` (after ``=`` and its spaces) and where it ends.

    ``spaced``: whether spaces followed the ``=``, so that a ``#`` here starts a comment
    (``KEY= # note`` is empty) while ``KEY=#x`` is the value ``#x``.
    """
    first = text[pos : pos + 1]
    if first == "'":
        found = _match(_SINGLE_QUOTED, text, pos)
        return _SINGLE_ESCAPE.sub(lambda m: m[1], found[1]), found.end()
    if first == '"':
        found = _match(_DOUBLE_QUOTED, text, pos)
        return _DOUBLE_ESCAPE.sub(lambda m: _DOUBLE_ESCAPES[m[1]], found[1]), found.end()
    found = _match(_UNQUOTED, text, pos)
    if spaced and found[0].startswith("#"):
        return "", found.end()
    return _INLINE_COMMENT.sub("", found[0]).rstrip(), found.end()


def _dotenv_statement(text: str, pos: int) -> tuple[str | None, str | None, int]:
    """One statement from ``pos`` (at its first character): ``(key, value, end)``.

    The key is None for a comment line, the value None for a key without ``=`` (both are
    skipped). Raises :class:`_DotenvSyntax` for anything else that is not a statement.
    """
    pos = _match(_EXPORT, text, pos).end()
    key: str | None = None
    if text.startswith("#", pos):
        pass  # a comment line: read by _COMMENT below
    else:
        found = _match(_QUOTED_KEY if text.startswith("'", pos) else _KEY, text, pos)
        key, pos = found[1], found.end()
    pos = _match(_SPACES, text, pos).end()
    value: str | None = None
    if text.startswith("=", pos):
        equals = _match(_EQUALS, text, pos)
        value, pos = _dotenv_value(text, equals.end(), spaced=equals.end() - pos > 1)
    pos = _match(_COMMENT, text, pos).end()
    pos = _match(_LINE_END, text, pos).end()
    return key, value, pos


def parse_dotenv(text: str, *, source: str = ".env") -> dict[str, str]:
    """Parse the text of a ``.env`` file into a dict, the way python-dotenv reads it.

    ``KEY=VALUE`` statements; blank lines and ``#`` comment lines; a UTF-8 byte-order mark
    at the start (Windows editors write one); CRLF or LF line endings; an optional
    ``export`` in front; spaces around ``=``; values in single quotes (only ``\\'`` and
    ``\\\\`` are escapes) or double quotes (``\\n``, ``\\t``, ``\\"``, ``\\\\`` and the
    other C escapes), either of which may span lines; `` # comment`` after an unquoted
    value (``a#b`` keeps its ``#``). A later key wins. No ``${VAR}`` interpolation: a
    value is taken as written.

    A statement that cannot be read (e.g. an unclosed quote) is skipped up to the end of
    the line where reading stopped, with a warning naming ``source`` and the line number
    (never the line, which may hold a secret).
    """
    text = text.removeprefix("\ufeff")
    values: dict[str, str] = {}
    pos = 0
    while True:
        pos = _match(_SPACE_AND_NEWLINES, text, pos).end()
        if pos >= len(text):
            return values
        try:
            key, value, end = _dotenv_statement(text, pos)
        except _DotenvSyntax as problem:
            line = len(_NEWLINE.findall(text, 0, pos)) + 1
            log.warning("%s: line %d cannot be read; it is skipped", source, line)
            pos = _match(_REST_OF_LINE, text, problem.at).end()
            continue
        pos = end
        if key is not None and value is not None:
            values[key] = value


def load_dotenv(path: str | os.PathLike[str] = DEFAULT_ENV_FILE) -> dict[str, str]:
    """Read and parse a ``.env`` file; return an empty dict if it does not exist."""
    try:
        # utf-8-sig: a byte-order mark is not part of the first key.
        text = Path(path).read_text(encoding="utf-8-sig")
    except FileNotFoundError:
        return {}
    return parse_dotenv(text, source=str(path))


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


#: The URL form of a SQLite file that ``monopoly-bot store copy`` takes, also accepted in
#: ``MONOPOLY_DB_PATH``: ``sqlite:///relative/path.db`` or ``sqlite:////absolute/path.db``.
SQLITE_URL_PREFIX = "sqlite:///"
#: A URL's scheme at the start of a setting (two letters at least: ``C:/`` is a drive).
_URL_SCHEME = re.compile(r"([A-Za-z][A-Za-z0-9+.-]+)://")


def parse_db_path(raw: str | None) -> Path:
    """``MONOPOLY_DB_PATH`` as the SQLite file it names (the default if unset).

    A plain path, or the same as a ``sqlite:///path`` URL (the form ``store copy`` takes).
    Any other URL raises :class:`ConfigError`: a ``postgresql://`` one belongs in
    ``MONOPOLY_DATABASE_URL`` (the message says so). Taken as a path, a URL would become
    a file of that name, and the password in it would be logged as the file's name; the
    message names only the scheme, never the value.
    """
    if raw is None:
        return DEFAULT_DB_PATH
    found = _URL_SCHEME.match(raw)
    if found is None:
        return Path(raw)
    scheme = found[1].lower()
    if scheme in ("postgresql", "postgres"):
        raise ConfigError(
            f"MONOPOLY_DB_PATH holds a {scheme}:// URL, but it names the SQLite file; put the "
            "URL in MONOPOLY_DATABASE_URL and leave MONOPOLY_DB_PATH empty"
        )
    if scheme != "sqlite":
        raise ConfigError(
            f"MONOPOLY_DB_PATH must be the path of the SQLite file (or sqlite:///path), not a "
            f"{scheme}:// URL; a PostgreSQL database goes in MONOPOLY_DATABASE_URL"
        )
    if not raw.lower().startswith(SQLITE_URL_PREFIX):
        raise ConfigError(
            "MONOPOLY_DB_PATH: a SQLite URL has three slashes before the path: "
            "sqlite:///relative/path.db or sqlite:////absolute/path.db"
        )
    path = raw[len(SQLITE_URL_PREFIX) :]
    if not path or path == ":memory:" or "?" in path:
        raise ConfigError(
            "MONOPOLY_DB_PATH: the sqlite:/// URL names no database file (sqlite:///data/monopoly.db)"
        )
    return Path(path)


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
        setting if ``MONOPOLY_DEV_GUILD_ID`` is not an integer, the shard settings
        are wrong (see :func:`check_shard_settings`) or ``MONOPOLY_DB_PATH`` is a URL
        other than ``sqlite:///path`` (see :func:`parse_db_path`). ``MONOPOLY_DATABASE_URL``
        is checked by :func:`bot.store.store_for`, which knows the drivers.
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
        database_url = get("MONOPOLY_DATABASE_URL")
        if database_url is not None and misplaced_password(database_url):
            raise ConfigError(
                "MONOPOLY_DATABASE_URL is not a valid URL: it has an '@' after the host (a typo "
                "in '://'?); write postgresql://user:password@host:5432/database (%40 for an @ "
                "inside a name)"
            )
        return cls(
            discord_token=get("DISCORD_TOKEN"),
            db_path=parse_db_path(get("MONOPOLY_DB_PATH")),
            log_level=(get("MONOPOLY_LOG_LEVEL") or DEFAULT_LOG_LEVEL).upper(),
            dev_guild_id=dev_guild_id,
            database_url=database_url,
            shard_count=shard_count,
            shard_ids=shard_ids,
            heartbeat_file=Path(get("MONOPOLY_HEARTBEAT_FILE") or DEFAULT_HEARTBEAT_FILE),
        )


def misplaced_password(url: str) -> bool:
    """Whether ``url`` has an ``@`` after its host, where a password may have ended up.

    ``postgresql:/user:password@host/db`` (one slash) reads as a URL without a host whose
    path is ``/user:password@host/db``: messages naming "the database" would show the
    password. Such a URL is refused instead (an ``@`` in a name is written ``%40``).
    """
    try:
        return "@" in urlsplit(url.strip()).path
    except ValueError:
        return False  # not readable at all: the driver refuses it without showing it


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


#: What may be a password in any text: ``:secret@`` (a URL's user info, also in a URL
#: too broken to parse) and ``password=secret`` (libpq's query parameter).
_PASSWORD_SHAPES = (
    # No "/": the "://" after a scheme is not a password (a password holding one unencoded
    # is no URL any reader would take apart the same way).
    re.compile(r"(?<=:)[^\s@'\"/]+(?=@)"),
    re.compile(r"(?<=password=)[^\s&'\"]+", re.IGNORECASE),
)


def hide_passwords(text: str) -> str:
    """``text`` with whatever looks like a password replaced by ``***``: a safety net for
    messages that repeat a value as given (a URL with a typo that :func:`redact_url` cannot
    read). ``user:secret@host`` becomes ``user:***@host``; a ``:`` before an ``@`` never
    appears in a path or message the bot writes otherwise.
    """
    for shape in _PASSWORD_SHAPES:
        text = shape.sub("***", text)
    return text


#: One part of a Discord bot token (three of them, separated by dots): base64url text.
_TOKEN_PART = re.compile(r"[A-Za-z0-9_-]+")
#: Where a bot token comes from, for the messages about a wrong one.
TOKEN_HINT = (
    "copy it from https://discord.com/developers/applications (your application -> Bot -> "
    "Reset Token); the client secret, application ID and public key are not the token"
)


def token_problem(token: str) -> str | None:
    """Why ``token`` cannot be a Discord bot token (one line naming ``DISCORD_TOKEN``), or
    None if its shape is right.

    Only the shape: three parts of base64url text separated by dots (the bot's id, a
    time, a signature). Whether Discord accepts it is for the login to find out; this
    catches what is surely wrong before anything else is done (quotes or a ``Bot ``
    prefix copied along, a client secret or an application id in its place). The line
    never repeats the token.
    """
    what = "DISCORD_TOKEN does not look like a bot token"
    if not token:
        return f"{what}: it is empty"
    if token.lower().startswith(("bot ", "bearer ")):
        prefix = token.split(" ", 1)[0]
        return f"{what}: it starts with {prefix!r}; give the token alone (the bot adds {prefix!r})"
    if any(quote in token for quote in "\"'"):
        return f"{what}: it contains quotes; give the token without them"
    if any(char.isspace() for char in token):
        return f"{what}: it contains spaces; {TOKEN_HINT}"
    parts = token.split(".")
    if len(parts) != 3 or not all(parts):
        return f"{what}: a bot token is three parts separated by dots; {TOKEN_HINT}"
    if not all(_TOKEN_PART.fullmatch(part) for part in parts):
        return (
            f"{what}: it holds characters a token never has (letters, digits, - and _ only, "
            f"between the dots); {TOKEN_HINT}"
        )
    return None


def token_client_id(token: str | None) -> int | None:
    """The bot's user id that the first part of a bot token encodes (base64 of its digits),
    or None if ``token`` does not have that shape.

    For a bot that is its application's client id (the OAuth2 ``client_id``).
    """
    if not token or token_problem(token) is not None:
        return None
    first = token.split(".", 1)[0]
    try:
        digits = base64.urlsafe_b64decode(first + "=" * (-len(first) % 4)).decode("ascii")
    except (ValueError, UnicodeDecodeError):
        return None
    return int(digits) if digits.isdigit() and digits[0] != "0" else None


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
