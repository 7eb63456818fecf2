"""The Discord permissions the bot needs, in one place.

``/monopoly start`` (cogs/lobby.py) checks them in the channel before it opens a lobby, the
publisher (cogs/core/publisher.py) names the missing ones when a post fails, and
``monopoly-bot invite`` asks for exactly these in its invite link, so the three cannot
drift apart. Names are the attributes of :class:`discord.Permissions`.
"""

from __future__ import annotations

from collections.abc import Iterable

#: What the bot needs in a game's channel: see it, post there with embeds and images
#: (the board), and read its messages back to edit them.
CHANNEL_PERMISSIONS = (
    "view_channel",
    "send_messages",
    "embed_links",
    "attach_files",
    "read_message_history",
)
#: What a game in a thread needs besides: a new public thread of the channel
#: (``/monopoly start where:thread``) and posts inside threads.
THREAD_PERMISSIONS = ("create_public_threads", "send_messages_in_threads")
#: Everything the bot may check, and so everything its invite link asks for.
INVITE_PERMISSIONS = CHANNEL_PERMISSIONS + THREAD_PERMISSIONS


def permissions_value(names: Iterable[str]) -> int:
    """The permission integer of ``names`` (the ``permissions=`` of an invite link).

    Raises TypeError for a name that is no Discord permission.
    """
    import discord  # here: the invite command needs nothing else of discord.py

    return discord.Permissions(**dict.fromkeys(names, True)).value
