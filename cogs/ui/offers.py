"""Public offers: a trade offer, and lots a debtor offers a creditor as part payment.

An offer's buttons carry a fingerprint of the terms as shown (the trade and whether its lots
are mortgaged): if a lot was mortgaged or lifted after the offer was drawn, Accept shows the
new terms instead of accepting something the partner has not seen.
"""

from __future__ import annotations

import hashlib
import json
from typing import Any

import discord

from bot.engine import trades as engine_trades
from bot.engine.errors import IllegalAction
from bot.engine.legal import may_offer_lots
from bot.engine.state import GameState
from bot.i18n import t
from bot.settings import GameSettings
from cogs.ui.ids import GameButton
from cogs.ui.text import Narrator, fit_lines, mentions, theme_of

OFFER_COLOUR = 0x1565C0


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
    # A field's value: 28 lots of a theme's 40-character names would not fit.
    return fit_lines(lines, lang)


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


def find_trade(state: GameState, trade_id: int | None) -> dict[str, Any] | None:
    return next((tr for tr in state.trades if tr["id"] == trade_id), None)


def interest_notes(narrator: Narrator, trade: dict[str, Any], *, you: int | None) -> list[str]:
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


def offer_message(
    game: int, state: GameState, settings: GameSettings, trade: dict[str, Any]
) -> dict[str, Any]:
    """The public trade offer: mention, terms, and the partner's / proposer's buttons."""
    lang = settings.lobby.lang
    narrator = Narrator(state, lang, theme_of(settings))
    giver, taker = narrator.player(trade["from"]), narrator.player(trade["to"])
    description = t(lang, "trade.offer_text", **{"from": giver, "to": taker})
    if trade.get("counter_of") is not None:
        # A counter-offer names the offer it answers (and replaced).
        description = t(lang, "trade.counter_to", id=trade["counter_of"]) + "\n" + description
    embed = discord.Embed(
        title=t(lang, "trade.offer_title", id=trade["id"]),
        description=description,
        colour=OFFER_COLOUR,
    )
    embed.add_field(
        name=t(lang, "trade.gives", name=giver), value=side_lines(narrator, trade["give"])
    )
    embed.add_field(
        name=t(lang, "trade.gives", name=taker), value=side_lines(narrator, trade["get"])
    )
    notes = interest_notes(narrator, trade, you=None)
    if notes:
        embed.add_field(name=t(lang, "trade.interest"), value="\n".join(notes), inline=False)
    closes = settings.play.trade_closes.get(str(trade["id"]))
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


def lots_offer_message(game: int, state: GameState, settings: GameSettings) -> dict[str, Any]:
    """The public part-payment offer to the creditor, with Accept / Decline / Withdraw."""
    lang = settings.lobby.lang
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
