"""Houses, hotels and mortgages: building evenly, the bank's stock, selling back."""

from __future__ import annotations

from bot.engine.auctions import start_auction
from bot.engine.errors import IllegalAction, Problem, raise_for
from bot.engine.money import transfer
from bot.engine.state import BANK, HOTEL, GameState


def level(state: GameState, square: int) -> int:
    """Buildings on a street counted evenly: houses, or a hotel as one more than needed."""
    houses = state.houses[square]
    return state.rules.hotel_requires_houses + 1 if houses == HOTEL else houses


def next_building(state: GameState, square: int) -> str:
    """``"house"`` or ``"hotel"``: what building on ``square`` would add next."""
    return "hotel" if state.houses[square] == state.rules.hotel_requires_houses else "house"


def _owner_problem(state: GameState, seat: int, square: int) -> Problem:
    if not 0 <= square < 40 or not state.board.squares[square].is_property:
        return "not_a_property", {"square": square}
    if state.owner[square] != seat:
        return "not_your_property", {"square": square}
    return None


def _owner_check(state: GameState, seat: int, square: int) -> None:
    raise_for(_owner_problem(state, seat, square))


def build_problem(state: GameState, seat: int, square: int, placing: bool = False) -> Problem:
    """Why ``seat`` may not build on ``square`` now (a reason code and its params), or None.

    000: building needs the whole colour group, must be even, and "Ist ein
    Grundstück einer Farbgruppe mit einer Hypothek beliehen, darf auf der ganzen
    Farbgruppe nicht gebaut werden." Returning instead of raising keeps the
    computer players' many "could I build here?" questions cheap.
    """
    problem = _owner_problem(state, seat, square)
    if problem is not None:
        return problem
    board = state.board
    owner = state.owner
    info = board.squares[square]
    if info.kind != "street":
        return "not_a_street", {"square": square}
    if state.rules.building_requires_all_sold and BANK in _owners_of_all_lots(state):
        # 002: "Die Spieler dürfen erst dann Häuser aufstellen, wenn sämtliche
        # Grundstücke verkauft sind."
        return "lots_unsold", {}
    group = board.group_of[square]
    for i in group:
        if owner[i] != seat:
            return "group_incomplete", {"square": square}
    mortgaged = state.mortgaged
    for i in group:
        if mortgaged[i]:
            return "group_mortgaged", {"square": square}
    houses = state.houses
    here = houses[square]
    if here == HOTEL:
        return "fully_built", {"square": square}
    # Even building: no street of the group may have fewer buildings (see level(); this
    # street has no hotel, so its level is its houses).
    hotel_level = state.rules.hotel_requires_houses + 1
    for i in group:
        if here > (hotel_level if houses[i] == HOTEL else houses[i]):
            return "build_evenly", {"square": square}
    if here == state.rules.hotel_requires_houses:
        if state.bank_hotels < 1:
            return "no_hotels_left", {}
    elif state.bank_houses < 1:
        return "no_houses_left", {}
    if not placing and state.players[seat].cash < info.house_cost:
        return "insufficient_funds", {"needed": info.house_cost}
    return None


def _owners_of_all_lots(state: GameState) -> set[int]:
    owner = state.owner
    return {owner[i] for i in state.board.property_indices}


def check_build(state: GameState, seat: int, square: int, *, placing: bool = False) -> str:
    """Raise unless ``seat`` may build on ``square`` now; return the building kind."""
    raise_for(build_problem(state, seat, square, placing))
    return next_building(state, square)


def can_build(state: GameState, seat: int, square: int, *, placing: bool = False) -> bool:
    """True if :func:`check_build` passes."""
    return build_problem(state, seat, square, placing) is None


def buildable_squares(state: GameState, seat: int, kind: str | None = None) -> list[int]:
    """Streets ``seat`` could build on now (optionally only where ``kind`` comes next)."""
    return [
        i
        for i, owner in enumerate(state.owner)
        if owner == seat
        and state.board.squares[i].kind == "street"
        and can_build(state, seat, i)
        and (kind is None or next_building(state, i) == kind)
    ]


def shortage_rivals(state: GameState, seat: int, kind: str) -> list[int]:
    """Other players who could buy a ``kind`` now, if that makes the bank's stock scarce.

    Open question 22: the bank runs short when its stock of that building is smaller
    than the number of players (the builder and every rival able to build one now).
    """
    if not state.rules.building_shortage_auction:
        return []
    stock = state.bank_houses if kind == "house" else state.bank_hotels
    if stock >= len(state.players):
        return []  # enough for everyone: no need to look for rivals
    rivals = [p for p in state.active_players() if p != seat and buildable_squares(state, p, kind)]
    return rivals if rivals and stock < 1 + len(rivals) else []


def build(state: GameState, seat: int, square: int) -> None:
    """Build (or, when the bank is short, auction) the next building on ``square``."""
    kind = check_build(state, seat, square)
    rivals = shortage_rivals(state, seat, kind)
    if rivals:
        # 000: "... werden die vorhandenen Gebäude einzeln an den Meistbietenden
        # versteigert. Als Mindestgebot gilt der niedrigste, gedruckte Preis auf einer
        # der entsprechenden Besitzrechtkarten."
        squares = state.board.squares
        prices = [
            squares[i].house_cost
            for p in (seat, *rivals)
            for i in buildable_squares(state, p, kind)
        ]
        start_auction(state, {"kind": kind, "requested_by": seat}, min(prices), [seat, *rivals])
        return
    transfer(state, seat, BANK, state.board.squares[square].house_cost, "build")
    place(state, seat, square, kind)


def settle_won_building(state: GameState) -> bool:
    """Refund a won building that its buyer can no longer place.

    A bidder may mortgage or sell during the auction and so lose every legal
    place for the building; the purchase is then void and the bid is repaid.
    True if the building still waits to be placed, False if it was refunded.
    """
    pending = state.pending_building
    assert pending is not None
    seat, kind = pending["player"], pending["kind"]
    for square in range(40):
        if (
            state.owner[square] == seat
            and state.board.squares[square].kind == "street"
            and build_problem(state, seat, square, placing=True) is None
            and next_building(state, square) == kind
        ):
            return True
    state.pending_building = None
    transfer(state, BANK, seat, pending["price"], "building_refund")
    state.emit("building_refunded", player=seat, building=kind)
    return False


def place(state: GameState, seat: int, square: int, kind: str) -> None:
    """Put the next building on ``square`` (paid already); a hotel returns the houses."""
    if kind == "hotel":
        state.bank_hotels -= 1
        state.bank_houses += state.houses[square]
        state.houses[square] = HOTEL
    else:
        state.bank_houses -= 1
        state.houses[square] += 1
    state.emit("built", player=seat, square=square, building=kind)


def sell_problem(state: GameState, seat: int, square: int) -> Problem:
    """Why ``seat`` may not sell a building on ``square`` now, or None.

    000: "... müssen genau so gleichmäßig an die Bank verkauft werden, wie sie
    erworben wurden" and "ein Spieler [kann] kein Hotel an die Bank zurückverkaufen,
    wenn nicht genügend Häuser vorhanden sind, die das Hotel ersetzen sollen."
    """
    problem = _owner_problem(state, seat, square)
    if problem is not None:
        return problem
    houses = state.houses
    if not houses[square]:
        return "no_buildings", {"square": square}
    # Even selling: no street of the group may have more buildings (see level()).
    hotel_level = state.rules.hotel_requires_houses + 1
    here = hotel_level if houses[square] == HOTEL else houses[square]
    for i in state.board.group_of[square]:
        if here < (hotel_level if houses[i] == HOTEL else houses[i]):
            return "sell_evenly", {"square": square}
    needed = state.rules.hotel_requires_houses
    if state.houses[square] == HOTEL and state.rules.hotel_sells_whole:
        return None
    if state.houses[square] == HOTEL and state.bank_houses < needed:
        return "no_houses_to_replace_hotel", {"needed": needed}
    return None


def check_sell(state: GameState, seat: int, square: int) -> str:
    """Raise unless ``seat`` may sell a building on ``square``; return its kind."""
    raise_for(sell_problem(state, seat, square))
    return "hotel" if state.houses[square] == HOTEL else "house"


def sell_building(state: GameState, seat: int, square: int) -> None:
    """Sell one building back at half price; a hotel becomes houses again.

    With ``hotel_sells_whole`` (002: "Wenn es sich um Hotels handelt, zahlt die Bank
    den halben Barpreis des Hotels und die Hälfte des Preises der vier Häuser") the
    hotel goes back whole and the street is left bare.
    """
    kind = check_sell(state, seat, square)
    house_cost = state.board.squares[square].house_cost
    units = 1
    if kind == "hotel" and state.rules.hotel_sells_whole:
        units = state.rules.hotel_requires_houses + 1
        state.bank_hotels += 1
        state.houses[square] = 0
    elif kind == "hotel":
        state.bank_hotels += 1
        state.bank_houses -= state.rules.hotel_requires_houses
        state.houses[square] = state.rules.hotel_requires_houses
    else:
        state.bank_houses += 1
        state.houses[square] -= 1
    state.emit("sold_building", player=seat, square=square, building=kind)
    transfer(state, BANK, seat, units * house_cost // 2, "sell_building")


def mortgage_problem(state: GameState, seat: int, square: int) -> Problem:
    """Why ``seat`` may not mortgage ``square`` now, or None.

    000: "Alle Gebäude auf einem Grundstück müssen an die Bank zurückverkauft werden,
    ehe dieses Grundstück hypothekarisch belastet werden darf." Whether the rest of
    the group must be bare too is ``mortgage_requires_bare_group`` (open question 13).
    """
    problem = _owner_problem(state, seat, square)
    if problem is not None:
        return problem
    if state.mortgaged[square]:
        return "already_mortgaged", {"square": square}
    if state.houses[square]:
        return "sell_buildings_first", {"square": square}
    if state.rules.mortgage_requires_bare_group and any(
        state.houses[i] for i in state.board.group_of[square]
    ):
        return "sell_group_buildings_first", {"square": square}
    return None


def check_mortgage(state: GameState, seat: int, square: int) -> None:
    """Raise unless ``seat`` may mortgage ``square``."""
    raise_for(mortgage_problem(state, seat, square))


def mortgage(state: GameState, seat: int, square: int) -> None:
    """Mortgage a lot: the bank pays its mortgage value."""
    check_mortgage(state, seat, square)
    state.mortgaged[square] = True
    state.emit("mortgaged", player=seat, square=square)
    transfer(state, BANK, seat, state.board.squares[square].mortgage, "mortgage")


def unmortgage_cost(state: GameState, square: int) -> int:
    """What lifting the mortgage costs: the mortgage value plus the interest."""
    value = state.board.squares[square].mortgage
    return value + state.rules.interest(value)


def check_unmortgage(state: GameState, seat: int, square: int) -> int:
    """Raise unless ``seat`` may lift the mortgage on ``square``; return the cost."""
    _owner_check(state, seat, square)
    if not state.mortgaged[square]:
        raise IllegalAction("not_mortgaged", square=square)
    cost = unmortgage_cost(state, square)
    if state.players[seat].cash < cost:
        raise IllegalAction("insufficient_funds", needed=cost)
    return cost


def unmortgage(state: GameState, seat: int, square: int) -> None:
    """Lift a mortgage: value + 10 %."""
    cost = check_unmortgage(state, seat, square)
    state.mortgaged[square] = False
    state.emit("unmortgaged", player=seat, square=square)
    transfer(state, seat, BANK, cost, "unmortgage")
