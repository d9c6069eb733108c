"""Self-play PPO for Shengji, read top to bottom (after CleanRL's ppo.py).

``train(config)`` runs: seed everything, build the policy-value net, optionally clone
demonstrations (:mod:`.bc`), then loop — collect whole hands from the rollout workers
against the league mix, compute PPO losses over minibatches, log to TensorBoard, snapshot
into the league, evaluate in the arena, checkpoint. ``train(config, resume=checkpoint)``
continues a run exactly where the checkpoint left it.
"""

from __future__ import annotations

import random
import time
from collections.abc import Callable, Mapping
from dataclasses import asdict
from pathlib import Path
from typing import Any

import numpy as np
import torch
import yaml
from torch import nn
from torch.utils.tensorboard import SummaryWriter

from shengji_env.agents.arena import Player, run_arena
from shengji_env.agents.network import PolicyNet, make_network
from shengji_env.agents.policy_file import load_checkpoint, save_checkpoint, save_policy
from shengji_env.agents.ppo_agent import PPOAgent

from . import dagger
from .bc import behaviour_clone
from .checkpoint import add_deck_context, check_resumable, restore_rng, rng_state
from .config import TrainConfig, config_from_dict
from .rollout import make_workers


def run_name(config: TrainConfig) -> str:
    if config.run_name:
        return config.run_name
    return f"shengji_v1__{config.exp_name}__{config.seed}__{int(time.time())}"


def _normalized(advantages: torch.Tensor) -> torch.Tensor:
    """A minibatch's advantages centred and scaled; a lone sample's centred only (its
    sample standard deviation is undefined, and would turn the weights to NaN)."""
    centred = advantages - advantages.mean()
    if len(advantages) < 2:
        return centred
    return centred / (advantages.std() + 1e-8)


def ppo_update(
    net: PolicyNet,
    optimizer: torch.optim.Optimizer,
    batch: dict[str, np.ndarray],
    config: TrainConfig,
    rng: np.random.Generator,
) -> dict[str, float]:
    """PPO's clipped objective over ``update_epochs`` passes of shuffled minibatches."""
    tensors = {
        k: torch.from_numpy(batch[k])
        for k in (
            "obs",
            "masks",
            "actions",
            "logprobs",
            "advantages",
            "returns",
            "values",
            "advice",
        )
    }
    size = len(batch["actions"])
    stats: dict[str, float] = {}
    clip_fractions = []
    for _ in range(config.update_epochs):
        order = rng.permutation(size)
        for start in range(0, size, config.minibatch_size):
            index = torch.from_numpy(order[start : start + config.minibatch_size])
            distribution, values = net.evaluate(
                tensors["obs"][index], tensors["masks"][index], tensors["advice"][index]
            )
            logprobs = distribution.log_prob(tensors["actions"][index].long())
            entropy = distribution.entropy()
            log_ratio = logprobs - tensors["logprobs"][index]
            ratio = log_ratio.exp()
            with torch.no_grad():
                approx_kl = float(((ratio - 1) - log_ratio).mean())
                clip_fractions.append(
                    float(((ratio - 1.0).abs() > config.clip_coef).float().mean())
                )
            advantages = _normalized(tensors["advantages"][index])
            policy_loss = torch.max(
                -advantages * ratio,
                -advantages * torch.clamp(ratio, 1 - config.clip_coef, 1 + config.clip_coef),
            ).mean()
            value_loss = 0.5 * ((values - tensors["returns"][index]) ** 2).mean()
            entropy_loss = entropy.mean()
            loss = policy_loss - config.ent_coef * entropy_loss + config.vf_coef * value_loss
            optimizer.zero_grad()
            loss.backward()
            nn.utils.clip_grad_norm_(net.parameters(), config.max_grad_norm)
            optimizer.step()
        stats = {
            "losses/policy_loss": policy_loss.item(),
            "losses/value_loss": value_loss.item(),
            "losses/entropy": entropy_loss.item(),
            "losses/approx_kl": approx_kl,
        }
        if config.target_kl and approx_kl > config.target_kl:
            break
    returns, values = batch["returns"], batch["values"]
    variance = float(np.var(returns))
    stats["losses/clipfrac"] = float(np.mean(clip_fractions))
    stats["losses/explained_variance"] = (
        float("nan") if variance == 0 else 1 - float(np.var(returns - values)) / variance
    )
    return stats


def gain_stats(gains: np.ndarray, decks: np.ndarray) -> dict[str, float]:
    """The learner's mean gain over the duplicate baseline, in hands against the heuristic;
    with several deck counts in the batch, also by deck count."""
    if not len(gains):
        return {}
    stats = {"charts/gain_vs_heuristic": float(gains.mean())}
    counts = np.unique(decks)
    if len(counts) > 1:
        for count in counts:
            stats[f"charts/gain_vs_heuristic_{count}decks"] = float(gains[decks == count].mean())
    return stats


def evaluate(net: PolicyNet, config: TrainConfig, update: int) -> dict[str, float]:
    """Arena of the current policy against each evaluation opponent."""
    learner = Player("learner", lambda seed: PPOAgent.of(net, seed=seed))
    scores: dict[str, float] = {}
    for opponent in config.eval_opponents:
        result = run_arena(
            [learner, opponent],
            config.eval_deals,
            options=config.env_options,
            seed=10_000 + update,
        )
        pair = result.pairs()[0]
        scores[f"eval/level_gain_vs_{opponent}"] = pair.level_gain.mean
        scores[f"eval/paired_win_share_vs_{opponent}"] = pair.paired_win_share
    return scores


def announce(on_phase: Callable[[str], None] | None, text: str) -> None:
    if on_phase is not None:
        on_phase(text)


def _state(
    net: torch.nn.Module,
    optimizer: torch.optim.Optimizer,
    config: TrainConfig,
    update: int,
    global_step: int,
    snapshots: list[dict[str, torch.Tensor]],
    rng: np.random.Generator,
    dagger_round: int = 0,
) -> dict[str, Any]:
    """Everything a checkpoint holds to resume exactly (``dagger_round``: the distillation
    rounds done)."""
    return {
        "dagger_round": dagger_round,
        "model": net.state_dict(),
        "optimizer": optimizer.state_dict(),
        "config": config.to_dict(),
        "update": update,
        "global_step": global_step,
        "league": snapshots,
        "rng": rng_state(rng),
    }


def _fit_progress(state: dict[str, Any] | None) -> dagger.FitProgress | None:
    """The distillation fit a checkpoint stopped inside, if any."""
    saved = None if state is None else state.get("dagger_fit")
    return None if saved is None else dagger.FitProgress(**saved)


def _grow_network(state: dict[str, Any], overrides: Mapping[str, Any]) -> None:
    """Resuming with ``card_deck_context`` turned on: grow the checkpoint's network to read
    the deck count, computing what it did (zero weights on the new inputs)."""
    if overrides.get("card_deck_context") and not state["config"].get("card_deck_context"):
        add_deck_context(state)


def _last_update(start: int, max_updates: int | None, until_update: int | None) -> int | None:
    """The PPO update a call that starts at ``start`` stops after: ``max_updates`` on, or
    ``until_update``, whichever comes first (None: neither is set)."""
    limits = [until_update, None if max_updates is None else start + max_updates]
    return min((limit for limit in limits if limit is not None), default=None)


def train(
    config: TrainConfig | None = None,
    resume: Path | None = None,
    max_updates: int | None = None,
    max_seconds: float | None = None,
    max_rounds: int | None = None,
    until_update: int | None = None,
    on_update: Callable[[int, int, dict[str, float]], None] | None = None,
    on_phase: Callable[[str], None] | None = None,
    overrides: Mapping[str, Any] | None = None,
) -> Path:
    """Train ``config``, or continue the run of the checkpoint ``resume`` under its own
    config with ``overrides`` on top (``{}`` continues it exactly; ``total_steps`` extends
    it). Returns the run folder (``checkpoint.pt``, ``config.yaml``, TensorBoard logs).

    ``max_updates`` (PPO updates), ``max_rounds`` (distillation rounds) and ``max_seconds``
    (checked after every update and every step of a distillation fit) stop this call early,
    after a checkpoint, so a long run can be split across sessions and resumed exactly;
    ``until_update`` stops the run at that PPO update, counted over all its calls (a recipe
    that ends before ``total_steps``, where its learning rate has not yet annealed to zero).
    ``on_update(update, step, stats)`` is called after every update and ``on_phase(text)``
    when a phase starts (progress).
    """
    started_at = time.perf_counter()
    state: dict[str, Any] | None = None
    if resume is not None:
        state = load_checkpoint(resume)
        check_resumable(state, resume)
        _grow_network(state, overrides or {})
        config = config_from_dict({**state["config"], **(overrides or {})})
        run_dir = Path(resume).parent
    elif config is None:
        raise ValueError("train needs a config or a checkpoint to resume")
    else:
        run_dir = Path(config.run_dir) / run_name(config)
    run_dir.mkdir(parents=True, exist_ok=True)
    (run_dir / "config.yaml").write_text(yaml.safe_dump(config.to_dict()), encoding="utf-8")

    random.seed(config.seed)
    rng = np.random.default_rng(config.seed)
    torch.manual_seed(config.seed)
    torch.set_num_threads(config.torch_threads)

    net = make_network(config.to_dict())
    optimizer = torch.optim.Adam(net.parameters(), lr=config.learning_rate, eps=1e-5)
    snapshots: list[dict[str, torch.Tensor]] = []
    update, global_step, dagger_round = 0, 0, 0
    students: list[dict[str, torch.Tensor] | None] = []  # weights at each DAgger round's start
    writer = SummaryWriter(str(run_dir))
    checkpoint = run_dir / "checkpoint.pt"
    if state is not None:
        net.load_state_dict(state["model"])
        optimizer.load_state_dict(state["optimizer"])
        snapshots = list(state["league"])
        update, global_step = state["update"], state["global_step"]
        dagger_round = int(state.get("dagger_round", config.dagger_rounds))
        students = list(state.get("dagger_students", []))
        restore_rng(state["rng"], rng)
    else:
        writer.add_text(
            "hyperparameters", "\n".join(f"|{k}|{v}|" for k, v in config.to_dict().items())
        )
        if config.bc_steps or config.bc_labels:
            announce(on_phase, "behaviour cloning: collecting and fitting demonstrations")
            scores = behaviour_clone(net, config, rng)
            announce(
                on_phase,
                f"behaviour cloning done: {scores['bc/samples']:,.0f} samples, held-out "
                f"agreement {scores['bc/accuracy']:.1%}",
            )
            for key, value in scores.items():
                writer.add_scalar(key, value, 0)
            save_checkpoint(checkpoint, _state(net, optimizer, config, 0, 0, snapshots, rng))
            save_policy(checkpoint, run_dir / "bc")  # the clone alone, to compare PPO against

    def out_of_time() -> bool:
        return max_seconds is not None and time.perf_counter() - started_at > max_seconds

    fit_progress = _fit_progress(state)
    done_rounds = 0
    while dagger_round < config.dagger_rounds:
        announce(on_phase, f"distillation round {dagger_round + 1} of {config.dagger_rounds}")
        stats, fit_progress = dagger.run_round(
            run_dir, config, students, net, optimizer, rng, fit_progress, out_of_time
        )
        if fit_progress is not None:  # out of time inside the fit: it goes on from here
            stopped = _state(net, optimizer, config, 0, 0, snapshots, rng, dagger_round)
            save_checkpoint(
                checkpoint,
                {**stopped, "dagger_students": students, "dagger_fit": asdict(fit_progress)},
            )
            announce(on_phase, f"distillation round {dagger_round + 1} stopped inside its fit")
            writer.close()
            return run_dir
        dagger_round, done_rounds = len(students), done_rounds + 1
        for key, value in stats.items():
            writer.add_scalar(key, value, dagger_round)
        announce(on_phase, dagger.summary(dagger_round, stats))
        finished = dagger_round == config.dagger_rounds
        if finished:  # PPO starts with a fresh optimizer
            optimizer = torch.optim.Adam(net.parameters(), lr=config.learning_rate, eps=1e-5)
        distilled = _state(net, optimizer, config, 0, 0, snapshots, rng, dagger_round)
        save_checkpoint(checkpoint, {**distilled, "dagger_students": students})
        if finished:
            save_policy(checkpoint, run_dir / "distilled")  # the student before PPO
        if out_of_time() or (max_rounds is not None and done_rounds >= max_rounds):
            writer.close()
            return run_dir

    last_update = _last_update(update, max_updates, until_update)
    announce(on_phase, f"PPO from update {update}, step {global_step:,} of {config.total_steps:,}")
    workers = make_workers(config)
    try:
        while global_step < config.total_steps and (last_update is None or update < last_update):
            if config.anneal_lr:
                fraction = 1.0 - global_step / config.total_steps
                optimizer.param_groups[0]["lr"] = fraction * config.learning_rate
            started = time.perf_counter()
            batch = workers.collect(net, snapshots, seed=config.seed * 100_003 + update)
            collected = time.perf_counter() - started
            stats = ppo_update(net, optimizer, batch, config, rng)
            update += 1
            global_step += len(batch["actions"])
            stats["charts/SPS"] = len(batch["actions"]) / max(1e-9, time.perf_counter() - started)
            stats["charts/steps"] = float(len(batch["actions"]))
            stats["charts/collect_SPS"] = len(batch["actions"]) / max(1e-9, collected)
            stats["charts/learning_rate"] = optimizer.param_groups[0]["lr"]
            stats["charts/mean_hand_reward"] = float(batch["hand_rewards"].mean())
            if config.duplicate_baseline:
                stats.update(gain_stats(batch["hand_gains"], batch["hand_gain_decks"]))
            if update % config.snapshot_every == 0 and config.opponents.get("snapshot", 0) > 0:
                snapshots = [
                    *snapshots,
                    {k: v.detach().clone() for k, v in net.state_dict().items()},
                ]
                snapshots = snapshots[-config.max_snapshots :]
            last = global_step >= config.total_steps
            stopping = (last_update is not None and update >= last_update) or (
                max_seconds is not None and time.perf_counter() - started_at > max_seconds
            )
            if (
                update % config.checkpoint_every == 0
                or last
                or stopping
                or (config.eval_every and update % config.eval_every == 0)
            ):
                save_checkpoint(
                    checkpoint,
                    _state(
                        net, optimizer, config, update, global_step, snapshots, rng, dagger_round
                    ),
                )
            if config.eval_every and (update % config.eval_every == 0 or last):
                announce(on_phase, f"evaluating update {update} in the arena")
                stats.update(evaluate(net, config, update))
            for key, value in stats.items():
                writer.add_scalar(key, value, global_step)
            if on_update is not None:
                on_update(update, global_step, stats)
            if stopping:
                break
    finally:
        workers.close()
        writer.close()
    return run_dir
