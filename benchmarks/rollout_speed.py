"""Rollout throughput: learner env steps per second (policy inference included) collected
by the local backend (subprocesses) and by Ray actors, 1 and 2 workers, on this machine.

Usage: ``python benchmarks/rollout_speed.py [--steps 20000]``
"""

from __future__ import annotations

import argparse
import time

import ray

from agents.network import make_network
from train.config import load_config
from train.rollout import make_workers


def measure(backend: str, workers: int, steps: int) -> float:
    config = load_config(
        None,
        [
            f"backend={backend}",
            f"num_workers={workers}",
            f"steps_per_update={steps}",
            "envs_per_worker=8",
        ],
    )
    pool = make_workers(config)
    net = make_network(config.to_dict())
    try:
        pool.collect(net, [], seed=0)  # warm up: processes and actors start
        start = time.perf_counter()
        batch = pool.collect(net, [], seed=1)
        return len(batch["actions"]) / (time.perf_counter() - start)
    finally:
        pool.close()


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--steps", type=int, default=20000)
    args = parser.parse_args()
    ray.init(num_cpus=2, include_dashboard=False, log_to_driver=False)
    print(f"{'backend':>8} {'workers':>7} {'steps/s':>9}")
    for backend in ("local", "ray"):
        for workers in (1, 2):
            print(
                f"{backend:>8} {workers:>7} {measure(backend, workers, args.steps):>9.0f}",
                flush=True,
            )
    ray.shutdown()


if __name__ == "__main__":
    main()
