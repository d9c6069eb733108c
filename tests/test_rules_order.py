"""docs/rules.md §2 and §2.1: trump membership and order, high to low."""

import pytest

from shengji_env.rules import TRUMP, parse_cards

from .conftest import context


def ranking(ctx, text):
    """The cards of ``text`` grouped by rank key, high to low (ties in one group)."""
    groups: dict[int, list[str]] = {}
    for token, card in zip(text.split(), parse_cards(text), strict=True):
        groups.setdefault(ctx.rank_key(card), []).append(token)
    return [sorted(groups[key]) for key in sorted(groups, reverse=True)]


def test_trump_order_without_permanent_twos():
    ctx = context(level="10", trump="H")
    text = "BJ SJ 10H 10S 10D 10C AH KH QH JH 9H 8H 7H 6H 5H 4H 3H 2H"
    assert ranking(ctx, text) == [
        ["BJ"], ["SJ"], ["10H"], ["10C", "10D", "10S"], ["AH"], ["KH"], ["QH"], ["JH"],
        ["9H"], ["8H"], ["7H"], ["6H"], ["5H"], ["4H"], ["3H"], ["2H"],
    ]  # fmt: skip
    assert all(ctx.is_trump(card) for card in parse_cards(text))


def test_trump_order_with_permanent_twos():
    ctx = context(level="10", trump="H", twos_always_trump=True)
    text = "BJ SJ 10H 10S 10D 10C 2H 2S 2D 2C AH KH QH JH 9H 3H"
    assert ranking(ctx, text) == [
        ["BJ"], ["SJ"], ["10H"], ["10C", "10D", "10S"], ["2H"], ["2C", "2D", "2S"],
        ["AH"], ["KH"], ["QH"], ["JH"], ["9H"], ["3H"],
    ]  # fmt: skip
    assert all(ctx.is_trump(card) for card in parse_cards(text))
    assert not ctx.is_trump(parse_cards("3S")[0])


def test_no_trump_order():
    ctx = context(level="10", trump=None)
    assert ranking(ctx, "BJ SJ 10H 10S 10D 10C") == [["BJ"], ["SJ"], ["10C", "10D", "10H", "10S"]]
    assert not ctx.is_trump(parse_cards("AH")[0])
    ctx2 = context(level="10", trump=None, twos_always_trump=True)
    assert ranking(ctx2, "BJ SJ 10H 10S 2H 2C") == [
        ["BJ"], ["SJ"], ["10H", "10S"], ["2C", "2H"],
    ]  # fmt: skip


@pytest.mark.parametrize("twos", [False, True])
def test_plain_suit_skips_the_level_rank(twos):
    ctx = context(level="10", trump="H", twos_always_trump=twos)
    text = "AS KS QS JS 9S 8S 7S 6S 5S 4S 3S" + ("" if twos else " 2S")
    expected = [[token] for token in text.split()]
    assert ranking(ctx, text) == expected
    keys = [ctx.rank_key(card) for card in parse_cards(text)]
    assert keys == list(range(len(keys) - 1, -1, -1)), "plain ranks are consecutive keys"
    assert all(ctx.suit_of(card) == 0 for card in parse_cards(text))


def test_level_two_with_permanent_twos_is_the_ordinary_level_order():
    ctx = context(level="2", trump="S", twos_always_trump=True)
    assert ranking(ctx, "BJ SJ 2S 2H AS 3S") == [["BJ"], ["SJ"], ["2S"], ["2H"], ["AS"], ["3S"]]


def test_effective_suit_of_trump_cards():
    ctx = context(level="10", trump="H")
    for text in ["BJ", "SJ", "10S", "10H", "2H", "AH"]:
        assert ctx.suit_of(parse_cards(text)[0]) == TRUMP
    assert ctx.suit_of(parse_cards("AD")[0]) == 2
