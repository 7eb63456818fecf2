"""Logging configuration for the bot process."""

from __future__ import annotations

import logging

LOG_FORMAT = "%(asctime)s %(levelname)-8s %(name)s: %(message)s"
DATE_FORMAT = "%Y-%m-%d %H:%M:%S"
#: Loggers that print every SQL parameter at DEBUG: the stored state of a running game,
#: whose dice generator tells the throws to come (docs/fair-dice.md). They stay at INFO
#: even when the bot logs at DEBUG.
PARAMETER_LOGGERS = ("aiosqlite",)


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
    for logger in PARAMETER_LOGGERS:
        logging.getLogger(logger).setLevel(max(numeric or logging.INFO, logging.INFO))
    if numeric is None:
        logging.getLogger(__name__).warning("Unknown log level %r, using INFO", level)
