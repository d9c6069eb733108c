"""SearchAgent: determinized Monte-Carlo search over the play.

For each candidate play it samples deals of the unseen cards consistent with everything
the seat has seen (cards played, voids shown, cards revealed by failed throws, hand
sizes), plays the rest of the hand out with a rule-based bot, and keeps the candidate with
the best mean outcome for its team (the attackers' final points, from its side). Bids
and the bury are left to the heuristic bot. The budget is a number of rollouts per
decision (reproducible) or, with ``budget``, seconds per decision.
"""

from __future__ import annotations

import random
import time

from shengji_env.actions import DecisionKind
from shengji_env.rules import TRUMP, Game, Phase, Position, card_points, decompose
from shengji_env.view import SeatView, seat_view

from .greedy import GreedyAgent
from .heuristic import HeuristicAgent
from .knowledge import by_suit, context, cost, follow_candidates, is_attacker, unseen
from .planning import PlanningAgent

MAX_CANDIDATES = 6
SAMPLE_TRIES = 20
KITTY = -1
ROLLOUT_POLICIES = {"greedy": GreedyAgent, "heuristic": HeuristicAgent}
T_THRESHOLD = 2.0  # how sure a deviation from the heuristic's choice must be


class SearchAgent(PlanningAgent):
    """Args:
    rollouts: rollouts per decision, shared among the candidates.
    budget: seconds per decision instead of a rollout count (0: use ``rollouts``).
    seed: seeds the sampling (with the position, so a decision is reproducible).
    policy: the bot that plays the rollouts out, ``heuristic`` or ``greedy`` (faster).
    """

    name = "search"

    def __init__(
        self,
        rollouts: int = 24,
        budget: float = 0.0,
        seed: int | None = None,
        policy: str = "heuristic",
    ) -> None:
        super().__init__()
        if rollouts < 1 or budget < 0:
            raise ValueError(
                f"search needs rollouts >= 1 and budget >= 0, got {rollouts}, {budget}"
            )
        if policy not in ROLLOUT_POLICIES:
            raise ValueError(f"policy must be one of {', '.join(ROLLOUT_POLICIES)}, got {policy!r}")
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
            for index, play in enumerate(candidates):
                outcomes[index].append(self._rollout(world.clone(), view, play))
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

    def _rollout(self, game: Game, view: SeatView, play: list[int]) -> float:
        game.play(play)
        while game.phase is Phase.PLAY:
            seat = game.current_player
            kind = DecisionKind.FOLLOW if game.trick else DecisionKind.LEAD
            game.play(self.policy.decide(seat_view(game, seat, kind)), trusted=True)
        result = game.result
        assert result is not None
        return result.attacker_points if is_attacker(view) else -result.attacker_points


def sample_position(view: SeatView, rng: random.Random) -> Game:
    """A full position consistent with ``view``: the unseen cards dealt at random to the
    other hands (respecting their sizes, shown voids and revealed cards) and the kitty."""
    config = view.config
    assert view.dealer is not None
    pool = unseen(view)
    hands: list[list[int]] = [[] for _ in range(4)]
    hands[view.seat] = list(view.hand)
    for seat in range(4):
        if seat != view.seat:
            hands[seat] = list(view.revealed[seat])
            pool.subtract(view.revealed[seat])
    sizes = [config.hand_size - len(view.played[s]) for s in range(4)]
    cards = list((+pool).elements())
    for attempt in range(SAMPLE_TRIES + 1):
        dealt = _deal(cards, hands, sizes, view, rng, respect_voids=attempt < SAMPLE_TRIES)
        if dealt is not None:
            break
    assert dealt is not None
    full_hands, kitty = dealt
    position = Position(
        config,
        Phase.PLAY,
        view.seat,
        full_hands,
        view.level,
        view.levels,
        view.dealer,
        view.bids,
        view.cards_dealt,
        kitty=list(view.kitty) if view.seat == view.dealer else kitty,
        leader=view.trick_leader,
        trick=view.trick,
        tricks=view.tricks,
        revealed=view.revealed,
        attacker_trick_points=view.attacker_points,
        penalty_points=view.penalty_points,
    )
    return Game.from_position(position, rng=random.Random(rng.random()))


def _deal(
    cards: list[int],
    hands: list[list[int]],
    sizes: list[int],
    view: SeatView,
    rng: random.Random,
    respect_voids: bool,
) -> tuple[list[list[int]], list[int]] | None:
    """Deal ``cards`` into the other hands' free room and the hidden kitty (slot -1)."""
    ctx = context(view)
    room = {s: sizes[s] - len(hands[s]) for s in range(4) if s != view.seat}
    room[KITTY] = len(cards) - sum(room.values())
    result = [list(hand) for hand in hands]
    kitty: list[int] = []
    shuffled = list(cards)
    rng.shuffle(shuffled)
    for card in shuffled:
        suit = ctx.suits[card]
        slots = [
            s
            for s, free in room.items()
            if free > 0 and (s == KITTY or not (respect_voids and view.voids[s][suit]))
        ]
        if not slots:
            return None
        slot = rng.choices(slots, [room[s] for s in slots])[0]
        (kitty if slot == KITTY else result[slot]).append(card)
        room[slot] -= 1
    return result, kitty
