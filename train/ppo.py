"""Self-play PPO for Shengji, read top to bottom (after CleanRL's ppo.py).

``train(config)`` runs its phases in order: open the run folder; seed everything and build
the policy-value net; optionally clone demonstrations (:mod:`.bc`) and distil a teacher
(:mod:`.dagger`); then loop — collect whole hands from the rollout workers against the
league mix, compute PPO losses over minibatches, snapshot into the league, checkpoint,
evaluate in the arena, log to TensorBoard. ``train(config, resume=checkpoint)`` continues a
run exactly where the checkpoint left it.
"""

from __future__ import annotations

import contextlib
import random
import time
from collections.abc import Callable, Mapping
from dataclasses import asdict, dataclass, field, replace
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
from shengji_env.files import exclusive

from . import dagger
from .bc import behaviour_clone
from .checkpoint import add_deck_context, check_resumable, restore_rng, rng_state
from .config import TrainConfig, config_from_dict, flat_settings
from .rollout import make_workers


def run_lock(folder: Path) -> contextlib.AbstractContextManager[None]:
    """Hold ``folder``'s lock (``folder/.lock``) while a trainer writes in it.

    Raises:
        ValueError: another trainer holds it.
    """
    return exclusive(folder / ".lock", f"another trainer is writing in {folder}")


def run_name(config: TrainConfig) -> str:
    if config.run.run_name:
        return config.run.run_name
    return f"shengji_v1__{config.run.exp_name}__{config.run.seed}__{int(time.time())}"


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
    for _ in range(config.ppo.update_epochs):
        order = rng.permutation(size)
        for start in range(0, size, config.ppo.minibatch_size):
            index = torch.from_numpy(order[start : start + config.ppo.minibatch_size])
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
                    float(((ratio - 1.0).abs() > config.ppo.clip_coef).float().mean())
                )
            advantages = _normalized(tensors["advantages"][index])
            policy_loss = torch.max(
                -advantages * ratio,
                -advantages
                * torch.clamp(ratio, 1 - config.ppo.clip_coef, 1 + config.ppo.clip_coef),
            ).mean()
            value_loss = 0.5 * ((values - tensors["returns"][index]) ** 2).mean()
            entropy_loss = entropy.mean()
            loss = (
                policy_loss - config.ppo.ent_coef * entropy_loss + config.ppo.vf_coef * value_loss
            )
            optimizer.zero_grad()
            loss.backward()
            nn.utils.clip_grad_norm_(net.parameters(), config.ppo.max_grad_norm)
            optimizer.step()
        stats = {
            "losses/policy_loss": policy_loss.item(),
            "losses/value_loss": value_loss.item(),
            "losses/entropy": entropy_loss.item(),
            "losses/approx_kl": approx_kl,
        }
        if config.ppo.target_kl and approx_kl > config.ppo.target_kl:
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
    for opponent in config.eval.eval_opponents:
        result = run_arena(
            [learner, opponent],
            config.eval.eval_deals,
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


@dataclass
class _Run:
    """What one training call hands from phase to phase: the run's config and folder, the
    network and optimizer, the generator, the log, the league and how far the run is."""

    config: TrainConfig
    folder: Path
    net: PolicyNet
    optimizer: torch.optim.Optimizer
    rng: np.random.Generator
    writer: SummaryWriter
    snapshots: list[dict[str, torch.Tensor]] = field(default_factory=list)
    update: int = 0
    global_step: int = 0
    dagger_round: int = 0
    students: list[dict[str, torch.Tensor] | None] = field(default_factory=list)

    @property
    def checkpoint(self) -> Path:
        return self.folder / "checkpoint.pt"

    def state(self, update: int, global_step: int, **extra: Any) -> dict[str, Any]:
        """Everything a checkpoint holds to resume exactly from this moment (``update`` and
        ``global_step`` as given: 0 before PPO), with ``extra`` entries."""
        return {
            "dagger_round": self.dagger_round,
            "model": self.net.state_dict(),
            "optimizer": self.optimizer.state_dict(),
            "config": self.config.to_dict(),
            "update": update,
            "global_step": global_step,
            "league": self.snapshots,
            "rng": rng_state(self.rng),
            **extra,
        }


@dataclass(frozen=True)
class _Limits:
    """When a call stops early (after a checkpoint), so a run can be split across calls."""

    started_at: float
    max_seconds: float | None
    max_rounds: int | None
    last_update: int | None = None  # the PPO update this call stops after

    def out_of_time(self) -> bool:
        return self.max_seconds is not None and time.perf_counter() - self.started_at > (
            self.max_seconds
        )


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
    force: bool = False,
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

    A run folder belongs to one run: a new run refuses a folder that holds a checkpoint
    (``force`` replaces it), and a second trainer is kept out of a folder in use.

    The phases, in order: open the run folder, build or restore the network, clone
    demonstrations (a new run with ``bc_steps`` or ``bc_labels``), distil a teacher
    (``dagger_rounds``), then PPO.
    """
    limits = _Limits(time.perf_counter(), max_seconds, max_rounds)
    config, folder, state = _open_run(config, resume, overrides, force)
    with run_lock(folder):
        return _train(config, folder, state, limits, max_updates, until_update, on_update, on_phase)


def _train(
    config: TrainConfig,
    folder: Path,
    state: dict[str, Any] | None,
    limits: _Limits,
    max_updates: int | None,
    until_update: int | None,
    on_update: Callable[[int, int, dict[str, float]], None] | None,
    on_phase: Callable[[str], None] | None,
) -> Path:
    (folder / "config.yaml").write_text(
        yaml.safe_dump(config.to_sections(), sort_keys=False), encoding="utf-8"
    )
    run = _start_run(config, folder, state)
    if state is None:
        _clone_demonstrations(run, on_phase)
    if not _distil(run, _fit_progress(state), limits, on_phase):
        run.writer.close()
        return folder
    limits = replace(limits, last_update=_last_update(run.update, max_updates, until_update))
    _ppo(run, limits, on_update, on_phase)
    return folder


def _open_run(
    config: TrainConfig | None,
    resume: Path | None,
    overrides: Mapping[str, Any] | None,
    force: bool = False,
) -> tuple[TrainConfig, Path, dict[str, Any] | None]:
    """The run's config, its folder and the checkpoint state
    it resumes from (``None`` for a new run, whose folder must not hold a run unless
    ``force``)."""
    state: dict[str, Any] | None = None
    if resume is not None:
        changes = flat_settings(dict(overrides or {}))
        state = load_checkpoint(resume)
        check_resumable(state, resume)
        _grow_network(state, changes)
        config = config_from_dict({**state["config"], **changes})
        folder = Path(resume).parent
    elif config is None:
        raise ValueError("train needs a config or a checkpoint to resume")
    else:
        folder = Path(config.run.run_dir) / run_name(config)
        if (folder / "checkpoint.pt").exists() and not force:
            raise ValueError(
                f"{folder} already holds a run: resume it (--resume "
                f"{folder / 'checkpoint.pt'}), pick another run_name, or replace it (--force)"
            )
    return config, folder, state


def _start_run(config: TrainConfig, folder: Path, state: dict[str, Any] | None) -> _Run:
    """Seed everything, build the network and its optimizer, and restore ``state`` if any."""
    random.seed(config.run.seed)
    rng = np.random.default_rng(config.run.seed)
    torch.manual_seed(config.run.seed)
    torch.set_num_threads(config.run.torch_threads)
    net = make_network(config.to_dict())
    optimizer = torch.optim.Adam(net.parameters(), lr=config.ppo.learning_rate, eps=1e-5)
    run = _Run(config, folder, net, optimizer, rng, SummaryWriter(str(folder)))
    if state is None:
        run.writer.add_text(
            "hyperparameters", "\n".join(f"|{k}|{v}|" for k, v in config.to_dict().items())
        )
        return run
    net.load_state_dict(state["model"])
    optimizer.load_state_dict(state["optimizer"])
    run.snapshots = list(state["league"])
    run.update, run.global_step = state["update"], state["global_step"]
    run.dagger_round = int(state.get("dagger_round", config.distill.dagger_rounds))
    run.students = list(state.get("dagger_students", []))
    restore_rng(state["rng"], rng)
    return run


def _clone_demonstrations(run: _Run, on_phase: Callable[[str], None] | None) -> None:
    """A new run's behaviour-cloning warm start (``bc_steps`` or ``bc_labels``), if any."""
    distill = run.config.distill
    if not (distill.bc_steps or distill.bc_labels):
        return
    announce(on_phase, "behaviour cloning: collecting and fitting demonstrations")
    scores = behaviour_clone(run.net, run.config, run.rng)
    announce(
        on_phase,
        f"behaviour cloning done: {scores['bc/samples']:,.0f} samples, held-out "
        f"agreement {scores['bc/accuracy']:.1%}",
    )
    for key, value in scores.items():
        run.writer.add_scalar(key, value, 0)
    save_checkpoint(run.checkpoint, run.state(0, 0))
    save_policy(run.checkpoint, run.folder / "bc")  # the clone alone, to compare PPO against


def _distil(
    run: _Run,
    fit_progress: dagger.FitProgress | None,
    limits: _Limits,
    on_phase: Callable[[str], None] | None,
) -> bool:
    """The distillation rounds still to do (``dagger_rounds``), each checkpointed. False
    when the call stops here (out of time, inside a fit or after a round, or after
    ``max_rounds`` rounds)."""
    rounds, done_rounds = run.config.distill.dagger_rounds, 0
    while run.dagger_round < rounds:
        announce(on_phase, f"distillation round {run.dagger_round + 1} of {rounds}")
        stats, fit_progress = dagger.run_round(
            run.folder, run.config, run.students, run.net, run.optimizer, run.rng,
            fit_progress, limits.out_of_time,
        )  # fmt: skip
        if fit_progress is not None:  # out of time inside the fit: it goes on from here
            fit = asdict(fit_progress)
            save_checkpoint(
                run.checkpoint, run.state(0, 0, dagger_students=run.students, dagger_fit=fit)
            )
            announce(on_phase, f"distillation round {run.dagger_round + 1} stopped inside its fit")
            return False
        run.dagger_round, done_rounds = len(run.students), done_rounds + 1
        for key, value in stats.items():
            run.writer.add_scalar(key, value, run.dagger_round)
        announce(on_phase, dagger.summary(run.dagger_round, stats))
        finished = run.dagger_round == rounds
        if finished:  # PPO starts with a fresh optimizer
            learning_rate = run.config.ppo.learning_rate
            run.optimizer = torch.optim.Adam(run.net.parameters(), lr=learning_rate, eps=1e-5)
        save_checkpoint(run.checkpoint, run.state(0, 0, dagger_students=run.students))
        if finished:
            save_policy(run.checkpoint, run.folder / "distilled")  # the student before PPO
        if limits.out_of_time() or (
            limits.max_rounds is not None and done_rounds >= limits.max_rounds
        ):
            return False
    return True


def _ppo(
    run: _Run,
    limits: _Limits,
    on_update: Callable[[int, int, dict[str, float]], None] | None,
    on_phase: Callable[[str], None] | None,
) -> None:
    """PPO updates until ``total_steps``, or until the call's limits stop it: collect a
    batch against the league, update, snapshot into the league, checkpoint, evaluate, log."""
    config = run.config
    announce(
        on_phase,
        f"PPO from update {run.update}, step {run.global_step:,} of {config.ppo.total_steps:,}",
    )
    workers = make_workers(config)
    try:
        while run.global_step < config.ppo.total_steps and (
            limits.last_update is None or run.update < limits.last_update
        ):
            stats = _ppo_iteration(run, workers)
            last = run.global_step >= config.ppo.total_steps
            stopping = (
                limits.last_update is not None and run.update >= limits.last_update
            ) or limits.out_of_time()
            if _checkpoint_due(config, run.update, last or stopping):
                save_checkpoint(run.checkpoint, run.state(run.update, run.global_step))
            if config.eval.eval_every and (run.update % config.eval.eval_every == 0 or last):
                announce(on_phase, f"evaluating update {run.update} in the arena")
                stats.update(evaluate(run.net, config, run.update))
            for key, value in stats.items():
                run.writer.add_scalar(key, value, run.global_step)
            if on_update is not None:
                on_update(run.update, run.global_step, stats)
            if stopping:
                break
    finally:
        workers.close()
        run.writer.close()


def _ppo_iteration(run: _Run, workers: Any) -> dict[str, float]:
    """One PPO update: anneal the learning rate, collect, update, grow the league."""
    config, optimizer = run.config, run.optimizer
    if config.ppo.anneal_lr:
        fraction = 1.0 - run.global_step / config.ppo.total_steps
        optimizer.param_groups[0]["lr"] = fraction * config.ppo.learning_rate
    started = time.perf_counter()
    batch = workers.collect(run.net, run.snapshots, seed=config.run.seed * 100_003 + run.update)
    collected = time.perf_counter() - started
    stats = ppo_update(run.net, optimizer, batch, config, run.rng)
    run.update += 1
    run.global_step += len(batch["actions"])
    steps = len(batch["actions"])
    stats["charts/SPS"] = steps / max(1e-9, time.perf_counter() - started)
    stats["charts/steps"] = float(steps)
    stats["charts/collect_SPS"] = steps / max(1e-9, collected)
    stats["charts/learning_rate"] = optimizer.param_groups[0]["lr"]
    stats["charts/mean_hand_reward"] = float(batch["hand_rewards"].mean())
    if config.shaping.duplicate_baseline:
        stats.update(gain_stats(batch["hand_gains"], batch["hand_gain_decks"]))
    league = config.league
    if run.update % league.snapshot_every == 0 and league.opponents.get("snapshot", 0) > 0:
        snapshot = {k: v.detach().clone() for k, v in run.net.state_dict().items()}
        run.snapshots = [*run.snapshots, snapshot][-league.max_snapshots :]
    return stats


def _checkpoint_due(config: TrainConfig, update: int, ending: bool) -> bool:
    """Whether update ``update`` writes a checkpoint: every ``checkpoint_every`` updates,
    at an evaluation, and when the run or the call ends."""
    evaluating = bool(config.eval.eval_every) and update % config.eval.eval_every == 0
    return update % config.run.checkpoint_every == 0 or ending or evaluating
