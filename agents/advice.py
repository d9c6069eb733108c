"""The heuristic bot's advice in any state: what HeuristicAgent would play next there.

Used as a teacher's label while training (behaviour cloning, PPO guidance) and as an input
of advised policies (``advice: true``), which learn where to depart from the heuristic.
"""

from __future__ import annotations

from typing import Any

import numpy as np

from shengji_env.actions import COMMIT

from .heuristic import HeuristicAgent

NO_LABEL = -1


class HeuristicTeacher:
    """HeuristicAgent's next action in a state the learner reached: the next card of the
    heuristic's own plan for the decision while the learner's selection so far is that
    plan's start (``COMMIT`` once it is all selected); ``NO_LABEL`` once the learner has
    left the plan, where the heuristic, which plans whole decisions, has no answer."""

    def __init__(self) -> None:
        self.bot = HeuristicAgent()
        self._plans: dict[int, tuple[Any, list[int]]] = {}

    def label(self, observed: dict[str, np.ndarray], info: dict[str, Any]) -> int:
        view = info["view"]
        cached = self._plans.get(id(view))
        if cached is None or cached[0] is not view:
            if len(self._plans) > 256:
                self._plans.clear()
            cached = self._plans[id(view)] = (view, list(self.bot.decide(view)))
        plan, selected = cached[1], list(info.get("selection", ()))
        if plan[: len(selected)] != selected:
            return NO_LABEL
        action = plan[len(selected)] if len(selected) < len(plan) else COMMIT
        return action if observed["action_mask"][action] else NO_LABEL
