"""docs/rules.md §4: declaration strengths, overturns and the deal with bid decisions."""

import pytest

from shengji_env.rules import (
    Bid,
    Game,
    IllegalMoveError,
    Phase,
    RuleConfig,
    bid_strength,
    legal_bids,
    parse_cards,
)
from shengji_env.rules.cards import rank_index

from .conftest import cards, deck_for

TEN = rank_index("10")


@pytest.mark.parametrize(
    ("decks", "ladder"),
    [
        (1, ["10H", "SJ BJ"]),
        (2, ["10H", "10H 10H", "SJ SJ", "BJ BJ"]),
        (3, ["10H", "10H 10H", "SJ SJ", "BJ BJ", "10H 10H 10H", "SJ SJ SJ", "BJ BJ BJ"]),
    ],
)
def test_strength_ladder(decks, ladder):
    strengths = [bid_strength(cards(text), TEN, decks) for text in ladder]
    assert None not in strengths
    assert strengths == sorted(strengths) and len(set(strengths)) == len(strengths)


@pytest.mark.parametrize(
    ("decks", "text"),
    [
        (2, "9H"),  # not a level card
        (2, "10H 10S"),  # level cards of two suits
        (2, "SJ"),  # a lone joker
        (2, "SJ BJ"),  # the 1-deck no-trump bid only
        (1, "SJ"),
        (3, "SJ BJ"),
    ],
)
def test_not_declarations(decks, text):
    assert bid_strength(cards(text), TEN, decks) is None


def test_overturn_needs_strictly_stronger():
    standing = Bid(seat=1, cards=tuple(cards("10H 10H")), strength=2, trump_suit=1)
    hand = cards("10S 10S 10D SJ SJ 3C")
    options = legal_bids(hand, TEN, 2, standing)
    assert options == [tuple(cards("SJ SJ"))]  # a pair of 10S is only equal
    weakest = legal_bids(hand, TEN, 2, None)[:2]
    assert sorted(weakest) == sorted([tuple(cards("10S")), tuple(cards("10D"))])


def test_reinforce_is_a_stronger_declaration_by_the_holder():
    standing = Bid(seat=0, cards=tuple(cards("10H")), strength=1, trump_suit=1)
    assert tuple(cards("10H 10H")) in legal_bids(cards("10H 10H"), TEN, 2, standing)


ONE_DECK_HANDS = [
    "2S 3S 4S 5S 6S 7S 8S 9S 10S JS QS KS",
    "AS 2H 3H 4H 5H 6H 7H 8H 9H 10H JH QH",
    "KH AH 2D 3D 4D 5D 6D 7D 8D 9D 10D JD",
    "QD KD AD 2C 3C 4C 5C 6C 7C 8C 9C 10C",
]


def one_deck_game(hands=ONE_DECK_HANDS, kitty="JC QC KC AC SJ BJ", **options):
    config = RuleConfig(decks=1, **options)
    return Game(config, deck=deck_for(hands, kitty))


def test_first_hand_first_declarer_deals_and_sets_trump():
    game = one_deck_game()  # level 2: seat 0 gets 2S first
    assert game.phase is Phase.BID and game.current_player == 0 and game.dealt == 1
    game.declare(cards("2S"))
    assert game.dealer == 0
    while game.phase is Phase.BID:  # everybody else passes
        game.declare([])
    assert game.dealer == 0 and game.ctx is not None and game.ctx.trump_suit == 0
    assert game.phase is Phase.BURY and game.current_player == 0
    assert len(game.hand(0)) == 12 + 6


def test_nobody_declares_no_trump_and_seat_zero_deals():
    game = one_deck_game()
    while game.phase is Phase.BID:
        game.declare([])
    assert game.dealer == 0 and game.ctx is not None and game.ctx.trump_suit is None


def test_players_without_a_legal_bid_are_not_asked_and_final_round_goes_dealer_first():
    game = one_deck_game()
    asked = []
    while game.phase is Phase.BID:
        asked.append((game.current_player, game.dealt))
        game.declare([])
    # seat 0 holds 2S from card 1; seat 1 gets 2H with its second card (card 6), seat 2 2D
    # (card 11), seat 3 2C (card 16); then the final round from seat 0 (no dealer yet).
    assert asked[0] == (0, 1)
    assert (1, 6) in asked and (2, 11) in asked and (3, 16) in asked
    assert asked[-4:] == [(0, 48), (1, 48), (2, 48), (3, 48)]


def test_overturn_in_the_final_round_keeps_the_first_declarer_as_dealer():
    game = one_deck_game()
    game.declare(cards("2S"))
    while game.dealt < 48:
        game.declare([])
    # final round: seat 0 (the dealer) first, then 1, 2, 3; nobody holds both jokers.
    assert game.phase is Phase.BURY
    assert game.dealer == 0


def test_one_deck_joker_overturn():
    hands = list(ONE_DECK_HANDS)
    hands[1] = "AS 2H 3H 4H 5H 6H 7H 8H 9H 10H SJ BJ"
    game = one_deck_game(hands=hands, kitty="JC QC KC AC JH QH")
    game.declare(cards("2S"))
    while game.phase is Phase.BID and game.current_player != 1:
        game.declare([])
    while game.phase is Phase.BID and cards("SJ BJ") not in [list(b) for b in game.legal_bids()]:
        game.declare([])
    assert game.current_player == 1
    game.declare(cards("SJ BJ"))
    while game.phase is Phase.BID:
        game.declare([])
    assert game.dealer == 0 and game.ctx is not None and game.ctx.trump_suit is None
    assert game.bid is not None and game.bid.seat == 1


def test_illegal_declarations_raise_and_change_nothing():
    hands = list(ONE_DECK_HANDS)
    hands[1] = "AS 2H 3H 4H 5H 6H 7H 8H 9H 10H SJ BJ"
    game = one_deck_game(hands=hands, kitty="JC QC KC AC JH QH")
    with pytest.raises(IllegalMoveError, match="§4"):
        game.declare(cards("3S"))
    with pytest.raises(IllegalMoveError, match="only cards in the hand"):
        game.declare(cards("2H"))
    game.declare(cards("2S"))
    while game.current_player != 1:
        game.declare([])
    snapshot = (game.dealt, list(game.bids), [list(hand) for hand in game.hands])
    with pytest.raises(IllegalMoveError, match="strictly stronger"):
        game.declare(cards("2H"))
    assert snapshot == (game.dealt, list(game.bids), [list(hand) for hand in game.hands])
    assert parse_cards("2S") == list(game.bid.cards)
