"""Leads, throws, follows and the enumeration of legal plays (docs/rules.md §6.1, §6.2).

Hands and plays are multisets of card ids (lists with repeats). The follow rule
is read formally (§6.2): a follow is legal iff it obeys the suit rule and its
led-suit cards match as much of the lead's structure as the best selection of
the same size from the hand's led-suit cards; :mod:`.matching` computes that.
"""

from __future__ import annotations

from collections.abc import Iterable, Iterator, Sequence

from .cards import suit_of as printed_suit
from .matching import Marked, Score, Shape, Units, best_match, cheapest_match, units_of
from .patterns import Component, counts_by_type, decompose, single_suit
from .trump import TrumpContext


def lead_suit(lead: Sequence[int], ctx: TrumpContext) -> int:
    """The effective suit of a lead; raises ``ValueError`` unless it is one suit."""
    suit = single_suit(lead, ctx)
    if suit is None:
        raise ValueError("a lead must be a non-empty set of cards of one suit (§6.1)")
    return suit


def lead_shape(lead: Sequence[int], ctx: TrumpContext) -> Shape:
    if len(lead) == 1:
        return ((1, 1),)
    return tuple(component.shape for component in decompose(lead, ctx))


def suit_units(cards: Iterable[int], suit: int, ctx: TrumpContext) -> Units:
    """Units (``(rank_key, count)`` of types with >= 2 copies) of ``cards`` in ``suit``."""
    counts = counts_by_type(card for card in cards if ctx.suits[card] == suit)
    return units_of([(ctx.rank_keys[card], n) for card, n in counts.items()])


def shape_score(shape: Shape, units: Units, ctx: TrumpContext) -> Score:
    return best_match(shape, units, ctx.config.titanic_follow_order == "triples_first")


def completion_cost(
    shape: Shape, in_suit_hand: Sequence[int], selection: Sequence[int], ctx: TrumpContext
) -> int:
    """How many cards beyond ``selection`` (led-suit cards of ``in_suit_hand``) the
    cheapest follow that keeps the most of the lead's ``shape`` takes (§6.2 rule 2). A
    selection of ``k`` cards grows into a legal follow of ``n`` iff ``k`` plus this is at
    most ``n``: the rest are any other cards of the suit, which can only keep the shape."""
    return cost_from_counts(shape, counts_by_type(in_suit_hand), counts_by_type(selection), ctx)


def cost_from_counts(
    shape: Shape, held: dict[int, int], chosen: dict[int, int], ctx: TrumpContext
) -> int:
    """:func:`completion_cost` from the hand's and the selection's count of each card."""
    units: Marked = tuple(
        sorted((ctx.rank_keys[card], n, chosen.get(card, 0)) for card, n in held.items() if n >= 2)
    )
    return cheapest_match(shape, units, ctx.config.titanic_follow_order == "triples_first")[1]


# --- §6.1 leading and throws -------------------------------------------------------------


def can_form_higher(
    hand: Iterable[int], suit: int, multiplicity: int, length: int, top_key: int, ctx: TrumpContext
) -> bool:
    """Whether ``hand`` can form, in ``suit``, a run of ``length`` units of at least
    ``multiplicity`` cards whose top is higher than ``top_key`` (§6.1)."""
    counts = counts_by_type(card for card in hand if ctx.suits[card] == suit)
    keys = {ctx.rank_keys[card] for card, n in counts.items() if n >= multiplicity}
    return any(all(key - step in keys for step in range(length)) for key in keys if key > top_key)


def _throw_order(component: Component) -> tuple[int, int, int]:
    return (component.top_key, component.size, printed_suit(component.cards[0]))


def check_throw(
    lead: Sequence[int], other_hands: Sequence[Iterable[int]], ctx: TrumpContext
) -> list[int] | None:
    """``None`` if the lead stands; else the forced play of a failed throw (§6.1).

    A lead of one combination always stands. A throw stands only if no other hand
    can form a higher component of the same shape than any of its components;
    otherwise the smallest beatable component is played: lowest top card, then
    fewer cards, then the first suit in the order ♠ ♥ ♦ ♣.
    """
    if len(lead) == 1:
        return None
    suit = lead_suit(lead, ctx)
    components = decompose(lead, ctx)
    if len(components) == 1:
        return None
    hands = [list(hand) for hand in other_hands]
    beatable = [
        component
        for component in components
        if any(
            can_form_higher(
                hand, suit, component.multiplicity, component.length, component.top_key, ctx
            )
            for hand in hands
        )
    ]
    if not beatable:
        return None
    return list(min(beatable, key=_throw_order).cards)


def failed_throw_penalty(attempt: Sequence[int], forced: Sequence[int], penalty: int) -> int:
    """Points that count against the thrower's team: ``penalty`` per returned card."""
    return penalty * (len(attempt) - len(forced))


# --- §6.2 following ------------------------------------------------------------------------


def is_legal_follow(
    lead: Sequence[int], hand: Sequence[int], play: Sequence[int], ctx: TrumpContext
) -> bool:
    """Whether ``play`` from ``hand`` legally follows ``lead`` (§6.2)."""
    return follow_error(lead, hand, play, ctx) is None


def follow_error(
    lead: Sequence[int], hand: Sequence[int], play: Sequence[int], ctx: TrumpContext
) -> str | None:
    """``None`` if the follow is legal, else the reason, naming the rule it breaks."""
    if len(play) != len(lead):
        return f"a follow must have as many cards as the lead: {len(lead)}, not {len(play)} (§6.2)"
    if not is_submultiset(play, hand):
        return "the play holds cards that are not in the hand"
    suit = lead_suit(lead, ctx)
    in_suit_hand = [card for card in hand if ctx.suits[card] == suit]
    in_suit_play = [card for card in play if ctx.suits[card] == suit]
    needed = min(len(lead), len(in_suit_hand))
    if len(in_suit_play) < needed:
        return (
            f"must follow suit: play {needed} card(s) of the led suit, not {len(in_suit_play)} "
            "(§6.2 rule 1)"
        )
    if len(in_suit_hand) <= len(lead):
        return None
    shape = lead_shape(lead, ctx)
    if all(multiplicity == 1 for multiplicity, _ in shape):
        return None  # singles only: any cards of the suit keep the shape
    best = shape_score(shape, suit_units(in_suit_hand, suit, ctx), ctx)
    if shape_score(shape, suit_units(in_suit_play, suit, ctx), ctx) < best:
        return (
            "must keep the lead's shape: the hand can match more of its tractors, triples or "
            "pairs (§6.2 rule 2)"
        )
    return None


def is_submultiset(cards: Iterable[int], hand: Iterable[int]) -> bool:
    available = counts_by_type(hand)
    for card in cards:
        if available.get(card, 0) == 0:
            return False
        available[card] -= 1
    return True


# --- enumeration ---------------------------------------------------------------------------


def submultisets(items: Sequence[tuple[int, int]], size: int) -> Iterator[list[int]]:
    """Every multiset of ``size`` cards drawn from ``(card, count)`` items, each once."""
    if size == 0:
        yield []
        return
    if not items:
        return
    available = sum(count for _, count in items[1:])
    card, count = items[0]
    for take in range(min(count, size), -1, -1):
        if size - take > available:
            break
        for rest in submultisets(items[1:], size - take):
            yield [card] * take + rest


def _items(cards: Iterable[int], ctx: TrumpContext) -> list[tuple[int, int]]:
    counts = counts_by_type(cards)
    return sorted(counts.items(), key=lambda item: ctx.sort_key(item[0]), reverse=True)


def _leads(hand: Sequence[int], ctx: TrumpContext) -> Iterator[list[int]]:
    """Combinations first (by size), then throws (by size), suit by suit."""
    by_suit: dict[int, list[int]] = {}
    for card in hand:
        by_suit.setdefault(ctx.suits[card], []).append(card)
    for want_combination in (True, False):
        for suit in sorted(by_suit):
            items = _items(by_suit[suit], ctx)
            for size in range(1, len(by_suit[suit]) + 1):
                for lead in submultisets(items, size):
                    if (len(decompose(lead, ctx)) == 1) == want_combination:
                        yield lead


def _follows(lead: Sequence[int], hand: Sequence[int], ctx: TrumpContext) -> Iterator[list[int]]:
    suit = lead_suit(lead, ctx)
    in_suit = [card for card in hand if ctx.suits[card] == suit]
    others = [card for card in hand if ctx.suits[card] != suit]
    if len(in_suit) <= len(lead):
        for fill in submultisets(_items(others, ctx), len(lead) - len(in_suit)):
            yield sorted(in_suit, key=ctx.sort_key, reverse=True) + fill
        return
    if len(lead) == 1:  # any card of the suit; the same order as _items gives
        for card in sorted(dict.fromkeys(in_suit), key=ctx.sort_key, reverse=True):
            yield [card]
        return
    shape = lead_shape(lead, ctx)
    best = shape_score(shape, suit_units(in_suit, suit, ctx), ctx)
    for play in submultisets(_items(in_suit, ctx), len(lead)):
        if shape_score(shape, suit_units(play, suit, ctx), ctx) == best:
            yield play


def legal_plays(
    hand: Sequence[int], lead: Sequence[int] | None, ctx: TrumpContext, limit: int | None = None
) -> list[list[int]]:
    """Every legal play (each multiset once): leads when ``lead`` is empty, else follows.

    Leads include throws, which may fail when played (§6.1); combinations come first.
    ``limit`` stops the enumeration after that many plays.
    """
    plays = _leads(hand, ctx) if not lead else _follows(lead, hand, ctx)
    result: list[list[int]] = []
    for play in plays:
        if limit is not None and len(result) >= limit:
            break
        result.append(play)
    return result
