"""The game service: lobbies, seats and actions on top of the store, without Discord.

(Longer than ~400 lines: lobbies, seats, actions and settings edits are the one service
the Discord layer talks to; its argument checks are in ``bot/service_args.py``.)

The cogs turn clicks into calls here; this module maps Discord users to seats,
keeps lobby lists consistent under a per-game lock, starts games with a fresh
seed and hands every action to the store (which applies it atomically).

Every method checks its arguments before it reads or writes anything, so malformed
input raises a typed error and changes nothing:

- a game id that is not an ``int`` in SQLite's 64-bit range (bools are not ints here)
  raises the store's :class:`~bot.store.errors.GameNotFound`: no game can have it;
- any other id (guild, channel, user, a lobby player's) raises
  ``IllegalAction("bad_id", what=<argument>)``;
- an action that is not a dict with a text ``type`` and plain JSON values (no NaN or
  infinity, no lone surrogates, text keys only), or an ``expected_seq`` that is not None
  or a non-negative int, raises ``IllegalAction("bad_action")``;
- lobby options (preset, language, game) that do not exist raise ``bad_option``, other
  lobby values that are malformed ``bad_setting``.

A lobby player's name is not refused but repaired (see :func:`bot.text_input.clean_name`):
Discord lets people put odd characters in their names, and a player should not be locked
out of a game for that. A name that is not text at all is a caller's bug and raises
``IllegalAction("bad_name")``.

Settings are never overwritten blindly: every read-modify-write here writes back only the
keys it changed (:meth:`~bot.store.GameStore.patch_settings`) and names the settings
version it read, so a change another process made meanwhile is not lost; the store raises
:class:`~bot.store.errors.SettingsConflict` instead. :meth:`GameService.edit_settings`
(and every lobby method) then reads again and redoes the change; :meth:`GameService.editing`
cannot (a ``with`` block runs once) and lets the conflict through, for the Discord layer to
answer "please try again". The in-process :class:`GameLock` stays: it keeps this process's
own writers from conflicting with each other at all.
"""

from __future__ import annotations

import copy
import inspect
import secrets
from collections.abc import AsyncIterator, Awaitable, Callable
from contextlib import asynccontextmanager
from dataclasses import replace
from typing import Any, TypeVar, overload

from bot.cardgame import new_game as new_card_game
from bot.engine.board import available_boards, custom_board
from bot.engine.computer import LEVELS
from bot.engine.errors import IllegalAction
from bot.engine.game import new_game
from bot.engine.rules import Rules
from bot.engine.state import GameState
from bot.fairness import commit_secret, lobby_words, seal
from bot.game_lock import GameLock, SettingsEdit
from bot.i18n import LANGUAGES
from bot.service_args import (
    NAME_MAX_LENGTH,
    LobbyPlayer,
    check_action,
    check_data,
    check_expected_seq,
    check_game_id,
    check_id,
    check_option,
    check_player,
    check_preset,
)
from bot.settings import GameSettings
from bot.settings.lobby import CHOOSABLE
from bot.store import ApplyResult, GameRow, GameStatus, GameStore, SettingsConflict
from bot.store.kinds import AnyState
from bot.text_input import is_sqlite_int, json_problem

SeedSource = Callable[[], int]
T = TypeVar("T")
#: How often a lobby change is tried when another process changed the lobby meanwhile.
EDIT_ATTEMPTS = 3
#: MONOPOLY Das Kartenspiel is for 2 to 6 players (rulebook 004).
CARD_GAME_MAX_PLAYERS = 6
#: The games a lobby can be for.
GAMES = ("board", "cards")


__all__ = ["NAME_MAX_LENGTH", "GameLock", "GameService", "LobbyPlayer", "SettingsEdit"]


class GameService:
    """Lobbies and actions for every game, backed by a :class:`GameStore`."""

    def __init__(self, store: GameStore, *, seeds: SeedSource | None = None) -> None:
        self.store = store
        self._seeds = seeds or (lambda: secrets.randbits(62))
        self._lobby_locks: dict[int, GameLock] = {}

    def lock(self, game_id: int) -> GameLock:
        """The game's lock for changes to its settings (lobby lists, messages, timers).

        Actions need no lock (the store applies them atomically). Settings are read,
        changed and written back, so every writer of this process takes this lock: the
        writes carry the version they read (another process's change is never lost, see
        the module docstring), and the lock spares this process's own writers the
        conflicts. The lock is re-entrant within a task, so a step that holds it may
        call another.
        """
        return self._lobby_locks.setdefault(game_id, GameLock())

    _lock = lock

    @asynccontextmanager
    async def editing(self, game_id: int) -> AsyncIterator[SettingsEdit]:
        """Read, change and write back a game's settings under its lock.

        The block gets a :class:`SettingsEdit` (the row as stored and a copy of its
        settings to change, :class:`~bot.settings.GameSettings`). When the block ends,
        the top-level keys it changed or removed are written
        (:meth:`~bot.store.GameStore.patch_settings`), naming the settings version that
        was read; nothing is written if the block raised (e.g.
        an ``IllegalAction`` refusing the change), called :meth:`SettingsEdit.cancel`
        or changed nothing.

        If another process wrote the settings after they were read, the write raises
        :class:`~bot.store.errors.SettingsConflict` and changes nothing: a block runs
        once and cannot be redone here, so the caller answers "please try again" (the
        Discord layer does), or a timer's handler fails and is tried again. What else the
        block did (timers planned, messages sent) stays done; a block that must be
        redone as a whole belongs in :meth:`edit_settings`.
        """
        async with self.lock(game_id):
            row = await self.store.load(game_id)
            edit = SettingsEdit(row, GameSettings.of(row))
            yield edit
            if not edit.cancelled:
                patch = edit.patch()
                if patch:
                    await self.store.patch_settings(
                        game_id, patch.set, patch.remove, expected_version=row.settings_version
                    )

    @overload
    async def edit_settings(
        self,
        game_id: int,
        change: Callable[[GameRow, GameSettings], Awaitable[T]],
        *,
        attempts: int = EDIT_ATTEMPTS,
    ) -> T: ...

    @overload
    async def edit_settings(
        self,
        game_id: int,
        change: Callable[[GameRow, GameSettings], T],
        *,
        attempts: int = EDIT_ATTEMPTS,
    ) -> T: ...

    async def edit_settings(
        self,
        game_id: int,
        change: Callable[[GameRow, GameSettings], T | Awaitable[T]],
        *,
        attempts: int = EDIT_ATTEMPTS,
    ) -> T:
        """Change a game's settings with ``change(row, settings)``, redone on a conflict.

        ``change`` gets the row as stored and a copy of its settings
        (:class:`~bot.settings.GameSettings`), changes the copy in place (or raises to
        refuse, e.g. ``IllegalAction``: nothing is written) and returns what this method
        returns; it may be a coroutine function. Under the game's lock, the keys it
        changed or removed are written naming the version that was read. If another
        process wrote the settings meanwhile (:class:`~bot.store.errors.SettingsConflict`),
        the settings are read again and
        ``change`` runs again on the fresh row, up to ``attempts`` times in all; after
        the last the conflict is raised. So ``change`` must be safe to run more than once:
        it decides and changes the settings, and leaves messages and timers to the caller
        (after this returns).
        """
        game_id = check_game_id(game_id)
        if attempts < 1:
            raise ValueError("attempts must be at least 1")
        for attempt in range(1, attempts + 1):
            async with self.lock(game_id):
                row = await self.store.load(game_id)
                edit = SettingsEdit(row, GameSettings.of(row))
                result = change(row, edit.settings)
                if inspect.isawaitable(result):
                    result = await result
                patch = edit.patch()
                if not patch:
                    return result
                try:
                    await self.store.patch_settings(
                        game_id, patch.set, patch.remove, expected_version=row.settings_version
                    )
                except SettingsConflict:
                    if attempt == attempts:
                        raise
                    continue
                return result
        raise AssertionError("unreachable")  # the loop returns or raises

    # -- lobby --------------------------------------------------------------------------

    async def open_lobby(
        self,
        guild_id: int,
        channel_id: int,
        host: LobbyPlayer,
        *,
        preset: str,
        lang: str,
        theme: str | None,
        max_players: int | None,
        deadline: str = "off",
        game: str = "board",
        theme_data: dict[str, Any] | None = None,
        board_data: dict[str, Any] | None = None,
        board: str | None = None,
    ) -> GameRow:
        """Create a lobby in the channel with the host as its first player.

        ``game`` is ``board`` (MONOPOLY) or ``cards`` (MONOPOLY Das Kartenspiel, 2–6).
        ``theme_data`` is a server's own theme and ``board_data`` a server's own board,
        copied so the game keeps them; the board's id becomes the rules' ``board``.
        ``board`` is a shipped board to play instead of the preset's (the rules'
        ``board`` too); ``board_data`` wins over it, and the card game has none.
        ``max_players`` is None (as many as the game allows) or at least 2. Malformed
        arguments raise before anything is stored (see the module docstring).

        The lobby opens committed to its dice (docs/fair-dice.md, ``monopoly-seed/2``): a
        secret is drawn now and kept (``fair_secret``, shown only once the game is over or
        the lobby closed) with its fingerprint (``seed_fingerprint``, shown at once), before
        anyone joins or the rules are known.
        """
        guild_id, channel_id = check_id(guild_id, "guild_id"), check_id(channel_id, "channel_id")
        host = check_player(host)
        rules = Rules.from_preset(check_preset(preset))
        if lang not in LANGUAGES:
            raise IllegalAction("bad_option", option=lang)
        if game not in GAMES:
            raise IllegalAction("bad_option", option=game)
        theme = None if theme is None else check_option(theme, "theme")
        deadline = check_option(deadline, "deadline")
        if max_players is not None and (not is_sqlite_int(max_players) or max_players < 2):
            raise IllegalAction("bad_setting", detail="max_players")
        theme_data = check_data(theme_data, "theme_data")
        board_data = check_data(board_data, "board_data")
        if board_data is not None and not isinstance(board_data.get("id"), str):
            raise IllegalAction("bad_setting", detail="board_data")
        if board is not None and board not in available_boards():
            raise IllegalAction("bad_option", option=str(board)[:100])
        most = CARD_GAME_MAX_PLAYERS if game == "cards" else rules.max_players
        settings = GameSettings()
        lobby = settings.lobby
        lobby.game, lobby.host = game, host.id
        lobby.players = [{"id": host.id, "name": host.name}]
        lobby.preset, lobby.lang, lobby.theme = preset, lang, theme
        lobby.max_players = min(max_players or most, most)
        settings.timing.start_new_game(deadline)
        if theme_data is not None:
            lobby.theme_data = theme_data
        if board_data is not None:
            lobby.board_data = board_data
            lobby.overrides = {"board": board_data["id"]}
        elif board is not None and board != rules.board and game == "board":
            lobby.overrides = {"board": board}
        secret = self._seeds()
        row = await self.store.create_game(
            guild_id, channel_id, None, created_by=host.id, settings=settings.to_stored()
        )
        # The fingerprint names the game, whose id the store gives only now. Nobody sees
        # the lobby before this returns (its message is posted after), so the secret is
        # committed before anyone could join; a lobby left without it by a crash here is
        # committed at its start instead (see _start).
        await self.store.patch_settings(row.id, commit_secret(secret, row.id))
        return await self.store.load(row.id)

    async def join(self, game_id: int, player: LobbyPlayer) -> GameSettings:
        """Add ``player`` (its name repaired) to the lobby; returns the new settings."""
        game_id, player = check_game_id(game_id), check_player(player)

        def change(row: GameRow, settings: GameSettings) -> GameSettings:
            _check_lobby(row)
            lobby = settings.lobby
            players = list(lobby.players)
            if any(p["id"] == player.id for p in players):
                raise IllegalAction("already_joined")
            if len(players) >= lobby.max_players:
                raise IllegalAction("lobby_full", maximum=lobby.max_players)
            players.append({"id": player.id, "name": player.name})
            lobby.players = players
            return settings

        return await self.edit_settings(game_id, change)

    async def leave(self, game_id: int, user_id: int) -> GameSettings:
        """Remove a player from the lobby (the host cannot leave; they end it)."""
        game_id, user_id = check_game_id(game_id), check_id(user_id, "user_id")

        def change(row: GameRow, settings: GameSettings) -> GameSettings:
            _check_lobby(row)
            lobby = settings.lobby
            if lobby.is_host(user_id):
                raise IllegalAction("host_cannot_leave")
            players = [p for p in lobby.players if p["id"] != user_id]
            if len(players) == len(lobby.players):
                raise IllegalAction("not_in_lobby")
            lobby.players = players
            # Whoever leaves takes their words along (docs/fair-dice.md).
            typed = settings.fair.lobby_words
            if isinstance(typed, dict) and str(user_id) in typed:
                settings.fair.lobby_words = {k: v for k, v in typed.items() if k != str(user_id)}
            return settings

        return await self.edit_settings(game_id, change)

    async def add_computer(self, game_id: int, user_id: int, level: str) -> GameSettings:
        """The host seats a computer player of ``level`` in the lobby; the new settings."""
        game_id, user_id = check_game_id(game_id), check_id(user_id, "user_id")
        if not isinstance(level, str) or level not in LEVELS:
            raise IllegalAction("bad_option", option=level)

        def change(row: GameRow, settings: GameSettings) -> GameSettings:
            _check_lobby(row)
            lobby = settings.lobby
            if not lobby.is_host(user_id):
                raise IllegalAction("host_only")
            players = list(lobby.players)
            if len(players) >= lobby.max_players:
                raise IllegalAction("lobby_full", maximum=lobby.max_players)
            taken = {p["id"] for p in players}
            number = next(n for n in range(1, 11) if f"cpu{n}" not in taken)
            players.append({"id": f"cpu{number}", "name": f"Computer {number}", "computer": level})
            lobby.players = players
            return settings

        return await self.edit_settings(game_id, change)

    async def remove_computer(self, game_id: int, user_id: int) -> GameSettings:
        """The host takes the last computer player out of the lobby; the new settings."""
        game_id, user_id = check_game_id(game_id), check_id(user_id, "user_id")

        def change(row: GameRow, settings: GameSettings) -> GameSettings:
            _check_lobby(row)
            lobby = settings.lobby
            if not lobby.is_host(user_id):
                raise IllegalAction("host_only")
            players = list(lobby.players)
            computers = [i for i, p in enumerate(players) if p.get("computer")]
            if not computers:
                raise IllegalAction("no_computer_player")
            del players[computers[-1]]
            lobby.players = players
            return settings

        return await self.edit_settings(game_id, change)

    async def update_lobby(self, game_id: int, user_id: int, **changes: Any) -> GameSettings:
        """The host changes lobby settings (preset, language, rule overrides).

        The changes must be plain JSON, name only those settings and give valid rules,
        else ``bad_setting`` (or ``bad_option`` for a preset that does not exist) and
        nothing changes.
        """
        game_id, user_id = check_game_id(game_id), check_id(user_id, "user_id")
        problem = json_problem(changes)
        if problem is not None:
            raise IllegalAction("bad_setting", detail=problem)
        unknown = sorted(set(changes) - set(CHOOSABLE))
        if unknown:
            raise IllegalAction("bad_setting", detail=unknown[0][:100])

        def change(row: GameRow, settings: GameSettings) -> GameSettings:
            _check_lobby(row)
            lobby = settings.lobby
            if not lobby.is_host(user_id):
                raise IllegalAction("host_only")
            lobby.choose(copy.deepcopy(changes))
            overrides = lobby.overrides
            if not isinstance(overrides, dict):
                raise IllegalAction("bad_setting", detail="overrides")
            try:
                Rules.from_preset(check_preset(lobby.preset), **overrides)
            except (TypeError, ValueError) as error:  # out of bounds or of the wrong type
                raise IllegalAction("bad_setting", detail=str(error)) from error
            return settings

        return await self.edit_settings(game_id, change)

    async def start(self, game_id: int, user_id: int) -> GameRow:
        """The host starts the game: seats in joining order, the seed derived now.

        The generator's seed is derived from the secret committed when the lobby opened
        and the players' words (:func:`bot.fairness.derive_seed`) and kept in the settings
        (``fair_seed``, never shown before the game is over) with the words
        (``seed_words``, shown from the start), written in the same settings version the
        start names; see :mod:`bot.fairness`.

        The game starts only from the lobby as it was read: if another process changed
        it meanwhile (a player joined, say), it is read again and the start redone, up
        to :data:`EDIT_ATTEMPTS` times, so nobody who joined is left out.
        """
        game_id, user_id = check_game_id(game_id), check_id(user_id, "user_id")
        async with self._lock(game_id):
            for attempt in range(1, EDIT_ATTEMPTS + 1):
                try:
                    return await self._start(game_id, user_id)
                except SettingsConflict:
                    if attempt == EDIT_ATTEMPTS:
                        raise
        raise AssertionError("unreachable")  # the loop returns or raises

    async def _start(self, game_id: int, user_id: int) -> GameRow:
        """One try of :meth:`start` (the caller holds the lock)."""
        row = await self._lobby(game_id)
        settings = GameSettings.of(row)
        lobby = settings.lobby
        if not lobby.is_host(user_id):
            raise IllegalAction("host_only")
        players = [(str(p["id"]), p["name"]) for p in lobby.players]
        # The commitment (docs/fair-dice.md): the secret was drawn and its fingerprint
        # shown when the lobby opened; the seed follows from it and the words, which are
        # fixed from now on. A lobby opened before secrets were committed at the opening
        # (or left without one by a crash) commits to a fresh secret now.
        fair = settings.fair
        secret = fair.secret
        if type(secret) is not int:
            secret = self._seeds()
            fair.update(commit_secret(secret, game_id))
        fair.update(seal(secret, lobby_words(settings)))
        seed = fair.seed
        state: AnyState
        if lobby.is_cards:
            state = new_card_game(players, seed=seed)
        else:
            rules = lobby.rules()
            # A server's own board travels in the lobby's settings (see open_lobby).
            data = lobby.board_data
            board = custom_board(data) if data else None
            state = new_game(players, seed=seed, rules=rules, board=board)
        # The seed is kept, secret until the game is over, rather than worked out from the
        # start state later, so that it is exactly the number the secret and the words
        # give, whatever the engine's setup draws from the generator.
        computers = {
            str(seat): p["computer"] for seat, p in enumerate(lobby.players) if p.get("computer")
        }
        if computers:
            # Computer seats play from the first move (see cogs.monopoly._absence).
            settings.play.computer = {seat: "seat" for seat in computers}
            settings.play.computer_level = computers
        del fair.lobby_words  # the words are sealed into the seed now
        patch = settings.patch(row.settings)
        info = await self.store.patch_settings(
            game_id, patch.set, patch.remove, expected_version=row.settings_version
        )
        return await self.store.start_game(
            game_id, state, expected_settings_version=info.settings_version
        )

    async def _lobby(self, game_id: int) -> GameRow:
        return _check_lobby(await self.store.load(game_id))

    # -- play ---------------------------------------------------------------------------

    @staticmethod
    def seat_of(state: GameState, user_id: int) -> int | None:
        """The seat of a Discord user in the game, or None."""
        key = str(user_id)
        for seat, player in enumerate(state.players):
            if player.id == key:
                return seat
        return None

    async def act(
        self,
        game_id: int,
        user_id: int,
        action: dict[str, Any],
        *,
        expected_seq: int | None = None,
    ) -> ApplyResult:
        """Apply ``action`` for the user's seat; raises IllegalAction or StaleAction.

        The result names the seat as its ``actor``: a player who acts themselves is
        back at the table (see ``cogs.monopoly._absence``). Malformed arguments raise
        before the game is read (see the module docstring).
        """
        game_id, user_id = check_game_id(game_id), check_id(user_id, "user_id")
        action, expected_seq = check_action(action), check_expected_seq(expected_seq)
        row = await self.store.load(game_id)
        if row.state is None:
            raise IllegalAction("not_started")
        seat = self.seat_of(row.state, user_id)
        if seat is None:
            raise IllegalAction("not_a_player")
        if GameSettings.of(row).play.paused:
            raise IllegalAction("game_paused")
        result = await self.store.apply(
            game_id, {**action, "player": seat}, expected_seq=expected_seq
        )
        return replace(result, actor=seat)

    async def act_as_host(
        self, game_id: int, action: dict[str, Any], *, expected_seq: int | None = None
    ) -> ApplyResult:
        """Apply a host or system action (``remove_player``, ``end_game``, ``time_up``)."""
        game_id = check_game_id(game_id)
        action, expected_seq = check_action(action), check_expected_seq(expected_seq)
        return await self.store.apply(game_id, action, expected_seq=expected_seq)


def _check_lobby(row: GameRow) -> GameRow:
    """``row`` if it is still a lobby; ``IllegalAction("already_started")`` otherwise."""
    if row.status != GameStatus.LOBBY:
        raise IllegalAction("already_started")
    return row
