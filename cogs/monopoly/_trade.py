"""Trades between players, and lots offered to a creditor as part payment, in Discord.

``/monopoly trade member:`` (or the turn message's "Trade" button) opens a private builder:
selects for the lots to give and to get, a modal for money, toggles for jail-free cards and a
live preview checked by the engine. "Send offer" applies ``propose_trade`` and posts a public
offer with Accept / Decline / Counter / Withdraw buttons; the offer itself lives in the engine
state (``state.trades``), so those buttons work after a restart. A debtor offers lots to a
player creditor the same way (``offer_lots``), answered with ``accept_lots`` /
``decline_lots``.

A public offer's buttons carry a fingerprint of the terms (the trade and whether its lots are
mortgaged): if a lot was mortgaged or lifted after the offer was made, Accept shows the new
terms instead of accepting something the partner has not seen.
"""

from __future__ import annotations

import hashlib
import json
import logging
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any

import discord

from bot.engine import trades as engine_trades
from bot.engine.errors import IllegalAction
from bot.engine.legal import may_offer_lots, may_propose_trade
from bot.engine.state import GameState
from bot.i18n import t
from bot.store import StoreError
from cogs.monopoly._ids import GameButton
from cogs.monopoly._picker import LotPicker, Side
from cogs.monopoly._text import Narrator, mentions, refusal, theme_of
from cogs.monopoly._widgets import (
    Draft,
    PanelButton,
    PanelSelect,
    act,
    clip,
    drop_draft,
    explain,
    find_draft,
    game_button,
    keep_draft,
    lang_of,
    live_draft,
    load_seat,
    lot_option,
    merge,
    panel,
    parse_amount,
    refuse,
    reply,
    split_arg,
)

if TYPE_CHECKING:
    from cogs.monopoly._cog import MonopolyCog

log = logging.getLogger(__name__)

TRADE = "trade"
LOTS = "lots"
DECKS = ("chance", "community")
OFFER_COLOUR = 0x1565C0


# -- what may change hands --------------------------------------------------------------


def tradeable_lots(state: GameState, seat: int) -> list[int]:
    """The lots ``seat`` may trade now, as the engine's trade check sees them.

    000: "Es kann jedoch keine Straße an einen anderen Spieler verkauft werden, wenn an
    irgendeiner Straße dieser Farbgruppe Gebäude gebaut sind."
    """
    found = []
    for square, owner in enumerate(state.owner):
        if owner != seat:
            continue
        try:
            engine_trades.check_side(state, seat, {"cash": 0, "lots": [square], "jail_cards": []})
        except IllegalAction:
            continue
        found.append(square)
    return found


def side_lines(narrator: Narrator, side: dict[str, Any]) -> str:
    """What one side of a trade hands over, one item a line ("–" for nothing)."""
    lang = narrator.lang
    state = narrator.state
    lines = []
    for square in side.get("lots", []):
        mark = " (" + t(lang, "word.mortgaged") + ")" if state.mortgaged[square] else ""
        lines.append(f"• {narrator.square(square)}{mark}")
    if side.get("cash"):
        lines.append(f"• {narrator.money(side['cash'])}")
    for deck in side.get("jail_cards", []):
        lines.append("• " + t(lang, "trade.jail_card", deck=t(lang, f"deck.{deck}")))
    return "\n".join(lines) or "–"


def trade_fingerprint(state: GameState, trade: dict[str, Any]) -> str:
    """A short digest of the terms as shown: the trade and the mortgages of its lots."""
    lots = [*trade["give"]["lots"], *trade["get"]["lots"]]
    return _digest([trade["id"], trade["give"], trade["get"], [state.mortgaged[i] for i in lots]])


def offer_fingerprint(state: GameState, offer: dict[str, Any]) -> str:
    """A short digest of a lot offer as shown (the lots, their mortgages, the value)."""
    return _digest([offer, [state.mortgaged[i] for i in offer["lots"]]])


def _digest(value: Any) -> str:
    text = json.dumps(value, sort_keys=True, separators=(",", ":"))
    return hashlib.sha1(text.encode("utf-8")).hexdigest()[:10]


def _find_trade(state: GameState, trade_id: int | None) -> dict[str, Any] | None:
    return next((tr for tr in state.trades if tr["id"] == trade_id), None)


def _interest_notes(narrator: Narrator, trade: dict[str, Any], *, you: int | None) -> list[str]:
    """Who pays how much interest at once for the mortgaged lots they receive."""
    state = narrator.state
    notes = []
    for receiver, lots in (
        (trade["to"], trade["give"]["lots"]),
        (trade["from"], trade["get"]["lots"]),
    ):
        due = engine_trades.interest_due(state, lots)
        if not due:
            continue
        key = "trade.interest_you" if receiver == you else "trade.interest_other"
        notes.append(
            t(narrator.lang, key, name=narrator.player(receiver), amount=narrator.money(due))
        )
    return notes


# -- the builder ------------------------------------------------------------------------


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
    state: GameState, settings: dict[str, Any], draft: TradeDraft, lang: str
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
    notes = _interest_notes(narrator, trade, you=draft.seat)
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


async def open_builder(
    cog: MonopolyCog,
    interaction: discord.Interaction,
    game: int,
    partner_id: int,
    *,
    counter_of: dict[str, Any] | None = None,
    edit: bool = False,
) -> None:
    """Open (or, with ``edit``, show in the clicked menu) a trade builder for the user."""
    lang = lang_of(interaction)
    loaded = await load_seat(cog, interaction, game)
    if loaded is None:
        return
    state, settings, seat = loaded
    partner = cog.service.seat_of(state, partner_id)
    if partner is None or state.players[partner].bankrupt:
        await reply(interaction, t(lang, "trade.partner_not_playing"))
        return
    if partner == seat:
        await reply(interaction, t(lang, "trade.not_yourself"))
        return
    if not may_propose_trade(state, seat):
        await refuse(interaction, IllegalAction("wrong_phase", phase=state.phase))
        return
    draft = TradeDraft(
        game=game,
        user=interaction.user.id,
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
    keep_draft(cog, TRADE, draft)
    message = builder_message(state, settings, draft, lang)
    if edit:
        await interaction.response.edit_message(**message)
    else:
        await interaction.response.send_message(**message, ephemeral=True)


async def start_trade(
    cog: MonopolyCog, interaction: discord.Interaction, member: discord.abc.User
) -> None:
    """``/monopoly trade member:`` in a channel with a running game."""
    lang = lang_of(interaction)
    row = await cog.service.store.game_in_channel(interaction.channel_id or 0)
    if row is None or row.state is None:
        key = "error.no_game_here" if row is None else "error.not_started"
        await reply(interaction, t(lang, key))
        return
    await open_builder(cog, interaction, row.id, member.id)


async def _draft_or_expired(
    cog: MonopolyCog, interaction: discord.Interaction, game: int, kind: str, nonce: str | None
) -> Any:
    expired = "trade.expired" if kind == TRADE else "lots.expired"
    return await live_draft(cog, kind, interaction, game, nonce, expired)


async def _load_builder(
    cog: MonopolyCog, interaction: discord.Interaction, draft: TradeDraft
) -> tuple[GameState, dict[str, Any], int] | None:
    """The game for the trade builder, without what a side no longer holds."""
    loaded = await load_seat(cog, interaction, draft.game)
    if loaded is not None:
        draft.forget_lost(loaded[0])
    return loaded


def _builder_again(
    state: GameState, settings: dict[str, Any], seat: int, draft: TradeDraft, lang: str
) -> dict[str, Any]:
    return builder_message(state, settings, draft, lang)


async def _rerender(cog: MonopolyCog, interaction: discord.Interaction, draft: TradeDraft) -> None:
    loaded = await _load_builder(cog, interaction, draft)
    if loaded is not None:
        state, settings, seat = loaded
        await interaction.response.edit_message(
            **_builder_again(state, settings, seat, draft, lang_of(interaction))
        )


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
    load=_load_builder,
    choices=_trade_lot_choices,
    render=_builder_again,
).register()


@game_button("trade_menu")
async def _trade_menu(
    cog: MonopolyCog, interaction: discord.Interaction, game: int, seq: int, arg: str | None
) -> None:
    """The turn message's "Trade" button: choose a partner, then build the offer."""
    lang = lang_of(interaction)
    loaded = await load_seat(cog, interaction, game)
    if loaded is None:
        return
    state, settings, seat = loaded
    narrator = Narrator(state, lang, theme_of(settings))
    others = [s for s in state.active_players() if s != seat]
    if not others:
        await reply(interaction, t(lang, "trade.no_partner"))
        return
    options = [
        discord.SelectOption(label=clip(narrator.player(s), 100), value=str(s)) for s in others
    ]
    view = discord.ui.View(timeout=None)
    view.add_item(
        PanelSelect(game, "tq", options=options, placeholder=t(lang, "trade.pick_partner"))
    )
    await interaction.response.send_message(
        t(lang, "trade.pick_partner"), view=view, ephemeral=True
    )


@panel("tq")
async def _partner_picked(
    cog: MonopolyCog,
    interaction: discord.Interaction,
    game: int,
    arg: str | None,
    values: list[str],
) -> None:
    lang = lang_of(interaction)
    row = await cog.service.store.load(game)
    state = row.state
    if (
        state is None
        or not values
        or not values[0].isdigit()
        or int(values[0]) >= len(state.players)
    ):
        await reply(interaction, t(lang, "error.unknown_button"))
        return
    await open_builder(cog, interaction, game, int(state.players[int(values[0])].id), edit=True)


@panel("tc")
async def _toggle_card(
    cog: MonopolyCog,
    interaction: discord.Interaction,
    game: int,
    arg: str | None,
    values: list[str],
) -> None:
    nonce, side, deck = (split_arg(arg) + ["", "", ""])[:3]
    draft = await _draft_or_expired(cog, interaction, game, TRADE, nonce)
    if draft is None:
        return
    cards = draft.give_cards if side == "g" else draft.get_cards
    if deck in cards:
        cards.remove(deck)
    elif deck in DECKS:
        cards.append(deck)
    await _rerender(cog, interaction, draft)


class CashModal(discord.ui.Modal):
    """Money both ways: what the user pays and what they ask for."""

    def __init__(self, cog: MonopolyCog, draft: TradeDraft, lang: str, partner: str) -> None:
        super().__init__(title=t(lang, "trade.money_title"))
        self.cog, self.draft, self.lang = cog, draft, lang
        self.give = discord.ui.TextInput(
            label=clip(t(lang, "trade.money_give"), 45),
            custom_id="give",
            required=False,
            max_length=20,
            default=str(draft.give_cash) if draft.give_cash else None,
            placeholder="0",
        )
        self.get = discord.ui.TextInput(
            label=clip(t(lang, "trade.money_get", name=partner), 45),
            custom_id="get",
            required=False,
            max_length=20,
            default=str(draft.get_cash) if draft.get_cash else None,
            placeholder="0",
        )
        self.add_item(self.give)
        self.add_item(self.get)

    async def on_submit(self, interaction: discord.Interaction) -> None:
        """Check both amounts; only if both are numbers does the draft change."""
        lang = lang_of(interaction)
        give, get = parse_amount(self.give.value), parse_amount(self.get.value)
        for typed, amount in ((self.give.value, give), (self.get.value, get)):
            if amount is None:
                await reply(interaction, t(lang, "error.bad_number", text=typed))
                return
        if give and get:
            await refuse(interaction, IllegalAction("cash_both_ways"))
            return
        draft = find_draft(self.cog, TRADE, interaction, self.draft.game, str(self.draft.nonce))
        if draft is None:
            await reply(interaction, t(lang, "trade.expired"))
            return
        assert isinstance(draft, TradeDraft)
        draft.give_cash, draft.get_cash = give or 0, get or 0
        await _rerender(self.cog, interaction, draft)


@panel("tm")
async def _money(
    cog: MonopolyCog,
    interaction: discord.Interaction,
    game: int,
    arg: str | None,
    values: list[str],
) -> None:
    # A modal must be the first response: only the in-memory draft is read before it.
    draft = await _draft_or_expired(cog, interaction, game, TRADE, arg)
    if draft is None:
        return
    assert isinstance(draft, TradeDraft)
    await interaction.response.send_modal(
        CashModal(cog, draft, lang_of(interaction), draft.partner_name)
    )


@panel("tx")
async def _cancel(
    cog: MonopolyCog,
    interaction: discord.Interaction,
    game: int,
    arg: str | None,
    values: list[str],
) -> None:
    draft = await _draft_or_expired(cog, interaction, game, TRADE, arg)
    if draft is None:
        return
    drop_draft(cog, TRADE, draft)
    await interaction.response.edit_message(
        content=t(lang_of(interaction), "trade.cancelled"), embed=None, view=None
    )


@panel("ts")
async def _send(
    cog: MonopolyCog,
    interaction: discord.Interaction,
    game: int,
    arg: str | None,
    values: list[str],
) -> None:
    draft = await _draft_or_expired(cog, interaction, game, TRADE, arg)
    if draft is None:
        return
    assert isinstance(draft, TradeDraft)
    lang = lang_of(interaction)
    await interaction.response.defer()
    proposed = await act(cog, interaction, game, draft.action())
    if proposed is None:
        return
    drop_draft(cog, TRADE, draft)
    results = [proposed]
    if draft.counter_of is not None and _find_trade(proposed.state, draft.counter_of):
        declined = await _quiet_act(
            cog, interaction, game, {"type": "decline_trade", "trade": draft.counter_of}
        )
        if declined is not None:
            results.append(declined)
    result = merge(results)
    assert result is not None
    trade_id = next(e["trade"] for e in proposed.events if e["type"] == "trade_proposed")
    await interaction.edit_original_response(
        content=t(lang, "trade.sent", id=trade_id), embed=None, view=None
    )
    # publish posts the public offer (as it does for a computer player's offers).
    await cog.publish(interaction.channel, game, result)  # type: ignore[arg-type]


async def _quiet_act(
    cog: MonopolyCog, interaction: discord.Interaction, game: int, action: dict[str, Any]
) -> Any:
    try:
        return await cog.service.act(game, interaction.user.id, action)
    except (IllegalAction, StoreError):
        return None


async def remember_message(
    cog: MonopolyCog, game: int, key: str, item: str | None, message_id: int
) -> None:
    """Store a public offer's message id in the game settings (under the publish lock)."""
    async with cog._lock(game):
        row = await cog.service.store.load(game)
        settings = dict(row.settings)
        if item is None:
            settings[key] = message_id
        else:
            settings[key] = {**settings.get(key, {}), item: message_id}
        await cog.service.store.set_settings(game, settings)


# -- the public offer -------------------------------------------------------------------


def offer_message(
    game: int, state: GameState, settings: dict[str, Any], trade: dict[str, Any]
) -> dict[str, Any]:
    """The public trade offer: mention, terms, and the partner's / proposer's buttons."""
    lang = settings["lang"]
    narrator = Narrator(state, lang, theme_of(settings))
    giver, taker = narrator.player(trade["from"]), narrator.player(trade["to"])
    embed = discord.Embed(
        title=t(lang, "trade.offer_title", id=trade["id"]),
        description=t(lang, "trade.offer_text", **{"from": giver, "to": taker}),
        colour=OFFER_COLOUR,
    )
    embed.add_field(
        name=t(lang, "trade.gives", name=giver), value=side_lines(narrator, trade["give"])
    )
    embed.add_field(
        name=t(lang, "trade.gives", name=taker), value=side_lines(narrator, trade["get"])
    )
    notes = _interest_notes(narrator, trade, you=None)
    if notes:
        embed.add_field(name=t(lang, "trade.interest"), value="\n".join(notes), inline=False)
    closes = settings.get("trade_closes", {}).get(str(trade["id"]))
    if closes:
        embed.add_field(name=t(lang, "trade.closes"), value=f"<t:{closes}:R>", inline=False)
    embed.set_footer(text=t(lang, "trade.offer_footer", **{"from": giver, "to": taker}))
    seq = state.seq
    tid = trade["id"]
    view = discord.ui.View(timeout=None)
    for act_name, arg, key, style in (
        ("trade_accept", f"{tid}-{trade_fingerprint(state, trade)}", "trade.accept", "success"),
        ("trade_decline", str(tid), "trade.decline", "danger"),
        ("trade_counter", str(tid), "trade.counter", "primary"),
        ("trade_withdraw", str(tid), "trade.withdraw", "secondary"),
    ):
        view.add_item(
            GameButton(
                game,
                seq,
                act_name,
                arg,
                label=t(lang, key),
                style=getattr(discord.ButtonStyle, style),
            )
        )
    mention = mentions(state, [trade["to"]])
    return {"content": mention, "embed": embed, "view": view}


async def _offer_and_seat(
    cog: MonopolyCog, interaction: discord.Interaction, game: int, arg: str | None, role: str
) -> tuple[GameState, dict[str, Any], int, dict[str, Any], list[str]] | None:
    """The open trade a button names, if the clicking user is its ``role`` ("to"/"from")."""
    lang = lang_of(interaction)
    parts = split_arg(arg)
    trade_id = int(parts[0]) if parts and parts[0].isdigit() else None
    loaded = await load_seat(cog, interaction, game)
    if loaded is None:
        return None
    state, settings, seat = loaded
    trade = _find_trade(state, trade_id)
    if trade is None:
        await refuse(interaction, IllegalAction("no_such_trade", trade=trade_id))
        return None
    if trade[role] != seat:
        name = Narrator(state, lang).player(trade[role])
        key = "trade.only_partner" if role == "to" else "trade.only_proposer"
        await reply(interaction, t(lang, key, name=name))
        return None
    return state, settings, seat, trade, parts


@game_button("trade_accept")
async def _accept(
    cog: MonopolyCog, interaction: discord.Interaction, game: int, seq: int, arg: str | None
) -> None:
    found = await _offer_and_seat(cog, interaction, game, arg, "to")
    if found is None:
        return
    state, settings, _, trade, parts = found
    if len(parts) < 2 or parts[1] != trade_fingerprint(state, trade):
        # The terms changed since this copy was drawn: show the new ones, accept nothing.
        stored = settings.get("trade_messages", {}).get(str(trade["id"]))
        if interaction.message is not None and stored == interaction.message.id:
            await interaction.response.edit_message(**offer_message(game, state, settings, trade))
        await reply(interaction, t(lang_of(interaction), "trade.changed"))
        return
    await interaction.response.defer()
    result = await act(cog, interaction, game, {"type": "accept_trade", "trade": trade["id"]})
    if result is not None:
        await cog.publish(interaction.channel, game, result)  # type: ignore[arg-type]


async def _drop_trade(
    cog: MonopolyCog, interaction: discord.Interaction, game: int, arg: str | None, role: str
) -> None:
    found = await _offer_and_seat(cog, interaction, game, arg, role)
    if found is None:
        return
    trade = found[3]
    await interaction.response.defer()
    result = await act(cog, interaction, game, {"type": "decline_trade", "trade": trade["id"]})
    if result is not None:
        await cog.publish(interaction.channel, game, result)  # type: ignore[arg-type]


@game_button("trade_decline")
async def _decline(
    cog: MonopolyCog, interaction: discord.Interaction, game: int, seq: int, arg: str | None
) -> None:
    await _drop_trade(cog, interaction, game, arg, "to")


@game_button("trade_withdraw")
async def _withdraw(
    cog: MonopolyCog, interaction: discord.Interaction, game: int, seq: int, arg: str | None
) -> None:
    await _drop_trade(cog, interaction, game, arg, "from")


@game_button("trade_counter")
async def _counter(
    cog: MonopolyCog, interaction: discord.Interaction, game: int, seq: int, arg: str | None
) -> None:
    found = await _offer_and_seat(cog, interaction, game, arg, "to")
    if found is None:
        return
    state, _, _, trade, _ = found
    proposer_id = int(state.players[trade["from"]].id)
    await open_builder(cog, interaction, game, proposer_id, counter_of=trade)


# -- part payment in lots --------------------------------------------------------------


@dataclass
class LotsDraft(Draft):
    """Lots a debtor is about to offer their creditor as part payment."""

    seat: int = 0
    lots: set[int] = field(default_factory=set)
    page: int = 0
    max_value: int = 0


def lot_offer_problem(state: GameState, seat: int) -> IllegalAction | None:
    """Why ``seat`` cannot offer lots now (the engine's reason), or None."""
    if may_offer_lots(state, seat):
        return None
    if not state.debts or state.debts[0]["debtor"] != seat:
        return IllegalAction("not_in_debt")
    if not state.rules.part_payment_in_lots:
        return IllegalAction("part_payment_off")
    if state.debts[0]["creditor"] < 0:
        return IllegalAction("creditor_is_bank")
    return IllegalAction("offer_pending")


def lots_panel(
    state: GameState, settings: dict[str, Any], draft: LotsDraft, lang: str
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


@game_button("offer_lots")
async def _offer_lots(
    cog: MonopolyCog, interaction: discord.Interaction, game: int, seq: int, arg: str | None
) -> None:
    """The debtor's "Offer lots to creditor" button: open the private menu."""
    lang = lang_of(interaction)
    loaded = await load_seat(cog, interaction, game)
    if loaded is None:
        return
    state, settings, seat = loaded
    if state.debts and state.debts[0]["debtor"] != seat:
        name = Narrator(state, lang).player(state.debts[0]["debtor"])
        await reply(interaction, t(lang, "lots.only_debtor", name=name))
        return
    problem = lot_offer_problem(state, seat)
    if problem is not None:
        await refuse(interaction, problem)
        return
    draft = keep_draft(
        cog,
        LOTS,
        LotsDraft(
            game=game, user=interaction.user.id, seat=seat, max_value=state.debts[0]["amount"]
        ),
    )
    await interaction.response.send_message(
        **lots_panel(state, settings, draft, lang), ephemeral=True
    )


async def _load_lots(
    cog: MonopolyCog, interaction: discord.Interaction, draft: LotsDraft
) -> tuple[GameState, dict[str, Any], int] | None:
    """The game for the lot offer menu, if the player may still offer lots."""
    loaded = await load_seat(cog, interaction, draft.game)
    if loaded is None:
        return None
    state, _, seat = loaded
    problem = lot_offer_problem(state, seat)
    if problem is not None:
        await interaction.response.edit_message(
            content=refusal(lang_of(interaction), problem), embed=None, view=None
        )
        return None
    draft.lots = {s for s in draft.lots if state.owner[s] == seat}
    return loaded


def _lots_again(
    state: GameState, settings: dict[str, Any], seat: int, draft: LotsDraft, lang: str
) -> dict[str, Any]:
    return lots_panel(state, settings, draft, lang)


def _offered_lot_choices(state: GameState, seat: int, draft: LotsDraft, side: str) -> list[int]:
    return sorted(set(tradeable_lots(state, draft.seat)) | draft.lots)


OFFERED_LOTS = LotPicker(
    select="lo",
    pager="lp",
    draft_kind=LOTS,
    expired="lots.expired",
    sides={"l": Side("lots", "page")},
    load=_load_lots,
    choices=_offered_lot_choices,
    render=_lots_again,
).register()


@panel("lx")
async def _lots_cancel(
    cog: MonopolyCog,
    interaction: discord.Interaction,
    game: int,
    arg: str | None,
    values: list[str],
) -> None:
    draft = await _draft_or_expired(cog, interaction, game, LOTS, arg)
    if draft is None:
        return
    drop_draft(cog, LOTS, draft)
    await interaction.response.edit_message(
        content=t(lang_of(interaction), "trade.cancelled"), embed=None, view=None
    )


class LotValueModal(discord.ui.Modal):
    """The value the offered lots pay off."""

    def __init__(self, cog: MonopolyCog, draft: LotsDraft, lang: str) -> None:
        super().__init__(title=t(lang, "lots.value_title"))
        self.cog, self.draft = cog, draft
        self.value = discord.ui.TextInput(
            label=clip(t(lang, "lots.value_label", amount=draft.max_value), 45),
            custom_id="value",
            max_length=20,
        )
        self.add_item(self.value)

    async def on_submit(self, interaction: discord.Interaction) -> None:
        """Offer the lots for the value typed (the engine checks it against the debt)."""
        lang = lang_of(interaction)
        value = parse_amount(self.value.value)
        if value is None:
            await reply(interaction, t(lang, "error.bad_number", text=self.value.value))
            return
        draft = find_draft(self.cog, LOTS, interaction, self.draft.game, str(self.draft.nonce))
        if draft is None:
            await reply(interaction, t(lang, "lots.expired"))
            return
        assert isinstance(draft, LotsDraft)
        game = draft.game
        await interaction.response.defer()
        action = {"type": "offer_lots", "lots": sorted(draft.lots), "value": value}
        result = await act(self.cog, interaction, game, action)
        if result is None:
            return
        drop_draft(self.cog, LOTS, draft)
        await interaction.edit_original_response(
            content=t(lang, "lots.sent"), embed=None, view=None
        )
        state = result.state
        channel = interaction.channel
        if state.lot_offer is not None and channel is not None:
            row = await self.cog.service.store.load(game)
            message = await channel.send(**lots_offer_message(game, state, dict(row.settings)))  # type: ignore[union-attr]
            await remember_message(
                self.cog, game, "lot_offer_message", None, [message.id, draft.seat]
            )
        await self.cog.publish(channel, game, result)  # type: ignore[arg-type]


@panel("lv")
async def _lots_value(
    cog: MonopolyCog,
    interaction: discord.Interaction,
    game: int,
    arg: str | None,
    values: list[str],
) -> None:
    # A modal must be the first response: only the in-memory draft is read before it.
    draft = await _draft_or_expired(cog, interaction, game, LOTS, arg)
    if draft is None:
        return
    assert isinstance(draft, LotsDraft)
    await interaction.response.send_modal(LotValueModal(cog, draft, lang_of(interaction)))


def lots_offer_message(game: int, state: GameState, settings: dict[str, Any]) -> dict[str, Any]:
    """The public part-payment offer to the creditor, with Accept / Decline / Withdraw."""
    lang = settings["lang"]
    narrator = Narrator(state, lang, theme_of(settings))
    offer = state.lot_offer
    assert offer is not None
    debtor, creditor = narrator.player(offer["debtor"]), narrator.player(offer["creditor"])
    owed = state.debts[0]["amount"] if state.debts else offer["value"]
    embed = discord.Embed(
        title=t(lang, "lots.offer_title"),
        description=t(
            lang,
            "lots.offer_text",
            debtor=debtor,
            creditor=creditor,
            value=narrator.money(offer["value"]),
            amount=narrator.money(owed),
        ),
        colour=OFFER_COLOUR,
    )
    embed.add_field(
        name=t(lang, "trade.gives", name=debtor),
        value=side_lines(narrator, {"lots": offer["lots"]}),
        inline=False,
    )
    due = engine_trades.interest_due(state, offer["lots"])
    if due:
        embed.add_field(
            name=t(lang, "trade.interest"),
            value=t(lang, "trade.interest_other", name=creditor, amount=narrator.money(due)),
            inline=False,
        )
    embed.set_footer(text=t(lang, "lots.offer_footer", creditor=creditor, debtor=debtor))
    view = discord.ui.View(timeout=None)
    for item in lot_offer_buttons(game, state, lang):
        view.add_item(item)
    view.add_item(
        GameButton(
            game,
            state.seq,
            "lots_withdraw",
            offer_fingerprint(state, offer),
            label=t(lang, "trade.withdraw"),
        )
    )
    mention = mentions(state, [offer["creditor"]])
    return {"content": mention, "embed": embed, "view": view}


def lot_offer_buttons(game: int, state: GameState, lang: str, row: int | None = None) -> list[Any]:
    """Accept / Decline buttons for the pending lot offer (offer message and turn message)."""
    offer = state.lot_offer
    if offer is None:
        return []
    digest = offer_fingerprint(state, offer)
    value = Narrator(state, lang).money(offer["value"])
    return [
        GameButton(
            game,
            state.seq,
            "lots_accept",
            digest,
            label=t(lang, "lots.accept", value=value),
            style=discord.ButtonStyle.success,
            row=row,
        ),
        GameButton(
            game,
            state.seq,
            "lots_decline",
            digest,
            label=t(lang, "lots.decline"),
            style=discord.ButtonStyle.danger,
            row=row,
        ),
    ]


async def _answer_lots(
    cog: MonopolyCog,
    interaction: discord.Interaction,
    game: int,
    arg: str | None,
    role: str,
    action: str,
) -> None:
    lang = lang_of(interaction)
    loaded = await load_seat(cog, interaction, game)
    if loaded is None:
        return
    state, settings, seat = loaded
    offer = state.lot_offer
    if offer is None:
        await refuse(interaction, IllegalAction("no_offer"))
        return
    if offer[role] != seat:
        key = "lots.only_creditor" if role == "creditor" else "lots.only_debtor"
        await reply(interaction, t(lang, key, name=Narrator(state, lang).player(offer[role])))
        return
    if arg != offer_fingerprint(state, offer):
        stored = settings.get("lot_offer_message")
        if interaction.message is not None and stored and stored[0] == interaction.message.id:
            await interaction.response.edit_message(**lots_offer_message(game, state, settings))
        await reply(interaction, t(lang, "lots.changed"))
        return
    await interaction.response.defer()
    result = await act(cog, interaction, game, {"type": action})
    if result is not None:
        await cog.publish(interaction.channel, game, result)  # type: ignore[arg-type]


@game_button("lots_accept")
async def _lots_accept(
    cog: MonopolyCog, interaction: discord.Interaction, game: int, seq: int, arg: str | None
) -> None:
    await _answer_lots(cog, interaction, game, arg, "creditor", "accept_lots")


@game_button("lots_decline")
async def _lots_decline(
    cog: MonopolyCog, interaction: discord.Interaction, game: int, seq: int, arg: str | None
) -> None:
    await _answer_lots(cog, interaction, game, arg, "creditor", "decline_lots")


@game_button("lots_withdraw")
async def _lots_withdraw(
    cog: MonopolyCog, interaction: discord.Interaction, game: int, seq: int, arg: str | None
) -> None:
    await _answer_lots(cog, interaction, game, arg, "debtor", "decline_lots")


# -- closing public offers --------------------------------------------------------------


async def post_new_offers(
    cog: MonopolyCog,
    channel: discord.abc.Messageable,
    game: int,
    state: GameState,
    settings: dict[str, Any],
    events: list[dict[str, Any]],
) -> None:
    """Post the public message of every trade just proposed, with its closing time.

    Called by ``publish`` (under its lock); ``settings`` is changed in place and saved
    by ``publish``.
    """
    for event in events:
        if event["type"] != "trade_proposed":
            continue
        trade = _find_trade(state, event["trade"])
        if trade is None:
            continue  # answered in the same breath (a counter-offer's original)
        key = str(trade["id"])
        closes = await cog.deadlines.trade_offered(game, settings, trade["id"])
        if closes is not None:
            settings["trade_closes"] = {**settings.get("trade_closes", {}), key: closes}
        message = await channel.send(**offer_message(game, state, settings, trade))
        settings["trade_messages"] = {**settings.get("trade_messages", {}), key: message.id}


async def close_offer_messages(
    channel: discord.abc.Messageable,
    state: GameState,
    settings: dict[str, Any],
    events: list[dict[str, Any]],
) -> None:
    """Remove the buttons of offers that are settled, with a line saying how they ended.

    Called by ``publish`` (under its lock) after every action, whatever ended the offer:
    an answer, a counter-offer, a bankruptcy, or a debt paid in cash. ``settings`` is
    changed in place and saved by ``publish``.
    """
    lang = settings["lang"]
    messages = dict(settings.get("trade_messages", {}))
    # A finished game answers no offer, even one still listed in the state.
    open_ids = {str(tr["id"]) for tr in state.trades} if state.phase != "over" else set()
    for key, message_id in list(messages.items()):
        if key in open_ids:
            continue
        status = _trade_status(events, int(key))
        await _close(channel, message_id, t(lang, f"trade.status.{status}"))
        del messages[key]
    if "trade_messages" in settings:
        settings["trade_messages"] = messages
    closes = settings.get("trade_closes", {})
    if closes:
        settings["trade_closes"] = {k: v for k, v in closes.items() if k in open_ids}
    stored = settings.get("lot_offer_message")
    if stored is not None and (state.lot_offer is None or state.phase == "over"):
        message_id, debtor = stored
        status = "lapsed"
        for event in events:
            if event["type"] == "lots_accepted":
                status = "accepted"
            elif event["type"] == "lots_declined":
                status = "withdrawn" if event["player"] == debtor else "declined"
        await _close(channel, message_id, t(lang, f"trade.status.{status}"))
        settings.pop("lot_offer_message", None)


def _trade_status(events: list[dict[str, Any]], trade_id: int) -> str:
    proposed_by = {e["from"] for e in events if e["type"] == "trade_proposed"}
    for event in events:
        if event.get("trade") != trade_id:
            continue
        if event["type"] == "trade_done":
            return "accepted"
        if event["type"] == "trade_cancelled":
            return "withdrawn"
        if event["type"] == "trade_declined":
            return "countered" if event["player"] in proposed_by else "declined"
    return "lapsed"


async def _close(channel: discord.abc.Messageable, message_id: int, text: str) -> None:
    try:
        await channel.get_partial_message(message_id).edit(content=text, view=None)  # type: ignore[attr-defined]
    except discord.HTTPException:
        log.warning("Could not close offer message %s", message_id, exc_info=True)
