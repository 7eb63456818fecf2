"""Board images: a pure Pillow renderer of game states.

Takes engine state and returns image bytes (PNG). It does not import ``discord``,
so it can be used and tested without a bot.
"""
