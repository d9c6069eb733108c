"""docs/rules.md §6.3: winning a trick — following, ruffs, over-ruffs, ties."""

import pytest

from shengji_env.rules import decompose, ruff_strength, trick_points, trick_winner

from .conftest import cards, context

CTX = context(level="10", trump="H")


def winner(*plays, ctx=CTX):
    return trick_winner([cards(play) for play in plays], ctx)


def is_ruff(lead, play, ctx=CTX):
    return ruff_strength(decompose(cards(lead), ctx), cards(play), ctx) is not None


# The docs/rules.md examples use trump cards written without suits; trump is ♥ here.
@pytest.mark.parametrize(
    ("lead", "play", "expected"),
    [
        ("AS KS 5S 5S 4S 4S", "9H 9H 8H 8H 7H 2H", True),
        ("AS AS 5S 5S 4S 4S", "9H 9H 8H 8H 7H 2H", False),
        ("AS KS", "3H 3H", True),  # a trump pair ruffs two plain singles
        ("AS AS QS QS", "3H 3H 4H 4H", True),  # a trump tractor ruffs two plain pairs
        ("AS AS", "3H 4H", False),  # no pair: a discard
        ("AS AS", "3H 3D", False),  # not all trump
        ("5S 4S 4S", "9H 7H 7H", True),
        ("5S 5S 4S 4S", "9H 9H 7H 7H", False),  # the tractor needs a tractor
        ("5S 5S 4S 4S", "AH AH 10S 10S", True),  # across the trump ladder
    ],
)
def test_ruff_needs_the_lead_shape(lead, play, expected):
    assert is_ruff(lead, play) is expected


def test_over_ruff_is_compared_by_the_largest_component():
    # against 544: 977 ruffs, 884 over-ruffs (88 > 77; singles do not matter)
    assert winner("5S 4S 4S", "9H 7H 7H", "8H 8H 4H") == 2
    # against 567: 977 ruffs, 884 does not over-ruff (9 > 8)
    assert winner("5S 6S 7S", "9H 7H 7H", "8H 8H 4H") == 1


def test_several_largest_components_compare_the_highest_part():
    assert winner("AS AS QS QS", "3H 3H 4H 4H", "5H 5H 7H 7H") == 2
    assert winner("AS AS QS QS", "5H 5H 7H 7H", "3H 3H 6H 6H") == 1


def test_ties_go_to_the_earlier_play():
    assert winner("AS", "AS", "3S", "2S") == 0
    assert winner("3S", "4H", "4H") == 1  # equal ruffs: the first stands
    assert winner("3H", "10S", "10D", "2S") == 1  # off-suit level cards are equal


def test_following_beats_only_with_the_lead_shape_and_a_higher_rank():
    assert winner("3S", "5S", "4S", "AS") == 3
    assert winner("3S 3S", "AS KS", "4S 4S") == 2  # two singles do not beat a pair
    assert winner("3S 3S 4S 4S", "AS AS 9S 9S", "6S 6S 7S 7S") == 2
    assert winner("3S 3S 4S 4S", "AS AS KS KS", "6S 6S 7S 7S") == 1


def test_a_throw_cannot_be_beaten_in_its_suit_but_can_be_ruffed():
    assert winner("AS KS", "2S 3S", "QS JS") == 0
    assert winner("AS KS", "2S 3S", "2H 3H") == 2


def test_a_ruff_beats_following_plays_and_a_discard_cannot_win():
    assert winner("3S", "2H", "AS") == 1
    assert winner("3S", "AD", "KC") == 0
    assert winner("3S 3S", "2H 3D", "4S 4S") == 2  # the mixed play is a discard


def test_trump_lead_is_followed_not_ruffed():
    assert winner("3H", "AS", "SJ", "BJ") == 3
    assert winner("3H 3H", "SJ 4H", "5H 5H") == 2


def test_trick_points():
    assert trick_points([cards("5S"), cards("10H"), cards("KD"), cards("AC")]) == 25


@pytest.mark.parametrize(
    ("level", "trump", "options"),
    [("10", "H", {}), ("2", "S", {}), ("5", None, {}), ("2", "C", {"twos_always_trump": True})],
)
def test_single_card_tricks_take_the_general_path_s_answer(level, trump, options):
    # trick_winner answers single-card leads by a shortcut; it must agree with the general
    # comparison (shapes, ruffs, over-ruffs) on every kind of single-card trick
    import random

    from shengji_env.rules.cards import NUM_CARD_TYPES
    from shengji_env.rules.trick import _structured_winner

    ctx = context(level=level, trump=trump, **options)
    rng = random.Random(7)
    for _ in range(5000):
        plays = [(rng.randrange(NUM_CARD_TYPES),) for _ in range(rng.randint(1, 4))]
        assert trick_winner(plays, ctx) == _structured_winner(plays, ctx), plays
