"""Waiting for aiosqlite's worker threads before the event loop closes.

aiosqlite runs each connection in a thread of its own. When opening a file fails (a
directory, a path that cannot be made), aiosqlite 0.22 queues that thread's stop but does
not wait for it. A command that then prints its one line and returns ends ``asyncio.run``
at once; if the loop is closed before the thread hands back the stop's result, the thread
dies with ``RuntimeError: Event loop is closed`` and Python prints a 24-line traceback after
the clean line ("sometimes": it is a race). Upstream: omnilib/aiosqlite#389 (open).

:func:`aiosqlite_threads_ended` closes the race: it waits, with the loop still running, for
the worker threads started inside its block.
"""

from __future__ import annotations

import asyncio
import threading
from collections.abc import AsyncIterator, Awaitable
from contextlib import asynccontextmanager
from typing import TypeVar

T = TypeVar("T")

#: How aiosqlite's worker threads are named: Python names a thread after its target
#: (``Thread-3 (_connection_worker_thread)``). A release that names them otherwise is not
#: waited for: the race comes back, nothing worse.
WORKER_NAME = "(_connection_worker_thread)"
#: Seconds to wait for the threads at most (a stop takes microseconds).
WAIT_AT_MOST = 5.0


def _workers(threads: set[threading.Thread]) -> list[threading.Thread]:
    """The aiosqlite worker threads among ``threads`` that still run."""
    return [t for t in threads if t.name.endswith(WORKER_NAME) and t.is_alive()]


@asynccontextmanager
async def aiosqlite_threads_ended(timeout: float = WAIT_AT_MOST) -> AsyncIterator[None]:
    """On leaving the block (also by an exception), wait until the aiosqlite worker threads
    started in it have ended, for at most ``timeout`` seconds.

    For blocks that close every connection they open (or fail to open one): a
    connection left open keeps its thread, and the wait would last the whole ``timeout``.
    """
    before = set(threading.enumerate())
    try:
        yield
    finally:
        loop = asyncio.get_running_loop()
        deadline = loop.time() + timeout
        # Polled, not joined: the thread needs this loop running to hand back its result.
        while _workers(set(threading.enumerate()) - before) and loop.time() < deadline:
            await asyncio.sleep(0.005)


async def threads_ended_after(work: Awaitable[T]) -> T:
    """``await work`` inside :func:`aiosqlite_threads_ended`: for a command's whole
    ``asyncio.run``, whose stores are all closed (or failed to open) when it returns."""
    async with aiosqlite_threads_ended():
        return await work
