"""The duplicate baseline on the compiled core is the heuristic playing the whole deal in
Python: the same rewards and point scores, seat by seat, over seeded deals of every deck
count and rule variant (the core plays from the first lead on)."""

import pytest

from shengji_env.agents import HeuristicAgent
from shengji_env.agents.play import play_hand
from shengji_env.core import load_core
from shengji_env.env import hand_rewards, points_rewards, raw_env
from shengji_env.rules import RuleConfig
from shengji_env.train import baseline as baseline_module
from shengji_env.train.baseline import HeuristicBaseline, point_scores

VARIANTS = [
    {"start": "mid_match", "start_level": "random"},
    {"start": "mid_match", "twos_always_trump": True},
    {"start": "match", "reward": "points"},
]


def python_scores(options: dict, decks: int, seed: int) -> tuple[list[float], list[float]]:
    env = raw_env(**{**options, "decks": decks, "engine": "python"})
    rewards = play_hand(env, [HeuristicAgent()] * 4, seed)
    return rewards, point_scores(env.game)


@pytest.mark.skipif(load_core() is None, reason="needs the compiled core")
@pytest.mark.parametrize("options", VARIANTS)
@pytest.mark.parametrize("decks", [1, 2, 3])
def test_the_core_baseline_scores_each_seat_as_the_python_heuristic_hand(options, decks):
    baseline = HeuristicBaseline(options)
    rewards_seen = set()
    for seed in range(12):
        expected = python_scores(options, decks, seed)
        assert baseline.score(decks, seed) == expected, f"seed {seed}"
        rewards_seen.add(expected[0][0])
    assert len(rewards_seen) > 1  # the deals end differently: the comparison can fail


def test_without_the_core_the_baseline_plays_the_hand_in_python(monkeypatch):
    monkeypatch.setattr(baseline_module, "load_core", lambda: None)
    options = {"start": "mid_match"}
    assert HeuristicBaseline(options).score(2, 3) == python_scores(options, 2, 3)


@pytest.mark.parametrize("decks", [1, 2, 3])
def test_rewards_from_points_follow_the_level_table_for_each_dealer(decks):
    config = RuleConfig(decks=decks)
    band = config.band
    cases = [(0, -3.0), (band - 5, -2.0), (2 * band - 5, -1.0), (2 * band, 1.0), (4 * band, 3.0)]
    for points, attacker_reward in cases:
        assert points_rewards(0, points, "levels", config) == (-attacker_reward, attacker_reward)
        assert points_rewards(1, points, "levels", config) == (attacker_reward, -attacker_reward)
    assert points_rewards(0, 4 * band, "points", config) == (-1.0, 1.0)


def test_hand_rewards_read_the_result_points():
    env = raw_env(decks=2)
    play_hand(env, [HeuristicAgent()] * 4, 4)
    result = env.game.result
    assert hand_rewards(result, "levels", env.game.config) == points_rewards(
        result.dealer, result.attacker_points, "levels", env.game.config
    )
