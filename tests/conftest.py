"""Settings for the whole suite: the ``discord`` marker for the tests of tests/discord.

Those tests run the real bot against simcord's in-memory Discord and take most of the
suite's time, so ``python -m pytest -m "not discord"`` is the quick lane (the engines, the
store, the images, the layers and routes) and ``-m discord`` runs them alone.
"""

from __future__ import annotations

from pathlib import Path

import pytest

DISCORD_TESTS = Path(__file__).resolve().parent / "discord"
#: Seconds of real time simcord waits for the bot to go idle before a test fails with "bot
#: did not settle" (simcord's default is 5). It is only a limit, never a pause: an idle
#: bot settles at once. On a busy machine (two cores, other work running) drawing a board
#: image and a few store writes can take more than 5 s, and the test failed though the bot
#: did nothing wrong; a bot that truly hangs still fails, after this long. It must stay
#: below the heartbeat's 30 s sleep (bot/heartbeat.py), which simcord would otherwise
#: wait out forever.
SETTLE_TIMEOUT = 20.0


# tryfirst: the marks must be there before ``-m`` selects by them.
@pytest.hookimpl(tryfirst=True)
def pytest_collection_modifyitems(config: pytest.Config, items: list[pytest.Item]) -> None:
    """Mark every test collected from tests/discord with ``discord``, and give its simcord
    environment :data:`SETTLE_TIMEOUT` unless the test sets its own ``simcord`` options."""
    for item in items:
        if DISCORD_TESTS in item.path.resolve().parents:
            item.add_marker(pytest.mark.discord)
            if item.get_closest_marker("simcord") is None:
                item.add_marker(pytest.mark.simcord(settle_timeout=SETTLE_TIMEOUT))


# -- the store's two drivers ------------------------------------------------------------
# The store, scheduler and service tests run on SQLite and on a throwaway PostgreSQL
# server. Their fixtures live in tests/pg.py (the server, one per test process) and
# tests/store/backends.py (driver, backend, store_factory: a test that takes one of them
# runs once per driver); importing them here makes them available to every test folder.
from tests.pg import pg_cluster  # noqa: E402, F401
from tests.store.backends import backend, driver, pg_backend, store_factory  # noqa: E402, F401


def pytest_terminal_summary(terminalreporter: pytest.TerminalReporter) -> None:
    """Say at the end, once, why PostgreSQL tests were skipped (the reason -q hides)."""
    reasons: set[str] = set()
    count = 0
    for report in terminalreporter.stats.get("skipped", []):
        longrepr = getattr(report, "longrepr", None)
        reason = str(longrepr[2]) if isinstance(longrepr, tuple) and len(longrepr) == 3 else ""
        if "PostgreSQL" in reason:
            count += 1
            reasons.add(reason.removeprefix("Skipped: "))
    if count:
        terminalreporter.write_line(
            f"{count} PostgreSQL tests skipped: {'; '.join(sorted(reasons))}", yellow=True
        )
