"""The card network with the trick's reading and the deck count: masks, ONNX parity."""

import torch

from shengji_env.agents.network import make_network
from shengji_env.env import raw_env


def test_the_network_with_play_features_masks_like_the_plain_one():
    net = make_network({"network": "cards", "card_play_features": True, "card_width": 16})
    env = raw_env(decks=2)
    env.reset(seed=6)
    for _ in range(200):
        observed = env.observe(env.agent_selection)
        logits, _ = net(
            torch.from_numpy(observed["observation"])[None],
            torch.from_numpy(observed["action_mask"])[None],
        )
        legal = (logits[0] > -1e8).numpy()
        assert (legal == observed["action_mask"].astype(bool)).all()
        env.step(int(logits[0].argmax()))
        if all(env.terminations.values()):
            break


def test_a_card_network_with_play_features_and_deck_context_exports_to_onnx_with_parity(tmp_path):
    from shengji_env.agents.onnx_agent import OnnxAgent
    from shengji_env.agents.policy_file import save_checkpoint
    from shengji_env.train.config import load_config
    from shengji_env.train.export import export_policy, golden_positions

    config = load_config(
        None,
        [
            "network=cards",
            "card_width=16",
            "card_blocks=1",
            "card_play_features=true",
            "card_deck_context=true",
        ],
    ).to_dict()
    torch.manual_seed(0)
    net = make_network(config)
    save_checkpoint(tmp_path / "policy.pt", {"model": net.state_dict(), "config": config})
    export_policy(tmp_path / "policy.pt", tmp_path / "export")
    observations, masks, _ = golden_positions(config, 300, seed=2)
    with torch.no_grad():
        logits, values = net(torch.from_numpy(observations), torch.from_numpy(masks))
    onnx_logits, onnx_values = OnnxAgent(str(tmp_path / "export")).logits(observations, masks)
    legal = masks.astype(bool)
    assert abs(onnx_logits[legal] - logits.numpy()[legal]).max() < 1e-4
    assert abs(onnx_values - values.numpy()).max() < 1e-4
