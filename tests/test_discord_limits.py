"""Every payload the bot can send fits Discord's published limits (``tests/discord_limits.py``).

Discord refuses a payload that breaks one of its limits as a whole (a command sync with
one description of 102 characters: no command at all; a turn message with a button label
of 81 characters: no turn message). So everything the bot sends is built here, with
discord.py's own functions, and checked against the OpenAPI description of Discord's API
and its documented rules, without a connection:

* the command tree as a bulk sync sends it (``bot.command_sync.sync_payload``, the same
  path as the fingerprint), English and German, globally and to one server;
* every message, view and form of ``cogs.ui``, drawn for the positions of
  ``tests/test_routes.py`` (reused, not repeated) and for the largest cases: ten players in
  the board game and six in the card game, all with 32-character names (Discord's longest
  display names) of wide letters and emoji, many trades, every lot owned; each as posted,
  edited, an interaction's answer and a follow-up;
* every text of the catalogs with its placeholders filled as long as they get.
"""

from __future__ import annotations

import asyncio
import json
import re
import string
from collections.abc import Callable, Iterator
from datetime import UTC, datetime
from pathlib import Path
from typing import Any, TypeVar

import discord
import pytest

import cogs.extension  # noqa: F401 (every cog, so that every Form subclass is known)
from bot.app import MonopolyBot
from bot.cardgame import CardState, SimpleCardPlayer, waiting_for
from bot.cardgame import apply_action as apply_card_action
from bot.command_sync import sync_payload
from bot.config import Settings
from bot.engine.board import load_board
from bot.engine.game import apply_action as apply_board_action
from bot.engine.record import GameRecord
from bot.engine.rules import BOUNDS
from bot.engine.state import GameState
from bot.engine.themes import MAX_NAME, TERMS
from bot.fairness import (
    FINGERPRINT_KEY,
    LOBBY_WORDS_KEY,
    SECRET_KEY,
    SEED_KEY,
    WORDS_KEY,
    WORDS_MAX,
    Mismatch,
    Verification,
)
from bot.i18n import catalog, t
from bot.replay_cache import ReplayCache
from bot.settings import GameSettings
from bot.stats import BiggestWin, PlayerRecord, Standing
from bot.store import GameInfo, GameRow, GameStatus
from bot.store.bench import next_simple_action
from bot.store.kinds import waiting_for as any_waiting_for
from cogs.ui import turn as turn_ui
from cogs.ui.auction import auction_message
from cogs.ui.cards_table import mentions_of, round_message, table_message
from cogs.ui.deeds import deed_file, lot_facts
from cogs.ui.fairness import game_choice, reveal_embed, verification_embed
from cogs.ui.forms import BidForm, CashForm, LotValueForm, auction_key
from cogs.ui.handover import closed_message, handover_message
from cogs.ui.history import HistoryEntry, history_message
from cogs.ui.house_rules import AMOUNTS, AmountsForm, house_rules_panel
from cogs.ui.ids import Form
from cogs.ui.listings import (
    digest_embed,
    games_text,
    leaderboard_text,
    player_record_text,
    settings_lines,
)
from cogs.ui.lobby import lobby_message
from cogs.ui.offers import offer_message
from cogs.ui.recap import recap_message
from cogs.ui.text import Narrator, fit_lines, mentions, theme_of
from cogs.ui.trade_menu import TradeDraft, builder_message
from cogs.ui.viewer import viewer_message
from cogs.ui.vote import vote_message
from tests import test_routes as routes
from tests.cardgame.conftest import game as card_game
from tests.discord_limits import (
    COMMAND_TOTAL_MAX,
    CONTENT_MAX,
    FIELD_VALUE_MAX,
    Problem,
    autocomplete_body,
    check_request,
    command_size,
    message_bodies,
    modal_body,
    schemas,
)
from tests.engine.conftest import act, game

LANGS = ("de", "en")
GAME_ID = routes.GAME_ID
#: The largest game id Discord's snowflakes (and the store) allow.
BIGGEST_GAME = 2**63 - 1

# -- the longest names ----------------------------------------------------------------------

#: Discord's longest display names (32 characters): wide Latin letters, full-width forms,
#: emoji (outside the BMP, two UTF-16 units each) and marks, CJK, right-to-left script.
NAMES = (
    "W" * 30 + "_0",
    "Ｗ" * 30 + "_1",
    "🎩" * 30 + "_2",
    "👨‍👩‍👧‍👦" * 4 + "🎲🎲_3",
    "龍" * 30 + "_4",
    "ﷺ" * 30 + "_5",
    "Ǆ" * 30 + "_6",
    "e\u0301" * 15 + "_7",
    "𒐫" * 30 + "_8",
    "@everyone" * 3 + "xyz_9",
)
assert all(len(name) == 32 for name in NAMES), [len(name) for name in NAMES]
#: The longest words a player can give the seed (docs/fair-dice.md), every character one
#: that is escaped when shown (so twice as long then).
LONGEST_WORDS = ("*_`~|" * WORDS_MAX)[:WORDS_MAX]
#: Either game's state.
AnyGame = TypeVar("AnyGame", GameState, CardState)
#: A Discord user id as long as they get (19 digits): the mentions' length.
USER_ID = 1_234_567_890_123_456_789


def long_named(state: AnyGame) -> AnyGame:
    """``state`` with the players renamed to :data:`NAMES` (in place); even seats get
    Discord ids (mentioned as ``<@id>``), odd seats stay computer-like (mentioned by name)."""
    for seat, player in enumerate(state.players):
        player.name = NAMES[seat % len(NAMES)]
        if seat % 2 == 0:
            player.id = str(USER_ID + seat)
    return state


def longest_theme() -> dict[str, Any]:
    """A server's own theme (as a game's settings carry it) with every name at the longest
    a theme may have (40 characters): squares, groups, decks, words, currency."""

    def name(number: int) -> str:
        return "Ｗ" * (MAX_NAME - 3) + f"-{number:02d}"

    board = load_board("de_euro")
    return {
        "id": "w" * 40,
        "name": {"de": name(0), "en": name(1)},
        "base_board": board.id,
        "squares": {str(square): name(square) for square in range(40)},
        "groups": {group: name(n) for n, group in enumerate(board.groups)},
        "decks": {"chance": name(1), "community": name(2)},
        "terms": {term: name(n) for n, term in enumerate(TERMS)},
    }


def longest_settings(state: GameState | CardState, *, theme: bool = True) -> dict[str, Any]:
    """Settings with everything that adds text: the seed's fingerprint (and the seed, for
    the end), deadlines, the end of a timed game, computer seats, missed turns, and the
    theme of the longest names (``theme``)."""
    seats = range(len(state.players))
    extra: dict[str, Any] = {
        FINGERPRINT_KEY: "f" * 64,
        SEED_KEY: 2**63 - 1,
        SECRET_KEY: 2**64 - 1,
        WORDS_KEY: [{"name": NAMES[seat % 10], "words": LONGEST_WORDS} for seat in seats],
        "deadline_at": 4_102_444_800,
        "ends_at": 4_102_444_800,
        "auction_closes_at": 4_102_444_800,
        "trade_closes": {},
        "computer": {str(seat): "hard" for seat in seats if seat % 2},
        "missed": {str(seat): 99 for seat in seats},
        "max_players": 10,
    }
    if theme and isinstance(state, GameState):
        extra["theme_data"] = longest_theme()
    return extra


def settings_of(
    state: GameState | CardState, lang: str, *, theme: bool = True, **extra: Any
) -> dict[str, Any]:
    """A game's settings as the lobby leaves them, with :func:`longest_settings`."""
    return routes.settings_for(state, lang, **{**longest_settings(state, theme=theme), **extra})


# -- collecting what would be sent ----------------------------------------------------------


class Sent(routes.Drawn):
    """Everything drawn here, as the bodies discord.py would send, each body checked once.

    ``add`` takes what ``cogs.ui`` returns: a message dict (content, embed(s), view,
    file(s)), a view, an embed or a form; it stands in for ``routes.Drawn.add``, so the
    drawings of tests/test_routes.py fill it, too.
    """

    def __init__(self) -> None:
        super().__init__()
        self.problems: dict[str, list[str]] = {}
        self.bodies: set[str] = set()
        self.checked: dict[str, int] = {}
        self.forms: set[type] = set()

    def add(self, source: str, drawn: Any) -> None:
        """Check every body ``drawn`` makes (once per distinct body)."""
        self.forms.add(type(drawn))
        for label, (operation, body) in bodies_of(drawn).items():
            key = operation + json.dumps(body, sort_keys=True, ensure_ascii=False)
            if key in self.bodies:
                continue
            self.bodies.add(key)
            self.checked[operation] = self.checked.get(operation, 0) + 1
            for problem in check_request(operation, body):
                self.problems.setdefault(str(problem), []).append(f"{source} ({label})")

    def report(self) -> str:
        """The problems found, alike ones together: the same limit at the same place of the
        same kind of message (any length, text, position or kind of call), with the longest
        case and one drawing that has it."""
        alike: dict[tuple[str, str], tuple[str, str]] = {}
        for problem, sources in self.problems.items():
            limit = re.sub(r"\d+", "#", problem.split(': "')[0].removeprefix("data."))
            for source in sources:
                what = source.rsplit(" (", 1)[0].split(": ")[-1]
                longest, example = alike.get((limit, what), (problem, source))
                alike[limit, what] = (max(longest, problem, key=len), example)
        return "\n".join(
            f"{longest}\n    in {what!r}, e.g. {example}"
            for (_, what), (longest, example) in sorted(alike.items())
        )


def bodies_of(drawn: Any) -> dict[str, tuple[str, Any]]:
    """The request bodies discord.py makes of ``drawn`` (see :class:`Sent`)."""
    if isinstance(drawn, discord.ui.Modal):
        return {"form": ("create_interaction_response", modal_body(drawn))}
    if isinstance(drawn, discord.ui.View):
        # A view alone is never a message: it replaces a message's buttons.
        return message_bodies({"view": drawn}, new=False)
    if isinstance(drawn, discord.Embed):
        return message_bodies({"embed": drawn})
    if isinstance(drawn, str):
        return message_bodies({"content": drawn})
    if isinstance(drawn, dict):
        return message_bodies(drawn)
    raise TypeError(f"cannot send {drawn!r}")


def run(coroutine: Any) -> Any:
    """Run one coroutine of the UI (image drawing, the recap) to its end."""
    return asyncio.run(coroutine)


# -- turn messages (built like cogs/core/board_messages.py sends them) ------------------------


def turn_lines(
    state: GameState, settings: dict[str, Any], events: list[dict[str, Any]]
) -> list[str]:
    """The lines a turn message shows for ``events`` (as board_messages tells them)."""
    return Narrator(state, settings["lang"], theme_of(GameSettings(settings))).lines(events)


def turn_messages(
    game_id: int, state: GameState, settings: dict[str, Any], lines: list[str], *, image: bool
) -> Iterator[tuple[str, dict[str, Any]]]:
    """The turn message as cogs/core/board_messages.py sends it: posted (with and without
    its picture), edited while the turn runs, and finished (no buttons).

    ``image``: draw the turn's picture (a real attachment with its alt text; slower), else
    the messages go without it, as when a picture fails.
    """
    info = turn_ui.turn_info(state, GameSettings(settings))
    view = turn_ui.turn_view(game_id, state, GameSettings(settings))
    content = mentions(state, any_waiting_for(state)) or None
    pictures = [run(turn_ui.turn_image(state, GameSettings(settings), info))] if image else []
    for drawn in (True, False) if image else (False,):
        files = pictures if drawn else []
        live = turn_ui.live_embed(state, GameSettings(settings), lines, info, image=drawn)
        yield "turn message", {"content": content, "embed": live, "view": view, "files": files}
        yield "turn message edit", {"embed": live, "view": view, "attachments": files}
        done = turn_ui.finished_embed(state, GameSettings(settings), lines, info, image=drawn)
        yield "finished turn", {"embed": done, "view": None, "attachments": files}


def board_message(state: GameState, settings: dict[str, Any]) -> dict[str, Any]:
    """ "🗺️ Brett" of the turn message: the whole board and every player's holdings
    (as cogs/property.py answers it)."""
    lang = settings["lang"]
    embed = discord.Embed(
        title=t(lang, "board.title", turn=state.turn),
        description=turn_ui.holdings_text(state, GameSettings(settings)),
        colour=turn_ui.EMBED_COLOUR,
    )
    embed.set_image(url=f"attachment://{turn_ui.BOARD_IMAGE}")
    return {"embed": embed, "file": run(turn_ui.board_file(state, GameSettings(settings)))}


def deed_message(state: GameState, settings: dict[str, Any], square: int) -> dict[str, Any]:
    """ "📜 Urkunde": a lot's title deed and its facts (as cogs/property.py answers it)."""
    lang = settings["lang"]
    narrator = Narrator(state, lang, theme_of(GameSettings(settings)))
    text = f"**{narrator.square(square)}**\n" + lot_facts(
        state, GameSettings(settings), square, lang
    )
    return {"content": text, "file": run(deed_file(state, GameSettings(settings), square, lang))}


def final_message(
    game_id: int, state: GameState, settings: dict[str, Any], recap: dict[str, Any] | None
) -> dict[str, Any]:
    """The end of a board game: the final table with the seed, the board, the recap."""
    embeds = [turn_ui.final_embed(state, GameSettings(settings), game_id=game_id)]
    files = [run(turn_ui.board_file(state, GameSettings(settings)))]
    if recap is not None:
        embeds.append(recap["embed"])
        files.append(recap["file"])
    return {"embeds": embeds, "files": files}


def card_end_message(
    game_id: int, state: CardState, settings: dict[str, Any], recap: dict[str, Any] | None
) -> dict[str, Any]:
    """The end of a card game: the winners, the seed, the recap (cogs/core/card_messages)."""
    lang = settings["lang"]
    names = ", ".join(state.players[s].name for s in state.winners)
    content = t(lang, "cards.winner", names=names) if state.winners else t(lang, "cards.ended")
    embeds = [
        embed for embed in [reveal_embed(game_id, GameSettings(settings))] if embed is not None
    ]
    files = []
    if recap is not None:
        embeds.append(recap["embed"])
        files.append(recap["file"])
    return {"content": content, "embeds": embeds, "files": files}


# -- the largest board games ----------------------------------------------------------------


def ten_players(**extra: Any) -> GameState:
    """A board game of ten players with the longest names."""
    return long_named(game([{} for _ in range(10)], **extra))


def ten_player_auction(*, sealed: bool) -> GameState:
    """Ten bidders on a declined lot (live or sealed bids)."""
    state = ten_players(rules={"sealed_auctions": sealed})
    act(state, "roll", 0, dice=[1, 2])
    act(state, "decline", 0)
    if not sealed:
        for seat in range(1, 10):
            act(state, "bid", seat, amount=10 * seat)
    else:
        for seat in range(1, 9):
            act(state, "sealed_bid", seat, amount=10 * seat)
    return state


def ten_players_trading() -> GameState:
    """Every lot owned, every player offering all their lots and money to the next (ten
    open offers at once), seat 0 with both get-out-of-jail cards."""
    state = long_named(game([{"jail_cards": ["chance", "community"]}, *[{}] * 9]))
    lots = [i for i in range(40) if state.board.squares[i].is_property]
    for n, square in enumerate(lots):
        state.owner[square] = n % 10
    for seat in range(10):
        mine = [q for q in lots if state.owner[q] == seat]
        theirs = [q for q in lots if state.owner[q] == (seat + 1) % 10]
        give: dict[str, Any] = {"lots": mine, "cash": 1400}
        if seat == 0:
            give["jail_cards"] = ["chance", "community"]
        act(state, "propose_trade", seat, to=(seat + 1) % 10, give=give, get={"lots": theirs})
    return state


#: States of each phase drawn from a played ten-player game.
SAMPLES_PER_PHASE = 4


def ten_players_played(
    seed: int,
) -> tuple[GameRecord, list[tuple[GameState, list[dict[str, Any]]]]]:
    """A whole ten-player game of the simple players: its record, and states along the way
    (the first of each phase, and every 100th action) with the events of that step."""
    state = ten_players(seed=seed)
    record = GameRecord.begin(state)
    sampled = []
    kept: dict[str, int] = {}
    for index in range(5000):
        action = next_simple_action(state)
        if action is None:
            break
        events = apply_board_action(state, action)
        record.add(action, events)
        # Every phase a few times (the first ones), and a step now and then.
        kept[state.phase] = kept.get(state.phase, 0) + 1
        if kept[state.phase] <= SAMPLES_PER_PHASE or index % 100 == 0:
            sampled.append((state.copy(), events))
    assert state.phase == "over", "the simple players did not finish"
    sampled.append((state.copy(), []))
    return record, sampled


def ten_players_everything_offered() -> GameState:
    """Seat 0 owns every lot (half of them mortgaged) and both get-out-of-jail cards and
    offers it all, with a million, to seat 1."""
    rich = {"jail_cards": ["chance", "community"], "cash": 10**6}
    state = long_named(game([rich, *[{}] * 9]))
    lots = [i for i in range(40) if state.board.squares[i].is_property]
    for n, square in enumerate(lots):
        state.owner[square] = 0
        state.mortgaged[square] = n % 2 == 0
    give = {"lots": lots, "cash": 10**6, "jail_cards": ["chance", "community"]}
    act(state, "propose_trade", 0, to=1, give=give, get={})
    return state


def ten_players_offering_lots() -> GameState:
    """Seat 0 owes rent it cannot pay and offers every lot but one group to its creditor."""
    state = long_named(game([{"cash": 0, "position": 33}, *[{}] * 9]))
    lots = [i for i in range(40) if state.board.squares[i].is_property]
    mine = [square for square in lots if square not in (37, 39)]
    for square in mine:
        state.owner[square] = 0
    for square in (37, 39):
        state.owner[square] = 1
        state.houses[square] = 1
    act(state, "roll", 0, dice=[1, 3])
    act(state, "offer_lots", 0, lots=mine, value=state.debts[0]["amount"])
    return state


#: Lots whose title deeds are drawn: a street, a station, a utility, the dearest street.
DEED_SQUARES = (1, 5, 12, 39)

BIG_BOARD_POSITIONS: dict[str, Callable[[], GameState]] = {
    "ten players: live auction": lambda: ten_player_auction(sealed=False),
    "ten players: sealed auction": lambda: ten_player_auction(sealed=True),
    "ten players: ten offers": ten_players_trading,
    "ten players: everything offered": ten_players_everything_offered,
    "ten players: every lot offered to a creditor": ten_players_offering_lots,
}


# -- the largest card games -----------------------------------------------------------------


def six_card_players(seed: int) -> tuple[GameRecord, CardState]:
    """A whole card game of six players with the longest names, and its record."""
    state = long_named(card_game(6, seed))
    record = GameRecord(start=state.to_dict())
    player = SimpleCardPlayer()
    while state.phase != "over":
        action = player.decide(state, waiting_for(state)[0])
        apply_card_action(state, action)
        record.actions.append({"action": action, "dice": []})
    return record, state


# -- drawing everything ---------------------------------------------------------------------


def draw_routes_positions(sent: Sent, lang: str) -> None:
    """Everything tests/test_routes.py draws, as it draws it, and its board positions
    again with the longest names (plus their turn messages)."""
    for name, position in routes.BOARD_POSITIONS.items():
        routes.draw_board_game(sent, name, position(), lang)
        state = long_named(position())
        extra = longest_settings(state)
        routes.draw_board_game(sent, f"{name}, long names", state, lang, **extra)
        settings = settings_of(state, lang)
        lines = turn_lines(state, settings, state.events) * 3
        for kind, message in turn_messages(GAME_ID, state, settings, lines, image=False):
            sent.add(f"{name}, long names: {kind}", message)
    routes.draw_lobbies_and_forms(sent, lang)
    routes.draw_assignment(sent, lang)
    routes.draw_history(sent, lang)
    routes.draw_members(sent, lang, name=NAMES[3], server="Ｗ" * 100)


def draw_big_board_games(sent: Sent, lang: str) -> None:
    """The ten-player positions: every message and menu, turn messages with the board."""
    for name, position in BIG_BOARD_POSITIONS.items():
        state = position()
        settings = settings_of(state, lang)
        routes.draw_board_game(sent, name, state, lang, **longest_settings(state))
        if state.auction is not None:
            sent.add(
                f"{name}: auction", auction_message(BIGGEST_GAME, state, GameSettings(settings))
            )
        for trade in state.trades:
            sent.add(
                f"{name}: offer", offer_message(BIGGEST_GAME, state, GameSettings(settings), trade)
            )
        lines = turn_lines(state, settings, state.events)
        for kind, message in turn_messages(BIGGEST_GAME, state, settings, lines, image=True):
            sent.add(f"{name}: {kind}", message)
        sent.add(f"{name}: digest", digest_row_message(state, settings))
        sent.add(f"{name}: board", board_message(state, settings))
        for square in DEED_SQUARES:
            sent.add(f"{name}: deed", deed_message(state, settings, square))
        for seat in range(len(state.players)):
            sent.add(f"{name}: trade builder", full_trade_builder(state, settings, seat))


def full_trade_builder(state: GameState, settings: dict[str, Any], seat: int) -> dict[str, Any]:
    """The trade menu of ``seat`` with everything of both sides chosen, for the next seat."""
    partner = (seat + 1) % len(state.players)
    draft = TradeDraft(
        BIGGEST_GAME,
        seat,
        seat=seat,
        partner=partner,
        partner_name=state.players[partner].name,
        give_lots={s for s, owner in enumerate(state.owner) if owner == seat},
        get_lots={s for s, owner in enumerate(state.owner) if owner == partner},
        give_cash=10**12,
        get_cash=10**12,
        give_cards=list(state.players[seat].jail_cards),
        get_cards=list(state.players[partner].jail_cards),
    )
    return builder_message(state, GameSettings(settings), draft, settings["lang"])


def draw_played_board_game(sent: Sent, lang: str, seed: int, *, theme: bool) -> None:
    """A whole ten-player game: sampled steps, its end (with the recap), the viewer
    (``theme``: with the theme of the longest names)."""
    record, sampled = ten_players_played(seed)
    for index, (state, events) in enumerate(sampled):
        name = f"ten players, step {index}"
        extra = longest_settings(state, theme=theme)
        settings = settings_of(state, lang, theme=theme)
        routes.draw_board_game(sent, name, state, lang, **extra)
        # The log of a long turn: every line of the step, many times.
        lines = [line for line in turn_lines(state, settings, events) for _ in range(4)]
        image = index % 10 == 0
        for kind, message in turn_messages(GAME_ID, state, settings, lines, image=image):
            sent.add(f"{name}: {kind}", message)
    final, _ = sampled[-1]
    settings = settings_of(final, lang, theme=theme)
    recap = run(recap_message(BIGGEST_GAME, record, GameSettings(settings), lang))
    sent.add("ten players: recap", recap)
    sent.add("ten players: end", final_message(BIGGEST_GAME, final, settings, recap))
    sent.add("ten players: end (no recap)", final_message(BIGGEST_GAME, final, settings, None))
    draw_viewer(sent, "board", record, settings)


def draw_card_games(sent: Sent, lang: str) -> None:
    """Six-player card games with the longest names: table and hands at every step, the
    round results, the end with its recap, and the viewer."""
    routes.draw_card_game(sent, 6, 3, lang, names=NAMES)
    record, state = six_card_players(seed=5)
    settings = settings_of(state, lang)
    sent.add("six card players: table", table_message(GAME_ID, state, GameSettings(settings)))
    for event in state.events:
        if event["type"] == "round_scored":
            sent.add("six card players: round", round_message(state, lang, event))
    sent.add("six card players: mentions", mentions_of(state, list(range(6))) or "–")
    recap = run(recap_message(BIGGEST_GAME, record, GameSettings(settings), lang))
    sent.add("six card players: end", card_end_message(BIGGEST_GAME, state, settings, recap))
    draw_viewer(sent, "cards", record, settings)


def draw_viewer(sent: Sent, key: str, record: GameRecord, settings: dict[str, Any]) -> None:
    """The replay viewer at every turn (or round) of a recorded game."""
    cache = ReplayCache()
    first, last = cache.turns(key, record)
    lang = settings["lang"]
    for number in range(first, last + 1):
        frame = cache.frame(key, number)
        for running in (False, True):
            message = viewer_message(
                BIGGEST_GAME, frame, GameSettings(settings), lang, running=running
            )
            sent.add(f"viewer of {key}, turn {number}", message)


def draw_lobbies(sent: Sent, lang: str) -> None:
    """Full lobbies of both games with the longest names, the house rules with every
    setting changed, and the vote on every seat."""
    players = [
        {"id": USER_ID + n if n % 2 == 0 else f"cpu{n}", "name": name}
        | ({"computer": "hard"} if n % 2 else {})
        for n, name in enumerate(NAMES)
    ]
    for kind, count in (("board", 10), ("cards", 6)):
        settings = {
            "lang": lang,
            "host": players[0]["id"],
            "players": players[:count],
            "preset": "classic",
            "theme": None,
            "max_players": count,
            "game": kind,
            "theme_data": longest_theme() if kind == "board" else None,
            "deadline": "48h",
            "overrides": {
                "free_parking": "fixed",
                "go_landing_bonus": True,
                "auction_declined_lots": False,
                "rent_must_be_claimed": True,
                "rent_while_in_jail": False,
                "sealed_auctions": True,
                # Every amount at its highest: the longest lines of the summary.
                **{name: high for name, _, high in BOUNDS},
            },
        }
        # The lobby's secret, and words of every player (shown as who set them).
        settings[FINGERPRINT_KEY], settings[SECRET_KEY] = "f" * 64, 2**64 - 1
        settings[LOBBY_WORDS_KEY] = {str(p["id"]): LONGEST_WORDS for p in players}
        sent.add(f"{kind} lobby, full", lobby_message(BIGGEST_GAME, GameSettings(settings)))
        sent.add(
            "house rules, all changed",
            house_rules_panel(BIGGEST_GAME, GameSettings(settings), lang),
        )
        # Started: the lobby shows every player's words.
        words = [{"name": p["name"], "words": LONGEST_WORDS} for p in players[:count]]
        started = {**settings, WORDS_KEY: words, SEED_KEY: 2**64 - 1}
        sent.add(f"{kind} lobby, started", lobby_message(BIGGEST_GAME, GameSettings(started)))
    state = ten_players()
    settings = settings_of(state, lang)
    for seat in range(10):
        ballots = {str(other): "computer" for other in range(10) if other != seat}
        sent.add(
            "vote, ten players",
            vote_message(BIGGEST_GAME, state, GameSettings(settings), seat, ballots),
        )
    for stage in ("asked", "confirm", "vote"):
        request = {
            "id": 10**9,
            "from_id": state.players[1].id,
            "from_name": NAMES[1],
            "to_id": str(USER_ID),
            "to_name": NAMES[9],
            "stage": stage,
            "ballots": {str(other): "yes" for other in range(10)},
        }
        sent.add(
            "hand-over, ten players",
            handover_message(BIGGEST_GAME, state, GameSettings(settings), 1, request),
        )
        for result in ("declined", "withdrawn", "refused", "confirmed", "confirmed_host", "failed"):
            reason = t(lang, "error.handover_target_seated", player=NAMES[9])
            sent.add(
                "hand-over closed",
                closed_message(GameSettings(settings), request, result, reason=reason),
            )


def draw_forms(sent: Sent, lang: str) -> None:
    """Every form at the largest values and longest names."""
    auction = auction_key({"kind": "lot", "square": 39}, BIGGEST_GAME)
    sent.add("form", BidForm(BIGGEST_GAME, 10**7, lang, auction=auction))
    sent.add("form", BidForm(BIGGEST_GAME, 10**7, lang, auction=auction, sealed=True))
    for name in NAMES:
        form = CashForm(BIGGEST_GAME, 10**9, lang, name, 10**15, 10**15)
        sent.add("trade money form", form)
    sent.add("form", LotValueForm(BIGGEST_GAME, 10**9, lang, 10**15))
    for group in range(len(AMOUNTS)):
        sent.add("house rules form", AmountsForm(BIGGEST_GAME, lang, group))


def draw_history_and_lists(sent: Sent, lang: str) -> None:
    """The history list full of ten-player games, the lists of ``/monopoly games`` and
    ``stats``, and ``verify``'s answers."""
    when = datetime(2099, 12, 31, tzinfo=UTC)
    entries: list[HistoryEntry | int] = [
        HistoryEntry(BIGGEST_GAME - n, "board", NAMES, NAMES[:3], 9999, when) for n in range(9)
    ]
    former = tuple(NAMES[:3] for _ in NAMES)  # every seat handed over three times
    entries.append(HistoryEntry(BIGGEST_GAME - 9, "board", NAMES, NAMES[:3], 9999, when, former))
    entries.append(BIGGEST_GAME)
    sent.add("history, ten-player games", history_message(entries, 9999, 99_999, lang))
    ranking = [Standing(USER_ID + n, NAMES[n % 10], 99_999, 99_999) for n in range(30)]
    sent.add("stats", leaderboard_text(ranking, lang, None, USER_ID + 29))
    wins = tuple(
        BiggestWin(BIGGEST_GAME, kind, 10**12, 10**12, 10, 9999, "EUR")
        for kind in ("board", "cards")
    )
    record = PlayerRecord(USER_ID, NAMES[2], 99_999, 99_999, 9.9, "dark_blue", 99_999, wins)
    for name in NAMES:
        sent.add("stats of a player", player_record_text(record, lang, None, name))
    rows = [game_row(ten_players(), lang, channel=n) for n in range(30)]
    sent.add("games", games_text(rows, lang))
    sent.add("settings", "\n".join(settings_lines(rows[0], lang)))
    result = Verification("board", BIGGEST_GAME, 2**63 - 1, "f" * 64, 10**6, 10**6, 10**6, True)
    sent.add("verify", verification_embed(lang, result))
    for kind in ("fingerprint", "start", "throw", "deal", "action", "end"):
        mismatch = Mismatch(kind, 10**6, 10**6, 10**6, [6, 6], [1, 1], ("x" * 40,) * 9, "y" * 500)
        failed = Verification("cards", BIGGEST_GAME, 1, "f" * 64, mismatch=mismatch)
        sent.add(f"verify: {kind}", verification_embed(lang, failed))


def game_row(state: GameState, lang: str, *, channel: int = 0) -> GameRow:
    """A stored running game of ``state`` (for the lists and the digest)."""
    settings = settings_of(state, lang, turn_message=USER_ID, paused=True)
    when = datetime(2099, 12, 31, tzinfo=UTC)
    return GameRow(
        BIGGEST_GAME,
        USER_ID,
        USER_ID + channel,
        GameStatus.RUNNING,
        10**7,
        USER_ID,
        when,
        when,
        settings,
        None,
        None,
        state=state,
    )


def digest_row_message(state: GameState, settings: dict[str, Any]) -> dict[str, Any]:
    """The daily digest of ``state`` (cogs/timers.py sends it with the board)."""
    row = game_row(state, settings["lang"])
    return {"embed": digest_embed(row)}


@pytest.fixture(scope="module")
def sent() -> Sent:
    """Everything drawn in this module, checked."""
    found = Sent()
    for lang in LANGS:
        draw_routes_positions(found, lang)
        draw_big_board_games(found, lang)
        draw_lobbies(found, lang)
        draw_forms(found, lang)
        draw_history_and_lists(found, lang)
        draw_card_games(found, lang)
    draw_played_board_game(found, "de", seed=7, theme=True)
    draw_played_board_game(found, "en", seed=8, theme=False)
    return found


# -- the tests: messages, views, forms --------------------------------------------------------


def test_every_message_view_and_form_fits_discords_limits(sent: Sent) -> None:
    """Every message, edit, view, form and answer the UI draws here (both games, both
    languages, the largest games and longest names) is one Discord accepts; and the
    drawings reach every kind of request, many distinct bodies of each (one test: the
    drawings are made once per worker)."""
    assert not sent.problems, "payloads Discord would refuse:\n" + sent.report()
    assert set(sent.checked) == {
        "create_message",
        "update_message",
        "create_interaction_response",
        "execute_webhook",
        "update_original_webhook_message",
    }
    assert min(sent.checked.values()) > 100, sent.checked
    every_form = set(subclasses(Form))
    assert every_form and every_form <= sent.forms, every_form - sent.forms


def subclasses(cls: type) -> Iterator[type]:
    """Every subclass of ``cls`` (of the modules imported: the extension imports all cogs)."""
    for sub in cls.__subclasses__():
        yield sub
        yield from subclasses(sub)


def test_autocomplete_answers_fit() -> None:
    """``/monopoly verify``'s suggestions (a game's players by name) stay within a choice's
    100 characters, also for ten players with the longest names."""
    when = datetime(2099, 12, 31, tzinfo=UTC)
    settings = {"players": [{"name": name} for name in NAMES], "game": "board"}
    info = GameInfo(BIGGEST_GAME, 1, 1, GameStatus.FINISHED, 1, 1, when, when, settings, None, None)
    for lang in LANGS:
        choices = [
            discord.app_commands.Choice(name=game_choice(lang, info), value=str(BIGGEST_GAME))
        ] * 25
        body = autocomplete_body(choices)
        assert check_request("create_interaction_response", body) == []


# -- the tests: the command tree --------------------------------------------------------------


@pytest.fixture(scope="module")
def synced(tmp_path_factory: pytest.TempPathFactory) -> dict[str, list[dict[str, Any]]]:
    """What a sync of the bot's real command tree sends: globally and to one server."""
    path = tmp_path_factory.mktemp("sync") / "games.db"
    settings = Settings(discord_token=None, db_path=path, log_level="INFO", dev_guild_id=None)

    async def payloads() -> dict[str, list[dict[str, Any]]]:
        bot = MonopolyBot(settings, sync="off")
        try:
            await bot.setup_hook()  # loads every cog and sets the German translator
            found = {"global": await sync_payload(bot.tree, None)}
            guild = discord.Object(id=USER_ID)
            bot.tree.copy_global_to(guild=guild)
            found["guild"] = await sync_payload(bot.tree, guild)
            return found
        finally:
            await bot.close()

    return asyncio.run(payloads())


@pytest.mark.parametrize("target", ["global", "guild"])
def test_the_command_tree_fits_discords_limits(
    synced: dict[str, list[dict[str, Any]]], target: str
) -> None:
    """The bulk sync of every command, subcommand, option and choice, with its German
    names and descriptions, is one Discord accepts (a single refused text refuses all)."""
    operation = {
        "global": "bulk_set_application_commands",
        "guild": "bulk_set_guild_application_commands",
    }[target]
    problems = check_request(operation, synced[target])
    assert problems == [], "\n".join(map(str, problems))


def test_the_command_tree_is_translated_and_has_room(
    synced: dict[str, list[dict[str, Any]]],
) -> None:
    """Every name and description has a German text (so the check above covered both
    languages), and ``/monopoly`` keeps room below Discord's 8 000 characters."""

    def walk(item: dict[str, Any]) -> Iterator[dict[str, Any]]:
        yield item
        for option in item.get("options") or []:
            yield from walk(option)

    items = [item for command in synced["global"] for item in walk(command)]
    assert len(items) > 50
    for item in items:
        assert "de" in (item.get("description_localizations") or {}), item["name"]
    for command in synced["global"]:
        assert command_size(command) < COMMAND_TOTAL_MAX * 0.9, command["name"]


# -- the tests: every text of the catalogs ---------------------------------------------------


class Longest(dict[str, str]):
    """Placeholder values as long as a name gets: 40 characters, a theme's longest name
    (a player's is 32)."""

    def __missing__(self, key: str) -> str:
        return "Ｗ" * MAX_NAME


@pytest.mark.parametrize("lang", LANGS)
def test_every_catalog_text_fits_a_message(lang: str) -> None:
    """Every text of the catalogs, its placeholders filled with 40-character names, fits
    a message's content with room to spare (the longest is ``/monopoly help``)."""
    formatter = string.Formatter()
    too_long = {}
    for key, text in catalog(lang).items():
        filled = formatter.vformat(text, (), Longest())
        if len(filled) > CONTENT_MAX * 0.9:
            too_long[key] = len(filled)
    assert too_long == {}


# -- the tests: the checker itself ------------------------------------------------------------


def test_the_schemas_name_their_source() -> None:
    """The kept schemas say where they came from: repository, commit, file."""
    source = schemas().source
    assert source["repository"] == "https://github.com/discord/discord-api-spec"
    assert len(source["commit"]) == 40 and source["file"] == "specs/openapi.json"
    assert Path(__file__).with_name("data").joinpath("discord_api", "README.md").exists()


def problems_of(operation: str, body: Any) -> list[str]:
    """The problems of one body, as text."""
    return [str(problem) for problem in check_request(operation, body)]


def test_the_checker_finds_what_discord_refuses() -> None:
    """Payloads Discord refuses are found (so a pass above means something)."""
    embed = discord.Embed(title="x" * 257, description="d" * 4000)
    embed.add_field(name="", value="v" * 1025)
    view = discord.ui.View()
    for n in range(6):
        view.add_item(discord.ui.Button(label="b" * 81, custom_id=f"id{n % 5}", row=n % 5))
    body = message_bodies({"content": "c" * 2001, "embeds": [embed, embed], "view": view})
    found = "\n".join(problems_of(*body["posted"]))
    for expected in (
        "content: content of 2001 characters, at most 2000",
        "embeds[0].title: 257 characters",
        "embeds[0].fields[0].name: is empty",
        "embeds[0].fields[0].value: 1025 characters",
        "embeds: 10564 characters in all embeds together, at most 6000",
        "components[0].components[0].label: 81 characters",
        "custom_id 'id0' repeats",
    ):
        assert expected in found, found
    commands = [
        {
            "name": "Monopoly",
            "type": 1,
            "description": "x",
            "description_localizations": {"de": "x" * 101},
            "options": [
                {"type": 3, "name": "a b", "description": "x"},
                {"type": 3, "name": "c", "description": "x", "required": True},
            ],
        }
    ]
    found = "\n".join(problems_of("bulk_set_application_commands", commands))
    for expected in (
        "[0].name: 'Monopoly' is not lower case",
        "[0].description_localizations.de: 101 characters",
        "[0].options[0].name: 'a b' has characters Discord refuses: [' ']",
        "[0].options[1]: a required option after an optional one",
    ):
        assert expected in found, found


def test_the_checker_wants_labels_in_forms() -> None:
    """A form's field in an action row (deprecated) is found; the bot's forms use Labels."""
    modal = discord.ui.Modal(title="t" * 46, custom_id="f:1:x:n")
    modal.add_item(discord.ui.TextInput(label="l", custom_id="a", default="v" * 30, max_length=20))
    found = "\n".join(problems_of("create_interaction_response", modal_body(modal)))
    assert "data.title: 46 characters" in found
    assert "action row in a modal" in found
    assert "data.components[0].components[0].value: 30 characters, 0 to 20" in found
    form = CashForm(GAME_ID, 1, "de", NAMES[0], 1, 2)
    assert [c["type"] for c in modal_body(form)["data"]["components"]] == [18, 18]


def test_long_lists_are_cut_to_a_field() -> None:
    """Lists of lots in a field keep whole lines and count the rest, within 1 024."""
    lines = [f"• {'Ｗ' * MAX_NAME}" for _ in range(28)]
    text = fit_lines(lines, "de")
    assert len(text) <= FIELD_VALUE_MAX and text.endswith("… und 5 weitere")
    assert text.splitlines()[:-1] == lines[:23]
    assert fit_lines(lines[:3], "en") == "\n".join(lines[:3])
    assert fit_lines([], "en") == "–"


def test_problems_say_where_and_what() -> None:
    """A problem reads as its JSON path and what is wrong."""
    assert str(Problem("embeds[0].title", "257 characters")) == "embeds[0].title: 257 characters"
    assert str(Problem("", "an empty message")) == "(body): an empty message"
