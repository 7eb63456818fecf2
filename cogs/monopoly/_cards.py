"""MONOPOLY Das Kartenspiel in Discord: the public table and each player's private hand.

The table message (public) shows every face-up pile in order, the stock, whose
turn it is, the scores and what happened last; its **🂠 My hand** button opens the
clicking player's hand privately, with what they may do now: draw, swap (a
select of targets and counts), discard (a select), lay out (the best lay-out of
the hand, or one of their own choosing — an invalid one is refused with what is
missing), pass a card to the left (5–6 players) and arrange the ender's bonus.
Round results list each player's lay-out and points. The engine is
:mod:`bot.cardgame`; the store keeps card games like board games.
"""

from __future__ import annotations

import asyncio
import io
import logging
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any

import discord

from bot.cardgame import CardState, best_layout, legal_actions, waiting_for
from bot.cardgame.cards import GO, HOTEL, HOUSE, MR_MONOPOLY, PROPERTY, TOKEN, WILD
from bot.cardgame.view import visible_events
from bot.engine.errors import IllegalAction
from bot.i18n import t
from bot.store import ApplyResult, StoreError
from cogs.monopoly import _absence
from cogs.monopoly._ids import GameButton
from cogs.monopoly._text import mentions
from cogs.monopoly._widgets import (
    Draft,
    PanelButton,
    PanelSelect,
    clip,
    drafts,
    drop_draft,
    explain,
    game_button,
    keep_draft,
    lang_of,
    live_draft,
    page_buttons,
    panel,
    reply,
)
from render.cards import render_hand, render_round_result, render_table

if TYPE_CHECKING:
    from cogs.monopoly._cog import MonopolyCog

log = logging.getLogger(__name__)

TABLE_COLOUR = 0x1565C0
MAX_LINES = 8
SELECT_MAX = 25
#: Selects per page of the assignment step (a message holds five rows: one for the buttons).
ASSIGN_PAGE = 4
#: Draft kinds: one's own lay-out, the card laid down before a swap.
LAYOUT, FIRST = "cardlay", "cardfirst"


# -- words ----------------------------------------------------------------------------


def card_name(state: CardState, card_id: str) -> str:
    """A card as players read it: the street's name, "2. Haus", "Hotel", "LOS" …"""
    return state.deck.card(card_id).name


def cards_text(state: CardState, cards: list[str]) -> str:
    """Cards as a comma-separated list (or a dash)."""
    return ", ".join(card_name(state, c) for c in cards) or "–"


def layout_text(state: CardState, layout: dict[str, Any]) -> str:
    """A lay-out, one group a line: its cards, houses, hotel and tokens; then bonus cards."""
    lines = []
    for group in layout.get("groups", []):
        parts = list(group.get("cards", [])) + list(group.get("houses", []))
        if group.get("hotel"):
            parts.append(group["hotel"])
        parts += list(group.get("tokens", []))
        lines.append(f"**{state.deck.group(group['group']).name}**: {cards_text(state, parts)}")
    if layout.get("bonus"):
        lines.append(cards_text(state, list(layout["bonus"])))
    return "\n".join(lines) or "–"


def event_line(state: CardState, lang: str, event: dict[str, Any]) -> str | None:
    """One public line for an event (private details already removed), or None."""
    kind = event["type"]
    players = state.players

    def name(seat: Any) -> str:
        return players[seat].name if isinstance(seat, int) and 0 <= seat < len(players) else "?"

    if kind == "drew":
        return t(lang, "cards.event.drew", player=name(event["player"]))
    if kind == "discarded":
        return t(
            lang,
            "cards.event.discarded",
            player=name(event["player"]),
            cards=cards_text(state, event["cards"]),
        )
    if kind == "swapped":
        return t(
            lang,
            "cards.event.swapped",
            player=name(event["player"]),
            target=name(event["target"]),
            gave=cards_text(state, event["gave"]),
            took=cards_text(state, event["took"]),
        )
    if kind == "swapped_extra":
        return t(
            lang,
            "cards.event.swapped_extra",
            player=name(event["player"]),
            gave=cards_text(state, event["gave"]),
            took=cards_text(state, event["took"]),
        )
    if kind in ("laid_out", "round_started", "pass_started", "passed", "stock_empty"):
        params = {"player": name(event.get("player")), "round": event.get("round")}
        return t(lang, f"cards.event.{kind}", **params)
    if kind == "turn":
        return None
    return None


# -- the public table -----------------------------------------------------------------


def table_message(game: int, state: CardState, settings: dict[str, Any]) -> dict[str, Any]:
    """The public table: piles in order, stock, whose turn, scores, the latest events."""
    lang = settings.get("lang", "de")
    target = state.rules.target_for(len(state.players))
    if state.phase == "over":
        title = t(lang, "cards.over")
    else:
        title = t(lang, "cards.title", round=state.round, name=state.players[state.current].name)
    embed = discord.Embed(title=title, colour=TABLE_COLOUR)
    lines = settings.get("card_lines", [])
    embed.description = "\n".join(lines[-MAX_LINES:]) or t(lang, f"cards.phase.{state.phase}")
    for seat, player in enumerate(state.players):
        pile = state.piles[seat]
        value = clip(cards_text(state, list(pile)), 1000)
        embed.add_field(
            name=t(
                lang,
                "cards.pile",
                name=player.name,
                score=f"{player.score:,}".replace(",", "."),
                cards=len(player.hand),
            ),
            value=value,
            inline=False,
        )
    for index, pile in enumerate(state.extra_piles):
        embed.add_field(
            name=t(lang, "cards.extra_pile", number=index + 1),
            value=clip(cards_text(state, list(pile)), 1000),
            inline=False,
        )
    if settings.get("deadline_at") and state.phase != "over":
        embed.add_field(name=t(lang, "turn.deadline"), value=f"<t:{settings['deadline_at']}:R>")
    embed.set_footer(
        text=t(lang, "cards.footer", stock=len(state.stock), target=f"{target:,}".replace(",", "."))
    )
    embed.set_image(url="attachment://table.png")
    view = discord.ui.View(timeout=None)
    if state.phase != "over":
        view.add_item(
            GameButton(
                game,
                state.seq,
                "c_hand",
                label=t(lang, "cards.button.hand"),
                style=discord.ButtonStyle.primary,
            )
        )
    waiting = [] if state.phase == "over" else waiting_for(state)
    return {"content": mentions_of(state, waiting) or None, "embed": embed, "view": view}


def mentions_of(state: CardState, seats: list[int]) -> str:
    """Mentions of ``seats`` (card-game players have Discord ids like board-game players)."""
    return mentions(state, seats)  # type: ignore[arg-type]


def round_message(state: CardState, lang: str, event: dict[str, Any]) -> discord.Embed:
    """A round's result: each player's lay-out, value, Mr. Monopoly bonus and points."""
    embed = discord.Embed(title=t(lang, "cards.round_title", round=event["round"]), colour=0xF9A825)
    for entry in event["players"]:
        seat = entry["player"]
        head = t(
            lang,
            "cards.round_player",
            name=state.players[seat].name,
            points=f"{entry['points']:,}".replace(",", "."),
        )
        body = layout_text(state, entry["layout"])
        if entry.get("voided"):
            body = t(lang, "cards.voided")
        elif entry.get("mr_monopoly_bonus"):
            body += "\n" + t(lang, "cards.mr_monopoly", amount=entry["mr_monopoly_bonus"])
        if seat == event.get("ender"):
            head += " 🏁"
        embed.add_field(name=head, value=clip(body, 1000), inline=False)
    return embed


async def table_file(state: CardState, lang: str) -> discord.File:
    """The table image (drawn in a worker thread)."""
    png = await asyncio.to_thread(render_table, state, lang=lang)
    return discord.File(io.BytesIO(png), filename="table.png")


async def hand_file(state: CardState, seat: int, lang: str) -> discord.File:
    """The image of a player's hand (drawn in a worker thread)."""
    png = await asyncio.to_thread(render_hand, state, seat, lang=lang)
    return discord.File(io.BytesIO(png), filename="hand.png")


async def round_files(state: CardState, lang: str) -> list[discord.File]:
    """Every player's scored lay-out of the last round as images (drawn in a worker thread)."""

    def draw() -> list[bytes]:
        return [render_round_result(state, seat, lang=lang) for seat in range(len(state.players))]

    return [
        discord.File(io.BytesIO(png), filename=f"round-{seat + 1}.png")
        for seat, png in enumerate(await asyncio.to_thread(draw))
    ]


async def post_digest(channel: discord.abc.Messageable, row: Any) -> None:
    """The card game's daily digest: the table as it stands, with its image."""
    state = row.state
    assert isinstance(state, CardState)
    settings = dict(row.settings)
    lang = settings.get("lang", "de")
    payload = table_message(row.id, state, settings)
    payload["embed"].title = t(lang, "cards.digest", round=state.round)
    await channel.send(
        embed=payload["embed"], content=payload["content"], file=await table_file(state, lang)
    )


async def post_table(
    cog: MonopolyCog,
    channel: discord.abc.Messageable,
    game: int,
    state: CardState,
    settings: dict[str, Any],
) -> None:
    """Post the table of a card game that just started, and remember the message."""
    lang = settings.get("lang", "de")
    settings["card_lines"] = [
        line
        for event in visible_events(state.events, None)
        if (line := event_line(state, lang, event))
    ]
    await cog.deadlines.reschedule(game, state, settings)
    message = await channel.send(
        **table_message(game, state, settings), file=await table_file(state, lang)
    )
    settings["table_message"] = message.id
    await cog.deadlines.tell_turn(game, state, settings, message.jump_url)
    await cog.service.store.set_settings(game, settings)


async def publish(
    cog: MonopolyCog, channel: discord.abc.Messageable, game: int, result: ApplyResult
) -> None:
    """Show an action of the card game: the table message, round results, the end."""
    state = result.state
    assert isinstance(state, CardState)
    async with cog._lock(game):
        row = await cog.service.store.load(game)
        settings = dict(row.settings)
        lang = settings.get("lang", "de")
        public = visible_events(result.events, None)
        lines = [line for event in public if (line := event_line(state, lang, event))]
        settings["card_lines"] = (list(settings.get("card_lines", [])) + lines)[-MAX_LINES:]
        if result.actor is not None:
            _absence.player_acted(settings, result.actor)  # back at the table: count anew
        for event in public:
            if event["type"] == "round_scored":
                await channel.send(
                    embed=round_message(state, lang, event),
                    files=await round_files(state, lang),
                )
            if event["type"] == "game_over":
                winners = ", ".join(state.players[s].name for s in event["winners"])
                await channel.send(t(lang, "cards.winner", names=winners))
        await cog.deadlines.reschedule(game, state, settings)
        message_id = settings.get("table_message")
        if message_id is not None:
            try:
                await channel.get_partial_message(message_id).edit(  # type: ignore[attr-defined]
                    **table_message(game, state, settings),
                    attachments=[await table_file(state, lang)],
                )
            except discord.HTTPException:
                log.warning("Could not edit card table %s", message_id, exc_info=True)
            link = f"https://discord.com/channels/{row.guild_id}/{row.channel_id}/{message_id}"
            await cog.deadlines.tell_turn(game, state, settings, link)
        await cog.service.store.set_settings(game, settings)


# -- the private hand -----------------------------------------------------------------


def hand_message(
    game: int,
    state: CardState,
    seat: int,
    lang: str,
    note: str | None = None,
    first: str | None = None,
) -> dict[str, Any]:
    """A player's hand, privately, with a control for everything they may do now."""
    player = state.players[seat]
    embed = discord.Embed(title=t(lang, "cards.hand_title", name=player.name), colour=TABLE_COLOUR)
    embed.description = (note + "\n\n" if note else "") + cards_text(state, list(player.hand))
    embed.add_field(
        name=t(lang, "cards.own_pile"), value=cards_text(state, list(state.piles[seat]))
    )
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
            value=clip(layout_text(state, suggestion), 1000),
            inline=False,
        )
    if first is not None and first not in state.players[seat].hand:
        first = None
    if first is not None:
        embed.add_field(name=t(lang, "cards.first_chosen"), value=card_name(state, first))
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
                options=_card_options(state, firsts),
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
                options=_card_options(state, hand),
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
                options=_card_options(state, hand),
                placeholder=t(lang, "cards.pass_placeholder"),
                row=2,
            )
        )
    if state.phase in ("turn", "pass") and seat == state.current and hand:
        view.add_item(
            PanelSelect(
                game,
                "c_custom",
                options=_card_options(state, hand),
                placeholder=t(lang, "cards.custom_placeholder"),
                min_values=1,
                max_values=min(len(hand), SELECT_MAX),
                row=3,
            )
        )
    return {"embed": embed, "view": view}


def _card_options(state: CardState, cards: list[str]) -> list[discord.SelectOption]:
    return [
        discord.SelectOption(label=clip(card_name(state, c), 100), value=c)
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
            label = t(lang, key, number=action["pile"] + 1)
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


# -- clicks ---------------------------------------------------------------------------


@game_button("c_hand")
async def open_hand(
    cog: MonopolyCog, interaction: discord.Interaction, game: int, seq: int, arg: str | None
) -> None:
    """The "My hand" button: the clicking player's hand, privately."""
    lang = lang_of(interaction)
    row = await cog.service.store.load(game)
    state = row.state
    if not isinstance(state, CardState) or state.phase == "over":
        await reply(interaction, t(lang, "error.game_over"))
        return
    seat = cog.service.seat_of(state, interaction.user.id)  # type: ignore[arg-type]
    if seat is None:
        await reply(interaction, t(lang, "error.not_a_player"))
        return
    await interaction.response.send_message(**hand_message(game, state, seat, lang), ephemeral=True)


async def _act(
    cog: MonopolyCog, interaction: discord.Interaction, game: int, action: dict[str, Any]
) -> None:
    """Apply the player's card action; refresh their hand, then the table."""
    lang = lang_of(interaction)
    try:
        result = await cog.service.act(game, interaction.user.id, action)
    except (IllegalAction, StoreError) as error:
        await reply(interaction, explain_card(lang, error))
        return
    state = result.state
    assert isinstance(state, CardState) and result.actor is not None
    seat = result.actor
    notes = []
    for event in visible_events(result.events, seat):
        if event["type"] == "drew" and event.get("card"):
            notes.append(t(lang, "cards.you_drew", card=card_name(state, event["card"])))
        if event["type"] == "bonus_revealed" and event.get("cards"):
            notes.append(t(lang, "cards.your_bonus", cards=cards_text(state, event["cards"])))
    if state.phase == "over" or seat not in waiting_for(state) and state.current != seat:
        await interaction.response.edit_message(
            content="\n".join(notes) or t(lang, "manage.done"),
            embed=None,
            view=None,
            attachments=[],
        )
    else:
        await interaction.response.edit_message(
            **hand_message(game, state, seat, lang, "\n".join(notes) or None),
            attachments=[await hand_file(state, seat, lang)],
        )
    await publish(cog, interaction.channel, game, result)  # type: ignore[arg-type]


def explain_card(lang: str, error: Exception) -> str:
    """A refusal of the card game, with card and group names where the engine gives ids."""
    if isinstance(error, IllegalAction) and error.code.startswith("layout"):
        params = dict(error.params)
        missing = params.get("missing")
        if isinstance(missing, list | tuple):
            params["missing"] = len(missing)
        return t(lang, f"error.{error.code}", **params) if params else explain(lang, error)
    return explain(lang, error)


@panel("c_draw")
async def _draw(
    cog: MonopolyCog, interaction: discord.Interaction, game: int, arg: Any, values: list[str]
) -> None:
    await _act(cog, interaction, game, {"type": "draw"})


@panel("c_lay")
async def _lay_out(
    cog: MonopolyCog, interaction: discord.Interaction, game: int, arg: Any, values: list[str]
) -> None:
    await _suggested(cog, interaction, game, "lay_out")


@panel("c_arrange")
async def _arrange(
    cog: MonopolyCog, interaction: discord.Interaction, game: int, arg: Any, values: list[str]
) -> None:
    await _suggested(cog, interaction, game, "arrange")


async def _suggested(
    cog: MonopolyCog, interaction: discord.Interaction, game: int, kind: str
) -> None:
    row = await cog.service.store.load(game)
    state = row.state
    seat = cog.service.seat_of(state, interaction.user.id) if state else None  # type: ignore[arg-type]
    layout = best_layout(state, seat) if isinstance(state, CardState) and seat is not None else None
    if layout is None:
        await reply(interaction, t(lang_of(interaction), "error.no_complete_group"))
        return
    await _act(cog, interaction, game, {"type": kind, "layout": layout})


@panel("c_swap")
async def _swap(
    cog: MonopolyCog, interaction: discord.Interaction, game: int, arg: Any, values: list[str]
) -> None:
    parts = (values[0] if values else "").split("-")
    if len(parts) != 3 or not parts[1].isdigit() or not parts[2].isdigit():
        await reply(interaction, t(lang_of(interaction), "error.unknown_button"))
        return
    kind, first, second = parts[0], int(parts[1]), int(parts[2])
    if kind == "s":
        action: dict[str, Any] = {"type": "swap", "target": first, "count": second}
    else:
        action = {"type": "swap_extra", "pile": first, "stock": second == 1}
    chosen = drafts(cog).pop((FIRST, game, interaction.user.id), None)
    if isinstance(chosen, FirstDiscard):
        action["first_discard"] = chosen.card
    await _act(cog, interaction, game, action)


@panel("c_discard")
async def _discard(
    cog: MonopolyCog, interaction: discord.Interaction, game: int, arg: Any, values: list[str]
) -> None:
    await _act(cog, interaction, game, {"type": "discard", "cards": list(values)})


@panel("c_pass")
async def _pass(
    cog: MonopolyCog, interaction: discord.Interaction, game: int, arg: Any, values: list[str]
) -> None:
    await _act(cog, interaction, game, {"type": "pass_card", "card": values[0] if values else ""})


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


def _assignables(state: CardState, cards: list[str]) -> list[str]:
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
    keys = _assignables(state, draft.cards)
    pages = max(1, -(-len(keys) // ASSIGN_PAGE))
    draft.page = min(max(draft.page, 0), pages - 1)
    first = draft.page * ASSIGN_PAGE
    title = t(lang, "cards.assign_title")
    embed = discord.Embed(
        title=title + (f" ({draft.page + 1}/{pages})" if pages > 1 else ""), colour=TABLE_COLOUR
    )
    embed.description = cards_text(state, draft.cards)
    view = discord.ui.View(timeout=None)
    for row, key in enumerate(keys[first : first + ASSIGN_PAGE]):
        what = t(lang, "cards.buildings") if key == "buildings" else card_name(state, key)
        options = [
            discord.SelectOption(
                label=clip(deck.group(g).name, 100),
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


async def _card_state(
    cog: MonopolyCog, interaction: discord.Interaction, game: int
) -> CardState | None:
    row = await cog.service.store.load(game)
    if not isinstance(row.state, CardState):
        await reply(interaction, t(lang_of(interaction), "error.game_over"))
        return None
    return row.state


@panel("c_custom")
async def _custom(
    cog: MonopolyCog, interaction: discord.Interaction, game: int, arg: Any, values: list[str]
) -> None:
    state = await _card_state(cog, interaction, game)
    if state is None:
        return
    cards = list(values)
    groups = {state.deck.card(c).group for c in cards if state.deck.card(c).kind == PROPERTY}
    if len(groups) < 2 or not _assignables(state, cards):
        await _act(cog, interaction, game, {"type": "lay_out", "layout": own_layout(state, cards)})
        return
    draft = keep_draft(cog, LAYOUT, LayoutDraft(game, interaction.user.id, cards=cards))
    await interaction.response.edit_message(
        **assign_message(game, state, draft, lang_of(interaction)), attachments=[]
    )


@panel("c_assign")
async def _assign(
    cog: MonopolyCog, interaction: discord.Interaction, game: int, arg: Any, values: list[str]
) -> None:
    nonce, _, index = str(arg or "").partition("-")

    def answer(state: CardState, draft: LayoutDraft) -> None:
        keys = _assignables(state, draft.cards)
        if index.isdigit() and int(index) < len(keys) and values:
            draft.assign[keys[int(index)]] = values[0]

    await _assignment_step(cog, interaction, game, nonce, answer)


@panel("c_assign_page")
async def _assign_page(
    cog: MonopolyCog, interaction: discord.Interaction, game: int, arg: Any, values: list[str]
) -> None:
    nonce, _, step = str(arg or "").partition("-")

    def turn(state: CardState, draft: LayoutDraft) -> None:
        draft.page += 1 if step == "n" else -1  # assign_message keeps it within the pages

    await _assignment_step(cog, interaction, game, nonce, turn)


async def _assignment_step(
    cog: MonopolyCog,
    interaction: discord.Interaction,
    game: int,
    nonce: str,
    change: Callable[[CardState, LayoutDraft], None],
) -> None:
    """Apply ``change`` to the player's lay-out draft and show the assignment step again."""
    draft = await live_draft(cog, LAYOUT, interaction, game, nonce)
    state = await _card_state(cog, interaction, game) if draft is not None else None
    if draft is None or state is None:
        return
    assert isinstance(draft, LayoutDraft)
    change(state, draft)
    await interaction.response.edit_message(
        **assign_message(game, state, draft, lang_of(interaction))
    )


@panel("c_custom_go")
async def _custom_go(
    cog: MonopolyCog, interaction: discord.Interaction, game: int, arg: Any, values: list[str]
) -> None:
    draft = await live_draft(cog, LAYOUT, interaction, game, arg)
    state = await _card_state(cog, interaction, game) if draft is not None else None
    if draft is None or state is None:
        return
    assert isinstance(draft, LayoutDraft)
    drop_draft(cog, LAYOUT, draft)
    layout = own_layout(state, draft.cards, draft.assign)
    await _act(cog, interaction, game, {"type": "lay_out", "layout": layout})


@panel("c_first")
async def _first(
    cog: MonopolyCog, interaction: discord.Interaction, game: int, arg: Any, values: list[str]
) -> None:
    state = await _card_state(cog, interaction, game)
    seat = cog.service.seat_of(state, interaction.user.id) if state else None  # type: ignore[arg-type]
    if state is None or seat is None or not values:
        await reply(interaction, t(lang_of(interaction), "error.not_a_player"))
        return
    keep_draft(cog, FIRST, FirstDiscard(game, interaction.user.id, card=values[0]))
    lang = lang_of(interaction)
    await interaction.response.edit_message(
        **hand_message(game, state, seat, lang, first=values[0]),
        attachments=[await hand_file(state, seat, lang)],
    )
