"""The private menus of a player's own lots: building per colour group, mortgages, and the
choice per lot for mortgaged lots just received. Each offers exactly what the engine allows
(tried on a copy of the state) and says why a button is off."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

import discord

from bot.engine.buildings import next_building, unmortgage_cost
from bot.engine.errors import IllegalAction
from bot.engine.game import apply_action
from bot.engine.legal import legal_actions
from bot.engine.state import HOTEL, GameState
from bot.i18n import t
from bot.settings import GameSettings
from cogs.ui.drafts import Draft
from cogs.ui.ids import PanelButton, PanelSelect, clip
from cogs.ui.picker import LotPicker, Side
from cogs.ui.text import Narrator, fit_lines, theme_of
from cogs.ui.widgets import explain, group_name, lot_option

#: Draft kinds of the mortgage menu and of the per-lot lifting.
MORTGAGES, LIFTS = "mortgages", "lifts"
MANAGE_COLOUR = 0x6D4C41


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


def build_panel(
    state: GameState, settings: GameSettings, seat: int, game: int, lang: str, group: str | None
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
    state: GameState, settings: GameSettings, seat: int, draft: MortgageDraft, lang: str
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
        value=fit_lines([f"• {narrator.square(s)}" for s in sorted(draft.mortgage)], lang),
    )
    embed.add_field(
        name=t(lang, "manage.chosen_lift", amount=narrator.money(pay)),
        value=fit_lines([f"• {narrator.square(s)}" for s in sorted(draft.lift)], lang),
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
    choices=_mortgage_lot_choices,
)


@dataclass
class LiftDraft(Draft):
    """Which of the mortgaged lots just received to lift."""

    lift: set[int] = field(default_factory=set)
    page: int = 0


def lift_panel(
    state: GameState, settings: GameSettings, seat: int, draft: LiftDraft, lang: str
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
        value=fit_lines([f"• {narrator.square(s)}" for s in sorted(draft.lift)], lang),
    )
    embed.add_field(
        name=t(lang, "lift.keep", amount=narrator.money(interest)),
        value=fit_lines([f"• {narrator.square(s)}" for s in keep], lang),
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


def _received_lots(state: GameState, seat: int, draft: LiftDraft, side: str) -> list[int]:
    return list(state.mortgage_choices[0]["squares"])


LIFT_LOTS = LotPicker(
    select="lc",
    pager="lq",
    draft_kind=LIFTS,
    expired="manage.expired",
    sides={"l": Side("lift", "page")},
    choices=_received_lots,
)
