"""The route table (cogs/core/routes.py) against the cogs and the UI, without Discord.

Every route leads to a handler that exists, and every custom id the UI draws leads to a
route: the messages and menus of ``cogs.ui`` are built for real positions of both games
(engine states, no connection) and each component's custom id is parsed with the patterns
of ``cogs/ui/ids.py``. Custom ids the feature cogs write themselves are found in their
source. Custom ids also stay within Discord's 100 characters for the largest game ids.
"""

from __future__ import annotations

import ast
import inspect
import re
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import discord
import pytest

from bot.cardgame import CardState, SimpleCardPlayer, apply_action, waiting_for
from bot.cardgame.cards import HOUSE, PROPERTY, TOKEN
from bot.engine.game import apply_action as apply_board_action
from bot.engine.record import GameRecord
from bot.engine.state import GameState
from bot.replay_cache import ReplayCache
from bot.settings import GameSettings
from bot.store.bench import next_simple_action
from cogs.core.routes import ROUTES
from cogs.core.routes_base import Route
from cogs.extension import FEATURES
from cogs.ui import mine as mine_ui
from cogs.ui.auction import auction_message
from cogs.ui.cards_hand import LayoutDraft, assign_message, hand_message
from cogs.ui.cards_table import table_message
from cogs.ui.follow import follow_offer, summary_text, summary_view, turn_line
from cogs.ui.forms import BidForm, CashForm, LotValueForm
from cogs.ui.handover import handover_message
from cogs.ui.history import HistoryEntry, history_message
from cogs.ui.house_rules import AMOUNTS, AmountsForm, house_rules_panel
from cogs.ui.ids import (
    BUTTON_PATTERN,
    FORM,
    FORM_PATTERN,
    GAME,
    GAME_PATTERN,
    LOBBY,
    PANEL,
    SELECT_PATTERN,
    Form,
    custom_id,
    panel_id,
)
from cogs.ui.lobby import WordsForm, lobby_message
from cogs.ui.manage import LiftDraft, MortgageDraft, build_panel, lift_panel, mortgage_panel
from cogs.ui.offers import lots_offer_message, offer_message
from cogs.ui.trade_menu import LotsDraft, TradeDraft, builder_message, lots_panel
from cogs.ui.turn import turn_view
from cogs.ui.viewer import replay_view, viewer_message
from cogs.ui.vote import vote_message
from tests.cardgame.conftest import game as card_game
from tests.engine.conftest import (
    BADSTRASSE,
    DARK_BLUE,
    THEATERSTRASSE,
    WASSERWERK,
    act,
    game,
    owned,
)
from tests.engine.test_legal import POSITIONS

ROOT = Path(__file__).resolve().parents[1]
GAME_ID = 4711
LANGS = ("de", "en")

#: Components drawn without a route, on purpose: the label between a building row's "−"
#: and "+" in the building menu, always disabled (cogs/ui/manage.py).
LABEL_ONLY = frozenset({(PANEL, "mi")})

#: Routes for buttons the UI no longer draws: the per-square buttons of turn messages
#: posted by an earlier version, still answered (``Play.square_action``).
LEGACY = frozenset(
    {(GAME, "build"), (GAME, "sell_building"), (GAME, "mortgage"), (GAME, "unmortgage")}
)

#: Discord's limit for a component's or a form's custom id.
CUSTOM_ID_MAX = 100

Component = dict[str, Any]


# -- reading components ---------------------------------------------------------------


def route_of(component: Component) -> tuple[str, str]:
    """The route key a component's custom id names (fails on an id of no known shape)."""
    text = component["custom_id"]
    kind = component.get("type")
    if match := re.fullmatch(GAME_PATTERN, text):
        assert kind == discord.ComponentType.button.value, text
        return (LOBBY if match["seq"] == "L" else GAME, match["act"])
    if match := re.fullmatch(BUTTON_PATTERN, text):
        assert kind == discord.ComponentType.button.value, text
        return (PANEL, match["kind"])
    if match := re.fullmatch(SELECT_PATTERN, text):
        assert kind == discord.ComponentType.string_select.value, text
        return (PANEL, match["kind"])
    if match := FORM_PATTERN.fullmatch(text):
        assert kind == "form", text
        return (FORM, match["kind"])
    raise AssertionError(f"custom id of no known shape: {text!r}")


def components(drawn: Any) -> Iterator[Component]:
    """The components of a message dict (its ``view``), a view, or a form (as ``form``)."""
    if isinstance(drawn, Form):
        yield {"type": "form", "custom_id": drawn.custom_id}
        for item in drawn.children:
            assert len(getattr(item, "custom_id", "") or "") <= CUSTOM_ID_MAX
        return
    view = drawn["view"] if isinstance(drawn, dict) else drawn
    if view is None:
        return
    assert isinstance(view, discord.ui.View)
    for row in view.to_components():
        yield from row["components"]


class Drawn:
    """Every component drawn by the UI in this module, with where it came from."""

    def __init__(self) -> None:
        self.seen: dict[tuple[str, str], list[tuple[str, Component]]] = {}

    def add(self, source: str, drawn: Any) -> None:
        """Parse and keep the components of one message, view or form."""
        for component in components(drawn):
            self.seen.setdefault(route_of(component), []).append((source, component))


# -- positions of the board game ------------------------------------------------------


def settings_for(state: GameState | CardState, lang: str, **extra: Any) -> dict[str, Any]:
    """Game settings as the lobby leaves them (players, host, language, preset)."""
    players = [{"id": int(p.id) if p.id.isdigit() else p.id, "name": p.name} for p in state.players]
    return {
        "lang": lang,
        "host": players[0]["id"],
        "players": players,
        "preset": "classic",
        "theme": None,
        "max_players": 6,
        **extra,
    }


def debt_before_an_offer() -> GameState:
    """Seat 0 owes seat 1 more rent than it has and may offer lots (no offer yet)."""
    state = game(
        [{"cash": 100, "position": 33}, {}],
        lots={**owned(1, *DARK_BLUE, houses=1), **owned(0, THEATERSTRASSE, 23)},
    )
    act(state, "roll", 0, dice=[1, 3])
    return state


def two_mortgaged_lots_received() -> GameState:
    """Seat 1 receives two mortgaged lots in a trade: lift all, keep all, or choose."""
    state = game(
        [{}, {}],
        lots={
            WASSERWERK: {"owner": 0, "mortgaged": True},
            BADSTRASSE: {"owner": 0, "mortgaged": True},
        },
    )
    act(state, "propose_trade", 0, to=1, give={"lots": [WASSERWERK, BADSTRASSE]})
    act(state, "accept_trade", 1, trade=1)
    return state


def sealed_auction() -> GameState:
    """A lot declined and auctioned with sealed bids (house rule)."""
    state = game([{}, {}, {}], rules={"sealed_auctions": True})
    act(state, "roll", 0, dice=[1, 2])
    act(state, "decline", 0)
    return state


def everything_owned() -> GameState:
    """Seat 0 owns every lot, some mortgaged and one group built: every list is paged."""
    state = game([{"cash": 5000}, {"cash": 5000}, {}])
    for square in range(40):
        if state.board.squares[square].is_property:
            state.owner[square] = 0
    state.mortgaged[WASSERWERK] = True
    state.houses[DARK_BLUE[0]] = state.houses[DARK_BLUE[1]] = 2
    return state


def in_debt_with_many_lots() -> GameState:
    """Seat 0 owns 26 lots and owes rent it cannot pay: its list of lots to offer is paged."""
    board = game().board
    lots = {
        square: {"owner": 0}
        for square in range(40)
        if board.squares[square].is_property and square not in DARK_BLUE
    }
    state = game([{"cash": 0, "position": 33}, {}], lots={**lots, **owned(1, *DARK_BLUE, houses=1)})
    act(state, "roll", 0, dice=[1, 3])
    assert state.phase == "debt"
    return state


def many_mortgaged_lots_received() -> GameState:
    """Seat 1 receives 28 mortgaged lots at once: the per-lot choice is paged."""
    board = game().board
    squares = [square for square in range(40) if board.squares[square].is_property]
    state = game(
        [{}, {"cash": 20000}],
        lots={square: {"owner": 0, "mortgaged": True} for square in squares},
    )
    act(state, "propose_trade", 0, to=1, give={"lots": squares})
    act(state, "accept_trade", 1, trade=1)
    assert state.phase == "mortgage_choice"
    return state


def over() -> GameState:
    """A game of two whose second-last player went bankrupt."""
    state = game([{"cash": 0, "position": 33}, {}], lots=owned(1, *DARK_BLUE, houses=1))
    act(state, "roll", 0, dice=[1, 3])
    act(state, "declare_bankruptcy", 0)
    assert state.phase == "over"
    return state


BOARD_POSITIONS = {
    **POSITIONS,
    "debt_before_an_offer": debt_before_an_offer,
    "two_mortgaged_lots_received": two_mortgaged_lots_received,
    "sealed_auction": sealed_auction,
    "everything_owned": everything_owned,
    "in_debt_with_many_lots": in_debt_with_many_lots,
    "many_mortgaged_lots_received": many_mortgaged_lots_received,
    "over": over,
}


def played_states(seed: int, actions: int) -> Iterator[GameState]:
    """The states of a four-player game of the built-in simple players, action by action."""
    state = game([{}, {}, {}, {}], seed=seed)
    for _ in range(actions):
        yield state
        action = next_simple_action(state)
        if action is None:
            return
        apply_board_action(state, action)


def draw_board_game(drawn: Drawn, name: str, state: GameState, lang: str, **extra: Any) -> None:
    """Everything the UI shows of a board-game position: turn message, auction, offers,
    lot offer, the private menus of every seat and the forms they open (``extra``: more
    settings, such as a theme; tests/test_discord_limits.py)."""
    settings = settings_for(
        state, lang, **{"trade_closes": {}, "deadline_at": 1, "ends_at": 2, **extra}
    )
    drawn.add(f"{name}: turn", turn_view(GAME_ID, state, GameSettings(settings)))
    if state.auction is not None:
        drawn.add(f"{name}: auction", auction_message(GAME_ID, state, GameSettings(settings)))
    for trade in state.trades:
        drawn.add(f"{name}: offer", offer_message(GAME_ID, state, GameSettings(settings), trade))
    if state.lot_offer is not None:
        drawn.add(f"{name}: lot offer", lots_offer_message(GAME_ID, state, GameSettings(settings)))
    for seat in range(len(state.players)):
        drawn.add(
            f"{name}: build", build_panel(state, GameSettings(settings), seat, GAME_ID, lang, None)
        )
        draft = MortgageDraft(GAME_ID, seat)
        drawn.add(
            f"{name}: mortgages", mortgage_panel(state, GameSettings(settings), seat, draft, lang)
        )
        # Something chosen, so the confirm button is on.
        draft.mortgage = {s for s, owner in enumerate(state.owner) if owner == seat}
        drawn.add(
            f"{name}: mortgages", mortgage_panel(state, GameSettings(settings), seat, draft, lang)
        )
        partner = (seat + 1) % len(state.players)
        trade = TradeDraft(GAME_ID, seat, seat=seat, partner=partner, partner_name="x")
        trade.give_cards = list(state.players[seat].jail_cards)
        drawn.add(
            f"{name}: trade builder", builder_message(state, GameSettings(settings), trade, lang)
        )
    if state.mortgage_choices:
        seat = state.mortgage_choices[0]["player"]
        draft_lift = LiftDraft(GAME_ID, seat)
        drawn.add(
            f"{name}: lift", lift_panel(state, GameSettings(settings), seat, draft_lift, lang)
        )
    if state.debts and state.debts[0]["creditor"] >= 0:
        debtor = state.debts[0]["debtor"]
        lots = LotsDraft(GAME_ID, debtor, seat=debtor)
        drawn.add(f"{name}: lots", lots_panel(state, GameSettings(settings), lots, lang))
        lots.lots = {s for s, owner in enumerate(state.owner) if owner == debtor}
        drawn.add(f"{name}: lots", lots_panel(state, GameSettings(settings), lots, lang))
    for seat in range(len(state.players)):
        ballots = {str((seat + 1) % len(state.players)): "wait"}
        drawn.add(
            f"{name}: vote", vote_message(GAME_ID, state, GameSettings(settings), seat, ballots)
        )
    for stage in ("asked", "confirm", "vote"):
        request = {
            "id": 1,
            "from_id": state.players[0].id,
            "from_name": state.players[0].name,
            "to_id": "99",
            "to_name": "Zoe",
            "stage": stage,
            "ballots": {"1": "yes"},
        }
        drawn.add(
            f"{name}: handover",
            handover_message(GAME_ID, state, GameSettings(settings), 0, request),
        )


# -- positions of the card game -------------------------------------------------------


def draw_card_game(
    drawn: Drawn, players: int, seed: int, lang: str, *, names: tuple[str, ...] = ()
) -> None:
    """A whole card game of the simple player: the table and every hand at every step
    (``names``: the players' names, else the defaults; tests/test_discord_limits.py)."""
    state = card_game(players, seed)
    for player, name in zip(state.players, names, strict=False):
        player.name = name
    player = SimpleCardPlayer()
    for _ in range(1000):
        settings = settings_for(state, lang, card_lines=[], deadline_at=1)
        drawn.add("card table", table_message(GAME_ID, state, GameSettings(settings)))
        if state.phase == "over":
            return
        for seat in range(players):
            drawn.add(f"hand in {state.phase}", hand_message(GAME_ID, state, seat, lang))
        seat = waiting_for(state)[0]
        apply_action(state, player.decide(state, seat))
    raise AssertionError("the card game did not end")


def draw_assignment(drawn: Drawn, lang: str) -> None:
    """The step before one's own lay-out, with one page and with several."""
    state = card_game(4, 1)
    deck = state.deck
    streets = [c for c in deck.ids if deck.card(c).kind == PROPERTY][:3]
    extras = [c for c in deck.ids if deck.card(c).kind in (HOUSE, TOKEN)]
    for cards in ([*streets, *extras[:2]], [*streets, *extras]):
        draft = LayoutDraft(GAME_ID, 1, cards=cards)
        drawn.add("assignment", assign_message(GAME_ID, state, draft, lang))
        draft.page = 1
        drawn.add("assignment", assign_message(GAME_ID, state, draft, lang))


# -- lobbies and forms ----------------------------------------------------------------


def draw_lobbies_and_forms(drawn: Drawn, lang: str) -> None:
    """Both games' lobbies, the house rules panel and every form."""
    for kind in ("board", "cards"):
        settings = {
            "lang": lang,
            "host": 1,
            "players": [
                {"id": 1, "name": "Ann"},
                {"id": "cpu1", "name": "Bot", "computer": "easy"},
            ],
            "preset": "classic",
            "theme": None,
            "max_players": 6,
            "game": kind,
        }
        drawn.add(f"lobby of {kind}", lobby_message(GAME_ID, GameSettings(settings)))
        drawn.add("house rules", house_rules_panel(GAME_ID, GameSettings(settings), lang))
    drawn.add("form", BidForm(GAME_ID, 12, lang, auction="39-4711"))
    drawn.add("form", BidForm(GAME_ID, 12, lang, auction="39-4711", sealed=True))
    drawn.add("form", CashForm(GAME_ID, 3, lang, "Ben", 100, 0))
    drawn.add("form", LotValueForm(GAME_ID, 3, lang, 250))
    for group in range(len(AMOUNTS)):
        drawn.add("form", AmountsForm(GAME_ID, lang, group))
    drawn.add("form", WordsForm(GAME_ID, lang, "Glück"))


# -- the history and the replay viewer -------------------------------------------------


def draw_history(drawn: Drawn, lang: str) -> None:
    """The history list (one page, several pages, an unreadable game), a recap's Replay
    button and the viewer at the first, a middle and the last turn of both games."""
    board = game([{}, {}, {}, {}], seed=3)
    record = GameRecord.begin(board)
    for _ in range(300):
        action = next_simple_action(board)
        if action is None:
            break
        record.add(action, apply_board_action(board, action))
    cards = card_game(3, 2)
    card_record = GameRecord(start=cards.to_dict())
    player = SimpleCardPlayer()
    while cards.phase != "over":
        action = player.decide(cards, waiting_for(cards)[0])
        apply_action(cards, action)
        card_record.actions.append({"action": action, "dice": []})
    entry = HistoryEntry(GAME_ID, "board", ("Ann", "Ben"), ("Ann",), 40, None)
    for page, total in ((1, 3), (2, 25), (3, 25)):
        drawn.add("history list", history_message([entry, GAME_ID + 1], page, total, lang))
    drawn.add("recap", replay_view(GAME_ID, lang))
    cache = ReplayCache()
    for key, kept in (("board", record), ("cards", card_record)):
        first, last = cache.turns(key, kept)
        for number in (first, (first + last) // 2, last):
            frame = cache.frame(key, number)
            drawn.add(
                f"viewer of {key}",
                viewer_message(GAME_ID, frame, GameSettings({"lang": lang}), lang),
            )


# -- a member's games and following (cogs/members.py) ----------------------------------


def draw_members(
    drawn: Drawn, lang: str, *, name: str = "Ann", server: str = "Spieleabend"
) -> None:
    """``/monopoly me games`` (one page, a middle and the last of several), its DM button,
    ``/monopoly history``'s offer to follow a running game and a follower's summary
    (``name``, ``server``: the longest ones in tests/test_discord_limits.py)."""
    link = f"https://discord.com/channels/{GAME_ID}/{GAME_ID}/{GAME_ID}"
    entries = [
        mine_ui.MineEntry(
            GAME_ID + n,
            kind,
            status,
            server if n % 3 else None,
            GAME_ID,
            link,
            2**40,
            n % 2 == 0,
            6,
        )
        for n, (kind, status) in enumerate(
            [("board", mine_ui.YOUR_MOVE), ("cards", mine_ui.RUNNING), ("board", mine_ui.LOBBY)] * 9
        )
    ]
    for count, page in ((3, 1), (27, 2), (27, 3)):
        drawn.add("my games", mine_ui.mine_message(entries[:count], page, lang))
    drawn.add("my games button", mine_ui.mine_view(lang))
    drawn.add("follow offer", follow_offer(GAME_ID, lang))
    lines = [turn_line(f"Zug {n} · {name}", [f"🎲 {name} würfelt 6 + 6"] * 12) for n in range(40)]
    text = summary_text(
        lang,
        kind="board",
        game=GAME_ID,
        channel_id=GAME_ID,
        server=server,
        span="Züge 1–40",
        lines=lines,
        link=link,
    )
    drawn.add("follower summary", {"content": text, "view": summary_view(GAME_ID, lang)})


@pytest.fixture(scope="module")
def drawn() -> Drawn:
    """Every component the UI draws for the positions of this module, in both languages."""
    found = Drawn()
    for lang in LANGS:
        for name, position in BOARD_POSITIONS.items():
            draw_board_game(found, name, position(), lang)
        draw_lobbies_and_forms(found, lang)
        draw_assignment(found, lang)
        draw_history(found, lang)
        draw_members(found, lang)
    for index, state in enumerate(played_states(seed=3, actions=400)):
        if index % 4 == 0 or state.auction is not None or state.trades or state.debts:
            draw_board_game(found, f"simple game, action {index}", state, "de")
    for players, seed in ((2, 1), (4, 2), (6, 3)):
        draw_card_game(found, players, seed, "de")
    return found


# -- the tests ------------------------------------------------------------------------


def cog_classes() -> dict[str, type]:
    """The feature cogs the extension loads, by their cog name (``name=`` of the class)."""
    return {cog.__cog_name__: cog for cog in FEATURES}


@pytest.mark.parametrize(("key", "route"), sorted(ROUTES.items()), ids=lambda v: str(v))
def test_every_route_names_an_existing_handler(key: tuple[str, str], route: Route) -> None:
    """Each route names a feature cog of ``cogs.extension.FEATURES`` by its ``name=`` and
    a coroutine method of it that takes exactly one argument, ``click``."""
    cogs = cog_classes()
    assert route.cog in cogs, f"{key}: no feature cog named {route.cog!r}"
    method = getattr(cogs[route.cog], route.handler, None)
    assert method is not None, f"{key}: {route.cog} has no method {route.handler!r}"
    assert inspect.iscoroutinefunction(method), f"{route.cog}.{route.handler} is not async"
    parameters = list(inspect.signature(method).parameters.values())
    assert [p.name for p in parameters] == ["self", "click"], parameters
    assert parameters[1].kind is inspect.Parameter.POSITIONAL_OR_KEYWORD


def test_route_kinds_are_the_four_kinds_of_custom_id() -> None:
    """Routes are keyed by the kinds a click can have: game, lobby, panel, form."""
    assert {kind for kind, _ in ROUTES} <= {GAME, LOBBY, PANEL, FORM}


def test_every_drawn_component_has_a_route(drawn: Drawn) -> None:
    """Every custom id the UI draws (turn messages of many positions, auctions live and
    sealed, offers, lot offers, lobbies of both games, building, mortgage, lifting, trade
    and lot menus, house rules, votes, the card table, hands and lay-out steps, forms)
    parses with the patterns of cogs/ui/ids.py and names a route; the only exceptions are
    the disabled label-only buttons of :data:`LABEL_ONLY`."""
    missing = {
        key: sources[0][0]
        for key, sources in drawn.seen.items()
        if key not in ROUTES and key not in LABEL_ONLY
    }
    assert missing == {}, "components without a route (and where they were drawn first)"
    for key in LABEL_ONLY & set(drawn.seen):
        for source, component in drawn.seen[key]:
            assert component.get("disabled"), f"{key} from {source} is clickable"


def test_the_positions_draw_most_routes(drawn: Drawn) -> None:
    """The positions drawn here reach every route, except those only the cogs themselves
    draw (:func:`drawn_by_cogs`) and the :data:`LEGACY` ones — so the test above checks
    what it claims to."""
    not_drawn = set(ROUTES) - set(drawn.seen) - drawn_by_cogs()
    assert not_drawn == set(LEGACY)


def test_legacy_routes_are_not_drawn_any_more(drawn: Drawn) -> None:
    """The :data:`LEGACY` routes answer old messages only: nothing draws them today."""
    assert set(ROUTES) >= LEGACY
    assert not LEGACY & (set(drawn.seen) | drawn_by_cogs())


def test_no_component_of_a_position_is_out_of_discords_limits(drawn: Drawn) -> None:
    """No custom id drawn here is longer than Discord's 100 characters."""
    for sources in drawn.seen.values():
        for source, component in sources:
            assert len(component["custom_id"]) <= CUSTOM_ID_MAX, (source, component)


# -- custom ids the feature cogs write themselves -------------------------------------

#: Constructors of components and forms, and where their route action is in the call.
BUILDERS = {
    "GameButton": (GAME, 2, "act"),
    "PanelButton": (PANEL, 1, "kind"),
    "PanelSelect": (PANEL, 1, "kind"),
    "custom_id": (GAME, 2, "act"),
}


def literal_ids_in_cogs() -> set[tuple[str, str, str]]:
    """``(kind, action, file:line)`` of every component the cogs outside ``cogs/ui``
    build with a literal action (``GameButton(game, seq, "resign_confirm", …)``)."""
    found = set()
    for path in sorted(ROOT.joinpath("cogs").rglob("*.py")):
        if "ui" in path.relative_to(ROOT / "cogs").parts:
            continue
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            if not isinstance(node, ast.Call):
                continue
            name = getattr(node.func, "id", getattr(node.func, "attr", None))
            if name not in BUILDERS:
                continue
            kind, position, keyword = BUILDERS[name]
            argument = next((k.value for k in node.keywords if k.arg == keyword), None)
            if argument is None and len(node.args) > position:
                argument = node.args[position]
            if isinstance(argument, ast.Constant) and isinstance(argument.value, str):
                where = f"{path.relative_to(ROOT)}:{node.lineno}"
                found.add((kind, argument.value, where))
    return found


def drawn_by_cogs() -> set[tuple[str, str]]:
    """Route keys of the components the feature cogs draw themselves."""
    return {(kind, action) for kind, action, _ in literal_ids_in_cogs()}


def test_components_the_cogs_draw_have_routes() -> None:
    """Components a feature cog builds itself with a literal action (the resign
    confirmation, the trade partner select) name a route, too."""
    found = literal_ids_in_cogs()
    assert found, "no component built in the cogs found: is the search still right?"
    missing = sorted(
        (kind, action, where) for kind, action, where in found if (kind, action) not in ROUTES
    )
    assert missing == []


# -- lengths --------------------------------------------------------------------------

BIGGEST_GAME = 2**63 - 1
BIGGEST_SEQ = 10**7


def longest_args() -> dict[str, str]:
    """The longest argument each kind of custom id carries (from the UI's code)."""
    nonce = str(BIGGEST_SEQ * 100)  # drafts' nonces count up per process
    return {
        "trade": f"{BIGGEST_SEQ}-{'f' * 10}",  # trade id and terms' fingerprint
        "lots": "f" * 10,  # a lot offer's fingerprint
        "vote": "5-computer",
        "raise": "100",
        "claim_rent": "39",
        "picker": f"{nonce}-g-99",  # LotPicker: nonce, side, page
        "assign": f"{nonce}-{99}",
        "card_flag": f"{nonce}-t-community",  # trade builder's jail-free card
        "hr": "auction_declined_lots",  # house-rule names
    }


def test_custom_ids_fit_discord_for_the_largest_values() -> None:
    """With a game id of 2**63-1, seq 10**7 and the longest action names and arguments
    the UI uses, every kind of custom id stays within 100 characters."""
    actions = max((action for _, action in ROUTES), key=len)
    longest_arg = max(longest_args().values(), key=len)
    ids = [
        custom_id(BIGGEST_GAME, BIGGEST_SEQ, actions, longest_arg),
        custom_id(BIGGEST_GAME, "L", actions, longest_arg),
        panel_id("xb", BIGGEST_GAME, actions, longest_arg),
        panel_id("xs", BIGGEST_GAME, actions, longest_arg),
        Form(
            title="t", game=BIGGEST_GAME, action=actions, seq=BIGGEST_SEQ, arg=longest_arg
        ).custom_id,
    ]
    for text in ids:
        assert len(text) <= CUSTOM_ID_MAX, (len(text), text)
    assert re.fullmatch(GAME_PATTERN, ids[0]) and re.fullmatch(BUTTON_PATTERN, ids[2])
    assert re.fullmatch(SELECT_PATTERN, ids[3]) and FORM_PATTERN.fullmatch(ids[4])


def test_drawn_arguments_are_no_longer_than_assumed(drawn: Drawn) -> None:
    """The arguments the positions here draw are no longer than the longest one the
    length test assumes (so that test covers what the UI really does)."""
    longest = max(len(a) for a in longest_args().values())
    for sources in drawn.seen.values():
        for source, component in sources:
            parts = component["custom_id"].split(":")
            arg = parts[4] if parts[0] in ("m", "f") and len(parts) > 4 else ""
            if parts[0] in ("xb", "xs") and len(parts) > 3:
                arg = parts[3]
            assert len(arg) <= longest, (source, component["custom_id"])
