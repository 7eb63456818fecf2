"""Images of MONOPOLY Das Kartenspiel: one card, a hand, a lay-out and the table.

(One long module: every image is composed of the same drawn cards and shares their
cache and measures.)

Pure functions from the card engine's state (:mod:`bot.cardgame`) to PNG bytes, in the
board's style: the same bundled fonts, palette and street-group colours, text fitted
with :func:`render.text.fit_text`. The card kinds' colours and the texts of the card
game live in ``render/data/cards.json``.

- :func:`render_card` - one card as a Pillow image (cached per card, size and theme).
- :func:`render_hand` - a player's hand, grouped by colour group, with the suggested
  lay-out marked (private, for the "My hand" message).
- :func:`render_layout` - a lay-out: one row per group with its houses, hotel and
  tokens, the bonus cards, the value per row and the total (numbers from
  :func:`bot.cardgame.layout.score_layout`; see :func:`layout_summary`).
- :func:`render_round_result` - one player's scored lay-out of the last round.
- :func:`render_table` - the public table: every face-up pile fanned from bottom to
  top, the stock face down with its count, whose turn, scores and the target. Only
  :func:`bot.cardgame.view.table_view` is read, so no hand can leak into it.

A card is portrait: a header band in the group's (or kind's) colour with the card's
name, a picture, a short hint and a footer with the value. In a fanned pile each card
shows its header band, so the whole pile stays readable.
"""

from __future__ import annotations

import json
from collections.abc import Mapping, Sequence
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
from render.board import player_initials, printable
from render.png import encode_png
from render.text import Fitted, draw_fitted, ellipsize, fit_text

Box = tuple[int, int, int, int]

CARD_WIDTH = 160  # a single card (render_card)
HAND_CARD_WIDTH = 112
LAYOUT_CARD_WIDTH = 96
TABLE_CARD_WIDTH = 124
COMPACT_BELOW = 120  # narrower cards leave out the hints of houses, hotels and bonus cards
CARD_RATIO = 1.45  # height / width, close to the printed cards
MAX_WIDTH = 1600  # no image is wider
BONUS_ORDER = (HOUSE, HOTEL, TOKEN, GO, MR_MONOPOLY, WILD)
SS = 4  # supersampling of the card outline and the small pictures


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
        if group.kind == RAILROAD:
            footer = _money_range([group.values[n] for n in group.sizes], deck, lang)
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
        )
    if kind == HOTEL:
        return CardFace(
            kind, lab["hotel"], lab["hotel_hint"], money(deck.hotel_value, deck, lang), icon="hotel"
        )
    if kind == TOKEN:
        return CardFace(kind, lab["token"], lab["token_hint"], lab["group_value"], icon="token")
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
    header = (m, m, w - m, m + round(h * 0.25))
    title = (header[0] + pad, header[1] + pad // 2, header[2] - pad, header[3] - pad // 2)
    footer = (m, h - m - round(h * 0.13), w - m, h - m)
    body0, body1 = header[3], footer[1]
    body = body1 - body0
    picture = (m + pad, body0 + pad, w - m - pad, body0 + round(body * 0.56))
    subtitle = (m + pad, picture[3] + pad // 2, w - m - pad, body1 - pad // 2)
    return CardGeometry(
        w, h, max(3, round(w * 0.08)), line, header, title, picture, subtitle, footer
    )


def _fit(text: str, box: Box, **kwargs: Any) -> Fitted:
    return fit_text(text, box[2] - box[0], box[3] - box[1], **kwargs)


def shows_hint(face: CardFace, width: int) -> bool:
    """Whether a card of ``width`` shows its hint; small cards keep only the group name."""
    return face.kind == PROPERTY or width >= COMPACT_BELOW


@lru_cache(maxsize=1024)
def _face_texts(face: CardFace, width: int) -> tuple[tuple[str, str, Fitted, Box], ...]:
    g = card_geometry(width)
    w = width
    footer_box = (g.footer[0] + 2, g.footer[1], g.footer[2] - 2, g.footer[3])
    texts = (
        (
            "title",
            face.title,
            _fit(
                face.title,
                g.title,
                face="condensed",
                max_size=round(w * 0.13),
                min_size=max(8, round(w * 0.075)),
                max_lines=2,
            ),
            g.title,
        ),
        (
            "subtitle",
            face.subtitle,
            _fit(
                face.subtitle,
                g.subtitle,
                face="regular",
                max_size=round(w * 0.092),
                min_size=max(7, round(w * 0.062)),
                max_lines=3,
            ),
            g.subtitle,
        ),
        (
            "footer",
            face.footer,
            _fit(
                face.footer,
                footer_box,
                face="bold",
                max_size=round(w * 0.105),
                min_size=max(7, round(w * 0.062)),
                max_lines=1,
            ),
            footer_box,
        ),
    )
    return tuple(t for t in texts if t[0] != "subtitle" or shows_hint(face, width))


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


def _draw_picture(
    image: Image.Image, draw: ImageDraw.ImageDraw, face: CardFace, g: CardGeometry, st: CardStyle
) -> None:
    x0, y0, x1, y1 = g.picture
    if not shows_hint(face, g.width):
        y1 = g.subtitle[3]
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
        f = font("bold", max(6, round(size * 0.36)))
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
    card_back.cache_clear()


@lru_cache(maxsize=16)
def card_back(width: int, theme: str = "light") -> Image.Image:
    """The back of a card (the stock), as an RGBA image; cached: do not draw on it."""
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
    return _draw_face(card_face(card_info(deck, card_id), lang, deck), width, theme)


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
) -> int:
    """Draw one line (cut with an ellipsis to ``limit``); return its width."""
    f = font(face, size)
    if limit is not None:
        text = ellipsize(text, f, max(1, limit))
    draw.text(xy, text, font=f, fill=fill, anchor=anchor)
    return round(f.getlength(text))


def _row_positions(count: int, width: int, gap: int, available: int) -> tuple[int, int]:
    """Step between ``count`` cards of ``width`` in ``available`` pixels, and the total width.

    Cards sit side by side with ``gap``; if they do not fit they overlap evenly.
    """
    if count <= 0:
        return 0, 0
    step = width + gap
    if count > 1 and (count - 1) * step + width > available:
        step = max(8, (available - width) // (count - 1))
    return step, (count - 1) * step + width


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


def _clusters(view: dict[str, Any], deck: Deck, lang: str, theme: str) -> list[Cluster]:
    st = card_style(theme)
    lab = card_labels(lang)
    clusters = []
    for entry in view["groups"]:
        group = deck.group(entry["group"])
        name = group.name_en if lang == "en" else group.name
        held = len(entry["held"])
        caption = f"{name} {held}/{len(group.cards)}" + (" ✓" if entry["complete"] else "")
        clusters.append(
            Cluster(
                group.id, caption, st.band(PROPERTY, group.kind, group.id), tuple(entry["held"])
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
    return fit_text(caption, width, height, face="condensed", max_size=17, min_size=9, max_lines=2)


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
    margin, gap, cluster_gap = 24, 8, 22
    available = MAX_WIDTH - 2 * margin
    rows = _flow(_clusters(view, deck, lang, theme), cw, gap, cluster_gap, available)
    bonus = list(view["bonus_cards"])
    bonus_rows = (
        _flow(
            [Cluster("bonus", lab["bonus_cards"], st["mr_monopoly"], tuple(bonus))],
            cw,
            gap,
            cluster_gap,
            available,
        )
        if bonus
        else []
    )
    suggested = set(layout_cards(view["suggestion"])) if view["suggestion"] else set()

    widths = [_cluster_row_width(r, cw, gap, cluster_gap) for r in rows + bonus_rows]
    width = max(720, max(widths, default=0) + 2 * margin)
    head_h = 70
    notes = []
    if view["must_discard"]:
        notes.append(lab.count("must_discard", view["must_discard"]))
    if view["pass_chosen"]:
        notes.append(lab.text("pass_chosen", card=_card_name(deck, view["pass_chosen"], lang)))
    if notes:
        head_h += 28
    caption_h = 40
    row_h = ch + 12 + caption_h
    height = margin + head_h + len(rows) * row_h + margin
    if bonus_rows:
        height += 34 + len(bonus_rows) * row_h
    image = Image.new("RGB", (width, height), st["felt"])
    draw = ImageDraw.Draw(image)

    # Header: whose hand and how many cards; the suggested lay-out's value on the right.
    y = margin
    title = f"{lab['hand_title']} · {lab.count('hand_size', len(view['hand']))}"
    if view["suggestion_value"] is not None:
        right = lab.text("suggestion", value=money(view["suggestion_value"], deck, lang))
        right_colour = st["good"]
    else:
        right = lab["no_suggestion"]
        right_colour = st["text_muted"]
    right_w = _text(
        draw,
        (width - margin, y + 16),
        right,
        "bold",
        20,
        right_colour,
        "rm",
        limit=width // 2 - margin,
    )
    _text(
        draw,
        (margin, y + 16),
        title,
        "bold",
        24,
        st["title"],
        "lm",
        limit=width - 2 * margin - right_w - 20,
    )
    if suggested:
        # A swatch in the colour that frames the suggested cards.
        sx = width - margin - right_w - 30
        draw.rounded_rectangle((sx, y + 8, sx + 20, y + 24), 4, outline=st["suggested"], width=4)
    y += 44
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
        )
        y += 28
    y = margin + head_h

    def draw_rows(rows_: list[list[Cluster]], top: int) -> int:
        for row in rows_:
            x = (width - _cluster_row_width(row, cw, gap, cluster_gap)) // 2
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
                bar_y = top + ch + 10
                draw.rectangle((x0, bar_y, x1 - 1, bar_y + 4), fill=cl.colour)
                box = (x0, bar_y + 6, x1, bar_y + 6 + caption_h - 8)
                fitted = fit_caption(cl.caption, box[2] - box[0], box[3] - box[1])
                draw_fitted(draw, fitted, box, st["text"], valign="top")
                x = x1 + cluster_gap
            top += row_h
        return top

    y = draw_rows(rows, y)
    if bonus_rows:
        _text(draw, (margin, y + 14), lab["bonus_cards"], "bold", 20, st["title"], "lm")
        draw_rows(bonus_rows, y + 34)
    return image


def _card_name(deck: Deck, card_id: str, lang: str) -> str:
    face = card_face(card_info(deck, card_id), lang, deck)
    return face.title


def render_hand(state: CardState, seat: int, *, lang: str = "de", theme: str = "light") -> bytes:
    """The hand of ``seat`` as PNG bytes (private: for the player's ephemeral message).

    Cards are tiled in clusters, one per colour group in deck order ("Gelb 2/3"), then
    houses, hotels, tokens, LOS, Mr. Monopoly and Ereignis cards; rows wrap at 1600 px.
    The header gives the number of cards and the value of the suggested lay-out
    (:func:`bot.cardgame.view.hand_view`), whose cards are framed; below it what is
    still to do (cards to discard, the card chosen to pass). The ender's bonus cards
    follow in a row of their own.
    """
    return encode_png(draw_hand(state, seat, lang=lang, theme=theme))


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
    g = card_geometry(LAYOUT_CARD_WIDTH)
    cw, ch = g.width, g.height
    margin, gap, section_gap, info_w, info_gap = 24, 6, 18, 330, 24
    available = MAX_WIDTH - 2 * margin - info_w - info_gap

    def natural(row: LayoutRow) -> int:
        return sum(len(s) * (cw + gap) - gap for s in row.sections) + section_gap * (
            len(row.sections) - 1
        )

    cards_w = min(available, max((natural(r) for r in summary.rows), default=0))
    cards_w = max(cards_w, 3 * cw + 2 * gap)
    width = 2 * margin + cards_w + info_gap + info_w
    head_h = 56
    row_h = ch + 20
    lines_h = 34 * len(summary.lines) + 16
    body_h = row_h * len(summary.rows) if summary.rows else 60
    height = margin + head_h + body_h + 12 + lines_h + margin
    image = Image.new("RGB", (width, height), st["felt"])
    draw = ImageDraw.Draw(image)
    card_box = (margin - 10, margin + head_h - 8, width - margin + 10, height - margin + 8)
    draw.rounded_rectangle(card_box, 14, fill=st["centre_card"], outline=st["centre_line"], width=2)

    heading = printable(title) if title else lab["layout_title"]
    _text(
        draw,
        (margin, margin + 20),
        heading,
        "bold",
        26,
        st["title"],
        "lm",
        limit=width - 2 * margin,
    )
    y = margin + head_h
    info_x = width - margin - info_w
    if not summary.rows:
        _text(
            draw,
            (margin + 10, y + 30),
            lab["empty_layout"],
            "regular",
            20,
            st["text_muted"],
            "lm",
            limit=width - 2 * margin - 20,
        )
    for k, row in enumerate(summary.rows):
        top = y + 10
        if k:
            draw.line((margin, y, width - margin, y), fill=st["centre_line"], width=1)
        count = sum(len(s) for s in row.sections)
        room = cards_w - section_gap * (len(row.sections) - 1)
        step, _ = _row_positions(count, cw, gap, room)
        x = margin
        for section in row.sections:
            for card in section:
                sprite = _card(deck, card, lang, cw, theme)
                image.paste(sprite, (x, top), sprite)
                x += step
            x += section_gap - gap
        # The row's name, how its worth is made up, and the worth.
        colour = (
            st.band(PROPERTY, deck.group(row.group).kind, row.group)
            if row.group
            else st["mr_monopoly"]
        )
        cy = top + ch / 2
        draw.rounded_rectangle((info_x, cy - 40, info_x + 10, cy + 40), 4, fill=colour)
        tx = info_x + 22
        _text(
            draw, (tx, cy - 22), row.label, "bold", 22, st["text"], "lm", limit=width - margin - tx
        )
        if row.detail:
            _text(
                draw,
                (tx, cy + 4),
                row.detail,
                "regular",
                17,
                st["text_muted"],
                "lm",
                limit=width - margin - tx,
            )
        _text(
            draw,
            (width - margin, cy + 30),
            money(row.value, deck, lang),
            "bold",
            24,
            st["text"],
            "rm",
        )
        y += row_h
    if not summary.rows:
        y += 60
    y += 12
    draw.line((margin, y, width - margin, y), fill=st["line"], width=2)
    y += 12
    for k, (label, amount) in enumerate(summary.lines):
        last = k == len(summary.lines) - 1
        size = 26 if last else 20
        face = "bold" if last else "regular"
        colour = st["accent"] if summary.voided and not last else st["text"]
        amount_w = _text(draw, (width - margin, y + 17), amount, "bold", size, st["text"], "rm")
        _text(
            draw,
            (margin, y + 17),
            label,
            face,
            size,
            colour,
            "lm",
            limit=width - 2 * margin - amount_w - 20,
        )
        y += 34
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


# -- the table -----------------------------------------------------------------------------

TABLE_PAD = 16  # between a column's edge and its cards
TABLE_HEAD_PAD = 10  # between a column's edge and its head
PILE_LABEL_HEIGHT = 26
PILE_AREA = 620  # a pile is squeezed to this height before it grows further
MIN_FAN_STEP = 18


@dataclass(frozen=True, slots=True)
class Column:
    """One column of the table image: a player's pile, a pile of nobody, or the stock."""

    kind: str  # "seat", "extra" or "stock"
    index: int
    cards: tuple[str, ...]  # bottom to top (empty for the stock)
    count: int  # cards in it


def table_columns(state: CardState) -> list[Column]:
    """The columns of the table image, from the public :func:`table_view`."""
    view = table_view(state)
    columns = [Column("seat", s, tuple(p), len(p)) for s, p in enumerate(view["piles"])]
    columns += [Column("extra", k, tuple(p), len(p)) for k, p in enumerate(view["extra_piles"])]
    if state.table.has_stock:
        columns.append(Column("stock", 0, (), view["stock"]))
    return columns


def fit_pile_label(text: str) -> Fitted:
    """The head of a pile of nobody or of the stock, on one line across its column."""
    width = TABLE_CARD_WIDTH + 2 * (TABLE_PAD - TABLE_HEAD_PAD)
    return fit_text(
        text, width, PILE_LABEL_HEIGHT, face="bold", max_size=17, min_size=9, max_lines=1
    )


def fan_step(count: int, width: int = TABLE_CARD_WIDTH, area: int = PILE_AREA) -> int:
    """How far apart the cards of a fanned pile of ``count`` cards are drawn."""
    g = card_geometry(width)
    if count <= 1:
        return g.fan_step
    return max(MIN_FAN_STEP, min(g.fan_step, (area - g.height) // (count - 1)))


def draw_table(state: CardState, *, lang: str = "de", theme: str = "light") -> Image.Image:
    """The table image as a Pillow image (see :func:`render_table`)."""
    view = table_view(state)
    deck = state.deck
    st = card_style(theme)
    lab = card_labels(lang)
    names = [printable(p.name) for p in state.players]
    initials = player_initials([p.name for p in state.players])
    columns = table_columns(state)
    g = card_geometry(TABLE_CARD_WIDTH)
    cw, ch = g.width, g.height
    margin, pad, head_pad, col_gap = 24, TABLE_PAD, TABLE_HEAD_PAD, 12
    col_w = cw + 2 * pad
    n = len(columns)
    width = max(820, 2 * margin + n * col_w + (n - 1) * col_gap)
    head_h = 92
    col_head = 120
    pile_heights = []
    for col in columns:
        count = len(col.cards) if col.kind != "stock" else min(col.count, 1)
        pile_heights.append(ch + max(0, count - 1) * fan_step(count) if count else ch)
    pile_h = max(pile_heights, default=ch) + (8 if any(c.kind == "stock" for c in columns) else 0)
    height = margin + head_h + col_head + pile_h + 2 * pad + margin
    image = Image.new("RGB", (width, height), st["felt"])
    draw = ImageDraw.Draw(image)

    # Header: title and round; whose turn (or who won) and what happens; the target.
    y = margin
    round_text = lab.text("round", n=view["round"])
    round_w = _text(draw, (width - margin, y + 16), round_text, "bold", 22, st["text_muted"], "rm")
    _text(
        draw,
        (margin, y + 16),
        lab["game"],
        "bold",
        28,
        st["title"],
        "lm",
        limit=width - 2 * margin - round_w - 20,
    )
    y += 46
    target = lab.text("target", amount=money(view["target"], deck, lang))
    target_w = _text(draw, (width - margin, y + 16), target, "bold", 20, st["text"], "rm")
    x = margin
    if view["phase"] == "over":
        mover = view["winners"][0] if view["winners"] else None
        status = lab.text("winners", names=", ".join(names[s] for s in view["winners"]))
        detail = ""
    elif view["phase"] == "bonus" and view["ender"] is not None:
        mover = view["ender"]
        status = lab.text("laid_out", name=names[mover])
        detail = lab["phase"]["bonus"]
    else:
        mover = view["current"]
        status = lab.text("to_move", name=names[mover])
        detail = lab["phase"].get(view["phase"], view["phase"])
        others = [s for s in view["waiting_for"] if s != mover]
        if others:
            detail += " · " + lab.text("waiting", names=", ".join(names[s] for s in others))
    if mover is not None:
        sprite = sprites.token(st.pal.player(mover), initials[mover], 26, st["highlight"])
        _paste(image, sprite, (x + sprite.width / 2, y + 16))
        x += sprite.width + 8
    limit = width - margin - target_w - 24 - x
    used = _text(draw, (x, y + 16), status, "bold", 21, st["text"], "lm", limit=limit)
    if detail and used + 40 < limit:
        _text(
            draw,
            (x + used, y + 16),
            "  · " + detail,
            "regular",
            18,
            st["text_muted"],
            "lm",
            limit=limit - used,
        )

    # Columns.
    left = (width - (n * col_w + (n - 1) * col_gap)) // 2
    top = margin + head_h
    bottom = height - margin
    for k, col in enumerate(columns):
        x0 = left + k * (col_w + col_gap)
        x1 = x0 + col_w
        current = col.kind == "seat" and view["phase"] != "over" and col.index == view["current"]
        draw.rounded_rectangle(
            (x0, top, x1, bottom),
            12,
            fill=st["row_current"] if current else st["centre_card"],
            outline=st["highlight"] if current else st["centre_line"],
            width=3 if current else 2,
        )
        head = (x0 + head_pad, top + head_pad, x1 - head_pad, top + col_head)
        if col.kind == "seat":
            _draw_seat_head(
                image, draw, view, col.index, head, names, initials, st, lab, deck, lang
            )
        else:
            title = lab.text("extra_pile", n=col.index + 1) if col.kind == "extra" else lab["stock"]
            box = (head[0], head[1] + 4, head[2], head[1] + 4 + PILE_LABEL_HEIGHT)
            fitted = fit_pile_label(title)
            draw_fitted(draw, fitted, box, st["text"], align="left")
            count = lab.count("hand_size", col.count)
            _text(
                draw,
                (head[0], head[1] + 50),
                count,
                "regular",
                15,
                st["text_muted"],
                "lm",
                limit=head[2] - head[0],
            )
        py = top + col_head + pad
        if col.kind == "stock":
            _draw_stock(image, draw, col.count, (x0 + pad, py), g, st, lab, theme)
        elif not col.cards:
            _draw_empty(draw, (x0 + pad, py), g, st, lab)
        else:
            step = fan_step(len(col.cards))
            for j, card in enumerate(col.cards):
                sprite = _card(deck, card, lang, cw, theme)
                image.paste(sprite, (x0 + pad, py + j * step), sprite)
    return image


def _draw_seat_head(
    image: Image.Image,
    draw: ImageDraw.ImageDraw,
    view: dict[str, Any],
    seat: int,
    box: Box,
    names: list[str],
    initials: list[str],
    st: CardStyle,
    lab: CardLabels,
    deck: Deck,
    lang: str,
) -> None:
    """A player's column head: token and name, score (and last round), hand size, status."""
    x0, y0, x1, _ = box
    d = 30
    halo = st["highlight"] if seat == view["current"] and view["phase"] != "over" else None
    sprite = sprites.token(st.pal.player(seat), initials[seat], d, halo)
    _paste(image, sprite, (x0 + d / 2 + 1, y0 + 17))
    _text(
        draw,
        (x0 + d + 8, y0 + 17),
        names[seat],
        "bold",
        17,
        st["text"],
        "lm",
        limit=x1 - x0 - d - 8,
    )
    score = view["scores"][seat]
    score_w = _text(
        draw, (x0, y0 + 50), money(score, deck, lang), "bold", 19, st["text"], "lm", limit=x1 - x0
    )
    if view["round_scores"]:
        # The last round's points, as large as the room beside the score allows.
        last = "+" + _number(view["round_scores"][-1][seat], lang)
        room = x1 - x0 - score_w - 6
        for size in range(14, 9, -1):
            if font("regular", size).getlength(last) <= room:
                _text(draw, (x1, y0 + 50), last, "regular", size, st["good"], "rm")
                break
    # Progress towards the target.
    bar_y = y0 + 66
    draw.rounded_rectangle((x0, bar_y, x1, bar_y + 6), 3, fill=st["progress_track"])
    share = min(1.0, score / view["target"]) if view["target"] else 0.0
    if share > 0:
        draw.rounded_rectangle(
            (x0, bar_y, x0 + max(6, round((x1 - x0) * share)), bar_y + 6), 3, fill=st["progress"]
        )
    dealer_w = 0
    if seat == view["dealer"]:
        dealer_w = _text(
            draw,
            (x1, y0 + 86),
            lab["dealer"],
            "bold",
            13,
            st["text_muted"],
            "rm",
            limit=(x1 - x0) // 2,
        )
    hand = lab.count("hand_size", view["hand_sizes"][seat])
    _text(
        draw,
        (x0, y0 + 86),
        hand,
        "regular",
        14,
        st["text_muted"],
        "lm",
        limit=x1 - x0 - dealer_w - 6,
    )
    if view["owe"][seat]:
        mark, colour = lab.count("owes", view["owe"][seat]), st["accent"]
    elif view["phase"] == "pass" and view["passed"][seat]:
        mark, colour = lab["passed"], st["good"]
    else:
        return
    _text(draw, (x0, y0 + 104), mark, "bold", 14, colour, "lm", limit=x1 - x0)


def _draw_empty(
    draw: ImageDraw.ImageDraw, at: tuple[int, int], g: CardGeometry, st: CardStyle, lab: CardLabels
) -> None:
    x, y = at
    draw.rounded_rectangle(
        (x, y, x + g.width - 1, y + g.height - 1), g.radius, outline=st["empty_pile"], width=2
    )
    _text(
        draw,
        (x + g.width / 2, y + g.height / 2),
        lab["empty"],
        "regular",
        16,
        st["text_muted"],
        "mm",
        limit=g.width - 8,
    )


def _draw_stock(
    image: Image.Image,
    draw: ImageDraw.ImageDraw,
    count: int,
    at: tuple[int, int],
    g: CardGeometry,
    st: CardStyle,
    lab: CardLabels,
    theme: str,
) -> None:
    """The stock face down, as a small stack (thicker with more cards), and its count."""
    x, y = at
    if count == 0:
        _draw_empty(draw, at, g, st, lab)
        return
    back = card_back(g.width, theme)
    layers = min(4, 1 + (count - 1) // 8)
    for k in range(layers):
        off = (layers - 1 - k) * 3
        image.paste(back, (x + off, y + off), back)
    cx = x + g.width / 2 + (layers - 1) * 3
    cy = y + g.height * 0.78
    f = font("bold", 26)
    text = str(count)
    w = round(f.getlength(text))
    draw.rounded_rectangle(
        (cx - w / 2 - 10, cy - 18, cx + w / 2 + 10, cy + 18),
        18,
        fill=st["centre_card"],
        outline=st["line"],
        width=2,
    )
    draw.text((cx, cy), text, font=f, fill=st["text"], anchor="mm")


def render_table(state: CardState, *, lang: str = "de", theme: str = "light") -> bytes:
    """The public table as PNG bytes.

    A column per player: token, name, score (and the last round's points), progress
    towards the target, hand size, dealer, who still owes a discard or has chosen a
    card to pass; below it their face-up pile fanned from the bottom card (top) to the
    top card (fully visible at the bottom), so the order stays readable. Then the piles
    of nobody (2-3 players) and the stock face down with its count (2-4 players). The
    header says the round, whose turn it is and what happens (or who won), and the
    target. Drawn from :func:`bot.cardgame.view.table_view` only.
    """
    return encode_png(draw_table(state, lang=lang, theme=theme))
