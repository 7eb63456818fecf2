"""What the parts of the action path see of each other, as protocols.

The :class:`~cogs.core.services.Core` builds the dispatcher, the publisher and the
reconciler and hands itself to each; they in turn need a few of each other's methods. They
name those here, so every import in ``cogs/core`` points down and none closes a circle:
``services`` → ``dispatch`` / ``reconcile`` → ``publisher`` → ``board_messages`` /
``card_messages`` → ``notify`` / ``click`` → ``ports``.
"""

from __future__ import annotations

from collections.abc import Awaitable, Callable
from typing import Any, Protocol

from bot.asyncplay.planner import TimerPlanner
from bot.service import GameService
from bot.settings import GameSettings
from bot.store import ApplyResult, GameRow, GameStore
from cogs.ui.drafts import DraftBook


class ReconcilerPort(Protocol):
    """The reconciler as the others use it (``cogs/core/reconcile.py``)."""

    def failed(self, game: int) -> None:
        """A Discord call of ``game`` failed."""

    def check_soon(
        self, game: int, message_id: int | None = None, shown_seq: int | None = None
    ) -> None:
        """Look at ``game`` soon: a click on ``message_id`` was outdated."""


class PublisherPort(Protocol):
    """The publisher as the others use it (``cogs/core/publisher.py``)."""

    core: CorePort
    picture_failures: set[int]

    async def channel(self, channel_id: int) -> Any:
        """The game's channel or thread, or None."""

    async def send(self, game: int, channel: Any, what: str, **payload: Any) -> Any:
        """Post a message, guarded; the message or None."""

    async def edit(
        self, game: int, channel: Any, message_id: int, what: str, **payload: Any
    ) -> bool:
        """Edit a message now, guarded."""

    async def edit_soon(
        self,
        game: int,
        channel: Any,
        message_id: int,
        what: str,
        *,
        after: Callable[[], Awaitable[None]] | None = None,
        **payload: Any,
    ) -> bool | None:
        """Edit a message, coalesced with other edits of it."""

    async def edit_message(
        self,
        game: int,
        channel: Any,
        message_id: int,
        what: str,
        *,
        gone_ok: bool = False,
        **payload: Any,
    ) -> Any:
        """Edit a message now, guarded: the edited message or None."""

    async def edit_later(
        self, message_id: int, run: Callable[[bool], Awaitable[bool]]
    ) -> bool | None:
        """Run an edit through the coalescer (``run(deferred)``)."""

    def permission_fine(self, game: int) -> None:
        """A post went through."""

    async def recap(self, row: GameRow) -> dict[str, Any] | None:
        """The recap of a game that is over as message parts, or None."""

    async def save(self, row: GameRow, settings: GameSettings) -> None:
        """Write back the settings a publishing step changed."""

    async def publish(self, game: int, result: ApplyResult, channel: Any | None = None) -> bool:
        """Show what an action did."""


class DispatcherPort(Protocol):
    """The dispatcher as the cogs' commands use it (``cogs/core/dispatch.py``)."""

    def command(self, interaction: Any) -> Any:
        """The context of a slash command."""

    async def finish(self, click: Any) -> None:
        """Publish what a click or command applied."""


class CorePort(Protocol):
    """The shared parts of the Discord layer (``cogs/core/services.py``)."""

    bot: Any
    service: GameService
    store: GameStore
    drafts: DraftBook
    planner: TimerPlanner
    publisher: PublisherPort
    reconciler: ReconcilerPort
    dispatcher: DispatcherPort
