"""Cards as ints, decks, the text format of docs/rules.md and point values.

A *card* is a card type id in ``0..53``: ``suit * 13 + rank`` for the 52 suited
cards (suits ♠ ♥ ♦ ♣ = 0..3, ranks ``2``..``A`` = 0..12), then ``SJ`` = 52 and
``BJ`` = 53. With several decks the copies of one type are the same int; a hand
is a multiset (a list with repeats, or a count per type). Strings appear only
at the edges: :func:`parse_cards` and :func:`format_cards` (docs/rules.md, notation).
"""

from __future__ import annotations

from collections.abc import Iterable

SUITS = "SHDC"
SUIT_SYMBOLS = "♠♥♦♣"
RANKS = ("2", "3", "4", "5", "6", "7", "8", "9", "10", "J", "Q", "K", "A")
NUM_SUITS = 4
NUM_RANKS = 13
SMALL_JOKER = 52
BIG_JOKER = 53
NUM_CARD_TYPES = 54
DECK_POINTS = 100

_RANK_ALIASES = {"T": "10"}
_JOKERS = {"SJ": SMALL_JOKER, "BJ": BIG_JOKER}
_POINTS_BY_RANK = {"5": 5, "10": 10, "K": 10}


def make_card(rank: int, suit: int) -> int:
    """The card of ``rank`` (0 = ``2`` … 12 = ``A``) and ``suit`` (0 = ♠ … 3 = ♣)."""
    if not 0 <= rank < NUM_RANKS or not 0 <= suit < NUM_SUITS:
        raise ValueError(f"no card with rank index {rank} and suit index {suit}")
    return suit * NUM_RANKS + rank


def is_joker(card: int) -> bool:
    return card >= SMALL_JOKER


def rank_of(card: int) -> int:
    """Rank index of a suited card (0 = ``2`` … 12 = ``A``); -1 for jokers."""
    return -1 if card >= SMALL_JOKER else card % NUM_RANKS


def suit_of(card: int) -> int:
    """Printed suit index of a suited card (0 = ♠ … 3 = ♣); -1 for jokers."""
    return -1 if card >= SMALL_JOKER else card // NUM_RANKS


def rank_index(rank: str | int) -> int:
    """Rank index from ``"2"``..``"A"`` (``"T"`` for 10) or from an index already."""
    if isinstance(rank, int):
        if not 0 <= rank < NUM_RANKS:
            raise ValueError(f"rank index {rank} is outside 0..12 (2..A)")
        return rank
    text = _RANK_ALIASES.get(rank.upper(), rank.upper())
    if text not in RANKS:
        raise ValueError(f"unknown rank {rank!r}; expected one of {', '.join(RANKS)}")
    return RANKS.index(text)


def suit_index(suit: str | int) -> int:
    """Suit index from ``"S"``/``"H"``/``"D"``/``"C"`` or ♠♥♦♣, or an index already."""
    if isinstance(suit, int):
        if not 0 <= suit < NUM_SUITS:
            raise ValueError(f"suit index {suit} is outside 0..3 (S, H, D, C)")
        return suit
    if len(suit) == 1 and suit in SUIT_SYMBOLS:
        return SUIT_SYMBOLS.index(suit)
    if len(suit) == 1 and suit.upper() in SUITS:
        return SUITS.index(suit.upper())
    raise ValueError(f"unknown suit {suit!r}; expected one of S, H, D, C or ♠ ♥ ♦ ♣")


def card_points(card: int) -> int:
    """Points of one card: 5s score 5, 10s and Ks score 10 (docs/rules.md §1)."""
    if card >= SMALL_JOKER:
        return 0
    return _POINTS_BY_RANK.get(RANKS[card % NUM_RANKS], 0)


POINTS: tuple[int, ...] = tuple(card_points(c) for c in range(NUM_CARD_TYPES))


def points_of(cards: Iterable[int]) -> int:
    return sum(POINTS[c] for c in cards)


def make_deck(decks: int) -> list[int]:
    """All cards of ``decks`` full decks (54 each), in id order."""
    return [card for card in range(NUM_CARD_TYPES) for _ in range(decks)]


def parse_card(token: str) -> int:
    """One card from its text, e.g. ``"10H"``, ``"TH"``, ``"10♥"``, ``"SJ"``."""
    if not isinstance(token, str):
        raise ValueError(f"a card is a string such as '10H' or 'SJ', not {type(token).__name__}")
    known = _CARD_IDS.get(token)  # the canonical text: one lookup
    if known is not None:
        return known
    text = token.strip()
    if text.upper() in _JOKERS:
        return _JOKERS[text.upper()]
    if len(text) < 2:
        raise ValueError(_bad_token(token))
    try:
        return make_card(rank_index(text[:-1]), suit_index(text[-1]))
    except ValueError:
        raise ValueError(_bad_token(token)) from None


def _bad_token(token: str) -> str:
    return (
        f"malformed card {token!r}: expected a rank 2-10, J, Q, K, A (or T for 10) followed "
        "by a suit S, H, D, C (or ♠ ♥ ♦ ♣), or a joker SJ / BJ"
    )


def parse_cards(text: str | Iterable[str]) -> list[int]:
    """Cards from text such as ``"10H SJ BJ"`` (whitespace or commas between cards).

    Raises:
        ValueError: naming the malformed token and what is accepted.
    """
    if isinstance(text, str):
        tokens = text.replace(",", " ").split()
    elif isinstance(text, Iterable):
        tokens = list(text)
    else:
        raise ValueError(f"cards are a string or a list of strings, not {type(text).__name__}")
    return [parse_card(token) for token in tokens]


def format_card(card: int, symbols: bool = False) -> str:
    if card == SMALL_JOKER:
        return "SJ"
    if card == BIG_JOKER:
        return "BJ"
    if not 0 <= card < SMALL_JOKER:
        raise ValueError(f"card id {card} is outside 0..53")
    suits = SUIT_SYMBOLS if symbols else SUITS
    return RANKS[card % NUM_RANKS] + suits[card // NUM_RANKS]


_CARD_IDS = {format_card(card): card for card in range(NUM_CARD_TYPES)}


def format_cards(cards: Iterable[int], symbols: bool = False) -> str:
    """Text of cards in the given order, e.g. ``"10H SJ BJ"``; ♠♥♦♣ with ``symbols``."""
    return " ".join(format_card(card, symbols) for card in cards)
