"""The whole-move view, ``play``, the information-state string and ``resample`` against the
card-by-card env, over thousands of random decision states."""

import random

import numpy as np
import pytest

from shengji_env.actions import COMMIT, DecisionKind
from shengji_env.env import raw_env
from shengji_env.information import information_state, resample, unseen
from shengji_env.moves import MOVE_FEATURES, legal_moves, move_features, play
from shengji_env.rules import IllegalMoveError, Phase, make_deck
from shengji_env.view import seat_view

from .helpers import random_states, reshuffle_hidden

DFS_LIMIT = 400


def complete_selections(decision, limit: int = DFS_LIMIT) -> set[tuple[int, ...]] | None:
    """Every complete decision the masks allow, each multiset once (cards added in
    non-decreasing order: a mask allows any card of some legal completion); ``None`` if
    there are more than ``limit``."""
    found: set[tuple[int, ...]] = set()
    stack = [(decision, 0)]
    while stack:
        node, low = stack.pop()
        mask = node.mask
        if mask[COMMIT]:
            found.add(tuple(sorted(node.selection)))
            if len(found) > limit:
                return None
        for card in np.flatnonzero(mask[:COMMIT]):
            if card < low:
                continue
            child = node.clone()
            child.add(int(card))
            if child.only_commit:
                found.add(tuple(sorted(child.selection)))
            else:
                stack.append((child, int(card)))
    return found


def decision_starts(seed: int, hands: int, **options):
    for env in random_states(seed, hands=hands, **options):
        info = env.infos[env.agent_selection]
        if not info["selection"]:
            yield env


@pytest.mark.parametrize("decks", [1, 2, 3])
def test_whole_moves_are_the_card_by_card_legal_set(record_property, decks):
    compared = 0
    for env in decision_starts(40 + decks, hands=16 if decks < 3 else 8, decks=decks):
        decision = env.decision
        if decision.kind is DecisionKind.BURY:
            with pytest.raises(ValueError, match="the bury is not listed"):
                legal_moves(env)
            continue
        try:
            moves = legal_moves(env, limit=DFS_LIMIT)
        except ValueError:
            continue
        expected = complete_selections(decision)
        if expected is None:
            continue
        assert {tuple(sorted(m)) for m in moves} == expected
        assert len({tuple(sorted(m)) for m in moves}) == len(moves)  # each once
        features = move_features(env, moves)
        assert features.shape == (len(moves), MOVE_FEATURES) and features.dtype == np.float32
        compared += 1
    record_property("whole_move_states", compared)
    assert compared > 700


def test_play_enters_a_whole_move_and_refuses_an_illegal_one():
    rng = random.Random(3)
    played = 0
    for engine in ("core", "python"):
        env = raw_env(decks=2, engine=engine)
        env.reset(seed=11)
        while not all(env.terminations.values()):
            decision = env.decision
            if decision.kind is DecisionKind.BURY:
                env.step(int(np.flatnonzero(env.observe(env.agent_selection)["action_mask"])[0]))
                continue
            moves = legal_moves(env, limit=100_000)
            hand = env.game.hand(decision.seat)
            illegal = [c for c in hand if not decision.allows(c)]
            if illegal:
                before = env.game.hand(decision.seat), list(env.game.trick)
                with pytest.raises(IllegalMoveError):
                    play(env, [illegal[0]] * 2)
                assert (env.game.hand(decision.seat), list(env.game.trick)) == before
            move = rng.choice(moves)
            tricks = len(env.game.tricks)
            play(env, move)
            played += 1
            if decision.kind is DecisionKind.FOLLOW and env.game.phase is Phase.PLAY:
                last = env.game.trick[-1] if env.game.trick else env.game.tricks[tricks].plays[-1]
                assert sorted(last) == sorted(move)
    assert played > 150


def test_resample_draws_states_the_seat_cannot_tell_apart(record_property):
    rng = random.Random(5)
    checked = 0
    for decks in (1, 2, 3):
        for env in decision_starts(70 + decks, hands=8, decks=decks):
            view = env.infos[env.agent_selection]["view"]
            if view.kind not in (DecisionKind.LEAD, DecisionKind.FOLLOW):
                with pytest.raises(ValueError, match="play phase"):
                    resample(view, rng)
                continue
            world = resample(view, rng)
            assert seat_view(world, view.seat, view.kind) == view
            held = [card for hand in world.hands for card in hand]
            played = [card for cards in world.played for card in cards]
            assert sorted(held + played + list(world.kitty)) == make_deck(decks)
            for seat in range(4):
                assert not set(view.revealed[seat]) - set(world.hands[seat])
            assert sum(unseen(view).values()) == len(held) - len(view.hand) + (
                0 if view.seat == view.dealer else len(world.kitty)
            )
            checked += 1
    record_property("resampled_states", checked)
    assert checked > 1000


def test_the_information_state_is_what_the_seat_knows():
    rng = random.Random(9)
    for env in decision_starts(90, hands=2, decks=2):
        game, seat = env.game, env.game.current_player
        kind = env.infos[env.agent_selection]["view"].kind
        text = information_state(seat_view(game, seat, kind))
        if game.phase is Phase.PLAY:
            other = reshuffle_hidden(game, seat, rng)
            assert information_state(seat_view(other, seat, kind)) == text
            assert information_state(seat_view(game, (seat + 1) % 4, kind)) != text
        assert f"seat {seat} decides" in text and "hand " in text
