"""Looking back: the server's finished games, a game's recap, and the replay viewer.

``/monopoly history [page]`` lists the server's finished games privately, newest first
(by game number), ten to a page (with the lobbies closed before their start, each with
its revealed secret); choosing one shows its recap (``cogs/ui/recap.py``) with
**Replay ▶**, which opens the replay viewer (``cogs/ui/viewer.py``) at the first turn.
``/monopoly history game:<id> [turn:]`` goes to one game at once: a finished game's recap
(or, with ``turn``, its viewer at that turn), a running game's viewer at the present —
for its players only, so nobody else can look at where a game stands through it.

The viewer's frames come from :class:`bot.replay_cache.ReplayCache` (one per bot: game
ids are only unique within one store): the record is read only when the game moved
since the cache last saw it, and a step replays at most ten turns from a snapshot.
Everything a click needs is in its custom id, so every button works after a restart.

Refused, privately and changing nothing: a game number of no game or of another server
(the same answer for both: other servers' games are nobody's business here), a lobby, a
running game for someone not playing in it, a turn the game does not have, a record
that no longer replays.
"""

from __future__ import annotations

from typing import Any

import discord
from discord import app_commands

from bot.engine.errors import IllegalAction
from bot.replay_cache import Frame, ReplayCache
from bot.settings import GameSettings
from bot.store import GameInfo, GameNotFound, GameRow, GameStatus, StoreError
from cogs.core.click import Click
from cogs.core.services import Core, FeatureCog
from cogs.ui.follow import follow_offer
from cogs.ui.history import (
    PAGE_SIZE,
    HistoryEntry,
    clamp_page,
    entry_of,
    history_message,
    page_arg,
)
from cogs.ui.recap import recap_message
from cogs.ui.viewer import replay_view, viewer_files, viewer_message


def listed(info: GameInfo) -> bool:
    """Whether a game belongs in the history: finished, and not a lobby that never started
    (a lobby is closed as ``abandoned`` before its first action: version 0) – unless that
    lobby had committed to a secret: it is listed with the secret revealed, so that an
    operator who drops lobbies with unwelcome secrets shows up (docs/fair-dice.md)."""
    if info.status != GameStatus.FINISHED:
        return False
    if GameSettings.of(info).fair.has_secret:
        return True
    return not (info.seq == 0 and info.finished_reason == "abandoned")


class HistoryCog(FeatureCog, name="History"):
    """``/monopoly history``, the recap of a finished game and the replay viewer."""

    def __init__(self, core: Core) -> None:
        super().__init__(core)
        self.replays = ReplayCache()

    # -- the command -----------------------------------------------------------------

    @app_commands.command(
        name="history", description="The finished games of this server, their recaps and replays"
    )
    @app_commands.describe(
        page="Which page of the list (ten games a page, newest first)",
        game="A game's number (#12): its recap, or its replay while it runs (players only)",
        turn="Open the replay at this turn (round in the card game)",
    )
    async def history(
        self,
        interaction: discord.Interaction,
        page: int | None = None,
        game: int | None = None,
        turn: int | None = None,
    ) -> None:
        """The list, or one game's recap or replay (only you see it)."""
        click = self.core.dispatcher.command(interaction)
        await click.defer(private=True)
        if game is None:
            await click.reply(**await self._list(click, page or 1))
            return
        try:
            row = await self._viewable(click, game)
        except IllegalAction as refused:
            # A running game of others cannot be replayed by this member, but followed.
            if refused.code != "replay_players_only" or click.row is None:
                raise
            await click.reply(**follow_offer(click.row.id, click.lang))
            return
        if turn is None and row.status == GameStatus.FINISHED:
            await self._recap(click, row)
            return
        await self._open(click, row, turn)

    # -- the list --------------------------------------------------------------------

    async def _list(self, click: Click, page: int) -> dict[str, Any]:
        """The message of list page ``page`` (clamped to the pages there are)."""
        store = self.core.store
        infos = await store.list_games(click.interaction.guild_id or 0, include_finished=True)
        games = sorted((i for i in infos if listed(i)), key=lambda i: -i.id)
        page = clamp_page(page, len(games))
        entries: list[HistoryEntry | int] = []
        for info in games[(page - 1) * PAGE_SIZE : page * PAGE_SIZE]:
            try:
                entry = entry_of(await store.load(info.id))
            except StoreError:
                entry = None
            entries.append(info.id if entry is None else entry)
        return history_message(entries, page, len(games), click.lang)

    async def page(self, click: Click) -> None:
        """◀ / ▶ of the list: the page its custom id names."""
        number = page_arg(click.arg)
        if number is None:
            raise IllegalAction("unknown_button")
        await click.edit(**{"embed": None, "view": None, **await self._list(click, number)})

    async def pick(self, click: Click) -> None:
        """A game chosen from the list: its recap (privately, with **Replay ▶**)."""
        value = click.values[0] if click.values else ""
        if not (value.isascii() and value.isdigit()):
            raise IllegalAction("unknown_button")
        row = await self._viewable(click, int(value))
        if row.status == GameStatus.FINISHED:
            await self._recap(click, row)
        else:  # only a hand-made choice names a running game (and only for its players)
            await self._open(click, row, None)

    async def _recap(self, click: Click, row: GameRow) -> None:
        """Send a finished game's recap with the button that opens the viewer."""
        record = await self.core.store.record(row.id)
        payload = await recap_message(row.id, record, GameSettings.of(row), click.lang)
        await click.reply(**payload, view=replay_view(row.id, click.lang))

    # -- the viewer ------------------------------------------------------------------

    async def _viewable(self, click: Click, game: int) -> GameRow:
        """The game ``game`` if the user may look back at it here (else refused)."""
        try:
            row = await self.core.store.load(game)
        except GameNotFound:
            raise IllegalAction("history_unknown_game", game=game) from None
        if row.guild_id != (click.interaction.guild_id or 0):
            raise IllegalAction("history_unknown_game", game=game)
        click.row = row
        if row.state is None:
            raise IllegalAction("not_started")
        if row.status != GameStatus.FINISHED and click.seat_of(row.state) is None:
            raise IllegalAction("replay_players_only")
        return row

    async def _frame_of(self, row: GameRow, number: int | None, *, latest: bool) -> Frame:
        """Turn ``number`` of the game (None: its first, or its latest if ``latest``); the
        record is read only if the game moved since the cache saw it last."""
        state = row.state
        assert state is not None
        cache = self.replays
        record = None if cache.current(row.id, state.seq) else await self.core.store.record(row.id)
        if number is None:
            first, last = cache.turns(row.id, record)
            number = last if latest else first
        return cache.frame(row.id, number, record)

    async def _show(self, click: Click, row: GameRow, frame: Frame, *, edit: bool) -> None:
        """Show ``frame`` in the viewer: a new private message, or the clicked one edited."""
        settings = GameSettings.of(row)
        running = row.status != GameStatus.FINISHED
        message = viewer_message(row.id, frame, settings, click.lang, running=running)
        files = await viewer_files(frame, settings, click.lang)
        if edit:
            await click.edit(**message, attachments=files)
        else:
            await click.reply(**message, files=files)

    async def _open(self, click: Click, row: GameRow, turn: int | None) -> None:
        """A new viewer: at ``turn``, or at the present of a running game."""
        latest = row.status != GameStatus.FINISHED
        frame = await self._frame_of(row, turn, latest=latest)
        await self._show(click, row, frame, edit=False)

    async def open_replay(self, click: Click) -> None:
        """The recap's **Replay ▶**: the viewer at the game's first turn, privately."""
        row = await self._viewable(click, click.game)
        frame = await self._frame_of(row, None, latest=False)
        await self._show(click, row, frame, edit=False)

    async def step(self, click: Click) -> None:
        """⏮ ◀ ▶ ⏭: the turn the custom id names, in the same message."""
        arg = click.arg or ""
        if not (arg.isascii() and arg.isdigit()):
            raise IllegalAction("unknown_button")
        row = await self._viewable(click, click.game)
        frame = await self._frame_of(row, int(arg), latest=False)
        await self._show(click, row, frame, edit=True)
