"""SearchAgent's label parts: demonstrations from a player stronger than the heuristic.

SearchAgent plays all four seats; every step becomes a demonstration with the heuristic's
advice in that state (what HeuristicAgent would play next, ``NO_ADVICE`` once the selection
has left its plan) and, as value target, the seat's gain over the heuristic on the same
deal.
The search is slow (about a tenth of a CPU second a decision), so labels are written in
parts, one file per block of deals, and a part that exists is never made again: label
generation resumes across sessions and spreads over processes by seed.

    python -m shengji_env.train.distill --out runs/search-labels --first 0 --parts 20
"""

from __future__ import annotations

import functools
from collections.abc import Sequence
from pathlib import Path
from typing import Any

import numpy as np

from shengji_env.agents import HeuristicAgent, SearchAgent
from shengji_env.agents.advice import HeuristicAdvice
from shengji_env.agents.play import play_hand
from shengji_env.env import raw_env

from . import parts as parts_io
from .demonstrations import Demonstrations
from .parts import Arrays

DEALS_PER_PART = 10
PART_SEED = 1_000_003  # deal seeds of part p: p * PART_SEED + 0..DEALS_PER_PART-1


def search_hand(
    env: Any, searchers: Sequence[SearchAgent], advice: HeuristicAdvice, seed: int
) -> tuple[list[tuple[int, np.ndarray, np.ndarray, int, int]], list[float]]:
    """The deal ``seed`` played by ``searchers``: each step as (seat, observation, mask,
    action, advice), and each seat's reward."""
    steps = []

    def record(seat: int, observed: dict[str, Any], info: dict[str, Any], action: int) -> None:
        advised = advice.next_action(observed, info)
        steps.append((seat, observed["observation"], observed["action_mask"], action, advised))

    totals = play_hand(env, searchers, seed, record)
    return steps, totals


def search_part(env_options: dict[str, Any], part: int, rollouts: int) -> Demonstrations:
    """Part ``part`` of the labels: ``DEALS_PER_PART`` deals played by SearchAgent."""
    env, baseline_env = raw_env(**env_options), raw_env(**env_options)
    bot, advice = HeuristicAgent(), HeuristicAdvice()
    searchers = [SearchAgent(rollouts=rollouts, seed=part * 4 + seat) for seat in range(4)]
    rows: list[tuple[np.ndarray, np.ndarray, int, int, float]] = []
    for deal in range(DEALS_PER_PART):
        seed = part * PART_SEED + deal
        baseline = play_hand(baseline_env, [bot] * 4, seed)
        steps, totals = search_hand(env, searchers, advice, seed)
        gains = [totals[s] - baseline[s] for s in range(4)]
        rows += [(obs, mask, action, advised, gains[s]) for s, obs, mask, action, advised in steps]
    obs, masks, actions, advised, returns = zip(*rows, strict=True)
    return Demonstrations(
        np.array(obs, dtype=np.float16),
        np.array(masks, dtype=np.int8),
        np.array(actions, dtype=np.int64),
        np.array(returns, dtype=np.float32),
        np.array(advised, dtype=np.int64),
    )


def search_part_arrays(env_options: dict[str, Any], rollouts: int, part: int) -> Arrays:
    return search_part(env_options, part, rollouts).arrays()


def write_parts(
    folder: Path, parts: Sequence[int], env_options: dict[str, Any], rollouts: int
) -> None:
    """Make every missing part of ``parts``."""
    parts_io.write_parts(
        folder, parts, functools.partial(search_part_arrays, env_options, rollouts)
    )


def make_parts(
    folder: Path, count: int, env_options: dict[str, Any], rollouts: int, workers: int
) -> None:
    """Parts 0 .. ``count``-1 in ``folder``, the missing ones made by ``workers`` processes."""
    make = functools.partial(search_part_arrays, env_options, rollouts)
    parts_io.make_parts(folder, count, make, workers)


def load_parts(folder: Path, count: int = 0, decks: int | None = None) -> Demonstrations:
    """Parts 0 .. ``count``-1 of ``folder`` (``count`` 0: every part there), in order
    (``decks``: theirs, to complete parts made for ``shengji_v0``).

    Raises:
        ValueError: there are none, one is missing, or one cannot be read.
    """
    parts = []
    for index, arrays in enumerate(parts_io.read_parts(folder, count, decks)):
        try:
            parts.append(Demonstrations.from_arrays(arrays))
        except KeyError as error:
            message = f"{folder}: part {index} is not a SearchAgent label part ({error})"
            raise ValueError(message) from error
    return Demonstrations.concatenate(parts)


def main(argv: Sequence[str] | None = None) -> int:
    parser = parts_io.part_parser(__doc__.split("\n\n")[0], "label parts")
    parser.add_argument("--rollouts", type=int, default=48, help="search rollouts a decision")
    args = parser.parse_args(argv)
    parts = parts_io.chosen_parts(args)
    write_parts(args.out, parts, {"decks": args.decks}, args.rollouts)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
