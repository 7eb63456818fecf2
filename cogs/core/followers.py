"""Followers of a game: one direct message per round with the turns of that round.

Members without a seat who clicked 🔔 (``settings.records.followers``, user ids) get,
at the end of each round, one DM with one line per turn of the round (see
``cogs/ui/follow.py``). A round of the board game ends when the turn order wraps round to
an earlier seat; one of the card game when a round is scored. The last turns of a game
that ends are sent with the end.

What is collected lives in the game's settings (the publisher's records,
:class:`~bot.settings.MessageRecords`), bounded, and is written by the publisher with the
rest of what it shows (the caller saves ``settings``):

* ``follow_lines``: the lines of the round so far (the latest :data:`LINES_MAX`);
* ``follow_open``: the card game's turn under way (its number, seat and lines so far);
* ``follow_seq``: the state version last collected — a publish of the same action again
  collects nothing;
* ``follow_from``: the board game's first turn collected in the round under way;
* ``follow_sent``: the round last sent (``t{first turn of the next round}``,
  ``r{round}`` or ``end``) — the same round is never sent twice.

Nothing is collected (and these keys are dropped) while nobody follows the game.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from bot.cardgame import CardState
from bot.engine.state import GameState
from bot.i18n import money, t
from bot.settings import GameSettings, MessageRecords
from bot.store import GameRow
from cogs.core.notify import direct_message, game_link
from cogs.ui.cards_table import event_line
from cogs.ui.follow import summary_text, summary_view, turn_line
from cogs.ui.turn import title_of

if TYPE_CHECKING:
    from cogs.core.ports import CorePort as Core

#: Followers a game may have (each gets a DM per round).
FOLLOWERS_MAX = 25
#: Turn lines kept per round (a long card-game round keeps its latest turns).
LINES_MAX = 40
#: Lines kept of the card game's turn under way.
OPEN_MAX = 8


def followers_of(settings: GameSettings) -> list[int]:
    """The user ids following the game."""
    return [int(user) for user in settings.records.followers if str(user).isdigit()]


def _forget(settings: GameSettings) -> None:
    """Nobody follows: drop what was collected (``settings`` in place)."""
    settings.records.forget_follow()


def _fresh(settings: GameSettings, seq: int) -> bool:
    """Whether the action of version ``seq`` is new to the collection (and note it)."""
    records = settings.records
    seen = records.follow_seq
    if seen is not None and seen >= seq:
        return False
    records.follow_seq = seq
    return True


def _add(settings: GameSettings, line: str) -> None:
    records = settings.records
    records.follow_lines = [*records.follow_lines, line][-LINES_MAX:]


async def board_action(
    core: Core,
    row: GameRow,
    state: GameState,
    settings: GameSettings,
    ended: dict[str, Any] | None,
    current: dict[str, Any],
    lines: list[str],
) -> None:
    """Collect the turn that ended in an action of the board game and send the round if
    it is complete (``ended`` and ``current``: the turn records of ``bot.turn_story.split``;
    ``lines``: the log of the turn that ended, or of the turn under way if none did)."""
    if not followers_of(settings):
        _forget(settings)
        return
    if not _fresh(settings, state.seq):
        return
    lang = settings.lobby.lang
    over = state.phase == "over"
    told = ended if ended is not None else (current if over else None)
    # A record that does not move on (the same turn again) is not a turn that ended.
    moved_on = ended is None or int(current["turn"]) > int(ended["turn"])
    if told is not None and moved_on:
        if not settings.records.follow_lines:
            settings.records.follow_from = int(told["turn"])
        _add(settings, turn_line(title_of(state, told, lang), lines))
    first = settings.records.stored_or(MessageRecords.follow_from, 1)
    span = ("follow.turns", {"first": first, "last": state.turn})
    if over:
        await _send_round(core, row, settings, "end", "board", span, over=True)
    elif ended is not None and moved_on and int(current["seat"]) < int(ended["seat"]):
        span[1]["last"] = int(ended["turn"])
        await _send_round(core, row, settings, f"t{current['turn']}", "board", span)


async def card_action(
    core: Core, row: GameRow, state: CardState, settings: GameSettings, events: list[Any]
) -> None:
    """Collect the public ``events`` of a card-game action into turn lines and send the
    round once it is scored (or the game is over)."""
    if not followers_of(settings):
        _forget(settings)
        return
    if not _fresh(settings, state.seq):
        return
    lang = settings.lobby.lang
    opened = dict(settings.records.follow_open or {})
    for event in events:
        kind = event["type"]
        if kind in ("turn", "round_scored", "game_over"):
            _close_turn(state, settings, opened, lang)
            opened = {}
        if kind == "turn":
            opened = {"turn": event.get("turn", 0), "seat": event.get("player", 0), "lines": []}
        elif kind == "round_scored":
            number = event.get("round", state.round)
            _add(settings, _scores(state, event, lang))
            span = ("follow.round", {"round": number})
            await _send_round(core, row, settings, f"r{number}", "cards", span)
        elif kind not in ("round_started",) and opened:
            line = event_line(state, lang, event)
            if line:
                opened["lines"] = [*opened["lines"], line][-OPEN_MAX:]
    if state.phase == "over":
        _close_turn(state, settings, opened, lang)
        opened = {}
        span = ("follow.round", {"round": state.round})
        await _send_round(core, row, settings, "end", "cards", span, over=True)
    if opened:
        settings.records.follow_open = opened
    else:
        del settings.records.follow_open


def _close_turn(
    state: CardState, settings: GameSettings, opened: dict[str, Any], lang: str
) -> None:
    """The card game's turn under way is over: its line joins the round's."""
    if not opened or not opened.get("lines"):
        return
    seat = int(opened.get("seat", 0))
    name = state.players[seat].name if 0 <= seat < len(state.players) else "?"
    title = t(lang, "turn.title", turn=opened.get("turn", 0), name=name)
    _add(settings, turn_line(title, list(opened["lines"])))


def _scores(state: CardState, event: dict[str, Any], lang: str) -> str:
    """A scored round's points, one line."""
    parts = []
    for entry in event.get("players", []):
        seat = entry.get("player", 0)
        name = state.players[seat].name if 0 <= seat < len(state.players) else "?"
        parts.append(f"{name} {money(lang, int(entry.get('points', 0)))}")
    return t(lang, "follow.scores", round=event.get("round", state.round), scores=", ".join(parts))


async def _send_round(
    core: Core,
    row: GameRow,
    settings: GameSettings,
    key: str,
    kind: str,
    span: tuple[str, dict[str, Any]],
    *,
    over: bool = False,
) -> None:
    """Send the lines collected to every follower, once per ``key`` (``settings`` in
    place: the round is marked sent and the lines start afresh). ``span`` is the text
    key and values that say which turns or round it was."""
    records = settings.records
    lines = list(records.follow_lines)
    if records.follow_sent == key or not lines:
        return
    records.follow_sent = key
    records.follow_lines = []
    del records.follow_from
    guild = core.bot.get_guild(row.guild_id)
    link = game_link(row, settings)
    for user_id in followers_of(settings):
        prefs = await core.store.user_prefs(user_id)
        lang = prefs.get("lang", settings.lobby.lang)
        text = summary_text(
            lang,
            kind=kind,
            game=row.id,
            channel_id=row.channel_id,
            server=guild.name if guild is not None else None,
            span=t(lang, span[0], **span[1]),
            lines=lines,
            link=link,
            over=over,
        )
        view = summary_view(row.id, lang)
        await direct_message(
            core, user_id, text, row=row, settings=settings, view=view, prefs=prefs
        )
