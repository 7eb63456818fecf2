"""Amounts, names and ids as people type them (bot.text_input): accepted, refused, never raising."""

from __future__ import annotations

import math

import pytest
from hypothesis import given
from hypothesis import strategies as st

from bot.i18n import money
from bot.text_input import (
    MAX_AMOUNT,
    SQLITE_INT_MAX,
    SQLITE_INT_MIN,
    clean_name,
    clean_text,
    is_sqlite_int,
    json_problem,
    parse_amount,
    parse_int_id,
)

# Decimal digits of a few scripts: Arabic-Indic, Extended Arabic-Indic, Devanagari,
# Bengali, Thai, fullwidth and mathematical bold.
DIGIT_SCRIPTS = ["٠", "۰", "०", "০", "๐", "０", "\U0001d7ce"]


def in_script(text: str, zero: str) -> str:
    """``text`` with its ASCII digits written in the script whose zero is ``zero``."""
    return "".join(chr(ord(zero) + int(c)) if c.isascii() and c.isdigit() else c for c in text)


def forms(amount: int) -> list[str]:
    """Ways a player (or the bot itself) writes ``amount``."""
    english = f"{amount:,}"
    german = english.replace(",", ".")
    written = [
        str(amount),
        english,
        german,
        english.replace(",", " "),
        english.replace(",", "\u202f"),
        english.replace(",", "'"),
        f"{german} €",
        f"€{english}",
        f"{german},-",
        f"{german},00",
        f"{english}.00",
        f"  {amount}  ",
        f"{amount} EUR",
        f"{amount} Euro",
        f"{amount} DM",
        f"${english}",
        money("de", amount),
        money("en", amount),
        money("de", amount, "DEM"),
        money("en", amount, "USD"),
    ]
    written += [in_script(str(amount), zero) for zero in DIGIT_SCRIPTS]
    written += [in_script(german, zero) for zero in DIGIT_SCRIPTS]
    return written


# -- amounts ------------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("text", "amount"),
    [
        ("1500", 1500),
        ("1.500", 1500),
        ("1,500", 1500),
        ("1 500", 1500),
        ("1.500 €", 1500),
        ("€1,500", 1500),
        ("1.500,-", 1500),
        ("1.500,00", 1500),
        ("1,500 €", 1500),
        ("1.500 euro", 1500),
        ("M. 1.500", 1500),
        ("", 0),
        ("   ", 0),
        (None, 0),
        ("0", 0),
        ("١٥٠٠", 1500),
        ("١.٥٠٠", 1500),
        ("१५००", 1500),
        ("１５００", 1500),
        ("１.５００ €", 1500),
        ("999.999.999", MAX_AMOUNT),
        ("000000000000000000000042", 42),
    ],
)
def test_amounts_that_are_accepted(text: str | None, amount: int) -> None:
    """Every way of writing an amount today's bid and trade fields accept, in any script."""
    assert parse_amount(text) == amount


@pytest.mark.parametrize(
    "text",
    [
        "zwölf",
        "1.5",
        "-20",
        "+20",
        "12abc",
        "1,50",
        "1.5000",
        "²",
        "1²",
        "①",
        "Ⅻ",
        "½",
        "1½",
        "١.٥",
        "1000000000",
        "1.000.000.000",
        "9" * 5000,
        "1e3",
        ",-",
        "1..500",
        "\ud800",
        "1\ud8005",
        "1\x00500",
    ],
)
def test_amounts_that_are_refused(text: str) -> None:
    """Letters, signs, cents, non-decimal "digits" and absurd sizes are None, never an error."""
    assert parse_amount(text) is None


def test_amounts_that_are_not_text_are_refused() -> None:
    """A value of another type is refused too (a caller's slip must not raise)."""
    assert parse_amount(1500) is None  # type: ignore[arg-type]
    assert parse_amount(b"1500") is None  # type: ignore[arg-type]


@given(st.text())
def test_no_text_makes_parse_amount_raise(text: str) -> None:
    """Whatever is typed, the answer is None or an amount from 0 to MAX_AMOUNT."""
    amount = parse_amount(text)
    assert amount is None or (type(amount) is int and 0 <= amount <= MAX_AMOUNT)


@given(st.text(alphabet=st.characters(categories=["Nd", "No", "Nl", "Po", "Zs", "Sc"])))
def test_digits_and_punctuation_never_make_parse_amount_raise(text: str) -> None:
    """The characters an amount is made of, mixed at random, do not raise either."""
    amount = parse_amount(text)
    assert amount is None or 0 <= amount <= MAX_AMOUNT


@given(st.integers(min_value=0, max_value=MAX_AMOUNT))
def test_every_amount_reads_back_from_its_written_forms(amount: int) -> None:
    """An amount written as players and the bot write it parses back to itself."""
    for text in forms(amount):
        assert parse_amount(text) == amount, text


@given(st.integers(min_value=MAX_AMOUNT + 1, max_value=10**40))
def test_amounts_above_the_maximum_are_refused(amount: int) -> None:
    """Too large is refused in every form, not cut or wrapped around."""
    for text in forms(amount):
        assert parse_amount(text) is None, text


# -- text ---------------------------------------------------------------------------------


def test_clean_text_strips_and_accepts_ordinary_text() -> None:
    """Names with spaces, umlauts, emoji and joiners are fine."""
    assert clean_text("  Anna  ", max_length=10) == "Anna"
    assert clean_text("Jörg 🎲", max_length=10) == "Jörg 🎲"
    assert clean_text("👩\u200d👩\u200d👧", max_length=10) == "👩\u200d👩\u200d👧"
    assert clean_text("x" * 10, max_length=10) == "x" * 10


@pytest.mark.parametrize(
    "text", ["", "   ", "\n", "x" * 11, "a\ud800", "\udfff", "a\nb", "a\x00b", "a\x7fb", "a\x85b"]
)
def test_clean_text_refuses_empty_long_and_broken_text(text: str) -> None:
    """Empty, too long, control characters and lone surrogates are None."""
    assert clean_text(text, max_length=10) is None


def test_clean_text_refuses_values_that_are_not_text() -> None:
    """A value of another type is None, not an error."""
    assert clean_text(None, max_length=10) is None  # type: ignore[arg-type]
    assert clean_text(5, max_length=10) is None  # type: ignore[arg-type]


@given(st.text(), st.integers(min_value=0, max_value=50))
def test_clean_text_never_raises_and_returns_storable_text(text: str, limit: int) -> None:
    """The result is None or stripped, short enough, printable-safe UTF-8 text."""
    cleaned = clean_text(text, max_length=limit)
    if cleaned is not None:
        assert cleaned == cleaned.strip() and 0 < len(cleaned) <= limit
        cleaned.encode("utf-8")
        assert "\n" not in cleaned and "\x00" not in cleaned


def test_clean_name_repairs_instead_of_refusing() -> None:
    """Odd characters in a Discord name are replaced; an empty name gets the fallback."""
    assert clean_name("Anna", max_length=32) == "Anna"
    assert clean_name("An\ud800na", max_length=32) == "An?na"
    assert clean_name("An\x00na", max_length=32) == "An?na"
    assert clean_name("An\nna\t", max_length=32) == "An na"
    assert clean_name("x" * 40, max_length=32) == "x" * 32
    assert clean_name("  \n ", max_length=32) == "?"
    assert clean_name(None, max_length=32, fallback="Spieler") == "Spieler"


@given(st.text(), st.integers(min_value=1, max_value=50))
def test_clean_name_always_gives_storable_text(text: str, limit: int) -> None:
    """Whatever the name, the result is non-empty, short enough and valid UTF-8."""
    name = clean_name(text, max_length=limit)
    assert 0 < len(name) <= limit
    name.encode("utf-8")
    assert clean_text(name, max_length=limit) == name


# -- ids ----------------------------------------------------------------------------------


def test_ids_typed_by_users() -> None:
    """Snowflakes are digits from 1 to 2**63 - 1; anything else is None."""
    assert parse_int_id("123456789012345678") == 123456789012345678
    assert parse_int_id(" 42 ") == 42
    assert parse_int_id("٤٢") == 42
    assert parse_int_id(str(SQLITE_INT_MAX)) == SQLITE_INT_MAX
    for bad in ("", "0", "-5", "+5", "1.5", "²", "12a", str(2**63), "9" * 5000, "<@42>"):
        assert parse_int_id(bad) is None, bad
    assert parse_int_id(42) is None  # type: ignore[arg-type]


@given(st.text())
def test_no_text_makes_parse_int_id_raise(text: str) -> None:
    """Any text gives None or an id in SQLite's range."""
    number = parse_int_id(text)
    assert number is None or 1 <= number <= SQLITE_INT_MAX


@given(st.integers(min_value=1, max_value=SQLITE_INT_MAX))
def test_every_id_reads_back(number: int) -> None:
    """An id's digits parse back to it."""
    assert parse_int_id(str(number)) == number


def test_sqlite_ints() -> None:
    """Ints in the 64-bit range are storable; bools, floats, text and larger ints are not."""
    assert is_sqlite_int(0) and is_sqlite_int(SQLITE_INT_MIN) and is_sqlite_int(SQLITE_INT_MAX)
    for bad in (SQLITE_INT_MAX + 1, SQLITE_INT_MIN - 1, 2**70, True, False, 1.0, "1", None):
        assert not is_sqlite_int(bad), bad


# -- JSON values --------------------------------------------------------------------------


def test_plain_json_has_no_problem() -> None:
    """Nested plain values, tuples and big ints are fine."""
    value = {"type": "bid", "amount": 10**30, "list": [1, 2.5, None, True, ("a", {"b": []})]}
    assert json_problem(value) is None
    assert json_problem([]) is None and json_problem("text") is None


@pytest.mark.parametrize(
    ("value", "problem"),
    [
        ({"a": math.nan}, "not finite"),
        ({"a": [math.inf]}, "not finite"),
        ({"a": -math.inf}, "not finite"),
        ({"a": "\ud800"}, "not valid Unicode"),
        ({"\udc00": 1}, "key that is not valid Unicode"),
        ({1: "a"}, "key that is not text"),
        ({None: "a"}, "key that is not text"),
        ({"a": {1, 2}}, "type set"),
        ({"a": b"x"}, "type bytes"),
        ({"a": object()}, "type object"),
    ],
)
def test_json_problems_are_named(value: object, problem: str) -> None:
    """NaN, infinities, lone surrogates, non-text keys and other types are problems."""
    found = json_problem(value)
    assert found is not None and problem in found


def test_json_nesting_is_limited_without_recursion() -> None:
    """A value nested far deeper than Python's recursion limit is a problem, not a crash."""
    deep: list[object] = []
    for _ in range(100_000):
        deep = [deep]
    found = json_problem(deep)
    assert found is not None and "nested" in found
    assert json_problem([[[]]], max_depth=3) is None
    assert json_problem([[[]]], max_depth=2) is not None


@given(
    st.recursive(
        st.none() | st.booleans() | st.integers() | st.floats() | st.text(),
        lambda children: st.lists(children) | st.dictionaries(st.text(), children),
        max_leaves=20,
    )
)
def test_json_problem_never_raises_and_agrees_with_storing(value: object) -> None:
    """Whatever the value, json_problem answers; without a problem it dumps as UTF-8 JSON."""
    import json

    if json_problem(value) is None:
        json.dumps(value, allow_nan=False, ensure_ascii=False).encode("utf-8")
