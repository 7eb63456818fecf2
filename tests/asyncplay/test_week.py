"""The simulated week behind ``monopoly-bot bench --week`` (bot/asyncplay/week.py)."""

from __future__ import annotations

from bot.asyncplay.week import play_table, report, simulate_week


def test_the_same_seed_gives_the_same_week() -> None:
    assert play_table(0, after=True, seed=3) == play_table(0, after=True, seed=3)


def test_orders_jokers_and_quiet_hours_spare_deadlines() -> None:
    """Before, nothing but the safe default keeps the absent members' games moving; after,
    orders decide at once and jokers excuse a miss: fewer deadlines, more turns played."""
    before, after = simulate_week(4, seed=0)
    assert before.total("jokers") == 0 and before.total("by_order") == 0
    assert after.total("deadlines") < before.total("deadlines")
    assert after.total("turns") > before.total("turns")
    assert all(table.jokers <= 2 * 4 for table in after.tables)  # two per member at most
    assert len(report(before, after)) == 2
