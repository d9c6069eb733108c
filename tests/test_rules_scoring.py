"""docs/rules.md §7 and §8: kitty multiplier, level bands, next dealer, match end."""

import pytest

from shengji_env.rules import RuleConfig, kitty_multiplier, level_change, next_dealer
from shengji_env.rules.scoring import raise_level

from .conftest import cards, context


@pytest.mark.parametrize(
    ("lead", "decks", "multiplier"),
    [
        ("AS", 2, 2),
        ("4S 4S", 2, 4),
        ("5S 5S 5S", 3, 8),
        ("4S 4S 5S 5S", 2, 16),
        ("4S 4S 5S 5S 6S 6S", 2, 64),
        ("4S 4S 4S 5S 5S 5S", 3, 64),
        ("AS KS QS JS 9S 8S 7S 7S", 2, 4),  # a throw: only its largest component
        ("AS KS QS JS", 2, 2),
        ("AS AS JS JS", 2, 4),
        ("4S 4S 5S 5S 6S 6S 7S 7S", 2, 64),  # capped
    ],
)
def test_kitty_multiplier(lead, decks, multiplier):
    assert kitty_multiplier(cards(lead), context(decks=decks)) == multiplier


def test_kitty_multiplier_cap_is_configurable():
    assert kitty_multiplier(cards("4S 4S 5S 5S"), context(kitty_multiplier_cap=8)) == 8


def band_table(band):
    """(attacker points, expected result) at every edge of §7's table for band B."""
    return [
        (-10, ("dealer", 3)),
        (0, ("dealer", 3)),
        (5, ("dealer", 2)),
        (band - 5, ("dealer", 2)),
        (band, ("dealer", 1)),
        (2 * band - 5, ("dealer", 1)),
        (2 * band, ("attackers", 0)),
        (3 * band - 5, ("attackers", 0)),
        (3 * band, ("attackers", 1)),
        (4 * band - 5, ("attackers", 1)),
        (4 * band, ("attackers", 2)),
        (5 * band, ("attackers", 3)),
    ]


@pytest.mark.parametrize("decks", [1, 2, 3])
def test_level_bands(decks):
    config = RuleConfig(decks=decks)
    assert config.band == {1: 20, 2: 40, 3: 60}[decks]
    for points, expected in band_table(config.band):
        assert level_change(points, config) == expected, points


@pytest.mark.parametrize(
    ("points", "expected"),
    [
        (0, ("dealer", 3)),
        (35, ("dealer", 2)),
        (40, ("dealer", 1)),
        (75, ("dealer", 1)),
        (80, ("attackers", 0)),
        (115, ("attackers", 0)),
        (120, ("attackers", 1)),
        (155, ("attackers", 1)),
        (160, ("attackers", 2)),
        (195, ("attackers", 2)),
        (200, ("attackers", 3)),
    ],
)
def test_two_deck_table_as_written(points, expected):
    assert level_change(points, RuleConfig(decks=2)) == expected


def test_three_deck_table_as_written():
    config = RuleConfig(decks=3)
    assert level_change(55, config) == ("dealer", 2)
    assert level_change(120, config) == ("attackers", 0)
    assert level_change(180, config) == ("attackers", 1)
    assert level_change(240, config) == ("attackers", 2)


@pytest.mark.parametrize(
    ("dealer", "kept", "expected"), [(0, True, 2), (3, True, 1), (0, False, 1), (3, False, 0)]
)
def test_next_dealer(dealer, kept, expected):
    assert next_dealer(dealer, kept) == expected


def test_levels_cap_at_ace_and_passing_it_wins():
    assert raise_level(10, 1) == (11, False)  # Q -> K
    assert raise_level(11, 1) == (12, False)  # K -> A
    assert raise_level(11, 2) == (12, True)  # passes A
    assert raise_level(12, 0) == (12, False)  # a bare take-over at A does not win
    assert raise_level(12, 1) == (12, True)
