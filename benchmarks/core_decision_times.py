"""The slowest decision on the compiled core, in random hands (issue bar: none over 1 ms).

For each deck count, random hands are played on a core table with random legal actions,
card by card. Every ``step`` call is timed (the core applies the action, and computes the
next mask: the next card's, or the whole setup of the next decision, the deal up to it
included), and so is every decision (its steps summed). Times are this thread's CPU time
(``time.thread_time_ns``), Python's call overhead included. Also times the hard case of
the reference engine's enumeration (a 12-card trump throw followed from 26 trumps, 3 decks,
74,009 legal plays): the whole follow, card by card.

    python benchmarks/core_decision_times.py --hands 20000
"""

from __future__ import annotations

import argparse
import random
import time

import numpy as np

from shengji_env.core import require_core, rule_arguments, state_of
from shengji_env.rules import Game, Phase, Position, RuleConfig, parse_cards
from shengji_env.rules.bidding import Bid
from shengji_env.rules.cards import rank_index

HARD_LEAD = "AH AH KH KH QH 10H 10H 9H 8H 8H 7H 5H"
HARD_HAND = "BJ BJ SJ SJ SJ 2H 2H 2S 2S 2C JH JH JH 9H 9H 9H 7H 7H 6H 6H 6H 5H 4H 4H 3H 3H"
COMMIT = 54


def table_for(config: RuleConfig):  # noqa: ANN201 — the core's Table
    return require_core().Table(**rule_arguments(config), match=False, points=False)


def time_hands(decks: int, hands: int, seed: int) -> tuple[np.ndarray, np.ndarray]:
    """Nanoseconds of every step and of every decision over ``hands`` random hands."""
    table = table_for(RuleConfig(decks=decks))
    rng = random.Random(seed)
    mask = np.empty(COMMIT + 1, np.int8)
    steps: list[int] = []
    decisions: list[int] = []
    clock = time.thread_time_ns
    for hand in range(hands):
        table.reset(seed * 1_000_000 + hand)
        spent = 0
        while True:
            table.mask(mask)
            legal = mask.nonzero()[0]
            action = int(legal[int(rng.random() * legal.size)])
            started = clock()
            code = table.step(action)
            elapsed = clock() - started
            steps.append(elapsed)
            spent += elapsed
            if code != 0:  # the decision was committed
                decisions.append(spent)
                spent = 0
            if code == 2:
                break
    return np.array(steps), np.array(decisions)


def hard_case() -> tuple[float, float]:
    """Nanoseconds to load the position of the 12-card throw from 26 trumps (the state's
    conversion from Python, and the follow's setup), and to fill the follow card by card."""
    config = RuleConfig(decks=3)
    level = rank_index("2")
    trump = parse_cards("2H")
    position = Position(
        config,
        Phase.PLAY,
        1,
        [[], parse_cards(HARD_HAND), [], []],
        level,
        (level, level),
        0,
        bids=[Bid(0, tuple(trump), 1, trump[0] // 13)],
        cards_dealt=4 * config.hand_size,
        leader=0,
        trick=[parse_cards(HARD_LEAD)],
    )
    table = table_for(config)
    state = state_of(Game.from_position(position))
    started = time.thread_time_ns()
    table.load(state)
    loaded = time.thread_time_ns()
    mask = np.empty(COMMIT + 1, np.int8)
    code = 0
    while code == 0:
        table.mask(mask)
        code = table.step(int(mask[:COMMIT].nonzero()[0][0]))
    return loaded - started, time.thread_time_ns() - loaded


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--hands", type=int, default=2000, help="random hands per deck count")
    parser.add_argument("--seed", type=int, default=1)
    args = parser.parse_args()
    load, fill = hard_case()
    print(
        f"hard case (12-card trump throw, 26 trumps): load and set up {load / 1e3:.0f} µs, "
        f"fill card by card {fill / 1e3:.0f} µs"
    )
    print(f"{args.hands:,} random hands per deck count, CPU time, µs")
    print("| decks | steps | median step | p99 step | max step | decisions | max decision |")
    print("|------:|------:|------------:|---------:|---------:|----------:|-------------:|")
    for decks in (1, 2, 3):
        steps, decisions = time_hands(decks, args.hands, args.seed)
        median, p99 = np.percentile(steps, [50, 99]) / 1e3
        print(
            f"| {decks} | {steps.size:,} | {median:.1f} | {p99:.1f} | {steps.max() / 1e3:.0f} | "
            f"{decisions.size:,} | {decisions.max() / 1e3:.0f} |"
        )


if __name__ == "__main__":
    main()
