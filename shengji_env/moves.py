"""Whole moves, for DMC- and RLCard-style users: a decision's legal plays as a list, a
feature array per candidate, and ``play(env, move)``, which enters a whole move through the
card-by-card env. The legal set is the card-by-card env's: a move is listed iff the exact
masks let its cards be selected and committed (``tests/env/test_moves.py`` checks that).

The bury is not offered as a list: its moves are every ``kitty_size`` cards of the dealer's
hand (13.9 million for 2 decks); decide it card by card.
"""

from __future__ import annotations

from typing import Any

import numpy as np

from .actions import COMMIT, Decision, DecisionKind
from .rules import IllegalMoveError, Phase, decompose, legal_plays
from .rules.cards import NUM_CARD_TYPES, POINTS

MOVE_LIMIT = 10_000
MOVE_FEATURES = NUM_CARD_TYPES + 3
"""Per candidate: the count of each card type / decks, then cards / hand size, points /
deck points, and 1 for a lead of more than one combination (a throw, which may fail)."""


def legal_moves(env: Any, limit: int = MOVE_LIMIT) -> list[tuple[int, ...]]:
    """The legal whole decisions of the current decision of ``env`` (a ``raw_env``): for a
    bid, ``()`` (pass) then the declarations; for a lead or a follow, the plays (each
    multiset once; leads include throws).

    Raises:
        ValueError: for the bury, or when there are more than ``limit`` moves.
    """
    decision = _decision(env)
    game = env.game
    if decision.kind is DecisionKind.BURY:
        raise ValueError("the bury is not listed as whole moves; decide it card by card")
    if decision.kind is DecisionKind.BID:
        return [(), *game.legal_bids(decision.seat)]
    lead = game.trick[0] if game.trick else None
    plays = legal_plays(game.hand(decision.seat), lead, game.ctx, limit=limit + 1)
    if len(plays) > limit:
        raise ValueError(f"more than {limit} legal moves here; decide card by card or raise limit")
    return [tuple(play) for play in plays]


def move_features(env: Any, moves: list[tuple[int, ...]]) -> np.ndarray:
    """A ``(len(moves), MOVE_FEATURES)`` float32 array describing each candidate."""
    game = env.game
    config = game.config
    features = np.zeros((len(moves), MOVE_FEATURES), np.float32)
    leading = game.phase is Phase.PLAY and not game.trick
    for row, move in enumerate(moves):
        for card in move:
            features[row, card] += 1.0 / config.decks
        features[row, NUM_CARD_TYPES] = len(move) / config.hand_size
        features[row, NUM_CARD_TYPES + 1] = sum(POINTS[c] for c in move) / config.total_points
        if leading and len(move) > 1 and game.ctx is not None:
            features[row, NUM_CARD_TYPES + 2] = float(len(decompose(list(move), game.ctx)) > 1)
    return features


def play(env: Any, move: tuple[int, ...] | list[int]) -> None:
    """Enter the whole ``move`` for the deciding agent: its cards, then ``COMMIT`` unless the
    env committed by itself. An illegal move raises before the env changes.

    Raises:
        IllegalMoveError: naming the first card (or the commit) the rules refuse.
    """
    decision = _decision(env).clone()
    cards = [int(card) for card in move]
    for index, card in enumerate(cards):
        if not decision.allows(card):
            raise IllegalMoveError(f"move {cards}: {decision.why_illegal(card)}")
        decision.add(card)
        if decision.only_commit and index < len(cards) - 1:
            raise IllegalMoveError(f"move {cards}: the decision is complete before its end")
    if not decision.only_commit and not decision.allows(COMMIT):
        raise IllegalMoveError(f"move {cards}: {decision.why_illegal(COMMIT)}")
    for card in cards:
        env.step(card)
    if not decision.only_commit:
        env.step(COMMIT)


def _decision(env: Any) -> Decision:
    decision = env.unwrapped.decision
    if decision is None:
        raise ValueError("the episode is over: no decision to list moves for")
    if decision.selection:
        raise ValueError("a move starts at a decision's first card; cards are already selected")
    return decision
