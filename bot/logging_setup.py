"""Logging configuration for the bot process."""

from __future__ import annotations

import logging

LOG_FORMAT = "%(asctime)s %(levelname)-8s %(name)s: %(message)s"
DATE_FORMAT = "%Y-%m-%d %H:%M:%S"
#: Loggers that print every SQL parameter at DEBUG: the stored state of a running game,
#: whose dice generator tells the throws to come (docs/fair-dice.md). They stay at INFO
#: even when the bot logs at DEBUG.
PARAMETER_LOGGERS = ("aiosqlite",)
#: The logger discord.py warns on at every start that voice is not supported, and those
#: warnings (this bot has no voice, so neither PyNaCl nor davey is installed).
VOICE_LOGGER = "discord.client"
VOICE_WARNINGS = frozenset(
    {
        "PyNaCl is not installed, voice will NOT be supported",
        "davey is not installed, voice will NOT be supported",
    }
)


class NoVoiceWarnings(logging.Filter):
    """Drops discord.py's two warnings about voice support (:data:`VOICE_WARNINGS`).

    Only those exact messages: any other warning of the logger still shows.
    """

    def filter(self, record: logging.LogRecord) -> bool:
        """False (drop) for one of the voice warnings, else True."""
        return not (record.levelno == logging.WARNING and record.msg in VOICE_WARNINGS)


def configure_logging(level: str) -> None:
    """Configure root logging to stderr at ``level`` (a name such as ``"INFO"``).

    An unknown level name falls back to ``INFO`` and logs a warning. discord.py's two
    warnings about voice support at every start are dropped (:class:`NoVoiceWarnings`).
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
    voice = logging.getLogger(VOICE_LOGGER)
    # A filter on the logger itself: discord.py logs the warnings there, and a second
    # configure_logging (tests, sync after run) must not stack a second filter.
    if not any(isinstance(known, NoVoiceWarnings) for known in voice.filters):
        voice.addFilter(NoVoiceWarnings())
    if numeric is None:
        logging.getLogger(__name__).warning("Unknown log level %r, using INFO", level)
