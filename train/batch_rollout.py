"""Rollout collection on the compiled core's batched tables (:class:`TableBatch`).

The :class:`BatchCollector` steps all its tables in one call each step (observations, masks
and acting seats come back as arrays) and runs one forward pass per network over the rows
it acts in: the learner, or a past snapshot for the other team. The heuristic opponent is
the core's copy of the bot (its bids, buries, leads and follows).

Hands, rewards and stopping follow the per-environment
:class:`~shengji_env.train.rollout.Collector`: each hand is dealt by an environment of the config's
options (its deck count drawn from ``ppo_decks``, mid-match dealers and random levels included) and
played on a table; an opponent kind is drawn per hand from the league mix; the reward is the hand's,
less the duplicate baseline, plus the point-gain shaping, with the failed-throw cost at the steps
that committed failed throws; collection stops at the first hand boundary after the target (a table
whose hand ended after that stays over). One difference: the snapshot hands of a collection all face
one past snapshot, drawn at its start (one forward pass a step for it, not one per snapshot; over
updates every snapshot is drawn alike). Advice and other rule-based opponents use the
per-environment collector.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

import numpy as np
import torch

from shengji_env.agents.advice import NO_ADVICE
from shengji_env.agents.planning import planned_action
from shengji_env.agents.search import CORE_POLICIES
from shengji_env.core import load_core, to_game
from shengji_env.env import raw_env
from shengji_env.rules import Game, RuleConfig
from shengji_env.vector import TableBatch

from .baseline import HeuristicBaseline
from .config import TrainConfig, draw_decks
from .league import NetworkPool
from .rewards import HandReward
from .trajectories import gae_segments

BATCH_OPPONENTS = frozenset({"self", "snapshot", "heuristic"})
LEARNER = -1  # the group key of learner rows (snapshot rows use their index)
HEURISTIC = -2  # the group key (and opponent) of the heuristic's rows


def batchable(config: TrainConfig) -> bool:
    """Whether :class:`BatchCollector` can collect for ``config``: the core is built, every
    opponent is a network or the heuristic, and no advice."""
    return (
        load_core() is not None
        and set(config.league.opponents) <= BATCH_OPPONENTS
        and not config.model.advice
    )


def gumbel_max(logits: torch.Tensor, generator: torch.Generator) -> torch.Tensor:
    """One action per row drawn from softmax(logits): the argmax of the logits plus Gumbel
    noise (a quarter of the time of softmax and multinomial over 64 rows here; masked
    logits, -1e9, are never drawn)."""
    uniform = torch.rand(logits.shape, generator=generator).clamp_(min=1e-30)
    return (logits - uniform.log_().neg_().log_()).argmax(dim=1)


@dataclass
class _Hand:
    """What a table's hand needs beyond the arrays of :class:`_Hands`."""

    config: RuleConfig  # the hand's rules (deck count and start level)
    baseline: np.ndarray  # each seat's duplicate baseline (zeros without one)
    baseline_points: np.ndarray  # each seat's point score in the baseline's hand (or zeros)
    plan: list[int] = field(default_factory=list)  # the heuristic's current decision


class _Hands:
    """The hand on each table, as arrays: its serial number in this collection, which seats
    the learner plays, the opponent playing the others (a snapshot index, HEURISTIC, or -1
    when the learner plays all four) and how many learner samples it has so far."""

    def __init__(self, count: int) -> None:
        self.serial = np.zeros(count, dtype=np.int64)
        self.learner = np.zeros((count, 4), dtype=bool)
        self.opponent = np.full(count, -1, dtype=np.int64)
        self.samples = np.zeros(count, dtype=np.int64)
        self.hands: list[_Hand | None] = [None] * count
        self.started = 0

    def start(self, index: int, learner_seats: tuple[int, ...], opponent: int, hand: _Hand) -> None:
        self.serial[index], self.started = self.started, self.started + 1
        self.learner[index] = False
        self.learner[index, list(learner_seats)] = True
        self.opponent[index] = opponent
        self.samples[index] = 0
        self.hands[index] = hand

    def groups(self, active: np.ndarray, seats: np.ndarray) -> dict[int, np.ndarray]:
        """Active tables by who acts there (LEARNER, a snapshot index or HEURISTIC), in the
        order of their first table."""
        indices = np.flatnonzero(active)
        keys = np.where(self.learner[indices, seats[indices]], LEARNER, self.opponent[indices])
        unique, first = np.unique(keys, return_index=True)
        return {int(key): indices[keys == key] for key in unique[np.argsort(first)]}


@dataclass
class _Record:
    """The learner's samples, a block of rows per step (no Python per sample), with the
    hand serial and seat of each row; put in trajectory order at the end."""

    blocks: list[tuple[np.ndarray, ...]] = field(default_factory=list)
    finish_order: dict[int, int] = field(default_factory=dict)  # hand serial -> position
    final_rewards: dict[int, np.ndarray] = field(default_factory=dict)  # serial -> 4 seats
    failed: dict[int, list[list[bool]]] = field(default_factory=dict)  # serial -> per seat
    reward: HandReward = field(default_factory=HandReward)

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
        obs, serials, seats, values = obs[order], serials[order], seats[order], values[order]
        starts = np.flatnonzero(
            np.r_[True, (serials[1:] != serials[:-1]) | (seats[1:] != seats[:-1])]
        )
        rewards = np.zeros(len(order), dtype=np.float32)
        for start, stop in zip(starts, np.r_[starts[1:], len(order)], strict=True):
            serial, seat = int(serials[start]), int(seats[start])
            if serial in self.failed:
                rewards[start:stop] = self.reward.step_rewards(
                    obs[start:stop], self.failed[serial][seat]
                )
            rewards[stop - 1] += self.final_rewards[serial][seat]
        advantages = gae_segments(rewards, values, starts, gamma, lam)
        return {
            "obs": obs,
            "masks": masks[order],
            "actions": actions[order],
            "logprobs": logprobs[order],
            "values": values,
            "advice": np.full(len(order), NO_ADVICE, dtype=np.int64),
            "advantages": advantages,
            "returns": advantages + values,
        }


@dataclass
class _Totals:
    """Per finished hand: the learner's reward and, against the heuristic, its gain over
    the baseline with the deck count."""

    steps: int = 0
    rewards: list[float] = field(default_factory=list)
    gains: list[float] = field(default_factory=list)
    gain_decks: list[int] = field(default_factory=list)


class BatchCollector(NetworkPool):
    """Collects learner samples from ``envs_per_worker`` tables stepped together."""

    def __init__(self, config: TrainConfig) -> None:
        super().__init__(config)
        options = dict(config.env_options)
        options.pop("start", None)
        if options.get("start_level") == "random":
            del options["start_level"]
        self.table_options = options  # the batch's rules: each hand brings its own
        self.dealers: dict[int, Any] = {}  # an environment per deck count: deals the hands
        self.baseline = HeuristicBaseline(config.env_options)
        self.reward = HandReward.of(config.shaping)
        self.snapshot = -1  # the snapshot this collection's snapshot hands are played by

    def _deal(self, decks: int, seed: int) -> Game:
        """The hand an environment of the config's options deals from ``seed``."""
        if decks not in self.dealers:
            self.dealers[decks] = raw_env(**{**self.config.env_options, "decks": decks})
        dealer = self.dealers[decks]
        dealer.reset(seed=seed)
        return dealer.game

    def _new_hand(
        self, batch: TableBatch, hands: _Hands, index: int, rng: np.random.Generator
    ) -> None:
        """Deals table ``index`` its next hand and draws who plays it, as the
        per-environment collector does."""
        config = self.config
        seed = int(rng.integers(2**31))
        decks = (
            draw_decks(config.game.ppo_decks, rng) if config.game.ppo_decks else config.game.decks
        )
        game = self._deal(decks, seed)
        baseline, points = np.zeros(4), np.zeros(4)
        if config.shaping.duplicate_baseline:
            scores = self.baseline.score_hand(game, self.dealers[decks].reward_kind)
            baseline, points = np.array(scores[0]), np.array(scores[1])
        hand = _Hand(game.config, baseline, points)
        batch.start(index, game)
        kind = self.draw_kind(rng)
        if kind == "snapshot" and not self.snapshots:
            kind = "self"
        if kind == "self":
            hands.start(index, (0, 1, 2, 3), -1, hand)
            return
        team = int(rng.integers(2))
        opponent = self.snapshot if kind == "snapshot" else HEURISTIC
        hands.start(index, (team, team + 2), opponent, hand)

    @torch.no_grad()
    def collect(self, target_steps: int, seed: int) -> dict[str, np.ndarray]:
        """At least ``target_steps`` learner samples from whole hands."""
        config = self.config
        rng = np.random.default_rng(seed)
        generator = torch.Generator().manual_seed(seed)
        count = config.run.envs_per_worker
        batch = TableBatch(count, seed=int(rng.integers(2**63)), redeal=False, **self.table_options)
        out = batch.reset()
        self.snapshot = int(rng.integers(len(self.snapshots))) if self.snapshots else -1
        hands = _Hands(count)
        for index in range(count):
            self._new_hand(batch, hands, index, rng)
        active = np.ones(count, dtype=bool)
        record = _Record(reward=self.reward)
        totals = _Totals()
        while active.any():
            actions = np.zeros(count, dtype=np.int64)  # tables over: their action is ignored
            for key, rows in hands.groups(active, out.seats).items():
                if key == HEURISTIC:
                    self._heuristic_actions(rows, batch, hands, actions)
                else:
                    self._act(key, rows, hands, out, actions, generator, record)
            out = batch.step(actions)
            for index in np.flatnonzero(out.dones & active):
                self._finish(index, batch, hands, out.rewards[index], record, totals)
                if totals.steps < target_steps:
                    self._new_hand(batch, hands, int(index), rng)
                else:
                    active[index] = False
        result = record.arrays(config.ppo.gamma, config.ppo.gae_lambda)
        result["hand_rewards"] = np.array(totals.rewards, dtype=np.float32)
        result["hand_gains"] = np.array(totals.gains, dtype=np.float32)
        result["hand_gain_decks"] = np.array(totals.gain_decks, dtype=np.int64)
        return result

    def _finish(
        self,
        index: int,
        batch: TableBatch,
        hands: _Hands,
        rewards: np.ndarray,
        record: _Record,
        totals: _Totals,
    ) -> None:
        """A table's hand ended: its seats' final rewards and failed throws
        (:class:`~.rewards.HandReward`) go to the record."""
        hand = hands.hands[index]
        assert hand is not None
        serial = int(hands.serial[index])
        seats = np.flatnonzero(hands.learner[index])
        game = None
        if self.reward.reads_the_game:
            game = to_game(batch.state(index), hand.config)
        final = self.reward.final(rewards, hand.baseline, hand.baseline_points, game)
        failed = self.reward.failed_throws(game)
        if failed is not None:
            record.failed[serial] = failed
        record.finish_order[serial] = len(record.finish_order)
        record.final_rewards[serial] = final
        totals.steps += int(hands.samples[index])
        first = int(seats[0])
        totals.rewards.append(float(rewards[first]))
        if hands.opponent[index] == HEURISTIC:
            totals.gains.append(float(rewards[first]) - float(hand.baseline[first]))
            totals.gain_decks.append(hand.config.decks)

    def _heuristic_actions(
        self, rows: np.ndarray, batch: TableBatch, hands: _Hands, actions: np.ndarray
    ) -> None:
        """The heuristic's next card or COMMIT at each of ``rows``: a new decision is made
        whole by the core's copy of the bot (its bid, bury, lead or follow) and fed card by
        card."""
        for index in rows:
            hand = hands.hands[index]
            assert hand is not None
            selected = len(batch.selection(int(index)))
            if not selected:
                hand.plan = batch.bot_play(int(index), CORE_POLICIES["heuristic"])
            actions[index] = planned_action(hand.plan, selected)

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
