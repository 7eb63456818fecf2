"""The private menus of trading: the offer builder and the choice of lots for a creditor."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

import discord

from bot.engine import trades as engine_trades
from bot.engine.errors import IllegalAction
from bot.engine.legal import may_propose_trade
from bot.engine.state import GameState
from bot.i18n import t
from bot.settings import GameSettings
from cogs.ui.drafts import Draft
from cogs.ui.ids import PanelButton
from cogs.ui.offers import OFFER_COLOUR, interest_notes, side_lines, tradeable_lots
from cogs.ui.picker import LotPicker, Side
from cogs.ui.text import Narrator, theme_of
from cogs.ui.widgets import explain, lot_option

#: Draft kinds of the trade builder and of the lot offer menu.
TRADE, LOTS = "trade", "lots"
DECKS = ("chance", "community")


@dataclass
class TradeDraft(Draft):
    """An offer being put together by ``seat`` for ``partner``."""

    seat: int = 0
    partner: int = 0
    partner_name: str = ""
    give_lots: set[int] = field(default_factory=set)
    get_lots: set[int] = field(default_factory=set)
    give_cash: int = 0
    get_cash: int = 0
    give_cards: list[str] = field(default_factory=list)
    get_cards: list[str] = field(default_factory=list)
    give_page: int = 0
    get_page: int = 0
    counter_of: int | None = None

    def action(self) -> dict[str, Any]:
        """The ``propose_trade`` action for the engine."""
        return {
            "type": "propose_trade",
            "to": self.partner,
            "give": {
                "cash": self.give_cash,
                "lots": sorted(self.give_lots),
                "jail_cards": sorted(self.give_cards),
            },
            "get": {
                "cash": self.get_cash,
                "lots": sorted(self.get_lots),
                "jail_cards": sorted(self.get_cards),
            },
        }

    def as_trade(self) -> dict[str, Any]:
        """The draft shaped like an engine trade record (for the preview)."""
        action = self.action()
        return {"id": 0, "from": self.seat, "to": self.partner, **action}

    def forget_lost(self, state: GameState) -> None:
        """Drop what a side no longer holds (sold, traded away, card used)."""
        self.give_lots = {s for s in self.give_lots if state.owner[s] == self.seat}
        self.get_lots = {s for s in self.get_lots if state.owner[s] == self.partner}
        self.give_cards = [d for d in self.give_cards if d in state.players[self.seat].jail_cards]
        self.get_cards = [d for d in self.get_cards if d in state.players[self.partner].jail_cards]


def _lot_choices(state: GameState, seat: int, chosen: set[int]) -> list[int]:
    # A chosen lot whose group got buildings meanwhile stays listed, so it can be removed;
    # the preview says why it cannot be traded.
    return sorted(set(tradeable_lots(state, seat)) | chosen)


def builder_message(
    state: GameState, settings: GameSettings, draft: TradeDraft, lang: str
) -> dict[str, Any]:
    """Embed and view of the private trade builder."""
    narrator = Narrator(state, lang, theme_of(settings))
    partner = narrator.player(draft.partner)
    game, nonce = draft.game, draft.nonce
    trade = draft.as_trade()
    embed = discord.Embed(title=t(lang, "trade.builder_title", name=partner), colour=OFFER_COLOUR)
    intro = t(lang, "trade.builder_intro", name=partner)
    if draft.counter_of is not None:
        intro = t(lang, "trade.counter_intro", id=draft.counter_of) + "\n" + intro
    embed.description = intro
    embed.add_field(name=t(lang, "trade.you_give"), value=side_lines(narrator, trade["give"]))
    embed.add_field(name=t(lang, "trade.you_get"), value=side_lines(narrator, trade["get"]))
    notes = interest_notes(narrator, trade, you=draft.seat)
    try:
        if not may_propose_trade(state, draft.seat):
            raise IllegalAction("wrong_phase", phase=state.phase)
        engine_trades.build_trade(state, draft.seat, draft.action())
        notes.append("✅ " + t(lang, "trade.ready"))
    except IllegalAction as error:
        notes.append("⚠️ " + explain(lang, error, state, settings))
    embed.add_field(name=t(lang, "trade.preview"), value="\n".join(notes), inline=False)
    embed.set_footer(
        text=t(
            lang,
            "trade.cash_footer",
            you=narrator.money(state.players[draft.seat].cash),
            name=partner,
            cash=narrator.money(state.players[draft.partner].cash),
        )
    )

    view = discord.ui.View(timeout=None)
    paging: list[PanelButton] = []
    for side, chosen in (("g", draft.give_lots), ("t", draft.get_lots)):
        word = t(lang, "trade.page_give" if side == "g" else "trade.page_get")
        paging += TRADE_LOTS.add_to(
            view,
            state,
            draft.seat,
            draft,
            side,
            options=lambda shown, chosen=chosen: [
                lot_option(state, narrator, s, selected=s in chosen) for s in shown
            ],
            placeholder=t(
                lang, "trade.select_give" if side == "g" else "trade.select_get", name=partner
            ),
            row=0 if side == "g" else 1,
            page_row=3,
            page_label=lambda step, a, w=word: f"{a} {w}" if step == "p" else f"{w} {a}",
        )
    view.add_item(
        PanelButton(game, "tm", str(nonce), label=t(lang, "trade.money_button"), emoji="💶", row=2)
    )
    for side, seat, chosen in (
        ("g", draft.seat, draft.give_cards),
        ("t", draft.partner, draft.get_cards),
    ):
        for deck in DECKS:
            if deck not in state.players[seat].jail_cards and deck not in chosen:
                continue
            key = "trade.card_give" if side == "g" else "trade.card_get"
            view.add_item(
                PanelButton(
                    game,
                    "tc",
                    f"{nonce}-{side}-{deck}",
                    label=t(lang, key, deck=t(lang, f"deck.{deck}")),
                    emoji="🃏",
                    style=discord.ButtonStyle.success
                    if deck in chosen
                    else discord.ButtonStyle.secondary,
                    row=2,
                )
            )
    for button in paging:
        view.add_item(button)
    view.add_item(
        PanelButton(
            game,
            "ts",
            str(nonce),
            label=t(lang, "trade.send"),
            style=discord.ButtonStyle.primary,
            row=4,
        )
    )
    view.add_item(
        PanelButton(
            game,
            "tx",
            str(nonce),
            label=t(lang, "trade.cancel"),
            style=discord.ButtonStyle.danger,
            row=4,
        )
    )
    return {"content": None, "embed": embed, "view": view}


def _trade_lot_choices(state: GameState, seat: int, draft: TradeDraft, side: str) -> list[int]:
    if side == "g":
        return _lot_choices(state, draft.seat, draft.give_lots)
    return _lot_choices(state, draft.partner, draft.get_lots)


TRADE_LOTS = LotPicker(
    select="tl",
    pager="tp",
    draft_kind=TRADE,
    expired="trade.expired",
    sides={"g": Side("give_lots", "give_page"), "t": Side("get_lots", "get_page")},
    choices=_trade_lot_choices,
)


@dataclass
class LotsDraft(Draft):
    """Lots a debtor is about to offer their creditor as part payment.

    ``creditor`` is whom the debt was owed when the menu opened: the offer goes to the
    first debt's creditor, so a menu (or its value form) outliving that debt must not
    offer the lots to someone else.
    """

    seat: int = 0
    lots: set[int] = field(default_factory=set)
    page: int = 0
    max_value: int = 0
    creditor: int = 0

    def owes_still(self, state: GameState) -> bool:
        """Whether the debt this menu was opened for is still the one to pay."""
        debts = state.debts
        return bool(debts) and (debts[0]["debtor"], debts[0]["creditor"]) == (
            self.seat,
            self.creditor,
        )


def lots_panel(
    state: GameState, settings: GameSettings, draft: LotsDraft, lang: str
) -> dict[str, Any]:
    """Embed and view of the private "offer lots to the creditor" menu."""
    narrator = Narrator(state, lang, theme_of(settings))
    debt = state.debts[0]
    creditor = narrator.player(debt["creditor"])
    squares = state.board.squares
    chosen = sorted(draft.lots)
    embed = discord.Embed(title=t(lang, "lots.panel_title", name=creditor), colour=OFFER_COLOUR)
    embed.description = t(
        lang, "lots.panel_intro", name=creditor, amount=narrator.money(debt["amount"])
    )
    embed.add_field(
        name=t(lang, "lots.chosen"), value=side_lines(narrator, {"lots": chosen}), inline=False
    )
    if chosen:
        notes = [
            t(
                lang,
                "lots.worth",
                price=narrator.money(sum(squares[s].price for s in chosen)),
                mortgage=narrator.money(
                    sum(squares[s].mortgage for s in chosen if not state.mortgaged[s])
                ),
            )
        ]
        due = engine_trades.interest_due(state, chosen)
        if due:
            notes.append(t(lang, "trade.interest_other", name=creditor, amount=narrator.money(due)))
        embed.add_field(name=t(lang, "trade.preview"), value="\n".join(notes), inline=False)
    view = discord.ui.View(timeout=None)
    nonce = draft.nonce
    paging = OFFERED_LOTS.add_to(
        view,
        state,
        draft.seat,
        draft,
        "l",
        options=lambda shown: [
            lot_option(state, narrator, s, selected=s in draft.lots) for s in shown
        ],
        placeholder=t(lang, "lots.select"),
        row=0,
        page_row=1,
    )
    for button in paging:
        view.add_item(button)
    view.add_item(
        PanelButton(
            draft.game,
            "lv",
            str(nonce),
            label=t(lang, "lots.offer_button"),
            style=discord.ButtonStyle.primary,
            disabled=not chosen,
            row=2,
        )
    )
    view.add_item(
        PanelButton(
            draft.game,
            "lx",
            str(nonce),
            label=t(lang, "trade.cancel"),
            style=discord.ButtonStyle.danger,
            row=2,
        )
    )
    return {"content": None, "embed": embed, "view": view}


def _offered_lot_choices(state: GameState, seat: int, draft: LotsDraft, side: str) -> list[int]:
    return sorted(set(tradeable_lots(state, draft.seat)) | draft.lots)


OFFERED_LOTS = LotPicker(
    select="lo",
    pager="lp",
    draft_kind=LOTS,
    expired="lots.expired",
    sides={"l": Side("lots", "page")},
    choices=_offered_lot_choices,
)
