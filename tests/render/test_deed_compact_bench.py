"""Title deeds, the compact board, the benchmark and its command line."""

from __future__ import annotations

from io import BytesIO

import pytest
from PIL import Image

from bot.cli import build_parser
from bot.engine.board import load_board
from bot.engine.themes import load_theme
from render.assets import labels, palette
from render.bench import bench_render, sample_state
from render.board import render_board
from render.compact import DEFAULT_COMPACT_SIZE, render_compact
from render.deed import draw_deed, render_deed
from tests.render.states import late_game_state, mid_game_state


@pytest.mark.parametrize(
    ("square", "kind"),
    [(6, "street"), (39, "street"), (5, "railroad"), (12, "utility"), (28, "utility")],
)
@pytest.mark.parametrize("lang", ["de", "en"])
def test_deed_for_each_kind_of_lot(square: int, kind: str, lang: str) -> None:
    board = load_board("de_euro")
    assert board.squares[square].kind == kind
    data = render_deed(board, square, lang=lang)
    image = Image.open(BytesIO(data))
    assert image.width == 600 and 400 < image.height < 900
    assert len(data) < 100 * 1024


def test_deed_of_a_street_has_its_group_colour() -> None:
    board = load_board("de_euro")
    image = draw_deed(board, 37)
    colour = palette("light").group("dark_blue")
    assert image.getpixel((60, 120)) == colour


def test_deed_with_state_shows_owner_and_current_rent() -> None:
    state = mid_game_state()
    plain = draw_deed(state.board, 6)
    owned = draw_deed(state.board, 6, state)
    assert owned.height > plain.height  # the owner line
    highlight = palette("light")["row_current"]
    assert any(c == highlight for _, c in owned.getcolors(1_000_000))
    assert not any(c == highlight for _, c in plain.getcolors(1_000_000))


def test_deed_of_a_mortgaged_lot_is_stamped() -> None:
    state = mid_game_state()
    stamp = palette("dark")["stamp"]
    marked = draw_deed(state.board, 15, state, theme="dark")  # Westbahnhof, mortgaged
    free = draw_deed(state.board, 5, state, theme="dark")  # Südbahnhof, not mortgaged

    def near_stamp(image: Image.Image) -> int:
        return sum(
            n
            for n, c in image.getcolors(1_000_000)
            if all(abs(a - b) < 30 for a, b in zip(c, stamp, strict=True))
        )

    assert near_stamp(marked) > 100
    assert near_stamp(free) == 0


def test_deed_of_a_theme_name_and_us_board() -> None:
    state = late_game_state()
    image = draw_deed(state.board, 39, state, lang="en", names={39: "Promenade des Anglais"})
    assert image.width == 600


def test_no_deed_for_squares_that_cannot_be_owned() -> None:
    board = load_board("de_euro")
    for square in (0, 2, 4, 7, 10, 20, 30, 38):
        with pytest.raises(ValueError):
            render_deed(board, square)


@pytest.mark.parametrize("theme", ["light", "dark"])
def test_compact_board(theme: str) -> None:
    for state in (mid_game_state(), late_game_state()):
        data = render_compact(state, theme=theme)
        image = Image.open(BytesIO(data))
        assert image.size == (DEFAULT_COMPACT_SIZE, DEFAULT_COMPACT_SIZE)
        assert len(data) < 100 * 1024


def test_sample_state_is_mid_game() -> None:
    state = sample_state()
    assert state.turn > 50
    assert sum(o >= 0 for o in state.owner) > 10
    assert any(state.houses)


def test_bench_reports_cold_warm_and_encode() -> None:
    result = bench_render(repeats=2, size=700)
    assert result.cold_ms > 0 and result.warm_ms > 0 and result.encode_ms > 0
    assert 0 < result.png_bytes < 500 * 1024
    line = result.line()
    assert "cold" in line and "warm" in line and "encode" in line


def test_cli_bench_has_a_render_flag() -> None:
    parser = build_parser()
    assert parser.parse_args(["bench", "--render"]).render is True
    assert parser.parse_args(["bench"]).render is False


def test_theme_words_reach_the_centre_panel() -> None:
    """A theme's bank, house, hotel and money words (003: "Naschgeldbank", "Krümelkojen",
    "Naschgeld") replace the labels of the centre panel; without terms nothing changes."""
    terms = load_theme("cookies_and_pirates").terms
    themed = labels("de").with_terms(terms)
    assert themed["bank"] == "Naschgeldbank"
    assert (themed.count("house", 1), themed.count("house", 32)) == (
        "1 Krümelkoje",
        "32 Krümelkojen",
    )
    assert themed.count("hotel", 12) == "12 Kekskajüten"
    assert themed.money(1500, "EUR") == "1.500 Naschgeld"
    assert labels("en").with_terms(terms).money(1500, "EUR") == "1,500 Naschgeld"
    assert labels("de").with_terms({}) is labels("de")
    # In the panel's columns the heading names the money once, the figures stay short.
    assert (themed["cash"], themed.figure(1500, "EUR")) == ("Bargeld (Naschgeld)", "1.500")
    assert labels("de").figure(1500, "EUR") == "1.500 €"
    state = sample_state()
    plain = render_board(state, size=700)
    assert render_board(state, size=700, terms={}) == plain
    assert render_board(state, size=700, terms=terms) != plain
