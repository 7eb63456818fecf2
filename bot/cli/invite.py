"""``monopoly-bot invite``: the OAuth2 link that adds the bot to a server, asking for
exactly the permissions the bot checks (bot/permissions.py)."""

from __future__ import annotations

import argparse
import os
import sys

from bot.permissions import INVITE_PERMISSIONS, permissions_value

#: Discord's OAuth2 authorisation page.
AUTHORIZE_URL = "https://discord.com/oauth2/authorize"
#: The scopes: the bot user, and its slash commands.
SCOPES = ("bot", "applications.commands")
#: Where the client id is found, for the message when it is missing.
CLIENT_ID_HINT = (
    "give --client-id ID (the Application ID on https://discord.com/developers/applications, "
    "General Information)"
)


def invite_url(client_id: int, permissions: int | None = None) -> str:
    """The invite link of application ``client_id`` asking for ``permissions`` (default:
    every permission the bot checks, :data:`~bot.permissions.INVITE_PERMISSIONS`)."""
    if permissions is None:
        permissions = permissions_value(INVITE_PERMISSIONS)
    scope = "+".join(SCOPES)
    return f"{AUTHORIZE_URL}?client_id={client_id}&scope={scope}&permissions={permissions}"


def configured_token() -> str | None:
    """``DISCORD_TOKEN`` as the bot reads it (the environment, else ``.env``), without the
    other settings: a wrong shard setting need not stop the invite."""
    from bot.config import load_dotenv

    for values in (os.environ, load_dotenv()):
        token = values.get("DISCORD_TOKEN", "").strip()
        if token:
            return token
    return None


def cmd_invite(args: argparse.Namespace) -> int:
    """``monopoly-bot invite [--client-id ID]``: print the bot's invite link.

    The client id is ``--client-id``, else the bot's id that ``DISCORD_TOKEN`` encodes
    (its first part); without either, one line on stderr and exit code 2.
    """
    from bot.config import token_client_id

    client_id = args.client_id
    if client_id is None:
        token = configured_token()
        client_id = token_client_id(token)
        if client_id is None:
            why = "no DISCORD_TOKEN is set" if token is None else "DISCORD_TOKEN holds none"
            print(f"monopoly-bot invite: no client id: {why}; {CLIENT_ID_HINT}", file=sys.stderr)
            return 2
    print(invite_url(client_id))
    return 0
