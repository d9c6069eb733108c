"""Which decisions cost a policy against HeuristicAgent.

For each kind of decision (bid, bury, lead, follow, and lead + follow together), an agent
that makes that kind with the policy and every other kind as the heuristic plays the
heuristic on the same duplicate deals. A kind whose mixed agent loses clearly is where the
policy is weaker than the heuristic; the kinds add up roughly to the policy's own score.

Usage: ``python benchmarks/decision_kinds.py ppo:models/NAME [--deals 200] [--seed 7]
[--start mid_match] [--decks 3] [--kinds bury follow all]``. Any agent spec with at most
one option plays the kind (``search:rollouts=48``: whether it would teach that kind well).
"""

from __future__ import annotations

import argparse
from typing import Any

import numpy as np

from shengji_env.actions import DecisionKind
from shengji_env.agents import HeuristicAgent, load_agent, registry
from shengji_env.agents.arena import run_arena

KINDS = {
    "bid": (DecisionKind.BID,),
    "bury": (DecisionKind.BURY,),
    "lead": (DecisionKind.LEAD,),
    "follow": (DecisionKind.FOLLOW,),
    "play": (DecisionKind.LEAD, DecisionKind.FOLLOW),
}


class MixedAgent:
    """The policy for the decisions of ``kind``, HeuristicAgent for the others (spec
    ``mixed:POLICY_SPEC,kind=KIND``; the policy spec itself without options)."""

    def __init__(self, path: str, kind: str, seed: int | None = None) -> None:
        self.policy = load_agent(path, seed=seed)  # ``path`` is the policy's own spec
        self.heuristic = HeuristicAgent()
        self.kinds = KINDS[kind]

    def reset(self) -> None:
        self.heuristic.reset()

    def act(self, observation: dict[str, np.ndarray], info: dict[str, Any]) -> int:
        if info["view"].kind in self.kinds:
            return self.policy.act(observation, info)
        return self.heuristic.act(observation, info)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("policy", help="agent spec of the policy, e.g. ppo:models/full-v4")
    parser.add_argument("--deals", type=int, default=200)
    parser.add_argument("--seed", type=int, default=7)
    parser.add_argument("--start", choices=("match", "mid_match"), default="match")
    parser.add_argument("--decks", type=int, choices=(1, 2, 3), default=2)
    parser.add_argument(
        "--kinds",
        nargs="+",
        choices=(*KINDS, "all"),
        default=[*KINDS, "all"],
        help="which decisions the policy makes, one arena each (all: every decision)",
    )
    args = parser.parse_args()
    registry.AGENTS["mixed"] = MixedAgent
    registry.PATH_AGENTS.add("mixed")
    print(
        f"{args.policy} against heuristic, {args.deals} duplicate deals, "
        f"{args.decks} decks, seed {args.seed}"
    )
    print(f"{'policy makes':>12}  {'level gain / hand [95% CI]':28} paired wins")
    for kind in args.kinds:
        spec = args.policy if kind == "all" else f"mixed:{args.policy},kind={kind}"
        options = {"decks": args.decks, "start": args.start}
        result = run_arena([spec, "heuristic"], args.deals, options=options, seed=args.seed)
        pair = result.pairs()[0]
        print(f"{kind:>12}  {pair.level_gain!s:28} {pair.paired_win_share:.1%}")


if __name__ == "__main__":
    main()
