"""Advised policies and SearchAgent labels: the net reads the heuristic's advice, starts by
taking it, learns from SearchAgent's departures from it, and exports with the advice as an
input."""

import numpy as np
import pytest
import torch

from shengji_env.agents import HeuristicAgent, SearchAgent, load_agent
from shengji_env.agents.advice import NO_ADVICE, HeuristicAdvice
from shengji_env.agents.canonical import canonical_slots
from shengji_env.agents.network import PolicyNet, make_network
from shengji_env.agents.play import play_hand
from shengji_env.agents.policy_file import load_checkpoint
from shengji_env.env import raw_env
from shengji_env.train import distill
from shengji_env.train.export import export_policy, golden_positions
from shengji_env.train.ppo import train

from .helpers import tiny

ADVISED = {"network": "counting", "hidden_sizes": [32], "advice": True}


@pytest.fixture(scope="module")
def labels(tmp_path_factory):
    """Two parts of SearchAgent labels (two one-deck deals each, cheap searches)."""
    folder = tmp_path_factory.mktemp("labels")
    with pytest.MonkeyPatch.context() as patch:
        patch.setattr(distill, "DEALS_PER_PART", 2)
        distill.write_parts(folder, [0, 1], {"decks": 1}, rollouts=4)
    return folder


def test_an_advised_net_needs_the_advice_and_starts_by_taking_it():
    net = make_network(ADVISED)
    env, advice = raw_env(decks=1), HeuristicAdvice()
    env.reset(seed=4)
    obs = torch.from_numpy(env.observe(env.agent_selection)["observation"])[None]
    mask = torch.from_numpy(env.observe(env.agent_selection)["action_mask"])[None]
    with pytest.raises(ValueError, match="advice"):
        net(obs, mask)
    taken = []

    class TakeTheAdvice:
        def reset(self):
            pass

        def act(self, observed, info):
            advised = advice.next_action(observed, info)
            logits, _ = net(
                torch.from_numpy(observed["observation"])[None],
                torch.from_numpy(observed["action_mask"])[None],
                torch.tensor([advised]),
            )
            assert int(logits.argmax()) == advised  # on the heuristic's path, never -1
            taken.append(advised)
            return advised

    play_hand(env, [TakeTheAdvice()] * 4, seed=4)
    assert len(taken) > 50


def test_the_advice_input_puts_the_card_in_its_trump_relative_slot():
    slot_of_card = torch.tensor([canonical_slots(8, 1), canonical_slots(0, None)])
    advice = torch.tensor([5, 54])
    hot = PolicyNet._advice_input(advice, slot_of_card)
    assert hot.shape == (2, 55)
    assert int(hot[0].argmax()) == canonical_slots(8, 1)[5] and hot[0].sum() == 1
    assert int(hot[1].argmax()) == 54  # COMMIT keeps its place
    assert PolicyNet._advice_input(torch.tensor([NO_ADVICE]), slot_of_card[:1]).sum() == 0


def test_search_labels_are_its_play_with_the_heuristic_advice_and_gains(labels):
    data = distill.load_parts(labels)
    assert len(data) > 100 and len(data.subset(np.flatnonzero(data.advice >= 0))) > 100
    assert data.obs.dtype == np.float16 and all(
        data.masks[i, a] for i, a in enumerate(data.actions)
    )
    # replay the first deal: SearchAgent's actions, the heuristic's advice, gains as returns
    env, advice = raw_env(decks=1), HeuristicAdvice()
    searchers = [SearchAgent(rollouts=4, seed=seat) for seat in range(4)]
    steps, totals = distill.search_hand(env, searchers, advice, seed=0)
    baseline = play_hand(raw_env(decks=1), [HeuristicAgent()] * 4, 0)
    for index, (seat, _obs, _mask, action, advice) in enumerate(steps):
        assert (data.actions[index], data.advice[index]) == (action, advice)
        assert data.returns[index] == totals[seat] - baseline[seat]


def test_label_parts_are_made_once_and_bad_folders_are_named(labels, tmp_path):
    before = {p.name: p.stat().st_mtime_ns for p in labels.iterdir()}
    distill.write_parts(labels, [0, 1], {"decks": 1}, rollouts=4)  # both exist: nothing made
    assert {p.name: p.stat().st_mtime_ns for p in labels.iterdir()} == before
    assert len(distill.load_parts(labels, 1)) < len(distill.load_parts(labels, 2))
    with pytest.raises(ValueError, match=r"missing: part-00002\.npz"):
        distill.load_parts(labels, 3)
    with pytest.raises(ValueError, match="bc_label_parts needs bc_labels"):
        tiny(tmp_path, "bc_label_parts=3")
    with pytest.raises(ValueError, match="no label parts"):
        distill.load_parts(tmp_path)
    (tmp_path / "part-00003.npz").write_bytes(b"not a zip")
    with pytest.raises(ValueError, match=r"part-00003\.npz: not a readable label part"):
        distill.load_parts(tmp_path)


@pytest.mark.slow
def test_an_advised_run_clones_search_labels_trains_exports_and_plays(tmp_path, labels):
    run = train(
        tiny(
            tmp_path,
            "decks=1",
            "num_workers=0",
            "total_steps=600",
            "network=counting",
            "advice=true",
            f"bc_labels={labels}",
            "bc_label_parts=2",
            "bc_steps=0",
            "opponents={self: 1, snapshot: 1, heuristic: 1}",
        )
    )
    data = load_checkpoint(run / "checkpoint.pt")
    assert data["config"]["advice"] is True and data["update"] >= 2
    assert (run / "bc" / "policy.pt").exists()  # cloned the labels (bc_steps is 0)
    net = make_network(data["config"])
    net.load_state_dict(data["model"])
    export_policy(run / "checkpoint.pt", tmp_path / "export")
    from shengji_env.agents.onnx_agent import OnnxAgent

    exported = OnnxAgent(str(tmp_path / "export"))
    assert "advice" in exported.manifest["inputs"]
    observations, masks, advice = golden_positions(data["config"], 50, seed=3)
    with torch.no_grad():
        expected, _ = net(
            torch.from_numpy(observations), torch.from_numpy(masks), torch.from_numpy(advice)
        )
    actual, _ = exported.logits(observations, masks, advice)
    legal = masks.astype(bool)
    np.testing.assert_allclose(actual[legal], expected.numpy()[legal], atol=1e-4)
    with pytest.raises(ValueError, match="advised"):
        exported.logits(observations, masks)
    for spec in (f"ppo:{run / 'checkpoint.pt'}", f"onnx:{tmp_path / 'export'}"):
        agent, env = load_agent(spec), raw_env(decks=1)
        play_hand(env, [agent] * 4, seed=8)
        assert env.game.result is not None
