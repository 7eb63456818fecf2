"""Rule presets: every preset plays to its end, and every rule that differs from classic.

The presets live in ``bot/engine/data/presets/*.json``; ``docs/presets.md`` describes
them. Each test of a rule that differs from the classic preset quotes its rulebook
(``/work/shared/rules/``):

* ``000`` Hasbro Germany 2001 (classic), with "Regeln für ein kürzeres Spiel" (short)
  and "Spielvariante mit Zeitlimit" (time_limit);
* ``001`` / ``003`` the modern rule text (modern), ``003`` with "Schnelleres Spiel" (fast);
* ``002`` the German rules of the 1960s, Spielmark board (mark).

House rules (settings no rulebook prints) are tested on top of classic.
"""

from __future__ import annotations

import json
from dataclasses import fields
from pathlib import Path
from typing import Any

import pytest

from bot.engine import GameState, IllegalAction, Rules, apply_action, new_game
from bot.engine.board import load_board
from bot.engine.legal import bid_range, legal_actions
from bot.engine.rules import BOUNDS, available_presets
from bot.engine.scenario import run
from bot.engine.simple_players import SimplePlayer
from bot.engine.simulate import SimulationResult, play_game, simulate
from bot.engine.wealth import standings, wealth
from bot.rules_summary import changed_settings
from tests.engine.conftest import (
    BADSTRASSE,
    BANK,
    BERLINER_STRASSE,
    CHAUSSEESTRASSE,
    ELISENSTRASSE,
    FREI_PARKEN,
    HOTEL,
    JAIL,
    LOS,
    PARKSTRASSE,
    POSTSTRASSE,
    SCHLOSSALLEE,
    SUEDBAHNHOF,
    TURMSTRASSE,
    WESTBAHNHOF,
    act,
    cash,
    deck_with_top,
    game,
    of_type,
    owned,
    payments,
    refuse,
    refuse_raw,
)

EXAMPLES = Path(__file__).resolve().parents[2] / "docs" / "examples"
POT = -2
PRESETS = ("classic", "fast", "mark", "modern", "short", "time_limit")

# What each preset changes against classic (docs/presets.md lists the same).
DIFFERENCES: dict[str, dict[str, Any]] = {
    "classic": {},
    "mark": {
        "preset": "mark",
        "board": "de_mark",
        "min_players": 3,
        "max_players": 7,
        "building_requires_all_sold": True,
        "hotel_sells_whole": True,
        "end_at_deadline": True,
    },
    "modern": {
        "preset": "modern",
        "max_players": 6,
        "double_rent_with_mortgaged_in_group": False,
        "mortgage_requires_bare_group": True,
        "jail_bail_turns": 1,
    },
    "short": {
        "preset": "short",
        "deal_deeds": 2,
        "hotel_requires_houses": 3,
        "end_after_bankruptcies": 2,
    },
    "time_limit": {
        "preset": "time_limit",
        "deal_deeds": 2,
        "end_at_deadline": True,
    },
    "fast": {
        "preset": "fast",
        "max_players": 6,
        "double_rent_with_mortgaged_in_group": False,
        "mortgage_requires_bare_group": True,
        "deal_deeds": 3,
        "deal_deeds_paid": False,
        "hotel_requires_houses": 3,
        "jail_max_attempts": 1,
        "jail_bail_turns": 1,
        "end_after_bankruptcies": 1,
    },
}


def preset_game(
    preset: str,
    players: int | list[dict[str, Any]] = 2,
    lots: dict[int, dict[str, Any]] | None = None,
    rules: dict[str, Any] | None = None,
    **extra: Any,
) -> GameState:
    """A scenario position played by ``preset`` (plus ``rules`` overrides)."""
    return game(players, lots, rules, preset=preset, **extra)


def every_lot(owner: int, board: str) -> dict[int, dict[str, Any]]:
    """Every ownable square of ``board``, owned by ``owner``."""
    return {i: {"owner": owner} for i in load_board(board).property_indices}


def time_up(state: GameState) -> list[dict[str, Any]]:
    """The system action: the agreed end time has passed."""
    return apply_action(state, {"type": "time_up"})


def differences(rules: Rules) -> dict[str, Any]:
    """The settings of ``rules`` that differ from the classic preset."""
    classic = Rules.from_preset("classic")
    return {
        f.name: getattr(rules, f.name)
        for f in fields(Rules)
        if getattr(rules, f.name) != getattr(classic, f.name)
    }


# -- every preset -------------------------------------------------------------------------


def test_every_shipped_preset_is_tested() -> None:
    assert tuple(available_presets()) == PRESETS


@pytest.mark.parametrize("preset", PRESETS)
def test_preset_loads_with_exactly_its_documented_differences(preset: str) -> None:
    rules = Rules.from_preset(preset)
    assert rules.preset == preset
    assert differences(rules) == DIFFERENCES[preset]
    # The preset is complete: every field has a value and it survives canonical JSON.
    assert Rules.from_dict(json.loads(json.dumps(rules.to_dict()))) == rules


# Players per preset for the simulated games, and how each preset may end.
SIMULATED = {
    "classic": (4, {"last_player"}),
    "modern": (6, {"last_player"}),
    "mark": (3, {"last_player", "time_limit"}),
    "short": (3, {"last_player", "bankruptcies"}),
    "time_limit": (4, {"last_player", "time_limit"}),
    "fast": (4, {"last_player", "bankruptcies"}),
}


@pytest.mark.parametrize("preset", PRESETS)
def test_simple_players_finish_seeded_games(preset: str) -> None:
    """Each preset plays seeded games with the simple players to their end, reproducibly."""
    players, endings = SIMULATED[preset]
    rules = Rules.from_preset(preset)
    result = simulate(4, players, 7, rules=rules)
    assert result.games == 4
    assert "turn_cap" not in result.endings
    assert set(result.endings) <= endings
    again = simulate(4, players, 7, rules=rules)
    assert (again.turns, again.throws, again.endings) == (
        result.turns,
        result.throws,
        result.endings,
    )


@pytest.mark.parametrize("players", [3, 5, 7])
def test_mark_simulates_with_three_to_seven_players(players: int) -> None:
    result = simulate(2, players, 3, rules=Rules.from_preset("mark"))
    assert result.games == 2 and "turn_cap" not in result.endings


@pytest.mark.parametrize("preset", PRESETS)
def test_simulated_game_ends_as_the_preset_says(preset: str) -> None:
    players, _ = SIMULATED[preset]
    rules = Rules.from_preset(preset)
    for seed in range(3):
        seats = [(f"p{i}", f"P{i}") for i in range(players)]
        state = new_game(seats, seed=seed, rules=rules)
        play_game(state, [SimplePlayer() for _ in seats], SimulationResult(), deadline_turn=60)
        assert state.phase == "over"
        bankrupt = sum(p.bankrupt for p in state.players)
        assert not state.players[state.winner].bankrupt
        if state.end_reason == "last_player":
            assert bankrupt == players - 1 and state.standings is None
            continue
        # Ended by counting wealth: the standings are everyone left, richest first.
        assert state.standings == [list(row) for row in standings(state)]
        assert state.standings[0][0] == state.winner
        if state.end_reason == "bankruptcies":
            assert bankrupt == rules.end_after_bankruptcies
        else:
            assert state.end_reason == "time_limit" and rules.end_at_deadline
            assert state.time_up and state.turn == 60


# -- mark: German rules of the 1960s (002) --------------------------------------------------


def test_mark_plays_with_spielmark_amounts() -> None:
    """002: "Jeder Spieler erhält eine bestimmte Figur ... und M. 30 000,-" and
    "Jedesmal, wenn ein Spieler mit seiner Figur das Feld "Los" erreicht oder passiert,
    zahlt ihm der Bankhalter das Gehalt von M. 4000,- aus"."""
    state = new_game([("a", "A"), ("b", "B"), ("c", "C")], seed=1, rules=Rules.from_preset("mark"))
    assert state.board.id == "de_mark"
    assert cash(state) == [30_000] * 3

    state = preset_game("mark", [{"position": 38}, {}, {}])
    events = act(state, "roll", 0, dice=[1, 2])
    assert payments(events, "salary") == [(BANK, 0, 4000, "salary")]
    assert state.players[0].position == BADSTRASSE
    assert state.pending_buy == BADSTRASSE
    act(state, "buy", 0)
    assert state.players[0].cash == 30_000 + 4000 - 1200


def test_mark_jail_fine_is_one_thousand() -> None:
    """002: "Durch Zahlung einer Geldbuße von M. 1000,-, ehe er das nächste Mal oder das
    darauffolgende Mal zum Würfeln kommt.\""""
    state = preset_game("mark", [{"position": JAIL, "in_jail": True}, {}, {}])
    events = act(state, "pay_bail", 0)
    assert payments(events) == [(0, BANK, 1000, "bail")]


def test_mark_builds_only_once_every_lot_is_sold() -> None:
    """002: "Die Spieler dürfen erst dann Häuser aufstellen, wenn sämtliche Grundstücke
    verkauft sind.\""""
    lots = every_lot(2, "de_mark")
    lots[BADSTRASSE] = {"owner": BANK}
    lots.update(owned(0, PARKSTRASSE, SCHLOSSALLEE))
    state = preset_game("mark", [{}, {"position": 36}, {}], lots, current=1)
    refuse(state, "build", 0, "lots_unsold", square=SCHLOSSALLEE)
    # The same position in classic allows the house.
    classic = game(3, lots)
    act(classic, "build", 0, square=SCHLOSSALLEE)
    assert classic.houses[SCHLOSSALLEE] == 1

    act(state, "roll", 1, dice=[2, 3])  # 36 + 5 = Badstraße, the last unsold lot
    act(state, "buy", 1)
    events = act(state, "build", 0, square=SCHLOSSALLEE)
    assert payments(events) == [(0, BANK, 4000, "build")]
    assert state.houses[SCHLOSSALLEE] == 1


def test_mark_building_stops_again_when_a_lot_returns_to_the_bank() -> None:
    """002: "Die Spieler dürfen erst dann Häuser aufstellen, wenn sämtliche Grundstücke
    verkauft sind." Open question 21: once a lot is the bank's again (here after a
    bankruptcy to the bank and an auction nobody bids in), building stops again."""
    lots = every_lot(1, "de_mark")
    lots[BADSTRASSE] = {"owner": 2, "mortgaged": True}
    lots.update(owned(0, PARKSTRASSE, SCHLOSSALLEE))
    state = preset_game("mark", [{}, {}, {"cash": 0, "position": 34}], lots, current=2)
    act(state, "build", 0, square=SCHLOSSALLEE)  # every lot is sold: allowed
    act(state, "roll", 2, dice=[1, 3])  # Zusatzsteuer M. 2000, no cash
    act(state, "declare_bankruptcy", 2)
    assert state.phase == "auction" and state.auction["square"] == BADSTRASSE
    act(state, "auction_pass", 0)
    act(state, "auction_pass", 1)
    assert state.owner[BADSTRASSE] == BANK
    assert (state.phase, state.current) == ("roll", 0)
    refuse(state, "build", 0, "lots_unsold", square=PARKSTRASSE)


def test_mark_hotel_is_sold_back_whole() -> None:
    """002: "Wenn es sich um Hotels handelt, zahlt die Bank den halben Barpreis des Hotels
    und die Hälfte des Preises der vier Häuser, die für das Hotel in Zahlung gegeben
    wurden." The street is left bare, so no houses are needed in the bank (open
    question 10)."""
    lots = owned(0, PARKSTRASSE, SCHLOSSALLEE, hotel=True)
    state = preset_game("mark", 3, lots, bank={"houses": 0, "hotels": 10})
    events = act(state, "sell_building", 0, square=SCHLOSSALLEE)
    # Hotel 4000 / 2 + four houses 4 x 4000 / 2 = 10 000.
    assert payments(events) == [(BANK, 0, 10_000, "sell_building")]
    assert state.houses[SCHLOSSALLEE] == 0
    assert (state.bank_houses, state.bank_hotels) == (0, 11)
    assert state.players[0].cash == 40_000
    act(state, "sell_building", 0, square=PARKSTRASSE)
    assert state.houses[PARKSTRASSE] == 0 and state.players[0].cash == 50_000

    # Classic: a hotel is traded back for 4 houses, which the bank must have.
    classic = game(3, lots, bank={"houses": 0, "hotels": 10})
    refuse(classic, "sell_building", 0, "no_houses_to_replace_hotel", square=SCHLOSSALLEE)


def test_mark_time_up_before_the_throw_ends_the_game_at_once() -> None:
    """002: "Beim ersten Schlag der vereinbarten Stunde endet das Spiel. ... Jeder Spieler
    zählt dann seinen Besitz: 1. Bargeld, 2. Wert der unbelasteten Grundstücke ...,
    3. die Hälfte des Wertes der belasteten Grundstücke, 4. Kosten der Häuser und
    Hotels, wobei ein Hotel den Wert von 5 Häusern hat." The current player has not
    thrown yet, so no one is in the middle of a turn (open question 20)."""
    lots = {
        SUEDBAHNHOF: {"owner": 0},
        SCHLOSSALLEE: {"owner": 1, "hotel": True},
        PARKSTRASSE: {"owner": 2, "mortgaged": True},
    }
    state = preset_game("mark", 3, lots)
    events = time_up(state)
    assert of_type(events, "time_up")
    assert state.phase == "over" and state.time_up
    assert state.end_reason == "time_limit"
    # Seat 1: 30 000 + Schloßallee 8000 + hotel 5 x 4000; seat 0: + Südbahnhof 4000;
    # seat 2: + half of the mortgaged Parkstraße (7000 / 2).
    assert state.standings == [[1, 58_000], [0, 34_000], [2, 33_500]]
    assert state.winner == 1
    refuse_raw(state, {"type": "time_up"}, "game_over")
    refuse(state, "roll", 0, "game_over")


def test_mark_time_up_after_the_throw_ends_with_the_turn() -> None:
    """002: "Wenn ein Spieler sich mitten im Spiel befindet, beendet er seinen Zug und jede
    damit verbundene Handlung.\""""
    state = preset_game("mark", [{"position": 15}, {}, {}], owned(0, SUEDBAHNHOF))
    act(state, "roll", 0, dice=[1, 3])  # Münchener Straße, unowned
    assert state.phase == "buy"
    time_up(state)
    assert state.phase == "buy" and state.time_up
    act(state, "buy", 0)  # finishing the turn: buying, managing ...
    act(state, "mortgage", 0, square=SUEDBAHNHOF)
    assert state.phase == "end"
    act(state, "end_turn", 0)
    assert state.phase == "over" and state.end_reason == "time_limit"
    assert state.current == 0 and state.turn == 1
    # 30 000 - 3600 + 2000 mortgage; Münchener Straße 3600; Südbahnhof at half: 2000.
    assert state.standings[0] == [0, 34_000]


def test_mark_time_up_waits_for_the_throw_owed_after_doubles() -> None:
    """002: "Wenn ein Spieler sich mitten im Spiel befindet, beendet er seinen Zug und jede
    damit verbundene Handlung." After doubles "Er behält die Würfel, wirft nochmals und
    führt seine Figur weiter wie vorher" - that throw belongs to the turn in progress
    (open question 20)."""
    lots = {25: {"owner": 1}, 28: {"owner": 2}}  # Nordbahnhof, Wasser-Werk
    state = preset_game("mark", [{"position": 21}, {}, {}], lots)
    act(state, "roll", 0, dice=[2, 2])  # Nordbahnhof: rent M. 500
    assert (state.phase, state.doubles) == ("roll", 1)
    time_up(state)
    assert state.phase == "roll" and state.winner is None
    act(state, "roll", 0, dice=[1, 2])  # Wasser-Werk: 4 x 3 = M. 12
    assert state.phase == "end"
    act(state, "end_turn", 0)
    assert state.phase == "over" and state.end_reason == "time_limit"
    # Seat 1: 30 500 + Nordbahnhof 4000; seat 2: 30 012 + Wasser-Werk 3000.
    assert state.standings == [[1, 34_500], [2, 33_012], [0, 29_488]]


def test_mark_last_player_left_wins_before_the_hour() -> None:
    """002: "Sollten während der Spielzeit Spieler wegen Zahlungsunfähigkeit ausscheiden,
    gewinnt der Spieler, der als letzter übrigbleibt.\""""
    state = preset_game(
        "mark",
        [{"cash": 0, "position": 34}, {"cash": 0, "position": 34}, {}],
    )
    act(state, "roll", 0, dice=[1, 3])  # Zusatzsteuer M. 2000
    act(state, "declare_bankruptcy", 0)
    assert state.phase == "roll" and state.current == 1
    act(state, "roll", 1, dice=[1, 3])
    act(state, "declare_bankruptcy", 1)
    assert state.phase == "over"
    assert (state.winner, state.end_reason, state.standings) == (2, "last_player", None)


@pytest.mark.parametrize("count", [2, 8])
def test_mark_refuses_fewer_than_three_or_more_than_seven_players(count: int) -> None:
    """002: "SPIELREGELN (für 3 bis 7 Spieler)"."""
    seats = [(f"p{i}", f"P{i}") for i in range(count)]
    with pytest.raises(IllegalAction) as info:
        new_game(seats, seed=1, rules=Rules.from_preset("mark"))
    assert info.value.code == "player_count"
    assert info.value.params == {"minimum": 3, "maximum": 7}


@pytest.mark.parametrize("count", [3, 7])
def test_mark_accepts_three_to_seven_players(count: int) -> None:
    seats = [(f"p{i}", f"P{i}") for i in range(count)]
    state = new_game(seats, seed=1, rules=Rules.from_preset("mark"))
    assert len(state.players) == count


# -- modern: the modern rule text (001, 003) ------------------------------------------------


def test_modern_no_double_rent_with_a_mortgaged_street_in_the_group() -> None:
    """001/003: "Die Grundmiete wird verdoppelt, wenn der Eigentümer alle Straßen dieser
    Farbgruppe besitzt und keine Straße der Gruppe mit einer Hypothek belastet ist.\""""
    lots = {PARKSTRASSE: {"owner": 1, "mortgaged": True}, SCHLOSSALLEE: {"owner": 1}}
    state = preset_game("modern", [{"position": 36}, {}], lots)
    events = act(state, "roll", 0, dice=[1, 2])
    assert payments(events, "rent") == [(0, 1, 50, "rent")]
    # Classic doubles it: "Dies gilt auch, wenn andere Straßen dieser Farbgruppe mit
    # Hypotheken belastet sind."
    classic = game([{"position": 36}, {}], lots)
    assert payments(act(classic, "roll", 0, dice=[1, 2]), "rent") == [(0, 1, 100, "rent")]
    # Without a mortgage the modern rent is doubled as well.
    plain = preset_game("modern", [{"position": 36}, {}], owned(1, PARKSTRASSE, SCHLOSSALLEE))
    assert payments(act(plain, "roll", 0, dice=[1, 2]), "rent") == [(0, 1, 100, "rent")]


def test_modern_mortgage_needs_the_whole_group_bare() -> None:
    """001/003: "Bevor du allerdings eine Straße beleihst, müssen alle Gebäude der
    betroffenen Farbgruppe an die Bank zurückverkauft worden sein.\""""
    lots = {
        CHAUSSEESTRASSE: {"owner": 0, "houses": 1},
        ELISENSTRASSE: {"owner": 0},
        POSTSTRASSE: {"owner": 0},
    }
    state = preset_game("modern", 2, lots)
    refuse(state, "mortgage", 0, "sell_group_buildings_first", square=ELISENSTRASSE)
    refuse(state, "mortgage", 0, "sell_buildings_first", square=CHAUSSEESTRASSE)
    act(state, "sell_building", 0, square=CHAUSSEESTRASSE)
    events = act(state, "mortgage", 0, square=ELISENSTRASSE)
    assert payments(events) == [(BANK, 0, 50, "mortgage")]
    # Classic speaks only of the lot's own buildings (open question 13).
    classic = game(2, lots)
    act(classic, "mortgage", 0, square=ELISENSTRASSE)
    assert classic.mortgaged[ELISENSTRASSE]


def test_modern_bail_only_at_the_start_of_the_next_turn() -> None:
    """001/003: "Zahle zu Beginn deines nächsten Zugs A 50 an die Bank. Danach würfelst
    du und führst deinen Zug wie gewohnt durch.\""""
    first = preset_game("modern", [{"position": JAIL, "in_jail": True}, {}])
    assert payments(act(first, "pay_bail", 0)) == [(0, BANK, 50, "bail")]
    assert not first.players[0].in_jail

    second = preset_game("modern", [{"position": JAIL, "in_jail": True, "jail_turns": 1}, {}])
    refuse(second, "pay_bail", 0, "must_roll_in_jail")
    # Classic: "im nächsten oder übernächsten Zug eine Geldbuße von € 50 zahlt".
    classic = game([{"position": JAIL, "in_jail": True, "jail_turns": 1}, {}])
    act(classic, "pay_bail", 0)
    assert not classic.players[0].in_jail


def test_modern_jail_card_may_be_played_in_any_turn() -> None:
    """001/003: "Du spielst eine Du kommst aus dem Gefängnis frei-Karte aus und steckst
    diese unter den entsprechenden Kartenstapel zurück. ... Würfel und führe deinen Zug
    wie gewohnt aus.\""""
    player = {"position": JAIL, "in_jail": True, "jail_turns": 2, "jail_cards": ["chance"]}
    state = preset_game("modern", [player, {}])
    act(state, "use_jail_card", 0, deck="chance")
    assert not state.players[0].in_jail and state.phase == "roll"
    act(state, "roll", 0, dice=[2, 3])
    assert state.players[0].position == 15


def test_modern_third_failed_roll_pays_and_moves() -> None:
    """001/003: "Bleibe 3 Runden lang im Gefängnis sitzen. Du kannst jedes Mal, wenn du an
    der Reihe bist, versuchen, einen Pasch zu würfeln. ... Wenn du beim dritten Mal immer
    noch keinen Pasch hast, zahlst du an die Bank A 50 und führst deinen Zug mit dem
    letzten Wurfergebnis durch.\""""
    second = preset_game("modern", [{"position": JAIL, "in_jail": True, "jail_turns": 1}, {}])
    act(second, "roll", 0, dice=[1, 2])
    assert second.players[0].in_jail and second.players[0].jail_turns == 2

    third = preset_game("modern", [{"position": JAIL, "in_jail": True, "jail_turns": 2}, {}])
    events = act(third, "roll", 0, dice=[4, 5])
    assert payments(events) == [(0, BANK, 50, "jail_fine")]
    assert not third.players[0].in_jail
    assert third.players[0].position == BERLINER_STRASSE


def test_modern_bankruptcy_to_the_bank_auctions_lots_free_of_mortgage() -> None:
    """001/003: "Deine sämtlichen Grundstücke, die mit einer Hypothek belastet sind, werden
    sofort vom Bankhalter versteigert. Nach der Versteigerung sind sie hypothekenfrei".
    The auction of a declined lot: "Jeder Spieler kann die Versteigerung mit einem
    Mindestgebot von A 1 beginnen.\""""
    lots = {BADSTRASSE: {"owner": 0, "mortgaged": True}}
    state = preset_game("modern", [{"cash": 0}, {}, {}], lots)
    act(state, "roll", 0, dice=[1, 3])  # Einkommensteuer 200
    act(state, "declare_bankruptcy", 0)
    assert state.phase == "auction"
    assert state.owner[BADSTRASSE] == BANK and not state.mortgaged[BADSTRASSE]
    act(state, "bid", 1, amount=1)
    events = act(state, "auction_pass", 2)
    # The buyer pays the bid and no 10 % interest: the lot is free of mortgage.
    assert payments(events) == [(1, BANK, 1, "auction")]
    assert state.owner[BADSTRASSE] == 1 and not state.mortgaged[BADSTRASSE]


def test_modern_auction_bids_start_at_one_and_are_covered_by_cash() -> None:
    """001/003: "Die Spieler müssen für ihr Gebot über entsprechend viel Bargeld verfügen.
    Jeder Spieler kann die Versteigerung mit einem Mindestgebot von A 1 beginnen.\""""
    state = preset_game("modern", [{}, {"cash": 150}])
    act(state, "roll", 0, dice=[2, 3])
    act(state, "decline", 0)
    assert bid_range(state, 1) == (1, 150)
    refuse(state, "bid", 1, "bid_too_low", amount=0)
    refuse(state, "bid", 1, "bid_above_cash", amount=151)
    act(state, "bid", 1, amount=1)
    act(state, "auction_pass", 0)
    assert state.owner[SUEDBAHNHOF] == 1 and state.players[1].cash == 149


def test_modern_allows_at_most_six_players() -> None:
    """001/003: "INHALT: Spielbrett, 6 Spielfiguren" (classic 000 has 10)."""
    rules = Rules.from_preset("modern")
    new_game([(f"p{i}", f"P{i}") for i in range(6)], seed=1, rules=rules)
    with pytest.raises(IllegalAction) as info:
        new_game([(f"p{i}", f"P{i}") for i in range(7)], seed=1, rules=rules)
    assert info.value.code == "player_count"
    new_game([(f"p{i}", f"P{i}") for i in range(10)], seed=1)  # classic


# -- dealt deeds: short, time_limit (000) and fast (003) -----------------------------------


def _dealt(state: GameState) -> list[list[int]]:
    return [
        [i for i, o in enumerate(state.owner) if o == seat] for seat in range(len(state.players))
    ]


@pytest.mark.parametrize("preset", ["short", "time_limit"])
def test_two_deeds_dealt_and_paid(preset: str) -> None:
    """000, kürzeres Spiel: "Dann teilt der Bankhalter reihum je 2 Besitzrechtkarten an jeden
    Spieler aus ... Der aufgedruckte Preis wird sofort von den Spielern an die Bank
    gezahlt." Zeitlimit: "werden die Besitzrechtkarten gemischt und je 2 an jeden Spieler
    ausgeteilt. Der Kaufpreis muss sofort an die Bank gezahlt werden.\""""
    seats = [(f"p{i}", f"P{i}") for i in range(3)]
    state = new_game(seats, seed=11, rules=Rules.from_preset(preset))
    squares = state.board.squares
    dealt = _dealt(state)
    assert [len(lots) for lots in dealt] == [2, 2, 2]
    for seat, lots in enumerate(dealt):
        assert state.players[seat].cash == 1500 - sum(squares[i].price for i in lots)
    # Dealt in turn ("reihum"): seat 0, 1, 2, 0, 1, 2, each deed paid at once.
    deals = of_type(state.events, "deed_dealt")
    assert [e["player"] for e in deals] == [0, 1, 2, 0, 1, 2]
    paid = payments(state.events, "dealt_deed")
    assert paid == [(e["player"], BANK, squares[e["square"]].price, "dealt_deed") for e in deals]
    # The deal is part of the seeded game: the same seed deals the same deeds.
    assert _dealt(new_game(seats, seed=11, rules=Rules.from_preset(preset))) == dealt
    others = {
        str(_dealt(new_game(seats, seed=s, rules=Rules.from_preset(preset)))) for s in range(5)
    }
    assert len(others) > 1


def test_fast_three_deeds_dealt_free() -> None:
    """003, schnelleres Spiel: "Während der VORBEREITUNG mischt der Banker die
    Besitzrechtkarten und verteilt jeweils drei an jeden Spieler. Diese Besitzrechtkarten
    gibt es gratis, die Naschgeldbank erhält dafür kein Geld.\""""
    seats = [(f"p{i}", f"P{i}") for i in range(4)]
    state = new_game(seats, seed=5, rules=Rules.from_preset("fast"))
    assert [len(lots) for lots in _dealt(state)] == [3, 3, 3, 3]
    assert cash(state) == [1500] * 4
    assert payments(state.events) == []


def test_dealt_deeds_never_leave_negative_cash() -> None:
    """000: "Der aufgedruckte Preis wird sofort von den Spielern an die Bank gezahlt" - a
    start money too small for two deeds must be refused or dealt so no one goes below 0."""
    rules = Rules.from_preset("short", start_money=100)
    try:
        state = new_game([("a", "A"), ("b", "B")], seed=1, rules=rules)
    except (IllegalAction, ValueError):
        return
    assert min(cash(state)) >= 0, cash(state)


# -- short and fast: hotel after 3 houses ---------------------------------------------------


@pytest.mark.parametrize("preset", ["short", "fast"])
def test_hotel_after_three_houses(preset: str) -> None:
    """000, kürzeres Spiel: "Ein Hotel entspricht in dieser Version nur 4 Häusern, d.h. wenn
    3 Häuser gebaut sind, können diese zurückgegeben werden und für den zusätzlichen Preis
    eines Hauses ein Hotel gekauft werden. Die Miete bleibt so erhalten wie aufgedruckt."
    003: "Du brauchst nur drei Krümelkojen (anstatt vier) auf jedem Feld einer
    Farbgruppe, bevor du eine Kekskajüte kaufen kannst.\""""
    lots = owned(0, BADSTRASSE, TURMSTRASSE, houses=3)
    state = preset_game(preset, [{}, {"position": 38}], lots, current=1)
    assert (state.bank_houses, state.bank_hotels) == (26, 12)
    events = act(state, "build", 0, square=TURMSTRASSE)
    assert payments(events) == [(0, BANK, 50, "build")]
    assert of_type(events, "built")[0]["building"] == "hotel"
    assert state.houses[TURMSTRASSE] == HOTEL
    assert (state.bank_houses, state.bank_hotels) == (29, 11)
    events = act(state, "roll", 1, dice=[1, 4])  # 38 + 5 = Turmstraße
    assert payments(events, "rent") == [(1, 0, 450, "rent")]  # the printed hotel rent


@pytest.mark.parametrize("preset", ["short", "fast"])
def test_no_fourth_house(preset: str) -> None:
    """000, kürzeres Spiel: "wenn 3 Häuser gebaut sind, können diese zurückgegeben werden
    und für den zusätzlichen Preis eines Hauses ein Hotel gekauft werden" - the next
    building after three houses is the hotel (open question 7)."""
    lots = owned(0, BADSTRASSE, TURMSTRASSE, houses=3)
    state = preset_game(preset, 2, lots, bank={"houses": 10, "hotels": 0})
    refuse(state, "build", 0, "no_hotels_left", square=BADSTRASSE)
    assert {"type": "build", "player": 0, "square": BADSTRASSE} not in legal_actions(state, 0)
    # Classic still builds the 4th house.
    classic = game(2, lots, bank={"houses": 10, "hotels": 0})
    act(classic, "build", 0, square=BADSTRASSE)
    assert classic.houses[BADSTRASSE] == 4


@pytest.mark.parametrize("preset", ["short", "fast"])
def test_hotel_sells_back_for_half_a_house_price(preset: str) -> None:
    """000, kürzeres Spiel: "Wird ein Hotel verkauft, so nur zum halben Preis - der hier ein
    Haus weniger beträgt." 003: "Der Rücknahmepreis der Naschgeldbank beträgt wie gehabt
    die Hälfte des Kaufpreises, der in diesem Spiel um den Betrag für eine Krümelkoje
    niedriger ausfällt". The hotel becomes 3 houses again, which the bank must have
    (open question 6)."""
    lots = owned(0, BADSTRASSE, TURMSTRASSE, hotel=True)
    state = preset_game(preset, 2, lots, bank={"houses": 3, "hotels": 10})
    events = act(state, "sell_building", 0, square=TURMSTRASSE)
    assert payments(events) == [(BANK, 0, 25, "sell_building")]
    assert state.houses[TURMSTRASSE] == 3
    assert (state.bank_houses, state.bank_hotels) == (0, 11)
    error = refuse(state, "sell_building", 0, "no_houses_to_replace_hotel", square=BADSTRASSE)
    assert error.params == {"needed": 3}


# -- short: ends at the second bankruptcy (000) --------------------------------------------


def _bankruptcy_position(
    preset: str, *, anna_mortgaged: bool = True, ben_mortgaged: bool = False
) -> GameState:
    """Four players: Anna (100 in cash, Badstraße) and Ben (50, Chausseestraße) will land on
    Dora's hotel on Schlossallee (rent 2000); Cem has Westbahnhof and a mortgaged Opernplatz."""
    lots = {
        BADSTRASSE: {"owner": 0, "mortgaged": anna_mortgaged},
        CHAUSSEESTRASSE: {"owner": 1, "mortgaged": ben_mortgaged},
        WESTBAHNHOF: {"owner": 2},
        24: {"owner": 2, "mortgaged": True},  # Opernplatz
        PARKSTRASSE: {"owner": 3},
        SCHLOSSALLEE: {"owner": 3, "hotel": True},
    }
    players = [
        {"cash": 100, "position": 33},
        {"cash": 50, "position": 34},
        {},
        {"cash": 1000},
    ]
    return preset_game(preset, players, lots)


def test_short_game_ends_at_the_second_bankruptcy_by_wealth() -> None:
    """000, kürzeres Spiel: "Der erste Spieler, der Bankrott geht, scheidet wie üblich aus.
    Sobald der zweite Spieler bankrott ist, wird das Spiel beendet. Der zweite bankrotte
    Spieler übergibt sein gesamtes Vermögen und seinen Besitz an denjenigen, bei dem er
    Schulden hat ... Alle noch im Spiel verbliebenen Spieler zählen ihr Vermögen: 1 ihr
    Bargeld, 2 ihre Grundstücke mit dem Wert, der auf dem Spielplan angegeben ist; 3 alle
    beliebigen Grundstücke zum halben Preis; 4 Häuser zu ihrem Kaufpreis; 5 Hotels zu
    ihrem Kaufpreis (mit dem Wert der beim Hotelkauf zurückgegebenen 3 Häuser)."
    Item 3 is read as the mortgaged ("beliehenen") lots (open question 8)."""
    state = _bankruptcy_position("short")
    act(state, "roll", 0, dice=[2, 4])  # Schlossallee, hotel: 2000
    act(state, "declare_bankruptcy", 0)
    # The first one leaves as usual; Dora keeps the mortgage on Badstraße and pays 10 %.
    assert state.phase == "mortgage_choice"
    events = act(state, "decide_mortgages", 3, lift=[])
    assert payments(events) == [(3, BANK, 3, "transfer_interest")]
    assert state.phase == "roll" and state.current == 1
    act(state, "roll", 1, dice=[2, 3])  # Schlossallee again
    events = act(state, "declare_bankruptcy", 1)
    assert state.phase == "over" and state.end_reason == "bankruptcies"
    # Ben's cash and lot reached Dora before the count.
    assert payments(events) == [(1, 3, 50, "bankruptcy")]
    assert state.owner[CHAUSSEESTRASSE] == 3
    # Dora: 1000 + 100 - 3 + 50 = 1147 cash; Parkstraße 350; Schlossallee 400 and the hotel
    # (3 houses + hotel) 4 x 200; Badstraße mortgaged 60 / 2; Chausseestraße 100.
    # Cem: 1500 + Westbahnhof 200 + Opernplatz mortgaged 240 / 2.
    assert state.standings == [[3, 2827], [2, 1820]]
    assert state.winner == 3
    assert wealth(state, 3) == 2827


@pytest.mark.parametrize("preset", ["short", "fast"])
def test_ending_bankruptcy_charges_the_duty_on_mortgaged_lots(preset: str) -> None:
    """000: "Wenn ein zahlungsunfähiger Spieler ein hypothekarisch belastetes Besitztum
    übergibt, muss der neue Besitzer sofort 10 % Zinsen an die Bank zahlen" (001/003:
    "Der Mitspieler muss sofort für jedes belastete Grundstück, das er von dir erhält,
    10 % Zinsen an die Bank bezahlen"); kürzeres Spiel: "Der zweite bankrotte Spieler
    übergibt sein gesamtes Vermögen ... Alle noch im Spiel verbliebenen Spieler zählen ihr
    Vermögen". Whether Dora lifts or keeps the mortgage, her wealth drops by the 10 %."""
    state = _bankruptcy_position(preset, ben_mortgaged=True)
    act(state, "roll", 0, dice=[2, 4])
    act(state, "declare_bankruptcy", 0)
    if preset == "short":
        act(state, "decide_mortgages", 3, lift=[])
        act(state, "roll", 1, dice=[2, 3])
        act(state, "declare_bankruptcy", 1)
        # 1000 + 100 - 3 + 50 - 5 + 350 + 400 + 800 + 30 + 50
        assert state.standings == [[3, 2772], [2, 1820]]
    else:
        # 1000 + 100 - 3 + 350 + 400 + 800 + 30; Ben: 50 + Chausseestraße at half.
        assert state.standings == [[3, 2677], [2, 1820], [1, 100]]
    assert state.phase == "over"
    assert state.mortgage_choices == []


def test_short_game_with_three_players_ends_with_the_last_one() -> None:
    """The second bankruptcy of three players leaves one: he has won anyway."""
    lots = owned(2, PARKSTRASSE, SCHLOSSALLEE)
    state = preset_game(
        "short", [{"cash": 0, "position": 34}, {"cash": 0, "position": 34}, {}], lots
    )
    act(state, "roll", 0, dice=[1, 2])
    act(state, "declare_bankruptcy", 0)
    act(state, "roll", 1, dice=[1, 2])
    act(state, "declare_bankruptcy", 1)
    assert (state.phase, state.winner, state.end_reason) == ("over", 2, "last_player")


# -- fast: jail and the first bankruptcy (003) ---------------------------------------------


def test_fast_failed_jail_roll_pays_and_moves_in_the_same_turn() -> None:
    """003: "Wenn du im Gefängnis landest, musst du es im nächsten Zug wieder verlassen ...
    Anders als im Standardspiel kannst du erst versuchen, einen Pasch zu würfeln und musst
    dann aber, wenn das nicht gelingt, im selben Zug A 50 bezahlen und um die gewürfelte
    Augenzahl weiterziehen.\""""
    state = preset_game(
        "fast", [{"position": JAIL, "in_jail": True}, {}], owned(1, BERLINER_STRASSE)
    )
    events = act(state, "roll", 0, dice=[4, 5])
    assert payments(events) == [(0, BANK, 50, "jail_fine"), (0, 1, 16, "rent")]
    assert not state.players[0].in_jail
    assert state.players[0].position == BERLINER_STRASSE
    assert state.phase == "end"
    # Classic: the first failed roll keeps the player in jail.
    classic = game([{"position": JAIL, "in_jail": True}, {}], owned(1, BERLINER_STRASSE))
    act(classic, "roll", 0, dice=[4, 5])
    assert classic.players[0].in_jail and classic.players[0].cash == 1500


def test_fast_jail_may_be_left_by_paying_doubles_or_card() -> None:
    """003: "... indem du (1.) eine Du kommst aus dem Gefängnis frei-Karte spielst, (2.) einen
    Pasch würfelst oder (3.) A 50 bezahlst.\""""
    paying = preset_game("fast", [{"position": JAIL, "in_jail": True}, {}])
    assert payments(act(paying, "pay_bail", 0)) == [(0, BANK, 50, "bail")]
    act(paying, "roll", 0, dice=[2, 3])
    assert paying.players[0].position == 15

    doubles = preset_game("fast", [{"position": JAIL, "in_jail": True}, {}])
    events = act(doubles, "roll", 0, dice=[3, 3])
    assert payments(events) == [] and doubles.players[0].position == 16
    assert doubles.phase == "buy" and not doubles.may_roll

    card = preset_game(
        "fast", [{"position": JAIL, "in_jail": True, "jail_cards": ["community"]}, {}]
    )
    act(card, "use_jail_card", 0, deck="community")
    assert not card.players[0].in_jail and card.phase == "roll"


def test_fast_game_ends_at_the_first_bankruptcy_by_wealth() -> None:
    """003: "SPIELENDE: Das Spiel endet, wenn ein Spieler bankrott geht. Die übrigen Spieler
    berechnen ihr Vermögen, indem sie wie folgt addieren: (1) Bargeld; (2) Eigentum zum
    Kaufpreis; (3) Eigentum mit Hypothek zum halben Kaufpreis; (4) Krümelkojen zum
    jeweiligen Kaufpreis; (5) Kekskajüten zum Kaufpreis (also drei Krümelkojen plus dem
    Preis für die Kekskajüte)." The bankrupt's assets reach the creditor before the count
    (open question 18)."""
    state = _bankruptcy_position("fast", anna_mortgaged=False)
    act(state, "roll", 0, dice=[2, 4])
    events = act(state, "declare_bankruptcy", 0)
    assert state.phase == "over" and state.end_reason == "bankruptcies"
    assert payments(events) == [(0, 3, 100, "bankruptcy")]
    assert state.owner[BADSTRASSE] == 3
    # Dora: 1100 cash + 350 + 400 + hotel 4 x 200 + Badstraße 60 = 2710;
    # Ben: 50 + Chausseestraße 100.
    assert state.standings == [[3, 2710], [2, 1820], [1, 150]]
    assert state.winner == 3


# -- time_limit (000) ------------------------------------------------------------------------


def test_time_limit_ends_at_the_deadline_and_the_richest_wins() -> None:
    """000, Zeitlimit: "Bevor Sie anfangen legen Sie gemeinsam fest, nach welcher Zeit das
    Spiel beendet ist und dass dann der reichste Spieler gewinnt.\""""
    lots = {SCHLOSSALLEE: {"owner": 1, "houses": 2}, PARKSTRASSE: {"owner": 1, "houses": 2}}
    state = preset_game("time_limit", [{"cash": 2000}, {"cash": 500}], lots)
    time_up(state)
    assert state.phase == "over" and state.end_reason == "time_limit"
    # Ben: 500 + 400 + 350 + 4 houses x 200 = 2050; Anna: 2000.
    assert state.standings == [[1, 2050], [0, 2000]]


def test_time_up_is_given_once() -> None:
    """The agreed time passes once; a second report while the turn is finished is refused."""
    state = preset_game("time_limit", [{"position": JAIL}, {}])
    act(state, "roll", 0, dice=[4, 6])  # Frei Parken
    time_up(state)
    refuse_raw(state, {"type": "time_up"}, "already_done")
    act(state, "end_turn", 0)
    assert state.phase == "over"
    refuse_raw(state, {"type": "time_up"}, "game_over")


@pytest.mark.parametrize("preset", ["classic", "modern", "short", "fast"])
def test_time_up_is_refused_without_a_time_limit(preset: str) -> None:
    """000 ends "wenn nur noch ein Spieler übrig ist" - there is no agreed end time."""
    state = preset_game(preset, 2)
    error = refuse_raw(state, {"type": "time_up"}, "no_time_limit")
    assert error.params == {}


# -- house rules on top of classic --------------------------------------------------------


def test_go_landing_bonus_pays_double_for_landing_exactly_on_los() -> None:
    """House rule (no rulebook prints it); 000 pays the salary once: "Jedesmal wenn ein
    Spieler in Pfeilrichtung mit seiner Figur das Feld "LOS" erreicht oder passiert,
    zahlt ihm der Bankhalter ein Gehalt von € 200.\""""
    bonus = {"go_landing_bonus": True}
    landing = game([{"position": 35}, {}], rules=bonus)
    events = act(landing, "roll", 0, dice=[2, 3])
    assert landing.players[0].position == LOS
    assert payments(events) == [(BANK, 0, 200, "salary"), (BANK, 0, 200, "go_landing_bonus")]

    passing = game([{"position": 37}, {}], rules=bonus)
    events = act(passing, "roll", 0, dice=[1, 3])
    assert payments(events) == [(BANK, 0, 200, "salary")]

    classic = game([{"position": 35}, {}])
    assert payments(act(classic, "roll", 0, dice=[2, 3])) == [(BANK, 0, 200, "salary")]

    # Sent to LOS by a card is not a landing by the throw: the salary is paid once.
    card = game([{"position": 3}, {}], rules=bonus)
    deck_with_top(card, "chance", 1)  # "Rücke vor bis auf LOS"
    events = act(card, "roll", 0, dice=[1, 3])
    assert card.players[0].position == LOS
    assert payments(events) == [(BANK, 0, 200, "salary")]


def test_free_parking_taxes_collects_taxes_and_fines_in_the_pot() -> None:
    """House rule 'taxes'. 001/003 name it to forbid it: "Alle Steuern und Strafen sind
    direkt an die Bank zu zahlen und dürfen nicht für das Landen auf dem FREI PARKEN-Feld
    gesammelt werden" - so the default is 'off'."""
    players = [{}, {"position": JAIL, "in_jail": True}]
    state = game(players, rules={"free_parking": "taxes"})
    events = act(state, "roll", 0, dice=[1, 3])  # Einkommensteuer 200
    assert payments(events) == [(0, POT, 200, "tax")]
    assert state.pot == 200
    act(state, "end_turn", 0)
    assert payments(act(state, "pay_bail", 1)) == [(1, POT, 50, "bail")]
    assert state.pot == 250
    events = act(state, "roll", 1, dice=[4, 6])  # Frei Parken
    assert state.players[1].position == FREI_PARKEN
    assert payments(events) == [(POT, 1, 250, "free_parking")]
    assert state.pot == 0 and cash(state) == [1300, 1700]
    # An empty pot pays nothing.
    empty = game([{"position": 10}, {}], rules={"free_parking": "taxes"})
    assert payments(act(empty, "roll", 0, dice=[4, 6])) == []

    classic = game([{"position": 10}, {}])
    assert payments(act(classic, "roll", 0, dice=[4, 6])) == []
    classic = game(2)
    assert payments(act(classic, "roll", 0, dice=[1, 3])) == [(0, BANK, 200, "tax")]
    assert classic.pot == 0


def test_free_parking_fixed_pays_the_set_amount() -> None:
    """House rule 'fixed': the bank pays ``free_parking_amount`` on Frei Parken; taxes go
    to the bank as in 000: "Der Betrag muss sofort bar an die Bank gezahlt werden.\""""
    rules = {"free_parking": "fixed", "free_parking_amount": 500}
    state = game([{"position": 10}, {"position": 36}], rules=rules)
    assert payments(act(state, "roll", 0, dice=[4, 6])) == [(BANK, 0, 500, "free_parking")]
    act(state, "end_turn", 0)
    assert payments(act(state, "roll", 1, dice=[1, 1])) == [(1, BANK, 100, "tax")]
    assert state.pot == 0


def test_auction_min_raise() -> None:
    """House rule: each bid must beat the last by ``auction_min_raise``; 000 leaves the
    amounts open: "Die Versteigerung beginnt mit dem (beliebigen) Betrag, den irgendein
    Spieler zu zahlen bereit ist.\""""
    state = game(2, rules={"auction_min_raise": 10})
    act(state, "roll", 0, dice=[2, 3])
    act(state, "decline", 0)
    act(state, "bid", 1, amount=5)
    assert bid_range(state, 0) == (15, 1500)
    error = refuse(state, "bid", 0, "bid_too_low", amount=14)
    assert error.params == {"minimum": 15}
    act(state, "bid", 0, amount=15)
    assert state.auction["high"] == 15

    classic = game(2)
    act(classic, "roll", 0, dice=[2, 3])
    act(classic, "decline", 0)
    act(classic, "bid", 1, amount=5)
    assert bid_range(classic, 0) == (6, 1500)


def test_no_rent_while_the_owner_is_in_jail() -> None:
    """House rule ``rent_while_in_jail = False``; the default follows 000: "Ein Spieler, der
    im Gefängnis sitzt, kann Miete kassieren\""""
    players = [{"position": 36}, {"position": JAIL, "in_jail": True}]
    state = game(players, owned(1, SCHLOSSALLEE), rules={"rent_while_in_jail": False})
    events = act(state, "roll", 0, dice=[1, 2])
    assert payments(events) == []
    assert of_type(events, "no_rent")[0]["why"] == "owner_in_jail"

    classic = game(players, owned(1, SCHLOSSALLEE))
    assert payments(act(classic, "roll", 0, dice=[1, 2])) == [(0, 1, 50, "rent")]


def test_money_settings_override_the_board() -> None:
    """``start_money``, ``salary`` and ``jail_fine`` replace the board's printed values
    (000: "€ 1.500", "Gehalt von € 200", "Geldbuße von € 50")."""
    rules = Rules.from_preset("classic", start_money=2000, salary=400, jail_fine=100)
    state = new_game([("a", "A"), ("b", "B")], seed=3, rules=rules)
    assert cash(state) == [2000, 2000]

    overrides = {"salary": 400, "jail_fine": 100}
    passing = game([{"position": 37}, {}], rules=overrides)
    assert payments(act(passing, "roll", 0, dice=[1, 3])) == [(BANK, 0, 400, "salary")]
    bail = game([{"position": JAIL, "in_jail": True}, {}], rules=overrides)
    assert payments(act(bail, "pay_bail", 0)) == [(0, BANK, 100, "bail")]
    third = game([{"position": JAIL, "in_jail": True, "jail_turns": 2}, {}], rules=overrides)
    assert payments(act(third, "roll", 0, dice=[1, 2])) == [(0, BANK, 100, "jail_fine")]
    # The same overrides work on any preset (here the Spielmark board).
    mark = Rules.from_preset("mark", salary=5000)
    assert mark.salary == 5000 and mark.start_money is None


def test_building_stock_limits() -> None:
    """``houses_total`` / ``hotels_total`` replace 000's "32 Häuser, 12 Hotels"; an empty
    bank: "müssen die bauwilligen Spieler warten\""""
    state = game(2, owned(0, BADSTRASSE, TURMSTRASSE), rules={"houses_total": 2})
    assert state.bank_houses == 2
    act(state, "build", 0, square=BADSTRASSE)
    act(state, "build", 0, square=TURMSTRASSE)
    refuse(state, "build", 0, "no_houses_left", square=BADSTRASSE)

    no_hotels = game(2, owned(0, BADSTRASSE, TURMSTRASSE, houses=4), rules={"hotels_total": 0})
    assert no_hotels.bank_hotels == 0
    refuse(no_hotels, "build", 0, "no_hotels_left", square=BADSTRASSE)


@pytest.mark.parametrize(("name", "low", "high"), BOUNDS)
def test_bounds_are_enforced(name: str, low: int, high: int) -> None:
    assert getattr(Rules.from_preset("classic", **{name: low}), name) == low
    assert getattr(Rules.from_preset("classic", **{name: high}), name) == high
    for value in (low - 1, high + 1):
        with pytest.raises(ValueError, match=name):
            Rules.from_preset("classic", **{name: value})


@pytest.mark.parametrize(
    "overrides",
    [
        {"jackpot": True},
        {"free_parking": "jackpot"},
        {"interest_rounding": "sideways"},
        {"hotel_requires_houses": 0},
        {"hotel_requires_houses": 5},
        {"min_players": 1},
        {"max_players": 11},
        {"min_players": 5, "max_players": 4},
    ],
)
def test_bad_settings_are_refused(overrides: dict[str, Any]) -> None:
    with pytest.raises(ValueError):
        Rules.from_preset("classic", **overrides)


def test_unknown_preset_is_refused() -> None:
    with pytest.raises(KeyError):
        Rules.from_preset("monopoly_junior")


def test_unknown_setting_in_a_scenario_is_refused() -> None:
    with pytest.raises(ValueError, match="unknown rule settings: jackpot"):
        game(2, rules={"jackpot": 1})


# -- presets and changed settings in the game JSON ------------------------------------------


@pytest.mark.parametrize("preset", PRESETS)
def test_game_json_describes_preset_and_changed_settings(preset: str) -> None:
    """The canonical state carries the whole ``rules`` object, so a saved game needs no
    preset file to be continued, and the changes are what differs from its preset."""
    overrides = {"salary": 300, "free_parking": "taxes", "auction_min_raise": 5}
    rules = Rules.from_preset(preset, **overrides)
    count = rules.min_players
    state = new_game([(f"p{i}", f"P{i}") for i in range(count)], seed=9, rules=rules)
    raw = json.loads(state.to_json())
    assert raw["rules"] == rules.to_dict()
    assert set(raw["rules"]) == {f.name for f in fields(Rules)}
    assert raw["rules"]["preset"] == preset
    assert raw["board"] == rules.board
    assert changed_settings(rules) == overrides
    again = GameState.from_json(state.to_json())
    assert again.rules == rules and again.to_json() == state.to_json()
    # An unchanged preset has no changed settings.
    assert changed_settings(Rules.from_preset(preset)) == {}


# -- scenario examples in docs/examples ------------------------------------------------------


def matches(actual: Any, expected: Any, where: str) -> None:
    """Compare like the example files mean it: digit keys of a dict index a list."""
    if isinstance(expected, dict) and isinstance(actual, list):
        for key, value in expected.items():
            assert key.isdigit(), f"{where}: {key!r} is not an index"
            matches(actual[int(key)], value, f"{where}[{key}]")
        return
    assert actual == expected, f"{where}: {actual!r} != {expected!r}"


def check_expected(state: GameState, expected: dict[str, Any]) -> None:
    """Check a state against an ``.expected.json`` (listed player fields only)."""
    actual = state.to_dict()
    for key, value in expected.items():
        if key == "players":
            assert len(value) == len(actual["players"])
            for seat, want in enumerate(value):
                for name, field_value in want.items():
                    matches(actual["players"][seat][name], field_value, f"players[{seat}].{name}")
        else:
            assert key in actual, key
            matches(actual[key], value, key)


PRESET_EXAMPLES = sorted(EXAMPLES.glob("presets-*.scenario.json"))


def test_preset_examples_exist() -> None:
    names = {p.name.removesuffix(".scenario.json") for p in PRESET_EXAMPLES}
    assert names == {
        "presets-mark-hotel-sale",
        "presets-short-hotel",
        "presets-fast-jail",
        "presets-modern-auction",
        "presets-modern-mortgage-no-double-rent",
        "presets-short-end-wealth",
    }


@pytest.mark.parametrize("path", PRESET_EXAMPLES, ids=lambda p: p.name)
def test_preset_example_replays_to_its_expected_state(path: Path) -> None:
    raw = json.loads(path.read_text(encoding="utf-8"))
    assert raw.get("preset") in PRESETS and raw.get("description")
    expected_path = path.with_name(path.name.replace(".scenario.json", ".expected.json"))
    expected = json.loads(expected_path.read_text(encoding="utf-8"))
    check_expected(run(raw), expected)
