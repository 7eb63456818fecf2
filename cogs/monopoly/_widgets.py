"""Shared parts of the private menus: persistent select/button items, routes, drafts, amounts.

The private (ephemeral) menus for trades and management use their own persistent items,
``xb:{game}:{kind}[:{arg}]`` for buttons and ``xs:{game}:{kind}[:{arg}]`` for selects. Like
the public :class:`~cogs.monopoly._ids.GameButton` they carry everything they need in the
custom_id and load the game from the store on every click, so a click after a restart gets a
polite answer instead of "This interaction failed". What a player is still putting together
(an offer, a choice of lots) lives in a small in-memory draft per (game, user); the custom_ids
carry the draft's number so a click on an older copy of a menu is recognised.
"""

from __future__ import annotations

import asyncio
import itertools
import re
from collections.abc import Awaitable, Callable, Iterable
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any, TypeVar

import discord

from bot.engine.errors import IllegalAction
from bot.engine.state import GameState
from bot.engine.themes import Theme
from bot.i18n import t
from bot.store import ApplyResult, StoreError
from cogs.monopoly._text import Narrator, refusal, theme_of

if TYPE_CHECKING:
    from cogs.monopoly._cog import MonopolyCog

BUTTON_PATTERN = r"xb:(?P<game>[0-9]+):(?P<kind>[a-z_]+)(?::(?P<arg>[-0-9a-z_]+))?"
SELECT_PATTERN = r"xs:(?P<game>[0-9]+):(?P<kind>[a-z_]+)(?::(?P<arg>[-0-9a-z_]+))?"

#: Discord's limits: options per select, characters per label / option / placeholder.
PAGE_SIZE = 25
LABEL_MAX = 80
OPTION_MAX = 100
PLACEHOLDER_MAX = 150
#: Drafts older than this (seconds) are dropped when a new one is made.
DRAFT_LIFETIME = 3600.0

PanelHandler = Callable[
    ["MonopolyCog", discord.Interaction, int, "str | None", list[str]], Awaitable[None]
]
ButtonHandler = Callable[
    ["MonopolyCog", discord.Interaction, int, int, "str | None"], Awaitable[None]
]

#: What a private menu item does, by ``kind`` (filled by ``@panel`` in _trade and _manage).
PANEL_ROUTES: dict[str, PanelHandler] = {}
#: Public game buttons (``GameButton`` acts) handled by _trade and _manage.
BUTTON_ROUTES: dict[str, ButtonHandler] = {}

_nonces = itertools.count(1)


def panel(kind: str) -> Callable[[PanelHandler], PanelHandler]:
    """Register the handler of a private menu item kind."""

    def register(handler: PanelHandler) -> PanelHandler:
        PANEL_ROUTES[kind] = handler
        return handler

    return register


def game_button(act: str) -> Callable[[ButtonHandler], ButtonHandler]:
    """Register the handler of a public game button act (see ``MonopolyCog.on_button``)."""

    def register(handler: ButtonHandler) -> ButtonHandler:
        BUTTON_ROUTES[act] = handler
        return handler

    return register


def panel_id(prefix: str, game: int, kind: str, arg: Any = None) -> str:
    """The custom_id of a private menu item (well under Discord's 100 characters)."""
    text = f"{prefix}:{game}:{kind}"
    return text if arg is None else f"{text}:{arg}"


class PanelButton(discord.ui.DynamicItem[discord.ui.Button], template=BUTTON_PATTERN):
    """A button of a private menu."""

    def __init__(
        self,
        game: int,
        kind: str,
        arg: str | None = None,
        *,
        label: str | None = None,
        style: discord.ButtonStyle = discord.ButtonStyle.secondary,
        emoji: str | None = None,
        disabled: bool = False,
        row: int | None = None,
    ) -> None:
        super().__init__(
            discord.ui.Button(
                label=clip(label, LABEL_MAX) if label else None,
                style=style,
                emoji=emoji,
                custom_id=panel_id("xb", game, kind, arg),
                disabled=disabled,
                row=row,
            )
        )
        self.game, self.kind, self.arg = game, kind, arg

    @classmethod
    async def from_custom_id(
        cls, interaction: discord.Interaction, item: discord.ui.Button, match: re.Match[str]
    ) -> PanelButton:
        """Rebuild the button from a click (also after a restart)."""
        return cls(int(match["game"]), match["kind"], match["arg"])

    async def callback(self, interaction: discord.Interaction) -> None:
        """Hand the click to its route."""
        await _dispatch(interaction, self.game, self.kind, self.arg, [])


class PanelSelect(discord.ui.DynamicItem[discord.ui.Select], template=SELECT_PATTERN):
    """A string select of a private menu; the values chosen go to its route."""

    def __init__(
        self,
        game: int,
        kind: str,
        arg: str | None = None,
        *,
        options: list[discord.SelectOption] | None = None,
        placeholder: str | None = None,
        min_values: int = 1,
        max_values: int = 1,
        row: int | None = None,
    ) -> None:
        options = options or [discord.SelectOption(label="–", value="-")]
        super().__init__(
            discord.ui.Select(
                custom_id=panel_id("xs", game, kind, arg),
                options=options,
                placeholder=clip(placeholder, PLACEHOLDER_MAX) if placeholder else None,
                min_values=min_values,
                max_values=max(min_values, min(max_values, len(options))),
                row=row,
            )
        )
        self.game, self.kind, self.arg = game, kind, arg

    @classmethod
    async def from_custom_id(
        cls, interaction: discord.Interaction, item: discord.ui.Select, match: re.Match[str]
    ) -> PanelSelect:
        """Rebuild the select from a choice; discord.py fills in the values afterwards."""
        return cls(
            int(match["game"]),
            match["kind"],
            match["arg"],
            options=list(item.options),
            min_values=item.min_values,
            max_values=item.max_values,
        )

    async def callback(self, interaction: discord.Interaction) -> None:
        """Hand the chosen values to their route (the options shown go in ``extras``)."""
        interaction.extras["shown"] = [option.value for option in self.item.options]
        await _dispatch(interaction, self.game, self.kind, self.arg, list(self.item.values))


async def _dispatch(
    interaction: discord.Interaction, game: int, kind: str, arg: str | None, values: list[str]
) -> None:
    cog = interaction.client.get_cog("Monopoly")  # type: ignore[attr-defined]
    handler = PANEL_ROUTES.get(kind)
    if cog is None or handler is None:
        await reply(interaction, t(lang_of(interaction), "error.unknown_button"))
        return
    await handler(cog, interaction, game, arg, values)


# -- small helpers ------------------------------------------------------------------------


def lang_of(interaction: discord.Interaction) -> str:
    """The clicking user's language (the cog's ``user_lang``)."""
    from cogs.monopoly._cog import user_lang

    return user_lang(interaction)


def clip(text: str, limit: int) -> str:
    """``text`` cut to ``limit`` characters with an ellipsis (Discord rejects longer ones)."""
    return text if len(text) <= limit else text[: limit - 1] + "…"


async def reply(interaction: discord.Interaction, text: str) -> None:
    """A short private answer, whether or not the interaction was answered already."""
    if interaction.response.is_done():
        await interaction.followup.send(text, ephemeral=True)
    else:
        await interaction.response.send_message(text, ephemeral=True)


def explain(
    lang: str,
    error: Exception,
    state: GameState | None = None,
    settings: dict[str, Any] | None = None,
) -> str:
    """Like ``refusal``, with the game at hand: names for squares and seats, money as money."""
    if state is None:
        return refusal(lang, error)
    return refusal(lang, error, Narrator(state, lang, theme_of(settings or {})))


async def refuse(
    interaction: discord.Interaction,
    error: Exception,
    state: GameState | None = None,
    settings: dict[str, Any] | None = None,
) -> None:
    """Tell the user privately, in their language, why the rules or the store said no."""
    await reply(interaction, explain(lang_of(interaction), error, state, settings))


async def act(
    cog: MonopolyCog, interaction: discord.Interaction, game: int, action: dict[str, Any]
) -> ApplyResult | None:
    """Apply the user's action; on a refusal tell them privately and return None.

    No ``expected_seq``: these menus stay open while others play, and the engine checks
    every action against the game as it is now.
    """
    try:
        return await cog.service.act(game, interaction.user.id, action)
    except (IllegalAction, StoreError) as error:
        state = settings = None
        if isinstance(error, IllegalAction):
            # Only to name squares and players in the answer; the refusal changed nothing.
            row = await cog.service.store.load(game)
            state, settings = row.state, dict(row.settings)
        await refuse(interaction, error, state, settings)
        return None


def merge(results: Iterable[ApplyResult]) -> ApplyResult | None:
    """Several applied actions as one result (the last state, every event), for ``publish``."""
    results = list(results)
    if not results:
        return None
    events = [event for result in results for event in result.events]
    actor = next((r.actor for r in results if r.actor is not None), None)
    return ApplyResult(state=results[-1].state, events=events, seq=results[-1].seq, actor=actor)


async def load_seat(
    cog: MonopolyCog, interaction: discord.Interaction, game: int
) -> tuple[GameState, dict[str, Any], int] | None:
    """The running game's state, settings and the user's seat; tells the user if not."""
    lang = lang_of(interaction)
    try:
        row = await cog.service.store.load(game)
    except StoreError as error:
        await refuse(interaction, error)
        return None
    state = row.state
    if state is None:
        await reply(interaction, t(lang, "error.not_started"))
        return None
    seat = cog.service.seat_of(state, interaction.user.id)
    if seat is None or state.players[seat].bankrupt:
        await reply(interaction, t(lang, "error.not_a_player"))
        return None
    return state, dict(row.settings), seat


def group_name(lang: str, theme: Theme | None, group: str | None) -> str:
    """The display name of a colour group (the theme's if it names one)."""
    if group is None:
        return ""
    if theme is not None and group in theme.groups:
        return theme.groups[group]
    key = f"group.{group}"
    text = t(lang, key)
    # A server's own board may have groups of its own: their id is better than a key.
    return text if text != key else group.replace("_", " ").title()


def lot_option(
    state: GameState,
    narrator: Narrator,
    square: int,
    *,
    description: str | None = None,
    selected: bool = False,
) -> discord.SelectOption:
    """A select option for a lot: its name (marked if mortgaged) and a short description."""
    name = narrator.square(square)
    if state.mortgaged[square]:
        name += " (" + t(narrator.lang, "word.mortgaged") + ")"
    group = group_name(narrator.lang, narrator.theme, state.board.squares[square].group)
    return discord.SelectOption(
        label=clip(name, OPTION_MAX),
        value=str(square),
        description=clip(description or group, OPTION_MAX) or None,
        default=selected,
    )


# -- amounts ------------------------------------------------------------------------------

_CURRENCY = re.compile(r"(€|\$|eur|euro|usd|dm|m\.|mark)", re.IGNORECASE)
_GROUPED = re.compile(r"\d{1,3}(?:[.,]\d{3})+|\d+")
_CENTS = re.compile(r"(?:[.,](?:00|-|–))$")


def parse_amount(text: str | None) -> int | None:
    """A whole amount as players type it, or None if it is not one.

    Accepts ``1500``, ``1.500``, ``1,500``, ``1 500``, ``1.500 €``, ``€1,500``, ``1.500,-`` and
    ``1.500,00``; an empty field is 0. Anything else (letters, a sign, cents, "1.5") is None,
    so a typo never turns into a different amount.
    """
    cleaned = _CURRENCY.sub("", (text or "").strip())
    cleaned = re.sub(r"[\s\u00a0\u202f']", "", cleaned)
    if not cleaned:
        return 0
    cleaned = _CENTS.sub("", cleaned)
    if not _GROUPED.fullmatch(cleaned):
        return None
    return int(re.sub(r"[.,]", "", cleaned))


# -- paging -------------------------------------------------------------------------------


def page_of(items: list[int], page: int) -> tuple[list[int], int, int]:
    """The items on ``page`` (clamped), the page and the number of pages (at least 1)."""
    pages = max(1, -(-len(items) // PAGE_SIZE))
    page = min(max(page, 0), pages - 1)
    return items[page * PAGE_SIZE : (page + 1) * PAGE_SIZE], page, pages


def replace_page(
    selected: set[int],
    shown: list[int],
    values: Iterable[str],
    interaction: discord.Interaction | None = None,
) -> set[int]:
    """The selection after a select on one page: the page's choices replace its old ones.

    The page is what the user saw (the select's options, passed by :class:`PanelSelect` in
    ``interaction.extras``) if known, else ``shown`` as the page is now.
    """
    if interaction is not None and "shown" in interaction.extras:
        shown = [int(v) for v in interaction.extras["shown"] if v.isdigit()]
    chosen = {int(v) for v in values if v.isdigit()}
    return (selected - set(shown)) | (chosen & set(shown))


# -- drafts -------------------------------------------------------------------------------

D = TypeVar("D", bound="Draft")


@dataclass
class Draft:
    """Something a user is putting together in a private menu (see the subclasses)."""

    game: int
    user: int
    nonce: int = field(default_factory=lambda: next(_nonces))
    created: float = field(default_factory=lambda: asyncio.get_running_loop().time())


def drafts(cog: MonopolyCog) -> dict[tuple[str, int, int], Draft]:
    """The cog's drafts, by (kind, game, user)."""
    return cog.drafts


def keep_draft(cog: MonopolyCog, kind: str, draft: D) -> D:
    """Store ``draft`` as the user's current one of ``kind`` (dropping stale ones)."""
    book = drafts(cog)
    now = asyncio.get_running_loop().time()
    for key in [k for k, d in book.items() if now - d.created > DRAFT_LIFETIME]:
        del book[key]
    book[(kind, draft.game, draft.user)] = draft
    return draft


def find_draft(
    cog: MonopolyCog, kind: str, interaction: discord.Interaction, game: int, nonce: str | None
) -> Draft | None:
    """The user's draft of ``kind`` if the menu clicked is its current copy."""
    draft = drafts(cog).get((kind, game, interaction.user.id))
    if draft is None or nonce is None or str(draft.nonce) != nonce:
        return None
    return draft


async def live_draft(
    cog: MonopolyCog,
    kind: str,
    interaction: discord.Interaction,
    game: int,
    nonce: str | None,
    expired: str = "manage.expired",
) -> Any:
    """Like :func:`find_draft`, but an outdated menu is replaced by the message ``expired``.

    Typed ``Any`` because each caller knows which :class:`Draft` subclass its kind holds.
    """
    draft = find_draft(cog, kind, interaction, game, nonce)
    if draft is None:
        await interaction.response.edit_message(
            content=t(lang_of(interaction), expired), embed=None, view=None
        )
    return draft


def drop_draft(cog: MonopolyCog, kind: str, draft: Draft) -> None:
    """Forget a finished or cancelled draft."""
    drafts(cog).pop((kind, draft.game, draft.user), None)


def page_buttons(
    game: int,
    kind: str,
    prefix: str,
    page: int,
    pages: int,
    row: int,
    label: Callable[[str, str], str] = lambda step, arrow: arrow,
) -> list[PanelButton]:
    """◀ / ▶ buttons of a paged select; their arg is ``{prefix}-p`` / ``{prefix}-n``."""
    return [
        PanelButton(
            game,
            kind,
            f"{prefix}-{step}",
            label=label(step, arrow),
            disabled=(page == 0) if step == "p" else (page == pages - 1),
            row=row,
        )
        for step, arrow in (("p", "◀"), ("n", "▶"))
    ]


def split_arg(arg: str | None) -> list[str]:
    """The parts of a custom_id argument, ``"12-g-n"`` -> ``["12", "g", "n"]``."""
    return (arg or "").split("-") if arg else []
