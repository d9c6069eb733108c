"""docs/rules.md §6.1: leads, throws and failed throws."""

import pytest

from shengji_env.rules import check_throw, failed_throw_penalty, format_cards

from .conftest import cards, context

CTX = context(level="10", trump="H")
EMPTY = ["3D", "4D", "5D"]


def forced(lead, others, ctx=CTX):
    result = check_throw(cards(lead), [cards(hand) for hand in others], ctx)
    return None if result is None else format_cards(result)


@pytest.mark.parametrize("lead", ["AS AS KS", "AS KS KS", "AS QS QS JS JS", "9S 8S 8S 4S 4S"])
def test_throws_of_the_highest_cards_stand(lead):
    assert forced(lead, EMPTY) is None


@pytest.mark.parametrize(
    ("holding", "expected"),
    [
        ("JS", "9S"),  # only the single is beatable
        ("5S 5S", "4S 4S"),  # only the pair 44
        ("QS QS", "4S 4S"),  # all three beatable; 44 has the lowest top
    ],
)
def test_failed_throw_98844(holding, expected):
    assert forced("9S 8S 8S 4S 4S", ["3D", holding, "4D"]) == expected


def test_a_combination_always_stands():
    assert forced("5S 5S 4S 4S", ["AS AS KS KS"]) is None
    assert forced("3S", ["AS"]) is None


def test_pairs_inside_triples_and_shorter_runs_inside_longer_ones_count():
    ctx3 = context(decks=3)
    assert forced("AS KS KS", ["QS QS QS"], ctx3) is None  # QQQ pair < KK
    assert forced("AS 5S 5S", ["7S 7S 7S"], ctx3) == "5S 5S"
    # a 3-pair run holds a higher 2-pair run than the thrown tractor 5544
    assert forced("AS 5S 5S 4S 4S", ["9S 9S 8S 8S 7S 7S"]) == "5S 5S 4S 4S"
    assert forced("AS 5S 5S 4S 4S", ["9S 9S 7S 7S"]) is None  # pairs, but no run


def test_equal_cards_are_not_higher_and_partner_counts():
    assert forced("AS QS", ["3D", "QS", "4D"]) is None  # an equal Q is not higher
    assert forced("AS QS", ["3D", "KS", "4D"]) == "QS"  # the partner (seat 2) counts too


def test_trump_throw_ties_go_to_fewer_cards_then_suit_order():
    # trump H, level 10: 10S and 10D share a rank; 10S 10S + 10D both beatable by the 10H pair
    # holder; lowest top is equal, fewer cards first: the single 10D.
    assert forced("10S 10S 10D", ["10H 10H"]) == "10D"
    assert forced("10D 10S", ["10H"]) == "10S"  # equal tops and sizes: ♠ before ♦


def test_penalty_per_returned_card():
    assert failed_throw_penalty(cards("9S 8S 8S 4S 4S"), cards("4S 4S"), 10) == 30
    assert failed_throw_penalty(cards("AS KS"), cards("KS"), 0) == 0
