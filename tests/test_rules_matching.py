"""§6.2 rule 2 and 3: the engine's best arrangement of a follow against a lead's shape,
checked against a brute force that tries every way of placing the follower's pairs,
triples, tractors and titanics into the lead's components."""

import random

import pytest

from shengji_env.rules.matching import best_match, cheapest_match

Bins = list[tuple[int, int]]  # (multiplicity, length) of each lead component with m >= 2
CASES = 500  # per chunk; 5 chunks per titanic order: 5,000 random follows in all


def brute_force(bins: Bins, units: list[tuple[int, int]], triples_first: bool) -> tuple:
    """The best (titanics, grouped triples, tractors, triples, pairs) by trying everything:
    each unit unused, loose (as a pair, or a triple in a triple-shaped component), or the
    low end of a run of consecutive keys, placed in any component with room (memoised on
    the units used and each component's room and loose triples)."""
    order = sorted(range(len(units)), key=lambda i: units[i][0])
    memo: dict[tuple, tuple] = {}

    def plus(a: tuple, b: tuple) -> tuple:
        return tuple(x + y for x, y in zip(a, b, strict=True))

    def loose_triples_score(triples: tuple[int, ...]) -> tuple:
        total = [0, 0, 0, 0, 0]
        for (m, length), count in zip(bins, triples, strict=True):
            grouped = triples_first and m == 3 and length >= 2 and count >= 2
            total[1 if grouped else 3] += 3 * count
        return tuple(total)

    def runs_from(start: int, mult: int, room: int, used: frozenset[int]) -> list[list[int]]:
        found: list[list[int]] = []

        def extend(run: list[int]) -> None:
            if len(run) >= 2:
                found.append(list(run))
            if len(run) == room:
                return
            key = units[run[-1]][0] + 1
            for other, (k, n) in enumerate(units):
                if k == key and n >= mult and other not in used and other not in run:
                    extend([*run, other])

        extend([start])
        return found

    def best(position: int, used: frozenset[int], rooms: tuple, triples: tuple) -> tuple:
        if position == len(order):
            return loose_triples_score(triples)
        state = (position, used, rooms, triples)
        if state in memo:
            return memo[state]
        index = order[position]
        result = best(position + 1, used, rooms, triples)  # unused (or used by a run)
        if index not in used:
            count = units[index][1]
            for b, (m, _) in enumerate(bins):
                if rooms[b] < 1:
                    continue
                less = (*rooms[:b], rooms[b] - 1, *rooms[b + 1 :])
                if count >= 2:  # a loose pair
                    rest = best(position + 1, used | {index}, less, triples)
                    result = max(result, plus((0, 0, 0, 0, 2), rest))
                if count >= 3 and m == 3:  # a loose triple
                    more = (*triples[:b], triples[b] + 1, *triples[b + 1 :])
                    result = max(result, best(position + 1, used | {index}, less, more))
                for mult in (3, 2) if m == 3 else (2,):
                    if count < mult:
                        continue
                    for run in runs_from(index, mult, rooms[b], used):
                        room = (*rooms[:b], rooms[b] - len(run), *rooms[b + 1 :])
                        piece = (
                            (mult * len(run), 0, 0, 0, 0)
                            if mult == 3
                            else (0, 0, 2 * len(run), 0, 0)
                        )
                        rest = best(position + 1, used | set(run), room, triples)
                        result = max(result, plus(piece, rest))
        memo[state] = result
        return result

    return best(0, frozenset(), tuple(length for _, length in bins), (0,) * len(bins))


def random_case(rng: random.Random) -> tuple[Bins, list[tuple[int, int]]]:
    """Two titanics (and sometimes a pair or triple) led; the follower's units in 3 decks."""
    bins: Bins = [(3, rng.choice((2, 3))), (3, rng.choice((2, 2, 3)))]
    bins += rng.choice(([], [(2, 1)], [(3, 1)], [(2, 2)]))
    keys = rng.sample(range(12), rng.randint(3, 7))
    units = [(key, rng.choice((2, 3, 3))) for key in keys]
    return sorted(bins, reverse=True), sorted(units)


@pytest.mark.slow
@pytest.mark.parametrize("chunk", range(5))
@pytest.mark.parametrize("triples_first", [True, False])
def test_the_best_arrangement_agrees_with_brute_force(triples_first, chunk):
    rng = random.Random(2026 + 10 * chunk + triples_first)
    differ = []
    for _ in range(CASES):
        bins, units = random_case(rng)
        shape = tuple(bins)
        expected = brute_force(bins, units, triples_first)
        if best_match(shape, tuple(units), triples_first) != expected:
            differ.append((bins, units))
    assert differ == [], f"{len(differ)} of {CASES} differ, e.g. {differ[:3]}"


def test_the_cheapest_best_arrangement_uses_the_selected_cards():
    shape = ((2, 2),)  # a tractor led
    units = ((3, 2, 0), (4, 2, 0), (8, 2, 2), (9, 2, 0))  # 3344, 8899; two 8s chosen
    assert cheapest_match(shape, units) == ((0, 0, 4, 0, 0), 2)  # 99 completes 8899
    nothing = tuple((key, count, 0) for key, count, _ in units)
    assert cheapest_match(shape, nothing) == ((0, 0, 4, 0, 0), 4)
