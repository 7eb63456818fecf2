"""``/monopoly me orders``: standing orders, set privately, shown on request, revocable.

A seated player of the board game in this channel decides in advance: buy when the price
leaves enough cash (or never), bid up to an amount on a lot, a colour group or any lot,
what to do in jail, decline every trade offer, end the turn automatically. The rules of
orders are ``bot/asyncplay/orders.py``; they act through the ``order`` timer
(``cogs/timers.py``) the moment the game waits on the player. Saving an order plans the
game's timers again, so an order that applies right now acts at once.
"""

from __future__ import annotations

from typing import Any

import discord
from discord import app_commands

from bot.asyncplay import orders
from bot.engine.errors import IllegalAction
from bot.engine.state import GameState
from bot.i18n import normalise_language, t
from bot.settings import GameSettings
from cogs.core.services import FeatureCog
from cogs.ui.ids import clip
from cogs.ui.lots import display_names
from cogs.ui.orders import describe_order

#: Discord shows at most 25 suggestions.
SUGGESTIONS = 25


class OrdersCog(FeatureCog, name="Orders"):
    """A player's standing orders for the board game in this channel."""

    personal = ("orders",)

    @app_commands.command(name="orders", description="Decide in advance: buy, bid, jail, trades")
    @app_commands.describe(
        buy="Buy lots the bank offers: when enough cash is left, never, or no order",
        keep="With buy:keep – the cash that must be left after buying",
        bid_on="Bid automatically in auctions of this lot, group or any lot",
        bid_max="With bid_on – the most to bid (left out: the lot's list price)",
        bid_off="True: no more automatic bids",
        jail="In jail: pay at once, use a card, or roll",
        decline_trades="True: decline every trade offer made to you",
        auto_end="True: end your turn when nothing else is left to do",
        clear="True: revoke all your orders",
    )
    @app_commands.choices(
        buy=[
            app_commands.Choice(name="buy if enough cash is left", value="keep"),
            app_commands.Choice(name="never buy", value="never"),
            app_commands.Choice(name="no order", value="off"),
        ],
        jail=[
            app_commands.Choice(name="pay at once", value="pay"),
            app_commands.Choice(name="use a card", value="card"),
            app_commands.Choice(name="roll", value="roll"),
            app_commands.Choice(name="no order", value="off"),
        ],
    )
    async def orders_command(
        self,
        interaction: discord.Interaction,
        buy: str | None = None,
        keep: app_commands.Range[int, 0, orders.MAX_AMOUNT] | None = None,
        bid_on: app_commands.Range[str, 1, 100] | None = None,
        bid_max: app_commands.Range[int, 1, orders.MAX_AMOUNT] | None = None,
        bid_off: bool | None = None,
        jail: str | None = None,
        decline_trades: bool | None = None,
        auto_end: bool | None = None,
        clear: bool | None = None,
    ) -> None:
        """Show or change the player's standing orders (answered privately)."""
        click = self.core.dispatcher.command(interaction)
        row = await click.game_here(running=True, cards=False)
        state = row.state
        assert isinstance(state, GameState)
        seat = click.service.seat_of(state, interaction.user.id)
        if seat is None:
            raise IllegalAction("not_a_player")
        if state.players[seat].bankrupt or state.phase == "over":
            raise IllegalAction("game_over" if state.phase == "over" else "not_a_player")
        settings = GameSettings.of(row)
        target = None if bid_on is None else _target(state, settings, bid_on)
        if bid_max is not None and target is None:
            raise IllegalAction("orders_bid_needs_target")
        if keep is not None and buy not in (None, "keep"):
            raise IllegalAction("orders_keep_needs_buy")
        given = (buy, keep, bid_on, bid_off, jail, decline_trades, auto_end, clear)
        changing = any(value is not None for value in given)

        def change(fresh: Any, settings: GameSettings) -> Any:
            order = {} if clear else orders.order_of(settings, seat)
            if buy == "off":
                order.pop("buy", None)
            elif buy == "never":
                order["buy"] = "never"
            elif buy == "keep" or keep is not None:
                order["buy"] = {"keep": keep or 0}
            if bid_off:
                order.pop("bids", None)
            if target is not None:
                order = orders.with_bid(order, target, bid_max)
            if jail == "off":
                order.pop("jail", None)
            elif jail is not None:
                order["jail"] = jail
            for key, value in (("decline_trades", decline_trades), ("auto_end", auto_end)):
                if value:
                    order[key] = True
                elif value is False:
                    order.pop(key, None)
            orders.set_order(settings, seat, order)
            return order

        async def replan(fresh: Any, settings: GameSettings) -> None:
            if fresh.state is not None:
                await self.core.planner.reschedule(row.id, fresh.state, settings)

        if changing:
            order = await click.service.edit_settings(row.id, change)
            # Planned once the order is saved, so an order that applies right now acts
            # at once and its timer finds it (keyed: planning twice is harmless).
            await click.service.edit_settings(row.id, replan)
        else:
            order = orders.order_of(settings, seat)
        text = describe_order(state, settings, order, click.lang)
        if changing:
            text = t(click.lang, "orders.saved") + "\n" + text
        await click.reply(text)

    @orders_command.autocomplete("bid_on")
    async def _targets(
        self, interaction: discord.Interaction, current: str
    ) -> list[app_commands.Choice[str]]:
        row = await self.core.store.game_in_channel(interaction.channel_id or 0)
        lang = normalise_language(str(interaction.locale))
        choices = [app_commands.Choice(name=t(lang, "orders.any_lot"), value="any")]
        if row is None or not isinstance(row.state, GameState):
            return choices
        board = row.state.board
        names = display_names(board, GameSettings.of(row))
        needle = current.casefold().strip()
        for group in board.groups:
            label = t(lang, "orders.group", group=t(lang, f"group.{group}"))
            choices.append(app_commands.Choice(name=clip(label, 100), value=f"group:{group}"))
        for square in board.squares:
            if square.is_property:
                name = clip(names[square.index], 100)
                choices.append(app_commands.Choice(name=name, value=f"lot:{square.index}"))
        found = [c for c in choices if needle in c.name.casefold()]
        return found[:SUGGESTIONS]


def _target(state: GameState, settings: GameSettings, text: str) -> str:
    """The bid order's target for what the player chose or typed (a refusal if none)."""
    board = state.board
    raw = text.strip()
    if raw == "any":
        return "any"
    if raw.startswith("group:") and raw[6:] in board.groups:
        return raw
    if raw.startswith("lot:") and raw[4:].isdigit():
        square = int(raw[4:])
        if square < len(board.squares) and board.squares[square].is_property:
            return raw
    names = display_names(board, settings)
    wanted = raw.casefold()
    for square in board.squares:
        if square.is_property and wanted in (
            names[square.index].casefold(),
            square.name.casefold(),
        ):
            return f"lot:{square.index}"
    raise IllegalAction("orders_unknown_target", text=raw[:100])
