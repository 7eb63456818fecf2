"""What users are putting together in private menus: trade offers, choices of lots, lay-outs.

A draft belongs to one (kind, game, user) and lives in memory only: it is short-lived, and
a menu clicked after a restart (or after a newer copy was opened) finds no draft and says
so politely. The custom ids of a draft's menu carry its ``nonce``, so a click on an older
copy of the menu is recognised.
"""

from __future__ import annotations

import itertools
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import TypeVar

#: Drafts older than this (seconds) are dropped when a new one is made.
DRAFT_LIFETIME = 3600.0

_nonces = itertools.count(1)


@dataclass
class Draft:
    """Something a user is putting together in a private menu (see the subclasses)."""

    game: int
    user: int
    nonce: int = field(default_factory=lambda: next(_nonces))
    created: float = 0.0


D = TypeVar("D", bound=Draft)


class DraftBook:
    """Every user's current drafts, by (kind, game, user); ``clock`` gives seconds."""

    def __init__(self, clock: Callable[[], float]) -> None:
        self._clock = clock
        self._drafts: dict[tuple[str, int, int], Draft] = {}

    def keep(self, kind: str, draft: D) -> D:
        """Store ``draft`` as the user's current one of ``kind`` (dropping stale ones)."""
        now = self._clock()
        draft.created = now
        for key in [k for k, d in self._drafts.items() if now - d.created > DRAFT_LIFETIME]:
            del self._drafts[key]
        self._drafts[(kind, draft.game, draft.user)] = draft
        return draft

    def get(self, kind: str, game: int, user: int) -> Draft | None:
        """The user's current draft of ``kind`` in ``game``, if any."""
        return self._drafts.get((kind, game, user))

    def find(self, kind: str, game: int, user: int, nonce: str | None) -> Draft | None:
        """The user's draft of ``kind`` if the menu clicked (``nonce``) is its current copy."""
        draft = self._drafts.get((kind, game, user))
        if draft is None or nonce is None or str(draft.nonce) != nonce:
            return None
        return draft

    def drop(self, kind: str, draft: Draft) -> None:
        """Forget a finished or cancelled draft."""
        self._drafts.pop((kind, draft.game, draft.user), None)

    def pop(self, kind: str, game: int, user: int) -> Draft | None:
        """Take the user's draft of ``kind`` out of the book."""
        return self._drafts.pop((kind, game, user), None)
