"""Card game images: every card fits its texts, hands, lay-outs, the table, goldens.

The golden images (``tests/render/golden/cards_*.png``) are drawn by
:func:`render_card_case` from seeded states that do not depend on the simple players'
strategy, and compared like the board's (see ``test_golden.py``). After an intended
change, look at the new pictures and rewrite them with::

    python -m tests.render.test_cards            # all card cases
    python -m tests.render.test_cards NAME ...   # some cases
"""

from __future__ import annotations

import subprocess
import sys
import time
from collections import Counter
from collections.abc import Callable
from io import BytesIO
from pathlib import Path

if __package__ in (None, ""):  # run as a file: make the repository importable
    sys.path.insert(0, str(Path(__file__).resolve().parents[2]))

import pytest  # noqa: E402
from PIL import Image  # noqa: E402

from bot.cardgame.cards import HOUSE, PROPERTY, STREET, load_deck  # noqa: E402
from bot.cardgame.game import apply_action, new_game  # noqa: E402
from bot.cardgame.layout import validate_layout  # noqa: E402
from bot.cardgame.simple_player import SimpleCardPlayer, next_simple_action  # noqa: E402
from bot.cardgame.state import CardState  # noqa: E402
from bot.cardgame.view import card_info, hand_view  # noqa: E402
from render import cards as cards_module  # noqa: E402
from render.assets import palette  # noqa: E402
from render.cards import (  # noqa: E402
    ALT_MAX,
    CAPTION_MAX_H,
    CARD_WIDTH,
    DISPLAY_WIDTH,
    DRAWN_WIDTH,
    HAND_CARD_WIDTH,
    HAND_CLUSTER_GAP,
    LAYOUT_CARD_WIDTH,
    MAX_WIDTH,
    MIN_DISPLAY_PX,
    TABLE_CARD_WIDTH,
    TEXT_MIN,
    FontReport,
    card_face,
    card_geometry,
    card_labels,
    card_style,
    card_texts,
    describe_hand,
    describe_layout,
    describe_round_result,
    describe_table,
    draw_hand,
    draw_table,
    extra_pile_name,
    fit_caption,
    hand_clusters,
    hand_fonts,
    layout_fonts,
    layout_summary,
    render_card,
    render_hand,
    render_layout,
    render_round_result,
    render_table,
    table_fonts,
    table_rows,
    tile_face_width,
    tile_height,
    tile_positions,
)
from render.png import encode_png  # noqa: E402
from tests.cardgame.conftest import WORKED_EXAMPLE, act, arrange, game  # noqa: E402
from tests.cardgame.test_rounds import EXAMPLE, worked_example_game  # noqa: E402

DECK = load_deck()
# Every card width an image uses: single cards, the hand, lay-outs, the table's pile bands.
WIDTHS = tuple(
    sorted({CARD_WIDTH, HAND_CARD_WIDTH, LAYOUT_CARD_WIDTH, tile_face_width(TABLE_CARD_WIDTH)})
)
MAX_PNG_BYTES = 1024 * 1024
NAMES = ["Anna", "Bernd", "Clara", "Jörg", "Emil", "Fritz"]


def _png(data: bytes) -> Image.Image:
    assert data[:8] == b"\x89PNG\r\n\x1a\n"
    image = Image.open(BytesIO(data))
    image.load()
    return image


def _check_png(data: bytes, width: int | None = DRAWN_WIDTH) -> Image.Image:
    """PNG bytes of a reasonable size: ``width`` wide (a posted image: drawn for a phone;
    ``None``: at most 1600 px), at most 2400 px tall, well under 1 MB."""
    image = _png(data)
    assert 0 < image.width <= MAX_WIDTH
    if width is not None:
        assert image.width == width
    assert 0 < image.height <= 2400
    assert len(data) < MAX_PNG_BYTES // 4
    return image


def _readable(report: FontReport) -> None:
    """Every text of the image is at least 9 px tall on a phone showing it 400 px wide."""
    assert report.width == DRAWN_WIDTH
    assert report.sizes, "nothing measured"
    for role, shown in report.displayed(DISPLAY_WIDTH).items():
        assert shown >= MIN_DISPLAY_PX, (role, report.sizes[role], shown)


def _new(players: int, seed: int = 3) -> CardState:
    return new_game([(f"p{i}", NAMES[i]) for i in range(players)], seed)


def _played(players: int, seed: int = 3, actions: int = 30) -> CardState:
    """A game after some actions of simple players (mid-round, piles grown)."""
    state = _new(players, seed)
    bots = [SimpleCardPlayer() for _ in range(players)]
    for _ in range(actions):
        action = next_simple_action(state, bots)
        if action is None:
            break
        apply_action(state, action)
    return state


def _letters(text: str) -> str:
    return text.replace("-", "").replace(" ", "")


# -- no Discord, data ------------------------------------------------------------------


def test_card_images_do_not_import_discord() -> None:
    code = (
        "import sys\n"
        "import render.cards\n"
        "bad = sorted(m for m in sys.modules if m == 'discord' or m.startswith('discord.'))\n"
        "print(','.join(bad))\n"
    )
    result = subprocess.run(
        [sys.executable, "-c", code], capture_output=True, text=True, check=True
    )
    assert result.stdout.strip() == ""


def test_both_languages_have_the_same_labels_and_themes_the_same_colours() -> None:
    de, en = card_labels("de"), card_labels("en")
    assert de._raw.keys() == en._raw.keys()
    assert de["phase"].keys() == en["phase"].keys()
    assert de["kind_plural"].keys() == en["kind_plural"].keys()
    light, dark = card_style("light"), card_style("dark")
    assert light.colours.keys() == dark.colours.keys()
    with pytest.raises(KeyError):
        card_labels("fr")


# -- one card ----------------------------------------------------------------------------


@pytest.mark.parametrize("width", WIDTHS)
@pytest.mark.parametrize("lang", ["de", "en"])
def test_every_card_renders_with_its_text_fitting(lang: str, width: int) -> None:
    """All 60 cards, at every size the images use: no text cut, none out of its box."""
    g = card_geometry(width)
    for card_id in DECK.ids:
        info = card_info(DECK, card_id)
        image = render_card(info, lang, width=width)
        assert image.mode == "RGBA" and image.size == (width, g.height)
        texts = card_texts(info, lang, width=width)
        parts = [part for part, *_ in texts]
        assert parts[0] == "title" and parts[-1] == "footer"
        for part, text, fitted, box in texts:
            x0, y0, x1, y1 = box
            assert text, (card_id, part)
            assert not fitted.truncated, (card_id, lang, width, part, fitted.lines)
            assert fitted.width <= x1 - x0 and fitted.height <= y1 - y0, (card_id, part)
            assert fitted.size >= TEXT_MIN, (card_id, part, fitted.size)
            assert _letters("".join(fitted.lines)) == _letters(text), (card_id, fitted.lines)


def test_card_faces_name_and_value_each_kind() -> None:
    def face(card_id: str, lang: str = "de"):
        return card_face(card_info(DECK, card_id), lang, DECK)

    assert [face(f"house{n}-1").title for n in (1, 2, 3, 4)] == [
        "1. Haus",
        "2. Haus",
        "3. Haus",
        "4. Haus",
    ]
    assert [face(f"house{n}-1", "en").title for n in (1, 2, 3, 4)] == [
        "1st house",
        "2nd house",
        "3rd house",
        "4th house",
    ]
    assert face("house3-2").number == 3
    yellow = face("goethestrasse")
    assert (yellow.title, yellow.subtitle, yellow.footer) == ("Goethestraße", "Gelb", "300 €")
    assert yellow.pips == (2, 3)
    assert face("goethestrasse", "en").subtitle == "Yellow"
    assert face("goethestrasse", "en").title == "Goethestraße"  # printed names stay German
    assert face("hauptbahnhof").footer == "100 / 200 / 400 €"
    assert face("hauptbahnhof", "en").footer == "€100 / 200 / 400"
    assert face("elektrizitaetswerk").icon == "power" and face("wasserwerk").icon == "water"
    assert face("hotel-1").footer == "500 €"
    assert (face("go-1").title, face("go-1").footer) == ("LOS", "200 €")
    assert (face("go-1", "en").title, face("go-1", "en").footer) == ("GO", "€200")
    assert face("mrm-1").footer == "+1.000 €"
    assert face("token-1").title == "Spielfigur" and face("token-1", "en").title == "Token"
    assert face("wild-1").title == "Ereigniskarte" and face("wild-1", "en").title == "Chance"


@pytest.mark.parametrize("theme", ["light", "dark"])
def test_street_cards_carry_the_board_group_colour(theme: str) -> None:
    g = card_geometry(CARD_WIDTH)
    probe = (g.header[0] + 3, g.header[1] + 3)  # inside the band, off the name
    for card in DECK.cards:
        if card.kind != PROPERTY or DECK.group(card.group).kind != STREET:
            continue
        image = render_card(card_info(DECK, card.id), width=CARD_WIDTH, theme=theme)
        assert image.getpixel(probe)[:3] == palette(theme).group(card.group), card.id


def test_card_kinds_have_distinct_bands() -> None:
    g = card_geometry(CARD_WIDTH)
    probe = (g.header[0] + 3, g.header[1] + 3)
    bands = {
        card_id: render_card(card_info(DECK, card_id)).getpixel(probe)
        for card_id in ("house1-1", "hotel-1", "token-1", "go-1", "mrm-1", "wild-1", "suedbahnhof")
    }
    assert len(set(bands.values())) == len(bands)


def test_small_cards_keep_the_group_name_but_drop_long_hints() -> None:
    def parts(card_id: str, width: int) -> list[str]:
        return [p for p, *_ in card_texts(card_info(DECK, card_id), width=width)]

    assert parts("house2-1", CARD_WIDTH) == ["title", "subtitle", "footer"]
    # A hint that would need type under TEXT_MIN is left out, not shrunk.
    assert parts("house1-1", CARD_WIDTH) == ["title", "footer"]
    assert parts("house2-1", LAYOUT_CARD_WIDTH) == ["title", "footer"]
    assert parts("badstrasse", LAYOUT_CARD_WIDTH) == ["title", "subtitle", "footer"]


def test_narrow_cards_say_the_same_in_fewer_letters() -> None:
    """Where the whole footer does not fit, its short form does: railroads give the range
    of their values, houses and tokens "= Gruppe"; names break at a word's joint."""

    def texts(card_id: str, lang: str = "de") -> dict[str, tuple[str, ...]]:
        info = card_info(DECK, card_id)
        return {p: f.lines for p, _, f, _ in card_texts(info, lang, width=TABLE_CARD_WIDTH)}

    assert texts("suedbahnhof")["footer"] == ("100–400 €",)
    assert texts("suedbahnhof", "en")["footer"] == ("€100–400",)
    assert texts("house2-1")["footer"] == ("= Gruppe",)
    assert texts("wild-1")["title"] == ("Ereignis-", "karte")


def test_render_card_returns_a_copy() -> None:
    info = card_info(DECK, "badstrasse")
    image = render_card(info)
    image.paste((0, 0, 0, 255), (0, 0, image.width, image.height))
    assert render_card(info).getpixel((image.width // 2, image.height // 2))[:3] != (0, 0, 0)


# -- the hand ----------------------------------------------------------------------------


@pytest.mark.parametrize(("players", "size"), [(4, 10), (5, 11), (6, 9), (2, 10)])
@pytest.mark.parametrize("lang", ["de", "en"])
def test_hand_of_every_size(players: int, size: int, lang: str) -> None:
    state = _new(players)
    for seat in range(players):
        hand = state.players[seat].hand
        assert len(hand) == size
        clusters = hand_clusters(state, seat, lang=lang)
        shown = [c for cl in clusters for c in cl.cards]
        assert Counter(shown) == Counter(hand)  # every card once
        _check_png(render_hand(state, seat, lang=lang))
    # Ten or eleven cards take at most three rows of six.
    row_h = card_geometry(HAND_CARD_WIDTH).height + 12 + CAPTION_MAX_H + 14
    for seat in range(5):
        assert draw_hand(_new(5), seat).height < 2 * 12 + 70 + 3 * row_h


def test_a_hand_swollen_by_a_swap_wraps_into_rows() -> None:
    """After a swap a hand may hold more than 11 cards: rows wrap inside 1600 px."""
    state = game(2, seed=5)
    hand = [c for c in DECK.ids if DECK.kind(c) == HOUSE][:14] + ["badstrasse", "go-1"]
    arrange(state, hands={0: hand})
    image = _check_png(render_hand(state, 0))
    one_row = card_geometry(HAND_CARD_WIDTH).height + 12
    assert image.height > 40 + 3 * one_row


def test_every_caption_fits_under_one_card() -> None:
    for lang in ("de", "en"):
        lab = card_labels(lang)
        captions = [f"{g.name_en if lang == 'en' else g.name} 4/4 ✓" for g in DECK.groups]
        captions += list(lab["kind_plural"].values()) + [lab["bonus_cards"]]
        for caption in captions:
            fitted = fit_caption(caption, HAND_CARD_WIDTH + HAND_CLUSTER_GAP, CAPTION_MAX_H)
            assert not fitted.truncated, caption


def test_hand_marks_the_suggested_lay_out() -> None:
    state = worked_example_game()
    view = hand_view(state, 1)
    assert view["suggestion_value"] == 3600
    marked = card_style("light")["suggested"]

    def marked_pixels(image: Image.Image) -> int:
        return sum(n for n, c in image.getcolors(1_000_000) if c == marked)

    assert marked_pixels(draw_hand(state, 1)) > 2000
    assert hand_view(state, 0)["suggestion"] is None
    assert marked_pixels(draw_hand(state, 0)) == 0


def test_hand_shows_the_ender_bonus_cards() -> None:
    state = worked_example_game()
    act(state, "lay_out", 1, layout=EXAMPLE)
    assert state.phase == "bonus"
    view = hand_view(state, 1)
    assert len(view["bonus_cards"]) == 5
    _check_png(render_hand(state, 1, lang="en"))


# -- lay-outs ------------------------------------------------------------------------------


def test_worked_example_lay_out_totals_4600() -> None:
    """The book's example: yellow with three houses and two tokens, two Mr. Monopoly
    cards and nobody else with two: 3 600 € plus 1 000 € = 4 600 €."""
    layout = validate_layout(DECK, EXAMPLE, WORKED_EXAMPLE, wilds=True, exact=10)
    summary = layout_summary(layout, DECK, mr_monopoly_bonus=1000)
    assert summary.value == 3600 and summary.mr_monopoly == 2
    assert summary.total == 4600
    yellow, bonus = summary.rows
    assert (yellow.group, yellow.label, yellow.value) == ("yellow", "Gelb", 3600)
    assert yellow.sections == (
        tuple(layout["groups"][0]["cards"]),
        ("house1-1", "house2-1", "house3-1"),
        ("token-1", "token-2"),
    )
    assert yellow.detail == "1.200 € + 2 × 1.200 €"
    assert bonus.group is None and bonus.sections == (("mrm-1", "mrm-2"),)
    assert summary.lines == (
        ("Wert der Auslage", "3.600 €"),
        ("Mr.-Monopoly-Bonus", "+1.000 €"),
        ("Gesamt", "4.600 €"),
    )
    english = layout_summary(layout, DECK, lang="en", mr_monopoly_bonus=1000)
    assert english.lines[-1] == ("Total", "€4,600")
    _check_png(render_layout(layout, DECK, mr_monopoly_bonus=1000))
    _check_png(render_layout(layout, DECK, lang="en", title="Ben", theme="dark"))


def test_round_result_of_the_worked_example_shows_the_points() -> None:
    state = worked_example_game()
    act(state, "lay_out", 1, layout=EXAMPLE)
    act(state, "arrange", 1, layout=EXAMPLE)
    row = state.last_round["players"][1]
    summary = layout_summary(row["layout"], state.deck, mr_monopoly_bonus=row["mr_monopoly_bonus"])
    assert summary.total == row["points"] == 4600
    for seat in range(4):
        _check_png(render_round_result(state, seat))
    with pytest.raises(ValueError):
        render_round_result(_new(4), 0)


def test_voided_and_empty_lay_outs() -> None:
    empty = {"groups": [], "bonus": []}
    summary = layout_summary(empty, DECK, voided=True)
    assert summary.total == 0 and summary.voided and summary.rows == ()
    assert summary.lines[0][0] == card_labels("de")["voided"]
    _check_png(render_layout(empty, DECK, voided=True))
    bonus_only = {"groups": [], "bonus": ["go-1", "go-2", "mrm-3"]}
    summary = layout_summary(bonus_only, DECK, mr_monopoly_bonus=1000)
    assert summary.rows[0].value == 400 and summary.total == 1400
    _check_png(render_layout(bonus_only, DECK, lang="en"))


def test_a_full_lay_out_of_many_cards_stays_800_px_wide() -> None:
    """The ender may lay out 15 cards after the bonus: a row of 14 wraps into lines."""
    layout = {
        "groups": [
            {
                "group": "dark_blue",
                "cards": ["parkstrasse", "schlossallee"],
                "houses": ["house1-1", "house2-1", "house3-1", "house4-1"],
                "hotel": "hotel-1",
                "tokens": [f"token-{k}" for k in range(1, 7)],
            },
            {"group": "railroad", "cards": ["suedbahnhof", "westbahnhof", "nordbahnhof"]},
        ],
        "bonus": ["go-1", "mrm-1", "wild-1"],
    }
    image = _check_png(render_layout(layout, DECK))
    assert image.width == DRAWN_WIDTH


# -- the table ---------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("players", "rows"),
    [
        (2, ["seat", "seat", "extra", "extra"]),
        (3, ["seat"] * 3 + ["extra"]),
        (4, ["seat"] * 4),
        (5, ["seat"] * 5),
        (6, ["seat"] * 6),
    ],
)
@pytest.mark.parametrize("lang", ["de", "en"])
def test_table_of_a_new_game(players: int, rows: list[str], lang: str) -> None:
    state = _new(players)
    assert [r.kind for r in table_rows(state)] == rows
    image = _check_png(render_table(state, lang=lang))
    # A new game's table stays short on a phone: under 400 px shown, even with six.
    assert image.height * DISPLAY_WIDTH / image.width < 400


@pytest.mark.parametrize("players", [2, 4, 6])
def test_table_mid_game_after_simple_players(players: int) -> None:
    state = _played(players, actions=40)
    assert state.turn > 0
    _check_png(render_table(state))
    _check_png(render_table(state, lang="en", theme="dark"))
    for seat in range(players):
        _check_png(render_hand(state, seat))


def test_table_after_whole_rounds_and_at_the_end() -> None:
    state = _new(3, seed=4)
    bots = [SimpleCardPlayer() for _ in range(3)]
    checked_rounds = set()
    while state.phase != "over":
        if state.round_scores and state.round not in checked_rounds:
            checked_rounds.add(state.round)
            _check_png(render_table(state))
            for seat in range(3):
                _check_png(render_round_result(state, seat, lang="en"))
        apply_action(state, next_simple_action(state, bots))
    assert checked_rounds
    _check_png(render_table(state, lang="en"))
    _check_png(render_hand(state, 0))  # the game is over: an empty hand


def test_the_table_at_the_end_shows_the_final_standings() -> None:
    """Game over: who won and each player's score, a line each; no piles, hands or stock."""
    state = _final_standings()
    image = _check_png(render_table(state))
    assert image.height * DISPLAY_WIDTH / image.width < 150  # three lines on a phone
    text = describe_table(state)
    assert text.endswith("Gewonnen: Bernd. Anna: 6.200 €. Bernd: 10.400 €. Clara: 3.100 €.")
    _readable(table_fonts(state))


def _hands_dealt_anew(state: CardState) -> CardState:
    """The same table with other hands of the same sizes."""
    other = state.copy()
    pool = [c for p in other.players for c in p.hand][::-1]
    for player in other.players:
        size = len(player.hand)
        player.hand, pool = pool[:size], pool[size:]
    assert [p.hand for p in other.players] != [p.hand for p in state.players]
    return other


def test_table_shows_no_hand() -> None:
    """Only the public view is drawn: other hands (of the same sizes) give the same picture
    and the same alt text."""
    state = _played(4, actions=12)
    other = _hands_dealt_anew(state)
    assert draw_table(state).tobytes() == draw_table(other).tobytes()
    assert describe_table(state) == describe_table(other)


def _colour_spots(image: Image.Image, spots: list[tuple[int, int]]) -> list[tuple[int, ...]]:
    """The colour of each pile card's band, just inside its left edge (off the name)."""
    return [image.getpixel((x + 6, y + tile_height() // 2)) for x, y in spots]


def test_piles_run_from_bottom_to_top() -> None:
    """Each card of a pile shows its band, the bottom card first (left) and the top card
    last, in the pile's row under its player."""
    state = game(4, seed=2)
    pile = ["badstrasse", "parkstrasse", "lessingstrasse", "opernplatz"]
    arrange(state, piles={0: pile, 1: ["go-1"], 2: ["go-2"], 3: ["go-3"]})
    image = draw_table(state)
    pal = palette("light")
    # The first row starts under the header; its cards under the row's head line.
    left = cards_module.MARGIN + cards_module.ROW_PAD
    top = (
        cards_module.MARGIN
        + cards_module.TABLE_HEAD_H
        + cards_module.ROW_PAD
        + cards_module.HEAD_H
        + 4
    )
    spots = tile_positions(len(pile), left, top)
    assert [x for x, _ in spots] == sorted(x for x, _ in spots)
    assert _colour_spots(image, spots) == [pal.group(DECK.card(c).group) for c in pile]


def test_long_piles_wrap_into_lines_and_keep_their_order() -> None:
    """A pile of 24 cards takes four lines of six, every card shown in order."""
    assert len({y for _, y in tile_positions(24, 0, 0)}) == 4
    assert tile_positions(7, 0, 0)[6] == (0, tile_height() + cards_module.TILE_GAP)
    state = game(2, seed=2)
    long_pile = [c for c in DECK.ids if DECK.kind(c) == PROPERTY][:24]
    arrange(state, piles={0: long_pile})
    short = draw_table(game(2, seed=2))
    _check_png(render_table(state))
    image = draw_table(state)
    assert image.height - short.height == 3 * (tile_height() + cards_module.TILE_GAP)
    pal = palette("light")
    left = cards_module.MARGIN + cards_module.ROW_PAD
    top = (
        cards_module.MARGIN
        + cards_module.TABLE_HEAD_H
        + cards_module.ROW_PAD
        + cards_module.HEAD_H
        + 4
    )
    spots = tile_positions(len(long_pile), left, top)
    assert _colour_spots(image, spots) == [pal.group(DECK.card(c).group) for c in long_pile]


def test_every_pile_name_fits() -> None:
    """The piles of nobody are named as the rulebook counts them: with two players the
    3rd and 4th Tauschstapel, with three the 4th."""
    de, en = card_labels("de"), card_labels("en")
    assert [extra_pile_name(de, k, 2) for k in (0, 1)] == ["3. Tauschstapel", "4. Tauschstapel"]
    assert extra_pile_name(de, 0, 3) == "4. Tauschstapel"
    assert extra_pile_name(en, 0, 3) == "Swap pile 4"
    for lab in (de, en):
        for text in [extra_pile_name(lab, k, 2) for k in (0, 1)]:
            assert cards_module.font("bold", 20).getlength(text) < DRAWN_WIDTH // 2


# -- the same words in text and picture -----------------------------------------------------


@pytest.mark.parametrize("lang", ["de", "en"])
def test_text_and_pictures_use_one_vocabulary(lang: str) -> None:
    """The messages (bot/locales) and the pictures (render/data/cards.json) name piles and
    actions alike, with the rulebook's words: Abnahmestapel, Tauschstapel (the piles of
    nobody counted after the players' own), nehmen, ablegen, Prämie, Wertung."""
    from bot.i18n import t

    lab = card_labels(lang)
    stock = lab["stock"]
    assert t(lang, "cards.footer", stock=3, target="x").startswith(f"{stock}: 3")
    assert stock.lower() in t(lang, "cards.event.stock_empty").lower()
    assert stock.lower() in t(lang, "cards.swap_extra_stock", number=3).lower()
    for players, index in ((2, 0), (2, 1), (3, 0)):
        number = players + index + 1
        assert extra_pile_name(lab, index, players) == t(lang, "cards.extra_pile", number=number)
    pile = {"de": "Tauschstapel", "en": "swap pile"}[lang]
    for key in ("cards.own_pile", "cards.first_chosen", "cards.first_placeholder"):
        assert pile in t(lang, key), key
    assert pile.lower() in lab["pile_order"].lower()
    reward = lab["bonus_cards"]  # the ender's Prämie
    assert reward == {"de": "Prämie", "en": "Reward"}[lang]
    for key in ("cards.button.arrange", "cards.phase.bonus", "cards.your_bonus"):
        assert reward.lower() in t(lang, key, cards="x").lower(), key
    assert reward.lower() in lab["phase"]["bonus"].lower()
    if lang == "de":
        assert "nehmen" in t(lang, "cards.button.draw") and "nimmt" in lab["phase"]["turn"]
        assert "nimmt" in t(lang, "cards.event.drew", player="x")
        assert "ablegen" in t(lang, "cards.phase.discard") and "ablegen" in lab["phase"]["discard"]
        assert "ablegen" in lab.count("must_discard", 2) and "legt" in lab.count("owes", 2)
        assert "Wertung" in t(lang, "cards.round_title", round=1)
    else:
        assert "draw" in t(lang, "cards.button.draw").lower() and "draws" in lab["phase"]["turn"]
        assert lab["wild"] in t(lang, "cards.voided")  # "Chance", as the card says


# -- readable on a phone -------------------------------------------------------------------


@pytest.mark.parametrize("players", [2, 4, 6])
@pytest.mark.parametrize("lang", ["de", "en"])
def test_table_and_hands_are_readable_on_a_phone(players: int, lang: str) -> None:
    """Drawn 800 px wide and shown 400 px wide, no text of the table or a hand is under
    9 px: font size x (400 / drawn width) >= 9 for every kind of text."""
    for state in (_new(players), _played(players, actions=40)):
        report = table_fonts(state, lang=lang)
        _readable(report)
        assert {"heading", "status", "name", "score", "count", "card_title"} <= set(report.sizes)
        for seat in range(players):
            _readable(hand_fonts(state, seat, lang=lang))
    piles = table_fonts(_piles_state(), lang=lang)  # with last round's points
    _readable(piles)


def test_lay_outs_are_readable_on_a_phone() -> None:
    for lang in ("de", "en"):
        report = layout_fonts(EXAMPLE, DECK, lang=lang, mr_monopoly_bonus=1000)
        _readable(report)
        assert {"card_title", "card_footer", "score", "detail"} <= set(report.sizes)
    state = worked_example_game()
    act(state, "lay_out", 1, layout=EXAMPLE)
    _readable(hand_fonts(state, 1))  # the ender's Prämie in rows of its own


def test_the_font_report_sees_small_text() -> None:
    """The measure is not blind: a text drawn at 12 px is reported at 12 px, 6 px shown."""
    report = cards_module.font_report(lambda: _small_text_image(12))
    assert report.sizes == {"probe": 12} and report.displayed(400)["probe"] == 6


def _small_text_image(size: int) -> Image.Image:
    from PIL import ImageDraw

    image = Image.new("RGB", (DRAWN_WIDTH, 40))
    cards_module._text(
        ImageDraw.Draw(image), (0, 0), "x", "regular", size, (255, 255, 255), "la", role="probe"
    )
    return image


# -- alt text ---------------------------------------------------------------------------------


def test_alt_text_of_the_table_names_turn_scores_and_piles() -> None:
    state = _piles_state()
    text = describe_table(state)
    assert len(text) <= ALT_MAX
    assert "Runde 1" in text and "Am Zug: Player 1" in text and "Abnahmestapel: 9 Karten" in text
    assert "Player 2 (6.150 €, Hand: 10): Schlossallee, Südbahnhof" in text
    assert "Badstraße, LOS, 4. Haus, Ereigniskarte, Parkstraße, Spielfigur, Hotel" in text
    english = describe_table(_new(2), lang="en")
    assert "Swap pile 3: " in english and "Draw pile: " in english


def test_alt_text_of_a_long_table_keeps_within_its_limit(monkeypatch: pytest.MonkeyPatch) -> None:
    """Long piles are named by their top cards, the rest counted, to stay within the
    limit (1024 characters; 60 cards rarely reach it, so here it is lowered)."""
    state = game(2, seed=2)
    properties = [c for c in DECK.ids if DECK.kind(c) == PROPERTY]
    arrange(state, piles={0: properties[:14], 1: properties[14:28]})
    whole = describe_table(state)
    assert len(whole) <= ALT_MAX and "weitere darunter" not in whole
    monkeypatch.setattr(cards_module, "ALT_MAX", 500)
    text = describe_table(state)
    assert len(text) <= 500
    assert card_labels("de").text("alt_below", n=9) in text  # "9 weitere darunter"
    for seat in range(2):  # the top card of every pile is named
        assert cards_module.card_title(DECK, state.piles[seat][-1]) in text


def test_alt_text_of_a_hand_names_its_cards_and_the_suggestion() -> None:
    state = worked_example_game()
    text = describe_hand(state, 1)
    assert len(text) <= ALT_MAX
    for card in state.players[1].hand:
        assert cards_module.card_title(DECK, card) in text
    assert "Gelb 3/3, vollständig" in text and "3.600 €" in text
    assert describe_hand(state, 1, lang="en").startswith("Your hand, 10 cards.")


def test_alt_text_of_a_round_result_gives_its_rows_and_total() -> None:
    state = _worked_example_result()
    text = describe_round_result(state, 1)
    assert text.startswith("Player 2 · Runde 1.") or "Runde 1" in text
    assert "Gelb: Lessingstraße" in text and "Gesamt 4.600 €" in text
    assert "Mr.-Monopoly-Bonus +1.000 €" in text
    empty = describe_layout({"groups": [], "bonus": []}, DECK, voided=True)
    assert card_labels("de")["voided"] in empty


# -- determinism, speed ----------------------------------------------------------------------


def test_same_input_same_bytes() -> None:
    state = _played(4, actions=20)
    first = (render_table(state), render_hand(state, 0), render_layout(EXAMPLE, DECK))
    cards_module.clear_card_cache()
    copy = CardState.from_json(state.to_json())
    again = (render_table(copy), render_hand(copy, 0), render_layout(EXAMPLE, DECK))
    assert first == again


def test_rendering_is_fast_once_warm() -> None:
    state = _played(6, actions=20)
    render_table(state)
    render_hand(state, 0)
    started = time.perf_counter()
    for _ in range(5):
        render_table(state)
        render_hand(state, 0)
        render_layout(EXAMPLE, DECK, mr_monopoly_bonus=1000)
    per_image = (time.perf_counter() - started) / 15
    assert per_image < 0.25  # measured ~25 ms; generous for slow CI machines


# -- golden images -------------------------------------------------------------------------


def card_sheet(lang: str, theme: str, width: int = TABLE_CARD_WIDTH) -> bytes:
    """All 60 cards in deck order, ten to a row."""
    g = card_geometry(width)
    gap = 6
    image = Image.new(
        "RGB", (10 * (width + gap) + gap, 6 * (g.height + gap) + gap), card_style(theme)["felt"]
    )
    for k, card_id in enumerate(DECK.ids):
        sprite = render_card(card_info(DECK, card_id), lang, width=width, theme=theme)
        x = gap + (k % 10) * (width + gap)
        y = gap + (k // 10) * (g.height + gap)
        image.paste(sprite, (x, y), sprite)
    return encode_png(image)


def _piles_state() -> CardState:
    """Four players in round 1 with piles of several cards (seeded, arranged by hand)."""
    state = game(4, seed=2)
    arrange(
        state,
        hands={1: list(WORKED_EXAMPLE)},
        piles={
            0: ["badstrasse", "go-1", "house4-1", "wild-1", "parkstrasse", "token-3", "hotel-1"],
            2: ["schlossallee", "suedbahnhof"],
            3: ["elektrizitaetswerk"],
        },
    )
    state.players[2].score = 6150
    state.round_scores = [[0, 1250, 6150, 400]]
    return state


def _final_standings() -> CardState:
    """Three players at the end: Bernd won with 10.400 € (set by hand, not played)."""
    state = _new(3)
    state.phase = "over"
    state.winners = [1]
    for player, score in zip(state.players, (6200, 10400, 3100), strict=True):
        player.score = score
    state.round_scores = [[1200, 4400, 0]]
    return state


def _worked_example_result() -> CardState:
    state = worked_example_game()
    act(state, "lay_out", 1, layout=EXAMPLE)
    act(state, "arrange", 1, layout=EXAMPLE)
    return state


CARD_GOLDEN_CASES: dict[str, Callable[[], bytes]] = {
    "cards_sheet_light_de": lambda: card_sheet("de", "light"),
    "cards_sheet_dark_en": lambda: card_sheet("en", "dark"),
    "cards_hand_worked_example_de": lambda: render_hand(worked_example_game(), 1),
    "cards_hand_5p_en": lambda: render_hand(_new(5), 2, lang="en"),
    "cards_layout_worked_example_de": lambda: render_round_result(_worked_example_result(), 1),
    "cards_table_piles_4p_de": lambda: render_table(_piles_state()),
    "cards_table_2p_dark_en": lambda: render_table(_new(2), lang="en", theme="dark"),
    "cards_table_6p_de": lambda: render_table(_new(6)),
    "cards_table_over_3p_de": lambda: render_table(_final_standings()),
}
GOLDEN_DIR = Path(__file__).resolve().parent / "golden"


def render_card_case(name: str) -> bytes:
    """The PNG bytes of golden case ``name``, drawn by the current code."""
    return CARD_GOLDEN_CASES[name]()


@pytest.mark.parametrize("name", sorted(CARD_GOLDEN_CASES))
def test_matches_golden_image(name: str) -> None:
    from tests.render.test_golden import BLOCK_LIMIT, MEAN_LIMIT, compare

    path = GOLDEN_DIR / f"{name}.png"
    assert path.exists(), f"missing {path}: run python -m tests.render.test_cards {name}"
    data = render_card_case(name)
    _check_png(data, None if name.startswith("cards_sheet") else DRAWN_WIDTH)
    actual = _png(data).convert("RGB")
    expected = _png(path.read_bytes()).convert("RGB")
    assert actual.size == expected.size
    mean, block = compare(actual, expected)
    assert mean < MEAN_LIMIT and block < BLOCK_LIMIT, (
        f"{name} differs from its golden image (mean {mean:.2f}, block {block}); "
        "if the change is intended, look at the new image and run "
        f"python -m tests.render.test_cards {name}"
    )


def main(names: list[str]) -> int:
    """Write the named golden cases (all if none) into tests/render/golden/."""
    GOLDEN_DIR.mkdir(exist_ok=True)
    for name in names or sorted(CARD_GOLDEN_CASES):
        data = render_card_case(name)
        (GOLDEN_DIR / f"{name}.png").write_bytes(data)
        print(f"{name}.png: {len(data) / 1024:.0f} KB")
    return 0


if __name__ == "__main__":
    raise SystemExit(main(sys.argv[1:]))
