"""The supervised fitting loop the clone and the distillation share: minibatches over a
sequence of passes, the learning rate falling linearly to zero, gradients clipped; it can
stop between two steps and later go on from the step it stopped at."""

from __future__ import annotations

from collections.abc import Callable, Sequence

import numpy as np
import torch
from torch import nn


def fit_steps(passes: Sequence[np.ndarray], minibatch_size: int) -> int:
    """Gradient steps in ``passes``: one per ``minibatch_size`` rows of each pass."""
    return sum(-(-len(rows) // minibatch_size) for rows in passes)


def fit_passes(
    net: nn.Module,
    optimizer: torch.optim.Optimizer,
    passes: Sequence[np.ndarray],
    minibatch_size: int,
    loss_of: Callable[[np.ndarray], torch.Tensor],
    max_grad_norm: float,
    first_step: int = 0,
    stop: Callable[[], bool] | None = None,
) -> int | None:
    """One gradient step per ``minibatch_size`` rows of each pass (row indices, in the order
    given), on ``loss_of(rows)``, from step ``first_step`` (the steps before it were taken
    by an earlier call with the same passes, net and optimizer state).

    The learning rate of step ``k`` of ``n`` is the optimizer's rate on entry times
    ``1 - k / n``. ``stop()`` is asked after every step; returns the step to go on from
    when it said yes, or ``None`` once every pass is done."""
    steps = fit_steps(passes, minibatch_size)
    base_rates = [group["lr"] for group in optimizer.param_groups]
    step = 0
    for rows in passes:
        for start in range(0, len(rows), minibatch_size):
            if step < first_step:
                step += 1
                continue
            for group, rate in zip(optimizer.param_groups, base_rates, strict=True):
                group["lr"] = rate * (1.0 - step / steps)
            loss = loss_of(rows[start : start + minibatch_size])
            optimizer.zero_grad()
            loss.backward()
            nn.utils.clip_grad_norm_(net.parameters(), max_grad_norm)
            optimizer.step()
            step += 1
            if step < steps and stop is not None and stop():
                return step
    for group in optimizer.param_groups:
        group["lr"] = 0.0  # where the schedule ends
    return None
