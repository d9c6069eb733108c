"""Environment speed: random masked play through the AEC API, on one core.

Each step calls ``last()`` (observation vector and mask) and ``step()`` with a uniformly
random legal action, as a user's loop would. Reports complete hands per second and
steps per second for 1, 2 and 3 decks, through ``raw_env`` and the wrapped ``env()``.

Usage: ``python benchmarks/env_speed.py [--hands 200]``
"""

from __future__ import annotations

import argparse
import platform
import time
from collections.abc import Callable

import numpy as np
from pettingzoo import AECEnv

from shengji_env.env import env, raw_env


def run(factory: Callable[..., AECEnv], decks: int, hands: int) -> tuple[float, float]:
    game_env = factory(decks=decks)
    rng = np.random.default_rng(0)
    steps = 0
    start = time.process_time()
    for hand in range(hands):
        game_env.reset(seed=hand)
        for _agent in game_env.agent_iter():
            observation, _, terminated, truncated, _ = game_env.last()
            if terminated or truncated:
                action = None
            else:
                legal = np.flatnonzero(observation["action_mask"])
                action = int(legal[rng.integers(legal.size)])
                steps += 1
            game_env.step(action)
    elapsed = time.process_time() - start
    return hands / elapsed, steps / elapsed


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--hands", type=int, default=200)
    args = parser.parse_args()
    print(f"python {platform.python_version()} on {platform.machine()}, {args.hands} hands each")
    print(f"{'env':>8} {'decks':>5} {'hands/s':>9} {'steps/s':>9} {'us/step':>8}")
    for name, factory in (("raw_env", raw_env), ("env", env)):
        for decks in (1, 2, 3):
            hands_per_s, steps_per_s = run(factory, decks, args.hands)
            print(
                f"{name:>8} {decks:>5} {hands_per_s:>9.1f} {steps_per_s:>9.0f} "
                f"{1e6 / steps_per_s:>8.1f}"
            )


if __name__ == "__main__":
    main()
