"""Localised slash-command names and descriptions (German; English is the source text).

discord.py asks the translator for every name and description when the command
tree is synced; we answer from the same catalogs as every other text, under keys
``cmd.<qualified name>.name`` / ``.description`` and
``cmd.<qualified name>.<parameter>.name`` / ``.description``, and
``choice.<value>`` for choices.
"""

from __future__ import annotations

from discord import Locale, app_commands

from bot.i18n import catalog

GERMAN = frozenset({Locale.german})


def catalog_key(context: app_commands.TranslationContext, message: str) -> str | None:
    """The catalog key for a string discord.py wants translated, or None."""
    location = context.location
    data = context.data
    kinds = app_commands.TranslationContextLocation
    if location in (kinds.command_name, kinds.group_name):
        return f"cmd.{data.qualified_name}.name"
    if location in (kinds.command_description, kinds.group_description):
        return f"cmd.{data.qualified_name}.description"
    if location == kinds.parameter_name:
        return f"cmd.{data.command.qualified_name}.{data.name}.name"
    if location == kinds.parameter_description:
        return f"cmd.{data.command.qualified_name}.{data.name}.description"
    if location == kinds.choice_name:
        return f"choice.{message}"
    return None


class CatalogTranslator(app_commands.Translator):
    """Translates command names, descriptions and choices into German."""

    async def translate(
        self,
        string: app_commands.locale_str,
        locale: Locale,
        context: app_commands.TranslationContext,
    ) -> str | None:
        """The German text for ``string``, or None to keep the English source."""
        if locale not in GERMAN:
            return None
        key = catalog_key(context, string.message)
        return catalog("de").get(key) if key else None
