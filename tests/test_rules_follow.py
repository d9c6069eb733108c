"""docs/rules.md §6.2: following — suit first, then as much of the lead's shape as the hand has."""

import pytest

from shengji_env.rules import decompose, is_legal_follow, legal_plays

from .conftest import cards, context

CTX = context(level="10", trump="H")
CTX3 = context(level="10", trump="H", decks=3)
CTX3_TRIPLES_FIRST = context(level="10", trump="H", decks=3, titanic_follow_order="triples_first")


def legal(lead, hand, play, ctx=CTX):
    return is_legal_follow(cards(lead), cards(hand), cards(play), ctx)


# (lead, hand, play, legal?) — §6.2 rules 1 and 2, two decks, level 10, trump H.
FOLLOWS = [
    # rule 1: suit
    ("AS", "3S 4D", "3S", True),
    ("AS", "3S 4D", "4D", False),
    ("AS AS", "3S 4D 5C", "3S 4D", True),  # fewer than needed: all of them, then anything
    ("AS AS", "3S 4D 5C", "4D 5C", False),
    ("AS", "4D 5H", "5H", True),  # void: ruff or discard freely
    ("AS", "4D 5H", "4D", True),
    ("AH", "10S 3S", "10S", True),  # trump led: off-suit 10 is trump
    ("AH", "10S 3S", "3S", False),
    # rule 2: a pair needs a pair
    ("AS AS", "3S 3S 4S 6S", "3S 3S", True),
    ("AS AS", "3S 3S 4S 6S", "4S 6S", False),
    ("AS AS", "3S 4S 4S 5S 5S 6S", "4S 4S", True),  # pairs inside tractors count
    ("AS AS", "3S 4S 5S", "3S 5S", True),  # no pair: any two of the suit
    # a tractor needs a tractor, else pairs, else anything
    ("AS AS KS KS", "7S 7S 6S 6S 3S 3S", "7S 7S 6S 6S", True),
    ("AS AS KS KS", "7S 7S 6S 6S 3S 3S", "7S 7S 3S 3S", False),
    ("AS AS KS KS", "7S 7S 5S 5S 3S", "7S 7S 5S 5S", True),  # two pairs, no tractor
    ("AS AS KS KS", "7S 7S 5S 5S 3S", "7S 7S 5S 3S", False),
    ("AS AS KS KS", "7S 7S 5S 4S 3S", "7S 7S 5S 4S", True),  # one pair + anything
    ("AS AS KS KS", "7S 7S 5S 4S 3S", "7S 7S 4S 3S", True),
    ("AS AS KS KS", "7S 7S 5S 4S 3S", "7S 5S 4S 3S", False),
    # a shorter tractor against a longer one
    ("AS AS KS KS QS QS", "7S 7S 6S 6S 4S 4S 2S", "7S 7S 6S 6S 4S 4S", True),
    ("AS AS KS KS QS QS", "7S 7S 6S 6S 4S 4S 2S", "7S 7S 6S 6S 4S 2S", False),
    ("AS AS KS KS QS QS", "7S 7S 6S 6S 4S 4S 2S", "7S 7S 4S 4S 6S 2S", False),
    # several shorter tractors answer a longer one
    ("AS AS KS KS QS QS JS JS", "9S 9S 8S 8S 5S 5S 4S 4S 2S", "9S 9S 8S 8S 5S 5S 4S 4S", True),
    ("AS AS KS KS QS QS JS JS", "9S 9S 8S 8S 6S 6S 4S 4S 2S", "9S 9S 8S 8S 6S 6S 4S 4S", True),
    ("AS AS KS KS QS QS JS JS", "9S 9S 8S 8S 5S 5S 4S 4S 2S 3S", "9S 9S 8S 8S 5S 5S 3S 2S", False),
    # a throw is followed component by component, largest first
    ("AS KS KS QS QS", "9S 9S 8S 8S 3S 3S 2S", "9S 9S 8S 8S 2S", True),
    ("AS KS KS QS QS", "9S 9S 8S 8S 3S 3S 2S", "9S 9S 3S 3S 8S", False),
    ("AS AS JS JS", "9S 9S 7S 7S 2S", "9S 9S 7S 7S", True),
    ("AS AS JS JS", "9S 9S 7S 7S 2S", "9S 9S 7S 2S", False),
    # trump tractors across the ladder
    ("SJ SJ 10H 10H", "10S 10S AH AH 3H", "10S 10S AH AH", True),
    ("SJ SJ 10H 10H", "10S 10S AH AH 3H", "10S 10S AH 3H", False),
]


@pytest.mark.parametrize(("lead", "hand", "play", "expected"), FOLLOWS)
def test_follow(lead, hand, play, expected):
    assert legal(lead, hand, play) is expected


@pytest.mark.parametrize(
    ("hand", "play", "expected"),
    [
        ("7S 7S 7S 5S 3S", "7S 7S 7S", True),
        ("7S 7S 7S 5S 3S", "7S 7S 5S", False),
        ("7S 7S 5S 3S", "7S 7S 5S", True),  # a pair + a single
        ("7S 7S 5S 3S", "7S 5S 3S", False),
        ("7S 6S 5S 3S", "7S 6S 3S", True),  # singles
    ],
)
def test_three_decks_triple_led(hand, play, expected):
    assert legal("AS AS AS", hand, play, CTX3) is expected


TITANIC = "AS AS AS KS KS KS"
# §6.2 rule 3, tractor_first: the best option the hand allows, in the traditional order.
TITANIC_FOLLOWS = [
    ("9S 9S 9S 8S 8S 8S 2S", "9S 9S 9S 8S 8S 8S", True),  # a titanic
    ("9S 9S 9S 8S 8S 8S 2S", "9S 9S 8S 8S 8S 2S", False),
    ("9S 9S 8S 8S 6S 6S 6S 4S 4S 4S", "9S 9S 8S 8S 6S 4S", True),  # a tractor + any two
    ("9S 9S 8S 8S 6S 6S 6S 4S 4S 4S", "6S 6S 6S 4S 4S 4S", False),
    ("9S 9S 9S 6S 6S 6S 2S", "9S 9S 9S 6S 6S 6S", True),  # two triples
    ("9S 9S 9S 6S 6S 6S 2S", "9S 9S 9S 6S 6S 2S", False),
    ("9S 9S 9S 6S 6S 4S 4S 2S", "9S 9S 9S 6S 6S 2S", True),  # a triple + a pair + a single
    ("9S 9S 9S 6S 6S 4S 4S 2S", "9S 9S 6S 6S 4S 4S", False),
    ("9S 9S 9S 6S 4S 3S 2S", "9S 9S 9S 6S 4S 3S", True),  # a triple + three singles
    ("9S 9S 6S 6S 4S 4S 2S 3S", "9S 9S 6S 6S 2S 3S", True),  # two pairs + two singles
    ("9S 9S 6S 6S 4S 4S 2S 3S", "9S 9S 6S 4S 2S 3S", False),
    ("9S 9S 6S 5S 4S 3S 2S", "9S 9S 6S 5S 4S 3S", True),  # a pair + four singles
    ("9S 7S 6S 5S 4S 3S 2S", "9S 7S 6S 5S 4S 3S", True),  # six singles
]


@pytest.mark.parametrize(("hand", "play", "expected"), TITANIC_FOLLOWS)
def test_titanic_led_tractor_first(hand, play, expected):
    assert legal(TITANIC, hand, play, CTX3) is expected


def test_titanic_led_triples_first_prefers_two_triples_to_a_tractor():
    hand = "9S 9S 8S 8S 6S 6S 6S 4S 4S 4S"
    assert legal(TITANIC, hand, "6S 6S 6S 4S 4S 4S", CTX3_TRIPLES_FIRST)
    assert not legal(TITANIC, hand, "9S 9S 8S 8S 6S 4S", CTX3_TRIPLES_FIRST)
    # below two triples the order is the same as tractor_first
    hand2 = "9S 9S 8S 8S 6S 6S 6S 2S"
    assert legal(TITANIC, hand2, "9S 9S 8S 8S 6S 2S", CTX3_TRIPLES_FIRST)
    assert not legal(TITANIC, hand2, "6S 6S 6S 9S 9S 2S", CTX3_TRIPLES_FIRST)


def test_two_titanics_led_triples_first_share_the_triples_in_their_best_arrangement():
    """The example of §6.2 rule 3: four triples, two for each titanic, beat a greedy
    arrangement that puts three in the longer titanic and answers with the tractor."""
    ctx = context(level="2", trump="H", decks=3, titanic_follow_order="triples_first")
    lead = "JS JS JS QS QS QS KS KS KS 6S 6S 6S 7S 7S 7S"
    hand = "3S 3S 4S 4S 5S 5S 5S 8S 8S 8S 10S 10S 10S AS AS AS 9D"
    assert legal(lead, hand, "5S 5S 5S 8S 8S 8S 10S 10S 10S AS AS AS 3S 3S 4S", ctx)
    assert not legal(lead, hand, "3S 3S 4S 4S 5S 5S 5S 8S 8S 8S 10S 10S 10S AS AS", ctx)


def test_triples_are_broken_to_supply_pairs():
    assert legal("AS AS KS KS", "7S 7S 7S 6S 6S 6S 2S", "7S 7S 6S 6S", CTX3)
    assert not legal("AS AS KS KS", "7S 7S 7S 6S 6S 6S 2S", "7S 7S 7S 6S", CTX3)
    assert legal("AS AS", "7S 7S 7S 2S", "7S 7S", CTX3)


def test_wrong_size_and_cards_not_in_hand():
    assert not legal("AS AS", "3S 4S 5S", "3S")
    assert not legal("AS", "3S 4S", "5S")


@pytest.mark.parametrize(("lead", "hand", "play", "expected"), FOLLOWS)
def test_enumeration_agrees_with_the_check(lead, hand, play, expected):
    plays = legal_plays(cards(hand), cards(lead), CTX)
    as_sorted = {tuple(sorted(p)) for p in plays}
    assert len(as_sorted) == len(plays), "each play once"
    assert (tuple(sorted(cards(play))) in as_sorted) is expected
    assert all(is_legal_follow(cards(lead), cards(hand), p, CTX) for p in plays)


def test_lead_enumeration_lists_combinations_first_then_throws():
    hand = cards("AS AS KS KS 3S 5D")
    leads = [sorted(play) for play in legal_plays(hand, None, CTX)]
    combos = [p for p in leads if len(decompose(p, CTX)) == 1]
    assert leads[: len(combos)] == combos, "combinations come before throws"
    assert sorted(cards("AS AS KS KS")) in combos
    assert sorted(cards("AS AS KS KS 3S")) in leads  # a throw
    # every non-empty one-suit sub-multiset once: spades 3*3*2 - 1 = 17, diamonds 1
    assert len(leads) == 18 and len({tuple(p) for p in leads}) == 18
    assert len(legal_plays(hand, None, CTX, limit=5)) == 5


def test_follow_enumeration_when_short_of_the_suit():
    plays = legal_plays(cards("3S 4D 5C 6C"), cards("AS AS"), CTX)
    assert sorted(sorted(p) for p in plays) == sorted(
        sorted(cards(text)) for text in ["3S 4D", "3S 5C", "3S 6C"]
    )


def test_single_card_follows_are_every_card_of_the_suit_highest_first():
    # a single lead is answered by a shortcut: every distinct card of the suit, in the
    # trump order from the top, as the general enumeration orders them
    hand = cards("AS 10S 10S 3S 10H 2H KD 4C")
    plays = legal_plays(hand, cards("7S"), CTX)  # the 10s are trump at level 10
    assert plays == [[c] for c in cards("AS 3S")]
    trumps = legal_plays(hand, cards("5H"), CTX)  # trump led: 10s, 2H and the 10H are trump
    assert [p[0] for p in trumps] == sorted(
        set(cards("10S 10H 2H")), key=CTX.sort_key, reverse=True
    )
    assert all(is_legal_follow(cards("5H"), hand, p, CTX) for p in trumps)
