"""Declarations (亮主), their strength, and the overturns they allow (docs/rules.md §4).

A declaration shows level cards or jokers. Its strength, low to high:

* 1 deck [decision]: one level card < SJ + BJ (no trump).
* 2 decks: one level card < two identical level cards < SJ pair < BJ pair (no trump).
* 3 decks: one level card < two identical level cards < SJ pair < BJ pair (no trump)
  < three identical level cards < three SJ < three BJ (no trump).

Every change must be strictly stronger than the standing declaration, whoever
makes it (自保, 自反, 反主 and 反无主 are all this one rule), so the first
declaration at a strength stands.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from functools import lru_cache

from .cards import BIG_JOKER, NUM_SUITS, SMALL_JOKER, make_card, rank_of, suit_of
from .patterns import counts_by_type

_STRENGTHS: dict[int, dict[tuple[str, int], int]] = {
    1: {("level", 1): 1, ("jokers", 2): 2},
    2: {("level", 1): 1, ("level", 2): 2, ("SJ", 2): 3, ("BJ", 2): 4},
    3: {
        ("level", 1): 1,
        ("level", 2): 2,
        ("SJ", 2): 3,
        ("BJ", 2): 4,
        ("level", 3): 5,
        ("SJ", 3): 6,
        ("BJ", 3): 7,
    },
}


@dataclass(frozen=True, slots=True)
class Bid:
    """A declaration: who made it, the cards shown, their strength and the trump it sets."""

    seat: int
    cards: tuple[int, ...]
    strength: int
    trump_suit: int | None


def bid_card_types(level: int) -> frozenset[int]:
    """The card types a declaration can show at ``level``: the level cards and jokers."""
    return frozenset(
        {make_card(level, suit) for suit in range(NUM_SUITS)} | {SMALL_JOKER, BIG_JOKER}
    )


def _bid_kind(cards: Sequence[int], level: int) -> tuple[str, int] | None:
    counts = counts_by_type(cards)
    if len(counts) == 2 and counts.get(SMALL_JOKER) == 1 and counts.get(BIG_JOKER) == 1:
        return ("jokers", 2)
    if len(counts) != 1:
        return None
    card, count = next(iter(counts.items()))
    if card == SMALL_JOKER:
        return ("SJ", count)
    if card == BIG_JOKER:
        return ("BJ", count)
    return ("level", count) if rank_of(card) == level else None


def bid_strength(cards: Sequence[int], level: int, decks: int) -> int | None:
    """Strength of showing ``cards`` as a declaration, or ``None`` if it is no declaration."""
    kind = _bid_kind(cards, level)
    return None if kind is None else _STRENGTHS[decks].get(kind)


def bid_trump(cards: Sequence[int]) -> int | None:
    """The trump suit a declaration sets: the suit of its level cards; jokers: no trump."""
    return None if cards[0] >= SMALL_JOKER else suit_of(cards[0])


def candidate_bids(hand: Iterable[int], level: int, decks: int) -> list[tuple[int, ...]]:
    """Every declaration that ``hand`` could show, weakest first."""
    counts = counts_by_type(hand)
    shown: list[tuple[int, ...]] = []
    for card in [make_card(level, suit) for suit in range(NUM_SUITS)] + [SMALL_JOKER, BIG_JOKER]:
        for copies in range(1, counts.get(card, 0) + 1):
            shown.append((card,) * copies)
    if counts.get(SMALL_JOKER) and counts.get(BIG_JOKER):
        shown.append((SMALL_JOKER, BIG_JOKER))
    strengths = {cards: bid_strength(cards, level, decks) for cards in shown}
    valid = [cards for cards in shown if strengths[cards] is not None]
    return sorted(valid, key=lambda cards: (strengths[cards], cards))


def legal_bids(
    hand: Iterable[int], level: int, decks: int, standing: Bid | None
) -> list[tuple[int, ...]]:
    """The declarations ``hand`` may make now: strictly stronger than ``standing``."""
    floor = 0 if standing is None else standing.strength
    shown = tuple(sorted(card for card in hand if card >= SMALL_JOKER or rank_of(card) == level))
    return list(_stronger_bids(shown, level, decks, floor))


@lru_cache(maxsize=4096)
def _stronger_bids(
    shown: tuple[int, ...], level: int, decks: int, floor: int
) -> tuple[tuple[int, ...], ...]:
    return tuple(
        cards
        for cards in candidate_bids(shown, level, decks)
        if (bid_strength(cards, level, decks) or 0) > floor
    )
