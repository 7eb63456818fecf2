"""The one route table: every custom id's action and the handler that owns it.

Keys are ``(kind, action)`` of a :class:`~cogs.ui.ids.ClickRef`: ``game`` buttons
(``m:{game}:{seq}:{act}``), ``lobby`` buttons (``m:{game}:L:{act}``), ``panel`` buttons and
selects of private menus (``xb:`` / ``xs:``) and submitted ``form``s (``f:``). A route names
its handler by cog and method (``cogs/<feature>.py``) and says what the dispatcher does
first (see :class:`~cogs.core.routes_base.Route`). To find what a button does, look up its
custom id's action here; to add one, add a line here and the method in its cog. A test
checks that every route's handler exists and every button the UI draws has a route.
"""

from __future__ import annotations

from cogs.core.routes_base import ANYONE, DEFER, DEFER_PRIVATE, HOST, SEAT, SELF, Route
from cogs.ui.ids import FORM, GAME, LOBBY, PANEL

PLAY, PROPERTY, TRADES = "Play", "Property", "Trades"
LOBBY_COG, CARDS, ASYNC = "Lobby", "CardGame", "AsyncPlay"
HISTORY = "History"
MEMBERS = "Members"
HANDOVER = "Handover"


def _many(kind: str, actions: str, route: Route) -> dict[tuple[str, str], Route]:
    return {(kind, action): route for action in actions.split()}


ROUTES: dict[tuple[str, str], Route] = {
    # -- the turn message and the auction (cogs/play.py) -----------------------------------
    **_many(
        GAME,
        "roll pay_bail use_jail_card buy decline choose_pay choose_draw keep_mortgages "
        "end_turn declare_bankruptcy",
        Route(PLAY, "simple", SEAT, DEFER, seq=True),
    ),
    (GAME, "lift_mortgages"): Route(PLAY, "lift_all", SEAT, DEFER, seq=True),
    (GAME, "raise"): Route(PLAY, "raise_bid", SEAT, DEFER),
    (GAME, "auction_pass"): Route(PLAY, "pass_auction", SEAT, DEFER),
    **_many(GAME, "bid_modal sealed_modal", Route(PLAY, "bid_form", ANYONE, SELF)),
    **_many(FORM, "bid sealed", Route(PLAY, "bid", ANYONE, SELF)),
    (GAME, "resign"): Route(PLAY, "resign", SEAT, SELF),
    (GAME, "resign_confirm"): Route(PLAY, "resign_confirm", SEAT, DEFER),
    **_many(
        GAME,
        "build sell_building mortgage unmortgage",
        Route(PLAY, "square_action", SEAT, DEFER_PRIVATE),
    ),
    # -- building, mortgages, debts, received mortgages, rent (cogs/property.py) ----------
    # Looking at the game as it is now (the turn and auction messages): anyone, any time.
    (GAME, "deed"): Route(PROPERTY, "show_deed", ANYONE, DEFER_PRIVATE),
    (GAME, "full_board"): Route(PROPERTY, "show_board", ANYONE, DEFER_PRIVATE),
    (GAME, "manage"): Route(PROPERTY, "open_manage", SEAT),
    **_many(PANEL, "mg mr mk", Route(PROPERTY, "show_group", SEAT)),
    **_many(PANEL, "mb ms", Route(PROPERTY, "build_step", SEAT)),
    (PANEL, "mm"): Route(PROPERTY, "to_mortgages", SEAT),
    **_many(PANEL, "mo mp", Route(PROPERTY, "pick_mortgages", SEAT)),
    (PANEL, "mc"): Route(PROPERTY, "confirm_mortgages", SEAT),
    (GAME, "debt_manage"): Route(PROPERTY, "debt_manage", SEAT),
    (GAME, "lift_choice"): Route(PROPERTY, "lift_choice", SEAT),
    **_many(PANEL, "lc lq", Route(PROPERTY, "pick_lifts", SEAT)),
    (PANEL, "ld"): Route(PROPERTY, "confirm_lifts", SEAT),
    (GAME, "claim_rent"): Route(PROPERTY, "claim_rent", SEAT),
    # -- trades and lot offers (cogs/trades.py) ------------------------------------------
    (GAME, "trade_menu"): Route(TRADES, "pick_partner_menu", SEAT),
    (PANEL, "tq"): Route(TRADES, "partner_picked", SEAT),
    **_many(PANEL, "tl tp", Route(TRADES, "pick_trade_lots", SEAT)),
    (PANEL, "tc"): Route(TRADES, "toggle_card", SEAT),
    (PANEL, "tm"): Route(TRADES, "money_form", ANYONE),
    (FORM, "cash"): Route(TRADES, "money", SEAT),
    **_many(PANEL, "tx lx", Route(TRADES, "cancel", ANYONE)),
    (PANEL, "ts"): Route(TRADES, "send", SEAT),
    (GAME, "trade_accept"): Route(TRADES, "accept", SEAT),
    **_many(GAME, "trade_decline trade_withdraw", Route(TRADES, "drop", SEAT)),
    (GAME, "trade_counter"): Route(TRADES, "counter", SEAT),
    (GAME, "offer_lots"): Route(TRADES, "offer_lots", SEAT),
    **_many(PANEL, "lo lp", Route(TRADES, "pick_offered_lots", SEAT)),
    (PANEL, "lv"): Route(TRADES, "lot_value_form", ANYONE),
    (FORM, "lot_value"): Route(TRADES, "lot_value", SEAT),
    **_many(GAME, "lots_accept lots_decline lots_withdraw", Route(TRADES, "answer_lots", SEAT)),
    # -- the lobby and house rules (cogs/lobby.py) ---------------------------------------
    **_many(LOBBY, "join leave", Route(LOBBY_COG, "join_or_leave", ANYONE)),
    (LOBBY, "rules"): Route(LOBBY_COG, "show_rules", ANYONE),
    (LOBBY, "house_rules"): Route(LOBBY_COG, "house_rules", HOST),
    (LOBBY, "start"): Route(LOBBY_COG, "start_game", ANYONE),
    (PANEL, "lobby_cpu"): Route(LOBBY_COG, "computers", ANYONE),
    (PANEL, "hr"): Route(LOBBY_COG, "rule_choice", HOST),
    (PANEL, "hr_toggle"): Route(LOBBY_COG, "rule_toggle", HOST),
    (PANEL, "hr_amounts"): Route(LOBBY_COG, "amounts_form", ANYONE),
    (FORM, "hr_amounts"): Route(LOBBY_COG, "amounts", HOST),
    # A player's words for the seed (docs/fair-dice.md): the handler checks the lobby.
    (LOBBY, "words"): Route(LOBBY_COG, "words_form", ANYONE),
    (FORM, "words"): Route(LOBBY_COG, "words", ANYONE),
    # -- play over days (cogs/asyncplay.py) ----------------------------------------------
    (GAME, "vote"): Route(ASYNC, "vote", ANYONE),
    # -- a seat handed to another member (cogs/handover.py): the handler checks who --------
    **_many(
        GAME,
        "ho_accept ho_decline ho_withdraw ho_confirm ho_refuse ho_yes ho_no",
        Route(HANDOVER, "answer", ANYONE, DEFER),
    ),
    # -- the card game (cogs/cardgame.py) -------------------------------------------------
    (GAME, "c_hand"): Route(CARDS, "open_hand", SEAT),
    (PANEL, "c_draw"): Route(CARDS, "draw", SEAT),
    **_many(PANEL, "c_lay c_arrange", Route(CARDS, "suggested", SEAT)),
    (PANEL, "c_swap"): Route(CARDS, "swap", SEAT),
    (PANEL, "c_discard"): Route(CARDS, "discard", SEAT),
    (PANEL, "c_pass"): Route(CARDS, "pass_card", SEAT),
    (PANEL, "c_custom"): Route(CARDS, "custom", SEAT),
    (PANEL, "c_assign"): Route(CARDS, "assign", SEAT),
    (PANEL, "c_assign_page"): Route(CARDS, "assign_page", SEAT),
    (PANEL, "c_custom_go"): Route(CARDS, "custom_go", SEAT),
    (PANEL, "c_first"): Route(CARDS, "first", SEAT),
    # -- the history and the replay viewer (cogs/history.py): the handler checks the
    # -- server, and the seat for a running game; answered first (a board is drawn) ----
    (PANEL, "hist_page"): Route(HISTORY, "page", ANYONE, DEFER),
    (PANEL, "hist_pick"): Route(HISTORY, "pick", ANYONE, DEFER),
    (PANEL, "rv_open"): Route(HISTORY, "open_replay", ANYONE, DEFER),
    **_many(PANEL, "rv_back rv_prev rv_next rv_fwd", Route(HISTORY, "step", ANYONE, DEFER)),
    # -- a member's games and following a game (cogs/members.py): the handlers check the
    # -- user themselves; the list works in a DM too (no server there) ------------------
    (PANEL, "mine"): Route(MEMBERS, "open_mine", ANYONE, DEFER),
    (PANEL, "mine_page"): Route(MEMBERS, "mine_page", ANYONE, DEFER),
    (GAME, "follow"): Route(MEMBERS, "follow", ANYONE, DEFER_PRIVATE),
    (PANEL, "follow"): Route(MEMBERS, "follow", ANYONE, DEFER_PRIVATE),
}
