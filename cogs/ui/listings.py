"""Lists and summaries: open games, the leaderboard, time settings, the daily digest."""

from __future__ import annotations

import discord

from bot.asyncplay.timing import describe
from bot.engine.legal import waiting_for
from bot.engine.rules import Rules
from bot.i18n import money, t
from bot.settings import GameSettings
from bot.stats import PlayerRecord, Standing
from bot.store import GameRow
from bot.store.kinds import waiting_for as any_waiting_for
from cogs.ui.text import Narrator, fit_lines, theme_of
from cogs.ui.turn import EMBED_COLOUR, wealth_table
from cogs.ui.widgets import group_name

#: The time settings a card game has (no auctions, trades or time limit there).
CARD_SETTINGS = (
    "deadline",
    "reminders",
    "missed_limit",
    "digest",
    "quiet_hours",
    "quiet_max",
    "jokers",
)


#: Lines of the leaderboard before the reader's own (if they are further down).
LEADERBOARD_TOP = 10


def leaderboard_text(ranking: list[Standing], lang: str, game: str | None, reader: int) -> str:
    """``/monopoly stats``: the top of the server's leaderboard, and the reader's own line."""
    title = t(lang, f"stats.title.{game or 'all'}")
    if not ranking:
        return f"{title}\n{t(lang, 'stats.none')}"

    def line(place: int, standing: Standing) -> str:
        return t(
            lang,
            "stats.line",
            place=place,
            name=standing.name,
            wins=standing.wins,
            games=standing.games,
            rate=round(standing.win_rate * 100),
        )

    lines = [title]
    lines += [line(n, s) for n, s in enumerate(ranking[:LEADERBOARD_TOP], 1)]
    own = next((n for n, s in enumerate(ranking, 1) if s.user_id == reader), None)
    if own is not None and own > LEADERBOARD_TOP:
        lines += ["…", line(own, ranking[own - 1])]
    return "\n".join(lines)


def _number(lang: str, value: int) -> str:
    """A count of points as players write it (``17.100`` / ``17,100``)."""
    text = f"{value:,}"
    return text.replace(",", ".") if lang == "de" else text


def player_record_text(record: PlayerRecord, lang: str, game: str | None, name: str) -> str:
    """``/monopoly stats player:``: one member's games, wins, average place, favourite
    colour group and biggest win on this server (``bot/stats.py`` says what each means)."""
    title = t(lang, f"stats.player.title.{game or 'all'}", name=name)
    if record.games == 0:
        return f"{title}\n{t(lang, 'stats.player.none', name=name)}"
    lines = [
        title,
        t(
            lang,
            "stats.player.games" + (".one" if record.games == 1 else ""),
            games=record.games,
            wins=record.wins,
            rate=round(record.win_rate * 100),
        ),
    ]
    place = f"{record.average_place:.1f}"
    lines.append(
        t(lang, "stats.player.place", place=place.replace(".", "," if lang == "de" else "."))
    )
    if record.favourite_group is not None:
        lines.append(
            t(
                lang,
                "stats.player.favourite",
                group=group_name(lang, None, record.favourite_group),
                count=record.favourite_count,
            )
        )
    else:
        lines.append(t(lang, "stats.player.no_favourite"))
    for win in record.biggest_wins:
        if win.kind == "cards":
            margin, score = _number(lang, win.margin), _number(lang, win.score)
        else:
            margin = money(lang, win.margin, win.currency or "EUR")
            score = money(lang, win.score, win.currency or "EUR")
        lines.append(
            t(
                lang,
                f"stats.player.biggest.{win.kind}",
                game=win.game,
                margin=margin,
                score=score,
                players=win.players,
                length=win.length,
            )
        )
    if not record.biggest_wins:
        lines.append(t(lang, "stats.player.no_win"))
    return "\n".join(lines)


#: Games listed by ``/monopoly games`` (a message holds 2 000 characters).
GAMES_LISTED = 15


def games_text(rows: list[GameRow], lang: str) -> str:
    """``/monopoly games``: each open game's channel, kind, round and whose move it is."""
    if not rows:
        return t(lang, "games.none")
    lines = [t(lang, "games.title", count=len(rows))]
    for row in rows[:GAMES_LISTED]:
        settings = GameSettings.of(row)
        kind = t(lang, "games.cards" if settings.lobby.is_cards else "games.board")
        where = f"<#{row.channel_id}>"
        state = row.state
        if state is None:
            count = len(settings.lobby.players)
            key = "games.lobby.one" if count == 1 else "games.lobby"
            lines.append(t(lang, key, where=where, kind=kind, count=count))
            continue
        waiting = ", ".join(state.players[s].name for s in any_waiting_for(state)) or "–"
        since = f"<t:{int(row.updated_at.timestamp())}:R>"
        key = "games.paused" if settings.play.paused else "games.running"
        lines.append(
            t(lang, key, where=where, kind=kind, turn=state.turn, waiting=waiting, since=since)
        )
    if len(rows) > GAMES_LISTED:
        lines.append(t(lang, "games.more", count=len(rows) - GAMES_LISTED))
    return "\n".join(lines)


def _rules(row: GameRow) -> Rules:
    if row.state is not None:
        return row.state.rules
    return GameSettings.of(row).lobby.rules()


def settings_lines(row: GameRow, lang: str) -> list[str]:
    """The time settings and the auction mode of a game, one line each."""
    settings = GameSettings.of(row)
    if settings.lobby.is_cards:
        return describe(settings, lang, time_limit=False, names=CARD_SETTINGS)
    rules = _rules(row)
    lines = describe(settings, lang, time_limit=rules.end_at_deadline)
    mode = "sealed" if getattr(rules, "sealed_auctions", False) else "live"
    lines.append(t(lang, "timing.auction_mode", value=t(lang, f"timing.mode.{mode}")))
    if settings.play.ends_at:
        lines.append(t(lang, "timing.ends_at", when=f"<t:{settings.play.ends_at}:f>"))
    if settings.play.paused:
        lines.append(t(lang, "timing.paused"))
    return lines


def digest_embed(row: GameRow) -> discord.Embed:
    """The digest of a running game: standings, whose turn, open offers."""
    state = row.state
    assert state is not None
    settings = GameSettings.of(row)
    lang = settings.lobby.lang
    narrator = Narrator(state, lang, theme_of(settings))
    embed = discord.Embed(title=t(lang, "digest.title", turn=state.turn), colour=EMBED_COLOUR)
    embed.add_field(
        name=t(lang, "digest.standings"),
        value=fit_lines(wealth_table(state, settings).splitlines(), lang),
        inline=False,
    )
    waiting = ", ".join(narrator.player(s) for s in waiting_for(state)) or "–"
    embed.add_field(
        name=t(lang, "digest.waiting"),
        value=t(lang, f"phase.{state.phase}") + " · " + waiting,
        inline=False,
    )
    offers = [
        t(
            lang,
            "digest.trade",
            **{"from": narrator.player(tr["from"]), "to": narrator.player(tr["to"])},
        )
        for tr in state.trades
    ]
    if state.auction is not None:
        offers.append(t(lang, "digest.auction"))
    if state.lot_offer is not None:
        offers.append(
            t(lang, "digest.lot_offer", player=narrator.player(state.lot_offer["creditor"]))
        )
    embed.add_field(name=t(lang, "digest.offers"), value="\n".join(offers) or "–", inline=False)
    if settings.play.ends_at:
        embed.add_field(
            name=t(lang, "digest.ends"), value=f"<t:{settings.play.ends_at}:f>", inline=False
        )
    link = settings.records.turn_message
    if link:
        embed.description = t(
            lang,
            "digest.link",
            link=f"https://discord.com/channels/{row.guild_id}/{row.channel_id}/{link}",
        )
    embed.set_image(url="attachment://board.png")
    return embed
