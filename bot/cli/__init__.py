"""The ``monopoly-bot`` command: run the bot, sync its commands, print its invite link, show
the store's status, check the running bot's health, simulate games, replay scenarios,
export a finished game and verify its dice, benchmark, compile the engine (optional), fit
the expert's win model.

The parser is :mod:`bot.cli.parser`, :func:`main` (:mod:`bot.cli.dispatch`) runs one
subcommand's handler: :mod:`~bot.cli.run` (run, sync), :mod:`~bot.cli.invite`,
:mod:`~bot.cli.status` (status, health; reading the store in
:mod:`~bot.cli.status_rows`), :mod:`~bot.cli.store_copy`,
:mod:`~bot.cli.export` (export, verify), :mod:`~bot.cli.simulate` (simulate, tournament,
replay), :mod:`~bot.cli.bench`, :mod:`~bot.cli.build_engine` and
:mod:`~bot.cli.train_win_model`. This package only re-exports; its modules import each
other, never this one.
"""

from __future__ import annotations

from bot.cli.dispatch import main
from bot.cli.export import ExportRefused, export_game
from bot.cli.parser import build_parser
from bot.cli.status import status_lines, store_status
from bot.cli.status_rows import StatusProblem
from bot.cli.status_rows import sqlite_rows as _sqlite_rows
from bot.cli.status_rows import store_rows as _store_rows

__all__ = [
    "ExportRefused",
    "StatusProblem",
    "_sqlite_rows",
    "_store_rows",
    "build_parser",
    "export_game",
    "main",
    "status_lines",
    "store_status",
]
