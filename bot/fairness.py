"""Dice you can check: the commitment to a game's seed, and the check of a record against it.

Every throw of the dice and every shuffle of a game comes from one generator
(:class:`~bot.engine.rng.SplitMix64`) started at the game's **seed**. When a game starts
the bot shows the **fingerprint** of that seed, :func:`fingerprint`: the SHA-256 of
``monopoly-seed:{game_id}:{seed}`` (UTF-8, both numbers in decimal). The fingerprint
fixes the seed without telling it; the seed itself is shown only once the game is over.
Then :func:`verify` rebuilds the start of the game from the seed alone (the card decks,
the deeds dealt, who starts; the card game's first dealer and first deal), replays every
action of the record and compares each throw (and each shuffle the record notes) with
what the generator gives, and the end with the stored end. The record's own generator
state is never trusted: it is only compared with the one computed from the seed.

Since ``monopoly-seed/2`` (:data:`SCHEME`) nobody can *choose* the seed either: a
**secret** is drawn and committed to (its fingerprint, the same text with the secret in
place of the seed) when the lobby opens, before anyone joins; the players may add their
own **words** until the start; and the generator's seed is :func:`derive_seed` of the
secret and all the words. The operator does not know the words when committing, the
players do not know the secret when choosing them. Games started before that
(``monopoly-seed/1``: the seed drawn at the start and committed to itself) verify as
they always did.

The scheme, with a few lines of Python anyone can run, is in ``docs/fair-dice.md``.

Pure: no Discord, no store, no clock (the callers load the record and the seed).

(Longer than ~400 lines: the two schemes, the words' rules, the check of a record and the
settings a game keeps for its commitment belong together; splitting them would spread one
promise over several modules.)
"""

from __future__ import annotations

import copy
import hashlib
import hmac
import json
import unicodedata
from collections.abc import Callable, Iterable, Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from bot.cardgame.game import apply_action as apply_card_action
from bot.cardgame.game import new_game as new_card_game
from bot.cardgame.record import RECORD_FORMAT as CARD_RECORD_FORMAT
from bot.cardgame.rules import CardRules
from bot.cardgame.state import STATE_FORMAT as CARD_STATE_FORMAT
from bot.cardgame.state import CardState
from bot.engine.board import custom_board
from bot.engine.errors import IllegalAction
from bot.engine.game import apply_action as apply_board_action
from bot.engine.game import new_game
from bot.engine.record import RECORD_FORMAT
from bot.engine.rules import Rules
from bot.engine.state import STATE_FORMAT, GameState
from bot.settings import FairDice, GameSettings

#: The name and version of the scheme (an export's ``fairness.scheme``): a secret committed
#: when the lobby opens, the seed derived from it and the players' words at the start.
SCHEME = "monopoly-seed/2"
#: The scheme of games started before: the seed drawn at the start, committed to itself.
SCHEME_1 = "monopoly-seed/1"
#: The most characters of one player's words (after stripping, in Unicode NFC).
WORDS_MAX = 100
#: How many hex digits of the fingerprint Discord shows at the start (64 bits).
SHORT_LENGTH = 16
#: Seeds are what the generator takes: 0 to 2**64 - 1 (the bot draws 62 random bits).
SEED_LIMIT = 1 << 64

_MISSING = object()


def commitment(seed: int, game_id: int) -> bytes:
    """The bytes the fingerprint is the SHA-256 of: ``monopoly-seed:{game_id}:{seed}``.

    The game id is part of it so that one fingerprint cannot be passed off for another
    game (two games with the same seed still show different fingerprints).
    """
    return f"monopoly-seed:{check_game_id(game_id)}:{check_seed(seed)}".encode()


def fingerprint(seed: int, game_id: int) -> str:
    """The full fingerprint of a game's seed: 64 lower-case hex digits of SHA-256."""
    return hashlib.sha256(commitment(seed, game_id)).hexdigest()


def short(full: str) -> str:
    """The first :data:`SHORT_LENGTH` hex digits of a fingerprint, as Discord shows them."""
    return full[:SHORT_LENGTH]


def check_seed(seed: object) -> int:
    """``seed`` if it is a generator seed (an int from 0 to 2**64 - 1), else ValueError."""
    if type(seed) is not int or not 0 <= seed < SEED_LIMIT:
        raise ValueError(f"a seed is a whole number from 0 to 2**64 - 1, not {seed!r}")
    return seed


def check_game_id(game_id: object) -> int:
    """``game_id`` if it is a game's id (a positive int), else ValueError."""
    if type(game_id) is not int or game_id < 1:
        raise ValueError(f"a game id is a positive whole number, not {game_id!r}")
    return game_id


def matches(given: str, full: str) -> bool:
    """Whether ``given`` (the full fingerprint, or the short one Discord showed) is ``full``."""
    text = given.strip().lower()
    return len(text) >= SHORT_LENGTH and full.startswith(text)


# -- the players' words (monopoly-seed/2) ---------------------------------------------------


def derive_seed(secret: int, words: Iterable[str]) -> int:
    """The generator's seed of a ``monopoly-seed/2`` game: from the committed ``secret``
    and every player's ``words``.

    HMAC-SHA256 with the key ``str(secret)`` (decimal ASCII) over the message
    ``b"monopoly-seed/2"`` followed by, for each player's words in the sorted order of
    their UTF-8 bytes, a 4-byte big-endian length and those bytes; the seed is the first
    8 bytes of the digest read big-endian (so below 2**64). Without any words the message
    is the scheme's name alone.

    Sorting makes the seed independent of who typed first or sits where; the length in
    front of each makes the list unambiguous (``["ab", "c"]`` is not ``["a", "bc"]``).
    The words are used as given (the bot keeps them stripped and in NFC, see
    :func:`clean_words`). ValueError for a secret that is not a seed or words that are
    not text (or cannot be UTF-8, such as a lone surrogate).
    """
    key = str(check_seed(secret)).encode("ascii")
    encoded = []
    for text in words:
        if not isinstance(text, str):
            raise ValueError(f"a player's words are text, not {text!r}")
        try:
            encoded.append(text.encode("utf-8"))
        except UnicodeEncodeError as error:
            raise ValueError(f"the words {text!r} are no valid text: {error}") from error
    message = bytearray(SCHEME.encode("ascii"))
    for item in sorted(encoded):
        message += len(item).to_bytes(4, "big") + item
    return int.from_bytes(hmac.new(key, bytes(message), hashlib.sha256).digest()[:8], "big")


#: Unicode categories words must not hold: control characters (line breaks included,
#: which would break the lines that show them) and lone surrogates (no UTF-8 for them).
_BAD_CATEGORIES = ("Cc", "Cs")


def clean_words(text: str) -> str:
    """A player's words as kept: stripped, in Unicode NFC; ``""`` means none.

    NFC so that the same words typed on two systems (a precomposed "ä" or "a" with a
    combining mark) give the same bytes, and so the same seed. ValueError (its message
    ``too_long`` or ``bad_character``) for more than :data:`WORDS_MAX` characters or a
    control character.
    """
    cleaned = unicodedata.normalize("NFC", text.strip())
    if len(cleaned) > WORDS_MAX:
        raise ValueError("too_long")
    if any(unicodedata.category(char) in _BAD_CATEGORIES for char in cleaned):
        raise ValueError("bad_character")
    return cleaned


# -- the result --------------------------------------------------------------------------


@dataclass(frozen=True)
class Mismatch:
    """The first thing in a record that does not follow from the seed.

    ``kind`` is one of ``fingerprint`` (the seed, or in ``monopoly-seed/2`` the secret, is
    not the one committed to; ``detail`` is ``secret`` then), ``seed`` (``monopoly-seed/2``:
    the seed named is not the one the secret and the players' words give, so the words or
    the seed were changed; ``expected`` is the derived seed), ``start``
    (the start state differs from the one the seed gives; ``fields`` names where;
    ``detail`` is ``derived`` for a seed derived from the secret and the words),
    ``throw`` (throw number ``throw`` during action ``action``), ``deal`` (shuffle number
    ``deal`` during action ``action``), ``action`` (action ``action`` cannot be replayed
    with the seed's dice; ``detail`` is the engine's refusal) or ``end`` (every action
    replays, but the stored end state differs; ``fields``). Actions are numbered from 1:
    action ``n`` is the ``n``-th entry of the record's ``actions``.
    """

    kind: str
    action: int | None = None
    throw: int | None = None
    deal: int | None = None
    expected: Any = None
    recorded: Any = None
    fields: tuple[str, ...] = ()
    detail: str = ""

    def describe(self) -> str:
        """One English line naming the mismatch (the command line prints it)."""
        if self.kind == "fingerprint" and self.detail == "secret":
            return (
                f"the secret does not match the fingerprint shown when the lobby opened: it "
                f"gives {self.expected}, the game showed {self.recorded}"
            )
        if self.kind == "fingerprint":
            return (
                f"the seed does not match the fingerprint shown at the start: it gives "
                f"{self.expected}, the game showed {self.recorded}"
            )
        if self.kind == "seed":
            return (
                f"the seed does not follow from the secret and the players' words: they give "
                f"{self.expected}, the record names {self.recorded} (were the words or the "
                "seed changed?)"
            )
        if self.kind == "start":
            source = (
                "the seed derived from the secret and the players' words"
                if self.detail == "derived"
                else "the seed"
            )
            return f"the start does not follow from {source} (differs in {_names(self.fields)})"
        if self.kind == "throw":
            return (
                f"action {self.action}, throw {self.throw}: the seed gives "
                f"{_dice(self.expected)}, the record has {_dice(self.recorded)}"
            )
        if self.kind == "deal":
            return (
                f"action {self.action}, shuffle {self.deal}: the seed gives the deal "
                f"{self.expected}, the record has {self.recorded}"
            )
        if self.kind == "action":
            return (
                f"action {self.action} ({self.recorded}) cannot be replayed with the seed's "
                f"dice and cards: {self.detail}"
            )
        return f"every action replays, but the stored end differs (in {_names(self.fields)})"


@dataclass(frozen=True)
class Verification:
    """What :func:`verify` found.

    ``throws`` counts the throws of the dice compared one by one (the board game; the
    throws that decided who starts are part of the start), ``deals`` the shuffles made
    from the seed (the board game: its card decks and deeds at the start; the card game:
    every round's deal), ``actions`` the actions replayed. ``end_checked`` says whether
    the stored end state was compared too. ``seed`` is the generator's seed the record was
    checked with; in ``monopoly-seed/2`` (``scheme``) it was derived from ``secret`` (the
    number ``fingerprint`` is of) and ``words``.
    """

    game: str  # "board" or "cards"
    game_id: int
    seed: int
    fingerprint: str
    actions: int = 0
    throws: int = 0
    deals: int = 0
    end_checked: bool = False
    mismatch: Mismatch | None = None
    scheme: str = SCHEME_1
    secret: int | None = None
    words: tuple[str, ...] = ()

    @property
    def ok(self) -> bool:
        """True if everything in the record follows from the seed."""
        return self.mismatch is None

    def summary(self) -> str:
        """One English line: "all N throws match …" or the first mismatch."""
        if self.mismatch is not None:
            return "MISMATCH: " + self.mismatch.describe()
        end = " and the end" if self.end_checked else ""
        if self.game == "cards":
            return f"all {self.deals} shuffles match (the start, every action{end} as well)"
        return (
            f"all {self.throws} throws match (the start with {self.deals} shuffles, every "
            f"action{end} as well)"
        )


def _names(fields: tuple[str, ...]) -> str:
    shown = ", ".join(fields[:6])
    return shown + (f" and {len(fields) - 6} more" if len(fields) > 6 else "")


def _dice(value: Any) -> str:
    if isinstance(value, list) and len(value) == 2:
        return f"{value[0]}+{value[1]}"
    return "nothing" if value is None else json.dumps(value)


# -- verifying ------------------------------------------------------------------------------


def verify(
    record: Any,
    seed: int | None,
    game_id: int,
    *,
    fingerprint: str | None = None,
    final: Mapping[str, Any] | None = None,
    secret: int | None = None,
    words: Sequence[str] | None = None,
) -> Verification:
    """Check ``record`` (a game's start and actions) against ``seed``; see the module doc.

    ``record`` is a :class:`~bot.engine.record.GameRecord`, a
    :class:`~bot.cardgame.record.CardRecord` or their JSON form (``monopoly-record/1``,
    which the store exports for both games, or ``monopoly-cards-record/1``).
    ``fingerprint`` is the one shown at the start (full or its first 16 digits): if
    given, the seed must match it first. ``final`` is the stored end state, compared
    with the replay's end if given.

    A ``monopoly-seed/2`` game is checked with its ``secret`` and the players' ``words``
    (the texts, in any order): the fingerprint must be the secret's, the generator's seed
    is :func:`derive_seed` of both, and a ``seed`` given as well must be that one (else
    the mismatch ``seed``: the words or the seed were changed). Without a ``secret`` it
    is a ``monopoly-seed/1`` check of ``seed``, exactly as before.

    Raises ValueError for a record that is not one (bad format, a start that is no
    game's start, an entry without an action), or for neither a seed nor a secret: that
    is a bad file, not a mismatch.
    """
    start, entries = _parts(record)
    game_id = check_game_id(game_id)
    cards = start.get("format") == CARD_STATE_FORMAT
    game_kind = "cards" if cards else "board"
    named = None if seed is None else check_seed(seed)
    if secret is not None:
        texts = tuple(words or ())
        derived = derive_seed(secret, texts)
        # (The parameter ``fingerprint`` hides the function of that name here.)
        full = hashlib.sha256(commitment(secret, game_id)).hexdigest()
        result = Verification(
            game=game_kind,
            game_id=game_id,
            seed=derived,
            fingerprint=full,
            scheme=SCHEME,
            secret=secret,
            words=texts,
        )
        if fingerprint is not None and not matches(fingerprint, full):
            found = Mismatch("fingerprint", expected=full, recorded=fingerprint, detail="secret")
            return _with(result, found)
        if named is not None and named != derived:
            return _with(result, Mismatch("seed", expected=derived, recorded=named))
        seed = derived
    elif named is None:
        raise ValueError("neither a seed nor a secret to check the record with")
    else:
        seed = named
        full = hashlib.sha256(commitment(seed, game_id)).hexdigest()
        result = Verification(game=game_kind, game_id=game_id, seed=seed, fingerprint=full)
        if fingerprint is not None and not matches(fingerprint, full):
            return _with(result, Mismatch("fingerprint", expected=full, recorded=fingerprint))
    state, deals = _rebuild(start, seed)
    result = _with(result, deals=deals)
    differs = differences(state.to_dict(), start)
    if differs:
        detail = "derived" if secret is not None else ""
        return _with(result, Mismatch("start", fields=differs, detail=detail))
    apply: Callable[[Any, dict[str, Any]], list[dict[str, Any]]] = (
        apply_card_action if cards else apply_board_action  # type: ignore[assignment]
    )
    throws = 0
    for number, entry in enumerate(entries, 1):
        action = entry["action"]
        try:
            # A copy: the engine must not change the caller's record.
            events = apply(state, copy.deepcopy(action))
        except IllegalAction as error:
            kind = action.get("type") if isinstance(action, dict) else None
            found = Mismatch("action", action=number, recorded=kind, detail=error.code)
            return _with(result, found, actions=number - 1, throws=throws)
        thrown = [e["dice"] for e in events if e["type"] == "rolled"]
        found = _first_difference("throw", number, throws, thrown, entry.get("dice", []))
        if found is not None:
            # ``throws`` counts the throws that matched: those before this one.
            return _with(result, found, actions=number - 1, throws=(found.throw or 1) - 1)
        throws += len(thrown)
        dealt = [e["deal"] for e in events if e["type"] == "round_started"]
        found = (
            _first_difference("deal", number, deals, dealt, entry["deals"])
            if "deals" in entry
            else None
        )
        if found is not None:
            return _with(
                result, found, actions=number - 1, throws=throws, deals=(found.deal or 1) - 1
            )
        deals += len(dealt)
    result = _with(result, actions=len(entries), throws=throws, deals=deals)
    if final is not None:
        differs = differences(state.to_dict(), final)
        result = _with(result, end_checked=True)
        if differs:
            return _with(result, Mismatch("end", fields=differs))
    return result


def _with(result: Verification, mismatch: Mismatch | None = None, **changes: Any) -> Verification:
    """``result`` with ``changes`` (and the mismatch, if one is given)."""
    values = {**result.__dict__, **changes}
    if mismatch is not None:
        values["mismatch"] = mismatch
    return Verification(**values)


def _parts(record: Any) -> tuple[dict[str, Any], list[dict[str, Any]]]:
    """The start state and the entries of a record in any of its forms (ValueError if none).

    Both are deep copies made through JSON, so the check sees exactly what a file holds
    (and never changes the caller's record).
    """
    if isinstance(record, Mapping):
        if record.get("format") not in (RECORD_FORMAT, CARD_RECORD_FORMAT):
            raise ValueError(f"not a {RECORD_FORMAT} or {CARD_RECORD_FORMAT} document")
        start, entries = record.get("start"), record.get("actions")
    else:
        start, entries = getattr(record, "start", None), getattr(record, "actions", None)
    if not isinstance(start, Mapping) or start.get("format") not in (
        STATE_FORMAT,
        CARD_STATE_FORMAT,
    ):
        raise ValueError("the record has no start state of either game")
    if not isinstance(entries, list) or not all(
        isinstance(e, Mapping) and isinstance(e.get("action"), Mapping) for e in entries
    ):
        raise ValueError("the record's actions are not a list of {action, dice} entries")
    try:
        raw = json.loads(json.dumps({"start": start, "actions": entries}, allow_nan=False))
    except (TypeError, ValueError) as error:
        raise ValueError(f"the record is not plain JSON: {error}") from error
    return raw["start"], raw["actions"]


def _rebuild(start: dict[str, Any], seed: int) -> tuple[GameState | CardState, int]:
    """The start of the game from the seed alone, and how many shuffles it made.

    Only what the players chose comes from the record: the seats (ids and names), the
    rules and, for a server's own board, the board. Everything random is made anew.
    """
    players_raw = start.get("players")
    if not isinstance(players_raw, list) or not all(isinstance(p, dict) for p in players_raw):
        raise ValueError("the start state has no players")
    try:
        players = [(str(p["id"]), str(p["name"])) for p in players_raw]
        if start["format"] == CARD_STATE_FORMAT:
            settings = CardRules.from_dict(start["rules"])
            return new_card_game(players, seed, settings), 1
        rules = Rules.from_dict(start["rules"])
        data = start.get("board_data")
        board = custom_board(data) if data is not None else None
        state = new_game(players, seed=seed, rules=rules, board=board)
    except (IllegalAction, KeyError, TypeError, ValueError) as error:
        raise ValueError(f"the start state cannot be rebuilt: {error!r}") from error
    return state, len(state.decks) + (1 if rules.deal_deeds else 0)


def _first_difference(
    kind: str, number: int, before: int, made: list[Any], recorded: Any
) -> Mismatch | None:
    """The first throw (``kind`` "throw") or shuffle ("deal") of action ``number`` that
    differs from the record, numbered on from the ``before`` made earlier; or None."""
    recorded = recorded if isinstance(recorded, list) else [recorded]
    for index in range(max(len(made), len(recorded))):
        mine = made[index] if index < len(made) else None
        theirs = recorded[index] if index < len(recorded) else None
        if mine != theirs:
            place = {kind: before + index + 1}
            return Mismatch(kind, action=number, expected=mine, recorded=theirs, **place)
    return None


def differences(expected: Mapping[str, Any], found: Any) -> tuple[str, ...]:
    """Where ``found`` differs from the state ``expected``: top-level keys, one level deeper
    for dicts (``decks.chance``) and for lists of dicts (``players[1].hand``)."""
    if not isinstance(found, Mapping):
        return ("the whole state",)
    names: list[str] = []
    for key in sorted(set(expected) | set(found)):
        mine, theirs = expected.get(key, _MISSING), found.get(key, _MISSING)
        if mine == theirs:
            continue
        if isinstance(mine, dict) and isinstance(theirs, dict):
            names += [
                f"{key}.{inner}"
                for inner in sorted(set(mine) | set(theirs), key=str)
                if mine.get(inner, _MISSING) != theirs.get(inner, _MISSING)
            ]
        elif (
            isinstance(mine, list)
            and isinstance(theirs, list)
            and len(mine) == len(theirs)
            and all(isinstance(x, dict) for x in mine)
            and all(isinstance(y, dict) for y in theirs)
        ):
            for index, (x, y) in enumerate(zip(mine, theirs, strict=True)):
                names += [
                    f"{key}[{index}].{inner}"
                    for inner in sorted(set(x) | set(y), key=str)
                    if x.get(inner, _MISSING) != y.get(inner, _MISSING)
                ]
        else:
            names.append(key)
    return tuple(names)


# -- the seed in a game's settings ---------------------------------------------------------

# The settings keys are those of the typed section :class:`bot.settings.FairDice` (which
# documents each); the patches below are built with its names.
#: The generator's seed: secret until the game is over.
SEED_KEY = FairDice.seed.name
#: The full fingerprint: public from the lobby's opening.
FINGERPRINT_KEY = FairDice.fingerprint.name
#: The secret committed to when the lobby opened (``monopoly-seed/2``).
SECRET_KEY = FairDice.secret.name
#: The scheme a game committed by (absent: ``monopoly-seed/1``).
SCHEME_KEY = FairDice.scheme.name
#: The lobby's words while it is open: ``{user id as text: words}``.
LOBBY_WORDS_KEY = FairDice.lobby_words.name
#: The words the seed was derived from: ``[{"name": player, "words": text}]``.
WORDS_KEY = FairDice.seed_words.name


def commit(seed: int, game_id: int) -> dict[str, Any]:
    """The settings of a ``monopoly-seed/1`` game: the secret seed and its fingerprint.

    Games are no longer started this way (see :func:`commit_secret`); kept for the games
    that were, and for tests of them.
    """
    return {SEED_KEY: check_seed(seed), FINGERPRINT_KEY: fingerprint(seed, game_id)}


def commit_secret(secret: int, game_id: int) -> dict[str, Any]:
    """The settings a lobby opens with (``monopoly-seed/2``): the secret, its fingerprint
    (the same text as :func:`commitment`, with the secret in place of the seed) and the
    scheme."""
    return {
        SECRET_KEY: check_seed(secret),
        FINGERPRINT_KEY: fingerprint(secret, game_id),
        SCHEME_KEY: SCHEME,
    }


def lobby_words(settings: GameSettings | Mapping[str, Any]) -> list[dict[str, str]]:
    """The words of the lobby's players as the start keeps them (:data:`WORDS_KEY`): one
    ``{"name", "words"}`` per player who set some, in seat (joining) order. Computer
    seats have none; words of someone no longer in the lobby are not counted."""
    settings = _typed(settings)
    typed = settings.fair.lobby_words
    if not isinstance(typed, Mapping):
        return []
    found = []
    for player in settings.lobby.players:
        words = typed.get(str(player.get("id")))
        if isinstance(words, str) and words and not player.get("computer"):
            found.append({"name": str(player.get("name", "?")), "words": words})
    return found


def seal(secret: int, words: list[dict[str, str]]) -> dict[str, Any]:
    """The settings a ``monopoly-seed/2`` game starts with: the generator's seed derived
    from the committed ``secret`` and ``words`` (see :func:`lobby_words`), and the words
    themselves (public from the start)."""
    seed = derive_seed(secret, [entry["words"] for entry in words])
    return {SEED_KEY: seed, WORDS_KEY: [dict(entry) for entry in words]}


@dataclass(frozen=True)
class Committed:
    """What a game committed to, read from its settings (:func:`committed`).

    ``seed`` is the generator's seed (None while a lobby: it is derived at the start),
    ``fingerprint`` the full fingerprint; for ``monopoly-seed/2`` also ``secret`` and
    ``words`` (``(name, words)`` in seat order).
    """

    scheme: str
    fingerprint: str
    seed: int | None
    secret: int | None = None
    words: tuple[tuple[str, str], ...] = ()

    @property
    def texts(self) -> list[str]:
        """The players' words alone, as :func:`derive_seed` takes them."""
        return [text for _, text in self.words]


def _typed(settings: GameSettings | Mapping[str, Any]) -> GameSettings:
    """The settings as :class:`GameSettings` (the command line passes the stored JSON)."""
    return settings if isinstance(settings, GameSettings) else GameSettings.from_stored(settings)


def committed(settings: GameSettings | Mapping[str, Any]) -> Committed | None:
    """What the settings of a game or lobby committed to, or None (nothing kept: a game
    from before checkable dice). Reads secrets: the callers show them only when allowed
    (the game is over, or the lobby was closed)."""
    fair = _typed(settings).fair
    full = fair.fingerprint
    seed = fair.seed
    seed = seed if type(seed) is int else None
    secret = fair.secret
    if not isinstance(full, str) or not full:
        return None
    if type(secret) is not int:
        return None if seed is None else Committed(SCHEME_1, full, seed)
    raw = fair.seed_words
    words = tuple(
        (str(entry.get("name", "?")), entry["words"])
        for entry in (raw if isinstance(raw, list) else [])
        if isinstance(entry, Mapping) and isinstance(entry.get("words"), str)
    )
    return Committed(SCHEME, full, seed, secret, words)


def export_fairness(
    settings: GameSettings | Mapping[str, Any], game_id: int
) -> dict[str, Any] | None:
    """The ``fairness`` object of a finished game's export, or None (no seed was kept).

    ``scheme``, ``game_id``, ``seed`` (the generator's) and ``fingerprint``; a
    ``monopoly-seed/2`` game adds ``secret`` and ``words`` (``[{"name", "words"}]``).
    Only for a finished game: the caller checks that (a running game's seed is secret).
    """
    found = committed(settings)
    seed = _typed(settings).fair.seed
    if found is None and type(seed) is int:  # a seed kept without its fingerprint
        found = Committed(SCHEME_1, fingerprint(seed, game_id), seed)
    if found is None or found.seed is None:
        return None
    export: dict[str, Any] = {
        "scheme": found.scheme,
        "game_id": game_id,
        "seed": found.seed,
        "fingerprint": found.fingerprint,
    }
    if found.secret is not None:
        export["secret"] = found.secret
        export["words"] = [{"name": name, "words": text} for name, text in found.words]
    return export
