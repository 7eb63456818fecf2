"""Counter-offers: the nearest trade a computer player would accept instead of one it refuses.

When the strong player (:class:`~.strong.StrongPlayer`) would decline a trade offered to
it, it answers with a counter-offer (``propose_trade`` with ``counter_of``) instead: the
offer closest to the partner's that it would accept itself — ``likes`` is true and the
engine's trade checks pass. The candidates are

* **cash** — the same lots with more cash asked from the partner, or less cash given to
  it (one signed amount: the net cash the player receives), found by bisection between
  the partner's offer and all the partner's cash (``likes`` only grows with that amount);
* **one lot swapped** — one more of the partner's lots asked for, or one of the player's
  own lots taken out of what it gives, the cash then raised as above if still needed.

"Nearest" is the smallest change for the partner, in money: the extra cash, plus the
printed price of the lot added or taken out. Ties are broken by the kind of change
(cash only first), then by the square's index. Candidates are tried cheapest-first by
their least possible change, so the search stops early; an answer takes a few
milliseconds.

It never counters an offer that would complete a colour group for it which it could not
build on after the trade (no money for a house, or for lifting a mortgage in that group):
then it declines, and no counter-offer may do that either. ``likes`` keeps its rule that
the partner gets a complete group only for at least as much in return. A chain of
offers between the same two players ends: it counters an offer only up to round
:data:`LAST_ROUND_COUNTERED`, so it makes at most two counter-offers in a chain.

Pure and deterministic, like the players.
"""

from __future__ import annotations

from typing import Any, Protocol

from bot.engine import trades
from bot.engine.buildings import unmortgage_cost
from bot.engine.computer.valuation import completes_group, tradeable
from bot.engine.errors import IllegalAction
from bot.engine.state import GameState

Action = dict[str, Any]
#: The last round of a chain the player still counters: a fresh offer is round 1, its
#: counter round 2, the partner's reply round 3, our second counter round 4, and then no more.
LAST_ROUND_COUNTERED = 3


class Judge(Protocol):
    """What the search asks of a player: would it accept this trade offered to ``seat``?"""

    def likes(self, state: GameState, seat: int, trade: dict[str, Any]) -> bool: ...


def counter_offer(
    player: Judge, state: GameState, seat: int, trade: dict[str, Any]
) -> Action | None:
    """The counter-offer ``seat`` makes to ``trade`` (offered to it), or None to decline."""
    if trades.trade_round(trade) > LAST_ROUND_COUNTERED:
        return None
    partner = trade["from"]
    if state.players[partner].bankrupt or state.players[seat].bankrupt:
        return None
    if not can_build_on_new_groups(state, seat, trade):
        return None
    give, get = trade["give"], trade["get"]  # what the partner gives / gets
    net = give["cash"] - get["cash"]
    best: tuple[tuple[int, int, int], dict[str, Any]] | None = None
    for floor, order, square, lots_in, lots_out in _lot_changes(state, seat, trade):
        if best is not None and floor > best[0][0]:
            break  # sorted by floor: nothing later can be nearer
        give_lots = sorted(set(give["lots"]) | set(lots_in))
        get_lots = sorted(set(get["lots"]) - set(lots_out))
        # If the partner would get no lot or card, it must at least get some cash.
        cash_only = not get_lots and not get["jail_cards"]
        if cash_only and net >= 0:
            continue
        shape = {"give_lots": give_lots, "get_lots": get_lots}
        found = _least_cash(player, state, seat, trade, shape, net, cap=-1 if cash_only else None)
        if found is None:
            continue
        key = (floor + found - net, order, square)
        if best is None or key < best[0]:
            best = (key, _with_cash(trade, shape, found))
    if best is None:
        return None
    candidate = best[1]
    action: Action = {
        "type": "propose_trade",
        "player": seat,
        "to": partner,
        # Our side first: what we give is what the partner gets.
        "give": candidate["get"],
        "get": candidate["give"],
        "counter_of": trade["id"],
    }
    return action


def can_build_on_new_groups(state: GameState, seat: int, trade: dict[str, Any]) -> bool:
    """False if ``trade`` completes a colour group for ``seat`` (its addressee) that it could
    not build on afterwards: its cash after the trade (and the 10 % on mortgaged lots it
    receives) must lift every mortgage in the group and pay for one house."""
    received = trade["give"]["lots"]
    if not received or not completes_group(state, seat, received):
        return True
    owner = list(state.owner)
    for square in received:
        owner[square] = seat
    for square in trade["get"]["lots"]:
        owner[square] = trade["from"]
    cash = (
        state.players[seat].cash
        + trade["give"]["cash"]
        - trade["get"]["cash"]
        - trades.interest_due(state, received)
    )
    squares = state.board.squares
    for group in state.board.street_groups:
        now_whole = all(owner[i] == seat for i in group)
        was_whole = all(state.owner[i] == seat for i in group)
        if not now_whole or was_whole:
            continue
        # A mortgaged lot received is lifted for its mortgage value (the 10 % is paid above).
        lifting = sum(
            squares[i].mortgage if i in received else unmortgage_cost(state, i)
            for i in group
            if state.mortgaged[i]
        )
        if cash < lifting + min(squares[i].house_cost for i in group):
            return False
    return True


def _lot_changes(
    state: GameState, seat: int, trade: dict[str, Any]
) -> list[tuple[int, int, int, list[int], list[int]]]:
    """Every change of lots tried, as (least change in money, kind, square, in, out),
    cheapest first: none, one more of the partner's lots, one of ours taken out."""
    partner = trade["from"]
    give, get = trade["give"], trade["get"]
    squares = state.board.squares
    changes: list[tuple[int, int, int, list[int], list[int]]] = [(0, 0, -1, [], [])]
    for square in state.board.property_indices:
        if (
            state.owner[square] == partner
            and square not in give["lots"]
            and tradeable(state, square)
        ):
            changes.append((squares[square].price, 1, square, [square], []))
    for square in get["lots"]:
        changes.append((squares[square].price, 2, square, [], [square]))
    changes.sort(key=lambda change: change[:3])
    return changes


def _with_cash(trade: dict[str, Any], shape: dict[str, Any], net: int) -> dict[str, Any]:
    """The trade (offered to us) with the lots of ``shape`` and ``net`` cash to us."""
    give, get = trade["give"], trade["get"]
    return {
        "from": trade["from"],
        "to": trade["to"],
        "give": {
            "cash": max(net, 0),
            "lots": shape["give_lots"],
            "jail_cards": list(give["jail_cards"]),
        },
        "get": {
            "cash": max(-net, 0),
            "lots": shape["get_lots"],
            "jail_cards": list(get["jail_cards"]),
        },
    }


def _acceptable(
    player: Judge,
    state: GameState,
    seat: int,
    trade: dict[str, Any],
    shape: dict[str, Any],
    net: int,
) -> bool:
    candidate = _with_cash(trade, shape, net)
    if candidate["give"] == trade["give"] and candidate["get"] == trade["get"]:
        return False  # the offer itself, which was refused
    if not player.likes(state, seat, candidate):
        return False
    if not can_build_on_new_groups(state, seat, candidate):
        return False
    try:
        trades.check_trade(state, candidate)
    except IllegalAction:
        return False
    return bool(any(candidate["give"].values()) or any(candidate["get"].values()))


def _least_cash(
    player: Judge,
    state: GameState,
    seat: int,
    trade: dict[str, Any],
    shape: dict[str, Any],
    net: int,
    *,
    cap: int | None = None,
) -> int | None:
    """The least net cash to us (at least ``net``, the partner's offer, at most ``cap``)
    that makes the trade with ``shape``'s lots acceptable, or None if even all the partner
    can pay does not.

    Bisection: ``likes`` only grows with the cash we receive.
    """
    partner = trade["from"]
    # The partner must keep the 10 % on mortgaged lots it receives.
    most = state.players[partner].cash - trades.interest_due(state, shape["get_lots"])
    if cap is not None:
        most = min(most, cap)
    if _acceptable(player, state, seat, trade, shape, net):
        return net
    if most <= net or not _acceptable(player, state, seat, trade, shape, most):
        return None
    low, high = net, most  # refused at low, accepted at high
    while high - low > 1:
        middle = (low + high) // 2
        if _acceptable(player, state, seat, trade, shape, middle):
            high = middle
        else:
            low = middle
    return high
