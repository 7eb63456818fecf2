"""MONOPOLY Das Kartenspiel in Discord: each player's private hand and what they do with it.

The table message (public, ``cogs/core/card_messages.py``) has a **🂠 My hand** button that
opens the clicking player's hand privately with what they may do now: draw, swap (targets
and counts), discard, pass a card to the left (5–6 players), lay out (the suggested best
lay-out, or one's own choice of cards, with a question for which group each house, token
and wild card joins) and arrange the ender's bonus. The engine is :mod:`bot.cardgame`.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from bot.cardgame import CardState, best_layout, waiting_for
from bot.cardgame.cards import PROPERTY
from bot.cardgame.view import visible_events
from bot.engine.errors import IllegalAction
from bot.i18n import t
from bot.store import StoreError
from cogs.core.click import Click
from cogs.core.pictures import drawn
from cogs.core.services import FeatureCog
from cogs.ui.cards_hand import (
    FIRST,
    LAYOUT,
    FirstDiscard,
    LayoutDraft,
    assign_message,
    assignables,
    explain_card,
    hand_message,
    own_layout,
)
from cogs.ui.cards_table import card_name, cards_text, hand_file


def _cards(click: Click) -> tuple[CardState, int]:
    state = click.state
    if not isinstance(state, CardState) or state.phase == "over":
        raise IllegalAction("game_over")
    assert click.seat is not None
    return state, click.seat


async def _hand(
    click: Click, state: CardState, seat: int, lang: str, *args: Any, **options: Any
) -> dict[str, Any]:
    """A player's hand message with its picture as ``attachments``; without the picture if
    it cannot be drawn (the hand's text still lists the cards and the buttons work)."""
    game = click.game
    payload = hand_message(game, state, seat, lang, *args, **options)
    failed = click.core.publisher.picture_failures
    picture = await drawn(failed, game, "hand", hand_file(state, seat, lang))
    if picture is None:
        payload["embed"].set_image(url=None)
    payload["attachments"] = [picture] if picture is not None else []
    return payload


class CardGameCog(FeatureCog, name="CardGame"):
    """The card game's private hand and its actions."""

    async def open_hand(self, click: Click) -> None:
        """ "My hand": the clicking player's hand, privately, as its grouped picture at once
        (the same message every action then edits)."""
        state, seat = _cards(click)
        payload = await _hand(click, state, seat, click.lang)
        files = payload.pop("attachments")
        await click.reply(**payload, files=files)

    async def _act(self, click: Click, action: dict[str, Any]) -> None:
        """Apply the player's card action; show their hand again (the table follows)."""
        lang = click.lang
        try:
            result = await click.act(action)
        except (IllegalAction, StoreError) as error:
            await click.reply(explain_card(lang, error))
            return
        state = result.state
        assert isinstance(state, CardState) and result.actor is not None
        seat = result.actor
        notes = []
        for event in visible_events(result.events, seat):
            if event["type"] == "drew" and event.get("card"):
                card = card_name(state, event["card"], lang)
                notes.append(t(lang, "cards.you_drew", card=card))
            if event["type"] == "bonus_revealed" and event.get("cards"):
                cards = cards_text(state, event["cards"], lang)
                notes.append(t(lang, "cards.your_bonus", cards=cards))
        if state.phase == "over" or seat not in waiting_for(state) and state.current != seat:
            text = "\n".join(notes) or t(lang, "manage.done")
            await click.edit(content=text, embed=None, view=None, attachments=[])
            return
        await click.edit(**await _hand(click, state, seat, lang, "\n".join(notes) or None))

    async def draw(self, click: Click) -> None:
        """Draw a card."""
        await self._act(click, {"type": "draw"})

    async def suggested(self, click: Click) -> None:
        """Lay out (or, as the ender, arrange) the suggested best lay-out."""
        assert click.ref is not None
        state, seat = _cards(click)
        layout = best_layout(state, seat)
        if layout is None:
            raise IllegalAction("no_complete_group")
        kind = "lay_out" if click.ref.action == "c_lay" else "arrange"
        await self._act(click, {"type": kind, "layout": layout})

    async def swap(self, click: Click) -> None:
        """A swap chosen from the select (after a card laid on one's own pile, if any)."""
        parts = (click.values[0] if click.values else "").split("-")
        numbers = parts[1:]
        if len(parts) != 3 or not all(p.isascii() and p.isdigit() for p in numbers):
            raise IllegalAction("unknown_button")
        kind, first, second = parts[0], int(parts[1]), int(parts[2])
        if kind == "s":
            action: dict[str, Any] = {"type": "swap", "target": first, "count": second}
        else:
            action = {"type": "swap_extra", "pile": first, "stock": second == 1}
        chosen = click.drafts.pop(FIRST, click.game, click.user_id)
        if isinstance(chosen, FirstDiscard):
            action["first_discard"] = chosen.card
        await self._act(click, action)

    async def discard(self, click: Click) -> None:
        """Discard the chosen cards."""
        await self._act(click, {"type": "discard", "cards": click.values})

    async def pass_card(self, click: Click) -> None:
        """Pass the chosen card to the left (5–6 players)."""
        await self._act(
            click, {"type": "pass_card", "card": click.values[0] if click.values else ""}
        )

    async def custom(self, click: Click) -> None:
        """One's own choice of cards to lay out: at once, or after the group questions."""
        state, _ = _cards(click)
        cards = click.values
        groups = {state.deck.card(c).group for c in cards if state.deck.card(c).kind == PROPERTY}
        if len(groups) < 2 or not assignables(state, cards):
            await self._act(click, {"type": "lay_out", "layout": own_layout(state, cards)})
            return
        draft = click.drafts.keep(LAYOUT, LayoutDraft(click.game, click.user_id, cards=cards))
        await click.edit(**assign_message(click.game, state, draft, click.lang), attachments=[])

    async def _assignment(
        self, click: Click, nonce: str, change: Callable[[CardState, LayoutDraft], None]
    ) -> None:
        """Apply ``change`` to the player's lay-out draft and show the questions again."""
        draft = await click.live_draft(LAYOUT, nonce, "manage.expired")
        if draft is None:
            return
        state, _ = _cards(click)
        assert isinstance(draft, LayoutDraft)
        change(state, draft)
        await click.edit(**assign_message(click.game, state, draft, click.lang))

    async def assign(self, click: Click) -> None:
        """The group a house, token or wild card joins."""
        nonce, _, index = str(click.arg or "").partition("-")
        values = click.values

        def answer(state: CardState, draft: LayoutDraft) -> None:
            keys = assignables(state, draft.cards)
            if index.isascii() and index.isdigit() and int(index) < len(keys) and values:
                draft.assign[keys[int(index)]] = values[0]

        await self._assignment(click, nonce, answer)

    async def assign_page(self, click: Click) -> None:
        """◀ / ▶ through the group questions."""
        nonce, _, step = str(click.arg or "").partition("-")

        def turn(state: CardState, draft: LayoutDraft) -> None:
            draft.page += 1 if step == "n" else -1  # assign_message keeps it within the pages

        await self._assignment(click, nonce, turn)

    async def custom_go(self, click: Click) -> None:
        """Lay out one's own choice, as assigned."""
        draft = await click.live_draft(LAYOUT, click.arg, "manage.expired")
        if draft is None:
            return
        state, _ = _cards(click)
        assert isinstance(draft, LayoutDraft)
        click.drafts.drop(LAYOUT, draft)
        await self._act(
            click, {"type": "lay_out", "layout": own_layout(state, draft.cards, draft.assign)}
        )

    async def first(self, click: Click) -> None:
        """The card laid on one's own pile just before a swap."""
        state, seat = _cards(click)
        if not click.values:
            raise IllegalAction("unknown_button")
        click.drafts.keep(FIRST, FirstDiscard(click.game, click.user_id, card=click.values[0]))
        await click.edit(**await _hand(click, state, seat, click.lang, first=click.values[0]))
