"""``monopoly-bot export`` and ``monopoly-bot verify``: dice you can check (bot/fairness.py,
docs/fair-dice.md). A finished game's record leaves the store with its seed (and, since
``monopoly-seed/2``, the secret and the players' words it was derived from); every throw
and shuffle of it is recomputed from that seed."""

from __future__ import annotations

import argparse
import json
import sys
from pathlib import Path
from typing import TYPE_CHECKING, Any

from bot.config import one_line, store_problem

if TYPE_CHECKING:
    from bot.config import Settings


class ExportRefused(Exception):
    """A game that cannot (or must not) be exported; the message is one line."""


def cmd_export(args: argparse.Namespace) -> int:
    """``monopoly-bot export GAME_ID [--out FILE]``: a finished game's record with its seed.

    Exit code 0; 2 with one line if refused (bad configuration, no such game, a game that
    is not finished: its record holds the dice still to come, so it never leaves the store).
    """
    import asyncio

    from bot.aiosqlite_threads import threads_ended_after
    from bot.config import Settings

    try:
        settings = Settings.from_env()
        export = asyncio.run(threads_ended_after(export_game(settings, args.game)))
    except (ValueError, ExportRefused) as error:
        print(f"monopoly-bot export: {one_line(error)}", file=sys.stderr)
        return 2
    text = json.dumps(export, sort_keys=True, ensure_ascii=False) + "\n"
    if args.out is None:
        sys.stdout.write(text)
        return 0
    try:
        Path(args.out).write_text(text, encoding="utf-8")
    except OSError as error:
        print(f"monopoly-bot export: cannot write {args.out}: {error}", file=sys.stderr)
        return 2
    print(
        f"monopoly-bot export: game {args.game} ({len(export['actions'])} actions) written "
        f"to {args.out}",
        file=sys.stderr,
    )
    return 0


async def export_game(settings: Settings, game_id: int) -> dict[str, Any]:
    """A finished game as a ``monopoly-record/1`` export with its seed.

    The store's record (start and every action with its dice), plus ``final`` (the stored
    end state) and, if the game kept its seed, ``fairness``: ``scheme``, ``game_id``,
    ``seed`` (the generator's) and ``fingerprint``, and for ``monopoly-seed/2`` the
    ``secret`` and the ``words`` (``[{"name", "words"}]``) (see docs/fair-dice.md). Only
    a finished game: a running (or broken, or lobby) game's start state holds the
    generator, which tells every throw to come, so :class:`ExportRefused` is raised for
    it, as for a game that does not exist or a store that cannot be opened. The store is
    opened as the bot opens it.
    """
    import sqlite3

    from bot.fairness import export_fairness
    from bot.store import GameStatus, StoreError, store_for

    try:
        store = store_for(settings)
    except ValueError as error:
        raise ExportRefused(one_line(error)) from None
    if settings.database_url is None and not settings.db_path.is_file():
        raise ExportRefused(f"{settings.store_setting}: there is no database file")
    try:
        await store.open()
    except (StoreError, OSError, sqlite3.Error) as error:
        raise ExportRefused(store_problem(settings, error, "cannot open the database")) from None
    try:
        try:
            row = await store.load(game_id)
        except StoreError as error:  # not found, or set aside as unreadable
            raise ExportRefused(f"game {game_id}: {one_line(error)}") from None
        if row.status != GameStatus.FINISHED:
            raise ExportRefused(
                f"game {game_id} is {row.status}: only a finished game can be exported (a "
                "running game's record holds the dice still to come)"
            )
        if row.state is None:
            raise ExportRefused(f"game {game_id} never started: there is nothing to export")
        record = await store.record(game_id)
    finally:
        await store.close()
    export = record.to_dict()
    export["final"] = row.state.to_dict()
    fairness = export_fairness(row.settings, game_id)
    if fairness is not None:
        export["fairness"] = fairness
    return export


def _words(fairness: dict[str, Any]) -> list[str] | None:
    """The players' words of an export's ``fairness`` (``[{"name", "words"}]``), or None
    if they are not in that form."""
    raw = fairness.get("words", [])
    if not isinstance(raw, list):
        return None
    found = [entry.get("words") for entry in raw if isinstance(entry, dict)]
    if len(found) != len(raw) or not all(isinstance(text, str) for text in found):
        return None
    return found  # type: ignore[return-value]


def cmd_verify(args: argparse.Namespace) -> int:
    """``monopoly-bot verify FILE [--seed S] [--secret S] [--game ID] [--fingerprint HEX]``.

    Recomputes every throw and shuffle of the exported game from its seed (the file's
    ``fairness`` object, or the options, which win). A ``monopoly-seed/2`` export (with a
    ``secret``) is checked against the fingerprint with its secret, and its seed is
    derived from the secret and the players' words (a file's seed that is not that one is
    a mismatch: the words or the seed were changed). Exit code 0 and "all N throws
    match"; 1 naming the first mismatch; 2 for a file that is not a game record, or no
    seed (nor secret).
    """
    from bot.fairness import verify

    try:
        raw = json.loads(Path(args.file).read_text(encoding="utf-8"))
    except (OSError, UnicodeDecodeError, json.JSONDecodeError) as error:
        print(f"monopoly-bot verify: cannot read {args.file}: {error}", file=sys.stderr)
        return 2
    if not isinstance(raw, dict):
        print(f"monopoly-bot verify: {args.file} is not a game record", file=sys.stderr)
        return 2
    fairness = raw.get("fairness") if isinstance(raw.get("fairness"), dict) else {}
    seed = args.seed if args.seed is not None else fairness.get("seed")
    secret = args.secret if args.secret is not None else fairness.get("secret")
    game = args.game if args.game is not None else fairness.get("game_id")
    committed = args.fingerprint if args.fingerprint is not None else fairness.get("fingerprint")
    if (seed is None and secret is None) or game is None:
        print(
            f"monopoly-bot verify: {args.file} names no {'game id' if game is None else 'seed'} "
            "(an export of a finished game has them in `fairness`; a running game's never): "
            "give --seed and --game",
            file=sys.stderr,
        )
        return 2
    words = _words(fairness) if secret is not None else None
    if secret is not None and words is None:
        print(
            f"monopoly-bot verify: {args.file}: the players' words are not a list of "
            '{"name", "words"} objects',
            file=sys.stderr,
        )
        return 2
    final = raw.get("final")
    try:
        if committed is not None and not isinstance(committed, str):
            raise ValueError("the fingerprint is not text")
        result = verify(
            raw, seed, game, fingerprint=committed, final=final, secret=secret, words=words
        )
    except ValueError as error:
        print(f"monopoly-bot verify: {args.file}: {one_line(error)}", file=sys.stderr)
        return 2
    kind = "the card game" if result.game == "cards" else "MONOPOLY"
    if result.secret is not None:
        shown = ", ".join(json.dumps(text, ensure_ascii=False) for text in result.words)
        print(
            f"game {result.game_id} ({kind}, {result.scheme}): secret {result.secret}, "
            f"fingerprint {result.fingerprint}, players' words [{shown}], seed {result.seed}"
        )
    else:
        print(
            f"game {result.game_id} ({kind}): seed {result.seed}, fingerprint {result.fingerprint}"
        )
    print(result.summary())
    return 0 if result.ok else 1
