"""The learner's reward for a hand: one definition, used by both collectors
(:mod:`.rollout`, one environment at a time, and :mod:`.batch_rollout`, many tables at once).

A learner seat's rewards over its trajectory in a hand are:

- at its last step, the hand's reward (levels, docs/rules.md §7) less the duplicate
  baseline (what the heuristic in all four seats scores from that seat on the same deal;
  zero without ``duplicate_baseline``), plus ``point_gain_coef`` levels for each band of
  attacker points its team gained over the baseline's hand;
- at the step that ended each of its leads that failed as a throw (docs/rules.md §6.1),
  ``-failed_throw_cost``.

Shaping is for training only: the arena scores the game as the rules do.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

import numpy as np

from shengji_env.agents.behaviour import failed_leads

from .baseline import point_scores
from .config import ShapingConfig
from .trajectories import lead_ends


@dataclass(frozen=True)
class HandReward:
    """How a finished hand turns into the learner's rewards (see the module's text)."""

    point_gain_coef: float = 0.0
    failed_throw_cost: float = 0.0

    @classmethod
    def of(cls, shaping: ShapingConfig) -> HandReward:
        return cls(shaping.point_gain_coef, shaping.failed_throw_cost)

    @property
    def reads_the_game(self) -> bool:
        """Whether the finished game itself is needed (beyond the table's rewards)."""
        return bool(self.point_gain_coef or self.failed_throw_cost)

    def final(
        self,
        rewards: Sequence[float],
        baseline: Sequence[float],
        baseline_points: Sequence[float],
        game: Any = None,
    ) -> np.ndarray:
        """Each seat's reward at its last step: the hand's ``rewards`` less the
        ``baseline``, plus the point gain over ``baseline_points`` (``game`` is the finished
        hand, needed where :attr:`reads_the_game`)."""
        final = np.asarray(rewards, dtype=np.float64) - np.asarray(baseline, dtype=np.float64)
        if self.point_gain_coef:
            gained = np.array(point_scores(game)) - np.asarray(baseline_points, dtype=np.float64)
            final += self.point_gain_coef * gained
        return final

    def failed_throws(self, game: Any) -> list[list[bool]] | None:
        """For each seat, whether each trick it led was a throw that failed (``None`` when
        failed throws cost nothing)."""
        if not self.failed_throw_cost:
            return None
        return [failed_leads(game, seat) for seat in range(4)]

    def step_rewards(self, observations: np.ndarray, failed: Sequence[bool]) -> np.ndarray:
        """Per-step rewards of one seat's trajectory (its observations, one row a step):
        ``-failed_throw_cost`` at the step that ended each lead that ``failed`` (one flag per
        trick the seat led, in order), 0 elsewhere."""
        ends = lead_ends(observations)
        if len(ends) != len(failed):
            raise RuntimeError(f"{len(ends)} leads recorded for {len(failed)} tricks led")
        penalties = np.zeros(len(observations), dtype=np.float32)
        penalties[
            [step for step, flag in zip(ends, failed, strict=True) if flag]
        ] = -self.failed_throw_cost
        return penalties
