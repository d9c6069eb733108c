"""Trump-relative slots: a permutation per hand, and a network that respects it."""

import numpy as np
import torch

from shengji_env.env import raw_env
from shengji_env.rules import parse_cards
from train.canonical import canonical_slots
from train.export import export_policy
from train.network import PolicyNet
from train.ppo import train

from .helpers import tiny


def test_slots_are_a_permutation_with_roles_in_fixed_places():
    for trump in (None, 0, 1, 2, 3):
        for level in range(13):
            assert sorted(canonical_slots(level, trump)) == list(range(54))
    hearts_ace = canonical_slots(8, 1)[parse_cards("AH")[0]]
    clubs_ace = canonical_slots(8, 3)[parse_cards("AC")[0]]
    assert hearts_ace == clubs_ace == 47  # the trump ace, whatever the trump suit
    assert canonical_slots(8, 1)[parse_cards("10H")[0]] == 51  # the trump-suit level card
    assert canonical_slots(0, None)[parse_cards("BJ")[0]] == 53


def test_canonical_network_masks_and_maps_logits_back_to_cards():
    net = PolicyNet([32], canonical=True)
    env = raw_env()
    env.reset(seed=2)
    for _ in range(40):
        observed = env.observe(env.agent_selection)
        logits, _ = net(
            torch.from_numpy(observed["observation"])[None],
            torch.from_numpy(observed["action_mask"])[None],
        )
        legal = logits[0] > -1e8
        assert np.array_equal(legal.numpy(), observed["action_mask"].astype(bool))
        env.step(int(logits[0].argmax()))


def test_canonical_training_exports_with_parity(tmp_path):
    run = train(tiny(tmp_path, "num_workers=0", "total_steps=500", "network=canonical"))
    export_policy(run / "checkpoint.pt", tmp_path / "export")
    from agents.onnx_agent import OnnxAgent
    from train.checkpoint import load_checkpoint
    from train.network import make_network

    data = load_checkpoint(run / "checkpoint.pt")
    net = make_network(data["config"])
    net.load_state_dict(data["model"])
    env = raw_env()
    env.reset(seed=1)
    observed = env.observe(env.agent_selection)
    obs, mask = observed["observation"][None], observed["action_mask"][None]
    with torch.no_grad():
        expected, _ = net(torch.from_numpy(obs), torch.from_numpy(mask))
    actual, _ = OnnxAgent(str(tmp_path / "export")).logits(obs, mask)
    legal = mask.astype(bool)
    np.testing.assert_allclose(actual[legal], expected.numpy()[legal], atol=1e-4)
