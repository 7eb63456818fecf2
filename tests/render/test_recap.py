"""The recap images (render/recap/): both kinds, readable on a phone, golden images.

"Readable on a phone" is measured, not guessed: every text drawn on the image (ticks,
legend, key, moments, the tokens' initials) is at least MIN_PHONE_TEXT pixels high
(font size) once the image is scaled to PHONE_WIDTH pixels wide, no text sticks out of
the image, and after scaling to 400 px the legend still shows every player's colour.

The golden images use recaps written out by hand (not played by the simple players), so
they do not change when the players' strategy does. Rewrite them after an intended
change, look at them, then commit:

    python -m tests.render.test_recap
"""

from __future__ import annotations

import math
from io import BytesIO
from pathlib import Path

import pytest
from PIL import Image

from bot.engine.game import apply_action, new_game
from bot.engine.record import GameRecord
from bot.engine.simple_players import SimplePlayer, next_simple_action
from bot.recap import (
    Bankruptcy,
    BoardRecap,
    CardRecap,
    CardRound,
    GroupCompletion,
    board_recap,
)
from render.assets import palette
from render.recap import (
    DEFAULT_WIDTH,
    MIN_PHONE_TEXT,
    PHONE_WIDTH,
    Drawing,
    RecapTexts,
    contrast,
    draw_board_recap,
    draw_card_recap,
    line_points,
    nice_step,
    player_colours,
    readable,
    render_board_recap,
    render_card_recap,
    text_sizes,
    token_diameter,
)

GOLDEN_DIR = Path(__file__).resolve().parent / "golden"
MAX_PNG_BYTES = 300 * 1024


# -- recaps written out by hand ------------------------------------------------------------


def _walk(seed: int, steps: int, start: int, drift: int) -> list[int]:
    """A made-up net worth series (its own little generator: stable everywhere)."""
    values, value, state = [], start, seed
    for _ in range(steps):
        state = (state * 1103515245 + 12345) % 2**31
        value = max(0, value + drift + (state % 301) - 150)
        values.append(value)
    return values


def golden_board_recap() -> BoardRecap:
    """Four players, 120 turns: two go bankrupt, four groups completed (two at once)."""
    turns = 120
    worth: list[list[int | None]] = [
        list(_walk(1, turns, 1500, 25)),
        list(_walk(2, turns, 1500, 5)),
        list(_walk(3, turns, 1500, -12)),
        list(_walk(4, turns, 1500, -2)),
    ]
    for seat, gone in ((2, 74), (3, 101)):
        worth[seat][gone - 1] = 0
        worth[seat][gone:] = [None] * (turns - gone)
    return BoardRecap(
        players=["Anna", "Bernd", "Clara", "Jörg"],
        currency="EUR",
        turns=turns,
        actions=400,
        start_worth=[1500] * 4,
        worth=worth,
        bankruptcies=[Bankruptcy(2, 74, 0), Bankruptcy(3, 101, 1)],
        groups=[
            GroupCompletion("light_blue", 1, 18, [6, 8, 9], "trade"),
            GroupCompletion("orange", 0, 33, [16, 18, 19], "bought"),
            GroupCompletion("red", 0, 101, [21, 23, 24], "bankruptcy"),
            GroupCompletion("green", 0, 101, [31, 32, 34], "bankruptcy"),
        ],
        trades=3,
        winner=0,
        end_reason="bankruptcies",
        over=True,
    )


GOLDEN_BOARD_TEXTS = RecapTexts(
    title="Vermögen im Spielverlauf",
    subtitle="Gewonnen: Anna · 120 Runden",
    x_label="Runde",
    y_label="Vermögen",
    bankrupt_key="bankrott",
    group_key="Farbgruppe komplett (in ihrer Farbe)",
    notes=("Sieger · 4.210 €", "2.950 €", "bankrott in Runde 74", "bankrott in Runde 101"),
    moments_title="Momente",
    moments=(
        "Höchste Miete: Clara zahlt Anna 1.100 € für Opernplatz (Runde 74)",
        "Teuerster Kauf: Anna kauft Schlossallee für 400 € (Runde 12)",
        "Teuerste Versteigerung: Bernd ersteigert Parkstraße für 420 € (Runde 21)",
        "Längster Aufenthalt im Gefängnis: Jörg, 3 Züge (ab Runde 40)",
        "3 Tauschgeschäfte, das größte: Bernd gibt Badstraße + 200 €, Anna gibt "
        "Chausseestraße (Runde 18)",
        "Zuerst gebaut: Bernd, ein Haus auf Elisenstraße (Runde 19)",
    ),
)


def golden_card_recap() -> CardRecap:
    """Three players, five rounds, Bea wins."""
    points = [[1200, 800, 0], [300, 2600, 1500], [0, 1400, 2200], [3100, 0, 600], [400, 5500, 900]]
    rounds, scores = [], [0, 0, 0]
    for number, row in enumerate(points, 1):
        scores = [a + b for a, b in zip(scores, row, strict=True)]
        ender = max(range(3), key=lambda s: row[s])
        rounds.append(CardRound(number, ender, "ended", row, list(scores)))
    return CardRecap(["Ada", "Bea", "Cem"], "EUR", 10_000, rounds, [1], True)


GOLDEN_CARD_TEXTS = RecapTexts(
    title="Points per round",
    subtitle="Winner: Bea · 5 rounds · target €10,000",
    x_label="Round",
    y_label="Points",
    notes=("€5,000", "winner · €10,300", "€5,200"),
    moments=("Best round: Bea with €5,500 in round 5", "Ended the most rounds: Bea (3 rounds)"),
)

GOLDEN_CASES = {
    "recap_board_light_de": lambda: render_board_recap(
        golden_board_recap(), lang="de", texts=GOLDEN_BOARD_TEXTS
    ),
    "recap_cards_dark_en": lambda: render_card_recap(
        golden_card_recap(), lang="en", texts=GOLDEN_CARD_TEXTS, theme="dark"
    ),
}


def _played_recap(players: int = 4, seed: int = 0) -> BoardRecap:
    state = new_game([(f"p{i}", f"Player {i + 1}") for i in range(players)], seed=seed)
    record = GameRecord.begin(state)
    bots = [SimplePlayer() for _ in range(players)]
    while state.phase != "over" and state.turn <= 1000:
        action = next_simple_action(state, bots)
        assert action is not None
        record.add(action, apply_action(state, action))
    return board_recap(record)


def _rgb(data: bytes) -> Image.Image:
    return Image.open(BytesIO(data)).convert("RGB")


def _close(colour: tuple[int, ...], want: tuple[int, ...], tolerance: int) -> bool:
    """Every channel of ``colour`` within ``tolerance`` of ``want``'s."""
    return max(abs(a - b) for a, b in zip(colour[:3], want, strict=True)) < tolerance


# -- both kinds render ---------------------------------------------------------------------


def test_board_recap_is_a_small_png_at_the_default_width() -> None:
    png = render_board_recap(golden_board_recap(), lang="de", texts=GOLDEN_BOARD_TEXTS)
    image = _rgb(png)
    assert image.width == DEFAULT_WIDTH
    assert DEFAULT_WIDTH < image.height < 2 * DEFAULT_WIDTH
    assert len(png) < MAX_PNG_BYTES


def test_card_recap_is_a_small_png_at_the_default_width() -> None:
    png = render_card_recap(golden_card_recap(), lang="en", texts=GOLDEN_CARD_TEXTS)
    image = _rgb(png)
    assert image.width == DEFAULT_WIDTH and image.height > DEFAULT_WIDTH // 2
    assert len(png) < MAX_PNG_BYTES


@pytest.mark.parametrize("theme", ["light", "dark"])
@pytest.mark.parametrize("lang", ["de", "en"])
def test_a_played_game_renders_without_any_words(theme: str, lang: str) -> None:
    """No texts at all (a caller may leave them out): still a chart and a legend."""
    recap = _played_recap(3, 1)
    image = _rgb(render_board_recap(recap, lang=lang, theme=theme, width=600))
    assert image.width == 600


def test_games_without_data_render() -> None:
    """A record with no action yet, and a card game without a scored round."""
    state = new_game([("a", "A"), ("b", "B")], seed=1)
    empty = board_recap(GameRecord.begin(state))
    assert empty.turns == 1
    _rgb(render_board_recap(empty))
    _rgb(render_card_recap(CardRecap(["A", "B"], "EUR", 10_000, [], [], False)))


def test_width_out_of_range_is_refused() -> None:
    with pytest.raises(ValueError):
        render_board_recap(golden_board_recap(), width=200)


# -- readable on a phone -------------------------------------------------------------------


def _drawings(width: int) -> list[tuple[str, Drawing]]:
    long_names = ["Maximiliane von Hohenzollern-Sigmaringen", "Bo", "Ça 🎲 va", "Jörg"]
    recap = golden_board_recap()
    board_texts = GOLDEN_BOARD_TEXTS
    return [
        ("board", draw_board_recap(recap, lang="de", texts=board_texts, width=width)),
        ("long names", draw_board_recap(recap, long_names, texts=board_texts, width=width)),
        ("cards", draw_card_recap(golden_card_recap(), texts=GOLDEN_CARD_TEXTS, width=width)),
    ]


@pytest.mark.parametrize("width", [DEFAULT_WIDTH, 700, 1200, 1600])
def test_every_text_is_readable_when_scaled_to_a_phone(width: int) -> None:
    """Every text (ticks, names, notes, moments, the tokens' initials) is at least
    MIN_PHONE_TEXT px once the image is PHONE_WIDTH px wide."""
    scale = PHONE_WIDTH / width
    assert min(text_sizes(width).values()) * scale >= MIN_PHONE_TEXT
    for what, drawing in _drawings(width):
        assert drawing.image.width == width
        roles = {text.role for text in drawing.texts}
        assert {"tick", "name", "token"} <= roles, what
        for text in drawing.texts:
            assert text.size * scale >= MIN_PHONE_TEXT, (what, text.text, text.size)


@pytest.mark.parametrize("width", [DEFAULT_WIDTH, 700])
def test_no_text_is_clipped_and_the_legend_keeps_apart(width: int) -> None:
    for what, drawing in _drawings(width):
        w, h = drawing.image.size
        for text in drawing.texts:
            x0, y0, x1, y1 = text.box
            assert x0 >= 0 and y0 >= 0 and x1 <= w and y1 <= h, (what, text.text, text.box)
        lx0, ly0, lx1, ly1 = drawing.legend
        legend = [t for t in drawing.texts if t.role in ("name", "note", "token", "key")]
        for text in legend:
            x0, y0, x1, y1 = text.box
            assert lx0 <= x0 and x1 <= lx1 and ly0 <= y0 and y1 <= ly1, (what, text.text)
        boxes = [t.box for t in legend]
        for i, a in enumerate(boxes):
            for b in boxes[i + 1 :]:
                overlap = min(a[2], b[2]) - max(a[0], b[0]), min(a[3], b[3]) - max(a[1], b[1])
                assert overlap[0] <= 0 or overlap[1] <= 0, (what, a, b)
        # The data area lies inside the image, the legend below it.
        px0, py0, px1, py1 = drawing.plot
        assert 0 < px0 < px1 < w and 0 < py0 < py1 < ly0


def test_scaled_to_400_px_the_legend_is_all_there() -> None:
    """At phone size every player's token colour is still in the legend, and the edges of
    the image are plain background: nothing is cut off at the border."""
    recap = golden_board_recap()
    drawing = draw_board_recap(recap, lang="de", texts=GOLDEN_BOARD_TEXTS)
    image = drawing.image
    scale = PHONE_WIDTH / image.width
    small = image.resize((PHONE_WIDTH, round(image.height * scale)), Image.Resampling.LANCZOS)
    lx0, ly0, lx1, ly1 = (math.floor(v * scale) for v in drawing.legend)
    legend = small.crop((lx0, ly0, lx1 + 1, ly1 + 1))
    colours = legend.getcolors(1 << 16) or []
    for seat, colour in enumerate(player_colours(4)):
        near = sum(n for n, c in colours if _close(c, colour, 40))
        assert near >= 6, (seat, colour)
    background = palette("light")["centre"]
    edge = 2
    for box in (
        (0, 0, small.width, edge),
        (0, small.height - edge, small.width, small.height),
        (0, 0, edge, small.height),
        (small.width - edge, 0, small.width, small.height),
    ):
        extrema = small.crop(box).getextrema()
        for (low, high), want in zip(extrema, background, strict=True):
            assert low >= want - 3 and high <= want + 3, box


def test_legend_tokens_have_the_board_token_colours() -> None:
    """The board draws seat n's token in palette.player(n): the legend uses the same."""
    pal = palette("light")
    assert player_colours(12) == [pal.player(seat) for seat in range(12)]
    drawing = draw_board_recap(golden_board_recap(), lang="de", texts=GOLDEN_BOARD_TEXTS)
    d = token_diameter(drawing.image.width)
    for text in drawing.texts:
        if text.role != "token":
            continue
        x0, y0, x1, y1 = text.box
        seat = ["A", "B", "C", "J"].index(text.text)
        cx, cy = (x0 + x1) / 2, (y0 + y1) / 2
        pixel = drawing.image.getpixel((round(cx - d * 0.3), round(cy)))
        assert _close(pixel, pal.player(seat), 12), (seat, pixel)


def test_group_markers_and_crosses_are_in_the_chart() -> None:
    """A dot in each completed group's colour (four, two of them at one point) and a cross
    per bankruptcy in the player's colour lie in the data area."""
    recap = golden_board_recap()
    drawing = draw_board_recap(recap, lang="de", texts=GOLDEN_BOARD_TEXTS)
    plot = drawing.image.crop(drawing.plot)
    colours = plot.getcolors(1 << 18) or []
    pal = palette("light")

    def count(colour: tuple[int, int, int]) -> int:
        return sum(n for n, c in colours if _close(c, colour, 25))

    for done in recap.groups:
        assert count(pal.group(done.group)) >= 20, done.group
    without = draw_board_recap(
        BoardRecap(**{**recap.__dict__, "groups": []}), lang="de", texts=GOLDEN_BOARD_TEXTS
    )
    bare = without.image.crop(without.plot).getcolors(1 << 18) or []
    light_blue = pal.group("light_blue")
    assert sum(n for n, c in bare if _close(c, light_blue, 25)) < 5


def test_lines_end_at_the_bankruptcy_and_keep_their_corners() -> None:
    recap = golden_board_recap()
    points = line_points(recap, 2)
    assert points[0] == (0, 1500) and points[-1] == (74, 0)
    assert all(recap.worth_at(2, turn) == value for turn, value in points)
    flat = BoardRecap(**{**recap.__dict__, "worth": [[1500] * 120] * 4, "bankruptcies": []})
    assert line_points(flat, 0) == [(0, 1500), (120, 1500)]


def test_numbers_and_colours() -> None:
    assert [nice_step(12_000, 5), nice_step(120, 8), nice_step(7, 5), nice_step(0, 5)] == [
        2500,
        20,
        2,
        1,
    ]
    background = palette("light")["centre"]
    for colour in player_colours(10):
        assert contrast(readable(colour, background), background) >= 4.5
    dark = palette("dark")["centre"]
    assert contrast(readable((30, 30, 120), dark), dark) >= 4.5


# -- golden images -------------------------------------------------------------------------


@pytest.mark.parametrize("name", sorted(GOLDEN_CASES))
def test_matches_golden_image(name: str) -> None:
    from tests.render.test_golden import BLOCK_LIMIT, MEAN_LIMIT, compare

    path = GOLDEN_DIR / f"{name}.png"
    assert path.exists(), f"missing {path}: run python -m tests.render.test_recap"
    actual = _rgb(GOLDEN_CASES[name]())
    expected = _rgb(path.read_bytes())
    assert actual.size == expected.size
    mean, block = compare(actual, expected)
    assert mean < MEAN_LIMIT and block < BLOCK_LIMIT, (
        f"{name} differs from its golden image (mean {mean:.2f}, block {block}); if the "
        "change is intended, look at the new image and run python -m tests.render.test_recap"
    )


def main() -> int:
    """Write the recap's golden images (tests/render/golden/recap_*.png)."""
    for name, render in sorted(GOLDEN_CASES.items()):
        data = render()
        (GOLDEN_DIR / f"{name}.png").write_bytes(data)
        print(f"{name}.png: {len(data) / 1024:.0f} KB")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
