"""Rollout throughput: learner samples per second of CPU time (policy inference included),
one collector in this process, one torch thread, for the three ways to collect: the
per-environment collector on the pure-Python reference engine, the same on the compiled
core, and the batched collector on the core's tables. Rounds are interleaved and the
median is printed with the ratio to the first way measured.

Usage: ``python benchmarks/rollout_speed.py [--steps 8000] [--envs 8 64]
[--opponents "{self: 0.8, snapshot: 0.2}"] [--config FILE] [--ways core batched]``
(``--config``: a training config's league, baseline, deck mix and starts; its network
untrained; its snapshot opponents played by copies of the learner)
"""

from __future__ import annotations

import argparse
import os
import statistics
import time
from pathlib import Path

import torch

from shengji_env.core import ENGINE_VARIABLE
from shengji_env.train.batch_rollout import BatchCollector
from shengji_env.train.config import load_config
from shengji_env.train.rollout import Collector

WAYS = ("reference", "core", "batched")


def measure(way: str, envs: int, steps: int, opponents: str | None, path: Path | None) -> float:
    overrides = [f"envs_per_worker={envs}", "num_workers=0"]
    if opponents is not None:
        overrides.append(f"opponents={opponents}")
    config = load_config(path, overrides)
    if way == "reference":
        os.environ[ENGINE_VARIABLE] = "python"
    try:
        collector = BatchCollector(config) if way == "batched" else Collector(config)
        weights = collector.policy.state_dict()
        collector.load(weights, [weights] * config.league.max_snapshots)
        collector.collect(steps // 4, seed=0)  # warm up
        start = time.process_time()
        batch = collector.collect(steps, seed=1)
        return len(batch["actions"]) / (time.process_time() - start)
    finally:
        os.environ.pop(ENGINE_VARIABLE, None)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--steps", type=int, default=8000)
    parser.add_argument("--envs", type=int, nargs="+", default=[8, 64])
    parser.add_argument("--rounds", type=int, default=3)
    parser.add_argument("--opponents", default=None, help="default: the config's, else ours")
    parser.add_argument("--config", type=Path, default=None)
    parser.add_argument("--ways", nargs="+", choices=WAYS, default=list(WAYS))
    args = parser.parse_args()
    opponents = args.opponents
    if opponents is None and args.config is None:
        opponents = "{self: 0.8, snapshot: 0.2}"
    torch.set_num_threads(1)
    print(
        f"config {args.config}, opponents {opponents or 'of the config'}, {args.steps} learner "
        f"samples, median of {args.rounds}"
    )
    print(f"{'envs':>5} {'collector':>10} {'samples/s':>10} {'ratio':>6}")
    for envs in args.envs:
        rates: dict[str, list[float]] = {way: [] for way in args.ways}
        for _ in range(args.rounds):
            for way in args.ways:
                rates[way].append(measure(way, envs, args.steps, opponents, args.config))
        reference = statistics.median(rates[args.ways[0]])
        for way in args.ways:
            rate = statistics.median(rates[way])
            print(f"{envs:>5} {way:>10} {rate:>10.0f} {rate / reference:>6.2f}", flush=True)


if __name__ == "__main__":
    main()
