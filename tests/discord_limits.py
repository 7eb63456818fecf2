"""Discord's published limits, checked against the JSON the bot sends.

Two sources, both public:

* the OpenAPI description of Discord's HTTP API (``discord/discord-api-spec``): the request
  bodies of the calls the bot makes and the schemas they reach, kept with their commit in
  ``tests/data/discord_api/schemas.json`` (made by ``extract.py`` there). A small checker
  of the JSON Schema keywords that file uses (:class:`Schemas`) reads it: types, enums and
  consts, string lengths and patterns, number ranges, item and property counts, required
  properties, ``$ref``, ``oneOf``/``anyOf``/``allOf``;
* the rules of Discord's documentation that the OpenAPI file does not encode (embed totals,
  a bot's 2 000 characters of content, five action rows, the command name's regex, the
  8 000 characters of a command, ...): :func:`message_rules`, :func:`modal_rules`,
  :func:`command_rules`, :func:`autocomplete_rules`.

:func:`check_request` applies both to the body of one call. Lengths are counted in code
points (Python's ``len``), as Discord's API counts them.

The payloads themselves are built with discord.py's own functions (:func:`message_bodies`,
:func:`modal_body`), so what is checked is what discord.py would put on the wire.
"""

from __future__ import annotations

import json
import re
import unicodedata
from collections.abc import Iterator
from dataclasses import dataclass
from functools import cache
from pathlib import Path
from typing import Any

import discord
from discord.http import handle_message_parameters
from discord.webhook.async_ import interaction_message_response_params, interaction_response_params

SCHEMA_FILE = Path(__file__).resolve().parent / "data" / "discord_api" / "schemas.json"

# -- the documented limits the OpenAPI file does not encode (or encodes looser) ---------------

#: Characters of a bot's message content (the OpenAPI file allows 4 000: Nitro users').
CONTENT_MAX = 2000
#: All embeds of one message together: title, description, field names and values,
#: footer text and author name.
EMBEDS_TOTAL_MAX = 6000
EMBED_TITLE_MAX = 256
EMBED_DESCRIPTION_MAX = 4096
EMBED_FIELDS_MAX = 25
FIELD_NAME_MAX = 256
FIELD_VALUE_MAX = 1024
FOOTER_MAX = 2048
AUTHOR_MAX = 256
EMBEDS_MAX = 10
ATTACHMENTS_MAX = 10
ALT_TEXT_MAX = 1024
#: Action rows of a message without the components-v2 flag, and items of a row.
ROWS_MAX = 5
ROW_ITEMS_MAX = 5
BUTTON_LABEL_MAX = 80
CUSTOM_ID_MAX = 100
SELECT_OPTIONS_MAX = 25
OPTION_TEXT_MAX = 100
SELECT_PLACEHOLDER_MAX = 150
MODAL_TITLE_MAX = 45
MODAL_COMPONENTS_MAX = 5
LABEL_TEXT_MAX = 45
LABEL_DESCRIPTION_MAX = 100
TEXT_INPUT_PLACEHOLDER_MAX = 100
TEXT_INPUT_VALUE_MAX = 4000
COMMAND_NAME_MAX = 32
COMMAND_DESCRIPTION_MAX = 100
COMMAND_OPTIONS_MAX = 25
CHOICES_MAX = 25
CHOICE_NAME_MAX = 100
CHOICE_STRING_VALUE_MAX = 100
#: Characters of one command: its name, description and every option's, subcommand's,
#: group's and choice's name, description and value; for a field with translations only
#: its longest text counts.
COMMAND_TOTAL_MAX = 8000
#: Slash commands of one application (globally, or in one server).
CHAT_COMMANDS_MAX = 100

#: The locales Discord takes translations for.
LOCALES = frozenset(locale.value for locale in discord.Locale)
#: Component types (Discord's numbers).
ACTION_ROW, BUTTON, STRING_SELECT, TEXT_INPUT, TEXT_DISPLAY, LABEL = 1, 2, 3, 4, 10, 18
LINK_STYLE, PREMIUM_STYLE = 5, 6
SUBCOMMAND, GROUP, STRING_OPTION = 1, 2, 3
CHAT_INPUT = 1
#: Interaction callback types the bot answers with.
MESSAGE_ANSWER, DEFERRED_ANSWER, DEFERRED_UPDATE, UPDATE_ANSWER = 4, 5, 6, 7
AUTOCOMPLETE_ANSWER, MODAL_ANSWER = 8, 9
#: The flag that switches a message to components v2 (no action-row limit then).
COMPONENTS_V2 = 1 << 15


@dataclass(frozen=True)
class Problem:
    """One limit a payload breaks: where (a JSON path) and what."""

    where: str
    what: str

    def __str__(self) -> str:
        return f"{self.where or '(body)'}: {self.what}"


def _at(where: str, key: str | int) -> str:
    if isinstance(key, int):
        return f"{where}[{key}]"
    if not key or not where:
        return where or key
    return f"{where}.{key}"


def _short(value: Any) -> str:
    """``value`` for a message: a text or number as it is (cut), an object or list by kind."""
    if isinstance(value, dict):
        return "an object" + (f" of type {value['type']}" if "type" in value else "")
    if isinstance(value, list):
        return f"a list of {len(value)}"
    text = json.dumps(value, ensure_ascii=False)
    return text if len(text) <= 80 else text[:77] + "..."


# -- the OpenAPI schemas --------------------------------------------------------------------


class Schemas:
    """The kept part of Discord's OpenAPI description and a checker for its keywords."""

    def __init__(self, document: dict[str, Any]) -> None:
        self.source: dict[str, Any] = document["source"]
        self.operations: dict[str, Any] = document["operations"]
        self.schemas: dict[str, Any] = document["schemas"]
        #: (schema, object) pairs checked before without a problem (see :meth:`_item`).
        self.fine: set[tuple[int, str]] = set()

    def body(self, operation: str) -> dict[str, Any]:
        """The request body's schema of an operation (by the spec's operationId)."""
        return self.operations[operation]["body"]

    def resolve(self, ref: str) -> dict[str, Any]:
        """The schema a kept ``$ref`` (``#/schemas/<name>``) points to."""
        prefix = "#/schemas/"
        if not ref.startswith(prefix) or ref[len(prefix) :] not in self.schemas:
            raise KeyError(f"{ref} is not in {SCHEMA_FILE.name}: run extract.py again")
        return self.schemas[ref[len(prefix) :]]

    def check(self, value: Any, schema: dict[str, Any], where: str = "") -> list[Problem]:
        """Every way ``value`` breaks ``schema`` (JSON Schema, the keywords the file uses)."""
        problems: list[Problem] = []
        if "$ref" in schema:
            problems += self.check(value, self.resolve(schema["$ref"]), where)
        if not self._typed(value, schema, where, problems):
            return problems
        if "enum" in schema and value not in schema["enum"]:
            problems.append(Problem(where, f"{_short(value)} is not one of {schema['enum']}"))
        if "const" in schema and value != schema["const"]:
            problems.append(Problem(where, f"{_short(value)} is not {schema['const']!r}"))
        for part in schema.get("allOf", []):
            problems += self.check(value, part, where)
        if "oneOf" in schema:
            problems += self._alternatives(value, schema, "oneOf", where)
        if "anyOf" in schema:
            problems += self._alternatives(value, schema, "anyOf", where)
        if isinstance(value, str):
            problems += _string(value, schema, where)
        elif isinstance(value, int | float) and not isinstance(value, bool):
            problems += _number(value, schema, where)
        elif isinstance(value, list):
            problems += self._array(value, schema, where)
        elif isinstance(value, dict):
            problems += self._object(value, schema, where)
        return problems

    def _typed(self, value: Any, schema: dict[str, Any], where: str, out: list[Problem]) -> bool:
        """Check ``type``: False if nothing more is to be checked (a problem added if the
        value has none of the types)."""
        if _number_as_snowflake(value, schema):
            return False
        if _types_fit(value, schema):
            return True
        allowed = [schema["type"]] if isinstance(schema["type"], str) else schema["type"]
        out.append(Problem(where, f"{_short(value)} is not of type {' or '.join(allowed)}"))
        return False

    def _alternatives(
        self, value: Any, schema: dict[str, Any], keyword: str, where: str
    ) -> list[Problem]:
        branches = [self._resolved(branch) for branch in schema[keyword]]
        # Only the alternatives the value can be (its JSON type, its "type" number) are
        # checked in full: the others cannot fit, and checking them all is slow.
        candidates = [branch for branch in branches if self._may_fit(value, branch)]
        results = [self.check(value, branch, where) for branch in candidates]
        fitting = [found for found in results if not found]
        if keyword == "oneOf" and len(fitting) > 1:
            return [Problem(where, f"{_short(value)} fits several alternatives of oneOf")]
        if fitting:
            return []
        if not candidates:
            left_out = schema.get("x-left-out", [])
            # A kind the bot was not expected to send: keep its schema (extract.py) first.
            kept = f" (left out: {', '.join(left_out)})" if left_out else ""
            return [Problem(where, f"{_short(value)} fits none of the alternatives{kept}")]
        return min(results, key=len)

    def _resolved(self, branch: dict[str, Any]) -> dict[str, Any]:
        """A ``$ref`` alone resolved (other schemas as they are)."""
        if set(branch) == {"$ref"}:
            return self.resolve(branch["$ref"])
        return branch

    @staticmethod
    def _may_fit(value: Any, branch: dict[str, Any]) -> bool:
        """False if ``branch`` cannot fit ``value``: another JSON type, another const or
        another component, option or callback ``type`` number."""
        if not _types_fit(value, branch) and not _number_as_snowflake(value, branch):
            return False
        if "const" in branch and branch["const"] != value:
            return False
        if isinstance(value, dict) and "type" in value:
            kinds = branch.get("properties", {}).get("type", {}).get("enum")
            if kinds is not None and value["type"] not in kinds:
                return False
        return True

    def _array(self, value: list[Any], schema: dict[str, Any], where: str) -> list[Problem]:
        problems = []
        if "minItems" in schema and len(value) < schema["minItems"]:
            problems.append(Problem(where, f"{len(value)} items, at least {schema['minItems']}"))
        if "maxItems" in schema and len(value) > schema["maxItems"]:
            problems.append(Problem(where, f"{len(value)} items, at most {schema['maxItems']}"))
        if schema.get("uniqueItems"):
            seen = [json.dumps(item, sort_keys=True) for item in value]
            if len(set(seen)) != len(seen):
                problems.append(Problem(where, "items repeat"))
        if "items" in schema:
            for index, item in enumerate(value):
                problems += self._item(item, schema["items"], _at(where, index))
        return problems

    def _item(self, item: Any, schema: dict[str, Any], where: str) -> list[Problem]:
        """Check a list's item; an object found fine against the same schema before is not
        checked again (the same embed or row of buttons comes in many bodies)."""
        if not isinstance(item, dict):
            return self.check(item, schema, where)
        key = (id(schema), json.dumps(item, sort_keys=True))
        if key in self.fine:
            return []
        problems = self.check(item, schema, where)
        if not problems:
            self.fine.add(key)
        return problems

    def _object(self, value: dict[str, Any], schema: dict[str, Any], where: str) -> list[Problem]:
        problems = []
        for name in schema.get("required", []):
            if name not in value:
                problems.append(Problem(_at(where, name), "is required"))
        properties = schema.get("properties", {})
        extra = schema.get("additionalProperties", True)
        for name, item in value.items():
            if name in properties:
                problems += self.check(item, properties[name], _at(where, name))
            elif extra is False:
                problems.append(Problem(_at(where, name), "is not a known property"))
            elif isinstance(extra, dict):
                problems += self.check(item, extra, _at(where, name))
        if "maxProperties" in schema and len(value) > schema["maxProperties"]:
            problems.append(Problem(where, f"more than {schema['maxProperties']} properties"))
        return problems


def _types_fit(value: Any, schema: dict[str, Any]) -> bool:
    """Whether ``value`` has one of the JSON types ``schema`` allows (any without ``type``)."""
    types = schema.get("type")
    if types is None:
        return True
    return any(_is(value, kind) for kind in ([types] if isinstance(types, str) else types))


def _number_as_snowflake(value: Any, schema: dict[str, Any]) -> bool:
    """An id (snowflake) sent as a number: Discord reads those, too, and discord.py sends an
    attachment's id as the file's index, a number."""
    return schema.get("format") == "snowflake" and _is(value, "integer") and value >= 0


def _is(value: Any, kind: str) -> bool:
    """Whether ``value`` is of the JSON type ``kind``."""
    if kind == "integer":
        return isinstance(value, int) and not isinstance(value, bool)
    if kind == "number":
        return isinstance(value, int | float) and not isinstance(value, bool)
    python = {"string": str, "boolean": bool, "object": dict, "array": list, "null": type(None)}
    return isinstance(value, python[kind])


def _string(value: str, schema: dict[str, Any], where: str) -> list[Problem]:
    problems = []
    if "minLength" in schema and len(value) < schema["minLength"]:
        problems.append(Problem(where, f"{len(value)} characters, at least {schema['minLength']}"))
    if "maxLength" in schema and len(value) > schema["maxLength"]:
        problems.append(
            Problem(
                where, f"{len(value)} characters, at most {schema['maxLength']}: {_short(value)}"
            )
        )
    if "pattern" in schema and re.search(schema["pattern"], value) is None:
        problems.append(Problem(where, f"{_short(value)} does not match {schema['pattern']}"))
    return problems


def _number(value: float, schema: dict[str, Any], where: str) -> list[Problem]:
    problems = []
    if "minimum" in schema and value < schema["minimum"]:
        problems.append(Problem(where, f"{value} is below {schema['minimum']}"))
    if "maximum" in schema and value > schema["maximum"]:
        problems.append(Problem(where, f"{value} is above {schema['maximum']}"))
    return problems


@cache
def schemas() -> Schemas:
    """The kept schemas (read once)."""
    return Schemas(json.loads(SCHEMA_FILE.read_text(encoding="utf-8")))


# -- documented rules: messages -------------------------------------------------------------


def _too_long(where: str, text: Any, limit: int, what: str = "") -> list[Problem]:
    if isinstance(text, str) and len(text) > limit:
        label = f"{what} " if what else ""
        return [Problem(where, f"{label}{len(text)} characters, at most {limit}: {_short(text)}")]
    return []


def embed_rules(embeds: list[dict[str, Any]], where: str = "embeds") -> list[Problem]:
    """The documented limits of a message's embeds, each and all together."""
    problems = []
    if len(embeds) > EMBEDS_MAX:
        problems.append(Problem(where, f"{len(embeds)} embeds, at most {EMBEDS_MAX}"))
    total = 0
    for index, embed in enumerate(embeds):
        at = _at(where, index)
        title, description = embed.get("title") or "", embed.get("description") or ""
        problems += _too_long(_at(at, "title"), title, EMBED_TITLE_MAX)
        problems += _too_long(_at(at, "description"), description, EMBED_DESCRIPTION_MAX)
        total += len(title) + len(description)
        fields = embed.get("fields") or []
        if len(fields) > EMBED_FIELDS_MAX:
            problems.append(Problem(at, f"{len(fields)} fields, at most {EMBED_FIELDS_MAX}"))
        for number, field in enumerate(fields):
            place = _at(_at(at, "fields"), number)
            name, value = field.get("name") or "", field.get("value") or ""
            problems += _too_long(_at(place, "name"), name, FIELD_NAME_MAX)
            problems += _too_long(_at(place, "value"), value, FIELD_VALUE_MAX)
            # Discord refuses an empty (or blank) field name or value: "This field is required".
            if not name.strip():
                problems.append(Problem(_at(place, "name"), "is empty"))
            if not value.strip():
                problems.append(Problem(_at(place, "value"), "is empty"))
            total += len(name) + len(value)
        footer = (embed.get("footer") or {}).get("text") or ""
        author = (embed.get("author") or {}).get("name") or ""
        problems += _too_long(_at(at, "footer.text"), footer, FOOTER_MAX)
        problems += _too_long(_at(at, "author.name"), author, AUTHOR_MAX)
        total += len(footer) + len(author)
    if total > EMBEDS_TOTAL_MAX:
        problems.append(
            Problem(where, f"{total} characters in all embeds together, at most {EMBEDS_TOTAL_MAX}")
        )
    return problems


def _button_rules(button: dict[str, Any], at: str) -> list[Problem]:
    problems = _too_long(_at(at, "label"), button.get("label"), BUTTON_LABEL_MAX)
    if not button.get("label") and not button.get("emoji"):
        problems.append(Problem(at, "a button needs a label or an emoji"))
    style = button.get("style")
    if style == LINK_STYLE:
        if not button.get("url") or button.get("custom_id"):
            problems.append(Problem(at, "a link button has a url and no custom_id"))
    elif style != PREMIUM_STYLE and not button.get("custom_id"):
        problems.append(Problem(_at(at, "custom_id"), "a button needs a custom_id"))
    return problems


def _select_rules(select: dict[str, Any], at: str) -> list[Problem]:
    problems = _too_long(_at(at, "placeholder"), select.get("placeholder"), SELECT_PLACEHOLDER_MAX)
    options = select.get("options") or []
    if not 1 <= len(options) <= SELECT_OPTIONS_MAX:
        problems.append(Problem(_at(at, "options"), f"{len(options)} options, 1 to 25"))
    values = [option.get("value") for option in options]
    if len(set(values)) != len(values):
        problems.append(Problem(_at(at, "options"), "option values repeat"))
    for index, option in enumerate(options):
        place = _at(_at(at, "options"), index)
        for key in ("label", "value", "description"):
            problems += _too_long(_at(place, key), option.get(key), OPTION_TEXT_MAX)
        for key in ("label", "value"):
            if not option.get(key):
                problems.append(Problem(_at(place, key), "is empty"))
    low = select.get("min_values", 1)
    high = select.get("max_values", 1)
    if not 0 <= low <= high <= min(len(options), SELECT_OPTIONS_MAX) or high < 1:
        problems.append(
            Problem(at, f"min_values {low}, max_values {high} for {len(options)} options")
        )
    defaults = sum(1 for option in options if option.get("default"))
    if defaults > high:
        problems.append(Problem(at, f"{defaults} options chosen by default, at most {high}"))
    return problems


def component_rules(
    components: list[dict[str, Any]], flags: int = 0, where: str = "components"
) -> list[Problem]:
    """The documented limits of a message's action rows, buttons and selects."""
    problems = []
    if not flags & COMPONENTS_V2 and len(components) > ROWS_MAX:
        problems.append(Problem(where, f"{len(components)} action rows, at most {ROWS_MAX}"))
    for index, row in enumerate(components):
        at = _at(where, index)
        if row.get("type") != ACTION_ROW:
            problems.append(Problem(at, f"type {row.get('type')}: not an action row"))
            continue
        items = row.get("components") or []
        if not 1 <= len(items) <= ROW_ITEMS_MAX:
            problems.append(Problem(at, f"{len(items)} components in a row, 1 to {ROW_ITEMS_MAX}"))
        kinds = [item.get("type") for item in items]
        if any(kind != BUTTON for kind in kinds) and len(items) > 1:
            problems.append(Problem(at, "a select fills its row alone"))
        for number, item in enumerate(items):
            place = _at(_at(at, "components"), number)
            problems += _too_long(_at(place, "custom_id"), item.get("custom_id"), CUSTOM_ID_MAX)
            if item.get("type") == BUTTON:
                problems += _button_rules(item, place)
            elif item.get("type") == STRING_SELECT:
                problems += _select_rules(item, place)
    problems += _unique_ids(_components_of(components), where)
    return problems


def _components_of(components: list[dict[str, Any]]) -> Iterator[dict[str, Any]]:
    """Every component, nested ones too (rows' children, labels' components)."""
    for component in components:
        yield component
        yield from _components_of(component.get("components") or [])
        if isinstance(component.get("component"), dict):
            yield from _components_of([component["component"]])


def _unique_ids(components: Iterator[dict[str, Any]], where: str) -> list[Problem]:
    seen: set[str] = set()
    problems = []
    for component in components:
        custom = component.get("custom_id")
        if custom is None:
            continue
        if custom in seen:
            problems.append(Problem(where, f"custom_id {custom!r} repeats"))
        seen.add(custom)
    return problems


def message_rules(body: dict[str, Any], *, new: bool) -> list[Problem]:
    """The documented limits of a message (``new``: a new message, which must not be empty)."""
    problems = _too_long("content", body.get("content"), CONTENT_MAX, "content of")
    problems += embed_rules(body.get("embeds") or [])
    problems += component_rules(body.get("components") or [], body.get("flags") or 0)
    attachments = body.get("attachments") or []
    if len(attachments) > ATTACHMENTS_MAX:
        problems.append(Problem("attachments", f"{len(attachments)}, at most {ATTACHMENTS_MAX}"))
    for index, attachment in enumerate(attachments):
        at = _at("attachments", index)
        problems += _too_long(_at(at, "description"), attachment.get("description"), ALT_TEXT_MAX)
    if new and not any(
        body.get(key) for key in ("content", "embeds", "components", "attachments", "sticker_ids")
    ):
        problems.append(Problem("", "an empty message (Discord answers 50006)"))
    return problems


# -- documented rules: modals ---------------------------------------------------------------


def modal_rules(data: dict[str, Any], where: str = "data") -> list[Problem]:
    """The documented limits of a modal: title, five labelled fields, text inputs."""
    problems = _too_long(_at(where, "title"), data.get("title"), MODAL_TITLE_MAX)
    components = data.get("components") or []
    if not 1 <= len(components) <= MODAL_COMPONENTS_MAX:
        problems.append(Problem(_at(where, "components"), f"{len(components)} components, 1 to 5"))
    for index, component in enumerate(components):
        at = _at(_at(where, "components"), index)
        kind = component.get("type")
        if kind == ACTION_ROW:
            # Deprecated by Discord for modals: a text input belongs in a Label.
            problems.append(Problem(at, "an action row in a modal (deprecated): use a Label"))
            for number, inner in enumerate(component.get("components") or []):
                problems += _text_input_rules(inner, _at(_at(at, "components"), number), None)
        elif kind == LABEL:
            problems += _too_long(_at(at, "label"), component.get("label"), LABEL_TEXT_MAX)
            problems += _too_long(
                _at(at, "description"), component.get("description"), LABEL_DESCRIPTION_MAX
            )
            inner = component.get("component") or {}
            if inner.get("type") == TEXT_INPUT:
                problems += _text_input_rules(inner, _at(at, "component"), component)
        elif kind != TEXT_DISPLAY:
            problems.append(Problem(at, f"type {kind}: not a label or text in a modal"))
    problems += _unique_ids(_components_of(components), _at(where, "components"))
    return problems


def _text_input_rules(
    field: dict[str, Any], at: str, label: dict[str, Any] | None
) -> list[Problem]:
    problems = _too_long(
        _at(at, "placeholder"), field.get("placeholder"), TEXT_INPUT_PLACEHOLDER_MAX
    )
    problems += _too_long(_at(at, "value"), field.get("value"), TEXT_INPUT_VALUE_MAX)
    if label is None:
        problems += _too_long(_at(at, "label"), field.get("label"), LABEL_TEXT_MAX)
        if not field.get("label"):
            problems.append(Problem(_at(at, "label"), "a text input outside a Label needs one"))
    low = field.get("min_length") or 0
    high = field.get("max_length") or TEXT_INPUT_VALUE_MAX
    if low > high:
        problems.append(Problem(at, f"min_length {low} above max_length {high}"))
    value = field.get("value") or ""
    if value and not low <= len(value) <= high:
        problems.append(Problem(_at(at, "value"), f"{len(value)} characters, {low} to {high}"))
    return problems


# -- documented rules: commands -------------------------------------------------------------


def _name_problems(name: Any, where: str) -> list[Problem]:
    """Discord's rule for the name of a slash command, option or subcommand.

    The regex ``^[-_'\\p{L}\\p{N}\\p{sc=Deva}\\p{sc=Thai}]{1,32}$``, and lower case where a
    letter has a lower-case form (Python's ``re`` has no ``\\p``: checked letter by letter).
    """
    if not isinstance(name, str):
        return [Problem(where, f"{_short(name)} is not a name")]
    problems = []
    if not 1 <= len(name) <= COMMAND_NAME_MAX:
        problems.append(
            Problem(where, f"{len(name)} characters, 1 to {COMMAND_NAME_MAX}: {name!r}")
        )
    bad = sorted({char for char in name if not _name_char(char)})
    if bad:
        problems.append(Problem(where, f"{name!r} has characters Discord refuses: {bad}"))
    if name != name.lower():
        problems.append(Problem(where, f"{name!r} is not lower case"))
    return problems


def _name_char(char: str) -> bool:
    if char in "-_'":
        return True
    if unicodedata.category(char)[0] in "LN":
        return True
    # \p{sc=Deva} and \p{sc=Thai}: their marks, too.
    return 0x0900 <= ord(char) <= 0x097F or 0x0E00 <= ord(char) <= 0x0E7F


def _texts(item: dict[str, Any], key: str) -> dict[str, str]:
    """A field's text by locale: ``""`` the default, then every translation."""
    texts = {"": item.get(key)}
    texts.update(item.get(f"{key}_localizations") or {})
    return texts


def _localized(item: dict[str, Any], key: str, where: str, limit: int) -> list[Problem]:
    """A name or description in every locale: its length (names: Discord's rule too)."""
    problems = []
    for locale in item.get(f"{key}_localizations") or {}:
        if locale not in LOCALES:
            problems.append(Problem(_at(where, f"{key}_localizations"), f"unknown locale {locale}"))
    for locale, text in _texts(item, key).items():
        at = _at(where, key if not locale else f"{key}_localizations.{locale}")
        if key == "name":
            problems += _name_problems(text, at)
        elif not isinstance(text, str) or not 1 <= len(text) <= limit:
            size = len(text) if isinstance(text, str) else 0
            problems.append(Problem(at, f"{size} characters, 1 to {limit}: {_short(text)}"))
    return problems


def _longest(item: dict[str, Any], key: str) -> int:
    return max(
        (len(text) for text in _texts(item, key).values() if isinstance(text, str)), default=0
    )


def command_rules(commands: list[dict[str, Any]]) -> list[Problem]:
    """The documented limits of a bulk overwrite of slash commands."""
    problems = []
    chat = [c for c in commands if c.get("type", CHAT_INPUT) == CHAT_INPUT]
    if len(chat) > CHAT_COMMANDS_MAX:
        problems.append(Problem("", f"{len(chat)} slash commands, at most {CHAT_COMMANDS_MAX}"))
    problems += _unique_names(chat, "")
    for index, command in enumerate(commands):
        at = f"[{index}]"
        if command.get("type", CHAT_INPUT) != CHAT_INPUT:
            continue
        problems += _localized(command, "name", at, COMMAND_NAME_MAX)
        problems += _localized(command, "description", at, COMMAND_DESCRIPTION_MAX)
        problems += _option_rules(command.get("options") or [], _at(at, "options"))
        total = _size(command)
        if total > COMMAND_TOTAL_MAX:
            problems.append(
                Problem(at, f"{total} characters in the whole command, at most {COMMAND_TOTAL_MAX}")
            )
    return problems


def command_size(command: dict[str, Any]) -> int:
    """A command's characters as Discord counts them against :data:`COMMAND_TOTAL_MAX`."""
    return _size(command)


def _size(item: dict[str, Any]) -> int:
    total = _longest(item, "name") + _longest(item, "description")
    for choice in item.get("choices") or []:
        total += _longest(choice, "name") + len(str(choice.get("value", "")))
    for option in item.get("options") or []:
        total += _size(option)
    return total


def _unique_names(items: list[dict[str, Any]], where: str) -> list[Problem]:
    """Names (in every locale) are unique among siblings."""
    problems = []
    locales = {locale for item in items for locale in item.get("name_localizations") or {}}
    for locale in ["", *sorted(locales)]:
        names = [
            (item.get("name_localizations") or {}).get(locale) or item.get("name") for item in items
        ]
        repeated = sorted({name for name in names if names.count(name) > 1})
        if repeated:
            problems.append(
                Problem(where, f"names repeat in locale {locale or 'default'}: {repeated}")
            )
    return problems


def _option_rules(options: list[dict[str, Any]], where: str) -> list[Problem]:
    problems = []
    if len(options) > COMMAND_OPTIONS_MAX:
        problems.append(Problem(where, f"{len(options)} options, at most {COMMAND_OPTIONS_MAX}"))
    problems += _unique_names(options, where)
    nested = [o.get("type") in (SUBCOMMAND, GROUP) for o in options]
    if any(nested) and not all(nested):
        problems.append(Problem(where, "subcommands and plain options mixed"))
    optional_seen = False
    for index, option in enumerate(options):
        at = _at(where, index)
        problems += _localized(option, "name", at, COMMAND_NAME_MAX)
        problems += _localized(option, "description", at, COMMAND_DESCRIPTION_MAX)
        if option.get("type") in (SUBCOMMAND, GROUP):
            problems += _option_rules(option.get("options") or [], _at(at, "options"))
            continue
        if option.get("required"):
            if optional_seen:
                problems.append(Problem(at, "a required option after an optional one"))
        else:
            optional_seen = True
        problems += _choice_rules(option, at)
        low, high = option.get("min_value"), option.get("max_value")
        if low is not None and high is not None and low > high:
            problems.append(Problem(at, f"min_value {low} above max_value {high}"))
        low, high = option.get("min_length"), option.get("max_length")
        if low is not None and high is not None and low > high:
            problems.append(Problem(at, f"min_length {low} above max_length {high}"))
    return problems


def _choice_rules(option: dict[str, Any], at: str) -> list[Problem]:
    choices = option.get("choices") or []
    problems = []
    if choices and option.get("autocomplete"):
        problems.append(Problem(at, "autocomplete and choices together"))
    if len(choices) > CHOICES_MAX:
        problems.append(Problem(_at(at, "choices"), f"{len(choices)}, at most {CHOICES_MAX}"))
    problems += _choices(choices, _at(at, "choices"))
    return problems


def _choices(choices: list[dict[str, Any]], where: str) -> list[Problem]:
    problems = []
    for index, choice in enumerate(choices):
        place = _at(where, index)
        for locale, text in _texts(choice, "name").items():
            at = _at(place, "name" if not locale else f"name_localizations.{locale}")
            if not isinstance(text, str) or not 1 <= len(text) <= CHOICE_NAME_MAX:
                problems.append(Problem(at, f"1 to {CHOICE_NAME_MAX} characters: {_short(text)}"))
        problems += _too_long(_at(place, "value"), choice.get("value"), CHOICE_STRING_VALUE_MAX)
    return problems


def autocomplete_rules(data: dict[str, Any], where: str = "data") -> list[Problem]:
    """The documented limits of an autocomplete answer: 25 choices of 1-100 characters."""
    choices = data.get("choices") or []
    problems = []
    if len(choices) > CHOICES_MAX:
        problems.append(Problem(_at(where, "choices"), f"{len(choices)}, at most {CHOICES_MAX}"))
    return problems + _choices(choices, _at(where, "choices"))


# -- one call -------------------------------------------------------------------------------

#: Operations whose body is a message, and whether it is a new one.
MESSAGE_OPERATIONS = {
    "create_message": True,
    "execute_webhook": True,
    "update_message": False,
    "update_original_webhook_message": False,
}
COMMAND_OPERATIONS = ("bulk_set_application_commands", "bulk_set_guild_application_commands")


def check_request(operation: str, body: Any) -> list[Problem]:
    """Every limit ``body`` breaks as the request body of ``operation`` (the spec's
    operationId: ``create_message``, ``create_interaction_response``, ...): the OpenAPI
    schema and the documented rules."""
    problems = schemas().check(body, schemas().body(operation))
    if operation in MESSAGE_OPERATIONS:
        problems += message_rules(body, new=MESSAGE_OPERATIONS[operation])
    elif operation in COMMAND_OPERATIONS:
        problems += command_rules(body)
    elif operation == "create_interaction_response":
        data = body.get("data") or {}
        kind = body.get("type")
        if kind in (MESSAGE_ANSWER, UPDATE_ANSWER):
            problems += [
                Problem(_at("data", p.where), p.what)
                for p in message_rules(data, new=kind == MESSAGE_ANSWER)
            ]
        elif kind == MODAL_ANSWER:
            problems += modal_rules(data)
        elif kind == AUTOCOMPLETE_ANSWER:
            problems += autocomplete_rules(data)
        elif kind not in (DEFERRED_ANSWER, DEFERRED_UPDATE):
            problems.append(Problem("type", f"an interaction answer of type {kind}"))
    else:
        raise KeyError(f"no rules for operation {operation!r}")
    return problems


# -- what discord.py sends ------------------------------------------------------------------

#: Keyword arguments of discord.py's send/edit functions that the bot's message dicts use.
MESSAGE_KEYS = ("content", "embed", "embeds", "view", "file", "files", "attachments")


def _sent(parameters: Any) -> dict[str, Any]:
    """The JSON body of discord.py's request parameters (with files: the payload_json part)."""
    if parameters.payload is not None:
        return json.loads(json.dumps(parameters.payload))
    [part] = [p for p in parameters.multipart if p["name"] == "payload_json"]
    return json.loads(part["value"])


def message_bodies(parts: dict[str, Any], *, new: bool = True) -> dict[str, Any]:
    """The bodies discord.py sends for a message of ``parts`` (content, embed(s), view,
    file(s) as the UI returns them), as each kind of call: posted in a channel, edited,
    an interaction's answer (new or edited message), a follow-up; not ``new``: the edits
    only (parts that only ever replace part of a message, such as a view alone).

    Keys: what kind of call; values: ``(operation, body)``.
    """
    kwargs = {key: value for key, value in parts.items() if key in MESSAGE_KEYS}
    unknown = set(parts) - set(MESSAGE_KEYS)
    if unknown:
        raise KeyError(f"message parts discord.py does not take: {sorted(unknown)}")
    edit = dict(kwargs)
    # Message.edit and InteractionResponse.edit_message send new files as attachments.
    files = edit.pop("files", None) or ([edit.pop("file")] if "file" in edit else None)
    if files:
        edit["attachments"] = files
    bodies = {}
    with _rewound(kwargs):
        bodies["edited"] = ("update_message", _sent(handle_message_parameters(**edit)))
    with _rewound(kwargs):
        update = interaction_message_response_params(type=UPDATE_ANSWER, **edit)
        bodies["answer edit"] = ("create_interaction_response", _sent(update))
    with _rewound(kwargs):
        original = handle_message_parameters(**edit)
        bodies["original edit"] = ("update_original_webhook_message", _sent(original))
    if not new:
        return bodies
    with _rewound(kwargs):
        bodies["posted"] = ("create_message", _sent(handle_message_parameters(**kwargs)))
    with _rewound(kwargs):
        answer = interaction_message_response_params(type=MESSAGE_ANSWER, **kwargs)
        bodies["answer"] = ("create_interaction_response", _sent(answer))
    with _rewound(kwargs):
        private = discord.MessageFlags(ephemeral=True)
        follow_up = handle_message_parameters(**kwargs, flags=private)
        bodies["follow-up"] = ("execute_webhook", _sent(follow_up))
    return bodies


class _rewound:  # noqa: N801 (used like a function: "with _rewound(parts)")
    """Rewind the message's files after each use (discord.py reads them when sending)."""

    def __init__(self, kwargs: dict[str, Any]) -> None:
        self.files = [kwargs[k] for k in ("file",) if kwargs.get(k) is not None]
        self.files += list(kwargs.get("files") or [])

    def __enter__(self) -> None:
        for file in self.files:
            file.reset()

    def __exit__(self, *_: object) -> None:
        for file in self.files:
            file.reset()


def modal_body(modal: discord.ui.Modal) -> dict[str, Any]:
    """The interaction answer discord.py sends to open ``modal`` (``send_modal``)."""
    return _sent(interaction_response_params(MODAL_ANSWER, modal.to_dict()))


def autocomplete_body(choices: list[discord.app_commands.Choice[Any]]) -> dict[str, Any]:
    """The interaction answer discord.py sends for autocomplete ``choices``."""
    data = {"choices": [choice.to_dict() for choice in choices]}
    return _sent(interaction_response_params(AUTOCOMPLETE_ANSWER, data))


__all__ = [
    "Problem",
    "Schemas",
    "autocomplete_body",
    "autocomplete_rules",
    "check_request",
    "command_rules",
    "command_size",
    "component_rules",
    "embed_rules",
    "message_bodies",
    "message_rules",
    "modal_body",
    "modal_rules",
    "schemas",
]
