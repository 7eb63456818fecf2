"""MONOPOLY for Discord: the bot process (configuration, logging, start-up).

The pure rules engine lives in :mod:`bot.engine`; the Discord adapter in :mod:`cogs`;
board images are drawn by :mod:`render`.
"""
