"""docs/rules.md notation and §1: cards, decks, points, hand and kitty sizes."""

import pytest

from shengji_env.rules import (
    BIG_JOKER,
    SMALL_JOKER,
    RuleConfig,
    format_cards,
    make_card,
    make_deck,
    parse_cards,
    points_of,
)


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        ("2S", [make_card(0, 0)]),
        ("10H", [make_card(8, 1)]),
        ("TH", [make_card(8, 1)]),
        ("10♥", [make_card(8, 1)]),
        ("AS", [make_card(12, 0)]),
        ("2C", [make_card(0, 3)]),
        ("kd", [make_card(11, 2)]),
        ("SJ BJ", [SMALL_JOKER, BIG_JOKER]),
        ("10H, SJ,BJ", [make_card(8, 1), SMALL_JOKER, BIG_JOKER]),
        ("", []),
    ],
)
def test_parse(text, expected):
    assert parse_cards(text) == expected


def test_format_round_trip_of_every_card():
    deck = make_deck(1)
    assert parse_cards(format_cards(deck)) == deck
    assert parse_cards(format_cards(deck, symbols=True)) == deck
    assert format_cards(parse_cards("10H SJ BJ")) == "10H SJ BJ"
    assert format_cards(parse_cards("10H AS"), symbols=True) == "10♥ A♠"


@pytest.mark.parametrize("token", ["1X", "11H", "ZZ", "H10", "J", "10", "BJJ", "10HH"])
def test_malformed_card_names_the_token_and_the_format(token):
    with pytest.raises(ValueError) as error:
        parse_cards(f"AS {token} KH")
    message = str(error.value)
    assert repr(token) in message
    assert "expected a rank" in message and "SJ / BJ" in message


@pytest.mark.parametrize("decks", [1, 2, 3])
def test_deck_points_and_sizes(decks):
    config = RuleConfig(decks=decks)
    deck = make_deck(decks)
    assert len(deck) == 54 * decks
    assert points_of(deck) == 100 * decks == config.total_points
    assert 4 * config.hand_size + config.kitty_size == len(deck)


@pytest.mark.parametrize(("decks", "hand", "kitty"), [(1, 12, 6), (2, 25, 8), (3, 39, 6)])
def test_hand_and_kitty_sizes(decks, hand, kitty):
    config = RuleConfig(decks=decks)
    assert (config.hand_size, config.kitty_size) == (hand, kitty)


@pytest.mark.parametrize(
    ("card", "points"), [("5S", 5), ("10D", 10), ("KC", 10), ("QH", 0), ("BJ", 0)]
)
def test_point_cards(card, points):
    assert points_of(parse_cards(card)) == points
