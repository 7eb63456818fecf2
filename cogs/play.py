"""Turn play of the board game: the turn message's buttons, the auction, giving up, and the
commands that show where one stands (``status``, ``board``, ``players``, ``rules``, ``log``).

Every button here is an engine action of the clicking player; the dispatcher has already
checked that they sit at the table (and, where the route says so, that the button belongs
to the state shown). Building, mortgages and debts are in ``cogs/property.py``.
"""

from __future__ import annotations

from typing import Any

import discord
from discord import app_commands

from bot.engine.auctions import next_minimum
from bot.engine.errors import IllegalAction
from bot.engine.state import GameState
from bot.i18n import t
from bot.rules_summary import describe_rules
from bot.settings import GameSettings
from bot.store import ApplyResult, StaleAction
from bot.text_input import parse_amount
from cogs.core.click import Click
from cogs.core.services import FeatureCog
from cogs.ui.forms import BidForm, auction_key
from cogs.ui.ids import GameButton
from cogs.ui.text import Narrator, board_of, theme_of
from cogs.ui.turn import board_file, wealth_table

#: Buttons that map straight to an engine action of the clicking player.
SIMPLE_ACTIONS: dict[str, dict[str, Any]] = {
    "roll": {"type": "roll"},
    "pay_bail": {"type": "pay_bail"},
    "use_jail_card": {"type": "use_jail_card"},
    "buy": {"type": "buy"},
    "decline": {"type": "decline"},
    "choose_pay": {"type": "choose", "option": "pay"},
    "choose_draw": {"type": "choose", "option": "draw"},
    "keep_mortgages": {"type": "decide_mortgages", "lift": []},
    "end_turn": {"type": "end_turn"},
    "declare_bankruptcy": {"type": "declare_bankruptcy"},
}
#: Old turn messages had per-square buttons; their clicks still work.
SQUARE_ACTIONS = ("build", "sell_building", "mortgage", "unmortgage")
LOG_LIMIT = 1900
#: How often a typed bid is tried when other bids keep coming first.
BID_ATTEMPTS = 5


class PlayCog(FeatureCog, name="Play"):
    """The board game's turn buttons and the player's views of the game."""

    # -- buttons ------------------------------------------------------------------------

    async def simple(self, click: Click) -> None:
        """A decision button of the turn message (roll, buy, bail, end turn, …)."""
        assert click.ref is not None
        action = dict(SIMPLE_ACTIONS[click.ref.action])
        await click.act(action, expected_seq=click.ref.seq)

    async def lift_all(self, click: Click) -> None:
        """Lift every mortgaged lot just received."""
        state = click.state
        assert isinstance(state, GameState) and click.ref is not None
        lift = state.mortgage_choices[0]["squares"] if state.mortgage_choices else []
        action = {"type": "decide_mortgages", "lift": lift}
        await click.act(action, expected_seq=click.ref.seq)

    def _same_auction(self, click: Click) -> GameState:
        """The game, if the click came from the message of the auction under way.

        Bids are coalesced into one edit of the auction message a second, so its buttons
        may show a state a few bids old: a click there still counts (``+10`` raises the
        highest bid as it is now; the engine refuses the leader's own second click). A
        click on any other, older message is out of date.
        """
        state = click.state
        assert isinstance(state, GameState) and click.ref is not None
        if click.ref.seq == state.seq:
            return state
        message = click.interaction.message
        current = click.settings.records.auction_message
        if state.auction is None or message is None or message.id != current:
            raise StaleAction(click.game, click.ref.seq or 0, state.seq)
        return state

    async def raise_bid(self, click: Click) -> None:
        """+1 / +10 / +50 / +100 on the auction message: over the highest bid as it is now."""
        step = int(click.arg) if click.arg and click.arg.isascii() and click.arg.isdigit() else 1
        for attempt in range(1, BID_ATTEMPTS + 1):
            state = self._same_auction(click)
            if state.auction is None:
                raise IllegalAction("no_auction")
            base = state.auction["high"] if state.auction["leader"] is not None else 0
            amount = max(base + step, next_minimum(state))
            try:
                # On exactly the auction checked: a bid that came first is read again,
                # never a later auction's.
                await click.act({"type": "bid", "amount": amount}, expected_seq=state.seq)
                return
            except StaleAction:
                if attempt == BID_ATTEMPTS:
                    raise
                await click.load()

    async def pass_auction(self, click: Click) -> None:
        """ "Pass" on the auction message."""
        for attempt in range(1, BID_ATTEMPTS + 1):
            state = self._same_auction(click)
            try:
                await click.act({"type": "auction_pass"}, expected_seq=state.seq)
                return
            except StaleAction:
                if attempt == BID_ATTEMPTS:
                    raise
                await click.load()

    async def bid_form(self, click: Click) -> None:
        """ "Bid …" (or a sealed bid): the form for an amount; it must be the first answer.

        The form names the auction it is opened for (``auction_key``): sent after that
        auction closed it is refused, never placed in a later one.
        """
        assert click.ref is not None
        row = await click.load()
        if not isinstance(row.state, GameState) or row.state.auction is None:
            raise IllegalAction("no_auction")
        self._same_auction(click)  # a copy of an older auction message is out of date
        message = click.interaction.message
        # The message clicked is the auction's (just checked): it names the auction.
        key = auction_key(row.state.auction, message.id if message is not None else 0)
        sealed = click.ref.action == "sealed_modal"
        form = BidForm(click.game, click.ref.seq or 0, click.lang, auction=key, sealed=sealed)
        await click.form(form)

    async def _bid_in_auction(self, click: Click, action: dict[str, Any]) -> ApplyResult:
        """Apply a typed bid, if the auction its form names is still under way.

        The check and the bid are one step: the bid is applied to exactly the state the
        check saw (``expected_seq``); if another bid came first, both are done again
        with the new state (a busy auction is no reason to refuse a bid).
        """
        for attempt in range(1, BID_ATTEMPTS + 1):
            row = await click.load()
            state = row.state
            auction = state.auction if isinstance(state, GameState) else None
            current = GameSettings.of(row).records.auction_message
            if auction is None or current is None or click.arg != auction_key(auction, current):
                raise IllegalAction("auction_over")
            try:
                return await click.act(action, expected_seq=state.seq)  # type: ignore[union-attr]
            except StaleAction:
                if attempt == BID_ATTEMPTS:
                    raise
        raise AssertionError("unreachable")  # the loop returns or raises

    async def bid(self, click: Click) -> None:
        """A typed bid (live) or sealed maximum; only the bidder learns a sealed amount."""
        assert click.ref is not None
        text = click.fields.get("amount", "")
        amount = parse_amount(text)
        if amount is None:
            await click.reply(t(click.lang, "error.bad_number", text=text[:40]))
            return
        if click.ref.action == "bid":
            await click.defer()
            await self._bid_in_auction(click, {"type": "bid", "amount": amount})
            return
        await click.defer(private=True)
        result = await self._bid_in_auction(click, {"type": "sealed_bid", "amount": amount})
        shown = Narrator(result.state, click.lang).money(amount)  # type: ignore[arg-type]
        await click.reply(t(click.lang, "auction.sealed_confirm", amount=shown))

    async def resign(self, click: Click) -> None:
        """ "Give up": asked again privately, with a button that stays valid meanwhile."""
        view = discord.ui.View(timeout=None)
        view.add_item(
            GameButton(
                click.game,
                click.ref.seq if click.ref and click.ref.seq is not None else 0,
                "resign_confirm",
                label=t(click.lang, "button.resign_confirm"),
                style=discord.ButtonStyle.danger,
            )
        )
        await click.reply(t(click.lang, "resign.confirm"), view=view)

    async def resign_confirm(self, click: Click) -> None:
        """Giving up, confirmed."""
        await click.act({"type": "resign"})

    async def square_action(self, click: Click) -> None:
        """A per-square button of an older turn message (build, mortgage, …)."""
        assert click.ref is not None
        if not click.arg or not click.arg.isdigit():
            raise IllegalAction("unknown_button")
        await click.act({"type": click.ref.action, "square": int(click.arg)})
        await click.reply(t(click.lang, "manage.done"))

    # -- commands -----------------------------------------------------------------------

    @app_commands.command(name="status", description="Your cash, lots and cards (only you see it)")
    async def status(self, interaction: discord.Interaction) -> None:
        """Show the caller's own position, privately."""
        click = self.core.dispatcher.command(interaction)
        row = await click.game_here(running=True, cards=False)
        state = row.state
        assert isinstance(state, GameState)
        lang = click.lang
        seat = click.seat_of(state)
        if seat is None:
            raise IllegalAction("not_a_player")
        narrator = Narrator(state, lang, theme_of(GameSettings.of(row)))
        player = state.players[seat]
        lots = [
            narrator.square(i)
            + (" (H)" if state.mortgaged[i] else "")
            + (f" 🏠×{state.houses[i]}" if 0 < state.houses[i] < 5 else "")
            + (" 🏨" if state.houses[i] == 5 else "")
            for i, owner in enumerate(state.owner)
            if owner == seat
        ]
        debts = [narrator.money(d["amount"]) for d in state.debts if d["debtor"] == seat]
        text = t(
            lang,
            "status.text",
            cash=narrator.money(player.cash),
            square=narrator.whereabouts(seat),
            lots=", ".join(lots) or "–",
            cards=len(player.jail_cards),
            debts=", ".join(debts) or "–",
        )
        await click.reply(text)

    @app_commands.command(name="board", description="Post the current board")
    async def board(self, interaction: discord.Interaction) -> None:
        """Post the board image."""
        click = self.core.dispatcher.command(interaction)
        row = await click.game_here(running=True, cards=False)
        await interaction.response.defer()
        file = await board_file(row.state, GameSettings.of(row))  # type: ignore[arg-type]
        await interaction.followup.send(file=file)

    @app_commands.command(name="players", description="Cash and net worth of every player")
    async def players(self, interaction: discord.Interaction) -> None:
        """The net-worth table."""
        click = self.core.dispatcher.command(interaction)
        row = await click.game_here(running=True, cards=False)
        settings = GameSettings.of(row)
        settings.lobby.lang = click.lang  # this answer is private: in the user's language
        await click.reply(wealth_table(row.state, settings))  # type: ignore[arg-type]

    @app_commands.command(name="rules", description="The rules of this game")
    async def rules(self, interaction: discord.Interaction) -> None:
        """The active preset and settings."""
        click = self.core.dispatcher.command(interaction)
        row = await click.game_here(cards=False)
        settings = GameSettings.of(row)
        if settings.lobby.is_cards:
            raise IllegalAction("board_only")
        if isinstance(row.state, GameState):
            rules, board = row.state.rules, row.state.board
        else:
            rules = settings.lobby.rules()
            board = board_of(settings)  # type: ignore[assignment]
        await click.reply("\n".join(describe_rules(rules, click.lang, board))[:1900])

    @app_commands.command(name="log", description="The latest events of the game")
    async def show_log(self, interaction: discord.Interaction) -> None:
        """The last lines of the turn message (only you see it)."""
        click = self.core.dispatcher.command(interaction)
        row = await click.game_here(cards=False)
        text = ""
        for line in reversed(list(GameSettings.of(row).records.turn_lines)):
            if len(text) + len(line) + 1 > LOG_LIMIT:
                break
            text = line + ("\n" + text if text else "")
        await click.reply(text or t(click.lang, "log.empty"))
