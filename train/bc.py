"""Behaviour cloning from HeuristicAgent: an optional warm start before PPO.

The heuristic plays all four seats; every decision it makes becomes a sample (observation,
mask, action) and the seat's reward for the hand becomes the value target (or, with the
duplicate baseline, its gain over the heuristic: zero), so PPO starts with a policy that
plays like the heuristic *and* a critic that can judge it. Collection
runs in ``num_workers`` processes; observations are kept as float16 (they are counts and
fractions in [0, 1]) to fit millions of samples in memory.
"""

from __future__ import annotations

import multiprocessing
from collections.abc import Callable
from dataclasses import dataclass, fields
from typing import Any

import numpy as np
import torch
from torch import nn

from agents import HeuristicAgent
from shengji_env.env import raw_env

from .config import TrainConfig
from .network import PolicyNet

VALIDATION_SHARE = 0.05


@dataclass
class Demonstrations:
    """Decisions of the heuristic bot with each seat's reward for its hand."""

    obs: np.ndarray  # float16 [n, OBS_SIZE]
    masks: np.ndarray  # int8 [n, 55]
    actions: np.ndarray  # int64 [n]
    returns: np.ndarray  # float32 [n]

    def __len__(self) -> int:
        return len(self.actions)

    def subset(self, index: np.ndarray) -> Demonstrations:
        return Demonstrations(
            self.obs[index], self.masks[index], self.actions[index], self.returns[index]
        )


def play_heuristic_hand(
    env: Any,
    bot: HeuristicAgent,
    seed: int,
    on_decision: Callable[[int, dict[str, np.ndarray], int], None] | None = None,
) -> list[float]:
    """HeuristicAgent plays all four seats of the deal ``seed``; each seat's reward.
    ``on_decision(seat, observation, action)`` sees every decision."""
    env.reset(seed=seed)
    totals = [0.0] * 4
    for name in env.agent_iter():
        seat = env.possible_agents.index(name)
        observed, reward, terminated, truncated, info = env.last()
        totals[seat] += reward
        if terminated or truncated:
            env.step(None)
            continue
        action = bot.act(observed, info)
        if on_decision is not None:
            on_decision(seat, observed, action)
        env.step(action)
    return totals


def heuristic_samples(
    env_options: dict[str, Any], count: int, seed: int, gains: bool = False
) -> Demonstrations:
    """At least ``count`` decisions of HeuristicAgent in all four seats, whole hands. The
    value target is the seat's hand reward, or with ``gains`` its gain over the heuristic
    itself (zero: the duplicate baseline of a heuristic hand is the hand)."""
    env = raw_env(**env_options)
    bot = HeuristicAgent()
    obs: list[np.ndarray] = []
    masks: list[np.ndarray] = []
    actions: list[int] = []
    seats: list[int] = []

    def record(seat: int, observed: dict[str, np.ndarray], action: int) -> None:
        obs.append(observed["observation"].astype(np.float16))
        masks.append(observed["action_mask"])
        actions.append(action)
        seats.append(seat)

    returns: list[float] = []
    hand = 0
    while len(actions) < count:
        start = len(seats)
        totals = play_heuristic_hand(env, bot, seed + hand, record)
        hand += 1
        returns += [0.0 if gains else totals[seat] for seat in seats[start:]]
    return Demonstrations(
        np.array(obs),
        np.array(masks, dtype=np.int8),
        np.array(actions, dtype=np.int64),
        np.array(returns, dtype=np.float32),
    )


def collect_demonstrations(config: TrainConfig, count: int, seed: int) -> Demonstrations:
    """``count`` heuristic decisions, split over ``config.num_workers`` processes."""
    workers = max(1, config.num_workers)
    share = -(-count // workers)
    jobs = [
        (config.env_options, share, seed + index * 10_000_019, config.duplicate_baseline)
        for index in range(workers)
    ]
    if workers == 1:
        parts = [heuristic_samples(*jobs[0])]
    else:
        with multiprocessing.get_context("spawn").Pool(workers) as pool:
            parts = pool.starmap(heuristic_samples, jobs)
    return Demonstrations(
        *(np.concatenate([getattr(p, f.name) for p in parts]) for f in fields(Demonstrations))
    )


def _losses(
    net: PolicyNet, data: Demonstrations, index: np.ndarray
) -> tuple[torch.Tensor, torch.Tensor, torch.Tensor]:
    """Cross-entropy, value MSE and accuracy of the policy on ``data[index]``."""
    obs = torch.from_numpy(data.obs[index].astype(np.float32))
    logits, values = net(obs, torch.from_numpy(data.masks[index]))
    actions = torch.from_numpy(data.actions[index])
    cross_entropy = nn.functional.cross_entropy(logits, actions)
    value_error = nn.functional.mse_loss(values, torch.from_numpy(data.returns[index]))
    accuracy = (logits.argmax(-1) == actions).float().mean()
    return cross_entropy, value_error, accuracy


def behaviour_clone(
    net: PolicyNet, config: TrainConfig, rng: np.random.Generator
) -> dict[str, float]:
    """Fit the policy (cross-entropy) and the value head (hand reward) to the heuristic's
    games; returns the held-out scores (``bc/...``) for the logs."""
    data = collect_demonstrations(config, config.bc_steps, config.seed * 7919)
    held_out = max(1, int(len(data) * VALIDATION_SHARE))
    order = np.arange(len(data))  # the last hands are held out (whole hands, no leak)
    validation, training = order[-held_out:], order[:-held_out]
    optimizer = torch.optim.Adam(net.parameters(), lr=config.bc_learning_rate)
    steps = config.bc_epochs * -(-len(training) // config.bc_minibatch_size)
    schedule = torch.optim.lr_scheduler.LambdaLR(optimizer, lambda step: 1.0 - step / steps)
    for _ in range(config.bc_epochs):
        shuffled = rng.permutation(training)
        for start in range(0, len(shuffled), config.bc_minibatch_size):
            cross_entropy, value_error, _ = _losses(
                net, data, shuffled[start : start + config.bc_minibatch_size]
            )
            optimizer.zero_grad()
            (cross_entropy + config.vf_coef * value_error).backward()
            nn.utils.clip_grad_norm_(net.parameters(), config.max_grad_norm)
            optimizer.step()
            schedule.step()
    return evaluate_clone(net, data, validation)


@torch.no_grad()
def evaluate_clone(net: PolicyNet, data: Demonstrations, index: np.ndarray) -> dict[str, float]:
    """Held-out cross-entropy, value error and how often the policy's top action is the
    heuristic's."""
    totals = np.zeros(3)
    for start in range(0, len(index), 4096):
        part = index[start : start + 4096]
        scores = _losses(net, data, part)
        totals += np.array([float(s) for s in scores]) * len(part)
    cross_entropy, value_error, accuracy = totals / max(1, len(index))
    return {
        "bc/cross_entropy": cross_entropy,
        "bc/value_mse": value_error,
        "bc/accuracy": accuracy,
        "bc/samples": float(len(data)),
    }
