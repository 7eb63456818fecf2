"""A player's own lots: building per colour group, mortgages, debts, mortgaged lots just
received, rent claims, and ``/monopoly property`` (a lot's title deed).

The menus are private and offer exactly what the engine allows now (``cogs/ui/manage.py``);
each click is checked by the engine again. What a menu is putting together (lots chosen to
mortgage or lift) is a draft of the clicking user (``cogs/ui/drafts.py``).
"""

from __future__ import annotations

import asyncio
import io

import discord
from discord import app_commands

from bot.engine.board import Board, load_board
from bot.engine.buildings import unmortgage_cost
from bot.engine.errors import IllegalAction
from bot.engine.state import GameState
from bot.i18n import t
from bot.settings import GameSettings
from bot.store import StoreError
from cogs.core.click import Click
from cogs.core.picking import change_lots
from cogs.core.services import FeatureCog
from cogs.ui.deeds import deed_file, lot_facts
from cogs.ui.ids import clip
from cogs.ui.lots import display_names, resolve_lot
from cogs.ui.manage import (
    LIFT_LOTS,
    LIFTS,
    MORTGAGE_LOTS,
    MORTGAGES,
    LiftDraft,
    MortgageDraft,
    build_panel,
    lift_panel,
    mortgage_panel,
    owned_groups,
)
from cogs.ui.text import Narrator, board_of, theme_of
from cogs.ui.turn import BOARD_IMAGE, EMBED_COLOUR, board_file, holdings_text
from render.deed import render_deed


class PropertyCog(FeatureCog, name="Property"):
    """Building, mortgages, debts, received mortgages, rent claims, title deeds."""

    # -- building -----------------------------------------------------------------------

    async def open_manage(self, click: Click) -> None:
        """ "Build & mortgage": the building menu if the user owns a group, else mortgages."""
        state, settings, seat = click.board()
        if not any(owner == seat for owner in state.owner):
            await click.reply(t(click.lang, "manage.nothing"))
            return
        if owned_groups(state, seat):
            message = build_panel(state, settings, seat, click.game, click.lang, None)
        else:
            draft = click.drafts.keep(MORTGAGES, MortgageDraft(click.game, click.user_id))
            message = mortgage_panel(state, settings, seat, draft, click.lang)
        await click.reply(**message)

    async def show_group(self, click: Click) -> None:
        """A colour group chosen, the menu refreshed, or back from the mortgages."""
        assert click.ref is not None
        group = {"mg": click.values[0] if click.values else None, "mr": click.arg}
        state, settings, seat = click.board()
        chosen = group.get(click.ref.action)
        await click.edit(**build_panel(state, settings, seat, click.game, click.lang, chosen))

    async def build_step(self, click: Click) -> None:
        """+ or − on a street of the building menu; the menu shows the result."""
        assert click.ref is not None
        if not click.arg or not click.arg.isdigit():
            raise IllegalAction("unknown_button")
        square = int(click.arg)
        kind = "build" if click.ref.action == "mb" else "sell_building"
        await click.defer()
        problem = None
        try:
            await click.act({"type": kind, "square": square})
        except IllegalAction as error:
            problem = error  # shown after the menu is drawn again
        row = await click.load()
        state, seat = row.state, click.seat
        if isinstance(state, GameState) and seat is not None:
            group = state.board.squares[square].group
            panel = build_panel(state, GameSettings.of(row), seat, click.game, click.lang, group)
            await click.edit(**panel)
        if problem is not None:
            await click.refuse(problem)

    # -- mortgages ----------------------------------------------------------------------

    async def to_mortgages(self, click: Click) -> None:
        """The mortgage page of the menu, with a fresh choice."""
        state, settings, seat = click.board()
        draft = click.drafts.keep(MORTGAGES, MortgageDraft(click.game, click.user_id))
        await click.edit(**mortgage_panel(state, settings, seat, draft, click.lang))

    async def pick_mortgages(self, click: Click) -> None:
        """A choice or a page turn in the mortgage menu's lists."""
        await change_lots(click, MORTGAGE_LOTS, render=mortgage_panel)

    async def confirm_mortgages(self, click: Click) -> None:
        """Mortgage and lift what was chosen; the menu reports what was done."""
        draft = await click.live_draft(MORTGAGES, click.arg, "manage.expired")
        if draft is None:
            return
        assert isinstance(draft, MortgageDraft)
        await click.defer()
        state, settings, seat = click.board()
        lang = click.lang
        narrator = Narrator(state, lang, theme_of(settings))
        squares = state.board.squares
        # Mortgages first: the cash they raise may be what pays for the lifting.
        plan = [("mortgage", s) for s in sorted(draft.mortgage)]
        plan += [("unmortgage", s) for s in sorted(draft.lift)]
        done: dict[str, list[int]] = {"mortgage": [], "unmortgage": []}
        received = paid = 0
        problems = []
        for kind, square in plan:
            try:
                await click.act({"type": kind, "square": square})
            except IllegalAction as error:
                problems.append(f"⚠️ {narrator.square(square)}: {click.explain(error)}")
                continue
            except StoreError as error:  # the game is gone or broken: report what was done
                problems.append(f"⚠️ {narrator.square(square)}: {click.explain(error)}")
                break
            done[kind].append(square)
            if kind == "mortgage":
                received += squares[square].mortgage
            else:
                paid += unmortgage_cost(state, square)
        report = []
        for kind, key, amount in (
            ("mortgage", "manage.report_mortgaged", received),
            ("unmortgage", "manage.report_lifted", paid),
        ):
            if done[kind]:
                lots = ", ".join(narrator.square(s) for s in done[kind])
                report.append(t(lang, key, lots=lots, amount=narrator.money(amount)))
        report += problems
        fresh = click.drafts.keep(MORTGAGES, MortgageDraft(click.game, click.user_id))
        row = await click.load()
        if isinstance(row.state, GameState):
            message = mortgage_panel(row.state, GameSettings.of(row), seat, fresh, lang)
            message["content"] = "\n".join(report) or None
            await click.edit(**message)

    # -- debts, received mortgages, rent claims -------------------------------------------

    async def debt_manage(self, click: Click) -> None:
        """The debtor's "Sell / mortgage" button."""
        state, settings, seat = click.board()
        if state.debts and state.debts[0]["debtor"] != seat:
            name = Narrator(state, click.lang).player(state.debts[0]["debtor"])
            await click.reply(t(click.lang, "debt.only_debtor", name=name))
            return
        if any(state.owner[i] == seat and state.houses[i] for i in range(40)):
            # Buildings must go before their lots can be mortgaged: start with selling.
            await self.open_manage(click)
            return
        draft = click.drafts.keep(MORTGAGES, MortgageDraft(click.game, click.user_id))
        await click.reply(**mortgage_panel(state, settings, seat, draft, click.lang))

    def _receiver(self, click: Click) -> tuple[GameState, GameSettings, int]:
        """The game if the user is the receiver who must choose now (IllegalAction if not)."""
        state, settings, seat = click.board()
        if state.phase != "mortgage_choice":
            raise IllegalAction("wrong_phase", phase=state.phase)
        receiver = state.mortgage_choices[0]["player"]
        if receiver != seat:
            raise IllegalAction("lift_only_receiver", name=state.players[receiver].name)
        return state, settings, seat

    async def lift_choice(self, click: Click) -> None:
        """ "Choose per lot" for mortgaged lots just received."""
        state, settings, seat = self._receiver(click)
        draft = click.drafts.keep(LIFTS, LiftDraft(click.game, click.user_id))
        await click.reply(**lift_panel(state, settings, seat, draft, click.lang))

    async def pick_lifts(self, click: Click) -> None:
        """A choice or a page turn in the list of received lots."""
        self._receiver(click)
        await change_lots(click, LIFT_LOTS, render=lift_panel)

    async def confirm_lifts(self, click: Click) -> None:
        """Lift the chosen received lots and keep the others (paying the interest)."""
        draft = await click.live_draft(LIFTS, click.arg, "manage.expired")
        if draft is None:
            return
        assert isinstance(draft, LiftDraft)
        await click.defer()
        await click.act({"type": "decide_mortgages", "lift": sorted(draft.lift)})
        click.drafts.drop(LIFTS, draft)
        await click.edit(content=t(click.lang, "manage.done"), embed=None, view=None)

    async def claim_rent(self, click: Click) -> None:
        """A "Claim rent" button: only the owner of the claim may press it."""
        state, _, seat = click.board()
        square = int(click.arg) if click.arg and click.arg.isdigit() else -1
        owners = [c["owner"] for c in state.claims if c["square"] == square]
        if not owners:
            raise IllegalAction("no_rent_to_claim")
        if seat not in owners:
            name = Narrator(state, click.lang).player(owners[0])
            await click.reply(t(click.lang, "claim.only_owner", name=name))
            return
        await click.defer()
        await click.act({"type": "claim_rent", "square": square})

    # -- /monopoly property ---------------------------------------------------------------

    async def _board_here(
        self, interaction: discord.Interaction
    ) -> tuple[Board, GameState | None, GameSettings]:
        """The board of the channel's game (its state if running), else the classic board."""
        row = await self.core.store.game_in_channel(interaction.channel_id or 0)
        settings = GameSettings.of(row) if row is not None else GameSettings()
        if row is None or settings.lobby.is_cards:
            return load_board("de_euro"), None, GameSettings()
        if isinstance(row.state, GameState):
            return row.state.board, row.state, settings
        rules = settings.lobby.rules()
        return board_of(settings) or load_board(rules.board), None, settings

    @app_commands.command(name="property", description="The title deed of a lot")
    @app_commands.describe(name="Name of the lot")
    async def property_card(self, interaction: discord.Interaction, name: str) -> None:
        """Show a lot's title deed with its owner, buildings and mortgage (only you see it)."""
        click = self.core.dispatcher.command(interaction)
        board, state, settings = await self._board_here(interaction)
        names = display_names(board, settings)
        square = resolve_lot(board, names, name)
        if square is None:
            await click.reply(t(click.lang, "property.unknown", name=clip(name, 100)))
            return
        await click.defer(private=True)
        if state is not None:  # a running game: the deed with its owner, and its facts
            await self._reply_deed(click, state, settings, square)
            return
        theme = theme_of(settings)
        png = await asyncio.to_thread(
            render_deed,
            board,
            square,
            state,
            lang=click.lang,
            names=theme.squares if theme is not None and theme.base_board == board.id else None,
        )
        file = discord.File(io.BytesIO(png), filename="deed.png", description=names[square])
        await click.reply(names[square], file=file)

    async def _reply_deed(
        self, click: Click, state: GameState, settings: GameSettings, square: int
    ) -> None:
        """Answer privately with a lot's title deed: the card and its facts as text."""
        narrator = Narrator(state, click.lang, theme_of(settings))
        text = f"**{narrator.square(square)}**\n" + lot_facts(state, settings, square, click.lang)
        await click.reply(text, file=await deed_file(state, settings, square, click.lang))

    async def show_deed(self, click: Click) -> None:
        """ "📜 Urkunde" on the turn or auction message: the lot's title deed, privately.

        Anyone in the channel may look; it shows the lot as it is now.
        """
        row = await click.load()
        state = row.state
        if not isinstance(state, GameState):
            raise IllegalAction("not_started")
        arg = click.arg or ""
        square = int(arg) if arg.isascii() and arg.isdigit() else -1
        if (
            not 0 <= square < len(state.board.squares)
            or not state.board.squares[square].is_property
        ):
            raise IllegalAction("unknown_button")
        await self._reply_deed(click, state, GameSettings.of(row), square)

    async def show_board(self, click: Click) -> None:
        """ "🗺️ Brett" on the turn message: the whole board as it is now, privately, with
        every player's holdings as text."""
        row = await click.load()
        state = row.state
        if not isinstance(state, GameState):
            raise IllegalAction("not_started")
        settings = GameSettings.of(row)
        settings.lobby.lang = click.lang  # this answer is private: in the user's language
        embed = discord.Embed(
            title=t(click.lang, "board.title", turn=state.turn),
            description=holdings_text(state, settings),
            colour=EMBED_COLOUR,
        )
        embed.set_image(url=f"attachment://{BOARD_IMAGE}")
        await click.reply(embed=embed, file=await board_file(state, settings))

    @property_card.autocomplete("name")
    async def _property_names(
        self, interaction: discord.Interaction, current: str
    ) -> list[app_commands.Choice[str]]:
        board, _, settings = await self._board_here(interaction)
        names = display_names(board, settings)
        needle = current.casefold().strip()
        found = []
        for square in board.squares:
            if not square.is_property:
                continue
            name = names[square.index]
            if needle in name.casefold() or needle in square.name.casefold():
                found.append(app_commands.Choice(name=clip(name, 100), value=str(square.index)))
            if len(found) == 25:
                break
        return found
