"""The batched API's speed: random legal play on ``N`` tables stepped together, one core.

Each step draws one uniformly random legal action per table from the masks (vectorised
in numpy: part of what is timed, as a training loop would pay it) and steps the batch,
which writes observations, masks, seats, rewards and done flags. Reports finished hands
per second of CPU time; for scale, the same hands through ``raw_env`` on the core in the
same run.

Usage: ``python benchmarks/batch_speed.py [--tables 64] [--hands 2000]``
"""

from __future__ import annotations

import argparse
import platform
import time

import numpy as np

from shengji_env.vector import TableBatch


def batch_hands_per_second(decks: int, tables: int, hands: int) -> tuple[float, float]:
    batch = TableBatch(tables, seed=1, decks=decks)
    rng = np.random.default_rng(0)
    out = batch.reset()
    steps = 0
    start = time.process_time()
    while batch.episodes < hands:
        scores = rng.random(out.masks.shape, dtype=np.float32) * out.masks
        out = batch.step(scores.argmax(axis=1))
        steps += tables
    elapsed = time.process_time() - start
    return batch.episodes / elapsed, steps / elapsed


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--tables", type=int, default=64)
    parser.add_argument("--hands", type=int, default=2000)
    args = parser.parse_args()
    print(f"python {platform.python_version()} on {platform.machine()}, {args.tables} tables")
    print(f"{'decks':>5} {'hands/s':>9} {'steps/s':>10}")
    for decks in (1, 2, 3):
        hands_per_s, steps_per_s = batch_hands_per_second(decks, args.tables, args.hands)
        print(f"{decks:>5} {hands_per_s:>9.0f} {steps_per_s:>10.0f}")


if __name__ == "__main__":
    main()
