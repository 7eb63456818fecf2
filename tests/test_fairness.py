"""Dice you can check (bot/fairness.py): the fingerprint, and verifying a record from its seed."""

from __future__ import annotations

import copy
import hashlib
from typing import Any

import pytest

from bot.cardgame import CardRecord
from bot.cardgame import apply_action as apply_card_action
from bot.cardgame import new_game as new_card_game
from bot.cardgame.simple_player import SimpleCardPlayer
from bot.cardgame.simple_player import next_simple_action as next_card_action
from bot.engine.game import apply_action, new_game
from bot.engine.record import GameRecord
from bot.engine.rng import SplitMix64
from bot.engine.rules import Rules
from bot.engine.simple_players import next_simple_action
from bot.engine.state import GameState
from bot.fairness import (
    SHORT_LENGTH,
    commit,
    commitment,
    export_fairness,
    fingerprint,
    matches,
    short,
    verify,
)

#: Seeds as the bot draws them (62 random bits): large, so they stand out in any text.
SEED = 3_141_592_653_589_793_238 & ((1 << 62) - 1)
OTHER_SEED = SEED + 1
GAME = 42
SEATS = [("111", "Anna"), ("222", "Ben"), ("333", "Cem")]


def board_game(
    seed: int = SEED, *, actions: int = 400, **rules: Any
) -> tuple[GameRecord, GameState]:
    """A board game of three simple players from ``seed``: its record and its end state."""
    state = new_game(SEATS, seed=seed, rules=Rules.from_preset("classic", **rules))
    record = GameRecord.begin(state)
    for _ in range(actions):
        action = next_simple_action(state)
        if action is None:
            break
        record.add(action, apply_action(state, action))
    return record, state


def card_game(seed: int = SEED) -> tuple[CardRecord, GameRecord, Any]:
    """A card game of three simple players played to its end: its record (both forms:
    with the deals noted, and as the store keeps it) and its end state."""
    state = new_card_game(SEATS, seed)
    cards, stored = CardRecord.begin(state), GameRecord.begin(state)
    players = [SimpleCardPlayer() for _ in SEATS]
    while state.phase != "over":
        action = next_card_action(state, players)
        assert action is not None
        events = apply_card_action(state, action)
        cards.add(action, events)
        stored.add(action, events)
    return cards, stored, state


def thrown(record: GameRecord) -> list[tuple[int, int, list[int]]]:
    """Every throw of a record: (action number from 1, throw number from 1, the dice)."""
    found = []
    for number, entry in enumerate(record.actions, 1):
        for dice in entry["dice"]:
            found.append((number, len(found) + 1, dice))
    return found


# -- the fingerprint ------------------------------------------------------------------------


def test_the_fingerprint_is_sha256_of_a_fixed_text() -> None:
    """A fixed vector: anyone's own SHA-256 of the documented text gives the same digits."""
    assert commitment(1234567890123456789, 42) == b"monopoly-seed:42:1234567890123456789"
    full = fingerprint(1234567890123456789, 42)
    assert full == "be950ed2e4218a3ade94f04503ff49d376af98687cefa8e06cd7ccb058fb3919"
    assert full == hashlib.sha256(b"monopoly-seed:42:1234567890123456789").hexdigest()
    assert short(full) == "be950ed2e4218a3a" and SHORT_LENGTH == 16


def test_the_fingerprint_depends_on_the_seed_and_the_game() -> None:
    """Another seed or another game: another fingerprint (one cannot be passed off for another)."""
    assert len({fingerprint(SEED, GAME), fingerprint(OTHER_SEED, GAME), fingerprint(SEED, 43)}) == 3


@pytest.mark.parametrize("seed", [-1, 1 << 64, True, 1.0, "7"])
def test_a_seed_is_a_64_bit_whole_number(seed: Any) -> None:
    with pytest.raises(ValueError):
        fingerprint(seed, GAME)


@pytest.mark.parametrize("game", [0, -3, True, "12"])
def test_a_game_id_is_a_positive_whole_number(game: Any) -> None:
    with pytest.raises(ValueError):
        fingerprint(SEED, game)


def test_the_short_fingerprint_matches_the_full_one() -> None:
    """Discord shows 16 digits; those (or the whole) are accepted, fewer are not."""
    full = fingerprint(SEED, GAME)
    assert matches(full, full) and matches(short(full).upper(), full)
    assert not matches(full[:8], full)
    assert not matches(fingerprint(OTHER_SEED, GAME), full)


def test_the_settings_of_a_started_game_and_of_its_export() -> None:
    """The secret seed and the public fingerprint; an export names scheme, game and seed."""
    settings = commit(SEED, GAME)
    assert settings == {"fair_seed": SEED, "seed_fingerprint": fingerprint(SEED, GAME)}
    assert export_fairness({**settings, "lang": "de"}, GAME) == {
        "scheme": "monopoly-seed/1",
        "game_id": GAME,
        "seed": SEED,
        "fingerprint": fingerprint(SEED, GAME),
    }
    assert export_fairness({"lang": "de"}, GAME) is None


# -- the board game -------------------------------------------------------------------------


def test_an_honest_board_game_verifies() -> None:
    """Every throw, the shuffled decks, who starts and the end all follow from the seed."""
    record, end = board_game()
    throws = thrown(record)
    assert len(throws) > 50

    result = verify(
        record.to_dict(), SEED, GAME, fingerprint=fingerprint(SEED, GAME), final=end.to_dict()
    )

    assert result.ok, result.summary()
    assert (result.game, result.throws, result.actions) == (
        "board",
        len(throws),
        len(record.actions),
    )
    assert result.deals == 2  # the Chance and Community Chest decks
    assert result.end_checked
    assert result.summary().startswith(f"all {len(throws)} throws match")
    assert result.fingerprint == fingerprint(SEED, GAME)


def test_a_game_whose_deeds_were_dealt_verifies() -> None:
    """The short game deals deeds at random: that shuffle comes from the seed as well."""
    record, end = board_game(actions=100, deal_deeds=2)
    result = verify(record, SEED, GAME, final=end.to_dict())
    assert result.ok, result.summary()
    assert result.deals == 3


def test_one_altered_throw_fails_at_that_throw() -> None:
    """One throw in the middle of the record changed: the check names exactly that throw."""
    record, _ = board_game()
    raw = record.to_dict()
    number, count, dice = thrown(record)[20]
    entry = raw["actions"][number - 1]
    index = entry["dice"].index(dice)
    forged = [dice[0] % 6 + 1, dice[1]]
    entry["dice"][index] = forged

    result = verify(raw, SEED, GAME)

    assert not result.ok
    found = result.mismatch
    assert found is not None
    assert (found.kind, found.action, found.throw) == ("throw", number, count)
    assert (found.expected, found.recorded) == (dice, forged)
    assert result.throws == count - 1  # the throws before it matched
    assert f"action {number}, throw {count}" in result.summary()


def test_a_missing_throw_fails() -> None:
    """A throw dropped from the record is named: the seed gives it, the record has nothing."""
    record, _ = board_game(actions=60)
    raw = record.to_dict()
    number, count, dice = thrown(record)[3]
    raw["actions"][number - 1]["dice"] = []
    found = verify(raw, SEED, GAME).mismatch
    assert found is not None
    assert (found.kind, found.throw, found.expected, found.recorded) == ("throw", count, dice, None)


def test_an_altered_card_order_fails_at_the_start() -> None:
    """The Chance cards in another order than the seed shuffles them: the start is wrong."""
    record, _ = board_game(actions=40)
    raw = copy.deepcopy(record.to_dict())
    deck = raw["start"]["decks"]["chance"]
    deck[0], deck[1] = deck[1], deck[0]

    found = verify(raw, SEED, GAME).mismatch

    assert found is not None
    assert (found.kind, found.fields) == ("start", ("decks.chance",))


def test_a_wrong_seed_fails_at_the_start() -> None:
    """Another seed gives other decks and another generator from the very start."""
    record, _ = board_game(actions=40)
    found = verify(record, OTHER_SEED, GAME).mismatch
    assert found is not None and found.kind == "start"
    assert "rng" in found.fields


def test_a_seed_that_is_not_the_committed_one_fails_first() -> None:
    """The fingerprint shown at the start binds the seed: another seed is refused at once,
    even one that gives the same game (it is not the one committed to)."""
    record, _ = board_game(actions=40)
    found = verify(record, SEED, GAME, fingerprint=fingerprint(OTHER_SEED, GAME)).mismatch
    assert found is not None and found.kind == "fingerprint"
    found = verify(record, SEED, GAME, fingerprint=fingerprint(SEED, GAME + 1)).mismatch
    assert found is not None and found.kind == "fingerprint"


def test_the_record_s_own_generator_is_not_trusted() -> None:
    """A forged record that replays by itself (its start's generator replaced, its dice
    thrown from that one) still fails: the generator is computed from the seed."""
    honest, _ = board_game(actions=1)
    start = GameState.from_dict(honest.start)
    start.rng = SplitMix64(123456789)  # a generator the operator chose
    forged = GameRecord.begin(start)
    state = start.copy()
    for _ in range(60):
        action = next_simple_action(state)
        assert action is not None
        forged.add(action, apply_action(state, action))
    forged.replay()  # consistent in itself

    found = verify(forged, SEED, GAME).mismatch

    assert found is not None and (found.kind, found.fields) == ("start", ("rng",))


def test_a_changed_end_state_fails_at_the_end() -> None:
    """Every throw matches, but the stored end was changed (money added): named as such."""
    record, end = board_game(actions=80)
    final = end.to_dict()
    final["players"][1]["cash"] += 500
    found = verify(record, SEED, GAME, final=final).mismatch
    assert found is not None and (found.kind, found.fields) == ("end", ("players[1].cash",))


def test_an_action_the_seed_s_dice_do_not_allow_fails_at_that_action() -> None:
    """An action that cannot be made in the game the seed gives is named with the refusal."""
    record, _ = board_game(actions=30)
    raw = record.to_dict()
    raw["actions"][0]["action"] = {"type": "end_turn", "player": 0}
    found = verify(raw, SEED, GAME).mismatch
    assert found is not None
    assert (found.kind, found.action, found.detail) in {
        ("action", 1, "wrong_phase"),
        ("action", 1, "not_your_turn"),
    }


def test_verifying_changes_nothing_of_the_record() -> None:
    record, _ = board_game(actions=50)
    raw = record.to_dict()
    before = copy.deepcopy(raw)
    verify(raw, SEED, GAME)
    assert raw == before


@pytest.mark.parametrize(
    "bad",
    [
        {"format": "monopoly-scenario/1"},
        {"format": "monopoly-record/1", "start": {"format": "x"}, "actions": []},
        {"format": "monopoly-record/1", "start": None, "actions": []},
        "not a record",
    ],
)
def test_a_document_that_is_no_record_raises(bad: Any) -> None:
    with pytest.raises(ValueError):
        verify(bad, SEED, GAME)


def test_entries_without_an_action_raise() -> None:
    record, _ = board_game(actions=5)
    raw = record.to_dict()
    raw["actions"].append({"dice": []})
    with pytest.raises(ValueError):
        verify(raw, SEED, GAME)


# -- the card game ---------------------------------------------------------------------------


def test_an_honest_card_game_verifies_in_both_record_forms() -> None:
    """The first dealer, the first deal and every later shuffle follow from the seed."""
    cards, stored, end = card_game()
    rounds = sum(len(entry["deals"]) for entry in cards.actions) + 1

    for record in (cards, stored.to_dict()):
        result = verify(record, SEED, GAME, final=end.to_dict())
        assert result.ok, result.summary()
        assert (result.game, result.deals, result.throws) == ("cards", rounds, 0)
        assert result.summary().startswith(f"all {rounds} shuffles match")


def test_an_altered_deal_fails_at_that_shuffle() -> None:
    """A round's deal noted in the record that the seed does not give: named."""
    cards, _, _ = card_game()
    raw = cards.to_dict()
    number = next(n for n, e in enumerate(raw["actions"], 1) if e["deals"])
    raw["actions"][number - 1]["deals"][0] = "0" * 16
    found = verify(raw, SEED, GAME).mismatch
    assert found is not None
    assert (found.kind, found.action, found.deal) == ("deal", number, 2)


def test_an_altered_card_order_of_the_card_game_fails_at_the_start() -> None:
    """Two cards of the stock swapped in the start: not the seed's shuffle."""
    _, stored, _ = card_game()
    raw = stored.to_dict()
    stock = raw["start"]["stock"]
    stock[-1], stock[-2] = stock[-2], stock[-1]
    found = verify(raw, SEED, GAME).mismatch
    assert found is not None and (found.kind, found.fields) == ("start", ("stock",))


def test_a_card_game_from_another_seed_fails_at_the_start() -> None:
    _, stored, _ = card_game()
    found = verify(stored, OTHER_SEED, GAME).mismatch
    assert found is not None and found.kind == "start"
