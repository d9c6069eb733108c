"""The uniform random baseline: any action the mask allows, with its own seeded RNG."""

from __future__ import annotations

from typing import Any

import numpy as np


class RandomAgent:
    """Uniform over the legal actions of the current step."""

    def __init__(self, seed: int | None = None) -> None:
        self.rng = np.random.default_rng(seed)

    def reset(self) -> None:
        pass

    def act(self, observation: dict[str, np.ndarray], info: dict[str, Any]) -> int:
        legal = np.flatnonzero(observation["action_mask"])
        if legal.size == 0:
            raise ValueError("no legal action in the mask: is it this agent's turn?")
        return int(legal[self.rng.integers(legal.size)])
