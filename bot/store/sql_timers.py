"""The timers of the game store (for :mod:`bot.scheduler`), written once for every driver.

A timer is leased by one ``UPDATE`` that names it as still pending and not leased (or its
lease over), so of several claimants (tasks or processes) exactly one wins: SQLite's
write lock serialises them, PostgreSQL re-checks the condition on the row another
transaction just wrote. A timer is marked fired only once its handler finished (at least
once, see :mod:`bot.scheduler`). Triggers of the schema (migration 0003) keep pending
timers to open games: a game that ends cancels its pending timers in the same
transaction, whichever code ended it.

Every method checks its arguments first, the same on every driver: a timer id no timer
can have finds nothing (False), a game id no game can have is :class:`GameNotFound` when
adding and nothing otherwise.
"""

from __future__ import annotations

import json
from collections.abc import Mapping, Sequence
from datetime import datetime, timedelta
from typing import Any

from bot.store.base import DEFAULT_LEASE, OPEN_STATUSES, Shards, Timer
from bot.store.checks import (
    canonical_json,
    check_game_id,
    check_optional_text,
    check_shards,
    check_text,
    check_timer_id,
)
from bot.store.errors import GameNotFound, GameNotRunning
from bot.store.sql_base import SqlBase
from bot.text_input import is_sqlite_int

_COLUMNS = "id, game_id, kind, due_at, payload_json, key, created_at, attempts, leased_until"
_PENDING = "fired_at IS NULL AND cancelled_at IS NULL"
# Free to take at the time bound to the parameter: no lease, or one that has run out.
_UNLEASED = "(leased_until IS NULL OR leased_until <= ?)"
# When a pending timer can next be taken: when it is due, or when its lease ends.
_FREE_AT = "CASE WHEN leased_until > due_at THEN leased_until ELSE due_at END"


def _shard_filter(shards: Shards | None) -> tuple[str, tuple[int, ...]]:
    """The SQL condition (to append with AND) and parameters of a timer query's shards.

    Discord's formula, ``(guild_id >> 22) % shard_count``, on the timer's game.
    """
    chosen = check_shards(shards)
    if chosen is None:
        return "", ()
    count, ids = chosen
    if not ids:
        return " AND 0 = 1", ()  # no shard: no timer (an empty IN () is not standard SQL)
    marks = ", ".join("?" * len(ids))
    return (
        f" AND game_id IN (SELECT id FROM games WHERE ((guild_id >> 22) % ?) IN ({marks}))",
        (count, *ids),
    )


class TimerRows(SqlBase):
    """The timer methods of :class:`~bot.store.base.GameStore` on the shared SQL."""

    def _timer(self, row: Sequence[Any]) -> Timer:
        """A row of the timer columns as :class:`Timer` (the schema checks its form)."""
        return Timer(
            id=row[0],
            game_id=row[1],
            kind=row[2],
            due_at=self._time_of(row[3]),
            payload=json.loads(row[4]),
            key=row[5],
            created_at=self._time_of(row[6]),
            attempts=row[7],
            leased_until=None if row[8] is None else self._time_of(row[8]),
        )

    async def add_timer(
        self,
        game_id: int,
        kind: str,
        due_at: datetime,
        payload: Mapping[str, Any] | None = None,
        *,
        key: str | None = None,
    ) -> Timer:
        """Schedule a timer; a pending one of the game with the same ``key`` is replaced."""
        game_id = check_game_id(game_id)
        due = self._time(due_at, "due_at")
        payload_json = canonical_json(dict(payload or {}))
        kind = check_text(kind, "kind")
        key = check_optional_text(key, "key")

        async def work() -> Timer:
            created = self._stamp()
            async with self._transaction() as session:
                # The game's row first, held against other timer writers of the game and
                # against its ending: the same order as a game that ends (row, then its
                # timers), so the two cannot deadlock, and a second add_timer of the same
                # key waits instead of failing on the unique index.
                row = await session.fetchrow(
                    f"SELECT status FROM games WHERE id = ?{self.row_lock}", game_id
                )
                if row is None:
                    raise GameNotFound(game_id)
                if row[0] not in OPEN_STATUSES:
                    raise GameNotRunning(game_id, row[0])
                if key is not None:
                    # Same transaction as the insert: there is never a moment with
                    # both timers pending, or with neither.
                    await session.execute(
                        f"UPDATE timers SET cancelled_at = ? WHERE game_id = ? AND key = ?"
                        f" AND {_PENDING}",
                        created,
                        game_id,
                        key,
                    )
                inserted = await session.fetchrow(
                    "INSERT INTO timers (game_id, kind, due_at, payload_json, key, created_at)"
                    " VALUES (?, ?, ?, ?, ?, ?) RETURNING id",
                    game_id,
                    kind,
                    due,
                    payload_json,
                    key,
                    created,
                )
                assert inserted is not None
            return self._timer(
                (inserted[0], game_id, kind, due, payload_json, key, created, 0, None)
            )

        return await self._shielded(work())

    async def cancel_timers(
        self, game_id: int, *, kind: str | None = None, key: str | None = None
    ) -> int:
        """Cancel the game's pending timers (of ``kind`` and ``key`` if given); how many."""
        kind = check_optional_text(kind, "kind")
        key = check_optional_text(key, "key")
        if not is_sqlite_int(game_id):
            return 0  # no game can have that id, so it has no timers
        where = f"game_id = ? AND {_PENDING}"
        params: list[Any] = [game_id]
        if kind is not None:
            where += " AND kind = ?"
            params.append(kind)
        if key is not None:
            where += " AND key = ?"
            params.append(key)
        return await self._write(
            f"UPDATE timers SET cancelled_at = ? WHERE {where}", self._stamp(), *params
        )

    async def next_due_at(self, *, shards: Shards | None = None) -> datetime | None:
        """The earliest moment a pending timer can be taken (due, and its lease over)."""
        where, params = _shard_filter(shards)
        row = await self._fetchrow(
            f"SELECT min({_FREE_AT}) FROM timers WHERE {_PENDING}{where}", *params
        )
        return None if row is None or row[0] is None else self._time_of(row[0])

    async def due_timers(
        self, now: datetime, limit: int = 100, *, shards: Shards | None = None
    ) -> list[Timer]:
        """Pending, unleased timers due at ``now`` or earlier, earliest first (ties: oldest)."""
        if not is_sqlite_int(limit) or limit < 1:
            raise ValueError("limit must be at least 1")
        moment = self._time(now, "now")
        where, params = _shard_filter(shards)
        rows = await self._fetch(
            f"SELECT {_COLUMNS} FROM timers WHERE {_PENDING} AND due_at <= ?"
            f" AND {_UNLEASED}{where} ORDER BY due_at, id LIMIT ?",
            moment,
            moment,
            *params,
            limit,
        )
        return [self._timer(row) for row in rows]

    async def claim_timer(
        self,
        timer_id: int,
        *,
        now: datetime | None = None,
        lease_seconds: float = DEFAULT_LEASE,
    ) -> bool:
        """Lease the timer until ``now + lease_seconds`` if it is free; True if this call did."""
        if not lease_seconds > 0:
            raise ValueError("lease_seconds must be positive")
        moment = self._clock() if now is None else now
        start = self._time(moment, "now")
        until = self._time(moment + timedelta(seconds=lease_seconds), "the lease's end")
        if (found := check_timer_id(timer_id)) is None:
            return False
        # One statement tests and takes: of concurrent claimants (in this process or
        # another) only the first finds the lease free.
        taken = await self._write(
            "UPDATE timers SET leased_until = ?, attempts = attempts + 1"
            f" WHERE id = ? AND {_PENDING} AND {_UNLEASED}",
            until,
            found,
            start,
        )
        return taken == 1

    async def complete_timer(self, timer_id: int) -> bool:
        """Mark the timer fired (cancelled ones too); True if this call did."""
        if (found := check_timer_id(timer_id)) is None:
            return False
        done = await self._write(
            "UPDATE timers SET fired_at = ? WHERE id = ? AND fired_at IS NULL",
            self._stamp(),
            found,
        )
        return done == 1

    async def retry_timer(self, timer_id: int, at: datetime) -> None:
        """Keep the timer pending, free to take again from ``at`` on (a back-off)."""
        moment = self._time(at, "at")
        if (found := check_timer_id(timer_id)) is None:
            return
        await self._write(
            f"UPDATE timers SET leased_until = ? WHERE id = ? AND {_PENDING}", moment, found
        )

    async def renew_lease(self, timer_id: int, until: datetime) -> bool:
        """Extend the lease of a pending timer to ``until``; False if it is not pending."""
        moment = self._time(until, "until")
        if (found := check_timer_id(timer_id)) is None:
            return False
        renewed = await self._write(
            f"UPDATE timers SET leased_until = ? WHERE id = ? AND {_PENDING}", moment, found
        )
        return renewed == 1

    async def pending_timers(self, game_id: int) -> list[Timer]:
        """The game's pending timers, earliest first."""
        if not is_sqlite_int(game_id):
            return []
        rows = await self._fetch(
            f"SELECT {_COLUMNS} FROM timers WHERE game_id = ? AND {_PENDING} ORDER BY due_at, id",
            game_id,
        )
        return [self._timer(row) for row in rows]
