"""The stretch of the board a turn's picture shows: which squares, in which order.

Plain data, no drawing. A turn (``TurnFocus``) lists its moves in the order they
happened; :func:`route` turns them into the squares the mover stood on or crossed, with
markers where the mover jumped (to jail) or went back (a card); :func:`collapse` keeps
what matters when the whole way does not fit: where the turn began, every square the
mover stopped on, the landing square and as many crossed squares next to them as the
width allows, and folds the rest into "+N squares" items that remember a salary for
passing GO.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass

from bot.engine.board import Board

FORWARD, BACKWARD, JUMP = "forward", "backward", "jump"

#: Squares shown ahead of the mover before the first throw: the most two dice can reach.
AHEAD = 12


@dataclass(frozen=True)
class TurnFocus:
    """What the picture of one turn (a "Zug") tells.

    ``start`` is the square where the mover stood when the turn began; ``moves`` are
    ``(from, to, how)`` in the order they happened (``how``: ``"forward"`` step by step,
    ``"backward"`` step by step, ``"jump"`` straight there, as to jail); ``dice`` every
    throw of the turn, in order.
    """

    mover: int
    turn: int
    start: int
    moves: tuple[tuple[int, int, str], ...] = ()
    dice: tuple[tuple[int, int], ...] = ()

    @property
    def end(self) -> int:
        """The square where the turn's moves ended (the start if there were none)."""
        return self.moves[-1][1] % 40 if self.moves else self.start % 40

    @property
    def rolled(self) -> bool:
        """True once the turn has a throw or a move: before that there is no path."""
        return bool(self.moves or self.dice)


@dataclass(frozen=True, slots=True)
class Item:
    """One entry of the stretch.

    ``kind`` is ``"square"`` (a tile), ``"skip"`` (squares folded into one: ``count`` of
    them), ``"jump"`` (the mover went straight to the next square: to jail, or by a card,
    ``role`` ``"card"``) or ``"back"`` (a card sent the mover ``count`` squares back, to
    the next square). A square's ``role`` is ``"start"``,
    ``"pass"`` (crossed), ``"stop"`` (stood on, then moved on), ``"landing"``, ``"here"``
    (no throw yet: where the mover stands) or ``"ahead"`` (no throw yet: ``count``
    squares ahead). ``salary``: GO was reached or passed going forward here.
    """

    kind: str
    square: int = -1
    role: str = ""
    count: int = 0
    salary: bool = False


def route(focus: TurnFocus, board: Board) -> list[Item]:
    """Every square of the turn's way in the order walked, with jump and back markers.

    Before the first throw: the mover's square and the :data:`AHEAD` squares after it.
    """
    start = focus.start % 40
    if not focus.rolled:
        return [Item("square", start, "here")] + [
            Item("square", (start + k) % 40, "ahead", count=k) for k in range(1, AHEAD + 1)
        ]
    items = [Item("square", start, "start")]
    at = start
    for (origin, target, how), walk in zip(focus.moves, walked(focus), strict=True):
        origin, target = origin % 40, target % 40
        if origin != at:
            # The record skipped a step (it should not): show it as a jump, not a walk.
            items.append(Item("jump"))
            items.append(Item("square", origin, "stop"))
        if how == JUMP:
            items.append(Item("jump"))
            items.append(Item("square", target, "stop"))
        elif how == FORWARD and not walk:
            # A card ("Rücke vor bis zur Schlossallee"): straight there, with the salary
            # if the way passed GO (a card that lands on GO shows it on the GO tile).
            wrapped = target < origin and target != board.go_index
            items.append(Item("jump", role="card", salary=wrapped))
            items.append(Item("square", target, "stop", salary=target == board.go_index))
        elif how == BACKWARD:
            # Only a card moves back ("Gehe 3 Felder zurück"): nothing happens on the squares
            # walked over, so the marker says how far and the tile where to.
            items.append(Item("back", count=(origin - target) % 40))
            items.append(Item("square", target, "stop"))
        else:
            steps = (target - origin) % 40
            for k in range(1, steps + 1):
                square = (origin + k) % 40
                items.append(Item("square", square, "pass", salary=square == board.go_index))
        at = target
        items[-1] = _with_role(items[-1], "stop")
    if len(items) == 1:  # thrown but not moved (in jail): the start is where it ended
        return [Item("square", start, "landing")]
    items[-1] = _with_role(items[-1], "landing")
    return items


def walked(focus: TurnFocus) -> list[bool]:
    """For each move of ``focus``: True if it was walked by a throw of the dice.

    The record says "forward" for a throw's move and for a card's alike. A throw moves
    the mover once, by its pips, so the forward moves are matched to the throws in order:
    a move as long as the next throw is that throw's, any other a card's. (A turn without
    recorded throws walks every forward move.)
    """
    throws = [a + b for a, b in focus.dice]
    result = []
    k = 0
    for origin, target, how in focus.moves:
        if how != FORWARD:
            result.append(False)
            continue
        steps = (target - origin) % 40
        if not throws or (k < len(throws) and steps == throws[k]):
            result.append(True)
            k += 1
        else:
            result.append(False)
    return result


def _with_role(item: Item, role: str) -> Item:
    if item.kind != "square" or item.role == "start":
        return item
    return Item(item.kind, item.square, role, item.count, item.salary)


def collapse(items: Sequence[Item], fits: Callable[[list[Item]], bool]) -> list[Item]:
    """The longest version of ``items`` that ``fits``: crossed squares fold into skips.

    Kept always: the start, the stops, the landing, the jump and back markers. Then the
    crossed squares nearest to them, ahead of those further away, and of two equally
    near the one before a stop first (what the mover just missed). Before the first
    throw the squares ahead are cut from the far end instead.
    """
    items = list(items)
    if fits(items):
        return items
    if items and items[0].role == "here":
        while len(items) > 2 and not fits(items):
            items.pop()
        return items
    keep = {i for i, item in enumerate(items) if item.kind != "square" or item.role != "pass"}
    # A long turn (three throws, cards) may stop more often than fits: its earliest stops
    # fold in with the crossed squares, the start and the landing stay.
    stops = [i for i in sorted(keep) if items[i].kind == "square" and items[i].role == "stop"]
    while stops and not fits(_folded(items, keep)):
        keep.discard(stops.pop(0))
    anchors = sorted(keep)

    def nearness(i: int) -> tuple[int, int]:
        after = min((a - i for a in anchors if a > i), default=len(items))
        before = min((i - a for a in anchors if a < i), default=len(items))
        return min(after, before), 0 if after <= before else 1

    candidates = sorted((i for i in range(len(items)) if i not in keep), key=nearness)
    best = _folded(items, keep)
    for i in candidates:
        trial = _folded(items, keep | {i})
        if not fits(trial):
            continue  # a later one may still fit (joining two runs frees a skip's width)
        keep.add(i)
        best = trial
    return best


def _folded(items: list[Item], keep: set[int]) -> list[Item]:
    """``items`` with every run of squares not in ``keep`` folded into one skip."""
    result: list[Item] = []
    run: list[Item] = []
    for i, item in enumerate(items):
        if i in keep:
            if run:
                result.append(Item("skip", count=len(run), salary=any(r.salary for r in run)))
                run = []
            result.append(item)
        else:
            run.append(item)
    if run:
        result.append(Item("skip", count=len(run), salary=any(r.salary for r in run)))
    return result


def passed_go(items: Sequence[Item]) -> bool:
    """True if the way reached or passed GO stepping forward (a salary)."""
    return any(item.salary for item in items)
