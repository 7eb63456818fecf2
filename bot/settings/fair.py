"""What a game keeps for its checkable dice (docs/fair-dice.md), owned by :mod:`bot.fairness`.

The lobby opens committed to a secret (its fingerprint is public at once); the players may
type words; at the start the generator's seed is derived from both and kept, secret until
the game is over. Games of ``monopoly-seed/1`` kept the seed and its fingerprint only.
Values are read as stored: :mod:`bot.fairness` checks their types, since a game from
before a key existed (or a hand-edited one) may hold anything.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from bot.settings.keys import Key, Section, none


class FairDice(Section):
    """The keys of the checkable dice (see the module docstring)."""

    __slots__ = ()

    #: The generator's seed: secret until the game is over (``monopoly-seed/2``: written
    #: at the start, derived from the secret and the words).
    seed = Key[Any]("fair_seed", none)
    #: The full fingerprint: public from the lobby's opening (``monopoly-seed/1``: from
    #: the start).
    fingerprint = Key[Any]("seed_fingerprint", none)
    #: The secret committed to when the lobby opened (``monopoly-seed/2``): shown when the
    #: game is over, or when the lobby is closed without a game.
    secret = Key[Any]("fair_secret", none)
    #: The scheme the game committed by (absent: ``monopoly-seed/1``).
    scheme = Key[Any]("fair_scheme", none)
    #: The lobby's words while it is open: ``{user id as text: words}``.
    lobby_words = Key[Any]("lobby_words", none)
    #: The words the seed was derived from, written at the start and public from then on:
    #: ``[{"name": player, "words": text}]`` in seat order.
    seed_words = Key[Any]("seed_words", none)

    def update(self, values: Mapping[str, Any]) -> None:
        """Store what :mod:`bot.fairness` worked out (``commit_secret``, ``seal``: keys of
        this section only; another is ``KeyError``)."""
        for name in values:
            if name not in FairDice.KEYS:
                raise KeyError(name)
        self.data.update(values)

    @property
    def committed_at_all(self) -> bool:
        """Whether the game or lobby keeps a fingerprint (is committed to its dice)."""
        return self.has(FairDice.fingerprint)

    @property
    def has_secret(self) -> bool:
        """Whether a secret is kept (``monopoly-seed/2``), whatever its value."""
        return self.has(FairDice.secret)

    @property
    def has_lobby_words(self) -> bool:
        """Whether the lobby's words are kept (removed at the start)."""
        return self.has(FairDice.lobby_words)
