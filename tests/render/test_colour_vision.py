"""Player colours that everybody tells apart: normal vision and simulated dichromacies.

The simulation and distances are :mod:`render.colour_vision` (Machado et al. 2009 at
severity 1.0 in linear RGB, CIEDE2000). The thresholds are just under what the shipped
palettes reach (light: first six seats 26.1, all ten 15.2; dark: 21.7 and 12.1, each the
worst over the four visions); a palette change that brings two seats closer fails here.
"""

from __future__ import annotations

import pytest

from render import colour_vision as cv
from render.assets import Palette, themes
from render.badges import contrast_ratio, initial_colour

# Sharma, Wu and Dalal (2005), table 1: pairs 1, 7, 13, 17, 25 and 34.
SHARMA_PAIRS = [
    ((50.0, 2.6772, -79.7751), (50.0, 0.0, -82.7485), 2.0425),
    ((50.0, 0.0, 0.0), (50.0, -1.0, 2.0), 2.3669),
    ((50.0, 2.49, -0.001), (50.0, -2.49, 0.0009), 7.1792),
    ((50.0, 2.5, 0.0), (73.0, 25.0, -18.0), 27.1492),
    ((60.2574, -34.0099, 36.2677), (60.4626, -34.1751, 39.4387), 1.2644),
    ((22.7233, 20.0904, -46.6940), (23.0331, 14.9730, -42.5619), 2.0373),
]

# Smallest CIEDE2000 difference between two seats, under every vision (normal and the
# three simulated dichromacies): the first six seats (the card game's most, and most
# board games) and all ten.
SEAT_THRESHOLDS = {"light": (26.0, 15.0), "dark": (21.5, 12.0)}
GROUP_DISTANCE = 15.0  # normal vision: a player colour is no colour group's colour
HIGHLIGHT_DISTANCE = 15.0  # the halo of the player to move stays apart from every seat


@pytest.mark.parametrize(("a", "b", "expected"), SHARMA_PAIRS)
def test_ciede2000_matches_the_published_test_data(a, b, expected) -> None:  # noqa: ANN001
    assert cv.delta_e_2000(a, b) == pytest.approx(expected, abs=1e-4)
    assert cv.delta_e_2000(b, a) == pytest.approx(expected, abs=1e-4)


def test_lab_and_delta_e_76() -> None:
    white = cv.lab((255, 255, 255))
    assert white == pytest.approx((100.0, 0.0, 0.0), abs=1e-3)
    assert cv.lab((0, 0, 0)) == pytest.approx((0.0, 0.0, 0.0), abs=1e-6)
    # sRGB red in CIELAB (D65), as tabulated everywhere.
    assert cv.lab((255, 0, 0)) == pytest.approx((53.24, 80.09, 67.20), abs=0.01)
    assert cv.delta_e_76((50, 0, 0), (53, 4, 0)) == pytest.approx(5.0)


def test_simulation_keeps_greys_and_merges_red_with_green() -> None:
    """The matrices keep white and greys (rows sum to one) and make the classic
    confusions: red and green collapse for protanopes and deuteranopes, blue and green
    stay apart; tritanopes lose blue against green instead."""
    for vision in cv.DEFICIENCIES:
        assert cv.simulate((255, 255, 255), vision) == (255, 255, 255)
        r, g, b = cv.simulate((128, 128, 128), vision)
        assert max(r, g, b) - min(r, g, b) <= 1
    red, green = (200, 80, 40), (110, 130, 40)
    assert cv.distance(red, green) > 40
    for vision in ("protanopia", "deuteranopia"):
        assert cv.distance(red, green, vision) < 10
    assert cv.distance(red, green, "tritanopia") > 30
    # The light theme's brown and red groups: apart for normal vision, one for protanopes.
    brown, red_group = (138, 90, 52), (221, 42, 47)
    assert cv.distance(brown, red_group) > 20 > 2 > cv.distance(brown, red_group, "protanopia")
    assert cv.distance((40, 80, 200), (40, 160, 90), "deuteranopia") > 30
    assert cv.distance((0, 120, 255), (0, 170, 80), "tritanopia") < cv.distance(
        (0, 120, 255), (0, 170, 80)
    )
    with pytest.raises(KeyError):
        cv.simulate((1, 2, 3), "achromatopsia")


@pytest.mark.parametrize("theme", themes())
@pytest.mark.parametrize("vision", cv.VISIONS)
def test_seat_colours_are_apart_under_every_vision(theme: str, vision: str) -> None:
    first_six, all_ten = SEAT_THRESHOLDS[theme]
    players = Palette(theme).players
    assert len(players) == 10
    distance, i, j = cv.closest_pair(players[:6], vision)
    assert distance >= first_six, (theme, vision, i, j, distance)
    distance, i, j = cv.closest_pair(players, vision)
    assert distance >= all_ten, (theme, vision, i, j, distance)


@pytest.mark.parametrize("theme", themes())
def test_seat_colours_keep_away_from_the_groups_and_the_highlight(theme: str) -> None:
    pal = Palette(theme)
    for seat, colour in enumerate(pal.players):
        for group, bar in pal.groups.items():
            assert cv.distance(colour, bar) >= GROUP_DISTANCE, (theme, seat, group)
        assert cv.distance(colour, pal["highlight"]) >= HIGHLIGHT_DISTANCE, (theme, seat)


@pytest.mark.parametrize("theme", themes())
def test_initials_read_on_every_seat_colour(theme: str) -> None:
    """The badge's initial (white or near-black, whichever reads better) has at least the
    contrast WCAG asks of normal text."""
    for colour in Palette(theme).players:
        assert contrast_ratio(colour, initial_colour(colour)) >= 4.5, colour


def test_worst_distance_is_the_smallest_over_visions() -> None:
    a, b = (221, 42, 47), (30, 158, 87)  # the light theme's red and green groups
    assert cv.worst_distance(a, b) == min(cv.distance(a, b, v) for v in cv.VISIONS)
    assert cv.worst_distance(a, b) < cv.distance(a, b)
