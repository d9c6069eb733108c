"""A hand's learner samples as training arrays: rewards at each seat's last step, GAE."""

from __future__ import annotations

from collections.abc import Mapping, Sequence

import numpy as np

BATCH_KEYS = (
    "obs",
    "masks",
    "actions",
    "logprobs",
    "values",
    "advice",
    "advantages",
    "returns",
)

Sample = tuple[np.ndarray, np.ndarray, int, float, float, int]
"""(observation, mask, action, log-probability, value, advice) of one learner step."""


def gae(rewards: np.ndarray, values: np.ndarray, gamma: float, lam: float) -> np.ndarray:
    """Generalized advantage estimates of one finished trajectory (terminal value 0)."""
    advantages = np.zeros_like(values)
    running = 0.0
    for t in range(len(values) - 1, -1, -1):
        next_value = values[t + 1] if t + 1 < len(values) else 0.0
        delta = rewards[t] + gamma * next_value - values[t]
        running = delta + gamma * lam * running
        advantages[t] = running
    return advantages


def hand_arrays(
    samples: Mapping[int, Sequence[Sample]],
    final_rewards: Mapping[int, float],
    gamma: float,
    lam: float,
) -> dict[str, np.ndarray]:
    """Each learner seat's consecutive steps are one trajectory; its reward (the hand's, less
    any baseline) comes at its last step."""
    parts: dict[str, list[np.ndarray]] = {k: [] for k in BATCH_KEYS}
    for seat in sorted(samples):
        steps = samples[seat]
        obs, masks, actions, logprobs, values, advice = (
            np.array(column) for column in zip(*steps, strict=True)
        )
        rewards = np.zeros(len(steps), dtype=np.float32)
        rewards[-1] = final_rewards[seat]
        values = values.astype(np.float32)
        advantages = gae(rewards, values, gamma, lam)
        for key, column in zip(
            BATCH_KEYS,
            (obs, masks, actions, logprobs, values, advice, advantages, advantages + values),
            strict=True,
        ):
            parts[key].append(column)
    return {k: np.concatenate(v) if v else np.zeros(0) for k, v in parts.items()}
