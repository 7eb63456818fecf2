"""Dice you can check (bot/fairness.py): the fingerprint, and verifying a record from its seed."""

from __future__ import annotations

import copy
import hashlib
import hmac
import itertools
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
    WORDS_MAX,
    clean_words,
    commit,
    commit_secret,
    commitment,
    committed,
    derive_seed,
    export_fairness,
    fingerprint,
    lobby_words,
    matches,
    seal,
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


# -- the players' words (monopoly-seed/2) -----------------------------------------------------

SECRET = 1234567890123456789


def test_derive_seed_has_a_fixed_vector() -> None:
    """Fixed vectors anyone can recompute, e.g. with
    ``printf 'monopoly-seed/2' | openssl dgst -sha256 -hmac 1234567890123456789``
    (a6cf29aaffb553f1…: the seed is its first 8 bytes)."""
    assert derive_seed(SECRET, []) == 0xA6CF29AAFFB553F1 == 12019871744886395889
    assert derive_seed(SECRET, ["Schlossallee", "Glück"]) == 344567189811694286


def test_derive_seed_is_the_documented_hmac() -> None:
    """HMAC-SHA256 keyed with the decimal secret over the scheme's name and the words,
    sorted by their UTF-8 bytes, each with a 4-byte big-endian length."""
    words = ["Zebra", "äpfel", "Apfel", "🍀"]
    encoded = sorted(w.encode("utf-8") for w in words)
    message = b"monopoly-seed/2" + b"".join(len(w).to_bytes(4, "big") + w for w in encoded)
    digest = hmac.new(str(SECRET).encode("ascii"), message, hashlib.sha256).digest()
    assert derive_seed(SECRET, words) == int.from_bytes(digest[:8], "big")
    assert 0 <= derive_seed(SECRET, words) < 2**64


def test_derive_seed_does_not_depend_on_the_order_of_the_words() -> None:
    words = ["Anna sagt hallo", "Ben", "Cem würfelt 🎲"]
    seeds = {derive_seed(SECRET, order) for order in itertools.permutations(words)}
    assert len(seeds) == 1


def test_the_length_prefix_keeps_words_apart() -> None:
    """Without lengths ``["ab", "c"]`` and ``["a", "bc"]`` would be the same bytes."""
    assert derive_seed(SECRET, ["ab", "c"]) != derive_seed(SECRET, ["a", "bc"])
    assert derive_seed(SECRET, ["abc"]) != derive_seed(SECRET, ["ab", "c"])
    assert derive_seed(SECRET, []) != derive_seed(SECRET, ["x"])


def test_every_word_and_the_secret_change_the_seed() -> None:
    base = derive_seed(SECRET, ["Glück", "Zufall"])
    assert derive_seed(SECRET, ["Glück", "Zufal"]) != base
    assert derive_seed(SECRET, ["Glück", "Zufall", "Zufall"]) != base
    assert derive_seed(SECRET + 1, ["Glück", "Zufall"]) != base


@pytest.mark.parametrize("bad", [[7], ["ok", None], ["\ud800"]])
def test_words_must_be_text(bad: list[Any]) -> None:
    with pytest.raises(ValueError):
        derive_seed(SECRET, bad)


def test_clean_words_strips_and_composes() -> None:
    """NFC: a decomposed "ü" and a precomposed one are the same words (the same seed)."""
    assert clean_words("  Glu\u0308ck  ") == "Glück" == clean_words("Glück")
    assert clean_words("   ") == ""
    assert clean_words("x" * WORDS_MAX) == "x" * WORDS_MAX
    with pytest.raises(ValueError, match="too_long"):
        clean_words("x" * (WORDS_MAX + 1))
    with pytest.raises(ValueError, match="bad_character"):
        clean_words("zwei\nZeilen")


def test_a_lobby_commits_and_the_start_derives() -> None:
    """The lobby's settings hold the secret and its fingerprint; the start keeps the words
    of the players still there (no computer's) in seat order and the derived seed."""
    opened = commit_secret(SECRET, GAME)
    assert opened == {
        "fair_secret": SECRET,
        "seed_fingerprint": fingerprint(SECRET, GAME),
        "fair_scheme": "monopoly-seed/2",
    }
    settings = {
        **opened,
        "players": [
            {"id": 111, "name": "Anna"},
            {"id": "cpu1", "name": "Computer 1", "computer": "easy"},
            {"id": 222, "name": "Ben"},
        ],
        "lobby_words": {"222": "Ben würfelt", "111": "Anna", "333": "gone", "cpu1": "x"},
    }
    words = lobby_words(settings)
    assert words == [{"name": "Anna", "words": "Anna"}, {"name": "Ben", "words": "Ben würfelt"}]
    started = {**settings, **seal(SECRET, words)}
    assert started["fair_seed"] == derive_seed(SECRET, ["Ben würfelt", "Anna"])
    found = committed(started)
    assert found is not None and found.scheme == "monopoly-seed/2"
    assert (found.secret, found.seed, found.texts) == (
        SECRET,
        started["fair_seed"],
        ["Anna", "Ben würfelt"],
    )
    assert export_fairness(started, GAME) == {
        "scheme": "monopoly-seed/2",
        "game_id": GAME,
        "secret": SECRET,
        "words": words,
        "seed": started["fair_seed"],
        "fingerprint": fingerprint(SECRET, GAME),
    }
    # A lobby has no seed yet: nothing to export.
    assert export_fairness(settings, GAME) is None


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


# -- verifying a monopoly-seed/2 game ------------------------------------------------------

WORDS = ["Schlossallee oder nix", "🍀 Glück", "Ben"]


def test_a_game_seeded_from_secret_and_words_verifies() -> None:
    """The fingerprint is the secret's; the seed follows from the secret and the words."""
    seed = derive_seed(SECRET, WORDS)
    record, end = board_game(seed, actions=120)
    shown = short(fingerprint(SECRET, GAME))

    result = verify(
        record, seed, GAME, fingerprint=shown, final=end.to_dict(), secret=SECRET, words=WORDS
    )

    assert result.ok, result.summary()
    assert (result.scheme, result.secret, result.seed) == ("monopoly-seed/2", SECRET, seed)
    assert result.fingerprint == fingerprint(SECRET, GAME)
    # Without the seed it is derived; the words in any order.
    again = verify(record, None, GAME, secret=SECRET, words=list(reversed(WORDS)))
    assert again.ok and again.seed == seed


def test_a_card_game_seeded_from_secret_and_words_verifies() -> None:
    seed = derive_seed(SECRET, WORDS)
    _, stored, end = card_game(seed)
    result = verify(stored, seed, GAME, final=end.to_dict(), secret=SECRET, words=WORDS)
    assert result.ok and result.game == "cards", result.summary()


def test_one_changed_character_of_the_words_fails_clearly() -> None:
    """A word changed by one character: the seed named is not the one the words give."""
    seed = derive_seed(SECRET, WORDS)
    record, _ = board_game(seed, actions=40)
    changed = ["Schlossallee oder nix", "🍀 Glück", "Ben!"]

    result = verify(record, seed, GAME, secret=SECRET, words=changed)

    found = result.mismatch
    assert found is not None
    assert (found.kind, found.expected, found.recorded) == (
        "seed",
        derive_seed(SECRET, changed),
        seed,
    )
    assert "does not follow from the secret and the players' words" in result.summary()
    # Without a seed to compare, the derived seed gives another game from the start on.
    found = verify(record, None, GAME, secret=SECRET, words=changed).mismatch
    assert found is not None and (found.kind, found.detail) == ("start", "derived")
    assert "derived from the secret and the players' words" in found.describe()


def test_another_secret_is_not_the_committed_one() -> None:
    seed = derive_seed(SECRET, WORDS)
    record, _ = board_game(seed, actions=20)
    committed_to = fingerprint(SECRET, GAME)
    result = verify(record, None, GAME, fingerprint=committed_to, secret=SECRET + 1, words=WORDS)
    found = result.mismatch
    assert found is not None and (found.kind, found.detail) == ("fingerprint", "secret")
    assert "the secret does not match the fingerprint" in result.summary()


def test_a_game_of_the_first_scheme_still_verifies_as_before() -> None:
    """Started before the lobby committed: its seed was drawn at the start and committed
    to itself (monopoly-seed/1); its settings, export and check are as they were."""
    record, end = board_game(actions=80)
    settings = commit(SEED, GAME)
    found = committed(settings)
    assert found is not None and (found.scheme, found.secret, found.seed) == (
        "monopoly-seed/1",
        None,
        SEED,
    )
    result = verify(record, SEED, GAME, fingerprint=fingerprint(SEED, GAME), final=end.to_dict())
    assert result.ok and result.scheme == "monopoly-seed/1" and result.secret is None
    assert export_fairness(settings, GAME)["scheme"] == "monopoly-seed/1"  # type: ignore[index]


def test_neither_seed_nor_secret_raises() -> None:
    record, _ = board_game(actions=5)
    with pytest.raises(ValueError):
        verify(record, None, GAME)
