"""The policy-value network: an MLP over the observation, a masked categorical over 55."""

from __future__ import annotations

from collections.abc import Sequence

import torch
from torch import nn
from torch.distributions import Categorical

from shengji_env.actions import NUM_ACTIONS
from shengji_env.encoding import OBS_SIZE

from .canonical import Canonicalize

MASKED_LOGIT = -1e9


def _layer(inputs: int, outputs: int, gain: float = 2**0.5) -> nn.Linear:
    layer = nn.Linear(inputs, outputs)
    nn.init.orthogonal_(layer.weight, gain)
    nn.init.zeros_(layer.bias)
    return layer


class PolicyNet(nn.Module):
    """Shared trunk, a policy head over the 55 card-by-card actions and a value head.

    With ``canonical`` the card features are first put in trump-relative slot order
    (:mod:`train.canonical`) and the card logits mapped back to card ids.
    """

    def __init__(
        self,
        hidden_sizes: Sequence[int] = (512, 256),
        obs_size: int = OBS_SIZE,
        canonical: bool = False,
    ) -> None:
        super().__init__()
        self.canonical = Canonicalize() if canonical else None
        layers: list[nn.Module] = []
        width = obs_size
        for size in hidden_sizes:
            layers += [_layer(width, size), nn.ReLU()]
            width = size
        self.trunk = nn.Sequential(*layers)
        self.policy = _layer(width, NUM_ACTIONS, gain=0.01)
        self.value = _layer(width, 1, gain=1.0)

    def forward(self, obs: torch.Tensor, mask: torch.Tensor) -> tuple[torch.Tensor, torch.Tensor]:
        """Masked logits and values for a batch."""
        if self.canonical is None:
            hidden = self.trunk(obs)
            logits = self.policy(hidden)
        else:
            features, slot_of_card = self.canonical(obs)
            hidden = self.trunk(features)
            by_slot = self.policy(hidden)
            logits = torch.cat([by_slot[:, :-1].gather(1, slot_of_card), by_slot[:, -1:]], dim=1)
        logits = logits.masked_fill(mask == 0, MASKED_LOGIT)
        return logits, self.value(hidden).squeeze(-1)

    def act(
        self, obs: torch.Tensor, mask: torch.Tensor, generator: torch.Generator | None = None
    ) -> tuple[torch.Tensor, torch.Tensor, torch.Tensor]:
        """Sampled actions with their log-probabilities and the values."""
        logits, values = self(obs, mask)
        probs = torch.softmax(logits, dim=-1)
        actions = torch.multinomial(probs, 1, generator=generator).squeeze(-1)
        logprobs = torch.log_softmax(logits, dim=-1).gather(1, actions[:, None]).squeeze(-1)
        return actions, logprobs, values

    def evaluate(
        self, obs: torch.Tensor, mask: torch.Tensor, actions: torch.Tensor
    ) -> tuple[torch.Tensor, torch.Tensor, torch.Tensor]:
        """Log-probabilities of ``actions``, the entropies and the values."""
        logits, values = self(obs, mask)
        distribution = Categorical(logits=logits)
        return distribution.log_prob(actions), distribution.entropy(), values


def make_network(config: dict) -> PolicyNet:
    """The network a (training) config dict describes."""
    return PolicyNet(
        config.get("hidden_sizes", [512, 256]),
        canonical=config.get("network", "mlp") == "canonical",
    )
