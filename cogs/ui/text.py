"""Words of a game: events as lines, refusals as polite sentences, names and mentions.

Everything here is a function of the game's state and a language; nothing talks to Discord.
"""

from __future__ import annotations

import json
from typing import Any

from bot.cardgame import CardState
from bot.cardgame import waiting_for as card_waiting_for
from bot.engine.board import Board, custom_board
from bot.engine.errors import IllegalAction
from bot.engine.legal import waiting_for as board_waiting_for
from bot.engine.state import BANK, POT, GameState
from bot.engine.themes import Theme, load_theme, theme_from_json
from bot.i18n import money, normalise_language, t
from bot.settings import GameSettings
from bot.store import StoreError
from bot.store.kinds import AnyState
from cogs.ui.story import event_line, tell


def waiting_for(state: AnyState) -> list[int]:
    """The seats the game waits on, board game or card game."""
    if isinstance(state, CardState):
        return card_waiting_for(state)
    return board_waiting_for(state)


def board_of(settings: GameSettings) -> Board | None:
    """A server's own board chosen for the game (carried in its settings), if any."""
    data = settings.lobby.board_data
    return custom_board(data) if data else None


def theme_of(settings: GameSettings) -> Theme | None:
    """The theme chosen for a game, if any: a server's own theme travels in the settings."""
    custom = settings.lobby.theme_data
    if custom:
        return theme_from_json(json.dumps(custom, sort_keys=True, ensure_ascii=False))
    theme = settings.lobby.theme
    return load_theme(theme) if theme else None


#: Discord's limit for the value of an embed's field.
FIELD_MAX = 1024


def fit_lines(lines: list[str], lang: str, limit: int = FIELD_MAX, empty: str = "–") -> str:
    """``lines`` one a line, as many as fit in ``limit`` characters (by default a field's
    value: Discord refuses the whole message for one longer field); the lines left out are
    counted in a last line ("… und 12 weitere"). ``empty`` stands for no lines at all, as
    Discord refuses an empty field, too."""
    if not lines:
        return empty
    text = "\n".join(lines)
    kept = len(lines)
    while len(text) > limit and kept > 0:
        kept -= 1
        text = "\n".join([*lines[:kept], t(lang, "list.more", count=len(lines) - kept)])
    return text[:limit]


def mention(player_id: str | int, name: str) -> str:
    """How the bot calls a player: a Discord mention, or the name of a computer player."""
    text = str(player_id)
    return f"<@{text}>" if text.isdigit() else f"🤖 **{name}**"


def mentions(state: GameState, seats: list[int]) -> str:
    """Mentions of ``seats`` (computer players by name), separated by spaces."""
    return " ".join(mention(state.players[s].id, state.players[s].name) for s in seats)


class Narrator:
    """Writes what happened in a game's language, with its board and theme names."""

    def __init__(self, state: GameState, lang: str, theme: Theme | None = None) -> None:
        self.state = state
        self.lang = lang
        self.board: Board = state.board
        self.theme = theme

    def square(self, index: int) -> str:
        """The display name of a square."""
        if self.theme is not None:
            return self.theme.square_name(self.board, index)
        return self.board.squares[index].name

    def player(self, seat: int, *, case: str = "nom") -> str:
        """A player's name, the bank or the pot (``case``: "nom", "acc" or "dat", for the
        German articles: "die Bank", "an die Bank", "der Bank")."""
        if seat == BANK:
            if self.theme is not None and "bank" in self.theme.terms:
                return self.theme.terms["bank"]
            return t(self.lang, "word.bank" if case == "nom" else f"word.bank.{case}")
        if seat == POT:
            return t(self.lang, "word.pot" if case == "nom" else f"word.pot.{case}")
        return self.state.players[seat].name

    def whereabouts(self, seat: int) -> str:
        """Where a player is: the square's name, but for the jail corner whether they sit in
        jail or are just visiting (the square's own name says both)."""
        player = self.state.players[seat]
        if player.position == self.board.jail_index:
            return t(self.lang, "where.in_jail" if player.in_jail else "where.visiting")
        return self.square(player.position)

    def money(self, amount: int) -> str:
        """An amount in the board's currency, or in the theme's ("1.500 Naschgeld")."""
        if self.theme is not None and "currency" in self.theme.terms:
            return money(self.lang, amount, self.theme.terms["currency"])
        return money(self.lang, amount, self.board.currency)

    def deck(self, deck: str) -> str:
        """The name of a card of ``deck`` ("Ereigniskarte"), the theme's if it has one."""
        if self.theme is not None:
            return self.theme.deck_name(self.board, deck)
        return t(self.lang, f"deck.{deck}")

    def card_text(self, deck: str, card_id: int) -> str:
        """The printed text of a card (as the board data has it)."""
        return self.board.card(deck, card_id).text

    def line(self, event: dict[str, Any]) -> str | None:
        """One line for one event on its own, or None for events not worth a line."""
        return event_line(self, event)

    def lines(self, events: list[dict[str, Any]], *, bids: int = 0) -> list[str]:
        """The story of ``events``: what belongs together in one line, nothing twice
        (``cogs.ui.story``); ``bids`` counts an auction's earlier bids."""
        return tell(self, events, bids=bids)


# Parameters of refusals that are amounts of money, seats or squares.
MONEY_PARAMS = frozenset({"needed", "minimum", "amount", "cash", "value", "maximum_bid"})


SEAT_PARAMS = frozenset({"player", "current"})


def refusal(lang: str, error: Exception, narrator: Narrator | None = None) -> str:
    """A polite message for an action the rules or the store refused.

    With a ``narrator`` (the game's board and players) seats become names, squares
    become square names and amounts are written with the board's currency.
    """
    if isinstance(error, IllegalAction | StoreError):
        params = dict(error.params)
        if narrator is not None:
            for key, value in params.items():
                if type(value) is not int:
                    continue
                if key in MONEY_PARAMS:
                    params[key] = narrator.money(value)
                elif key in SEAT_PARAMS and 0 <= value < len(narrator.state.players):
                    params[key] = narrator.player(value)
                elif key == "square" and 0 <= value < 40:
                    params[key] = narrator.square(value)
        key = f"error.{error.code}"
        text = t(lang, key, **params)
        if text != key:
            return text
        return t(lang, "error.generic", code=error.code)
    return t(lang, "error.unexpected")


def user_lang(interaction: Any) -> str:
    """German or English for private answers, from the user's Discord locale."""
    return normalise_language(str(getattr(interaction, "locale", "de")))
