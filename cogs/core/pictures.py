"""Pictures that may fail to draw: a game never waits for one.

Drawing runs the renderer on the game's state; a state it cannot draw (a bug, a strange
board) must not keep the message from going out. :func:`drawn` gives the picture, or None
after logging the failure once per game (again only after a picture of that game was
drawn in between), so a sweep retrying every minute does not fill the log.
"""

from __future__ import annotations

import logging
from collections.abc import Awaitable
from typing import TypeVar

log = logging.getLogger(__name__)

T = TypeVar("T")


async def drawn(failed: set[int], game: int, what: str, drawing: Awaitable[T]) -> T | None:
    """The picture ``drawing`` makes, or None if it fails (see the module docstring).

    ``failed`` holds the games whose last picture failed (the publisher's
    ``picture_failures``): logged once, not at every retry.
    """
    try:
        picture = await drawing
    except Exception:  # noqa: BLE001 - a picture is never worth a stuck game
        if game not in failed:
            failed.add(game)
            log.exception("Game %s: a picture (%s) could not be drawn", game, what)
        else:
            log.debug("Game %s: the picture (%s) failed again", game, what)
        return None
    failed.discard(game)
    return picture
