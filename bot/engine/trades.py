"""Trades between players, and lots offered to a creditor as part payment.

000: "Unbebaute Straßen, das Elektrizitäts- und das Wasserwerk sowie Bahnhöfe
können jederzeit unter den Spielern zu einem frei vereinbarten Preis gehandelt
werden ... Es kann jedoch keine Straße an einen anderen Spieler verkauft werden,
wenn an irgendeiner Straße dieser Farbgruppe Gebäude gebaut sind." Lending is
not allowed, so a trade moves only what the players hold at that moment.
"""

from __future__ import annotations

from typing import Any

from bot.engine.errors import IllegalAction
from bot.engine.money import receive_mortgaged, transfer
from bot.engine.rules import Rules
from bot.engine.state import GameState

SIDE_KEYS = ("cash", "lots", "jail_cards")


def normalise_side(raw: Any) -> dict[str, Any]:
    """A trade side as ``{"cash": int, "lots": [..], "jail_cards": [..]}`` (validated shape)."""
    if raw is None:
        raw = {}
    if not isinstance(raw, dict) or set(raw) - set(SIDE_KEYS):
        raise IllegalAction("bad_trade")
    cash = raw.get("cash", 0)
    lots = raw.get("lots", [])
    cards = raw.get("jail_cards", [])
    if not isinstance(cash, int) or isinstance(cash, bool) or cash < 0:
        raise IllegalAction("bad_amount")
    if not isinstance(lots, list) or not all(type(i) is int for i in lots):
        raise IllegalAction("bad_trade")
    if len(set(lots)) != len(lots):
        raise IllegalAction("bad_trade")
    if not isinstance(cards, list) or not all(c in ("chance", "community") for c in cards):
        raise IllegalAction("bad_trade")
    return {"cash": cash, "lots": sorted(lots), "jail_cards": sorted(cards)}


def check_side(state: GameState, seat: int, side: dict[str, Any]) -> None:
    """Raise unless ``seat`` holds everything ``side`` gives, and the lots may change hands."""
    player = state.players[seat]
    if player.cash < side["cash"]:
        raise IllegalAction("insufficient_funds", needed=side["cash"], player=seat)
    for square in side["lots"]:
        if not 0 <= square < 40 or state.owner[square] != seat:
            raise IllegalAction("not_their_property", square=square, player=seat)
        if any(state.houses[i] for i in state.board.group_of[square]):
            raise IllegalAction("group_has_buildings", square=square)
    for deck in set(side["jail_cards"]):
        if player.jail_cards.count(deck) < side["jail_cards"].count(deck):
            raise IllegalAction("no_jail_card", deck=deck, player=seat)


def interest_due(state: GameState, lots: list[int]) -> int:
    """Interest the receiver of ``lots`` pays at once for the mortgaged ones."""
    rules: Rules = state.rules
    squares = state.board.squares
    return sum(rules.interest(squares[i].mortgage) for i in lots if state.mortgaged[i])


def check_trade(state: GameState, trade: dict[str, Any]) -> None:
    """Raise unless the trade can be carried out now, interest on mortgaged lots included."""
    giver, taker = trade["from"], trade["to"]
    for seat in (giver, taker):
        if state.players[seat].bankrupt:
            raise IllegalAction("player_not_in_game", player=seat)
    give, get = trade["give"], trade["get"]
    check_side(state, giver, give)
    check_side(state, taker, get)
    # 000: a bankrupt "muss dem Gläubiger alles, was er an Werten hat, übergeben" -
    # so while in debt a player may sell lots and cards for cash, never give cash or
    # assets away for nothing.
    for seat, gives, receives in ((giver, give, get), (taker, get, give)):
        gives_assets = gives["lots"] or gives["jail_cards"]
        if any(d["debtor"] == seat for d in state.debts) and (
            gives["cash"] or (gives_assets and not receives["cash"])
        ):
            raise IllegalAction("in_debt_sell_for_cash", player=seat)
    # Cash after the swap must cover the 10 % on mortgaged lots received.
    giver_cash = state.players[giver].cash - give["cash"] + get["cash"]
    taker_cash = state.players[taker].cash - get["cash"] + give["cash"]
    if giver_cash < interest_due(state, get["lots"]):
        raise IllegalAction("cannot_pay_interest", player=giver)
    if taker_cash < interest_due(state, give["lots"]):
        raise IllegalAction("cannot_pay_interest", player=taker)


def trade_round(trade: dict[str, Any]) -> int:
    """How many offers a chain of counter-offers has made so far, this one included.

    1 for a fresh offer, the countered offer's round + 1 for a counter-offer; trades of
    games saved before rounds existed count as round 1.
    """
    value = trade.get("round", 1)
    return value if type(value) is int and value >= 1 else 1


def countered_trade(state: GameState, seat: int, action: dict[str, Any]) -> dict[str, Any] | None:
    """The open trade a proposal's ``counter_of`` answers (None for a fresh offer).

    Only the addressee (``to``) of an open trade may counter it, and only to its proposer.
    """
    if "counter_of" not in action or action["counter_of"] is None:
        return None
    trade_id = action["counter_of"]
    if type(trade_id) is not int:
        raise IllegalAction("no_such_trade", trade=None)
    original = find_trade(state, trade_id)
    if original["to"] != seat:
        raise IllegalAction("not_your_trade")
    if action.get("to") != original["from"]:
        raise IllegalAction("bad_trade_partner")
    return original


def build_trade(state: GameState, seat: int, action: dict[str, Any]) -> dict[str, Any]:
    """Validate a proposal and return the trade record (not yet stored).

    With ``counter_of`` (the id of an open trade offered to ``seat``) the proposal is a
    counter-offer: the record names the trade it answers and its ``round`` in the chain.
    """
    other = action.get("to")
    if type(other) is not int or not 0 <= other < len(state.players) or other == seat:
        raise IllegalAction("bad_trade_partner")
    original = countered_trade(state, seat, action)
    trade: dict[str, Any] = {
        "id": state.next_trade_id,
        "from": seat,
        "to": other,
        "give": normalise_side(action.get("give")),
        "get": normalise_side(action.get("get")),
        "round": 1,
    }
    if original is not None:
        trade["counter_of"] = original["id"]
        trade["round"] = trade_round(original) + 1
    if not any(trade["give"].values()) and not any(trade["get"].values()):
        raise IllegalAction("empty_trade")
    if trade["give"]["cash"] and trade["get"]["cash"]:
        raise IllegalAction("cash_both_ways")
    check_trade(state, trade)
    return trade


def find_trade(state: GameState, trade_id: Any) -> dict[str, Any]:
    """The open trade with ``trade_id``."""
    for trade in state.trades:
        if trade["id"] == trade_id:
            return trade
    raise IllegalAction("no_such_trade", trade=trade_id)


def execute_trade(state: GameState, trade: dict[str, Any]) -> None:
    """Swap what both sides give; receivers of mortgaged lots then lift them or pay 10 %."""
    giver, taker = trade["from"], trade["to"]
    give, get = trade["give"], trade["get"]
    transfer(state, giver, taker, give["cash"], "trade")
    transfer(state, taker, giver, get["cash"], "trade")
    _move_assets(state, giver, taker, give)
    _move_assets(state, taker, giver, get)
    state.trades.remove(trade)
    state.emit("trade_done", trade=trade["id"], **{"from": giver, "to": taker})
    for square in give["lots"]:
        if state.mortgaged[square]:
            receive_mortgaged(state, taker, square)
    for square in get["lots"]:
        if state.mortgaged[square]:
            receive_mortgaged(state, giver, square)


def _move_assets(state: GameState, giver: int, taker: int, side: dict[str, Any]) -> None:
    for square in side["lots"]:
        state.owner[square] = taker
    for deck in side["jail_cards"]:
        state.players[giver].jail_cards.remove(deck)
        state.players[taker].jail_cards.append(deck)


def check_lot_offer(state: GameState, seat: int, lots: Any, value: Any) -> dict[str, Any]:
    """Validate lots offered by the debtor ``seat`` to a player creditor as part payment.

    000, "Tipps für die Spieler": "... so kann er anbieten, einen Teil in bar zu
    bezahlen und einen Teil in Grundstücken ... Der Spieler, dem er die Summe
    schuldet, kann wählen, ob er das akzeptiert." (open question 17)
    """
    if not state.rules.part_payment_in_lots:
        raise IllegalAction("part_payment_off")
    if not state.debts or state.debts[0]["debtor"] != seat:
        raise IllegalAction("not_in_debt")
    debt = state.debts[0]
    if debt["creditor"] < 0:
        raise IllegalAction("creditor_is_bank")
    if state.lot_offer is not None:
        raise IllegalAction("offer_pending")
    side = normalise_side({"lots": lots})
    if not side["lots"]:
        raise IllegalAction("bad_trade")
    check_side(state, seat, side)
    if not isinstance(value, int) or isinstance(value, bool) or not 0 < value <= debt["amount"]:
        raise IllegalAction("bad_offer_value", maximum=debt["amount"])
    return {"debtor": seat, "creditor": debt["creditor"], "lots": side["lots"], "value": value}


def check_accept_lots(state: GameState, seat: int) -> dict[str, Any]:
    """Raise unless ``seat`` is the creditor of a lot offer it can accept now."""
    offer = state.lot_offer
    if offer is None or offer["creditor"] != seat:
        raise IllegalAction("no_offer")
    if not state.debts or state.debts[0]["debtor"] != offer["debtor"]:
        raise IllegalAction("no_offer")
    check_side(state, offer["debtor"], {"cash": 0, "lots": offer["lots"], "jail_cards": []})
    if state.players[seat].cash < interest_due(state, offer["lots"]):
        raise IllegalAction("cannot_pay_interest", player=seat)
    return offer


def accept_lots(state: GameState, seat: int) -> None:
    """The creditor takes the offered lots; the debt shrinks by the agreed value."""
    offer = check_accept_lots(state, seat)
    state.lot_offer = None
    _move_assets(state, offer["debtor"], seat, {"lots": offer["lots"], "jail_cards": []})
    debt = state.debts[0]
    debt["amount"] -= offer["value"]
    state.emit(
        "lots_accepted",
        debtor=offer["debtor"],
        creditor=seat,
        lots=offer["lots"],
        value=offer["value"],
    )
    if debt["amount"] == 0:
        state.debts.pop(0)
        state.emit("debt_paid", debtor=offer["debtor"], creditor=seat, amount=0)
    for square in offer["lots"]:
        if state.mortgaged[square]:
            receive_mortgaged(state, seat, square)
