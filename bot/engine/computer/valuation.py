"""What a position is worth to a player: cash, lots, the rent they will bring in.

The strong computer player compares positions with :func:`position_value`: cash,
plus for every lot what it sells for, plus the rent it is expected to collect over
the rest of the game — landing frequency (:mod:`.frequencies`) × current rent ×
the opponents' throws still to come — plus, for a complete colour group, part of
what three houses would add (the point where rents pay back fastest). A hypothetical
change of owners (a trade, an auction won) is valued by passing ``owner``: only
the owner list changes in a trade, because lots with buildings cannot be traded.

Everything here is a few hundred arithmetic operations: cheap enough to compare
dozens of candidate trades within a millisecond or two.
"""

from __future__ import annotations

from collections.abc import Sequence

from bot.engine.computer.frequencies import landing_frequencies
from bot.engine.state import BANK, GameState

#: Opponent throws a lot's rent is counted over (about a third of a typical game).
HORIZON = 30
#: The share of the three-house rent a complete group is counted with before it is built.
DEVELOPMENT_SHARE = 1.0
#: An average throw, for utility rents.
AVERAGE_THROW = 7


def opponents(state: GameState, seat: int) -> list[int]:
    """The other players still in the game."""
    return [s for s, p in enumerate(state.players) if s != seat and not p.bankrupt]


def _owns_group(owner: Sequence[int | None], seat: int, group: Sequence[int]) -> bool:
    return all(owner[i] == seat for i in group)


def rent_if(state: GameState, square: int, owner: Sequence[int | None], houses: int) -> int:
    """The rent of ``square`` for its owner in ``owner`` with ``houses`` buildings."""
    info = state.board.squares[square]
    seat = owner[square]
    if seat is None or seat < 0 or state.mortgaged[square]:
        return 0
    group = state.board.group_of[square]
    if info.kind == "street":
        if houses:
            return info.rents[houses]
        if _owns_group(owner, seat, group):
            return info.rents[0] * state.rules.unbuilt_group_rent_multiplier
        return info.rents[0]
    count = sum(1 for i in group if owner[i] == seat)
    if info.kind == "railroad":
        return state.board.railroad_rents[count - 1]
    multiplier = state.board.utility_multipliers[min(count, 2) - 1]
    return multiplier * AVERAGE_THROW


def lot_value(
    state: GameState, seat: int, square: int, owner: Sequence[int | None] | None = None
) -> float:
    """What ``square`` is worth to ``seat`` owning it (with the owners in ``owner``)."""
    info = state.board.squares[square]
    if state.mortgaged[square]:
        # Worth its mortgage value less what lifting it costs, plus a little income later.
        return info.mortgage * 0.9 + lot_income(state, seat, square, owner)
    sale = info.price + state.houses[square] * info.house_cost / 2
    return sale / 2 + lot_income(state, seat, square, owner)


def lot_income(
    state: GameState, seat: int, square: int, owner: Sequence[int | None] | None = None
) -> float:
    """The rent ``square`` is expected to bring ``seat`` over the :data:`HORIZON`.

    A mortgaged lot counts with a part of its unmortgaged rent (it may be lifted later);
    an unbuilt lot of a complete group with what three houses would add, less their cost.
    """
    owner = state.owner if owner is None else owner
    info = state.board.squares[square]
    frequency = landing_frequencies(state.board)[square]
    throws = HORIZON * max(1, len(opponents(state, seat)))
    houses = state.houses[square]
    if state.mortgaged[square]:
        return frequency * rent_if(state, square, owner, 0) * throws * 0.3
    income = frequency * rent_if(state, square, owner, houses) * throws
    if (
        info.kind == "street"
        and houses < 3
        and _owns_group(owner, seat, state.board.group_of[square])
    ):
        extra = frequency * (info.rents[3] - info.rents[houses]) * throws * DEVELOPMENT_SHARE
        # Houses cost money, but half of it comes back on a sale.
        income += max(0.0, extra - (3 - houses) * info.house_cost / 2)
    return income


def position_value(state: GameState, seat: int, owner: Sequence[int | None] | None = None) -> float:
    """Cash, jail-free cards and every lot's value (see :func:`lot_value`) of ``seat``."""
    owner = state.owner if owner is None else owner
    player = state.players[seat]
    if player.bankrupt:
        return 0.0
    # A jail-free card is worth about the bail it saves.
    total = float(player.cash) + state.board.jail_fine * len(player.jail_cards)
    for square in state.board.property_indices:
        if owner[square] == seat:
            total += lot_value(state, seat, square, owner)
    return total


def completes_group(
    state: GameState, seat: int, squares: Sequence[int], owner: Sequence[int | None] | None = None
) -> bool:
    """True if getting ``squares`` gives ``seat`` a whole colour group it lacks now."""
    owner = list(state.owner if owner is None else owner)
    before = {g for g in _street_groups_of(state, seat, owner)}
    for square in squares:
        owner[square] = seat
    return bool(set(_street_groups_of(state, seat, owner)) - before)


def _street_groups_of(state: GameState, seat: int, owner: Sequence[int | None]) -> list[int]:
    return [
        n for n, group in enumerate(state.board.street_groups) if _owns_group(owner, seat, group)
    ]


def tradeable(state: GameState, square: int) -> bool:
    """True if ``square`` may change hands: no building stands in its colour group."""
    return not any(state.houses[i] for i in state.board.group_of[square])


def danger(state: GameState, seat: int) -> float:
    """The rent ``seat`` should keep in reserve: what the next throw may cost.

    The expected rent of the next throw, or a third of the worst rent within reach,
    whichever is more.
    """
    position = state.players[seat].position
    expected = 0.0
    worst = 0
    for total in range(2, 13):
        chance = (6 - abs(total - 7)) / 36
        square = (position + total) % 40
        holder = state.owner[square] if state.board.squares[square].is_property else None
        if holder is None or holder in (seat, BANK) or holder < 0:
            continue
        rent = rent_if(state, square, state.owner, state.houses[square])
        expected += chance * rent
        worst = max(worst, rent)
    return max(expected, worst / 3)


def unowned_share(state: GameState) -> float:
    """The share of lots still with the bank (1.0 at the start of a game)."""
    lots = state.board.property_indices
    return sum(1 for i in lots if state.owner[i] == BANK) / len(lots)
