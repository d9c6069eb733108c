"""The play loop: four agents play one deal of an environment. The arena, the clone's
demonstrations, SearchAgent's label parts and the duplicate baseline all play through it."""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import Any

import numpy as np

from .base import Agent

DecisionHook = Callable[[int, dict[str, np.ndarray], dict[str, Any], int], None]
"""``(seat, observation, info, action)``, called at every decision of a hand."""


def play_hand(
    env: Any, agents: Sequence[Agent], seed: int, on_decision: DecisionHook | None = None
) -> list[float]:
    """``agents`` (one per seat, the same object may sit in several) play the deal ``seed``
    of ``env`` (a :func:`shengji_env.env.raw_env`); returns each seat's reward.
    ``env.game.result`` tells how the hand ended."""
    env.reset(seed=seed)
    for agent in agents:
        reset = getattr(agent, "reset", None)  # optional (agents.base.Agent)
        if reset is not None:
            reset()
    totals = [0.0] * 4
    for name in env.agent_iter():
        seat = env.possible_agents.index(name)
        observed, reward, terminated, truncated, info = env.last()
        totals[seat] += reward
        if terminated or truncated:
            env.step(None)
            continue
        action = agents[seat].act(observed, info)
        if on_decision is not None:
            on_decision(seat, observed, info, action)
        env.step(action)
    return totals
