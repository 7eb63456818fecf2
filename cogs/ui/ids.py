"""Custom ids of every component, and the persistent items that carry them.

Every button and select the bot posts says in its ``custom_id`` what it is for, so a click
can be handled after a restart and a click on an outdated message can be recognised:

* ``m:{game}:{seq}:{act}[:{arg}]`` — a public game button; ``seq`` is the state version the
  message was drawn for, ``L`` for a lobby's buttons (:class:`GameButton`).
* ``xb:{game}:{kind}[:{arg}]`` / ``xs:{game}:{kind}[:{arg}]`` — a button / select of a private
  menu (:class:`PanelButton`, :class:`PanelSelect`).

A click becomes a :class:`ClickRef` and goes to the bot's dispatcher
(``interaction.client.dispatcher``, see ``cogs/core/dispatch.py``), which finds its route in
the one route table (``cogs/core/routes.py``). This module imports no cog: it only needs an
object with an async ``click(interaction, ref)`` method on the client.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field
from typing import Any, Protocol

import discord

GAME_PATTERN = r"m:(?P<game>[0-9]+):(?P<seq>[0-9]+|L):(?P<act>[a-z_]+)(?::(?P<arg>[-0-9a-z_]+))?"
BUTTON_PATTERN = r"xb:(?P<game>[0-9]+):(?P<kind>[a-z_]+)(?::(?P<arg>[-0-9a-z_]+))?"
SELECT_PATTERN = r"xs:(?P<game>[0-9]+):(?P<kind>[a-z_]+)(?::(?P<arg>[-0-9a-z_]+))?"

#: Kinds of :class:`ClickRef`: a public game button, a lobby button, a private button or
#: select, a submitted form.
GAME, LOBBY, PANEL, FORM = "game", "lobby", "panel", "form"

#: Discord's limits: characters per button label, select option and placeholder.
LABEL_MAX = 80
OPTION_MAX = 100
PLACEHOLDER_MAX = 150
#: Discord's limits of a form: characters of its title and of a field's label.
TITLE_MAX = 45
LABEL_TEXT_MAX = 45


@dataclass(frozen=True)
class ClickRef:
    """What was clicked or submitted, as the dispatcher needs it.

    ``kind`` and ``action`` together name the route; ``seq`` is the state version a game
    button was drawn for (None for lobby buttons, private items and forms); ``values`` are
    a select's chosen values, ``shown`` the options the user saw, ``fields`` a form's texts.
    """

    kind: str
    game: int
    action: str
    seq: int | None = None
    arg: str | None = None
    values: tuple[str, ...] = ()
    shown: tuple[str, ...] = ()
    fields: dict[str, str] = field(default_factory=dict)
    custom_id: str = ""

    @property
    def route(self) -> tuple[str, str]:
        """The key of this click's route in the route table."""
        return (self.kind, self.action)


class Dispatcher(Protocol):
    """What the items here hand their clicks to (``cogs.core.dispatch.Dispatcher``)."""

    async def click(self, interaction: discord.Interaction, ref: ClickRef) -> None:
        """Handle one click or form; answers the interaction whatever happens."""


async def dispatch(interaction: discord.Interaction, ref: ClickRef) -> None:
    """Hand ``ref`` to the client's dispatcher."""
    dispatcher: Dispatcher = interaction.client.dispatcher  # type: ignore[attr-defined]
    await dispatcher.click(interaction, ref)


def clip(text: str, limit: int) -> str:
    """``text`` cut to ``limit`` characters with an ellipsis (Discord rejects longer ones)."""
    return text if len(text) <= limit else text[: limit - 1] + "…"


def custom_id(game: int, seq: int | str, act: str, arg: Any = None) -> str:
    """A public game button's custom_id (always well under Discord's 100 characters)."""
    text = f"m:{game}:{seq}:{act}"
    return text if arg is None else f"{text}:{arg}"


def panel_id(prefix: str, game: int, kind: str, arg: Any = None) -> str:
    """The custom_id of a private menu item (well under Discord's 100 characters)."""
    text = f"{prefix}:{game}:{kind}"
    return text if arg is None else f"{text}:{arg}"


class GameButton(discord.ui.DynamicItem[discord.ui.Button], template=GAME_PATTERN):
    """A button of a public game message (turn, auction, offer, vote, lobby, card table)."""

    def __init__(
        self,
        game: int,
        seq: int | str,
        act: str,
        arg: str | None = None,
        *,
        label: str = "",
        style: discord.ButtonStyle = discord.ButtonStyle.secondary,
        emoji: str | None = None,
        disabled: bool = False,
        row: int | None = None,
    ) -> None:
        super().__init__(
            discord.ui.Button(
                label=clip(label, LABEL_MAX) if label else None,
                style=style,
                emoji=emoji,
                custom_id=custom_id(game, seq, act, arg),
                disabled=disabled,
                row=row,
            )
        )
        self.game, self.seq, self.act, self.arg = game, seq, act, arg

    @classmethod
    async def from_custom_id(
        cls, interaction: discord.Interaction, item: discord.ui.Button, match: re.Match[str]
    ) -> GameButton:
        """Rebuild the button from a click (also after a restart)."""
        seq: int | str = match["seq"] if match["seq"] == "L" else int(match["seq"])
        return cls(int(match["game"]), seq, match["act"], match["arg"])

    async def callback(self, interaction: discord.Interaction) -> None:
        """Hand the click to the dispatcher."""
        lobby = self.seq == "L"
        ref = ClickRef(
            kind=LOBBY if lobby else GAME,
            game=self.game,
            action=self.act,
            seq=None if lobby else int(self.seq),
            arg=self.arg,
            custom_id=self.item.custom_id or "",
        )
        await dispatch(interaction, ref)


class PanelButton(discord.ui.DynamicItem[discord.ui.Button], template=BUTTON_PATTERN):
    """A button of a private menu."""

    def __init__(
        self,
        game: int,
        kind: str,
        arg: str | None = None,
        *,
        label: str | None = None,
        style: discord.ButtonStyle = discord.ButtonStyle.secondary,
        emoji: str | None = None,
        disabled: bool = False,
        row: int | None = None,
    ) -> None:
        super().__init__(
            discord.ui.Button(
                label=clip(label, LABEL_MAX) if label else None,
                style=style,
                emoji=emoji,
                custom_id=panel_id("xb", game, kind, arg),
                disabled=disabled,
                row=row,
            )
        )
        self.game, self.kind, self.arg = game, kind, arg

    @classmethod
    async def from_custom_id(
        cls, interaction: discord.Interaction, item: discord.ui.Button, match: re.Match[str]
    ) -> PanelButton:
        """Rebuild the button from a click (also after a restart)."""
        return cls(int(match["game"]), match["kind"], match["arg"])

    async def callback(self, interaction: discord.Interaction) -> None:
        """Hand the click to the dispatcher."""
        ref = ClickRef(
            kind=PANEL,
            game=self.game,
            action=self.kind,
            arg=self.arg,
            custom_id=self.item.custom_id or "",
        )
        await dispatch(interaction, ref)


class PanelSelect(discord.ui.DynamicItem[discord.ui.Select], template=SELECT_PATTERN):
    """A string select of a private menu (or of the lobby); the values chosen go to its route."""

    def __init__(
        self,
        game: int,
        kind: str,
        arg: str | None = None,
        *,
        options: list[discord.SelectOption] | None = None,
        placeholder: str | None = None,
        min_values: int = 1,
        max_values: int = 1,
        row: int | None = None,
    ) -> None:
        options = options or [discord.SelectOption(label="–", value="-")]
        super().__init__(
            discord.ui.Select(
                custom_id=panel_id("xs", game, kind, arg),
                options=options,
                placeholder=clip(placeholder, PLACEHOLDER_MAX) if placeholder else None,
                min_values=min_values,
                max_values=max(min_values, min(max_values, len(options))),
                row=row,
            )
        )
        self.game, self.kind, self.arg = game, kind, arg

    @classmethod
    async def from_custom_id(
        cls, interaction: discord.Interaction, item: discord.ui.Select, match: re.Match[str]
    ) -> PanelSelect:
        """Rebuild the select from a choice; discord.py fills in the values afterwards."""
        return cls(
            int(match["game"]),
            match["kind"],
            match["arg"],
            options=list(item.options),
            min_values=item.min_values,
            max_values=item.max_values,
        )

    async def callback(self, interaction: discord.Interaction) -> None:
        """Hand the chosen values (and the options the user saw) to the dispatcher."""
        ref = ClickRef(
            kind=PANEL,
            game=self.game,
            action=self.kind,
            arg=self.arg,
            values=tuple(self.item.values),
            shown=tuple(option.value for option in self.item.options),
            custom_id=self.item.custom_id or "",
        )
        await dispatch(interaction, ref)


FORM_PATTERN = re.compile(
    r"f:(?P<game>[0-9]+):(?P<kind>[a-z_]+):(?P<seq>[0-9]+|n)(?::(?P<arg>[-0-9a-z_]+))?"
)


class Form(discord.ui.Modal):
    """A modal form (``f:{game}:{action}:{seq|n}[:{arg}]``) that keeps nothing in memory.

    Subclasses add their text fields with :meth:`add_field`. The form is sent with
    :func:`send_form`, which takes it out of discord.py's memory again: its submission is
    read from the interaction itself (:func:`form_ref`) and goes to the dispatcher like a
    click, so a form submitted after a restart, or by two players at once, is still
    answered (discord.py keeps one modal per custom id and drops unknown submissions).
    """

    def __init__(
        self,
        *,
        title: str,
        game: int,
        action: str,
        seq: int | None = None,
        arg: str | None = None,
    ) -> None:
        custom = f"f:{game}:{action}:{'n' if seq is None else seq}" + (f":{arg}" if arg else "")
        super().__init__(title=clip(title, TITLE_MAX), custom_id=custom)

    def add_field(self, field_id: str, label: str, **options: Any) -> discord.ui.TextInput:
        """Add a text field named ``field_id`` under ``label`` (cut to Discord's 45 characters).

        The field sits in a Label (component type 18), not in an action row: Discord has
        deprecated action rows in modals. Its submitted value comes back inside the label
        (``_typed`` reads both shapes).
        """
        text: discord.ui.TextInput = discord.ui.TextInput(custom_id=field_id, **options)
        self.add_item(discord.ui.Label(text=clip(label, LABEL_TEXT_MAX), component=text))
        return text


async def send_form(interaction: discord.Interaction, form: Form) -> None:
    """Open ``form`` as the answer to ``interaction`` (a modal must be the first answer)."""
    await interaction.response.send_modal(form)
    form.stop()  # forget it: the submission is handled from its custom id (see Form)


def _typed(components: list[dict[str, Any]], found: dict[str, str]) -> dict[str, str]:
    for component in components:
        if component.get("type") == 1:
            _typed(component.get("components", []), found)
        elif component.get("type") == 18 and "component" in component:
            _typed([component["component"]], found)
        elif "custom_id" in component and "value" in component:
            found[str(component["custom_id"])] = str(component["value"] or "")
    return found


def form_ref(interaction: discord.Interaction) -> ClickRef | None:
    """The submitted :class:`Form` of a modal-submit interaction, or None if it is not ours."""
    data: dict[str, Any] = interaction.data or {}  # type: ignore[assignment]
    match = FORM_PATTERN.fullmatch(str(data.get("custom_id", "")))
    if interaction.type != discord.InteractionType.modal_submit or match is None:
        return None
    return ClickRef(
        kind=FORM,
        game=int(match["game"]),
        action=match["kind"],
        seq=None if match["seq"] == "n" else int(match["seq"]),
        arg=match["arg"],
        fields=_typed(list(data.get("components", [])), {}),
        custom_id=match.string,
    )
