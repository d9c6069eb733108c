"""Rollout collection with the duplicate baseline: each hand's reward is the learner's
reward less what the heuristic bot scores from the same seat on the same deal."""

import numpy as np
import pytest

from agents import HeuristicAgent
from shengji_env.env import raw_env
from train.bc import play_heuristic_hand
from train.network import make_network
from train.rollout import Collector

from .helpers import tiny


def test_heuristic_hand_is_the_heuristic_playing_the_deal():
    env = raw_env(decks=1)
    seen: list[tuple[int, int]] = []
    totals = play_heuristic_hand(env, HeuristicAgent(), 9, lambda s, o, a: seen.append((s, a)))
    assert env.game.result is not None and len(seen) > 30
    assert totals[0] == totals[2] == -totals[1] == -totals[3] != 0
    assert play_heuristic_hand(raw_env(decks=1), HeuristicAgent(), 9) == totals  # deterministic


@pytest.mark.parametrize("baseline", [False, True])
def test_the_last_reward_of_each_seat_is_its_gain_over_the_heuristic(tmp_path, baseline):
    config = tiny(tmp_path, "decks=1", "opponents={heuristic: 1}", f"duplicate_baseline={baseline}")
    collector = Collector(config)
    collector.load(make_network(config.to_dict()).state_dict(), [])
    rng = np.random.default_rng(4)
    seed = int(np.random.default_rng(4).integers(2**31))  # the deal _new_hand draws first
    hand = collector._new_hand(raw_env(decks=1), rng)
    expected = play_heuristic_hand(raw_env(decks=1), HeuristicAgent(), seed)
    assert hand.baseline == (expected if baseline else [0.0] * 4)
    batch = collector.collect(1, seed=2)  # one environment: one whole hand
    (gain,), (reward,) = batch["hand_gains"], batch["hand_rewards"]
    assert batch["returns"][-1] == pytest.approx(gain)  # the last step's return is its reward
    assert gain != reward if baseline else gain == reward
