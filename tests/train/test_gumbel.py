"""The batched collector's sampler draws from the masked softmax and never a masked action."""

from __future__ import annotations

import torch

from shengji_env.agents.masked_policy import MASKED_LOGIT
from shengji_env.train.batch_rollout import gumbel_max


def test_gumbel_max_draws_from_the_softmax():
    logits = torch.tensor([[0.0, 1.0, 2.0, MASKED_LOGIT], [MASKED_LOGIT, -1.0, MASKED_LOGIT, 3.0]])
    draws = 40_000
    generator = torch.Generator().manual_seed(0)
    counts = torch.zeros_like(logits)
    for _ in range(draws // 1000):
        chosen = gumbel_max(logits.repeat(1000, 1), generator).view(1000, 2)
        for row in range(2):
            counts[row] += torch.bincount(chosen[:, row], minlength=4)
    expected = torch.softmax(logits, dim=-1) * draws
    assert counts[0, 3] == 0 and counts[1, 0] == 0 and counts[1, 2] == 0
    # within 4 standard deviations of the multinomial count, for every legal action
    spread = (expected * (1 - expected / draws)).sqrt()
    legal = expected > 0
    assert torch.all((counts[legal] - expected[legal]).abs() <= 4 * spread[legal] + 1)


def test_gumbel_max_is_reproducible_from_the_generator():
    logits = torch.randn(64, 55, generator=torch.Generator().manual_seed(1))
    first = gumbel_max(logits, torch.Generator().manual_seed(7))
    second = gumbel_max(logits, torch.Generator().manual_seed(7))
    assert torch.equal(first, second)
