"""The turn message of the board game: the board image, what happened, whose move, buttons.

Also the final summary and the net-worth table. Functions of (state, settings); the
buttons are exactly what the engine allows now (``bot.engine.legal``).
"""

from __future__ import annotations

import asyncio
import io
from typing import Any

import discord

from bot.engine.legal import legal_actions, may_offer_lots, waiting_for
from bot.engine.state import GameState
from bot.engine.wealth import standings, wealth
from bot.i18n import t
from cogs.ui.fairness import add_commitment, add_reveal
from cogs.ui.ids import GameButton, clip
from cogs.ui.offers import lot_offer_buttons
from cogs.ui.text import Narrator, theme_of
from render.board import render_board

MAX_LINES = 18
EMBED_COLOUR = 0x2E7D32


async def board_file(state: GameState, settings: dict[str, Any], **options: Any) -> discord.File:
    """The board image as an attachment, drawn in a worker thread."""
    lang = settings.get("lang", "de")
    theme = theme_of(settings)
    names = theme.squares if theme is not None else None
    png = await asyncio.to_thread(
        render_board,
        state,
        lang=lang,
        names=names,
        terms=theme.terms if theme is not None else None,
        preset_label=t(lang, f"preset.{state.rules.preset}"),
        **options,
    )
    return discord.File(io.BytesIO(png), filename="board.png")


def _player_lines(state: GameState, narrator: Narrator) -> str:
    rows = []
    for seat, player in enumerate(state.players):
        if player.bankrupt:
            rows.append(f"~~{player.name}~~")
            continue
        marker = "▶ " if seat == state.current else ""
        jail = " 🔒" if player.in_jail else ""
        rows.append(
            f"{marker}**{player.name}**: {narrator.money(player.cash)} · "
            f"{narrator.square(player.position)}{jail}"
        )
    return "\n".join(rows)


def turn_embed(state: GameState, settings: dict[str, Any], lines: list[str]) -> discord.Embed:
    """The embed of a turn message: whose turn, what happened, the players."""
    lang = settings["lang"]
    narrator = Narrator(state, lang, theme_of(settings))
    current = state.players[state.current]
    if state.phase == "over":
        title = t(lang, "turn.over")
    else:
        title = t(lang, "turn.title", turn=state.turn, name=current.name)
    description = "\n".join(lines[-MAX_LINES:]) or t(lang, f"phase.{state.phase}")
    embed = discord.Embed(title=title, description=description, colour=EMBED_COLOUR)
    embed.add_field(
        name=t(lang, "turn.players"), value=_player_lines(state, narrator), inline=False
    )
    if state.phase != "over":
        waiting = ", ".join(state.players[s].name for s in waiting_for(state))
        embed.set_footer(text=t(lang, f"phase.{state.phase}") + " · " + waiting)
        _time_fields(embed, state, settings)
        # The fingerprint of the seed while the game runs (the first turn says what it is).
        add_commitment(embed, settings, cards=False, first=state.turn == 1)
    embed.set_image(url="attachment://board.png")
    return embed


def _time_fields(embed: discord.Embed, state: GameState, settings: dict[str, Any]) -> None:
    """The clocks of an asynchronous game: the move's deadline, the end, computer seats."""
    lang = settings["lang"]
    if settings.get("paused"):
        embed.add_field(name=t(lang, "turn.paused"), value="/monopoly resume", inline=True)
    elif settings.get("deadline_at"):
        embed.add_field(
            name=t(lang, "turn.deadline"), value=f"<t:{settings['deadline_at']}:R>", inline=True
        )
    if settings.get("ends_at"):
        embed.add_field(
            name=t(lang, "turn.ends"), value=f"<t:{settings['ends_at']}:f>", inline=True
        )
    computer = sorted(int(seat) for seat in settings.get("computer", {}))
    if computer:
        names = ", ".join(state.players[seat].name for seat in computer)
        embed.add_field(name=t(lang, "turn.computer"), value=names, inline=True)


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


def turn_view(game_id: int, state: GameState, settings: dict[str, Any]) -> discord.ui.View:
    """Buttons for what the game waits for now, plus the management menus."""
    lang = settings["lang"]
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
    for act, key in (
        ("manage", "button.manage"),
        ("trade_menu", "button.trade"),
        ("resign", "button.resign"),
    ):
        style = discord.ButtonStyle.danger if act == "resign" else discord.ButtonStyle.secondary
        view.add_item(GameButton(game_id, seq, act, label=t(lang, key), style=style, row=2))
    return view


def turn_extras(game: int, state: GameState, settings: dict[str, Any]) -> list[discord.ui.Item]:
    """Extra buttons of the turn message: debts, lot offers, per-lot lifting, rent claims.

    Row 3 holds the buttons of the phase (debt or received mortgages), row 4 the rent
    claims (at most five: Discord's limit per row).
    """
    lang = settings["lang"]
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
    state: GameState, settings: dict[str, Any], *, game_id: int | None = None
) -> discord.Embed:
    """The end-of-game summary: the winner and the wealth table.

    With the ``game_id`` it also reveals the game's seed (the game is over: see
    :mod:`bot.fairness`), so that anyone can check every throw.
    """
    lang = settings["lang"]
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
    embed.set_image(url="attachment://board.png")
    return embed


def wealth_table(state: GameState, settings: dict[str, Any]) -> str:
    """Net worth of every player still in the game, richest first."""
    narrator = Narrator(state, settings["lang"], theme_of(settings))
    return "\n".join(
        f"{n}. **{state.players[seat].name}**: {narrator.money(state.players[seat].cash)} "
        f"/ {narrator.money(wealth(state, seat))}"
        for n, (seat, _) in enumerate(standings(state), 1)
    )
