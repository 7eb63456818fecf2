"""Settings for the whole suite: the ``discord`` marker for the tests of tests/discord.

Those tests run the real bot against simcord's in-memory Discord and take most of the
suite's time, so ``python -m pytest -m "not discord"`` is the quick lane (the engines, the
store, the images, the layers and routes) and ``-m discord`` runs them alone.
"""

from __future__ import annotations

from pathlib import Path

import pytest

DISCORD_TESTS = Path(__file__).resolve().parent / "discord"


# tryfirst: the marks must be there before ``-m`` selects by them.
@pytest.hookimpl(tryfirst=True)
def pytest_collection_modifyitems(config: pytest.Config, items: list[pytest.Item]) -> None:
    """Mark every test collected from tests/discord with ``discord``."""
    for item in items:
        if DISCORD_TESTS in item.path.resolve().parents:
            item.add_marker(pytest.mark.discord)
