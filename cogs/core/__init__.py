"""The one path every action takes, shared by the feature cogs.

``interaction → route (routes.py) → dispatcher (dispatch.py: defer, who may click, game
lock, error boundary) → GameService.act → store → publisher (publisher.py and its
board_messages / card_messages: posts and edits messages, guarded) → timers planned
(``bot.asyncplay.planner``)``. A game left without its live message or its timers is put
right by the reconciler (reconcile.py). Nothing here imports a feature cog: routes name
their handlers by cog and method name.
"""
