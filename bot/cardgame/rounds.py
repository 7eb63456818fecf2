"""Dealing a round, passing the turn on, and ending a round (bonus, scoring, next dealer)."""

from __future__ import annotations

import hashlib
import json

from bot.cardgame.layout import Layout
from bot.cardgame.scoring import others_layout, score_round, winners_if_over
from bot.cardgame.search import best_layout_of
from bot.cardgame.state import CardState


def deal_digest(cards: list[str]) -> str:
    """A short fingerprint of a shuffled deck (records check replays with it)."""
    return hashlib.sha256(",".join(cards).encode()).hexdigest()[:16]


def start_round(state: CardState, dealer: int) -> None:
    """Shuffle all 60 cards and deal the next round; the player left of the dealer starts.

    "Dieser mischt, lässt abheben und teilt an jeden Mitspieler 10 Karten aus ...
    Dann legt der Geber vor jeden Mitspieler eine Karte offen hin ... Die
    restlichen Karten werden verdeckt als Abnahmestapel in die Mitte des Tisches
    gelegt." "Der Spieler links vom Geber beginnt." Left is the next seat.
    """
    count = len(state.players)
    table = state.table
    cards = list(state.deck.ids)
    state.rng.shuffle(cards)
    digest = deal_digest(cards)
    order = [(dealer + 1 + i) % count for i in range(count)]
    for player in state.players:
        player.hand = []
    # Dealt one at a time from the top (the end of the list), starting left of the dealer.
    for _ in range(table.hand_size):
        for seat in order:
            state.players[seat].hand.append(cards.pop())
    state.piles = [[] for _ in range(count)]
    for seat in order:
        state.piles[seat].append(cards.pop())
    state.extra_piles = [[cards.pop()] for _ in range(table.extra_piles)]
    state.stock = cards
    for seat in range(count):
        state.sort_hand(seat)
    state.round += 1
    state.dealer = dealer
    state.current = order[0]
    state.phase = "turn"
    state.owe = [0] * count
    state.passing = [None] * count
    state.ender = None
    state.laid = None
    state.laid_cards = []
    state.bonus_cards = []
    state.aside = []
    state.round_turn = 0
    state.emit(
        "round_started",
        round=state.round,
        dealer=dealer,
        first=state.current,
        hand_size=table.hand_size,
        stock=len(state.stock),
        piles=[list(p) for p in state.piles],
        extra_piles=[list(p) for p in state.extra_piles],
        deal=digest,
    )
    _begin_turn(state)


def _begin_turn(state: CardState) -> None:
    state.turn += 1
    state.round_turn += 1
    state.phase = "turn"
    state.emit("turn", player=state.current, turn=state.turn, round_turn=state.round_turn)


def end_turn(state: CardState) -> None:
    """The current player's turn is over: pass it on to the left, or end the round.

    With ``empty_stock: "score"`` a round whose stock has run out ends here. A
    player who can do nothing at all (no stock, every pile empty, no lay-out)
    ends the round the same way, without an ender.
    """
    if state.table.has_stock and not state.stock and state.rules.empty_stock == "score":
        state.emit("stock_empty")
        finish_round(state, "stock_empty")
        return
    state.current = (state.current + 1) % len(state.players)
    _begin_turn(state)
    if not turn_possible(state):
        state.emit("round_stalled", player=state.current)
        finish_round(state, "stalled")


def turn_possible(state: CardState) -> bool:
    """True if the current player has at least one legal turn action."""
    seat = state.current
    if state.stock and not state.table.swap_only:
        return True
    if any(state.piles[s] for s in range(len(state.players)) if s != seat):
        return True
    if any(state.extra_piles):
        return True
    return can_end(state, seat)


def can_end(state: CardState, seat: int) -> bool:
    """True if ``seat``'s hand can be laid out to end the round."""
    return ender_layout(state, seat) is not None


def ender_layout(state: CardState, seat: int) -> tuple[Layout, int] | None:
    """The best lay-out ``seat`` could end the round with, and its value, or None."""
    return best_layout_of(
        state.deck,
        state.players[seat].hand,
        wilds=True,
        exact=state.rules.cards_to_lay_out(state.table),
        wild_only_groups=state.rules.wild_only_groups,
        token_includes_hotel=state.rules.token_includes_hotel,
    )


def reveal_bonus(state: CardState) -> None:
    """Give the ender their bonus cards; score at once if there are none.

    "Der Spieler, der die Runde beendet, nimmt als Prämie die obersten 5 Karten
    vom Abnahmestapel (oder, wenn weniger als 5 Karten übrig sind, die
    restlichen)." With 5-6 players: "darf alle auf dem Tisch liegenden
    Tauschkarten nehmen".
    """
    ender = state.ender
    assert ender is not None
    if state.table.bonus_cards is None:
        cards = [c for pile in state.piles for c in pile]
        state.piles = [[] for _ in state.piles]
    else:
        take = min(state.table.bonus_cards, len(state.stock))
        cards = [state.stock.pop() for _ in range(take)]
    state.bonus_cards = cards
    if not cards:
        finish_round(state, "ended")
        return
    state.phase = "bonus"
    state.emit("bonus_revealed", player=ender, cards=list(cards))


def finish_round(state: CardState, reason: str) -> None:
    """Score the round, then deal the next one (the next dealer is left) or end the game.

    "Wenn alles ausbezahlt ist, übernimmt der Spieler links vom Geber die Karten
    und teilt für die nächste Runde aus."
    """
    layouts: list[Layout] = []
    voided: list[bool] = []
    for seat in range(len(state.players)):
        if seat == state.ender:
            assert state.laid is not None
            layouts.append(state.laid)
            voided.append(False)
        else:
            layout, void = others_layout(state, seat)
            layouts.append(layout)
            voided.append(void)
    result = score_round(state, layouts, voided)
    result["reason"] = reason
    state.round_scores.append(list(result["points"]))
    state.last_round = result
    state.emit("round_scored", **json.loads(json.dumps(result)))
    winners = winners_if_over(state)
    if not winners:
        start_round(state, (state.dealer + 1) % len(state.players))
        return
    state.winners = winners
    state.phase = "over"
    for player in state.players:
        player.hand = []
    state.piles = [[] for _ in state.players]
    state.extra_piles = []
    state.stock = []
    state.owe = [0] * len(state.players)
    state.passing = [None] * len(state.players)
    state.laid_cards = []
    state.bonus_cards = []
    state.aside = []
    state.emit("game_over", winners=list(winners), scores=[p.score for p in state.players])
