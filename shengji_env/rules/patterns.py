"""Combinations and the decomposition of a play into components (docs/rules.md §3).

A *unit* is a group of identical cards (one card, a pair, a triple); a *run* is a
sequence of units of one multiplicity whose rank keys are consecutive in one
effective suit. A component is a run: a single, pair or triple (length 1), a
tractor (pairs, length >= 2) or a titanic (triples, length >= 2).

Decomposition [decision, §3]: highest multiplicity first; within a multiplicity
the longest run first, ties to the higher rank. Where several card types share a
rank key (off-suit level cards), a run takes the first suit in the order ♠ ♥ ♦ ♣.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from dataclasses import dataclass

from .cards import NUM_CARD_TYPES
from .trump import TrumpContext

_KIND_NAMES = {(1, False): "single", (2, False): "pair", (3, False): "triple"}


@dataclass(frozen=True, slots=True)
class Component:
    """One combination inside a play.

    Attributes:
        multiplicity: cards per unit (1 single, 2 pair, 3 triple).
        length: number of units in the run (>= 2 makes a tractor or titanic).
        cards: the cards, highest unit first.
        top_key: rank key of the highest unit.
        suit: the effective suit (``TRUMP`` for trump).
    """

    multiplicity: int
    length: int
    cards: tuple[int, ...]
    top_key: int
    suit: int

    @property
    def kind(self) -> str:
        if self.length >= 2:
            return "tractor" if self.multiplicity == 2 else "titanic"
        return _KIND_NAMES[(self.multiplicity, False)]

    @property
    def shape(self) -> tuple[int, int]:
        return (self.multiplicity, self.length)

    @property
    def size(self) -> int:
        return self.multiplicity * self.length


def largest_first_key(shape: tuple[int, int]) -> tuple[bool, int, int]:
    """Order of component shapes for §6.3 and §7: titanics (longest first), tractors,
    triple, pair, single."""
    multiplicity, length = shape
    return (length >= 2, multiplicity, length)


def counts_by_type(cards: Iterable[int]) -> dict[int, int]:
    counts: dict[int, int] = {}
    for card in cards:
        counts[card] = counts.get(card, 0) + 1
    return counts


def _longest_run(units: Sequence[int], ctx: TrumpContext) -> list[int]:
    """The longest run among ``units`` (card types, each usable once), ties to the
    higher top; returns its card types from the top down."""
    by_key: dict[int, int] = {}
    for card in sorted(units):
        by_key.setdefault(ctx.rank_keys[card], card)
    best: list[int] = []
    for key in sorted(by_key, reverse=True):
        if key + 1 in by_key:
            continue  # not the top of a maximal run
        run = []
        k = key
        while k in by_key:
            run.append(by_key[k])
            k -= 1
        if len(run) > len(best):
            best = run
    return best


def _decompose_suit(counts: dict[int, int], suit: int, ctx: TrumpContext) -> list[Component]:
    components: list[Component] = []
    for multiplicity in (3, 2):
        while True:
            units = [card for card, n in counts.items() if n >= multiplicity]
            if not units:
                break
            run = _longest_run(units, ctx)
            for card in run:
                counts[card] -= multiplicity
            cards = tuple(card for card in run for _ in range(multiplicity))
            components.append(Component(multiplicity, len(run), cards, ctx.rank_keys[run[0]], suit))
    singles = sorted(
        (card for card, n in counts.items() for _ in range(n)),
        key=lambda card: (-ctx.rank_keys[card], card),
    )
    components += [Component(1, 1, (card,), ctx.rank_keys[card], suit) for card in singles]
    return components


def decompose(cards: Sequence[int], ctx: TrumpContext) -> list[Component]:
    """Split cards into components (§3), grouped by effective suit in suit order."""
    if len(cards) == 1:
        (card,) = cards
        return [Component(1, 1, (card,), ctx.rank_keys[card], ctx.suits[card])]
    by_suit: dict[int, dict[int, int]] = {}
    for card in cards:
        if not 0 <= card < NUM_CARD_TYPES:
            raise ValueError(f"card id {card} is outside 0..53")
        suit_counts = by_suit.setdefault(ctx.suits[card], {})
        suit_counts[card] = suit_counts.get(card, 0) + 1
    components: list[Component] = []
    for suit in sorted(by_suit):
        components += _decompose_suit(by_suit[suit], suit, ctx)
    return components


def single_suit(cards: Sequence[int], ctx: TrumpContext) -> int | None:
    """The effective suit shared by all ``cards``, or ``None`` if they mix suits or are empty."""
    if not cards:
        return None
    suit = ctx.suits[cards[0]]
    return suit if all(ctx.suits[card] == suit for card in cards) else None


def as_combination(cards: Sequence[int], ctx: TrumpContext) -> Component | None:
    """The one component that ``cards`` form, or ``None`` (mixed suits, or a throw)."""
    if single_suit(cards, ctx) is None:
        return None
    components = decompose(cards, ctx)
    return components[0] if len(components) == 1 else None


def is_tractor(cards: Sequence[int], ctx: TrumpContext) -> bool:
    """Exactly one tractor: two or more pairs of consecutive rank in one suit (§3)."""
    component = as_combination(cards, ctx)
    return component is not None and component.multiplicity == 2 and component.length >= 2


def is_titanic(cards: Sequence[int], ctx: TrumpContext) -> bool:
    """Exactly one titanic: two or more triples of consecutive rank in one suit (§3)."""
    component = as_combination(cards, ctx)
    return component is not None and component.multiplicity == 3 and component.length >= 2
