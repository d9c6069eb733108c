"""Rollout collection with the duplicate baseline: each hand's reward is the learner's
reward less what the heuristic bot scores from the same seat on the same deal."""

import numpy as np
import pytest
import torch

from agents import HeuristicAgent
from shengji_env.env import raw_env
from train.bc import play_hand, play_heuristic_hand
from train.network import make_network
from train.ppo import guidance_loss
from train.rollout import NO_LABEL, Collector, HeuristicTeacher

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


def test_the_teacher_labels_the_heuristic_own_play_and_stops_off_its_plan():
    env, bot, teacher = raw_env(decks=1), HeuristicAgent(), HeuristicTeacher()
    labelled = []

    def check(seat, observed, info, action):
        assert teacher.label(observed, info) == action  # on its own path: its own action
        labelled.append(action)

    play_hand(env, [bot] * 4, seed=3, on_decision=check)
    assert len(labelled) > 50
    # a lead with a card the heuristic did not plan first: no label for the rest of it
    env.reset(seed=3)
    for name in env.agent_iter():
        observed, _, _, _, info = env.last()
        view = info["view"]
        plan = bot.decide(view)
        if view.kind.value == "lead" and len(plan) == 1:
            other = next(c for c in np.flatnonzero(observed["action_mask"]) if c != plan[0])
            env.step(int(other))
            if env.agent_selection == name:  # still this seat's decision
                observed, _, _, _, info = env.last()
                assert teacher.label(observed, info) == NO_LABEL
                return
        else:
            env.step(bot.act(observed, info))
    pytest.fail("no single-card lead with a continuation in this hand")


def test_guidance_is_logged_and_pulls_toward_the_labels(tmp_path):
    from train.checkpoint import load_checkpoint
    from train.ppo import train

    run = train(tiny(tmp_path, "decks=1", "num_workers=0", "total_steps=600", "heuristic_coef=1.0"))
    assert load_checkpoint(run / "checkpoint.pt")["config"]["heuristic_coef"] == 1.0
    distribution = torch.distributions.Categorical(logits=torch.tensor([[0.0, 2.0], [1.0, 0.0]]))
    teacher = torch.tensor([1, -1])
    expected = -torch.log_softmax(torch.tensor([0.0, 2.0]), 0)[1]
    assert guidance_loss(distribution, teacher) == pytest.approx(float(expected))
    assert float(guidance_loss(distribution, torch.tensor([-1, -1]))) == 0.0
