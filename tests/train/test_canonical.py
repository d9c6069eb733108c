"""Trump-relative slots: a permutation per hand, and a network that respects it."""

import numpy as np
import pytest
import torch

from shengji_env.agents.canonical import (
    CARD_BLOCKS,
    COUNTING_GAINS,
    PLAY_GAINS,
    RECORD_CHUNKS,
    Canonicalize,
    canonical_slots,
)
from shengji_env.agents.network import PolicyNet
from shengji_env.encoding import OBS_LAYOUT
from shengji_env.env import raw_env
from shengji_env.rules import parse_cards
from shengji_env.train.export import export_policy
from shengji_env.train.ppo import train

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
    net = PolicyNet([32], counting=True)
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


@pytest.mark.parametrize("network", ["mlp", "counting"])
def test_canonical_training_exports_with_parity(tmp_path, network):
    run = train(tiny(tmp_path, "num_workers=0", "total_steps=500", f"network={network}"))
    export_policy(run / "checkpoint.pt", tmp_path / "export")
    from shengji_env.agents.network import make_network
    from shengji_env.agents.onnx_agent import OnnxAgent
    from shengji_env.agents.policy_file import load_checkpoint

    data = load_checkpoint(run / "checkpoint.pt")
    net = make_network(data["config"])
    net.load_state_dict(data["model"])
    env = raw_env()
    env.reset(seed=1)
    for _ in range(80):  # into the play, where the counting features are not all zero
        observed = env.observe(env.agent_selection)
        env.step(int(np.flatnonzero(observed["action_mask"])[0]))
    observed = env.observe(env.agent_selection)
    obs, mask = observed["observation"][None], observed["action_mask"][None]
    with torch.no_grad():
        expected, _ = net(torch.from_numpy(obs), torch.from_numpy(mask))
    actual, _ = OnnxAgent(str(tmp_path / "export")).logits(obs, mask)
    legal = mask.astype(bool)
    np.testing.assert_allclose(actual[legal], expected.numpy()[legal], atol=1e-4)


@pytest.mark.parametrize("play", [False, True])
def test_the_chunks_are_the_observation_cards_in_slot_order_with_their_gains(play):
    canonicalize = Canonicalize(play=play)
    env = raw_env(decks=3, start_level="random")
    env.reset(seed=5)
    rng = np.random.default_rng(5)
    blocks = [*CARD_BLOCKS, "card_counting", *(["play_reading"] if play else [])]
    gains = [1.0] * RECORD_CHUNKS + list(COUNTING_GAINS) + (list(PLAY_GAINS) if play else [])
    for _ in range(60):
        observed = env.observe(env.agent_selection)
        observation = observed["observation"]
        parts = canonicalize(torch.from_numpy(observation)[None])
        by_card = np.concatenate([observation[OBS_LAYOUT[name]] for name in blocks])
        by_card = by_card.reshape(-1, 54) * np.array(gains)[:, None]
        slots = parts.slot_of_card[0].numpy()
        np.testing.assert_allclose(parts.cards[0].numpy()[:, slots], by_card, rtol=1e-6)
        env.step(int(rng.choice(np.flatnonzero(observed["action_mask"]))))
