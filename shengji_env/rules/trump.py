"""Trump membership, effective suit and order of every card for one hand (docs/rules.md §2).

Order is computed once per hand into two tables indexed by card id: the effective
suit (0..3 for the plain suits, :data:`TRUMP` for trump) and a dense *rank key*
inside that suit. Keys are consecutive integers in the order of §2.1, so two
ranks are adjacent (for tractors and titanics, §3) exactly when their keys differ
by one, and cards of equal rank (copies, or off-suit level cards) share a key.
"""

from __future__ import annotations

import functools

from .cards import BIG_JOKER, NUM_CARD_TYPES, NUM_SUITS, RANKS, SMALL_JOKER, SUITS, make_card
from .cards import rank_index as to_rank_index
from .cards import suit_index as to_suit_index
from .config import RuleConfig

TRUMP = 4
"""The effective suit of every trump card; plain suits are 0..3 (♠ ♥ ♦ ♣)."""
NUM_EFFECTIVE_SUITS = 5


class TrumpContext:
    """Effective suit, order key and trump membership of every card for one hand.

    Args:
        config: the rule configuration (``twos_always_trump`` changes the order).
        level: the hand's level rank, ``"2"``..``"A"`` or a rank index.
        trump_suit: ``"S"``, ``"H"``, ``"D"``, ``"C"`` (or an index), or ``None`` for no trump.
    """

    __slots__ = (
        "cards_by_suit",
        "config",
        "key_count",
        "level",
        "rank_keys",
        "suits",
        "trump_suit",
        "twos_permanent",
    )

    def __init__(self, config: RuleConfig, level: str | int, trump_suit: str | int | None) -> None:
        self.config = config
        self.level = to_rank_index(level)
        self.trump_suit = None if trump_suit is None else to_suit_index(trump_suit)
        self.twos_permanent = config.twos_always_trump and self.level != 0
        tiers_by_suit = [*self._plain_tiers(), self._trump_tiers()]
        suits = [0] * NUM_CARD_TYPES
        keys = [0] * NUM_CARD_TYPES
        for suit, tiers in enumerate(tiers_by_suit):
            for key, tier in enumerate(tiers):
                for card in tier:
                    suits[card] = suit
                    keys[card] = key
        self.suits: tuple[int, ...] = tuple(suits)
        self.rank_keys: tuple[int, ...] = tuple(keys)
        self.key_count: tuple[int, ...] = tuple(len(tiers) for tiers in tiers_by_suit)
        self.cards_by_suit: tuple[tuple[int, ...], ...] = tuple(
            tuple(card for tier in tiers for card in tier) for tiers in tiers_by_suit
        )

    def _is_ordinary_rank(self, rank: int) -> bool:
        return rank != self.level and not (self.twos_permanent and rank == 0)

    def _plain_tiers(self) -> list[list[list[int]]]:
        return [
            [[make_card(rank, suit)] for rank in range(len(RANKS)) if self._is_ordinary_rank(rank)]
            if suit != self.trump_suit
            else []
            for suit in range(NUM_SUITS)
        ]

    def _trump_tiers(self) -> list[list[int]]:
        """Trump from low to high, one list of equal cards per rank (§2.1)."""
        trump = self.trump_suit
        tiers: list[list[int]] = []
        if trump is not None:
            tiers += [
                [make_card(rank, trump)]
                for rank in range(len(RANKS))
                if self._is_ordinary_rank(rank)
            ]
        for rank in ([0] if self.twos_permanent else []) + [self.level]:
            off_suit = [make_card(rank, suit) for suit in range(NUM_SUITS) if suit != trump]
            tiers.append(off_suit)
            if trump is not None:
                tiers.append([make_card(rank, trump)])
        return [*tiers, [SMALL_JOKER], [BIG_JOKER]]

    def is_trump(self, card: int) -> bool:
        return self.suits[card] == TRUMP

    def suit_of(self, card: int) -> int:
        """Effective suit: 0..3 for a plain suit, :data:`TRUMP` (4) for trump."""
        return self.suits[card]

    def rank_key(self, card: int) -> int:
        """Order inside the effective suit; higher is stronger, equal ranks share a key."""
        return self.rank_keys[card]

    def sort_key(self, card: int) -> tuple[int, int, int]:
        """Display order: by effective suit (trump last), then rank, then card id."""
        return (self.suits[card], self.rank_keys[card], card)

    def __eq__(self, other: object) -> bool:
        if not isinstance(other, TrumpContext):
            return NotImplemented
        return (self.config, self.level, self.trump_suit) == (
            other.config,
            other.level,
            other.trump_suit,
        )

    def __hash__(self) -> int:
        return hash((self.config, self.level, self.trump_suit))

    def __repr__(self) -> str:
        suit = None if self.trump_suit is None else SUITS[self.trump_suit]
        return f"TrumpContext(level={RANKS[self.level]!r}, trump_suit={suit!r})"


@functools.lru_cache(maxsize=1024)
def trump_context(config: RuleConfig, level: int, trump_suit: int | None) -> TrumpContext:
    """The (immutable) :class:`TrumpContext` of a hand, built once per distinct rules,
    level and trump and shared after that."""
    return TrumpContext(config, level, trump_suit)
