"""The board game's events told as a story: one line per thing that happened, in order.

A turn's log should read like a player would tell it: "🎲 bob würfelt 1 + 4 = 5 →
Südbahnhof", "🏠 bob kauft Südbahnhof für 200 €". The engine emits finer events than that
(the throw, the move, the salary on the way, the payment of a purchase), so :func:`tell`
joins what belongs together and leaves out what another line already says:

* a throw and the move it makes are one line (with the salary collected on the way);
* a payment that is part of a purchase, an auction, a building, a mortgage or a trade is
  told by that line (with its amount), never a second time;
* bids and passes stay on the auction message; the auction's end is one line that says
  how many bids there were;
* a choice says what was chosen; the bank at the start of a line is written with a capital
  letter, and after "schuldet" in the dative ("der Bank").

Functions of a :class:`Namer` (the game's names, squares and money, see
``cogs.ui.text.Narrator``) and the events; nothing here talks to Discord.
"""

from __future__ import annotations

from typing import Any, Protocol

from bot.engine.state import BANK, POT
from bot.i18n import t

#: Payments another line already tells, by the engine's reason.
TOLD_ELSEWHERE = frozenset(
    {
        "buy",
        "auction",
        "build",
        "sell_building",
        "mortgage",
        "unmortgage",
        "trade",
        "building_refund",
        "dealt_deed",
    }
)
#: Events of an auction under way: they live on the auction message, not in the log.
BIDDING = frozenset({"bid", "sealed_bid", "auction_pass", "auction_closed"})
#: Events never worth a line.
SILENT = frozenset({"order_roll", "turn", "lots_offered", "trade_proposed"})
#: Keys of an event that name a seat (player, bank or pot).
SEAT_KEYS = ("player", "from", "to", "owner", "debtor", "creditor", "payer", "winner")
#: Keys of an event that are amounts of money.
MONEY_KEYS = ("amount", "price", "min", "debt", "value")
#: Payments tied to an action line, by that line's event type: the payment's reason.
PAID_WITH = {
    "built": "build",
    "sold_building": "sell_building",
    "mortgaged": "mortgage",
    "unmortgaged": "unmortgage",
}


class Namer(Protocol):
    """What the story needs to know of a game: names, squares and money in its language."""

    lang: str

    def player(self, seat: int, *, case: str = "nom") -> str:
        """A player's name, or the bank or the pot in the grammatical ``case``."""

    def square(self, index: int) -> str:
        """The display name of a square."""

    def money(self, amount: int) -> str:
        """An amount in the game's currency."""

    def deck(self, deck: str) -> str:
        """The name of a card of ``deck`` ("Ereigniskarte")."""

    def card_text(self, deck: str, card_id: int) -> str:
        """The printed text of a card."""


def tell(namer: Namer, events: list[dict[str, Any]], *, bids: int = 0) -> list[str]:
    """The lines of ``events`` (one action's, or several in order) as the story above.

    ``bids`` counts the bids of an auction that began before these events (the publisher
    keeps the count while the auction runs).
    """
    lines: list[str] = []
    used: set[int] = set()
    bid_count = bids
    for index, event in enumerate(events):
        if index in used:
            continue
        kind = event["type"]
        if kind == "bid":
            bid_count += 1
        if kind in BIDDING or kind in SILENT:
            continue
        if kind == "auction_started" and _after(events, index, "declined"):
            continue  # "bob kauft X nicht – Versteigerung!" says it already
        if kind == "payment" and event["reason"] in TOLD_ELSEWHERE:
            continue
        if kind == "rolled":
            line = _throw(namer, events, index, used)
        elif kind == "moved":
            line = _move(namer, events, index, used, after_throw=False)
        elif kind == "chose":
            line = _choice(namer, events, index, used)
        elif kind == "auction_won" and "bids" not in event:
            line = event_line(namer, event)
            if bid_count > 0 and line is not None:
                key = "event.bid_count.one" if bid_count == 1 else "event.bid_count"
                line += " · " + t(namer.lang, key, count=bid_count)
            bid_count = 0
        elif kind in PAID_WITH:
            paid = _payment(events, index, used, PAID_WITH[kind], event.get("player"))
            line = event_line(namer, event, paid=paid)
        else:
            line = event_line(namer, event)
        if line:
            lines.append(line)
    return lines


def count_bids(events: list[dict[str, Any]], bids: int) -> int:
    """The bids of the auction under way after ``events`` (0 once it ended)."""
    for event in events:
        if event["type"] == "bid":
            bids += 1
        elif event["type"] in ("auction_won", "auction_unsold"):
            bids = 0
    return bids


def event_line(namer: Namer, event: dict[str, Any], *, paid: int | None = None) -> str | None:
    """One line for one event on its own, or None for events not worth a line."""
    kind = event["type"]
    lang = namer.lang
    if kind in SILENT:
        return None
    if kind == "handed_over":
        # Both names: the event's own, as the seat's name is the new player's by now.
        return t(lang, "event.handed_over", old=event["from_name"], new=event["to_name"])
    params = _params(namer, event)
    if kind == "rolled":
        return _rolled(namer, event, params)
    if kind == "moved":
        key = "event.moved_back" if event.get("backward") else "event.moved"
        return _capital(namer, t(lang, key, **params))
    if kind == "payment":
        return _capital(namer, _payment_line(namer, event, params))
    if kind == "card":
        return t(
            lang,
            "event.card",
            deck=namer.deck(event["deck"]),
            text=namer.card_text(event["deck"], event["card"]),
            **params,
        )
    if kind in ("auction_won", "auction_unsold", "auction_started") and "square" not in event:
        params["square"] = t(lang, f"word.{event.get('kind', 'house')}")
    if kind == "auction_won" and "bids" in event:
        # A sealed auction is over: every maximum is shown, highest first.
        shown = ", ".join(
            f"{namer.player(b['player'])} {namer.money(b['amount'])}" for b in event["bids"]
        )
        won = t(lang, "event.auction_won", **params)
        return won + " · " + t(lang, "event.sealed_bids", bids=shown)
    if kind == "game_over":
        if event.get("winner") is None:
            return t(lang, "event.game_abandoned")
        return t(lang, f"event.game_over.{event['reason']}", **params)
    if kind in ("built", "sold_building"):
        params["building"] = t(lang, f"word.{event.get('building', 'house')}")
    if kind == "no_rent":
        key = f"event.no_rent.{event.get('why')}"
        text = t(lang, key, **params)
        return text if text != key else t(lang, "event.no_rent", **params)
    if kind == "trade_countered":
        params["trade"], params["new"] = event["trade"], event["new"]
    if kind == "debt" and event.get("creditor") in (BANK, POT):
        params["creditor"] = namer.player(event["creditor"], case="dat")
    key = f"event.{kind}"
    text = t(lang, key, **params)
    if text == key:
        return None
    if paid is not None:
        text += " " + t(lang, "event.paid", amount=namer.money(paid))
    return _capital(namer, text)


def _params(namer: Namer, event: dict[str, Any]) -> dict[str, Any]:
    params: dict[str, Any] = {}
    for key, value in event.items():
        if key in SEAT_KEYS:
            if isinstance(value, int):
                params[key] = namer.player(value)
        elif key == "square" and isinstance(value, int):
            params["square"] = namer.square(value)
        elif key in MONEY_KEYS and isinstance(value, int):
            params[key] = namer.money(value)
    return params


def _rolled(namer: Namer, event: dict[str, Any], params: dict[str, Any]) -> str:
    first, second = event["dice"]
    double = t(namer.lang, "event.doubles") if first == second else ""
    return t(
        namer.lang, "event.rolled", a=first, b=second, sum=first + second, double=double, **params
    )


def _throw(namer: Namer, events: list[dict[str, Any]], index: int, used: set[int]) -> str:
    """A throw, and the move it makes (or the stay in jail) in the same line."""
    event = events[index]
    line = _rolled(namer, event, _params(namer, event))
    seat = event["player"]
    for later in range(index + 1, len(events)):
        follow = events[later]
        kind = follow["type"]
        if follow.get("player") != seat and not (kind == "payment" and follow["to"] == seat):
            break
        if kind == "jail_stay":
            used.add(later)
            return line + " · " + t(namer.lang, "event.stays_in_jail")
        if kind == "left_jail" and follow.get("how") == "doubles":
            used.add(later)
            line += " · " + t(namer.lang, "event.out_by_doubles")
            continue
        if kind == "payment" and follow["reason"] in ("salary", "go_landing_bonus"):
            continue  # the move's line takes it
        if kind == "moved" and not follow.get("backward"):
            return line + " → " + _move(namer, events, later, used, after_throw=True)
        break
    return line


def _move(
    namer: Namer, events: list[dict[str, Any]], index: int, used: set[int], *, after_throw: bool
) -> str:
    """A move; the salary paid on the way (the payments just before it) goes into its line."""
    event = events[index]
    used.add(index)
    seat = event["player"]
    salary = 0
    for earlier in range(index - 1, -1, -1):
        prior = events[earlier]
        if prior["type"] != "payment" or prior.get("to") != seat:
            break
        if prior["reason"] in ("salary", "go_landing_bonus"):
            salary += prior["amount"]
            used.add(earlier)
    square = namer.square(event["to"])
    if after_throw:
        text = square
    else:
        key = "event.moved_back" if event.get("backward") else "event.moved"
        text = t(namer.lang, key, player=namer.player(seat), square=square)
    if salary:
        text += " · " + t(namer.lang, "event.passed_go", amount=namer.money(salary))
    return text


def _choice(namer: Namer, events: list[dict[str, Any]], index: int, used: set[int]) -> str | None:
    """A choice between paying a fine and drawing a card, saying what was chosen."""
    event = events[index]
    player = namer.player(event["player"])
    if event.get("option") == "pay":
        amount = _payment(events, index, used, "card", event["player"])
        if amount is not None:
            return t(namer.lang, "event.chose.pay", player=player, amount=namer.money(amount))
    return t(namer.lang, "event.chose.draw", player=player)


def _payment(
    events: list[dict[str, Any]], index: int, used: set[int], reason: str, seat: int | None
) -> int | None:
    """The amount of the payment for ``reason`` by or to ``seat`` next to event ``index``
    (marked as told), or None."""
    for other in (index + 1, index - 1, index + 2, index - 2):
        if 0 <= other < len(events) and other not in used:
            event = events[other]
            if (
                event["type"] == "payment"
                and event["reason"] == reason
                and seat in (event.get("from"), event.get("to"))
            ):
                used.add(other)
                return int(event["amount"])
    return None


def _payment_line(namer: Namer, event: dict[str, Any], params: dict[str, Any]) -> str:
    """A payment: its reason's own words if it has them ("zahlt 60 € Miete"), else who
    received from whom (the bank's payments told as what the player receives)."""
    lang = namer.lang
    key = f"event.payment.{event['reason']}"
    text = t(lang, key, **params)
    if text != key:
        return text
    payer, payee = event["from"], event["to"]
    if payer in (BANK, POT):
        return t(
            lang, "event.payment.from_pot" if payer == POT else "event.payment.from_bank", **params
        )
    if payee in (BANK, POT):
        return t(lang, "event.payment.to_bank", **params)
    return t(lang, "event.payment", **params)


def _capital(namer: Namer, text: str) -> str:
    """A line starting with the bank or the pot ("die Bank …") starts with a capital."""
    for seat in (BANK, POT):
        word = namer.player(seat)
        if text.startswith(word):
            return word[:1].upper() + text[1:]
    return text


def _after(events: list[dict[str, Any]], index: int, kind: str) -> bool:
    return any(event["type"] == kind for event in events[:index])
