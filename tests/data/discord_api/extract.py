"""Keep the parts of Discord's OpenAPI description that tests/discord_limits.py checks.

Run from the repository's root with the spec's file and its commit::

    git -C <clone of discord/discord-api-spec> show HEAD:specs/openapi.json > /tmp/openapi.json
    python tests/data/discord_api/extract.py /tmp/openapi.json <commit> <commit date>

It writes ``schemas.json`` next to this file: the request bodies of the operations the bot
calls (:data:`OPERATIONS`) and every schema they reach, with the ``$ref`` pointers rewritten
to point into the kept file (``#/schemas/<name>``). Alternatives of a ``oneOf``/``anyOf``
the bot never sends (:data:`LEFT_OUT`: other component kinds, polls, activities...) are
dropped and named under ``x-left-out``, so a payload using one fails the check instead of
passing unchecked. Nothing else of the spec is kept.
"""

from __future__ import annotations

import json
import sys
from pathlib import Path
from typing import Any

#: The operations whose request bodies are kept, by the spec's operationId.
OPERATIONS = {
    "bulk_set_application_commands": ("/applications/{application_id}/commands", "put"),
    "bulk_set_guild_application_commands": (
        "/applications/{application_id}/guilds/{guild_id}/commands",
        "put",
    ),
    "create_message": ("/channels/{channel_id}/messages", "post"),
    "update_message": ("/channels/{channel_id}/messages/{message_id}", "patch"),
    "create_interaction_response": (
        "/interactions/{interaction_id}/{interaction_token}/callback",
        "post",
    ),
    "execute_webhook": ("/webhooks/{webhook_id}/{webhook_token}", "post"),
    "update_original_webhook_message": (
        "/webhooks/{webhook_id}/{webhook_token}/messages/@original",
        "patch",
    ),
}

#: Schemas the bot never sends: left out where they are one of several alternatives.
LEFT_OUT = frozenset(
    {
        # Components v2 and the other selects: the bot sends action rows of buttons and
        # string selects, and modals of labels around text inputs.
        "ContainerComponentForMessageRequest",
        "FileComponentForMessageRequest",
        "MediaGalleryComponentForMessageRequest",
        "SectionComponentForMessageRequest",
        "SeparatorComponentForMessageRequest",
        "TextDisplayComponentForMessageRequest",
        "ChannelSelectComponentForMessageRequest",
        "MentionableSelectComponentForMessageRequest",
        "RoleSelectComponentForMessageRequest",
        "UserSelectComponentForMessageRequest",
        "ChannelSelectComponentForModalRequest",
        "CheckboxComponentForModalRequest",
        "CheckboxGroupComponentForModalRequest",
        "FileUploadComponentForModalRequest",
        "MentionableSelectComponentForModalRequest",
        "RadioGroupComponentForModalRequest",
        "RoleSelectComponentForModalRequest",
        "StringSelectComponentForModalRequest",
        "UserSelectComponentForModalRequest",
        "TextDisplayComponentForModalRequest",
        # Option kinds the command tree has none of.
        "ApplicationCommandChannelOption",
        "ApplicationCommandMentionableOption",
        "ApplicationCommandNumberOption",
        "ApplicationCommandRoleOption",
        "InteractionApplicationCommandAutocompleteCallbackNumberData",
        # Interaction answers the bot never gives.
        "LaunchActivityInteractionCallbackRequest",
        "PongInteractionCallbackRequest",
        "SocialLayerSKUPurchaseEligibilityInteractionCallbackRequest",
        # Message parts the bot never sends.
        "PollCreateRequest",
        "CustomClientThemeShareRequest",
        "MessageReferenceRequest",
        "ApplicationCommandHandler",
    }
)

PREFIX = "#/components/schemas/"


def body_schema(spec: dict[str, Any], path: str, method: str) -> dict[str, Any]:
    """The JSON request body's schema of one operation."""
    return spec["paths"][path][method]["requestBody"]["content"]["application/json"]["schema"]


def keep(node: Any, schemas: dict[str, Any], kept: dict[str, Any]) -> Any:
    """``node`` with its refs rewritten, left-out alternatives dropped; what it reaches
    is added to ``kept``."""
    if isinstance(node, list):
        return [keep(item, schemas, kept) for item in node]
    if not isinstance(node, dict):
        return node
    out: dict[str, Any] = {}
    for key, value in node.items():
        if key in ("oneOf", "anyOf"):
            dropped = [v["$ref"][len(PREFIX) :] for v in value if _left_out(v)]
            out[key] = [keep(v, schemas, kept) for v in value if not _left_out(v)]
            if dropped:
                out["x-left-out"] = dropped
        elif key == "$ref":
            name = value[len(PREFIX) :]
            out[key] = f"#/schemas/{name}"
            if name not in kept:
                kept[name] = None  # reserved: a schema may refer to itself
                kept[name] = keep(schemas[name], schemas, kept)
        else:
            out[key] = keep(value, schemas, kept)
    return out


def _left_out(node: Any) -> bool:
    return isinstance(node, dict) and node.get("$ref", "")[len(PREFIX) :] in LEFT_OUT


def extract(spec: dict[str, Any], commit: str, date: str) -> dict[str, Any]:
    """The kept document: where it came from, the operations' bodies and their schemas."""
    schemas = spec["components"]["schemas"]
    kept: dict[str, Any] = {}
    operations = {
        name: {
            "path": path,
            "method": method.upper(),
            "body": keep(body_schema(spec, path, method), schemas, kept),
        }
        for name, (path, method) in OPERATIONS.items()
    }
    return {
        "source": {
            "repository": "https://github.com/discord/discord-api-spec",
            "commit": commit,
            "commit_date": date,
            "file": "specs/openapi.json",
            "info": spec["info"]["title"] + ", version " + spec["info"]["version"],
            "license": spec["info"]["license"]["name"],
            "note": "Request bodies of the operations below and the schemas they reach, "
            "unchanged except: $ref rewritten to #/schemas/<name>, alternatives the bot "
            "never sends dropped (named under x-left-out). Made by extract.py.",
        },
        "operations": operations,
        "schemas": dict(sorted(kept.items())),
    }


def main(argv: list[str]) -> None:
    """``extract.py <openapi.json> <commit> <commit date>``: write schemas.json."""
    spec_file, commit, date = argv
    spec = json.loads(Path(spec_file).read_text(encoding="utf-8"))
    document = extract(spec, commit, date)
    out = Path(__file__).with_name("schemas.json")
    out.write_text(json.dumps(document, indent=1, ensure_ascii=False) + "\n", encoding="utf-8")
    print(f"{out}: {len(document['schemas'])} schemas")


if __name__ == "__main__":
    main(sys.argv[1:])
