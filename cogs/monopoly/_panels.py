"""Building the public messages of a game: lobby, turn message, auction, final summary."""

from __future__ import annotations

import asyncio
import io
from typing import Any

import discord

from bot.engine.auctions import is_sealed
from bot.engine.legal import legal_actions, waiting_for
from bot.engine.rules import Rules
from bot.engine.state import GameState
from bot.engine.wealth import standings, wealth
from bot.i18n import t
from bot.rules_summary import describe_rules
from bot.stats import Standing
from bot.store import GameRow
from cogs.monopoly import _timing as timing
from cogs.monopoly._computers import lobby_select
from cogs.monopoly._ids import GameButton
from cogs.monopoly._manage import turn_extras
from cogs.monopoly._text import Narrator, board_of, mention, mentions, theme_of
from cogs.monopoly._text import waiting_for as any_waiting_for
from render.board import render_board

MAX_LINES = 18
EMBED_COLOUR = 0x2E7D32


def lobby_message(game_id: int, settings: dict[str, Any]) -> dict[str, Any]:
    """Content, embed and view of a lobby."""
    lang = settings["lang"]
    if settings.get("game") == "cards":
        return _card_lobby_message(game_id, settings)
    rules = Rules.from_preset(settings["preset"], **settings.get("overrides", {}))
    players = "\n".join(
        f"{n}. {mention(p['id'], p['name'])}"
        + (f" ({t(lang, 'computer.level.' + p['computer'])})" if p.get("computer") else "")
        + (" 👑" if p["id"] == settings["host"] else "")
        for n, p in enumerate(settings["players"], 1)
    )
    embed = discord.Embed(
        title=t(lang, "lobby.title"),
        description=t(
            lang, "lobby.intro", minimum=rules.min_players, maximum=settings["max_players"]
        ),
        colour=EMBED_COLOUR,
    )
    embed.add_field(
        name=t(lang, "lobby.players", count=len(settings["players"])), value=players, inline=False
    )
    summary = describe_rules(rules, lang, board_of(settings))
    marker = t(lang, "summary.changed")
    house_rules = [line for line in summary[3:] if line.endswith(marker)]
    theme = theme_of(settings)
    if theme is not None:
        name = theme.name.get(lang) or next(iter(theme.name.values()))
        house_rules.insert(0, t(lang, "lobby.theme", name=name))
    embed.add_field(
        name=t(lang, "lobby.rules"), value="\n".join(summary[:3] + house_rules)[:1024], inline=False
    )
    embed.add_field(
        name=t(lang, "lobby.timing"),
        value="\n".join(
            timing.describe(settings, lang, time_limit=rules.end_at_deadline)
            + [
                t(
                    lang,
                    "timing.auction_mode",
                    value=t(
                        lang, "timing.mode.sealed" if rules.sealed_auctions else "timing.mode.live"
                    ),
                )
            ]
        ),
        inline=False,
    )
    view = discord.ui.View(timeout=None)
    view.add_item(
        GameButton(
            game_id, "L", "join", label=t(lang, "button.join"), style=discord.ButtonStyle.success
        )
    )
    view.add_item(GameButton(game_id, "L", "leave", label=t(lang, "button.leave")))
    view.add_item(GameButton(game_id, "L", "rules", label=t(lang, "button.rules")))
    view.add_item(GameButton(game_id, "L", "house_rules", label=t(lang, "button.house_rules")))
    view.add_item(
        GameButton(
            game_id, "L", "start", label=t(lang, "button.start"), style=discord.ButtonStyle.primary
        )
    )
    view.add_item(lobby_select(game_id, lang))
    return {"content": None, "embed": embed, "view": view}


def _card_lobby_message(game_id: int, settings: dict[str, Any]) -> dict[str, Any]:
    """The lobby of MONOPOLY Das Kartenspiel: players, join / leave / start."""
    lang = settings["lang"]
    players = "\n".join(
        f"{n}. {mention(p['id'], p['name'])}" + (" 👑" if p["id"] == settings["host"] else "")
        for n, p in enumerate(settings["players"], 1)
    )
    embed = discord.Embed(
        title=t(lang, "cards.lobby_title"),
        description=t(lang, "cards.lobby_intro", maximum=settings["max_players"]),
        colour=EMBED_COLOUR,
    )
    embed.add_field(
        name=t(lang, "lobby.players", count=len(settings["players"])), value=players, inline=False
    )
    view = discord.ui.View(timeout=None)
    view.add_item(
        GameButton(
            game_id, "L", "join", label=t(lang, "button.join"), style=discord.ButtonStyle.success
        )
    )
    view.add_item(GameButton(game_id, "L", "leave", label=t(lang, "button.leave")))
    view.add_item(
        GameButton(
            game_id, "L", "start", label=t(lang, "button.start"), style=discord.ButtonStyle.primary
        )
    )
    view.add_item(lobby_select(game_id, lang))
    return {"content": None, "embed": embed, "view": view}


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


AUCTION_STEPS = (1, 10, 50, 100)


def _sealed_auction_message(
    game_id: int,
    state: GameState,
    settings: dict[str, Any],
    embed: discord.Embed,
    narrator: Narrator,
) -> dict[str, Any]:
    """A sealed auction: the terms, who has submitted a maximum (never how much)."""
    lang = settings["lang"]
    auction = state.auction
    assert auction is not None
    embed.description = (
        t(lang, "auction.no_bid", minimum=narrator.money(auction["min"]))
        + "\n"
        + t(lang, "auction.sealed", step=narrator.money(state.rules.auction_min_raise))
    )
    submitted = [b["player"] for b in auction["bids"]]
    waiting = [b for b in auction["bidders"] if b not in auction["passed"] and b not in submitted]
    embed.add_field(
        name=t(lang, "auction.submitted"),
        value=", ".join(narrator.player(b) for b in submitted) or "–",
    )
    embed.add_field(
        name=t(lang, "auction.bidders"), value=", ".join(narrator.player(b) for b in waiting) or "–"
    )
    if settings.get("auction_closes_at"):
        embed.add_field(
            name=t(lang, "auction.closes"), value=f"<t:{settings['auction_closes_at']}:R>"
        )
    view = discord.ui.View(timeout=None)
    view.add_item(
        GameButton(
            game_id,
            state.seq,
            "sealed_modal",
            label=t(lang, "button.sealed_bid"),
            style=discord.ButtonStyle.primary,
        )
    )
    view.add_item(
        GameButton(
            game_id,
            state.seq,
            "auction_pass",
            label=t(lang, "button.pass"),
            style=discord.ButtonStyle.danger,
        )
    )
    return {"content": mentions(state, waiting) or None, "embed": embed, "view": view}


def auction_message(game_id: int, state: GameState, settings: dict[str, Any]) -> dict[str, Any]:
    """The auction message: the lot, the current bid and leader, the bid buttons."""
    lang = settings["lang"]
    narrator = Narrator(state, lang, theme_of(settings))
    auction = state.auction
    assert auction is not None
    if auction["kind"] == "lot":
        item = narrator.square(auction["square"])
    else:
        item = t(lang, f"word.{auction['kind']}")
    embed = discord.Embed(title=t(lang, "auction.title", item=item), colour=0xF9A825)
    if is_sealed(auction):
        return _sealed_auction_message(game_id, state, settings, embed, narrator)
    if auction["leader"] is None:
        embed.description = t(lang, "auction.no_bid", minimum=narrator.money(auction["min"]))
    else:
        embed.description = t(
            lang,
            "auction.high",
            amount=narrator.money(auction["high"]),
            name=narrator.player(auction["leader"]),
        )
    still_in = [b for b in auction["bidders"] if b not in auction["passed"]]
    embed.add_field(
        name=t(lang, "auction.bidders"),
        value=", ".join(narrator.player(b) for b in still_in) or "–",
    )
    if settings.get("auction_closes_at"):
        embed.add_field(
            name=t(lang, "auction.closes"), value=f"<t:{settings['auction_closes_at']}:R>"
        )
    view = discord.ui.View(timeout=None)
    for step in AUCTION_STEPS:
        view.add_item(
            GameButton(
                game_id,
                state.seq,
                "raise",
                str(step),
                label=f"+{step}",
                style=discord.ButtonStyle.primary,
                row=0,
            )
        )
    view.add_item(
        GameButton(game_id, state.seq, "bid_modal", label=t(lang, "button.bid_exact"), row=1)
    )
    view.add_item(
        GameButton(
            game_id,
            state.seq,
            "auction_pass",
            label=t(lang, "button.pass"),
            style=discord.ButtonStyle.danger,
            row=1,
        )
    )
    return {"content": None, "embed": embed, "view": view}


def final_embed(state: GameState, settings: dict[str, Any]) -> discord.Embed:
    """The end-of-game summary: the winner and the wealth table."""
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


#: Games listed by ``/monopoly games`` (a message holds 2 000 characters).
GAMES_LISTED = 15


def games_text(rows: list[GameRow], lang: str) -> str:
    """``/monopoly games``: each open game's channel, kind, round and whose move it is."""
    if not rows:
        return t(lang, "games.none")
    lines = [t(lang, "games.title", count=len(rows))]
    for row in rows[:GAMES_LISTED]:
        settings = row.settings
        kind = t(lang, "games.cards" if settings.get("game") == "cards" else "games.board")
        where = f"<#{row.channel_id}>"
        state = row.state
        if state is None:
            count = len(settings.get("players", []))
            lines.append(t(lang, "games.lobby", where=where, kind=kind, count=count))
            continue
        waiting = ", ".join(state.players[s].name for s in any_waiting_for(state)) or "–"
        since = f"<t:{int(row.updated_at.timestamp())}:R>"
        key = "games.paused" if settings.get("paused") else "games.running"
        lines.append(
            t(lang, key, where=where, kind=kind, turn=state.turn, waiting=waiting, since=since)
        )
    if len(rows) > GAMES_LISTED:
        lines.append(t(lang, "games.more", count=len(rows) - GAMES_LISTED))
    return "\n".join(lines)
