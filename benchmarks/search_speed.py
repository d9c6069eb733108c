"""SearchAgent decision time: CPU seconds per play decision against the heuristic bot, with
the rollouts on the compiled core and on the reference engine in the same run.

Plays whole 2-deck hands with the search spec in seats 0 and 2 and HeuristicAgent in 1 and
3, and times each lead or follow the search makes (the first card of a play, where the
whole play is decided). Each hand is played once per engine, interleaved; the decisions
must be the same (the core's rule bots mirror the Python ones), and the run says so.

Usage: ``python benchmarks/search_speed.py [--spec search:rollouts=48] [--hands 3]``
"""

from __future__ import annotations

import argparse
import platform
import statistics
import time

from shengji_env.actions import DecisionKind
from shengji_env.agents import load_agent
from shengji_env.env import raw_env

PLAYS = (DecisionKind.LEAD, DecisionKind.FOLLOW)
ENGINES = ("core", "python")


def play_hand(spec: str, seed: int, decks: int) -> tuple[list[float], list[list[int]]]:
    """The search seats' decision times and decisions over one hand."""
    times: list[float] = []
    decisions: list[list[int]] = []
    env = raw_env(decks=decks)
    env.reset(seed=seed)
    agents = [load_agent(spec if seat % 2 == 0 else "heuristic") for seat in range(4)]
    for name in env.agent_iter():
        seat = env.possible_agents.index(name)
        observation, _, terminated, truncated, info = env.last()
        if terminated or truncated:
            env.step(None)
            continue
        view = info["view"]
        started = time.process_time()
        action = agents[seat].act(observation, info)
        elapsed = time.process_time() - started
        if seat % 2 == 0 and view.kind in PLAYS and not info["selection"]:
            times.append(elapsed)
            decisions.append(sorted(agents[seat].decide(view)))
        env.step(action)
    return times, decisions


def summary(times: list[float]) -> str:
    ordered = sorted(times)
    return (
        f"median {statistics.median(ordered) * 1e3:.1f} ms  p90 "
        f"{ordered[int(0.9 * len(ordered))] * 1e3:.1f} ms  max {ordered[-1] * 1e3:.1f} ms  "
        f"mean {statistics.mean(ordered) * 1e3:.1f} ms  total {sum(ordered):.2f} s"
    )


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--spec", default="search:rollouts=48")
    parser.add_argument("--hands", type=int, default=3)
    parser.add_argument("--decks", type=int, default=2)
    args = parser.parse_args()
    times: dict[str, list[float]] = {engine: [] for engine in ENGINES}
    decisions: dict[str, list[list[int]]] = {engine: [] for engine in ENGINES}
    for hand in range(args.hands):
        for engine in ENGINES:
            hand_times, hand_decisions = play_hand(
                f"{args.spec},engine={engine}", 100 + hand, args.decks
            )
            times[engine] += hand_times
            decisions[engine] += hand_decisions
    same = sum(a == b for a, b in zip(decisions["core"], decisions["python"], strict=True))
    print(
        f"python {platform.python_version()}, {args.spec}, {args.decks} decks, {args.hands} hands"
    )
    for engine in ENGINES:
        print(f"{engine:>6}: {len(times[engine])} decisions, {summary(times[engine])}")
    ratio = sum(times["python"]) / sum(times["core"])
    print(
        f"same decisions: {same} of {len(decisions['core'])}; python / core CPU time: {ratio:.1f}"
    )


if __name__ == "__main__":
    main()
