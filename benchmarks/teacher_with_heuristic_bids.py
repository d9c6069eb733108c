"""The distillation teacher as the stand-alone recipe labels it (``dagger_heuristic_bids``):
``models/full-v4`` for the bury and the play, HeuristicAgent for the bids — against the
heuristic on hands as they come inside matches.

    python benchmarks/teacher_with_heuristic_bids.py --deals 500 --seed 2026
"""

from __future__ import annotations

import argparse
from typing import Any

import numpy as np

from shengji_env.agents import load_agent
from shengji_env.agents.arena import Player, run_arena
from shengji_env.train.dagger import BID_COLUMN


class BidsByHeuristic:
    """``player`` everywhere but in bid decisions, which HeuristicAgent takes."""

    def __init__(self, player: Any) -> None:
        self.player, self.bidder = player, load_agent("heuristic")

    def reset(self) -> None:
        self.bidder.reset()

    def act(self, observation: dict[str, np.ndarray], info: dict[str, Any]) -> int:
        bidding = observation["observation"][BID_COLUMN] > 0.5
        return (self.bidder if bidding else self.player).act(observation, info)


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--teacher", default="ppo:models/full-v4")
    parser.add_argument("--deals", type=int, default=500)
    parser.add_argument("--seed", type=int, default=2026)
    args = parser.parse_args()
    teacher = Player(
        f"{args.teacher} + heuristic bids",
        lambda seed: BidsByHeuristic(load_agent(args.teacher, seed=seed)),
    )
    result = run_arena(
        [teacher, "heuristic"], args.deals, options={"start": "mid_match"}, seed=args.seed
    )
    pair = result.pairs()[0]
    gain = pair.level_gain
    print(
        f"{teacher.name} vs heuristic, {args.deals} duplicate mid-match deals, seed {args.seed}: "
        f"{gain.mean:+.3f} [{gain.low:+.3f}, {gain.high:+.3f}] levels a hand, "
        f"{pair.paired_win_share:.1%} of paired deals"
    )
    for name, behaviour in result.behaviour().items():
        print(
            f"  {name}: declared {behaviour.declaration_rate:.0%}, "
            f"dealt {behaviour.dealt_share:.0%}"
        )
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
