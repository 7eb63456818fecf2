"""The forms (modals) players type amounts into: an exact or sealed bid, money in a trade,
the value of lots offered to a creditor. What they type is read by ``bot.text_input``."""

from __future__ import annotations

from bot.i18n import t
from cogs.ui.ids import Form


class BidForm(Form):
    """An exact bid, or (``sealed``) a sealed maximum, in the auction shown at ``seq``."""

    def __init__(self, game: int, seq: int, lang: str, *, sealed: bool = False) -> None:
        kind = "sealed" if sealed else "bid"
        super().__init__(title=t(lang, f"modal.{kind}_title"), game=game, action=kind, seq=seq)
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
