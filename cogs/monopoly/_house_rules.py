"""The host's house rules in the lobby: changeable only before the game starts.

A private panel with one select per yes/no or choice setting and a modal for the
amounts. Every change goes through :meth:`GameService.update_lobby`, which checks
the setting's bounds against the preset, and the lobby message shows the result.
"""

from __future__ import annotations

import contextlib
from typing import TYPE_CHECKING, Any

import discord

from bot.engine.errors import IllegalAction
from bot.engine.rules import Rules
from bot.i18n import t
from bot.rules_summary import changed_settings, describe_rules
from bot.store import StoreError
from cogs.monopoly import _panels as panels
from cogs.monopoly._text import board_of
from cogs.monopoly._widgets import PanelButton, PanelSelect, explain, lang_of, panel, reply

if TYPE_CHECKING:
    from cogs.monopoly._cog import MonopolyCog

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


def house_rules_panel(game: int, settings: dict[str, Any], lang: str) -> dict[str, Any]:
    """The private panel: the current changes and a select per setting."""
    overrides = settings.get("overrides", {})
    rules = Rules.from_preset(settings["preset"], **overrides)
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


async def open_panel(cog: MonopolyCog, interaction: discord.Interaction, game: int) -> None:
    """The host opens the house rules panel (others are told it is the host's job)."""
    lang = lang_of(interaction)
    row = await cog.service.store.load(game)
    if interaction.user.id != row.settings.get("host"):
        await reply(interaction, t(lang, "error.host_only"))
        return
    payload = house_rules_panel(game, dict(row.settings), lang)
    await interaction.response.send_message(**payload, ephemeral=True)


async def _apply(
    cog: MonopolyCog, interaction: discord.Interaction, game: int, changes: dict[str, Any]
) -> dict[str, Any] | None:
    lang = lang_of(interaction)
    row = await cog.service.store.load(game)
    overrides = {**row.settings.get("overrides", {}), **changes}
    try:
        settings = await cog.service.update_lobby(game, interaction.user.id, overrides=overrides)
    except (IllegalAction, StoreError) as error:
        await reply(interaction, explain(lang, error))
        return None
    await refresh_lobby(interaction, game, settings)
    return settings


async def refresh_lobby(
    interaction: discord.Interaction, game: int, settings: dict[str, Any]
) -> None:
    """Show changed lobby settings in the lobby message."""
    message_id = settings.get("lobby_message")
    if message_id is None or interaction.channel is None:
        return
    # If the edit fails the lobby shows the change with its next update.
    with contextlib.suppress(discord.HTTPException):
        await interaction.channel.get_partial_message(message_id).edit(  # type: ignore[union-attr]
            **panels.lobby_message(game, settings)
        )


@panel("hr")
async def _choice(
    cog: MonopolyCog,
    interaction: discord.Interaction,
    game: int,
    arg: str | None,
    values: list[str],
) -> None:
    if arg not in CHOICES or not values or not values[0].isdigit():
        await reply(interaction, t(lang_of(interaction), "error.unknown_button"))
        return
    index = int(values[0])
    choices = CHOICES[arg]
    if index >= len(choices):
        await reply(interaction, t(lang_of(interaction), "error.unknown_button"))
        return
    changes: dict[str, Any] = {arg: choices[index]}
    if arg == "free_parking" and choices[index] == "fixed":
        changes["free_parking_amount"] = FIXED_FREE_PARKING
    settings = await _apply(cog, interaction, game, changes)
    if settings is not None:
        await interaction.response.edit_message(
            **house_rules_panel(game, settings, lang_of(interaction))
        )


@panel("hr_toggle")
async def _toggle(
    cog: MonopolyCog,
    interaction: discord.Interaction,
    game: int,
    arg: str | None,
    values: list[str],
) -> None:
    if arg not in TOGGLES:
        await reply(interaction, t(lang_of(interaction), "error.unknown_button"))
        return
    row = await cog.service.store.load(game)
    rules = Rules.from_preset(row.settings["preset"], **row.settings.get("overrides", {}))
    settings = await _apply(cog, interaction, game, {arg: not getattr(rules, arg)})
    if settings is not None:
        await interaction.response.edit_message(
            **house_rules_panel(game, settings, lang_of(interaction))
        )


class AmountsModal(discord.ui.Modal):
    """Numbers of one :data:`AMOUNTS` group; an empty field keeps the current value."""

    def __init__(self, cog: MonopolyCog, game: int, lang: str, title: str) -> None:
        super().__init__(title=t(lang, title)[:45], custom_id=f"hrmodal:{game}")
        self.cog, self.game, self.lang = cog, game, lang
        self.fields = {}
        for name in AMOUNTS[title]:
            field = discord.ui.TextInput(
                custom_id=name, label=t(lang, f"setting.{name}")[:45], required=False, max_length=9
            )
            self.fields[name] = field
            self.add_item(field)

    async def on_submit(self, interaction: discord.Interaction) -> None:
        """Check every number, then change them together."""
        from cogs.monopoly._widgets import parse_amount

        changes: dict[str, Any] = {}
        for name, field in self.fields.items():
            text = (field.value or "").strip()
            if not text:
                continue
            amount = parse_amount(text)
            if amount is None:
                await reply(interaction, t(self.lang, "error.bad_number", text=text))
                return
            changes[name] = amount
        if await _apply(self.cog, interaction, self.game, changes) is not None:
            await reply(interaction, t(self.lang, "manage.done"))


@panel("hr_amounts")
async def _amounts(
    cog: MonopolyCog,
    interaction: discord.Interaction,
    game: int,
    arg: str | None,
    values: list[str],
) -> None:
    groups = list(AMOUNTS)
    index = int(arg) if arg and arg.isdigit() else 0  # menus from before "more" had no arg
    if index >= len(groups):
        await reply(interaction, t(lang_of(interaction), "error.unknown_button"))
        return
    # A modal must be the first response: no store access before it.
    modal = AmountsModal(cog, game, lang_of(interaction), groups[index])
    await interaction.response.send_modal(modal)
