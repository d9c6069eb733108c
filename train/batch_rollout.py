"""Rollout collection on the compiled core's batched tables (:class:`TableBatch`).

Where every seat of every hand is played by a network — the learner, or a past snapshot
for the other team — the :class:`BatchCollector` steps all its tables in one call each step
(observations, masks and acting seats come back as arrays) and runs one forward pass per
network over the rows it acts in. Hands, opponents and stopping follow the per-environment
:class:`~train.rollout.Collector` exactly: an opponent drawn per hand from the league mix,
learner seats recorded, collection stopping at the first hand boundary after the target
(a table whose hand ended after that is played on with any legal action and not recorded).
Rule-based opponents, advice and the duplicate baseline read Python views, so configs with
them use the per-environment collector.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

import numpy as np
import torch

from agents.advice import NO_ADVICE
from shengji_env.core import load_core
from shengji_env.vector import TableBatch

from .config import TrainConfig
from .league import NetworkPool
from .trajectories import BATCH_KEYS, Sample, hand_arrays

NETWORK_KINDS = frozenset({"self", "snapshot"})
LEARNER = -1  # the group key of learner rows (snapshot rows use their index)


def batchable(config: TrainConfig) -> bool:
    """Whether :class:`BatchCollector` can collect for ``config``: the core is built, every
    opponent is a network, no advice or baseline, and no per-episode random level."""
    options = config.env_options
    return (
        load_core() is not None
        and set(config.opponents) <= NETWORK_KINDS
        and not config.advice
        and not config.duplicate_baseline
        and options.get("start_level") != "random"
    )


@dataclass
class _TableHand:
    """The hand on one table: the learner's seats, the snapshot playing the others (or
    ``None``), and the learner's samples per seat."""

    learner_seats: frozenset[int]
    opponent: int | None
    samples: dict[int, list[Sample]] = field(default_factory=dict)


class BatchCollector(NetworkPool):
    """Collects learner samples from ``envs_per_worker`` tables stepped together."""

    def __init__(self, config: TrainConfig) -> None:
        super().__init__(config)
        self.options = config.env_options

    def _new_hand(self, rng: np.random.Generator) -> _TableHand:
        kind = self.draw_kind(rng)
        if kind == "self" or not self.snapshots:
            return _TableHand(frozenset(range(4)), None)
        team = int(rng.integers(2))
        return _TableHand(frozenset({team, team + 2}), int(rng.integers(len(self.snapshots))))

    @torch.no_grad()
    def collect(self, target_steps: int, seed: int) -> dict[str, np.ndarray]:
        """At least ``target_steps`` learner samples from whole hands."""
        config = self.config
        rng = np.random.default_rng(seed)
        generator = torch.Generator().manual_seed(seed)
        count = config.envs_per_worker
        batch = TableBatch(count, seed=int(rng.integers(2**63)), **self.options)
        out = batch.reset()
        hands = [self._new_hand(rng) for _ in range(count)]
        active = np.ones(count, dtype=bool)
        finished: list[dict[str, np.ndarray]] = []
        steps, rewards = 0, []
        while active.any():
            actions = out.masks.argmax(axis=1).astype(np.int64)  # retired tables: any legal
            for key, rows in self._groups(hands, active, out.seats).items():
                self._act(key, rows, hands, out, actions, generator)
            out = batch.step(actions)
            for index in np.flatnonzero(out.dones & active):
                hand = hands[index]
                final = {seat: float(out.rewards[index, seat]) for seat in hand.samples}
                samples = hand_arrays(hand.samples, final, config.gamma, config.gae_lambda)
                finished.append(samples)
                steps += len(samples["actions"])
                rewards.append(float(out.rewards[index, min(hand.learner_seats)]))
                if steps < target_steps:
                    hands[index] = self._new_hand(rng)
                else:
                    active[index] = False
        result = {k: np.concatenate([f[k] for f in finished]) for k in BATCH_KEYS}
        result["hand_rewards"] = np.array(rewards, dtype=np.float32)
        result["hand_gains"] = np.zeros(0, dtype=np.float32)
        return result

    @staticmethod
    def _groups(
        hands: list[_TableHand], active: np.ndarray, seats: np.ndarray
    ) -> dict[int, list[int]]:
        """Active tables by the network that acts there (learner, or a snapshot index)."""
        groups: dict[int, list[int]] = {}
        for index in np.flatnonzero(active):
            hand = hands[index]
            learner = int(seats[index]) in hand.learner_seats
            key = LEARNER if learner or hand.opponent is None else hand.opponent
            groups.setdefault(key, []).append(int(index))
        return groups

    def _act(
        self,
        key: int,
        rows: list[int],
        hands: list[_TableHand],
        out: Any,
        actions: np.ndarray,
        generator: torch.Generator,
    ) -> None:
        net = self.policy if key == LEARNER else self.snapshots[key]
        obs, masks = out.observations[rows], out.masks[rows]  # copies: the batch reuses its
        chosen, logprobs, values = net.act(
            torch.from_numpy(obs), torch.from_numpy(masks), generator, None
        )
        picked = chosen.numpy()
        actions[rows] = picked
        if key != LEARNER:
            return
        seats = out.seats[rows].tolist()
        for row, (index, seat, action, logprob, value) in enumerate(
            zip(rows, seats, picked.tolist(), logprobs.tolist(), values.tolist(), strict=True)
        ):
            hands[index].samples.setdefault(seat, []).append(
                (obs[row], masks[row], action, logprob, value, NO_ADVICE)
            )
