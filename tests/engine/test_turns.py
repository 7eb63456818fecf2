"""The turn: who starts, moving, doubles, the third doubles, LOS, taxes and squares."""

from __future__ import annotations

import pytest

from bot.engine import GameState, new_game
from bot.engine.legal import waiting_for
from tests.engine.conftest import (
    BADSTRASSE,
    COMMUNITY_2,
    ELEKTRIZITAETSWERK,
    FREI_PARKEN,
    GO_TO_JAIL,
    INCOME_TAX,
    JAIL,
    LOS,
    LUXURY_TAX,
    MUENCHNER_STRASSE,
    OPERNPLATZ,
    PARKSTRASSE,
    SCHILLERSTRASSE,
    SCHLOSSALLEE,
    TURMSTRASSE,
    act,
    cash,
    deck_with_top,
    game,
    of_type,
    owned,
    payments,
    pure_engine_only,
    refuse,
)

# -- who starts --------------------------------------------------------------------------


def _forced_dice(monkeypatch: pytest.MonkeyPatch, dice: list[int]) -> list[int]:
    """Make every die of ``new_game`` come from ``dice`` (in order)."""
    pure_engine_only()
    queue = list(dice)
    monkeypatch.setattr(GameState, "die", lambda self: queue.pop(0))
    return queue


def _players(count: int) -> list[tuple[str, str]]:
    return [(f"p{i}", f"Player {i}") for i in range(count)]


def test_highest_roll_starts(monkeypatch: pytest.MonkeyPatch) -> None:
    """000: "Der Spieler mit dem höchsten Wurf beginnt das Spiel"."""
    left = _forced_dice(monkeypatch, [1, 2, 6, 5, 3, 3])
    state = new_game(_players(3), seed=1)
    assert left == []
    assert state.current == 1
    assert state.phase == "roll"
    rolls = of_type(state.events, "order_roll")
    assert [(e["player"], e["dice"]) for e in rolls] == [(0, [1, 2]), (1, [6, 5]), (2, [3, 3])]
    assert of_type(state.events, "game_started") == [{"type": "game_started", "first": 1}]


def test_tie_for_highest_roll_is_thrown_again_by_the_tied_players_only(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """000: the highest throw starts; a tie for it is decided by throwing again.

    Only the tied players throw again (seat 1 had the lower throw and stays out).
    """
    left = _forced_dice(monkeypatch, [6, 6, 1, 2, 5, 7, 1, 1, 4, 4])
    state = new_game(_players(3), seed=1)
    assert left == []
    rolls = [(e["player"], sum(e["dice"])) for e in of_type(state.events, "order_roll")]
    assert rolls == [(0, 12), (1, 3), (2, 12), (0, 2), (2, 8)]
    assert state.current == 2


def test_repeated_ties_keep_rethrowing(monkeypatch: pytest.MonkeyPatch) -> None:
    _forced_dice(monkeypatch, [3, 4, 2, 5, 1, 1, 1, 1, 6, 6, 1, 6])
    state = new_game(_players(2), seed=1)
    assert len(of_type(state.events, "order_roll")) == 6
    assert state.current == 0


def test_new_game_gives_start_money_and_stocks_the_bank() -> None:
    """000: each player gets € 1.500; the game has 32 houses and 12 hotels."""
    state = new_game(_players(4), seed=7)
    assert cash(state) == [1500] * 4
    assert [p.position for p in state.players] == [LOS] * 4
    assert state.bank_houses == 32
    assert state.bank_hotels == 12
    assert sorted(state.decks["chance"]) == list(range(1, 17))
    assert sorted(state.decks["community"]) == list(range(1, 17))


def test_new_game_is_deterministic_for_a_seed() -> None:
    first = new_game(_players(3), seed=42)
    second = new_game(_players(3), seed=42)
    assert first.to_json() == second.to_json()


# -- moving and the order of play --------------------------------------------------------


def test_roll_moves_by_the_sum_and_ends_the_throws() -> None:
    state = game([{"position": 10}, {}], lots=owned(1, MUENCHNER_STRASSE))
    events = act(state, "roll", 0, dice=[2, 4])
    assert state.players[0].position == MUENCHNER_STRASSE
    assert of_type(events, "moved")[0]["to"] == MUENCHNER_STRASSE
    assert state.last_dice == [2, 4]
    assert state.phase == "end"
    assert waiting_for(state) == [0]


def test_play_passes_clockwise_in_seat_order() -> None:
    """000: "die anderen Spieler folgen im Uhrzeigersinn" (seat order here)."""
    state = game([{"position": 17}, {"position": 17}, {"position": 17}])
    turn = state.turn
    for seat in (0, 1, 2):
        assert state.current == seat
        act(state, "roll", seat, dice=[1, 2])  # Frei Parken
        events = act(state, "end_turn", seat)
        assert of_type(events, "turn")[0]["player"] == (seat + 1) % 3
    assert state.current == 0
    assert state.turn == turn + 3


def test_bankrupt_players_are_skipped() -> None:
    state = game([{"position": 17}, {"position": 17}, {"position": 17}])
    state.players[1].bankrupt = True
    act(state, "roll", 0, dice=[1, 2])
    act(state, "end_turn", 0)
    assert state.current == 2


def test_doubles_roll_again() -> None:
    """000: "Bei einem Pasch ... führt der Spieler seinen Zug in gewohnter Weise aus.
    Danach muss er noch einmal würfeln."
    """
    state = game([{"position": 20}, {}], lots=owned(0, SCHILLERSTRASSE))
    act(state, "roll", 0, dice=[2, 2])
    assert state.players[0].position == OPERNPLATZ
    assert state.phase == "buy"
    act(state, "decline", 0)
    act(state, "auction_pass", 0)
    act(state, "auction_pass", 1)
    assert state.phase == "roll"
    assert state.current == 0
    refuse(state, "end_turn", 0, "wrong_phase")
    act(state, "roll", 0, dice=[1, 2])
    assert state.players[0].position == SCHILLERSTRASSE
    assert state.phase == "end"


def test_doubles_after_buying_still_roll_again() -> None:
    state = game([{"position": 35}, {}])
    act(state, "roll", 0, dice=[1, 1])
    assert state.phase == "buy"
    act(state, "buy", 0)
    assert state.phase == "roll"
    assert state.current == 0


def test_third_doubles_goes_straight_to_jail_without_moving() -> None:
    """000: "Wirft der Spieler dreimal hintereinander einen Pasch, so darf er den
    dritten Zug nicht mehr ausführen, sondern muss sich mit seiner Spielfigur direkt
    ins Gefängnis begeben."
    """
    state = game(
        [{"position": JAIL}, {}],
        lots=owned(0, ELEKTRIZITAETSWERK, MUENCHNER_STRASSE),
    )
    act(state, "roll", 0, dice=[1, 1])
    assert state.players[0].position == ELEKTRIZITAETSWERK
    act(state, "roll", 0, dice=[2, 2])
    assert state.players[0].position == MUENCHNER_STRASSE
    events = act(state, "roll", 0, dice=[3, 3])
    player = state.players[0]
    assert player.position == JAIL
    assert player.in_jail
    assert of_type(events, "moved") == []
    assert of_type(events, "jailed")[0]["reason"] == "three_doubles"
    assert state.phase == "end"


def test_third_doubles_collects_no_salary_even_where_the_move_would_pass_los() -> None:
    """000: "Wenn der Spieler auf dem direkten Weg ins Gefängnis über 'LOS' kommt,
    erhält er kein Gehalt."
    """
    state = game([{"position": 35}, {}], lots=owned(0, PARKSTRASSE, SCHLOSSALLEE))
    act(state, "roll", 0, dice=[1, 1])
    act(state, "roll", 0, dice=[1, 1])
    events = act(state, "roll", 0, dice=[3, 3])
    assert payments(events) == []
    assert cash(state) == [1500, 1500]
    assert state.players[0].in_jail


def test_doubles_count_starts_afresh_each_turn() -> None:
    state = game(
        [{"position": JAIL}, {"position": FREI_PARKEN}],
        lots={**owned(0, ELEKTRIZITAETSWERK, MUENCHNER_STRASSE), **owned(1, BADSTRASSE)},
    )
    act(state, "roll", 0, dice=[1, 1])
    act(state, "roll", 0, dice=[2, 2])
    act(state, "roll", 0, dice=[1, 2])  # 19, Berliner Straße
    act(state, "decline", 0)
    act(state, "auction_pass", 0)
    act(state, "auction_pass", 1)
    act(state, "end_turn", 0)
    act(state, "roll", 1, dice=[1, 2])
    act(state, "decline", 1)
    act(state, "auction_pass", 0)
    act(state, "auction_pass", 1)
    act(state, "end_turn", 1)
    act(state, "roll", 0, dice=[3, 3])  # 25, the first doubles of this turn
    assert not state.players[0].in_jail
    assert state.doubles == 1


def test_doubles_onto_go_to_jail_end_the_turn() -> None:
    """000: "Sein Zug ist damit beendet und auch ein Pasch erlaubt kein nochmaliges Würfeln."."""
    state = game([{"position": GO_TO_JAIL - 4}, {}])
    events = act(state, "roll", 0, dice=[2, 2])
    assert state.players[0].position == JAIL
    assert state.players[0].in_jail
    assert of_type(events, "jailed")[0]["reason"] == "square"
    assert state.phase == "end"
    refuse(state, "roll", 0, "wrong_phase")


def test_landing_on_go_to_jail_collects_no_salary() -> None:
    state = game([{"position": 25}, {}])
    events = act(state, "roll", 0, dice=[2, 3])
    assert state.players[0].position == JAIL
    assert payments(events) == []
    assert cash(state) == [1500, 1500]


# -- LOS ---------------------------------------------------------------------------------


def test_passing_los_pays_the_salary() -> None:
    """000: "Jedesmal wenn ein Spieler ... das Feld 'LOS' erreicht oder passiert, zahlt
    ihm der Bankhalter ein Gehalt von € 200."
    """
    state = game([{"position": LUXURY_TAX}, {}])
    events = act(state, "roll", 0, dice=[2, 3])
    assert state.players[0].position == TURMSTRASSE
    assert payments(events) == [(-1, 0, 200, "salary")]
    assert cash(state) == [1700, 1500]
    assert state.phase == "buy"


def test_landing_on_los_pays_the_salary() -> None:
    state = game([{"position": 36}, {}])
    events = act(state, "roll", 0, dice=[1, 3])
    assert state.players[0].position == LOS
    assert payments(events) == [(-1, 0, 200, "salary")]
    assert cash(state) == [1700, 1500]
    assert state.phase == "end"


def test_no_salary_without_reaching_los() -> None:
    state = game([{"position": 27}, {}])
    events = act(state, "roll", 0, dice=[1, 3])  # 31 Rathausplatz, unowned
    assert payments(events) == []
    assert state.phase == "buy"


def test_salary_twice_in_one_round() -> None:
    """000: "Es ist möglich, dass ein Spieler zweimal innerhalb einer Runde sein Gehalt
    bezieht, - zum Beispiel, wenn seine Spielfigur über 'LOS' zieht, direkt auf einem
    Gemeinschafts- oder Ereignisfeld dahinter landet und dort die Karte 'Rücke vor bis
    auf LOS!' zieht."
    """
    state = game([{"position": LUXURY_TAX}, {}])
    deck_with_top(state, "community", 1)
    events = act(state, "roll", 0, dice=[1, 3])
    assert of_type(events, "card")[0]["card"] == 1
    assert state.players[0].position == LOS
    assert payments(events, "salary") == [(-1, 0, 200, "salary"), (-1, 0, 200, "salary")]
    assert cash(state) == [1900, 1500]
    assert of_type(events, "moved")[0]["to"] == COMMUNITY_2


# -- other squares -----------------------------------------------------------------------


@pytest.mark.parametrize(
    ("start", "dice", "square", "amount"),
    [(0, [1, 3], INCOME_TAX, 200), (33, [2, 3], LUXURY_TAX, 100)],
)
def test_tax_squares_are_paid_to_the_bank(
    start: int, dice: list[int], square: int, amount: int
) -> None:
    """000: "Der Betrag muss sofort bar an die Bank gezahlt werden."."""
    state = game([{"position": start}, {}])
    events = act(state, "roll", 0, dice=dice)
    assert state.players[0].position == square
    assert payments(events) == [(0, -1, amount, "tax")]
    assert cash(state) == [1500 - amount, 1500]


def test_free_parking_does_nothing() -> None:
    """000: "'Frei Parken' ist ein Ausruhfeld. Hier passiert gar nichts." (no jackpot)."""
    state = game([{"position": 15}, {}])
    events = act(state, "roll", 0, dice=[2, 3])
    assert state.players[0].position == FREI_PARKEN
    assert payments(events) == []
    assert state.phase == "end"


def test_just_visiting_jail() -> None:
    """000: "Kommt ein Spieler im normalen Verlauf auf das Gefängnisfeld, so ist er dort
    nur zu Besuch und hat keinerlei Nachteile."
    """
    state = game([{"position": 5}, {"position": 20}])
    act(state, "roll", 0, dice=[2, 3])
    assert state.players[0].position == JAIL
    assert not state.players[0].in_jail
    act(state, "end_turn", 0)
    act(state, "roll", 1, dice=[1, 2])
    act(state, "decline", 1)
    act(state, "auction_pass", 0)
    act(state, "auction_pass", 1)
    act(state, "end_turn", 1)
    act(state, "roll", 0, dice=[1, 2])
    assert state.players[0].position == 13


def test_end_turn_only_after_the_throws() -> None:
    state = game(2)
    refuse(state, "end_turn", 0, "wrong_phase")
    refuse(state, "roll", 1, "not_your_turn")
