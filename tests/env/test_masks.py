"""Mask exactness: the decisions reachable through the mask are exactly the legal ones.

At the start of every decision of random hands, every complete decision reachable
through the mask (cards added in canonical order: the mask depends only on the multiset
selected) is compared with what the rules API says is legal, in both directions.
"""

import numpy as np
import pytest

from shengji_env.actions import COMMIT, Decision, DecisionKind
from shengji_env.rules import is_legal_follow, legal_plays

from .helpers import random_states

ENUMERATION_CAP = 3000


def reachable(decision: Decision, cap: int = ENUMERATION_CAP) -> set[tuple[int, ...]] | None:
    """Every complete decision reachable through the mask, or ``None`` past ``cap`` nodes."""
    found: set[tuple[int, ...]] = set()
    stack = [decision]
    visited = 0
    while stack:
        node = stack.pop()
        visited += 1
        if visited > cap:
            return None
        mask = node.mask
        if mask[COMMIT]:
            found.add(tuple(sorted(node.selection)))
        low = node.selection[-1] if node.selection else 0
        for card in np.flatnonzero(mask[:COMMIT]):
            if card >= low:
                child = node.clone()
                child.add(int(card))
                stack.append(child)
    return found


def legal_decisions(decision: Decision) -> set[tuple[int, ...]] | None:
    game = decision.game
    if decision.kind is DecisionKind.BID:
        return {(), *(tuple(sorted(bid)) for bid in game.legal_bids(decision.seat))}
    lead = game.trick[0] if decision.kind is DecisionKind.FOLLOW else None
    plays = legal_plays(decision.hand, lead, game.ctx, limit=ENUMERATION_CAP)
    if len(plays) >= ENUMERATION_CAP:
        return None
    return {tuple(sorted(play)) for play in plays}


def check_bury(decision: Decision, rng: np.random.Generator) -> None:
    size = decision.game.config.kitty_size
    for _ in range(5):  # random walks through the mask end in a legal bury
        node = decision.clone()
        while not node.only_commit:
            node.add(int(rng.choice(np.flatnonzero(node.mask[:COMMIT]))))
        assert len(node.selection) == size
        remaining = list(decision.hand)
        for card in node.selection:
            remaining.remove(card)
    for _ in range(5):  # any bury of hand cards is reachable in any order
        node = decision.clone()
        for card in rng.permutation(decision.hand)[:size]:
            assert node.allows(int(card))
            node.add(int(card))
        assert node.only_commit


def check_order_independence(decision: Decision, play: tuple[int, ...], rng) -> None:
    node = decision.clone()
    for card in rng.permutation(play):
        assert node.allows(int(card)), "a legal play must be reachable in any order"
        node.add(int(card))
    assert node.mask[COMMIT]


@pytest.mark.parametrize(
    "options",
    [
        {"decks": 1},
        {"decks": 2},
        pytest.param({"decks": 3}, marks=pytest.mark.slow),
        {"decks": 2, "twos_always_trump": True},
        pytest.param({"decks": 3, "titanic_follow_order": "triples_first"}, marks=pytest.mark.slow),
    ],
    ids=["1d", "2d", "3d", "2d-twos", "3d-triples-first"],
)
def test_mask_is_exact(options):
    rng = np.random.default_rng(0)
    checked = dict.fromkeys(DecisionKind, 0)
    hands = 8 if options["decks"] == 3 else 12
    for env in random_states(seed=options["decks"], hands=hands, **options):
        decision = env.decision
        if decision is None or decision.selection:
            continue
        if decision.kind is DecisionKind.BURY:
            check_bury(decision, rng)
            checked[decision.kind] += 1
            continue
        expected = legal_decisions(decision)
        if expected is None:
            continue
        found = reachable(decision)
        if found is None:
            continue
        assert found == expected, (decision.kind, decision.hand, env.game.trick)
        if decision.kind is DecisionKind.FOLLOW:
            lead = env.game.trick[0]
            assert all(is_legal_follow(lead, decision.hand, p, env.game.ctx) for p in found)
            play = sorted(found)[int(rng.integers(len(found)))]
            check_order_independence(decision, play, rng)
        checked[decision.kind] += 1
    assert all(count > 0 for count in checked.values()), checked
    assert sum(checked.values()) >= 300


@pytest.mark.parametrize("decks", [1, 2, 3])
def test_bid_and_bury_masks_are_exact(decks):
    rng = np.random.default_rng(decks)
    checked = dict.fromkeys((DecisionKind.BID, DecisionKind.BURY), 0)
    for env in random_states(seed=100 + decks, hands=300, stop_at_play=True, decks=decks):
        decision = env.decision
        if decision is None or decision.selection:
            continue
        if decision.kind is DecisionKind.BURY:
            check_bury(decision, rng)
        else:
            assert reachable(decision) == legal_decisions(decision)
        checked[decision.kind] += 1
    assert checked[DecisionKind.BURY] == 300
    assert checked[DecisionKind.BID] >= 300
