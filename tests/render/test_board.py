"""The board image: what it shows, that text fits, caching, size and independence from Discord."""

from __future__ import annotations

import subprocess
import sys
from datetime import UTC, datetime, timedelta, timezone
from importlib import resources
from io import BytesIO

import pytest
from PIL import Image, ImageDraw, ImageStat

from bot.engine.board import available_boards, load_board
from render import board as board_module
from render.assets import Palette, font, labels, palette, themes
from render.board import (
    DEFAULT_SIZE,
    display_names,
    draw_board,
    fitted_names,
    format_deadline,
    jail_labels,
    owner_badge_centre,
    owner_badge_diameter,
    place_pins,
    place_tokens,
    player_initials,
    render_board,
    static_layer,
)
from render.layout import board_layout
from render.text import ELLIPSIS, fit_text, wrap
from tests.render.states import crowded_state, empty_state, late_game_state, mid_game_state

MAX_PNG_BYTES = 500 * 1024


def _close(a: tuple[int, ...], b: tuple[int, ...], tolerance: int = 40) -> bool:
    return all(abs(x - y) <= tolerance for x, y in zip(a, b, strict=False))


# -- no Discord, bundled assets --------------------------------------------------------


def test_render_package_does_not_import_discord() -> None:
    code = (
        "import sys\n"
        "import render, render.board, render.deed, render.compact, render.bench\n"
        "bad = sorted(m for m in sys.modules if m == 'discord' or m.startswith('discord.'))\n"
        "print(','.join(bad))\n"
    )
    result = subprocess.run(
        [sys.executable, "-c", code], capture_output=True, text=True, check=True
    )
    assert result.stdout.strip() == ""


def test_fonts_and_licence_are_bundled() -> None:
    folder = resources.files("render") / "fonts"
    names = {p.name for p in folder.iterdir()}
    assert {"DejaVuSans.ttf", "DejaVuSans-Bold.ttf", "DejaVuSansCondensed-Bold.ttf"} <= names
    assert "Bitstream" in (folder / "LICENSE-DejaVu.txt").read_text(encoding="utf-8")
    # Umlauts, ß and the euro sign have real glyphs (not the empty box of a missing one).
    f = font("condensed", 40)
    missing = f.getmask("\U000f0000").getbbox()
    for ch in "ÄÖÜäöüß€":
        assert f.getmask(ch).getbbox() != missing


def test_themes_have_every_colour() -> None:
    assert themes() == ["dark", "light"]
    light, dark = Palette("light"), Palette("dark")
    assert light.colours.keys() == dark.colours.keys()
    assert light.groups.keys() == dark.groups.keys()
    assert len(light.players) == len(dark.players) == 10
    assert len(set(light.players)) == 10
    board = load_board("de_euro")
    for group in board.groups:
        if board.squares[board.groups[group][0]].kind == "street":
            assert group in light.groups


def test_colour_overrides_apply() -> None:
    pal = palette("light", '{"groups": {"red": "#000001"}, "frame": "#000002"}')
    assert pal.group("red") == (0, 0, 1)
    assert pal["frame"] == (0, 0, 2)
    assert pal.group("green") == Palette("light").group("green")


def test_labels_and_money() -> None:
    de, en = labels("de"), labels("en")
    assert de.money(1500, "EUR") == "1.500 €"
    assert en.money(1500, "USD") == "$1,500"
    assert de.money(-20, "EUR") == "-20 €"
    assert de.count("house", 1) == "1 Haus"
    assert de.count("house", 28) == "28 Häuser"
    assert en.count("hotel", 12) == "12 hotels"


def test_both_languages_have_the_same_labels() -> None:
    import json

    raw = json.loads(
        (resources.files("render") / "data" / "labels.json").read_text(encoding="utf-8")
    )
    assert raw["de"].keys() == raw["en"].keys()
    assert raw["de"]["phase"].keys() == raw["en"]["phase"].keys()


def test_deadline_format() -> None:
    when = datetime(2025, 3, 14, 18, 5, tzinfo=UTC)
    assert format_deadline(when, labels("de")) == "Fr 14. Mär 18:05 UTC"
    assert format_deadline(when, labels("en")) == "Fri 14 Mar 18:05 UTC"
    berlin = datetime(2025, 3, 14, 19, 5, tzinfo=timezone(timedelta(hours=1), "MEZ"))
    assert format_deadline(berlin, labels("de")).endswith("19:05 MEZ")


# -- text fitting ------------------------------------------------------------------------


def test_fit_text_wraps_at_compound_endings() -> None:
    fitted = fit_text("Theaterstraße", 100, 70, max_size=19, min_size=13)
    assert fitted.lines == ("Theater-", "straße")
    assert fitted.size == 19 and not fitted.truncated


def test_fit_text_shrinks_before_splitting_a_word_twice() -> None:
    # Wide enough for "Einkommen-" at 17 px, not at 19 px.
    width = round(font("condensed", 17).getlength("Einkommen-")) + 1
    fitted = fit_text("Einkommensteuer", width, 70, max_size=19, min_size=13)
    assert fitted.lines == ("Einkommen-", "steuer")
    assert fitted.size == 17
    # With no room to shrink, three pieces at full size beat an ellipsis.
    fitted = fit_text("Einkommensteuer", width, 70, max_size=19, min_size=19)
    assert fitted.lines == ("Ein-", "kommen-", "steuer")


def test_fit_text_ends_with_an_ellipsis_when_nothing_fits() -> None:
    text = "Donaudampfschifffahrtsgesellschaftskapitänsmütze am Hafen von Hamburg"
    fitted = fit_text(text, 100, 40, max_size=19, min_size=13, max_lines=2)
    assert fitted.truncated
    assert fitted.lines[-1].endswith(ELLIPSIS)
    assert fitted.width <= 100 and fitted.height <= 40


def test_wrap_keeps_words_whole_when_they_fit() -> None:
    assert wrap("Münchner Straße", font("condensed", 19), 100) == ["Münchner", "Straße"]


@pytest.mark.parametrize("board_id", available_boards())
@pytest.mark.parametrize("lang", ["de", "en"])
def test_every_square_name_fits_at_the_default_size(board_id: str, lang: str) -> None:
    """No name is cut or overflows its box; every one keeps a legible size."""
    board = load_board(board_id)
    _, min_size = board_module._name_sizes(DEFAULT_SIZE)
    texts = fitted_names(board, lang=lang)
    assert {index for index, *_ in texts} == set(range(40))
    canvas = ImageDraw.Draw(Image.new("RGB", (DEFAULT_SIZE, DEFAULT_SIZE)))
    for index, text, fitted, box in texts:
        x0, y0, x1, y1 = box
        assert not fitted.truncated, (index, text, fitted.lines)
        assert fitted.size >= min_size, (index, text)
        assert fitted.width <= x1 - x0 and fitted.height <= y1 - y0, (index, text)
        # The drawn pixels, not just the advance widths, stay inside the box.
        top = y0 + (y1 - y0 - fitted.height) // 2
        for k, line in enumerate(fitted.lines):
            left, upper, right, lower = canvas.textbbox(
                ((x0 + x1) / 2, top + k * fitted.pitch), line, font=fitted.font, anchor="ma"
            )
            assert x0 <= left and right <= x1 and y0 <= upper and lower <= y1, (index, line)

        # Nothing was lost: the lines hold the whole name (plus hyphens at breaks).
        def letters(t: str) -> str:
            return t.replace("-", "").replace(" ", "")

        assert letters("".join(fitted.lines)) == letters(text), (index, text, fitted.lines)


@pytest.mark.parametrize("size", [700, 1000, 2000])
def test_names_never_overflow_at_other_sizes(size: int) -> None:
    long_names = {1: "Allerlängste Themenstraße am Rande der Welt", 39: "Ω" * 40}
    for board_id in available_boards():
        for _, _, fitted, box in fitted_names(load_board(board_id), names=long_names, size=size):
            assert fitted.width <= box[2] - box[0] and fitted.height <= box[3] - box[1]


def test_theme_names_replace_board_names() -> None:
    board = load_board("de_euro")
    names = display_names(board, {39: "Königsallee"})
    assert names[39] == "Königsallee" and names[37] == "Parkstraße"
    texts = {index: text for index, text, *_ in fitted_names(board, names={39: "Königsallee"})}
    assert texts[39] == "Königsallee"


def test_jail_labels() -> None:
    assert jail_labels("Gefängnis / Nur zu Besuch", labels("de")) == ("Gefängnis", "Nur zu Besuch")
    assert jail_labels("In Jail / Just Visiting", labels("en")) == ("In Jail", "Just Visiting")
    assert jail_labels("Knast", labels("de")) == ("Knast", "Nur zu Besuch")


# -- players and tokens ------------------------------------------------------------------


def test_player_initials_are_distinct_and_consistent() -> None:
    assert player_initials(["Anna", "Bernd", "Clara"]) == ["A", "B", "C"]
    assert player_initials(["Clara", "Chris", "Dana"]) == ["Cl", "Ch", "D"]
    assert player_initials(["Anna", "Andreas"]) == ["A1", "A2"]
    assert player_initials(["Player 1", "Player 2"]) == ["P1", "P2"]
    assert player_initials(["🎲🎲", "Émile"]) == ["?", "É"]
    names = [p.name for p in crowded_state().players]
    initials = player_initials(names)
    assert len(set(initials)) == len(initials)


@pytest.mark.parametrize("count", range(1, 11))
def test_tokens_stay_inside_their_box(count: int) -> None:
    box = (100, 200, 201, 248)
    d, centres = place_tokens(count, box, 36, 16)
    assert len(centres) == count
    assert 8 <= d <= 48
    for x, y in centres:
        assert box[0] + d / 2 - 1 <= x <= box[2] - d / 2 + 1
        assert box[1] + d / 2 - 1 <= y <= box[3] - d / 2 + 1
    # Overlapping is allowed when crowded, but no two tokens sit on the same spot.
    assert len({(round(x), round(y)) for x, y in centres}) == count


def _token_colour_at(image: Image.Image, centre: tuple[float, float], d: int) -> tuple:
    # Left of the initials, inside the coloured disc.
    return image.getpixel((round(centre[0] - d * 0.3), round(centre[1])))


def test_jailed_player_is_inside_the_cell_and_visitor_outside() -> None:
    state = mid_game_state()  # Jörg (seat 3) in jail, Bernd (seat 1) visiting
    image = draw_board(state)
    layout = board_layout(DEFAULT_SIZE)
    pal = palette("light")
    jail = layout.squares[10]
    smallest = max(8, round(layout.token_diameter * 0.6))
    d, centres = place_pins(1, jail.strip, layout.token_diameter, smallest)
    assert _close(_token_colour_at(image, centres[0], d), pal.player(3))
    cx0, cy0, cx1, cy1 = jail.cell
    assert cx0 <= centres[0][0] <= cx1 and cy0 <= centres[0][1] <= cy1
    d, centres = place_pins(1, jail.tokens, layout.token_diameter, smallest)
    assert _close(_token_colour_at(image, centres[0], d), pal.player(1))
    assert not cx0 <= centres[0][0] <= cx1


def test_owners_are_badges_not_bars() -> None:
    """An owned lot shows its owner's badge in the band; the rest of the band stays the
    neutral band colour, so an owner never looks like a colour group's bar."""
    state = mid_game_state()
    image = draw_board(state)
    layout = board_layout(DEFAULT_SIZE)
    pal = palette("light")
    d = owner_badge_diameter(layout)
    for square, seat in ((6, 0), (16, 1), (12, 2), (21, 3), (37, 3)):
        geo = layout.squares[square]
        cx, cy = owner_badge_centre(geo, layout)
        # Left of the initial, inside the disc.
        assert _close(image.getpixel((round(cx - d * 0.3), round(cy))), pal.player(seat), 8)
        x0, y0, x1, y1 = geo.band
        for x in (x0 + 3, x1 - 4):
            assert _close(image.getpixel((x, round(cy))), pal["square_alt"], 8), square
    # An unowned lot keeps its price band.
    x0, y0, x1, y1 = layout.squares[39].band
    assert _close(image.getpixel((x0 + 4, (y0 + y1) // 2)), pal["square_alt"], 8)


def test_mortgaged_lot_keeps_its_owner_readable() -> None:
    """The hatching never reaches the owner's badge: the band looks the same mortgaged or
    not, while the rest of the square is hatched. (Compared before the colour limit, which
    may round an edge pixel differently when the rest of the picture changes.)"""
    layout = board_layout(DEFAULT_SIZE)
    for square in (3, 37):  # a bottom-row street and a side-column one
        plain = mid_game_state()
        plain.mortgaged[square] = False
        mortgaged = mid_game_state()
        mortgaged.mortgaged[square] = True
        geo = layout.squares[square]
        a, b = board_module._draw_full(plain), board_module._draw_full(mortgaged)
        d = owner_badge_diameter(layout)
        cx, cy = owner_badge_centre(geo, layout)
        badge = (round(cx - d / 2), round(cy - d / 2), round(cx + d / 2), round(cy + d / 2))
        assert a.crop(badge).tobytes() == b.crop(badge).tobytes(), square
        assert a.crop(geo.band).tobytes() == b.crop(geo.band).tobytes(), square
        assert a.crop(geo.tokens).tobytes() != b.crop(geo.tokens).tobytes(), square


@pytest.mark.parametrize("count", range(1, 11))
def test_pins_stay_inside_their_box(count: int) -> None:
    """Pins (the pieces) keep head and point inside the token box; heads never coincide."""
    from render.sprites import PIN_TAIL

    for box in ((100, 200, 201, 248), (1260, 1260, 1420, 1310)):
        d, heads = place_pins(count, box, 36, 22)
        assert len(heads) == count
        for x, y in heads:
            assert box[0] + d / 2 - 1 <= x <= box[2] - d / 2 + 1
            assert box[1] + d / 2 - 1 <= y <= box[3] - d / 2 - round(d * PIN_TAIL) + 1
        assert len({(round(x), round(y)) for x, y in heads}) == count


def test_houses_and_hotels_are_drawn_on_the_bar() -> None:
    state = mid_game_state()
    image = draw_board(state)
    layout = board_layout(DEFAULT_SIZE)
    pal = palette("light")

    def count_colour(square: int, colour: tuple[int, int, int]) -> int:
        region = image.crop(layout.squares[square].strip)
        return sum(n for n, c in region.getcolors(100000) if _close(c, colour, 12))

    assert count_colour(6, pal["house"]) > count_colour(9, pal["house"]) > 0  # 3 vs 2 houses
    assert count_colour(16, pal["hotel"]) > 0  # the hotel
    assert count_colour(21, pal["house"]) == 0


def test_mortgaged_lot_is_marked() -> None:
    state = mid_game_state()
    image = draw_board(state)
    layout = board_layout(DEFAULT_SIZE)
    plain = image.crop(layout.squares[1].rect)  # Badstraße, owned, not mortgaged
    marked = image.crop(layout.squares[3].rect)  # Turmstraße, mortgaged
    stamp = palette("light")["stamp"]

    def stamp_pixels(region: Image.Image) -> int:
        return sum(n for n, c in region.getcolors(100000) if _close(c, stamp, 30))

    assert stamp_pixels(marked) > 50
    assert stamp_pixels(plain) == 0


# -- the whole picture ---------------------------------------------------------------------


@pytest.mark.parametrize(
    "build", [empty_state, mid_game_state, late_game_state, crowded_state], ids=lambda f: f.__name__
)
@pytest.mark.parametrize("theme", ["light", "dark"])
def test_png_is_valid_and_small(build, theme: str) -> None:  # noqa: ANN001 - a state builder
    data = render_board(build(), theme=theme, lang="en" if theme == "dark" else "de")
    assert data.startswith(b"\x89PNG\r\n\x1a\n")
    assert len(data) < MAX_PNG_BYTES
    image = Image.open(BytesIO(data))
    assert image.size == (DEFAULT_SIZE, DEFAULT_SIZE)


def test_dark_theme_is_dark() -> None:
    state = mid_game_state()
    light = ImageStat.Stat(draw_board(state, theme="light").convert("L")).mean[0]
    dark = ImageStat.Stat(draw_board(state, theme="dark").convert("L")).mean[0]
    assert dark < light / 2


def test_other_sizes_render() -> None:
    for size in (700, 1000, 2000):
        image = draw_board(late_game_state(), size=size, highlight_move=(20, 27))
        assert image.size == (size, size)


def test_static_layer_is_cached_and_never_drawn_on() -> None:
    board_module.clear_cache()
    state = mid_game_state()
    first = static_layer(state.board)
    snapshot = first.tobytes()
    draw_board(state)
    draw_board(state, highlight_move=(19, 24))
    assert static_layer(state.board) is first
    assert first.tobytes() == snapshot
    assert static_layer(state.board, names={1: "Erste Straße"}) is not first
    assert static_layer(state.board, theme="dark") is not first


def test_rendering_is_deterministic() -> None:
    state = late_game_state()
    board_module.clear_cache()
    cold = render_board(state, highlight_move=(20, 27))
    warm = render_board(state, highlight_move=(20, 27))
    assert cold == warm


def test_panel_shows_deadline_and_preset() -> None:
    state = mid_game_state()
    plain = draw_board(state)
    with_deadline = draw_board(state, deadline=datetime(2025, 3, 14, 18, 0, tzinfo=UTC))
    with_preset = draw_board(state, preset_label="Schnelles Spiel")
    centre = board_layout(DEFAULT_SIZE).centre
    assert plain.crop(centre).tobytes() != with_deadline.crop(centre).tobytes()
    assert plain.crop(centre).tobytes() != with_preset.crop(centre).tobytes()


def test_move_path_in_the_movers_colour() -> None:
    state = mid_game_state()  # Anna moved from Berliner Straße (19) to Opernplatz (24)
    image = draw_board(state, highlight_move=(19, 24))
    layout = board_layout(DEFAULT_SIZE)
    x, y = layout.squares[22].anchor  # the path passes square 22 on its way
    assert _close(image.getpixel((x, y)), palette("light").player(0), 10)
    backwards = draw_board(state, highlight_move=(27, 24))  # "go back three squares"
    x, y = layout.squares[26].anchor
    assert _close(backwards.getpixel((x, y)), palette("light").player(0), 10)
    x, y = layout.squares[30].anchor  # not the long way round
    assert not _close(backwards.getpixel((x, y)), palette("light").player(0), 10)


def test_game_over_shows_the_winner() -> None:
    state = late_game_state()
    state.phase = "over"
    state.winner = 0
    image = draw_board(state)
    assert image.size == (DEFAULT_SIZE, DEFAULT_SIZE)


def test_unknown_theme_or_language_is_an_error() -> None:
    state = empty_state()
    with pytest.raises(KeyError):
        render_board(state, theme="neon")
    with pytest.raises(KeyError):
        render_board(state, lang="fr")


@pytest.mark.parametrize("board_id", available_boards())
@pytest.mark.parametrize("players", [2, 6, 10])
def test_renders_simulated_games_at_any_stage(board_id: str, players: int) -> None:
    """States the engine really reaches (auctions, debts, bankruptcies) all draw."""
    from bot.engine.rules import Rules
    from render.bench import sample_state

    rules = Rules.from_preset("classic", board=board_id)
    for turns in (5, 80, 400):
        state = sample_state(players, seed=players, rules=rules, turns=turns)
        image = draw_board(state, lang="en", highlight_move=(0, state.players[0].position))
        assert image.size == (DEFAULT_SIZE, DEFAULT_SIZE)


def test_every_shipped_theme_name_fits() -> None:
    """Themes plug in through ``names``: their square names fit like the board's."""
    from bot.engine.themes import available_themes, load_theme

    for theme_id in available_themes():
        theme = load_theme(theme_id)
        board = load_board(theme.base_board)
        for index, text, fitted, box in fitted_names(board, names=theme.squares):
            assert not fitted.truncated, (theme_id, index, text)
            assert fitted.width <= box[2] - box[0] and fitted.height <= box[3] - box[1]


def test_a_theme_name_of_the_longest_allowed_length_never_overflows() -> None:
    from bot.engine.themes import MAX_NAME

    board = load_board("de_euro")
    longest = {i: ("Wortwortwort " * 5)[:MAX_NAME] for i in range(40)}
    for _, _, fitted, box in fitted_names(board, names=longest):
        assert fitted.width <= box[2] - box[0] and fitted.height <= box[3] - box[1]
