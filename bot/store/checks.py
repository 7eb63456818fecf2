"""What every SQL driver of the game store checks and parses the same way.

Arguments are checked here before any database is touched, so a malformed one raises a
typed error and changes nothing on every driver alike, where a database library would
raise ``OverflowError`` (an int beyond 64 bits), ``UnicodeEncodeError`` (a lone surrogate)
or its own error at the statement. Stored rows are parsed here too, so a damaged one is
:class:`Unreadable` on every driver alike.

(Longer than ~400 lines would be a smell; this is the contract's checks in one place.)
"""

from __future__ import annotations

import json
from collections.abc import Callable, Iterable, Mapping, Sequence
from dataclasses import fields
from datetime import UTC, datetime
from typing import Any

from bot.engine.errors import IllegalAction
from bot.engine.record import GameRecord, dice_of
from bot.store.base import GameInfo, GameRow
from bot.store.errors import BadData, GameNotFound, InvalidRecord
from bot.store.kinds import AnyState, state_from_dict, state_from_json
from bot.store.kinds import apply as apply_to_state
from bot.text_input import is_sqlite_int, json_problem

FINISHED_BY_ENGINE = "over"  # finished_reason of a game the rules ended
#: The columns of a game's row that make its :class:`GameInfo` (both drivers' schema),
#: the index of ``state_json`` when it follows them, and the statuses of open games.
INFO_COLUMNS = (
    "id, guild_id, channel_id, status, seq, created_by, created_at, updated_at, "
    "settings_json, finished_reason, broken_error, settings_version"
)
STATE_INDEX = 12
OPEN_SQL = "('lobby', 'running')"
#: The kinds of a server's files (the schema's CHECK on ``guild_files.kind``).
GUILD_FILE_KINDS = ("theme", "board")
#: A time that stands in for a damaged one when listing games (never stored).
EPOCH = datetime(1970, 1, 1, tzinfo=UTC)


def canonical_json(value: Any) -> str:
    """Canonical JSON, the same shape as ``GameState.to_json``.

    NaN and infinities raise ValueError: Python would write them as ``NaN``, which is
    not JSON (SQLite's ``json_valid``, PostgreSQL's ``json`` and other readers refuse it).
    Control characters, NUL included, are written as ``\\u0000`` escapes, so the text
    never holds a NUL itself (PostgreSQL's ``text`` could not keep it).
    """
    return json.dumps(
        value, sort_keys=True, separators=(",", ":"), ensure_ascii=False, allow_nan=False
    )


def utc_now() -> datetime:
    """The default clock of the stores."""
    return datetime.now(UTC)


def aware(moment: datetime, what: str) -> datetime:
    """``moment`` in UTC; ValueError if it is naive (a time without a zone is ambiguous)."""
    if moment.tzinfo is None:
        raise ValueError(f"{what} must be a timezone-aware datetime")
    return moment.astimezone(UTC)


class Unreadable(Exception):
    """A stored state or row that does not parse into a game."""


def parse_state(info: GameInfo, state_json: str | None) -> AnyState:
    """The game's state; raises :class:`Unreadable` for anything that is not one."""
    try:
        if state_json is None:
            raise ValueError("the state is missing")
        state = state_from_json(state_json)
        if state.seq != info.seq:
            raise ValueError(f"the state's seq {state.seq} differs from the row's {info.seq}")
    except Exception as error:  # any failure to rebuild the game means: unreadable
        raise Unreadable(f"{type(error).__name__}: {error}") from error
    return state


def parse_settings(text: object) -> dict[str, Any]:
    """Stored settings JSON as a dict; :class:`Unreadable` if it is not a JSON object."""
    try:
        if not isinstance(text, str):
            raise ValueError("the settings are not text")
        settings = json.loads(text)
        if not isinstance(settings, dict):
            raise ValueError("the settings are not a JSON object")
    except (ValueError, RecursionError) as error:
        raise Unreadable(f"{type(error).__name__}: {error}") from error
    return settings


def row_of(info: GameInfo, state: AnyState | None) -> GameRow:
    """``info`` with its state."""
    return GameRow(**{f.name: getattr(info, f.name) for f in fields(GameInfo)}, state=state)


def readable_rows(
    raws: Sequence[Any], info_of: Callable[[Any], GameInfo], state_at: int
) -> list[GameRow]:
    """The rows (info columns, then the state at index ``state_at``) that parse as games;
    the others are left out (for finished games, which nothing sets aside)."""
    found = []
    for raw in raws:
        try:
            info = info_of(raw)
            found.append(row_of(info, parse_state(info, raw[state_at])))
        except Unreadable:
            continue
    return found


# -- checking arguments ---------------------------------------------------------------------
# Every public method checks its arguments before it touches the database, so a malformed
# one raises a typed error and changes nothing, where the database library would raise
# OverflowError (an int beyond 64 bits), UnicodeEncodeError (a lone surrogate) or its own
# error at the statement.


def check_game_id(game_id: object) -> int:
    """``game_id`` if a game can have it; otherwise GameNotFound, as no such game exists."""
    if not is_sqlite_int(game_id):
        raise GameNotFound(game_id)
    return game_id


def check_id(value: object, what: str) -> int:
    """Another id (guild, channel, user): BadData unless it is an int of at most 64 bits."""
    if not is_sqlite_int(value):
        raise BadData(what, "not an integer of at most 64 bits")
    return value


def check_optional_id(value: object, what: str) -> int | None:
    """Like :func:`check_id`, but None is allowed."""
    return None if value is None else check_id(value, what)


def check_text(value: object, what: str) -> str:
    """Text every driver can keep: valid Unicode without NUL; BadData otherwise.

    PostgreSQL's ``text`` cannot hold the NUL character. SQLite could, but a store must
    hold the same things on every driver (``store copy`` moves it from one to the other),
    so NUL is refused on all of them. Inside JSON a NUL is the escape ``\\u0000`` and kept.
    """
    if not isinstance(value, str):
        raise BadData(what, "not text")
    problem = json_problem(value)
    if problem is not None:
        raise BadData(what, problem)
    if "\x00" in value:
        raise BadData(what, "a NUL character, which the database cannot keep in text")
    return value


def check_optional_text(value: object, what: str) -> str | None:
    """Like :func:`check_text`, but None is allowed."""
    return None if value is None else check_text(value, what)


def check_timer_id(timer_id: object) -> int | None:
    """``timer_id`` if a timer can have it, else None: no timer has that id, so the
    methods that take one find nothing (False, nothing changed) on every driver."""
    return timer_id if is_sqlite_int(timer_id) else None


def check_new_game(
    guild_id: object, channel_id: object, created_by: object, settings: object
) -> tuple[int, int, int | None, str]:
    """The checked ids of a new game and its settings as JSON (``{}`` for None)."""
    return (
        check_id(guild_id, "guild_id"),
        check_id(channel_id, "channel_id"),
        check_optional_id(created_by, "created_by"),
        check_json_object({} if settings is None else settings, "settings"),
    )


def check_kind(kind: object) -> str:
    """The kind of a server's file; BadData unless it is one of GUILD_FILE_KINDS."""
    if not isinstance(kind, str) or kind not in GUILD_FILE_KINDS:
        raise BadData("kind", f"not one of {', '.join(GUILD_FILE_KINDS)}")
    return kind


def check_json_object(value: object, what: str) -> str:
    """The canonical JSON text of a plain JSON object; BadData for anything else."""
    if not isinstance(value, Mapping):
        raise BadData(what, "not a JSON object")
    problem = json_problem(value)
    if problem is not None:
        raise BadData(what, problem)
    try:
        return canonical_json(dict(value))
    except (TypeError, ValueError, RecursionError) as error:  # e.g. an int of 5000 digits
        raise BadData(what, f"{type(error).__name__}: {error}") from error


def check_action(action: object) -> str:
    """The canonical JSON of an action; IllegalAction ``bad_action`` if it is not one.

    An action is a dict whose ``type`` is text, holding plain JSON only: the log keeps it
    and replays it, so NaN, lone surrogates and keys that are not text must not get in.
    """
    if not isinstance(action, dict) or not isinstance(action.get("type"), str):
        raise IllegalAction("bad_action")
    problem = json_problem(action)
    if problem is not None:
        raise IllegalAction("bad_action", detail=problem)
    try:
        return canonical_json(action)
    except (TypeError, ValueError, RecursionError) as error:  # e.g. an int of 5000 digits
        raise IllegalAction("bad_action", detail=f"{type(error).__name__}: {error}") from error


def check_expected_seq(expected_seq: object) -> int | None:
    """None or a version a game can be at; IllegalAction ``bad_action`` otherwise."""
    if expected_seq is None:
        return None
    if not is_sqlite_int(expected_seq) or expected_seq < 0:
        raise IllegalAction("bad_action", detail="expected_seq")
    return expected_seq


def check_version(version: object, what: str = "expected_version") -> int | None:
    """None or a settings version (a non-negative int of 64 bits); BadData otherwise."""
    if version is None:
        return None
    if not is_sqlite_int(version) or version < 0:
        raise BadData(what, "not a non-negative integer of at most 64 bits")
    return version


def check_state(state: object) -> str:
    """A game state's canonical JSON, checked to be storable; BadData otherwise."""
    if not isinstance(state, AnyState):
        raise BadData("state", "not a game state")
    text = state.to_json()
    problem = json_problem(text)
    if problem is not None:  # e.g. a player's name with a lone surrogate
        raise BadData("state", problem)
    return text


def check_patch(set_: object, remove: object) -> tuple[dict[str, Any], list[str]]:
    """The keys to set (plain JSON, as a copy) and to remove of a settings patch.

    BadData (``set`` or ``remove``) for anything else; a key in both is only set.
    """
    check_json_object(set_, "set")
    assert isinstance(set_, Mapping)
    if isinstance(remove, str | bytes) or not isinstance(remove, Iterable):
        raise BadData("remove", "not a collection of keys")
    keys = list(remove)
    for key in keys:
        check_text(key, "remove")
    # A deep copy through JSON: the caller's objects stay theirs.
    values: dict[str, Any] = json.loads(canonical_json(dict(set_)))
    return values, [key for key in dict.fromkeys(keys) if key not in values]


def patched_settings(current: str, values: Mapping[str, Any], remove: Iterable[str]) -> str:
    """The settings JSON ``current`` with the keys ``values`` set and ``remove`` removed.

    Raises :class:`Unreadable` if the stored settings are damaged (not a JSON object).
    """
    settings = parse_settings(current)
    for key in remove:
        settings.pop(key, None)
    settings.update(values)
    return canonical_json(settings)


def check_shards(shards: object) -> tuple[int, list[int]] | None:
    """``(shard_count, sorted shard ids)`` of a timer query's shard filter; None for none.

    ValueError unless ``shard_count`` is an int of at least 1 and each id is in
    ``range(shard_count)``.
    """
    if shards is None:
        return None
    if not isinstance(shards, tuple) or len(shards) != 2:
        raise ValueError("shards must be (shard_count, shard_ids)")
    count, ids = shards
    if not is_sqlite_int(count) or count < 1:
        raise ValueError("shard_count must be an integer of at least 1")
    if isinstance(ids, str | bytes) or not isinstance(ids, Iterable):
        raise ValueError("shard_ids must be a set of shard numbers")
    chosen = sorted(set(ids))
    if not all(is_sqlite_int(i) and 0 <= i < count for i in chosen):
        raise ValueError(f"every shard id must be in range({count})")
    return count, chosen


def replay_for_store(
    record: Mapping[str, Any],
) -> tuple[str, AnyState, list[tuple[int, str, str, str]]]:
    """Check a record by replaying it; return the start JSON, final state and log rows."""
    try:
        parsed = GameRecord.from_dict(dict(record))
        state = state_from_dict(parsed.start)
        start = state.to_json()
        entries = []
        for number, entry in enumerate(parsed.actions):
            action_json = check_action(entry["action"])
            events = apply_to_state(state, json.loads(action_json))
            if dice_of(events) != entry["dice"]:
                raise ValueError(
                    f"action {number}: recorded dice {entry['dice']} but threw {dice_of(events)}"
                )
            entries.append(
                (state.seq, action_json, canonical_json(dice_of(events)), canonical_json(events))
            )
        for text in (start, state.to_json()):
            text.encode("utf-8")  # a lone surrogate (in a name, say) cannot be stored
    except Exception as error:  # whatever is wrong with it, the record is not importable
        raise InvalidRecord(f"{type(error).__name__}: {error}") from error
    return start, state, entries
