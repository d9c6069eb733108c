"""Rule-based bots decide a whole decision from ``info["view"]``, then feed it card by card."""

from __future__ import annotations

from typing import Any

import numpy as np

from shengji_env.actions import COMMIT, DecisionKind
from shengji_env.view import SeatView


def planned_action(plan: list[int], selected: int) -> int:
    """The next card of a whole decision ``plan`` once ``selected`` of its cards are in,
    then COMMIT."""
    return plan[selected] if selected < len(plan) else COMMIT


class PlanningAgent:
    """Base class: subclasses implement :meth:`bid`, :meth:`bury`, :meth:`lead` and
    :meth:`follow`, each returning the cards of the whole decision (an empty list passes a
    bid). The plan is kept for the decision it was made for (the env hands out one
    ``SeatView`` object per decision)."""

    name = "planning"

    def __init__(self) -> None:
        self._plan: list[int] = []
        self._plan_view: SeatView | None = None

    def reset(self) -> None:
        self._plan, self._plan_view = [], None

    def act(self, observation: dict[str, np.ndarray], info: dict[str, Any]) -> int:
        view: SeatView = info["view"]
        if view is not self._plan_view:
            self._plan = list(self.decide(view))
            self._plan_view = view
        selected = len(info.get("selection", ()))
        action = planned_action(self._plan, selected)
        if not observation["action_mask"][action]:
            raise RuntimeError(
                f"{type(self).__name__} planned an illegal action {action} for {view.kind}: "
                f"plan {self._plan}, selected {selected}"
            )
        return action

    def decide(self, view: SeatView) -> list[int]:
        """The whole decision ``view.kind`` asks for."""
        if view.kind is DecisionKind.BID:
            return self.bid(view)
        if view.kind is DecisionKind.BURY:
            return self.bury(view)
        if view.kind is DecisionKind.LEAD:
            return self.lead(view)
        return self.follow(view)

    def bid(self, view: SeatView) -> list[int]:
        raise NotImplementedError

    def bury(self, view: SeatView) -> list[int]:
        raise NotImplementedError

    def lead(self, view: SeatView) -> list[int]:
        raise NotImplementedError

    def follow(self, view: SeatView) -> list[int]:
        raise NotImplementedError
