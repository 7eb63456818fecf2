"""Logging configuration for the bot process."""

from __future__ import annotations

import logging

LOG_FORMAT = "%(asctime)s %(levelname)-8s %(name)s: %(message)s"
DATE_FORMAT = "%Y-%m-%d %H:%M:%S"


def configure_logging(level: str) -> None:
    """Configure root logging to stderr at ``level`` (a name such as ``"INFO"``).

    An unknown level name falls back to ``INFO`` and logs a warning.
    """
    name = level.strip().upper()
    numeric = logging.getLevelNamesMapping().get(name)
    logging.basicConfig(
        level=numeric if numeric is not None else logging.INFO,
        format=LOG_FORMAT,
        datefmt=DATE_FORMAT,
    )
    if numeric is None:
        logging.getLogger(__name__).warning("Unknown log level %r, using INFO", level)
