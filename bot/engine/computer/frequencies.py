"""How often a throw ends on each square: the long-run landing frequencies of a board.

A Markov chain over the 40 squares and "in jail": two dice, "Gehen Sie ins
Gefängnis", three doubles in a row (1/216 per turn, approximated per throw), and
the movement cards of both decks as the board data prints them (move to a square,
to the nearest railroad or utility, three steps back, go to jail). A player in
jail is assumed to leave at the next throw, the usual early-game choice; the
frequencies change little with it. Computed once per board by power iteration,
deterministically, in a few milliseconds.
"""

from __future__ import annotations

from bot.engine.board import Board, load_board

IN_JAIL = 40
_DICE = tuple((total, (6 - abs(total - 7)) / 36) for total in range(2, 13))
_TRIPLE_DOUBLES = 1 / 216
_ITERATIONS = 100


def _card_moves(board: Board, square: int, deck: str) -> list[tuple[int, float]]:
    """Where a card drawn on ``square`` sends the token, with probabilities."""
    cards = board.decks.get(deck, ())
    if not cards:
        return [(square, 1.0)]
    share = 1 / len(cards)
    moves: dict[int, float] = {}
    for card in cards:
        effect = card.effect
        kind = effect.get("type")
        if kind == "move_to":
            target = effect["target"]
        elif kind == "move_back":
            target = (square - effect["steps"]) % 40
        elif kind == "go_to_jail":
            target = IN_JAIL
        elif kind == "move_to_nearest":
            ahead = (i % 40 for i in range(square + 1, square + 41))
            target = next((i for i in ahead if board.squares[i].kind == effect["kind"]), square)
        else:
            target = square
        moves[target] = moves.get(target, 0.0) + share
    return list(moves.items())


def _resolve(board: Board, square: int) -> list[tuple[int, float]]:
    """Where a throw that reaches ``square`` ends (after a go-to-jail square or a card)."""
    kind = board.squares[square].kind
    if kind == "go_to_jail":
        return [(IN_JAIL, 1.0)]
    if kind in ("chance", "community"):
        return _card_moves(board, square, kind)
    return [(square, 1.0)]


def landing_frequencies(board: Board | str) -> tuple[float, ...]:
    """The share of throws ending on each of the 40 squares (jail visits at 10 count;
    being sent to jail does not), summing to 1 with the share sent to jail.

    ``board`` is a :class:`Board` or a shipped board's id; computed once per board id
    (a server's boards have ids made from their content).
    """
    if isinstance(board, str):
        board = load_board(board)
    found = _FREQUENCIES.get(board.id)
    if found is None:
        found = _FREQUENCIES[board.id] = _frequencies(board)
    return found


_FREQUENCIES: dict[str, tuple[float, ...]] = {}


def _frequencies(board: Board) -> tuple[float, ...]:
    transitions: list[list[tuple[int, float]]] = []
    for origin in range(41):
        start = board.jail_index if origin == IN_JAIL else origin
        moves: dict[int, float] = {IN_JAIL: _TRIPLE_DOUBLES}
        for total, chance in _DICE:
            for target, part in _resolve(board, (start + total) % 40):
                weight = chance * part * (1 - _TRIPLE_DOUBLES)
                moves[target] = moves.get(target, 0.0) + weight
        transitions.append(list(moves.items()))
    shares = [1 / 41] * 41
    for _ in range(_ITERATIONS):
        nxt = [0.0] * 41
        for origin, row in enumerate(transitions):
            mass = shares[origin]
            for target, weight in row:
                nxt[target] += mass * weight
        shares = nxt
    return tuple(shares[:40])
