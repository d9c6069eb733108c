"""The versioned entry points users pin: ``shengji_v1``, its documentation table and the
gymnasium registration."""

import gymnasium
import numpy as np
import pytest

import shengji_env.shengji_v1 as shengji_v1
from shengji_env.encoding import OBS_LAYOUT, OBS_SIZE, observation_table


def test_the_versioned_module_builds_both_envs():
    game = shengji_v1.env(decks=1)
    game.reset(seed=0)
    observation, *_ = game.last()
    assert observation["observation"].shape == (OBS_SIZE,)
    raw = shengji_v1.raw_env(decks=3)
    raw.reset(seed=0)
    assert raw.possible_agents == ["player_0", "player_1", "player_2", "player_3"]


def test_the_documented_observation_table_is_the_layout():
    assert observation_table() in shengji_v1.__doc__
    for name, block in OBS_LAYOUT.items():
        assert f"| `{name}` | {block.start}–{block.stop - 1} |" in shengji_v1.__doc__
    assert f"({OBS_SIZE},)" in shengji_v1.__doc__


def test_gymnasium_makes_the_single_agent_env_by_its_id():
    env = gymnasium.make("shengji_env.shengji_v1:Shengji-v1", decks=1)
    observation, _ = env.reset(seed=3)
    mask = env.unwrapped.action_masks()
    assert observation.shape == (OBS_SIZE,) and mask.any()
    after, reward, _, _, _ = env.step(int(np.flatnonzero(mask)[0]))
    assert after.shape == (OBS_SIZE,) and isinstance(reward, float)
    assert shengji_v1.GYMNASIUM_ID in gymnasium.registry


def test_the_versioned_module_offers_batches_and_whole_moves():
    from shengji_env.core import load_core

    game = shengji_v1.raw_env(decks=1)
    game.reset(seed=2)
    moves = shengji_v1.legal_moves(game)
    assert () in moves  # the first decision is a bid: passing is a move
    shengji_v1.play(game, moves[0])
    if load_core() is not None:
        tables = shengji_v1.vec_env(2, seed=0, decks=1)
        assert tables.reset().observations.shape == (2, OBS_SIZE)


def test_the_replaced_version_fails_at_import_with_what_changed():
    import importlib
    import sys

    sys.modules.pop("shengji_env.shengji_v0", None)
    with pytest.raises(ImportError, match=r"replaced by shengji_env\.shengji_v1"):
        importlib.import_module("shengji_env.shengji_v0")
