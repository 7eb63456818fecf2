"""Settings: defaults by the book, validation, loading from a dict; the table per player count."""

from __future__ import annotations

import pytest

from bot.cardgame.rules import CardRules, table_for


def test_defaults() -> None:
    rules = CardRules()
    assert rules.to_dict() == {
        "deck": "de",
        "target": None,
        "target_inclusive": True,
        "final_tie": "play_on",
        "mr_monopoly_tie": "nobody",
        "wild_holder_mr_monopoly": False,
        "token_includes_hotel": True,
        "empty_stock": "swap_only",
        "others_limited": False,
        "wild_only_groups": False,
        "first_dealer": "random",
        "lay_out_size": "hand",
    }
    assert CardRules.from_dict(rules.to_dict()) == rules


def test_target_by_player_count() -> None:
    """10 000 € ("bis ein Spieler mehr als 10.000 Euro eingenommen hat"); with 5 and 6
    players "Es gewinnt, wer zuerst 7.000 Euro erreicht"."""
    rules = CardRules()
    assert [rules.target_for(n) for n in range(2, 7)] == [10_000] * 3 + [7_000] * 2
    assert CardRules(target=5000).target_for(6) == 5000
    assert rules.reached(10_000, 4)
    assert not CardRules(target_inclusive=False).reached(10_000, 4)
    assert CardRules(target_inclusive=False).reached(10_050, 4)


@pytest.mark.parametrize(
    "raw",
    [
        {"final_tie": "coin"},
        {"mr_monopoly_tie": "both"},
        {"empty_stock": "reshuffle"},
        {"first_dealer": "youngest"},
        {"lay_out_size": "twelve"},
        {"target": 100},
        {"target": 10**7},
        {"target": True},
        {"target": "10000"},
        {"token_includes_hotel": 1},
        {"surprise": 1},
    ],
)
def test_bad_settings(raw: dict) -> None:
    with pytest.raises(ValueError):
        CardRules.from_dict(raw)


def test_missing_settings_take_defaults() -> None:
    assert CardRules.from_dict({"target": 8000}) == CardRules(target=8000)


def test_settings_are_frozen() -> None:
    with pytest.raises(AttributeError):
        CardRules().target = 1  # type: ignore[misc]


@pytest.mark.parametrize(
    ("players", "hand", "extra", "stock", "passes"),
    [
        (2, 10, 2, True, False),
        (3, 10, 1, True, False),
        (4, 10, 0, True, False),
        (5, 11, 0, False, True),
        (6, 9, 0, False, True),
    ],
)
def test_table(players: int, hand: int, extra: int, stock: bool, passes: bool) -> None:
    table = table_for(players)
    assert (table.hand_size, table.extra_piles, table.has_stock, table.passes) == (
        hand,
        extra,
        stock,
        passes,
    )


def test_cards_to_lay_out() -> None:
    """10 cards; with 5-6 players the whole hand, or at most 10 as a setting."""
    assert CardRules().cards_to_lay_out(table_for(4)) == 10
    assert CardRules().cards_to_lay_out(table_for(5)) == 11
    assert CardRules().cards_to_lay_out(table_for(6)) == 9
    assert CardRules(lay_out_size="ten").cards_to_lay_out(table_for(5)) == 10
    assert CardRules(lay_out_size="ten").cards_to_lay_out(table_for(6)) == 9


def test_player_count_bounds() -> None:
    for bad in (1, 7):
        with pytest.raises(ValueError):
            table_for(bad)
