"""Persistent buttons: every custom_id names the game, the state version and the action.

``m:{game}:{seq}:{action}[:{arg}]``. A click loads the game from the store, so the
buttons keep working after a restart, and a click made for an older ``seq`` is
recognised and refused politely. Lobby buttons use ``L`` instead of a ``seq``.
"""

from __future__ import annotations

import re
from typing import Any

import discord

PATTERN = r"m:(?P<game>[0-9]+):(?P<seq>[0-9]+|L):(?P<act>[a-z_]+)(?::(?P<arg>[-0-9a-z_]+))?"


def custom_id(game: int, seq: int | str, act: str, arg: Any = None) -> str:
    """Build a button's custom_id (always well under Discord's 100 characters)."""
    text = f"m:{game}:{seq}:{act}"
    return text if arg is None else f"{text}:{arg}"


class GameButton(discord.ui.DynamicItem[discord.ui.Button], template=PATTERN):
    """Any game button; the cog decides what it does."""

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
                label=label or None,
                style=style,
                emoji=emoji,
                custom_id=custom_id(game, seq, act, arg),
                disabled=disabled,
                row=row,
            )
        )
        self.game = game
        self.seq = seq
        self.act = act
        self.arg = arg

    @classmethod
    async def from_custom_id(
        cls, interaction: discord.Interaction, item: discord.ui.Button, match: re.Match[str]
    ) -> GameButton:
        """Rebuild the button from a click (also after a restart)."""
        seq: int | str = match["seq"] if match["seq"] == "L" else int(match["seq"])
        return cls(int(match["game"]), seq, match["act"], match["arg"])

    async def callback(self, interaction: discord.Interaction) -> None:
        """Hand the click to the Monopoly cog."""
        cog = interaction.client.get_cog("Monopoly")  # type: ignore[attr-defined]
        await cog.on_button(interaction, self.game, self.seq, self.act, self.arg)
