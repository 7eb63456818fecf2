"""Canonical JSON, the replayable record, legal actions, whom the game waits for, the views."""

from __future__ import annotations

import json

import pytest

from bot.cardgame import CardRecord, CardState, apply_action, legal_actions, waiting_for
from bot.cardgame.legal import best_layout, is_legal, swap_choices
from bot.cardgame.record import RECORD_FORMAT, ReplayMismatch
from bot.cardgame.simple_player import SimpleCardPlayer, default_action, next_simple_action
from bot.cardgame.state import STATE_FORMAT
from bot.cardgame.view import hand_view, table_view, visible_events
from tests.cardgame.conftest import WORKED_EXAMPLE, act, arrange, events_of, game


def played(players: int, actions: int, seed: int = 4) -> tuple[CardState, CardRecord]:
    state = game(players, seed)
    record = CardRecord.begin(state)
    bots = [SimpleCardPlayer() for _ in range(players)]
    for _ in range(actions):
        if state.phase == "over":
            break
        action = next_simple_action(state, bots)
        record.add(action, apply_action(state, action))
    return state, record


@pytest.mark.parametrize("players", [2, 3, 4, 5, 6])
def test_json_round_trip_continues_identically(players: int) -> None:
    state, _ = played(players, 60)
    text = state.to_json()
    assert json.loads(text)["format"] == STATE_FORMAT
    assert text == json.dumps(
        json.loads(text), sort_keys=True, separators=(",", ":"), ensure_ascii=False
    )
    copy = CardState.from_json(text)
    assert copy.to_json() == text
    bots = [SimpleCardPlayer() for _ in range(players)]
    for _ in range(40):
        if state.phase == "over":
            break
        action = next_simple_action(state, bots)
        assert apply_action(state, action) == apply_action(copy, action)
    assert copy.to_json() == state.to_json()


def test_to_dict_is_a_deep_copy() -> None:
    state = game(4)
    raw = state.to_dict()
    raw["players"][0]["hand"].clear()
    raw["stock"].clear()
    assert len(state.players[0].hand) == 10 and state.stock
    again = CardState.from_dict(state.to_dict())
    state.players[0].hand.clear()
    assert len(again.players[0].hand) == 10


def test_from_dict_checks_the_format() -> None:
    raw = game(4).to_dict()
    raw["format"] = "monopoly-state/1"
    with pytest.raises(ValueError):
        CardState.from_dict(raw)
    raw = game(4).to_dict()
    raw["rules"]["empty_stock"] = "never"
    with pytest.raises(ValueError):
        CardState.from_dict(raw)


def test_record_replays() -> None:
    state, record = played(4, 400)
    raw = json.loads(json.dumps(record.to_dict()))
    assert raw["format"] == RECORD_FORMAT
    assert CardRecord.from_dict(raw).replay().to_json() == state.to_json()
    assert any(entry["deals"] for entry in raw["actions"])  # a new round was dealt


def test_record_detects_a_different_deal() -> None:
    _state, record = played(4, 400)
    entry = next(e for e in record.actions if e["deals"])
    entry["deals"] = ["0" * 16]
    with pytest.raises(ReplayMismatch):
        record.replay()
    with pytest.raises(ValueError):
        CardRecord.from_dict({"format": "x"})


def test_legal_actions_in_a_turn() -> None:
    state = arrange(game(4), piles={1: ["go-1", "go-2"], 2: ["mrm-1"], 3: []})
    actions = legal_actions(state, 1)
    kinds = {a["type"] for a in actions}
    assert kinds == {"draw", "swap"}
    plain = [a for a in actions if a["type"] == "swap" and "first_discard" not in a]
    assert [(a["target"], a["count"]) for a in plain] == [(0, 1), (2, 1)]
    assert all(is_legal(state, a) for a in actions)
    assert legal_actions(state, 2) == []
    assert waiting_for(state) == [1]
    assert swap_choices(state, 1) == {"own_pile": 2, "players": {0: 1, 2: 1}, "extra": []}


def test_legal_lay_out_is_the_best_one() -> None:
    state = arrange(game(4), hands={1: list(WORKED_EXAMPLE)})
    lay_outs = [a for a in legal_actions(state, 1) if a["type"] == "lay_out"]
    assert len(lay_outs) == 1
    assert lay_outs[0]["layout"] == best_layout(state, 1)
    act(state, "lay_out", 1, layout=lay_outs[0]["layout"])
    assert waiting_for(state) == [1]
    assert [a["type"] for a in legal_actions(state, 1)] == ["arrange"]


def test_waiting_for_discards_and_passes() -> None:
    state = arrange(game(5), piles={1: ["go-1"], 3: ["mrm-1"]})
    act(state, "swap", 1, target=3)
    assert waiting_for(state) == [1, 3]
    assert {a["type"] for a in legal_actions(state, 3)} == {"discard"}
    act(state, "discard", 1, cards=[state.players[1].hand[0]])
    act(state, "discard", 3, cards=[state.players[3].hand[0]])
    assert waiting_for(state) == [0, 1, 2, 3, 4]
    act(state, "pass_card", 2, card=state.players[2].hand[0])
    assert waiting_for(state) == [0, 1, 3, 4]
    assert legal_actions(state, 2) == []


def test_default_action_is_the_simple_players() -> None:
    state = game(4)
    assert default_action(state) == default_action(state, 1)
    assert default_action(state, 2) is None
    apply_action(state, default_action(state))


def test_visible_events_hide_private_cards() -> None:
    state = arrange(game(4), stock_top=["go-1"])
    events = act(state, "draw", 1)
    assert events_of(visible_events(events, 1), "drew")[0]["card"] == "go-1"
    assert events_of(visible_events(events, 2), "drew")[0]["card"] is None
    assert events_of(visible_events(events, None), "drew")[0]["card"] is None
    assert events_of(events, "drew")[0]["card"] == "go-1"  # the originals are untouched
    state = arrange(game(5), piles={1: ["go-1"], 3: ["mrm-1"]})
    act(state, "swap", 1, target=3)
    act(state, "discard", 1, cards=["mrm-1"])
    act(state, "discard", 3, cards=["go-1"])
    for seat in (0, 2, 3, 4):
        act(state, "pass_card", seat, card=state.players[seat].hand[0])
    events = act(state, "pass_card", 1, card=state.players[1].hand[0])
    passed = events_of(visible_events(events, 2), "passed")
    assert [e["card"] is not None for e in passed] == [False, True, True, False, False]


def test_table_and_hand_views() -> None:
    state = arrange(game(4), hands={1: list(WORKED_EXAMPLE)})
    table = table_view(state)
    assert table["piles"] == state.piles and table["stock"] == 16
    assert table["hand_sizes"] == [10] * 4 and table["target"] == 10_000
    assert "hand" not in json.dumps(table).replace("hand_sizes", "")
    view = hand_view(state, 1)
    assert view["hand"] == state.players[1].hand
    assert view["groups"] == [
        {"group": "yellow", "held": WORKED_EXAMPLE[:3], "missing": [], "complete": True}
    ]
    assert view["suggestion_value"] == 3600
    assert view["cards"][0] == {
        "id": "lessingstrasse",
        "kind": "property",
        "name": "Lessingstraße",
        "group": "yellow",
        "group_name": "Gelb",
        "group_name_en": "Yellow",
        "number": None,
    }


def test_default_action_never_gives_cards_away() -> None:
    """An absent human's stand-in plays greedily, even when the round has locked up."""
    state = arrange(
        game(5),
        hands={
            0: [
                "go-1",
                "go-2",
                "go-3",
                "go-4",
                "badstrasse",
                "chausseestrasse",
                "seestrasse",
                "muenchner_strasse",
                "theaterstrasse",
                "lessingstrasse",
                "rathausplatz",
            ]
        },
    )
    act(state, "swap", 1, target=2)
    act(state, "discard", 1, cards=[state.players[1].hand[0]])
    act(state, "discard", 2, cards=[state.players[2].hand[0]])
    state.round_turn = 100
    greedy = default_action(state, 0)
    generous = SimpleCardPlayer().decide(state, 0)
    assert generous == {"type": "pass_card", "player": 0, "card": "go-1"}
    assert greedy["type"] == "pass_card" and not greedy["card"].startswith("go")


@pytest.mark.parametrize("players", [2, 3, 5, 6])
def test_record_replays_every_player_count(players: int) -> None:
    state, record = played(players, 300)
    assert CardRecord.from_dict(record.to_dict()).replay().to_json() == state.to_json()
