"""The card network's play features agree with the rules engine's reading of the trick,
at every follow of seeded heuristic games with 1, 2 and 3 decks."""

import pytest
import torch

from agents import HeuristicAgent
from agents.canonical import SUM_SCALE, Canonicalize
from agents.knowledge import unseen
from agents.network import make_network
from agents.play import play_hand
from agents.play_features import POINT_SCALE, PlayFeatures
from shengji_env.env import raw_env
from shengji_env.rules import TRUMP, card_points
from shengji_env.rules.trick import trick_winner


def _features(observation) -> tuple[torch.Tensor, torch.Tensor, torch.Tensor]:
    obs = torch.from_numpy(observation)[None]
    parts = Canonicalize().card_parts(obs)
    per_slot, context = PlayFeatures()(parts, obs)
    return per_slot[0].T, context[0], parts.slot_of_card[0]


def _expected(view, card: int, decks: int) -> tuple[float, ...]:
    ctx = view.ctx
    suit = ctx.suits[card]
    winning = list(view.trick[trick_winner(list(view.trick), ctx)])
    same_suit = [c for c in winning if ctx.suits[c] == suit]
    above = bool(same_suit) and ctx.rank_keys[card] > max(ctx.rank_keys[c] for c in same_suit)
    length = sum(1 for c in view.hand if ctx.suits[c] == suit)
    partner = (view.seat + 2) % 4
    opponents = [(view.seat + 1) % 4, (view.seat + 3) % 4]
    threat = any(view.voids[o][suit] and not view.voids[o][TRUMP] for o in opponents)
    return (
        float(ctx.suits[view.trick[0][0]] == suit),
        float(bool(same_suit)),
        float(above),
        card_points(card) / POINT_SCALE,
        length / decks / SUM_SCALE,
        float(view.voids[partner][suit]),
        float(threat),
    )


def _expected_context(view, decks: int) -> list[float]:
    ctx = view.ctx
    winning = list(view.trick[trick_winner(list(view.trick), ctx)])
    top = max(winning, key=lambda c: ctx.rank_keys[c])
    over = sum(
        copies
        for card, copies in unseen(view).items()
        if ctx.suits[card] == ctx.suits[top] and ctx.rank_keys[card] > ctx.rank_keys[top]
    )
    lead = view.trick[0]
    return [
        sum(card_points(c) for play in view.trick for c in play) / POINT_SCALE / decks,
        len(lead) / decks,
        max(lead.count(c) for c in lead) / decks,
        float(ctx.suits[top] == TRUMP),
        over / decks / SUM_SCALE,
    ]


@pytest.mark.parametrize("decks", [1, 2, 3])
def test_each_card_in_hand_reads_the_trick_as_the_rules_do(decks):
    checked = 0

    def check(seat, observed, info, action):
        nonlocal checked
        view = info["view"]
        if view.kind.value != "follow" or info.get("selection"):
            return
        per_slot, context, slot_of_card = _features(observed["observation"])
        for card in set(view.hand):
            got = tuple(round(float(x), 4) for x in per_slot[slot_of_card[card]])
            assert got == pytest.approx(_expected(view, card, decks), abs=1e-4), (view.trick, card)
        assert context.tolist() == pytest.approx(_expected_context(view, decks), abs=1e-4)
        checked += 1

    for seed in range(3):
        play_hand(raw_env(decks=decks), [HeuristicAgent()] * 4, seed, on_decision=check)
    assert checked > 40


def test_a_lead_has_no_trick_to_read():
    env = raw_env(decks=2)
    env.reset(seed=4)
    for _name in env.agent_iter():
        observed, _, _, _, info = env.last()
        if info["view"].kind.value == "lead":
            per_slot, context, _ = _features(observed["observation"])
            assert float(per_slot[:, :3].abs().sum()) == 0.0 and float(context.abs().sum()) == 0.0
            return
        env.step(HeuristicAgent().act(observed, info))


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
    from agents.onnx_agent import OnnxAgent
    from agents.policy_file import save_checkpoint
    from train.config import load_config
    from train.export import export_policy, golden_positions

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
