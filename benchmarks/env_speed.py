"""Environment speed: random masked play through the AEC API, on one core, both engines.

Each step calls ``last()`` (observation vector and mask) and ``step()`` with a uniformly
random legal action, as a user's loop would. Reports complete hands per second of CPU time
and steps per second for 1, 2 and 3 decks, through ``raw_env`` and ``env()``, on the
compiled core and on the pure-Python reference — in the same run, rounds interleaved, so
that the ratio (this machine's timings drift by a third between runs) is what to compare.

Usage: ``python benchmarks/env_speed.py [--hands 200] [--rounds 3]``
"""

from __future__ import annotations

import argparse
import platform
import random
import statistics
import time
from collections.abc import Callable

from pettingzoo import AECEnv

from shengji_env.env import env, raw_env

FACTORIES: dict[str, Callable[..., AECEnv]] = {"raw_env": raw_env, "env": env}
ENGINES = ("core", "python")


def run(factory: Callable[..., AECEnv], engine: str, decks: int, hands: int) -> tuple[float, int]:
    """CPU seconds and steps for ``hands`` random hands."""
    game_env = factory(decks=decks, engine=engine)
    rng = random.Random(0)
    steps = 0
    start = time.process_time()
    for hand in range(hands):
        game_env.reset(seed=hand)
        for _agent in game_env.agent_iter():
            observation, _, terminated, truncated, _ = game_env.last()
            if terminated or truncated:
                action = None
            else:
                legal = observation["action_mask"].nonzero()[0]
                action = int(legal[int(rng.random() * legal.size)])
                steps += 1
            game_env.step(action)
    return time.process_time() - start, steps


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--hands", type=int, default=200)
    parser.add_argument("--rounds", type=int, default=3)
    parser.add_argument("--decks", type=int, nargs="+", default=[1, 2, 3])
    args = parser.parse_args()
    print(
        f"python {platform.python_version()} on {platform.machine()}, {args.hands} hands, "
        f"median of {args.rounds} interleaved rounds, CPU time"
    )
    header = ("env", 8), ("decks", 5), ("engine", 7), ("hands/s", 9), ("steps/s", 9)
    print(" ".join(f"{name:>{width}}" for name, width in header), f"{'us/step':>8} {'x ref':>6}")
    for name, factory in FACTORIES.items():
        for decks in args.decks:
            times: dict[str, list[float]] = {engine: [] for engine in ENGINES}
            steps = {}
            for _ in range(args.rounds):
                for engine in ENGINES:
                    seconds, steps[engine] = run(factory, engine, decks, args.hands)
                    times[engine].append(seconds)
            reference = statistics.median(times["python"])
            for engine in ENGINES:
                seconds = statistics.median(times[engine])
                print(
                    f"{name:>8} {decks:>5} {engine:>7} {args.hands / seconds:>9.1f} "
                    f"{steps[engine] / seconds:>9.0f} {1e6 * seconds / steps[engine]:>8.2f} "
                    f"{reference / seconds:>6.2f}"
                )


if __name__ == "__main__":
    main()
