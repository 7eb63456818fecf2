"""Helpers for the Discord tests: a table of players, setting up games, clicks and replies.

Test modules load this file as a pytest plugin (``pytest_plugins = ["tests.discord.helpers"]``)
to get the :func:`table` fixture: a server with a ``#monopoly`` channel and four members,
alice, bob, carol and dave, around the real bot from the conftest.

Two things simcord 3.2.1 cannot do by itself are done here:

* **User locales.** simcord sends every interaction with ``locale="en-US"``; the bot answers
  privately in the clicking user's language (``user_lang``), so the fixture wraps simcord's
  payload builder: every member's client runs in German (``"de"``) unless a test changes it
  with :meth:`Table.set_locale`.
* **Clicks on an outdated message.** simcord only lets a user click what a message shows
  *now*. On Discord a click can arrive for a message the bot has changed meanwhile (two
  quick clicks, or a client that has not updated yet); :func:`click_as_shown` replays a
  click against a snapshot of the message, and :func:`double_click` sends two clicks before
  the bot has answered either.

PYTEST_DONT_REWRITE: test modules import this file before pytest registers it as a plugin.
"""

from __future__ import annotations

import copy
import functools
import itertools
import logging
import tempfile
from collections.abc import AsyncIterator, Callable, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import discord
import pytest
from simcord import interactions as sim_interactions
from simcord.actors import MemberActor
from simcord.backend import serializers as sim_serializers
from simcord.builders import ChannelHandle, GuildHandle
from simcord.enums import ComponentType, InteractionType
from simcord.env import Env
from simcord.results import InteractionResult, ResponseMessage

from bot.app import MonopolyBot
from bot.config import Settings, Tuning
from bot.engine.rng import SplitMix64
from bot.engine.scenario import SCENARIO_FORMAT, run
from bot.engine.state import GameState
from bot.i18n import t
from bot.store import GameRow

#: Quicker coalesced edits and stale-click checks than in production (short real-time waits).
TEST_TUNING = Tuning(edit_interval=0.05, check_delay=0.05)

#: Squares of the German board (``de_euro``) the tests use.
BADSTRASSE = 1
TURMSTRASSE = 3
SUEDBAHNHOF = 5
JAIL = 10
MUENCHNER_STRASSE = 16
BERLINER_STRASSE = 19
SCHLOSSALLEE = 39

Member = MemberActor


# -- the table ----------------------------------------------------------------------------


@dataclass
class Table:
    """The server, the game channel and the four members sitting at it."""

    env: Env
    guild: GuildHandle
    channel: ChannelHandle
    alice: Member
    bob: Member
    carol: Member
    dave: Member
    locales: dict[int, str] = field(default_factory=dict)
    logged: Any = None  # what the bot logged as failed (see _SwallowedErrors)

    @property
    def bot(self) -> MonopolyBot:
        """The bot running now (a new one after a restart)."""
        return self.env.bot

    @property
    def members(self) -> list[Member]:
        return [self.alice, self.bob, self.carol, self.dave]

    def member(self, user_id: int | str) -> Member:
        """The member with this Discord id (a seat's ``id`` is the id as text)."""
        return next(m for m in self.members if m.id == int(user_id))

    def expect_logged(self, text: str) -> list[logging.LogRecord]:
        """Take the bot's logged failures mentioning ``text`` out of the test's check
        (a test that provokes a failure on purpose); the ones taken."""
        found = [r for r in self.logged.records if text in r.getMessage()]
        self.logged.records = [r for r in self.logged.records if r not in found]
        return found

    def set_locale(self, member: Member, locale: str) -> None:
        """Let ``member``'s Discord client run in ``locale`` (e.g. ``"de"``, ``"en-US"``)."""
        self.locales[member.id] = locale

    # -- the stored game ------------------------------------------------------------------

    async def game_id(self) -> int:
        """The id of the lobby or running game in the channel."""
        row = await self.bot.store.game_in_channel(self.channel.id)
        assert row is not None, "no game in the channel"
        return row.id

    async def row(self, game_id: int | None = None) -> GameRow:
        return await self.bot.store.load(game_id if game_id is not None else await self.game_id())

    async def state(self, game_id: int | None = None) -> GameState:
        """The game's stored state (the store's own copy, as the bot reads it)."""
        state = (await self.row(game_id)).state
        assert state is not None, "the game has not started"
        return state

    async def state_json(self, game_id: int) -> str:
        """The stored state as canonical JSON, to compare before and after a refusal."""
        return (await self.state(game_id)).to_json()

    async def current_member(self, game_id: int) -> Member:
        """The member whose turn it is."""
        state = await self.state(game_id)
        return self.member(state.players[state.current].id)

    # -- the channel ----------------------------------------------------------------------

    def message(self, message_id: int) -> discord.Message:
        """A message of the channel as it is now."""
        return next(m for m in self.channel.history() if m.id == message_id)

    async def turn_message(self, game_id: int) -> discord.Message:
        """The game's current turn message (the one with the buttons)."""
        settings = (await self.row(game_id)).settings
        return self.message(settings["turn_message"])

    async def auction_message(self, game_id: int) -> discord.Message:
        """The message of the auction under way."""
        settings = (await self.row(game_id)).settings
        assert "auction_message" in settings, "no auction message"
        return self.message(settings["auction_message"])

    def bot_messages(self) -> list[discord.Message]:
        """Every public message the bot posted in the channel, oldest first."""
        return [m for m in self.channel.history() if m.author.bot and not m.flags.ephemeral]


def _with_locales(table_ref: list[Table], original: Callable[..., Any]) -> Callable[..., Any]:
    @functools.wraps(original)
    def base_payload(*args: Any, **kwargs: Any) -> Any:
        record, payload = original(*args, **kwargs)
        if table_ref:
            locale = table_ref[0].locales.get(kwargs.get("user_id"))  # type: ignore[arg-type]
            if locale is not None:
                payload["locale"] = locale
        return record, payload

    return base_payload


class _SwallowedErrors(logging.Handler):
    """Collects what the bot logs as failed: discord.py only logs an exception raised in a
    button callback ("Ignoring exception in …"), and simcord's ``check_errors`` does not see
    those, so a broken click would otherwise pass unnoticed."""

    def __init__(self) -> None:
        super().__init__(logging.WARNING)
        self.records: list[logging.LogRecord] = []

    def emit(self, record: logging.LogRecord) -> None:
        failed = record.levelno >= logging.ERROR or record.exc_info is not None
        if failed and record.name.startswith(("discord", "cogs", "bot")):
            self.records.append(record)

    def report(self) -> str:
        return "\n\n".join(
            self.format(r) if r.exc_info is None else logging.Formatter().format(r)
            for r in self.records
        )


@pytest.fixture
async def table(
    simcord_env: Env, monkeypatch: pytest.MonkeyPatch, request: pytest.FixtureRequest
) -> AsyncIterator[Table]:
    """A server with ``#monopoly`` and alice, bob, carol and dave around the running bot.

    After the test it closes the bot's store, and fails the test if the bot swallowed an
    error (tests marked ``xfail`` excepted: they show a known bug).
    """
    ref: list[Table] = []
    monkeypatch.setattr(
        sim_interactions, "base_payload", _with_locales(ref, sim_interactions.base_payload)
    )
    guild = simcord_env.create_guild("Spieleabend")
    channel = guild.create_text_channel("monopoly")
    alice, bob, carol, dave = (
        guild.add_member(simcord_env.create_user(name))
        for name in ("alice", "bob", "carol", "dave")
    )
    seated = Table(simcord_env, guild, channel, alice, bob, carol, dave)
    for member in seated.members:
        seated.set_locale(member, "de")
    ref.append(seated)
    errors = _SwallowedErrors()
    seated.logged = errors
    logging.getLogger().addHandler(errors)
    try:
        yield seated
    finally:
        logging.getLogger().removeHandler(errors)
        # simcord detaches the bot without calling bot.close(), and the conftest's bot
        # does not close its store: without this aiosqlite's worker thread would keep the
        # test process alive after the last test.
        await seated.bot.stop_background()  # what bot.close() would do first
        await seated.bot.store.close()
    if errors.records and request.node.get_closest_marker("xfail") is None:
        pytest.fail("the bot logged errors:\n" + errors.report(), pytrace=False)


def restarted_bot(database: Any) -> MonopolyBot:
    """A new bot on the same database, built like the conftest's ``simcord_bot``."""
    settings = Settings(
        discord_token=None,
        db_path=Path(tempfile.gettempdir()) / "unused.db",
        log_level="INFO",
        dev_guild_id=None,
    )
    seeds = itertools.count(7)
    return MonopolyBot(
        settings, store=database.store(), seeds=lambda: next(seeds), tuning=TEST_TUNING
    )


def counting_bot(database: Any, tmp_path: Path, first: int) -> MonopolyBot:
    """A bot like the conftest's whose seeds (lobby secrets) count from ``first`` in
    steps of 7919: large numbers, as the bot's own 62-bit ones are."""
    settings = Settings(
        discord_token=None, db_path=tmp_path / "games.db", log_level="INFO", dev_guild_id=None
    )
    secrets = itertools.count(first, 7_919)
    return MonopolyBot(
        settings, store=database.store(), seeds=lambda: next(secrets), tuning=TEST_TUNING
    )


def store_settings(database: Any) -> Settings:
    """Settings that name this test's database, as ``monopoly-bot`` would read them."""
    path = getattr(database, "path", None)
    return Settings(
        discord_token=None,
        db_path=path if path is not None else Path("unused.db"),
        log_level="INFO",
        dev_guild_id=None,
        database_url=getattr(database, "url", None),
    )


async def restart(table: Table, database: Any) -> MonopolyBot:
    """Restart the bot process: a fresh bot on the same database, same virtual Discord."""
    old = table.bot
    await table.env.restart_bot(restarted_bot(database))
    await old.stop_background()  # the old process is gone; so are its timers loop
    await old.store.close()  # and its connection
    return table.bot


# -- lobbies and games --------------------------------------------------------------------


async def open_lobby(table: Table, host: Member, **options: Any) -> InteractionResult:
    """``/monopoly start`` by ``host`` with the given options."""
    return await host.slash(table.channel, "monopoly start", **options)


async def start_game(
    table: Table,
    host: Member,
    *others: Member,
    language: str = "de",
    jokers: int | None = None,
    **options: Any,
) -> int:
    """Open a lobby, let ``others`` join, let the host start; the game's id.

    The conftest's bot seeds its first game with 7: with alice and bob (in that order)
    alice throws first. ``jokers`` is set by the host in the lobby if given (a new lobby
    gives each player two: a test of the safe default at the first deadline sets 0).
    """
    await open_lobby(table, host, language=language, **options)
    lobby = table.channel.last_message
    if jokers is not None:
        await host.slash(table.channel, "monopoly settings", jokers=jokers)
    for member in others:
        await member.click(lobby, label=t(language, "button.join"))
    await host.click(lobby, label=t(language, "button.start"))
    return await table.game_id()


def scenario(
    seats: Sequence[Member | tuple[Member, dict[str, Any]]], **position: Any
) -> dict[str, Any]:
    """A ``monopoly-scenario/1`` document with these members as players, in seat order.

    A seat is a member or ``(member, {"cash": ..., "position": ..., ...})``; ``position``
    holds the other scenario keys (``lots``, ``preset``, ``seed``, ``current`` ...).
    """
    players = []
    for seat in seats:
        member, extra = seat if isinstance(seat, tuple) else (seat, {})
        players.append({"id": str(member.id), "name": member.name, **extra})
    return {"format": SCENARIO_FORMAT, "players": players, **position}


async def play_position(
    table: Table,
    raw: dict[str, Any],
    *,
    host: Member | None = None,
    lang: str = "de",
    theme: str | None = None,
) -> int:
    """Store a running game at the scenario's position and post its turn message.

    This is what the bot does when a lobby starts, but from a chosen position instead of a
    fresh game; the host is the first seat unless given. The scenario's ``steps`` (actions
    with the dice they throw) are played by the rules engine first, so a position can be
    "alice has just thrown 1+3 onto the income tax".
    """
    state = run(raw)
    bot = table.bot
    host_id = host.id if host is not None else int(raw["players"][0]["id"])
    settings = {
        "host": host_id,
        "players": [{"id": int(p["id"]), "name": p["name"]} for p in raw["players"]],
        "preset": raw.get("preset", "classic"),
        "lang": lang,
        "theme": theme,
        "max_players": 6,
    }
    row = await bot.store.create_game(
        table.guild.id, table.channel.id, state, created_by=host_id, settings=settings
    )
    await bot.core.publisher.show(row.id)
    await table.env.settle()
    return row.id


def rolled(seat: int, first: int, second: int) -> dict[str, Any]:
    """A scenario step: the player in ``seat`` throws ``first`` + ``second``."""
    return {"action": {"type": "roll", "player": seat}, "dice": [first, second]}


async def computer_position(table: Table, raw: dict[str, Any], level: str = "strong") -> int:
    """Store a running game at ``raw`` (alice, ``Computer 1`` of ``level`` seated as a lobby
    seats it – id ``cpu1`` – and carol) and post its turn message; the game's id."""
    settings = {
        "host": table.alice.id,
        "players": [
            {"id": table.alice.id, "name": "alice"},
            {"id": "cpu1", "name": "Computer 1", "computer": level},
            {"id": table.carol.id, "name": "carol"},
        ],
        "preset": "classic",
        "lang": "de",
        "theme": None,
        "max_players": 6,
        "computer": {"1": "seat"},
        "computer_level": {"1": level},
    }
    row = await table.bot.store.create_game(
        table.guild.id, table.channel.id, run(raw), created_by=table.alice.id, settings=settings
    )
    await table.bot.core.publisher.show(row.id)
    await table.env.settle()
    return row.id


@functools.cache
def seed_for(*throws: tuple[int, int] | None) -> int:
    """A scenario ``seed`` whose first throws are ``throws`` (``None``: any throw).

    A scenario's dice generator is SplitMix64 started at its seed, and every throw takes
    two dice from it (``bot/engine/turns.py``), so a short search finds a seed for a
    few throws (36 candidates per fixed throw on average).
    """
    for seed in itertools.count(1):
        rng = SplitMix64(seed)
        for wanted in throws:
            dice = (rng.die(), rng.die())
            if wanted is not None and dice != tuple(wanted):
                break
        else:
            return seed
    raise AssertionError("unreachable")


# -- messages, buttons and replies --------------------------------------------------------


def buttons(message: discord.Message | Any) -> list[str]:
    """The labels of a message's buttons, in order (a message or a simcord response)."""
    found = []
    for row in message.components:
        children = row.children if hasattr(row, "children") else row.get("components", [])
        for child in children:
            if isinstance(child, dict):
                if child.get("type") == ComponentType.BUTTON:
                    found.append(child.get("label"))
            elif isinstance(child, discord.Button):
                found.append(child.label)
    return found


#: What a turn message's game buttons do (``_panels.TURN_BUTTONS``), by custom_id action.
TURN_ACTIONS = frozenset(
    {
        "roll",
        "pay_bail",
        "use_jail_card",
        "buy",
        "decline",
        "choose_pay",
        "choose_draw",
        "keep_mortgages",
        "lift_mortgages",
        "end_turn",
        "declare_bankruptcy",
    }
)


def turn_actions(message: discord.Message) -> list[str]:
    """The game's decision buttons of a turn message – roll, buy, bail, end turn … – in
    order, without the menus every turn message has (build & mortgage, trade, give up) or
    the extra buttons for debts and rent claims."""
    return [
        child.label
        for row in message.components
        for child in row.children
        if isinstance(child, discord.Button)
        and child.custom_id
        and child.custom_id.split(":")[3] in TURN_ACTIONS
    ]


def embed_text(message: discord.Message | Any) -> str:
    """Everything a player reads in a message: content and every part of its embeds."""
    parts = [message.content or ""]
    for embed in message.embeds:
        parts += [embed.title or "", embed.description or ""]
        parts += [f"{f.name}\n{f.value}" for f in embed.fields]
        parts.append(embed.footer.text or "")
    return "\n".join(parts)


def alt_text(message: discord.Message | Any) -> str:
    """The alt text of a message's images (what a screen reader says; the picture's text)."""
    return "\n".join(a.description or "" for a in message.attachments)


def private_reply(result: InteractionResult) -> str:
    """The text only the clicking user saw (ephemeral response and follow-ups).

    Fails if the bot answered nothing privately, so tests of refusals stay strict.
    """
    texts = []
    response = result.response
    # A deferred click's "response" is the clicked message itself, not a reply.
    if response is not None and response.ephemeral and not result.deferred:
        texts.append(response.content)
    texts += [f.content for f in result.followups if f.ephemeral]
    assert texts, f"no private reply: {result!r}"
    return "\n".join(texts)


def public_followups(result: InteractionResult) -> list[str]:
    """Texts the bot sent to everyone as follow-ups of the interaction."""
    return [f.content for f in result.followups if not f.ephemeral]


def still_thinking(table: Table) -> list[discord.Message]:
    """Deferred answers the bot never completed ("… is thinking" forever in the client)."""
    return [m for m in table.channel.history() if m.flags.loading]


async def submit_bid(member: Member, auction: discord.Message, amount: str) -> InteractionResult:
    """Open the auction's "Bid …" modal and submit ``amount`` as typed."""
    label = next(b for b in buttons(auction) if b.startswith(("Bieten", "Bid")))
    shown = await member.click(auction, label=label)
    assert shown.modal is not None, "the bid button opened no modal"
    field_id = _modal_field(shown.modal)
    return await member.submit_modal(shown, {field_id: amount})


def _modal_field(modal: dict[str, Any]) -> str:
    for component in modal["components"]:
        inner = component.get("components") or [component.get("component") or component]
        for child in inner:
            if child.get("type") == ComponentType.TEXT_INPUT:
                return child["custom_id"]
    raise AssertionError(f"no text field in modal {modal!r}")


def fresh(table: Table, response: ResponseMessage) -> ResponseMessage:
    """A private (ephemeral) message as it is now, after the bot edited it."""
    return ResponseMessage(
        table.env, table.env.backend.get_message(response.channel_id, response.id)
    )


async def mortgage_from_menu(table: Table, member: Member, turn: discord.Message, lot: str) -> None:
    """``member`` opens the turn message's "Bauen & Hypotheken" menu and mortgages ``lot``.

    The menu is private. Two layouts are understood: one button per possible action
    ("Beleihen: Schlossallee"), or a list of lots to choose from ("Grundstücke beleihen",
    perhaps behind a "Hypotheken" page button) and a "Bestätigen …" button. The tests tell
    the story; this helper knows the layout.
    """
    menu = await member.click(turn, label="Bauen & Hypotheken")
    assert menu.ephemeral, "the management menu is not private"
    panel = menu.response
    if f"Beleihen: {lot}" in buttons(panel):
        await member.click(panel, label=f"Beleihen: {lot}")
        return
    chooser = _mortgage_chooser(panel)
    if chooser is None:  # the building page came first: turn to the mortgages
        await member.click(panel, label=next(b for b in buttons(panel) if b == "Hypotheken"))
        panel = fresh(table, panel)
        chooser = _mortgage_chooser(panel)
        assert chooser is not None, "no list of lots to mortgage"
    value = next(o["value"] for o in chooser["options"] if o["label"] == lot)
    await member.select(panel, [value], custom_id=chooser["custom_id"])
    confirm = next(b for b in buttons(fresh(table, panel)) if b and b.startswith("Bestätigen"))
    await member.click(panel, label=confirm)


def _mortgage_chooser(panel: ResponseMessage) -> dict[str, Any] | None:
    for row in panel.components:
        for child in row.get("components", []):
            placeholder = str(child.get("placeholder", ""))
            if child.get("type") == ComponentType.STRING_SELECT and placeholder.startswith(
                "Grundstücke beleihen"
            ):
                return child
    return None


# -- clicks on outdated messages ----------------------------------------------------------


@dataclass
class Snapshot:
    """A message as a player's client showed it at one moment."""

    stored: Any


def snapshot(table: Table, message: discord.Message) -> Snapshot:
    """Remember ``message`` as it looks now (its buttons may change later)."""
    return Snapshot(copy.deepcopy(table.env.backend.get_message(message.channel.id, message.id)))


def _click_payload(table: Table, member: Member, shown: Snapshot, label: str) -> tuple[Any, Any]:
    stored = shown.stored
    button = next(
        c
        for row in stored.components
        for c in row.get("components", [])
        if c.get("type") == ComponentType.BUTTON and c.get("label") == label
    )
    backend = table.env.backend
    record, payload = sim_interactions.base_payload(
        backend,
        type=InteractionType.MESSAGE_COMPONENT,
        channel_id=stored.channel_id,
        guild_id=table.guild.id,
        user_id=member.id,
        data={"custom_id": button["custom_id"], "component_type": ComponentType.BUTTON},
    )
    payload["message"] = dict(sim_serializers.message_payload(backend, stored))
    record.source_message_id = stored.id
    return record, payload


async def click_as_shown(
    table: Table, member: Member, shown: Snapshot, label: str
) -> InteractionResult:
    """``member`` clicks ``label`` on the message as ``shown`` (maybe changed since)."""
    record, payload = _click_payload(table, member, shown, label)
    table.env.backend.emit("INTERACTION_CREATE", payload)
    await table.env.settle()
    return InteractionResult(table.env, record)


async def double_click(
    table: Table, member: Member, message: discord.Message, label: str
) -> tuple[InteractionResult, InteractionResult]:
    """Two clicks on the same button, both sent before the bot answered the first."""
    shown = snapshot(table, message)
    first, first_payload = _click_payload(table, member, shown, label)
    second, second_payload = _click_payload(table, member, shown, label)
    table.env.backend.emit("INTERACTION_CREATE", first_payload)
    table.env.backend.emit("INTERACTION_CREATE", second_payload)
    await table.env.settle()
    return InteractionResult(table.env, first), InteractionResult(table.env, second)


def server_admin(table: Table, name: str = "erin") -> Member:
    """A new member who may manage the server (the four players may not)."""
    role = table.guild.create_role("Admins", permissions=discord.Permissions(manage_guild=True))
    member = table.guild.add_member(table.env.create_user(name), roles=[role])
    table.set_locale(member, "de")
    return member
