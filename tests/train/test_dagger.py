"""Distillation on the student's own states (shengji_env.train.dagger): labels, exact resume, the
student it makes, and the config's checks."""

from pathlib import Path

import numpy as np
import pytest

from shengji_env.actions import COMMIT, DecisionKind
from shengji_env.agents import load_agent
from shengji_env.agents.policy_file import load_checkpoint
from shengji_env.encoding import OBS_LAYOUT, PHASE_SLOTS, deck_counts
from shengji_env.train.config import config_from_dict, load_config
from shengji_env.train.dagger import (
    BID_COLUMN,
    Labels,
    RoundSpec,
    label_part,
    load_labels,
    make_round,
    round_folder,
)
from shengji_env.train.ppo import train

from .helpers import same_weights, tiny

DAGGER = [
    "network=cards",
    "card_width=8",
    "card_blocks=1",
    "bc_steps=0",
    "dagger_rounds=2",
    "dagger_parts_per_round=2",
    "dagger_hands_per_part=1",
    "dagger_decks={1: 1.0, 3: 1.0}",
    "start=mid_match",
    "num_workers=0",
    "total_steps=600",
]


def test_round_zero_labels_are_the_teachers_own_play():
    spec = RoundSpec("models/full-v4", None, None, {1: 1.0}, {}, 1, 0.0, 0)
    labels = Labels.from_arrays(label_part(spec, 0))
    assert len(labels) > 50
    targets = labels.targets.astype(np.float32)
    assert np.allclose(targets.sum(1), 1.0, atol=1e-2)
    assert (targets[labels.masks == 0] == 0).all()  # no weight on an illegal action
    assert set(np.unique(labels.returns)) <= {float(r) for r in range(-6, 7)}
    assert Labels.from_arrays(label_part(spec, 0)).obs.tobytes() == labels.obs.tobytes()


def test_a_distilled_run_resumes_exactly_and_plays(tmp_path):
    whole = train(tiny(tmp_path / "a", *DAGGER))
    first = train(tiny(tmp_path / "b", *DAGGER), max_rounds=1)  # stops after round 1
    data = load_checkpoint(first / "checkpoint.pt")
    assert data["dagger_round"] == 1 and data["update"] == 0
    resumed = train(resume=first / "checkpoint.pt")
    a, b = load_checkpoint(whole / "checkpoint.pt"), load_checkpoint(resumed / "checkpoint.pt")
    assert a["dagger_round"] == b["dagger_round"] == 2
    assert same_weights(a["model"], b["model"]) and a["update"] == b["update"] > 0
    assert (whole / "distilled" / "policy.pt").exists()
    agent = load_agent(f"ppo:{whole / 'distilled'}")
    assert not agent.net.advised


def test_a_fit_stopped_for_time_goes_on_to_the_unbroken_runs_weights(tmp_path):
    small = [*DAGGER, "dagger_first_epochs=2", "bc_minibatch_size=64"]
    whole = train(tiny(tmp_path / "a", *small), max_rounds=2)
    run = train(tiny(tmp_path / "b", *small), max_seconds=0)
    stopped_in = []  # the round whose fit each call stopped inside
    while (data := load_checkpoint(run / "checkpoint.pt"))["dagger_round"] < 2:
        if data.get("dagger_fit") is not None:
            assert data["dagger_fit"]["step"] >= 1  # each call takes at least one step
            assert data["dagger_round"] == len(data["dagger_students"]) - 1
            stopped_in.append(data["dagger_round"])
        run = train(resume=run / "checkpoint.pt", max_seconds=0)
    assert 0 in stopped_in and 1 in stopped_in
    a, b = load_checkpoint(whole / "checkpoint.pt"), data
    assert a["dagger_round"] == b["dagger_round"] == 2 and b["update"] == 0
    assert same_weights(a["model"], b["model"])
    assert same_weights(a["dagger_students"][1], b["dagger_students"][1])


def test_a_round_whose_labels_are_gone_is_labelled_again_the_same(tmp_path):
    run = train(tiny(tmp_path, *DAGGER), max_rounds=1)  # round 1 of 2
    run = train(resume=run / "checkpoint.pt", max_rounds=1)  # round 2, then it stops
    data = load_checkpoint(run / "checkpoint.pt")
    assert data["dagger_round"] == 2 and data["update"] == 0
    config, students = config_from_dict(data["config"]), data["dagger_students"]
    assert students[0] is None and students[1] is not None  # round 1: the student plays
    folder = round_folder(run, 1)
    before = load_labels(folder, config.distill.dagger_parts_per_round)
    for part in folder.iterdir():
        part.unlink()
    again = make_round(run, config, 1, students[1])
    assert again.obs.tobytes() == before.obs.tobytes()
    assert again.targets.tobytes() == before.targets.tobytes()


@pytest.mark.parametrize(
    ("override", "message"),
    [
        ("dagger_decks={4: 1.0}", "dagger_decks must map deck counts 1, 2 or 3"),
        ("dagger_teacher_share=1.5", "dagger_teacher_share must be in"),
        ("dagger_rounds=-1", "dagger_rounds must be >= 0"),
        ("dagger_first_epochs=-2", "dagger_first_epochs must be >= 0, got -2"),
        ("start=first", "start must be one of"),
        ("opponents={heuristc: 1.0}", "unknown kind .heuristc.: neither"),
    ],
)
def test_bad_distillation_settings_are_refused(override, message):
    with pytest.raises(ValueError, match=message):
        load_config(None, [override])


def test_a_stand_alone_network_refuses_advice(tmp_path: Path):
    with pytest.raises(ValueError, match="stand-alone"):
        load_config(None, ["network=cards", "advice=true"])


RECIPES = sorted((Path(__file__).parents[2] / "configs").glob("standalone*.yaml"))


def test_the_recipes_are_there():
    assert [recipe.name for recipe in RECIPES] == ["standalone_budget3.yaml"]


@pytest.mark.parametrize("recipe", RECIPES, ids=lambda recipe: recipe.name)
def test_the_standalone_recipes_run_end_to_end_in_miniature(tmp_path, recipe):
    config = load_config(
        recipe,
        [
            f"run_dir={tmp_path}",
            "card_width=8",
            "dagger_rounds=2",
            "dagger_parts_per_round=2",
            "dagger_hands_per_part=1",
            "total_steps=400",
            "steps_per_update=200",
            "envs_per_worker=2",
            "num_workers=0",
            "eval_every=0",
        ],
    )
    run = train(config)
    data = load_checkpoint(run / "checkpoint.pt")
    assert data["dagger_round"] == 2 and data["global_step"] >= 400
    assert data["config"]["network"] == "cards" and not data["config"]["advice"]
    assert load_agent(f"ppo:{run / 'checkpoint.pt'}").net.advised is False


def test_heuristic_bids_label_every_bid_by_the_heuristic():
    spec = RoundSpec("models/full-v4", None, None, {2: 1.0}, {}, 2, 0.0, 0, heuristic_bids=True)
    labels = Labels.from_arrays(label_part(spec, 0))
    bidding = labels.obs[:, BID_COLUMN] > 0.5
    targets = labels.targets[bidding].astype(np.float32)
    assert bidding.any() and (targets.max(1) == 1.0).all()  # one-hot: the heuristic's action
    assert (targets.argmax(1) != COMMIT).any()  # it declares (the teacher alone rarely does)
    others = labels.targets[~bidding].astype(np.float32)
    assert (others.max(1) < 1.0).any()  # the other decisions keep the teacher's distribution


def _is_kind(labels: Labels, kind: DecisionKind) -> np.ndarray:
    return labels.obs[:, OBS_LAYOUT["phase"].start + PHASE_SLOTS[kind]] > 0.5


@pytest.mark.parametrize("kind", [DecisionKind.LEAD, DecisionKind.FOLLOW])
def test_kind_teachers_label_their_kind_at_their_deck_counts_only(kind):
    teachers = {f"{kind.name.lower()}_teachers": {3: "heuristic"}}
    spec = RoundSpec(
        "models/standalone-v7", None, None, {2: 1.0, 3: 1.0}, {}, 4, 0.0, 0, **teachers
    )
    labels = Labels.from_arrays(label_part(spec, 0))
    three = deck_counts(labels.obs) == 3
    taught = _is_kind(labels, kind)
    other = DecisionKind.FOLLOW if kind is DecisionKind.LEAD else DecisionKind.LEAD
    targets = labels.targets.astype(np.float32)
    assert (taught & three).any() and (taught & ~three).any()
    assert (targets[taught & three].max(1) == 1.0).all()  # the heuristic's plan, one-hot
    assert (targets[taught & ~three].max(1) < 1.0).any()  # 2 decks: the network's spread
    assert (targets[_is_kind(labels, other) & three].max(1) < 1.0).any()  # and the other kind


@pytest.mark.parametrize("key", ["dagger_lead_teachers", "dagger_follow_teachers"])
@pytest.mark.parametrize(
    "value", [{4: "heuristic"}, {3: "ppo:models/standalone-v7"}, {3: "nobody"}, ["heuristic"]]
)
def test_kind_teachers_must_be_rule_based_agents_at_deck_counts(key, value):
    with pytest.raises(ValueError, match=key):
        config_from_dict({key: value})


def test_a_search_teacher_labels_its_plans_next_card():
    spec = RoundSpec("search:rollouts=4", None, None, {1: 1.0}, {}, 1, 0.0, 0)
    labels = Labels.from_arrays(label_part(spec, 0))
    targets = labels.targets.astype(np.float32)
    assert len(labels) > 50 and (targets.max(1) == 1.0).all()  # one-hot
    assert labels.masks[np.arange(len(labels)), targets.argmax(1)].all()  # and legal
    assert Labels.from_arrays(label_part(spec, 0)).targets.tobytes() == labels.targets.tobytes()


def test_where_the_student_leaves_the_plan_the_search_teacher_has_no_label():
    from shengji_env.agents.network import make_network

    student = {"network": "cards", "card_width": 8, "card_blocks": 1}
    weights = make_network(student).state_dict()
    spec = RoundSpec("search:rollouts=4", student, weights, {1: 1.0}, {}, 2, 0.0, 1)
    played = Labels.from_arrays(label_part(spec, 0))
    targets = played.targets.astype(np.float32)
    assert len(played) > 50 and (targets.max(1) == 1.0).all()
    assert played.masks[np.arange(len(played)), targets.argmax(1)].all()
    teacher_only = RoundSpec("search:rollouts=4", None, None, {1: 1.0}, {}, 2, 0.0, 1)
    assert len(played) != len(Labels.from_arrays(label_part(teacher_only, 0)))


def test_a_teacher_must_be_a_policy_or_a_planning_bot():
    from shengji_env.train.dagger import make_teacher

    with pytest.raises(ValueError, match="not a rule-based"):
        make_teacher("random")
    assert make_teacher("heuristic").agent.name == "heuristic"


def test_the_first_fit_has_its_own_number_of_passes(tmp_path, monkeypatch):
    import shengji_env.train.dagger as dagger

    passes: list[int] = []
    real = dagger.fit_passes

    def counting(net, optimizer, chosen, *args, **kwargs):
        passes.append(len(chosen))
        return real(net, optimizer, chosen, *args, **kwargs)

    monkeypatch.setattr(dagger, "fit_passes", counting)
    run = train(tiny(tmp_path, *DAGGER, "dagger_first_epochs=3", "dagger_epochs=1"), max_rounds=1)
    train(resume=run / "checkpoint.pt", max_rounds=1)
    assert passes == [3, 1]
