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
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING, Any

import numpy as np
import torch
from torch import nn

from agents import HeuristicAgent
from shengji_env.env import raw_env

from .config import TrainConfig
from .network import PolicyNet
from .parts import Columns

if TYPE_CHECKING:
    from .improve import FirstCardValues

VALIDATION_SHARE = 0.05


@dataclass
class Demonstrations(Columns):
    """A teacher's decisions with each seat's value target for its hand, and the
    heuristic's advice in each state (``NO_LABEL`` where it has none)."""

    obs: np.ndarray  # float16 [n, OBS_SIZE]
    masks: np.ndarray  # int8 [n, 55]
    actions: np.ndarray  # int64 [n]
    returns: np.ndarray  # float32 [n]
    advice: np.ndarray  # int64 [n]


Decision = Callable[[int, dict[str, np.ndarray], dict[str, Any], int], None]


def play_hand(
    env: Any, agents: Sequence[Any], seed: int, on_decision: Decision | None = None
) -> list[float]:
    """``agents`` (one per seat) play the deal ``seed``; each seat's reward.
    ``on_decision(seat, observation, info, action)`` sees every decision."""
    env.reset(seed=seed)
    for agent in agents:
        agent.reset()
    totals = [0.0] * 4
    for name in env.agent_iter():
        seat = env.possible_agents.index(name)
        observed, reward, terminated, truncated, info = env.last()
        totals[seat] += reward
        if terminated or truncated:
            env.step(None)
            continue
        action = agents[seat].act(observed, info)
        if on_decision is not None:
            on_decision(seat, observed, info, action)
        env.step(action)
    return totals


def play_heuristic_hand(
    env: Any,
    bot: HeuristicAgent,
    seed: int,
    on_decision: Callable[[int, dict[str, np.ndarray], int], None] | None = None,
) -> list[float]:
    """HeuristicAgent plays all four seats of the deal ``seed``; each seat's reward.
    ``on_decision(seat, observation, action)`` sees every decision."""
    if on_decision is None:
        return play_hand(env, [bot] * 4, seed)
    return play_hand(env, [bot] * 4, seed, lambda s, o, _, a: on_decision(s, o, a))


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
        np.array(actions, dtype=np.int64),  # the heuristic's advice is its own action
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
    return Demonstrations.concatenate(parts)


def _losses(
    net: PolicyNet, data: Demonstrations, index: np.ndarray, departure_weight: float = 1.0
) -> tuple[torch.Tensor, torch.Tensor, torch.Tensor, torch.Tensor]:
    """Cross-entropy (the samples where the teacher departs from the heuristic's advice
    weighted ``departure_weight``) and value MSE on ``data[index]``, and per sample whether
    the policy's top action is the teacher's and whether it is the advice."""
    obs = torch.from_numpy(data.obs[index].astype(np.float32))
    advice = torch.from_numpy(data.advice[index])
    logits, values = net(obs, torch.from_numpy(data.masks[index]), advice)
    actions = torch.from_numpy(data.actions[index])
    weights = torch.where((actions != advice) & (advice >= 0), departure_weight, 1.0)
    cross_entropy = (
        nn.functional.cross_entropy(logits, actions, reduction="none") * weights
    ).mean()
    value_error = nn.functional.mse_loss(values, torch.from_numpy(data.returns[index]))
    return cross_entropy, value_error, logits.argmax(-1) == actions, logits.argmax(-1) == advice


def teacher_demonstrations(config: TrainConfig) -> Demonstrations:
    """The clone's data: SearchAgent's label parts in ``bc_labels``, or fresh heuristic
    games."""
    if config.bc_labels:
        from .distill import load_parts, make_parts

        folder, count = Path(config.bc_labels), config.bc_label_parts
        if count:
            options, rollouts = config.env_options, config.bc_label_rollouts
            make_parts(folder, count, options, rollouts, config.num_workers)
        return load_parts(folder, count)
    return collect_demonstrations(config, config.bc_steps, config.seed * 7919)


def behaviour_clone(
    net: PolicyNet, config: TrainConfig, rng: np.random.Generator
) -> dict[str, float]:
    """Fit the policy (cross-entropy) and the value head (hand reward) to the teacher's
    games, and with ``bc_values`` the first cards' logits to their values; returns the
    held-out scores (``bc/...``, ``improve/...``) for the logs."""
    sources = [teacher_demonstrations(config)] if config.bc_steps or config.bc_labels else []
    values = first_card_data(config) if config.bc_values else None
    if values is not None:
        sources.append(values.commits)
    data = Demonstrations.concatenate(sources)
    validation, training = _split_sources([len(source) for source in sources])
    optimizer = torch.optim.Adam(net.parameters(), lr=config.bc_learning_rate)
    batches = -(
        -max(len(training), len(values.training) if values else 0) // config.bc_minibatch_size
    )
    steps = config.bc_epochs * batches
    schedule = torch.optim.lr_scheduler.LambdaLR(optimizer, lambda step: 1.0 - step / steps)
    for _ in range(config.bc_epochs):
        value_rows = None
        if values is None:
            shuffled = rng.permutation(training)
        else:
            shuffled = _cycle(rng, training, batches * config.bc_minibatch_size)
            value_rows = _cycle(rng, values.training, len(shuffled))
        for start in range(0, len(shuffled), config.bc_minibatch_size):
            index = shuffled[start : start + config.bc_minibatch_size]
            cross_entropy, value_error, _, _ = _losses(net, data, index, config.bc_departure_weight)
            loss = cross_entropy + config.vf_coef * value_error
            if value_rows is not None:
                rows = value_rows[start : start + config.bc_minibatch_size]
                loss = loss + config.bc_value_coef * values.loss(net, rows)
            optimizer.zero_grad()
            loss.backward()
            nn.utils.clip_grad_norm_(net.parameters(), config.max_grad_norm)
            optimizer.step()
            schedule.step()
    scores = evaluate_clone(net, data, validation)
    if values is not None:
        scores |= values.evaluate(net)
    return scores


def _split(count: int) -> tuple[np.ndarray, np.ndarray]:
    """Held-out and training rows: the last ``VALIDATION_SHARE`` (whole hands: no leak)."""
    held_out = max(1, int(count * VALIDATION_SHARE))
    order = np.arange(count)
    return order[-held_out:], order[:-held_out]


def _split_sources(sizes: list[int]) -> tuple[np.ndarray, np.ndarray]:
    """:func:`_split` of each source of concatenated data."""
    offsets = np.cumsum([0, *sizes])
    splits = [_split(size) for size in sizes]
    return (
        np.concatenate([held + offset for (held, _), offset in zip(splits, offsets, strict=False)]),
        np.concatenate([kept + offset for (_, kept), offset in zip(splits, offsets, strict=False)]),
    )


def _cycle(rng: np.random.Generator, rows: np.ndarray, count: int) -> np.ndarray:
    """``count`` rows: shuffled passes over ``rows``."""
    passes = [rng.permutation(rows) for _ in range(-(-count // max(1, len(rows))))]
    return np.concatenate(passes)[:count]


@dataclass
class FirstCardData:
    """First-card values for the clone: the regression targets, the split, and the
    ``COMMIT`` steps of single-card leads."""

    values: FirstCardValues
    targets: np.ndarray
    temperature: float
    commits: Demonstrations
    training: np.ndarray
    validation: np.ndarray

    def loss(self, net: PolicyNet, rows: np.ndarray) -> torch.Tensor:
        from .improve import first_card_loss

        subset = self.values.subset(rows)
        return first_card_loss(net, subset, self.targets[rows], self.temperature)[0]

    def evaluate(self, net: PolicyNet) -> dict[str, float]:
        from .improve import evaluate_first_cards

        rows = self.validation
        subset = self.values.subset(rows)
        return evaluate_first_cards(net, subset, self.targets[rows], self.temperature)


def first_card_data(config: TrainConfig) -> FirstCardData:
    """The first-card value parts in ``bc_values`` (the missing ones made first)."""
    from .improve import first_card_targets, load_parts, make_parts

    folder, count = Path(config.bc_values), config.bc_value_parts
    if count:
        make_parts(folder, count, config.env_options, config.num_workers)
    values, commits = load_parts(folder, count)
    band = raw_env(**config.env_options).config.band
    targets = first_card_targets(values, config.bc_value_points, band)
    validation, training = _split(len(values))
    return FirstCardData(
        values, targets, config.bc_value_temperature, commits, training, validation
    )


@torch.no_grad()
def evaluate_clone(net: PolicyNet, data: Demonstrations, index: np.ndarray) -> dict[str, float]:
    """Held-out cross-entropy, value error, how often the policy's top action is the
    teacher's, and where the teacher departs from the heuristic's advice, how often the
    policy departs with it (``bc/departures_followed``) and how often the policy departs
    where the teacher does not (``bc/false_departures``)."""
    totals = np.zeros(2)
    right, on_advice = [], []
    for start in range(0, len(index), 4096):
        part = index[start : start + 4096]
        cross_entropy, value_error, correct, advised = _losses(net, data, part)
        totals += np.array([float(cross_entropy), float(value_error)]) * len(part)
        right.append(correct.numpy())
        on_advice.append(advised.numpy())
    cross_entropy, value_error = totals / max(1, len(index))
    correct, advised = np.concatenate(right), np.concatenate(on_advice)
    advice = data.advice[index]
    departs = (advice >= 0) & (data.actions[index] != advice)
    kept = (advice >= 0) & ~departs
    return {
        "bc/cross_entropy": cross_entropy,
        "bc/value_mse": value_error,
        "bc/accuracy": float(correct.mean()),
        "bc/departures": float(departs.mean()),
        "bc/departures_followed": float(correct[departs].mean()) if departs.any() else 1.0,
        "bc/false_departures": float((~advised[kept]).mean()) if kept.any() else 0.0,
        "bc/samples": float(len(data)),
    }
