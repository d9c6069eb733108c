"""Behaviour cloning: the demonstrations are the heuristic's real decisions and outcomes,
and cloning makes the policy agree with the heuristic far more than it did."""

import numpy as np
import pytest
import torch

from shengji_env.agents import HeuristicAgent
from shengji_env.agents.network import make_network
from shengji_env.env import raw_env
from shengji_env.train import bc
from shengji_env.train import demonstrations as demonstrations_io

from .helpers import tiny


@pytest.fixture(scope="module")
def demonstrations():
    return demonstrations_io.heuristic_samples({"decks": 1}, 1500, seed=5)


def test_demonstrations_are_legal_heuristic_decisions_with_hand_rewards(demonstrations):
    data = demonstrations
    assert len(data) >= 1500
    assert data.obs.dtype == np.float16 and data.masks.dtype == np.int8
    assert all(data.masks[i, a] == 1 for i, a in enumerate(data.actions))
    # replay the first hand: same decisions, and each seat's return is its hand reward
    env = raw_env(decks=1)
    env.reset(seed=5)
    bot, index, totals, seats = HeuristicAgent(), 0, [0.0] * 4, []
    for name in env.agent_iter():
        seat = env.possible_agents.index(name)
        observed, reward, terminated, truncated, info = env.last()
        totals[seat] += reward
        if terminated or truncated:
            env.step(None)
            continue
        action = bot.act(observed, info)
        assert action == data.actions[index]
        np.testing.assert_allclose(data.obs[index], observed["observation"], atol=1e-3)
        seats.append(seat)
        index += 1
        env.step(action)
    assert sorted(set(totals)) != [0.0]
    assert list(data.returns[:index]) == [totals[seat] for seat in seats]


def test_collection_splits_over_workers_reproducibly(tmp_path):
    config = tiny(tmp_path, "decks=1", "num_workers=2")
    first = demonstrations_io.collect_demonstrations(config, 400, seed=3)
    again = demonstrations_io.collect_demonstrations(config, 400, seed=3)
    assert len(first) >= 400
    assert np.array_equal(first.actions, again.actions)
    assert np.array_equal(first.returns, again.returns)


def test_cloning_makes_the_policy_agree_with_the_heuristic(tmp_path, demonstrations, monkeypatch):
    config = tiny(tmp_path, "decks=1", "bc_epochs=15", "bc_minibatch_size=64", "hidden_sizes=[64]")
    monkeypatch.setattr(bc, "collect_demonstrations", lambda *args: demonstrations)
    torch.manual_seed(0)
    net = make_network(config.to_dict())
    held_out = int(len(demonstrations) * bc.VALIDATION_SHARE)
    training = np.arange(len(demonstrations) - held_out)
    validation = np.arange(len(demonstrations) - held_out, len(demonstrations))
    before = bc.evaluate_clone(net, demonstrations, validation)
    fit_before = bc.evaluate_clone(net, demonstrations, training)
    after = bc.behaviour_clone(net, config, np.random.default_rng(0))
    fit_after = bc.evaluate_clone(net, demonstrations, training)
    # held-out hands: the policy generalises
    assert after["bc/cross_entropy"] < 0.85 * before["bc/cross_entropy"]
    assert after["bc/accuracy"] > before["bc/accuracy"] + 0.2
    # the critic learns the outcomes it saw (too few hands here to generalise)
    assert fit_after["bc/value_mse"] < 0.5 * fit_before["bc/value_mse"]


def _v0_part(folder, demonstrations):
    """A label part as made before shengji_v1: only the record's columns."""
    from shengji_env.encoding import RECORD_SIZE
    from shengji_env.train.parts import part_path

    folder.mkdir()
    arrays = demonstrations.subset(slice(0, 40)).arrays()
    np.savez_compressed(part_path(folder, 0), **{**arrays, "obs": arrays["obs"][:, :RECORD_SIZE]})
    return arrays


def test_label_parts_made_for_shengji_v0_are_completed_with_their_deck_count(
    tmp_path, demonstrations
):
    from shengji_env.train.distill import load_parts

    arrays = _v0_part(tmp_path / "labels", demonstrations)
    with pytest.raises(ValueError, match="made for another observation layout"):
        load_parts(tmp_path / "labels")
    completed = load_parts(tmp_path / "labels", decks=1)
    np.testing.assert_allclose(
        completed.obs.astype(np.float32), arrays["obs"].astype(np.float32), atol=1e-3
    )
