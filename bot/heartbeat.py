"""The heartbeat file: the running bot notes that it is connected, a health check reads it.

The bot writes the file every :data:`HEARTBEAT_EVERY` seconds while its gateway
connections are open (``bot/app.py``): the time, its shard ids and each shard's gateway
latency, as one JSON object. ``monopoly-bot health`` (a container's health check) calls
the bot healthy while the file is younger than ``--max-age`` seconds. A bot that hangs,
lost its connection for good or died stops writing, so the file grows old; no port and
no Discord call is needed to tell.

The file is replaced atomically (written next to it, then renamed), so a reader never
sees half a heartbeat.
"""

from __future__ import annotations

import json
import math
import os
import tempfile
import time
from collections.abc import Iterable
from dataclasses import dataclass
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

#: Seconds between two heartbeats of a connected bot.
HEARTBEAT_EVERY = 30.0
#: Default ``--max-age`` of ``monopoly-bot health``: four heartbeats may be missed (a
#: reconnect of the gateway takes a few seconds; a busy event loop delays a beat).
DEFAULT_MAX_AGE = 120.0


def _seconds(latency: float | None) -> float | None:
    """A latency for JSON: seconds rounded to the millisecond, None if not measured.

    discord.py reports ``inf`` before the first heartbeat ack and ``nan`` without a
    connection; neither is valid JSON.
    """
    if latency is None or not math.isfinite(latency):
        return None
    return round(latency, 3)


def heartbeat_payload(
    shard_ids: Iterable[int] | None,
    latencies: Iterable[tuple[int | None, float | None]],
    *,
    now: float | None = None,
) -> dict[str, Any]:
    """The heartbeat's JSON object.

    ``shard_ids`` are the shards the process holds (None: unsharded); ``latencies`` are
    ``(shard id, seconds)`` pairs (shard id None for an unsharded bot). ``now`` is a Unix
    time (default: the current time).
    """
    moment = time.time() if now is None else now
    return {
        "time": datetime.fromtimestamp(moment, UTC).isoformat(),
        "unix": moment,
        "pid": os.getpid(),
        "shard_ids": None if shard_ids is None else sorted(shard_ids),
        "latency": {
            ("all" if shard is None else str(shard)): _seconds(latency)
            for shard, latency in latencies
        },
    }


def write_heartbeat(path: Path, payload: dict[str, Any]) -> None:
    """Replace the heartbeat file at ``path`` with ``payload``, atomically.

    Raises :class:`OSError` if the file cannot be written (the caller logs it).
    """
    path.parent.mkdir(parents=True, exist_ok=True)
    # A temporary file in the same directory, so the rename is atomic (one file system).
    handle, temporary = tempfile.mkstemp(prefix=f".{path.name}.", dir=path.parent)
    try:
        with os.fdopen(handle, "w", encoding="utf-8") as file:
            json.dump(payload, file, sort_keys=True)
            file.write("\n")
        os.replace(temporary, path)
    except BaseException:
        Path(temporary).unlink(missing_ok=True)
        raise


@dataclass(frozen=True)
class Health:
    """The verdict of :func:`check_heartbeat`: healthy or not, and one line why."""

    healthy: bool
    line: str


def check_heartbeat(path: Path, *, max_age: float, now: float | None = None) -> Health:
    """Whether the heartbeat at ``path`` is at most ``max_age`` seconds old at ``now``.

    The age is taken from the time written in the file (not the file's modification
    time, which a copy or a restore would change). A missing, unreadable or malformed
    file is unhealthy, each with its own line.
    """
    moment = time.time() if now is None else now
    try:
        raw = path.read_text(encoding="utf-8")
    except FileNotFoundError:
        return Health(
            False,
            f"unhealthy: no heartbeat file at {path} (the bot has not connected to Discord "
            "yet, or MONOPOLY_HEARTBEAT_FILE differs from the bot's)",
        )
    except OSError as error:
        return Health(False, f"unhealthy: cannot read the heartbeat file {path}: {error}")
    try:
        data = json.loads(raw)
        written = float(data["unix"])
    except (ValueError, KeyError, TypeError):
        return Health(False, f"unhealthy: the heartbeat file {path} is not a heartbeat")
    if not math.isfinite(written):
        return Health(False, f"unhealthy: the heartbeat file {path} is not a heartbeat")
    age = moment - written
    if age > max_age:
        return Health(
            False,
            f"unhealthy: the last heartbeat is {age:.0f} s old (more than {max_age:g} s): "
            "the bot is not connected to Discord, hangs or has stopped",
        )
    return Health(True, f"healthy: heartbeat {max(age, 0.0):.0f} s old{_describe(data)}")


def _describe(data: dict[str, Any]) -> str:
    """The shards and latencies of a heartbeat, for the healthy line."""
    parts = []
    shard_ids = data.get("shard_ids")
    if isinstance(shard_ids, list):
        parts.append("shards " + ",".join(str(shard) for shard in shard_ids))
    latency = data.get("latency")
    if isinstance(latency, dict) and latency:
        shown = [
            f"{'' if shard == 'all' else f'shard {shard} '}"
            + ("?" if not isinstance(seconds, int | float) else f"{seconds * 1000:.0f} ms")
            for shard, seconds in latency.items()
        ]
        parts.append("gateway latency " + ", ".join(shown))
    return "; " + "; ".join(parts) if parts else ""
