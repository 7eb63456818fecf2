"""Counting a player's wealth, as the rulebook does at the end of a shortened game.

000 ("Regeln für ein kürzeres Spiel"): "1 ihr Bargeld, 2 ihre Grundstücke mit dem
Wert, der auf dem Spielplan angegeben ist; 3 alle beliebigen [beliehenen]
Grundstücke zum halben Preis; 4 Häuser zu ihrem Kaufpreis; 5 Hotels zu ihrem
Kaufpreis (mit dem Wert der beim Hotelkauf zurückgegebenen ... Häuser)."
"""

from __future__ import annotations

from bot.engine.state import HOTEL, GameState


def building_units(state: GameState, square: int) -> int:
    """How many house prices the buildings on ``square`` cost (a hotel includes its houses)."""
    houses = state.houses[square]
    if houses == HOTEL:
        return state.rules.hotel_requires_houses + 1
    return houses


def wealth(state: GameState, seat: int) -> int:
    """Cash + lots at their price (mortgaged at half) + buildings at what they cost."""
    squares = state.board.squares
    total = state.players[seat].cash
    for square, owner in enumerate(state.owner):
        if owner != seat:
            continue
        info = squares[square]
        total += info.price // 2 if state.mortgaged[square] else info.price
        total += building_units(state, square) * info.house_cost
    return total


def standings(state: GameState) -> list[tuple[int, int]]:
    """``(seat, wealth)`` of every player still in the game, richest first."""
    rows = [(seat, wealth(state, seat)) for seat in state.active_players()]
    return sorted(rows, key=lambda row: (-row[1], row[0]))
