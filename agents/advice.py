"""The heuristic's advice in any state: the action HeuristicAgent would take next there.

One concept, one name: *advice*. An advised policy (``advice: true``) reads it as an input
and learns where to depart from it; the clone's data records it beside each demonstrated
action; the ONNX export of an advised policy takes it as its third input.
"""

from __future__ import annotations

from typing import Any

import numpy as np

from shengji_env.actions import COMMIT

from .heuristic import HeuristicAgent

NO_ADVICE = -1


class HeuristicAdvice:
    """HeuristicAgent's next action in a state a learner reached: the next card of the
    heuristic's own plan for the decision while the selection so far is that plan's start
    (``COMMIT`` once it is all selected); :data:`NO_ADVICE` once the selection has left the
    plan, where the heuristic, which plans whole decisions, has no answer."""

    def __init__(self) -> None:
        self.bot = HeuristicAgent()
        self._plans: dict[int, tuple[Any, list[int]]] = {}

    def next_action(self, observed: dict[str, np.ndarray], info: dict[str, Any]) -> int:
        view = info["view"]
        cached = self._plans.get(id(view))
        if cached is None or cached[0] is not view:
            if len(self._plans) > 256:
                self._plans.clear()
            cached = self._plans[id(view)] = (view, list(self.bot.decide(view)))
        plan, selected = cached[1], list(info.get("selection", ()))
        if plan[: len(selected)] != selected:
            return NO_ADVICE
        action = plan[len(selected)] if len(selected) < len(plan) else COMMIT
        return action if observed["action_mask"][action] else NO_ADVICE
