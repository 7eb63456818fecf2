"""Malformed input to the game service: typed errors, and the game stays exactly as it was.

The service sits between the Discord layer and the store; whatever a caller gets wrong
(an action that is not a dict, NaN, a game id of 2**70, ``True`` for an id, a name with a
lone surrogate, ``expected_seq="3"``) must end in ``IllegalAction`` or a store error,
never in TypeError, OverflowError or UnicodeEncodeError, and must change nothing.

On both store drivers (SQLite and PostgreSQL, see ``tests/store/backends.py``).
"""

from __future__ import annotations

import math
from collections.abc import AsyncIterator, Awaitable, Callable
from dataclasses import dataclass
from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from bot.engine.errors import IllegalAction
from bot.engine.game import HANDLERS, SYSTEM_HANDLERS
from bot.service import NAME_MAX_LENGTH, GameService, LobbyPlayer
from bot.store import GameNotFound, StoreError
from bot.store.sql import SqlGameStore
from tests.store.backends import Backend

GUILD, CHANNEL = 111, 222
ANNA, BEN, CEM = LobbyPlayer(1001, "Anna"), LobbyPlayer(1002, "Ben"), LobbyPlayer(1003, "Cem")
ROLL = {"type": "roll"}


@dataclass
class Setup:
    """A service on a real database (either driver), with one running game and one lobby."""

    backend: Backend
    store: SqlGameStore
    service: GameService
    game: int
    lobby: int

    async def snapshot(self) -> list[str]:
        """Every row of the database, read through a second connection."""
        return await self.backend.snapshot()

    async def state_json(self, game_id: int | None = None) -> str:
        """The game's stored state as canonical JSON."""
        row = await self.store.load(self.game if game_id is None else game_id)
        assert row.state is not None
        return row.state.to_json()

    async def refused(
        self, call: Callable[[], Awaitable[Any]], error: type[Exception], code: str
    ) -> Exception:
        """Run ``call``, expect ``error`` with ``code``; the game and the file are unchanged."""
        state, rows = await self.state_json(), await self.snapshot()
        with pytest.raises(error) as caught:
            await call()
        assert caught.value.code == code  # type: ignore[attr-defined]
        assert await self.state_json() == state
        assert await self.snapshot() == rows
        return caught.value


@pytest.fixture
async def setup(backend: Backend) -> AsyncIterator[Setup]:
    """A running game of Anna and Ben (Anna first) and a lobby hosted by Cem."""
    store = backend.store()
    await store.open()
    try:
        service = GameService(store, seeds=lambda: 7)
        options: dict[str, Any] = {"preset": "classic", "lang": "de", "theme": None}
        game = await service.open_lobby(GUILD, CHANNEL, ANNA, max_players=None, **options)
        await service.join(game.id, BEN)
        await service.start(game.id, ANNA.id)
        lobby = await service.open_lobby(GUILD, CHANNEL + 1, CEM, max_players=4, **options)
        yield Setup(backend, store, service, game.id, lobby.id)
    finally:
        await store.close()


async def whose_turn(setup: Setup) -> int:
    """The Discord id of the player whose turn it is."""
    row = await setup.store.load(setup.game)
    assert row.state is not None
    return int(row.state.players[row.state.current].id)


# -- actions ------------------------------------------------------------------------------


@pytest.mark.parametrize(
    "action",
    [
        "roll",
        ["roll"],
        None,
        {},
        {"type": 5},
        {"type": ["roll"]},
        {"type": "roll", "x": math.nan},
        {"type": "roll", "x": [math.inf]},
        {"type": "roll\ud800"},
        {"type": "roll", "note": "\udfff"},
        {"type": "roll", 1: "a"},
        {"type": "roll", "x": {1, 2}},
    ],
)
async def test_malformed_actions_are_bad_actions(setup: Setup, action: Any) -> None:
    """Not a dict, no text type, NaN, surrogates, keys that are not text: bad_action."""
    player = await whose_turn(setup)
    await setup.refused(
        lambda: setup.service.act(setup.game, player, action), IllegalAction, "bad_action"
    )
    await setup.refused(
        lambda: setup.service.act_as_host(setup.game, action), IllegalAction, "bad_action"
    )


@pytest.mark.parametrize("expected_seq", ["3", "0", True, False, -1, 1.0, 2**64, [0]])
async def test_a_malformed_expected_seq_is_a_bad_action(setup: Setup, expected_seq: Any) -> None:
    """Only None or a non-negative int is a version; ``True`` is not 1 and "0" is not 0."""
    player = await whose_turn(setup)
    await setup.refused(
        lambda: setup.service.act(setup.game, player, ROLL, expected_seq=expected_seq),
        IllegalAction,
        "bad_action",
    )
    await setup.refused(
        lambda: setup.service.act_as_host(
            setup.game, {"type": "end_game"}, expected_seq=expected_seq
        ),
        IllegalAction,
        "bad_action",
    )
    # A good version still works afterwards.
    assert (await setup.service.act(setup.game, player, ROLL, expected_seq=0)).seq == 1


@pytest.mark.parametrize("game_id", [2**70, 2**63, -(2**63) - 1, -1, True, "1", 1.0, None])
async def test_a_game_id_no_game_has_is_not_found(setup: Setup, game_id: Any) -> None:
    """Out of SQLite's range, a bool, text, a float: GameNotFound, from every method."""
    player = await whose_turn(setup)
    calls: list[Callable[[], Awaitable[Any]]] = [
        lambda: setup.service.act(game_id, player, ROLL),
        lambda: setup.service.act_as_host(game_id, {"type": "end_game"}),
        lambda: setup.service.join(game_id, LobbyPlayer(1004, "Dana")),
        lambda: setup.service.leave(game_id, BEN.id),
        lambda: setup.service.add_computer(game_id, CEM.id, "easy"),
        lambda: setup.service.remove_computer(game_id, CEM.id),
        lambda: setup.service.update_lobby(game_id, CEM.id, preset="fast"),
        lambda: setup.service.start(game_id, CEM.id),
    ]
    for call in calls:
        await setup.refused(call, GameNotFound, "game_not_found")


@pytest.mark.parametrize("user_id", [2**70, 2**63, True, "1001", 1001.0, None])
async def test_a_user_id_that_is_not_one_is_a_bad_id(setup: Setup, user_id: Any) -> None:
    """``"1001"`` would have matched Anna's seat (seats keep ids as text): refused too."""
    calls: list[Callable[[], Awaitable[Any]]] = [
        lambda: setup.service.act(setup.game, user_id, ROLL),
        lambda: setup.service.leave(setup.lobby, user_id),
        lambda: setup.service.add_computer(setup.lobby, user_id, "easy"),
        lambda: setup.service.remove_computer(setup.lobby, user_id),
        lambda: setup.service.update_lobby(setup.lobby, user_id, preset="fast"),
        lambda: setup.service.start(setup.lobby, user_id),
        lambda: setup.service.join(setup.lobby, LobbyPlayer(user_id, "Dana")),
        lambda: setup.service.open_lobby(
            GUILD,
            999,
            LobbyPlayer(user_id, "Dana"),
            preset="classic",
            lang="de",
            theme=None,
            max_players=None,
        ),
    ]
    for call in calls:
        await setup.refused(call, IllegalAction, "bad_id")


# -- names --------------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("name", "kept"),
    [
        ("\ud800", "?"),
        ("Da\ud800na", "Da?na"),
        ("Da\x00na", "Da?na"),
        ("Da\nna", "Da na"),
        ("   ", "?"),
        ("D" * (NAME_MAX_LENGTH + 50), "D" * NAME_MAX_LENGTH),
        ("Dörte 🎲", "Dörte 🎲"),
    ],
)
async def test_odd_names_are_repaired_not_refused(setup: Setup, name: str, kept: str) -> None:
    """A Discord name with odd characters joins the game under a repaired name."""
    settings = await setup.service.join(setup.lobby, LobbyPlayer(1004, name))
    assert settings.lobby.players[-1] == {"id": 1004, "name": kept}
    assert (await setup.store.load(setup.lobby)).settings["players"][-1]["name"] == kept
    # The game starts with it and the name is stored as valid text.
    await setup.service.start(setup.lobby, CEM.id)
    row = await setup.store.load(setup.lobby)
    assert row.state is not None and row.state.players[1].name == kept


async def test_a_host_with_an_odd_name_opens_a_lobby(setup: Setup) -> None:
    """The host's name is repaired the same way."""
    row = await setup.service.open_lobby(
        GUILD,
        999,
        LobbyPlayer(1005, "E\ud800va"),
        preset="classic",
        lang="en",
        theme=None,
        max_players=None,
    )
    assert row.settings["players"] == [{"id": 1005, "name": "E?va"}]


async def test_a_name_that_is_not_text_is_refused(setup: Setup) -> None:
    """A name of another type is a caller's bug: bad_name, nothing stored."""
    await setup.refused(
        lambda: setup.service.join(setup.lobby, LobbyPlayer(1004, None)),  # type: ignore[arg-type]
        IllegalAction,
        "bad_name",
    )
    await setup.refused(
        lambda: setup.service.join(setup.lobby, (1004, "Dana")),  # type: ignore[arg-type]
        IllegalAction,
        "bad_id",
    )


# -- lobby options ------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("options", "code"),
    [
        ({"guild_id": 2**70}, "bad_id"),
        ({"guild_id": True}, "bad_id"),
        ({"channel_id": "222"}, "bad_id"),
        ({"preset": "nope"}, "bad_option"),
        ({"preset": ["classic"]}, "bad_option"),
        ({"lang": "xx"}, "bad_option"),
        ({"game": "chess"}, "bad_option"),
        ({"max_players": "4"}, "bad_setting"),
        ({"max_players": True}, "bad_setting"),
        ({"max_players": 1}, "bad_setting"),
        ({"max_players": 2**70}, "bad_setting"),
        ({"deadline": "1h\ud800"}, "bad_setting"),
        ({"deadline": None}, "bad_setting"),
        ({"theme": "kek\nse"}, "bad_setting"),
        ({"theme_data": {"id": "x", "a": math.nan}}, "bad_setting"),
        ({"theme_data": "kekse"}, "bad_setting"),
        ({"board_data": {"name": "no id"}}, "bad_setting"),
        ({"board_data": {"id": "x", 1: 2}}, "bad_setting"),
    ],
)
async def test_malformed_lobby_options_open_nothing(
    setup: Setup, options: dict[str, Any], code: str
) -> None:
    """Every malformed option of a new lobby is refused before a game is created."""
    arguments: dict[str, Any] = {
        "guild_id": GUILD,
        "channel_id": 999,
        "host": LobbyPlayer(1005, "Eva"),
        "preset": "classic",
        "lang": "de",
        "theme": None,
        "max_players": None,
        **options,
    }
    await setup.refused(lambda: setup.service.open_lobby(**arguments), IllegalAction, code)
    assert await setup.store.game_in_channel(999) is None


@pytest.mark.parametrize(
    ("changes", "code"),
    [
        ({"overrides": "salary"}, "bad_setting"),
        ({"overrides": {"salary": "lots"}}, "bad_setting"),
        ({"overrides": {"salary": math.nan}}, "bad_setting"),
        ({"overrides": {"salary": 10**9}}, "bad_setting"),
        ({"overrides": {"no_such_rule": 1}}, "bad_setting"),
        ({"lang": "\ud800"}, "bad_setting"),
        ({"preset": "nope"}, "bad_option"),
        ({"preset": 5}, "bad_option"),
    ],
)
async def test_malformed_lobby_changes_change_nothing(
    setup: Setup, changes: dict[str, Any], code: str
) -> None:
    """The host's changes must be plain JSON and give valid rules."""
    before = (await setup.store.load(setup.lobby)).settings
    await setup.refused(
        lambda: setup.service.update_lobby(setup.lobby, CEM.id, **changes), IllegalAction, code
    )
    assert (await setup.store.load(setup.lobby)).settings == before


async def test_a_computer_level_that_is_not_text_is_a_bad_option(setup: Setup) -> None:
    """An unhashable level used to raise TypeError from the ``in`` test."""
    for level in (["easy"], None, "grandmaster"):
        await setup.refused(
            lambda level=level: setup.service.add_computer(setup.lobby, CEM.id, level),
            IllegalAction,
            "bad_option",
        )


# -- anything at all ----------------------------------------------------------------------

ANY_VALUE = st.recursive(
    st.none() | st.booleans() | st.integers() | st.floats() | st.text(max_size=8),
    lambda children: (
        st.lists(children, max_size=3)
        | st.dictionaries(st.text(max_size=6) | st.integers(), children, max_size=3)
    ),
    max_leaves=8,
)


ACTION_TYPES = sorted({*HANDLERS, *SYSTEM_HANDLERS})
NEAR_ACTIONS = st.builds(
    lambda kind, extra: {**extra, "type": kind},
    st.sampled_from(ACTION_TYPES),
    st.dictionaries(st.sampled_from(["player", "square", "amount", "target", "x"]), ANY_VALUE),
)


@settings(
    max_examples=150, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture]
)
@given(action=ANY_VALUE | st.dictionaries(st.text(max_size=6), ANY_VALUE) | NEAR_ACTIONS)
async def test_any_action_is_applied_or_refused_with_a_typed_error(
    setup: Setup, action: Any
) -> None:
    """Whatever the action, the service applies it or raises a typed error, changing nothing.

    (The fixture's game is shared by the examples; a refused action leaves it as it was.)
    """
    player = await whose_turn(setup)
    state, rows = await setup.state_json(), await setup.snapshot()
    try:
        await setup.service.act(setup.game, player, action)
    except (IllegalAction, StoreError):
        assert await setup.state_json() == state
        assert await setup.snapshot() == rows
