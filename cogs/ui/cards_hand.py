"""MONOPOLY Das Kartenspiel: a player's private hand with everything they may do now, and
the steps of laying out one's own choice of cards.

The hand message shows the hand as its grouped picture (``hand.png``, from
:func:`cogs.ui.cards_table.hand_file`) from the moment it is opened; its text adds only
what the picture does not show: one's own Tauschstapel and the suggested lay-out.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

import discord

from bot.cardgame import CardState, best_layout, legal_actions
from bot.cardgame.cards import GO, HOTEL, HOUSE, MR_MONOPOLY, PROPERTY, TOKEN, WILD
from bot.engine.errors import IllegalAction
from bot.i18n import t
from cogs.ui.cards_table import (
    HAND_IMAGE,
    TABLE_COLOUR,
    card_name,
    cards_text,
    group_name,
    layout_text,
)
from cogs.ui.drafts import Draft
from cogs.ui.ids import PanelButton, PanelSelect, clip
from cogs.ui.widgets import explain, page_buttons

SELECT_MAX = 25
#: Selects per page of the assignment step (a message holds five rows: one for the buttons).
ASSIGN_PAGE = 4
#: Draft kinds: one's own lay-out, the card laid down before a swap.
LAYOUT, FIRST = "cardlay", "cardfirst"


def hand_message(
    game: int,
    state: CardState,
    seat: int,
    lang: str,
    note: str | None = None,
    first: str | None = None,
) -> dict[str, Any]:
    """A player's hand, privately, with a control for everything they may do now.

    The embed shows the hand's picture: send it with :func:`~cogs.ui.cards_table.hand_file`
    (``file=`` in a reply, ``attachments=[…]`` in an edit). Its text is what just happened
    (``note``), one's own Tauschstapel and the suggested lay-out.
    """
    player = state.players[seat]
    embed = discord.Embed(title=t(lang, "cards.hand_title", name=player.name), colour=TABLE_COLOUR)
    embed.description = note
    embed.add_field(
        name=t(lang, "cards.own_pile"), value=cards_text(state, list(state.piles[seat]), lang)
    )
    embed.set_image(url=f"attachment://{HAND_IMAGE}")
    view = discord.ui.View(timeout=None)
    actions = legal_actions(state, seat)
    kinds = {a["type"] for a in actions}
    if "draw" in kinds:
        view.add_item(PanelButton(game, "c_draw", label=t(lang, "cards.button.draw"), row=0))
    suggestion = best_layout(state, seat)
    # Laying out and, for the ender, arranging the bonus both take the suggested lay-out.
    for kind, panel_kind, label in (
        ("lay_out", "c_lay", "cards.button.lay_out"),
        ("arrange", "c_arrange", "cards.button.arrange"),
    ):
        if kind not in kinds or suggestion is None:
            continue
        view.add_item(
            PanelButton(
                game, panel_kind, label=t(lang, label), style=discord.ButtonStyle.success, row=0
            )
        )
        embed.add_field(
            name=t(lang, "cards.suggestion"),
            value=clip(layout_text(state, suggestion, lang), 1000),
            inline=False,
        )
    if first is not None and first not in state.players[seat].hand:
        first = None
    if first is not None:
        embed.add_field(name=t(lang, "cards.first_chosen"), value=card_name(state, first, lang))
    swaps = _swap_options(state, seat, actions, lang, first)
    if swaps:
        view.add_item(
            PanelSelect(
                game, "c_swap", options=swaps, placeholder=t(lang, "cards.swap_placeholder"), row=1
            )
        )
    hand = list(player.hand)
    firsts = sorted({a["first_discard"] for a in actions if a.get("first_discard")})
    if firsts and first is None:
        view.add_item(
            PanelSelect(
                game,
                "c_first",
                options=_card_options(state, firsts, lang),
                placeholder=t(lang, "cards.first_placeholder"),
                row=4,
            )
        )
    if "discard" in kinds and hand:
        owed = state.owe[seat]
        view.add_item(
            PanelSelect(
                game,
                "c_discard",
                options=_card_options(state, hand, lang),
                placeholder=t(lang, "cards.discard_placeholder", count=owed),
                min_values=owed,
                max_values=owed,
                row=2,
            )
        )
    if "pass_card" in kinds and hand:
        view.add_item(
            PanelSelect(
                game,
                "c_pass",
                options=_card_options(state, hand, lang),
                placeholder=t(lang, "cards.pass_placeholder"),
                row=2,
            )
        )
    if state.phase in ("turn", "pass") and seat == state.current and hand:
        view.add_item(
            PanelSelect(
                game,
                "c_custom",
                options=_card_options(state, hand, lang),
                placeholder=t(lang, "cards.custom_placeholder"),
                min_values=1,
                max_values=min(len(hand), SELECT_MAX),
                row=3,
            )
        )
    return {"embed": embed, "view": view}


def _card_options(state: CardState, cards: list[str], lang: str) -> list[discord.SelectOption]:
    return [
        discord.SelectOption(label=clip(card_name(state, c, lang), 100), value=c)
        for c in cards[:SELECT_MAX]
    ]


def _swap_options(
    state: CardState, seat: int, actions: list[dict[str, Any]], lang: str, first: str | None
) -> list[discord.SelectOption]:
    """The swaps open now (one option per target and count), after ``first`` if chosen."""
    options = []
    for action in actions:
        if action.get("first_discard") != first:
            continue
        if action["type"] == "swap":
            label = t(
                lang,
                "cards.swap_option",
                name=state.players[action["target"]].name,
                count=action["count"],
            )
            value = f"s-{action['target']}-{action['count']}"
        elif action["type"] == "swap_extra":
            key = "cards.swap_extra_stock" if action["stock"] else "cards.swap_extra"
            # Numbered as the rulebook and the table picture count: after the players' own.
            label = t(lang, key, number=len(state.players) + action["pile"] + 1)
            value = f"x-{action['pile']}-{int(action['stock'])}"
        else:
            continue
        options.append(discord.SelectOption(label=clip(label, 100), value=value))
    return options[:SELECT_MAX]


def own_layout(
    state: CardState, cards: list[str], assign: dict[str, str] | None = None
) -> dict[str, Any]:
    """A lay-out of exactly the chosen ``cards``, the way a player would lay them down.

    Property cards form their groups; houses and a hotel go to the group named in
    ``assign["buildings"]``, each token and wild card to the group ``assign`` names
    for it (the first group if none), LOS and Mr. Monopoly cards are bonus cards.
    The engine then checks it and names what is missing.
    """
    assign = assign or {}
    deck = state.deck
    groups: dict[str, dict[str, Any]] = {}
    extras: dict[str, list[str]] = {"houses": [], "tokens": [], "wild": []}
    hotel = None
    bonus = []
    for card_id in cards:
        card = deck.card(card_id)
        if card.kind == PROPERTY:
            entry = groups.setdefault(
                card.group or "", {"group": card.group, "cards": [], "houses": [], "tokens": []}
            )
            entry["cards"].append(card_id)
        elif card.kind == HOUSE:
            extras["houses"].append(card_id)
        elif card.kind == HOTEL:
            hotel = card_id
        elif card.kind == TOKEN:
            extras["tokens"].append(card_id)
        elif card.kind == WILD:
            extras["wild"].append(card_id)
        elif card.kind in (GO, MR_MONOPOLY):
            bonus.append(card_id)
    laid = list(groups.values())
    if laid:
        by_group = {entry["group"]: entry for entry in laid}

        def target(key: str) -> dict[str, Any]:
            return by_group.get(assign.get(key, ""), laid[0])

        for wild in extras["wild"]:
            target(wild)["cards"].append(wild)
        for token in extras["tokens"]:
            target(token)["tokens"].append(token)
        built = target("buildings")
        built["houses"] = sorted(extras["houses"], key=lambda c: deck.card(c).number or 0)
        if hotel is not None:
            built["hotel"] = hotel
    else:
        bonus += extras["houses"] + extras["tokens"] + extras["wild"] + ([hotel] if hotel else [])
    return {"groups": laid, "bonus": bonus}


@dataclass
class LayoutDraft(Draft):
    """A player's own lay-out in the making: the chosen cards and where each extra goes."""

    cards: list[str] = field(default_factory=list)
    assign: dict[str, str] = field(default_factory=dict)
    page: int = 0  # of the assignment step, ASSIGN_PAGE questions each


@dataclass
class FirstDiscard(Draft):
    """The card a player lays on their own pile just before a swap."""

    card: str = ""


def assignables(state: CardState, cards: list[str]) -> list[str]:
    """What needs a group: ``buildings`` (houses and hotel together), tokens, wild cards."""
    deck = state.deck
    found = ["buildings"] if any(deck.card(c).kind in (HOUSE, HOTEL) for c in cards) else []
    found += [c for c in cards if deck.card(c).kind in (TOKEN, WILD)]
    return found


def assign_message(game: int, state: CardState, draft: LayoutDraft, lang: str) -> dict[str, Any]:
    """The step before one's own lay-out: which group each house, token or wild card joins."""
    deck = state.deck
    groups = list(
        dict.fromkeys(deck.card(c).group for c in draft.cards if deck.card(c).kind == PROPERTY)
    )
    keys = assignables(state, draft.cards)
    pages = max(1, -(-len(keys) // ASSIGN_PAGE))
    draft.page = min(max(draft.page, 0), pages - 1)
    first = draft.page * ASSIGN_PAGE
    title = t(lang, "cards.assign_title")
    embed = discord.Embed(
        title=title + (f" ({draft.page + 1}/{pages})" if pages > 1 else ""), colour=TABLE_COLOUR
    )
    embed.description = cards_text(state, draft.cards, lang)
    view = discord.ui.View(timeout=None)
    for row, key in enumerate(keys[first : first + ASSIGN_PAGE]):
        what = t(lang, "cards.buildings") if key == "buildings" else card_name(state, key, lang)
        options = [
            discord.SelectOption(
                label=clip(group_name(state, g, lang), 100),
                value=g,
                default=draft.assign.get(key, groups[0]) == g,
            )
            for g in groups
            if g
        ]
        view.add_item(
            PanelSelect(
                game,
                "c_assign",
                f"{draft.nonce}-{first + row}",
                options=options,
                placeholder=t(lang, "cards.assign_placeholder", card=what),
                row=row,
            )
        )
    view.add_item(
        PanelButton(
            game,
            "c_custom_go",
            str(draft.nonce),
            label=t(lang, "cards.button.lay_out_own"),
            style=discord.ButtonStyle.success,
            row=4,
        )
    )
    if pages > 1:
        for button in page_buttons(game, "c_assign_page", str(draft.nonce), draft.page, pages, 4):
            view.add_item(button)
    return {"embed": embed, "view": view}


def explain_card(lang: str, error: Exception) -> str:
    """A refusal of the card game, with card and group names where the engine gives ids."""
    if isinstance(error, IllegalAction) and error.code.startswith("layout"):
        params = dict(error.params)
        missing = params.get("missing")
        if isinstance(missing, list | tuple):
            params["missing"] = len(missing)
        return t(lang, f"error.{error.code}", **params) if params else explain(lang, error)
    return explain(lang, error)
