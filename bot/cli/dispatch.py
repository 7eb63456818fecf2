"""The entry point of ``monopoly-bot``: parse the command line, run the subcommand's handler."""

from __future__ import annotations

from bot.cli.backups import cmd_backup, cmd_restore
from bot.cli.bench import cmd_bench
from bot.cli.build_engine import cmd_build_engine
from bot.cli.export import cmd_export, cmd_verify
from bot.cli.invite import cmd_invite
from bot.cli.parser import build_parser
from bot.cli.run import cmd_run, cmd_sync
from bot.cli.simulate import cmd_replay, cmd_simulate, cmd_tournament
from bot.cli.status import cmd_health, cmd_status
from bot.cli.store_copy import cmd_store
from bot.cli.train_win_model import cmd_train_win_model


def main(argv: list[str] | None = None) -> int:
    """Entry point of the ``monopoly-bot`` console script."""
    args = build_parser().parse_args(argv)
    command = args.command or "run"
    handler = {
        "run": cmd_run,
        "sync": cmd_sync,
        "invite": cmd_invite,
        "status": cmd_status,
        "health": cmd_health,
        "store": cmd_store,
        "backup": cmd_backup,
        "restore": cmd_restore,
        "simulate": cmd_simulate,
        "replay": cmd_replay,
        "export": cmd_export,
        "verify": cmd_verify,
        "tournament": cmd_tournament,
        "bench": cmd_bench,
        "build-engine": cmd_build_engine,
        "train-win-model": cmd_train_win_model,
    }[command]
    return handler(args)
