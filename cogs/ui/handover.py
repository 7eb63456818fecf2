"""The public message of a seat being handed to another member, in each of its stages.

One message carries the whole request (``bot/asyncplay/handover.py``): the member is
asked (**Accept** / **Decline**, and **Withdraw** for the asking player), then the host
confirms (**Confirm** / **Refuse**) or, if the host is the one leaving, the table votes
(**Yes** / **No**, with the tally); at the end the message says what came of it and loses
its buttons. Custom ids ``m:{game}:{seq}:ho_{answer}:{seat}-{request}`` (routed in
``cogs/core/routes.py``): the seat and the request's number are all a click needs, so the
buttons work after a restart and a click on a closed request is recognised.
"""

from __future__ import annotations

from typing import Any

import discord

from bot.asyncplay import handover
from bot.cardgame import CardState
from bot.engine.state import GameState
from bot.i18n import t
from bot.settings import GameSettings
from cogs.ui.ids import GameButton
from cogs.ui.text import mention, mentions

#: The buttons of each stage: (answer, style).
STAGE_BUTTONS = {
    handover.ASKED: (
        ("accept", discord.ButtonStyle.success),
        ("decline", discord.ButtonStyle.danger),
        ("withdraw", discord.ButtonStyle.secondary),
    ),
    handover.CONFIRM: (
        ("confirm", discord.ButtonStyle.success),
        ("refuse", discord.ButtonStyle.danger),
        ("withdraw", discord.ButtonStyle.secondary),
    ),
    handover.VOTE: (
        ("yes", discord.ButtonStyle.success),
        ("no", discord.ButtonStyle.danger),
        ("withdraw", discord.ButtonStyle.secondary),
    ),
}


def _text(
    state: GameState | CardState, settings: GameSettings, seat: int, request: dict[str, Any]
) -> str:
    lang = settings.lobby.lang
    names = {"player": request["from_name"], "target": request["to_name"]}
    newcomer = mention(request["to_id"], request["to_name"])
    stage = request["stage"]
    if stage == handover.ASKED:
        return t(lang, "handover.asked", mention=newcomer, **names)
    if stage == handover.CONFIRM:
        host = mention(settings.lobby.host or "", "?")
        return t(lang, "handover.confirm", host=host, **names)
    table = handover.table_of(state, settings, seat)
    yes, no = handover.tally(request["ballots"], table)
    return t(
        lang,
        "handover.vote",
        voters=mentions(state, table),  # type: ignore[arg-type]
        yes=yes,
        no=no,
        **names,
    )


def handover_message(
    game: int,
    state: GameState | CardState,
    settings: GameSettings,
    seat: int,
    request: dict[str, Any],
) -> dict[str, Any]:
    """The open request on ``seat`` at its stage: text (with mentions) and buttons."""
    lang = settings.lobby.lang
    view = discord.ui.View(timeout=None)
    arg = handover.button_arg(seat, request)
    for answer, style in STAGE_BUTTONS[request["stage"]]:
        view.add_item(
            GameButton(
                game,
                state.seq,
                f"ho_{answer}",
                arg,
                label=t(lang, f"handover.button.{answer}"),
                style=style,
            )
        )
    return {"content": _text(state, settings, seat, request), "view": view}


def closed_message(
    settings: GameSettings, request: dict[str, Any], result: str, **extra: Any
) -> dict[str, Any]:
    """The request's message once it is over (``result``: declined, withdrawn, refused,
    confirmed, confirmed_host or failed, with its ``reason``), without buttons."""
    lang = settings.lobby.lang
    text = t(
        lang,
        f"handover.{result}",
        player=request["from_name"],
        target=request["to_name"],
        **extra,
    )
    return {"content": text, "view": None}


def with_former(name: str, former: list[str], lang: str) -> str:
    """A player's name with whom they took the seat over from: "bob (übernommen von
    alice)"; the name alone if nobody handed the seat over."""
    if not former:
        return name
    return t(lang, "handover.took_over", player=name, former=", ".join(former))
