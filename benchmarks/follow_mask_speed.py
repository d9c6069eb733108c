"""How long the exact mask of a follow takes, card by card, in random hands.

For each deck count, random hands are played through the engine with random legal
decisions built card by card through :class:`shengji_env.actions.Decision`; every follow's
setup (the mask of the empty selection) and every card added (the next mask) is timed.
Prints the median, 99th percentile and maximum per deck count, and the time of one hard
case: a 12-card trump throw followed from 26 trumps (3 decks). Times are this thread's CPU
time (``time.thread_time``), so that another process taking the core does not count. A
call during which Python's garbage collector ran is counted apart (a full collection
takes milliseconds in any Python process, whatever the engine does): the table gives the
maximum over the other calls and, separately, over all.

    python benchmarks/follow_mask_speed.py --hands 20000
"""

from __future__ import annotations

import argparse
import gc
import random
import time

import numpy as np

from shengji_env.actions import COMMIT, Decision, DecisionKind
from shengji_env.rules import Game, Phase, Position, RuleConfig, parse_cards
from shengji_env.rules.bidding import Bid
from shengji_env.rules.cards import rank_index

HARD_LEAD = "AH AH KH KH QH 10H 10H 9H 8H 8H 7H 5H"
HARD_HAND = "BJ BJ SJ SJ SJ 2H 2H 2S 2S 2C JH JH JH 9H 9H 9H 7H 7H 6H 6H 6H 5H 4H 4H 3H 3H"


COLLECTIONS = [0]


def _count_collections(phase: str, _: dict) -> None:
    if phase == "start":
        COLLECTIONS[0] += 1


def time_follows(decks: int, hands: int, seed: int) -> tuple[list[float], list[float]]:
    """Seconds of every follow mask (setup and each card) over ``hands`` random hands:
    those without a garbage collection during the call, and those with one."""
    rng = random.Random(seed)
    times: list[float] = []
    collected: list[float] = []
    gc.callbacks.append(_count_collections)
    for hand in range(hands):
        game = Game(RuleConfig(decks=decks), seed=seed * 100_000 + hand)
        while game.phase in (Phase.BID, Phase.BURY, Phase.PLAY):
            following = game.phase is Phase.PLAY and bool(game.trick)
            started, before = time.thread_time(), COLLECTIONS[0]
            decision = Decision(game)
            if following:
                elapsed = time.thread_time() - started
                (times if COLLECTIONS[0] == before else collected).append(elapsed)
            while True:
                legal = np.flatnonzero(decision.mask)
                action = int(legal[rng.randrange(len(legal))])
                if action == COMMIT:
                    break
                started, before = time.thread_time(), COLLECTIONS[0]
                decision.add(action)
                if following:
                    elapsed = time.thread_time() - started
                    (times if COLLECTIONS[0] == before else collected).append(elapsed)
                if decision.only_commit:
                    break
            game.step(list(decision.selection), trusted=True)
    gc.callbacks.remove(_count_collections)
    return times, collected


def hard_case() -> float:
    """Seconds to set up and fill the follow of the 12-card throw from 26 trumps."""
    config = RuleConfig(decks=3)
    lead, hand = parse_cards(HARD_LEAD), parse_cards(HARD_HAND)
    level = rank_index("2")
    trump = parse_cards("2H")
    position = Position(
        config,
        Phase.PLAY,
        1,
        [[], hand, [], []],
        level,
        (level, level),
        0,
        bids=[Bid(0, tuple(trump), 1, trump[0] // 13)],
        cards_dealt=4 * config.hand_size,
        leader=0,
        trick=[lead],
    )
    game = Game.from_position(position)
    started = time.thread_time()
    decision = Decision(game)
    while not decision.only_commit:
        decision.add(int(np.flatnonzero(decision.mask[:COMMIT])[0]))
    assert decision.kind is DecisionKind.FOLLOW
    return time.thread_time() - started


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--hands", type=int, default=2000, help="random hands per deck count")
    parser.add_argument("--seed", type=int, default=1)
    args = parser.parse_args()
    print(f"hard case (12-card trump throw, 26 trumps): {hard_case() * 1e3:.2f} ms whole follow")
    print("| decks | masks | median (µs) | p99 (µs) | max (µs) | with a GC run: calls, max |")
    print("|------:|------:|------------:|---------:|---------:|--------------------------:|")
    for decks in (1, 2, 3):
        clean, collected = time_follows(decks, args.hands, args.seed)
        times = np.array(clean) * 1e6
        median, p99 = np.percentile(times, [50, 99])
        worst = max(collected, default=0.0) * 1e6
        print(
            f"| {decks} | {len(times) + len(collected):,} | {median:.0f} | {p99:.0f} | "
            f"{times.max():.0f} | {len(collected):,}, {worst:.0f} |"
        )


if __name__ == "__main__":
    main()
