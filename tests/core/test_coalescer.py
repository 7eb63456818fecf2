"""Coalesced edits of one message (``cogs/core/publisher.py``): at most one edit per
interval, the newest payload wins, and an edit put off reports when it went through."""

from __future__ import annotations

import asyncio

from cogs.core.publisher import Coalescer


async def test_a_burst_makes_one_edit_now_and_one_with_the_last_payload() -> None:
    """Five edits in a row: the first goes out at once, the other four become one edit
    with the fifth payload after the interval."""
    coalescer = Coalescer(interval=0.05)
    sent: list[int] = []

    def edit(number: int):  # noqa: ANN202 - a closure per payload
        async def run() -> bool:
            sent.append(number)
            return True

        return run

    outcomes = [await coalescer.edit(7, edit(n)) for n in range(5)]
    assert outcomes == [True, None, None, None, None]
    assert sent == [0]
    await coalescer.drain()
    assert sent == [0, 4]


async def test_different_messages_do_not_wait_for_each_other() -> None:
    """An edit of another message goes out at once."""
    coalescer = Coalescer(interval=10.0)
    sent: list[int] = []

    async def one() -> bool:
        sent.append(1)
        return True

    async def two() -> bool:
        sent.append(2)
        return True

    assert await coalescer.edit(1, one) is True
    assert await coalescer.edit(2, two) is True
    assert sent == [1, 2]


async def test_an_edit_after_the_interval_goes_out_at_once() -> None:
    """Once the interval has passed, the next edit is not put off."""
    coalescer = Coalescer(interval=0.01)

    async def run() -> bool:
        return True

    assert await coalescer.edit(1, run) is True
    await asyncio.sleep(0.02)
    assert coalescer.ready(1)
    assert await coalescer.edit(1, run) is True


async def test_a_failed_edit_reports_false() -> None:
    """A failing edit that goes out at once says so."""
    coalescer = Coalescer(interval=1.0)

    async def fail() -> bool:
        return False

    assert await coalescer.edit(1, fail) is False
