"""Typed settings (``bot/settings/``) read the games stored today and keep what they don't know.

The stored JSON has no format marker: games of every age are loaded as they are, each
section reading a missing key as the default today's code gave it (an old game has no
jokers, a new lobby two). The dicts below are settings as the bot stored them before
sections existed: an old board game (no jokers, quiet hours, time settings, fair dice of
``monopoly-seed/1``, no ``turn_seq`` record), a running card game of today, and a lobby
that the service opens here with today's code path. A write sends only the keys it
changed, and keys no section knows (a newer bot's) survive every write.
"""

from __future__ import annotations

import copy
from typing import Any

from bot.asyncplay import absence, handover, orders
from bot.asyncplay.timing import DEFAULTS, describe
from bot.fairness import SCHEME, SCHEME_1, committed, lobby_words
from bot.game_lock import SettingsEdit
from bot.liveness import missing_parts, stale_message
from bot.service import GameService, LobbyPlayer
from bot.settings import GameSettings, MessageRecords, SettingsPatch
from bot.store import GameRow, GameStatus
from tests.engine.conftest import game
from tests.store.backends import StoreFactory

#: A board game stored long ago: before jokers, quiet hours and the digest, with the
#: seed of ``monopoly-seed/1``, before the publisher recorded the state it shows.
OLD_BOARD_GAME: dict[str, Any] = {
    "host": 111,
    "players": [{"id": 111, "name": "alice"}, {"id": 222, "name": "bob"}],
    "preset": "classic",
    "lang": "de",
    "theme": None,
    "max_players": 8,
    "deadline": "24h",
    "turn_message": 9001,
    "turn_lines": ["🎲 alice würfelt 3 + 4"],
    "missed": {"1": 2},
    "computer": {"1": "vacation"},
    "votes": {},
    "deadline_at": 1_767_225_600,
    "fair_seed": 123_456_789,
    "seed_fingerprint": "ab" * 32,
}

#: A running card game as today's bot stores it, paused, with followers and a hand-over.
CARD_GAME: dict[str, Any] = {
    "game": "cards",
    "host": 111,
    "players": [
        {"id": 111, "name": "alice"},
        {"id": "cpu1", "name": "Computer 1", "computer": "easy"},
    ],
    "preset": "classic",
    "lang": "en",
    "theme": None,
    "max_players": 6,
    "deadline": "1h",
    "jokers": 2,
    "reminders": False,
    "missed_limit": 0,
    "digest": "8",
    "quiet_hours": False,
    "quiet_max": "4h",
    "fair_secret": 42,
    "seed_fingerprint": "cd" * 32,
    "fair_scheme": "monopoly-seed/2",
    "fair_seed": 77,
    "seed_words": [{"name": "alice", "words": "hello"}],
    "computer": {"1": "seat"},
    "computer_level": {"1": "easy"},
    "jokers_used": {"0": 1},
    "missed_seq": 12,
    "deadline_done": {"key": "12:1767225600", "excused": [0], "defaulted": []},
    "paused": True,
    "paused_at": 1_767_230_000,
    "paused_timers": [{"kind": "digest", "left": 60.0, "payload": {}, "key": "digest"}],
    "planned_seq": 13,
    "table_message": 7001,
    "table_seq": 13,
    "card_lines": ["alice draws"],
    "lobby_message": 7000,
    "final_due": None,
    "followers": [333],
    "follow_lines": ["Turn 3 · alice"],
    "follow_seq": 13,
    "follow_open": {"turn": 4, "seat": 0, "lines": []},
    "last_told": ["v:1:55:0"],
    "next_told": "4:1",
    "turn_told": "4:0",
    "handover_next": 3,
    "handover_requests": {},
    "handovers": [
        {"seat": 0, "from_id": "444", "from_name": "dora", "to_id": "111", "to_name": "alice"}
    ],
    "reminded": "reminder:12:1767225600",
    "digest_day": "2026-01-01",
}

#: Keys a newer bot might write: kept, whatever a write of this bot changes.
UNKNOWN: dict[str, Any] = {"from_a_newer_bot": {"nested": [1, 2]}, "settings_format": 9}


def _row(settings: dict[str, Any], state: Any = None, status: Any = GameStatus.RUNNING) -> Any:
    """A stored row with these settings (only what the readers look at)."""
    from datetime import UTC, datetime

    now = datetime(2026, 1, 1, tzinfo=UTC)
    return GameRow(1, 2, 3, status, 14, 111, now, now, settings, None, None, state=state)


def test_an_old_board_game_reads_with_todays_defaults() -> None:
    """Every section reads the old game; what it lacks takes the old behaviour's value."""
    settings = GameSettings.from_stored(OLD_BOARD_GAME)
    lobby, timing, play = settings.lobby, settings.timing, settings.play
    records = settings.records
    assert lobby.game == "board" and not lobby.is_cards
    assert lobby.host == 111 and lobby.is_host(111) and not lobby.is_host(222)
    assert lobby.player_names() == ("alice", "bob")
    assert lobby.rules().min_players == 2  # the preset and its (no) house rules load
    assert lobby.overrides == {} and lobby.theme_data is None and lobby.board_data is None
    # Time settings: the old game's own choice, the rest DEFAULTS (jokers 0, not NEW_GAME's).
    assert timing.deadline == "24h" and timing.deadline_seconds == 24 * 3600
    assert timing.jokers == 0 and timing.quiet_hours is True and timing.quiet_max == "12h"
    assert timing.reminders is True and timing.missed_limit == 3 and timing.digest == "off"
    assert timing.auction_seconds == timing.trade_seconds == 24 * 3600  # auto: the deadline
    assert {name: timing.value(name) for name in DEFAULTS} == {**DEFAULTS, "deadline": "24h"}
    assert play.missed == {"1": 2} and absence.computer_seats(settings) == {1}
    assert play.deadline_at == 1_767_225_600 and play.deadline_quiet == []
    assert not play.paused and play.paused_timers == [] and not play.time_limited
    assert play.orders == {} and orders.order_of(settings, 0) == {}
    assert play.handover_next == 1 and handover.former_names(settings, 0) == []
    assert absence.jokers_left(settings, 0) == 0
    assert records.turn_message == 9001
    assert records.turn_lines == ["🎲 alice würfelt 3 + 4"]
    assert not records.has(MessageRecords.turn_seq)  # a game from before the record
    assert records.auction_bids == 0 and records.trade_messages == {}
    found = committed(settings)
    assert found is not None and found.scheme == SCHEME_1 and found.seed == 123_456_789
    assert settings.unknown_keys() == set()
    assert describe(settings, "en", time_limit=False)  # one line per time setting


def test_an_old_game_without_turn_seq_still_counts_as_live() -> None:
    """The liveness rules read the old game as before: no ``turn_seq``, so the turn
    message counts as live, and a click on it for an older state says it is stale."""
    state = game(2)
    stored = {**OLD_BOARD_GAME, "planned_seq": state.seq}
    assert missing_parts(_row(stored, state)) == []
    assert stale_message(_row(stored, state), 9001, state.seq - 1) == "turn"
    assert missing_parts(_row({**stored, "turn_seq": state.seq - 1}, state)) == ["turn"]


def test_a_card_game_of_today_reads_in_every_section() -> None:
    """A game stored by today's bot: every key reads back as stored, through its section."""
    settings = GameSettings.from_stored(CARD_GAME)
    assert settings.lobby.is_cards and settings.lobby.lang == "en"
    assert settings.lobby.player_names() == ("alice", "Computer 1")
    timing = settings.timing
    assert (timing.deadline_seconds, timing.jokers, timing.reminders) == (3600, 2, False)
    assert (timing.missed_limit, timing.digest, timing.quiet_hours) == (0, "8", False)
    assert timing.quiet_max == "4h"
    play = settings.play
    assert play.paused and play.paused_at == 1_767_230_000
    assert play.paused_timers[0]["kind"] == "digest"
    assert absence.computer_level(settings, 1) == "easy" and absence.jokers_left(settings, 0) == 1
    assert play.deadline_done == CARD_GAME["deadline_done"] and play.missed_seq == 12
    assert play.handover_next == 3 and handover.former_names(settings, 0) == ["dora"]
    assert (play.reminded, play.digest_day) == ("reminder:12:1767225600", "2026-01-01")
    records = settings.records
    assert (records.table_message, records.table_seq, records.lobby_message) == (7001, 13, 7000)
    assert records.card_lines == ["alice draws"] and records.followers == [333]
    assert records.follow_open == {"turn": 4, "seat": 0, "lines": []}
    assert (records.next_told, records.turn_told, records.last_told) == ("4:1", "4:0", ["v:1:55:0"])
    assert records.live_ids() == {7000, 7001}
    found = committed(settings)
    assert found is not None and found.scheme == SCHEME and found.secret == 42
    assert found.words == (("alice", "hello"),)
    assert settings.unknown_keys() == set()


def test_a_write_sends_only_what_changed_and_keeps_unknown_keys() -> None:
    """Changing typed values patches those keys alone; unknown keys stay in the object
    (and are never removed), nested values included."""
    stored = {**copy.deepcopy(CARD_GAME), **copy.deepcopy(UNKNOWN)}
    settings = GameSettings.from_stored(stored)
    assert settings.unknown_keys() == set(UNKNOWN)
    settings.play.paused = False
    del settings.play.paused_at
    settings.records.table_seq = 14
    settings.records.forget({7001})
    patch = settings.patch(stored)
    assert patch == SettingsPatch({"table_seq": 14}, ["paused", "paused_at", "table_message"])
    after = settings.to_stored()
    assert {key: after[key] for key in UNKNOWN} == UNKNOWN
    assert stored == {**CARD_GAME, **UNKNOWN}  # the row read is never changed
    assert GameSettings.from_stored(stored).patch(stored) == SettingsPatch()


def test_patches_tell_json_apart() -> None:
    """``1`` and ``True`` are different JSON: a change from one to the other is written."""
    assert SettingsPatch.between({"paused": True}, {"paused": 1}).set == {"paused": 1}
    assert not SettingsPatch.between({"a": [1]}, {"a": [1]})


def test_an_edit_in_place_counts_against_the_row_read() -> None:
    """A nested value changed in place is a change (the edit's copy is deep)."""
    row = _row(copy.deepcopy(OLD_BOARD_GAME))
    edit = SettingsEdit(row, GameSettings.of(row))
    edit.settings.lobby.players.append({"id": 333, "name": "carol"})
    assert edit.changes() == (
        {"players": [*OLD_BOARD_GAME["players"], {"id": 333, "name": "carol"}]},
        [],
    )
    assert row.settings == OLD_BOARD_GAME


async def test_a_stored_game_of_today_survives_typed_writes(store_factory: StoreFactory) -> None:
    """Through the store: a game with keys this bot does not know is changed by the
    service's versioned edit; the unknown keys stay as they were, the version moves on."""
    async with store_factory() as store:
        service = GameService(store)
        stored = {**copy.deepcopy(OLD_BOARD_GAME), **copy.deepcopy(UNKNOWN)}
        row = await store.create_game(1, 2, None, created_by=111, settings=stored)

        def change(fresh: GameRow, settings: GameSettings) -> None:
            settings.timing.choose({"jokers": 2})
            absence.count_missed(settings, [0])

        await service.edit_settings(row.id, change)
        after = await store.load(row.id)
        assert after.settings_version == row.settings_version + 1
        assert after.settings == {**stored, "jokers": 2, "missed": {"1": 2, "0": 1}}
        assert GameSettings.of(after).timing.jokers == 2


async def test_a_lobby_opened_today_reads_in_every_section(store_factory: StoreFactory) -> None:
    """The service's own lobby (today's code path): the lobby, its time settings with
    NEW_GAME's jokers, the committed secret; words typed, then sealed at the start."""
    async with store_factory() as store:
        service = GameService(store, seeds=lambda: 7)
        row = await service.open_lobby(
            1,
            2,
            LobbyPlayer(111, "alice"),
            preset="classic",
            lang="en",
            theme=None,
            max_players=None,
            deadline="1h",
            game="cards",
        )
        settings = GameSettings.of(row)
        assert settings.lobby.is_cards and settings.lobby.max_players == 6
        assert settings.lobby.players == [{"id": 111, "name": "alice"}]
        assert settings.timing.jokers == 2 and settings.timing.deadline == "1h"
        found = committed(settings)
        assert found is not None and found.secret == 7 and found.seed is None
        await service.join(row.id, LobbyPlayer(222, "bob"))

        def words(fresh: GameRow, typed: GameSettings) -> None:
            typed.fair.lobby_words = {"222": "lucky"}

        await service.edit_settings(row.id, words)
        assert lobby_words(GameSettings.of(await store.load(row.id))) == [
            {"name": "bob", "words": "lucky"}
        ]
        started = await service.start(row.id, 111)
        after = GameSettings.of(started)
        assert not after.fair.has_lobby_words
        assert after.fair.seed_words == [{"name": "bob", "words": "lucky"}]
        assert type(after.fair.seed) is int
        assert set(started.settings) == set(row.settings) | {
            "players",
            "fair_seed",
            "seed_words",
        }
