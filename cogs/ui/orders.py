"""A player's standing orders as they read them (``/monopoly orders``)."""

from __future__ import annotations

from typing import Any

from bot.engine.state import GameState
from bot.i18n import t
from bot.settings import GameSettings
from cogs.ui.lots import display_names
from cogs.ui.text import Narrator, theme_of

#: Discord's limit of a message's content.
CONTENT_MAX = 2000


def describe_order(
    state: GameState, settings: GameSettings, order: dict[str, Any], lang: str
) -> str:
    """One line per standing order, or that there are none; with how to change them."""
    narrator = Narrator(state, lang, theme_of(settings))
    lines: list[str] = []
    buy = order.get("buy")
    if buy == "never":
        lines.append(t(lang, "orders.buy_never"))
    elif isinstance(buy, dict):
        lines.append(t(lang, "orders.buy_keep", keep=narrator.money(buy.get("keep", 0))))
    names = display_names(state.board, settings)
    for bid in order.get("bids", []):
        what = _target_name(bid.get("target", ""), names, lang)
        limit = bid.get("limit")
        if isinstance(limit, int):
            lines.append(t(lang, "orders.bid", target=what, limit=narrator.money(limit)))
        else:
            lines.append(t(lang, "orders.bid_price", target=what))
    if order.get("jail") in ("pay", "card", "roll"):
        lines.append(t(lang, f"orders.jail.{order['jail']}"))
    if order.get("decline_trades"):
        lines.append(t(lang, "orders.decline_trades"))
    if order.get("auto_end"):
        lines.append(t(lang, "orders.auto_end"))
    head = t(lang, "orders.title") if lines else t(lang, "orders.none")
    text = "\n".join([head, *lines, t(lang, "orders.hint")])
    return text if len(text) <= CONTENT_MAX else text[: CONTENT_MAX - 1] + "…"


def _target_name(target: str, names: list[str], lang: str) -> str:
    if target.startswith("lot:") and target[4:].isdigit() and int(target[4:]) < len(names):
        return names[int(target[4:])]
    if target.startswith("group:"):
        return t(lang, "orders.group", group=t(lang, f"group.{target[6:]}"))
    return t(lang, "orders.any_lot")
