"""Rollout collection with the duplicate baseline: each hand's reward is the learner's
reward less what the heuristic bot scores from the same seat on the same deal."""

import numpy as np
import pytest

from agents import HeuristicAgent
from agents.advice import NO_ADVICE, HeuristicAdvice
from agents.network import make_network
from agents.play import play_hand
from shengji_env.env import raw_env
from train.rollout import Collector

from .helpers import tiny


def test_a_heuristic_hand_is_the_heuristic_playing_the_deal():
    env, bot = raw_env(decks=1), HeuristicAgent()
    seen: list[tuple[int, int]] = []
    totals = play_hand(env, [bot] * 4, 9, lambda s, o, i, a: seen.append((s, a)))
    assert env.game.result is not None and len(seen) > 30
    assert totals[0] == totals[2] == -totals[1] == -totals[3] != 0
    assert play_hand(raw_env(decks=1), [HeuristicAgent()] * 4, 9) == totals  # deterministic


@pytest.mark.parametrize("baseline", [False, True])
def test_the_last_reward_of_each_seat_is_its_gain_over_the_heuristic(tmp_path, baseline):
    config = tiny(tmp_path, "decks=1", "opponents={heuristic: 1}", f"duplicate_baseline={baseline}")
    collector = Collector(config)
    collector.load(make_network(config.to_dict()).state_dict(), [])
    rng = np.random.default_rng(4)
    seed = int(np.random.default_rng(4).integers(2**31))  # the deal _new_hand draws first
    hand = collector._new_hand(raw_env(decks=1), rng)
    expected = play_hand(raw_env(decks=1), [HeuristicAgent()] * 4, seed)
    assert hand.baseline == (expected if baseline else [0.0] * 4)
    batch = collector.collect(1, seed=2)  # one environment: one whole hand
    (gain,), (reward,) = batch["hand_gains"], batch["hand_rewards"]
    assert batch["returns"][-1] == pytest.approx(gain)  # the last step's return is its reward
    assert gain != reward if baseline else gain == reward


def test_the_advice_is_the_heuristic_own_play_and_stops_off_its_plan():
    env, bot, advice = raw_env(decks=1), HeuristicAgent(), HeuristicAdvice()
    advised = []

    def check(seat, observed, info, action):
        assert advice.next_action(observed, info) == action  # on its own path: its own action
        advised.append(action)

    play_hand(env, [bot] * 4, seed=3, on_decision=check)
    assert len(advised) > 50
    # a lead with a card the heuristic did not plan first: no advice for the rest of it
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
                assert advice.next_action(observed, info) == NO_ADVICE
                return
        else:
            env.step(bot.act(observed, info))
    pytest.fail("no single-card lead with a continuation in this hand")
