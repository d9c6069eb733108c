"""The clone's data: demonstrations, and how HeuristicAgent's are collected.

A demonstration is a decision someone we clone took (HeuristicAgent here, SearchAgent in
:mod:`shengji_env.train.distill`): observation, mask, action, the seat's value target for its hand,
and the heuristic's advice in that state (:mod:`shengji_env.agents.advice`). Observations are kept
as float16 (counts and fractions in [0, 1]) to fit millions of samples in memory.
"""

from __future__ import annotations

import multiprocessing
from dataclasses import dataclass
from typing import Any

import numpy as np

from shengji_env.agents import HeuristicAgent
from shengji_env.agents.play import play_hand
from shengji_env.env import raw_env

from .config import TrainConfig
from .parts import Columns


@dataclass
class Demonstrations(Columns):
    """Decisions to clone with each seat's value target for its hand, and the heuristic's
    advice in each state (``NO_ADVICE`` where it has none)."""

    obs: np.ndarray  # float16 [n, OBS_SIZE]
    masks: np.ndarray  # int8 [n, 55]
    actions: np.ndarray  # int64 [n]
    returns: np.ndarray  # float32 [n]
    advice: np.ndarray  # int64 [n]


def heuristic_samples(
    env_options: dict[str, Any], count: int, seed: int, gains: bool = False
) -> Demonstrations:
    """At least ``count`` decisions of HeuristicAgent in all four seats, whole hands. The
    value target is the seat's hand reward, or with ``gains`` its gain over the heuristic
    itself (zero: the duplicate baseline of a heuristic hand is the hand)."""
    env = raw_env(**env_options)
    bot = HeuristicAgent()
    obs: list[np.ndarray] = []
    masks: list[np.ndarray] = []
    actions: list[int] = []
    seats: list[int] = []

    def record(seat: int, observed: dict[str, np.ndarray], _: Any, action: int) -> None:
        obs.append(observed["observation"].astype(np.float16))
        masks.append(observed["action_mask"])
        actions.append(action)
        seats.append(seat)

    returns: list[float] = []
    hand = 0
    while len(actions) < count:
        start = len(seats)
        totals = play_hand(env, [bot] * 4, seed + hand, record)
        hand += 1
        returns += [0.0 if gains else totals[seat] for seat in seats[start:]]
    return Demonstrations(
        np.array(obs),
        np.array(masks, dtype=np.int8),
        np.array(actions, dtype=np.int64),
        np.array(returns, dtype=np.float32),
        np.array(actions, dtype=np.int64),  # the heuristic's advice is its own action
    )


def collect_demonstrations(config: TrainConfig, count: int, seed: int) -> Demonstrations:
    """``count`` heuristic decisions, split over ``config.run.num_workers`` processes."""
    workers = max(1, config.run.num_workers)
    share = -(-count // workers)
    jobs = [
        (config.env_options, share, seed + index * 10_000_019, config.shaping.duplicate_baseline)
        for index in range(workers)
    ]
    if workers == 1:
        parts = [heuristic_samples(*jobs[0])]
    else:
        with multiprocessing.get_context("spawn").Pool(workers) as pool:
            parts = pool.starmap(heuristic_samples, jobs)
    return Demonstrations.concatenate(parts)
