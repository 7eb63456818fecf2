"""Dealing and the turn: draw and discard, swaps, the piles of nobody, 5-6 players."""

from __future__ import annotations

import pytest

from bot.cardgame.game import new_game
from bot.cardgame.rules import CardRules
from bot.engine.errors import IllegalAction
from tests.cardgame.conftest import act, arrange, events_of, game, refused


@pytest.mark.parametrize(
    ("players", "hand", "extra", "stock"),
    [(2, 10, 2, 36), (3, 10, 1, 26), (4, 10, 0, 16), (5, 11, 0, 0), (6, 9, 0, 0)],
)
def test_deal(players: int, hand: int, extra: int, stock: int) -> None:
    """4 players: "teilt an jeden Mitspieler 10 Karten aus ... legt der Geber vor jeden
    Mitspieler eine Karte offen hin ... Die restlichen Karten werden verdeckt als
    Abnahmestapel" (3: a 4th face-up card, 2: a 3rd and 4th; 5/6: 11/9 each, no stock)."""
    state = game(players)
    assert [len(p.hand) for p in state.players] == [hand] * players
    assert [len(p) for p in state.piles] == [1] * players
    assert [len(p) for p in state.extra_piles] == [1] * extra
    assert len(state.stock) == stock
    assert sorted(state.all_cards()) == sorted(state.deck.ids)
    # "Der Spieler links vom Geber beginnt."
    assert (state.dealer, state.current, state.phase, state.round) == (0, 1, "turn", 1)
    started = events_of(state.events, "round_started")[0]
    assert started["piles"] == state.piles and started["stock"] == stock


def test_first_dealer_drawn_from_the_seed() -> None:
    seats = [(f"p{i}", f"P{i}") for i in range(4)]
    dealers = {new_game(seats, seed).dealer for seed in range(20)}
    assert len(dealers) > 1
    assert new_game(seats, 3).dealer == new_game(seats, 3).dealer
    assert new_game(seats, 3, CardRules(first_dealer="seat0")).dealer == 0


def test_new_game_checks_players() -> None:
    with pytest.raises(IllegalAction) as caught:
        new_game([("a", "A")], 1)
    assert caught.value.code == "player_count"
    with pytest.raises(IllegalAction) as caught:
        new_game([("a", "A"), ("a", "B")], 1)
    assert caught.value.code == "duplicate_player"
    with pytest.raises(IllegalAction):
        new_game([(str(i), "X") for i in range(7)], 1)


def test_draw_and_discard() -> None:
    """ "Der Spieler hebt die oberste Karte vom Abnahmestapel ab und nimmt sie zu seinen
    Handkarten. Dann legt er eine Karte auf seinen Tauschkartenstapel ab und der nächste
    Spieler ist an der Reihe." """
    state = arrange(game(4), stock_top=["go-1"])
    events = act(state, "draw", 1)
    assert events_of(events, "drew")[0]["card"] == "go-1"
    assert "go-1" in state.players[1].hand and len(state.players[1].hand) == 11
    assert (state.phase, state.owe) == ("discard", [0, 1, 0, 0])
    assert len(state.stock) == 15
    card = state.players[1].hand[0]
    act(state, "discard", 1, cards=[card])
    assert state.piles[1][-1] == card  # "immer oben auf den Tauschkarten-Stapel"
    assert (state.phase, state.current, state.turn) == ("turn", 2, 2)
    assert len(state.players[1].hand) == 10


def test_only_one_action_per_turn() -> None:
    """ "Will man die Runde beenden, darf man vorher nicht tauschen oder eine Karte nehmen." """
    state = game(4)
    act(state, "draw", 1)
    assert refused(state, "draw", 1).code == "wrong_phase"
    assert refused(state, "swap", 1, target=2).code == "wrong_phase"
    assert refused(state, "lay_out", 1, layout={"groups": [], "bonus": []}).code == "wrong_phase"


def test_discard_checks() -> None:
    state = game(4)
    hand = state.players[1].hand
    assert refused(state, "discard", 1, cards=[hand[0]]).code == "wrong_phase"
    act(state, "draw", 1)
    assert refused(state, "discard", 2, cards=[state.players[2].hand[0]]).code == (
        "nothing_to_discard"
    )
    assert refused(state, "discard", 1, cards=hand[:2]).code == "too_many_discards"
    assert refused(state, "discard", 1, cards=[]).code == "bad_cards"
    assert refused(state, "discard", 1, cards="x").code == "bad_cards"
    assert refused(state, "discard", 1, cards=["gold"]).code == "unknown_card"
    other = state.players[0].hand[0]
    assert refused(state, "discard", 1, cards=[other]).code == "card_not_in_hand"


def test_turn_order_and_refusals() -> None:
    state = game(4)
    assert refused(state, "draw", 2).code == "not_your_turn"
    assert refused(state, "fly", 1).code == "unknown_action"
    assert refused(state, "draw", 9).code == "unknown_player"
    assert refused(state, "draw", "1").code == "unknown_player"
    with pytest.raises(IllegalAction) as caught:
        from bot.cardgame.game import apply_action

        apply_action(state, ["draw"])  # type: ignore[arg-type]
    assert caught.value.code == "bad_action"


def test_swap_with_another_player() -> None:
    """ "Diesem bietet er so viele von seinen eigenen Tauschkarten an, wie er von dessen
    Stapel haben möchte. Der Mitspieler muss die Karten annehmen und zu seinen
    Handkarten (nicht zu seinen Tauschkarten) hinzufügen." "Die Karten werden zum
    Tauschen immer oben vom Stapel genommen." """
    state = arrange(game(4), piles={1: ["go-1", "go-2", "go-3"], 3: ["mrm-1", "mrm-2", "mrm-3"]})
    events = act(state, "swap", 1, target=3, count=2)
    swap = events_of(events, "swapped")[0]
    assert (swap["gave"], swap["took"]) == (["go-2", "go-3"], ["mrm-2", "mrm-3"])
    assert state.piles[1] == ["go-1"] and state.piles[3] == ["mrm-1"]
    assert {"go-2", "go-3"} <= set(state.players[3].hand)
    assert {"mrm-2", "mrm-3"} <= set(state.players[1].hand)
    # "Danach beendet der Spieler seinen Zug durch Ablegen"
    assert state.owe == [0, 2, 0, 0]
    act(state, "discard", 1, cards=state.players[1].hand[:2])
    assert state.current == 2
    # The other player keeps the cards until the end of their own turn.
    assert len(state.players[3].hand) == 12
    act(state, "draw", 2)
    act(state, "discard", 2, cards=[state.players[2].hand[0]])
    act(state, "draw", 3)
    # "soviel Karten abgelegt, dass der Spieler nach dem Ablegen wieder 10 Karten ... hat"
    assert state.owe[3] == 3
    act(state, "discard", 3, cards=state.players[3].hand[:3])
    assert len(state.players[3].hand) == 10


def test_swap_checks() -> None:
    state = arrange(game(4), piles={1: ["go-1"], 2: ["mrm-1", "mrm-2"], 3: []})
    assert refused(state, "swap", 1, target=1).code == "bad_target"
    assert refused(state, "swap", 1, target=7).code == "bad_target"
    assert refused(state, "swap", 1, target=2, count=0).code == "bad_count"
    assert refused(state, "swap", 1, target=2, count="2").code == "bad_count"
    err = refused(state, "swap", 1, target=2, count=2)
    assert (err.code, err.params) == ("own_pile_too_small", {"have": 1, "need": 2})
    err = refused(state, "swap", 1, target=3)
    assert (err.code, err.params) == ("target_pile_too_small", {"have": 0, "need": 1})
    assert refused(state, "swap", 1, target=2, first_discard="gold").code == "unknown_card"


def test_first_discard_before_a_swap() -> None:
    """ "Man kann vor dem Tausch aber noch eine Karte von der Hand auf den Tauschkarten-Stapel
    legen." The card is then among those offered."""
    state = arrange(game(4), piles={1: [], 2: ["mrm-1", "mrm-2"]})
    card = state.players[1].hand[0]
    events = act(state, "swap", 1, target=2, count=1, first_discard=card)
    assert events_of(events, "discarded")[0] == {
        "type": "discarded",
        "player": 1,
        "cards": [card],
        "before_swap": True,
    }
    assert card in state.players[2].hand
    assert "mrm-2" in state.players[1].hand
    # 10 - 1 + 1 = 10 cards: nothing more to discard, the turn is over.
    assert (state.current, state.phase) == (2, "turn")


def test_three_players_swap_with_the_fourth_pile() -> None:
    """ "Die Spieler können auch diese gegen die oberste ihres Tauschstapels tauschen." """
    state = arrange(game(3), piles={1: ["go-1", "go-2"]}, extra=[["mrm-1", "mrm-2"]])
    events = act(state, "swap_extra", 1, pile=0)
    swap = events_of(events, "swapped_extra")[0]
    assert (swap["gave"], swap["took"], swap["stock_card"]) == (["go-2"], ["mrm-2"], None)
    assert state.extra_piles == [["mrm-1", "go-2"]]
    assert "mrm-2" in state.players[1].hand
    assert state.owe == [0, 1, 0]


def test_three_players_swap_with_the_fourth_pile_and_the_stock() -> None:
    """ "Und sie können diese Tauschkarte und die oberste Karte des Abnahmestapels gegen
    ihre beiden obersten Tauschkarten tauschen. Die kommen beide auf den 4.
    Tauschstapel, der so auch anwachsen kann." """
    state = arrange(
        game(3), piles={1: ["go-1", "go-2", "go-3"]}, extra=[["mrm-1"]], stock_top=["token-1"]
    )
    events = act(state, "swap_extra", 1, pile=0, stock=True)
    swap = events_of(events, "swapped_extra")[0]
    assert (swap["gave"], swap["took"], swap["stock_card"]) == (
        ["go-2", "go-3"],
        ["mrm-1"],
        "token-1",
    )
    assert state.extra_piles == [["go-2", "go-3"]]
    assert state.piles[1] == ["go-1"]
    assert state.owe == [0, 2, 0]
    # A swap: the round may not be ended in this turn, and the turn ends by discarding.
    act(state, "discard", 1, cards=state.players[1].hand[:2])
    assert state.current == 2


def test_fourth_pile_checks() -> None:
    state = arrange(game(3), piles={1: ["go-1"]}, extra=[[]])
    assert refused(state, "swap_extra", 1, pile=0).code == "pile_empty"
    assert refused(state, "swap_extra", 1, pile=1).code == "bad_pile"
    assert refused(state, "swap_extra", 1, pile=0, stock="yes").code == "bad_action"
    state = arrange(game(3), piles={1: ["go-1"]}, extra=[["mrm-1"]])
    err = refused(state, "swap_extra", 1, pile=0, stock=True)
    assert (err.code, err.params) == ("own_pile_too_small", {"have": 1, "need": 2})
    card = state.players[1].hand[0]
    act(state, "swap_extra", 1, pile=0, stock=True, first_discard=card)
    assert state.extra_piles[0] == ["go-1", card]
    assert refused(game(4), "swap_extra", 1, pile=0).code == "no_extra_piles"


def test_two_players_have_a_third_and_fourth_pile() -> None:
    """ "Regeln für 2 Spieler: Wie für 3 Spieler, aber mit einer 3. und 4. Tauschkarte." """
    state = arrange(game(2), extra=[["go-1"], ["mrm-1"]])
    act(state, "swap_extra", 1, pile=1)
    assert "mrm-1" in state.players[1].hand
    assert len(state.extra_piles[1]) == 1 and state.extra_piles[0] == ["go-1"]


def test_five_players_swap_both_discard_then_everyone_passes_left() -> None:
    """ "Der Spieler, der an der Reihe ist, tauscht seine Tauschkarte gegen die eines
    Mitspielers. Beide nehmen die getauschten Karten auf die Hand und legen dann wieder
    eine Karte als Tauschkarte vor sich ab. ... Doch vorher wählen die Spieler jedesmal
    eine ihrer Handkarten und geben sie verdeckt an ihren linken Nachbarn weiter." """
    state = arrange(game(5), piles={1: ["go-1"], 3: ["mrm-1"]})
    assert refused(state, "draw", 1).code == "no_stock"
    assert refused(state, "swap", 1, target=3, count=2).code == "bad_count"
    assert refused(state, "swap", 1, target=3, first_discard=state.players[1].hand[0]).code == (
        "no_first_discard"
    )
    act(state, "swap", 1, target=3)
    assert "mrm-1" in state.players[1].hand and "go-1" in state.players[3].hand
    assert state.phase == "discard" and state.owe == [0, 1, 0, 1, 0]
    act(state, "discard", 3, cards=["go-1"])
    assert state.phase == "discard"
    act(state, "discard", 1, cards=["mrm-1"])
    assert state.piles[1] == ["mrm-1"] and state.piles[3] == ["go-1"]
    assert state.phase == "pass"
    before = [list(p.hand) for p in state.players]
    chosen = [hand[0] for hand in before]
    for seat in (4, 0, 2, 3):
        events = act(state, "pass_card", seat, card=chosen[seat])
        assert events == [{"type": "pass_chosen", "player": seat}]
    assert refused(state, "pass_card", 4, card=before[4][1]).code == "already_chosen"
    events = act(state, "pass_card", 1, card=chosen[1])
    passed = events_of(events, "passed")
    assert [(e["player"], e["to"], e["card"]) for e in passed] == [
        (s, (s + 1) % 5, chosen[s]) for s in range(5)
    ]
    for seat in range(5):
        assert chosen[(seat - 1) % 5] in state.players[seat].hand
        assert len(state.players[seat].hand) == 11
    assert (state.current, state.phase) == (2, "turn")


def test_five_players_may_end_after_swapping_before_the_pass() -> None:
    """ "Ein Spieler darf auslegen und die Runde beenden, auch wenn er vorher getauscht
    hat, aber bevor alle eine Karte an ihren Nachbarn weitergegeben haben." """
    hand = [
        "lessingstrasse",
        "schillerstrasse",
        "goethestrasse",
        "house1-1",
        "house2-1",
        "house3-1",
        "token-1",
        "token-2",
        "mrm-1",
        "mrm-2",
        "badstrasse",
    ]
    state = arrange(game(5), hands={1: hand}, piles={1: ["go-1"], 2: ["go-2"]})
    act(state, "swap", 1, target=2)
    act(state, "discard", 2, cards=[state.players[2].hand[0]])
    act(state, "discard", 1, cards=["badstrasse"])
    act(state, "pass_card", 1, card="mrm-1")
    assert state.phase == "pass"
    lay = {
        "groups": [
            {
                "group": "yellow",
                "cards": hand[:3],
                "houses": hand[3:6],
                "tokens": ["token-1", "token-2"],
            }
        ],
        "bonus": ["go-2", "mrm-1", "mrm-2"],
    }
    assert refused(state, "lay_out", 2, layout=lay).code == "not_your_turn"
    events = act(state, "lay_out", 1, layout=lay)
    assert events_of(events, "laid_out")[0]["player"] == 1
    assert state.passing == [None] * 5  # the pass is called off
    # "Prämie: Der Spieler der ausgelegt hat, darf alle auf dem Tisch liegenden
    # Tauschkarten nehmen"
    assert state.phase == "bonus"
    assert len(state.bonus_cards) == 5 and state.piles == [[]] * 5


def test_six_players_lay_out_nine_cards() -> None:
    hand = [
        "lessingstrasse",
        "schillerstrasse",
        "goethestrasse",
        "house1-1",
        "house2-1",
        "house3-1",
        "token-1",
        "token-2",
        "mrm-1",
    ]
    state = arrange(game(6), hands={1: hand})
    lay = {
        "groups": [
            {"group": "yellow", "cards": hand[:3], "houses": hand[3:6], "tokens": hand[6:8]}
        ],
        "bonus": ["mrm-1"],
    }
    act(state, "lay_out", 1, layout=lay)
    assert state.ender == 1 and state.phase == "bonus"


def test_five_players_ten_cards_setting() -> None:
    """ "lay_out_size": "ten": with 5 players the 11th card goes aside."""
    hand = [
        "lessingstrasse",
        "schillerstrasse",
        "goethestrasse",
        "house1-1",
        "house2-1",
        "house3-1",
        "token-1",
        "token-2",
        "mrm-1",
        "mrm-2",
        "badstrasse",
    ]
    lay = {
        "groups": [
            {"group": "yellow", "cards": hand[:3], "houses": hand[3:6], "tokens": hand[6:8]}
        ],
        "bonus": ["mrm-1", "mrm-2"],
    }
    state = arrange(game(5), hands={1: hand})
    assert refused(state, "lay_out", 1, layout=lay).code == "layout_incomplete_group"
    state = arrange(game(5, lay_out_size="ten"), hands={1: hand})
    act(state, "lay_out", 1, layout=lay)
    assert state.aside == ["badstrasse"]
