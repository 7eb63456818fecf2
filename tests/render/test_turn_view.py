"""The turn's picture (render.turn_view): readable on a phone, the right way, honest alt text."""

from __future__ import annotations

from io import BytesIO
from pathlib import Path
from typing import Any

import pytest
from PIL import Image

from bot import turn_story
from bot.engine.board import load_board
from bot.engine.state import HOTEL, GameState
from bot.i18n import money
from render.assets import colours_key, palette
from render.turn_view import (
    TurnFocus,
    describe_turn_view,
    draw_turn_view,
    render_turn_view,
    turn_view_fonts,
    turn_view_plan,
)
from render.turn_view.layout import MARGIN, SHOWN_WIDTH
from render.turn_view.path import Item, collapse, passed_go, route, walked
from tests.engine.conftest import act, game, owned
from tests.render.make_turn_view_golden import CASES, render_case
from tests.render.states import _game, late_game_state, mid_game_state
from tests.render.test_golden import BLOCK_LIMIT, MEAN_LIMIT, compare

GOLDEN_DIR = Path(__file__).resolve().parent / "golden"
#: The smallest text a player must read, in px as Discord shows the picture on a phone.
READABLE = 9
#: A theme's square name as long as themes allow (bot.engine.themes.MAX_NAME).
LONG_THEME_NAME = "Untergrundauktion der Yorknew City Mafia"
NAMES = [
    "Maximilian-Alexander",
    "Anna",
    "Andreas",
    "Chloé",
    "Jörg",
    "Bea",
    "Bernd",
    "Friedrich Wilhelm",
    "Gül",
    "Zoë-Marie Sonnenschein",
]


def _players(n: int) -> GameState:
    """``n`` players on the German board, with lots, houses and a mortgage on the way."""
    state = _game(NAMES[:n])
    for square, seat, houses in ((12, 1, 0), (13, 0, 3), (14, 0, HOTEL), (16, 1, 4), (3, 1, 0)):
        state.owner[square] = seat % n
        state.houses[square] = houses
    state.mortgaged[12] = True
    state.players[1].in_jail = True
    state.players[1].position = 10
    if n > 2:
        state.players[2].bankrupt = True
    return state


# Turns whose stretch holds German's longest names (Elektrizitätswerk, Gemeinschaftsfeld,
# Gehe in das Gefängnis, Einkommensteuer), a jump, a fold and a turn not thrown yet.
FOCUSES = {
    "walk": TurnFocus(0, 12, 11, ((11, 17, "forward"),), ((3, 3),)),
    "jail": TurnFocus(0, 12, 26, ((26, 30, "forward"), (30, 10, "jump")), ((1, 3),)),
    "go": TurnFocus(0, 12, 33, ((33, 4, "forward"),), ((5, 6),)),
    "ahead": TurnFocus(0, 12, 2),
}


def _focus(record: dict[str, Any]) -> TurnFocus:
    """A turn record (bot.turn_story) as the picture takes it (as cogs.ui.turn does)."""
    return TurnFocus(
        mover=record["seat"],
        turn=record["turn"],
        start=record["start"],
        moves=tuple((a, b, how) for a, b, how in record["moves"]),
        dice=tuple((a, b) for a, b in record["dice"]),
    )


def _played(state: GameState, seat: int, dice: list[int]) -> TurnFocus:
    """The focus of ``seat`` throwing ``dice`` in ``state`` (the real engine and record)."""
    record = turn_story.begin(seat, state.turn, state.players[seat].position)
    for event in act(state, "roll", seat, dice=dice):
        turn_story.follow(record, event)
    return _focus(turn_story.settle(record, state))


def _kinds(items: list[Item]) -> list[str]:
    return [item.kind if item.kind != "square" else item.role for item in items]


# -- readability --------------------------------------------------------------------------


@pytest.mark.parametrize("players", [2, 4, 6, 10])
@pytest.mark.parametrize("lang", ["de", "en"])
@pytest.mark.parametrize("themed", [False, True])
def test_texts_are_readable_at_the_width_discord_shows(
    players: int, lang: str, themed: bool
) -> None:
    """Every square name, owner, standings text and amount is at least 9 px as shown."""
    state = _players(players)
    names = {i: LONG_THEME_NAME for i in range(40)} if themed else None
    terms = {"currency": "Naschgeld", "house": "Krümelkoje"} if themed else None
    width = 800
    for focus in FOCUSES.values():
        fonts = turn_view_fonts(state, focus, lang=lang, names=names, terms=terms, width=width)
        for category in ("square_names", "owners", "standings", "money"):
            shown = fonts[category] * SHOWN_WIDTH / width
            assert shown >= READABLE, (category, fonts[category], focus)


def test_fonts_scale_with_the_width() -> None:
    state = _players(4)
    focus = FOCUSES["walk"]
    small = turn_view_fonts(state, focus, width=800)
    large = turn_view_fonts(state, focus, width=1200)
    for category in ("square_names", "owners", "standings", "money"):
        assert large[category] * 400 / 1200 >= READABLE
        assert large[category] >= small[category]


def test_the_us_board_is_readable_too() -> None:
    state = late_game_state()
    focus = TurnFocus(1, 143, 20, ((20, 27, "forward"),), ((6, 1),))
    fonts = turn_view_fonts(state, focus, lang="en")
    assert min(fonts[k] for k in ("square_names", "owners", "standings", "money")) >= 18


# -- size and layout ----------------------------------------------------------------------


@pytest.mark.parametrize("players", [2, 4, 6, 10])
def test_the_picture_is_as_wide_as_asked_and_no_taller_than_needed(players: int) -> None:
    state = _players(players)
    for focus in FOCUSES.values():
        image = Image.open(BytesIO(render_turn_view(state, focus)))
        assert image.width == 800
        limit = 0.8 if players <= 6 else 0.85
        assert 400 <= image.height <= limit * image.width


@pytest.mark.parametrize("name", sorted(FOCUSES))
def test_tiles_stay_inside_the_picture_and_never_overlap(name: str) -> None:
    state = _players(6)
    plan = turn_view_plan(state, FOCUSES[name])
    assert plan.tiles
    assert plan.tiles[0].x0 >= MARGIN
    assert plan.tiles[-1].x1 <= plan.width - MARGIN
    for left, right in zip(plan.tiles, plan.tiles[1:], strict=False):
        assert left.x1 < right.x0
    for tile in plan.tiles:
        if tile.item.kind == "square":
            assert tile.name is not None and tile.name.width <= tile.x1 - tile.x0


def test_a_different_width_scales_the_whole_picture() -> None:
    image = draw_turn_view(mid_game_state(), FOCUSES["walk"], width=1200)
    assert image.width == 1200
    assert image.height == pytest.approx(
        draw_turn_view(mid_game_state(), FOCUSES["walk"]).height * 1.5, abs=8
    )


# -- the way the mover went ---------------------------------------------------------------


def test_a_forward_move_shows_every_square_crossed() -> None:
    state = game(players=[{"position": 19}, {}])
    focus = _played(state, 0, [3, 2])
    assert focus.moves == ((19, 24, "forward"),)
    items = [t.item for t in turn_view_plan(state, focus).tiles]
    assert [i.square for i in items] == [19, 20, 21, 22, 23, 24]
    assert _kinds(items) == ["start", "pass", "pass", "pass", "pass", "landing"]


def test_passing_go_folds_the_middle_and_says_salary() -> None:
    state = game(players=[{"position": 34}, {}])
    focus = _played(state, 0, [3, 4])
    assert focus.moves == ((34, 1, "forward"),)
    items = [t.item for t in turn_view_plan(state, focus).tiles]
    assert items[0].square == 34 and items[-1].square == 1 and items[-1].role == "landing"
    skips = [i for i in items if i.kind == "skip"]
    assert len(skips) == 1
    # GO is either folded (the fold carries the salary) or shown as a paid square.
    assert skips[0].salary or any(i.square == 0 and i.salary for i in items)
    assert passed_go(items)
    shown = sum(i.count if i.kind == "skip" else 1 for i in items)
    assert shown == 8  # every square of the way, folded or not
    alt = describe_turn_view(state, focus)
    assert "Über LOS: 200 € Gehalt." in alt


def test_a_long_way_folds_into_one_skip_with_the_landing_and_its_neighbours_kept() -> None:
    board = load_board("de_euro")
    focus = TurnFocus(0, 1, 9, ((9, 16, "forward"),), ((4, 3),))

    def fits(items: list[Item]) -> bool:
        return len(items) <= 6

    items = collapse(route(focus, board), fits)
    assert _kinds(items) == ["start", "pass", "skip", "pass", "pass", "landing"]
    assert [i.square for i in items if i.kind == "square"] == [9, 10, 14, 15, 16]
    assert items[2].count == 3


def test_a_card_moving_back_shows_a_back_marker() -> None:
    chance = load_board("de_euro").decks["chance"]
    back = next(c.id for c in chance if c.effect["type"] == "move_back")
    state = game(players=[{"position": 2}, {}], decks={"chance": [back]})
    focus = _played(state, 0, [2, 3])
    assert focus.moves == ((2, 7, "forward"), (7, 4, "backward"))
    items = [t.item for t in turn_view_plan(state, focus).tiles]
    kinds = _kinds(items)
    assert kinds[-3:] == ["stop", "back", "landing"]
    assert items[-2].count == 3 and items[-1].square == 4
    alt = describe_turn_view(state, focus, lang="en")
    assert "3 squares back to Einkommensteuer" in alt
    assert "Pay €200" in alt


def test_a_card_moving_forward_is_a_jump_with_the_salary_for_passing_go() -> None:
    chance = load_board("de_euro").decks["chance"]
    trip = next(c.id for c in chance if c.effect.get("target") == 5)  # to Südbahnhof
    state = game(players=[{"position": 33}, {}], decks={"chance": [trip]})
    focus = _played(state, 0, [1, 2])
    assert focus.moves == ((33, 36, "forward"), (36, 5, "forward"))
    items = [t.item for t in turn_view_plan(state, focus).tiles]
    assert _kinds(items) == ["start", "pass", "pass", "stop", "jump", "landing"]
    assert items[-2].role == "card" and items[-2].salary
    assert items[-1].square == 5
    alt = describe_turn_view(state, focus)
    assert "per Karte nach Südbahnhof" in alt
    assert "Über LOS: 200 € Gehalt." in alt


def test_forward_moves_are_matched_to_the_throws() -> None:
    focus = TurnFocus(
        0, 1, 1, ((1, 7, "forward"), (7, 11, "forward"), (11, 19, "forward")), ((3, 3), (4, 4))
    )
    # 6 pips walk to the Ereignisfeld, a card sends the mover on 4, then 8 pips walk.
    assert walked(focus) == [True, False, True]
    assert walked(TurnFocus(0, 1, 1, ((1, 7, "forward"),))) == [True]


def test_a_trip_to_jail_is_a_jump_and_the_jail_says_so() -> None:
    state = game(players=[{"position": 27}, {}])
    focus = _played(state, 0, [1, 2])
    assert focus.moves == ((27, 30, "forward"), (30, 10, "jump"))
    plan = turn_view_plan(state, focus)
    kinds = _kinds([t.item for t in plan.tiles])
    assert kinds[-3:] == ["stop", "jump", "landing"]
    landing = plan.tiles[-1]
    assert landing.item.square == 10
    assert " ".join(landing.name.lines) == "Gefängnis"
    # A visitor reads "Nur zu Besuch" on the same square.
    state.players[0].in_jail = False
    landing = turn_view_plan(state, focus).tiles[-1]
    assert " ".join(landing.name.lines) == "Nur zu Besuch"


def test_before_the_first_throw_the_squares_ahead_are_shown_without_a_landing() -> None:
    state = mid_game_state()
    focus = TurnFocus(0, 38, 24)
    items = [t.item for t in turn_view_plan(state, focus).tiles]
    assert items[0].role == "here" and items[0].square == 24
    assert all(i.role == "ahead" for i in items[1:])
    assert [i.count for i in items[1:]] == list(range(1, len(items)))
    assert len(items) >= 5
    # No frame in the mover's colour round a landing square.
    image = draw_turn_view(state, focus)
    plan = turn_view_plan(state, focus)
    colour = palette("light").player(0)
    last = plan.tiles[-1]
    frame = image.crop((last.x1 - 2, plan.tile_top, last.x1 + 3, plan.tile_bottom))
    assert colour not in [c for _, c in frame.getcolors(10_000)]
    assert "Noch nicht gewürfelt" in describe_turn_view(state, focus)


def test_a_throw_in_jail_without_a_move_shows_the_jail() -> None:
    state = mid_game_state()
    state.players[0].position = 10
    state.players[0].in_jail = True
    focus = TurnFocus(0, 37, 10, (), ((1, 2),))
    plan = turn_view_plan(state, focus)
    assert [(t.item.square, t.item.role) for t in plan.tiles] == [(10, "landing")]


def test_doubles_are_called_out_and_no_dice_are_shown_before_the_throw() -> None:
    state = mid_game_state()
    pal = palette("light")
    plain = TurnFocus(0, 37, 19, ((19, 24, "forward"),), ((3, 2),))
    double = TurnFocus(0, 37, 18, ((18, 24, "forward"),), ((3, 3),))

    def yellow(focus: TurnFocus) -> int:
        header = draw_turn_view(state, focus).crop((400, 0, 800, 60))
        return sum(n for n, c in header.getcolors(100_000) if c == pal["highlight"])

    assert yellow(double) > 20 and yellow(plain) == 0
    assert "3 + 3 = 6 (Pasch)" in describe_turn_view(state, double)
    assert "doubles" in describe_turn_view(state, double, lang="en")
    # Before the throw, no stale dice of the turn before (state.last_dice is [3, 2]).
    dice_colour = pal["die"]
    header = draw_turn_view(state, TurnFocus(0, 38, 24)).crop((600, 0, 800, 60))
    assert all(c != dice_colour for _, c in header.getcolors(100_000))


# -- owners and mortgages -----------------------------------------------------------------


def _tile_colours(image: Image.Image, plan: Any, square: int) -> dict[tuple[int, int, int], int]:
    tile = next(t for t in plan.tiles if t.item.kind == "square" and t.item.square == square)
    crop = image.crop((tile.x0, plan.tile_top, tile.x1, plan.tile_bottom))
    return {c: n for n, c in crop.getcolors(1_000_000)}


@pytest.mark.parametrize("theme", ["light", "dark"])
def test_a_mortgaged_lot_keeps_its_owner_readable(theme: str) -> None:
    state = game(
        players=[{"position": 5}, {}],
        lots={**owned(1, 3, mortgaged=True), **owned(1, 1)},
    )
    focus = TurnFocus(0, 3, 0, ((0, 5, "forward"),), ((2, 3),))
    image = draw_turn_view(state, focus, theme=theme)
    plan = turn_view_plan(state, focus)
    pal = palette(theme, colours_key(None))
    owner = pal.player(1)
    mortgaged = _tile_colours(image, plan, 3)
    unmortgaged = _tile_colours(image, plan, 1)
    # The badge's disc shows in full colour on the mortgaged lot, as on the other one.
    assert mortgaged.get(owner, 0) > 300
    assert mortgaged[owner] >= 0.8 * unmortgaged.get(owner, 0)
    # And the mortgage is marked (the stamp's colour), which the other lot is not.
    assert mortgaged.get(pal["stamp"], 0) > 20
    assert unmortgaged.get(pal["stamp"], 0) == 0


def test_rent_due_on_the_landing_square_names_the_owner() -> None:
    state = game(
        players=[{"position": 9}, {}],
        lots=owned(1, 16, 18, 19, houses=0) | {16: {"owner": 1, "hotel": True}},
    )
    focus = TurnFocus(0, 5, 9, ((9, 16, "forward"),), ((4, 3),))
    alt = describe_turn_view(state, focus)
    rent = state.board.squares[16].rents[5]
    assert f"Miete {money('de', rent)} an Player 2" in alt


# -- alt text -----------------------------------------------------------------------------


@pytest.mark.parametrize("lang", ["de", "en"])
def test_alt_text_tells_the_turn_and_the_standings(lang: str) -> None:
    state = mid_game_state()
    state.players[0].position = 16
    focus = TurnFocus(0, 37, 9, ((9, 16, "forward"),), ((4, 3),))
    alt = describe_turn_view(state, focus, lang=lang)
    assert len(alt) <= 1024
    assert "Anna" in alt and "37" in alt
    assert "4 + 3 = 7" in alt
    assert "Münchner Straße" in alt
    for player in state.players:
        assert player.name in alt
        assert money(lang, player.cash) in alt
    assert money(lang, 950) in alt  # the hotel's rent, to Bernd
    assert "\n" not in alt


def test_alt_text_uses_the_theme_and_stays_within_discords_limit() -> None:
    state = _game([f"{name} mit einem sehr langen Namen" for name in NAMES])
    focus = TurnFocus(0, 3, 0, ((0, 6, "forward"),), ((3, 3),))
    alt = describe_turn_view(
        state, focus, names={6: "Krümelgasse"}, terms={"currency": "Naschgeld"}
    )
    assert len(alt) <= 1024
    assert "Krümelgasse" in alt
    assert "1.500 Naschgeld" in alt


# -- golden images -------------------------------------------------------------------------


@pytest.mark.parametrize("name", sorted(CASES))
def test_matches_golden_image(name: str) -> None:
    path = GOLDEN_DIR / f"{name}.png"
    assert path.exists(), f"missing {path}: run python -m tests.render.make_turn_view_golden"
    actual = Image.open(BytesIO(render_case(name))).convert("RGB")
    expected = Image.open(path).convert("RGB")
    assert actual.size == expected.size
    mean, block = compare(actual, expected)
    assert mean < MEAN_LIMIT and block < BLOCK_LIMIT, (
        f"{name} differs from its golden image (mean {mean:.2f}, block {block}); if the "
        f"change is intended, look at it and run python -m tests.render.make_turn_view_golden"
    )
