"""The Discord adapter: cogs with the slash commands, buttons and messages.

Each cog turns Discord interactions into calls on the rules engine (:mod:`bot.engine`),
stores the results and shows them in the channel. Cogs are loaded by
:class:`bot.app.MonopolyBot` from :data:`bot.app.EXTENSIONS`.
"""
