"""Ending a round: lay-out, bonus, the others, scoring, the next dealer, the end of the game."""

from __future__ import annotations

from typing import Any

from tests.cardgame.conftest import WORKED_EXAMPLE, YELLOW, act, arrange, events_of, game, refused

EXAMPLE = {
    "groups": [
        {
            "group": "yellow",
            "cards": YELLOW,
            "houses": ["house1-1", "house2-1", "house3-1"],
            "tokens": ["token-1", "token-2"],
        }
    ],
    "bonus": ["mrm-1", "mrm-2"],
}
# Five stock cards that add nothing to the worked example (lone streets of five groups).
DULL = ["chausseestrasse", "seestrasse", "muenchner_strasse", "theaterstrasse", "suedbahnhof"]
# Hands for the other three seats in which nobody has two Mr. Monopoly cards or a wild card.
OTHERS = {
    0: [
        "turmstrasse",
        "elisenstrasse",
        "hafenstrasse",
        "wiener_strasse",
        "museumstrasse",
        "rathausplatz",
        "parkstrasse",
        "westbahnhof",
        "mrm-3",
        "house1-2",
    ],
    2: [
        "poststrasse",
        "neue_strasse",
        "berliner_strasse",
        "opernplatz",
        "hauptstrasse",
        "schlossallee",
        "nordbahnhof",
        "elektrizitaetswerk",
        "mrm-4",
        "house1-3",
    ],
    3: [
        "bahnhofstrasse",
        "hauptbahnhof",
        "wasserwerk",
        "badstrasse",
        "house1-4",
        "house1-5",
        "house2-2",
        "house2-3",
        "house2-4",
        "house3-2",
    ],
}


def worked_example_game(**settings: Any):
    hands = {1: list(WORKED_EXAMPLE), **OTHERS}
    return arrange(game(4, **settings), hands=hands, stock_top=DULL)


def test_worked_example_scores_4600() -> None:
    """ "Ein Spieler hat die 3 gelben Straßen ausgelegt, dazu ein 1., 2. und 3. Haus sowie
    2 Spielfiguren- und 2 Mr. Monopoly-Karten. ... Weil kein anderer 2 Mr.
    Monopoly-Karten hat, kommen noch 1000 Euro dazu: Insgesamt also 4600 Euro." """
    state = worked_example_game()
    events = act(state, "lay_out", 1, layout=EXAMPLE)
    # "Prämie: Der Spieler, der die Runde beendet, nimmt als Prämie die obersten 5 Karten
    # vom Abnahmestapel"
    assert events_of(events, "bonus_revealed")[0]["cards"] == DULL
    assert state.phase == "bonus" and state.bonus_cards == DULL
    events = act(state, "arrange", 1, layout=EXAMPLE)
    scored = events_of(events, "round_scored")[0]
    row = scored["players"][1]
    assert row["value"] == 3600
    assert row["mr_monopoly_bonus"] == 1000
    assert row["points"] == 4600
    assert scored["points"][1] == 4600
    assert state.players[1].score == 4600
    assert scored["reason"] == "ended" and scored["ender"] == 1
    # Nobody else laid out a complete group: the others count their LOS cards only
    # (there are none) and their Mr. Monopoly cards for the majority.
    assert [scored["points"][s] for s in (0, 2, 3)] == [0, 0, 0]
    assert state.round_scores == [scored["points"]]
    assert state.last_round["points"] == scored["points"]


def test_next_round_is_dealt_by_the_player_left_of_the_dealer() -> None:
    """ "Wenn alles ausbezahlt ist, übernimmt der Spieler links vom Geber die Karten und
    teilt für die nächste Runde aus" """
    state = worked_example_game()
    act(state, "lay_out", 1, layout=EXAMPLE)
    events = act(state, "arrange", 1, layout=EXAMPLE)
    started = events_of(events, "round_started")[0]
    assert (started["round"], started["dealer"], started["first"]) == (2, 1, 2)
    assert (state.round, state.dealer, state.current, state.phase) == (2, 1, 2, "turn")
    assert sorted(state.all_cards()) == sorted(state.deck.ids)
    assert [len(p.hand) for p in state.players] == [10] * 4


def test_bonus_cards_improve_the_hand() -> None:
    """ "Er kann eine bis alle in seine Hand einfügen, die dann bis zu 15 Karten umfasst.
    Der Spieler darf alle Karten neu arrangieren, wenn er dadurch mehr Punkte erzielt." """
    state = arrange(
        game(4),
        hands={1: list(WORKED_EXAMPLE)},
        stock_top=["house4-1", "hotel-1", "go-1", "badstrasse", "token-3"],
    )
    act(state, "lay_out", 1, layout=EXAMPLE)
    bigger = {
        "groups": [
            {
                "group": "yellow",
                "cards": YELLOW,
                "houses": ["house1-1", "house2-1", "house3-1", "house4-1"],
                "hotel": "hotel-1",
                "tokens": ["token-1", "token-2", "token-3"],
            }
        ],
        "bonus": ["go-1", "mrm-1", "mrm-2"],
    }
    events = act(state, "arrange", 1, layout=bigger)
    arranged = events_of(events, "arranged")[0]
    assert arranged["added"] == ["house4-1", "hotel-1", "go-1", "token-3"]
    row = events_of(events, "round_scored")[0]["players"][1]
    # yellow 300 x 5 + hotel 500 = 2 000; three tokens 6 000; LOS 200.
    assert row["value"] == 8200
    assert len([c for c in state.last_round["players"][1]["layout"]["bonus"]]) == 3


def test_arrange_keeps_the_laid_cards() -> None:
    state = worked_example_game()
    act(state, "lay_out", 1, layout=EXAMPLE)
    smaller = {"groups": [{"group": "yellow", "cards": YELLOW}], "bonus": []}
    err = refused(state, "arrange", 1, layout=smaller)
    assert err.code == "missing_laid_card"
    assert refused(state, "arrange", 2, layout=EXAMPLE).code == "not_the_ender"
    assert refused(state, "draw", 2).code == "wrong_phase"
    with_brown = {
        "groups": [{"group": "brown", "cards": ["badstrasse", "turmstrasse"]}, *EXAMPLE["groups"]],
        "bonus": EXAMPLE["bonus"],
    }
    err = refused(state, "arrange", 1, layout=with_brown)
    assert (err.code, err.params["card"]) == ("card_not_available", "badstrasse")


def test_fewer_than_five_stock_cards() -> None:
    """ "(oder, wenn weniger als 5 Karten übrig sind, die restlichen)" """
    state = arrange(
        game(4), hands={1: list(WORKED_EXAMPLE)}, stock_top=["go-1", "go-2"], stock_size=2
    )
    act(state, "lay_out", 1, layout=EXAMPLE)
    assert state.bonus_cards == ["go-1", "go-2"] and state.stock == []
    state = arrange(game(4), hands={1: list(WORKED_EXAMPLE)}, stock_size=0)
    events = act(state, "lay_out", 1, layout=EXAMPLE)
    # Nothing to add: the round is scored at once.
    assert events_of(events, "round_scored")[0]["points"][1] == 3600 + 1000


def test_surplus_cards_go_aside() -> None:
    """ "Überzählige Karten, die er vorher durch Tauschen erhalten hat, werden beiseite
    gelegt." """
    state = arrange(game(4), hands={1: [*WORKED_EXAMPLE, "badstrasse", "go-1"]}, stock_top=DULL)
    events = act(state, "lay_out", 1, layout=EXAMPLE)
    assert events_of(events, "laid_out")[0]["aside"] == 2
    assert state.aside == ["badstrasse", "go-1"]
    assert state.players[1].hand == []


def test_wild_card_holders_score_zero() -> None:
    """ "Wer noch eine Ereigniskarte hat, braucht nicht mehr zu rechnen – der Wert seiner
    Hand ist 0." """
    rich = [
        "parkstrasse",
        "schlossallee",
        "house1-2",
        "house2-2",
        "go-1",
        "go-2",
        "go-3",
        "go-4",
        "wild-1",
        "mrm-3",
    ]
    plain = [
        "badstrasse",
        "turmstrasse",
        "house1-3",
        "mrm-4",
        "token-3",
        "elisenstrasse",
        "hafenstrasse",
        "wiener_strasse",
        "museumstrasse",
        "rathausplatz",
    ]
    state = arrange(game(4), hands={1: list(WORKED_EXAMPLE), 2: rich, 3: plain}, stock_top=DULL)
    act(state, "lay_out", 1, layout=EXAMPLE)
    scored = events_of(act(state, "arrange", 1, layout=EXAMPLE), "round_scored")[0]
    assert scored["players"][2]["voided"] is True
    assert scored["points"][2] == 0
    # Brown with the 1st house (100) and a token on it (100).
    assert scored["points"][3] == 200
    assert scored["players"][3]["layout"]["groups"][0]["tokens"] == ["token-3"]


def test_wild_card_holders_mr_monopoly_cards_may_count() -> None:
    """Setting wild_holder_mr_monopoly: a voided hand's Mr. Monopoly cards still block."""
    voided = [
        "mrm-3",
        "mrm-4",
        "wild-1",
        "badstrasse",
        "turmstrasse",
        "elisenstrasse",
        "hafenstrasse",
        "wiener_strasse",
        "museumstrasse",
        "rathausplatz",
    ]
    for setting, bonus in ((False, 1000), (True, 0)):
        state = arrange(
            game(4, wild_holder_mr_monopoly=setting),
            hands={1: list(WORKED_EXAMPLE), 2: voided},
            stock_top=DULL,
        )
        act(state, "lay_out", 1, layout=EXAMPLE)
        scored = events_of(act(state, "arrange", 1, layout=EXAMPLE), "round_scored")[0]
        assert scored["players"][1]["mr_monopoly_bonus"] == bonus
        assert scored["points"][2] == 0


def _tie_round(rule: str) -> dict:
    tied = [
        "mrm-3",
        "mrm-4",
        "badstrasse",
        "turmstrasse",
        "elisenstrasse",
        "hafenstrasse",
        "wiener_strasse",
        "museumstrasse",
        "rathausplatz",
        "westbahnhof",
    ]
    state = arrange(
        game(4, mr_monopoly_tie=rule), hands={1: list(WORKED_EXAMPLE), 2: tied}, stock_top=DULL
    )
    act(state, "lay_out", 1, layout=EXAMPLE)
    return events_of(act(state, "arrange", 1, layout=EXAMPLE), "round_scored")[0]


def test_mr_monopoly_tie_settings() -> None:
    """ "Wer die meisten MR. MONOPOLY-KARTEN (4) am Ende der Runde auf der Hand hat, bekommt
    zusätzlich 1.000 Euro. Die anderen gehen leer aus." A tie is a setting; by default
    nobody gets it ("Weil kein anderer 2 Mr. Monopoly-Karten hat, kommen noch 1000 Euro
    dazu")."""
    nobody = _tie_round("nobody")
    assert nobody["points"][1] == 3600 and nobody["points"][2] == 50
    everyone = _tie_round("all")
    assert everyone["points"][1] == 4600 and everyone["points"][2] == 1050
    split = _tie_round("split")
    assert split["points"][1] == 4100 and split["points"][2] == 550


def test_others_lay_out_their_best() -> None:
    """ "Danach legen auch alle Mitspieler ihre vollständigen Gruppen und ihre Bonuskarten
    aus. Die übrigen Karten werden zur Seite gelegt." The engine lays out the best
    arrangement for them, from their whole hand."""
    other = [
        "badstrasse",
        "turmstrasse",
        "parkstrasse",
        "schlossallee",
        "house1-2",
        "house2-2",
        "token-3",
        "go-1",
        "go-2",
        "go-3",
        "mrm-3",
        "mrm-4",
    ]
    state = arrange(game(4), hands={1: list(WORKED_EXAMPLE), 2: other}, stock_top=DULL)
    act(state, "lay_out", 1, layout=EXAMPLE)
    scored = events_of(act(state, "arrange", 1, layout=EXAMPLE), "round_scored")[0]
    row = scored["players"][2]
    lay = row["layout"]
    assert [g["group"] for g in lay["groups"]] == ["brown", "dark_blue"]
    assert lay["groups"][1]["houses"] == ["house1-2", "house2-2"]
    assert lay["groups"][1]["tokens"] == ["token-3"]
    # brown 50, dark blue 1 200, token 1 200, LOS 600; two Mr. Monopoly cards tie with
    # the ender's two: nobody gets the 1 000.
    assert (row["value"], row["mr_monopoly"], row["points"]) == (3050, 2, 3050)
    assert scored["points"][1] == 3600
    # Setting others_limited: only 10 of the 12 cards go down (the Mr. Monopoly cards,
    # worth nothing by themselves, stay out), so the ender has the most again.
    state = arrange(
        game(4, others_limited=True), hands={1: list(WORKED_EXAMPLE), 2: other}, stock_top=DULL
    )
    act(state, "lay_out", 1, layout=EXAMPLE)
    scored = events_of(act(state, "arrange", 1, layout=EXAMPLE), "round_scored")[0]
    row = scored["players"][2]
    assert (row["value"], row["mr_monopoly"], row["points"]) == (3050, 0, 3050)
    assert scored["points"][1] == 4600


def _end_round(state, scores: list[int]) -> dict:
    for seat, score in enumerate(scores):
        state.players[seat].score = score
    act(state, "lay_out", 1, layout=EXAMPLE)
    return act(state, "arrange", 1, layout=EXAMPLE)


def test_game_ends_at_the_target() -> None:
    """ "Es werden so viele Runden gespielt, bis ein Spieler mehr als 10.000 Euro
    eingenommen hat. Dieser gewinnt das Spiel. Erreichen mehrere Spieler 10.000 Euro in
    der gleichen Runde, gewinnt der mit dem höchsten Betrag." """
    state = worked_example_game()
    events = _end_round(state, [9000, 5400, 0, 0])
    assert state.phase == "over" and state.winners == [1]
    assert events_of(events, "game_over")[0] == {
        "type": "game_over",
        "winners": [1],
        "scores": [9000, 10000, 0, 0],
    }
    assert refused(state, "draw", 2).code == "game_over"
    assert state.all_cards() == []
    assert state.last_round["points"][1] == 4600
    # The highest wins when several pass it in one round.
    state = worked_example_game()
    _end_round(state, [10_500, 6000, 0, 0])
    assert state.winners == [1]


def test_target_exactly_reached_is_a_setting() -> None:
    state = worked_example_game(target_inclusive=False)
    _end_round(state, [0, 5400, 0, 0])
    assert state.phase == "turn" and state.players[1].score == 10_000
    state = worked_example_game(target=4000)
    _end_round(state, [0, 0, 0, 0])
    assert state.winners == [1]


def test_tie_for_the_highest_score() -> None:
    state = worked_example_game()
    _end_round(state, [10_600, 6000, 0, 0])
    assert state.phase == "turn" and state.round == 2  # default: play another round
    state = worked_example_game(final_tie="shared")
    _end_round(state, [10_600, 6000, 0, 0])
    assert state.phase == "over" and state.winners == [0, 1]


def test_seven_thousand_with_five_players() -> None:
    """ "Die Wertung erfolgt auf übliche Weise. Es gewinnt, wer zuerst 7.000 Euro erreicht." """
    hand = [*WORKED_EXAMPLE, "go-1"]
    lay = {"groups": EXAMPLE["groups"], "bonus": ["go-1", "mrm-1", "mrm-2"]}
    state = arrange(game(5), hands={1: hand})
    state.players[1].score = 2200
    act(state, "lay_out", 1, layout=lay)
    act(state, "arrange", 1, layout=lay)
    assert state.players[1].score == 2200 + 3800 + 1000
    assert state.winners == [1]


def test_empty_stock_swap_only() -> None:
    """Default: once the stock is empty, nobody can draw; the round goes on with swaps."""
    state = arrange(game(4), stock_top=["go-1"], stock_size=1)
    act(state, "draw", 1)
    act(state, "discard", 1, cards=[state.players[1].hand[0]])
    assert state.phase == "turn" and state.current == 2
    assert refused(state, "draw", 2).code == "stock_empty"
    act(state, "swap", 2, target=1)
    assert state.phase == "discard"


def test_empty_stock_scores_the_round() -> None:
    """Setting empty_stock "score": the round ends after the turn that emptied the stock,
    without an ender: everyone lays out like the other players, wild cards void."""
    state = arrange(
        game(4, empty_stock="score"),
        hands={2: list(WORKED_EXAMPLE)},
        stock_top=["go-1"],
        stock_size=1,
    )
    act(state, "draw", 1)
    events = act(state, "discard", 1, cards=[state.players[1].hand[0]])
    assert events_of(events, "stock_empty")
    scored = events_of(events, "round_scored")[0]
    assert scored["reason"] == "stock_empty" and scored["ender"] is None
    assert scored["points"][2] == 4600
    assert state.round == 2


def test_a_player_who_can_do_nothing_ends_the_round() -> None:
    """No stock, every other pile empty and no lay-out: the round is scored without an
    ender (the book does not say; without this rule the game could not go on)."""
    from bot.cardgame.rounds import end_turn

    state = arrange(game(4), piles={0: [], 1: [], 2: [], 3: []}, stock_size=0)
    state.current = 0
    state.events = []
    end_turn(state)  # seat 0's turn is over; seat 1 can neither draw, swap nor lay out
    assert events_of(state.events, "round_stalled") == [{"type": "round_stalled", "player": 1}]
    assert events_of(state.events, "round_scored")[0]["reason"] == "stalled"
    assert state.round == 2


def test_an_invalid_lay_out_is_refused_and_names_what_is_missing() -> None:
    """The book's picture of a hand that may not be laid out: "Auch die 4. Haus-Karte passt
    nicht, weil das 3. Haus fehlt." """
    hand = [*YELLOW, "house1-1", "house2-1", "house4-1", "token-1", "token-2", "mrm-1", "mrm-2"]
    state = arrange(game(4), hands={1: hand})
    lay = {
        "groups": [
            {
                "group": "yellow",
                "cards": YELLOW,
                "houses": ["house1-1", "house2-1", "house4-1"],
                "tokens": ["token-1", "token-2"],
            }
        ],
        "bonus": ["mrm-1", "mrm-2"],
    }
    err = refused(state, "lay_out", 1, layout=lay)
    assert (err.code, err.params) == (
        "house_out_of_order",
        {"group": "yellow", "card": "house4-1", "number": 4, "needs": 3},
    )
    lay["groups"][0]["houses"] = ["house1-1", "house2-1"]
    err = refused(state, "lay_out", 1, layout=lay)
    assert (err.code, err.params) == ("house_not_placed", {"card": "house4-1", "number": 4})
    assert refused(state, "lay_out", 1, layout="all").code == "layout_malformed"
    assert refused(state, "lay_out", 2, layout=lay).code == "not_your_turn"
