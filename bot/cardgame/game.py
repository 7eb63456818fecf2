"""Creating a card game and applying one action to it.

(Longer than ~400 lines: one check and one handler per action type, kept side by side so
that each rule and its refusal read together.)

Every action type has a check, which raises :class:`IllegalAction` and changes
nothing, and an apply step that runs only after its check passed. The checks
are also what :mod:`bot.cardgame.legal` asks to list the legal actions.
"""

from __future__ import annotations

import copy
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import Any

from bot.cardgame.layout import Layout, layout_cards, validate_layout
from bot.cardgame.rounds import end_turn, finish_round, reveal_bonus, start_round
from bot.cardgame.rules import MAX_PLAYERS, MIN_PLAYERS, CardRules
from bot.cardgame.state import CardPlayer, CardState
from bot.engine.errors import IllegalAction
from bot.engine.seats import check_newcomer

Action = dict[str, Any]


def new_game(
    players: Sequence[tuple[str, str]],
    seed: int,
    settings: CardRules | None = None,
) -> CardState:
    """Start a card game for ``players`` (``(id, name)`` pairs in seat order).

    The first dealer is drawn with the game's generator ("Ein weiterer
    Mitspieler wird als erster Geber bestimmt"; setting ``first_dealer``) and the
    first round is dealt at once. The setup's events are in ``state.events``.
    """
    settings = settings or CardRules()
    if not MIN_PLAYERS <= len(players) <= MAX_PLAYERS:
        raise IllegalAction("player_count", minimum=MIN_PLAYERS, maximum=MAX_PLAYERS)
    ids = [pid for pid, _ in players]
    if len(set(ids)) != len(ids):
        raise IllegalAction("duplicate_player")
    state = CardState(settings, [CardPlayer(pid, name) for pid, name in players], seed)
    state.events = []
    dealer = 0 if settings.first_dealer == "seat0" else state.rng.below(len(players))
    state.emit(
        "game_started",
        dealer=dealer,
        target=settings.target_for(len(players)),
        players=len(players),
    )
    start_round(state, dealer)
    return state


def apply_action(state: CardState, action: dict[str, Any]) -> list[dict[str, Any]]:
    """Apply ``action`` (a dict with ``type`` and ``player``) and return its events.

    Raises :class:`IllegalAction` and leaves the state unchanged if the rules do
    not allow the action now.
    """
    if type(action) is not dict:
        raise IllegalAction("bad_action")
    kind = action.get("type")
    handler = HANDLERS.get(kind) if isinstance(kind, str) else None
    if handler is None:
        system = SYSTEM_HANDLERS.get(kind) if isinstance(kind, str) else None
        if system is None:
            raise IllegalAction("unknown_action", action=kind)
        if state.phase == "over":
            raise IllegalAction("game_over")
        parsed = system.check(state, -1, action)
        state.events = []
        system.apply(state, -1, parsed)
        state.seq += 1
        return state.events
    seat = action.get("player")
    if type(seat) is not int or not 0 <= seat < len(state.players):
        raise IllegalAction("unknown_player", player=seat)
    if state.phase == "over":
        raise IllegalAction("game_over")
    parsed = handler.check(state, seat, action)
    state.events = []
    handler.apply(state, seat, parsed)
    state.seq += 1
    return state.events


# -- argument checks shared by the handlers ------------------------------------------------


def _require_turn(state: CardState, seat: int, *phases: str) -> None:
    if state.phase not in phases:
        raise IllegalAction("wrong_phase", phase=state.phase)
    if seat != state.current:
        raise IllegalAction("not_your_turn", current=state.current)


def _int_arg(action: Action, key: str, default: int | None = None) -> int:
    value = action.get(key, default)
    if type(value) is not int:
        raise IllegalAction(f"bad_{key}", **{key: value})
    return value


def _hand_card(state: CardState, seat: int, card: Any) -> str:
    if type(card) is not str or not state.deck.has(card):
        raise IllegalAction("unknown_card", card=card)
    if card not in state.players[seat].hand:
        raise IllegalAction("card_not_in_hand", card=card)
    return card


def _first_discard(state: CardState, seat: int, action: Action) -> str | None:
    """The optional card laid on one's own pile just before a swap.

    "Man kann vor dem Tausch aber noch eine Karte von der Hand auf den
    Tauschkarten-Stapel legen." Not with 5-6 players, whose swap is one top card
    for another ("tauscht seine Tauschkarte gegen die eines Mitspielers").
    """
    card = action.get("first_discard")
    if card is None:
        return None
    if state.table.swap_only:
        raise IllegalAction("no_first_discard")
    return _hand_card(state, seat, card)


# -- helpers that move cards -----------------------------------------------------------------


def _put_first_discard(state: CardState, seat: int, card: str | None) -> None:
    if card is None:
        return
    state.players[seat].hand.remove(card)
    state.piles[seat].append(card)
    state.emit("discarded", player=seat, cards=[card], before_swap=True)


def _take_top(pile: list[str], count: int) -> list[str]:
    """Remove and return the top ``count`` cards of ``pile`` (bottom to top)."""
    taken = pile[len(pile) - count :]
    del pile[len(pile) - count :]
    return taken


def _settle_hands(state: CardState, seats: Sequence[int]) -> None:
    """Ask ``seats`` to discard down to the hand size; end the turn if nobody must.

    "Es werden immer soviel Karten abgelegt, dass der Spieler nach dem Ablegen
    wieder 10 Karten auf der Hand hat." With 5-6 players both swappers lay one
    card down again ("Beide ... legen dann wieder eine Karte als Tauschkarte vor
    sich ab"), which the same rule gives, as their hands are full otherwise.
    """
    size = state.table.hand_size
    for seat in seats:
        state.owe[seat] = max(0, len(state.players[seat].hand) - size)
    if any(state.owe):
        state.phase = "discard"
        state.emit("discard_owed", owe=list(state.owe))
    else:
        _after_discards(state)


def _after_discards(state: CardState) -> None:
    if state.table.passes:
        # "Doch vorher wählen die Spieler jedesmal eine ihrer Handkarten und geben sie
        # verdeckt an ihren linken Nachbarn weiter."
        state.phase = "pass"
        state.emit("pass_started")
    else:
        end_turn(state)


# -- draw ------------------------------------------------------------------------------------


def _check_draw(state: CardState, seat: int, action: Action) -> None:
    _require_turn(state, seat, "turn")
    if state.table.swap_only:
        raise IllegalAction("no_stock")  # 5-6 players: "Es kann nur getauscht werden."
    if not state.stock:
        raise IllegalAction("stock_empty")


def _apply_draw(state: CardState, seat: int, _parsed: None) -> None:
    """ "Der Spieler hebt die oberste Karte vom Abnahmestapel ab ... Dann legt er eine
    Karte auf seinen Tauschkartenstapel ab." """
    card = state.stock.pop()
    state.players[seat].hand.append(card)
    state.sort_hand(seat)
    state.emit("drew", player=seat, card=card, stock=len(state.stock))
    _settle_hands(state, [seat])


# -- discard ---------------------------------------------------------------------------------


def _check_discard(state: CardState, seat: int, action: Action) -> list[str]:
    if state.phase != "discard":
        raise IllegalAction("wrong_phase", phase=state.phase)
    owed = state.owe[seat]
    if owed == 0:
        raise IllegalAction("nothing_to_discard")
    cards = action.get("cards")
    if type(cards) is not list or not cards:
        raise IllegalAction("bad_cards")
    if len(cards) > owed:
        raise IllegalAction("too_many_discards", owed=owed)
    if len(set(map(str, cards))) != len(cards):
        raise IllegalAction("bad_cards")
    return [_hand_card(state, seat, c) for c in cards]


def _apply_discard(state: CardState, seat: int, cards: list[str]) -> None:
    """The cards go on top of the own pile in the order given (the last one on top)."""
    for card in cards:
        state.players[seat].hand.remove(card)
        state.piles[seat].append(card)
    state.owe[seat] -= len(cards)
    state.emit("discarded", player=seat, cards=list(cards), before_swap=False)
    if not any(state.owe):
        _after_discards(state)


# -- swap with another player ----------------------------------------------------------------


@dataclass(frozen=True, slots=True)
class _Swap:
    target: int
    count: int
    first: str | None


def _check_swap(state: CardState, seat: int, action: Action) -> _Swap:
    _require_turn(state, seat, "turn")
    target = action.get("target")
    if type(target) is not int or not 0 <= target < len(state.players) or target == seat:
        raise IllegalAction("bad_target", target=target)
    count = _int_arg(action, "count", 1)
    if count < 1 or (state.table.swap_only and count != 1):
        raise IllegalAction("bad_count", count=count, most=1 if state.table.swap_only else None)
    first = _first_discard(state, seat, action)
    own = len(state.piles[seat]) + (first is not None)
    if own < count:
        raise IllegalAction("own_pile_too_small", have=own, need=count)
    if len(state.piles[target]) < count:
        raise IllegalAction("target_pile_too_small", have=len(state.piles[target]), need=count)
    return _Swap(target, count, first)


def _apply_swap(state: CardState, seat: int, swap: _Swap) -> None:
    """ "Diesem bietet er so viele von seinen eigenen Tauschkarten an, wie er von dessen
    Stapel haben möchte. Der Mitspieler muss die Karten annehmen und zu seinen
    Handkarten (nicht zu seinen Tauschkarten) hinzufügen. Dann bekommt der Spieler
    die gleiche Anzahl von den Tauschkarten des Mitspielers". "Die Karten werden zum
    Tauschen immer oben vom Stapel genommen."

    The other player keeps the cards in hand until the end of their own next turn
    ("Am Ende seines Zuges muss jeder Spieler ... ablegen"; "Überzählige Karten, die
    er vorher durch Tauschen erhalten hat, werden beiseite gelegt") — except with
    5-6 players, where both lay a card down at once.
    """
    _put_first_discard(state, seat, swap.first)
    gave = _take_top(state.piles[seat], swap.count)
    took = _take_top(state.piles[swap.target], swap.count)
    state.players[swap.target].hand.extend(gave)
    state.players[seat].hand.extend(took)
    state.sort_hand(seat)
    state.sort_hand(swap.target)
    state.emit("swapped", player=seat, target=swap.target, gave=gave, took=took)
    seats = [seat, swap.target] if state.table.swap_only else [seat]
    _settle_hands(state, seats)


# -- swap with a pile of nobody (2 and 3 players) --------------------------------------------


@dataclass(frozen=True, slots=True)
class _SwapExtra:
    pile: int
    with_stock: bool
    first: str | None


def _check_swap_extra(state: CardState, seat: int, action: Action) -> _SwapExtra:
    _require_turn(state, seat, "turn")
    if not state.extra_piles:
        raise IllegalAction("no_extra_piles")
    pile = action.get("pile", 0)
    if type(pile) is not int or not 0 <= pile < len(state.extra_piles):
        raise IllegalAction("bad_pile", pile=pile)
    with_stock = action.get("stock", False)
    if type(with_stock) is not bool:
        raise IllegalAction("bad_action")
    first = _first_discard(state, seat, action)
    if not state.extra_piles[pile]:
        raise IllegalAction("pile_empty", pile=pile)
    need = 2 if with_stock else 1
    own = len(state.piles[seat]) + (first is not None)
    if own < need:
        raise IllegalAction("own_pile_too_small", have=own, need=need)
    if with_stock and not state.stock:
        raise IllegalAction("stock_empty")
    return _SwapExtra(pile, with_stock, first)


def _apply_swap_extra(state: CardState, seat: int, swap: _SwapExtra) -> None:
    """3 players: "Die Spieler können auch diese [4. Tauschkarte] gegen die oberste ihres
    Tauschstapels tauschen. Und sie können diese Tauschkarte und die oberste Karte
    des Abnahmestapels gegen ihre beiden obersten Tauschkarten tauschen. Die kommen
    beide auf den 4. Tauschstapel, der so auch anwachsen kann." 2 players have two
    such piles (the 3rd and 4th); the cards go onto the pile swapped with.
    """
    _put_first_discard(state, seat, swap.first)
    extra = state.extra_piles[swap.pile]
    took = [extra.pop()]
    stock_card = state.stock.pop() if swap.with_stock else None
    gave = _take_top(state.piles[seat], 2 if swap.with_stock else 1)
    extra.extend(gave)  # in their order: the former top card stays on top
    hand = state.players[seat].hand
    hand.extend(took)
    if stock_card is not None:
        hand.append(stock_card)
    state.sort_hand(seat)
    state.emit(
        "swapped_extra",
        player=seat,
        pile=swap.pile,
        gave=gave,
        took=took,
        stock_card=stock_card,
        stock=len(state.stock),
    )
    _settle_hands(state, [seat])


# -- ending the round ------------------------------------------------------------------------


def _check_lay_out(state: CardState, seat: int, action: Action) -> Layout:
    if state.phase == "pass" and state.table.passes:
        # 5-6 players: "Ein Spieler darf auslegen und die Runde beenden, auch wenn er
        # vorher getauscht hat, aber bevor alle eine Karte an ihren Nachbarn
        # weitergegeben haben."
        _require_turn(state, seat, "pass")
    else:
        # "Will man die Runde beenden, darf man vorher nicht tauschen oder eine Karte
        # nehmen."
        _require_turn(state, seat, "turn")
    return validate_layout(
        state.deck,
        action.get("layout"),
        state.players[seat].hand,
        wilds=True,
        exact=state.rules.cards_to_lay_out(state.table),
        wild_only_groups=state.rules.wild_only_groups,
    )


def _apply_lay_out(state: CardState, seat: int, layout: Layout) -> None:
    """ "Die Runde wird beendet, indem ein Spieler 10 Karten vor sich auslegt.
    Überzählige Karten, die er vorher durch Tauschen erhalten hat, werden beiseite
    gelegt." Cards chosen to pass (5-6 players) stay with their holders."""
    used = set(layout_cards(layout))
    hand = state.players[seat].hand
    surplus = [c for c in hand if c not in used]
    state.ender = seat
    state.laid = layout
    state.laid_cards = state.deck.sort(list(used))
    state.aside.extend(surplus)
    state.players[seat].hand = []
    state.passing = [None] * len(state.players)
    state.owe = [0] * len(state.players)
    state.emit("laid_out", player=seat, layout=copy.deepcopy(layout), aside=len(surplus))
    reveal_bonus(state)


def _check_arrange(state: CardState, seat: int, action: Action) -> Layout:
    if state.phase != "bonus":
        raise IllegalAction("wrong_phase", phase=state.phase)
    if seat != state.ender:
        raise IllegalAction("not_the_ender", ender=state.ender)
    return validate_layout(
        state.deck,
        action.get("layout"),
        state.laid_cards + state.bonus_cards,
        wilds=True,
        required=state.laid_cards,
        wild_only_groups=state.rules.wild_only_groups,
    )


def _apply_arrange(state: CardState, seat: int, layout: Layout) -> None:
    """ "Er kann eine bis alle in seine Hand einfügen, die dann bis zu 15 Karten umfasst.
    Der Spieler darf alle Karten neu arrangieren, wenn er dadurch mehr Punkte
    erzielt." Every card he laid out stays; bonus cards he does not use go aside."""
    used = set(layout_cards(layout))
    added = [c for c in state.bonus_cards if c in used]
    state.aside.extend(c for c in state.bonus_cards if c not in used)
    state.bonus_cards = []
    state.laid = layout
    state.laid_cards = state.deck.sort(list(used))
    state.emit("arranged", player=seat, layout=copy.deepcopy(layout), added=added)
    finish_round(state, "ended")


# -- passing a card to the left (5-6 players) ------------------------------------------------


def _check_pass_card(state: CardState, seat: int, action: Action) -> str:
    if state.phase != "pass":
        raise IllegalAction("wrong_phase", phase=state.phase)
    if state.passing[seat] is not None:
        raise IllegalAction("already_chosen")
    return _hand_card(state, seat, action.get("card"))


def _apply_pass_card(state: CardState, seat: int, card: str) -> None:
    """Everyone chooses, then all cards move at once to the left neighbour."""
    state.passing[seat] = card
    state.emit("pass_chosen", player=seat)
    if any(c is None for c in state.passing):
        return
    count = len(state.players)
    chosen = list(state.passing)
    for giver, passed in enumerate(chosen):
        state.players[giver].hand.remove(passed)  # type: ignore[arg-type]
    for giver, passed in enumerate(chosen):
        receiver = (giver + 1) % count
        state.players[receiver].hand.append(passed)  # type: ignore[arg-type]
        state.emit("passed", player=giver, to=receiver, card=passed)
    for seat_ in range(count):
        state.sort_hand(seat_)
    state.passing = [None] * count
    end_turn(state)


# -- a seat changes hands (a system action: no "player") --------------------------------------


@dataclass(frozen=True, slots=True)
class _HandOver:
    target: int
    id: str
    name: str


def _check_hand_over(state: CardState, _seat: int, action: Action) -> _HandOver:
    target = action.get("target")
    if type(target) is not int or not 0 <= target < len(state.players):
        raise IllegalAction("unknown_player", player=target)
    new_id, name = check_newcomer(state.players, action)
    return _HandOver(target, new_id, name)


def _apply_hand_over(state: CardState, _seat: int, change: _HandOver) -> None:
    """Only who sits there changes: hand, pile, score and turn stay with the seat."""
    player = state.players[change.target]
    state.emit(
        "handed_over",
        player=change.target,
        from_id=player.id,
        from_name=player.name,
        to_id=change.id,
        to_name=change.name,
    )
    player.id, player.name = change.id, change.name


# -- the table of handlers ---------------------------------------------------------------


@dataclass(frozen=True, slots=True)
class Handler:
    """An action type's check (raises, changes nothing) and its apply step."""

    check: Callable[[CardState, int, Action], Any]
    apply: Callable[[CardState, int, Any], None]


HANDLERS: dict[str, Handler] = {
    "draw": Handler(_check_draw, _apply_draw),
    "discard": Handler(_check_discard, _apply_discard),
    "swap": Handler(_check_swap, _apply_swap),
    "swap_extra": Handler(_check_swap_extra, _apply_swap_extra),
    "lay_out": Handler(_check_lay_out, _apply_lay_out),
    "arrange": Handler(_check_arrange, _apply_arrange),
    "pass_card": Handler(_check_pass_card, _apply_pass_card),
}

# Actions of the game itself or its host rather than of a player: no "player" key (the
# check and apply steps get seat -1).
SYSTEM_HANDLERS: dict[str, Handler] = {
    "hand_over": Handler(_check_hand_over, _apply_hand_over),
}
