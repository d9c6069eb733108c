"""What every collector holds: the learner's network, the league's snapshots, and the
opponent mix each hand's opponent is drawn from."""

from __future__ import annotations

from collections.abc import Sequence

import numpy as np

from shengji_env.agents.network import PolicyNet, make_network

from .config import TrainConfig


class NetworkPool:
    """The learner (``policy``), past snapshots, and the mix of opponent kinds."""

    def __init__(self, config: TrainConfig) -> None:
        self.config = config
        self.policy = make_network(config.to_dict())
        self.snapshots: list[PolicyNet] = []
        kinds = list(config.league.opponents)
        weights = np.array([config.league.opponents[k] for k in kinds], dtype=float)
        self.kinds, self.weights = kinds, weights / weights.sum()

    def load(self, policy_state: dict, snapshot_states: Sequence[dict]) -> None:
        """The learner's weights and the snapshots' (networks made or dropped to match)."""
        self.policy.load_state_dict(policy_state)
        while len(self.snapshots) < len(snapshot_states):
            self.snapshots.append(make_network(self.config.to_dict()))
        self.snapshots = self.snapshots[: len(snapshot_states)]
        for net, state in zip(self.snapshots, snapshot_states, strict=True):
            net.load_state_dict(state)

    def draw_kind(self, rng: np.random.Generator) -> str:
        return self.kinds[int(rng.choice(len(self.kinds), p=self.weights))]
