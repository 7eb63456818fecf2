"""Bundled fonts, colour palettes and labels, loaded once through importlib.resources.

Everything the images need ships inside the package (``render/fonts``, ``render/data``),
so rendering never depends on the fonts or files of the machine it runs on.
"""

from __future__ import annotations

import json
from collections.abc import Mapping
from functools import cache, lru_cache
from importlib import resources
from io import BytesIO
from typing import Any

from PIL import ImageFont

# The three faces the images use: names on squares are condensed so that long German
# compounds fit narrow squares; titles and figures are bold; the rest is regular.
FONT_FILES = {
    "regular": "DejaVuSans.ttf",
    "bold": "DejaVuSans-Bold.ttf",
    "condensed": "DejaVuSansCondensed-Bold.ttf",
}

RGB = tuple[int, int, int]


@cache
def _font_bytes(face: str) -> bytes:
    return (resources.files("render") / "fonts" / FONT_FILES[face]).read_bytes()


#: Grey levels of anti-aliased glyph edges. FreeType gives 256; 16 look the same (an
#: edge pixel moves by at most 1/30 of the text's contrast) and make the images' edges
#: repeat, which shrinks a board's PNG by about 6 %.
TEXT_EDGE_LEVELS = 16
_EDGE_STEP = 255 / (TEXT_EDGE_LEVELS - 1)
_EDGE_LUT = [round(round(v / _EDGE_STEP) * _EDGE_STEP) for v in range(256)]


class _Font(ImageFont.FreeTypeFont):
    """A FreeType font whose grey glyph masks have :data:`TEXT_EDGE_LEVELS` levels."""

    def getmask2(self, *args: Any, **kwargs: Any) -> tuple[Any, tuple[int, int]]:
        """The glyphs' mask as FreeType draws it, edges rounded to the next level."""
        mask, offset = super().getmask2(*args, **kwargs)
        if mask.mode == "L":
            mask = mask.point(_EDGE_LUT, "L")
        return mask, offset


@lru_cache(maxsize=512)
def font(face: str, size: int) -> ImageFont.FreeTypeFont:
    """The bundled ``face`` ("regular", "bold" or "condensed") at ``size`` pixels; cached.

    The basic layout engine is used on purpose: it needs no system libraries (raqm) and
    gives the same glyph positions everywhere, which keeps the golden images stable.
    """
    return _Font(BytesIO(_font_bytes(face)), size, layout_engine=ImageFont.Layout.BASIC)


@cache
def _data(name: str) -> dict[str, Any]:
    text = (resources.files("render") / "data" / f"{name}.json").read_text(encoding="utf-8")
    return json.loads(text)


def themes() -> list[str]:
    """Names of the built-in colour themes (``light``, ``dark``)."""
    return sorted(k for k in _data("palettes") if not k.startswith("_"))


def hex_to_rgb(value: str) -> RGB:
    """``"#RRGGBB"`` as an ``(r, g, b)`` tuple."""
    value = value.lstrip("#")
    return int(value[0:2], 16), int(value[2:4], 16), int(value[4:6], 16)


class Palette:
    """The colours of one theme, with overrides applied, as RGB tuples.

    ``palette["line"]`` gives a named colour, ``palette.group("red")`` a street group's
    bar colour and ``palette.player(seat)`` a player's colour (colours repeat past ten
    seats).
    """

    __slots__ = ("name", "colours", "groups", "players")

    def __init__(self, name: str, overrides: Mapping[str, Any] | None = None) -> None:
        raw = _data("palettes")
        if name not in raw or name.startswith("_"):
            raise KeyError(f"unknown theme {name!r}; known: {', '.join(themes())}")
        base = raw[name]
        overrides = dict(overrides or {})
        groups = {**base["groups"], **overrides.pop("groups", {})}
        players = list(overrides.pop("players", base["players"]))
        colours = {k: v for k, v in base.items() if k not in ("groups", "players")}
        colours.update(overrides)
        self.name = name
        self.colours = {k: hex_to_rgb(v) for k, v in colours.items()}
        self.groups = {k: hex_to_rgb(v) for k, v in groups.items()}
        self.players = [hex_to_rgb(v) for v in players]

    def __getitem__(self, key: str) -> RGB:
        return self.colours[key]

    def group(self, group: str | None) -> RGB:
        """Bar colour of a street group (the line colour for unknown groups)."""
        return self.groups.get(group or "", self.colours["line"])

    def player(self, seat: int) -> RGB:
        """The colour of ``seat``: its badge (:mod:`render.badges`), piece and lines.

        Chosen to stay apart from every other seat for normal vision and the three common
        colour-vision deficiencies (``tests/render/test_colour_vision.py``).
        """
        return self.players[seat % len(self.players)]


def colours_key(colors: Mapping[str, Any] | None) -> str:
    """A hashable, order-independent key for colour overrides (for caches)."""
    return json.dumps(colors or {}, sort_keys=True)


@lru_cache(maxsize=32)
def palette(theme: str, colors_key: str = "{}") -> Palette:
    """The cached :class:`Palette` of ``theme`` with the overrides in ``colors_key``."""
    return Palette(theme, json.loads(colors_key))


class Labels:
    """The small texts of one language (``render/data/labels.json``)."""

    __slots__ = ("lang", "_raw")

    def __init__(self, lang: str) -> None:
        raw = _data("labels")
        if lang not in raw or lang.startswith("_"):
            raise KeyError(f"unknown language {lang!r}")
        self.lang = lang
        self._raw = raw[lang]

    def __getitem__(self, key: str) -> Any:
        return self._raw[key]

    def text(self, key: str, **values: Any) -> str:
        """The label ``key`` with its ``{placeholders}`` filled in."""
        return self._raw[key].format(**values)

    def count(self, key: str, n: int) -> str:
        """``n`` and the singular or plural noun of ``key``: ``"1 Haus"``, ``"3 Häuser"``."""
        one, many = self._raw[key]
        return f"{n} {one if n == 1 else many}"

    def money(self, amount: int, currency: str) -> str:
        """An amount as players read it: ``"1.500 €"`` in German, ``"$1,500"`` in English."""
        symbol = currency_symbol(currency)
        sign = "-" if amount < 0 else ""
        digits = f"{abs(amount):,}"
        if self.lang == "de":
            return f"{sign}{digits.replace(',', '.')} {symbol}"
        gap = " " if len(symbol) > 1 else ""  # "DM 300", but "$300"
        return f"{sign}{symbol}{gap}{digits}"

    def figure(self, amount: int, currency: str) -> str:
        """An amount in a table column whose heading (``cash``, ``worth``) names the money."""
        return self.money(amount, currency)

    def with_terms(self, terms: Mapping[str, str]) -> Labels:
        """These labels with a theme's words for the bank, houses, hotels and money."""
        return ThemedLabels(self.lang, terms) if terms else self


class ThemedLabels(Labels):
    """Labels speaking a theme's words (``Theme.terms``): "Naschgeldbank: 32 Krümelkojen"."""

    __slots__ = ("_terms",)

    def __init__(self, lang: str, terms: Mapping[str, str]) -> None:
        super().__init__(lang)
        self._terms = dict(terms)

    def __getitem__(self, key: str) -> Any:
        if key == "bank" and "bank" in self._terms:
            return self._terms["bank"]
        if key in ("cash", "worth") and "currency" in self._terms:
            # A money word is long: it goes once into the heading, not after every figure.
            return f"{super().__getitem__(key)} ({self._terms['currency']})"
        return super().__getitem__(key)

    def count(self, key: str, n: int) -> str:
        """Like :meth:`Labels.count`, with the theme's singular and plural if it has them."""
        one, many = self._raw[key]
        one = self._terms.get(key, one)
        many = self._terms.get(f"{key}s", many)
        return f"{n} {one if n == 1 else many}"

    def money(self, amount: int, currency: str) -> str:
        """With a theme currency the amount is followed by its name: ``"1.500 Naschgeld"``."""
        name = self._terms.get("currency")
        if name is None:
            return super().money(amount, currency)
        return f"{self._digits(amount)} {name}"

    def figure(self, amount: int, currency: str) -> str:
        """With a theme currency only the number: the column heading names the money."""
        if "currency" not in self._terms:
            return super().figure(amount, currency)
        return self._digits(amount)

    def _digits(self, amount: int) -> str:
        digits = f"{amount:,}"
        return digits.replace(",", ".") if self.lang == "de" else digits


CURRENCY_SYMBOLS = {"EUR": "€", "USD": "$", "GBP": "£", "DEM": "DM"}


def currency_symbol(currency: str) -> str:
    """The symbol printed for a board's currency code (the code itself if unknown)."""
    return CURRENCY_SYMBOLS.get(currency, currency)


@cache
def labels(lang: str) -> Labels:
    """The cached :class:`Labels` of ``lang`` (``"de"`` or ``"en"``)."""
    return Labels(lang)


@cache
def hyphenation_suffixes() -> tuple[str, ...]:
    """Word endings where long names may be hyphenated, longest first."""
    suffixes = _data("hyphenation")["suffixes"]
    # lower(), not casefold(): "ß" must keep its length to find the break position.
    return tuple(sorted((s.lower() for s in suffixes), key=len, reverse=True))
