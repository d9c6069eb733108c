"""A hand's learner samples as training arrays: rewards at each seat's last step, GAE."""

from __future__ import annotations

from collections.abc import Mapping, Sequence

import numpy as np

from shengji_env.actions import DecisionKind
from shengji_env.encoding import OBS_LAYOUT, PHASE_SLOTS

LEAD_PHASE = OBS_LAYOUT["phase"].start + PHASE_SLOTS[DecisionKind.LEAD]
"""The observation column that is 1 while the seat is choosing a lead."""
SELECTION = OBS_LAYOUT["selection"]

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


def gae_segments(
    rewards: np.ndarray, values: np.ndarray, starts: np.ndarray, gamma: float, lam: float
) -> np.ndarray:
    """:func:`gae` of several finished trajectories laid end to end (``starts``: the index
    of each one's first step, ascending), all at once: one pass over the longest."""
    lengths = np.diff(np.r_[starts, len(values)])
    rows = np.repeat(np.arange(len(starts)), lengths)
    columns = np.arange(len(values)) - np.repeat(starts, lengths)
    padded_rewards = np.zeros((len(starts), lengths.max() + 1), dtype=np.float64)
    padded_values = np.zeros_like(padded_rewards)  # a value of 0 past each trajectory's end
    padded_rewards[rows, columns] = rewards
    padded_values[rows, columns] = values
    deltas = padded_rewards[:, :-1] + gamma * padded_values[:, 1:] - padded_values[:, :-1]
    advantages = np.zeros_like(padded_rewards)
    for step in range(deltas.shape[1] - 1, -1, -1):
        advantages[:, step] = deltas[:, step] + gamma * lam * advantages[:, step + 1]
    return advantages[rows, columns].astype(values.dtype)


def lead_ends(observations: np.ndarray) -> list[int]:
    """The steps of one seat's trajectory (its observations, one row a step) that ended each
    of its leads, in order: lead steps after which the seat's next decision starts (its
    selection empty) or it has none (a card that leaves nothing but ``COMMIT`` commits by
    itself, so the end is not always COMMIT)."""
    leading = observations[:, LEAD_PHASE] > 0
    next_empty = np.r_[~observations[1:, SELECTION].any(axis=1), True]
    return np.flatnonzero(leading & next_empty).tolist()


def hand_arrays(
    samples: Mapping[int, Sequence[Sample]],
    final_rewards: Mapping[int, float],
    gamma: float,
    lam: float,
    step_rewards: Mapping[int, np.ndarray] | None = None,
) -> dict[str, np.ndarray]:
    """Each learner seat's consecutive steps are one trajectory; its reward (the hand's, less
    any baseline) comes at its last step, on top of any ``step_rewards`` (shaping)."""
    parts: dict[str, list[np.ndarray]] = {k: [] for k in BATCH_KEYS}
    for seat in sorted(samples):
        steps = samples[seat]
        obs, masks, actions, logprobs, values, advice = (
            np.array(column) for column in zip(*steps, strict=True)
        )
        rewards = np.zeros(len(steps), dtype=np.float32)
        if step_rewards is not None:
            rewards += step_rewards[seat]
        rewards[-1] += final_rewards[seat]
        values = values.astype(np.float32)
        advantages = gae(rewards, values, gamma, lam)
        for key, column in zip(
            BATCH_KEYS,
            (obs, masks, actions, logprobs, values, advice, advantages, advantages + values),
            strict=True,
        ):
            parts[key].append(column)
    return {k: np.concatenate(v) if v else np.zeros(0) for k, v in parts.items()}
