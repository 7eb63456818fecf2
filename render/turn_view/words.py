"""What the turn's picture and its alt text say: names, money, and what is due on a square.

Shared by the drawing and :func:`render.turn_view.describe_turn_view`, so the picture and
its description never disagree. Money is written as the turn message writes it
(``bot.i18n.money``): the theme's currency in running text and the standings, the
board's symbol on the squares, as the whole board prints its prices.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass

from bot.engine.rent import railroad_rent, street_rent, utility_multiplier
from bot.engine.state import BANK, GameState
from bot.engine.turns import salary
from bot.i18n import money
from render.assets import Labels, labels
from render.board import display_names, jail_labels, printable
from render.turn_view.path import TurnFocus, walked


@dataclass(frozen=True)
class Words:
    """The language, names and money words of one picture."""

    lang: str
    lab: Labels
    squares: tuple[str, ...]  # the display name of every square (theme names applied)
    board_currency: str
    theme_currency: str | None
    jail: int  # the jail's square, whose name depends on being in or visiting

    def tile_money(self, amount: int) -> str:
        """An amount on a square: the board's symbol ("1.100 €"), short enough for a tile."""
        return money(self.lang, amount, self.board_currency)

    def money(self, amount: int) -> str:
        """An amount in words: the theme's currency if it has one ("1.100 Naschgeld")."""
        return money(self.lang, amount, self.theme_currency or self.board_currency)

    def figure(self, amount: int) -> str:
        """An amount in a column whose heading names a theme's currency: only the number."""
        if self.theme_currency is None:
            return self.money(amount)
        digits = f"{amount:,}"
        return digits.replace(",", ".") if self.lang == "de" else digits

    def square(self, index: int, *, in_jail: bool = False) -> str:
        """A square's name; the jail's says whether one sits in it or visits."""
        name = self.squares[index]
        if index == self.jail:
            cell, visiting = jail_labels(name, self.lab)
            return cell if in_jail else visiting
        return name


def words_for(
    state: GameState,
    lang: str,
    names: Mapping[int, str] | None,
    terms: Mapping[str, str] | None,
) -> Words:
    """The :class:`Words` of a picture of ``state``."""
    board = state.board
    shown = tuple(printable(n) for n in display_names(board, names))
    return Words(
        lang=lang,
        lab=labels(lang).with_terms(terms or {}),
        squares=shown,
        board_currency=board.currency,
        theme_currency=(terms or {}).get("currency"),
        jail=board.jail_index,
    )


def player_name(state: GameState, seat: int) -> str:
    """A player's name as drawn (emoji the font lacks are left out)."""
    return printable(state.players[seat].name)


# -- what a lot earns, what is due on the landing square -----------------------------


def lot_rent(state: GameState, square: int) -> tuple[int | None, int | None]:
    """What landing on an owned lot costs now: ``(amount, None)``, or ``(None, factor)``
    for a utility (factor times the dice); ``(None, None)`` if it earns nothing."""
    if state.owner[square] == BANK or state.mortgaged[square]:
        return None, None
    kind = state.board.squares[square].kind
    if kind == "street":
        return street_rent(state, square), None
    if kind == "railroad":
        return railroad_rent(state, square), None
    if kind == "utility":
        return None, utility_multiplier(state, square)
    return None, None


@dataclass(frozen=True)
class Due:
    """What the landing square means for the mover.

    ``kind``: ``rent`` (``amount`` or ``factor`` to ``owner``), ``no_rent`` (``why``:
    ``mortgaged`` or ``owner_in_jail``), ``own`` (the rent others pay, or ``why``
    ``mortgaged``), ``buy`` (``amount``, still the bank's),
    ``tax`` (``amount``), ``card``, ``jail``, ``visiting``, ``go`` (``amount``) or
    ``none``.
    """

    kind: str
    amount: int | None = None
    owner: int | None = None
    factor: int | None = None
    why: str = ""


def due_at(state: GameState, focus: TurnFocus, square: int) -> Due:
    """What is due on ``square`` for the mover of ``focus``, who stands there."""
    info = state.board.squares[square]
    kind = info.kind
    mover = focus.mover
    if info.is_property:
        owner = state.owner[square]
        if owner == BANK:
            return Due("buy", amount=info.price)
        if owner == mover:
            amount, factor = lot_rent(state, square)
            why = "mortgaged" if state.mortgaged[square] else ""
            return Due("own", amount=amount, owner=owner, factor=factor, why=why)
        if state.mortgaged[square]:
            return Due("no_rent", owner=owner, why="mortgaged")
        if not state.rules.rent_while_in_jail and state.players[owner].in_jail:
            return Due("no_rent", owner=owner, why="owner_in_jail")
        amount, factor = lot_rent(state, square)
        if factor is not None:
            thrown = _last_walk(focus)
            if thrown is not None:
                amount, factor = thrown * factor, None
        return Due("rent", amount=amount, owner=owner, factor=factor)
    if kind == "tax":
        return Due("tax", amount=info.amount)
    if kind in ("chance", "community"):
        return Due("card")
    if kind == "jail":
        player = state.players[mover]
        return Due("jail" if player.in_jail and player.position == square else "visiting")
    if kind == "go":
        return Due("go", amount=salary(state))
    return Due("none")


def _last_walk(focus: TurnFocus) -> int | None:
    """The pips of the throw that walked the last move, if a throw walked it (a utility's
    rent is the pips times its factor; after a card's move the dice are thrown anew)."""
    if not focus.moves or not focus.dice or not walked(focus)[-1]:
        return None
    origin, target, _ = focus.moves[-1]
    return (target - origin) % 40


def due_lines(due: Due, words: Words, state: GameState) -> tuple[str, str]:
    """The two texts the landing tile shows: a word, and the amount (or why no rent is
    due) next to the owner's badge if there is an owner ("" where there is none)."""
    lab = words.lab
    if due.kind == "own" and due.why == "mortgaged":
        return lab["tv_own"], lab["mortgaged"]
    if due.kind in ("rent", "own"):
        if due.amount is not None:
            figure = words.tile_money(due.amount)
        elif due.factor is not None:
            figure = lab.text("tv_dice_factor", n=due.factor)
        else:
            figure = ""
        return lab["tv_rent" if due.kind == "rent" else "tv_own"], figure
    if due.kind == "no_rent":
        return lab["tv_no_rent"], lab["mortgaged"] if due.why == "mortgaged" else lab["in_jail"]
    if due.kind == "buy":
        return lab["tv_for_sale"] if state.pending_buy is not None else lab["tv_price"], (
            words.tile_money(due.amount or 0)
        )
    if due.kind == "tax":
        return lab["tv_pay"], words.tile_money(due.amount or 0)
    if due.kind == "card":
        return lab["tv_card"], ""
    if due.kind == "go":
        return lab["tv_salary"], "+" + words.tile_money(due.amount or 0)
    return "", ""


def due_sentence(due: Due, words: Words, state: GameState) -> str:
    """What is due, in words for the alt text: "Miete 1.100 € an Bernd"."""
    lab = words.lab
    if due.kind == "rent":
        # due_at names the owner of every rent it finds (the rent goes to them).
        assert due.owner is not None
        figure = (
            words.money(due.amount)
            if due.amount is not None
            else lab.text("tv_dice_factor", n=due.factor)
        )
        return f"{lab['tv_rent']} {figure} {lab.text('tv_to', name=state.players[due.owner].name)}"
    if due.kind == "no_rent":
        why = lab["mortgaged"].lower() if due.why == "mortgaged" else lab["tv_owner_jailed"]
        return f"{lab['tv_no_rent']} ({why})"
    if due.kind == "buy":
        word = lab["tv_for_sale"] if state.pending_buy is not None else lab["tv_price"]
        return f"{word} {words.money(due.amount or 0)}"
    if due.kind == "tax":
        return f"{lab['tv_pay']} {words.money(due.amount or 0)}"
    if due.kind == "go":
        return f"{lab['tv_salary']} {words.money(due.amount or 0)}"
    if due.kind == "own" and due.why == "mortgaged":
        return f"{lab['tv_own']} ({lab['mortgaged'].lower()})"
    if due.kind in ("own", "card"):
        return lab["tv_own" if due.kind == "own" else "tv_card"]
    return ""
