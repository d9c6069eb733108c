"""What every policy network here shares: a forward pass to masked logits over the 55
card-by-card actions and values, and from it sampling (for play and collection) and the
distributions (for the PPO loss)."""

from __future__ import annotations

import torch
from torch import nn
from torch.distributions import Categorical

MASKED_LOGIT = -1e9


class MaskedPolicy(nn.Module):
    """A policy-value network: ``forward(obs, mask, advice)`` gives masked logits and
    values; ``advised`` says whether it reads the heuristic's advice."""

    advised: bool = False

    def act(
        self,
        obs: torch.Tensor,
        mask: torch.Tensor,
        generator: torch.Generator | None = None,
        advice: torch.Tensor | None = None,
    ) -> tuple[torch.Tensor, torch.Tensor, torch.Tensor]:
        """Sampled actions with their log-probabilities and the values."""
        logits, values = self(obs, mask, advice)
        probs = torch.softmax(logits, dim=-1)
        actions = torch.multinomial(probs, 1, generator=generator).squeeze(-1)
        logprobs = torch.log_softmax(logits, dim=-1).gather(1, actions[:, None]).squeeze(-1)
        return actions, logprobs, values

    def evaluate(
        self, obs: torch.Tensor, mask: torch.Tensor, advice: torch.Tensor | None = None
    ) -> tuple[Categorical, torch.Tensor]:
        """The masked action distributions and the values (for the PPO loss)."""
        logits, values = self(obs, mask, advice)
        return Categorical(logits=logits), values
