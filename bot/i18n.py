"""Translations: German first, English second, from JSON catalogs in ``bot/locales``.

``t("de", "setting.salary")`` looks the key up in the language's catalog, falls
back to English and then to the key itself, and fills ``{placeholders}``.
"""

from __future__ import annotations

import json
from functools import cache
from importlib import resources
from typing import Any

LANGUAGES = ("de", "en")
DEFAULT_LANGUAGE = "de"
CURRENCY_SYMBOLS = {"EUR": "€", "USD": "$", "DEM": "M."}


@cache
def catalog(lang: str) -> dict[str, str]:
    """The flat key -> text catalog of ``lang``.

    The main catalog ``locales/{lang}.json`` plus one catalog per feature in
    ``locales/{lang}/*.json`` (read in name order), so a feature's texts live beside each
    other. A key defined twice is an error, not a silent override.
    """
    folder = resources.files("bot") / "locales"
    texts: dict[str, str] = json.loads((folder / f"{lang}.json").read_text(encoding="utf-8"))
    features = folder / lang
    if features.is_dir():
        for part in sorted(features.iterdir(), key=lambda entry: entry.name):
            if not part.name.endswith(".json"):
                continue
            extra: dict[str, str] = json.loads(part.read_text(encoding="utf-8"))
            twice = sorted(set(extra) & set(texts))
            if twice:
                raise ValueError(f"locale keys defined twice ({part.name}): {twice[:5]}")
            texts.update(extra)
    return texts


def normalise_language(lang: str | None) -> str:
    """``de`` or ``en`` from a Discord locale such as ``de`` or ``en-US``."""
    if lang:
        short = str(lang).split("-")[0].lower()
        if short in LANGUAGES:
            return short
    return DEFAULT_LANGUAGE


def t(lang: str, key: str, **params: Any) -> str:
    """The text for ``key`` in ``lang`` with ``params`` filled in."""
    lang = normalise_language(lang)
    text = catalog(lang).get(key) or catalog("en").get(key) or key
    try:
        return text.format(**params)
    except (KeyError, IndexError, ValueError):
        return text


def money(lang: str, amount: int, currency: str = "EUR") -> str:
    """An amount as players write it: ``1.500 €`` in German, ``€1,500`` in English.

    A currency that is not a known code is a theme's name for money and follows the
    number in both languages: ``1.500 Naschgeld``, ``1,500 Naschgeld``.
    """
    german = normalise_language(lang) == "de"
    digits = f"{amount:,}".replace(",", ".") if german else f"{amount:,}"
    symbol = CURRENCY_SYMBOLS.get(currency)
    if symbol is None:
        return f"{digits} {currency}"
    if symbol == "M.":
        return f"M. {digits}"
    return f"{digits} {symbol}" if german else f"{symbol}{digits}"
