"""The rules of play over days, without Discord: time settings, timers, absent players.

* :mod:`bot.asyncplay.timing` — the time settings of a game and their defaults.
* :mod:`bot.asyncplay.planner` — which durable timers a game needs now (deadlines,
  reminders, computer moves, closing times, digest), pause and resume.
* :mod:`bot.asyncplay.absence` — missed deadlines, the table's vote, computer seats and
  vacation: read-modify-write of a game's settings, as pure functions.

The Discord layer (``cogs/asyncplay.py``) only shows what these decide.
"""
