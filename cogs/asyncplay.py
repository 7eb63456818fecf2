"""Play over days: the time settings, pause and resume, vacation, reminders and votes.

``/monopoly settings`` shows the time settings of a game; the host changes them (deadline,
reminders, auction and offer times, missed deadlines before a vote, digest, length, live
or sealed bids). ``/monopoly pause`` and ``resume`` stop and restart every timer;
``/monopoly vacation`` lets the computer play one's seat; ``/monopoly remind`` nudges the
players the game waits on; ``/monopoly notify`` turns reminders by DM on or off. The vote on
an absent player's seat is answered with its buttons here. The rules of all this are
Discord-free (``bot/asyncplay``); the timers fire in ``cogs/timers.py``.
"""

from __future__ import annotations

from typing import Any

import discord
from discord import app_commands

from bot.asyncplay import absence
from bot.asyncplay.timing import (
    DEADLINE_CHOICES,
    DIGEST_CHOICES,
    GAME_LENGTH_CHOICES,
    JOKERS_MAX,
    MISSED_LIMIT_MAX,
    OFFER_CHOICES,
    QUIET_MAX_CHOICES,
    label,
)
from bot.engine.errors import IllegalAction
from bot.i18n import t
from bot.settings import GameSettings
from bot.store.kinds import waiting_for
from cogs.core.click import Click
from cogs.core.dispatch import may_host
from cogs.core.notify import remind
from cogs.core.services import FeatureCog
from cogs.ui.listings import CARD_SETTINGS, settings_lines
from cogs.ui.lobby import lobby_message
from cogs.ui.vote import vote_message

#: English names of the time choices (German ones come from the catalog, ``choice.<v>``).
CHOICE_NAMES = {
    "off": "off",
    "auto": "as long as the turn deadline",
    "1m": "1 minute",
    "5m": "5 minutes",
    "15m": "15 minutes",
    "1h": "1 hour",
    "2h": "2 hours",
    "4h": "4 hours",
    "12h": "12 hours",
    "24h": "24 hours",
    "48h": "48 hours",
    "72h": "72 hours",
    "7d": "7 days",
    "6": "06:00 UTC",
    "8": "08:00 UTC",
    "12": "12:00 UTC",
    "18": "18:00 UTC",
    "20": "20:00 UTC",
}


def _choices(values: tuple[str, ...], **names: str) -> list[app_commands.Choice[str]]:
    return [
        app_commands.Choice(name=names.get(value, CHOICE_NAMES[value]), value=value)
        for value in values
    ]


class AsyncPlayCog(FeatureCog, name="AsyncPlay"):
    """Settings, pause, vacation, reminders and the vote on absent players."""

    @app_commands.command(
        name="settings", description="Time settings of the game; the host changes them"
    )
    @app_commands.describe(
        deadline="Time each player has for a move before the bot plays it safe",
        reminders="Remind at half time and shortly before the deadline",
        auction_time="How long an auction stays open",
        trade_time="How long a trade offer stays open",
        missed_limit="Missed deadlines in a row before the others vote (0: never)",
        digest="A daily summary of the game at this hour (UTC)",
        time_limit="How long a game with a time limit lasts",
        auction_mode="Live bidding or sealed bids (before the start only)",
        quiet_hours="Move deadlines out of the players' quiet hours (/monopoly me)",
        quiet_max="The longest quiet hours may move a deadline",
        jokers="Jokers per player: a missed deadline spends one and is extended",
    )
    @app_commands.choices(
        deadline=_choices(DEADLINE_CHOICES),
        auction_time=_choices(OFFER_CHOICES),
        trade_time=_choices(OFFER_CHOICES),
        digest=_choices(DIGEST_CHOICES, off="no digest"),
        time_limit=_choices(GAME_LENGTH_CHOICES),
        quiet_max=_choices(QUIET_MAX_CHOICES),
        auction_mode=[
            app_commands.Choice(name="live bidding", value="live"),
            app_commands.Choice(name="sealed bids", value="sealed"),
        ],
    )
    async def settings(
        self,
        interaction: discord.Interaction,
        deadline: str | None = None,
        reminders: bool | None = None,
        auction_time: str | None = None,
        trade_time: str | None = None,
        missed_limit: app_commands.Range[int, 0, MISSED_LIMIT_MAX] | None = None,
        digest: str | None = None,
        time_limit: str | None = None,
        auction_mode: str | None = None,
        quiet_hours: bool | None = None,
        quiet_max: str | None = None,
        jokers: app_commands.Range[int, 0, JOKERS_MAX] | None = None,
    ) -> None:
        """Show the time settings; the host changes them (in the lobby or during the game)."""
        click = self.core.dispatcher.command(interaction)
        given = {
            "deadline": deadline,
            "reminders": reminders,
            "auction_time": auction_time,
            "trade_time": trade_time,
            "missed_limit": missed_limit,
            "digest": digest,
            "time_limit": time_limit,
            "auction_mode": auction_mode,
            "quiet_hours": quiet_hours,
            "quiet_max": quiet_max,
            "jokers": jokers,
        }
        changes = {k: v for k, v in given.items() if v is not None}
        row = await click.game_here()
        lang = click.lang
        if GameSettings.of(row).lobby.is_cards and set(changes) - set(CARD_SETTINGS):
            raise IllegalAction("board_only")
        if not changes:
            await click.reply("\n".join(settings_lines(row, lang)))
            return
        if not may_host(interaction, GameSettings.of(row)):
            raise IllegalAction("host_only")
        mode = changes.pop("auction_mode", None)
        if mode is not None and row.state is not None:
            raise IllegalAction("auction_mode_fixed")
        planner = self.core.planner

        async def change(fresh: Any, settings: GameSettings) -> Any:
            settings.timing.choose(changes)
            if mode is not None:
                lobby = settings.lobby
                lobby.overrides = {**lobby.overrides, "sealed_auctions": mode == "sealed"}
                lobby.rules()  # a known field: cannot fail
            # Planning timers again is safe if a conflict runs this twice (keyed timers).
            if fresh.state is not None:
                if "time_limit" in changes:
                    await planner.time_limit_changed(row.id, settings)
                if "digest" in changes and not settings.play.paused:
                    await planner.plan_digest(row.id, settings)
                await planner.reschedule(row.id, fresh.state, settings)
            return fresh.state, settings

        state, settings = await click.service.edit_settings(row.id, change)
        lobby_id = settings.records.lobby_message
        if state is None and lobby_id:
            await self.core.publisher.edit(
                row.id,
                click.channel,
                lobby_id,
                "lobby",
                **lobby_message(row.id, settings),
            )
        game_lang = settings.lobby.lang
        changed = [
            t(game_lang, f"timing.{name}", value=label(game_lang, name, value))
            for name, value in changes.items()
        ]
        if mode is not None:
            changed.append(
                t(game_lang, "timing.auction_mode", value=t(game_lang, f"timing.mode.{mode}"))
            )
        text = t(game_lang, "timing.changed", host=interaction.user.display_name)
        await click.reply(text + "\n" + "\n".join(changed), private=False)

    async def _pause(self, interaction: discord.Interaction, paused: bool) -> None:
        click = self.core.dispatcher.command(interaction)
        row = await click.game_here(running=True)
        if not may_host(interaction, GameSettings.of(row)):
            raise IllegalAction("host_only")
        planner = self.core.planner

        async def change(fresh: Any, settings: GameSettings) -> Any:
            play = settings.play
            if play.paused == paused:
                return None  # nothing to change
            now = int(planner.now().timestamp())
            if paused:
                play.paused = True
                play.paused_at = now
                await planner.remember_timers(row.id, settings)  # cancelled once saved
            else:
                play.paused = False
                paused_at = play.paused_at
                del play.paused_at
                shift = now - (paused_at if paused_at is not None else now)
                started = play.started_at
                if started is not None:  # a time-limited game: its end moves with the pause
                    play.started_at = int(started + shift)
                await planner.resume(row.id, fresh.state, settings)  # keyed: safe twice
            return settings

        settings = await click.service.edit_settings(row.id, change)
        if settings is None:
            key = "pause.already" if paused else "pause.not_paused"
            await click.reply(t(click.lang, key))
            return
        if paused:
            await self.core.store.cancel_timers(row.id)
        game_lang = settings.lobby.lang
        key = "pause.paused" if paused else "pause.resumed"
        await click.reply(t(game_lang, key, host=interaction.user.display_name), private=False)

    @app_commands.command(name="pause", description="Pause the game: no deadlines, no moves (host)")
    async def pause(self, interaction: discord.Interaction) -> None:
        """The host pauses the game."""
        await self._pause(interaction, True)

    @app_commands.command(name="resume", description="Go on with a paused game (host)")
    async def resume(self, interaction: discord.Interaction) -> None:
        """The host resumes the game; deadlines start afresh."""
        await self._pause(interaction, False)

    @app_commands.command(
        name="vacation", description="Let the computer play for you until you are back"
    )
    @app_commands.describe(away="On: the computer plays your seat; off: you play again")
    async def vacation(self, interaction: discord.Interaction, away: bool = True) -> None:
        """Hand one's seat to the computer, or take it back."""
        click = self.core.dispatcher.command(interaction)
        row = await click.game_here(running=True)
        seat = click.seat_of(row.state)
        if seat is None or absence.is_out(row.state.players[seat]):
            raise IllegalAction("not_a_player")

        async def change(fresh: Any, settings: GameSettings) -> Any:
            if not absence.set_vacation(settings, seat, away):
                return None
            await self.core.planner.reschedule(row.id, fresh.state, settings)  # keyed
            return settings

        settings = await click.service.edit_settings(row.id, change)
        if settings is None:
            key = "vacation.already_away" if away else "vacation.not_away"
            await click.reply(t(click.lang, key))
            return
        game_lang = settings.lobby.lang
        name = row.state.players[seat].name
        text = t(game_lang, "vacation.away" if away else "vacation.back", player=name)
        await click.reply(text, private=False)

    @app_commands.command(name="remind", description="Nudge the player the game is waiting for")
    async def remind(self, interaction: discord.Interaction) -> None:
        """Mention (and DM, if they opted in) the players the game waits on."""
        click = self.core.dispatcher.command(interaction)
        row = await click.game_here(running=True)
        state = row.state
        me = click.seat_of(state)
        if me is None:
            raise IllegalAction("not_a_player")
        if GameSettings.of(row).play.paused:
            raise IllegalAction("game_paused")
        computer = absence.computer_seats(GameSettings.of(row))
        waiting = [s for s in waiting_for(state) if s not in computer and s != me]
        if not waiting:
            await click.reply(t(click.lang, "remind.nobody"))
            return
        now = self.core.planner.now().timestamp()

        def change(fresh: Any, settings: GameSettings) -> Any:
            again = absence.remind_again_at(settings, now)
            if again is not None:
                raise IllegalAction("remind_too_soon", again=f"<t:{int(again)}:R>")
            settings.play.last_remind = int(now)
            return fresh

        fresh = await click.service.edit_settings(row.id, change)
        await click.reply(t(click.lang, "remind.sent"))
        channel = await self.core.publisher.channel(row.channel_id)
        if channel is not None:
            by = state.players[me].name
            await remind(self.core, fresh, channel, waiting, "remind.text", by=by)

    @app_commands.command(name="notify", description="Reminders by direct message, on or off")
    @app_commands.describe(
        enabled="On: the bot reminds you by direct message as well",
        turns="On: a direct message also whenever it becomes your turn",
        next_up="On: a direct message when the player before you starts their turn",
        last="On: a direct message when the whole table waits only on you (auction, vote)",
    )
    @app_commands.rename(next_up="next")
    async def notify(
        self,
        interaction: discord.Interaction,
        enabled: bool = True,
        turns: bool | None = None,
        next_up: bool | None = None,
        last: bool | None = None,
    ) -> None:
        """Opt in to (or out of) reminders, turn messages and pings by direct message.

        An option left out keeps the earlier choice; turning ``enabled`` off stops all.
        ``next`` and ``last`` are the pings of ``cogs/core/pings.py``.
        """
        click = self.core.dispatcher.command(interaction)
        store = self.core.store
        prefs = await store.user_prefs(interaction.user.id)
        chosen = {"turn_dm": turns, "next_dm": next_up, "last_dm": last}
        changed = {**prefs, "dm": enabled, "lang": click.lang}
        for key, value in chosen.items():
            changed[key] = enabled and (bool(prefs.get(key)) if value is None else value)
        await store.set_user_prefs(interaction.user.id, changed)
        text = t(click.lang, "notify.on" if enabled else "notify.off")
        if enabled:
            text += "\n" + t(
                click.lang, "notify.turns_on" if changed["turn_dm"] else "notify.turns_off"
            )
            # The pings are said when on, or when just chosen (a short answer otherwise).
            for key, words in (("next_dm", "notify.next"), ("last_dm", "notify.last")):
                if changed[key] or chosen[key] is not None:
                    text += "\n" + t(click.lang, f"{words}_on" if changed[key] else f"{words}_off")
        await click.reply(text)

    # -- the vote ---------------------------------------------------------------------------

    async def vote(self, click: Click) -> None:
        """A player votes on an absent player's seat, or the absent player is back."""

        async def change(fresh: Any, settings: GameSettings) -> Any:
            state = fresh.state
            if state is None:
                raise IllegalAction("vote_closed")
            ballot = absence.cast(state, settings, click.seat_of(state), click.arg)
            if ballot.result == "computer":
                await self.core.planner.reschedule(click.game, state, settings)  # keyed
            return state, settings, ballot

        state, settings, ballot = await click.service.edit_settings(click.game, change)
        if ballot.result is None:
            message = vote_message(click.game, state, settings, ballot.seat, ballot.ballots)
            await click.edit(**message)
            return
        game_lang = settings.lobby.lang
        name = state.players[ballot.seat].name
        await click.edit(content=t(game_lang, f"vote.{ballot.result}", player=name), view=None)
        if ballot.result == "remove":
            try:
                await click.act_as_host({"type": "remove_player", "target": ballot.seat})
            except IllegalAction:
                # e.g. in the middle of an auction: the table may vote again after it.
                await click.reply(t(game_lang, "vote.remove_later", player=name), private=False)
