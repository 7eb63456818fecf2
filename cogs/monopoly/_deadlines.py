"""Every timer of a game: deadlines, reminders, computer moves, closing times, digest.

Games run for days, so the bot keeps them moving with durable timers (rows of the
store, fired by :class:`bot.scheduler.Scheduler`, see ``bot/app.py``):

* ``deadline`` / ``reminder`` / ``reminder_soon`` — replaced after every action
  (:meth:`Deadlines.reschedule`, keyed, so rescheduling is idempotent). Reminders
  mention the players the game waits on in the channel and send a direct message
  to those who opted in with ``/monopoly notify``. At the deadline the engine's
  safe default (:func:`bot.engine.defaults.default_action`) acts for them and the
  missed deadline is counted (``_absence``).
* ``auto`` — a computer seat (vacation, or chosen by a vote) moves a moment after
  the game starts waiting on it, one action per timer so people can follow.
* ``auction_close`` / ``trade_close`` — an auction or a trade offer ends at its
  closing time (settings ``auction_time`` / ``trade_time``).
* ``time_up`` — the agreed end of a time-limited game (preset ``time_limit``).
* ``digest`` — once a day, the standings (``_digest``).

A turn timer carries the ``seq`` it was made for: a timer for a state that has
moved on does nothing. Paused and finished games fire nothing: a pause cancels the
timers and remembers how much time each had left (:meth:`Deadlines.pause`).
"""

from __future__ import annotations

import logging
from collections.abc import Awaitable, Callable
from datetime import datetime, timedelta
from typing import TYPE_CHECKING, Any

import discord

from bot.cardgame import CardState
from bot.cardgame import default_action as card_default_action
from bot.engine.defaults import default_action as board_default_action
from bot.engine.errors import IllegalAction
from bot.engine.state import GameState
from bot.i18n import t
from bot.store import GameNotRunning, GameRow, GameStore, StaleAction, StoreError, Timer
from bot.store.kinds import AnyState
from cogs.monopoly import _absence, _cards, _digest
from cogs.monopoly._text import mentions, waiting_for
from cogs.monopoly._timing import DURATIONS, duration, next_digest, setting, soon_before

if TYPE_CHECKING:
    from cogs.monopoly._cog import MonopolyCog

log = logging.getLogger(__name__)

#: Turn deadlines offered by ``/monopoly start`` (kept for that command's choices).
DEADLINES: dict[str, int | None] = {"off": None} | {
    key: DURATIONS[key] for key in ("5m", "1h", "12h", "24h", "48h")
}
#: Most default actions one deadline may take (a whole turn needs only a few).
MAX_DEFAULT_STEPS = 30
#: Seconds a computer seat waits before each move, so the table can follow.
AUTO_DELAY = 2.0
#: What a card game uses (no auctions, trades or time limit there).
CARD_TIMERS = ("deadline", "reminder", "reminder_soon", "auto", "digest")
#: Timers that belong to the state of the moment and are planned anew after each action.
TURN_TIMERS = ("deadline", "reminder", "reminder_soon", "auto")


def default_action(state: AnyState, seat: int) -> dict[str, Any] | None:
    """The safe move for an absent player, board game or card game."""
    if isinstance(state, CardState):
        return card_default_action(state, seat)
    return board_default_action(state, seat)


class Deadlines:
    """Schedules and fires the timers of every game."""

    def __init__(
        self,
        cog: MonopolyCog,
        store: GameStore,
        now: Callable[[], datetime],
        wake: Callable[[], None] = lambda: None,
    ) -> None:
        self.cog = cog
        self.store = store
        self.now = now
        self.wake = wake
        self._handlers: dict[str, Callable[[GameRow, Timer], Awaitable[None]]] = {
            "reminder": self._remind,
            "reminder_soon": self._remind,
            "deadline": self._deadline,
            "auto": self._auto,
            "auction_close": self._auction_close,
            "trade_close": self._trade_close,
            "time_up": self._time_up,
            "digest": self._digest,
        }
        # Channels the gateway cache lacks (a game thread archived after a quiet week),
        # fetched once by id; sending in such a thread unarchives it.
        self._fetched: dict[int, discord.abc.Messageable] = {}

    # -- planning ---------------------------------------------------------------------

    async def reschedule(self, game: int, state: AnyState, settings: dict[str, Any]) -> None:
        """Plan the turn timers for the game as it is now (after every action).

        Records the move's deadline in ``settings["deadline_at"]`` (a Unix time, for
        the turn message), or removes it when there is none.
        """
        settings.pop("deadline_at", None)
        if state.phase == "over" or settings.get("paused"):
            for key in TURN_TIMERS:
                await self.store.cancel_timers(game, key=key)
            return
        now = self.now()
        waiting = waiting_for(state)
        computer = _absence.computer_seats(settings)
        humans = [seat for seat in waiting if seat not in computer]
        if _absence.next_computer_action(state, settings) is not None:
            await self._add(game, "auto", now + timedelta(seconds=AUTO_DELAY), {"seq": state.seq})
        else:
            await self.store.cancel_timers(game, key="auto")
        seconds = duration(settings, "deadline")
        if seconds is None or not humans:
            for key in ("deadline", "reminder", "reminder_soon"):
                await self.store.cancel_timers(game, key=key)
            return
        deadline = now + timedelta(seconds=seconds)
        settings["deadline_at"] = int(deadline.timestamp())
        payload = {"seq": state.seq, "deadline_at": int(deadline.timestamp()), "players": humans}
        await self._add(game, "deadline", deadline, payload)
        if setting(settings, "reminders"):
            await self._add(game, "reminder", now + timedelta(seconds=seconds / 2), payload)
            soon = deadline - timedelta(seconds=soon_before(seconds))
            await self._add(game, "reminder_soon", soon, payload)
        else:
            await self.store.cancel_timers(game, key="reminder")
            await self.store.cancel_timers(game, key="reminder_soon")

    async def game_started(self, game: int, state: GameState, settings: dict[str, Any]) -> None:
        """Set the timers that run for the whole game: the agreed end and the digest.

        A time-limited game records its start and end (Unix times) in ``settings``
        (``started_at``, ``ends_at``) for the messages and for a later change of length.
        """
        if state.rules.end_at_deadline:
            now = self.now()
            settings["started_at"] = int(now.timestamp())
            await self._plan_end(game, settings)
        await self.plan_digest(game, settings)

    async def _plan_end(self, game: int, settings: dict[str, Any]) -> None:
        ends = settings["started_at"] + DURATIONS[setting(settings, "time_limit")]
        settings["ends_at"] = ends
        due = max(datetime.fromtimestamp(ends, self.now().tzinfo), self.now())
        await self._add(game, "time_up", due, {})

    async def plan_digest(self, game: int, settings: dict[str, Any]) -> None:
        """Schedule the next daily digest, or cancel it if the digest is off."""
        hour = setting(settings, "digest")
        if hour == "off":
            await self.store.cancel_timers(game, key="digest")
            return
        await self._add(game, "digest", next_digest(self.now(), int(hour)), {})

    async def time_limit_changed(self, game: int, settings: dict[str, Any]) -> None:
        """The host changed the game's length: the end moves, counted from the start.

        While the game is paused the new end waits among the paused timers.
        """
        if "started_at" not in settings:
            return  # not a time-limited game
        if not settings.get("paused"):
            await self._plan_end(game, settings)
            return
        ends = settings["started_at"] + DURATIONS[setting(settings, "time_limit")]
        settings["ends_at"] = ends
        left = max(0, ends - settings["paused_at"])
        saved = [s for s in settings.get("paused_timers", []) if s["kind"] != "time_up"]
        saved.append({"kind": "time_up", "left": left, "payload": {}, "key": "time_up"})
        settings["paused_timers"] = saved

    async def auction_opened(self, game: int, settings: dict[str, Any]) -> datetime | None:
        """A new auction's closing time (None if ``auction_time`` is off).

        Recorded in ``settings["auction_closes_at"]`` for the auction message; the
        timer itself is set with :meth:`auction_close_at` once the message exists.
        """
        seconds = duration(settings, "auction_time")
        if seconds is None:
            settings.pop("auction_closes_at", None)
            return None
        closes = self.now() + timedelta(seconds=seconds)
        settings["auction_closes_at"] = int(closes.timestamp())
        return closes

    async def auction_close_at(self, game: int, closes: datetime | None, message_id: int) -> None:
        """Close the auction shown in ``message_id`` at ``closes`` (if it has a closing time)."""
        if closes is not None:
            await self._add(game, "auction_close", closes, {"message": message_id})

    async def trade_offered(self, game: int, settings: dict[str, Any], trade_id: int) -> int | None:
        """Give a new trade offer its closing time; the Unix time it closes, or None."""
        seconds = duration(settings, "trade_time")
        if seconds is None:
            return None
        closes = self.now() + timedelta(seconds=seconds)
        await self._add(game, "trade_close", closes, {"trade": trade_id}, key=f"trade:{trade_id}")
        return int(closes.timestamp())

    async def pause(self, game: int, settings: dict[str, Any]) -> None:
        """Cancel every timer of the game, remembering what the lasting ones had left."""
        now = self.now()
        kept = []
        for timer in await self.store.pending_timers(game):
            if timer.kind in TURN_TIMERS:
                continue  # planned afresh, with a whole deadline, on resume
            left = max(0.0, (timer.due_at - now).total_seconds())
            kept.append(
                {"kind": timer.kind, "left": left, "payload": timer.payload, "key": timer.key}
            )
        settings["paused_timers"] = kept
        await self.store.cancel_timers(game)

    async def resume(self, game: int, state: GameState, settings: dict[str, Any]) -> None:
        """Set the timers of a paused game again: closing times keep what they had left."""
        now = self.now()
        for saved in settings.pop("paused_timers", []):
            due = now + timedelta(seconds=saved["left"])
            if saved["kind"] == "time_up":
                settings["ends_at"] = int(due.timestamp())
            if saved["kind"] == "auction_close":
                settings["auction_closes_at"] = int(due.timestamp())
            if saved["kind"] == "digest":
                due = next_digest(now, int(setting(settings, "digest")))
            await self.store.add_timer(game, saved["kind"], due, saved["payload"], key=saved["key"])
        await self.reschedule(game, state, settings)

    async def _add(
        self,
        game: int,
        kind: str,
        due: datetime,
        payload: dict[str, Any],
        *,
        key: str | None = None,
    ) -> None:
        try:
            await self.store.add_timer(game, kind, due, payload, key=key or kind)
        except GameNotRunning:
            return  # the game ended meanwhile: nothing to plan
        self.wake()

    # -- firing -----------------------------------------------------------------------

    async def fire(self, timer: Timer) -> None:
        """Handle a due timer (called by the scheduler)."""
        handler = self._handlers.get(timer.kind)
        if handler is None:
            log.warning("Unknown timer kind %r of game %s", timer.kind, timer.game_id)
            return
        row = await self.store.load(timer.game_id)
        state = row.state
        if state is None or state.phase == "over" or row.settings.get("paused"):
            return  # lobbies, finished and paused games fire nothing
        if isinstance(state, CardState) and timer.kind not in CARD_TIMERS:
            return
        if self.channel_of(row) is None:
            await self._fetch_channel(row.channel_id)
        await handler(row, timer)

    def channel_of(self, row: GameRow) -> discord.abc.Messageable | None:
        """The game's channel, if the bot can see it."""
        channel = self.cog.bot.get_channel(row.channel_id) or self._fetched.get(row.channel_id)
        return channel if isinstance(channel, discord.abc.Messageable) else None

    async def _fetch_channel(self, channel_id: int) -> None:
        try:
            channel = await self.cog.bot.fetch_channel(channel_id)
        except discord.HTTPException as error:  # deleted, or no longer visible to the bot
            log.info("Channel %s of a game is gone: %s", channel_id, error)
            return
        if isinstance(channel, discord.abc.Messageable):
            self._fetched[channel_id] = channel

    async def _remind(self, row: GameRow, timer: Timer) -> None:
        state = row.state
        assert state is not None
        channel = self.channel_of(row)
        if channel is None or state.seq != timer.payload.get("seq"):
            return  # the game moved on since the timer was set
        seats = [s for s in waiting_for(state) if s in timer.payload.get("players", [])]
        if not seats:
            return
        due = f"<t:{timer.payload.get('deadline_at', 0)}:R>"
        await self.remind(row, seats, "deadline.reminder", due=due)

    async def remind(self, row: GameRow, seats: list[int], key: str, **params: Any) -> None:
        """Mention ``seats`` in the channel and send a direct message to those who opted in.

        ``key`` is the channel text (with ``players`` and ``params``); ``<key>.dm`` the DM.
        """
        state = row.state
        assert state is not None
        channel = self.channel_of(row)
        if channel is None:
            return
        lang = row.settings.get("lang", "de")
        await channel.send(t(lang, key, players=mentions(state, seats), **params))
        link = self._game_link(row)
        # The direct message says the same, with a link to the game (key ``<key>.dm``).
        for seat in seats:
            if not state.players[seat].id.isdigit():
                continue  # a computer player reads no messages
            user_id = int(state.players[seat].id)
            prefs = await self.store.user_prefs(user_id)
            if not prefs.get("dm"):
                continue
            dm_lang = prefs.get("lang", lang)
            text = t(dm_lang, f"{key}.dm", channel=f"<#{row.channel_id}>", link=link, **params)
            try:
                user = self.cog.bot.get_user(user_id) or await self.cog.bot.fetch_user(user_id)
                await user.send(text)
            except discord.HTTPException:
                # Closed DMs are the user's choice; the channel mention still reached them.
                log.info("Could not send a reminder DM to %s", user_id)

    async def tell_turn(
        self, game: int, state: AnyState, settings: dict[str, Any], link: str
    ) -> None:
        """A direct message to the player whose turn begins, if they asked for one.

        Once per turn and player (``settings["turn_told"]``, saved by the caller), never
        to a computer seat, and not when the game is over or paused.
        """
        seat = state.current
        if state.phase == "over" or settings.get("paused"):
            return
        told = f"{state.turn}:{seat}"
        if settings.get("turn_told") == told:
            return
        settings["turn_told"] = told
        player = state.players[seat]
        if not player.id.isdigit() or seat in _absence.computer_seats(settings):
            return
        prefs = await self.store.user_prefs(int(player.id))
        if not prefs.get("turn_dm"):
            return
        row = await self.store.load(game)
        lang = prefs.get("lang", settings.get("lang", "de"))
        text = t(lang, "notify.turn.dm", channel=f"<#{row.channel_id}>", link=link)
        try:
            user = self.cog.bot.get_user(int(player.id)) or await self.cog.bot.fetch_user(
                int(player.id)
            )
            await user.send(text)
        except discord.HTTPException:
            log.info("Could not send a turn DM to %s", player.id)

    def _game_link(self, row: GameRow) -> str:
        message = row.settings.get("turn_message")
        base = f"https://discord.com/channels/{row.guild_id}/{row.channel_id}"
        return f"{base}/{message}" if message else base

    async def _deadline(self, row: GameRow, timer: Timer) -> None:
        state = row.state
        assert state is not None
        channel = self.channel_of(row)
        if channel is None or state.seq != timer.payload.get("seq"):
            return
        absent = set(waiting_for(state)) & set(timer.payload.get("players", waiting_for(state)))
        if not absent:
            return
        lang = row.settings.get("lang", "de")
        names = ", ".join(state.players[s].name for s in sorted(absent))
        await channel.send(t(lang, "deadline.passed", players=names))
        await _absence.count_missed(self.cog, row.id, sorted(absent))
        await self.play_for(channel, row.id, state, absent, default_action)
        await _absence.call_votes(self.cog, channel, row.id)

    async def play_for(
        self,
        channel: discord.abc.Messageable,
        game: int,
        state: AnyState,
        seats: set[int],
        decide: Callable[[Any, int], dict[str, Any] | None],
        *,
        steps: int = MAX_DEFAULT_STEPS,
    ) -> None:
        """Let ``decide`` act for ``seats`` while the game waits on one of them."""
        for _ in range(steps):
            waiting = [s for s in waiting_for(state) if s in seats]
            if not waiting:
                return
            action = decide(state, waiting[0])
            if action is None:
                return
            try:
                result = await self.store.apply(game, action, expected_seq=state.seq)
            except StaleAction:
                return  # a player acted meanwhile
            except StoreError:
                log.warning("Deadline action refused in game %s", game, exc_info=True)
                return
            state = result.state
            await self.publish(channel, game, result)

    async def publish(self, channel: discord.abc.Messageable, game: int, result: Any) -> None:
        """Show a timed action like a player's, board game or card game."""
        if isinstance(result.state, CardState):
            await _cards.publish(self.cog, channel, game, result)
        else:
            await self.cog.publish(channel, game, result)

    async def _auto(self, row: GameRow, timer: Timer) -> None:
        state = row.state
        assert state is not None
        channel = self.channel_of(row)
        if channel is None or state.seq != timer.payload.get("seq"):
            return
        await _absence.computer_move(self.cog, channel, row)

    async def _auction_close(self, row: GameRow, timer: Timer) -> None:
        state = row.state
        assert state is not None
        channel = self.channel_of(row)
        same = row.settings.get("auction_message") == timer.payload.get("message")
        if channel is None or state.auction is None or not same:
            return  # that auction is over
        lang = row.settings.get("lang", "de")
        await channel.send(t(lang, "auction.time_up"))
        await self._system_action(channel, row.id, {"type": "close_auction"})

    async def _trade_close(self, row: GameRow, timer: Timer) -> None:
        state = row.state
        assert state is not None
        channel = self.channel_of(row)
        trade = next((tr for tr in state.trades if tr["id"] == timer.payload.get("trade")), None)
        if channel is None or trade is None:
            return
        action = {"type": "decline_trade", "player": trade["to"], "trade": trade["id"]}
        lang = row.settings.get("lang", "de")
        await channel.send(t(lang, "trade.timed_out", player=state.players[trade["to"]].name))
        await self._system_action(channel, row.id, action)

    async def _time_up(self, row: GameRow, timer: Timer) -> None:
        channel = self.channel_of(row)
        if channel is None:
            return
        await self._system_action(channel, row.id, {"type": "time_up"})

    async def _system_action(
        self, channel: discord.abc.Messageable, game: int, action: dict[str, Any]
    ) -> None:
        try:
            result = await self.store.apply(game, action)
        except StoreError:
            log.warning("Timed action %s refused in game %s", action, game, exc_info=True)
            return
        except IllegalAction as error:  # the game no longer allows it
            log.info("Timed action %s not possible in game %s: %s", action, game, error)
            return
        await self.cog.publish(channel, game, result)

    async def _digest(self, row: GameRow, timer: Timer) -> None:
        channel = self.channel_of(row)
        if channel is not None and isinstance(row.state, CardState):
            await _cards.post_digest(channel, row)
        elif channel is not None:
            await _digest.post(channel, row)
        await self.plan_digest(row.id, dict(row.settings))
