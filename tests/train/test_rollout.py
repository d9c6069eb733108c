"""Rollout collection with the duplicate baseline: each hand's reward is the learner's
reward less what the heuristic bot scores from the same seat on the same deal; with
``failed_throw_cost``, that cost at the step that committed each failed throw."""

import dataclasses

import numpy as np
import pytest
import torch

from shengji_env.agents import HeuristicAgent
from shengji_env.agents.advice import NO_ADVICE, HeuristicAdvice
from shengji_env.agents.behaviour import failed_leads
from shengji_env.agents.network import make_network
from shengji_env.agents.play import play_hand
from shengji_env.env import raw_env
from shengji_env.train.baseline import point_scores
from shengji_env.train.ppo import gain_stats
from shengji_env.train.rewards import HandReward
from shengji_env.train.rollout import Collector
from shengji_env.train.trajectories import LEAD_PHASE, SELECTION

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


@torch.no_grad()  # as collect plays
def play_out(collector: Collector, seed: int):
    """One hand collected by ``collector``, played to its end."""
    hand = collector._new_hand(raw_env(decks=1), np.random.default_rng(seed))
    generator = torch.Generator().manual_seed(seed)
    while not all(hand.env.terminations.values()):
        agent = hand.env.agent_selection
        seat = hand.env.possible_agents.index(agent)
        key = "learner" if seat in hand.learner_seats else id(hand.opponent)
        collector._act(key, [(hand, seat, hand.env.observe(agent))], generator)
    return hand


def test_a_failed_throw_costs_the_learner_at_the_step_that_committed_it(tmp_path):
    cost = 0.25
    config = tiny(
        tmp_path, "decks=1", "opponents={heuristic: 1}", f"failed_throw_cost={cost}", "gae_lambda=1"
    )
    collector = Collector(config)  # an untrained network: it throws at random, and fails
    torch.manual_seed(0)
    collector.load(make_network(config.to_dict()).state_dict(), [])
    hand = play_out(collector, seed=5)
    shaped = collector._finish(hand)
    collector.reward = dataclasses.replace(collector.reward, failed_throw_cost=0.0)
    plain = collector._finish(hand)
    failed = {seat: failed_leads(hand.env.game, seat) for seat in hand.samples}
    assert sum(map(sum, failed.values())) > 0
    start = 0
    for seat in sorted(hand.samples):  # gamma 1, lambda 1: the return is the rewards to come
        steps = hand.samples[seat]
        stop = start + len(steps)
        extra = shaped["returns"][start:stop] - plain["returns"][start:stop]
        drops = np.flatnonzero(abs(np.diff(np.r_[extra, 0.0])) > 1e-5)  # the steps that cost
        assert len(drops) == sum(failed[seat])
        for step in drops:  # a lead's last step: the seat's next step starts a new decision
            assert steps[step][0][LEAD_PHASE] == 1
            assert step + 1 == len(steps) or not steps[step + 1][0][SELECTION].any()
        assert extra[0] == pytest.approx(-cost * sum(failed[seat]), abs=1e-5)
        start = stop
    assert start == len(shaped["returns"])


def test_the_cost_needs_one_lead_commit_per_trick_led():
    observations = np.zeros((1, 1017), np.float32)  # a bid, not a lead
    with pytest.raises(RuntimeError, match="0 leads recorded for 1 tricks led"):
        HandReward(failed_throw_cost=0.1).step_rewards(observations, [True])


def test_each_hand_draws_its_deck_count_from_the_mix_and_its_baseline_plays_that_deal(tmp_path):
    config = tiny(
        tmp_path, "opponents={heuristic: 1}", "duplicate_baseline=true", "ppo_decks={1: 1, 3: 1}"
    )
    collector = Collector(config)
    collector.load(make_network(config.to_dict()).state_dict(), [])
    rng = np.random.default_rng(6)
    env, seen = raw_env(decks=2), []
    for _ in range(8):
        state = rng.bit_generator.state
        hand = collector._new_hand(env, rng)
        env, decks = hand.env, hand.env.config.decks
        rng_copy = np.random.default_rng()
        rng_copy.bit_generator.state = state
        seed = int(rng_copy.integers(2**31))  # the deal is drawn first, as without a mix
        assert hand.baseline == play_hand(raw_env(decks=decks), [HeuristicAgent()] * 4, seed)
        seen.append(decks)
    assert set(seen) == {1, 3}
    batch = collector.collect(300, seed=1)  # hands of both sizes play to their ends
    assert len(batch["hand_rewards"]) >= 1 and len(batch["actions"]) >= 300
    assert len(batch["hand_gain_decks"]) == len(batch["hand_gains"]) == len(batch["hand_rewards"])
    assert set(batch["hand_gain_decks"]) <= {1, 3}


def test_the_gain_over_the_baseline_is_logged_by_deck_count_when_the_batch_mixes_them():
    gains, decks = np.array([1.0, -2.0, 0.5, 0.0]), np.array([1, 3, 1, 3])
    assert gain_stats(gains, decks) == {
        "charts/gain_vs_heuristic": -0.125,
        "charts/gain_vs_heuristic_1decks": 0.75,
        "charts/gain_vs_heuristic_3decks": -1.0,
    }
    assert gain_stats(gains[:1], decks[:1]) == {"charts/gain_vs_heuristic": 1.0}
    assert gain_stats(gains[:0], decks[:0]) == {}


@pytest.mark.parametrize("decks", [1, 2, 3])
def test_point_scores_give_attackers_their_points_and_defenders_the_negative_in_bands(decks):
    env = raw_env(decks=decks)
    play_hand(env, [HeuristicAgent()] * 4, seed=11)
    result = env.game.result
    scores = point_scores(env.game)
    attackers = result.attacker_points / (20 * decks)
    assert scores[result.dealer] == scores[(result.dealer + 2) % 4] == -attackers
    assert scores[(result.dealer + 1) % 4] == scores[(result.dealer + 3) % 4] == attackers


def test_the_point_gain_over_the_baseline_hand_joins_the_learner_reward(tmp_path):
    coef = 0.5
    config = tiny(
        tmp_path,
        "decks=1",
        "opponents={heuristic: 1}",
        "duplicate_baseline=true",
        f"point_gain_coef={coef}",
        "gae_lambda=1",
    )
    collector = Collector(config)
    torch.manual_seed(0)
    collector.load(make_network(config.to_dict()).state_dict(), [])
    hand = play_out(collector, seed=5)
    deal = int(np.random.default_rng(5).integers(2**31))  # the deal _new_hand draws first
    baseline_env = raw_env(decks=1)
    play_hand(baseline_env, [HeuristicAgent()] * 4, deal)
    assert hand.baseline_points == point_scores(baseline_env.game)
    shaped = collector._finish(hand)
    collector.reward = dataclasses.replace(collector.reward, point_gain_coef=0.0)
    plain = collector._finish(hand)
    scores, start = point_scores(hand.env.game), 0
    for seat in sorted(hand.samples):  # gamma 1, lambda 1: every step's return gains it
        stop = start + len(hand.samples[seat])
        gained = coef * (scores[seat] - hand.baseline_points[seat])
        extra = shaped["returns"][start:stop] - plain["returns"][start:stop]
        assert extra == pytest.approx(np.full(stop - start, gained), abs=1e-5)
        start = stop
    assert any(scores[seat] != hand.baseline_points[seat] for seat in hand.samples)


@pytest.mark.parametrize("decks", [1, 2, 3])
def test_the_core_heuristic_opponent_collects_the_python_heuristic_batch(
    tmp_path, monkeypatch, decks
):
    """On the core engine the league's heuristic leads and follows come from the core's
    copy of the bot; on the Python engine from HeuristicAgent itself: the same batch."""
    from shengji_env.core import load_core

    if load_core() is None:
        pytest.skip("the compiled core is not built")
    config = tiny(
        tmp_path,
        f"decks={decks}",
        "envs_per_worker=3",
        "opponents={heuristic: 1}",
        "rules={start_level: random}",
        "start=mid_match",
    )
    weights = make_network(config.to_dict()).state_dict()
    batches = {}
    for engine in ("python", "core"):
        monkeypatch.setenv("SHENGJI_ENGINE", engine)
        collector = Collector(config)
        collector.load(weights, [])
        batches[engine] = collector.collect(600, seed=decks)
    assert len(batches["core"]["actions"]) >= 600
    for key, values in batches["python"].items():
        np.testing.assert_array_equal(batches["core"][key], values, err_msg=key)
