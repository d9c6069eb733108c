"""Where a student's choices leave its teacher's, on the student's own states: the student
plays all four seats of mid-match hands, the teacher labels every decision, and whole
decisions (every card of a play) are scored by kind and, for follows, by the lead's size
and what the follower holds of the led suit. A miss is *material* where the student's
first card off the teacher's play differs from the teacher's card in points or in being
trump (a different low card of the same kind is not).

    python benchmarks/fit_errors.py ppo:checkpoints/standalone/distilled --hands 300
"""

from __future__ import annotations

import argparse
from collections import defaultdict
from typing import Any

import numpy as np

from shengji_env.actions import COMMIT
from shengji_env.agents.play import play_hand
from shengji_env.agents.registry import load_agent
from shengji_env.env import raw_env
from shengji_env.rules import TRUMP, card_points
from shengji_env.train.dagger import make_teacher


def follow_kind(view: Any) -> str:
    """'lead N' with whether the follower holds enough of the led suit, some, or none."""
    lead = view.trick[0]
    suits = view.ctx.suits
    held = sum(1 for card in view.hand if suits[card] == suits[lead[0]])
    holding = "enough" if held >= len(lead) else ("some" if held else "void")
    size = str(len(lead)) if len(lead) < 3 else "3+"
    return f"follow, lead {size}, {holding} of its suit"


def category(view: Any) -> str:
    return follow_kind(view) if view.kind.value == "follow" else view.kind.value


def material(view: Any, action: int, taught: int) -> bool:
    """The two actions differ in points or trump-ness (or one commits the play, or they
    are bids: no trump is settled while bidding)."""
    if COMMIT in (action, taught) or view.ctx is None:
        return True
    suits = view.ctx.suits
    trump = (suits[action] == TRUMP) != (suits[taught] == TRUMP)
    return trump or card_points(action) != card_points(taught)


class Scorer:
    """Plays the student and keeps, per decision, whether every labelled step agreed."""

    def __init__(self, student: Any, teacher: Any) -> None:
        self.student, self.teacher = student, teacher
        self.decisions: dict[int, tuple[str, str]] = {}  # this hand's, by view
        self.done: list[tuple[str, str]] = []

    def act(self, observed: dict[str, np.ndarray], info: dict[str, Any]) -> int:
        action = self.student.act(observed, info)
        view = info["view"]
        probabilities = self.teacher.probabilities(observed, info)
        _, outcome = self.decisions.get(id(view), ("", "agreed"))
        if probabilities is not None and outcome == "agreed":
            taught = int(probabilities.argmax())
            if taught != action:
                outcome = "material" if material(view, action, taught) else "minor"
            self.decisions[id(view)] = (category(view), outcome)
        return action

    def reset(self) -> None:
        self.done += self.decisions.values()
        self.decisions = {}


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("student", help="agent spec, e.g. ppo:checkpoints/standalone/distilled")
    parser.add_argument("--teacher", default="heuristic")
    parser.add_argument("--hands", type=int, default=300)
    parser.add_argument("--decks", type=int, default=2)
    parser.add_argument("--seed", type=int, default=21)
    args = parser.parse_args()
    scorer = Scorer(load_agent(args.student), make_teacher(args.teacher))
    env = raw_env(decks=args.decks, start="mid_match", start_level="random")
    for hand in range(args.hands):
        play_hand(env, [scorer] * 4, args.seed * 10**6 + hand)
    scorer.reset()
    by_category: dict[str, list[str]] = defaultdict(list)
    for name, outcome in scorer.done:
        by_category[name].append(outcome)
    total = len(scorer.done)
    print(f"{args.hands} hands, {args.decks} decks, seed {args.seed}: {total} decisions")
    print("| decision | share | teacher's whole play | material misses | of all decisions |")
    print("|---|---:|---:|---:|---:|")
    for name, outcomes in sorted(by_category.items()):
        agreed = np.mean([o == "agreed" for o in outcomes])
        material = sum(o == "material" for o in outcomes)
        print(
            f"| {name} | {len(outcomes) / total:.1%} | {agreed:.1%} "
            f"| {material / len(outcomes):.1%} | {material / total:.2%} |"
        )


if __name__ == "__main__":
    main()
