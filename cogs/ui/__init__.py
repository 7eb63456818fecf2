"""What the bot shows: embeds, views, persistent items, forms and texts, as functions of a
game's state and a language. Imports no other part of ``cogs`` (see docs/architecture.md)."""
