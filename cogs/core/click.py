"""One interaction on its way through the action path: what a handler gets to work with.

A :class:`Click` carries the interaction, what was clicked (:class:`~cogs.ui.ids.ClickRef`,
None for slash commands), the game as the dispatcher loaded it, the user's seat and
language, and every action it applied. Handlers answer through it (privately by default)
and apply actions with :meth:`Click.act`; the dispatcher publishes what was applied once
the handler is done, and knows whether anything was committed when something fails.
"""

from __future__ import annotations

import contextlib
import logging
from typing import TYPE_CHECKING, Any

import discord

from bot.engine.errors import IllegalAction
from bot.engine.state import GameState
from bot.i18n import t
from bot.service import GameService
from bot.settings import GameSettings
from bot.store import ApplyResult, GameRow, StoreError
from bot.store.kinds import AnyState
from cogs.ui.drafts import DraftBook
from cogs.ui.ids import ClickRef, Form, send_form
from cogs.ui.text import user_lang
from cogs.ui.widgets import explain

if TYPE_CHECKING:
    from cogs.core.ports import CorePort as Core

log = logging.getLogger(__name__)


class Click:
    """See the module docstring; made by the dispatcher (or :meth:`Core.command`)."""

    def __init__(self, core: Core, interaction: discord.Interaction, ref: ClickRef | None) -> None:
        self.core = core
        self.interaction = interaction
        self.ref = ref
        self.lang = user_lang(interaction)
        self.row: GameRow | None = None
        self.seat: int | None = None
        self.results: list[ApplyResult] = []
        #: Whether this click answered with a private "thinking…" (see :meth:`defer`).
        self.thinking_privately = False
        interaction.extras["click"] = self

    # -- what was clicked -------------------------------------------------------------

    @property
    def game(self) -> int:
        """The game's id (0 for a slash command before it found one)."""
        if self.ref is not None:
            return self.ref.game
        return self.row.id if self.row is not None else 0

    @property
    def arg(self) -> str | None:
        """The custom id's argument, if any."""
        return self.ref.arg if self.ref is not None else None

    @property
    def values(self) -> list[str]:
        """A select's chosen values."""
        return list(self.ref.values) if self.ref is not None else []

    @property
    def fields(self) -> dict[str, str]:
        """A form's typed texts by field id."""
        return dict(self.ref.fields) if self.ref is not None else {}

    @property
    def user_id(self) -> int:
        """The Discord id of the user who clicked."""
        return self.interaction.user.id

    @property
    def service(self) -> GameService:
        """The game service (lobbies, seats, actions)."""
        return self.core.service

    @property
    def drafts(self) -> DraftBook:
        """Every user's private-menu drafts."""
        return self.core.drafts

    @property
    def committed(self) -> bool:
        """Whether an action of this click has been saved."""
        return bool(self.results)

    # -- the game ---------------------------------------------------------------------

    async def load(self) -> GameRow:
        """The game as stored now (also kept as :attr:`row`)."""
        self.row = await self.core.store.load(self.game)
        return self.row

    async def game_here(self, *, running: bool = False, cards: bool = True) -> GameRow:
        """The game of the command's channel (also kept as :attr:`row`); ``running``: it
        must have started, and be the board game unless ``cards``.

        Raises IllegalAction (``no_game_here``, ``not_started``, ``board_only``) otherwise.
        """
        row = await self.core.store.game_in_channel(self.interaction.channel_id or 0)
        if row is None:
            raise IllegalAction("no_game_here")
        self.row = row
        if running and row.state is None:
            raise IllegalAction("not_started")
        if running and not cards and not isinstance(row.state, GameState):
            raise IllegalAction("board_only")
        return row

    @property
    def state(self) -> AnyState:
        """The loaded game's state (the dispatcher loaded it: the route names a seat)."""
        assert self.row is not None and self.row.state is not None
        return self.row.state

    @property
    def settings(self) -> GameSettings:
        """A copy of the loaded game's settings."""
        assert self.row is not None
        return GameSettings.of(self.row)

    def board(self) -> tuple[GameState, GameSettings, int]:
        """The board game's state, settings and the user's seat (a route for seats only)."""
        state = self.state
        assert isinstance(state, GameState) and self.seat is not None
        return state, self.settings, self.seat

    def seat_of(self, state: AnyState) -> int | None:
        """The user's seat in ``state``, or None."""
        return self.core.service.seat_of(state, self.user_id)  # type: ignore[arg-type]

    async def act(self, action: dict[str, Any], *, expected_seq: int | None = None) -> ApplyResult:
        """Apply the user's ``action`` (raises IllegalAction / StoreError, changing nothing).

        What is applied is published by the dispatcher after the handler.
        """
        result = await self.core.service.act(
            self.game, self.user_id, action, expected_seq=expected_seq
        )
        self.results.append(result)
        return result

    async def act_as_host(self, action: dict[str, Any]) -> ApplyResult:
        """Apply a host action (``end_game``, ``remove_player``) in the game."""
        result = await self.core.service.act_as_host(self.game, action)
        self.results.append(result)
        return result

    async def live_draft(self, kind: str, nonce: str | None, expired: str) -> Any:
        """The user's current draft of ``kind`` if the menu clicked (``nonce``) is its current
        copy; else the menu is replaced by the message ``expired`` and None returned."""
        draft = self.drafts.find(kind, self.game, self.user_id, nonce)
        if draft is None:
            await self.edit(content=t(self.lang, expired), embed=None, view=None)
        return draft

    # -- answers ----------------------------------------------------------------------

    @property
    def answered(self) -> bool:
        """Whether the interaction has had its first answer (a reply, a defer, a form)."""
        return self.interaction.response.is_done()

    async def defer(self, *, private: bool = False) -> None:
        """Answer now, showing the result later (privately "thinking" if ``private``)."""
        if not self.answered:
            await self.interaction.response.defer(ephemeral=private, thinking=private)
            self.thinking_privately = private

    async def reply(self, text: str | None = None, *, private: bool = True, **payload: Any) -> None:
        """Answer (or follow up) with a message, privately unless ``private`` is False."""
        if text is not None:
            payload["content"] = text
        if self.answered:
            await self.interaction.followup.send(ephemeral=private, **payload)
        else:
            await self.interaction.response.send_message(ephemeral=private, **payload)

    async def reply_surely(self, text: str) -> None:
        """Answer privately with ``text``; if Discord refuses, try once the other way.

        A first answer that fails (a Discord error, or the interaction was acknowledged
        meanwhile) is followed by a private "thinking…" and a follow-up; a follow-up that
        fails by putting the text into this click's own private "thinking…" answer, or
        else by a second follow-up. Raises what the second try raised.
        """
        try:
            await self.reply(text)
            return
        except Exception as error:  # noqa: BLE001 - any failure gets the second try
            log.warning(
                "Answer to interaction %s failed (%s: %s); trying the other way",
                self.interaction.id,
                type(error).__name__,
                error,
            )
        interaction = self.interaction
        if not self.answered:
            # Discord may have refused only this call: "thinking" first, then the text.
            # If it was acknowledged elsewhere meanwhile, the defer fails and the
            # follow-up still reaches the user.
            with contextlib.suppress(discord.HTTPException, discord.InteractionResponded):
                await interaction.response.defer(ephemeral=True, thinking=True)
                self.thinking_privately = True
            await interaction.followup.send(content=text, ephemeral=True)
        elif (
            self.thinking_privately
            and interaction.response.type
            == discord.InteractionResponseType.deferred_channel_message
        ):
            await interaction.edit_original_response(content=text)
        else:
            await interaction.followup.send(content=text, ephemeral=True)

    def explain(self, error: Exception) -> str:
        """A refusal in the user's language, with the game's names if it is loaded."""
        row = self.row
        state = row.state if row is not None else None
        if not isinstance(state, GameState):
            return explain(self.lang, error)  # the card game names no squares or sums
        return explain(self.lang, error, state, GameSettings.of(row))  # type: ignore[arg-type]

    async def refuse(self, error: IllegalAction | StoreError) -> None:
        """Tell the user privately why the rules or the store said no."""
        await self.reply(self.explain(error))

    async def edit(self, **payload: Any) -> None:
        """Show ``payload`` in the message whose component was clicked (a private menu)."""
        if self.answered:
            await self.interaction.edit_original_response(**payload)
        else:
            await self.interaction.response.edit_message(**payload)

    async def form(self, form: Form) -> None:
        """Open a form; it must be the first answer to the click."""
        await send_form(self.interaction, form)

    @property
    def channel(self) -> discord.abc.Messageable | None:
        """The channel (or thread) the interaction came from."""
        channel = self.interaction.channel
        return channel if isinstance(channel, discord.abc.Messageable) else None
