"""Whole hands through the Botzone adapter with our engine as the judge: every seat is a
Botzone bot (long-running mode: the history grows a request per turn) playing an agent;
every response is checked against Botzone's rules and ours.

Prints hands, requests, illegal responses, and the adapter's decision time per request
(median, 99th percentile, max) by stage: a deal card the seat cannot declare with is
answered without asking the agent.

    python benchmarks/botzone_judge.py --agents heuristic random greedy random --hands 1000
    python benchmarks/botzone_judge.py --agents ppo:models/full-v4 --hands 50
"""

from __future__ import annotations

import argparse
import time

import numpy as np

from shengji_env.agents import load_agent
from shengji_env.frontends.botzone_judge import IllegalResponse, judge_hand


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--agents", nargs="+", default=["heuristic"], help="1 or 4 agent specs")
    parser.add_argument("--hands", type=int, default=100)
    parser.add_argument("--seed", type=int, default=0)
    args = parser.parse_args()
    specs = args.agents * (4 if len(args.agents) == 1 else 1)
    seconds: list[tuple[str, float]] = []
    requests = illegal = 0
    wall, cpu = time.perf_counter(), time.process_time()
    for hand in range(args.hands):
        agents = [load_agent(spec, seed=hand * 4 + seat) for seat, spec in enumerate(specs)]
        try:
            report = judge_hand(agents, args.seed * 1_000_003 + hand, level=hand % 13)
        except IllegalResponse as error:
            illegal += 1
            print(f"hand {hand}: illegal response: {error}")
            continue
        requests += report.requests
        seconds += report.seconds
    wall, cpu = time.perf_counter() - wall, time.process_time() - cpu
    stages = np.array([stage for stage, _ in seconds])
    times = np.array([value for _, value in seconds]) * 1e6
    print(f"agents {' '.join(specs)}; {args.hands} hands, {requests} requests, {illegal} illegal")
    print(f"total {wall:.1f} s wall, {cpu:.1f} s CPU; {requests / wall:.0f} requests/s")
    for name in ("deal", "cover", "play"):
        values = times[stages == name]
        if len(values):
            print(
                f"{name:16s} n={len(values):7d} median {np.median(values):8.0f} µs  "
                f"p99 {np.percentile(values, 99):8.0f} µs  max {values.max():8.0f} µs"
            )


if __name__ == "__main__":
    main()
