"""The alt text of the turn's picture: what it shows, in the game's language.

Whose turn, the throws, the way and what is due where the mover landed, then every
player's cash and net worth in seat order (as the picture lists them). Plain text, at
most :data:`ALT_MAX` characters (Discord's limit for an attachment's description).
"""

from __future__ import annotations

from bot.engine.state import GameState
from bot.engine.wealth import wealth
from render.turn_view.path import BACKWARD, FORWARD, JUMP, TurnFocus, passed_go, route, walked
from render.turn_view.words import Words, due_at, due_sentence

ALT_MAX = 1024
ELLIPSIS = "…"


def describe(state: GameState, focus: TurnFocus, words: Words, salary: int) -> str:
    """The alt text of the picture of ``focus`` (see the module's docstring)."""
    lab = words.lab
    mover = state.players[focus.mover]
    parts = [lab.text("tv_alt_turn", n=focus.turn, name=mover.name)]
    if focus.dice:
        throws = []
        for a, b in focus.dice:
            text = f"{a} + {b} = {a + b}"
            throws.append(f"{text} ({lab['tv_alt_doubles']})" if a == b else text)
        parts.append(lab.text("tv_alt_throws", dice=", ".join(throws)))
    elif not focus.moves:
        parts.append(lab["tv_alt_no_throw"])
    in_jail = mover.in_jail and mover.position == state.board.jail_index
    if focus.moves:
        way = []
        for (origin, target, how), walk in zip(focus.moves, walked(focus), strict=True):
            end = words.square(target % 40, in_jail=in_jail and target % 40 == focus.end)
            if how == JUMP:
                way.append(lab.text("tv_alt_jumped", b=end))
            elif how == FORWARD and not walk:
                way.append(lab.text("tv_alt_card", b=end))
            elif how == BACKWARD:
                way.append(lab.text("tv_alt_back", n=(origin - target) % 40, b=end))
            else:
                way.append(lab.text("tv_alt_walk", a=words.square(origin % 40), b=end))
        parts.append(lab.text("tv_alt_way", way=lab["tv_alt_then"].join(way)))
        if passed_go(route(focus, state.board)):
            go = words.squares[state.board.go_index]
            parts.append(lab.text("tv_alt_go", go=go, amount=words.money(salary)))
    else:
        square = words.square(focus.end, in_jail=in_jail)
        parts.append(lab.text("tv_alt_at", square=square))
    if focus.rolled:
        due = due_sentence(due_at(state, focus, focus.end), words, state)
        if due:
            parts.append(lab.text("tv_alt_due", due=due))
    head = " ".join(parts)
    for cut in (None, 24, 12):
        text = f"{head} {lab['tv_alt_standings']} {_standings(state, words, cut)}"
        if len(text) <= ALT_MAX:
            return text
    return text[: ALT_MAX - 1] + ELLIPSIS


def _standings(state: GameState, words: Words, cut: int | None) -> str:
    """Every player's cash and net worth; names cut to ``cut`` characters if given."""
    lab = words.lab
    rows = []
    for seat, player in enumerate(state.players):
        name = player.name
        if cut is not None and len(name) > cut:
            name = name[: cut - 1] + ELLIPSIS
        if player.bankrupt:
            rows.append(f"{name} {lab['bankrupt']}")
            continue
        if player.in_jail:
            name = f"{name} ({lab['in_jail']})"
        rows.append(
            lab.text(
                "tv_alt_player",
                name=name,
                cash=words.money(player.cash),
                worth=words.money(wealth(state, seat)),
            )
        )
    return "; ".join(rows) + "."
