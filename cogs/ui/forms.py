"""The forms (modals) players type amounts into: an exact or sealed bid, money in a trade,
the value of lots offered to a creditor. What they type is read by ``bot.text_input``.

Every form names in its custom id what it was opened for, so that a form sent late is
refused rather than applied to something else: a bid form names its auction
(:func:`auction_key`), the trade and lot forms the private menu (draft) they belong to.
"""

from __future__ import annotations

from typing import Any

from bot.i18n import t
from cogs.ui.ids import Form


def auction_key(auction: dict[str, Any], message_id: int) -> str:
    """An auction as a bid form names it: the lot's square (or the building's kind) and
    the id of the auction message the form was opened from.

    Each auction gets a message of its own (the publisher records it as
    ``auction_message``; the closing timer is keyed by it too), so the message tells two
    auctions of the same lot apart while staying the same through all the auction's bids.
    Only digits, letters and ``-``: what a custom id's argument may hold.
    """
    item = auction["square"] if auction.get("kind") == "lot" else auction.get("kind")
    return f"{item}-{message_id}"


class BidForm(Form):
    """An exact bid, or (``sealed``) a sealed maximum, in the auction ``auction`` (see
    :func:`auction_key`), opened at ``seq``."""

    def __init__(
        self, game: int, seq: int, lang: str, *, auction: str, sealed: bool = False
    ) -> None:
        kind = "sealed" if sealed else "bid"
        super().__init__(
            title=t(lang, f"modal.{kind}_title"), game=game, action=kind, seq=seq, arg=auction
        )
        self.add_field("amount", t(lang, f"modal.{kind}_label"), max_length=12)


class CashForm(Form):
    """Money both ways in a trade offer: what the user pays and what they ask for."""

    def __init__(self, game: int, nonce: int, lang: str, partner: str, give: int, get: int) -> None:
        super().__init__(
            title=t(lang, "trade.money_title"), game=game, action="cash", arg=str(nonce)
        )
        self.add_field(
            "give",
            t(lang, "trade.money_give"),
            required=False,
            max_length=20,
            default=str(give) if give else None,
            placeholder="0",
        )
        self.add_field(
            "get",
            t(lang, "trade.money_get", name=partner),
            required=False,
            max_length=20,
            default=str(get) if get else None,
            placeholder="0",
        )


class LotValueForm(Form):
    """The value the lots offered to a creditor pay off."""

    def __init__(self, game: int, nonce: int, lang: str, owed: int) -> None:
        super().__init__(
            title=t(lang, "lots.value_title"), game=game, action="lot_value", arg=str(nonce)
        )
        self.add_field("value", t(lang, "lots.value_label", amount=owed), max_length=20)
