"""Typed errors of the game store.

Like the engine's :class:`~bot.engine.errors.IllegalAction`, every error carries a
stable ``code`` and the ``params`` a translated message needs, so the Discord layer
can answer in German or English without parsing text. The engine's
``IllegalAction`` itself is passed through unchanged by the store.
"""

from __future__ import annotations

from typing import Any


class StoreError(Exception):
    """Base class of the store's errors: ``code`` plus ``params`` for messages."""

    code = "store_error"

    def __init__(self, message: str, **params: Any) -> None:
        super().__init__(message)
        self.params = params


class GameNotFound(StoreError):
    """No game with this id exists.

    Also raised for a game id that no game can have (not an int, or outside SQLite's
    64-bit range), so ``game_id`` is whatever the caller asked for.
    """

    code = "game_not_found"

    def __init__(self, game_id: object) -> None:
        super().__init__(f"no game {game_id}", game_id=game_id)
        self.game_id = game_id


class ChannelBusy(StoreError):
    """The channel (or thread) already has an unfinished game."""

    code = "channel_busy"

    def __init__(self, channel_id: int, game_id: int) -> None:
        super().__init__(
            f"channel {channel_id} already has game {game_id}",
            channel_id=channel_id,
            game_id=game_id,
        )
        self.channel_id = channel_id
        self.game_id = game_id


class StaleAction(StoreError):
    """The action was made for an older state of the game: it is already done.

    Raised when ``expected_seq`` differs from the game's current ``seq``, i.e. a
    second click on the same button, or a button of a message that is out of date.
    """

    code = "already_done"

    def __init__(self, game_id: int, expected_seq: int, current_seq: int) -> None:
        super().__init__(
            f"game {game_id} is at seq {current_seq}, the action was made for {expected_seq}",
            game_id=game_id,
            expected_seq=expected_seq,
            current_seq=current_seq,
        )
        self.game_id = game_id
        self.expected_seq = expected_seq
        self.current_seq = current_seq


class GameNotRunning(StoreError):
    """The game cannot take actions: it is still a lobby, finished or set aside."""

    code = "game_not_running"

    def __init__(self, game_id: int, status: str) -> None:
        super().__init__(f"game {game_id} is {status}", game_id=game_id, status=status)
        self.game_id = game_id
        self.status = status


class GameBroken(StoreError):
    """The game's stored state cannot be read; it has been set aside for an admin."""

    code = "game_broken"

    def __init__(self, game_id: int, error: str) -> None:
        super().__init__(f"game {game_id} is set aside: {error}", game_id=game_id, error=error)
        self.game_id = game_id
        self.error = error


class InvalidRecord(StoreError):
    """A game record (for import or rebuilding a game) does not replay cleanly."""

    code = "invalid_record"

    def __init__(self, error: str) -> None:
        super().__init__(f"invalid game record: {error}", error=error)
        self.error = error


class BadData(StoreError):
    """A value the store cannot keep; refused before the database is touched.

    An id that is not an int in SQLite's 64-bit range (game ids raise
    :class:`GameNotFound` instead), text with lone surrogates, or settings, preferences
    and files that are not plain JSON objects (NaN, keys that are not text, ...).
    ``what`` names the argument and ``problem`` says what is wrong with it.
    """

    code = "bad_data"

    def __init__(self, what: str, problem: str) -> None:
        super().__init__(f"cannot store {what}: {problem}", what=what, problem=problem)
        self.what = what
        self.problem = problem


class SchemaError(StoreError):
    """The database schema cannot be brought to the version this code needs."""

    code = "schema_error"


class SettingsConflict(StoreError):
    """The game's settings changed since they were read: nothing was written.

    Raised by a settings write that names the ``settings_version`` it read
    (``expected_version``) when another writer (a task of this process or another
    process) has written the settings meanwhile. Read them again and redo the change;
    the Discord layer answers "please try again".
    """

    code = "settings_conflict"

    def __init__(self, game_id: int, expected: int, current: int) -> None:
        super().__init__(
            f"the settings of game {game_id} are at version {current}, "
            f"the change was made for version {expected}",
            game_id=game_id,
            expected=expected,
            current=current,
        )
        self.game_id = game_id
        self.expected = expected
        self.current = current


class StoreUnavailable(StoreError):
    """The database cannot be reached (or refuses the connection) when the store opens.

    The message is one line naming the setting and where the store looked (host and
    port, or the socket's folder, and the database), never the password.
    """

    code = "store_unavailable"
