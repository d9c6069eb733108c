"""PettingZoo and gymnasium conformance, options, errors, determinism, rewards, rendering."""

import random

import numpy as np
import pytest
from gymnasium.utils.env_checker import check_env
from pettingzoo.test import api_test, seed_test

from shengji_env.actions import COMMIT, NUM_ACTIONS
from shengji_env.env import env as wrapped_env
from shengji_env.env import hand_rewards, raw_env
from shengji_env.rules import HandResult, IllegalMoveError, RuleConfig
from shengji_env.wrappers import SingleAgentEnv, make_vector_env

CONFIGS = [
    {"decks": 1},
    {"decks": 2},
    {"decks": 3},
    {"decks": 2, "twos_always_trump": True},
    {"decks": 1, "episode": "match", "start_level": "K"},
    {"decks": 2, "episode": "match", "start_level": "A"},
    {"decks": 3, "episode": "match", "start_level": "A", "twos_always_trump": True},
    {"decks": 2, "reward": "points", "start_level": "random"},
]
IDS = ["1d", "2d", "3d", "2d-twos", "1d-match", "2d-match", "3d-match-twos", "2d-points"]


@pytest.mark.filterwarnings("ignore:Observation")
@pytest.mark.parametrize("seed", [0, 1, 2])
@pytest.mark.parametrize("options", CONFIGS, ids=IDS)
def test_pettingzoo_api(options, seed):
    for factory in (raw_env, wrapped_env):
        env = factory(**options)
        env.reset(seed=seed)  # later unseeded resets continue from this seed's RNG
        api_test(env, num_cycles=1500)


@pytest.mark.parametrize("options", CONFIGS, ids=IDS)
def test_pettingzoo_seed(options):
    seed_test(lambda: wrapped_env(**options), num_cycles=300)


def test_spaces_are_the_same_object_and_masks_are_int8():
    env = raw_env()
    env.reset(seed=0)
    for agent in env.possible_agents:
        assert env.observation_space(agent) is env.observation_space(agent)
        assert env.action_space(agent) is env.action_space(agent)
    mask = env.observe(env.agent_selection)["action_mask"]
    assert mask.dtype == np.int8 and mask.shape == (NUM_ACTIONS,)
    assert env.action_space(env.agent_selection).sample(mask) in np.flatnonzero(mask)


def test_unknown_and_invalid_options_are_named():
    with pytest.raises(ValueError, match=r"unknown option\(s\) deck; known: .*decks"):
        raw_env(deck=2)
    with pytest.raises(ValueError, match="episode must be one of"):
        raw_env(episode="game")
    with pytest.raises(ValueError, match="decks must be one of 1, 2, 3"):
        raw_env(decks=5)


def test_raw_env_raises_with_the_reason_and_keeps_its_state():
    env = raw_env()
    env.reset(seed=3)
    while env.decision.kind.value != "follow":
        env.step(int(np.flatnonzero(env.observe(env.agent_selection)["action_mask"])[0]))
    mask = env.observe(env.agent_selection)["action_mask"]
    illegal = int(np.flatnonzero(mask == 0)[0])
    before = env.observe(env.agent_selection)["observation"]
    with pytest.raises(IllegalMoveError, match=env.agent_selection):
        env.step(illegal)
    np.testing.assert_array_equal(before, env.observe(env.agent_selection)["observation"])


def test_wrapped_env_ends_the_game_when_an_agent_plays_illegally():
    env = wrapped_env()
    env.reset(seed=4)
    agent = env.agent_selection
    mask = env.observe(agent)["action_mask"]
    env.step(int(np.flatnonzero(mask == 0)[0]))  # PettingZoo logs a warning
    assert all(env.terminations.values())
    assert env.rewards[agent] == -1


def play(seed: int, options: dict, shuffle_global: bool = False) -> list:
    env = raw_env(**options)
    env.reset(seed=seed)
    rng = np.random.default_rng(seed)
    trace = []
    for agent in env.agent_iter():
        observation, reward, terminated, truncated, _ = env.last()
        if shuffle_global:
            random.seed(len(trace))
            np.random.seed(len(trace) + 1)
        action = None
        if not (terminated or truncated):
            action = int(rng.choice(np.flatnonzero(observation["action_mask"])))
        trace.append((agent, observation["observation"].tobytes(), reward, action))
        env.step(action)
    return trace


@pytest.mark.parametrize("options", [{"decks": 1}, {"decks": 2}, {"decks": 3}])
def test_same_seed_same_trajectory_whatever_the_global_rngs(options):
    first = play(11, options)
    assert play(11, options) == first
    assert play(11, options, shuffle_global=True) == first
    assert play(12, options) != first


def result(winner: str, gain: int, points: int, dealer: int = 0) -> HandResult:
    return HandResult(dealer, 0, 0, points, 0, 0, 0, points, winner, gain, 0, None)


@pytest.mark.parametrize(
    ("winner", "gain", "points", "dealer", "expected"),
    [
        ("dealer", 3, 0, 0, (3.0, -3.0)),
        ("dealer", 1, 50, 1, (-1.0, 1.0)),
        ("attackers", 0, 90, 0, (-1.0, 1.0)),  # a bare take-over is worth one
        ("attackers", 2, 170, 1, (3.0, -3.0)),
    ],
)
def test_level_rewards(winner, gain, points, dealer, expected):
    assert hand_rewards(result(winner, gain, points, dealer), "levels", RuleConfig()) == expected


def test_point_rewards_are_scaled_and_zero_sum():
    config = RuleConfig()
    assert hand_rewards(result("attackers", 0, 80), "points", config) == (-0.0, 0.0)
    assert hand_rewards(result("dealer", 3, 0), "points", config) == (1.0, -1.0)
    assert hand_rewards(result("attackers", 5, 400), "points", config) == (-1.0, 1.0)


def test_rewards_are_zero_sum_and_shared_by_partners():
    for seed in range(5):
        env = raw_env(decks=1)
        env.reset(seed=seed)
        totals = dict.fromkeys(env.possible_agents, 0.0)
        rng = np.random.default_rng(seed)
        for agent in env.agent_iter():
            observation, reward, terminated, truncated, _ = env.last()
            totals[agent] += reward
            mask = observation["action_mask"]
            env.step(None if terminated or truncated else int(rng.choice(np.flatnonzero(mask))))
        assert totals["player_0"] == totals["player_2"] == -totals["player_1"]
        assert totals["player_1"] == totals["player_3"] != 0


def test_render_ansi_shows_suits_trump_and_the_trick():
    env = raw_env(render_mode="ansi")
    env.reset(seed=1)
    rng = np.random.default_rng(1)
    while env.game.phase.value != "play" or not env.game.trick:
        env.step(int(rng.choice(np.flatnonzero(env.observe(env.agent_selection)["action_mask"]))))
    text = env.render()
    assert "trump" in text and "Trick" in text and any(s in text for s in "♠♥♦♣")


def test_single_agent_wrapper_passes_gymnasiums_checker():
    check_env(SingleAgentEnv(decks=1), skip_render_check=True)


def test_single_agent_wrapper_plays_whole_hands_and_punishes_illegal_actions():
    env = SingleAgentEnv(learner_seat="random", decks=2)
    env.reset(seed=0)
    done, steps = False, 0
    while not done:
        mask = env.action_masks()
        assert mask.dtype == bool and mask.any()
        _, reward, done, _, info = env.step(int(np.flatnonzero(mask)[-1]))
        steps += 1
    assert reward != 0 and steps > 10
    env.reset(seed=1)
    illegal = int(np.flatnonzero(~env.action_masks())[0])
    _, reward, done, _, info = env.step(illegal)
    assert done and reward == -1.0 and "illegal_action" in info


def test_vector_env_gives_masks_per_env():
    vector = make_vector_env(2, decks=1)
    observations, _ = vector.reset(seed=0)
    masks = np.array(vector.call("action_masks"))
    assert observations.shape[0] == 2 and masks.shape == (2, NUM_ACTIONS)
    actions = [int(np.flatnonzero(mask)[0]) for mask in masks]
    vector.step(np.array(actions))
    vector.close()


def test_commit_is_the_last_action():
    assert COMMIT == NUM_ACTIONS - 1 == 54


def test_stepping_a_raw_env_after_its_episode_ended_says_to_reset():
    import numpy as np

    from shengji_env import shengji_v1

    env = shengji_v1.raw_env(decks=1)
    env.reset(seed=0)
    rng = np.random.default_rng(0)
    for _ in env.agent_iter():
        observation, _, terminated, truncated, _ = env.last()
        done = terminated or truncated
        env.step(None if done else int(rng.choice(np.flatnonzero(observation["action_mask"]))))
    with pytest.raises(ValueError, match=r"the episode is over: call reset\(\)"):
        env.step(0)
