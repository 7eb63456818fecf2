"""Managing one's property in Discord: building, mortgages, debts, received mortgages.

The management menu is private (ephemeral). Building works per colour group the user owns
completely: a row per street with "−" and "+" buttons that apply one ``sell_building`` /
``build`` at once and redraw the menu; the buttons follow the engine (even building, the
bank's stock, the phase), and the engine checks every click again. Mortgages are chosen in
two selects (to mortgage / to lift) and applied one by one on "Confirm".

This module also adds the turn message's extra buttons (debts, part payment, received
mortgages, rent claims) and the ``/monopoly property`` and ``/monopoly log`` commands.
"""

from __future__ import annotations

import asyncio
import io
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any

import discord
from discord import app_commands

from bot.engine.board import Board, load_board
from bot.engine.buildings import next_building, unmortgage_cost
from bot.engine.errors import IllegalAction
from bot.engine.game import apply_action
from bot.engine.legal import legal_actions, may_offer_lots
from bot.engine.rules import Rules
from bot.engine.state import HOTEL, GameState
from bot.i18n import t
from bot.store import StoreError
from cogs.monopoly._ids import GameButton
from cogs.monopoly._picker import LotPicker, Side, load_draft_game
from cogs.monopoly._text import Narrator, board_of, refusal, theme_of
from cogs.monopoly._trade import lot_offer_buttons
from cogs.monopoly._widgets import (
    Draft,
    PanelButton,
    PanelSelect,
    act,
    clip,
    drop_draft,
    explain,
    game_button,
    group_name,
    keep_draft,
    lang_of,
    live_draft,
    load_seat,
    lot_option,
    merge,
    panel,
    reply,
)
from render.deed import render_deed

if TYPE_CHECKING:
    from cogs.monopoly._cog import MonopolyCog

MORTGAGES = "mortgages"
LIFTS = "lifts"
MANAGE_COLOUR = 0x6D4C41
LOG_LIMIT = 1900


# -- what the engine allows -------------------------------------------------------------


def owned_groups(state: GameState, seat: int) -> list[str]:
    """The street groups ``seat`` owns completely, in board order."""
    board = state.board
    found = []
    for group, squares in board.groups.items():
        if board.squares[squares[0]].kind != "street":
            continue
        if all(state.owner[i] == seat for i in squares):
            found.append(group)
    return found


def dry_run(
    state: GameState, action: dict[str, Any]
) -> tuple[IllegalAction | None, list[dict[str, Any]]]:
    """The engine's refusal of ``action`` now (or None) and the events it would have.

    Tried on a copy, so the menu offers exactly what the engine allows, says why a button
    is off and shows what a click costs or brings; the real click is checked again.
    """
    try:
        return None, apply_action(state.copy(), action)
    except IllegalAction as error:
        return error, []


def _paid(events: list[dict[str, Any]], reason: str) -> int | None:
    amounts = [e["amount"] for e in events if e["type"] == "payment" and e["reason"] == reason]
    return sum(amounts) if amounts else None


def _legal(state: GameState, seat: int, kind: str) -> list[int]:
    return [a["square"] for a in legal_actions(state, seat) if a["type"] == kind]


def _level(lang: str, houses: int) -> str:
    if houses == HOTEL:
        return "🏨"
    if houses == 0:
        return t(lang, "manage.bare")
    return f"🏠×{houses}"


# -- building ---------------------------------------------------------------------------


def build_panel(
    state: GameState, settings: dict[str, Any], seat: int, game: int, lang: str, group: str | None
) -> dict[str, Any]:
    """The private building menu for one colour group of the user."""
    narrator = Narrator(state, lang, theme_of(settings))
    theme = narrator.theme
    groups = owned_groups(state, seat)
    if group not in groups:
        built = [g for g in groups if any(state.houses[i] for i in state.board.groups[g])]
        group = (built or groups or [None])[0]
    embed = discord.Embed(colour=MANAGE_COLOUR)
    embed.set_footer(
        text=t(
            lang,
            "manage.stock",
            cash=narrator.money(state.players[seat].cash),
            houses=state.bank_houses,
            hotels=state.bank_hotels,
        )
    )
    view = discord.ui.View(timeout=None)
    if group is None:
        embed.title = t(lang, "manage.build_title_none")
        embed.description = t(lang, "manage.no_groups")
    else:
        embed.title = t(lang, "manage.build_title", group=group_name(lang, theme, group))
        options = [
            discord.SelectOption(
                label=clip(group_name(lang, theme, g), 100),
                value=g,
                description=clip(", ".join(narrator.square(i) for i in state.board.groups[g]), 100),
                default=g == group,
            )
            for g in groups
        ]
        view.add_item(
            PanelSelect(
                game, "mg", options=options, placeholder=t(lang, "manage.pick_group"), row=0
            )
        )
        lines = []
        for row, square in enumerate(state.board.groups[group], start=1):
            info = state.board.squares[square]
            name = narrator.square(square)
            houses = state.houses[square]
            build_error, built = dry_run(state, {"type": "build", "player": seat, "square": square})
            sell_error, sold = dry_run(
                state, {"type": "sell_building", "player": seat, "square": square}
            )
            line = f"**{name}**: {_level(lang, houses)}"
            if build_error is not None and build_error.code != "fully_built":
                line += " · " + explain(lang, build_error, state, settings)
            lines.append(line)
            refund = _paid(sold, "sell_building")
            view.add_item(
                PanelButton(
                    game,
                    "ms",
                    str(square),
                    label="−" if refund is None else f"− {narrator.money(refund)}",
                    style=discord.ButtonStyle.danger,
                    disabled=sell_error is not None,
                    row=row,
                )
            )
            view.add_item(
                PanelButton(
                    game,
                    "mi",
                    str(square),
                    label=f"{name}: {_level(lang, houses)}",
                    disabled=True,
                    row=row,
                )
            )
            if houses == HOTEL:
                plus = "+"
            else:
                # A shortage auction pays nothing at once: show the printed house price.
                cost = _paid(built, "build") or info.house_cost
                icon = "🏨" if next_building(state, square) == "hotel" else "🏠"
                plus = f"+ {icon} {narrator.money(cost)}"
            view.add_item(
                PanelButton(
                    game,
                    "mb",
                    str(square),
                    label=plus,
                    style=discord.ButtonStyle.success,
                    disabled=build_error is not None,
                    row=row,
                )
            )
        embed.description = t(lang, "manage.build_intro") + "\n\n" + "\n".join(lines)
    view.add_item(PanelButton(game, "mm", label=t(lang, "manage.to_mortgages"), emoji="🏦", row=4))
    view.add_item(
        PanelButton(game, "mr", group, label=t(lang, "manage.refresh"), emoji="🔄", row=4)
    )
    return {"content": None, "embed": embed, "view": view}


async def open_manage(cog: MonopolyCog, interaction: discord.Interaction, game: int) -> None:
    """Open the private management menu: building if the user has a group, else mortgages."""
    lang = lang_of(interaction)
    loaded = await load_seat(cog, interaction, game)
    if loaded is None:
        return
    state, settings, seat = loaded
    owned = [i for i, owner in enumerate(state.owner) if owner == seat]
    if not owned:
        await reply(interaction, t(lang, "manage.nothing"))
        return
    if owned_groups(state, seat):
        message = build_panel(state, settings, seat, game, lang, None)
    else:
        draft = keep_draft(cog, MORTGAGES, MortgageDraft(game=game, user=interaction.user.id))
        message = mortgage_panel(state, settings, seat, draft, lang)
    await interaction.response.send_message(**message, ephemeral=True)


@panel("mg")
async def _group_picked(
    cog: MonopolyCog,
    interaction: discord.Interaction,
    game: int,
    arg: str | None,
    values: list[str],
) -> None:
    await _redraw_build(cog, interaction, game, values[0] if values else None)


@panel("mr")
async def _refresh(
    cog: MonopolyCog,
    interaction: discord.Interaction,
    game: int,
    arg: str | None,
    values: list[str],
) -> None:
    await _redraw_build(cog, interaction, game, arg)


@panel("mk")
async def _to_building(
    cog: MonopolyCog,
    interaction: discord.Interaction,
    game: int,
    arg: str | None,
    values: list[str],
) -> None:
    await _redraw_build(cog, interaction, game, None)


async def _redraw_build(
    cog: MonopolyCog, interaction: discord.Interaction, game: int, group: str | None
) -> None:
    loaded = await load_seat(cog, interaction, game)
    if loaded is None:
        return
    state, settings, seat = loaded
    await interaction.response.edit_message(
        **build_panel(state, settings, seat, game, lang_of(interaction), group)
    )


async def _build_step(
    cog: MonopolyCog, interaction: discord.Interaction, game: int, arg: str | None, kind: str
) -> None:
    if arg is None or not arg.isdigit():
        await reply(interaction, t(lang_of(interaction), "error.unknown_button"))
        return
    square = int(arg)
    await interaction.response.defer()
    result = await act(cog, interaction, game, {"type": kind, "square": square})
    loaded = await load_seat(cog, interaction, game)
    if loaded is not None:
        state, settings, seat = loaded
        group = state.board.squares[square].group
        await interaction.edit_original_response(
            **build_panel(state, settings, seat, game, lang_of(interaction), group)
        )
    if result is not None:
        await cog.publish(interaction.channel, game, result)  # type: ignore[arg-type]


@panel("mb")
async def _plus(
    cog: MonopolyCog,
    interaction: discord.Interaction,
    game: int,
    arg: str | None,
    values: list[str],
) -> None:
    await _build_step(cog, interaction, game, arg, "build")


@panel("ms")
async def _minus(
    cog: MonopolyCog,
    interaction: discord.Interaction,
    game: int,
    arg: str | None,
    values: list[str],
) -> None:
    await _build_step(cog, interaction, game, arg, "sell_building")


# -- mortgages --------------------------------------------------------------------------


@dataclass
class MortgageDraft(Draft):
    """Lots chosen to mortgage and to lift, not yet confirmed."""

    mortgage: set[int] = field(default_factory=set)
    lift: set[int] = field(default_factory=set)
    mortgage_page: int = 0
    lift_page: int = 0


def _mortgage_choices(state: GameState, seat: int, draft: MortgageDraft) -> tuple[list, list]:
    # Still chosen but no longer possible stays listed (the engine then says why).
    may_mortgage = set(_legal(state, seat, "mortgage"))
    may_lift = set(_legal(state, seat, "unmortgage"))
    draft.mortgage = {s for s in draft.mortgage if state.owner[s] == seat}
    draft.lift = {s for s in draft.lift if state.owner[s] == seat}
    return sorted(may_mortgage | draft.mortgage), sorted(may_lift | draft.lift)


def mortgage_panel(
    state: GameState, settings: dict[str, Any], seat: int, draft: MortgageDraft, lang: str
) -> dict[str, Any]:
    """The private mortgage menu: lots to mortgage, mortgages to lift, and the totals."""
    narrator = Narrator(state, lang, theme_of(settings))
    squares = state.board.squares
    game, nonce = draft.game, draft.nonce
    to_mortgage, to_lift = _mortgage_choices(state, seat, draft)
    receive = sum(squares[s].mortgage for s in draft.mortgage)
    pay = sum(unmortgage_cost(state, s) for s in draft.lift)
    embed = discord.Embed(title=t(lang, "manage.mortgage_title"), colour=MANAGE_COLOUR)
    notes = [t(lang, "manage.mortgage_intro")]
    if not to_mortgage and not to_lift:
        notes.append(t(lang, "manage.mortgage_nothing"))
    if any(state.owner[i] == seat and state.houses[i] for i in range(40)):
        notes.append(t(lang, "manage.sell_first_hint"))
    embed.description = "\n".join(notes)
    embed.add_field(
        name=t(lang, "manage.chosen_mortgage", amount=narrator.money(receive)),
        value="\n".join(f"• {narrator.square(s)}" for s in sorted(draft.mortgage)) or "–",
    )
    embed.add_field(
        name=t(lang, "manage.chosen_lift", amount=narrator.money(pay)),
        value="\n".join(f"• {narrator.square(s)}" for s in sorted(draft.lift)) or "–",
    )
    embed.set_footer(text=t(lang, "manage.cash", cash=narrator.money(state.players[seat].cash)))
    view = discord.ui.View(timeout=None)
    paging: list[PanelButton] = []
    for side, chosen in (("m", draft.mortgage), ("l", draft.lift)):

        def options(shown: list[int], side: str = side, chosen: set[int] = chosen) -> list[Any]:
            if side == "m":
                texts = [
                    t(lang, "manage.receive", amount=narrator.money(squares[s].mortgage))
                    for s in shown
                ]
            else:
                texts = [
                    t(lang, "manage.costs", amount=narrator.money(unmortgage_cost(state, s)))
                    for s in shown
                ]
            return [
                lot_option(state, narrator, s, description=text, selected=s in chosen)
                for s, text in zip(shown, texts, strict=True)
            ]

        word = t(lang, "manage.page_" + side)
        paging += MORTGAGE_LOTS.add_to(
            view,
            state,
            seat,
            draft,
            side,
            options=options,
            placeholder=t(lang, "manage.select_mortgage" if side == "m" else "manage.select_lift"),
            row=0 if side == "m" else 1,
            page_row=2,
            page_label=lambda _, a, w=word: f"{a} {w}",
        )
    for button in paging:
        view.add_item(button)
    chosen_any = bool(draft.mortgage or draft.lift)
    view.add_item(
        PanelButton(
            game,
            "mc",
            str(nonce),
            label=t(
                lang,
                "manage.confirm",
                receive=narrator.money(receive),
                pay=narrator.money(pay),
            ),
            style=discord.ButtonStyle.primary,
            disabled=not chosen_any,
            row=3,
        )
    )
    view.add_item(PanelButton(game, "mk", label=t(lang, "manage.to_building"), emoji="🏠", row=3))
    return {"content": None, "embed": embed, "view": view}


@panel("mm")
async def _to_mortgages(
    cog: MonopolyCog,
    interaction: discord.Interaction,
    game: int,
    arg: str | None,
    values: list[str],
) -> None:
    loaded = await load_seat(cog, interaction, game)
    if loaded is None:
        return
    state, settings, seat = loaded
    draft = keep_draft(cog, MORTGAGES, MortgageDraft(game=game, user=interaction.user.id))
    await interaction.response.edit_message(
        **mortgage_panel(state, settings, seat, draft, lang_of(interaction))
    )


def _mortgage_lot_choices(
    state: GameState, seat: int, draft: MortgageDraft, side: str
) -> list[int]:
    to_mortgage, to_lift = _mortgage_choices(state, seat, draft)
    return to_mortgage if side == "m" else to_lift


MORTGAGE_LOTS = LotPicker(
    select="mo",
    pager="mp",
    draft_kind=MORTGAGES,
    expired="manage.expired",
    sides={"m": Side("mortgage", "mortgage_page"), "l": Side("lift", "lift_page")},
    load=load_draft_game,
    choices=_mortgage_lot_choices,
    render=mortgage_panel,
).register()


@panel("mc")
async def _mortgage_confirm(
    cog: MonopolyCog,
    interaction: discord.Interaction,
    game: int,
    arg: str | None,
    values: list[str],
) -> None:
    draft: MortgageDraft | None = await live_draft(cog, MORTGAGES, interaction, game, arg)
    if draft is None:
        return
    lang = lang_of(interaction)
    await interaction.response.defer()
    loaded = await load_seat(cog, interaction, game)
    if loaded is None:
        return
    state, settings, seat = loaded
    narrator = Narrator(state, lang, theme_of(settings))
    squares = state.board.squares
    # Mortgages first: the cash they raise may be what pays for the lifting.
    plan = [("mortgage", s) for s in sorted(draft.mortgage)]
    plan += [("unmortgage", s) for s in sorted(draft.lift)]
    results = []
    done: dict[str, list[int]] = {"mortgage": [], "unmortgage": []}
    received = paid = 0
    problems = []
    for kind, square in plan:
        try:
            result = await cog.service.act(
                game, interaction.user.id, {"type": kind, "square": square}
            )
        except IllegalAction as error:
            problems.append(f"⚠️ {narrator.square(square)}: {explain(lang, error, state, settings)}")
            continue
        except StoreError as error:  # the game is gone or broken: stop, report what was done
            problems.append(f"⚠️ {narrator.square(square)}: {refusal(lang, error)}")
            break
        results.append(result)
        done[kind].append(square)
        if kind == "mortgage":
            received += squares[square].mortgage
        else:
            paid += unmortgage_cost(state, square)
    report = []
    if done["mortgage"]:
        report.append(
            t(
                lang,
                "manage.report_mortgaged",
                lots=", ".join(narrator.square(s) for s in done["mortgage"]),
                amount=narrator.money(received),
            )
        )
    if done["unmortgage"]:
        report.append(
            t(
                lang,
                "manage.report_lifted",
                lots=", ".join(narrator.square(s) for s in done["unmortgage"]),
                amount=narrator.money(paid),
            )
        )
    report += problems
    fresh = keep_draft(cog, MORTGAGES, MortgageDraft(game=game, user=interaction.user.id))
    reloaded = await load_seat(cog, interaction, game)
    if reloaded is not None:
        state, settings, seat = reloaded
        message = mortgage_panel(state, settings, seat, fresh, lang)
        message["content"] = "\n".join(report) or None
        await interaction.edit_original_response(**message)
    merged = merge(results)
    if merged is not None:
        await cog.publish(interaction.channel, game, merged)  # type: ignore[arg-type]


# -- debts, received mortgages, rent claims ---------------------------------------------


@game_button("debt_manage")
async def _debt_manage(
    cog: MonopolyCog, interaction: discord.Interaction, game: int, seq: int, arg: str | None
) -> None:
    """The debtor's "Sell / mortgage" button."""
    lang = lang_of(interaction)
    loaded = await load_seat(cog, interaction, game)
    if loaded is None:
        return
    state, settings, seat = loaded
    if state.debts and state.debts[0]["debtor"] != seat:
        name = Narrator(state, lang).player(state.debts[0]["debtor"])
        await reply(interaction, t(lang, "debt.only_debtor", name=name))
        return
    if any(state.owner[i] == seat and state.houses[i] for i in range(40)):
        # Buildings must go before their lots can be mortgaged: start with selling.
        await open_manage(cog, interaction, game)
        return
    draft = keep_draft(cog, MORTGAGES, MortgageDraft(game=game, user=interaction.user.id))
    await interaction.response.send_message(
        **mortgage_panel(state, settings, seat, draft, lang), ephemeral=True
    )


@dataclass
class LiftDraft(Draft):
    """Which of the mortgaged lots just received to lift."""

    lift: set[int] = field(default_factory=set)
    page: int = 0


def lift_panel(
    state: GameState, settings: dict[str, Any], seat: int, draft: LiftDraft, lang: str
) -> dict[str, Any]:
    """The private per-lot choice for mortgaged lots just received."""
    narrator = Narrator(state, lang, theme_of(settings))
    squares = state.board.squares
    received = state.mortgage_choices[0]["squares"]
    draft.lift &= set(received)
    keep = [s for s in received if s not in draft.lift]
    cost = sum(unmortgage_cost(state, s) for s in draft.lift)
    interest = sum(state.rules.interest(squares[s].mortgage) for s in keep)
    embed = discord.Embed(title=t(lang, "lift.title"), colour=MANAGE_COLOUR)
    embed.description = t(lang, "lift.intro")
    embed.add_field(
        name=t(lang, "lift.lift", amount=narrator.money(cost)),
        value="\n".join(f"• {narrator.square(s)}" for s in sorted(draft.lift)) or "–",
    )
    embed.add_field(
        name=t(lang, "lift.keep", amount=narrator.money(interest)),
        value="\n".join(f"• {narrator.square(s)}" for s in keep) or "–",
    )
    embed.set_footer(text=t(lang, "manage.cash", cash=narrator.money(state.players[seat].cash)))
    view = discord.ui.View(timeout=None)
    paging = LIFT_LOTS.add_to(
        view,
        state,
        seat,
        draft,
        "l",
        options=lambda shown: [
            lot_option(
                state,
                narrator,
                s,
                description=t(
                    lang,
                    "lift.option",
                    lift=narrator.money(unmortgage_cost(state, s)),
                    keep=narrator.money(state.rules.interest(squares[s].mortgage)),
                ),
                selected=s in draft.lift,
            )
            for s in shown
        ],
        placeholder=t(lang, "lift.select"),
        row=0,
        page_row=1,
    )
    for button in paging:
        view.add_item(button)
    view.add_item(
        PanelButton(
            draft.game,
            "ld",
            str(draft.nonce),
            label=t(
                lang,
                "lift.confirm",
                lift=len(draft.lift),
                keep=len(keep),
                amount=narrator.money(cost + interest),
            ),
            style=discord.ButtonStyle.primary,
            row=2,
        )
    )
    return {"content": None, "embed": embed, "view": view}


async def _lift_state(
    cog: MonopolyCog, interaction: discord.Interaction, game: int
) -> tuple[GameState, dict[str, Any], int] | None:
    """The game if the user is the receiver who must choose now; tells others why not."""
    lang = lang_of(interaction)
    loaded = await load_seat(cog, interaction, game)
    if loaded is None:
        return None
    state, _, seat = loaded
    if state.phase != "mortgage_choice":
        await reply(interaction, refusal(lang, IllegalAction("wrong_phase", phase=state.phase)))
        return None
    receiver = state.mortgage_choices[0]["player"]
    if receiver != seat:
        name = Narrator(state, lang).player(receiver)
        await reply(interaction, t(lang, "lift.only_receiver", name=name))
        return None
    return loaded


@game_button("lift_choice")
async def _lift_choice(
    cog: MonopolyCog, interaction: discord.Interaction, game: int, seq: int, arg: str | None
) -> None:
    """The turn message's "Choose per lot" button for received mortgaged lots."""
    loaded = await _lift_state(cog, interaction, game)
    if loaded is None:
        return
    state, settings, seat = loaded
    draft = keep_draft(cog, LIFTS, LiftDraft(game=game, user=interaction.user.id))
    await interaction.response.send_message(
        **lift_panel(state, settings, seat, draft, lang_of(interaction)), ephemeral=True
    )


async def _load_for_lift(
    cog: MonopolyCog, interaction: discord.Interaction, draft: LiftDraft
) -> tuple[GameState, dict[str, Any], int] | None:
    return await _lift_state(cog, interaction, draft.game)


def _received_lots(state: GameState, seat: int, draft: LiftDraft, side: str) -> list[int]:
    return list(state.mortgage_choices[0]["squares"])


LIFT_LOTS = LotPicker(
    select="lc",
    pager="lq",
    draft_kind=LIFTS,
    expired="manage.expired",
    sides={"l": Side("lift", "page")},
    load=_load_for_lift,
    choices=_received_lots,
    render=lift_panel,
).register()


@panel("ld")
async def _lift_confirm(
    cog: MonopolyCog,
    interaction: discord.Interaction,
    game: int,
    arg: str | None,
    values: list[str],
) -> None:
    draft: LiftDraft | None = await live_draft(cog, LIFTS, interaction, game, arg)
    if draft is None:
        return
    await interaction.response.defer()
    result = await act(
        cog, interaction, game, {"type": "decide_mortgages", "lift": sorted(draft.lift)}
    )
    if result is None:
        return
    drop_draft(cog, LIFTS, draft)
    await interaction.edit_original_response(
        content=t(lang_of(interaction), "manage.done"), embed=None, view=None
    )
    await cog.publish(interaction.channel, game, result)  # type: ignore[arg-type]


@game_button("claim_rent")
async def _claim_rent(
    cog: MonopolyCog, interaction: discord.Interaction, game: int, seq: int, arg: str | None
) -> None:
    """A "Claim rent" button: only the owner of the claim may press it."""
    lang = lang_of(interaction)
    loaded = await load_seat(cog, interaction, game)
    if loaded is None:
        return
    state, _, seat = loaded
    square = int(arg) if arg and arg.isdigit() else -1
    owners = [c["owner"] for c in state.claims if c["square"] == square]
    if not owners:
        await reply(interaction, refusal(lang, IllegalAction("no_rent_to_claim")))
        return
    if seat not in owners:
        name = Narrator(state, lang).player(owners[0])
        await reply(interaction, t(lang, "claim.only_owner", name=name))
        return
    await interaction.response.defer()
    result = await act(cog, interaction, game, {"type": "claim_rent", "square": square})
    if result is not None:
        await cog.publish(interaction.channel, game, result)  # type: ignore[arg-type]


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


# -- /monopoly property and /monopoly log ------------------------------------------------


async def _board_here(
    cog: MonopolyCog, interaction: discord.Interaction
) -> tuple[Board, GameState | None, dict[str, Any]]:
    """The board of the channel's game (its state if running), else the classic board."""
    row = await cog.service.store.game_in_channel(interaction.channel_id or 0)
    if row is None:
        return load_board("de_euro"), None, {}
    settings = dict(row.settings)
    if row.state is not None:
        return row.state.board, row.state, settings
    rules = Rules.from_preset(settings["preset"], **settings.get("overrides", {}))
    return board_of(settings) or load_board(rules.board), None, settings


def _display_names(board: Board, settings: dict[str, Any]) -> list[str]:
    theme = theme_of(settings)
    if theme is not None and theme.base_board == board.id:
        return theme.square_names(board)
    return [s.name for s in board.squares]


async def property_choices(
    cog: MonopolyCog, interaction: discord.Interaction, current: str
) -> list[app_commands.Choice[str]]:
    """Autocomplete for ``/monopoly property``: lots whose name contains what was typed."""
    board, _, settings = await _board_here(cog, interaction)
    names = _display_names(board, settings)
    needle = current.casefold().strip()
    found = []
    for square in board.squares:
        if not square.is_property:
            continue
        name = names[square.index]
        if needle in name.casefold() or needle in square.name.casefold():
            found.append(app_commands.Choice(name=clip(name, 100), value=str(square.index)))
        if len(found) == 25:
            break
    return found


def _resolve_lot(board: Board, names: list[str], text: str) -> int | None:
    text = text.strip()
    if text.isdigit() and 0 <= int(text) < 40 and board.squares[int(text)].is_property:
        return int(text)
    wanted = text.casefold()
    lots = [s.index for s in board.squares if s.is_property]
    for square in lots:
        if wanted in (names[square].casefold(), board.squares[square].name.casefold()):
            return square
    matches = [s for s in lots if wanted and wanted in names[s].casefold()]
    return matches[0] if len(matches) == 1 else None


async def show_property(cog: MonopolyCog, interaction: discord.Interaction, name: str) -> None:
    """``/monopoly property``: the title deed with owner, buildings and mortgage, privately."""
    lang = lang_of(interaction)
    board, state, settings = await _board_here(cog, interaction)
    names = _display_names(board, settings)
    square = _resolve_lot(board, names, name)
    if square is None:
        await reply(interaction, t(lang, "property.unknown", name=clip(name, 100)))
        return
    await interaction.response.defer(ephemeral=True, thinking=True)
    theme = theme_of(settings)
    png = await asyncio.to_thread(
        render_deed,
        board,
        square,
        state,
        lang=lang,
        names=theme.squares if theme is not None and theme.base_board == board.id else None,
    )
    await interaction.followup.send(
        names[square], file=discord.File(io.BytesIO(png), filename="deed.png"), ephemeral=True
    )


async def show_log(cog: MonopolyCog, interaction: discord.Interaction) -> None:
    """``/monopoly log``: the last lines of the current turn message, privately."""
    lang = lang_of(interaction)
    row = await cog.service.store.game_in_channel(interaction.channel_id or 0)
    if row is None:
        await reply(interaction, t(lang, "error.no_game_here"))
        return
    lines = list(row.settings.get("turn_lines", []))
    text = ""
    for line in reversed(lines):
        if len(text) + len(line) + 1 > LOG_LIMIT:
            break
        text = line + ("\n" + text if text else "")
    await reply(interaction, text or t(lang, "log.empty"))
