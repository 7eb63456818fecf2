"""What a player owes for landing on another player's lot."""

from __future__ import annotations

from bot.engine.state import GameState


def owns_whole_group(state: GameState, seat: int, square: int) -> bool:
    """True if ``seat`` owns every lot of the group of ``square``."""
    owner = state.owner
    # A plain loop, not all() over a generator: rent and the players ask this constantly.
    for i in state.board.group_of[square]:  # noqa: SIM110
        if owner[i] != seat:
            return False
    return True


def count_owned(state: GameState, seat: int, square: int) -> int:
    """How many lots of the group of ``square`` ``seat`` owns (railroads, utilities).

    Mortgaged lots count unless ``mortgaged_count_for_rent`` is off (open question 1).
    """
    owner = state.owner
    mortgaged = state.mortgaged
    counts_mortgaged = state.rules.mortgaged_count_for_rent
    return sum(
        1
        for i in state.board.group_of[square]
        if owner[i] == seat and (counts_mortgaged or not mortgaged[i])
    )


def street_rent(state: GameState, square: int) -> int:
    """Rent of a street as printed, doubled when unbuilt and the group is complete.

    000: "Die Miete bei Straßen verdoppelt sich, wenn ein Spieler alle Straßen einer
    Farbe besitzt. Dies gilt auch, wenn andere Straßen dieser Farbgruppe mit
    Hypotheken belastet sind." (setting ``double_rent_with_mortgaged_in_group``)
    """
    info = state.board.squares[square]
    houses = state.houses[square]
    if houses:
        return info.rents[houses]
    owner = state.owner[square]
    if not owns_whole_group(state, owner, square):
        return info.rents[0]
    if not state.rules.double_rent_with_mortgaged_in_group and any(
        state.mortgaged[i] for i in state.board.group_of[square]
    ):
        return info.rents[0]
    return info.rents[0] * state.rules.unbuilt_group_rent_multiplier


def railroad_rent(state: GameState, square: int, multiplier: int = 1) -> int:
    """Rent of a railroad by the number the owner has, times a card's multiplier."""
    count = count_owned(state, state.owner[square], square)
    return state.board.railroad_rents[count - 1] * multiplier


def utility_multiplier(state: GameState, square: int) -> int:
    """4 or 10 (as printed): the factor on the dice for one or both utilities."""
    count = count_owned(state, state.owner[square], square)
    return state.board.utility_multipliers[min(count, 2) - 1]
