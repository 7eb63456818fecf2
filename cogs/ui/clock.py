"""The move's deadline as the messages show it: its real end, who slept, jokers left.

Discord writes ``<t:…:f>`` in each reader's own time zone and language, so the end is
shown that way (with ``<t:…:R>``, "in 3 hours"). If quiet hours moved the deadline, the
line says whose; and the jokers the waiting players have left follow.
"""

from __future__ import annotations

from bot.asyncplay import absence
from bot.i18n import t
from bot.settings import GameSettings
from bot.store.kinds import AnyState, waiting_for

#: Discord's limit of an embed field's value.
FIELD_MAX = 1024


def deadline_text(state: AnyState, settings: GameSettings) -> str | None:
    """The deadline field's value, or None when the move has no deadline."""
    at = settings.play.deadline_at
    if not at or settings.play.paused:
        return None
    lang = settings.lobby.lang
    lines = [f"<t:{at}:f> (<t:{at}:R>)"]
    quiet = [int(seat) for seat in settings.play.deadline_quiet]
    if quiet:
        names = ", ".join(state.players[seat].name for seat in quiet)
        lines.append(t(lang, "quiet.moved", players=names))
    if settings.timing.jokers > 0:
        computer = absence.computer_seats(settings)
        seats = [seat for seat in waiting_for(state) if seat not in computer]
        if seats:
            left = " · ".join(
                f"{state.players[seat].name} {absence.jokers_left(settings, seat)}"
                for seat in seats[:6]
            )
            lines.append(t(lang, "joker.left", players=left))
    text = "\n".join(lines)
    return text if len(text) <= FIELD_MAX else text[: FIELD_MAX - 1] + "…"
