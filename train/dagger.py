"""Distillation on the student's own states (DAgger): a stand-alone student learns a
teacher policy (an advised one, ``models/full-v4``, which runs the heuristic at play time,
or a rule-based agent such as ``search:rollouts=48``) where the student itself goes, so it
learns to recover from its own mistakes.

Round 0 the teacher plays every seat; in later rounds the student plays (its most likely
action, or the teacher's with probability ``dagger_teacher_share``). In every state the
teacher's action distribution is the label (soft targets: the whole distribution, not only
its choice), and the seat's hand reward the value target. Hands are drawn as in real
matches (``start: mid_match``), with the deck count drawn per hand from ``dagger_decks``.
After each round the student is fitted to every round's labels so far. Each round's labels
are kept in parts (:mod:`shengji_env.train.parts`), so an interrupted round resumes where it
stopped.
"""

from __future__ import annotations

import functools
import resource
import time
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import numpy as np
import torch
from torch import nn

from shengji_env.actions import COMMIT, NUM_ACTIONS, DecisionKind
from shengji_env.agents.advice import HeuristicAdvice
from shengji_env.agents.masked_policy import MaskedPolicy
from shengji_env.agents.network import make_network, network_from_checkpoint
from shengji_env.agents.planning import PlanningAgent
from shengji_env.agents.play import play_hand
from shengji_env.agents.policy_file import load_checkpoint, policy_path
from shengji_env.agents.registry import is_rule_based, load_agent
from shengji_env.encoding import OBS_LAYOUT, PHASE_SLOTS
from shengji_env.env import raw_env

from . import parts as parts_io
from .checkpoint import restore_rng, rng_state
from .config import TrainConfig, draw_decks
from .fitting import fit_passes
from .parts import Arrays, Columns

BID_COLUMN = OBS_LAYOUT["phase"].start + PHASE_SLOTS[DecisionKind.BID]
PART_SEED = 7_000_003  # hand seeds of a round's part p: round * 10**9 + p * PART_SEED + i


@dataclass
class Labels(Columns):
    """States the student met with the teacher's action distribution in each."""

    obs: np.ndarray  # float16 [n, OBS_SIZE]
    masks: np.ndarray  # int8 [n, 55]
    targets: np.ndarray  # float16 [n, 55]: the teacher's probabilities
    returns: np.ndarray  # float32 [n]: the seat's reward for the hand


@dataclass(frozen=True)
class RoundSpec:
    """What a label worker needs for one round (picklable)."""

    teacher: str
    student_config: dict[str, Any] | None  # None: the teacher plays (round 0)
    student_weights: dict[str, torch.Tensor] | None
    decks: dict[int, float]
    rules: dict[str, Any]
    hands_per_part: int
    teacher_share: float
    round: int
    heuristic_bids: bool = False
    lead_teachers: dict[int, str] = field(default_factory=dict)
    follow_teachers: dict[int, str] = field(default_factory=dict)


class Teacher:
    """The teacher's masked action probabilities in a state (advice computed if it is
    advised). With ``heuristic_bids`` a bid decision is labelled by HeuristicAgent instead
    (all its probability on the heuristic's action)."""

    def __init__(self, path: str, heuristic_bids: bool = False) -> None:
        self.net = network_from_checkpoint(load_checkpoint(policy_path(path)), path)
        self.net.eval()
        self.heuristic_bids = heuristic_bids
        self.advice = HeuristicAdvice() if self.net.advised or heuristic_bids else None

    @torch.no_grad()
    def probabilities(self, observed: dict[str, np.ndarray], info: dict[str, Any]) -> np.ndarray:
        obs = torch.from_numpy(observed["observation"])[None]
        mask = torch.from_numpy(observed["action_mask"])[None]
        advised = None if self.advice is None else self.advice.next_action(observed, info)
        if self.heuristic_bids and observed["observation"][BID_COLUMN] > 0.5 and advised >= 0:
            return np.eye(NUM_ACTIONS, dtype=np.float32)[advised]
        advice = torch.tensor([advised]) if self.net.advised else None
        logits, _ = self.net(obs, mask, advice)
        return torch.softmax(logits[0], -1).numpy()


class PlanTeacher:
    """A rule-based teacher (an agent spec such as ``search:rollouts=48``): all the
    probability on the next card of its plan for the decision. Where the selection so far
    has left the plan (the student picked another card) it has no label (``None``)."""

    def __init__(self, spec: str) -> None:
        agent = load_agent(spec)
        if not isinstance(agent, PlanningAgent):
            raise ValueError(f"dagger_teacher {spec!r} is not a rule-based (planning) agent")
        self.agent = agent
        self._plan: tuple[object, list[int]] | None = None

    def probabilities(
        self, observed: dict[str, np.ndarray], info: dict[str, Any]
    ) -> np.ndarray | None:
        view = info["view"]
        if self._plan is None or self._plan[0] is not view:
            self._plan = (view, list(self.agent.decide(view)))
        rest = list(self._plan[1])
        for card in info.get("selection", ()):
            if card not in rest:
                return None
            rest.remove(card)
        action = rest[0] if rest else COMMIT
        if not observed["action_mask"][action]:
            return None
        return np.eye(NUM_ACTIONS, dtype=np.float32)[action]


class KindTeachers:
    """``teacher``'s labels, but the leads and the follows at some deck counts come from
    rule-based teachers of their own (``dagger_lead_teachers``, ``dagger_follow_teachers``:
    {deck count: agent spec})."""

    def __init__(
        self,
        teacher: Teacher | PlanTeacher,
        leads: dict[int, str] | None = None,
        follows: dict[int, str] | None = None,
    ) -> None:
        self.teacher = teacher
        kinds = {DecisionKind.LEAD: leads or {}, DecisionKind.FOLLOW: follows or {}}
        self.by_kind = {
            kind: {decks: PlanTeacher(spec) for decks, spec in specs.items()}
            for kind, specs in kinds.items()
        }

    def probabilities(
        self, observed: dict[str, np.ndarray], info: dict[str, Any]
    ) -> np.ndarray | None:
        view = info["view"]
        own = self.by_kind.get(view.kind, {}).get(view.config.decks)
        return (own or self.teacher).probabilities(observed, info)


def make_teacher(
    teacher: str,
    heuristic_bids: bool = False,
    lead_teachers: dict[int, str] | None = None,
    follow_teachers: dict[int, str] | None = None,
) -> Teacher | PlanTeacher | KindTeachers:
    """The teacher ``dagger_teacher`` names (a rule-based agent spec, else a policy path),
    with the leads of ``lead_teachers``' deck counts and the follows of
    ``follow_teachers``' taught by their rule-based agents."""
    if is_rule_based(teacher):
        main: Teacher | PlanTeacher = PlanTeacher(teacher)
    else:
        main = Teacher(teacher, heuristic_bids)
    if lead_teachers or follow_teachers:
        return KindTeachers(main, lead_teachers, follow_teachers)
    return main


def _student(spec: RoundSpec) -> MaskedPolicy | None:
    if spec.student_config is None or spec.student_weights is None:
        return None
    net = make_network(spec.student_config)
    net.load_state_dict(spec.student_weights)
    net.eval()
    return net


def label_part(spec: RoundSpec, part: int) -> Arrays:
    """Part ``part`` of round ``spec.round``: ``hands_per_part`` hands, every state labelled."""
    torch.set_num_threads(1)
    teacher = make_teacher(
        spec.teacher, spec.heuristic_bids, spec.lead_teachers, spec.follow_teachers
    )
    rng = np.random.default_rng([spec.round, part])
    labeller = _Labeller(teacher, _student(spec), spec.teacher_share, rng)
    envs = {d: raw_env(decks=d, start="mid_match", **spec.rules) for d in spec.decks}
    rows: list[Labels] = []
    for hand in range(spec.hands_per_part):
        env = envs[draw_decks(spec.decks, rng)]
        seed = spec.round * 10**9 + part * PART_SEED + hand
        rows.append(_label_hand(env, labeller, seed))
    return Labels.concatenate(rows).arrays()


class _Labeller:
    """Plays every seat of a hand — the student's choice, or the teacher's in round 0 and in
    a ``teacher_share`` of the decisions — and keeps the teacher's label of each state."""

    def __init__(
        self,
        teacher: Teacher | PlanTeacher | KindTeachers,
        student: MaskedPolicy | None,
        teacher_share: float,
        rng: np.random.Generator,
    ) -> None:
        self.teacher, self.student = teacher, student
        self.teacher_share, self.rng = teacher_share, rng
        self.rows: list[tuple[int, np.ndarray, np.ndarray, np.ndarray]] = []
        self._probs: np.ndarray | None = None

    @torch.no_grad()
    def act(self, observed: dict[str, np.ndarray], info: dict[str, Any]) -> int:
        self._probs = self.teacher.probabilities(observed, info)
        teacher_plays = self.student is None or self.rng.random() < self.teacher_share
        if teacher_plays and self._probs is not None:
            return int(self._probs.argmax())
        assert self.student is not None  # a teacher without a label follows the student
        logits, _ = self.student(
            torch.from_numpy(observed["observation"])[None],
            torch.from_numpy(observed["action_mask"])[None],
        )
        return int(logits.argmax())

    def record(self, seat: int, observed: dict[str, np.ndarray], _: Any, __: int) -> None:
        if self._probs is None:
            return  # the teacher had no label here
        obs = observed["observation"].astype(np.float16)
        self.rows.append((seat, obs, observed["action_mask"].astype(np.int8), self._probs))


def _label_hand(env: Any, labeller: _Labeller, seed: int) -> Labels:
    labeller.rows = []
    totals = play_hand(env, [labeller] * 4, seed, labeller.record)
    seats, obs, masks, targets = zip(*labeller.rows, strict=True)
    return Labels(
        np.array(obs),
        np.array(masks),
        np.array(targets, dtype=np.float16),
        np.array([totals[seat] for seat in seats], dtype=np.float32),
    )


def round_folder(run_dir: Path, round_number: int) -> Path:
    return run_dir / "dagger" / f"round-{round_number:02d}"


def make_round(
    run_dir: Path,
    config: TrainConfig,
    round_number: int,
    student_weights: dict[str, torch.Tensor] | None,
) -> Labels:
    """Round ``round_number``'s labels (the missing parts made by the workers), the
    student playing with ``student_weights`` (``None``: the teacher plays)."""
    spec = RoundSpec(
        teacher=config.distill.dagger_teacher,
        student_config=None if student_weights is None else config.to_dict(),
        student_weights=student_weights,
        decks=config.distill.dagger_decks,
        rules=config.game.rules,
        hands_per_part=config.distill.dagger_hands_per_part,
        teacher_share=config.distill.dagger_teacher_share,
        round=round_number,
        heuristic_bids=config.distill.dagger_heuristic_bids,
        lead_teachers=config.distill.dagger_lead_teachers,
        follow_teachers=config.distill.dagger_follow_teachers,
    )
    folder = round_folder(run_dir, round_number)
    count = config.distill.dagger_parts_per_round
    parts_io.make_parts(folder, count, functools.partial(label_part, spec), config.run.num_workers)
    return load_labels(folder, count)


def load_labels(folder: Path, count: int) -> Labels:
    """Parts 0 .. ``count``-1 of a round's folder.

    Raises:
        ValueError: a part is missing, unreadable or not a DAgger label part.
    """
    parts = []
    for index, arrays in enumerate(parts_io.read_parts(folder, count)):
        try:
            parts.append(Labels.from_arrays(arrays))
        except KeyError as error:
            raise ValueError(
                f"{folder}: part {index} is not a DAgger label part ({error})"
            ) from None
    return Labels.concatenate(parts)


def distillation_losses(
    net: MaskedPolicy, data: Labels, index: np.ndarray
) -> tuple[torch.Tensor, torch.Tensor, torch.Tensor]:
    """Cross-entropy to the teacher's distribution, value MSE, and per sample whether the
    student's top action is the teacher's."""
    obs = torch.from_numpy(data.obs[index].astype(np.float32))
    logits, values = net(obs, torch.from_numpy(data.masks[index]))
    targets = torch.from_numpy(data.targets[index].astype(np.float32))
    log_probs = torch.log_softmax(logits, -1).clamp(min=-30.0)
    cross_entropy = -(targets * log_probs).sum(-1).mean()
    value_error = nn.functional.mse_loss(values, torch.from_numpy(data.returns[index]))
    agree = logits.argmax(-1) == targets.argmax(-1)
    return cross_entropy, value_error, agree


def fit(
    net: MaskedPolicy,
    optimizer: torch.optim.Optimizer,
    data: Labels,
    config: TrainConfig,
    rng: np.random.Generator,
    epochs: int,
    first_step: int = 0,
    stop: Callable[[], bool] | None = None,
) -> int | None:
    """``epochs`` passes over ``data`` (the learning rate falling linearly to 0), each pass
    over every bid decision (a third of all states, and learnt first) and every other
    state, each in a fresh order; from ``first_step`` and until ``stop()`` says so
    (:func:`~shengji_env.train.fitting.fit_passes`: the step to go on from, or ``None`` when
    done)."""
    is_bid = data.obs[:, BID_COLUMN] > 0.5
    bids, others = np.flatnonzero(is_bid), np.flatnonzero(~is_bid)
    for group in optimizer.param_groups:
        group["lr"] = config.distill.bc_learning_rate

    def loss_of(rows: np.ndarray) -> torch.Tensor:
        cross_entropy, value_error, _ = distillation_losses(net, data, rows)
        return cross_entropy + config.ppo.vf_coef * value_error

    passes = [
        # the bids are drawn in an order of their own first: the passes the shipped runs made
        rng.permutation(np.concatenate([others, rng.choice(bids, len(bids), replace=False)]))
        for _ in range(epochs)
    ]
    return fit_passes(
        net,
        optimizer,
        passes,
        config.distill.bc_minibatch_size,
        loss_of,
        config.ppo.max_grad_norm,
        first_step,
        stop,
    )


@torch.no_grad()
def score(net: MaskedPolicy, data: Labels) -> dict[str, float]:
    """Cross-entropy, value error and agreement with the teacher's choice on ``data``."""
    totals = np.zeros(3)
    for start in range(0, len(data), 4096):
        index = np.arange(start, min(len(data), start + 4096))
        cross_entropy, value_error, agree = distillation_losses(net, data, index)
        totals += [
            float(cross_entropy) * len(index),
            float(value_error) * len(index),
            float(agree.sum()),
        ]
    cross_entropy, value_error, agreement = totals / max(1, len(data))
    return {
        "dagger/cross_entropy": cross_entropy,
        "dagger/value_mse": value_error,
        "dagger/agreement": agreement,
    }


def cpu_seconds() -> float:
    """CPU time of this process and its finished children (the label workers)."""
    own = resource.getrusage(resource.RUSAGE_SELF)
    children = resource.getrusage(resource.RUSAGE_CHILDREN)
    return own.ru_utime + own.ru_stime + children.ru_utime + children.ru_stime


def epochs_after(config: TrainConfig, round_number: int) -> int:
    """Passes of the fit after round ``round_number``."""
    if round_number == 0 and config.distill.dagger_first_epochs:
        return config.distill.dagger_first_epochs
    return config.distill.dagger_epochs


@dataclass
class FitProgress:
    """Where a round's fit stopped before its last step, for the checkpoint: the run goes on
    from ``step`` with the passes drawn again from the generators' state ``rng`` (as at the
    fit's start), so the finished round is the one an unbroken run makes."""

    step: int
    rng: dict[str, Any]  # shengji_env.train.checkpoint.rng_state when the fit drew its passes
    stats: dict[str, float]  # the fresh round's scores before the fit
    seconds: float  # wall and CPU time the round has taken so far
    cpu_seconds: float


def run_round(
    run_dir: Path,
    config: TrainConfig,
    students: list[dict[str, torch.Tensor] | None],
    net: MaskedPolicy,
    optimizer: torch.optim.Optimizer,
    rng: np.random.Generator,
    progress: FitProgress | None = None,
    stop: Callable[[], bool] | None = None,
) -> tuple[dict[str, float], FitProgress | None]:
    """Label the next round on the student's states, score the student on them (before it
    learns them: how well it does where it goes), then fit every round so far; returns the
    round's stats, or where the fit stopped when ``stop()`` said so before its end.

    ``students`` holds the student's weights at the start of each earlier round (``None``
    for round 0, where the teacher plays) and gets this round's appended: labels are a
    cache, and a round whose parts are gone (another machine) is labelled again the same.
    With ``progress`` (a stopped fit, whose round is already in ``students``) the round's
    labels are made or read again and its fit goes on where it stopped."""
    started, cpu = time.perf_counter(), cpu_seconds()
    if progress is None:
        playing = len(students) > 0
        students.append(
            {k: v.detach().clone() for k, v in net.state_dict().items()} if playing else None
        )
    round_number = len(students) - 1
    rounds = [make_round(run_dir, config, r, weights) for r, weights in enumerate(students)]
    fresh = rounds[-1]
    if progress is None:
        stats = score(net, fresh) if round_number > 0 else {}
        progress = FitProgress(0, rng_state(rng), {k: float(v) for k, v in stats.items()}, 0, 0)
    else:
        restore_rng(progress.rng, rng)
    epochs = epochs_after(config, round_number)
    data = Labels.concatenate(rounds)
    stopped_at = fit(net, optimizer, data, config, rng, epochs, progress.step, stop)
    seconds = progress.seconds + time.perf_counter() - started
    cpu = progress.cpu_seconds + cpu_seconds() - cpu
    if stopped_at is not None:
        return {}, FitProgress(stopped_at, progress.rng, progress.stats, seconds, cpu)
    stats = dict(progress.stats)
    stats.update({f"{k}_after": v for k, v in score(net, fresh).items()})
    stats["dagger/samples"] = float(len(data))
    stats["dagger/seconds"] = seconds
    stats["dagger/cpu_seconds"] = cpu
    return stats, None


def summary(done: int, stats: dict[str, float]) -> str:
    """One line on a finished round, for the progress display."""
    before = stats.get("dagger/agreement")
    where = f"agreement on its own states {before:.1%} before, " if before is not None else ""
    return (
        f"distillation round {done} done: {stats['dagger/samples']:,.0f} samples, {where}"
        f"{stats['dagger/agreement_after']:.1%} after; {stats['dagger/cpu_seconds'] / 60:.1f} "
        "CPU-minutes"
    )
