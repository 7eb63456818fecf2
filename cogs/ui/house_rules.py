"""The host's house rules panel in the lobby: a select per choice, toggles, amount forms."""

from __future__ import annotations

from typing import Any

import discord

from bot.i18n import t
from bot.rules_summary import changed_settings, describe_rules
from bot.settings import GameSettings
from cogs.ui.ids import Form, PanelButton, PanelSelect
from cogs.ui.text import board_of

#: Settings chosen from a list: name -> the values offered.
CHOICES: dict[str, tuple[Any, ...]] = {
    "free_parking": ("off", "taxes", "fixed"),
    "go_landing_bonus": (False, True),
    "auction_declined_lots": (True, False),
    "rent_must_be_claimed": (False, True),
}


#: Yes/no settings shown as a toggle button (Discord allows five rows: four selects + buttons).
TOGGLES = ("rent_while_in_jail",)


#: Amounts typed in the two modals, by the button that opens them (at most five fields
#: each, Discord's limit); an empty field keeps the current value.
AMOUNTS: dict[str, tuple[str, ...]] = {
    "house_rules.amounts": ("start_money", "salary", "jail_fine"),
    "house_rules.more_amounts": (
        "auction_min_bid",
        "auction_min_raise",
        "jail_max_attempts",
        "houses_total",
        "hotels_total",
    ),
    "house_rules.even_more": (
        "jail_bail_turns",
        "doubles_to_jail",
        "interest_percent",
        "deal_deeds",
        "end_after_bankruptcies",
    ),
}


FIXED_FREE_PARKING = 500  # what "fixed" pays unless the host types another amount


def _value_label(lang: str, name: str, value: Any) -> str:
    if isinstance(value, bool):
        return t(lang, "value.yes" if value else "value.no")
    return t(lang, f"value.{name}.{value}")


def house_rules_panel(game: int, settings: GameSettings, lang: str) -> dict[str, Any]:
    """The private panel: the current changes and a select per setting."""
    rules = settings.lobby.rules()
    view = discord.ui.View(timeout=None)
    for row, (name, values) in enumerate(CHOICES.items()):
        current = getattr(rules, name)
        options = [
            discord.SelectOption(
                label=f"{t(lang, f'setting.{name}')}: {_value_label(lang, name, value)}"[:100],
                value=str(index),
                default=value == current,
            )
            for index, value in enumerate(values)
        ]
        view.add_item(PanelSelect(game, "hr", name, options=options, row=row))
    for name in TOGGLES:
        label = f"{t(lang, f'setting.{name}')}: {_value_label(lang, name, getattr(rules, name))}"
        view.add_item(PanelButton(game, "hr_toggle", name, label=label, row=4))
    for index, key in enumerate(AMOUNTS):
        view.add_item(PanelButton(game, "hr_amounts", str(index), label=t(lang, key), row=4))
    marker = t(lang, "summary.changed")
    summary = describe_rules(rules, lang, board_of(settings))
    lines = [line for line in summary if line.endswith(marker)]
    text = t(lang, "house_rules.title")
    if changed_settings(rules):
        text += "\n" + "\n".join(lines)
    embed = discord.Embed(description=text[:4000])
    return {"embed": embed, "view": view}


class AmountsForm(Form):
    """The numbers of one :data:`AMOUNTS` group; an empty field keeps the current value."""

    def __init__(self, game: int, lang: str, group: int) -> None:
        title = list(AMOUNTS)[group]
        super().__init__(title=t(lang, title), game=game, action="hr_amounts", arg=str(group))
        for name in AMOUNTS[title]:
            self.add_field(name, t(lang, f"setting.{name}"), required=False, max_length=9)
