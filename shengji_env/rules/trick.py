"""Winning a trick: following plays, ruffs and over-ruffs (docs/rules.md §6.3).

A play in the led suit beats the winning play only with the lead's shape (a
single combination) and a higher rank; a throw cannot be beaten in its suit. A
play that is all trump against a plain lead is a *ruff* when it can be arranged
into the lead's shape; ruffs are compared by their best part matching the lead's
largest component. Ties go to the earlier play.
"""

from __future__ import annotations

from collections.abc import Sequence

from .cards import points_of
from .patterns import Component, as_combination, counts_by_type, decompose, largest_first_key
from .trump import TRUMP, TrumpContext


def trick_points(plays: Sequence[Sequence[int]]) -> int:
    return sum(points_of(play) for play in plays)


def _run_candidates(
    counts: dict[int, int], multiplicity: int, length: int, ctx: TrumpContext
) -> list[tuple[int, list[int]]]:
    """Every run of exactly ``length`` units with >= ``multiplicity`` cards each, as
    ``(top_key, card types from the top down)``, highest top first."""
    by_key: dict[int, list[int]] = {}
    for card, n in counts.items():
        if n >= multiplicity:
            by_key.setdefault(ctx.rank_keys[card], []).append(card)
    runs: list[tuple[int, list[int]]] = []

    def extend(key: int, chosen: list[int]) -> None:
        if len(chosen) == length:
            runs.append((ctx.rank_keys[chosen[0]], list(chosen)))
            return
        for card in by_key.get(key, ()):
            extend(key - 1, [*chosen, card])

    for top in sorted(by_key, reverse=True):
        extend(top, [])
    return runs


def _covers(counts: dict[int, int], shapes: Sequence[tuple[int, int]], ctx: TrumpContext) -> bool:
    """Whether ``counts`` hold disjoint runs for every ``(multiplicity, length)`` shape."""
    if not shapes:
        return True
    multiplicity, length = shapes[0]
    for _, run in _run_candidates(counts, multiplicity, length, ctx):
        for card in run:
            counts[card] -= multiplicity
        covered = _covers(counts, shapes[1:], ctx)
        for card in run:
            counts[card] += multiplicity
        if covered:
            return True
    return False


def ruff_strength(
    lead_components: Sequence[Component], play: Sequence[int], ctx: TrumpContext
) -> int | None:
    """The rank key by which a ruff is compared, or ``None`` if ``play`` is no ruff.

    A ruff is all trump and holds the lead's shape (every non-single component
    matched by a run of at least its multiplicity and exactly its length). Its
    strength is the highest top of a part matching the lead's largest component
    among the arrangements that cover the whole lead.
    """
    if any(ctx.suits[card] != TRUMP for card in play):
        return None
    shapes = sorted(
        (component.shape for component in lead_components), key=largest_first_key, reverse=True
    )
    structured = [shape for shape in shapes if shape[0] >= 2]
    counts = counts_by_type(play)
    largest = shapes[0]
    for top, run in _run_candidates(counts, largest[0], largest[1], ctx):
        for card in run:
            counts[card] -= largest[0]
        covered = _covers(counts, structured[1:] if largest[0] >= 2 else [], ctx)
        for card in run:
            counts[card] += largest[0]
        if covered:
            return top
    return None


def trick_winner(plays: Sequence[Sequence[int]], ctx: TrumpContext) -> int:
    """Index in ``plays`` (in order from the leader) of the play that wins the trick."""
    if len(plays[0]) == 1:
        return _single_card_winner(plays, ctx)
    return _structured_winner(plays, ctx)


def _single_card_winner(plays: Sequence[Sequence[int]], ctx: TrumpContext) -> int:
    """The same answer as :func:`_structured_winner` for a single-card lead, faster: a
    card in the led suit beats a lower one there; a trump on a plain lead is a ruff,
    beaten only by a higher ruff; ties go to the earlier play."""
    suits, keys = ctx.suits, ctx.rank_keys
    suit = suits[plays[0][0]]
    winner, best = 0, (0, keys[plays[0][0]])
    for index in range(1, len(plays)):
        card = plays[index][0]
        if suits[card] == suit:
            rank = (0, keys[card])
        elif suit != TRUMP and suits[card] == TRUMP:
            rank = (1, keys[card])
        else:
            continue
        if rank > best:
            winner, best = index, rank
    return winner


def _structured_winner(plays: Sequence[Sequence[int]], ctx: TrumpContext) -> int:
    lead = plays[0]
    lead_components = decompose(lead, ctx)
    suit = ctx.suits[lead[0]]
    lead_combination = lead_components[0] if len(lead_components) == 1 else None
    winner, winning_key, winning_ruff = 0, lead_components[0].top_key, None
    for index in range(1, len(plays)):
        play = plays[index]
        if all(ctx.suits[card] == suit for card in play):
            if lead_combination is None or winning_ruff is not None:
                continue
            combination = as_combination(play, ctx)
            if (
                combination is not None
                and combination.shape == lead_combination.shape
                and combination.top_key > winning_key
            ):
                winner, winning_key = index, combination.top_key
        elif suit != TRUMP:
            strength = ruff_strength(lead_components, play, ctx)
            if strength is not None and (winning_ruff is None or strength > winning_ruff):
                winner, winning_ruff = index, strength
    return winner
