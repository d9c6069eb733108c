"""What the worst requests the protocol's bounds allow cost to read (``build_game``, caches
cold), against a real late-hand request: the work a request costs before it is answered or
refused does not grow with what a client sends.

    python benchmarks/protocol_bounds.py --repeats 200
"""

from __future__ import annotations

import argparse
import contextlib
import random
import time

from shengji_env.frontends import protocol
from shengji_env.frontends.protocol import RequestError, build_game, request_for
from shengji_env.rules import Game, Phase, RuleConfig
from shengji_env.rules.sampling import random_action


def late_request(decks: int, seed: int) -> dict:
    """A real request of a hand's last decision (every trick before it listed)."""
    game, rng = Game(RuleConfig(decks=decks), seed=seed), random.Random(seed)
    last: dict = {}
    while game.phase in (Phase.BID, Phase.BURY, Phase.PLAY):
        if game.phase is Phase.PLAY:
            last = request_for(game, game.current_player)
        game.step(random_action(game, rng))
    return last


def worst_allowed(decks: int) -> dict[str, dict]:
    """Requests at the bounds: a real late hand; the same with every trick a throw-sized
    play (the decks' cards in all); a full hand of bad cards; all the declarations."""
    real = late_request(decks, 1)
    config = RuleConfig(decks=decks)
    ranks = ["A", "K", "Q", "J", "10", "9", "8", "7", "6", "5", "4", "3", "2"]
    cards = [f"{rank}{suit}" for suit in "SHDC" for rank in ranks] * decks
    per_play = 54 * decks // (4 * config.hand_size) or 1
    plays = [cards[i : i + per_play] for i in range(0, 4 * config.hand_size * per_play, per_play)]
    tricks = [{"leader": 0, "plays": plays[i : i + 4]} for i in range(0, len(plays), 4)]
    return {
        "a real late hand": real,
        "every card in the tricks": {**real, "tricks": tricks[: config.hand_size]},
        "a full hand, the last card bad": {
            **real, "hand": [*cards[: config.hand_size + config.kitty_size - 1], "11X"]
        },
        "every declaration allowed": {
            **real, "bids": [{"seat": 0, "cards": ["2H"]}] * protocol.MAX_BIDS
        },
    }  # fmt: skip


def cold_cost(request: dict, config: RuleConfig, repeats: int) -> tuple[float, float]:
    """Median and largest CPU milliseconds of reading ``request`` with cold caches."""
    times = []
    for _ in range(repeats):
        protocol._parsed.cache_clear()
        protocol._RECORDS.clear()
        started = time.process_time()
        with contextlib.suppress(RequestError):
            build_game(request, config)
        times.append(1000 * (time.process_time() - started))
    times.sort()
    return times[len(times) // 2], times[-1]


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--repeats", type=int, default=200)
    args = parser.parse_args()
    for decks in (1, 2, 3):
        for name, request in worst_allowed(decks).items():
            median, worst = cold_cost(request, RuleConfig(decks=decks), args.repeats)
            print(f"{decks} deck(s)  {name:32s} median {median:6.2f} ms  max {worst:6.2f} ms")


if __name__ == "__main__":
    main()
