"""The batched collector against the heuristic: its heuristic plays HeuristicAgent's
actions; a hand's rewards are the per-environment collector's (the hand's, less the
duplicate baseline, plus point-gain shaping, with the failed-throw cost where a throw
failed); GAE over many trajectories at once is GAE of each."""

from collections import Counter

import numpy as np
import pytest
import torch

from shengji_env.agents import HeuristicAgent
from shengji_env.agents.behaviour import failed_leads
from shengji_env.agents.network import make_network
from shengji_env.core import load_core, to_game
from shengji_env.env import raw_env
from shengji_env.train.baseline import HeuristicBaseline, point_scores
from shengji_env.train.trajectories import gae, gae_segments

from .helpers import tiny

pytestmark = pytest.mark.skipif(load_core() is None, reason="the compiled core is not built")


def test_gae_of_trajectories_end_to_end_is_gae_of_each():
    rng = np.random.default_rng(0)
    lengths = [5, 1, 12, 3]
    starts = np.cumsum([0, *lengths[:-1]])
    rewards = rng.normal(size=sum(lengths)).astype(np.float32)
    values = rng.normal(size=sum(lengths)).astype(np.float32)
    together = gae_segments(rewards, values, starts, 0.99, 0.9)
    for start, length in zip(starts, lengths, strict=True):
        part = slice(start, start + length)
        np.testing.assert_allclose(
            together[part], gae(rewards[part], values[part], 0.99, 0.9), 1e-5
        )


@pytest.mark.parametrize("decks", [1, 2, 3])
def test_the_batch_heuristic_plays_heuristic_agent_at_every_seat(tmp_path, decks):
    """Four heuristic seats at one table, beside an env where HeuristicAgent plays the same
    hand: the same action at every step and the same rewards."""
    from shengji_env.train.batch_rollout import HEURISTIC, BatchCollector, _Hand, _Hands
    from shengji_env.vector import TableBatch

    config = tiny(tmp_path, f"decks={decks}", "start=mid_match", "rules={start_level: random}")
    collector = BatchCollector(config)
    env, bot = raw_env(**config.env_options), HeuristicAgent()
    env.reset(seed=decks)
    batch = TableBatch(1, redeal=False, **collector.table_options)
    batch.reset()
    out = batch.start(0, env.game)
    hands = _Hands(1)
    hands.start(0, (), HEURISTIC, _Hand(env.game.config, np.zeros(4), np.zeros(4)))
    steps = 0
    while not out.dones[0]:
        actions = np.zeros(1, dtype=np.int64)
        collector._heuristic_actions(np.array([0]), batch, hands, actions)
        observed, _, _, _, info = env.last()
        assert actions[0] == bot.act(observed, info), f"step {steps}"
        env.step(int(actions[0]))
        out = batch.step(actions)
        steps += 1
    assert all(env.terminations.values()) and steps > 40
    assert tuple(out.rewards[0]) == tuple(env.rewards[agent] for agent in env.possible_agents)


def collect(tmp_path, seed: int, *more: str) -> tuple[dict, list[tuple], list[int], object]:
    """A batch against the heuristic and self-play (1 and 3 decks, mid-match, random levels,
    the duplicate baseline), with what each hand's end recorded: (serial, hand, the table's
    rewards, the finished game), the seed each hand was dealt from (by serial) and the
    record the batch came from."""
    from shengji_env.train import batch_rollout

    config = tiny(
        tmp_path,
        "envs_per_worker=6",
        "opponents={heuristic: 0.6, self: 0.4}",
        "duplicate_baseline=true",
        "ppo_decks={1: 1, 3: 1}",
        "start=mid_match",
        "rules={start_level: random}",
        "gamma=1",
        "gae_lambda=1",
        *more,
    )
    assert batch_rollout.batchable(config)
    collector = batch_rollout.BatchCollector(config)
    torch.manual_seed(0)
    collector.load(make_network(config.to_dict()).state_dict(), [])
    finished: list[tuple] = []
    seeds: list[int] = []
    records: list = []
    finish, deal = collector._finish, collector._deal

    def spy_finish(index, batch, hands, rewards, record, totals):
        finish(index, batch, hands, rewards, record, totals)
        hand = hands.hands[index]
        game = to_game(batch.state(int(index)), hand.config)
        finished.append((int(hands.serial[index]), hand, rewards.copy(), game))
        records[:] = [record]

    def spy_deal(decks, seed):
        seeds.append(seed)  # hands are dealt in serial order
        return deal(decks, seed)

    collector._finish, collector._deal = spy_finish, spy_deal
    return collector.collect(800, seed=seed), finished, seeds, records[0]


def test_a_mixed_batch_is_deterministic_legal_and_logs_its_gains_by_deck_count(tmp_path):
    first, finished, _, _ = collect(tmp_path, 5)
    second, _, _, _ = collect(tmp_path, 5)
    for key in first:
        np.testing.assert_array_equal(first[key], second[key], err_msg=key)
    masks, actions = first["masks"], first["actions"]
    assert len(actions) >= 800 and masks[np.arange(len(actions)), actions].all()
    assert len(first["hand_rewards"]) == len(finished)
    assert 0 < len(first["hand_gains"]) < len(finished)  # hands against the heuristic only
    assert set(first["hand_gain_decks"]) == {1, 3}
    assert {hand.config.decks for _, hand, _, _ in finished} == {1, 3}


def test_each_trajectory_returns_its_reward_less_the_baseline_with_shaping(tmp_path):
    """gamma 1 and lambda 1: a seat's first return is the sum of its rewards: the hand's
    reward less the baseline's (the heuristic replayed on the hand's seed), plus the
    point-gain shaping, less the cost of its failed throws (an untrained network throws at
    random and fails)."""
    cost, coef = 0.25, 0.5
    batch, finished, seeds, record = collect(
        tmp_path, 2, f"failed_throw_cost={cost}", f"point_gain_coef={coef}"
    )
    ends = {
        serial: (position, hand, rewards, game)
        for position, (serial, hand, rewards, game) in enumerate(finished)
    }
    serials = np.concatenate([block[5] for block in record.blocks])
    seats = np.concatenate([block[6] for block in record.blocks])
    counts = Counter(zip(serials.tolist(), seats.tolist(), strict=True))
    baseline = HeuristicBaseline(
        tiny(tmp_path, "start=mid_match", "rules={start_level: random}").env_options
    )
    start, failures = 0, 0
    for serial, seat in sorted(counts, key=lambda key: (ends[key[0]][0], key[1])):
        _, hand, rewards, game = ends[serial]
        base, points = baseline.score(hand.config.decks, seeds[serial])
        failed = sum(failed_leads(game, seat))
        failures += failed
        expected = (
            rewards[seat]
            - base[seat]
            + coef * (point_scores(game)[seat] - points[seat])
            - cost * failed
        )
        assert batch["returns"][start] == pytest.approx(expected, abs=1e-4), (serial, seat)
        start += counts[(serial, seat)]
    assert start == len(batch["returns"]) and failures > 0


def test_both_collectors_reward_the_same_hand_alike(tmp_path):
    """One reward module: each hand the batched collector finished, handed to the
    per-environment collector with the same samples, gets the same rewards and returns
    (the hand's reward less the baseline, the point gain, the failed-throw costs): with
    gamma 1, lambda 1 and the same values, a step's return is the rewards still to come."""
    from types import SimpleNamespace

    from shengji_env.train.rollout import Collector
    from shengji_env.train.rollout import _Hand as EnvHand

    shaping = ("failed_throw_cost=0.25", "point_gain_coef=0.5")
    batch, finished, _, record = collect(tmp_path, 3, *shaping)
    per_env = Collector(tiny(tmp_path, "start=mid_match", "gamma=1", "gae_lambda=1", *shaping))
    obs, masks, actions, logprobs, values, serials, seats = (
        np.concatenate(column) for column in zip(*record.blocks, strict=True)
    )
    start, compared = 0, 0
    for serial, hand, rewards, game in finished:
        env = SimpleNamespace(
            game=game,
            rewards={f"player_{seat}": float(rewards[seat]) for seat in range(4)},
            possible_agents=[f"player_{seat}" for seat in range(4)],
        )
        samples = {
            int(seat): [
                (obs[row], masks[row], actions[row], logprobs[row], values[row], -1)
                for row in np.flatnonzero((serials == serial) & (seats == seat))
            ]
            for seat in np.unique(seats[serials == serial])
        }
        arrays = per_env._finish(
            EnvHand(env, set(samples), None, hand.baseline, hand.baseline_points, samples)
        )
        stop = start + len(arrays["returns"])
        # the same rewards; the two GAE codes round apart by float32 ulps
        np.testing.assert_allclose(batch["returns"][start:stop], arrays["returns"], atol=1e-5)
        start, compared = stop, compared + 1
    assert start == len(batch["returns"]) and compared == len(finished) > 3
