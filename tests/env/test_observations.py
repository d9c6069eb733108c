"""Observations: layout, no hidden information, incremental encoding equals a fresh one."""

import random

import numpy as np
import pytest

from shengji_env.actions import Decision
from shengji_env.encoding import OBS_BLOCKS, OBS_LAYOUT, OBS_SIZE, ObservationEncoder
from shengji_env.rules.trick import trick_winner
from shengji_env.view import seat_view

from .helpers import random_states, reshuffle_hidden

OPTIONS = [{"decks": 1}, {"decks": 2}, {"decks": 3, "twos_always_trump": True}]


def test_layout_is_derived_from_the_blocks():
    assert sum(size for _, size in OBS_BLOCKS) == OBS_SIZE
    assert list(OBS_LAYOUT) == [name for name, _ in OBS_BLOCKS]
    covered = np.zeros(OBS_SIZE, dtype=int)
    for block in OBS_LAYOUT.values():
        covered[block] += 1
    assert (covered == 1).all()


@pytest.mark.parametrize("options", OPTIONS, ids=["1d", "2d", "3d-twos"])
def test_observation_does_not_change_when_unseen_cards_are_reshuffled(options):
    rng = random.Random(0)
    checked = 0
    for index, env in enumerate(random_states(seed=7, hands=4, **options)):
        if index % 3:
            continue
        game, decision = env.game, env.decision
        for seat in range(4):
            mine = decision if decision and decision.seat == seat else None
            before = ObservationEncoder(game.config).encode(game, seat, mine)
            other = reshuffle_hidden(game, seat, rng)
            after = ObservationEncoder(game.config).encode(other, seat, mine)
            np.testing.assert_array_equal(before, after)
            kind = mine.kind if mine else None
            assert seat_view(game, seat, kind) == seat_view(other, seat, kind)
            if mine is not None and not mine.selection:
                assert np.array_equal(Decision(other).mask, mine.mask)
            checked += 1
    assert checked > 300


@pytest.mark.parametrize("options", OPTIONS, ids=["1d", "2d", "3d-twos"])
def test_incremental_encoding_equals_a_fresh_encoder(options):
    for env in random_states(seed=3, hands=2, **options):
        for agent in env.possible_agents:
            seat = env.possible_agents.index(agent)
            fresh = ObservationEncoder(env.game.config).encode(env.game, seat, env.decision)
            np.testing.assert_array_equal(env.observe(agent)["observation"], fresh)


def test_match_episodes_re_encode_each_new_hand():
    for env in random_states(seed=5, hands=1, decks=1, episode="match", start_level="K"):
        if env.game.hand_number == 0:
            continue
        seat = env.possible_agents.index(env.agent_selection)
        fresh = ObservationEncoder(env.game.config).encode(env.game, seat, env.decision)
        np.testing.assert_array_equal(env.observe(env.agent_selection)["observation"], fresh)


def test_values_lie_in_the_box():
    for env in random_states(seed=9, hands=2, decks=3):
        observation = env.observe(env.agent_selection)["observation"]
        assert observation.dtype == np.float32
        assert observation.min() >= 0.0 and observation.max() <= 1.0
        assert env.observation_space(env.agent_selection)["observation"].contains(observation)


@pytest.mark.parametrize("options", OPTIONS, ids=["1d", "2d", "3d-twos"])
def test_trick_winner_is_the_play_winning_the_trick_so_far(options):
    winners = set()
    for env in random_states(seed=5, hands=2, **options):
        game = env.game
        for observer in range(4):
            agent = env.possible_agents[observer]
            block = env.observe(agent)["observation"][OBS_LAYOUT["trick_winner"]]
            if not game.trick:
                assert not block.any()
                continue
            winner = (game.leader + trick_winner(game.trick, game.ctx)) % 4
            expected = np.zeros(4, dtype=np.float32)
            expected[(winner - observer) % 4] = 1.0
            np.testing.assert_array_equal(block, expected)
            winners.add(len(game.trick) - 1 - (winner - game.leader) % 4)
    assert {0, 1, 2} <= winners  # led plays, later plays winning: both seen
