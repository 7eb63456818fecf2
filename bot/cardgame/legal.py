"""The actions each player may take now, whom the game waits for, and lay-out suggestions.

Every listed action can be passed to :func:`~bot.cardgame.game.apply_action` as
it is. Lay-outs are open-ended: ``lay_out`` and ``arrange`` are listed once,
with the best lay-out (:func:`best_layout`); any other valid lay-out is
accepted too. ``discard`` is listed one card at a time (several cards in one
action are allowed up to what is owed).
"""

from __future__ import annotations

from typing import Any

from bot.cardgame.game import HANDLERS
from bot.cardgame.layout import Layout
from bot.cardgame.rounds import ender_layout
from bot.cardgame.search import best_layout_of
from bot.cardgame.state import CardState
from bot.engine.errors import IllegalAction

Action = dict[str, Any]


def is_legal(state: CardState, action: Action) -> bool:
    """True if ``action`` would be accepted now (nothing is changed)."""
    if type(action) is not dict or not isinstance(action.get("type"), str):
        return False
    handler = HANDLERS.get(action["type"])
    seat = action.get("player")
    if handler is None or type(seat) is not int or not 0 <= seat < len(state.players):
        return False
    if state.phase == "over":
        return False
    try:
        handler.check(state, seat, action)
    except IllegalAction:
        return False
    return True


def waiting_for(state: CardState) -> list[int]:
    """The seats the game waits on to move on (whom to remind)."""
    phase = state.phase
    if phase == "over":
        return []
    if phase == "discard":
        return [seat for seat, owed in enumerate(state.owe) if owed]
    if phase == "pass":
        return [seat for seat, card in enumerate(state.passing) if card is None]
    if phase == "bonus":
        assert state.ender is not None
        return [state.ender]
    return [state.current]


def best_layout(state: CardState, seat: int) -> Layout | None:
    """The highest-scoring lay-out ``seat`` may submit now, or None.

    In the ``bonus`` phase this is the ender's best final lay-out (all laid-out
    cards plus any bonus cards); otherwise the best lay-out with which ``seat``
    could end the round from their hand (the UI's suggestion), whether or not it
    is their turn.
    """
    if state.phase == "over":
        return None
    if state.phase == "bonus" and seat == state.ender:
        found = best_layout_of(
            state.deck,
            state.laid_cards + state.bonus_cards,
            wilds=True,
            required=state.laid_cards,
            wild_only_groups=state.rules.wild_only_groups,
            token_includes_hotel=state.rules.token_includes_hotel,
        )
    else:
        found = ender_layout(state, seat)
    return None if found is None else found[0]


def swap_choices(state: CardState, seat: int) -> dict[str, Any]:
    """What ``seat`` could swap now, for building a swap menu.

    ``players`` maps each other seat to the most cards a swap with them may take
    (without a first discard; one more own card is available with one), and
    ``extra`` lists per pile of nobody whether the single swap and the swap with
    the stock are open.
    """
    own = len(state.piles[seat])
    players = {}
    for target, pile in enumerate(state.piles):
        if target != seat and pile:
            most = 1 if state.table.swap_only else len(pile)
            players[target] = most
    extra = [
        {
            "pile": index,
            "single": bool(pile) and own >= 1,
            "with_stock": bool(pile) and own >= 2 and bool(state.stock),
        }
        for index, pile in enumerate(state.extra_piles)
    ]
    return {"own_pile": own, "players": players, "extra": extra}


def legal_actions(state: CardState, seat: int) -> list[Action]:
    """Every concrete action ``seat`` may take now (see the module docstring)."""
    if state.phase == "over":
        return []
    found: list[Action] = []

    def add(kind: str, **params: Any) -> None:
        action = {"type": kind, "player": seat, **params}
        if is_legal(state, action):
            found.append(action)

    hand = state.players[seat].hand
    phase = state.phase
    mine = seat == state.current
    if phase == "turn" and mine:
        add("draw")
        firsts: list[str | None] = [None]
        if not state.table.swap_only:
            firsts.extend(hand)
        for first in firsts:
            extra = {} if first is None else {"first_discard": first}
            own = len(state.piles[seat]) + (first is not None)
            for target, pile in enumerate(state.piles):
                if target == seat:
                    continue
                most = min(own, len(pile), 1 if state.table.swap_only else len(pile))
                for count in range(1, most + 1):
                    add("swap", target=target, count=count, **extra)
            for index in range(len(state.extra_piles)):
                add("swap_extra", pile=index, stock=False, **extra)
                add("swap_extra", pile=index, stock=True, **extra)
    if phase in ("turn", "pass") and mine:
        layout = best_layout(state, seat)
        if layout is not None:
            add("lay_out", layout=layout)
    if phase == "discard" and state.owe[seat]:
        for card in hand:
            add("discard", cards=[card])
    if phase == "pass" and state.passing[seat] is None:
        for card in hand:
            add("pass_card", card=card)
    if phase == "bonus" and seat == state.ender:
        layout = best_layout(state, seat)
        if layout is not None:
            add("arrange", layout=layout)
    return found
