"""The supervised fitting loop the clone and the distillation share: minibatches over a
sequence of passes, the learning rate falling linearly to zero, gradients clipped."""

from __future__ import annotations

from collections.abc import Callable, Sequence

import numpy as np
import torch
from torch import nn


def fit_passes(
    net: nn.Module,
    optimizer: torch.optim.Optimizer,
    passes: Sequence[np.ndarray],
    minibatch_size: int,
    loss_of: Callable[[np.ndarray], torch.Tensor],
    max_grad_norm: float,
) -> None:
    """One gradient step per ``minibatch_size`` rows of each pass (row indices, in the order
    given), on ``loss_of(rows)``."""
    steps = sum(-(-len(rows) // minibatch_size) for rows in passes)
    schedule = torch.optim.lr_scheduler.LambdaLR(optimizer, lambda step: 1.0 - step / steps)
    for rows in passes:
        for start in range(0, len(rows), minibatch_size):
            loss = loss_of(rows[start : start + minibatch_size])
            optimizer.zero_grad()
            loss.backward()
            nn.utils.clip_grad_norm_(net.parameters(), max_grad_norm)
            optimizer.step()
            schedule.step()
