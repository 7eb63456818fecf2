"""Images of MONOPOLY Das Kartenspiel: one card, a hand, a lay-out and the table.

(One long module: every image is composed of the same drawn cards and shares their
cache and measures.)

Pure functions from the card engine's state (:mod:`bot.cardgame`) to PNG bytes, in the
board's style: the same bundled fonts, palette and street-group colours, text fitted
with :func:`render.text.fit_text`. The card kinds' colours and the texts of the card
game live in ``render/data/cards.json``.

Every image the bot posts is drawn :data:`DRAWN_WIDTH` (800) pixels wide for a phone
that shows it about :data:`DISPLAY_WIDTH` (400) wide, so no text is smaller than
:data:`TEXT_MIN` (18 px drawn, 9 px shown); :func:`table_fonts`, :func:`hand_fonts` and
:func:`layout_fonts` report the smallest size of each kind of text an image uses.

- :func:`render_card` - one card as a Pillow image (cached per card, size and theme).
- :func:`render_hand` - a player's hand, grouped by colour group, with the suggested
  lay-out marked (private, for the "My hand" message).
- :func:`render_layout` - a lay-out: one row per group with its houses, hotel and
  tokens, the bonus cards, the value per row and the total (numbers from
  :func:`bot.cardgame.layout.score_layout`; see :func:`layout_summary`).
- :func:`render_round_result` - one player's scored lay-out of the last round.
- :func:`render_table` - the public table: a row per face-up pile (each card's band,
  bottom to top, left to right) under its player's name, score and hand size; whose
  turn, the stock and the target above. Only :func:`bot.cardgame.view.table_view` is
  read, so no hand can leak into it.
- :func:`describe_table`, :func:`describe_hand`, :func:`describe_round_result` - the
  same content as a sentence, for the images' alt text.

A card is portrait: a header band in the group's (or kind's) colour with the card's
name, a picture, a short hint and a footer with the value. On the table each card of a
pile shows its header band (a "tile"), so a whole pile fits a line and stays readable.
"""

from __future__ import annotations

import json
import math
from collections.abc import Callable, Mapping, Sequence
from contextvars import ContextVar
from dataclasses import dataclass
from functools import cache, lru_cache
from importlib import resources
from typing import Any

from PIL import Image, ImageDraw

from bot.cardgame.cards import (
    GO,
    HOTEL,
    HOUSE,
    MR_MONOPOLY,
    PROPERTY,
    RAILROAD,
    STREET,
    TOKEN,
    UTILITY,
    WILD,
    Deck,
    load_deck,
)
from bot.cardgame.layout import Layout, layout_cards, score_layout
from bot.cardgame.state import CardState
from bot.cardgame.view import card_info, hand_view, table_view
from render import sprites
from render.assets import RGB, Palette, font, hex_to_rgb, labels, palette
from render.board import printable
from render.png import encode_png
from render.text import Fitted, draw_fitted, ellipsize, fit_text

Box = tuple[int, int, int, int]

# Phones show an image of a message about 400 px wide; drawn at twice that it stays sharp
# on their dense screens, and every text of at least 18 px is shown at 9 px or more.
DRAWN_WIDTH = 800  # table, hand and lay-out images: all exactly this wide
DISPLAY_WIDTH = 400
MIN_DISPLAY_PX = 9
TEXT_MIN = math.ceil(MIN_DISPLAY_PX * DRAWN_WIDTH / DISPLAY_WIDTH)  # 18 px drawn

CARD_WIDTH = 160  # a single card (render_card)
TILES_PER_LINE = 6  # pile cards (their bands) in a line of the table
HAND_PER_ROW = 6  # cards in a row of the hand
MARGIN = 12  # between an image's edge and its content
ROW_PAD = 10  # inside a table row or lay-out panel
TILE_GAP = 6
_INNER = DRAWN_WIDTH - 2 * MARGIN - 2 * ROW_PAD
TABLE_CARD_WIDTH = (_INNER - (TILES_PER_LINE - 1) * TILE_GAP) // TILES_PER_LINE  # 121
LAYOUT_CARD_WIDTH = TABLE_CARD_WIDTH
HAND_GAP, HAND_CLUSTER_GAP = 6, 10
HAND_CARD_WIDTH = (DRAWN_WIDTH - 2 * MARGIN - (HAND_PER_ROW - 1) * HAND_CLUSTER_GAP) // (
    HAND_PER_ROW
)  # 121: six clusters of one card still fit a row
COMPACT_BELOW = 150  # narrower cards leave out the hints of houses, hotels and bonus cards
CARD_RATIO = 1.45  # height / width, close to the printed cards
MAX_WIDTH = 1600  # no image is wider (the card sheets of the tests; posted ones: 800)
BONUS_ORDER = (HOUSE, HOTEL, TOKEN, GO, MR_MONOPOLY, WILD)
SS = 4  # supersampling of the card outline and the small pictures
ALT_MAX = 1024  # Discord's limit for an attachment's description


# -- font sizes: what each image uses, for the phone check --------------------------------

_FONT_LOG: ContextVar[dict[str, int] | None] = ContextVar("card_font_log", default=None)


def _note(role: str, size: int) -> None:
    """Remember that a text of ``role`` was drawn at ``size`` px (while measuring)."""
    log = _FONT_LOG.get()
    if log is not None:
        log[role] = min(size, log.get(role, size))


@dataclass(frozen=True, slots=True)
class FontReport:
    """The smallest font size (px, as drawn) of each kind of text in one image."""

    width: int  # the image's drawn width
    sizes: dict[str, int]  # role ("heading", "name", "card_title" …) -> smallest px

    def displayed(self, display_width: int = DISPLAY_WIDTH) -> dict[str, float]:
        """Each role's smallest size as shown on a screen ``display_width`` px wide."""
        scale = display_width / self.width
        return {role: size * scale for role, size in self.sizes.items()}

    @property
    def smallest(self) -> int:
        """The smallest size of all (px, drawn)."""
        return min(self.sizes.values())


def font_report(draw: Callable[[], Image.Image]) -> FontReport:
    """Draw an image with ``draw`` and report the smallest font size per kind of text."""
    token = _FONT_LOG.set({})
    try:
        image = draw()
        sizes = dict(_FONT_LOG.get() or {})
    finally:
        _FONT_LOG.reset(token)
    return FontReport(image.width, sizes)


# -- data: colours and labels ------------------------------------------------------------


@cache
def _data() -> dict[str, Any]:
    text = (resources.files("render") / "data" / "cards.json").read_text(encoding="utf-8")
    return json.loads(text)


class CardStyle:
    """The colours of one theme: the board's palette plus the card kinds.

    ``style["house"]`` gives a colour of ``cards.json`` (which may name a colour of
    the board's palette) or else of the palette itself; :meth:`band` the header colour
    of a card.
    """

    __slots__ = ("theme", "pal", "colours")

    def __init__(self, theme: str) -> None:
        self.theme = theme
        self.pal: Palette = palette(theme)
        raw = _data()["colours"]
        if theme not in raw:
            raise KeyError(f"unknown theme {theme!r}")
        self.colours = {
            key: hex_to_rgb(value) if value.startswith("#") else self.pal[value]
            for key, value in raw[theme].items()
        }

    def __getitem__(self, key: str) -> RGB:
        return self.colours[key] if key in self.colours else self.pal[key]

    def band(self, kind: str, group_kind: str | None, group: str | None) -> RGB:
        """Header colour: a street's group colour (as on the board), else the kind's."""
        if kind == PROPERTY:
            if group_kind == STREET:
                return self.pal.group(group)
            return self.colours[group_kind or UTILITY]
        return self.colours[kind]


@lru_cache(maxsize=8)
def card_style(theme: str = "light") -> CardStyle:
    """The cached :class:`CardStyle` of ``theme``."""
    return CardStyle(theme)


class CardLabels:
    """The card game's texts in one language (``render/data/cards.json``)."""

    __slots__ = ("lang", "_raw")

    def __init__(self, lang: str) -> None:
        raw = _data()["labels"]
        if lang not in raw:
            raise KeyError(f"unknown language {lang!r}")
        self.lang = lang
        self._raw = raw[lang]

    def __getitem__(self, key: str) -> Any:
        return self._raw[key]

    def text(self, key: str, **values: Any) -> str:
        """The label ``key`` with its ``{placeholders}`` filled in."""
        return self._raw[key].format(**values)

    def count(self, key: str, n: int) -> str:
        """The singular or plural form of ``key`` for ``n`` (``{n}`` filled in)."""
        one, many = self._raw[key]
        return (one if n == 1 else many).format(n=n)


@cache
def card_labels(lang: str = "de") -> CardLabels:
    """The cached :class:`CardLabels` of ``lang`` (``"de"`` or ``"en"``)."""
    return CardLabels(lang)


def money(amount: int, deck: Deck, lang: str) -> str:
    """An amount as the board writes it: ``"4.600 €"`` / ``"€4,600"``."""
    return labels(lang).money(amount, deck.currency)


def _number(amount: int, lang: str) -> str:
    """An amount without currency: ``"4.600"`` / ``"4,600"``."""
    digits = f"{amount:,}"
    return digits.replace(",", ".") if lang == "de" else digits


# -- one card -----------------------------------------------------------------------------


def _money_range(amounts: Sequence[int], deck: Deck, lang: str) -> str:
    """Several amounts with one currency sign: ``"100 / 200 / 400 €"``, ``"€100 / 200 / 400"``."""
    texts = [money(a, deck, lang) for a in amounts]
    symbol_first = not texts[0][:1].isdigit()
    bare = [t.replace(deck.currency, "").strip() for t in texts]
    if symbol_first:
        bare[0] = texts[0]
    else:
        bare[-1] = texts[-1]
    return " / ".join(bare)


def _money_span(amounts: Sequence[int], deck: Deck, lang: str) -> str:
    """The lowest and highest amount: ``"100–400 €"``, ``"€100–400"`` (for narrow cards)."""
    low, high = money(min(amounts), deck, lang), money(max(amounts), deck, lang)
    if low[:1].isdigit():
        return low.replace(deck.currency, "").strip() + "–" + high
    return low + "–" + high.replace(deck.currency, "").strip()


@dataclass(frozen=True, slots=True)
class CardFace:
    """Everything one card shows (hashable, so drawn cards are cached by it)."""

    kind: str
    title: str
    subtitle: str
    footer: str
    group: str | None = None
    group_kind: str | None = None
    icon: str | None = None  # railroad, power, water, house, hotel, token, go, hat, chance
    number: int | None = None  # house cards
    pips: tuple[int, int] | None = None  # property cards: (position in group, group size)
    footer_short: str | None = None  # the footer where the whole one does not fit


def card_face(info: Mapping[str, Any], lang: str = "de", deck: Deck | None = None) -> CardFace:
    """What the card of ``info`` (from :func:`bot.cardgame.view.card_info`) shows.

    Street, railroad and utility names are the deck's (German street names in both
    languages, as printed); group names, the other cards' names and hints are localised.
    """
    deck = deck or load_deck()
    lab = card_labels(lang)
    kind = info["kind"]
    if kind == PROPERTY:
        group = deck.group(info["group"])
        name = info.get("group_name_en") if lang == "en" else info.get("group_name")
        position = group.cards.index(info["id"]) if info["id"] in group.cards else 0
        short = None
        icon: str | None  # streets show no icon
        if group.kind == RAILROAD:
            amounts = [group.values[n] for n in group.sizes]
            footer = _money_range(amounts, deck, lang)
            short = _money_span(amounts, deck, lang)
            icon = "railroad"
        else:
            footer = money(group.base(group.sizes[-1]), deck, lang)
            # The board's rule: the first utility is the power station.
            icon = None if group.kind == STREET else ("power" if position == 0 else "water")
        return CardFace(
            kind,
            info["name"],
            name or group.name,
            footer,
            group.id,
            group.kind,
            icon,
            pips=(position, len(group.cards)),
            footer_short=short,
        )
    if kind == HOUSE:
        number = int(info["number"])
        if number == 1:
            hint = lab["house_first"]
        else:
            hint = lab.text("house_after", ordinal=lab["house_ordinal"][number - 2])
        return CardFace(
            kind,
            lab["house_title"][number - 1],
            hint,
            lab["group_value"],
            icon="house",
            number=number,
            footer_short=lab["group_value_short"],
        )
    if kind == HOTEL:
        return CardFace(
            kind, lab["hotel"], lab["hotel_hint"], money(deck.hotel_value, deck, lang), icon="hotel"
        )
    if kind == TOKEN:
        return CardFace(
            kind,
            lab["token"],
            lab["token_hint"],
            lab["group_value"],
            icon="token",
            footer_short=lab["group_value_short"],
        )
    if kind == GO:
        return CardFace(
            kind, lab["go"], lab["go_hint"], money(deck.go_value, deck, lang), icon="go"
        )
    if kind == MR_MONOPOLY:
        bonus = "+" + money(deck.mr_monopoly_bonus, deck, lang)
        return CardFace(kind, lab["mr_monopoly"], lab["mr_monopoly_hint"], bonus, icon="hat")
    if kind == WILD:
        return CardFace(kind, lab["wild"], lab["wild_hint"], lab["wild_value"], icon="chance")
    raise ValueError(f"unknown card kind {kind!r}")


@dataclass(frozen=True, slots=True)
class CardGeometry:
    """Where the parts of a card of one width lie (x1, y1 exclusive)."""

    width: int
    height: int
    radius: int
    line: int
    header: Box
    title: Box
    picture: Box
    subtitle: Box
    footer: Box

    @property
    def fan_step(self) -> int:
        """How far the next card of a fanned pile goes down: the header stays visible."""
        return self.header[3] + self.line + 1


@lru_cache(maxsize=16)
def card_geometry(width: int) -> CardGeometry:
    """The layout of a card ``width`` pixels wide; cached per width."""
    w = width
    h = round(w * CARD_RATIO)
    m = max(3, round(w * 0.055))
    line = max(1, round(w / 80))
    pad = max(2, round(w * 0.045))
    # The band holds two lines of the name at TEXT_MIN however narrow the card is.
    band = max(round(h * 0.25), _two_lines_height() + 2 * (pad // 2))
    header = (m, m, w - m, m + band)
    title = (header[0] + pad, header[1] + pad // 2, header[2] - pad, header[3] - pad // 2)
    footer = (m, h - m - round(h * 0.13), w - m, h - m)
    body0, body1 = header[3], footer[1]
    body = body1 - body0
    picture = (m + pad, body0 + pad, w - m - pad, body0 + round(body * 0.56))
    subtitle = (m + pad, picture[3] + pad // 2, w - m - pad, body1 - pad // 2)
    return CardGeometry(
        w, h, max(3, round(w * 0.08)), line, header, title, picture, subtitle, footer
    )


@cache
def _two_lines_height() -> int:
    """The least height in which a card's name fits in two lines at TEXT_MIN."""
    f = font("condensed", TEXT_MIN)
    narrow = round(f.getlength("Mg")) + 2
    for height in range(TEXT_MIN, 4 * TEXT_MIN):
        fitted = fit_text(
            "Mg Mg",
            narrow,
            height,
            face="condensed",
            max_size=TEXT_MIN,
            min_size=TEXT_MIN,
            max_lines=2,
        )
        if len(fitted.lines) == 2 and not fitted.truncated:
            return height
    raise AssertionError("no height fits two lines")  # pragma: no cover


def _fit(text: str, box: Box, **kwargs: Any) -> Fitted:
    return fit_text(text, box[2] - box[0], box[3] - box[1], **kwargs)


def shows_hint(face: CardFace, width: int) -> bool:
    """Whether a card of ``width`` tries its hint; small cards keep only the group name.

    The hint is drawn only where it fits at :data:`TEXT_MIN` (see :func:`card_texts`).
    """
    return face.kind == PROPERTY or width >= COMPACT_BELOW


@lru_cache(maxsize=1024)
def _face_texts(face: CardFace, width: int) -> tuple[tuple[str, str, Fitted, Box], ...]:
    """The title, the hint (where it fits) and the footer, none smaller than TEXT_MIN."""
    g = card_geometry(width)
    w = width
    title = _fit_title(face.title, g.title, max(TEXT_MIN, round(w * 0.14)))
    texts = [("title", face.title, title, g.title)]
    if shows_hint(face, width):
        hint = _fit(
            face.subtitle,
            g.subtitle,
            face="condensed",
            max_size=max(TEXT_MIN, round(w * 0.11)),
            min_size=TEXT_MIN,
            max_lines=3,
        )
        # A hint that would need smaller type is left out: the title and colour say it.
        if not hint.truncated:
            texts.append(("subtitle", face.subtitle, hint, g.subtitle))
    footer_box = (g.footer[0] + 2, g.footer[1], g.footer[2] - 2, g.footer[3])
    footer_text = face.footer
    footer = _fit(
        footer_text,
        footer_box,
        face="bold",
        max_size=max(TEXT_MIN, round(w * 0.115)),
        min_size=TEXT_MIN,
        max_lines=1,
    )
    # Narrow cards: the same words condensed, else the short form ("100–400 €", "= Gruppe").
    for text, typeface in (
        (face.footer, "condensed"),
        (face.footer_short, "bold"),
        (face.footer_short, "condensed"),
    ):
        if not footer.truncated or not text:
            continue
        footer_text = text
        footer = _fit(
            text, footer_box, face=typeface, max_size=TEXT_MIN, min_size=TEXT_MIN, max_lines=1
        )
    texts.append(("footer", footer_text, footer, footer_box))
    return tuple(texts)


# Endings of the card game's own compound words, where a name may break ("Ereignis-karte");
# the board's endings (render/data/hyphenation.json) know streets and stations.
CARD_WORD_ENDINGS = ("karte", "figur")


def _fit_title(text: str, box: Box, max_size: int) -> Fitted:
    """A card's name: one line if it fits, else two, broken at a word's joint if it has
    one of :data:`CARD_WORD_ENDINGS`."""
    kwargs: dict[str, Any] = {"face": "condensed", "max_size": max_size, "min_size": TEXT_MIN}
    # One line, unless that needs much smaller type than the other names of the card.
    gentle = max(TEXT_MIN, round(max_size * 0.85))
    single = _fit(text, box, face="condensed", max_size=max_size, min_size=gentle, max_lines=1)
    if not single.truncated:
        return single
    words = []
    for word in text.split(" "):
        ending = next((e for e in CARD_WORD_ENDINGS if word.lower().endswith(e)), None)
        if ending and len(word) >= len(ending) + 3:
            word = word[: -len(ending)] + "-" + word[-len(ending) :]
        words.append(word)
    return _fit(" ".join(words), box, max_lines=2, **kwargs)


def _has_hint(face: CardFace, width: int) -> bool:
    return any(part == "subtitle" for part, *_ in _face_texts(face, width))


def _note_face(face: CardFace, width: int) -> None:
    """Report a drawn card's texts to the font measure (the cards themselves are cached)."""
    if _FONT_LOG.get() is None:
        return
    for part, _words, fitted, _box in _face_texts(face, width):
        _note(f"card_{part}", fitted.size)
    if face.icon == "house":
        _note("card_picture", _house_number_size(face, card_geometry(width)))


def card_texts(
    info: Mapping[str, Any], lang: str = "de", *, deck: Deck | None = None, width: int = CARD_WIDTH
) -> list[tuple[str, str, Fitted, Box]]:
    """Every text of a card as drawn: ``(part, text, fitted, box)``; for tests of fit."""
    return list(_face_texts(card_face(info, lang, deck), width))


def _supersampled(width: int, height: int, paint: Any) -> Image.Image:
    big = Image.new("RGBA", (width * SS, height * SS), (0, 0, 0, 0))
    paint(ImageDraw.Draw(big), width * SS, height * SS)
    return big.resize((width, height), Image.Resampling.LANCZOS)


@lru_cache(maxsize=64)
def _blank(width: int, height: int, radius: int, line: int, fill: RGB, edge: RGB) -> Image.Image:
    """A card's rounded outline with smooth corners."""

    def paint(draw: ImageDraw.ImageDraw, w: int, h: int) -> None:
        draw.rounded_rectangle(
            (0, 0, w - 1, h - 1),
            radius * SS,
            fill=(*fill, 255),
            outline=(*edge, 255),
            width=line * SS,
        )

    return _supersampled(width, height, paint)


@lru_cache(maxsize=32)
def _pawn(colour: RGB, edge: RGB, size: int) -> Image.Image:
    """A token (Spielfigur): a pawn with head, collar, body and base."""

    def paint(draw: ImageDraw.ImageDraw, w: int, h: int) -> None:
        fill, ink = (*colour, 255), (*edge, 255)
        lw = max(SS, w // 40)
        cx = w / 2
        draw.polygon(
            [
                (cx - w * 0.12, h * 0.36),
                (cx + w * 0.12, h * 0.36),
                (cx + w * 0.27, h * 0.82),
                (cx - w * 0.27, h * 0.82),
            ],
            fill=fill,
            outline=ink,
            width=lw,
        )
        draw.rounded_rectangle(
            (cx - w * 0.36, h * 0.78, cx + w * 0.36, h * 0.95),
            w * 0.05,
            fill=fill,
            outline=ink,
            width=lw,
        )
        draw.ellipse(
            (cx - w * 0.2, h * 0.32, cx + w * 0.2, h * 0.42), fill=fill, outline=ink, width=lw
        )
        r = w * 0.16
        draw.ellipse((cx - r, h * 0.05, cx + r, h * 0.05 + 2 * r), fill=fill, outline=ink, width=lw)

    return _supersampled(size, size, paint)


@lru_cache(maxsize=32)
def _hat(colour: RGB, band: RGB, edge: RGB, size: int) -> Image.Image:
    """Mr. Monopoly's top hat."""

    def paint(draw: ImageDraw.ImageDraw, w: int, h: int) -> None:
        fill, ink = (*colour, 255), (*edge, 255)
        lw = max(SS, w // 40)
        draw.ellipse((w * 0.04, h * 0.70, w * 0.96, h * 0.92), fill=fill, outline=ink, width=lw)
        draw.rectangle((w * 0.24, h * 0.18, w * 0.76, h * 0.80), fill=fill, outline=ink, width=lw)
        draw.ellipse((w * 0.24, h * 0.12, w * 0.76, h * 0.24), fill=fill, outline=ink, width=lw)
        draw.rectangle((w * 0.24 + lw, h * 0.58, w * 0.76 - lw, h * 0.70), fill=(*band, 255))

    return _supersampled(size, size, paint)


def _paste(image: Image.Image, sprite: Image.Image, centre: tuple[float, float]) -> None:
    x = round(centre[0] - sprite.width / 2)
    y = round(centre[1] - sprite.height / 2)
    image.paste(sprite, (x, y), sprite)


def _picture_box(face: CardFace, g: CardGeometry) -> Box:
    """The picture's box: it takes the hint's room where the hint is left out."""
    x0, y0, x1, y1 = g.picture
    if not _has_hint(face, g.width):
        y1 = g.subtitle[3]
    return x0, y0, x1, y1


def _house_number_size(face: CardFace, g: CardGeometry) -> int:
    """The size of the number on a house card's house (houses have no pips)."""
    x0, y0, x1, y1 = _picture_box(face, g)
    return max(TEXT_MIN, round(min(x1 - x0, y1 - y0) * 0.36))


def _draw_picture(
    image: Image.Image, draw: ImageDraw.ImageDraw, face: CardFace, g: CardGeometry, st: CardStyle
) -> None:
    x0, y0, x1, y1 = _picture_box(face, g)
    pal = st.pal
    pips_h = 0
    if face.pips is not None:
        position, count = face.pips
        pips_h = max(6, round((y1 - y0) * (0.5 if face.icon is None else 0.22)))
        side = min(pips_h, round((x1 - x0) / (count * 1.5)))
        gap = round(side * 0.45)
        total = count * side + (count - 1) * gap
        left = (x0 + x1 - total) // 2
        top = y1 - side if face.icon else (y0 + y1 - side) // 2
        colour = st.band(face.kind, face.group_kind, face.group)
        for k in range(count):
            box = (left + k * (side + gap), top, left + k * (side + gap) + side - 1, top + side - 1)
            if k == position:
                draw.rectangle(box, fill=colour, outline=st["line"], width=g.line)
            else:
                draw.rectangle(box, fill=st["square_alt"], outline=colour, width=max(1, g.line))
        pips_h = side + gap
    if face.icon is None:
        return
    size = min(x1 - x0, y1 - y0 - pips_h)
    centre = ((x0 + x1) / 2, y0 + (y1 - y0 - pips_h) / 2)
    kind = face.icon
    if kind in ("railroad", "power", "water", "go", "chance"):
        colour = pal[
            {
                "railroad": "icon_rail",
                "power": "icon_power",
                "water": "icon_water",
                "go": "go_arrow",
                "chance": "icon_chance",
            }[kind]
        ]
        sprite = sprites.icon(kind, size, size, colour, pal["line"])
    elif kind == "house":
        sprite = sprites.house(pal["house"], pal["building_outline"], size).copy()
        f = font("bold", _house_number_size(face, g))
        ImageDraw.Draw(sprite).text(
            (size / 2, size * 0.68),
            str(face.number),
            font=f,
            fill=(*sprites.contrast_text(pal["house"]), 255),
            anchor="mm",
        )
    elif kind == "hotel":
        sprite = sprites.hotel(pal["hotel"], pal["building_outline"], round(size / 1.6))
    elif kind == "token":
        sprite = _pawn(st["token"], pal["line"], size)
    else:  # hat
        sprite = _hat(st["text"], pal["accent"], pal["line"], size)
    _paste(image, sprite, centre)


@lru_cache(maxsize=512)
def _draw_face(face: CardFace, width: int, theme: str) -> Image.Image:
    """The card of ``face`` as an RGBA image; cached: do not draw on it."""
    g = card_geometry(width)
    st = card_style(theme)
    image = _blank(g.width, g.height, g.radius, g.line, st["square"], st["line"]).copy()
    draw = ImageDraw.Draw(image)
    band = st.band(face.kind, face.group_kind, face.group)
    hx0, hy0, hx1, hy1 = g.header
    draw.rectangle((hx0, hy0, hx1 - 1, hy1 - 1), fill=band, outline=st["line"], width=g.line)
    fx0, fy0, fx1, fy1 = g.footer
    draw.rectangle((fx0, fy0, fx1 - 1, fy1 - 1), fill=st["square_alt"])
    draw.line((fx0, fy0, fx1 - 1, fy0), fill=st["line"], width=max(1, g.line // 2))
    _draw_picture(image, draw, face, g, st)
    inks = {
        "title": sprites.contrast_text(band),
        "subtitle": st["text_muted"],
        "footer": st["text"],
    }
    for part, _text, fitted, box in _face_texts(face, width):
        draw_fitted(draw, fitted, box, inks[part])
    return image


def clear_card_cache() -> None:
    """Forget the drawn cards and backs (the benchmark's cold start; fonts stay loaded)."""
    _draw_face.cache_clear()
    _tile_of.cache_clear()
    card_back.cache_clear()


@lru_cache(maxsize=16)
def card_back(width: int, theme: str = "light") -> Image.Image:
    """The back of a card, as an RGBA image; cached: do not draw on it.

    (The table names the stock's size in its header rather than drawing it: a back small
    enough for the header would carry text under TEXT_MIN.)
    """
    g = card_geometry(width)
    st = card_style(theme)
    image = _blank(g.width, g.height, g.radius, g.line, st["back"], st["line"]).copy()
    draw = ImageDraw.Draw(image)
    m = g.header[0] * 2
    draw.rounded_rectangle(
        (m, m, g.width - m - 1, g.height - m - 1),
        g.radius,
        outline=st["back_line"],
        width=max(2, g.line * 2),
    )
    cy = g.height // 2
    bh = round(g.width * 0.22)
    draw.rectangle(
        (g.header[0], cy - bh // 2, g.width - g.header[0] - 1, cy + bh // 2), fill=st["back_banner"]
    )
    box = (g.header[0] + 4, cy - bh // 2, g.width - g.header[0] - 4, cy + bh // 2)
    fitted = _fit(
        card_labels("de")["back"],
        box,
        face="bold",
        max_size=round(bh * 0.62),
        min_size=6,
        max_lines=1,
    )
    draw_fitted(draw, fitted, box, st["back_text"])
    return image


def _card(deck: Deck, card_id: str, lang: str, width: int, theme: str) -> Image.Image:
    """The drawn card ``card_id`` (cached: do not draw on it); its texts are measured."""
    face = card_face(card_info(deck, card_id), lang, deck)
    _note_face(face, width)
    return _draw_face(face, width, theme)


@cache
def tile_face_width(width: int) -> int:
    """The card width whose header band is ``width`` wide (a pile card on the table)."""
    w = width
    while w - 2 * card_geometry(w).header[0] < width:
        w += 1
    return w


@lru_cache(maxsize=512)
def _tile_of(face: CardFace, width: int, theme: str) -> Image.Image:
    """A card as it shows in a pile: its header band, with the name, rounded off."""
    w = tile_face_width(width)
    g = card_geometry(w)
    st = card_style(theme)
    band = _draw_face(face, w, theme).crop(g.header)
    radius = _tile_radius(width)

    def shape(draw: ImageDraw.ImageDraw, sw: int, sh: int) -> None:
        draw.rounded_rectangle((0, 0, sw - 1, sh - 1), radius * SS, fill=(255, 255, 255, 255))

    mask = _supersampled(band.width, band.height, shape).getchannel("A")
    tile = Image.new("RGBA", band.size, (0, 0, 0, 0))
    tile.paste(band, (0, 0), mask)
    ImageDraw.Draw(tile).rounded_rectangle(
        (0, 0, band.width - 1, band.height - 1), radius, outline=st["line"], width=g.line
    )
    return tile


def _tile_radius(width: int) -> int:
    return max(4, card_geometry(tile_face_width(width)).radius // 2)


def tile_height(width: int = TABLE_CARD_WIDTH) -> int:
    """The height of a pile card (its band) on the table."""
    g = card_geometry(tile_face_width(width))
    return g.header[3] - g.header[1]


def _tile(deck: Deck, card_id: str, lang: str, width: int, theme: str) -> Image.Image:
    """The pile card ``card_id`` (cached: do not draw on it); its name is measured."""
    face = card_face(card_info(deck, card_id), lang, deck)
    _note("card_title", _face_texts(face, tile_face_width(width))[0][2].size)
    return _tile_of(face, width, theme)


def render_card(
    info: Mapping[str, Any],
    lang: str = "de",
    *,
    deck: Deck | None = None,
    width: int = CARD_WIDTH,
    theme: str = "light",
) -> Image.Image:
    """One card as an RGBA Pillow image (a copy, free to draw on).

    ``info`` is :func:`bot.cardgame.view.card_info` of the card. Property cards show
    the group colour, the street name and the group's value; house cards their order
    ("1. Haus" … "4. Haus"); the hotel, token, LOS, Mr. Monopoly and Ereignis cards
    their picture and what they are worth. Height is ``width`` x 1.45.
    """
    return _draw_face(card_face(info, lang, deck), width, theme).copy()


# -- drawing helpers ----------------------------------------------------------------------


def _text(
    draw: ImageDraw.ImageDraw,
    xy: tuple[float, float],
    text: str,
    face: str,
    size: int,
    fill: RGB,
    anchor: str,
    limit: int | None = None,
    *,
    role: str,
) -> int:
    """Draw one line (cut with an ellipsis to ``limit``); return its width.

    ``role`` names the kind of text for the font measure (:func:`font_report`).
    """
    f = font(face, size)
    if limit is not None:
        text = ellipsize(text, f, max(1, limit))
    _note(role, size)
    draw.text(xy, text, font=f, fill=fill, anchor=anchor)
    return round(f.getlength(text))


def _fitted(
    draw: ImageDraw.ImageDraw, fitted: Fitted, box: Box, fill: RGB, *, role: str, **kwargs: Any
) -> None:
    """:func:`draw_fitted`, measured as ``role``."""
    _note(role, fitted.size)
    draw_fitted(draw, fitted, box, fill, **kwargs)


def _token(
    image: Image.Image,
    seat: int,
    st: CardStyle,
    centre: tuple[float, float],
    d: int,
    halo: bool = False,
) -> int:
    """A player's token in their colour (no initials: the name stands beside it)."""
    sprite = sprites.token(st.pal.player(seat), "", d, st["highlight"] if halo else None)
    _paste(image, sprite, centre)
    return sprite.width


# -- the hand -----------------------------------------------------------------------------


@dataclass(frozen=True, slots=True)
class Cluster:
    """Cards of one colour group (or one bonus kind) shown together, with a caption."""

    key: str
    caption: str
    colour: RGB
    cards: tuple[str, ...]


def hand_clusters(
    state: CardState, seat: int, *, lang: str = "de", theme: str = "light"
) -> list[Cluster]:
    """The hand of ``seat`` cut into clusters: groups in deck order, then bonus kinds.

    A group's caption says how many of its cards are held ("Gelb 2/3", a tick when it is
    complete); the bonus kinds follow in the order houses, hotels, tokens, LOS,
    Mr. Monopoly, Ereignis.
    """
    return _clusters(hand_view(state, seat), state.deck, lang, theme)


def _group_caption(deck: Deck, entry: Mapping[str, Any], lang: str) -> str:
    group = deck.group(entry["group"])
    name = group.name_en if lang == "en" else group.name
    caption = f"{name} {len(entry['held'])}/{len(group.cards)}"
    return caption + (" ✓" if entry["complete"] else "")


def _clusters(view: dict[str, Any], deck: Deck, lang: str, theme: str) -> list[Cluster]:
    st = card_style(theme)
    lab = card_labels(lang)
    clusters = []
    for entry in view["groups"]:
        group = deck.group(entry["group"])
        clusters.append(
            Cluster(
                group.id,
                _group_caption(deck, entry, lang),
                st.band(PROPERTY, group.kind, group.id),
                tuple(entry["held"]),
            )
        )
    for kind in BONUS_ORDER:
        cards = tuple(c for c in view["hand"] if deck.kind(c) == kind)
        if cards:
            clusters.append(
                Cluster(kind, lab["kind_plural"][kind], st.band(kind, None, None), cards)
            )
    return clusters


def fit_caption(caption: str, width: int, height: int) -> Fitted:
    """A cluster's caption under its cards, fitted like every text of the images."""
    return fit_text(
        caption, width, height, face="condensed", max_size=20, min_size=TEXT_MIN, max_lines=3
    )


CAPTION_MAX_H = 62  # three lines of a caption ("Versorgungs-", "betriebe", "1/2 ✓")


def _flow(
    clusters: Sequence[Cluster], card_w: int, gap: int, cluster_gap: int, available: int
) -> list[list[Cluster]]:
    """Clusters in rows no wider than ``available``; a cluster too wide for a row is cut."""
    per_row = max(1, (available + gap) // (card_w + gap))
    pieces: list[Cluster] = []
    for cl in clusters:
        for k in range(0, len(cl.cards), per_row):
            pieces.append(Cluster(cl.key, cl.caption, cl.colour, cl.cards[k : k + per_row]))
    rows: list[list[Cluster]] = [[]]
    used = 0
    for piece in pieces:
        w = len(piece.cards) * (card_w + gap) - gap
        extra = w if not rows[-1] else cluster_gap + w
        if rows[-1] and used + extra > available:
            rows.append([piece])
            used = w
        else:
            rows[-1].append(piece)
            used += extra
    return [row for row in rows if row]


def _cluster_row_width(row: Sequence[Cluster], card_w: int, gap: int, cluster_gap: int) -> int:
    return sum(len(c.cards) * (card_w + gap) - gap for c in row) + cluster_gap * (len(row) - 1)


def _caption_w(cl: Cluster) -> int:
    """A caption's room: under its cards and half the gap to the next cluster each side."""
    return len(cl.cards) * (HAND_CARD_WIDTH + HAND_GAP) - HAND_GAP + HAND_CLUSTER_GAP


def _caption_height(row: Sequence[Cluster]) -> int:
    """The room a row's captions need: one line unless a caption wraps."""
    return max(fit_caption(cl.caption, _caption_w(cl), CAPTION_MAX_H).height for cl in row)


def _framed(view: dict[str, Any]) -> set[str]:
    """The cards of the suggested lay-out the hand image shows (framed)."""
    if not view["suggestion"]:
        return set()
    return set(layout_cards(view["suggestion"])) & {*view["hand"], *view["bonus_cards"]}


def _hand_notes(view: dict[str, Any], deck: Deck, lang: str) -> list[str]:
    lab = card_labels(lang)
    notes = []
    if view["must_discard"]:
        notes.append(lab.count("must_discard", view["must_discard"]))
    if view["pass_chosen"]:
        notes.append(lab.text("pass_chosen", card=_card_name(deck, view["pass_chosen"], lang)))
    return notes


def draw_hand(
    state: CardState, seat: int, *, lang: str = "de", theme: str = "light"
) -> Image.Image:
    """The hand image of ``seat`` as a Pillow image (see :func:`render_hand`)."""
    view = hand_view(state, seat)
    deck = state.deck
    st = card_style(theme)
    lab = card_labels(lang)
    g = card_geometry(HAND_CARD_WIDTH)
    cw, ch = g.width, g.height
    width = DRAWN_WIDTH
    margin, gap, cluster_gap = MARGIN, HAND_GAP, HAND_CLUSTER_GAP
    available = width - 2 * margin
    rows = _flow(_clusters(view, deck, lang, theme), cw, gap, cluster_gap, available)
    bonus = list(view["bonus_cards"])
    bonus_rows = (
        _flow(
            [Cluster("bonus", lab.count("hand_size", len(bonus)), st["mr_monopoly"], tuple(bonus))],
            cw,
            gap,
            cluster_gap,
            available,
        )
        if bonus
        else []
    )
    suggested = _framed(view)
    notes = _hand_notes(view, deck, lang)
    head_h = 40 + (30 if notes else 0)
    bonus_head = 36

    def row_height(row: list[Cluster]) -> int:
        return ch + 12 + _caption_height(row) + 14

    height = margin + head_h + sum(row_height(r) for r in rows) + margin
    if bonus_rows:
        height += bonus_head + sum(row_height(r) for r in bonus_rows)
    if not rows and not bonus_rows:
        height += 40
    image = Image.new("RGB", (width, height), st["felt"])
    draw = ImageDraw.Draw(image)

    # Header: whose hand and how many cards; the suggested lay-out's value on the right.
    y = margin + 16
    title = f"{lab['hand_title']} · {lab.count('hand_size', len(view['hand']))}"
    if view["suggestion_value"] is not None:
        right = lab.text("suggestion", value=money(view["suggestion_value"], deck, lang))
        right_colour = st["good"]
    else:
        right = lab["no_suggestion"]
        right_colour = st["text_muted"]
    right_w = _text(
        draw,
        (width - margin, y),
        right,
        "bold",
        20,
        right_colour,
        "rm",
        limit=width // 2 - margin,
        role="heading",
    )
    if suggested:
        # A swatch in the colour that frames the suggested cards.
        sx = width - margin - right_w - 30
        draw.rounded_rectangle((sx, y - 8, sx + 20, y + 8), 4, outline=st["suggested"], width=4)
        right_w += 30
    _text(
        draw,
        (margin, y),
        title,
        "bold",
        24,
        st["title"],
        "lm",
        limit=width - 2 * margin - right_w - 16,
        role="heading",
    )
    y = margin + 40
    if notes:
        _text(
            draw,
            (margin, y + 12),
            "  ·  ".join(notes),
            "bold",
            18,
            st["accent"],
            "lm",
            limit=width - 2 * margin,
            role="status",
        )
    y = margin + head_h
    if not rows and not bonus_rows:
        _text(
            draw,
            (margin, y + 16),
            lab["empty_hand"],
            "regular",
            18,
            st["text_muted"],
            "lm",
            role="status",
        )

    def draw_rows(rows_: list[list[Cluster]], top: int) -> int:
        for row in rows_:
            x = (width - _cluster_row_width(row, cw, gap, cluster_gap)) // 2
            caption_h = _caption_height(row)
            for cl in row:
                x0 = x
                for card in cl.cards:
                    if card in suggested:
                        draw.rounded_rectangle(
                            (x - 4, top - 4, x + cw + 3, top + ch + 3),
                            g.radius + 3,
                            fill=st["suggested"],
                        )
                    sprite = _card(deck, card, lang, cw, theme)
                    image.paste(sprite, (x, top), sprite)
                    x += cw + gap
                x1 = x - gap
                bar_y = top + ch + 8
                draw.rectangle((x0, bar_y, x1 - 1, bar_y + 4), fill=cl.colour)
                half = HAND_CLUSTER_GAP // 2
                box = (x0 - half, bar_y + 6, x1 + half, bar_y + 6 + caption_h)
                fitted = fit_caption(cl.caption, _caption_w(cl), CAPTION_MAX_H)
                _fitted(draw, fitted, box, st["text"], role="caption", valign="top")
                x = x1 + cluster_gap
            top += row_height(row)
        return top

    y = draw_rows(rows, y)
    if bonus_rows:
        _text(
            draw,
            (margin, y + 16),
            lab["bonus_cards"],
            "bold",
            20,
            st["title"],
            "lm",
            role="heading",
        )
        draw_rows(bonus_rows, y + bonus_head)
    return image


def _card_name(deck: Deck, card_id: str, lang: str) -> str:
    face = card_face(card_info(deck, card_id), lang, deck)
    return face.title


def card_title(deck: Deck, card_id: str, lang: str = "de") -> str:
    """A card's name as its image shows it ("Badstraße", "2. Haus" / "2nd house", "LOS")."""
    return _card_name(deck, card_id, lang)


def render_hand(state: CardState, seat: int, *, lang: str = "de", theme: str = "light") -> bytes:
    """The hand of ``seat`` as PNG bytes, 800 px wide (private: the player's message).

    Cards are tiled in clusters, one per colour group in deck order ("Gelb 2/3"), then
    houses, hotels, tokens, LOS, Mr. Monopoly and Ereignis cards; up to five cards a
    row. The header gives the number of cards and the value of the suggested lay-out
    (:func:`bot.cardgame.view.hand_view`), whose cards are framed; below it what is
    still to do (cards to discard, the card chosen to pass). The ender's bonus cards
    (the Prämie) follow in rows of their own.
    """
    return encode_png(draw_hand(state, seat, lang=lang, theme=theme))


def hand_fonts(
    state: CardState, seat: int, *, lang: str = "de", theme: str = "light"
) -> FontReport:
    """The smallest font size of each kind of text in the hand image of ``seat``."""
    return font_report(lambda: draw_hand(state, seat, lang=lang, theme=theme))


# -- a lay-out -----------------------------------------------------------------------------


@dataclass(frozen=True, slots=True)
class LayoutRow:
    """One row of a lay-out image: a group (or the bonus cards) and its worth."""

    group: str | None  # None: the bonus cards
    label: str
    sections: tuple[tuple[str, ...], ...]  # properties, houses + hotel, tokens (non-empty)
    value: int  # what the row adds to the lay-out's value
    detail: str  # how: "1.200 € + 2 × 1.200 €"


@dataclass(frozen=True, slots=True)
class LayoutSummary:
    """What a lay-out image shows, in numbers and texts (from ``score_layout``)."""

    rows: tuple[LayoutRow, ...]
    value: int  # the lay-out's value (score_layout's total)
    mr_monopoly: int  # Mr. Monopoly cards in it
    mr_monopoly_bonus: int
    voided: bool  # a wild card in hand: the hand is worth 0
    total: int  # the points: value + bonus, or 0 when voided
    lines: tuple[tuple[str, str], ...]  # the totals block: (label, amount)


def layout_summary(
    layout: Layout,
    deck: Deck | None = None,
    *,
    lang: str = "de",
    mr_monopoly_bonus: int = 0,
    token_includes_hotel: bool = True,
    voided: bool = False,
) -> LayoutSummary:
    """The rows and totals :func:`render_layout` draws for ``layout``.

    The numbers are :func:`bot.cardgame.layout.score_layout`'s; the Mr. Monopoly bonus
    (it depends on the other players) and ``voided`` come from the round's result.
    """
    deck = deck or load_deck()
    lab = card_labels(lang)
    worth = score_layout(deck, layout, token_includes_hotel)
    rows = []
    grouped = 0
    for entry, scored in zip(layout["groups"], worth["groups"], strict=True):
        group = deck.group(entry["group"])
        buildings = [*entry.get("houses", [])]
        if entry.get("hotel") is not None:
            buildings.append(entry["hotel"])
        sections = tuple(
            tuple(s) for s in (entry["cards"], buildings, entry.get("tokens", [])) if s
        )
        value = scored["value"] + scored["tokens"] * scored["token_value"]
        grouped += value
        if scored["tokens"]:
            detail = lab.text(
                "tokens_detail",
                value=money(scored["value"], deck, lang),
                n=scored["tokens"],
                each=money(scored["token_value"], deck, lang),
            )
        else:
            detail = ""
        name = group.name_en if lang == "en" else group.name
        rows.append(LayoutRow(group.id, name, sections, value, detail))
    if layout["bonus"]:
        value = worth["total"] - grouped
        parts = []
        if worth["go"]:
            parts.append(f"{worth['go']} × {money(deck.go_value, deck, lang)}")
        if worth["mr_monopoly"]:
            parts.append(f"{worth['mr_monopoly']} × {lab['mr_monopoly']}")
        detail = " · ".join(parts)
        rows.append(LayoutRow(None, lab["bonus_row"], (tuple(layout["bonus"]),), value, detail))
    total = 0 if voided else worth["total"] + mr_monopoly_bonus
    lines: list[tuple[str, str]] = []
    if voided:
        lines.append((lab["voided"], ""))
    elif mr_monopoly_bonus:
        lines.append((lab["layout_value"], money(worth["total"], deck, lang)))
        lines.append((lab["mr_monopoly_bonus"], "+" + money(mr_monopoly_bonus, deck, lang)))
    lines.append((lab["total"], money(total, deck, lang)))
    return LayoutSummary(
        tuple(rows),
        worth["total"],
        worth["mr_monopoly"],
        0 if voided else mr_monopoly_bonus,
        voided,
        total,
        tuple(lines),
    )


SECTION_GAP = 16  # between a group's streets, its buildings and its tokens
LAYOUT_HEAD_H = 30


def layout_positions(row: LayoutRow, available: int) -> list[tuple[str, int, int]]:
    """Where a lay-out row's cards go: ``(card, x, line)``, ``x`` from the row's left edge.

    The sections (streets, houses and hotel, tokens) follow one another with a wider gap
    between them and wrap into further lines within ``available`` pixels.
    """
    cw = LAYOUT_CARD_WIDTH
    x, line = 0, 0
    placed = []
    for section in row.sections:
        whole = len(section) * (cw + TILE_GAP) - TILE_GAP
        if x and x + SECTION_GAP + whole > available and whole <= available:
            x, line = 0, line + 1  # a section that fits a line of its own is not split
        for k, card in enumerate(section):
            before = 0 if x == 0 else (SECTION_GAP if k == 0 else TILE_GAP)
            if x and x + before + cw > available:
                x, line, before = 0, line + 1, 0
            x += before
            placed.append((card, x, line))
            x += cw
    return placed


def draw_layout(
    layout: Layout,
    deck: Deck | None = None,
    *,
    lang: str = "de",
    title: str | None = None,
    theme: str = "light",
    mr_monopoly_bonus: int = 0,
    token_includes_hotel: bool = True,
    voided: bool = False,
) -> Image.Image:
    """The lay-out image as a Pillow image (see :func:`render_layout`)."""
    deck = deck or load_deck()
    summary = layout_summary(
        layout,
        deck,
        lang=lang,
        mr_monopoly_bonus=mr_monopoly_bonus,
        token_includes_hotel=token_includes_hotel,
        voided=voided,
    )
    st = card_style(theme)
    lab = card_labels(lang)
    ch = card_geometry(LAYOUT_CARD_WIDTH).height
    width = DRAWN_WIDTH
    x0, x1 = MARGIN, width - MARGIN
    px0, px1 = x0 + ROW_PAD, x1 - ROW_PAD
    placements = [layout_positions(row, px1 - px0) for row in summary.rows]

    def row_height(placed: list[tuple[str, int, int]]) -> int:
        lines = 1 + max((line for *_, line in placed), default=0)
        return 2 * ROW_PAD + LAYOUT_HEAD_H + 4 + lines * ch + (lines - 1) * TILE_GAP

    head_h = 40
    body_h = sum(row_height(p) for p in placements) if summary.rows else 48
    pitch = 32
    lines_h = 12 + pitch * len(summary.lines) + 6
    height = MARGIN + head_h + body_h + lines_h + MARGIN
    image = Image.new("RGB", (width, height), st["felt"])
    draw = ImageDraw.Draw(image)
    heading = printable(title) if title else lab["layout_title"]
    _text(
        draw,
        (x0, MARGIN + 17),
        heading,
        "bold",
        24,
        st["title"],
        "lm",
        limit=x1 - x0,
        role="heading",
    )
    top = MARGIN + head_h
    draw.rounded_rectangle(
        (x0, top - 4, x1, height - MARGIN),
        12,
        fill=st["centre_card"],
        outline=st["centre_line"],
        width=2,
    )
    if not summary.rows:
        _text(
            draw,
            (px0, top + 22),
            lab["empty_layout"],
            "regular",
            18,
            st["text_muted"],
            "lm",
            limit=px1 - px0,
            role="detail",
        )
        top += body_h
    for k, (row, placed) in enumerate(zip(summary.rows, placements, strict=True)):
        if k:
            draw.line((px0, top, px1, top), fill=st["centre_line"], width=2)
        cy = top + ROW_PAD + LAYOUT_HEAD_H // 2
        # The row's name, how its worth is made up, and the worth.
        colour = (
            st.band(PROPERTY, deck.group(row.group).kind, row.group)
            if row.group
            else st["mr_monopoly"]
        )
        draw.rounded_rectangle((px0, cy - 12, px0 + 8, cy + 12), 3, fill=colour)
        value = money(row.value, deck, lang)
        value_w = _text(draw, (px1, cy), value, "bold", 22, st["text"], "rm", role="score")
        room = px1 - value_w - 16 - (px0 + 16)
        label_w = _text(
            draw, (px0 + 16, cy), row.label, "bold", 20, st["text"], "lm", limit=room, role="name"
        )
        if row.detail and label_w + 60 < room:
            _text(
                draw,
                (px0 + 16 + label_w + 12, cy),
                row.detail,
                "regular",
                18,
                st["text_muted"],
                "lm",
                limit=room - label_w - 12,
                role="detail",
            )
        cards_top = top + ROW_PAD + LAYOUT_HEAD_H + 4
        for card, x, line in placed:
            sprite = _card(deck, card, lang, LAYOUT_CARD_WIDTH, theme)
            image.paste(sprite, (px0 + x, cards_top + line * (ch + TILE_GAP)), sprite)
        top += row_height(placed)
    draw.line((px0, top + 4, px1, top + 4), fill=st["line"], width=2)
    y = top + 12 + pitch // 2
    for k, (label, amount) in enumerate(summary.lines):
        last = k == len(summary.lines) - 1
        size = 24 if last else 20
        face = "bold" if last else "regular"
        colour = st["accent"] if summary.voided and not last else st["text"]
        amount_w = _text(draw, (px1, y), amount, "bold", size, st["text"], "rm", role="score")
        _text(
            draw,
            (px0, y),
            label,
            face,
            size,
            colour,
            "lm",
            limit=px1 - px0 - amount_w - 20,
            role="detail",
        )
        y += pitch
    return image


def render_layout(
    layout: Layout,
    deck: Deck | None = None,
    *,
    lang: str = "de",
    title: str | None = None,
    theme: str = "light",
    mr_monopoly_bonus: int = 0,
    token_includes_hotel: bool = True,
    voided: bool = False,
) -> bytes:
    """A lay-out as PNG bytes: one row per group, the bonus cards, the worth and total.

    Each row shows the group's property cards, its houses in order and hotel, then the
    tokens assigned to it, with the group's name, how its worth is made up
    ("1.200 € + 2 × 1.200 €") and the worth; the bonus row the LOS, Mr. Monopoly and
    unused Ereignis cards. The block at the bottom gives the lay-out's value, the
    Mr. Monopoly bonus if any and the total (``voided``: a wild card in hand, worth 0).
    ``layout_summary`` returns the same numbers and texts.
    """
    image = draw_layout(
        layout,
        deck,
        lang=lang,
        title=title,
        theme=theme,
        mr_monopoly_bonus=mr_monopoly_bonus,
        token_includes_hotel=token_includes_hotel,
        voided=voided,
    )
    return encode_png(image)


def render_round_result(
    state: CardState, seat: int, *, lang: str = "de", theme: str = "light"
) -> bytes:
    """The lay-out ``seat`` scored with in the last round, as PNG bytes.

    Reads ``state.last_round`` (the round's public result): the lay-out, the
    Mr. Monopoly bonus and whether a wild card voided the hand; the total is the
    round's points. The title names the player and the round. Raises ``ValueError``
    when no round has been scored yet.
    """
    result = state.last_round
    if not result:
        raise ValueError("no round has been scored yet")
    row = result["players"][seat]
    lab = card_labels(lang)
    title = lab.text("result_title", name=printable(state.players[seat].name), n=result["round"])
    image = draw_layout(
        row["layout"],
        state.deck,
        lang=lang,
        title=title,
        theme=theme,
        mr_monopoly_bonus=row["mr_monopoly_bonus"],
        token_includes_hotel=state.rules.token_includes_hotel,
        voided=row["voided"],
    )
    return encode_png(image)


def layout_fonts(layout: Layout, deck: Deck | None = None, **options: Any) -> FontReport:
    """The smallest font size of each kind of text in a lay-out image (see
    :func:`render_layout` for ``options``)."""
    return font_report(lambda: draw_layout(layout, deck, **options))


# -- the table -----------------------------------------------------------------------------

TABLE_HEAD_H = 102  # the table's header: game, round and target; whose turn; the stock
HEAD_H = 30  # a table row's head line: token, name, score, hand, status, pile size
ROW_GAP = 6
TOP_TILE_RING = 3  # the top card of a pile is ringed: swaps take cards from the top


@dataclass(frozen=True, slots=True)
class PileRow:
    """One row of the table image: a player's pile or a pile of nobody (2-3 players)."""

    kind: str  # "seat" or "extra"
    index: int  # the seat, or the extra pile's index
    cards: tuple[str, ...]  # bottom to top

    @property
    def count(self) -> int:
        """Cards in the pile."""
        return len(self.cards)


def table_rows(state: CardState) -> list[PileRow]:
    """The rows of the table image, from the public :func:`table_view`."""
    view = table_view(state)
    rows = [PileRow("seat", s, tuple(p)) for s, p in enumerate(view["piles"])]
    rows += [PileRow("extra", k, tuple(p)) for k, p in enumerate(view["extra_piles"])]
    return rows


def extra_pile_name(lab: CardLabels, index: int, players: int) -> str:
    """A pile of nobody as the rulebook counts it: with 2 players the 3rd and 4th
    Tauschstapel, with 3 players the 4th (the players' own piles come first)."""
    return lab.text("extra_pile", n=players + index + 1)


def pile_lines(count: int) -> int:
    """How many lines of cards a pile of ``count`` takes (an empty pile: one)."""
    return max(1, -(-count // TILES_PER_LINE))


def _row_height(count: int, over: bool = False) -> int:
    if over:  # the final standings: head lines only
        return 2 * ROW_PAD + HEAD_H
    lines = pile_lines(count)
    return 2 * ROW_PAD + HEAD_H + 4 + lines * tile_height() + (lines - 1) * TILE_GAP


def tile_positions(count: int, left: int, top: int) -> list[tuple[int, int]]:
    """Where the cards of a pile go, bottom card first: left to right, then the next line."""
    step_x, step_y = TABLE_CARD_WIDTH + TILE_GAP, tile_height() + TILE_GAP
    return [
        (left + (k % TILES_PER_LINE) * step_x, top + (k // TILES_PER_LINE) * step_y)
        for k in range(count)
    ]


def _status(view: dict[str, Any], names: list[str], lab: CardLabels) -> tuple[int | None, str, str]:
    """Whose the header's token is, what it says in bold, and the detail after it."""
    if view["phase"] == "over":
        mover = view["winners"][0] if view["winners"] else None
        return mover, lab.text("winners", names=", ".join(names[s] for s in view["winners"])), ""
    if view["phase"] == "bonus" and view["ender"] is not None:
        mover = view["ender"]
        return mover, lab.text("laid_out", name=names[mover]), lab["phase"]["bonus"]
    mover = view["current"]
    detail = lab["phase"].get(view["phase"], view["phase"])
    others = [s for s in view["waiting_for"] if s != mover]
    if others:
        detail += " · " + lab.text("waiting", names=", ".join(names[s] for s in others))
    return mover, lab.text("to_move", name=names[mover]), detail


def _seat_mark(view: dict[str, Any], seat: int, lab: CardLabels, st: CardStyle) -> tuple[str, RGB]:
    """What a player still has to do (discard, choose a card to pass), or nothing."""
    if view["owe"][seat]:
        return lab.count("owes", view["owe"][seat]), st["accent"]
    if view["phase"] == "pass" and view["passed"][seat]:
        return lab["passed"], st["good"]
    if view["phase"] == "over" and seat in view["winners"]:
        return lab["won"], st["good"]
    return "", st["text"]


def draw_table(state: CardState, *, lang: str = "de", theme: str = "light") -> Image.Image:
    """The table image as a Pillow image (see :func:`render_table`)."""
    view = table_view(state)
    deck = state.deck
    st = card_style(theme)
    lab = card_labels(lang)
    names = [printable(p.name) for p in state.players]
    rows = table_rows(state)
    width = DRAWN_WIDTH
    x0, x1 = MARGIN, width - MARGIN
    over = view["phase"] == "over"
    if over:  # the final standings: who won, each player's score; no piles any more
        rows = [r for r in rows if r.kind == "seat"]
    head_h = TABLE_HEAD_H - (28 if over else 0)
    body = sum(_row_height(r.count, over) for r in rows) + ROW_GAP * (len(rows) - 1)
    height = MARGIN + head_h + body + MARGIN
    image = Image.new("RGB", (width, height), st["felt"])
    draw = ImageDraw.Draw(image)

    # Header: the game, round and target; whose turn and what happens, the stock; how a
    # pile reads and who dealt.
    y = MARGIN + 17
    right = lab.text("round", n=view["round"]) + " · "
    right += lab.text("target", amount=money(view["target"], deck, lang))
    right_w = _text(draw, (x1, y), right, "bold", 20, st["text_muted"], "rm", role="heading")
    _text(
        draw,
        (x0, y),
        lab["game"],
        "bold",
        24,
        st["title"],
        "lm",
        limit=x1 - x0 - right_w - 16,
        role="heading",
    )
    y += 34
    mover, status, detail = _status(view, names, lab)
    x = x0
    if mover is not None:
        x += _token(image, mover, st, (x + 16, y), 28, halo=view["phase"] != "over") + 6
    limit = x1 - x
    used = _text(draw, (x, y), status, "bold", 22, st["text"], "lm", limit=limit, role="status")
    if detail and used + 60 < limit:
        _text(
            draw,
            (x + used, y),
            " · " + detail,
            "regular",
            18,
            st["text_muted"],
            "lm",
            limit=limit - used,
            role="status",
        )
    y += 31
    facts: list[str] = []
    if over:
        facts = []  # nothing left to explain: the legend line is left out
    elif state.table.has_stock:
        facts.append(f"{lab['stock']}: {lab.count('hand_size', view['stock'])}")
    if not over:
        facts.append(lab.text("dealer_is", name=names[view["dealer"]]))
    facts_w = (
        0
        if over
        else _text(
            draw,
            (x1, y),
            " · ".join(facts),
            "regular",
            18,
            st["text"],
            "rm",
            limit=(x1 - x0) * 2 // 3,
            role="legend",
        )
    )
    if not over:
        _text(
            draw,
            (x0, y),
            lab["pile_order"],
            "regular",
            18,
            st["text_muted"],
            "lm",
            limit=x1 - x0 - facts_w - 16,
            role="legend",
        )

    # A row per pile: the player (or the pile's name) above their cards in order.
    top = MARGIN + head_h
    for row in rows:
        row_h = _row_height(row.count, over)
        current = row.kind == "seat" and view["phase"] != "over" and row.index == view["current"]
        won = row.kind == "seat" and view["phase"] == "over" and row.index in view["winners"]
        marked = current or won
        draw.rounded_rectangle(
            (x0, top, x1, top + row_h),
            12,
            fill=st["row_current"] if marked else st["centre_card"],
            outline=st["highlight"] if marked else st["centre_line"],
            width=3 if marked else 2,
        )
        rx0, rx1 = x0 + ROW_PAD, x1 - ROW_PAD
        cy = top + ROW_PAD + HEAD_H // 2
        if row.kind == "seat":
            _draw_seat_head(
                image, draw, view, row.index, (rx0, cy, rx1), names, st, lab, deck, lang
            )
        else:
            name = extra_pile_name(lab, row.index, len(state.players))
            _text(
                draw,
                (rx0, cy),
                name,
                "bold",
                20,
                st["text"],
                "lm",
                limit=rx1 - rx0 - 120,
                role="name",
            )
            count = lab.count("hand_size", row.count)
            _text(draw, (rx1, cy), count, "regular", 18, st["text_muted"], "rm", role="count")
        if over:
            top += row_h + ROW_GAP
            continue
        tiles_top = top + ROW_PAD + HEAD_H + 4
        if not row.cards:
            _draw_empty(draw, (rx0, tiles_top), st, lab)
        spots = tile_positions(row.count, rx0, tiles_top)
        for card, spot in zip(row.cards, spots, strict=True):
            sprite = _tile(deck, card, lang, TABLE_CARD_WIDTH, theme)
            image.paste(sprite, spot, sprite)
        if spots:
            tx, ty = spots[-1]
            r = TOP_TILE_RING
            draw.rounded_rectangle(
                (tx - r, ty - r, tx + TABLE_CARD_WIDTH - 1 + r, ty + tile_height() - 1 + r),
                _tile_radius(TABLE_CARD_WIDTH) + r,
                outline=st["text"],
                width=r,
            )
        top += row_h + ROW_GAP
    return image


# Where the parts of a player's head line start (from the row's inner left edge).
NAME_X, SCORE_RIGHT, DELTA_X, HAND_X, MARK_X = 36, 330, 342, 432, 540


def _draw_seat_head(
    image: Image.Image,
    draw: ImageDraw.ImageDraw,
    view: dict[str, Any],
    seat: int,
    line: tuple[int, int, int],
    names: list[str],
    st: CardStyle,
    lab: CardLabels,
    deck: Deck,
    lang: str,
) -> None:
    """A player's head line: token and name, score (and the last round's points), hand
    size, what they still have to do, and how many cards their pile holds."""
    x0, cy, x1 = line
    current = seat == view["current"] and view["phase"] != "over"
    _token(image, seat, st, (x0 + 14, cy), 26, halo=current)
    score = money(view["scores"][seat], deck, lang)
    score_w = _text(draw, (x0 + SCORE_RIGHT, cy), score, "bold", 22, st["text"], "rm", role="score")
    _text(
        draw,
        (x0 + NAME_X, cy),
        names[seat],
        "bold",
        20,
        st["text"],
        "lm",
        limit=SCORE_RIGHT - score_w - 14 - NAME_X,
        role="name",
    )
    if view["round_scores"]:
        last = "+" + _number(view["round_scores"][-1][seat], lang)
        _text(
            draw,
            (x0 + DELTA_X, cy),
            last,
            "regular",
            18,
            st["good"],
            "lm",
            limit=HAND_X - DELTA_X - 8,
            role="score",
        )
    mark, colour = _seat_mark(view, seat, lab, st)
    count_w = 0
    if view["phase"] != "over":  # the final standings need no hands and piles
        hand = lab.text("hand_count", n=view["hand_sizes"][seat])
        _text(
            draw,
            (x0 + HAND_X, cy),
            hand,
            "regular",
            18,
            st["text"],
            "lm",
            limit=MARK_X - HAND_X - 8,
            role="count",
        )
        count = lab.count("hand_size", len(view["piles"][seat]))
        count_w = _text(draw, (x1, cy), count, "regular", 18, st["text_muted"], "rm", role="count")
    if mark:
        _text(
            draw,
            (x0 + MARK_X, cy),
            mark,
            "bold",
            18,
            colour,
            "lm",
            limit=x1 - count_w - 10 - x0 - MARK_X,
            role="status",
        )


def _draw_empty(
    draw: ImageDraw.ImageDraw, at: tuple[int, int], st: CardStyle, lab: CardLabels
) -> None:
    """An empty pile: the outline of a card's band with "leer"."""
    x, y = at
    draw.rounded_rectangle(
        (x, y, x + TABLE_CARD_WIDTH - 1, y + tile_height() - 1),
        _tile_radius(TABLE_CARD_WIDTH),
        outline=st["empty_pile"],
        width=2,
    )
    _text(
        draw,
        (x + TABLE_CARD_WIDTH / 2, y + tile_height() / 2),
        lab["empty"],
        "regular",
        18,
        st["text_muted"],
        "mm",
        limit=TABLE_CARD_WIDTH - 8,
        role="count",
    )


def render_table(state: CardState, *, lang: str = "de", theme: str = "light") -> bytes:
    """The public table as PNG bytes, 800 px wide (for a ~400 px phone display).

    The header says the game, the round and the target, whose turn it is and what
    happens (or who won), the stock's size (2-4 players) and who dealt. Then a row per
    face-up pile: a player's token, name, score (and the last round's points), hand size,
    what they still have to do (discard, choose a card to pass) and their pile's size,
    above the pile's cards, each shown by its header band, from the bottom card (left)
    to the top card (ringed), six to a line; then the piles of nobody (2-3 players).
    Drawn from :func:`bot.cardgame.view.table_view` only.
    """
    return encode_png(draw_table(state, lang=lang, theme=theme))


def table_fonts(state: CardState, *, lang: str = "de", theme: str = "light") -> FontReport:
    """The smallest font size of each kind of text in the table image."""
    return font_report(lambda: draw_table(state, lang=lang, theme=theme))


# -- alt text: what each image shows, as a sentence ----------------------------------------


def _clip(text: str, limit: int | None = None) -> str:
    """``text`` cut at a word to at most ``limit`` (ALT_MAX) characters, with an ellipsis."""
    limit = ALT_MAX if limit is None else limit
    if len(text) <= limit:
        return text
    cut = text[: limit - 1]
    if " " in cut[limit // 2 :]:
        cut = cut[: cut.rindex(" ")]
    return cut.rstrip(" ,;:") + "…"


def _names(deck: Deck, cards: Sequence[str], lang: str) -> str:
    return ", ".join(_card_name(deck, c, lang) for c in cards)


def _pile_text(deck: Deck, cards: Sequence[str], lang: str, keep: int | None) -> str:
    """A pile bottom to top; with ``keep`` only its top ``keep`` cards, the rest counted."""
    lab = card_labels(lang)
    if not cards:
        return lab["empty"]
    if keep is None or len(cards) <= keep:
        return _names(deck, cards, lang)
    return lab.text("alt_below", n=len(cards) - keep) + ", " + _names(deck, cards[-keep:], lang)


def describe_table(state: CardState, *, lang: str = "de") -> str:
    """The table image as a sentence (its alt text, at most 1024 characters).

    The round, target, whose turn, the stock, then each pile with its player's score,
    hand size and what they still do; the piles' cards bottom to top (long piles: the top
    cards, the rest counted). Only :func:`table_view` is read: no hand is named.
    """
    view = table_view(state)
    deck = state.deck
    lab = card_labels(lang)
    names = [printable(p.name) for p in state.players]
    mover, status, detail = _status(view, names, lab)
    head = [
        f"{lab['game']}, {lab.text('round', n=view['round'])}, "
        + lab.text("target", amount=money(view["target"], deck, lang)),
        status + (f" ({detail})" if detail else ""),
    ]
    if state.table.has_stock:
        head.append(f"{lab['stock']}: {lab.count('hand_size', view['stock'])}")
    head.append(lab.text("dealer_is", name=names[view["dealer"]]))
    head.append(lab["alt_piles"])
    st = card_style("light")

    if view["phase"] == "over":  # the final standings, as the picture shows them
        scores = [f"{names[s]}: {money(view['scores'][s], deck, lang)}" for s in range(len(names))]
        return _clip(". ".join(head[:2] + scores) + ".")

    def piles(keep: int | None) -> list[str]:
        parts = []
        for row in table_rows(state):
            cards = _pile_text(deck, row.cards, lang, keep)
            if row.kind == "extra":
                parts.append(f"{extra_pile_name(lab, row.index, len(names))}: {cards}")
                continue
            seat = row.index
            about = [
                money(view["scores"][seat], deck, lang),
                lab.text("hand_count", n=view["hand_sizes"][seat]),
            ]
            mark, _ = _seat_mark(view, seat, lab, st)
            if mark:
                about.append(mark)
            parts.append(f"{names[seat]} ({', '.join(about)}): {cards}")
        return parts

    for keep in (None, 8, 5, 3, 1, 0):
        text = ". ".join(head + piles(keep)) + "."
        if len(text) <= ALT_MAX:
            return text
    return _clip(text)


def describe_hand(state: CardState, seat: int, *, lang: str = "de") -> str:
    """The hand image of ``seat`` as a sentence (private: only for that player).

    The number of cards, each cluster with its cards, the suggested lay-out's value,
    what is still to do and the ender's Prämie; at most 1024 characters.
    """
    view = hand_view(state, seat)
    deck = state.deck
    lab = card_labels(lang)
    parts = [f"{lab['hand_title']}, {lab.count('hand_size', len(view['hand']))}"]
    for cl in _clusters(view, deck, lang, "light"):
        caption = cl.caption.replace(" ✓", ", " + lab["complete"])
        parts.append(f"{caption}: {_names(deck, cl.cards, lang)}")
    if view["suggestion_value"] is not None:
        value = money(view["suggestion_value"], deck, lang)
        framed = " (" + lab["alt_framed"] + ")" if _framed(view) else ""
        parts.append(lab.text("suggestion", value=value) + framed)
    elif view["hand"]:
        parts.append(lab["no_suggestion"])
    parts += _hand_notes(view, deck, lang)
    if view["bonus_cards"]:
        parts.append(f"{lab['bonus_cards']}: {_names(deck, view['bonus_cards'], lang)}")
    return _clip(". ".join(parts) + ".")


def describe_layout(
    layout: Layout,
    deck: Deck | None = None,
    *,
    lang: str = "de",
    title: str | None = None,
    mr_monopoly_bonus: int = 0,
    token_includes_hotel: bool = True,
    voided: bool = False,
) -> str:
    """A lay-out image as a sentence: each row's cards and worth, then the totals."""
    deck = deck or load_deck()
    lab = card_labels(lang)
    summary = layout_summary(
        layout,
        deck,
        lang=lang,
        mr_monopoly_bonus=mr_monopoly_bonus,
        token_includes_hotel=token_includes_hotel,
        voided=voided,
    )
    parts = [printable(title) if title else lab["layout_title"]]
    if not summary.rows:
        parts.append(lab["empty_layout"])
    for row in summary.rows:
        cards = _names(deck, [c for s in row.sections for c in s], lang)
        worth = money(row.value, deck, lang) + (f" ({row.detail})" if row.detail else "")
        parts.append(f"{row.label}: {cards} – {worth}")
    parts.append(", ".join(f"{label} {amount}".strip() for label, amount in summary.lines))
    return _clip(". ".join(parts) + ".")


def describe_round_result(state: CardState, seat: int, *, lang: str = "de") -> str:
    """The round-result image of ``seat`` (:func:`render_round_result`) as a sentence."""
    result = state.last_round
    if not result:
        raise ValueError("no round has been scored yet")
    row = result["players"][seat]
    lab = card_labels(lang)
    return describe_layout(
        row["layout"],
        state.deck,
        lang=lang,
        title=lab.text("result_title", name=printable(state.players[seat].name), n=result["round"]),
        mr_monopoly_bonus=row["mr_monopoly_bonus"],
        token_includes_hotel=state.rules.token_includes_hotel,
        voided=row["voided"],
    )
