"""Behaviour cloning: an optional warm start before PPO.

The policy learns the demonstrated actions (cross-entropy) and the critic the seats' hand
outcomes, so PPO starts with a policy that plays like the demonstrator *and* a critic that
can judge it. The demonstrations are SearchAgent's label parts (``bc_labels``,
:mod:`shengji_env.train.distill`) or fresh HeuristicAgent hands (``bc_steps``,
:mod:`shengji_env.train.demonstrations`). Held-out scores go to TensorBoard under ``bc/``.
"""

from __future__ import annotations

from pathlib import Path

import numpy as np
import torch
from torch import nn

from shengji_env.agents.network import PolicyNet

from . import distill
from .config import TrainConfig
from .demonstrations import Demonstrations, collect_demonstrations
from .fitting import fit_passes

VALIDATION_SHARE = 0.05


def _losses(
    net: PolicyNet, data: Demonstrations, index: np.ndarray
) -> tuple[torch.Tensor, torch.Tensor, torch.Tensor, torch.Tensor]:
    """Cross-entropy and value MSE on ``data[index]``, and per sample whether the policy's
    top action is the demonstrated one and whether it is the advice."""
    obs = torch.from_numpy(data.obs[index].astype(np.float32))
    advice = torch.from_numpy(data.advice[index])
    logits, values = net(obs, torch.from_numpy(data.masks[index]), advice)
    actions = torch.from_numpy(data.actions[index])
    cross_entropy = nn.functional.cross_entropy(logits, actions, reduction="none").mean()
    value_error = nn.functional.mse_loss(values, torch.from_numpy(data.returns[index]))
    return cross_entropy, value_error, logits.argmax(-1) == actions, logits.argmax(-1) == advice


def demonstrations_to_clone(config: TrainConfig) -> Demonstrations:
    """SearchAgent's label parts in ``bc_labels`` (the missing ones of ``bc_label_parts``
    made first), or ``bc_steps`` decisions of fresh heuristic hands."""
    if config.distill.bc_labels:
        folder, count = Path(config.distill.bc_labels), config.distill.bc_label_parts
        if count:
            options, rollouts = config.env_options, config.distill.bc_label_rollouts
            distill.make_parts(folder, count, options, rollouts, config.run.num_workers)
        return distill.load_parts(folder, count, config.game.decks)
    return collect_demonstrations(config, config.distill.bc_steps, config.run.seed * 7919)


def behaviour_clone(
    net: PolicyNet, config: TrainConfig, rng: np.random.Generator
) -> dict[str, float]:
    """Fit the policy (cross-entropy) and the value head (hand reward) to the
    demonstrations; returns the held-out scores (``bc/...``) for the logs."""
    data = demonstrations_to_clone(config)
    validation, training = _split(len(data))
    optimizer = torch.optim.Adam(net.parameters(), lr=config.distill.bc_learning_rate)

    def loss_of(rows: np.ndarray) -> torch.Tensor:
        cross_entropy, value_error, _, _ = _losses(net, data, rows)
        return cross_entropy + config.ppo.vf_coef * value_error

    passes = [rng.permutation(training) for _ in range(config.distill.bc_epochs)]
    fit_passes(
        net, optimizer, passes, config.distill.bc_minibatch_size, loss_of, config.ppo.max_grad_norm
    )
    return evaluate_clone(net, data, validation)


def _split(count: int) -> tuple[np.ndarray, np.ndarray]:
    """Held-out and training rows: the last ``VALIDATION_SHARE`` (whole hands: no leak)."""
    held_out = max(1, int(count * VALIDATION_SHARE))
    order = np.arange(count)
    return order[-held_out:], order[:-held_out]


@torch.no_grad()
def evaluate_clone(net: PolicyNet, data: Demonstrations, index: np.ndarray) -> dict[str, float]:
    """Held-out cross-entropy, value error, how often the policy's top action is the
    demonstrated one, and where the demonstration departs from the heuristic's advice, how
    often the policy departs with it (``bc/departures_followed``) and how often the policy
    departs where the demonstration does not (``bc/false_departures``)."""
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
