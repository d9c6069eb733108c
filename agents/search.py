"""SearchAgent: determinized Monte-Carlo search over the play.

For each candidate play it samples deals of the unseen cards consistent with everything
the seat has seen (cards played, voids shown, cards revealed by failed throws, hand
sizes), plays the rest of the hand out with a rule-based bot, and keeps the candidate with
the best mean outcome for its team (the attackers' final points, from its side). Bids
and the bury are left to the heuristic bot. The budget is a number of rollouts per
decision (reproducible) or, with ``budget``, seconds per decision.

The rollouts run on the compiled core where it is built (its rule bots mirror the Python
ones card for card, so the decisions are the same), else on the reference engine.
"""

from __future__ import annotations

import random
import time
from typing import Any

from shengji_env.actions import DecisionKind
from shengji_env.core import ENGINES, default_engine, require_core, rule_arguments, state_of
from shengji_env.information import resample as sample_position
from shengji_env.rules import TRUMP, Game, Phase, RuleConfig, card_points, decompose
from shengji_env.view import SeatView, seat_view

from .greedy import GreedyAgent
from .heuristic import HeuristicAgent
from .knowledge import by_suit, context, cost, follow_candidates, is_attacker
from .planning import PlanningAgent

MAX_CANDIDATES = 6
ROLLOUT_POLICIES = {"greedy": GreedyAgent, "heuristic": HeuristicAgent}
CORE_POLICIES = {"heuristic": 0, "greedy": 1}  # the core's rule bots (csrc/bots.hpp)
T_THRESHOLD = 2.0  # how sure a deviation from the heuristic's choice must be


class SearchAgent(PlanningAgent):
    """Args:
    rollouts: rollouts per decision, shared among the candidates.
    budget: seconds per decision instead of a rollout count (0: use ``rollouts``).
    seed: seeds the sampling (with the position, so a decision is reproducible).
    policy: the bot that plays the rollouts out, ``heuristic`` or ``greedy`` (faster).
    engine: where the rollouts run, ``core`` or ``python`` (default: the core where built).
    """

    name = "search"

    def __init__(
        self,
        rollouts: int = 24,
        budget: float = 0.0,
        seed: int | None = None,
        policy: str = "heuristic",
        engine: str | None = None,
    ) -> None:
        super().__init__()
        if rollouts < 1 or budget < 0:
            raise ValueError(
                f"search needs rollouts >= 1 and budget >= 0, got {rollouts}, {budget}"
            )
        if policy not in ROLLOUT_POLICIES:
            raise ValueError(f"policy must be one of {', '.join(ROLLOUT_POLICIES)}, got {policy!r}")
        engine = default_engine() if engine is None else engine
        if engine not in ENGINES:
            raise ValueError(f"engine must be one of {', '.join(ENGINES)}, got {engine!r}")
        if engine == "core":
            require_core()
        self.engine = engine
        self.policy_name = policy
        self._tables: dict[RuleConfig, Any] = {}
        self.rollouts = rollouts
        self.budget = budget
        self.seed = 0 if seed is None else seed
        self.heuristic = HeuristicAgent()
        self.greedy = GreedyAgent()
        self.policy = ROLLOUT_POLICIES[policy]()

    def decide(self, view: SeatView) -> list[int]:
        if view.kind not in (DecisionKind.LEAD, DecisionKind.FOLLOW):
            return self.heuristic.decide(view)
        candidates = self._candidates(view)
        if len(candidates) == 1:
            return candidates[0]
        rng = random.Random(hash((self.seed, view.seat, view.hand, len(view.tricks), view.trick)))
        outcomes: list[list[float]] = [[] for _ in candidates]
        deadline = time.perf_counter() + self.budget
        while self._more(len(outcomes[0]), len(candidates), deadline):
            world = sample_position(view, rng)  # the same deals for every candidate
            for index, points in enumerate(self._outcomes(world, view, candidates)):
                outcomes[index].append(points)
        return candidates[self._choose(outcomes)]

    @staticmethod
    def _choose(outcomes: list[list[float]]) -> int:
        """The heuristic's choice (index 0) unless another candidate beats it on the same
        sampled deals by a clear margin: mean gain above ``T_THRESHOLD`` standard errors."""
        base = outcomes[0]
        best, best_t = 0, T_THRESHOLD
        for index in range(1, len(outcomes)):
            gains = [x - y for x, y in zip(outcomes[index], base, strict=True)]
            mean = sum(gains) / len(gains)
            if len(gains) < 2 or mean <= 0:
                continue
            variance = sum((g - mean) ** 2 for g in gains) / (len(gains) - 1)
            t = mean / max(1e-9, (variance / len(gains)) ** 0.5)
            if t > best_t:
                best, best_t = index, t
        return best

    def _more(self, worlds: int, candidates: int, deadline: float) -> bool:
        if worlds == 0:
            return True
        if self.budget:
            return time.perf_counter() < deadline
        return worlds * candidates < self.rollouts

    def _candidates(self, view: SeatView) -> list[list[int]]:
        ctx = context(view)
        chosen = [self.heuristic.decide(view), self.greedy.decide(view)]
        if view.kind is DecisionKind.FOLLOW:
            pool = follow_candidates(view)
            chosen += [
                min(pool, key=lambda p: cost(p, ctx)),
                max(pool, key=lambda p: (sum(map(card_points, p)), -cost(p, ctx))),
            ]
        else:
            for suit, cards in sorted(by_suit(view.hand, ctx).items()):
                components = decompose(cards, ctx)
                chosen.append(list(max(components, key=lambda c: (c.size, c.top_key)).cards))
                if suit != TRUMP:
                    chosen.append([min(cards, key=lambda c: (card_points(c), ctx.rank_keys[c]))])
        unique: list[list[int]] = []
        for play in chosen:
            if sorted(play) not in [sorted(p) for p in unique]:
                unique.append(play)
        return unique[:MAX_CANDIDATES]

    def _outcomes(self, world: Game, view: SeatView, candidates: list[list[int]]) -> list[float]:
        """Each candidate's outcome on one sampled deal, from the seat's side."""
        if self.engine == "python":
            return [self._rollout(world.clone(), view, play) for play in candidates]
        table = self._tables.get(view.config)
        if table is None:
            table = require_core().Table(**rule_arguments(view.config), match=False, points=True)
            self._tables[view.config] = table
        table.load(state_of(world))
        points = table.rollouts(world.hands, candidates, CORE_POLICIES[self.policy_name])
        return [p if is_attacker(view) else -p for p in points]

    def _rollout(self, game: Game, view: SeatView, play: list[int]) -> float:
        game.play(play)
        while game.phase is Phase.PLAY:
            seat = game.current_player
            kind = DecisionKind.FOLLOW if game.trick else DecisionKind.LEAD
            game.play(self.policy.decide(seat_view(game, seat, kind)), trusted=True)
        result = game.result
        assert result is not None
        return result.attacker_points if is_attacker(view) else -result.attacker_points
