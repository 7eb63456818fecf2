"""Creating a game and applying one action to it.

(Longer than ~400 lines: the dispatch of every action type to its check and handler is
the engine's one entry point; the rules themselves live in the modules it calls.)

Each handler first checks everything (raising :class:`IllegalAction` with the
state untouched) and only then changes the state; :func:`settle` then moves the
game on to whatever it waits for next.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import Any

from bot.engine import auctions, buildings, trades, turns
from bot.engine.board import Board, load_board
from bot.engine.errors import IllegalAction
from bot.engine.flow import next_turn, settle
from bot.engine.money import (
    charge,
    decide_mortgages,
    declare_bankrupt,
    end_by_wealth,
    end_game,
    fines_payee,
    liquidation_value,
    transfer,
)
from bot.engine.rules import Rules
from bot.engine.seats import check_newcomer
from bot.engine.state import BANK, GameState, Player

Handler = Callable[[GameState, int, dict[str, Any]], None]

# Phases in which players may manage their lots (build, sell, mortgage, trade):
# 000 allows it "zu jeder Zeit des Spiels ... jedoch immer nur, bevor der nächste
# Spieler gewürfelt hat". During an auction only raising cash is allowed.
MANAGE_PHASES = frozenset({"roll", "buy", "choice", "debt", "end"})
RAISE_CASH_PHASES = MANAGE_PHASES | {"auction"}


def new_game(
    players: Sequence[tuple[str, str]],
    *,
    seed: int,
    rules: Rules | None = None,
    board: Board | None = None,
) -> GameState:
    """Start a game for ``players`` (``(id, name)`` pairs in seat order).

    ``board`` is a server's own board (:func:`~bot.engine.board.custom_board`); the
    rules must name it (``rules.board == board.id``). Without it the rules' shipped board.

    The decks are shuffled and the starting player found by the rulebook's
    "Der Spieler mit dem höchsten Wurf beginnt" (ties throw again); play then
    goes clockwise, i.e. in seat order. The setup's events are in ``state.events``.
    """
    rules = rules or Rules.from_preset("classic")
    if board is None:
        board = load_board(rules.board)
    elif board.id != rules.board:
        raise ValueError(f"the rules name the board {rules.board!r}, not {board.id!r}")
    if not rules.min_players <= len(players) <= rules.max_players:
        raise IllegalAction("player_count", minimum=rules.min_players, maximum=rules.max_players)
    ids = [pid for pid, _ in players]
    if len(set(ids)) != len(ids):
        raise IllegalAction("duplicate_player")
    start = board.start_money if rules.start_money is None else rules.start_money
    state = GameState(rules, board, [Player(pid, name, start) for pid, name in players], seed)
    for deck in state.decks.values():
        state.rng.shuffle(deck)
    if rules.deal_deeds:
        _deal_deeds(state)
    state.current = _starting_player(state)
    state.emit("game_started", first=state.current)
    settle(state)
    return state


def _deal_deeds(state: GameState) -> None:
    """000, kürzeres Spiel: "... teilt der Bankhalter reihum je 2 Besitzrechtkarten an
    jeden Spieler aus ... Der aufgedruckte Preis wird sofort von den Spielern an die
    Bank gezahlt." (003, schnelleres Spiel: three each, "gratis")."""
    deeds = list(state.board.property_indices)
    state.rng.shuffle(deeds)
    count = len(state.players)
    if state.rules.deal_deeds_paid:
        dearest = sorted((state.board.squares[i].price for i in deeds), reverse=True)
        worst_case = sum(dearest[: state.rules.deal_deeds])
        if any(p.cash < worst_case for p in state.players):
            # Paid deeds must never leave a player in debt before the first throw.
            raise IllegalAction("start_money_too_low", needed=worst_case)
    for number in range(min(state.rules.deal_deeds * count, len(deeds))):
        seat = number % count
        square = deeds[number]
        state.owner[square] = seat
        price = state.board.squares[square].price
        state.emit("deed_dealt", player=seat, square=square)
        if state.rules.deal_deeds_paid:
            transfer(state, seat, BANK, price, "dealt_deed")


def _starting_player(state: GameState) -> int:
    contenders = list(range(len(state.players)))
    while len(contenders) > 1:
        throws = {}
        for seat in contenders:
            dice = [state.die(), state.die()]
            throws[seat] = sum(dice)
            state.emit("order_roll", player=seat, dice=dice)
        best = max(throws.values())
        contenders = [s for s in contenders if throws[s] == best]
    return contenders[0]


def apply_action(state: GameState, action: Any) -> list[dict[str, Any]]:
    """Apply ``action`` (a dict with ``type`` and ``player``) and return its events.

    Raises :class:`IllegalAction` and leaves the state unchanged if the rules do
    not allow the action now, also for an ``action`` that is no dict (hence ``Any``:
    compiled with mypyc, a ``dict`` parameter would raise TypeError first).
    """
    if type(action) is not dict:
        raise IllegalAction("bad_action")
    kind = action.get("type")
    handler = HANDLERS.get(kind)  # type: ignore[arg-type]
    if handler is None:
        system = SYSTEM_HANDLERS.get(kind)  # type: ignore[arg-type]
        if system is None:
            raise IllegalAction("unknown_action", action=kind)
        if state.phase == "over":
            raise IllegalAction("game_over")
        system(state, action)
        state.events = []
        system(state, action, True)
        state.seq += 1
        settle(state)
        return state.events
    seat = action.get("player")
    players = state.players
    if type(seat) is not int or not 0 <= seat < len(players):
        raise IllegalAction("unknown_player", player=seat)
    if state.phase == "over":
        raise IllegalAction("game_over")
    if players[seat].bankrupt:
        raise IllegalAction("player_not_in_game", player=seat)
    state.events = []
    handler(state, seat, action)
    state.seq += 1
    settle(state)
    return state.events


# -- checks shared by handlers ---------------------------------------------------------


def _require_turn(state: GameState, seat: int, *phases: str) -> None:
    if state.phase not in phases:
        raise IllegalAction("wrong_phase", phase=state.phase)
    if seat != state.current:
        raise IllegalAction("not_your_turn", current=state.current)


def _require_phase(state: GameState, phases: frozenset[str]) -> None:
    if state.phase not in phases:
        raise IllegalAction("wrong_phase", phase=state.phase)


def _square_arg(action: dict[str, Any]) -> int:
    square = action.get("square")
    if not isinstance(square, int) or isinstance(square, bool) or not 0 <= square < 40:
        raise IllegalAction("bad_square", square=square)
    return square


def _not_in_debt(state: GameState, seat: int) -> None:
    if state.debts and any(d["debtor"] == seat for d in state.debts):
        raise IllegalAction("in_debt")


def _time_up(state: GameState, action: dict[str, Any], apply: bool = False) -> None:
    """The agreed end time has passed (an input: the engine never reads a clock).

    002: "Beim ersten Schlag der vereinbarten Stunde endet das Spiel. Wenn ein Spieler
    sich mitten im Spiel befindet, beendet er seinen Zug und jede damit verbundene
    Handlung." A player who has not thrown yet is not in the middle of a turn, so the
    game ends at once; otherwise it ends when the turn in progress (with any throws
    owed for doubles) is over.
    """
    if not state.rules.end_at_deadline:
        raise IllegalAction("no_time_limit")
    if state.time_up:
        raise IllegalAction("already_done")
    if not apply:
        return
    state.time_up = True
    state.emit("time_up")
    if state.phase == "roll" and state.doubles == 0:
        end_by_wealth(state, "time_limit")


def _check_leave(state: GameState, seat: int) -> None:
    """A player may leave at any time but in the middle of an auction they take part in."""
    if state.phase == "auction":
        raise IllegalAction("wait_for_auction")
    pending = state.pending_building
    if pending is not None and pending["player"] == seat:
        raise IllegalAction("place_building_first")


def _remove_player(state: GameState, action: dict[str, Any], apply: bool = False) -> None:
    """A host removes a player: their assets go to the bank as in a bankruptcy to the bank."""
    target = action.get("target")
    if type(target) is not int or not 0 <= target < len(state.players):
        raise IllegalAction("unknown_player", player=target)
    if state.players[target].bankrupt:
        raise IllegalAction("player_not_in_game", player=target)
    _check_leave(state, target)
    if apply:
        state.emit("removed", player=target)
        declare_bankrupt(state, target, BANK)


def _hand_over(state: GameState, action: dict[str, Any], apply: bool = False) -> None:
    """A seat changes hands: a new member plays it on with everything it has.

    Only the seat's player id and name change; cash, lots, buildings, jail-free cards and
    the place in the turn order stay with the seat, so no money is made or lost. The new
    id must not sit at the table already (:func:`~bot.engine.seats.check_newcomer`).
    """
    target = action.get("target")
    if type(target) is not int or not 0 <= target < len(state.players):
        raise IllegalAction("unknown_player", player=target)
    if state.players[target].bankrupt:
        raise IllegalAction("player_not_in_game", player=target)
    new_id, name = check_newcomer(state.players, action)
    if apply:
        player = state.players[target]
        state.emit(
            "handed_over",
            player=target,
            from_id=player.id,
            from_name=player.name,
            to_id=new_id,
            to_name=name,
        )
        player.id, player.name = new_id, name


def _end_game(state: GameState, action: dict[str, Any], apply: bool = False) -> None:
    """A host ends the game: the richest wins (``mode="wealth"``) or nobody (``"abandon"``)."""
    mode = action.get("mode")
    if mode not in ("wealth", "abandon"):
        raise IllegalAction("bad_option", option=mode)
    if not apply:
        return
    if mode == "wealth":
        end_by_wealth(state, "ended_by_host")
    else:
        end_game(state, "abandoned", [])


def _resign(state: GameState, seat: int, action: dict[str, Any]) -> None:
    """A player gives up: bankrupt to the creditor they owe, otherwise to the bank."""
    _check_leave(state, seat)
    state.emit("resigned", player=seat)
    declare_bankrupt(state, seat)


# -- the turn --------------------------------------------------------------------------


def _roll(state: GameState, seat: int, action: dict[str, Any]) -> None:
    if state.phase != "roll" or seat != state.current:  # (the check inlined: every throw)
        _require_turn(state, seat, "roll")
    turns.roll(state, seat)


def check_pay_bail(state: GameState, seat: int) -> None:
    """Raise unless ``seat`` may pay the jail fine now.

    000: "Man kommt aus dem Gefängnis frei, wenn man im nächsten oder übernächsten
    Zug eine Geldbuße von € 50 zahlt, bevor man würfelt" (``jail_bail_turns``).
    """
    player = state.players[seat]
    if not player.in_jail:
        raise IllegalAction("not_in_jail")
    if seat != state.current:
        raise IllegalAction("not_your_turn", current=state.current)
    after_failed_roll = state.phase == "end" and state.rules.jail_pay_after_failed_roll
    if state.phase != "roll" and not after_failed_roll:
        raise IllegalAction("wrong_phase", phase=state.phase)
    if state.phase == "roll" and player.jail_turns >= state.rules.jail_bail_turns:
        raise IllegalAction("must_roll_in_jail")
    if player.cash < turns.jail_fine(state):
        raise IllegalAction("insufficient_funds", needed=turns.jail_fine(state))


def _pay_bail(state: GameState, seat: int, action: dict[str, Any]) -> None:
    check_pay_bail(state, seat)
    turns.pay_bail(state, seat)


def _use_jail_card(state: GameState, seat: int, action: dict[str, Any]) -> None:
    _require_turn(state, seat, "roll")
    player = state.players[seat]
    if not player.in_jail:
        raise IllegalAction("not_in_jail")
    deck = action.get("deck")
    if deck is None and player.jail_cards:
        deck = player.jail_cards[0]
    if deck not in player.jail_cards:
        raise IllegalAction("no_jail_card", deck=deck)
    turns.use_jail_card(state, seat, deck)


def _buy(state: GameState, seat: int, action: dict[str, Any]) -> None:
    if state.phase != "buy" or seat != state.current:  # (the check inlined: a hot path)
        _require_turn(state, seat, "buy")
    square = state.pending_buy
    assert square is not None
    price = state.board.squares[square].price
    if state.players[seat].cash < price:
        raise IllegalAction("insufficient_funds", needed=price)
    state.pending_buy = None
    transfer(state, seat, BANK, price, "buy")
    state.owner[square] = seat
    state.emit("bought", player=seat, square=square, price=price)


def _decline(state: GameState, seat: int, action: dict[str, Any]) -> None:
    _require_turn(state, seat, "buy")
    square = state.pending_buy
    assert square is not None
    state.pending_buy = None
    state.emit("declined", player=seat, square=square)
    if state.rules.auction_declined_lots:
        # 000: "Jeder kann mitsteigern - auch der, der den normalen Kauf abgelehnt hat."
        kind = {"kind": "lot", "square": square}
        auctions.start_auction(state, kind, state.rules.auction_min_bid)


def _choose(state: GameState, seat: int, action: dict[str, Any]) -> None:
    _require_turn(state, seat, "choice")
    choice = state.pending_choice
    assert choice is not None
    option = action.get("option")
    if option not in ("pay", "draw"):
        raise IllegalAction("bad_option", option=option)
    state.pending_choice = None
    state.emit("chose", player=seat, option=option)
    if option == "pay":
        charge(state, seat, fines_payee(state), choice["amount"], "card")
    else:
        turns.draw_card(state, seat, choice["deck"])


def _end_turn(state: GameState, seat: int, action: dict[str, Any]) -> None:
    if state.phase != "end" or seat != state.current:  # (the check inlined: every turn)
        _require_turn(state, seat, "end")
    next_turn(state)


# -- auctions --------------------------------------------------------------------------


def _bid(state: GameState, seat: int, action: dict[str, Any]) -> None:
    amount = action.get("amount")
    auctions.check_bid(state, seat, amount)
    auctions.bid(state, seat, amount)  # type: ignore[arg-type]


def _sealed_bid(state: GameState, seat: int, action: dict[str, Any]) -> None:
    amount = action.get("amount")
    auctions.check_sealed_bid(state, seat, amount)
    auctions.sealed_bid(state, seat, amount)  # type: ignore[arg-type]


def _auction_pass(state: GameState, seat: int, action: dict[str, Any]) -> None:
    auctions.check_pass(state, seat)
    auctions.pass_bid(state, seat)


def _close_auction(state: GameState, action: dict[str, Any], apply: bool = False) -> None:
    """The running auction's closing time has passed (an input: the engine never reads a clock).

    Whoever has not committed by then counts as passed: in a live auction the
    leader wins at their bid, a sealed auction is resolved from the bids it has;
    without any bid the item stays with the bank (see :func:`auctions.close_now`).
    """
    if state.auction is None:
        raise IllegalAction("no_auction")
    if apply:
        auctions.close_now(state)


# -- buildings and mortgages -----------------------------------------------------------


def _build(state: GameState, seat: int, action: dict[str, Any]) -> None:
    square = _square_arg(action)
    if state.phase == "place_building":
        pending = state.pending_building
        assert pending is not None
        if pending["player"] != seat:
            raise IllegalAction("not_your_building")
        kind = buildings.check_build(state, seat, square, placing=True)
        if kind != pending["kind"]:
            raise IllegalAction("wrong_building", building=pending["kind"])
        state.pending_building = None
        buildings.place(state, seat, square, kind)
        return
    _require_phase(state, MANAGE_PHASES)
    _not_in_debt(state, seat)
    buildings.build(state, seat, square)


def _sell_building(state: GameState, seat: int, action: dict[str, Any]) -> None:
    _require_phase(state, RAISE_CASH_PHASES)
    buildings.sell_building(state, seat, _square_arg(action))


def _mortgage(state: GameState, seat: int, action: dict[str, Any]) -> None:
    _require_phase(state, RAISE_CASH_PHASES)
    buildings.mortgage(state, seat, _square_arg(action))


def _unmortgage(state: GameState, seat: int, action: dict[str, Any]) -> None:
    _require_phase(state, MANAGE_PHASES)
    _not_in_debt(state, seat)
    buildings.unmortgage(state, seat, _square_arg(action))


# -- trades, part payment and bankruptcy -----------------------------------------------


def _propose_trade(state: GameState, seat: int, action: dict[str, Any]) -> None:
    _require_phase(state, MANAGE_PHASES)
    trade = trades.build_trade(state, seat, action)
    state.next_trade_id += 1
    if "counter_of" in trade:
        # A counter-offer replaces the offer it answers in the same action.
        state.trades.remove(trades.find_trade(state, trade["counter_of"]))
        state.emit("trade_countered", trade=trade["counter_of"], player=seat, new=trade["id"])
    state.trades.append(trade)
    state.proposed_on_turn[seat] = state.turn
    state.emit("trade_proposed", trade=trade["id"], **{"from": seat, "to": trade["to"]})


def _accept_trade(state: GameState, seat: int, action: dict[str, Any]) -> None:
    _require_phase(state, MANAGE_PHASES)
    trade = trades.find_trade(state, action.get("trade"))
    if trade["to"] != seat:
        raise IllegalAction("not_your_trade")
    trades.check_trade(state, trade)
    trades.execute_trade(state, trade)


def _decline_trade(state: GameState, seat: int, action: dict[str, Any]) -> None:
    trade = trades.find_trade(state, action.get("trade"))
    if seat not in (trade["to"], trade["from"]):
        raise IllegalAction("not_your_trade")
    state.trades.remove(trade)
    how = "cancelled" if seat == trade["from"] else "declined"
    state.emit("trade_" + how, trade=trade["id"], player=seat)


def _offer_lots(state: GameState, seat: int, action: dict[str, Any]) -> None:
    offer = trades.check_lot_offer(state, seat, action.get("lots"), action.get("value"))
    state.lot_offer = offer
    state.emit("lots_offered", **offer)


def _accept_lots(state: GameState, seat: int, action: dict[str, Any]) -> None:
    trades.accept_lots(state, seat)


def _decline_lots(state: GameState, seat: int, action: dict[str, Any]) -> None:
    offer = state.lot_offer
    if offer is None or seat not in (offer["creditor"], offer["debtor"]):
        raise IllegalAction("no_offer")
    state.lot_offer = None
    state.emit("lots_declined", player=seat)


def check_bankruptcy(state: GameState, seat: int) -> None:
    """Raise unless ``seat`` owes more than it can raise.

    000: "einer, der mehr schuldet als er bezahlen kann".

    A player with enough assets must sell and mortgage instead; going bankrupt is
    also allowed when nothing more can be sold or mortgaged (e.g. hotels that the
    bank has no houses to replace).
    """
    if not state.debts or state.debts[0]["debtor"] != seat:
        raise IllegalAction("not_in_debt")
    if liquidation_value(state, seat) >= state.debts[0]["amount"] and can_raise_cash(state, seat):
        raise IllegalAction("can_still_pay", value=liquidation_value(state, seat))


def can_raise_cash(state: GameState, seat: int) -> bool:
    """True if ``seat`` could sell a building or mortgage a lot right now."""
    for square, owner in enumerate(state.owner):
        if owner != seat:
            continue
        if (
            buildings.sell_problem(state, seat, square) is None
            or buildings.mortgage_problem(state, seat, square) is None
        ):
            return True
    return False


def _declare_bankruptcy(state: GameState, seat: int, action: dict[str, Any]) -> None:
    check_bankruptcy(state, seat)
    declare_bankrupt(state, seat)


def check_decide_mortgages(state: GameState, seat: int, lift: object) -> list[int]:
    """Raise unless ``seat`` may lift exactly ``lift`` of the mortgaged lots just received."""
    if not state.mortgage_choices or state.mortgage_choices[0]["player"] != seat:
        raise IllegalAction("no_mortgage_choice")
    offered = state.mortgage_choices[0]["squares"]
    if (
        not isinstance(lift, list)
        or any(s not in offered for s in lift)
        or len(set(lift)) != len(lift)
    ):
        raise IllegalAction("bad_square", square=lift)
    cost = sum(buildings.unmortgage_cost(state, s) for s in lift)
    if cost > state.players[seat].cash:
        raise IllegalAction("insufficient_funds", needed=cost)
    return lift


def _decide_mortgages(state: GameState, seat: int, action: dict[str, Any]) -> None:
    lift = check_decide_mortgages(state, seat, action.get("lift", []))
    decide_mortgages(state, seat, lift)


def _claim_rent(state: GameState, seat: int, action: dict[str, Any]) -> None:
    """000: "Der Spieler, dem das Grundstück gehört, muss die Miete verlangen"."""
    for claim in state.claims:
        if claim["owner"] == seat and claim["square"] == action.get("square"):
            state.claims.remove(claim)
            state.emit("rent_claimed", owner=seat, payer=claim["payer"], square=claim["square"])
            charge(state, claim["payer"], seat, claim["amount"], "rent")
            return
    raise IllegalAction("no_rent_to_claim")


HANDLERS: dict[str, Handler] = {
    "roll": _roll,
    "pay_bail": _pay_bail,
    "use_jail_card": _use_jail_card,
    "buy": _buy,
    "decline": _decline,
    "choose": _choose,
    "end_turn": _end_turn,
    "bid": _bid,
    "sealed_bid": _sealed_bid,
    "auction_pass": _auction_pass,
    "build": _build,
    "sell_building": _sell_building,
    "mortgage": _mortgage,
    "unmortgage": _unmortgage,
    "propose_trade": _propose_trade,
    "accept_trade": _accept_trade,
    "decline_trade": _decline_trade,
    "offer_lots": _offer_lots,
    "accept_lots": _accept_lots,
    "decline_lots": _decline_lots,
    "declare_bankruptcy": _declare_bankruptcy,
    "claim_rent": _claim_rent,
    "resign": _resign,
    "decide_mortgages": _decide_mortgages,
}

# Actions of the game itself or its host rather than of a player: no "player" key.
# Each is called once to check (apply=False) and once to carry out (apply=True).
SYSTEM_HANDLERS: dict[str, Callable[..., None]] = {
    "time_up": _time_up,
    "close_auction": _close_auction,
    "remove_player": _remove_player,
    "end_game": _end_game,
    "hand_over": _hand_over,
}
