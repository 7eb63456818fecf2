"""Scoring a round: every player's lay-out, the Mr. Monopoly bonus, and the game's end."""

from __future__ import annotations

from typing import Any

from bot.cardgame.cards import MR_MONOPOLY, WILD
from bot.cardgame.layout import Layout, empty_layout, score_layout
from bot.cardgame.search import best_layout_of
from bot.cardgame.state import CardState


def others_layout(state: CardState, seat: int) -> tuple[Layout, bool]:
    """The lay-out of a player who did not end the round, and whether a wild card voids it.

    "Danach legen auch alle Mitspieler ihre vollständigen Gruppen und ihre
    Bonuskarten aus. Die übrigen Karten werden zur Seite gelegt. Wer noch eine
    Ereigniskarte hat, braucht nicht mehr zu rechnen – der Wert seiner Hand ist 0."
    The engine lays out the best arrangement for them: nothing in the book gives
    them a reason to score less, and asynchronous play need not wait for them.
    """
    hand = state.players[seat].hand
    if any(state.deck.kind(c) == WILD for c in hand):
        return empty_layout(), True
    limit = state.rules.cards_to_lay_out(state.table) if state.rules.others_limited else None
    found = best_layout_of(
        state.deck,
        hand,
        wilds=False,
        limit=limit,
        token_includes_hotel=state.rules.token_includes_hotel,
    )
    if found is None:
        # No complete group: the bonus cards alone still count ("ihre Bonuskarten").
        return _bonus_only(state, hand, limit), False
    return found[0], False


def _bonus_only(state: CardState, hand: list[str], limit: int | None) -> Layout:
    """LOS and Mr. Monopoly cards of a hand without a complete group (tokens need a group)."""
    deck = state.deck
    bonus = [c for c in hand if deck.kind(c) == "go"] + [
        c for c in hand if deck.kind(c) == MR_MONOPOLY
    ]
    if limit is not None:
        bonus = bonus[:limit]
    return {"groups": [], "bonus": deck.sort(bonus)}


def mr_monopoly_bonus(state: CardState, counts: list[int]) -> list[int]:
    """The Mr. Monopoly bonus per seat from the number of such cards each one counts.

    "Wer die meisten MR. MONOPOLY-KARTEN (4) am Ende der Runde auf der Hand hat,
    bekommt zusätzlich 1.000 Euro. Die anderen gehen leer aus." A tie for the most
    is settled by the setting ``mr_monopoly_tie``.
    """
    bonus = [0] * len(counts)
    most = max(counts, default=0)
    if most == 0:
        return bonus
    leaders = [seat for seat, n in enumerate(counts) if n == most]
    amount = state.deck.mr_monopoly_bonus
    if len(leaders) > 1:
        rule = state.rules.mr_monopoly_tie
        if rule == "nobody":
            return bonus
        if rule == "split":
            # Rounded down to the smallest banknote of the game (50 €).
            amount = amount // len(leaders) // 50 * 50
    for seat in leaders:
        bonus[seat] = amount
    return bonus


def score_round(state: CardState, layouts: list[Layout], voided: list[bool]) -> dict[str, Any]:
    """Score every seat's final lay-out and add it to their totals; return the result.

    The result (also kept as ``state.last_round``) lists per seat the lay-out,
    whether a wild card voided the hand, the lay-out's value, the Mr. Monopoly
    cards counted and bonus, and the round's points.
    """
    deck = state.deck
    rows: list[dict[str, Any]] = []
    counts = []
    for seat, layout in enumerate(layouts):
        worth = score_layout(deck, layout, state.rules.token_includes_hotel)
        mrms = worth["mr_monopoly"]
        if voided[seat]:
            hand = state.players[seat].hand
            held = sum(1 for c in hand if deck.kind(c) == MR_MONOPOLY)
            mrms = held if state.rules.wild_holder_mr_monopoly else 0
        counts.append(mrms)
        rows.append({"layout": layout, "voided": voided[seat], "worth": worth})
    bonus = mr_monopoly_bonus(state, counts)
    points = []
    for seat, row in enumerate(rows):
        # A voided hand is worth 0 (with wild_holder_mr_monopoly its Mr. Monopoly
        # cards still count above, so they may block someone else's majority).
        value = 0 if row["voided"] else row["worth"]["total"]
        total = 0 if row["voided"] else value + bonus[seat]
        row.update(
            player=seat,
            value=value,
            mr_monopoly=counts[seat],
            mr_monopoly_bonus=0 if row["voided"] else bonus[seat],
            points=total,
        )
        points.append(total)
        state.players[seat].score += total
    return {
        "round": state.round,
        "ender": state.ender,
        "players": rows,
        "points": points,
        "scores": [p.score for p in state.players],
    }


def winners_if_over(state: CardState) -> list[int]:
    """The winners if the game is over after this round, else an empty list.

    "Es werden so viele Runden gespielt, bis ein Spieler mehr als 10.000 Euro
    eingenommen hat ... Erreichen mehrere Spieler 10.000 Euro in der gleichen
    Runde, gewinnt der mit dem höchsten Betrag." A tie for the highest is the
    setting ``final_tie``.
    """
    count = len(state.players)
    scores = [p.score for p in state.players]
    if not any(state.rules.reached(s, count) for s in scores):
        return []
    best = max(scores)
    leaders = [seat for seat, s in enumerate(scores) if s == best]
    if len(leaders) > 1 and state.rules.final_tie == "play_on":
        return []
    return leaders
