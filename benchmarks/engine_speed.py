"""Engine speed: random complete hands per second on one core, for 1, 2 and 3 decks.

Two figures per deck count, from the same seeds in one run:

* ``engine``: the rules engine alone, replaying recorded random actions (deal, every bid
  decision, the bury, every lead and follow, with throw checks, legality checks, trick
  winners and scoring);
* ``with policy``: the same hands including the random policy that chooses the actions
  (``shengji_env.rules.sampling``), which enumerates legal follows.

Usage: ``python benchmarks/engine_speed.py [--hands 300]``
"""

from __future__ import annotations

import argparse
import platform
import random
import time

from shengji_env.rules import Game, Phase, RuleConfig
from shengji_env.rules.sampling import random_action


def record_hand(config: RuleConfig, seed: int) -> list[list[int]]:
    game = Game(config, seed=seed)
    rng = random.Random(seed)
    actions = []
    while game.phase in (Phase.BID, Phase.BURY, Phase.PLAY):
        action = random_action(game, rng)
        actions.append(action)
        game.step(action)
    return actions


def replay(config: RuleConfig, seed: int, actions: list[list[int]]) -> None:
    game = Game(config, seed=seed)
    for action in actions:
        game.step(action)


def measure(decks: int, hands: int) -> tuple[float, float]:
    config = RuleConfig(decks=decks)
    start = time.process_time()
    recorded = [record_hand(config, seed) for seed in range(hands)]
    with_policy = hands / (time.process_time() - start)
    start = time.process_time()
    for seed, actions in enumerate(recorded):
        replay(config, seed, actions)
    engine = hands / (time.process_time() - start)
    return engine, with_policy


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--hands", type=int, default=300)
    args = parser.parse_args()
    print(f"python {platform.python_version()} on {platform.machine()}, {args.hands} hands each")
    print(f"{'decks':>5} {'engine hands/s':>15} {'with policy hands/s':>20}")
    for decks in (1, 2, 3):
        engine, with_policy = measure(decks, args.hands)
        print(f"{decks:>5} {engine:>15.0f} {with_policy:>20.0f}")


if __name__ == "__main__":
    main()
