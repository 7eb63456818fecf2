"""Untrusted input made safe: amounts, names and ids as people type them, and JSON values.

Pure functions (no Discord, no I/O) shared by the Discord layer, the game service and the
store. None of them raises for a ``str`` (or, where documented, for any value): what they
do not accept comes back as ``None`` or as a short problem text, so a typo or an odd
character is refused politely instead of ending a handler with a ``ValueError`` deep down.
"""

from __future__ import annotations

import re
import unicodedata
from collections.abc import Mapping
from typing import TypeGuard

#: The largest amount :func:`parse_amount` accepts (nine digits). Far above any sum of
#: a game, and small enough that nothing later overflows or is slow to print.
MAX_AMOUNT = 999_999_999

#: The range of SQLite's INTEGER (a signed 64-bit integer); Discord snowflakes fit.
SQLITE_INT_MIN = -(2**63)
SQLITE_INT_MAX = 2**63 - 1

#: How deeply :func:`json_problem` lets values nest. Real settings and actions nest a few
#: levels; SQLite's JSON functions stop at 1000 and Python's recursion not much later.
MAX_JSON_DEPTH = 200

# The longest names come first, so "euro" is not cut to "eur" + a stray "o".
_CURRENCY = re.compile(r"(euro|eur|usd|mark|dm|m\.|€|\$)", re.IGNORECASE)
_SPACES = re.compile(r"[\s\u00a0\u202f']")
# ASCII digits only: other scripts' digits are turned into these first (see _ascii_digits),
# and anything else that calls itself a digit ("²", "①") must not match.
_GROUPED = re.compile(r"[0-9]{1,3}(?:[.,][0-9]{3})+|[0-9]+")
_CENTS = re.compile(r"(?:[.,](?:00|-|–))$")
# Control characters that are whitespace become a space in a name; other ones a "?".
_CONTROL = frozenset(("Cc", "Cs"))


def _ascii_digits(text: str) -> str:
    """``text`` with every decimal digit of any script (``١``, ``१``, ``１``) as 0-9.

    Only Unicode's decimal digits (category Nd) have a decimal value; superscripts,
    circled numbers and fractions (``²``, ``①``, ``½``) do not, so they stay as they are
    and are refused later.
    """
    if text.isascii():
        return text  # the usual case, without a look-up per character
    out = []
    for char in text:
        value = unicodedata.decimal(char, None)
        out.append(str(value) if value is not None else char)
    return "".join(out)


def parse_amount(text: str | None) -> int | None:
    """A whole amount as players type it, or None if it is not one.

    Accepts ``1500``, ``1.500``, ``1,500``, ``1 500``, ``1.500 €``, ``€1,500``, ``1.500,-``
    and ``1.500,00``, in the digits of any script (``١٥٠٠``, ``१५००``, ``１５００``); an empty
    field is 0. Anything else (letters, a sign, cents, "1.5", "²", more than
    :data:`MAX_AMOUNT`) is None, so a typo never turns into a different amount. Never
    raises; a value that is not text is None.
    """
    if text is None:
        return 0
    if not isinstance(text, str):
        return None
    cleaned = _CURRENCY.sub("", _ascii_digits(text).strip())
    cleaned = _SPACES.sub("", cleaned)
    if not cleaned:
        return 0
    cleaned = _CENTS.sub("", cleaned)
    if not _GROUPED.fullmatch(cleaned):
        return None
    digits = re.sub(r"[.,]", "", cleaned).lstrip("0")
    # Count before converting: int() of thousands of digits is slow or refused outright.
    if len(digits) > len(str(MAX_AMOUNT)):
        return None
    amount = int(digits or "0")
    return amount if amount <= MAX_AMOUNT else None


def clean_text(text: str, *, max_length: int) -> str | None:
    """Player-supplied text (a name, a note) stripped, or None if it cannot be used.

    None if it is empty after stripping, longer than ``max_length`` characters, contains
    a control character or a lone surrogate (categories Cc and Cs, newlines included), or
    cannot be written as UTF-8. Never raises; a value that is not text is None.
    """
    if not isinstance(text, str):
        return None
    stripped = text.strip()
    if not stripped or len(stripped) > max_length:
        return None
    if any(unicodedata.category(char) in _CONTROL for char in stripped):
        return None
    if not _utf8(stripped):
        return None
    return stripped


def clean_name(text: object, *, max_length: int, fallback: str = "?") -> str:
    """A display name made safe to keep and show: never refused, only repaired.

    Names come from Discord, which allows odd characters, so instead of refusing them
    this replaces control characters that are whitespace (a newline, a tab) with a space
    and other control characters and lone surrogates with ``?``, strips the result and
    cuts it to ``max_length`` characters. An empty result (or a value that is not text)
    becomes ``fallback``. Never raises.
    """
    if not isinstance(text, str):
        return fallback
    if not text.isprintable():  # every control character and surrogate is unprintable
        text = "".join(_repair(char) for char in text)
    cleaned = text.strip()[:max_length].strip()
    return cleaned or fallback


def _repair(char: str) -> str:
    """One character of a name: itself, or its replacement if it is a control character."""
    if unicodedata.category(char) not in _CONTROL:
        return char
    return " " if char.isspace() else "?"


def parse_int_id(text: str) -> int | None:
    """A Discord id (snowflake) typed by a user: digits only, 1 to 2**63 - 1; else None.

    Surrounding whitespace is ignored and digits of any script count, as in
    :func:`parse_amount`. Never raises; a value that is not text is None.
    """
    if not isinstance(text, str):
        return None
    digits = _ascii_digits(text.strip())
    if not digits or not digits.isascii() or not digits.isdigit():
        return None
    if len(digits.lstrip("0")) > len(str(SQLITE_INT_MAX)):
        return None
    number = int(digits)
    return number if 1 <= number <= SQLITE_INT_MAX else None


def is_sqlite_int(value: object) -> TypeGuard[int]:
    """True for an ``int`` (not a ``bool``) that fits SQLite's INTEGER (64-bit signed)."""
    return (
        isinstance(value, int)
        and not isinstance(value, bool)
        and SQLITE_INT_MIN <= value <= SQLITE_INT_MAX
    )


def json_problem(value: object, *, max_depth: int = MAX_JSON_DEPTH) -> str | None:
    """Why ``value`` is not plain JSON that can be stored as UTF-8 text, or None if it is.

    Plain JSON here is: None, bools, ints, finite floats, text that is valid Unicode
    (no lone surrogates), lists and tuples of plain JSON, and dicts (any mapping) with
    text keys, nested at most ``max_depth`` deep. ``json.dumps`` alone is not enough: it
    writes NaN as ``NaN`` (which is not JSON), turns int keys silently into text and
    lets lone surrogates through, which SQLite then refuses. Never raises.
    """
    # A stack instead of recursion, so a deeply nested value cannot exhaust Python's.
    stack: list[tuple[object, int]] = [(value, 0)]
    while stack:
        item, depth = stack.pop()
        if item is None or isinstance(item, bool | int):
            continue
        if isinstance(item, float):
            if item != item or item in (float("inf"), float("-inf")):
                return "a number that is not finite"
            continue
        if isinstance(item, str):
            if not _utf8(item):
                return "text that is not valid Unicode"
            continue
        if depth >= max_depth:
            return f"values nested more than {max_depth} deep"
        if isinstance(item, list | tuple):
            stack.extend((child, depth + 1) for child in item)
            continue
        if isinstance(item, Mapping):
            for key, child in item.items():
                if not isinstance(key, str):
                    return f"a key that is not text ({type(key).__name__})"
                if not _utf8(key):
                    return "a key that is not valid Unicode"
                stack.append((child, depth + 1))
            continue
        return f"a value of type {type(item).__name__}"
    return None


def _utf8(text: str) -> bool:
    """True if ``text`` can be written as UTF-8 (it has no lone surrogates)."""
    try:
        text.encode("utf-8")
    except UnicodeEncodeError:
        return False
    return True
