"""What the bot shows of a game's seed: the fingerprint while it runs, the seed at its end,
and the answer of ``/monopoly verify`` (the scheme: ``bot/fairness.py``, docs/fair-dice.md).

The seed itself (settings key ``fair_seed``) is read only by :func:`add_reveal` and
:func:`reveal_embed`, whose callers show them only once the game is over; everything
else here shows the fingerprint, which tells nothing about the dice to come.
"""

from __future__ import annotations

from typing import Any

import discord

from bot.fairness import FINGERPRINT_KEY, SEED_KEY, Mismatch, Verification, short
from bot.i18n import t
from bot.store import GameInfo

#: The colour of the verification answers: green for a match, red for a mismatch.
OK_COLOUR = 0x2E7D32
BAD_COLOUR = 0xC62828


def _fingerprint(settings: dict[str, Any]) -> str | None:
    value = settings.get(FINGERPRINT_KEY)
    return value if isinstance(value, str) and value else None


def add_commitment(
    embed: discord.Embed, settings: dict[str, Any], *, cards: bool, first: bool
) -> None:
    """Add the fingerprint of a running game's seed to ``embed`` (if the game has one).

    ``first``: the game's first message, which says in one sentence what it means; later
    messages only repeat the fingerprint.
    """
    full = _fingerprint(settings)
    if full is None:
        return
    lang = settings.get("lang", "de")
    sentence = "fair.commit.cards" if cards else "fair.commit.board"
    key = sentence if first else "fair.commit.short"
    embed.add_field(
        name=t(lang, "fair.commit.title"),
        value=t(lang, key, fingerprint=short(full)),
        inline=False,
    )


def reveal_text(game_id: int, settings: dict[str, Any], *, cards: bool) -> str | None:
    """The reveal of a finished game's seed (None if it has none). Only for a game that is
    over: the caller checks that."""
    full, seed = _fingerprint(settings), settings.get(SEED_KEY)
    if full is None or type(seed) is not int:
        return None
    return t(
        settings.get("lang", "de"),
        "fair.reveal.cards" if cards else "fair.reveal.board",
        seed=seed,
        fingerprint=full,
        short=short(full),
        game=game_id,
    )


def add_reveal(embed: discord.Embed, game_id: int, settings: dict[str, Any]) -> None:
    """Add the seed and the full fingerprint to a finished board game's final embed."""
    text = reveal_text(game_id, settings, cards=False)
    if text is not None:
        lang = settings.get("lang", "de")
        embed.add_field(name=t(lang, "fair.reveal.title"), value=text, inline=False)


def reveal_embed(game_id: int, settings: dict[str, Any]) -> discord.Embed | None:
    """The reveal of a finished card game as an embed of its winner message (or None)."""
    text = reveal_text(game_id, settings, cards=True)
    if text is None:
        return None
    lang = settings.get("lang", "de")
    return discord.Embed(title=t(lang, "fair.reveal.title"), description=text, colour=OK_COLOUR)


def verification_embed(lang: str, result: Verification) -> discord.Embed:
    """The answer of ``/monopoly verify``: all throws match, or the first that does not."""
    found = result.mismatch
    if found is None:
        key = "fair.verify.ok.cards" if result.game == "cards" else "fair.verify.ok.board"
        count = result.deals if result.game == "cards" else result.throws
        key += ".one" if count == 1 else ""
        text = t(lang, key, game=result.game_id, throws=result.throws, deals=result.deals)
    else:
        text = mismatch_text(lang, result.game_id, found)
    details = t(lang, "fair.verify.seed", seed=result.seed, fingerprint=result.fingerprint)
    return discord.Embed(
        description=f"{text}\n{details}", colour=OK_COLOUR if result.ok else BAD_COLOUR
    )


def mismatch_text(lang: str, game_id: int, found: Mismatch) -> str:
    """The first mismatch of a verification in words."""
    fields = ", ".join(found.fields[:6]) + (" …" if len(found.fields) > 6 else "")
    return t(
        lang,
        f"fair.verify.bad.{found.kind}",
        game=game_id,
        action=found.action,
        throw=found.throw,
        deal=found.deal,
        expected=_dice(found.expected),
        recorded=_dice(found.recorded),
        fields=fields,
        detail=found.detail,
    )


def _dice(value: Any) -> str:
    if isinstance(value, list) and len(value) == 2 and all(isinstance(v, int) for v in value):
        return f"{value[0]}+{value[1]}"
    return "–" if value is None else str(value)


def game_choice(lang: str, info: GameInfo) -> str:
    """A finished game as ``/monopoly verify`` suggests it: number, kind, when it ended."""
    kind = t(lang, "games.cards" if info.settings.get("game") == "cards" else "games.board")
    names = ", ".join(str(p.get("name", "?")) for p in info.settings.get("players", []))
    label = t(
        lang,
        "fair.choice",
        game=info.id,
        kind=kind,
        date=info.updated_at.strftime("%Y-%m-%d"),
        players=names,
    )
    return label[:100]  # Discord's limit for a choice's name


def short_fingerprint(settings: dict[str, Any]) -> str | None:
    """The short fingerprint of a running game's seed (None if it has none), for the
    one-line reminder on later turn messages."""
    full = _fingerprint(settings)
    return short(full) if full is not None else None
