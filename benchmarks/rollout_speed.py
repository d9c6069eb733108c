"""Rollout throughput: learner samples per second of CPU time (policy inference included),
one collector in this process, one torch thread, for the three ways to collect: the
per-environment collector on the pure-Python reference engine, the same on the compiled
core, and the batched collector on the core's tables (network opponents only). Rounds are
interleaved and the median is printed with the ratio to the reference.

Usage: ``python benchmarks/rollout_speed.py [--steps 8000] [--envs 8 64]
[--opponents "{self: 0.8, snapshot: 0.2}"]``
"""

from __future__ import annotations

import argparse
import os
import statistics
import time

import torch

from shengji_env.core import ENGINE_VARIABLE
from train.batch_rollout import BatchCollector
from train.config import load_config
from train.rollout import Collector

WAYS = ("reference", "core", "batched")


def measure(way: str, envs: int, steps: int, opponents: str) -> float:
    config = load_config(
        None, [f"envs_per_worker={envs}", f"opponents={opponents}", "num_workers=0"]
    )
    if way == "reference":
        os.environ[ENGINE_VARIABLE] = "python"
    try:
        collector = BatchCollector(config) if way == "batched" else Collector(config)
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
    parser.add_argument("--opponents", default="{self: 0.8, snapshot: 0.2}")
    args = parser.parse_args()
    torch.set_num_threads(1)
    print(f"opponents {args.opponents}, {args.steps} learner samples, median of {args.rounds}")
    print(f"{'envs':>5} {'collector':>10} {'samples/s':>10} {'x ref':>6}")
    for envs in args.envs:
        rates: dict[str, list[float]] = {way: [] for way in WAYS}
        for _ in range(args.rounds):
            for way in WAYS:
                rates[way].append(measure(way, envs, args.steps, args.opponents))
        reference = statistics.median(rates["reference"])
        for way in WAYS:
            rate = statistics.median(rates[way])
            print(f"{envs:>5} {way:>10} {rate:>10.0f} {rate / reference:>6.2f}", flush=True)


if __name__ == "__main__":
    main()
