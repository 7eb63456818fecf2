"""What a route says: which handler gets a click, and what the dispatcher does first.

The table itself is ``cogs/core/routes.py``. A route names its handler by the feature
cog's name and a method name (so the table imports no cog) and tells the dispatcher:

* ``who`` may click: :data:`SEAT` (a player of the running game still in it), :data:`HOST`
  (the host, or a member who may manage the server), or :data:`ANYONE` (the handler checks
  what it needs itself, e.g. only the trade partner may accept);
* ``answer``: :data:`DEFER` (answer at once, publicly; the game's messages show the
  result), :data:`DEFER_PRIVATE` (answer at once, privately, "thinking"), or :data:`SELF`
  (the handler answers first: a private menu it edits or sends, or a form, which must be
  the first answer);
* ``lock``: hold the game's settings lock while the handler runs (it reads, changes and
  writes the settings, e.g. a vote);
* ``seq``: the custom id carries the state version its message was drawn for; a click
  for an older state is refused as "already done" before the handler runs (the store
  checks it again atomically).
"""

from __future__ import annotations

from dataclasses import dataclass

SEAT, HOST, ANYONE = "seat", "host", "anyone"
DEFER, DEFER_PRIVATE, SELF = "defer", "defer_private", "self"


@dataclass(frozen=True)
class Route:
    """One entry of the route table (see the module docstring)."""

    cog: str
    handler: str
    who: str = SEAT
    answer: str = SELF
    lock: bool = False
    seq: bool = False

    @property
    def loads_game(self) -> bool:
        """Whether the dispatcher loads the game before the handler (to check who or seq)."""
        return self.who != ANYONE or self.seq
