"""Training configuration in sections, every field documented, loaded from YAML.

``load_config(path, overrides)`` reads a YAML file and ``key=value`` overrides; an unknown
key or a value of the wrong type fails at start with a message that names it. A config has
eight sections — ``run``, ``game``, ``model``, ``ppo``, ``league``, ``shaping``, ``distill``
and ``eval`` — each a small dataclass that checks itself. A YAML file gives the sections as
mappings (``ppo: {learning_rate: 1e-4}``); the flat keys of older configs and of every
checkpoint (``learning_rate: 1e-4``) are read too, each into its section, and retired keys
through :data:`RETIRED_KEYS`. An override names a key flat or by its section
(``learning_rate=1e-4``, ``ppo.learning_rate=1e-4``). Checkpoints and policy files keep the
flat form (:meth:`TrainConfig.to_dict`), which the network and the workers read.
"""

from __future__ import annotations

import dataclasses
import typing
from collections.abc import Sequence
from pathlib import Path
from typing import Any

import numpy as np
import yaml

from shengji_env.agents.registry import is_rule_based, load_agent
from shengji_env.env import STARTS
from shengji_env.rules import RuleConfig

OPPONENT_KINDS = ("self", "snapshot", "heuristic", "greedy", "random")
EVERY = 1 << 62  # no upper bound
RANGES: dict[str, tuple[float, float]] = {
    "seed": (0, 2**32 - 1),
    "total_steps": (1, EVERY),
    "steps_per_update": (1, EVERY),
    "num_workers": (0, 256),
    "envs_per_worker": (1, 4096),
    "learning_rate": (1e-12, 1.0),
    "gamma": (1e-12, 1.0),
    "gae_lambda": (0.0, 1.0),
    "update_epochs": (1, 1000),
    "minibatch_size": (1, EVERY),
    "clip_coef": (1e-12, 10.0),
    "ent_coef": (0.0, 10.0),
    "failed_throw_cost": (0.0, 10.0),
    "point_gain_coef": (0.0, 10.0),
    "vf_coef": (0.0, 100.0),
    "max_grad_norm": (1e-12, 1e6),
    "target_kl": (0.0, 100.0),
    "snapshot_every": (1, EVERY),
    "max_snapshots": (1, 10_000),
    "bc_steps": (0, EVERY),
    "bc_epochs": (1, 1000),
    "bc_label_parts": (0, EVERY),
    "bc_label_rollouts": (1, 1_000_000),
    "bc_learning_rate": (1e-12, 1.0),
    "bc_minibatch_size": (1, EVERY),
    "eval_every": (0, EVERY),
    "eval_deals": (1, EVERY),
    "checkpoint_every": (1, EVERY),
    "torch_threads": (1, 256),
}
"""The allowed range of every numeric field (inclusive)."""
BACKENDS = ("local", "ray")
NETWORKS = ("mlp", "counting", "cards")


@dataclasses.dataclass
class RunConfig:
    """Where a run writes, its seed, and the processes and threads it uses."""

    exp_name: str = "ppo"
    """Name of the experiment; the run folder is ``{run_dir}/{env}__{exp_name}__{seed}__{time}``."""
    run_name: str = ""
    """A fixed run folder name instead of the timestamped one (``make demo`` uses ``demo``)."""
    run_dir: str = "runs"
    """Parent folder of run folders."""
    seed: int = 1
    """Seeds python, numpy and torch, the deals and the workers."""
    num_workers: int = 2
    """Rollout workers (0: collect in the learner's process)."""
    backend: str = "local"
    """Where rollout workers run: ``local`` (subprocesses) or ``ray`` (Ray actors)."""
    ray_address: str = ""
    """The Ray cluster to join (``auto``, ``ray://host:10001``); empty starts a local Ray."""
    envs_per_worker: int = 8
    """Environments each worker steps together (batched inference)."""
    torch_threads: int = 1
    """Threads torch uses in the learner (workers use one each)."""
    checkpoint_every: int = 10
    """Updates between checkpoints (and one at the end)."""

    def __post_init__(self) -> None:
        _check_ranges(self)
        if self.backend not in BACKENDS:
            raise ValueError(f"backend must be one of {', '.join(BACKENDS)}, got {self.backend!r}")
        if self.backend == "ray" and self.num_workers < 1:
            raise ValueError("backend ray needs num_workers >= 1")


@dataclasses.dataclass
class GameConfig:
    """The game the learner plays: deck count, rules, how hands start."""

    decks: int = 2
    """Deck count of the game (1, 2 or 3)."""
    rules: dict[str, Any] = dataclasses.field(default_factory=dict)
    """Other RuleConfig fields (``twos_always_trump`` …) and ``start_level`` (may be random)."""
    start: str = "match"
    """How a training hand starts: ``match`` (the first hand of a match: the first declarer
    deals) or ``mid_match`` (a hand as it comes inside a match: dealer and levels drawn)."""
    ppo_decks: dict[int, float] = dataclasses.field(default_factory=dict)
    """Deck counts of the PPO hands and their shares, each hand drawing one (empty: every
    hand has ``decks``). The arena evaluations during the run keep ``decks``."""

    def __post_init__(self) -> None:
        rules = {k: v for k, v in self.rules.items() if k != "start_level"}
        if "decks" in rules:
            raise ValueError("rules: give the deck count as the top-level key decks")
        RuleConfig.from_dict({"decks": self.decks, **rules})
        start_level = self.rules.get("start_level", "2")
        if start_level != "random":
            RuleConfig(start_level=start_level)
        if self.start not in STARTS:
            raise ValueError(f"start must be one of {', '.join(STARTS)}, got {self.start!r}")
        if self.ppo_decks:
            self.ppo_decks = _deck_shares("ppo_decks", self.ppo_decks)

    @property
    def env_options(self) -> dict[str, Any]:
        """The env's options for these hands (the deck count, rules and start)."""
        return {
            "decks": self.decks,
            **self.rules,
            **({"start": self.start} if self.start != "match" else {}),
        }


@dataclasses.dataclass
class ModelConfig:
    """The policy-value network."""

    network: str = "mlp"
    """``mlp`` over the observation as it is, or ``counting``: card features in
    trump-relative slots first (the same role, the same input, whatever the trump) plus
    card-counting features (cards still out, outstanding cards that beat each card, the
    cards in hand nothing outstanding beats), or ``cards``: a token per card slot mixed with
    its rank neighbours and its suit (:mod:`shengji_env.agents.card_net`; stand-alone, no
    advice)."""
    hidden_sizes: list[int] = dataclasses.field(default_factory=lambda: [512, 256])
    """Hidden layer widths of the policy-value MLP."""
    card_width: int = 64
    """With ``network: cards``: the width of each card token."""
    card_blocks: int = 2
    """With ``network: cards``: the blocks of neighbour-and-suit mixing."""
    card_play_features: bool = False
    """With ``network: cards``: also give each card token what a player reads off the table
    about it (in the led suit, above the winning play there, its points, its suit's length
    in hand, partner void, ruff threat) and the context the trick's points, the lead's shape
    and the winning play's safety (the observation's ``play_reading`` and ``card_context``
    blocks: :mod:`shengji_env.card_reading`)."""
    card_deck_context: bool = False
    """With ``network: cards``: also give the context the deck count (one-hot, from the
    observation's ``card_context``): the observation scales counts by the deck count, so a
    triple at three decks reads as a pair at two."""
    advice: bool = False
    """The policy also reads HeuristicAgent's advice (the action it would take next in the
    state) and starts from a learned bonus for it: it learns where to depart from the
    heuristic. Playing such a policy runs the heuristic alongside (the ONNX export takes
    the advice as a third input)."""

    def __post_init__(self) -> None:
        if not self.hidden_sizes or any(
            isinstance(size, bool) or not isinstance(size, int) or size < 1
            for size in self.hidden_sizes
        ):
            raise ValueError(f"hidden_sizes must be a list of widths >= 1, got {self.hidden_sizes}")
        if self.network not in NETWORKS:
            raise ValueError(f"network must be one of {', '.join(NETWORKS)}, got {self.network!r}")
        if self.network == "cards" and self.advice:
            raise ValueError("network cards is stand-alone: it cannot read advice (advice: false)")
        for flag in ("card_play_features", "card_deck_context"):
            if getattr(self, flag) and self.network != "cards":
                raise ValueError(f"{flag} needs network: cards (got network: {self.network})")
        if self.card_width < 1 or self.card_blocks < 0:
            raise ValueError(
                f"card_width must be >= 1 and card_blocks >= 0, got {self.card_width} and "
                f"{self.card_blocks}"
            )


@dataclasses.dataclass
class PPOConfig:
    """Self-play PPO: the budget, the batch and the update."""

    total_steps: int = 200_000
    """Learner steps to train for."""
    steps_per_update: int = 4096
    """Learner steps collected per PPO update (whole hands: a little more in practice)."""
    learning_rate: float = 3e-4
    """Adam learning rate (annealed linearly to zero when ``anneal_lr``)."""
    anneal_lr: bool = True
    """Anneal the learning rate over ``total_steps``."""
    gamma: float = 1.0
    """Discount per learner step (rewards come at the end of a hand)."""
    gae_lambda: float = 0.95
    """GAE lambda."""
    update_epochs: int = 4
    """Passes over each batch."""
    minibatch_size: int = 1024
    """Samples per gradient step."""
    clip_coef: float = 0.2
    """PPO clipping coefficient."""
    ent_coef: float = 0.01
    """Entropy bonus."""
    vf_coef: float = 0.5
    """Value loss weight."""
    max_grad_norm: float = 0.5
    """Gradient clipping norm."""
    target_kl: float = 0.05
    """Stop the epochs of an update early when the approximate KL passes this (0: never)."""

    def __post_init__(self) -> None:
        _check_ranges(self)


@dataclasses.dataclass
class LeagueConfig:
    """Who the learner plays against, hand by hand."""

    opponents: dict[str, float] = dataclasses.field(
        default_factory=lambda: {"self": 0.6, "snapshot": 0.2, "heuristic": 0.1, "greedy": 0.1}
    )
    """Mix of opponents per hand: the learner in all seats (``self``), or in one team against
    a past snapshot, a rule-based bot, or any agent spec (``ppo:models/full-v4``,
    ``search:rollouts=8``). Weights are normalised."""
    snapshot_every: int = 10
    """Updates between league snapshots of the learner (kept only when ``opponents`` plays
    against snapshots)."""
    max_snapshots: int = 5
    """Snapshots kept in the league (oldest dropped)."""

    def __post_init__(self) -> None:
        _check_ranges(self)
        for kind in set(self.opponents) - set(OPPONENT_KINDS):
            try:
                load_agent(kind)
            except ValueError as error:
                known = ", ".join(OPPONENT_KINDS)
                raise ValueError(
                    f"opponents: unknown kind {kind!r}: neither one of {known} nor an agent "
                    f"spec ({error})"
                ) from None
        weights = list(self.opponents.values())
        if any(isinstance(w, bool) or not isinstance(w, int | float) for w in weights):
            raise ValueError(f"opponents: weights must be numbers, got {self.opponents}")
        if not weights or sum(weights) <= 0 or min(weights) < 0:
            raise ValueError("opponents: weights must be >= 0 and not all zero")


@dataclasses.dataclass
class ShapingConfig:
    """What the learner's reward for a hand is (:mod:`.rewards`); training only: the arena
    scores the game as the rules do."""

    duplicate_baseline: bool = False
    """Subtract from each hand's reward what HeuristicAgent in all four seats scores on the
    same deal from the same seat: the reward becomes the gain over the heuristic (the
    arena's duplicate measure). Unbiased (the baseline does not depend on the learner's
    actions) and far less noisy: the luck of the deal cancels."""
    failed_throw_cost: float = 0.0
    """Shaping: levels taken from the learner's reward at the step that committed each of
    its throws that failed (0: none; the rules' ``failed_throw_penalty`` is the game's own
    cost, in points). Training only: the arena scores the game as it is."""
    point_gain_coef: float = 0.0
    """Shaping: levels added to the learner's hand reward per band (20 points a deck, the
    step of the level table) of attacker points its team gained over the duplicate
    baseline's hand (points won attacking, points held defending; 0: none). A denser
    signal than levels alone, which move only at band edges. Training only: the arena
    scores the game as it is."""

    def __post_init__(self) -> None:
        _check_ranges(self)


@dataclasses.dataclass
class DistillConfig:
    """Warm starts before PPO: behaviour cloning (``bc_*``) and distillation on the
    student's own states (``dagger_*``)."""

    bc_steps: int = 0
    """Behaviour-cloning samples from HeuristicAgent before PPO (0: no warm start, unless
    ``bc_labels``)."""
    bc_epochs: int = 3
    """Passes over the behaviour-cloning data."""
    bc_labels: str = ""
    """Folder of SearchAgent label parts (``python -m shengji_env.train.distill``) to clone
    instead of fresh HeuristicAgent games (``bc_steps`` then unused)."""
    bc_label_parts: int = 0
    """With ``bc_labels``: clone parts 0 .. N-1, making the missing ones first in
    ``num_workers`` processes (10 deals a part; a part is kept once made, so an
    interrupted start resumes); 0 clones whatever parts the folder holds."""
    bc_label_rollouts: int = 48
    """SearchAgent's rollouts per decision when making label parts."""
    bc_learning_rate: float = 1e-3
    """Adam learning rate of behaviour cloning (annealed to zero over its passes)."""
    bc_minibatch_size: int = 512
    """Samples per behaviour-cloning gradient step."""
    dagger_rounds: int = 0
    """Rounds of distillation on the student's own states before PPO
    (:mod:`shengji_env.train.dagger`; 0: none). Round 0 the teacher plays; later rounds the student
    does."""
    dagger_teacher: str = "models/full-v4"
    """What the student learns from: a policy (a model folder or checkpoint, its action
    probabilities the labels) or a rule-based agent spec such as ``search:rollouts=48``
    (its plan's next card the label)."""
    dagger_decks: dict[int, float] = dataclasses.field(default_factory=lambda: {2: 1.0})
    """Deck counts of the distillation hands and their shares (each hand draws one)."""
    dagger_parts_per_round: int = 8
    """Label parts a round makes (spread over ``num_workers`` processes)."""
    dagger_hands_per_part: int = 25
    """Hands in a label part (``start: mid_match``)."""
    dagger_teacher_share: float = 0.0
    """In rounds after the first, the share of decisions the teacher plays, not the student."""
    dagger_epochs: int = 2
    """Passes over every round's labels after each round (after round 0: see
    ``dagger_first_epochs``)."""
    dagger_first_epochs: int = 0
    """Passes after round 0, where the student starts from random weights (0: as
    ``dagger_epochs``); later rounds continue from the student's weights."""
    dagger_heuristic_bids: bool = False
    """Label bid decisions by HeuristicAgent, not the teacher (``full-v4`` learnt to avoid
    declaring in first hands of matches, which loses inside matches)."""
    dagger_lead_teachers: dict[int, str] = dataclasses.field(default_factory=dict)
    """Lead decisions at these deck counts labelled by a rule-based agent, not the
    teacher: {deck count: agent spec}, e.g. ``{3: heuristic}`` (``standalone-v2``'s
    3-deck leads lose to the heuristic's, its other decisions do not)."""
    dagger_follow_teachers: dict[int, str] = dataclasses.field(default_factory=dict)
    """Follow decisions at these deck counts labelled by a rule-based agent, as
    ``dagger_lead_teachers`` does for leads."""

    def __post_init__(self) -> None:
        _check_ranges(self)
        if self.bc_label_parts and not self.bc_labels:
            raise ValueError("bc_label_parts needs bc_labels, the folder to keep the parts in")
        if self.dagger_rounds < 0 or self.dagger_parts_per_round < 1:
            raise ValueError("dagger_rounds must be >= 0 and dagger_parts_per_round >= 1")
        if self.dagger_hands_per_part < 1 or self.dagger_epochs < 1:
            raise ValueError("dagger_hands_per_part and dagger_epochs must be >= 1")
        if self.dagger_first_epochs < 0:
            raise ValueError(f"dagger_first_epochs must be >= 0, got {self.dagger_first_epochs}")
        if not 0.0 <= self.dagger_teacher_share <= 1.0:
            raise ValueError(
                f"dagger_teacher_share must be in [0, 1], got {self.dagger_teacher_share}"
            )
        self.dagger_decks = _deck_shares("dagger_decks", self.dagger_decks)
        self.dagger_lead_teachers = _kind_teachers(
            "dagger_lead_teachers", self.dagger_lead_teachers
        )
        self.dagger_follow_teachers = _kind_teachers(
            "dagger_follow_teachers", self.dagger_follow_teachers
        )


@dataclasses.dataclass
class EvalConfig:
    """Arena evaluations during the run."""

    eval_every: int = 10
    """Updates between arena evaluations against the baselines (0: never)."""
    eval_deals: int = 20
    """Duplicate deals per baseline at each evaluation."""
    eval_opponents: list[str] = dataclasses.field(default_factory=lambda: ["random", "greedy"])
    """Agent specs the evaluation plays against."""

    def __post_init__(self) -> None:
        _check_ranges(self)
        for spec in self.eval_opponents:
            try:
                load_agent(spec)
            except ValueError as error:
                raise ValueError(f"eval_opponents: {error}") from None


@dataclasses.dataclass
class TrainConfig:
    """Self-play PPO and its warm starts, in sections. Steps are env steps of
    learner-controlled seats (card-by-card)."""

    run: RunConfig = dataclasses.field(default_factory=RunConfig)
    game: GameConfig = dataclasses.field(default_factory=GameConfig)
    model: ModelConfig = dataclasses.field(default_factory=ModelConfig)
    ppo: PPOConfig = dataclasses.field(default_factory=PPOConfig)
    league: LeagueConfig = dataclasses.field(default_factory=LeagueConfig)
    shaping: ShapingConfig = dataclasses.field(default_factory=ShapingConfig)
    distill: DistillConfig = dataclasses.field(default_factory=DistillConfig)
    eval: EvalConfig = dataclasses.field(default_factory=EvalConfig)

    @property
    def env_options(self) -> dict[str, Any]:
        return self.game.env_options

    def to_dict(self) -> dict[str, Any]:
        """Every field by its flat name: what checkpoints, policy files and workers keep."""
        return {
            name: value
            for section in SECTIONS
            for name, value in dataclasses.asdict(getattr(self, section)).items()
        }

    def to_sections(self) -> dict[str, dict[str, Any]]:
        """The config as a YAML file writes it, section by section."""
        return {section: dataclasses.asdict(getattr(self, section)) for section in SECTIONS}


SECTIONS: dict[str, type] = {
    "run": RunConfig,
    "game": GameConfig,
    "model": ModelConfig,
    "ppo": PPOConfig,
    "league": LeagueConfig,
    "shaping": ShapingConfig,
    "distill": DistillConfig,
    "eval": EvalConfig,
}
"""Each section of a config and its dataclass."""
SECTION_OF: dict[str, str] = {
    field.name: section for section, kind in SECTIONS.items() for field in dataclasses.fields(kind)
}
"""The section each (flat) key belongs to."""


def _check_ranges(section: object) -> None:
    """Each of ``section``'s numeric fields within its :data:`RANGES`."""
    for field in dataclasses.fields(section):  # type: ignore[arg-type]
        if field.name in RANGES:
            low, high = RANGES[field.name]
            value = getattr(section, field.name)
            if not low <= value <= high:
                raise ValueError(f"{field.name} must be in [{low}, {high}], got {value}")


def _deck_shares(name: str, value: Any) -> dict[int, float]:
    """``value`` as {deck count: share}, or an error naming ``name``."""
    try:
        shares = {int(k): v for k, v in dict(value).items()}
    except (TypeError, ValueError):
        shares = {}
    valid = all(
        isinstance(v, int | float) and not isinstance(v, bool) and v > 0 for v in shares.values()
    )
    if not shares or not set(shares) <= {1, 2, 3} or not valid:
        raise ValueError(f"{name} must map deck counts 1, 2 or 3 to positive shares, got {value}")
    return shares


def _kind_teachers(name: str, value: Any) -> dict[int, str]:
    """``value`` as {deck count: rule-based agent spec}, or an error naming ``name``."""
    try:
        teachers = {int(k): v for k, v in dict(value).items()}
    except (TypeError, ValueError):
        teachers = None
    if teachers is None or not set(teachers) <= {1, 2, 3}:
        raise ValueError(f"{name} must map deck counts 1, 2 or 3 to agents, got {value}")
    for decks, spec in teachers.items():
        if not (isinstance(spec, str) and is_rule_based(spec)):
            raise ValueError(
                f"{name}[{decks}] must be a rule-based agent such as heuristic, got {spec!r}"
            )
    return teachers


def draw_decks(shares: dict[int, float], rng: np.random.Generator) -> int:
    """A deck count drawn from ``shares`` ({deck count: share})."""
    decks, weights = zip(*sorted(shares.items()), strict=True)
    return int(rng.choice(decks, p=np.array(weights, dtype=np.float64) / sum(weights)))


RETIRED_KEYS: dict[str, Any] = {
    "dagger_bid_share": 1.0,  # a share of the bid decisions in each distillation pass
    "heuristic_coef": 0.0,  # DAgger-style pull toward the heuristic during PPO
    "bc_departure_weight": 1.0,  # extra clone weight where SearchAgent left the advice
    "bc_values": "",  # first-card values (train.improve), five keys
    "bc_value_parts": 0,
    "bc_value_points": 0.5,
    "bc_value_temperature": 0.1,
    "bc_value_coef": 0.1,
}
"""Keys of experiments that found no gain (results in the journal, docs/journal/), with the
value that turned each off: accepted at that value, so configs and checkpoints of old runs
still load and resume; refused at any other."""
RETIRED_VALUES = {("network", "canonical"): "counting (canonical slots plus card counting)"}


def _without_retired(data: dict[str, Any]) -> dict[str, Any]:
    """``data`` less the retired keys at their old defaults; any other use is refused."""
    for (key, value), instead in RETIRED_VALUES.items():
        if data.get(key) == value:
            raise ValueError(f"{key}: {value!r} was retired (no gain); use {instead}")
    kept = {}
    for key, value in data.items():
        if key not in RETIRED_KEYS:
            kept[key] = value
        elif value != RETIRED_KEYS[key]:
            raise ValueError(
                f"{key} was retired (an experiment without gain, see docs/journal/); only "
                f"its old default {RETIRED_KEYS[key]!r} is accepted, got {value!r}"
            )
    return kept


def _field_types() -> dict[str, Any]:
    """Every field of every section, by its (flat) name, with its type."""
    return {
        name: kind
        for section in SECTIONS.values()
        for name, kind in typing.get_type_hints(section).items()
    }


def _check_type(name: str, value: Any, expected: Any) -> Any:
    origin = typing.get_origin(expected) or expected
    if origin is float and isinstance(value, int) and not isinstance(value, bool):
        return float(value)
    if origin is bool and not isinstance(value, bool):
        raise ValueError(f"{name} must be true or false, got {value!r}")
    if origin is int and (isinstance(value, bool) or not isinstance(value, int)):
        raise ValueError(f"{name} must be an integer, got {value!r}")
    if not isinstance(value, origin):
        raise ValueError(f"{name} must be a {origin.__name__}, got {value!r}")
    return value


def flat_settings(data: dict[str, Any]) -> dict[str, Any]:
    """``data`` with its sections (``ppo: {learning_rate: 1e-4}``) and dotted keys
    (``ppo.learning_rate``) opened into flat keys; flat keys pass as they are. A key given
    under a section it does not belong to is refused by name."""
    flat: dict[str, Any] = {}
    for key, value in data.items():
        section, dot, inner = str(key).partition(".")
        if dot:
            flat.update(_section_settings(section, {inner: value}))
        elif key in SECTIONS:
            if not isinstance(value, dict):
                raise ValueError(f"{key}: a section maps its keys to values, got {value!r}")
            flat.update(_section_settings(key, value))
        else:
            flat[key] = value
    return flat


def _section_settings(section: str, values: dict[str, Any]) -> dict[str, Any]:
    if section not in SECTIONS:
        raise ValueError(f"unknown config section {section!r}; sections: {', '.join(SECTIONS)}")
    for key in values:
        owner = SECTION_OF.get(key)
        if owner is not None and owner != section:
            raise ValueError(f"{section}.{key}: {key} belongs in the section {owner}")
    return dict(values)


def config_from_dict(data: dict[str, Any]) -> TrainConfig:
    """A config from a mapping of sections or flat keys (or both); unknown keys, wrong types
    and retired experiments (other than at their old defaults) raise ``ValueError``."""
    settings = _without_retired(flat_settings(data))
    types = _field_types()
    unknown = sorted(set(settings) - set(types))
    if unknown:
        raise ValueError(
            f"unknown config key(s) {', '.join(unknown)}; known: {', '.join(sorted(types))}"
        )
    checked = {name: _check_type(name, value, types[name]) for name, value in settings.items()}
    return TrainConfig(
        **{
            section: kind(**{k: v for k, v in checked.items() if SECTION_OF[k] == section})
            for section, kind in SECTIONS.items()
        }
    )


def parse_override(text: str) -> tuple[str, Any]:
    """``key=value`` with the value read as YAML (``lr=1e-4``, ``opponents={self: 1}``)."""
    key, sep, value = text.partition("=")
    if not sep or not key:
        raise ValueError(f"override {text!r} is not key=value")
    try:
        return key.strip(), yaml.safe_load(value)
    except yaml.YAMLError as error:
        raise ValueError(f"override {text!r}: the value is not valid YAML ({error})") from None


def config_overrides(path: Path | None, overrides: Sequence[str] = ()) -> dict[str, Any]:
    """The keys a YAML file (if any) and ``key=value`` overrides set, flat and unchecked."""
    data: dict[str, Any] = {}
    if path is not None:
        if not Path(path).is_file():
            raise ValueError(f"no config file at {path}")
        try:
            loaded = yaml.safe_load(Path(path).read_text(encoding="utf-8"))
        except yaml.YAMLError as error:
            raise ValueError(f"{path} is not valid YAML: {error}") from None
        if loaded is not None and not isinstance(loaded, dict):
            raise ValueError(f"{path}: a config is a mapping of keys to values")
        data.update(flat_settings(loaded or {}))
    for text in overrides:
        key, value = parse_override(text)
        data.update(flat_settings({key: value}))
    return data


def load_config(path: Path | None, overrides: Sequence[str] = ()) -> TrainConfig:
    return config_from_dict(config_overrides(path, overrides))
