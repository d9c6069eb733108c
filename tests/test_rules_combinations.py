"""docs/rules.md §3: pairs, triples, tractors, titanics and the decomposition of throws."""

import pytest

from shengji_env.rules import decompose, format_cards, is_titanic, is_tractor

from .conftest import cards, context

LEVEL_10_H = context(level="10", trump="H")


@pytest.mark.parametrize(
    ("text", "ctx"),
    [
        ("KS KS QS QS", LEVEL_10_H),
        ("JS JS 9S 9S", LEVEL_10_H),  # 10 is not in the plain suit
        ("5S 5S 4S 4S 3S 3S", LEVEL_10_H),
        ("SJ SJ 10H 10H", LEVEL_10_H),
        ("10H 10H 10S 10S", LEVEL_10_H),
        ("10S 10S AH AH", LEVEL_10_H),
        ("10H 10H 10C 10C AH AH", LEVEL_10_H),
        ("BJ BJ SJ SJ", LEVEL_10_H),
        ("SJ SJ 10D 10D", context(level="10", trump=None)),
        ("2S 2S AH AH", context(level="10", trump="H", twos_always_trump=True)),
    ],
)
def test_tractors(text, ctx):
    assert is_tractor(cards(text), ctx)


@pytest.mark.parametrize(
    ("text", "ctx"),
    [
        ("5S 5S 4S", LEVEL_10_H),
        ("5S 4S 4S", LEVEL_10_H),
        ("5S 5S 3S 3S", LEVEL_10_H),
        ("JS JS QS", LEVEL_10_H),
        ("10S 10S 10D 10D", LEVEL_10_H),  # two pairs of off-suit 10s: equal rank
        ("JS JS 10S 10S", LEVEL_10_H),  # 10S is trump, JS is not
        ("AS AS 2S 2S", LEVEL_10_H),  # no wrap-around
        ("KS KS QH QH", LEVEL_10_H),  # two suits
        ("KS KS", LEVEL_10_H),  # one pair is no tractor
    ],
)
def test_not_tractors(text, ctx):
    assert not is_tractor(cards(text), ctx)


LEVEL_5_H = context(level="5", trump="H", decks=3)


@pytest.mark.parametrize(
    "text",
    [
        "3S 3S 3S 4S 4S 4S",
        "4S 4S 4S 6S 6S 6S",  # 5 is the level: 4 and 6 are adjacent
        "5S 5S 5S 5H 5H 5H",  # off-suit 5 triple + trump-5 triple
        "BJ BJ BJ SJ SJ SJ",
        "AH AH AH 5S 5S 5S",  # trump A + off-suit 5
        "5H 5H 5H SJ SJ SJ",
    ],
)
def test_titanics(text):
    assert is_titanic(cards(text), LEVEL_5_H)


def test_not_titanics():
    assert not is_titanic(cards("5S 5S 5S 6S 6S 6S"), LEVEL_5_H)  # 5 trump, 6 not
    no_trump = context(level="5", trump=None, decks=3)
    assert not is_titanic(cards("5S 5S 5S 5D 5D 5D"), no_trump)
    assert not is_titanic(cards("3S 3S 3S"), LEVEL_5_H)
    assert not is_tractor(cards("3S 3S 3S 4S 4S 4S"), LEVEL_5_H)


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        ("AS QS QS JS JS", ["QS QS JS JS", "AS"]),
        ("9S 8S 8S 4S 4S", ["8S 8S", "4S 4S", "9S"]),
        ("AS AS KS", ["AS AS", "KS"]),
        ("AS KS KS", ["KS KS", "AS"]),
        ("9S 9S 8S 8S 6S 6S 5S 5S 4S 4S", ["6S 6S 5S 5S 4S 4S", "9S 9S 8S 8S"]),
        ("KS KS QS QS 9S 9S 8S 8S", ["KS KS QS QS", "9S 9S 8S 8S"]),  # ties to higher rank
    ],
)
def test_decomposition(text, expected):
    parts = decompose(cards(text), LEVEL_10_H)
    assert [format_cards(part.cards) for part in parts] == expected


def test_decomposition_takes_triples_first():
    parts = decompose(cards("7S 7S 7S 6S 6S 6S 5S 5S 4S"), context(level="10", decks=3))
    assert [(p.kind, p.length) for p in parts] == [("titanic", 2), ("pair", 1), ("single", 1)]


def test_component_kinds():
    kinds = [p.kind for p in decompose(cards("AS AS AS KS KS QS QS 9S"), context(decks=3))]
    assert kinds == ["triple", "tractor", "single"]
