"""How much of a lead's structure a set of cards can match (docs/rules.md §6.2, §6.3).

Followers must keep as much of the lead's shape as their hand allows (§6.2), and a
ruff must cover the whole shape (§6.3). Both questions are answered here on
*units*: ``(rank_key, count)`` for each card type with two or more copies in one
suit; single cards never add structure.

A lead component of multiplicity ``m`` and length ``L`` is a bin of ``L`` slots.
Follower runs go into bins (several shorter runs may share one longer bin;
triples may serve as pairs), and the rest of each bin is filled with triples and
pairs. The score counts matched cards lexicographically: titanics, [two or more
loose triples in one titanic, ``triples_first`` only], tractors, triples, pairs.

For the card-by-card mask, :func:`cheapest_match` also finds, among the best
arrangements, the one that needs the fewest cards beyond those already selected: a
selection can grow into a legal follow iff that many more cards still fit.
"""

from __future__ import annotations

from collections.abc import Sequence
from functools import lru_cache

Units = tuple[tuple[int, int], ...]
"""Sorted ``(rank_key, count)`` pairs, count >= 2; several may share a key."""
Shape = tuple[tuple[int, int], ...]
"""The lead's components as ``(multiplicity, length)``, largest first."""
Score = tuple[int, int, int, int, int]
"""Matched cards in (titanics, grouped triples, tractors, triples, pairs)."""

ZERO: Score = (0, 0, 0, 0, 0)


def units_of(keys_and_counts: Sequence[tuple[int, int]]) -> Units:
    """Units from ``(rank_key, count)`` per card type; types with one card are dropped."""
    return tuple(sorted((key, count) for key, count in keys_and_counts if count >= 2))


Marked = tuple[tuple[int, int, int], ...]
"""Units with a selection: sorted ``(rank_key, count, selected)``, where ``selected`` of
the unit's cards are already chosen (the card-by-card mask, :func:`cheapest_match`)."""


def _add(a: Score, b: Score) -> Score:
    return (a[0] + b[0], a[1] + b[1], a[2] + b[2], a[3] + b[3], a[4] + b[4])


def _better(a: tuple[Score, int], b: tuple[Score, int]) -> bool:
    """More matched, or as much with fewer cards beyond the selection."""
    return a[0] > b[0] or (a[0] == b[0] and a[1] < b[1])


def _extra(multiplicity: int, selected: int) -> int:
    return max(0, multiplicity - selected)


def _runs(units: Marked, multiplicity: int, max_length: int) -> list[tuple[int, ...]]:
    """Every run (unit indices, low to high) of length 2..max_length whose units hold at
    least ``multiplicity`` cards. Among the units sharing a key with as many cards
    selected, only the one with the fewest sufficient cards is tried: it leaves the
    stronger unit for later at no greater cost."""
    chosen: dict[int, dict[int, int]] = {}  # key -> selected -> unit index
    for index, (key, count, selected) in enumerate(units):
        if count < multiplicity:
            continue
        options = chosen.setdefault(key, {})
        if selected not in options or count < units[options[selected]][1]:
            options[selected] = index
    runs: list[tuple[int, ...]] = []

    def extend(run: tuple[int, ...], key: int) -> None:
        if len(run) >= 2:
            runs.append(run)
        if len(run) < max_length and key in chosen:
            for index in chosen[key].values():
                extend((*run, index), key + 1)

    for low in sorted(chosen):
        for index in chosen[low].values():
            extend((index,), low + 1)
    return runs


def _remove(units: Marked, used: tuple[int, ...], multiplicity: int) -> Marked:
    remaining = list(units)
    for index in used:
        key, count, selected = remaining[index]
        remaining[index] = (key, count - multiplicity, max(0, selected - multiplicity))
    return tuple(unit for unit in remaining if unit[1] >= 2)


def _grouped_triples(titanic_room: list[int], triples: int) -> int:
    """The most loose triples that titanic bins can take, two or more a bin (the
    ``triples_first`` order), over every way of sharing them among the bins."""
    reachable = {0}
    for room in titanic_room:
        reachable |= {
            total + placed
            for total in reachable
            for placed in range(2, room + 1)
            if total + placed <= triples
        }
    return max(reachable)


def _fill(
    units: Marked, bins: Shape, capacity: tuple[int, ...], triples_first: bool
) -> tuple[Score, int]:
    """Best score from loose triples and pairs in the capacity left in each bin, and the
    fewest cards beyond the selection that it takes."""
    triples = sum(1 for _, count, _ in units if count >= 3)
    pairs = len(units)
    grouped = 0
    if triples_first:
        titanic_room = [
            cap for (m, length), cap in zip(bins, capacity, strict=True) if m == 3 and length >= 2
        ]
        grouped = _grouped_triples(titanic_room, triples)
    triple_room = sum(cap for (m, _), cap in zip(bins, capacity, strict=True) if m == 3) - grouped
    loose_triples = min(triples - grouped, triple_room)
    pair_room = sum(capacity) - grouped - loose_triples
    loose_pairs = min(pairs - grouped - loose_triples, pair_room)
    score = (0, 3 * grouped, 0, 3 * loose_triples, 2 * loose_pairs)
    return score, _cheapest_roles(units, grouped + loose_triples, loose_pairs)


def _cheapest_roles(units: Marked, triple_roles: int, pair_roles: int) -> int:
    """The fewest cards beyond the selection for ``triple_roles`` units used as triples
    and ``pair_roles`` others as pairs."""
    if not any(selected for _, _, selected in units):
        return 3 * triple_roles + 2 * pair_roles
    costs = {(0, 0): 0}
    for _, count, selected in units:
        step = dict(costs)
        for (triples, pairs), cost in costs.items():
            options = [(triples, pairs + 1, _extra(2, selected))]
            if count >= 3:
                options.append((triples + 1, pairs, _extra(3, selected)))
            for key_t, key_p, extra in options:
                if key_t <= triple_roles and key_p <= pair_roles:
                    total = cost + extra
                    if total < step.get((key_t, key_p), total + 1):
                        step[(key_t, key_p)] = total
        costs = step
    return costs[(triple_roles, pair_roles)]


@lru_cache(maxsize=1 << 14)
def best_match(shape: Shape, units: Units, triples_first: bool = False) -> Score:
    """The most of ``shape`` that ``units`` can match, counted as a :data:`Score`."""
    return cheapest_match(shape, tuple((key, count, 0) for key, count in units), triples_first)[0]


@lru_cache(maxsize=1 << 14)
def cheapest_match(shape: Shape, units: Marked, triples_first: bool = False) -> tuple[Score, int]:
    """The most of ``shape`` that ``units`` can match, and the fewest cards beyond the
    selected ones that a best arrangement takes (every arrangement is searched: runs into
    the lead's bins, several shorter runs sharing a longer bin, then loose triples and
    pairs in the room left)."""
    bins = tuple((m, length) for m, length in shape if m >= 2)
    if not bins or not units:
        return ZERO, 0
    memo: dict[tuple[int, Marked, tuple[int, ...]], tuple[Score, int]] = {}

    def search(index: int, left: Marked, capacity: tuple[int, ...]) -> tuple[Score, int]:
        if index == len(bins):
            return _fill(left, bins, capacity, triples_first)
        state = (index, left, capacity)
        if state in memo:
            return memo[state]
        best = search(index + 1, left, capacity)
        bin_multiplicity = bins[index][0]
        for multiplicity in (3, 2) if bin_multiplicity == 3 else (2,):
            for run in _runs(left, multiplicity, capacity[index]):
                rest = (*capacity[:index], capacity[index] - len(run), *capacity[index + 1 :])
                gained = multiplicity * len(run)
                piece = (gained, 0, 0, 0, 0) if multiplicity == 3 else (0, 0, gained, 0, 0)
                extra = sum(_extra(multiplicity, left[i][2]) for i in run)
                score, cost = search(index, _remove(left, run, multiplicity), rest)
                candidate = (_add(piece, score), cost + extra)
                if _better(candidate, best):
                    best = candidate
        memo[state] = best
        return best

    return search(0, units, tuple(length for _, length in bins))
