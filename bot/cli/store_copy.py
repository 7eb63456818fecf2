"""``monopoly-bot store copy``: every game, timer, preference and server file from one store
into another, checked (bot/store/copy.py does the work)."""

from __future__ import annotations

import argparse
import sys


def cmd_store(args: argparse.Namespace) -> int:
    """``monopoly-bot store copy --from URL --to URL``: move every game, timer, preference,
    server file and bot record from one store to another, checked (bot/store/copy.py).

    Exit code 0 with a summary line; 2 with one line if the copy is refused before
    anything is written (a bad URL, a missing or unreachable database, a source of
    another schema version, a target that is not empty); 1 if loading or the check
    fails (the target's transaction is rolled back).
    """
    import asyncio

    from bot.config import hide_passwords
    from bot.store.copy import CopyFailed, CopyRefused, copy_store, parse_store_url

    # Every line goes through hide_passwords: a URL with a typo is repeated as given.
    try:
        source = parse_store_url(args.source, "--from")
        target = parse_store_url(args.target, "--to")
    except ValueError as error:
        print(f"monopoly-bot store copy: {hide_passwords(str(error))}", file=sys.stderr)
        return 2
    try:
        report = asyncio.run(copy_store(source, target))
    except CopyRefused as problem:
        print(f"monopoly-bot store copy: {hide_passwords(str(problem))}", file=sys.stderr)
        return 2
    except CopyFailed as problem:
        print(f"monopoly-bot store copy: {hide_passwords(str(problem))}", file=sys.stderr)
        return 1
    print(f"monopoly-bot store copy: {hide_passwords(report.line())}")
    return 0
