"""Retired experiments: their keys load at the old defaults and are refused otherwise."""

import dataclasses

import pytest
import torch

from shengji_env.train.config import (
    RETIRED_KEYS,
    SECTION_OF,
    SECTIONS,
    TrainConfig,
    config_from_dict,
    load_config,
)


@pytest.mark.parametrize("key", sorted(RETIRED_KEYS))
def test_a_retired_key_at_its_old_default_is_dropped(key):
    config = config_from_dict({key: RETIRED_KEYS[key], "total_steps": 7})
    assert config.ppo.total_steps == 7 and key not in config.to_dict()


@pytest.mark.parametrize(
    ("setting", "message"),
    [
        ("heuristic_coef=1.0", r"heuristic_coef was retired.*old default 0\.0.*got 1\.0"),
        ("bc_departure_weight=4", r"bc_departure_weight was retired.*got 4"),
        ("bc_values=runs/values", r"bc_values was retired.*got 'runs/values'"),
        ("bc_value_parts=3", r"bc_value_parts was retired"),
        ("bc_value_points=1.0", r"bc_value_points was retired"),
        ("bc_value_temperature=1.0", r"bc_value_temperature was retired"),
        ("bc_value_coef=0.5", r"bc_value_coef was retired"),
        ("network=canonical", r"network: 'canonical' was retired.*use counting"),
        ("dagger_bid_share=0.5", r"dagger_bid_share was retired.*old default 1\.0"),
    ],
)
def test_a_retired_experiment_is_refused_by_name(setting, message):
    with pytest.raises(ValueError, match=message):
        load_config(None, [setting])


def test_the_config_has_sections_of_live_fields():
    assert list(TrainConfig.__dataclass_fields__) == list(SECTIONS)
    sizes = {name: len(dataclasses.fields(kind)) for name, kind in SECTIONS.items()}
    assert max(sizes.values()) <= 30, sizes
    assert sum(sizes.values()) <= 61  # 62 flat fields before the sections
    assert not set(SECTION_OF) & set(RETIRED_KEYS)


def test_a_sectioned_file_flat_keys_and_dotted_overrides_make_the_same_config(tmp_path):
    sectioned = tmp_path / "sections.yaml"
    sectioned.write_text("ppo: {learning_rate: 0.001, total_steps: 9}\nmodel: {advice: true}\n")
    flat = tmp_path / "flat.yaml"
    flat.write_text("learning_rate: 0.001\ntotal_steps: 9\nadvice: true\n")
    expected = load_config(sectioned)
    assert expected.ppo.learning_rate == 0.001 and expected.model.advice
    assert load_config(flat) == expected
    assert load_config(None, ["ppo.learning_rate=0.001", "total_steps=9", "advice=true"]) == (
        expected
    )
    assert config_from_dict(expected.to_dict()) == expected  # checkpoints keep the flat form
    assert config_from_dict(expected.to_sections()) == expected


@pytest.mark.parametrize(
    ("settings", "message"),
    [
        ({"ppo": {"advice": True}}, r"ppo\.advice: advice belongs in the section model"),
        ({"ppo.advice": True}, r"ppo\.advice: advice belongs in the section model"),
        ({"training": {"seed": 1}}, r"unknown config key\(s\) training"),
        ({"training.seed": 1}, r"unknown config section 'training'; sections: run, game"),
        ({"ppo": 3}, r"ppo: a section maps its keys to values, got 3"),
        ({"ppo": {"lerning_rate": 1}}, r"unknown config key\(s\) lerning_rate"),
    ],
)
def test_a_misplaced_key_or_section_is_refused_by_name(settings, message):
    with pytest.raises(ValueError, match=message):
        config_from_dict(settings)


def test_a_config_with_a_retired_setting_is_refused_for_training_but_its_policy_plays():
    from pathlib import Path

    from shengji_env.agents import load_agent

    policy = Path(__file__).parents[2] / "models/full-v4/policy.pt"
    config = torch.load(policy, weights_only=True)["config"]
    config["heuristic_coef"] = 1.0  # the retired guidance of full-v2 (2026-11)
    with pytest.raises(ValueError, match="heuristic_coef was retired"):
        config_from_dict(config)
    load_agent(f"ppo:{policy.parent}")


BAD_SETTINGS = [  # (key=value, what the message must say) — refused before anything runs
    ("hidden_sizes=[x, 2]", r"hidden_sizes must be a list of widths >= 1"),
    ("hidden_sizes=[]", r"hidden_sizes must be a list of widths >= 1"),
    ("hidden_sizes=[0]", r"hidden_sizes must be a list of widths >= 1"),
    ("hidden_sizes=64", r"hidden_sizes must be a list"),
    ("rules={decks: 9}", r"rules: give the deck count as the top-level key decks"),
    ("rules={twos: true}", r"unknown rule option.*twos"),
    ("rules={start_level: 1}", r"start_level must be a string"),
    ("rules={start_level: Z}", r"start_level must be a rank"),
    ("decks=9", r"decks must be one of 1, 2, 3"),
    ("decks=2.0", r"decks must be an integer"),
    ("learning_rate=-1", r"learning_rate must be in \[1e-12, 1.0\], got -1"),
    ("learning_rate=.nan", r"learning_rate must be in"),
    ("learning_rate=fast", r"learning_rate must be a float"),
    ("bc_learning_rate=0", r"bc_learning_rate must be in"),
    ("gamma=1.5", r"gamma must be in"),
    ("gae_lambda=-0.1", r"gae_lambda must be in"),
    ("clip_coef=0", r"clip_coef must be in"),
    ("ent_coef=-0.01", r"ent_coef must be in"),
    ("max_grad_norm=0", r"max_grad_norm must be in"),
    ("target_kl=-1", r"target_kl must be in"),
    ("checkpoint_every=0", r"checkpoint_every must be in \[1,"),
    ("max_snapshots=0", r"max_snapshots must be in \[1,"),
    ("snapshot_every=0", r"snapshot_every must be in \[1,"),
    ("eval_every=-1", r"eval_every must be in \[0,"),
    ("eval_deals=0", r"eval_deals must be in \[1,"),
    ("eval_opponents=[nobody]", r"eval_opponents: unknown agent 'nobody'"),
    ("eval_opponents=[search:rollouts=x]", r"eval_opponents: option rollouts='x'"),
    ("num_workers=-1", r"num_workers must be in \[0,"),
    ("torch_threads=0", r"torch_threads must be in \[1,"),
    ("total_steps=0", r"total_steps must be in \[1,"),
    ("total_steps=1e6", r"total_steps must be an integer"),
    ("steps_per_update=true", r"steps_per_update must be an integer"),
    ("update_epochs=0", r"update_epochs must be in"),
    ("seed=-1", r"seed must be in"),
    ("anneal_lr=maybe", r"anneal_lr must be true or false"),
    ("advice=1", r"advice must be true or false"),
    ("opponents={self: yes}", r"opponents: weights must be numbers"),
    ("opponents={self: -1, heuristic: 2}", r"opponents: weights must be >= 0"),
    ("opponents={}", r"opponents: weights must be >= 0 and not all zero"),
    ("opponents={bots: 1}", r"opponents: unknown kind"),
    ("network=transformer", r"network must be one of mlp, counting"),
    ("card_play_features=true", r"card_play_features needs network: cards"),
    ("card_deck_context=true", r"card_deck_context needs network: cards"),
    ("backend=slurm", r"backend must be one of local, ray"),
    ("ppo_decks={2: 0}", r"ppo_decks must map deck counts 1, 2 or 3 to positive shares"),
    ("ppo_decks={5: 1}", r"ppo_decks must map deck counts 1, 2 or 3"),
    ("ppo_decks={2: yes}", r"ppo_decks must map deck counts"),
    ("failed_throw_cost=-0.1", r"failed_throw_cost must be in \[0.0, 10.0\]"),
    ("point_gain_coef=-1", r"point_gain_coef must be in \[0.0, 10.0\]"),
    ("bc_label_parts=3", r"bc_label_parts needs bc_labels"),
    ("bc_label_rollouts=0", r"bc_label_rollouts must be in"),
    ("run_name=[a]", r"run_name must be a str"),
    ("learning_rate=[1", r"override 'learning_rate=\[1': the value is not valid YAML"),
    ("nonsense", r"override 'nonsense' is not key=value"),
]


@pytest.mark.parametrize(("setting", "message"), BAD_SETTINGS)
def test_a_bad_setting_is_refused_before_the_run_with_its_key(setting, message):
    with pytest.raises(ValueError, match=message):
        load_config(None, [setting])


def test_a_missing_or_broken_config_file_is_named(tmp_path):
    with pytest.raises(ValueError, match="no config file at"):
        load_config(tmp_path / "missing.yaml")
    broken = tmp_path / "broken.yaml"
    broken.write_text("a: [1\n")
    with pytest.raises(ValueError, match=r"broken\.yaml is not valid YAML"):
        load_config(broken)
