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


def _add(a: Score, b: Score) -> Score:
    return (a[0] + b[0], a[1] + b[1], a[2] + b[2], a[3] + b[3], a[4] + b[4])


def _runs(units: Units, multiplicity: int, max_length: int) -> list[tuple[int, ...]]:
    """Every run (unit indices, low to high) of length 2..max_length whose units hold at
    least ``multiplicity`` cards. At a key shared by several units the one with the
    fewest sufficient cards is used: it leaves the stronger unit for later."""
    chosen: dict[int, int] = {}
    for index, (key, count) in enumerate(units):
        if count >= multiplicity and (key not in chosen or count < units[chosen[key]][1]):
            chosen[key] = index
    runs: list[tuple[int, ...]] = []
    for low in sorted(chosen):
        run = [chosen[low]]
        key = low + 1
        while key in chosen and len(run) < max_length:
            run.append(chosen[key])
            runs.append(tuple(run))
            key += 1
    return runs


def _remove(units: Units, used: tuple[int, ...], multiplicity: int) -> Units:
    remaining = list(units)
    for index in used:
        key, count = remaining[index]
        remaining[index] = (key, count - multiplicity)
    return tuple(unit for unit in remaining if unit[1] >= 2)


def _fill(units: Units, bins: Shape, capacity: tuple[int, ...], triples_first: bool) -> Score:
    """Best score from loose triples and pairs in the capacity left in each bin."""
    triples = sum(1 for _, count in units if count >= 3)
    pairs = len(units)
    grouped = 0
    if triples_first:
        titanic_room = sorted(
            (
                cap
                for (m, length), cap in zip(bins, capacity, strict=True)
                if m == 3 and length >= 2
            ),
            reverse=True,
        )
        for cap in titanic_room:
            placed = min(cap, triples - grouped)
            if placed >= 2:
                grouped += placed
    triple_room = sum(cap for (m, _), cap in zip(bins, capacity, strict=True) if m == 3) - grouped
    loose_triples = min(triples - grouped, triple_room)
    pair_room = sum(capacity) - grouped - loose_triples
    loose_pairs = min(pairs - grouped - loose_triples, pair_room)
    return (0, 3 * grouped, 0, 3 * loose_triples, 2 * loose_pairs)


@lru_cache(maxsize=1 << 16)
def best_match(shape: Shape, units: Units, triples_first: bool = False) -> Score:
    """The most of ``shape`` that ``units`` can match, counted as a :data:`Score`."""
    bins = tuple((m, length) for m, length in shape if m >= 2)
    if not bins or not units:
        return ZERO
    memo: dict[tuple[int, Units, tuple[int, ...]], Score] = {}

    def search(index: int, left: Units, capacity: tuple[int, ...]) -> Score:
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
                best = max(best, _add(piece, search(index, _remove(left, run, multiplicity), rest)))
        memo[state] = best
        return best

    return search(0, units, tuple(length for _, length in bins))
