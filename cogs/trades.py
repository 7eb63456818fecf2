"""Trades between players, and lots offered to a creditor as part payment.

``/monopoly trade member:`` (or the turn message's "Trade" button) opens a private builder:
selects for the lots to give and to get, a form for money, toggles for jail-free cards and
a preview checked by the engine (``cogs/ui/trade_menu.py``). "Send offer" applies
``propose_trade``; the publisher posts the public offer with Accept / Decline / Counter /
Withdraw. The offer lives in the engine state (``state.trades``), so those buttons work
after a restart. A debtor offers lots to a player creditor the same way (``offer_lots``),
answered with ``accept_lots`` / ``decline_lots``.
"""

from __future__ import annotations

from typing import Any

import discord
from discord import app_commands

from bot.engine.errors import IllegalAction
from bot.engine.legal import may_propose_trade
from bot.engine.state import GameState
from bot.i18n import t
from bot.settings import GameSettings
from bot.text_input import parse_amount
from cogs.core.click import Click
from cogs.core.picking import change_lots
from cogs.core.services import FeatureCog
from cogs.ui.forms import CashForm, LotValueForm
from cogs.ui.ids import PanelSelect, clip
from cogs.ui.offers import (
    find_trade,
    lot_offer_problem,
    lots_offer_message,
    offer_fingerprint,
    offer_message,
    trade_fingerprint,
)
from cogs.ui.text import Narrator, theme_of
from cogs.ui.trade_menu import (
    DECKS,
    LOTS,
    OFFERED_LOTS,
    TRADE,
    TRADE_LOTS,
    LotsDraft,
    TradeDraft,
    builder_message,
    lots_panel,
)
from cogs.ui.widgets import split_arg


def _builder(state: GameState, settings: GameSettings, seat: int, draft: Any, lang: str) -> Any:
    draft.forget_lost(state)  # what a side no longer holds (sold, traded, card used)
    return builder_message(state, settings, draft, lang)


class TradesCog(FeatureCog, name="Trades"):
    """Trade offers and part payment in lots."""

    # -- the builder ----------------------------------------------------------------------

    async def _open_builder(
        self,
        click: Click,
        partner: int | None,
        *,
        counter_of: dict[str, Any] | None = None,
        edit: bool = False,
    ) -> None:
        """The private builder of an offer to the player in seat ``partner``.

        A seat, not a Discord id: a computer player's seat has an id like ``cpu1``.
        """
        state, settings, seat = click.board()
        if partner is None or state.players[partner].bankrupt:
            await click.reply(t(click.lang, "trade.partner_not_playing"))
            return
        if partner == seat:
            await click.reply(t(click.lang, "trade.not_yourself"))
            return
        if not may_propose_trade(state, seat):
            raise IllegalAction("wrong_phase", phase=state.phase)
        draft = TradeDraft(
            click.game,
            click.user_id,
            seat=seat,
            partner=partner,
            partner_name=state.players[partner].name,
        )
        if counter_of is not None:
            # The counter-offer starts as the original turned round.
            draft.give_lots = set(counter_of["get"]["lots"])
            draft.get_lots = set(counter_of["give"]["lots"])
            draft.give_cash = counter_of["get"]["cash"]
            draft.get_cash = counter_of["give"]["cash"]
            draft.give_cards = list(counter_of["get"]["jail_cards"])
            draft.get_cards = list(counter_of["give"]["jail_cards"])
            draft.counter_of = counter_of["id"]
        click.drafts.keep(TRADE, draft)
        message = builder_message(state, settings, draft, click.lang)
        if edit:
            await click.edit(**message)
        else:
            await click.reply(**message)

    @app_commands.command(name="trade", description="Offer a player a trade")
    @app_commands.describe(member="Who to trade with")
    async def trade(self, interaction: discord.Interaction, member: discord.Member) -> None:
        """Open a private offer builder for a trade with ``member``."""
        click = self.core.dispatcher.command(interaction)
        row = await self.core.store.game_in_channel(interaction.channel_id or 0)
        if row is None:
            raise IllegalAction("no_game_here")
        if row.state is None:
            raise IllegalAction("not_started")
        if not isinstance(row.state, GameState):
            raise IllegalAction("board_only")
        click.row = row
        seat = click.seat_of(row.state)
        if seat is None or row.state.players[seat].bankrupt:
            raise IllegalAction("not_a_player")
        click.seat = seat
        await self._open_builder(click, click.service.seat_of(row.state, member.id))

    async def pick_partner_menu(self, click: Click) -> None:
        """The turn message's "Trade" button: choose a partner, then build the offer."""
        state, settings, seat = click.board()
        narrator = Narrator(state, click.lang, theme_of(settings))
        others = [s for s in state.active_players() if s != seat]
        if not others:
            await click.reply(t(click.lang, "trade.no_partner"))
            return
        options = [
            discord.SelectOption(label=clip(narrator.player(s), 100), value=str(s)) for s in others
        ]
        view = discord.ui.View(timeout=None)
        placeholder = t(click.lang, "trade.pick_partner")
        view.add_item(PanelSelect(click.game, "tq", options=options, placeholder=placeholder))
        await click.reply(placeholder, view=view)

    async def partner_picked(self, click: Click) -> None:
        """A partner chosen: the builder replaces the choice."""
        state = click.state
        value = click.values[0] if click.values else ""
        if not (value.isascii() and value.isdigit()) or int(value) >= len(state.players):
            raise IllegalAction("unknown_button")
        await self._open_builder(click, int(value), edit=True)

    async def _draft(self, click: Click, kind: str, nonce: str | None) -> Any:
        """The user's current draft of ``kind``, or None (the menu then says it expired)."""
        expired = "trade.expired" if kind == TRADE else "lots.expired"
        return await click.live_draft(kind, nonce, expired)

    async def pick_trade_lots(self, click: Click) -> None:
        """A choice or page turn in the builder's lists of lots."""
        await change_lots(click, TRADE_LOTS, render=_builder)

    async def toggle_card(self, click: Click) -> None:
        """A jail-free card in or out of the offer."""
        nonce, side, deck = (split_arg(click.arg) + ["", "", ""])[:3]
        draft = await self._draft(click, TRADE, nonce)
        if draft is None:
            return
        cards = draft.give_cards if side == "g" else draft.get_cards
        if deck in cards:
            cards.remove(deck)
        elif deck in DECKS:
            cards.append(deck)
        state, settings, seat = click.board()
        await click.edit(**_builder(state, settings, seat, draft, click.lang))

    async def money_form(self, click: Click) -> None:
        """The form for money both ways (only the in-memory draft is read before it)."""
        draft = await self._draft(click, TRADE, click.arg)
        if draft is None:
            return
        assert isinstance(draft, TradeDraft)
        form = CashForm(
            click.game, draft.nonce, click.lang, draft.partner_name, draft.give_cash, draft.get_cash
        )
        await click.form(form)

    async def money(self, click: Click) -> None:
        """Both amounts typed; only if both are numbers does the draft change."""
        give_text, get_text = click.fields.get("give", ""), click.fields.get("get", "")
        give, get = parse_amount(give_text), parse_amount(get_text)
        for typed, amount in ((give_text, give), (get_text, get)):
            if amount is None:
                await click.reply(t(click.lang, "error.bad_number", text=typed[:40]))
                return
        if give and get:
            raise IllegalAction("cash_both_ways")
        draft = click.drafts.find(TRADE, click.game, click.user_id, click.arg)
        if draft is None:
            await click.reply(t(click.lang, "trade.expired"))
            return
        assert isinstance(draft, TradeDraft)
        draft.give_cash, draft.get_cash = give or 0, get or 0
        state, settings, seat = click.board()
        await click.edit(**_builder(state, settings, seat, draft, click.lang))

    async def cancel(self, click: Click) -> None:
        """Close the builder (or the lot offer menu) without sending anything."""
        assert click.ref is not None
        kind = TRADE if click.ref.action == "tx" else LOTS
        draft = await self._draft(click, kind, click.arg)
        if draft is None:
            return
        click.drafts.drop(kind, draft)
        await click.edit(content=t(click.lang, "trade.cancelled"), embed=None, view=None)

    async def send(self, click: Click) -> None:
        """Send the offer; a counter-offer replaces the original in the same action."""
        draft = await self._draft(click, TRADE, click.arg)
        if draft is None:
            return
        assert isinstance(draft, TradeDraft)
        await click.defer()
        action = draft.action()
        if draft.counter_of is not None:
            action["counter_of"] = draft.counter_of
        try:
            proposed = await click.act(action)
        except IllegalAction as error:
            if "counter_of" not in action or error.code != "no_such_trade":
                raise
            # The original was answered meanwhile: the counter-offer stands on its own.
            del action["counter_of"]
            proposed = await click.act(action)
        click.drafts.drop(TRADE, draft)
        trade_id = next(e["trade"] for e in proposed.events if e["type"] == "trade_proposed")
        await click.edit(content=t(click.lang, "trade.sent", id=trade_id), embed=None, view=None)

    # -- answering a public offer ---------------------------------------------------------

    async def _offer(self, click: Click, role: str) -> tuple[dict[str, Any], list[str]] | None:
        """The open trade a button names, if the clicking user is its ``role``."""
        state, _, seat = click.board()
        parts = split_arg(click.arg)
        trade_id = int(parts[0]) if parts and parts[0].isascii() and parts[0].isdigit() else None
        trade = find_trade(state, trade_id)
        if trade is None:
            raise IllegalAction("no_such_trade", trade=trade_id)
        if trade[role] != seat:
            name = Narrator(state, click.lang).player(trade[role])
            key = "trade.only_partner" if role == "to" else "trade.only_proposer"
            await click.reply(t(click.lang, key, name=name))
            return None
        return trade, parts

    async def accept(self, click: Click) -> None:
        """Accept a trade offer, if its terms are still the ones shown."""
        found = await self._offer(click, "to")
        if found is None:
            return
        trade, parts = found
        state, settings, _ = click.board()
        if len(parts) < 2 or parts[1] != trade_fingerprint(state, trade):
            # The terms changed since this copy was drawn: show the new ones, accept nothing.
            stored = settings.records.trade_messages.get(str(trade["id"]))
            message = click.interaction.message
            if message is not None and stored == message.id:
                await click.edit(**offer_message(click.game, state, settings, trade))
            await click.reply(t(click.lang, "trade.changed"))
            return
        await click.defer()
        await click.act({"type": "accept_trade", "trade": trade["id"]})

    async def drop(self, click: Click) -> None:
        """Decline (the partner) or withdraw (the proposer) a trade offer."""
        assert click.ref is not None
        role = "to" if click.ref.action == "trade_decline" else "from"
        found = await self._offer(click, role)
        if found is None:
            return
        await click.defer()
        await click.act({"type": "decline_trade", "trade": found[0]["id"]})

    async def counter(self, click: Click) -> None:
        """Answer an offer with one's own, starting from it turned round."""
        found = await self._offer(click, "to")
        if found is None:
            return
        trade = found[0]
        await self._open_builder(click, trade["from"], counter_of=trade)

    # -- part payment in lots -------------------------------------------------------------

    async def offer_lots(self, click: Click) -> None:
        """The debtor's "Offer lots to creditor" button: open the private menu."""
        state, settings, seat = click.board()
        if state.debts and state.debts[0]["debtor"] != seat:
            name = Narrator(state, click.lang).player(state.debts[0]["debtor"])
            await click.reply(t(click.lang, "lots.only_debtor", name=name))
            return
        problem = lot_offer_problem(state, seat)
        if problem is not None:
            raise problem
        debt = state.debts[0]
        draft = LotsDraft(
            click.game,
            click.user_id,
            seat=seat,
            max_value=debt["amount"],
            creditor=debt["creditor"],
        )
        click.drafts.keep(LOTS, draft)
        await click.reply(**lots_panel(state, settings, draft, click.lang))

    def _lots_ready(self, state: GameState, draft: Any) -> None:
        problem = lot_offer_problem(state, draft.seat)
        if problem is not None:
            raise problem
        if not draft.owes_still(state):
            raise IllegalAction("debt_settled")  # a later debt: the menu was for another
        draft.lots = {s for s in draft.lots if state.owner[s] == draft.seat}

    async def pick_offered_lots(self, click: Click) -> None:
        """A choice or page turn in the list of lots to offer."""

        def render(state: GameState, settings: GameSettings, seat: int, draft: Any, lang: str):
            return lots_panel(state, settings, draft, lang)

        await change_lots(click, OFFERED_LOTS, render=render, prepare=self._lots_ready)

    async def lot_value_form(self, click: Click) -> None:
        """The form for the value the offered lots pay off."""
        draft = await self._draft(click, LOTS, click.arg)
        if draft is None:
            return
        assert isinstance(draft, LotsDraft)
        await click.form(LotValueForm(click.game, draft.nonce, click.lang, draft.max_value))

    async def lot_value(self, click: Click) -> None:
        """Offer the chosen lots for the value typed (the engine checks it against the debt)."""
        text = click.fields.get("value", "")
        value = parse_amount(text)
        if value is None:
            await click.reply(t(click.lang, "error.bad_number", text=text[:40]))
            return
        draft = click.drafts.find(LOTS, click.game, click.user_id, click.arg)
        if draft is None:
            await click.reply(t(click.lang, "lots.expired"))
            return
        assert isinstance(draft, LotsDraft)
        state, _, _ = click.board()
        if not draft.owes_still(state):
            # The debt was settled meanwhile: never offer the lots to a later creditor.
            click.drafts.drop(LOTS, draft)
            raise IllegalAction("debt_settled")
        await click.defer()
        action = {"type": "offer_lots", "lots": sorted(draft.lots), "value": value}
        await click.act(action)
        click.drafts.drop(LOTS, draft)
        await click.edit(content=t(click.lang, "lots.sent"), embed=None, view=None)

    async def answer_lots(self, click: Click) -> None:
        """Accept or decline (the creditor) or withdraw (the debtor) a lot offer."""
        assert click.ref is not None
        role, action = {
            "lots_accept": ("creditor", "accept_lots"),
            "lots_decline": ("creditor", "decline_lots"),
            "lots_withdraw": ("debtor", "decline_lots"),
        }[click.ref.action]
        state, settings, seat = click.board()
        offer = state.lot_offer
        if offer is None:
            raise IllegalAction("no_offer")
        if offer[role] != seat:
            key = "lots.only_creditor" if role == "creditor" else "lots.only_debtor"
            name = Narrator(state, click.lang).player(offer[role])
            await click.reply(t(click.lang, key, name=name))
            return
        if click.arg != offer_fingerprint(state, offer):
            stored = settings.records.lot_offer_message
            message = click.interaction.message
            if message is not None and stored and stored[0] == message.id:
                await click.edit(**lots_offer_message(click.game, state, settings))
            await click.reply(t(click.lang, "lots.changed"))
            return
        await click.defer()
        await click.act({"type": action})
