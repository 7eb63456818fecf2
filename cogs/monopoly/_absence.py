"""Absent players: missed deadlines, the table's vote, computer seats and vacation.

A player who lets ``missed_limit`` deadlines in a row pass (setting, 0 = never)
is put to a vote of the other players still at the table: let the computer play
the seat, remove the player (their assets go to the bank, as ``/monopoly kick``),
or keep waiting. More than half of the voters decide; with nobody to vote the
computer takes the seat. ``/monopoly vacation`` hands one's own seat to the
computer until one returns. A player who acts themselves — any button — is back:
their count of missed deadlines starts again and the computer lets go of the seat.

What a computer seat does comes from :mod:`bot.engine.computer` (the level chosen
in the lobby for a computer player, ``strong`` for an absent player's seat); its
moves go through the same timers as deadlines (``auto``, see ``_deadlines``), one
action a moment, so the table can follow them.
"""

from __future__ import annotations

import logging
from typing import TYPE_CHECKING, Any

import discord

from bot.cardgame import CardState, SimpleCardPlayer
from bot.cardgame import waiting_for as card_waiting_for
from bot.engine.computer import make_player, next_action
from bot.engine.defaults import default_action
from bot.engine.errors import IllegalAction
from bot.engine.state import GameState
from bot.i18n import t
from bot.store import GameRow, StaleAction, StoreError
from cogs.monopoly._ids import GameButton
from cogs.monopoly._text import mentions
from cogs.monopoly._timing import setting
from cogs.monopoly._widgets import game_button, lang_of, reply

if TYPE_CHECKING:
    from cogs.monopoly._cog import MonopolyCog

log = logging.getLogger(__name__)

Action = dict[str, Any]
VOTE_CHOICES = ("computer", "remove", "wait")
_CARD_PLAYER = SimpleCardPlayer()


# -- computer seats ------------------------------------------------------------------


def computer_seats(settings: dict[str, Any]) -> set[int]:
    """The seats the computer plays now (computer players, vacation, the table's vote)."""
    return {int(seat) for seat in settings.get("computer", {})}


def computer_level(settings: dict[str, Any], seat: int) -> str:
    """How strongly the computer plays ``seat``: as chosen in the lobby, else ``strong``
    (an absent player's seat is played as well as the bot can)."""
    return settings.get("computer_level", {}).get(str(seat), "strong")


def next_computer_action(state: GameState | CardState, settings: dict[str, Any]) -> Action | None:
    """What a computer seat does next: answer an offer, or move if the game waits on it."""
    seats = computer_seats(settings)
    if isinstance(state, CardState):
        # The card game has one computer player: it decides draw, swap or end.
        waiting = [seat for seat in card_waiting_for(state) if seat in seats]
        return _CARD_PLAYER.decide(state, waiting[0]) if waiting else None
    players = {seat: make_player(computer_level(settings, seat)) for seat in seats}
    return next_action(state, players)


async def computer_move(cog: MonopolyCog, channel: discord.abc.Messageable, row: GameRow) -> None:
    """Make one move for a computer seat; publishing it plans the next one."""
    state = row.state
    assert state is not None
    action = next_computer_action(state, dict(row.settings))
    if action is None:
        return
    store = cog.service.store
    try:
        result = await store.apply(row.id, action, expected_seq=state.seq)
    except StaleAction:
        return  # a player was quicker; the next plan starts from their move
    except IllegalAction:
        # The simple player is not meant to err; if it does, the safe default stands in.
        log.warning("Computer action %s refused in game %s", action, row.id, exc_info=True)
        fallback = default_action(state, action["player"])
        if fallback is None:
            return
        try:
            result = await store.apply(row.id, fallback, expected_seq=state.seq)
        except (IllegalAction, StoreError):
            log.warning("Default action refused in game %s", row.id, exc_info=True)
            return
    except StoreError:
        log.warning("Computer action failed in game %s", row.id, exc_info=True)
        return
    await cog.deadlines.publish(channel, row.id, result)


def player_acted(settings: dict[str, Any], seat: int) -> bool:
    """A player acted themselves: reset their missed deadlines; True if they took over.

    Changes ``settings`` in place (the caller holds the game's lock and saves them).
    """
    missed = settings.get("missed", {})
    if missed.get(str(seat)):
        settings["missed"] = {**missed, str(seat): 0}
    computer = settings.get("computer", {})
    if str(seat) not in computer:
        return False
    settings["computer"] = {k: v for k, v in computer.items() if k != str(seat)}
    return True


async def set_vacation(cog: MonopolyCog, interaction: discord.Interaction, away: bool) -> None:
    """``/monopoly vacation``: the computer plays the caller's seat, or stops doing so."""
    lang = lang_of(interaction)
    row = await cog.service.store.game_in_channel(interaction.channel_id or 0)
    if row is None or row.state is None:
        await reply(
            interaction, t(lang, "error.no_game_here" if row is None else "error.not_started")
        )
        return
    seat = cog.service.seat_of(row.state, interaction.user.id)  # type: ignore[arg-type]
    if seat is None or _out(row.state.players[seat]):
        await reply(interaction, t(lang, "error.not_a_player"))
        return
    async with cog.service.lock(row.id):
        fresh = await cog.service.store.load(row.id)
        settings = dict(fresh.settings)
        computer = dict(settings.get("computer", {}))
        if away == (str(seat) in computer):
            key = "vacation.already_away" if away else "vacation.not_away"
            await reply(interaction, t(lang, key))
            return
        if away:
            computer[str(seat)] = "vacation"
        else:
            computer.pop(str(seat))
            settings["missed"] = {**settings.get("missed", {}), str(seat): 0}
        settings["computer"] = computer
        await cog.service.store.set_settings(row.id, settings)
    game_lang = settings.get("lang", "de")
    name = row.state.players[seat].name
    text = t(game_lang, "vacation.away" if away else "vacation.back", player=name)
    await interaction.response.send_message(text)
    assert fresh.state is not None
    await cog.deadlines.reschedule(row.id, fresh.state, settings)


# -- missed deadlines and the vote ----------------------------------------------------


async def count_missed(cog: MonopolyCog, game: int, seats: list[int]) -> None:
    """Add one missed deadline for each of ``seats``."""
    async with cog.service.lock(game):
        row = await cog.service.store.load(game)
        settings = dict(row.settings)
        missed = dict(settings.get("missed", {}))
        for seat in seats:
            missed[str(seat)] = missed.get(str(seat), 0) + 1
        settings["missed"] = missed
        await cog.service.store.set_settings(game, settings)


def _out(player: Any) -> bool:
    """True for a board-game player who is out (a card-game player never is)."""
    return bool(getattr(player, "bankrupt", False))


def choices_for(state: Any) -> tuple[str, ...]:
    """The vote's options: removing a player needs the board game's ``remove_player``."""
    if isinstance(state, CardState):
        return tuple(c for c in VOTE_CHOICES if c != "remove")
    return VOTE_CHOICES


def _voters(state: GameState | CardState, settings: dict[str, Any], seat: int) -> list[int]:
    """Who votes on ``seat``: the other players still in, not played by the computer."""
    computer = computer_seats(settings)
    return [
        s
        for s, player in enumerate(state.players)
        if s != seat and not _out(player) and s not in computer
    ]


async def call_votes(cog: MonopolyCog, channel: discord.abc.Messageable, game: int) -> None:
    """Open a vote on every seat that has missed ``missed_limit`` deadlines in a row."""
    decided: list[int] = []
    async with cog.service.lock(game):
        row = await cog.service.store.load(game)
        state = row.state
        if state is None or state.phase == "over":
            return
        settings = dict(row.settings)
        limit = setting(settings, "missed_limit")
        votes = dict(settings.get("votes", {}))
        lang = settings.get("lang", "de")
        for key, count in settings.get("missed", {}).items():
            seat = int(key)
            due = limit and count >= limit and key not in votes
            if not due or seat in computer_seats(settings) or _out(state.players[seat]):
                continue
            if not _voters(state, settings, seat):
                decided.append(seat)  # nobody left to ask: the computer takes the seat
                continue
            message = await channel.send(**vote_message(game, state, settings, seat, {}))
            votes[key] = {"message": message.id, "ballots": {}}
        settings["votes"] = votes
        for seat in decided:
            settings["computer"] = {**settings.get("computer", {}), str(seat): "vote"}
            await channel.send(t(lang, "vote.computer", player=state.players[seat].name))
        await cog.service.store.set_settings(game, settings)
    if decided:
        await cog.deadlines.reschedule(game, state, settings)


def vote_message(
    game: int,
    state: GameState | CardState,
    settings: dict[str, Any],
    seat: int,
    ballots: dict[str, str],
) -> dict[str, Any]:
    """The public vote on an absent player's seat, with the tally so far."""
    lang = settings.get("lang", "de")
    name = state.players[seat].name
    missed = settings.get("missed", {}).get(str(seat), 0)
    tally = " · ".join(
        f"{t(lang, f'vote.option.{choice}')}: {sum(1 for b in ballots.values() if b == choice)}"
        for choice in choices_for(state)
    )
    voters = _voters(state, settings, seat)
    text = t(
        lang,
        "vote.text",
        player=name,
        mention=mentions(state, [seat]),
        missed=missed,
        voters=mentions(state, voters),
        tally=tally,
    )
    view = discord.ui.View(timeout=None)
    styles = {
        "computer": discord.ButtonStyle.primary,
        "remove": discord.ButtonStyle.danger,
        "wait": discord.ButtonStyle.secondary,
    }
    for choice in choices_for(state):
        view.add_item(
            GameButton(
                game,
                state.seq,
                "vote",
                f"{seat}-{choice}",
                label=t(lang, f"vote.option.{choice}"),
                style=styles[choice],
            )
        )
    view.add_item(
        GameButton(
            game,
            state.seq,
            "vote",
            f"{seat}-back",
            label=t(lang, "vote.option.back", player=name),
            style=discord.ButtonStyle.success,
        )
    )
    return {"content": text, "view": view}


def outcome(ballots: dict[str, str], voters: list[int]) -> str | None:
    """The choice more than half of ``voters`` made, if any."""
    counted = [choice for voter, choice in ballots.items() if int(voter) in voters]
    for choice in VOTE_CHOICES:
        if counted.count(choice) * 2 > len(voters):
            return choice
    return None


@game_button("vote")
async def on_vote(
    cog: MonopolyCog, interaction: discord.Interaction, game: int, seq: int, arg: str | None
) -> None:
    """A player votes on an absent player's seat, or the absent player is back."""
    lang = lang_of(interaction)
    seat_text, _, choice = (arg or "").partition("-")
    if not seat_text.isdigit() or choice not in (*VOTE_CHOICES, "back"):
        await reply(interaction, t(lang, "error.unknown_button"))
        return
    async with cog.service.lock(game):
        row = await cog.service.store.load(game)
        state = row.state
        settings = dict(row.settings)
        votes = dict(settings.get("votes", {}))
        vote = votes.get(seat_text)
        seat = int(seat_text)
        if choice != "back" and state is not None and choice not in choices_for(state):
            await reply(interaction, t(lang, "error.unknown_button"))
            return
        gone = state is not None and seat < len(state.players) and _out(state.players[seat])
        if state is None or vote is None or state.phase == "over" or gone:
            await reply(interaction, t(lang, "error.vote_closed"))
            return
        me = cog.service.seat_of(state, interaction.user.id)
        if me is None:
            await reply(interaction, t(lang, "error.not_a_player"))
            return
        voters = _voters(state, settings, seat)
        if choice == "back" or me == seat:
            if me != seat:
                await reply(interaction, t(lang, "error.vote_not_you"))
                return
            if choice != "back":
                await reply(interaction, t(lang, "error.vote_own_seat"))
                return
            result = "back"
        elif me not in voters:
            await reply(interaction, t(lang, "error.not_a_voter"))
            return
        else:
            vote = {**vote, "ballots": {**vote["ballots"], str(me): choice}}
            votes[seat_text] = vote
            result = outcome(vote["ballots"], voters)
        game_lang = settings.get("lang", "de")
        name = state.players[seat].name
        if result is None:
            settings["votes"] = votes
            await cog.service.store.set_settings(game, settings)
            await interaction.response.edit_message(
                **vote_message(game, state, settings, seat, vote["ballots"])
            )
            return
        votes.pop(seat_text)
        settings["votes"] = votes
        if result in ("back", "wait"):
            settings["missed"] = {**settings.get("missed", {}), seat_text: 0}
        if result == "computer":
            settings["computer"] = {**settings.get("computer", {}), seat_text: "vote"}
        await cog.service.store.set_settings(game, settings)
        await interaction.response.edit_message(
            content=t(game_lang, f"vote.{result}", player=name), view=None
        )
    if result == "computer":
        await cog.deadlines.reschedule(game, state, settings)
    if result == "remove":
        try:
            removed = await cog.service.act_as_host(game, {"type": "remove_player", "target": seat})
        except (IllegalAction, StoreError) as error:
            # e.g. in the middle of an auction: the table may vote again after it.
            log.info("Vote to remove seat %s in game %s not carried out: %s", seat, game, error)
            await interaction.followup.send(t(game_lang, "vote.remove_later", player=name))
            return
        await cog.publish(interaction.channel, game, removed)  # type: ignore[arg-type]
