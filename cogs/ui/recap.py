"""The recap of a game, for the final message and the history: a chart and the moments.

(Slightly over 400 lines: both games' recaps share their message and alt text.)

:func:`recap_message` works from a game's record and settings alone (no live state), so
it serves any finished game, also one played before recaps existed: the record is
replayed once (:mod:`bot.recap`), the words are put together here in the game's
language, with the board's or theme's names for squares and groups, and the image is
drawn by :mod:`render.recap`. Replaying and drawing happen in a worker thread.

The board game's recap shows every player's net worth over the turns (bankruptcies and
completed colour groups marked) and the moments: the biggest rent, the most expensive
purchase and auction, the longest stay in jail, the trades, who built first, the first
complete colour group and the bankruptcies. The card game's shows the points of every
round per player, the totals and the best round.
"""

from __future__ import annotations

import asyncio
import io
from dataclasses import dataclass
from typing import Any

import discord

from bot.engine.record import GameRecord
from bot.engine.state import GameState
from bot.i18n import money, normalise_language, t
from bot.recap import (
    BoardRecap,
    CardRecap,
    TradeSide,
    board_recap,
    card_recap,
    is_card_record,
)
from bot.settings import GameSettings
from cogs.ui.ids import clip
from cogs.ui.text import Narrator, theme_of
from cogs.ui.widgets import group_name
from render.recap import RecapTexts, render_board_recap, render_card_recap

RECAP_COLOUR = 0x6A1B9A
DESCRIPTION_LIMIT = 4096  # Discord's limit of an embed's description
LOTS_NAMED = 3  # lots named per side of a trade; more are counted

# The emoji in front of each moment in the embed (the image draws no emoji).
EMOJI = {
    "rent": "💸",
    "purchase": "🏠",
    "auction": "🔨",
    "jail": "🚓",
    "trades": "🤝",
    "built": "🏗️",
    "group": "🎨",
    "bankrupt": "💥",
    "best_round": "⭐",
    "ender": "🏁",
}


@dataclass(frozen=True)
class Moment:
    """One line of the recap: what kind of moment (for its emoji) and its words."""

    kind: str
    text: str

    def embed_line(self) -> str:
        """The line as the embed shows it, with its emoji."""
        return f"{EMOJI.get(self.kind, '•')} {self.text}"


@dataclass(frozen=True)
class _Built:
    """Everything of a recap message but the Discord objects (made in the worker thread)."""

    title: str
    description: str
    png: bytes


# -- the board game ------------------------------------------------------------------------


def _number(lang: str, value: int) -> str:
    """A number with the language's grouping: ``12.500`` / ``12,500``."""
    text = f"{value:,}"
    return text.replace(",", ".") if lang == "de" else text


def _side_text(side: TradeSide, narrator: Narrator, lang: str) -> str:
    """What one side of a trade gave: "Schlossallee + Parkstraße + 200 €"."""
    parts = [narrator.square(square) for square in side.lots[:LOTS_NAMED]]
    if len(side.lots) > LOTS_NAMED:
        parts.append(t(lang, "recap.more_lots", count=len(side.lots) - LOTS_NAMED))
    if side.cash:
        parts.append(narrator.money(side.cash))
    if side.jail_cards:
        key = "recap.jail_card.one" if side.jail_cards == 1 else "recap.jail_card.many"
        parts.append(t(lang, key, count=side.jail_cards))
    return " + ".join(parts) or t(lang, "recap.nothing")


def board_moments(
    recap: BoardRecap, narrator: Narrator, lang: str, *, everything: bool = True
) -> list[Moment]:
    """The moments of a board game in ``lang``, in a fixed order.

    Without ``everything`` only those the chart does not show already: the first
    complete colour group and the bankruptcies are left out (the image's lines).
    """
    who = narrator.player
    moments: list[Moment] = []
    rent = recap.biggest_rent
    if rent is not None:
        moments.append(
            Moment(
                "rent",
                t(
                    lang,
                    "recap.rent",
                    payer=who(rent.payer),
                    owner=who(rent.owner),
                    amount=narrator.money(rent.amount),
                    square=narrator.square(rent.square),
                    turn=rent.turn,
                ),
            )
        )
    buy = recap.biggest_purchase
    if buy is not None:
        moments.append(
            Moment(
                "purchase",
                t(
                    lang,
                    "recap.purchase",
                    player=who(buy.player),
                    square=narrator.square(buy.square),
                    price=narrator.money(buy.price),
                    turn=buy.turn,
                ),
            )
        )
    won = recap.biggest_auction
    if won is not None:
        if won.square is not None:
            item = narrator.square(won.square)
        else:  # a house or hotel auctioned in a shortage
            item = t(lang, f"word.{won.kind}")
        moments.append(
            Moment(
                "auction",
                t(
                    lang,
                    "recap.auction",
                    player=who(won.player),
                    item=item,
                    amount=narrator.money(won.amount),
                    turn=won.turn,
                ),
            )
        )
    stay = recap.longest_jail
    if stay is not None:
        key = "recap.jail.one" if stay.turns == 1 else "recap.jail.many"
        moments.append(
            Moment(
                "jail",
                t(lang, key, player=who(stay.player), turns=stay.turns, turn=stay.start),
            )
        )
    trade = recap.biggest_trade
    if recap.trades and trade is not None:
        key = "recap.trade.one" if recap.trades == 1 else "recap.trade.many"
        moments.append(
            Moment(
                "trades",
                t(
                    lang,
                    key,
                    count=recap.trades,
                    proposer=who(trade.proposer),
                    partner=who(trade.partner),
                    give=_side_text(trade.give, narrator, lang),
                    get=_side_text(trade.get, narrator, lang),
                    turn=trade.turn,
                ),
            )
        )
    else:
        moments.append(Moment("trades", t(lang, "recap.trade.none")))
    built = recap.first_build
    if built is not None:
        moments.append(
            Moment(
                "built",
                t(
                    lang,
                    "recap.built",
                    player=who(built.player),
                    building=t(lang, f"word.{built.building}"),
                    square=narrator.square(built.square),
                    turn=built.turn,
                ),
            )
        )
    if not everything:
        return moments
    if recap.groups:
        first = recap.groups[0]
        moments.append(
            Moment(
                "group",
                t(
                    lang,
                    "recap.group" if first.turn > 0 else "recap.group_dealt",
                    player=who(first.player),
                    group=group_name(lang, narrator.theme, first.group),
                    turn=first.turn,
                ),
            )
        )
    if recap.bankruptcies:
        names = ", ".join(
            t(lang, "recap.bankrupt_item", player=who(b.player), turn=b.turn)
            for b in recap.bankruptcies
        )
        moments.append(Moment("bankrupt", t(lang, "recap.bankruptcies", players=names)))
    return moments


def counted(lang: str, what: str, n: int) -> str:
    """``n`` turns or rounds in words: "1 Runde", "242 Runden", "1 turn"."""
    return t(lang, f"recap.count.{what}.{'one' if n == 1 else 'many'}", n=n)


def board_subtitle(recap: BoardRecap, narrator: Narrator, lang: str) -> str:
    """Who won and how long the game took: "Gewonnen: Anna · 242 Runden"."""
    turns = counted(lang, "turns", recap.turns)
    if not recap.over:
        return t(lang, "recap.subtitle.running", turn=recap.turns)
    if recap.winner is None:
        return t(lang, "recap.subtitle.none", turns=turns)
    return t(lang, "recap.subtitle.winner", name=narrator.player(recap.winner), turns=turns)


def board_notes(recap: BoardRecap, narrator: Narrator, lang: str) -> list[str]:
    """The legend's note per seat: bankrupt in which turn, or the final net worth."""
    notes = []
    for seat in range(len(recap.players)):
        gone = recap.bankrupt_turn(seat)
        if gone is not None:
            notes.append(t(lang, "recap.note.bankrupt", turn=gone))
            continue
        worth = narrator.money(recap.worth_at(seat, recap.turns) or 0)
        key = "recap.note.winner" if seat == recap.winner else "recap.note.worth"
        notes.append(t(lang, key, worth=worth))
    return notes


def _board(game_id: int, record: GameRecord, settings: GameSettings, lang: str) -> _Built:
    """The board game's recap: replayed, put into words and drawn (in a worker thread)."""
    recap = board_recap(record)
    start = GameState.from_dict(record.start)
    theme = theme_of(settings)
    narrator = Narrator(start, lang, theme)
    terms = theme.terms if theme is not None else {}
    y_label = t(lang, "recap.axis.worth")
    if "currency" in terms:  # the ticks are bare figures then: the heading names the money
        y_label = f"{y_label} ({terms['currency']})"
    subtitle = board_subtitle(recap, narrator, lang)
    texts = RecapTexts(
        title=t(lang, "recap.chart_title"),
        subtitle=subtitle,
        x_label=t(lang, "recap.axis.turn"),
        y_label=y_label,
        bankrupt_key=t(lang, "recap.key.bankrupt") if recap.bankruptcies else "",
        group_key=t(lang, "recap.key.group") if recap.groups else "",
        notes=board_notes(recap, narrator, lang),
        moments_title=t(lang, "recap.moments"),
        moments=[m.text for m in board_moments(recap, narrator, lang, everything=False)],
    )
    png = render_board_recap(recap, recap.players, None, lang, texts=texts, terms=terms)
    lines = [m.embed_line() for m in board_moments(recap, narrator, lang)]
    description = f"{subtitle}\n\n" + "\n".join(lines)
    return _Built(t(lang, "recap.title", game=game_id), description, png)


# -- the card game -------------------------------------------------------------------------


def card_moments(recap: CardRecap, lang: str) -> list[Moment]:
    """The card game's moments: the best round, and who ended the most rounds."""
    moments = []
    best = None
    for entry in recap.rounds:
        for seat, points in enumerate(entry.points):
            if best is None or points > best[2]:
                best = (entry.number, seat, points)
    if best is not None and best[2] > 0:
        number, seat, points = best
        moments.append(
            Moment(
                "best_round",
                t(
                    lang,
                    "recap.cards.best",
                    player=recap.players[seat],
                    points=money(lang, points, recap.currency),
                    round=number,
                ),
            )
        )
    ended = [0] * len(recap.players)
    for entry in recap.rounds:
        if entry.ender is not None and 0 <= entry.ender < len(ended):
            ended[entry.ender] += 1
    if any(ended):
        seat = max(range(len(ended)), key=lambda s: (ended[s], -s))
        rounds = counted(lang, "rounds", ended[seat])
        moments.append(
            Moment("ender", t(lang, "recap.cards.ender", player=recap.players[seat], rounds=rounds))
        )
    return moments


def card_subtitle(recap: CardRecap, lang: str) -> str:
    """Who won, how many rounds, the target: "Gewonnen: Bea · 4 Runden · Ziel 10.000 €"."""
    target = money(lang, recap.target, recap.currency)
    rounds = counted(lang, "rounds", len(recap.rounds))
    if recap.over and recap.winners:
        names = ", ".join(recap.players[s] for s in recap.winners)
        return t(lang, "recap.cards.subtitle.winner", names=names, rounds=rounds, target=target)
    return t(lang, "recap.cards.subtitle.running", rounds=rounds, target=target)


def _cards(game_id: int, record: GameRecord, settings: GameSettings, lang: str) -> _Built:
    """The card game's recap: replayed, put into words and drawn (in a worker thread)."""
    recap = card_recap(record)
    totals = recap.totals()
    notes = []
    for seat, total in enumerate(totals):
        worth = money(lang, total, recap.currency)
        winner = recap.over and seat in recap.winners
        notes.append(t(lang, "recap.note.winner" if winner else "recap.note.worth", worth=worth))
    subtitle = card_subtitle(recap, lang)
    moments = card_moments(recap, lang)
    texts = RecapTexts(
        title=t(lang, "recap.cards.chart_title"),
        subtitle=subtitle,
        x_label=t(lang, "recap.axis.round"),
        y_label=t(lang, "recap.axis.points"),
        notes=notes,
        moments=[m.text for m in moments],
    )
    png = render_card_recap(recap, recap.players, None, lang, texts=texts)
    rows = []
    for seat, name in enumerate(recap.players):
        points = " · ".join(_number(lang, r.points[seat]) for r in recap.rounds) or "–"
        rows.append(
            t(
                lang,
                "recap.cards.player",
                name=name,
                total=money(lang, totals[seat], recap.currency),
                rounds=points,
            )
        )
    description = "\n".join([subtitle, "", *rows, "", *(m.embed_line() for m in moments)])
    return _Built(t(lang, "recap.cards.title", game=game_id), description.strip(), png)


# -- the message ---------------------------------------------------------------------------


def build_recap(
    game_id: int, record: GameRecord, settings: GameSettings, lang: str
) -> tuple[str, str, bytes]:
    """The recap's title, description and PNG, either game (blocking: replays and draws)."""
    lang = normalise_language(lang)
    build = _cards if is_card_record(record) else _board
    built = build(game_id, record, settings, lang)
    return built.title, clip(built.description, DESCRIPTION_LIMIT), built.png


async def recap_message(
    game_id: int, record: GameRecord, settings: GameSettings, lang: str
) -> dict[str, Any]:
    """The recap of a game as message parts: ``{"embed": ..., "file": ...}``.

    Either game, told apart by the format of the record's start state; only the record
    and the game's settings (its theme) are read, so it works for any stored game. The
    record is replayed and the image drawn in a worker thread.
    """
    title, description, png = await asyncio.to_thread(build_recap, game_id, record, settings, lang)
    filename = f"recap-{game_id}.png"
    embed = discord.Embed(title=title, description=description, colour=RECAP_COLOUR)
    embed.set_image(url=f"attachment://{filename}")
    # The alt text: the chart's title and the embed's own words (the moments, the ends).
    alt = clip(f"{title}. {description}".replace("**", ""), 1024)
    file = discord.File(io.BytesIO(png), filename=filename, description=alt)
    return {"embed": embed, "file": file}
