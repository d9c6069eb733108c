"""SearchAgent decision time: CPU seconds per play decision against the heuristic bot.

Plays whole 2-deck hands with the search spec in seats 0 and 2 and HeuristicAgent in 1 and
3, and times each lead or follow the search makes (the first card of a play, where the
whole play is decided). The issue's budget is at most 1 s per decision.

Usage: ``python benchmarks/search_speed.py [--spec search:rollouts=48] [--hands 3]``
"""

from __future__ import annotations

import argparse
import platform
import statistics
import time

from agents import load_agent
from shengji_env.actions import DecisionKind
from shengji_env.env import raw_env

PLAYS = (DecisionKind.LEAD, DecisionKind.FOLLOW)


def decision_times(spec: str, hands: int) -> list[float]:
    times: list[float] = []
    for hand in range(hands):
        env = raw_env(decks=2)
        env.reset(seed=100 + hand)
        agents = [load_agent(spec if seat % 2 == 0 else "heuristic") for seat in range(4)]
        for name in env.agent_iter():
            seat = env.possible_agents.index(name)
            observation, _, terminated, truncated, info = env.last()
            if terminated or truncated:
                env.step(None)
                continue
            started = time.process_time()
            action = agents[seat].act(observation, info)
            elapsed = time.process_time() - started
            if seat % 2 == 0 and info["view"].kind in PLAYS and not info["selection"]:
                times.append(elapsed)
            env.step(action)
    return sorted(times)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--spec", default="search:rollouts=48")
    parser.add_argument("--hands", type=int, default=3)
    args = parser.parse_args()
    times = decision_times(args.spec, args.hands)
    print(f"python {platform.python_version()}, {args.spec}, {len(times)} decisions")
    print(
        f"median {statistics.median(times):.3f} s  p90 {times[int(0.9 * len(times))]:.3f} s  "
        f"max {times[-1]:.3f} s  mean {statistics.mean(times):.3f} s"
    )


if __name__ == "__main__":
    main()
