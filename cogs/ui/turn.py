"""The turn message of the board game: one message per turn (a "Zug"), telling that turn.

(Longer than ~400 lines: the live and finished message, its picture, its buttons and the
final summary share the same words and records; split, they would pass them around.)

While its turn runs, the message is *live*: it pings whom the game waits on, tells what
happened so far, says whose move it is and what the game waits for, shows the facts of a
decision (a lot's price and rents) and carries the buttons the engine allows now
(``bot.engine.legal``). When the turn ends it is *finished*: it keeps its own title
("Zug 5 · bob"), its log and the picture of how the turn ended, and loses its buttons.
The picture is the turn's view (``render.turn_view``): the mover's path with the squares'
names, owners, buildings and rents, and the standings, drawn for a phone; the whole board
is one click away ("🗺️ Brett").

Also the final summary and the net-worth table. Functions of (state, settings); the turn
being told is a ``bot.turn_story`` record.
"""

from __future__ import annotations

import asyncio
import hashlib
import io
import json
from typing import Any

import discord

from bot.engine.legal import legal_actions, may_offer_lots, waiting_for
from bot.engine.state import HOTEL, GameState
from bot.engine.wealth import standings, wealth
from bot.i18n import t
from bot.settings import GameSettings
from bot.turn_story import fresh
from cogs.ui.clock import deadline_text
from cogs.ui.deeds import ALT_MAX, lot_facts
from cogs.ui.fairness import add_commitment, add_reveal, short_fingerprint
from cogs.ui.follow import follow_button
from cogs.ui.ids import GameButton, clip
from cogs.ui.offers import lot_offer_buttons
from cogs.ui.text import Narrator, theme_of
from render.board import render_board
from render.turn_view import TurnFocus, describe_turn_view, render_turn_view

#: The most lines a turn's log shows (its first lines, the landing, are always kept).
MAX_LINES = 18
#: Lines kept from the start of a log that is too long.
HEAD_LINES = 4
#: Discord's limit for an embed's description.
DESCRIPTION_MAX = 4096
EMBED_COLOUR = 0x2E7D32
#: A finished turn's colour: grey, so the live message stands out.
DONE_COLOUR = 0x607D8B
#: The file names of the turn's picture and of the whole board.
TURN_IMAGE = "turn.png"
BOARD_IMAGE = "board.png"


def _theme_words(settings: GameSettings) -> dict[str, Any]:
    """The theme's square names and words, as the renderers take them."""
    theme = theme_of(settings)
    return {
        "names": theme.squares if theme is not None else None,
        "terms": theme.terms if theme is not None else None,
    }


def focus_of(info: dict[str, Any]) -> TurnFocus:
    """The turn record (``bot.turn_story``) as the picture takes it."""
    return TurnFocus(
        mover=int(info["seat"]),
        turn=int(info["turn"]),
        start=int(info["start"]),
        moves=tuple((int(a), int(b), str(how)) for a, b, how in info.get("moves", [])),
        dice=tuple((int(a), int(b)) for a, b in info.get("dice", [])),
    )


def turn_info(state: GameState, settings: GameSettings) -> dict[str, Any]:
    """The record of the turn under way (a fresh one for games stored before records)."""
    info = settings.records.turn_info
    return info if isinstance(info, dict) and "seat" in info else fresh(state)


def image_key(state: GameState, settings: GameSettings, info: dict[str, Any]) -> str:
    """A short key of everything the turn's picture shows: a new key, a new picture."""
    shown = [
        {k: info.get(k) for k in ("turn", "seat", "start", "moves", "dice")},
        [[p.position, p.cash, p.in_jail, p.bankrupt] for p in state.players],
        state.owner,
        state.houses,
        state.mortgaged,
        settings.lobby.lang,
        settings.lobby.theme,
        settings.lobby.theme_data,
    ]
    text = json.dumps(shown, sort_keys=True, separators=(",", ":"))
    return hashlib.sha256(text.encode()).hexdigest()[:16]


async def turn_image(
    state: GameState, settings: GameSettings, info: dict[str, Any]
) -> discord.File:
    """The picture of the turn ``info`` tells, with its alt text (drawn in a worker thread;
    raises whatever the renderer raises)."""
    lang = settings.lobby.lang
    words = _theme_words(settings)
    focus = focus_of(info)
    png = await asyncio.to_thread(render_turn_view, state, focus, lang=lang, **words)
    alt = describe_turn_view(state, focus, lang=lang, **words)
    return discord.File(io.BytesIO(png), filename=TURN_IMAGE, description=clip(alt, ALT_MAX))


async def board_file(state: GameState, settings: GameSettings, **options: Any) -> discord.File:
    """The whole board as an attachment with its alt text, drawn in a worker thread."""
    lang = settings.lobby.lang
    words = _theme_words(settings)
    png = await asyncio.to_thread(
        render_board,
        state,
        lang=lang,
        preset_label=t(lang, f"preset.{state.rules.preset}"),
        **words,
        **options,
    )
    return discord.File(
        io.BytesIO(png), filename=BOARD_IMAGE, description=board_alt(state, settings)
    )


def board_alt(state: GameState, settings: GameSettings) -> str:
    """The alt text of the whole board: the turn, and each player's cash, worth and lots."""
    lang = settings.lobby.lang
    narrator = Narrator(state, lang, theme_of(settings))
    parts = [t(lang, "alt.board", turn=state.turn)]
    for seat, _ in standings(state):
        lots = [narrator.square(i) for i, owner in enumerate(state.owner) if owner == seat]
        parts.append(
            t(
                lang,
                "alt.board_player",
                name=narrator.player(seat),
                cash=narrator.money(state.players[seat].cash),
                worth=narrator.money(wealth(state, seat)),
                where=narrator.whereabouts(seat),
                lots=", ".join(lots) or "–",
            )
        )
    return clip(" ".join(parts), ALT_MAX)


def holdings_text(state: GameState, settings: GameSettings) -> str:
    """Every player's cash, net worth, whereabouts and lots (with buildings and mortgages),
    richest first: the whole board as text."""
    lang = settings.lobby.lang
    narrator = Narrator(state, lang, theme_of(settings))
    blocks = []
    for seat, worth in standings(state):
        player = state.players[seat]
        head = t(
            lang,
            "board.player",
            name=player.name,
            cash=narrator.money(player.cash),
            worth=narrator.money(worth),
            where=narrator.whereabouts(seat),
        )
        lots = []
        for index, owner in enumerate(state.owner):
            if owner != seat:
                continue
            houses = state.houses[index]
            mark = " 🏨" if houses == HOTEL else (f" 🏠{houses}" if houses else "")
            if state.mortgaged[index]:
                mark += " (" + t(lang, "word.mortgaged") + ")"
            lots.append(narrator.square(index) + mark)
        blocks.append(head + "\n" + (", ".join(lots) or t(lang, "board.no_lots")))
    for player in state.players:
        if player.bankrupt:
            blocks.append(f"~~{player.name}~~ ({t(lang, 'word.bankrupt')})")
    return clip("\n\n".join(blocks), DESCRIPTION_MAX)


def player_lines(state: GameState, narrator: Narrator, *, live: bool = True) -> str:
    """Each player's cash and whereabouts, one line each (▶ marks the mover if ``live``)."""
    rows = []
    for seat, player in enumerate(state.players):
        if player.bankrupt:
            rows.append(f"~~{player.name}~~")
            continue
        marker = "▶ " if live and seat == state.current and state.phase != "over" else ""
        jail = " 🔒" if player.in_jail else ""
        rows.append(
            f"{marker}**{player.name}**: {narrator.money(player.cash)} · "
            f"{narrator.whereabouts(seat)}{jail}"
        )
    return "\n".join(rows)


def log_text(lines: list[str], lang: str, fallback: str) -> str:
    """A turn's log as a description: every line if they fit, else the first lines (the
    landing and what it cost) and the latest, with a mark where lines were left out."""
    if len(lines) > MAX_LINES:
        left_out = len(lines) - MAX_LINES + 1
        lines = [
            *lines[:HEAD_LINES],
            t(lang, "turn.lines_left_out", count=left_out),
            *lines[HEAD_LINES + left_out :],
        ]
    text = "\n".join(lines) or fallback
    return clip(text, DESCRIPTION_MAX)


def title_of(state: GameState, info: dict[str, Any], lang: str) -> str:
    """The title of a turn's message: "Zug 5 · bob"."""
    seat = int(info["seat"])
    name = state.players[seat].name if 0 <= seat < len(state.players) else "?"
    return clip(t(lang, "turn.title", turn=info["turn"], name=name), 256)


def live_embed(
    state: GameState,
    settings: GameSettings,
    lines: list[str],
    info: dict[str, Any],
    *,
    image: bool = True,
) -> discord.Embed:
    """The embed of the live turn message: the turn so far, what the game waits for."""
    lang = settings.lobby.lang
    narrator = Narrator(state, lang, theme_of(settings))
    mover = int(info["seat"])
    begins = t(lang, "turn.begins", name=narrator.player(mover), where=narrator.whereabouts(mover))
    embed = discord.Embed(
        title=title_of(state, info, lang),
        description=log_text(lines, lang, begins),
        colour=EMBED_COLOUR,
    )
    if state.phase == "buy" and state.pending_buy is not None:
        square = state.pending_buy
        embed.add_field(
            name=clip("🏷️ " + narrator.square(square), 256),
            value=clip(lot_facts(state, settings, square, lang), 1024),
            inline=False,
        )
    if not image:  # the standings the picture would show
        embed.add_field(
            name=t(lang, "turn.players"),
            value=clip(player_lines(state, narrator), 1024),
            inline=False,
        )
    _time_fields(embed, state, settings)
    first = int(info.get("turn", state.turn)) == 1
    if first:
        add_commitment(embed, settings, cards=False, first=True)
    embed.set_footer(text=clip(_footer(state, settings, narrator, first=first), 2048))
    if image:
        embed.set_image(url=f"attachment://{TURN_IMAGE}")
    return embed


def _footer(state: GameState, settings: GameSettings, narrator: Narrator, *, first: bool) -> str:
    """What the game waits for, and from whom (the auction message lists its bidders)."""
    lang = settings.lobby.lang
    text = "▶ " + t(lang, f"phase.{state.phase}")
    if state.phase != "auction":
        names = ", ".join(narrator.player(s) for s in waiting_for(state))
        if names:
            text += " · " + names
    fingerprint = short_fingerprint(settings)
    if fingerprint is not None and not first:
        text += " · " + t(lang, "fair.footer", fingerprint=fingerprint)
    return text


def finished_embed(
    state: GameState,
    settings: GameSettings,
    lines: list[str],
    info: dict[str, Any],
    *,
    image: bool = True,
) -> discord.Embed:
    """The embed of a turn that is over: its own title, its log, how it ended."""
    lang = settings.lobby.lang
    embed = discord.Embed(
        title=title_of(state, info, lang),
        description=log_text(lines, lang, t(lang, "turn.nothing")),
        colour=DONE_COLOUR,
    )
    if int(info.get("turn", 0)) == 1:
        add_commitment(embed, settings, cards=False, first=True)
    if image:
        embed.set_image(url=f"attachment://{TURN_IMAGE}")
    return embed


def _time_fields(embed: discord.Embed, state: GameState, settings: GameSettings) -> None:
    """The clocks of an asynchronous game: the move's deadline, the end, computer seats."""
    lang = settings.lobby.lang
    if settings.play.paused:
        embed.add_field(name=t(lang, "turn.paused"), value="/monopoly resume", inline=True)
    elif (deadline := deadline_text(state, settings)) is not None:
        embed.add_field(name=t(lang, "turn.deadline"), value=deadline, inline=True)
    if settings.play.ends_at:
        embed.add_field(
            name=t(lang, "turn.ends"), value=f"<t:{settings.play.ends_at}:f>", inline=True
        )
    computer = sorted(int(seat) for seat in settings.play.computer)
    if computer:
        names = ", ".join(state.players[seat].name for seat in computer)
        embed.add_field(name=t(lang, "turn.computer"), value=clip(names, 1024), inline=True)


# What a button of the turn message does: (engine action type, label key, style).
TURN_BUTTONS: dict[str, tuple[str, discord.ButtonStyle]] = {
    "roll": ("button.roll", discord.ButtonStyle.primary),
    "pay_bail": ("button.pay_bail", discord.ButtonStyle.secondary),
    "use_jail_card": ("button.use_jail_card", discord.ButtonStyle.secondary),
    "buy": ("button.buy", discord.ButtonStyle.success),
    "decline": ("button.decline", discord.ButtonStyle.secondary),
    "choose_pay": ("button.choose_pay", discord.ButtonStyle.secondary),
    "choose_draw": ("button.choose_draw", discord.ButtonStyle.secondary),
    "keep_mortgages": ("button.keep_mortgages", discord.ButtonStyle.secondary),
    "lift_mortgages": ("button.lift_mortgages", discord.ButtonStyle.success),
    "end_turn": ("button.end_turn", discord.ButtonStyle.primary),
    "declare_bankruptcy": ("button.declare_bankruptcy", discord.ButtonStyle.danger),
}


def turn_view(game_id: int, state: GameState, settings: GameSettings) -> discord.ui.View:
    """Buttons for what the game waits for now, plus the management menus."""
    lang = settings.lobby.lang
    narrator = Narrator(state, lang, theme_of(settings))
    view = discord.ui.View(timeout=None)
    if state.phase == "over":
        return view
    seq = state.seq
    shown: list[tuple[str, str | None, str]] = []
    for seat in waiting_for(state):
        for action in legal_actions(state, seat):
            kind = action["type"]
            if kind == "choose":
                kind = f"choose_{action['option']}"
            if kind == "decide_mortgages":
                kind = "lift_mortgages" if action["lift"] else "keep_mortgages"
                if (
                    kind == "lift_mortgages"
                    and action["lift"] != state.mortgage_choices[0]["squares"]
                ):
                    continue
            if kind not in TURN_BUTTONS or any(k == kind for k, _, _ in shown):
                continue
            label = t(lang, TURN_BUTTONS[kind][0])
            if kind == "buy" and state.pending_buy is not None:
                price = state.board.squares[state.pending_buy].price
                label = t(lang, "button.buy_price", price=narrator.money(price))
            if kind == "pay_bail":
                label = t(
                    lang,
                    "button.pay_bail_amount",
                    amount=narrator.money(state.rules.jail_fine or state.board.jail_fine),
                )
            shown.append((kind, None, label))
    for kind, arg, label in shown:
        view.add_item(
            GameButton(
                game_id,
                seq,
                kind,
                arg,
                label=label,
                style=TURN_BUTTONS[kind][1],
                row=0 if len(view.children) < 5 else 1,
            )
        )
    # Debts, lot offers, per-lot lifting (row 3) and rent claims (row 4).
    for item in turn_extras(game_id, state, settings):
        view.add_item(item)
    for act, key in (("manage", "button.manage"), ("trade_menu", "button.trade")):
        view.add_item(GameButton(game_id, seq, act, label=t(lang, key), row=2))
    view.add_item(
        GameButton(
            game_id,
            seq,
            "resign",
            label=t(lang, "button.resign"),
            style=discord.ButtonStyle.danger,
            row=2,
        )
    )
    # Looking, not acting, on a row of their own (row 1, after any decisions row 0 could
    # not hold): the whole board and the deed as they are when clicked, and 🔔 to follow
    # the game without a seat. Should a row 1 of decisions leave too little room, 🔔 goes
    # first (Discord takes five buttons a row).
    room = 5 - sum(1 for item in view.children if item.row == 1)
    looking: list[discord.ui.Item] = [
        GameButton(game_id, seq, "full_board", label=t(lang, "button.full_board"), row=1)
    ]
    square = deed_square(state)
    if square is not None:
        looking.append(
            GameButton(game_id, seq, "deed", str(square), label=t(lang, "button.deed"), row=1)
        )
    looking.append(follow_button(game_id, seq, lang, row=1))
    for item in looking[: max(room, 0)]:
        view.add_item(item)
    return view


def deed_square(state: GameState) -> int | None:
    """The lot whose title deed the turn message offers: the one up for sale, else the lot
    the mover stands on (None on other squares)."""
    if state.pending_buy is not None:
        return state.pending_buy
    square = state.players[state.current].position
    return square if state.board.squares[square].is_property else None


def turn_extras(game: int, state: GameState, settings: GameSettings) -> list[discord.ui.Item]:
    """Extra buttons of the turn message: debts, lot offers, per-lot lifting, rent claims.

    Row 3 holds the buttons of the phase (debt or received mortgages), row 4 the rent
    claims (at most five: Discord's limit per row).
    """
    lang = settings.lobby.lang
    narrator = Narrator(state, lang, theme_of(settings))
    seq = state.seq
    items: list[discord.ui.Item] = []
    if state.phase == "debt" and state.debts:
        debt = state.debts[0]
        if state.lot_offer is None:
            items.append(
                GameButton(
                    game, seq, "debt_manage", label=t(lang, "button.debt_manage"), emoji="🏦", row=3
                )
            )
            if may_offer_lots(state, debt["debtor"]):
                label = t(lang, "button.offer_lots", name=narrator.player(debt["creditor"]))
                items.append(GameButton(game, seq, "offer_lots", label=clip(label, 80), row=3))
        else:
            items += lot_offer_buttons(game, state, lang, row=3)
    if state.phase == "mortgage_choice" and len(state.mortgage_choices[0]["squares"]) > 1:
        items.append(
            GameButton(game, seq, "lift_choice", label=t(lang, "button.lift_choice"), row=3)
        )
    if state.rules.rent_must_be_claimed:
        for claim in state.claims[:5]:
            label = t(
                lang,
                "button.claim_rent",
                name=narrator.player(claim["owner"]),
                amount=narrator.money(claim["amount"]),
                square=narrator.square(claim["square"]),
            )
            items.append(
                GameButton(
                    game,
                    seq,
                    "claim_rent",
                    str(claim["square"]),
                    label=clip(label, 80),
                    style=discord.ButtonStyle.success,
                    row=4,
                )
            )
    return items


def final_embed(
    state: GameState,
    settings: GameSettings,
    *,
    game_id: int | None = None,
    image: bool = True,
) -> discord.Embed:
    """The end-of-game summary: the winner and the wealth table.

    With the ``game_id`` it also reveals the game's seed (the game is over: see
    :mod:`bot.fairness`), so that anyone can check every throw.
    """
    lang = settings.lobby.lang
    narrator = Narrator(state, lang, theme_of(settings))
    if state.winner is None:
        title = t(lang, "final.abandoned")
    else:
        title = t(lang, "final.winner", name=state.players[state.winner].name)
    embed = discord.Embed(title=title, colour=0xC62828)
    rows = state.standings or [[seat, value] for seat, value in standings(state)]
    table = []
    for place, (seat, value) in enumerate(rows, 1):
        table.append(f"{place}. {state.players[seat].name}: {narrator.money(value)}")
    for player in state.players:
        if player.bankrupt:
            table.append(f"– ~~{player.name}~~ ({t(lang, 'word.bankrupt')})")
    embed.description = t(lang, f"final.reason.{state.end_reason}") + "\n\n" + "\n".join(table)
    if game_id is not None and state.phase == "over":
        add_reveal(embed, game_id, settings)
    if image:
        embed.set_image(url=f"attachment://{BOARD_IMAGE}")
    return embed


def wealth_table(state: GameState, settings: GameSettings) -> str:
    """Net worth of every player still in the game, richest first."""
    narrator = Narrator(state, settings.lobby.lang, theme_of(settings))
    return "\n".join(
        f"{n}. **{state.players[seat].name}**: {narrator.money(state.players[seat].cash)} "
        f"/ {narrator.money(wealth(state, seat))}"
        for n, (seat, _) in enumerate(standings(state), 1)
    )
