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
from .trajectories import gae

NETWORK_KINDS = frozenset({"self", "snapshot"})
LEARNER = -1  # the group key of learner rows (snapshot rows use their index)


def batchable(config: TrainConfig) -> bool:
    """Whether :class:`BatchCollector` can collect for ``config``: the core is built, every
    opponent is a network, no advice, baseline, shaping or deck mix, and no per-episode random
    level."""
    options = config.env_options
    return (
        load_core() is not None
        and set(config.opponents) <= NETWORK_KINDS
        and not config.advice
        and not config.duplicate_baseline
        and not config.failed_throw_cost
        and not config.point_gain_coef
        and not config.ppo_decks
        and options.get("start_level") != "random"
    )


def gumbel_max(logits: torch.Tensor, generator: torch.Generator) -> torch.Tensor:
    """One action per row drawn from softmax(logits): the argmax of the logits plus Gumbel
    noise (a quarter of the time of softmax and multinomial over 64 rows here; masked
    logits, -1e9, are never drawn)."""
    uniform = torch.rand(logits.shape, generator=generator).clamp_(min=1e-30)
    return (logits - uniform.log_().neg_().log_()).argmax(dim=1)


class _Hands:
    """The hand on each table, as arrays: its serial number in this collection, which seats
    the learner plays, the snapshot playing the others (-1: none) and how many learner
    samples it has so far."""

    def __init__(self, count: int) -> None:
        self.serial = np.zeros(count, dtype=np.int64)
        self.learner = np.zeros((count, 4), dtype=bool)
        self.opponent = np.full(count, -1, dtype=np.int64)
        self.samples = np.zeros(count, dtype=np.int64)
        self.started = 0

    def start(self, index: int, learner_seats: tuple[int, ...], opponent: int) -> None:
        self.serial[index], self.started = self.started, self.started + 1
        self.learner[index] = False
        self.learner[index, list(learner_seats)] = True
        self.opponent[index] = opponent
        self.samples[index] = 0

    def groups(self, active: np.ndarray, seats: np.ndarray) -> dict[int, np.ndarray]:
        """Active tables by the network that acts there (learner, or a snapshot index), the
        networks in the order of their first table."""
        indices = np.flatnonzero(active)
        learner = self.learner[indices, seats[indices]] | (self.opponent[indices] < 0)
        keys = np.where(learner, LEARNER, self.opponent[indices])
        unique, first = np.unique(keys, return_index=True)
        return {int(key): indices[keys == key] for key in unique[np.argsort(first)]}


@dataclass
class _Record:
    """The learner's samples, a block of rows per step (no Python per sample), with the
    hand serial and seat of each row; put in trajectory order at the end."""

    blocks: list[tuple[np.ndarray, ...]] = field(default_factory=list)
    finish_order: dict[int, int] = field(default_factory=dict)  # hand serial -> position
    final_rewards: dict[int, np.ndarray] = field(default_factory=dict)  # serial -> 4 seats

    def add(self, *columns: np.ndarray) -> None:
        self.blocks.append(columns)

    def arrays(self, gamma: float, lam: float) -> dict[str, np.ndarray]:
        """The finished hands' samples in the per-environment collector's order (hands as
        they finished, then seat, then step), with GAE per seat's trajectory."""
        obs, masks, actions, logprobs, values, serials, seats = (
            np.concatenate(column) for column in zip(*self.blocks, strict=True)
        )
        finish = np.full(max(self.finish_order) + 1, -1, dtype=np.int64)
        finish[list(self.finish_order)] = list(self.finish_order.values())
        position = finish[serials]
        order = np.lexsort((np.arange(len(serials)), seats, position))
        serials, seats, values = serials[order], seats[order], values[order]
        starts = np.flatnonzero(
            np.r_[True, (serials[1:] != serials[:-1]) | (seats[1:] != seats[:-1])]
        )
        advantages = np.zeros_like(values)
        for start, stop in zip(starts, np.r_[starts[1:], len(order)], strict=True):
            rewards = np.zeros(stop - start, dtype=np.float32)
            rewards[-1] = self.final_rewards[int(serials[start])][int(seats[start])]
            advantages[start:stop] = gae(rewards, values[start:stop], gamma, lam)
        return {
            "obs": obs[order],
            "masks": masks[order],
            "actions": actions[order],
            "logprobs": logprobs[order],
            "values": values,
            "advice": np.full(len(order), NO_ADVICE, dtype=np.int64),
            "advantages": advantages,
            "returns": advantages + values,
        }


class BatchCollector(NetworkPool):
    """Collects learner samples from ``envs_per_worker`` tables stepped together."""

    def __init__(self, config: TrainConfig) -> None:
        super().__init__(config)
        self.options = config.env_options

    def _new_hand(self, hands: _Hands, index: int, rng: np.random.Generator) -> None:
        kind = self.draw_kind(rng)
        if kind == "self" or not self.snapshots:
            hands.start(index, (0, 1, 2, 3), -1)
            return
        team = int(rng.integers(2))
        hands.start(index, (team, team + 2), int(rng.integers(len(self.snapshots))))

    @torch.no_grad()
    def collect(self, target_steps: int, seed: int) -> dict[str, np.ndarray]:
        """At least ``target_steps`` learner samples from whole hands."""
        config = self.config
        rng = np.random.default_rng(seed)
        generator = torch.Generator().manual_seed(seed)
        count = config.envs_per_worker
        batch = TableBatch(count, seed=int(rng.integers(2**63)), **self.options)
        out = batch.reset()
        hands = _Hands(count)
        for index in range(count):
            self._new_hand(hands, index, rng)
        active = np.ones(count, dtype=bool)
        record = _Record()
        steps, rewards = 0, []
        while active.any():
            actions = out.masks.argmax(axis=1).astype(np.int64)  # retired tables: any legal
            for key, rows in hands.groups(active, out.seats).items():
                self._act(key, rows, hands, out, actions, generator, record)
            out = batch.step(actions)
            for index in np.flatnonzero(out.dones & active):
                serial = int(hands.serial[index])
                record.finish_order[serial] = len(record.finish_order)
                record.final_rewards[serial] = out.rewards[index].astype(np.float64)
                steps += int(hands.samples[index])
                first_learner = int(np.flatnonzero(hands.learner[index])[0])
                rewards.append(float(out.rewards[index, first_learner]))
                if steps < target_steps:
                    self._new_hand(hands, index, rng)
                else:
                    active[index] = False
        result = record.arrays(config.gamma, config.gae_lambda)
        result["hand_rewards"] = np.array(rewards, dtype=np.float32)
        result["hand_gains"] = np.zeros(0, dtype=np.float32)
        result["hand_gain_decks"] = np.zeros(0, dtype=np.int64)
        return result

    def _act(
        self,
        key: int,
        rows: np.ndarray,
        hands: _Hands,
        out: Any,
        actions: np.ndarray,
        generator: torch.Generator,
        record: _Record,
    ) -> None:
        net = self.policy if key == LEARNER else self.snapshots[key]
        obs, masks = out.observations[rows], out.masks[rows]  # copies: the batch reuses its
        logits, values = net(torch.from_numpy(obs), torch.from_numpy(masks), None)
        chosen = gumbel_max(logits, generator)
        logprobs = torch.log_softmax(logits, dim=-1).gather(1, chosen[:, None]).squeeze(1)
        picked = chosen.numpy()
        actions[rows] = picked
        if key != LEARNER:
            return
        hands.samples[rows] += 1
        record.add(
            obs,
            masks,
            picked.astype(np.int64),
            logprobs.numpy().astype(np.float64),
            values.numpy().astype(np.float32),
            hands.serial[rows],
            out.seats[rows].astype(np.int64),
        )
