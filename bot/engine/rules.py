"""Rule settings: every point where rulebooks differ or are silent is a named field.

The values of each preset live in ``data/presets/*.json``; this module only
defines the fields, their meaning and their validation. ``docs/rules.md``
quotes the rulebook behind each choice.
"""

from __future__ import annotations

import json
from dataclasses import dataclass, fields
from functools import cache
from importlib import resources
from typing import Any

INTEREST_ROUNDING = ("up", "down", "half_even")
FREE_PARKING = ("off", "fixed", "taxes")


# Bounds of the numeric settings a host may change (``None`` means "the board's value").
BOUNDS: tuple[tuple[str, int, int], ...] = (
    ("start_money", 0, 1_000_000),
    ("salary", 0, 100_000),
    ("jail_fine", 0, 100_000),
    ("auction_min_bid", 0, 100_000),
    ("auction_min_raise", 1, 100_000),
    ("jail_max_attempts", 1, 10),
    ("jail_bail_turns", 0, 10),
    ("doubles_to_jail", 1, 10),
    ("houses_total", 0, 200),
    ("hotels_total", 0, 100),
    ("interest_percent", 0, 100),
    ("free_parking_amount", 0, 100_000),
    ("deal_deeds", 0, 14),
    ("end_after_bankruptcies", 1, 9),
)


@dataclass(frozen=True, slots=True)
class Rules:
    """The settings a game is played by (see ``docs/rules.md`` for each one)."""

    preset: str
    board: str
    min_players: int
    max_players: int
    # Money; ``None`` takes the board's printed value.
    start_money: int | None
    salary: int | None
    jail_fine: int | None
    # Rent.
    unbuilt_group_rent_multiplier: int
    double_rent_with_mortgaged_in_group: bool
    mortgaged_count_for_rent: bool
    rent_must_be_claimed: bool
    # Auctions of declined lots.
    auction_declined_lots: bool
    auction_min_bid: int
    auction_bid_covered_by_cash: bool
    # House rule: every auction takes sealed bids (one private maximum each) instead of
    # live bidding, for tables spread over time zones; no rulebook has it.
    sealed_auctions: bool
    # Jail.
    doubles_to_jail: int
    jail_max_attempts: int
    jail_bail_turns: int
    jail_pay_after_failed_roll: bool
    jail_doubles_roll_again: bool
    # Buildings and mortgages.
    hotel_requires_houses: int
    houses_total: int | None
    hotels_total: int | None
    building_shortage_auction: bool
    mortgage_requires_bare_group: bool
    interest_percent: int
    interest_rounding: str
    # Debts and bankruptcy.
    part_payment_in_lots: bool
    bank_auction_mortgaged_free: bool
    # Variants printed in the rulebooks.
    deal_deeds: int
    deal_deeds_paid: bool
    building_requires_all_sold: bool
    hotel_sells_whole: bool
    end_after_bankruptcies: int | None
    end_at_deadline: bool
    # House rules players expect (defaults follow the rulebook).
    go_landing_bonus: bool
    free_parking: str
    free_parking_amount: int
    auction_min_raise: int
    rent_while_in_jail: bool

    def __post_init__(self) -> None:
        if self.interest_rounding not in INTEREST_ROUNDING:
            raise ValueError(f"interest_rounding must be one of {INTEREST_ROUNDING}")
        if not 2 <= self.min_players <= self.max_players <= 10:
            raise ValueError("players must satisfy 2 <= min_players <= max_players <= 10")
        if self.jail_max_attempts < 1 or self.doubles_to_jail < 1:
            raise ValueError("jail_max_attempts and doubles_to_jail must be positive")
        if not 1 <= self.hotel_requires_houses <= 4:
            raise ValueError("hotel_requires_houses must be 1..4")
        if self.free_parking not in FREE_PARKING:
            raise ValueError(f"free_parking must be one of {FREE_PARKING}")
        for name, low, high in BOUNDS:
            value = getattr(self, name)
            if value is not None and not low <= value <= high:
                raise ValueError(f"{name} must be between {low} and {high}")

    def interest(self, mortgage_value: int) -> int:
        """The interest on ``mortgage_value``, rounded as the setting says."""
        exact_tenths = mortgage_value * self.interest_percent  # in hundredths of a unit
        whole, rest = divmod(exact_tenths, 100)
        if rest == 0 or self.interest_rounding == "down":
            return whole
        if self.interest_rounding == "up":
            return whole + 1
        if rest > 50 or (rest == 50 and whole % 2 == 1):
            return whole + 1
        return whole

    def __reduce__(self) -> tuple[type[Rules], tuple[Any, ...]]:
        """Pickled (to a tournament's processes) as a call of the constructor: compiled
        with mypyc, the frozen class cannot be restored field by field."""
        return (Rules, tuple(getattr(self, name) for name in _FIELD_NAMES))

    def to_dict(self) -> dict[str, Any]:
        """The settings as a plain dict (canonical JSON)."""
        # Every value is a plain scalar, so this is cheaper than dataclasses.asdict.
        return {name: getattr(self, name) for name in _FIELD_NAMES}

    @classmethod
    def from_dict(cls, raw: dict[str, Any]) -> Rules:
        """Settings from a dict; unknown keys are an error, missing ones come from the preset."""
        names = {f.name for f in fields(cls)}
        unknown = set(raw) - names
        if unknown:
            raise ValueError(f"unknown rule settings: {', '.join(sorted(unknown))}")
        missing = names - set(raw)
        if missing:
            # A game saved before a setting existed plays it as its preset says.
            preset = raw.get("preset", "classic")
            defaults = _preset_data(preset if preset in available_presets() else "classic")
            raw = {**{name: defaults[name] for name in missing}, **raw}
        return cls(**raw)

    @classmethod
    def from_preset(cls, name: str = "classic", **overrides: Any) -> Rules:
        """The named preset, with ``overrides`` applied on top."""
        raw = dict(_preset_data(name))
        raw.update(overrides)
        return cls.from_dict(raw)


_FIELD_NAMES = tuple(f.name for f in fields(Rules))


def available_presets() -> list[str]:
    """Names of the presets shipped with the engine."""
    folder = resources.files("bot.engine") / "data" / "presets"
    return sorted(
        p.name.removesuffix(".json") for p in folder.iterdir() if p.name.endswith(".json")
    )


@cache
def _preset_data(name: str) -> dict[str, Any]:
    if name not in available_presets():
        raise KeyError(f"unknown preset {name!r}; known: {', '.join(available_presets())}")
    path = resources.files("bot.engine") / "data" / "presets" / f"{name}.json"
    raw = json.loads(path.read_text(encoding="utf-8"))
    raw.pop("_comment", None)
    base = raw.pop("base", None)
    # A preset names its base and lists only what differs from it.
    return {**_preset_data(base), **raw} if base else raw
