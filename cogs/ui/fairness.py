"""What the bot shows of a game's seed: the fingerprint from the lobby on, the players'
words from the start, the secret and the seed at the end (or when a lobby is closed), and
the answer of ``/monopoly verify`` (the scheme: ``bot/fairness.py``, docs/fair-dice.md).

The secret and the seed (``settings.fair.secret``, ``settings.fair.seed``) are read only by
:func:`add_reveal`, :func:`reveal_embed` and :func:`closed_text`, whose callers show them
only once the game is over or the lobby closed; everything else here shows the
fingerprint and the words, which tell nothing about the dice to come.
"""

from __future__ import annotations

from typing import Any

import discord

from bot.fairness import (
    Mismatch,
    Verification,
    committed,
    short,
)
from bot.i18n import t
from bot.settings import GameSettings
from bot.store import GameInfo
from cogs.ui.ids import clip
from cogs.ui.text import fit_lines

#: Discord's limits this module keeps to: a field's value, all of an embed's text.
FIELD_MAX, EMBED_MAX = 1024, 6000
#: Room kept free for what is added to an embed after the words: a turn message's footer
#: (what the game waits for and from whom: ten names of 32 characters at most).
FOOTER_ROOM = 400
#: The least room worth a field of words: enough to say how many were left out.
MIN_FIELD = 40

#: The colour of the verification answers: green for a match, red for a mismatch.
OK_COLOUR = 0x2E7D32
BAD_COLOUR = 0xC62828


def _fingerprint(settings: GameSettings) -> str | None:
    value = settings.fair.fingerprint
    return value if isinstance(value, str) and value else None


def add_commitment(
    embed: discord.Embed, settings: GameSettings, *, cards: bool, first: bool
) -> None:
    """Add the fingerprint of a running game's seed to ``embed`` (if the game has one).

    ``first``: the game's first message, which says in one sentence what it means; later
    messages only repeat the fingerprint.
    """
    full = _fingerprint(settings)
    if full is None:
        return
    lang = settings.lobby.lang
    sentence = "fair.commit.cards" if cards else "fair.commit.board"
    key = sentence if first else "fair.commit.short"
    embed.add_field(
        name=t(lang, "fair.commit.title"),
        value=t(lang, key, fingerprint=short(full)),
        inline=False,
    )
    if first and isinstance(settings.fair.seed_words, list):
        # The words the seed was derived from, public from the start (monopoly-seed/2).
        add_words(embed, lang, settings.fair.seed_words)


def word_lines(lang: str, words: list[Any]) -> list[str]:
    """One line per player's words: "**Anna**: „…“" (markdown in them shown as typed)."""
    lines = []
    for entry in words:
        if isinstance(entry, dict) and isinstance(entry.get("words"), str):
            name = discord.utils.escape_markdown(str(entry.get("name", "?")))
            text = discord.utils.escape_markdown(entry["words"])
            lines.append(t(lang, "fair.words.line", name=name, words=text))
    return lines


def add_words(embed: discord.Embed, lang: str, words: list[Any]) -> None:
    """Add the players' words to ``embed``: as many fields as they need (each within
    Discord's 1 024 characters), within what the embed has left of its 6 000 (a last
    line counts the words left out then: only a turn message that is full already)."""
    lines = word_lines(lang, words)
    title = t(lang, "fair.words.title")
    if not lines:
        embed.add_field(name=title, value=t(lang, "fair.words.none"), inline=False)
        return
    room = EMBED_MAX - len(embed) - FOOTER_ROOM
    while lines and len(embed.fields) < 25:
        budget = min(FIELD_MAX, room - len(title))
        if budget < MIN_FIELD:
            return  # only an embed full already (the lobby message shows the words)
        taken = 0
        while taken < len(lines) and len("\n".join(lines[: taken + 1])) <= budget:
            taken += 1
        value = "\n".join(lines[:taken])
        after = min(FIELD_MAX, room - 2 * len(title) - len(value))
        if taken == len(lines) or taken == 0 or after < len(lines[taken]):
            # Everything fits, or the next line would not: this field is the last one and
            # counts the lines left out ("… and 3 more").
            embed.add_field(name=title, value=fit_lines(lines, lang, budget), inline=False)
            return
        embed.add_field(name=title, value=value, inline=False)
        room -= len(title) + len(value)
        lines = lines[taken:]


def reveal_text(game_id: int, settings: GameSettings, *, cards: bool) -> str | None:
    """The reveal of a finished game's seed (None if it has none): in ``monopoly-seed/2``
    the secret with the fingerprint it has, and the seed it gives with the words. Only for
    a game that is over: the caller checks that."""
    found = committed(settings)
    if found is None or found.seed is None:
        return None
    lang = settings.lobby.lang
    full = found.fingerprint
    if found.secret is None:
        return t(
            lang,
            "fair.reveal.cards" if cards else "fair.reveal.board",
            seed=found.seed,
            fingerprint=full,
            short=short(full),
            game=game_id,
        )
    return t(
        lang,
        "fair.reveal2.cards" if cards else "fair.reveal2.board",
        secret=found.secret,
        seed=found.seed,
        fingerprint=full,
        short=short(full),
        game=game_id,
    )


def add_reveal(embed: discord.Embed, game_id: int, settings: GameSettings) -> None:
    """Add the seed and the full fingerprint to a finished board game's final embed (in
    ``monopoly-seed/2`` also the secret and the words the seed came from)."""
    text = reveal_text(game_id, settings, cards=False)
    if text is not None:
        lang = settings.lobby.lang
        embed.add_field(name=t(lang, "fair.reveal.title"), value=text, inline=False)
        if isinstance(settings.fair.seed_words, list):
            add_words(embed, lang, settings.fair.seed_words)


def reveal_embed(game_id: int, settings: GameSettings) -> discord.Embed | None:
    """The reveal of a finished card game as an embed of its winner message (or None)."""
    text = reveal_text(game_id, settings, cards=True)
    if text is None:
        return None
    lang = settings.lobby.lang
    embed = discord.Embed(title=t(lang, "fair.reveal.title"), description=text, colour=OK_COLOUR)
    if isinstance(settings.fair.seed_words, list):
        add_words(embed, lang, settings.fair.seed_words)
    return embed


def closed_text(game_id: int, settings: GameSettings) -> str | None:
    """The reveal of a lobby closed without a game: its secret and the fingerprint the
    lobby showed (None for a lobby that committed to none). Only for a closed lobby."""
    found = committed(settings)
    if found is None or found.secret is None:
        return None
    return t(
        settings.lobby.lang,
        "fair.closed",
        secret=found.secret,
        fingerprint=found.fingerprint,
        short=short(found.fingerprint),
        game=game_id,
    )


def lobby_commitment(embed: discord.Embed, settings: GameSettings) -> None:
    """Add the fingerprint of a lobby's secret to its message, with who set words (not
    the words); once the game started, the words themselves (nothing if it has none)."""
    full = _fingerprint(settings)
    if full is None:
        return
    lang = settings.lobby.lang
    value = t(lang, "fair.lobby.commit", fingerprint=short(full))
    if isinstance(settings.fair.seed_words, list):  # started: the words are public
        embed.add_field(name=t(lang, "fair.commit.title"), value=value, inline=False)
        add_words(embed, lang, settings.fair.seed_words)
        return
    names = words_set(settings)
    status = (
        t(lang, "fair.lobby.words", names=", ".join(names))
        if names
        else t(lang, "fair.lobby.no_words")
    )
    embed.add_field(
        name=t(lang, "fair.commit.title"), value=clip(f"{value}\n{status}", FIELD_MAX), inline=False
    )


def words_set(settings: GameSettings) -> list[str]:
    """The names of the lobby's players who have set words, in joining order."""
    typed = settings.fair.lobby_words
    if not isinstance(typed, dict):
        return []
    return [
        str(p.get("name", "?"))
        for p in settings.lobby.players
        if typed.get(str(p.get("id"))) and not p.get("computer")
    ]


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
    if result.secret is not None:
        details = t(
            lang,
            "fair.verify.secret",
            secret=result.secret,
            words=len(result.words),
            seed=result.seed,
            fingerprint=result.fingerprint,
        )
    else:
        details = t(lang, "fair.verify.seed", seed=result.seed, fingerprint=result.fingerprint)
    return discord.Embed(
        description=f"{text}\n{details}", colour=OK_COLOUR if result.ok else BAD_COLOUR
    )


def mismatch_text(lang: str, game_id: int, found: Mismatch) -> str:
    """The first mismatch of a verification in words."""
    fields = ", ".join(found.fields[:6]) + (" …" if len(found.fields) > 6 else "")
    secret = found.kind == "fingerprint" and found.detail == "secret"
    return t(
        lang,
        f"fair.verify.bad.{found.kind}" + (".secret" if secret else ""),
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
    lobby = GameSettings.of(info).lobby
    kind = t(lang, "games.cards" if lobby.is_cards else "games.board")
    names = ", ".join(lobby.player_names())
    label = t(
        lang,
        "fair.choice",
        game=info.id,
        kind=kind,
        date=info.updated_at.strftime("%Y-%m-%d"),
        players=names,
    )
    return label[:100]  # Discord's limit for a choice's name


def short_fingerprint(settings: GameSettings) -> str | None:
    """The short fingerprint of a running game's seed (None if it has none), for the
    one-line reminder on later turn messages."""
    full = _fingerprint(settings)
    return short(full) if full is not None else None
