"""The Discord layer as one extension: the core, every feature cog, the ``/monopoly`` group.

Loaded by :class:`bot.app.MonopolyBot` (``bot.app.EXTENSIONS``). Which cog owns what:

* ``cogs/lobby.py`` — ``/monopoly start``, the lobby, computer seats, house rules;
* ``cogs/play.py`` — the turn message's buttons, the auction, ``status``/``board``/…;
* ``cogs/property.py`` — building, mortgages, debts, received mortgages, rent claims;
* ``cogs/trades.py`` — ``/monopoly trade``, offers, lots offered to a creditor;
* ``cogs/asyncplay.py`` — settings, pause, vacation, remind, notify, votes;
* ``cogs/timers.py`` — what deadlines, reminders, computer moves and closing times do;
* ``cogs/cardgame.py`` — MONOPOLY Das Kartenspiel's hand;
* ``cogs/admin.py`` — server themes and boards, ``end``, ``kick``;
* ``cogs/stats.py`` — ``games``, ``stats``, ``help``;
* ``cogs/fairness.py`` — ``verify`` (dice you can check);
* ``cogs/history.py`` — ``history``: finished games, recaps, the replay viewer;
* ``cogs/handover.py`` — ``handover``: a seat handed to another member;
* ``cogs/profile.py`` — ``me``: a member's time zone and quiet hours;
* ``cogs/orders.py`` — ``orders``: standing orders;
* ``cogs/members.py`` — ``me games``: a member's games on every server; following a game.
"""

from __future__ import annotations

from typing import Any

from cogs.admin import AdminCog
from cogs.asyncplay import AsyncPlayCog
from cogs.cardgame import CardGameCog
from cogs.core.services import Core, CoreCog, attach
from cogs.fairness import FairnessCog
from cogs.handover import HandoverCog
from cogs.history import HistoryCog
from cogs.lobby import LobbyCog
from cogs.members import MembersCog
from cogs.orders import OrdersCog
from cogs.play import PlayCog
from cogs.profile import ProfileCog
from cogs.property import PropertyCog
from cogs.stats import StatsCog
from cogs.timers import TimersCog
from cogs.trades import TradesCog
from cogs.ui.ids import GameButton, PanelButton, PanelSelect

FEATURES = (
    LobbyCog,
    PlayCog,
    PropertyCog,
    TradesCog,
    AsyncPlayCog,
    TimersCog,
    CardGameCog,
    AdminCog,
    StatsCog,
    FairnessCog,
    HistoryCog,
    HandoverCog,
    ProfileCog,
    OrdersCog,
    MembersCog,
)


async def setup(bot: Any) -> None:
    """Load the Discord layer; the bot carries a ``service`` and its ``tuning``."""
    tuning = getattr(bot, "tuning", None)
    options = tuning.core_options() if tuning is not None else {}
    core = Core(bot, bot.service, **options)
    attach(bot, core)
    bot.add_dynamic_items(GameButton, PanelButton, PanelSelect)
    await bot.add_cog(CoreCog(core))
    for feature in FEATURES:
        await bot.add_cog(feature(core))
    bot.tree.add_command(core.group)
    timers = bot.get_cog("Timers")
    bot.timer_handler = timers.fire
