"""A server's own themes: admins upload a theme file, lobbies offer it beside the shipped ones.

``/monopoly theme upload file:`` (members with *Manage Server*) checks the JSON file
strictly with :func:`bot.engine.themes.parse_theme_file` and names the first problem;
``/monopoly theme list`` shows every theme the server can use; ``/monopoly theme remove``
deletes one. ``/monopoly start theme:`` completes from both kinds. A lobby copies a server
theme into its settings (``theme_data``), so removing or replacing the theme later never
changes a game that uses it.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

import discord
from discord import app_commands

from bot.engine.board import load_board
from bot.engine.errors import IllegalAction
from bot.engine.rules import Rules
from bot.engine.themes import (
    MAX_THEME_BYTES,
    InvalidData,
    available_themes,
    load_theme,
    parse_theme_file,
    theme_from_dict,
    theme_to_dict,
)
from bot.i18n import t
from cogs.monopoly._widgets import lang_of, reply

if TYPE_CHECKING:
    from cogs.monopoly._cog import MonopolyCog

AUTOCOMPLETE_MAX = 25  # Discord's limit of suggestions


def _may_manage(interaction: discord.Interaction) -> bool:
    return interaction.guild_id is not None and interaction.permissions.manage_guild


def explain_file_problem(lang: str, error: InvalidData) -> str:
    """The first problem of a theme file, in words, with where it is."""
    problem = t(lang, f"theme_file.{error.code}", **error.params)
    return t(lang, "theme.file_refused", where=error.where, problem=problem)


async def upload(cog: MonopolyCog, interaction: discord.Interaction, file: Any) -> None:
    """Check an uploaded theme file and keep it for the server (admins only)."""
    lang = lang_of(interaction)
    if not _may_manage(interaction):
        await reply(interaction, t(lang, "theme.admin_only"))
        return
    if file.size > MAX_THEME_BYTES:  # refused before downloading it
        error = InvalidData("file_too_large", "file", maximum=MAX_THEME_BYTES, size=file.size)
        await reply(interaction, explain_file_problem(lang, error))
        return
    data = await file.read()
    try:
        theme = parse_theme_file(data, reserved=set(available_themes()))
    except InvalidData as error:
        await reply(interaction, explain_file_problem(lang, error))
        return
    replaced = await cog.service.store.save_guild_theme(
        interaction.guild_id or 0, theme.id, theme_to_dict(theme), interaction.user.id
    )
    key = "theme.replaced" if replaced else "theme.saved"
    await reply(interaction, t(lang, key, name=_name(theme.name, lang), id=theme.id))


async def list_themes(cog: MonopolyCog, interaction: discord.Interaction) -> None:
    """Every theme a lobby of this server can use, the server's own marked."""
    lang = lang_of(interaction)
    lines = [t(lang, "theme.list_title")]
    for theme_id in available_themes():
        theme = load_theme(theme_id)
        lines.append(t(lang, "theme.list_builtin", name=_name(theme.name, lang), id=theme_id))
    own = await cog.service.store.guild_themes(interaction.guild_id or 0)
    for theme_id, raw in own.items():
        lines.append(t(lang, "theme.list_own", name=_name(raw["name"], lang), id=theme_id))
    if not own:
        lines.append(t(lang, "theme.list_none_own"))
    await reply(interaction, "\n".join(lines)[:1900])


async def remove(cog: MonopolyCog, interaction: discord.Interaction, theme_id: str) -> None:
    """Delete one of the server's themes (admins only); games using it keep their copy."""
    lang = lang_of(interaction)
    if not _may_manage(interaction):
        await reply(interaction, t(lang, "theme.admin_only"))
        return
    if await cog.service.store.delete_guild_theme(interaction.guild_id or 0, theme_id):
        await reply(interaction, t(lang, "theme.removed", id=theme_id))
    else:
        await reply(interaction, t(lang, "theme.not_found", id=theme_id))


async def suggestions(
    cog: MonopolyCog, interaction: discord.Interaction, current: str, *, own_only: bool = False
) -> list[app_commands.Choice[str]]:
    """Autocomplete: the shipped themes and the server's own whose id or name matches."""
    lang = lang_of(interaction)
    found: list[tuple[str, str]] = []
    if not own_only:
        found += [(load_theme(i).name.get(lang) or i, i) for i in available_themes()]
    own = await cog.service.store.guild_themes(interaction.guild_id or 0)
    found += [(_name(raw["name"], lang), i) for i, raw in own.items()]
    needle = current.casefold()
    return [
        app_commands.Choice(name=f"{name} ({theme_id})"[:100], value=theme_id)
        for name, theme_id in found
        if needle in theme_id or needle in name.casefold()
    ][:AUTOCOMPLETE_MAX]


async def resolve(
    cog: MonopolyCog, guild_id: int, theme_id: str | None, preset: str
) -> dict[str, Any]:
    """The lobby settings for ``theme_id``: ``theme`` and, for a server theme, ``theme_data``.

    Raises :class:`IllegalAction` for an unknown theme or one made for another board than
    the preset's.
    """
    if not theme_id:
        return {"theme": None}
    board = Rules.from_preset(preset).board
    if theme_id in available_themes():
        theme = load_theme(theme_id)
        settings: dict[str, Any] = {"theme": theme_id}
    else:
        own = await cog.service.store.guild_themes(guild_id)
        if theme_id not in own:
            raise IllegalAction("unknown_theme", theme=theme_id)
        raw = own[theme_id]
        theme = theme_from_dict(raw, load_board(raw["base_board"]))
        settings = {"theme": theme_id, "theme_data": raw}
    if theme.base_board != board:
        raise IllegalAction("theme_board", theme=theme_id, board=theme.base_board, preset=preset)
    return settings


def _name(names: dict[str, str], lang: str) -> str:
    return names.get(lang) or next(iter(names.values()))
