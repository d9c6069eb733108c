"""Rollout collection: whole hands in several environments, batched inference, GAE.

A :class:`Collector` steps its environments together. Each hand gets an opponent drawn
from the league mix: the learner in all four seats (``self``), or the learner in one team
against a past snapshot or a rule-based bot. Only learner seats are recorded; a seat's
consecutive card-by-card steps are consecutive samples of its trajectory, and the hand's
reward comes at its last step (less, with ``duplicate_baseline``, what the heuristic bot
scores from that seat on the same deal; with ``failed_throw_cost``, that cost comes at the
step that committed each failed throw; with ``point_gain_coef``, the points its team gained
over the baseline's hand count too). Collection stops at the first hand boundary after the
target, so an update never carries a half-played hand into the next one (which is what
makes resuming from a checkpoint exact).
"""

from __future__ import annotations

import contextlib
import multiprocessing
from collections.abc import Sequence
from dataclasses import dataclass, field
from multiprocessing.connection import Connection
from typing import Any

import numpy as np
import torch

from shengji_env.agents import HeuristicAgent, load_agent
from shengji_env.agents.advice import NO_ADVICE, HeuristicAdvice
from shengji_env.agents.network import PolicyNet
from shengji_env.agents.planning import planned_action
from shengji_env.agents.search import CORE_POLICIES
from shengji_env.engines import CoreEngine
from shengji_env.env import raw_env

from .baseline import HeuristicBaseline
from .batch_rollout import BatchCollector, batchable
from .config import TrainConfig, draw_decks
from .league import NetworkPool
from .rewards import HandReward
from .trajectories import BATCH_KEYS, hand_arrays


@dataclass
class _Hand:
    """One environment's current hand: who plays which seat and the learner's samples."""

    env: Any
    learner_seats: set[int]
    opponent: Any  # a rule-based agent, a snapshot index, or None
    baseline: list[float]  # each seat's duplicate baseline (zeros when there is none)
    baseline_points: list[float]  # each seat's point score in the baseline's hand (or zeros)
    samples: dict[int, list[tuple]] = field(default_factory=dict)
    plan: list[int] = field(default_factory=list)  # the core heuristic's current play


class Collector(NetworkPool):
    """Collects learner samples from ``envs_per_worker`` environments."""

    def __init__(self, config: TrainConfig) -> None:
        super().__init__(config)
        self.baseline = HeuristicBaseline(config.env_options)
        self.reward = HandReward.of(config.shaping)
        self.advice = HeuristicAdvice() if config.model.advice else None
        self.spare_envs: dict[int, list[Any]] = {}  # by deck count (with ppo_decks)

    def _env(self, decks: int) -> Any:
        return raw_env(**{**self.config.env_options, "decks": decks})

    def _draw_decks(self, rng: np.random.Generator) -> int:
        """The next hand's deck count: from ``ppo_decks`` (no draw without a mix)."""
        mix = self.config.game.ppo_decks
        return draw_decks(mix, rng) if mix else self.config.game.decks

    def _table(self, env: Any, decks: int) -> Any:
        """An environment of ``decks`` decks: ``env`` if it has them, else a spare one."""
        if env.config.decks == decks:
            return env
        self.spare_envs.setdefault(env.config.decks, []).append(env)
        spare = self.spare_envs.setdefault(decks, [])
        return spare.pop() if spare else self._env(decks)

    def _new_hand(self, env: Any, rng: np.random.Generator) -> _Hand:
        seed = int(rng.integers(2**31))
        env = self._table(env, self._draw_decks(rng))
        env.reset(seed=seed)
        baseline, points = [0.0] * 4, [0.0] * 4
        if self.config.shaping.duplicate_baseline:
            baseline, points = self.baseline.score(env.config.decks, seed)
        kind = self.draw_kind(rng)
        if kind == "snapshot" and not self.snapshots:
            kind = "self"
        if kind == "self":
            return _Hand(env, {0, 1, 2, 3}, None, baseline, points)
        team = int(rng.integers(2))
        seats = {team, team + 2}
        if kind == "snapshot":
            return _Hand(env, seats, int(rng.integers(len(self.snapshots))), baseline, points)
        opponent = load_agent(kind, seed=int(rng.integers(2**31)))
        return _Hand(env, seats, opponent, baseline, points)

    @torch.no_grad()
    def collect(self, target_steps: int, seed: int) -> dict[str, np.ndarray]:
        """At least ``target_steps`` learner samples from whole hands."""
        config = self.config
        rng = np.random.default_rng(seed)
        generator = torch.Generator().manual_seed(seed)
        hands = [
            self._new_hand(raw_env(**config.env_options), rng)
            for _ in range(config.run.envs_per_worker)
        ]
        finished: list[dict[str, np.ndarray]] = []
        steps, rewards, gains, gain_decks = 0, [], [], []
        active = list(hands)
        while active:
            queries: dict[Any, list[tuple[_Hand, int, dict]]] = {}
            for hand in active:
                seat = hand.env.possible_agents.index(hand.env.agent_selection)
                observed = hand.env.observe(hand.env.agent_selection)
                key = "learner" if seat in hand.learner_seats else id(hand.opponent)
                queries.setdefault(key, []).append((hand, seat, observed))
            for key, group in queries.items():
                self._act(key, group, generator)
            still: list[_Hand] = []
            for hand in active:
                if not all(hand.env.terminations.values()):
                    still.append(hand)
                    continue
                samples = self._finish(hand)
                steps += len(samples["actions"])
                seat = min(hand.learner_seats)
                rewards.append(float(hand.env.rewards[hand.env.possible_agents[seat]]))
                if isinstance(hand.opponent, HeuristicAgent):
                    gains.append(rewards[-1] - hand.baseline[seat])
                    gain_decks.append(hand.env.config.decks)
                finished.append(samples)
                if steps < target_steps:
                    still.append(self._new_hand(hand.env, rng))
            active = still
        batch = {k: np.concatenate([f[k] for f in finished]) for k in BATCH_KEYS}
        batch["hand_rewards"] = np.array(rewards, dtype=np.float32)
        batch["hand_gains"] = np.array(gains, dtype=np.float32)
        batch["hand_gain_decks"] = np.array(gain_decks, dtype=np.int64)
        return batch

    def _act(
        self, key: Any, group: list[tuple[_Hand, int, dict]], generator: torch.Generator
    ) -> None:
        hand0 = group[0][0]
        if key != "learner" and not isinstance(hand0.opponent, int):
            for hand, _, observed in group:
                hand.env.step(self._rule_action(hand, observed))
            return
        net = self.policy if key == "learner" else self.snapshots[hand0.opponent]
        advice = [NO_ADVICE] * len(group)
        if self.advice is not None and (key == "learner" or net.advised):
            advice = [
                self.advice.next_action(observed, hand.env.infos[hand.env.agent_selection])
                for hand, _, observed in group
            ]
        obs = torch.from_numpy(np.stack([o["observation"] for _, _, o in group]))
        masks = torch.from_numpy(np.stack([o["action_mask"] for _, _, o in group]))
        actions, logprobs, values = net.act(
            obs, masks, generator, torch.tensor(advice) if net.advised else None
        )
        for index, (hand, seat, observed) in enumerate(group):
            action = int(actions[index])
            if key == "learner":
                hand.samples.setdefault(seat, []).append(
                    (
                        observed["observation"],
                        observed["action_mask"],
                        action,
                        float(logprobs[index]),
                        float(values[index]),
                        advice[index],
                    )
                )
            hand.env.step(action)

    def _rule_action(self, hand: _Hand, observed: dict) -> int:
        """A rule-based opponent's next action. Where the env runs on the compiled core, the
        heuristic's decisions come from the core's copy of it (the same bids, buries, leads
        and follows, with no Python view to build), fed card by card as
        :class:`PlanningAgent` feeds them."""
        engine = hand.env.engine
        if isinstance(engine, CoreEngine) and isinstance(hand.opponent, HeuristicAgent):
            selected = len(engine.selection())
            if not selected:
                hand.plan = engine.bot_play(CORE_POLICIES["heuristic"])
            return planned_action(hand.plan, selected)
        return hand.opponent.act(observed, hand.env.infos[hand.env.agent_selection])

    def _finish(self, hand: _Hand) -> dict[str, np.ndarray]:
        """A hand ended: its learner seats' trajectories, with their rewards
        (:class:`~.rewards.HandReward`) and GAE."""
        env = hand.env
        game = env.game if self.reward.reads_the_game else None
        table = [env.rewards[agent] for agent in env.possible_agents]
        final = self.reward.final(table, hand.baseline, hand.baseline_points, game)
        failed = self.reward.failed_throws(game)
        shaping = None
        if failed is not None:
            shaping = {
                seat: self.reward.step_rewards(np.array([step[0] for step in steps]), failed[seat])
                for seat, steps in hand.samples.items()
            }
        config = self.config.ppo
        rewards = {seat: final[seat] for seat in hand.samples}
        return hand_arrays(hand.samples, rewards, config.gamma, config.gae_lambda, shaping)


def make_collector(config: TrainConfig) -> Collector | BatchCollector:
    """The batched collector where the compiled core can play every seat (see
    :func:`shengji_env.train.batch_rollout.batchable`), else the per-environment one."""
    return BatchCollector(config) if batchable(config) else Collector(config)


def merge(batches: Sequence[dict[str, np.ndarray]]) -> dict[str, np.ndarray]:
    """One batch from the workers' batches, in worker order (deterministic)."""
    return {k: np.concatenate([b[k] for b in batches]) for k in batches[0]}


def _worker(conn: Connection, config_data: dict[str, Any]) -> None:
    from .config import config_from_dict

    torch.set_num_threads(1)
    collector = make_collector(config_from_dict(config_data))
    while True:
        message = conn.recv()
        if message[0] == "close":
            return
        _, policy_state, snapshot_states, target, seed = message
        collector.load(policy_state, snapshot_states)
        conn.send(collector.collect(target, seed))


class RolloutWorkers:
    """Collectors in subprocesses (``num_workers`` >= 1) or in this process (0)."""

    def __init__(self, config: TrainConfig) -> None:
        self.config = config
        self.local = make_collector(config) if config.run.num_workers == 0 else None
        self.connections: list[Connection] = []
        self.processes: list[Any] = []
        context = multiprocessing.get_context("spawn")
        for _ in range(config.run.num_workers):
            parent, child = context.Pipe()
            process = context.Process(target=_worker, args=(child, config.to_dict()), daemon=True)
            process.start()
            self.connections.append(parent)
            self.processes.append(process)

    def collect(
        self, policy: PolicyNet, snapshots: Sequence[dict], seed: int
    ) -> dict[str, np.ndarray]:
        state = {k: v.detach().clone() for k, v in policy.state_dict().items()}
        target = self.config.ppo.steps_per_update
        if self.local is not None:
            self.local.load(state, snapshots)
            return self.local.collect(target, seed)
        share = -(-target // len(self.connections))
        for index, conn in enumerate(self.connections):
            conn.send(("collect", state, list(snapshots), share, seed * 1009 + index))
        batches = [conn.recv() for conn in self.connections]
        return merge(batches)

    def close(self) -> None:
        for conn in self.connections:
            with contextlib.suppress(BrokenPipeError, OSError):
                conn.send(("close",))
        for process in self.processes:
            process.join(timeout=5)
            if process.is_alive():
                process.terminate()


class RayWorkers:
    """Collectors as Ray actors: one environment batch and a policy copy each; the weights
    go to the object store once per update and every actor reads them. An actor that dies
    is restarted and its collection retried: collection is a pure function of the weights
    and the seed, so a retried update is the same update."""

    def __init__(self, config: TrainConfig) -> None:
        import ray

        if not ray.is_initialized():
            address = config.run.ray_address or None
            ray.init(address=address, include_dashboard=False, log_to_driver=False)
        self._ray = ray
        self.config = config
        actor = ray.remote(num_cpus=1, max_restarts=-1, max_task_retries=-1)(_RayCollector)
        self.actors = [actor.remote(config.to_dict()) for _ in range(config.run.num_workers)]

    def collect(
        self, policy: PolicyNet, snapshots: Sequence[dict], seed: int
    ) -> dict[str, np.ndarray]:
        ray = self._ray
        state = ray.put({k: v.detach().clone() for k, v in policy.state_dict().items()})
        league = ray.put(list(snapshots))
        share = -(-self.config.ppo.steps_per_update // len(self.actors))
        calls = [
            actor.collect.remote(state, league, share, seed * 1009 + index)
            for index, actor in enumerate(self.actors)
        ]
        batches = ray.get(calls)
        return merge(batches)

    def close(self) -> None:
        for actor in self.actors:
            self._ray.kill(actor, no_restart=True)


class _RayCollector:
    """The actor body: a :class:`Collector` built from the config dict."""

    def __init__(self, config_data: dict[str, Any]) -> None:
        from .config import config_from_dict

        torch.set_num_threads(1)
        self.collector = make_collector(config_from_dict(config_data))

    def collect(
        self, state: dict, snapshots: list[dict], target: int, seed: int
    ) -> dict[str, np.ndarray]:
        self.collector.load(state, snapshots)
        return self.collector.collect(target, seed)


def make_workers(config: TrainConfig) -> RolloutWorkers | RayWorkers:
    return RayWorkers(config) if config.run.backend == "ray" else RolloutWorkers(config)
